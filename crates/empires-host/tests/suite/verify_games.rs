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

/// Creates `game` in `store` on the standard map `map_name` under its own variant (or
/// `variant`), every empire a dummy the computer plays; the starting state.
async fn created(
    store: &dyn Store,
    game: &str,
    map_name: &str,
    variant: Option<Variant>,
    seed: u64,
) -> empires_rules::GameState {
    let std = empires_maps::standard::find(map_name).unwrap();
    let map = empires_maps::standard::load(map_name).unwrap().unwrap();
    let state = new_game(
        &map,
        &Setup {
            name: map.name.clone(),
            variant: variant.or(map.variant).unwrap_or(Variant::World),
            seed,
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
    state
}

/// Plays `map` from the start until someone wins (or 150 turns), every empire a dummy the
/// computer plays, then replays every turn.
async fn played_to_the_end(map_name: &str, store: &dyn Store, game: &str) {
    created(store, game, map_name, None, 11).await;
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

/// Decision 39 changed the rules: AIR now succeeds in Australian Empires. A turn played
/// before (rules version 1, where it failed and bought nothing) replays to another state,
/// and `verify` says it was played under other rules rather than failing it.
#[tokio::test]
async fn an_australian_turn_from_before_decision_39_is_listed_as_other_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let game = dir.display().to_string();
    let state = created(&DirStore, &game, "australian", Some(Variant::Australian), 3).await;
    let first = state.empires[0].code;
    let sheet = Submission {
        empire: Some(empires_host::store::SeatCode::parse(first.as_str()).unwrap()),
        body: b"1. CASH - - 7\n2. AIR - - 1\n".to_vec(),
        door: "test".into(),
        received_at: 0,
        for_turn: None,
        late: false,
    };
    DirStore.submit(&game, &sheet).await.unwrap();
    let options = TurnOptions {
        yes: true,
        ..TurnOptions::default()
    };
    DirStore.play_turn(&game, options, 0).await.unwrap();
    let air = |text: &str| {
        let v: serde_json::Value = serde_json::from_str(text).unwrap();
        v["empires"][0]["air_force"].as_u64().unwrap()
    };
    let turn = dir.join("turns/0001");
    let text = std::fs::read_to_string(turn.join("state.json")).unwrap();
    assert_eq!(air(&text), 1, "decision 39: the AIR bought an air force");
    let verified = verify(&DirStore, &game).await.unwrap();
    assert_eq!(verified.turns, vec![(1, Check::Same)], "{verified}");

    // What version 1 stored: no air force, and the turn recorded under "1".
    let old = text.replacen("\"air_force\": 1", "\"air_force\": 0", 1);
    assert_eq!(air(&old), 0);
    std::fs::write(turn.join("state.json"), &old).unwrap();
    std::fs::write(
        turn.join("state.sha256"),
        format!("{}\n", empires_host::gamedir::sha256_hex(old.as_bytes())),
    )
    .unwrap();
    let record = std::fs::read_to_string(turn.join("turn.json")).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(&record).unwrap();
    record["rules_version"] = "1".into();
    std::fs::write(turn.join("turn.json"), record.to_string()).unwrap();

    let verified = verify(&DirStore, &game).await.unwrap();
    assert_eq!(verified.failures(), 0, "{verified}");
    let text = verified.to_string();
    assert!(
        text.contains("turn 1: played under rules version 1; this program's rules give another state (empires[0].air_force: replayed 1, stored 0)"),
        "{text}"
    );
}

/// A standard map's drawing is built into the program: a database keeps no copy of it
/// for each game (a World game's is 0.9 MB) and hands out the built-in one as the game's,
/// so its pages and exports are what they were.
#[tokio::test]
async fn a_standard_maps_drawing_is_not_kept_per_game_in_a_database() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let store = SqlStore::open(&url).await.unwrap();
    created(&store, "w", "world", None, 2).await;
    let std = empires_maps::standard::find("world").unwrap();
    let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
    let (kept,): (Option<Vec<u8>>,) =
        sqlx::query_as("SELECT map_script FROM games WHERE name = 'w'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(kept.is_none(), "{} bytes kept", kept.map_or(0, |k| k.len()));
    let hosted = store.read_hosted("w").await.unwrap();
    let built =
        empires_host::ruleset::Ruleset::built_kept(&empires_ruleset::ruleset::Empires, std.text);
    assert!(built.is_some_and(|b| b.len() > 100_000));
    assert_eq!(hosted.kept.as_deref(), built);
    // A turn plays, and keeps nothing either.
    let options = TurnOptions {
        yes: true,
        ..TurnOptions::default()
    };
    store.play_turn("w", options, 0).await.unwrap();
    let (kept,): (Option<Vec<u8>>,) =
        sqlx::query_as("SELECT map_script FROM games WHERE name = 'w'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(kept.is_none());
}
