//! Rendering every report of a 28-empire turn: JSON, text and HTML (without the map).

use criterion::{Criterion, criterion_group, criterion_main};
use empires_report::{Turn, html, report_with, shared, text};
use empires_rules::map::generate;
use empires_rules::order::{Order, Turnsheet, Verb};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{Map, Variant, adjudicate};
use std::collections::BTreeMap;
use std::hint::black_box;

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
    };
    c.bench_function("all reports of a 28-empire turn (json, text, html)", |b| {
        b.iter(|| {
            let mut bytes = 0;
            let sh = shared(black_box(&turn));
            let (mut text_shared, mut html_shared) = (None, None);
            for e in &out.state.empires {
                let r = report_with(&turn, &sh, e.code);
                let ts = text_shared.get_or_insert_with(|| text::shared_sections(&r));
                let hs = html_shared.get_or_insert_with(|| html::shared_sections(&r));
                let mut json = Vec::with_capacity(64 * 1024);
                serde_json::to_writer(&mut json, &r).expect("json");
                bytes += json.len();
                bytes += text::render_with(&r, 16, ts).len();
                bytes += html::render_with(&r, 16, None, hs).len();
            }
            bytes
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
