//! The host's costs: keeping a submission (read, check, insert) and playing and committing a
//! whole 28-empire World Empires turn with every report, on SQLite and, when
//! `DATABASE_URL` names a server, on PostgreSQL. SQLite runs as the host runs it: WAL,
//! `synchronous=NORMAL`.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use empires_host::store::sql::SqlStore;
use empires_host::store::{Store, Submission};
use empires_host::submit::accept_on;
use empires_host::turn::TurnOptions;
use empires_rules::setup::{NewGame as Setup, new_game};
use empires_rules::{EmpireCode, GameState, Map};
use empires_ruleset::ruleset::{EmpiresStore, NewGame};
use empires_ruleset::turn::{Origin, Sent, play_sheets};
use std::collections::BTreeMap;

const YES: TurnOptions = TurnOptions {
    accept_state: false,
    unreadable_as_missed: false,
    yes: true,
    expect: None,
    by: None,
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
    if let Some(url) = rt.block_on(empires_testkit::fresh_postgres("bench")) {
        out.push((
            "PostgreSQL".to_string(),
            rt.block_on(SqlStore::open(&url)).unwrap(),
        ));
    }
    out
}

fn host(c: &mut Criterion) {
    // The host names no game: the program's rulesets, as `empires` installs them.
    empires_testkit::rulesets();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let (text, map, state) = world();
    let empire = state.order_of_play[0];
    let sheet = sixteen_actions(&map, &state, empire);
    let mut group = c.benchmark_group("host");
    // The checking alone, with no database: what every door does before it keeps a sheet.
    let sheet_text = String::from_utf8(sheet.clone()).unwrap();
    group.bench_function(
        "check and forecast a 16-action turnsheet on the World game",
        |b| {
            b.iter(|| {
                empires_ruleset::check::check_text(
                    &map,
                    &state,
                    empire,
                    sheet_text.clone(),
                    "bench.txt",
                    empires_ruleset::check::Format::Text,
                )
                .unwrap()
            })
        },
    );
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
            empire: Some(empires_ruleset::seat(empire)),
            body: sheet.clone(),
            door: "bench".into(),
            received_at: 0,
            for_turn: None,
            late: false,
        };
        // A host keeps its games loaded; a submission is read, checked and inserted.
        let game = rt
            .block_on(empires_host::submit::open(&store, "world"))
            .unwrap();
        group.bench_function(
            format!("keep a 16-action turnsheet on {db}: read, check, insert"),
            |b| {
                b.iter(|| {
                    rt.block_on(accept_on(
                        &store,
                        "world",
                        game.as_ref(),
                        &submission,
                        "bench.txt",
                    ))
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
    group.finish();
    commits(c, &rt, &tmp, &map, &state, text);
    let mut group = c.benchmark_group("host");
    // The map's layer, worked out once per game as a game keeps it.
    let layers = empires_ruleset::drawing::draw(&map);
    let layout = layers.as_ref().map(|l| &l.layout);
    let sent = vec![Sent {
        name: format!("{empire}.txt"),
        empire: Some(empire),
        text: String::from_utf8(sheet).unwrap(),
    }];
    group.bench_function(
        "play a 28-empire World turn with every report, not stored",
        |b| {
            b.iter(|| play_sheets(&map, layout, &state, 1, &sent, Origin::titled("bench")).unwrap())
        },
    );
    group.finish();
}

/// Committing alone: a World turn played once, stored again and again.
fn commits(
    c: &mut Criterion,
    rt: &tokio::runtime::Runtime,
    tmp: &tempfile::TempDir,
    map: &Map,
    state: &GameState,
    text: &str,
) {
    let mut group = c.benchmark_group("host");
    group.sample_size(20);
    for (db, store) in stores(rt, tmp.path()) {
        rt.block_on(store.create(&NewGame {
            name: "commit",
            map_text: text,
            map,
            state,
            created_at: 0,
        }))
        .unwrap();
        // The turn played once through the pipeline, as the store would play it.
        let game = rt.block_on(store.read_hosted("commit")).unwrap();
        let game = game.ruleset.open(game).unwrap();
        let played = empires_host::pipeline::play(game.as_ref(), Default::default(), YES).unwrap();
        group.bench_function(
            format!("commit a 28-empire World turn with every report on {db}"),
            |b| {
                b.iter_batched(
                    || {
                        // Back to the starting position; the first time there is nothing to undo.
                        let _ = rt.block_on(store.undo("commit", 0));
                    },
                    |()| {
                        rt.block_on(store.commit_played("commit", &played, 0))
                            .unwrap()
                    },
                    BatchSize::PerIteration,
                )
            },
        );
    }
    group.finish();
}

criterion_group!(benches, host);
criterion_main!(benches);
