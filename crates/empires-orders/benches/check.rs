//! Reading and checking a 16-action turnsheet, and forecasting it, on a 28-empire game.

use criterion::{Criterion, criterion_group, criterion_main};
use empires_orders::{Context, check, parse_sheet};
use empires_rules::engine::forecast;
use empires_rules::map::generate;
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{Map, Variant};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let map = Map::from_file(generate::grid(16, 14, 28), "grid").expect("grid map");
    let game = NewGame::without_players("bench", Variant::World, 1);
    let st = new_game(&map, &game).expect("new game");
    let empire = st.empires[0].code;
    let own: Vec<String> = st
        .owned_by(empire)
        .map(|a| map.code(a).to_string())
        .collect();
    let (h, o) = (&own[0], &own[1]);
    let text = format!(
        "GAME bench\nTURN 1\nEMPIRE {empire}\n\
         TAX\nCASH 10\nGROW {h}\nFORTIFY {h} 1\nRESERVE {h} 2\nMOVE {h} {o} 1\n\
         RETREAT {o} {h}\nATACK {h} XYZ AB-1\nSPY {h} {o}\nENTRENCH {o} {h}\nFIND - AB\n\
         LEVY {o}\nSTASH 1\nARMY 2\nRESERVE {h} 1\nORDER\n\
         MESSAGE Greetings to all\nPHONE 0123 456\n"
    );
    let cx = Context {
        map: &map,
        state: &st,
        empire,
    };
    assert_eq!(parse_sheet(&text).actions.len(), 16);
    c.bench_function("parse and check a 16-action turnsheet", |b| {
        b.iter(|| {
            let sheet = parse_sheet(black_box(&text));
            check(&sheet, black_box(&cx))
        })
    });
    let sheet = parse_sheet(&text).turnsheet();
    c.bench_function("forecast a 16-action turnsheet", |b| {
        b.iter(|| {
            forecast(black_box(&map), black_box(&st), empire, black_box(&sheet)).expect("forecast")
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
