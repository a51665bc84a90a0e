//! Writes one kingdom's report on the standard map after a quiet first turn, in every
//! form, to `/tmp/napoleonic-report.{json,txt,html,svg,png}`: for looking at.
//!
//! `cargo run -p napoleonic-report --example sample [KINGDOM] [MAP.toml]`

use napoleonic_report::draw::{MapDrawer, options};
use napoleonic_report::{html, model, text};
use napoleonic_rules::map::Map;
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::{KingdomCode, KingdomOrders, play};
use std::collections::BTreeMap;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let map = match args.get(1) {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            Map::parse(&text).map_err(|e| e.join("; "))?
        }
        None => napoleonic_rules::standard::europe(),
    };
    let state = new_game(&map, &NewGame::standard(1805))?;
    let kingdom = match args.first() {
        Some(k) => KingdomCode::new(k)?,
        None => map
            .kingdoms
            .first()
            .ok_or("the map has no kingdoms")?
            .code
            .clone(),
    };
    let orders: BTreeMap<KingdomCode, KingdomOrders> = BTreeMap::new();
    let out = play(&map, &state, &orders).map_err(|e| e.to_string())?;
    let r = model::report(&map, &out.state, &out.events, &kingdom, None);
    let started = std::time::Instant::now();
    let drawer = MapDrawer::new(&map, &options())?;
    eprintln!("layer worked out in {:?}", started.elapsed());
    for n in drawer.notes.iter().chain(&drawer.borders) {
        eprintln!("note: {n}");
    }
    let svg = drawer.svg(&map, &r);
    let png = empires_maps::draw::png(&svg)?;
    let write = |ext: &str, bytes: &[u8]| {
        let path = format!("/tmp/napoleonic-report.{ext}");
        std::fs::write(&path, bytes).map_err(|e| format!("{path}: {e}"))
    };
    write("json", model::to_json(&r).as_bytes())?;
    write("txt", text::text(&r).as_bytes())?;
    write("html", html::html(&r, Some(&svg)).as_bytes())?;
    write("svg", svg.as_bytes())?;
    write("png", &png)?;
    eprintln!("svg {} bytes, png {} bytes", svg.len(), png.len());
    Ok(())
}
