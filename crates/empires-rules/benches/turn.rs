//! Adjudicating one turn of a 28-empire game, 16 actions each, on a generated 16x14 map.

use criterion::{Criterion, criterion_group, criterion_main};
use empires_rules::map::generate;
use empires_rules::order::{Order, Turnsheet, Verb};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{EmpireCode, GameState, Map, Variant, adjudicate};
use std::collections::BTreeMap;
use std::hint::black_box;

/// A busy but plausible turnsheet: economy, building, moves and attacks on its borders.
fn orders_for(map: &Map, st: &GameState, code: EmpireCode) -> Turnsheet {
    let own: Vec<_> = st.owned_by(code).collect();
    let c = |id| map.code(id).to_string();
    let mut border = None;
    let mut inner = None;
    for &a in &own {
        for &n in map.neighbours(a) {
            if map.area(n).is_land() && st.area(n).owner != Some(code) && border.is_none() {
                border = Some((a, n));
            }
            if map.area(n).is_land() && st.area(n).owner == Some(code) && inner.is_none() {
                inner = Some((a, n));
            }
        }
    }
    let home = own[0];
    let mut v = vec![
        Order::new(Verb::Tax),
        Order::new(Verb::Cash).n(10),
        Order::new(Verb::Grow).from(&c(home)),
        Order::new(Verb::Fortify).from(&c(home)).n(1),
        Order::new(Verb::Reserve).from(&c(home)).n(2),
    ];
    if let Some((a, b)) = inner {
        v.push(Order::new(Verb::Move).from(&c(a)).to(&c(b)).n(1));
        v.push(Order::new(Verb::Retreat).from(&c(b)).to(&c(a)));
    }
    if let Some((a, b)) = border {
        v.push(Order::new(Verb::Attack).from(&c(a)).to(&c(b)).all_but(1));
        v.push(Order::new(Verb::Spy).from(&c(a)).to(&c(b)));
        v.push(Order::new(Verb::Entrench).from(&c(a)).to(&c(b)));
    }
    v.push(Order::new(Verb::Find).to("AA"));
    v.push(Order::new(Verb::Levy).from(&c(*own.last().unwrap())));
    v.push(Order::new(Verb::Stash).n(1));
    while v.len() < 15 {
        v.push(Order::new(Verb::Tax));
    }
    v.push(Order::new(Verb::Order));
    Turnsheet::of(v)
}

fn bench(c: &mut Criterion) {
    let map = Map::from_file(generate::grid(16, 14, 28), "grid").expect("grid map");
    let game = NewGame::without_players("bench", Variant::World, 1);
    let st = new_game(&map, &game).expect("new game");
    let orders: BTreeMap<EmpireCode, Turnsheet> = st
        .empires
        .iter()
        .map(|e| (e.code, orders_for(&map, &st, e.code)))
        .collect();
    assert_eq!(orders.len(), 28);
    assert!(orders.values().all(|s| s.actions.len() == 16));
    c.bench_function("adjudicate 28 empires x 16 actions", |b| {
        b.iter(|| adjudicate(black_box(&map), black_box(&st), black_box(&orders)).expect("turn"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
