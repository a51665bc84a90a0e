//! Games played to their end on every standard map, kept in a directory or in SQLite, replay
//! turn for turn: `empires verify` finds every stored state again.

use empires_host::error::Kind;
use empires_host::store::dir::DirStore;
use empires_host::store::sql::SqlStore;
use empires_host::store::{Store, Submission};
use empires_host::turn::TurnOptions;
use empires_host::verify::{Check, verify};
use empires_rules::Variant;
use empires_rules::setup::{NewGame as Setup, new_game};
use empires_ruleset::ruleset::{EmpiresStore, NewGame};

/// Plays `map` from the start until someone wins (or 150 turns), every empire a dummy the
/// computer plays, then replays every turn.
async fn played_to_the_end(map_name: &str, store: &dyn Store, game: &str) {
    let std = empires_maps::standard::find(map_name).unwrap();
    let map = empires_maps::standard::load(map_name).unwrap().unwrap();
    let state = new_game(
        &map,
        &Setup {
            name: map.name.clone(),
            variant: map.variant.unwrap_or(Variant::World),
            seed: 11,
            players: Default::default(),
            options: Default::default(),
        },
    )
    .unwrap();
    store
        .create(&NewGame {
            name: game,
            map_text: std.text,
            map: &map,
            state: &state,
            created_at: 0,
        })
        .await
        .unwrap();
    let options = TurnOptions {
        yes: true,
        ..TurnOptions::default()
    };
    let (turns, over) = loop {
        let t = store.play_turn(game, options, 0).await.unwrap();
        if t.finished || t.turn >= 150 {
            break (t.turn, t.finished);
        }
    };
    // A game won (11.7) takes no more sheets nor messages.
    if over {
        let message = Submission {
            empire: None,
            body: b"Well played.".to_vec(),
            door: "test".into(),
            received_at: 0,
            for_turn: None,
            late: false,
        };
        let e = store.submit(game, &message).await.unwrap_err();
        assert_eq!(e.kind(), Kind::Conflict, "{e}");
        assert!(e.to_string().contains("the game is over"), "{e}");
    } else {
        assert_ne!(
            map_name, "tutorial",
            "the tutorial game is won within 150 turns"
        );
    }
    let report = verify(store, game).await.unwrap();
    assert_eq!(report.turns.len() as u32, turns, "{report}");
    assert!(
        report.turns.iter().all(|(_, c)| *c == Check::Same),
        "{map_name}: {report}"
    );
}

async fn sqlite(dir: &std::path::Path) -> SqlStore {
    SqlStore::open(&format!("sqlite:{}", dir.join("host.db").display()))
        .await
        .unwrap()
}

#[tokio::test]
async fn world() {
    let tmp = tempfile::tempdir().unwrap();
    played_to_the_end(
        "world",
        &DirStore,
        &tmp.path().join("g").display().to_string(),
    )
    .await;
}

#[tokio::test]
async fn medieval() {
    let tmp = tempfile::tempdir().unwrap();
    played_to_the_end("medieval", &sqlite(tmp.path()).await, "g").await;
}

#[tokio::test]
async fn european() {
    let tmp = tempfile::tempdir().unwrap();
    played_to_the_end("european", &sqlite(tmp.path()).await, "g").await;
}

#[tokio::test]
async fn australian() {
    let tmp = tempfile::tempdir().unwrap();
    played_to_the_end(
        "australian",
        &DirStore,
        &tmp.path().join("g").display().to_string(),
    )
    .await;
}

#[tokio::test]
async fn tutorial() {
    let tmp = tempfile::tempdir().unwrap();
    played_to_the_end("tutorial", &sqlite(tmp.path()).await, "g").await;
}
