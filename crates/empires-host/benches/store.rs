//! The host's costs: keeping a submission (read, check, insert) and playing and committing a
//! whole 28-empire World Empires turn with every report, on SQLite and, when
//! `DATABASE_URL` names a server, on PostgreSQL. SQLite runs as the host runs it: WAL,
//! `synchronous=NORMAL`.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use empires_host::store::sql::SqlStore;
use empires_host::store::{NewGame, Store, Submission};
use empires_host::submit::accept;
use empires_host::turn::{Sent, TurnOptions, play_sheets};
use empires_rules::setup::{NewGame as Setup, new_game};
use empires_rules::{EmpireCode, GameState, Map};
use std::collections::BTreeMap;

const YES: TurnOptions = TurnOptions {
    accept_state: false,
    unreadable_as_missed: false,
    yes: true,
    expect: None,
};

fn world() -> (&'static str, Map, GameState) {
    let std = empires_maps::standard::find("world").unwrap();
    let map = empires_maps::standard::load("world").unwrap().unwrap();
    let state = new_game(
        &map,
        &Setup {
            name: "Bench".into(),
            variant: map.variant.unwrap_or(empires_rules::Variant::World),
            seed: 3,
            players: BTreeMap::new(),
            options: Default::default(),
        },
    )
    .unwrap();
    (std.text, map, state)
}

/// A full turnsheet, as the computer writes one for `empire`.
fn sixteen_actions(map: &Map, state: &GameState, empire: EmpireCode) -> Vec<u8> {
    let sheets = empires_ai::sim::complete_orders(map, state, &BTreeMap::new());
    sheets[&empire]
        .actions
        .iter()
        .map(|l| format!("{}\n", l.text))
        .collect::<String>()
        .into_bytes()
}

fn stores(rt: &tokio::runtime::Runtime, dir: &std::path::Path) -> Vec<(String, SqlStore)> {
    let mut out = vec![(
        "SQLite".to_string(),
        rt.block_on(SqlStore::open(&format!(
            "sqlite:{}",
            dir.join("host.db").display()
        )))
        .unwrap(),
    )];
    if let Some(url) = rt.block_on(empires_host::testdb::fresh_postgres("bench")) {
        out.push((
            "PostgreSQL".to_string(),
            rt.block_on(SqlStore::open(&url)).unwrap(),
        ));
    }
    out
}

fn host(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (text, map, state) = world();
    let empire = state.order_of_play[0];
    let sheet = sixteen_actions(&map, &state, empire);
    let mut group = c.benchmark_group("host");
    group.sample_size(20);
    for (db, store) in stores(&rt, tmp.path()) {
        rt.block_on(store.create(&NewGame {
            name: "world",
            map_text: text,
            map: &map,
            state: &state,
            created_at: 0,
        }))
        .unwrap();
        let submission = Submission {
            empire: Some(empire),
            body: sheet.clone(),
            door: "bench".into(),
            received_at: 0,
        };
        group.bench_function(
            format!("keep a 16-action turnsheet on {db}: read, check, insert"),
            |b| {
                b.iter(|| {
                    rt.block_on(accept(&store, "world", &submission, "bench.txt"))
                        .unwrap()
                })
            },
        );
        // Back to the starting position before each turn, so that every run plays turn 1
        // with the same turnsheets kept.
        let _ = rt.block_on(store.play_turn("world", YES, 0));
        group.bench_function(
            format!("play and commit a 28-empire World turn with every report on {db}"),
            |b| {
                b.iter_batched(
                    || {
                        rt.block_on(store.undo("world", 0)).unwrap();
                    },
                    |()| rt.block_on(store.play_turn("world", YES, 0)).unwrap(),
                    BatchSize::PerIteration,
                )
            },
        );
    }
    let sent = vec![Sent {
        name: format!("{empire}.txt"),
        empire: Some(empire),
        text: Ok(String::from_utf8(sheet).unwrap()),
    }];
    group.bench_function(
        "play a 28-empire World turn with every report, not stored",
        |b| b.iter(|| play_sheets(&map, &state, 1, &sent, YES, "bench").unwrap()),
    );
    group.finish();
}

criterion_group!(benches, host);
criterion_main!(benches);
