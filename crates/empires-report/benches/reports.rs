//! Rendering every report of a 28-empire turn: JSON, text and HTML (without the map).

use criterion::{Criterion, criterion_group, criterion_main};
use empires_report::{Turn, html, report, text};
use empires_rules::map::generate;
use empires_rules::order::{Order, Turnsheet, Verb};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{Map, Options, Variant, adjudicate};
use std::collections::BTreeMap;
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let map = Map::from_file(generate::grid(16, 14, 28), "grid").expect("grid map");
    let st = new_game(
        &map,
        &NewGame {
            name: "bench".into(),
            variant: Variant::World,
            seed: 1,
            players: BTreeMap::new(),
            options: Options::default(),
        },
    )
    .expect("new game");
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
            for e in &out.state.empires {
                let r = report(black_box(&turn), e.code);
                bytes += serde_json::to_string(&r).expect("json").len();
                bytes += text::render(&r, 16).len();
                bytes += html::render(&r, 16, None).len();
            }
            bytes
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
