//! One story played on every store — a game directory, SQLite and PostgreSQL (when
//! `DATABASE_URL` names a server) — must give byte-identical turns; games move between
//! stores unchanged; every store replays its turns; and no store lets a player read what
//! is not theirs.

use empires_host::error::Kind;
use empires_host::store::dir::{DirStore, files_under};
use empires_host::store::sql::SqlStore;
use empires_host::store::{Files, Store, Submission};
use empires_host::turn::TurnOptions;
use empires_host::{transfer, verify};
use empires_rules::EmpireCode;
use empires_rules::setup::{NewGame as Setup, new_game};
use empires_ruleset::gamedir::parse_map;
use empires_ruleset::ruleset::{EmpiresStore, NewGame};
use empires_testkit::{drop_postgres, fresh_postgres};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn seat(c: &str) -> empires_host::store::SeatCode {
    empires_host::store::SeatCode::parse(c).unwrap()
}

fn code(c: &str) -> EmpireCode {
    EmpireCode::parse(c).unwrap()
}

fn sheet(name: &str) -> Vec<u8> {
    std::fs::read(repo().join("maps/tutorial-orders").join(name)).unwrap()
}

const YES: TurnOptions = TurnOptions {
    accept_state: false,
    unreadable_as_missed: false,
    yes: true,
    expect: None,
    by: None,
};

fn submission(empire: Option<&str>, body: &[u8]) -> Submission {
    Submission {
        empire: empire.map(seat),
        body: body.to_vec(),
        door: "test".into(),
        received_at: 1_700_000_000_000,
        for_turn: None,
        late: false,
    }
}

/// Creates the tutorial game as `game` in `store` and plays three turns with sheets sent,
/// replaced, and missing; returns every turn's files.
async fn story(store: &dyn Store, game: &str) -> Vec<Files> {
    let map_text = std::fs::read_to_string(repo().join("maps/tutorial.toml")).unwrap();
    let map = parse_map(&map_text, "tutorial.toml").unwrap();
    let players = BTreeMap::from([
        (code("EN"), "Alice".to_string()),
        (code("SC"), "Bob".to_string()),
    ]);
    let state = new_game(
        &map,
        &Setup {
            // The title is the name the databases keep it under, so that the blank sheets at
            // the end of the reports read alike in every store.
            name: "story".into(),
            variant: map.variant.unwrap(),
            seed: 5,
            players,
            options: Default::default(),
        },
    )
    .unwrap();
    store
        .create(&NewGame {
            name: game,
            map_text: &map_text,
            map: &map,
            state: &state,
            created_at: 1,
        })
        .await
        .unwrap();
    // Turn 1: both players and the GM send; EN sends twice, the second counts.
    let first = store
        .submit(game, &submission(Some("EN"), b"TAX\n"))
        .await
        .unwrap();
    assert_eq!(first.replaces, None);
    let r = store
        .submit(game, &submission(Some("EN"), &sheet("EN.txt")))
        .await
        .unwrap();
    assert_eq!(r.for_turn, 1);
    assert_eq!(
        r.replaces,
        Some(first.sha256.clone()),
        "the second sheet replaces the first"
    );
    let sc = store
        .submit(game, &submission(Some("SC"), &sheet("SC.txt")))
        .await
        .unwrap();
    assert_eq!(sc.replaces, None, "another empire's sheet replaces nothing");
    store
        .submit(game, &submission(None, b"Welcome."))
        .await
        .unwrap();
    store
        .submit(game, &submission(None, b"Deadline Friday."))
        .await
        .unwrap();
    let pending: Vec<String> = store
        .pending(game)
        .await
        .unwrap()
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert_eq!(pending, ["EN.txt", "SC.txt", "gm.txt"]);
    let t = store.play_turn(game, YES, 2).await.unwrap();
    assert_eq!(t.turn, 1);
    assert_eq!(t.orders_from, ["EN", "SC"]);
    assert!(store.pending(game).await.unwrap().is_empty());
    // Turn 2: a sheet that cannot be read stops the turn, and nothing is lost.
    store
        .submit(game, &submission(Some("SC"), &[0xff, 0xfe, 0x00]))
        .await
        .unwrap();
    let refused = store.play_turn(game, YES, 3).await.unwrap_err();
    assert!(refused.to_string().contains("cannot be read"), "{refused}");
    assert_eq!(
        store.pending(game).await.unwrap().len(),
        1,
        "the sheet waits"
    );
    let options = TurnOptions {
        unreadable_as_missed: true,
        ..YES
    };
    store.play_turn(game, options, 3).await.unwrap();
    // Turn 3: nobody sends; without --yes it is refused, with it the computer plays.
    let no = store
        .play_turn(game, TurnOptions { yes: false, ..YES }, 4)
        .await
        .unwrap_err();
    assert!(
        no.to_string()
            .contains("no orders yet from EN (Alice), SC (Bob)"),
        "{no}"
    );
    let wrong = store
        .play_turn(
            game,
            TurnOptions {
                expect: Some(2),
                ..YES
            },
            4,
        )
        .await
        .unwrap_err();
    assert_eq!(wrong.kind(), Kind::Conflict, "{wrong}");
    store
        .play_turn(
            game,
            TurnOptions {
                expect: Some(3),
                ..YES
            },
            4,
        )
        .await
        .unwrap();
    let mut turns = Vec::new();
    for t in 0..=3 {
        turns.push(store.turn_files(game, t).await.unwrap());
    }
    turns
}

/// Every store a test can have: a directory, an SQLite file and, when configured, a
/// PostgreSQL database.
async fn stores(dir: &Path, tag: &str) -> Vec<(Box<dyn Store>, String, Option<String>)> {
    let mut out: Vec<(Box<dyn Store>, String, Option<String>)> = vec![
        (
            Box::new(DirStore),
            dir.join("game").display().to_string(),
            None,
        ),
        (
            Box::new(
                SqlStore::open(&format!("sqlite:{}", dir.join("host.db").display()))
                    .await
                    .unwrap(),
            ),
            "story".into(),
            None,
        ),
    ];
    if let Some(url) = fresh_postgres(tag).await {
        out.push((
            Box::new(SqlStore::open(&url).await.unwrap()),
            "story".into(),
            Some(url),
        ));
    }
    out
}

#[tokio::test]
async fn every_store_plays_the_same_turns_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let mut played = Vec::new();
    let all = stores(tmp.path(), "story").await;
    for (store, game, _) in &all {
        played.push((store.describe(game), story(store.as_ref(), game).await));
    }
    let (first, want) = &played[0];
    assert_eq!(want.len(), 4);
    assert!(want[2].iter().any(|(p, _)| p == "orders/unreadable/SC.txt"));
    assert!(
        want[1]
            .iter()
            .any(|(p, b)| p == "orders/gm.txt" && b == b"Welcome.\n\nDeadline Friday.")
    );
    for (name, turns) in &played[1..] {
        for (t, (a, b)) in want.iter().zip(turns).enumerate() {
            let paths = |f: &Files| f.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
            assert_eq!(
                paths(a),
                paths(b),
                "turn {t}: {first} and {name} hold other files"
            );
            for ((path, x), (_, y)) in a.iter().zip(b) {
                assert!(x == y, "turn {t}, {path}: {first} and {name} differ");
            }
        }
    }
    // Every store replays every turn.
    for (store, game, _) in &all {
        let r = verify::verify(store.as_ref(), game).await.unwrap();
        assert_eq!(r.turns.len(), 3, "{r}");
        assert_eq!(r.failures(), 0, "{r}");
    }
    for (_, _, url) in &all {
        if let Some(url) = url {
            drop_postgres(url).await;
        }
    }
}

#[tokio::test]
async fn a_game_moves_between_stores_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    story(&DirStore, &dir.display().to_string()).await;
    // A sheet waiting for turn 4 goes across too.
    DirStore
        .submit(
            &dir.display().to_string(),
            &submission(Some("EN"), b"TAX\n"),
        )
        .await
        .unwrap();
    let mut targets: Vec<(SqlStore, Option<String>)> = vec![(
        SqlStore::open(&format!("sqlite:{}", tmp.path().join("host.db").display()))
            .await
            .unwrap(),
        None,
    )];
    if let Some(url) = fresh_postgres("moves").await {
        targets.push((SqlStore::open(&url).await.unwrap(), Some(url)));
    }
    for (i, (store, url)) in targets.iter().enumerate() {
        let moved = transfer::import(store, &dir, "moved", 9).await.unwrap();
        assert_eq!((moved.turns, moved.pending), (3, 1));
        let again = transfer::import(store, &dir, "moved", 9).await.unwrap_err();
        assert_eq!(again.kind(), Kind::Conflict, "{again}");
        let back = tmp.path().join(format!("back{i}"));
        transfer::export(store, "moved", &back).await.unwrap();
        // An export says its ruleset (game.toml); the map's parsed copy is a cache.
        let moved_files = |d: &std::path::Path| {
            let mut f = files_under(d).unwrap();
            f.retain(|(p, _)| p != "game.toml" && p != ".map.json");
            f
        };
        let want = moved_files(&dir);
        let got = moved_files(&back);
        let names = |f: &Files| f.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
        assert_eq!(names(&want), names(&got));
        assert!(
            want == got,
            "the round trip through {} changed a file",
            store.url()
        );
        if let Some(url) = url {
            drop_postgres(url).await;
        }
    }
}

#[tokio::test]
async fn a_tampered_state_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    // In a directory: turn 2's state changed, and its hash written to match.
    let dir = tmp.path().join("game");
    let game = dir.display().to_string();
    story(&DirStore, &game).await;
    let state = dir.join("turns/0002/state.json");
    let text = std::fs::read_to_string(&state).unwrap();
    let changed = text.replacen("\"treasury\": ", "\"treasury\": 1", 1);
    assert_ne!(text, changed);
    std::fs::write(&state, &changed).unwrap();
    std::fs::write(
        dir.join("turns/0002/state.sha256"),
        format!(
            "{}\n",
            empires_host::gamedir::sha256_hex(changed.as_bytes())
        ),
    )
    .unwrap();
    let r = verify::verify(&DirStore, &game).await.unwrap();
    let bad: Vec<u32> = r
        .turns
        .iter()
        .filter(|(_, c)| matches!(c, verify::Check::Differs { .. }))
        .map(|(t, _)| *t)
        .collect();
    assert_eq!(bad[0], 2, "{r}");
    let text = r.to_string();
    assert!(
        text.contains("turn 2: DIFFERS: empires[0].treasury: replayed"),
        "{text}"
    );

    // In SQLite: a state changed in its row, its hash left alone.
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let store = SqlStore::open(&url).await.unwrap();
    story(&store, "g").await;
    // Wait for the store's own connections as long as a loaded machine needs.
    let options = <sqlx::sqlite::SqliteConnectOptions as std::str::FromStr>::from_str(&url)
        .unwrap()
        .busy_timeout(std::time::Duration::from_secs(60));
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    sqlx::query("UPDATE turn_files SET body = CAST(replace(CAST(body AS TEXT), '\"bps\": ', '\"bps\": 9') AS BLOB) WHERE turn = 1 AND path = 'state.json'")
        .execute(&pool)
        .await
        .unwrap();
    let r = verify::verify(&store, "g").await.unwrap();
    assert!(
        r.to_string()
            .contains("turn 1: DIFFERS: state.json does not match state.sha256"),
        "{r}"
    );
    // A state that does not read is a clear error naming the game, turn and file.
    sqlx::query(
        "UPDATE turn_files SET body = CAST('{' AS BLOB) WHERE turn = 3 AND path = 'state.json'",
    )
    .execute(&pool)
    .await
    .unwrap();
    let e = empires_ruleset::ruleset::load(&store, "g")
        .await
        .unwrap_err();
    assert_eq!(e.kind(), Kind::Corrupt);
    assert!(
        e.to_string()
            .contains("game \"g\", turn 3, state.json: line 1"),
        "{e}"
    );
    let e = store.play_turn("g", YES, 5).await.unwrap_err();
    assert_eq!(e.kind(), Kind::Corrupt, "{e}");
}

#[tokio::test]
async fn a_player_reads_only_their_own() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game").display().to_string();
    story(&DirStore, &dir).await;
    let sqlite = SqlStore::open(&format!("sqlite:{}", tmp.path().join("host.db").display()))
        .await
        .unwrap();
    story(&sqlite, "g").await;
    for (store, game) in [(&DirStore as &dyn Store, dir.as_str()), (&sqlite, "g")] {
        let en = Some(seat("EN"));
        for own in [
            "reports/EN.html",
            "reports/EN.json",
            "reports/EN.txt",
            "orders/EN.txt",
        ] {
            assert!(store.turn_file(game, 1, own, en).await.is_ok(), "{own}");
            let e = store
                .turn_file(game, 1, own, Some(seat("SC")))
                .await
                .unwrap_err();
            assert_eq!(e.kind(), Kind::NotFound, "SC reads {own}");
            assert!(
                store.turn_file(game, 1, own, None).await.is_ok(),
                "the GM reads {own}"
            );
        }
        for secret in [
            "state.json",
            "events.json",
            "turn.json",
            "reports/gm.txt",
            "orders/gm.txt",
            "../map.toml",
            "reports/../state.json",
        ] {
            let e = store.turn_file(game, 1, secret, en).await.unwrap_err();
            assert_eq!(e.kind(), Kind::NotFound, "EN reads {secret}");
        }
        let e = store
            .turn_file(game, 9, "reports/EN.txt", en)
            .await
            .unwrap_err();
        assert_eq!(e.kind(), Kind::NotFound);
    }
    let e = empires_ruleset::ruleset::load(&sqlite, "nope")
        .await
        .unwrap_err();
    assert_eq!(e.kind(), Kind::NotFound, "{e}");
    let e = sqlite
        .submit("g", &submission(Some("FR"), b"TAX\n"))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("no empire FR"), "{e}");
}

#[tokio::test]
async fn a_database_that_cannot_be_reached_is_a_clear_error() {
    let e = SqlStore::open("postgres://nobody:secret@127.0.0.1:1/none")
        .await
        .err()
        .unwrap();
    assert_eq!(e.kind(), Kind::Unavailable, "{e}");
    assert!(
        !e.to_string().contains("secret"),
        "the password is never shown: {e}"
    );
    let e = SqlStore::open("mysql://x").await.err().unwrap();
    assert!(e.to_string().contains("not a database URL"), "{e}");
    let tmp = tempfile::tempdir().unwrap();
    let e = SqlStore::open(&format!(
        "sqlite:{}",
        tmp.path().join("no/such/dir/host.db").display()
    ))
    .await
    .err()
    .unwrap();
    assert!(e.to_string().contains("cannot open the database"), "{e}");
}

#[tokio::test]
async fn undo_gives_back_exactly_what_was_sent() {
    let tmp = tempfile::tempdir().unwrap();
    let store = SqlStore::open(&format!("sqlite:{}", tmp.path().join("host.db").display()))
        .await
        .unwrap();
    let turns = story(&store, "g").await;
    let u = store.undo("g", 10).await.unwrap();
    assert_eq!(u.turn, 3);
    assert!(u.pending.is_empty(), "nothing was sent for turn 3");
    let u = store.undo("g", 11).await.unwrap();
    assert_eq!(
        u.pending,
        ["SC.txt"],
        "the unreadable sheet turn 2 kept is back"
    );
    // Turn 1 cannot be undone while a sheet waits for turn 2.
    let e = store.undo("g", 12).await.unwrap_err();
    assert_eq!(e.kind(), Kind::Conflict, "{e}");
    // Played again, the turn is the same.
    let options = TurnOptions {
        unreadable_as_missed: true,
        ..YES
    };
    store.play_turn("g", options, 13).await.unwrap();
    assert!(store.turn_files("g", 2).await.unwrap() == turns[2]);
    let log: Vec<String> = store
        .audit_log("g")
        .await
        .unwrap()
        .into_iter()
        .map(|(_, a, _)| a)
        .collect();
    assert_eq!(
        log,
        ["create", "turn", "turn", "turn", "undo", "undo", "turn"]
    );
    let subs = store.submissions("g").await.unwrap();
    assert_eq!(
        subs.len(),
        4,
        "every submission is kept, the replaced one too"
    );
    assert_eq!(subs[3].5, Some(2), "the sheet played again by turn 2");
    assert_eq!(subs[0].5, None, "the replaced sheet was never played");
    assert_eq!(subs[1].5, Some(1));
}

#[tokio::test]
async fn a_game_name_that_is_a_path_is_refused_by_every_database() {
    let tmp = tempfile::tempdir().unwrap();
    let map_text = std::fs::read_to_string(repo().join("maps/tutorial.toml")).unwrap();
    let map = parse_map(&map_text, "tutorial.toml").unwrap();
    let state = new_game(
        &map,
        &Setup {
            name: "Escape".into(),
            variant: map.variant.unwrap(),
            seed: 5,
            players: BTreeMap::new(),
            options: Default::default(),
        },
    )
    .unwrap();
    let all = stores(tmp.path(), "names").await;
    // A directory store's games are directories by name; the databases keep names, which
    // become folders and addresses.
    for (store, _, url) in all.iter().skip(1) {
        for name in ["../escape", "a/b", "..", "", "two words"] {
            let game = NewGame {
                name,
                map_text: &map_text,
                map: &map,
                state: &state,
                created_at: 1,
            };
            let err = store.create(&game).await.unwrap_err();
            assert!(
                err.message().contains("cannot name a game"),
                "{name}: {err}"
            );
            assert_eq!(
                empires_ruleset::ruleset::load(store.as_ref(), name)
                    .await
                    .unwrap_err()
                    .kind(),
                Kind::NotFound
            );
        }
        if let Some(url) = url {
            drop_postgres(url).await;
        }
    }
}

/// Who may read a turn's file is decided by the game's own seats when the turn is kept: a
/// file the host does not know (one named like no seat of the game, a shared-looking name it
/// never writes) is the GM's alone on every store, where once anything in `reports/` not
/// named like a seat code was everyone's.
#[tokio::test]
async fn a_file_the_host_does_not_know_is_the_gms_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    story(&DirStore, &dir.display().to_string()).await;
    for (name, body) in [
        ("reports/outlines.js", "var secret = 1;"),
        ("reports/SCOT.html", "not a seat of the game"),
    ] {
        std::fs::write(dir.join("turns/0001").join(name), body).unwrap();
    }
    let en = Some(empires_host::store::SeatCode::parse("EN").unwrap());
    let mut stores: Vec<(Box<dyn Store>, String, Option<String>)> =
        vec![(Box::new(DirStore), dir.display().to_string(), None)];
    let sqlite = SqlStore::open(&format!("sqlite:{}", tmp.path().join("host.db").display()))
        .await
        .unwrap();
    transfer::import(&sqlite, &dir, "known", 9).await.unwrap();
    stores.push((Box::new(sqlite), "known".into(), None));
    if let Some(url) = fresh_postgres("readers").await {
        let pg = SqlStore::open(&url).await.unwrap();
        transfer::import(&pg, &dir, "known", 9).await.unwrap();
        stores.push((Box::new(pg), "known".into(), Some(url)));
    }
    for (store, game, url) in &stores {
        let shown = store.describe(game);
        for path in [
            "reports/outlines.js",
            "reports/SCOT.html",
            "reports/SC.html",
        ] {
            let refused = store.turn_file(game, 1, path, en).await.unwrap_err();
            assert_eq!(refused.kind(), Kind::NotFound, "{shown}, {path}: {refused}");
            assert!(
                store.turn_file(game, 1, path, None).await.is_ok(),
                "{shown}, {path}: the GM reads it"
            );
        }
        for path in ["reports/EN.html", "reports/public.html"] {
            assert!(
                store.turn_file(game, 1, path, en).await.is_ok(),
                "{shown}, {path}"
            );
        }
        if let Some(url) = url {
            drop_postgres(url).await;
        }
    }
}
