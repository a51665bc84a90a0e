//! Times each stage of one whole World Empires turn (computer orders, adjudication, and each
//! kind of report), for finding where the time goes:
//!
//! ```text
//! cargo run --release -p empires-ai --example world_turn_profile
//! ```
//!
//! prints the mean time per turn of each stage, one after another (the maps drawn into the
//! HTML reports among them, from the map's geometry worked out once), then of the turn as
//! `empires turn` plays it without the maps (reports rendered on every core). `RUNS=n` sets the number of
//! turns (2000 by default); `ONLY=turn` plays only the whole turns, for counting
//! instructions under `valgrind --tool=callgrind`.

use empires_ai::sim::{complete_orders, computer_turn};
use empires_maps::draw::{Base, DrawOptions};
use empires_report::{Turn, gm, html, render_every, report_with, shared, text};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{GameState, Map, Variant, adjudicate};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

// The allocator the `empires` command uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const STAGES: [&str; 9] = [
    "computer orders",
    "adjudication",
    "shared parts",
    "report models",
    "json",
    "text",
    "html",
    "gm summary",
    "maps",
];

fn main() {
    let map = Map::from_toml(include_str!("../../../maps/world.toml"), "world.toml").expect("map");
    let mut st = new_game(
        &map,
        &NewGame::without_players("profile", Variant::World, 1),
    )
    .expect("new game");
    for _ in 0..8 {
        st = computer_turn(&map, &st).expect("turn").state;
    }
    let runs: u32 = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(2000);
    let per_turn = |d: Duration| d.as_secs_f64() * 1e6 / f64::from(runs.max(1));
    if std::env::var("ONLY").as_deref() != Ok("turn") {
        stages(&map, &st, runs, per_turn);
    }
    let c = Instant::now();
    for _ in 0..runs {
        whole_turn(&map, &st);
    }
    println!("As `empires turn` plays it (reports on every core):");
    println!("{:>16}: {:>8.1} µs", "whole turn", per_turn(c.elapsed()));
}

/// One turn as the `empires turn` command plays it, without the maps and the files.
fn whole_turn(map: &Map, st: &GameState) -> usize {
    let orders = complete_orders(map, st, &BTreeMap::new());
    let out = adjudicate(map, st, &orders).expect("turn");
    let turn = Turn {
        map,
        state: &out.state,
        events: &out.events,
        computer_written: &[],
        gm_messages: &[],
        sheet_game: None,
    };
    let reports = render_every(&turn, None, None, |_| None).expect("reports");
    reports.empires.len()
}

/// Each stage on its own, one after another.
fn stages(map: &Map, st: &GameState, runs: u32, per_turn: impl Fn(Duration) -> f64) {
    let c = Instant::now();
    let opts = DrawOptions {
        width: 960,
        title: Some(format!("{}, turn {}", st.game, st.turn + 1)),
        graticule: true,
        zoom_label: Some(empires_report::html::MAP_LABEL),
    };
    let base = Base::new(map, &opts).expect("map geometry");
    println!(
        "The map's geometry, once per map: {:.1} ms",
        c.elapsed().as_secs_f64() * 1e3
    );
    let mut t = [Duration::ZERO; STAGES.len()];
    let mut bytes = [0usize; 4];
    let mut clock = |i: usize, c: Instant| t[i] += c.elapsed();
    for _ in 0..runs {
        let c = Instant::now();
        let orders = complete_orders(map, st, &BTreeMap::new());
        clock(0, c);
        let c = Instant::now();
        let out = adjudicate(map, st, &orders).expect("turn");
        clock(1, c);
        let turn = Turn {
            map,
            state: &out.state,
            events: &out.events,
            computer_written: &[],
            gm_messages: &[],
            sheet_game: None,
        };
        let c = Instant::now();
        let sh = shared(&turn);
        let first = report_with(&turn, &sh, out.state.empires[0].code);
        let (tsh, hsh) = (text::shared_sections(&first), html::shared_sections(&first));
        clock(2, c);
        for e in &out.state.empires {
            let c = Instant::now();
            let r = report_with(&turn, &sh, e.code);
            clock(3, c);
            let c = Instant::now();
            bytes[0] += serde_json::to_string(&r).expect("json").len();
            clock(4, c);
            let c = Instant::now();
            bytes[1] += text::render_with(&r, text::Blank::titled(&r, 16), &tsh).len();
            clock(5, c);
            let c = Instant::now();
            bytes[2] += html::render_with(&r, text::Blank::titled(&r, 16), None, &hsh).len();
            clock(6, c);
            let c = Instant::now();
            bytes[3] += empires_maps::draw::overlay(
                &base.layers.layout,
                map,
                Some((&out.state, Some(e.code))),
                None,
            )
            .expect("map")
            .len();
            clock(8, c);
        }
        let c = Instant::now();
        std::hint::black_box(gm::summary_with(&turn, &sh));
        clock(7, c);
    }
    println!("One stage after another:");
    for (name, d) in STAGES.iter().zip(t) {
        println!("{name:>16}: {:>8.1} µs", per_turn(d));
    }
    println!("{:>16}: {:>8.1} µs", "whole turn", per_turn(t.iter().sum()));
    for (name, b) in ["json", "text", "html", "maps"].iter().zip(bytes) {
        println!("{name:>16}: {:>8} bytes a turn", b / runs.max(1) as usize);
    }
}
