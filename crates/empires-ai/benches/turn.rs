//! One whole turn of a 28-empire World Empires game: computer orders for every empire, the
//! adjudication, and every report (JSON, text, HTML without the map); and one whole
//! simulated game.

use criterion::{Criterion, criterion_group, criterion_main};
use empires_ai::sim::{complete_orders, play_game};
use empires_report::{Turn, html, report_with, shared, text};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{Map, Variant, adjudicate};
use std::collections::BTreeMap;
use std::hint::black_box;

fn world() -> Map {
    let text = include_str!("../../../maps/world.toml");
    Map::from_toml(text, "world.toml").expect("world map")
}

fn bench(c: &mut Criterion) {
    let map = world();
    let mut st =
        new_game(&map, &NewGame::without_players("bench", Variant::World, 1)).expect("new game");
    // A game some turns in, with armies on the move.
    for _ in 0..8 {
        st = empires_ai::sim::computer_turn(&map, &st)
            .expect("turn")
            .state;
    }
    c.bench_function(
        "world turn: computer orders, adjudication and all reports",
        |b| {
            b.iter(|| {
                let orders = complete_orders(&map, black_box(&st), &BTreeMap::new());
                let out = adjudicate(&map, &st, &orders).expect("turn");
                let turn = Turn {
                    map: &map,
                    state: &out.state,
                    events: &out.events,
                    computer_written: &[],
                    gm_messages: &[],
                };
                let sh = shared(&turn);
                let mut bytes = 0;
                let (mut ts, mut hs) = (None, None);
                for e in &out.state.empires {
                    let r = report_with(&turn, &sh, e.code);
                    let t = ts.get_or_insert_with(|| text::shared_sections(&r));
                    let h = hs.get_or_insert_with(|| html::shared_sections(&r));
                    let mut json = Vec::with_capacity(32 * 1024);
                    serde_json::to_writer(&mut json, &r).expect("json");
                    bytes += json.len() + text::render_with(&r, 16, t).len();
                    bytes += html::render_with(&r, 16, None, h).len();
                }
                bytes
            })
        },
    );
    c.bench_function("world turn: computer orders and adjudication", |b| {
        b.iter(|| {
            let orders = complete_orders(&map, black_box(&st), &BTreeMap::new());
            adjudicate(&map, &st, &orders).expect("turn")
        })
    });
    let mut group = c.benchmark_group("whole game");
    group.sample_size(10);
    group.bench_function("a complete simulated World Empires game", |b| {
        b.iter(|| play_game(&map, Variant::World, black_box(7), 200, |_| {}).expect("game"))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
