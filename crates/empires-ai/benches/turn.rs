//! One whole turn of a 28-empire World Empires game: computer orders for every empire, the
//! adjudication, and every report (JSON, text and HTML for each empire, without the maps,
//! and the GM's summary), as `empires turn` makes them; and one whole simulated game.

use criterion::{Criterion, criterion_group, criterion_main};
use empires_ai::sim::{complete_orders, play_game};
use empires_maps::draw::{Base, DrawOptions};
use empires_report::{Turn, TurnReports, render_every};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{GameState, Map, Variant, adjudicate};
use std::collections::BTreeMap;
use std::hint::black_box;

// The allocator the `empires` command uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn world() -> Map {
    let text = include_str!("../../../maps/world.toml");
    Map::from_toml(text, "world.toml").expect("world map")
}

/// One turn as `empires turn` plays it, without the files: every empire's computer orders,
/// the adjudication, and every report, with the maps drawn on `base` when given.
fn whole_turn(map: &Map, st: &GameState, base: Option<&Base>) -> TurnReports {
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
    // Each page carries its empire's overlay and loads the map's layer, drawn once per game,
    // and who owns what, drawn once per turn.
    let turn_part = base.map(|b| {
        empires_maps::draw::turn_part(&b.layers.layout, map, &out.state).expect("turn part")
    });
    let reports = render_every(
        &turn,
        base.map(|_| "map.js"),
        base.map(|_| "public.js"),
        |empire| {
            base.and_then(|b| {
                empires_maps::draw::overlay_apart(&b.layers.layout, map, &out.state, empire, None)
                    .ok()
            })
        },
    )
    .expect("reports");
    black_box(turn_part);
    reports
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
        |b| b.iter(|| whole_turn(&map, black_box(&st), None)),
    );
    // As above, with each empire's map drawn into its HTML report as `empires turn` writes
    // them. The map's geometry (regions, borders, label places) is a property of the map,
    // worked out once before the turn's drawings, as `empires turn` does, and outside the
    // measured time, like reading the map file; see "map geometry" below for its cost.
    let next = empires_ai::sim::computer_turn(&map, &st)
        .expect("turn")
        .state;
    let opts = DrawOptions {
        width: 960,
        title: Some(format!("{}, turn {}", next.game, next.turn)),
        graticule: true,
        zoom_label: Some(empires_report::html::MAP_LABEL),
    };
    let base = Base::new(&map, &opts).expect("map geometry");
    c.bench_function(
        "world turn: computer orders, adjudication and all reports with their maps",
        |b| b.iter(|| whole_turn(&map, black_box(&st), Some(&base))),
    );
    c.bench_function("world turn: computer orders and adjudication", |b| {
        b.iter(|| {
            let orders = complete_orders(&map, black_box(&st), &BTreeMap::new());
            adjudicate(&map, &st, &orders).expect("turn")
        })
    });
    let mut group = c.benchmark_group("map geometry");
    group.sample_size(10);
    group.bench_function("World Empires map, 960 pixels wide", |b| {
        b.iter(|| Base::new(&map, black_box(&opts)).expect("map geometry"))
    });
    group.finish();
    let mut group = c.benchmark_group("whole game");
    group.sample_size(10);
    group.bench_function("a complete simulated World Empires game", |b| {
        b.iter(|| play_game(&map, Variant::World, black_box(7), 200, |_| {}).expect("game"))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
