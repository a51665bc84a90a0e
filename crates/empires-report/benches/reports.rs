//! Rendering every report of a 28-empire turn: JSON, text and HTML (without the map).

use criterion::{Criterion, criterion_group, criterion_main};
use empires_report::{Turn, render_every};
use empires_rules::map::generate;
use empires_rules::order::{Order, Turnsheet, Verb};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{Map, Variant, adjudicate};
use std::collections::BTreeMap;
use std::hint::black_box;

// The allocator the `empires` command uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench(c: &mut Criterion) {
    let map = Map::from_file(generate::grid(16, 14, 28), "grid").expect("grid map");
    let st =
        new_game(&map, &NewGame::without_players("bench", Variant::World, 1)).expect("new game");
    let orders: BTreeMap<_, _> = st
        .empires
        .iter()
        .map(|e| {
            let own: Vec<_> = st.owned_by(e.code).collect();
            let home = map.code(own[0]).to_string();
            let mut v = vec![Order::new(Verb::Grow).from(&home)];
            for &a in &own {
                for &n in map.neighbours(a) {
                    if map.area(n).is_land() && st.area(n).owner != Some(e.code) && v.len() < 8 {
                        v.push(
                            Order::new(Verb::Attack)
                                .from(&map.code(a).to_string())
                                .to(&map.code(n).to_string())
                                .all_but(1),
                        );
                    }
                }
            }
            while v.len() < 16 {
                v.push(Order::new(Verb::Tax));
            }
            (e.code, Turnsheet::of(v))
        })
        .collect();
    let out = adjudicate(&map, &st, &orders).expect("turn");
    let turn = Turn {
        map: &map,
        state: &out.state,
        events: &out.events,
        computer_written: &[],
        gm_messages: &[],
        sheet_game: None,
    };
    c.bench_function("all reports of a 28-empire turn (json, text, html)", |b| {
        b.iter(|| render_every(black_box(&turn), None, None, |_| None).expect("reports"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
