//! Plays the benchmark turn many times, for profilers: `cargo run --release --example
//! turn_profile -p empires-rules`. Prints the mean time per turn.

use empires_rules::map::generate;
use empires_rules::order::{Order, Turnsheet, Verb};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{EmpireCode, Map, Variant, adjudicate};
use std::collections::BTreeMap;
use std::time::Instant;

fn main() {
    let map = Map::from_file(generate::grid(16, 14, 28), "grid").expect("grid map");
    let game = NewGame::without_players("profile", Variant::World, 1);
    let st = new_game(&map, &game).expect("new game");
    let orders: BTreeMap<EmpireCode, Turnsheet> = st
        .empires
        .iter()
        .map(|e| {
            let home = map
                .code(st.owned_by(e.code).next().expect("home"))
                .to_string();
            let mut v = vec![
                Order::new(Verb::Grow).from(&home),
                Order::new(Verb::Fortify).from(&home).n(1),
            ];
            while v.len() < 16 {
                v.push(Order::new(Verb::Tax));
            }
            (e.code, Turnsheet::of(v))
        })
        .collect();
    let runs = 2000;
    let start = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(adjudicate(&map, &st, &orders).expect("turn"));
    }
    println!(
        "{:.1} µs per turn",
        start.elapsed().as_secs_f64() * 1e6 / runs as f64
    );
}
