//! A Napoleonic Empires game kept in the host's database beside Empires games, on SQLite
//! and on PostgreSQL (when `DATABASE_URL` names a server): created with its seats, sent
//! sheets checked by its ruleset, played in one transaction, read back by the right seat
//! only, taken back, and played by the clock at its deadline — the host never reading the
//! game itself.

use empires_host::error::Kind;
use empires_host::schedule::Schedule;
use empires_host::store::prelude::*;
use empires_host::store::sql::{CatchUp, SqlStore};
use empires_host::store::{Files, SeatCode, Store, Submission};
use empires_host::turn::TurnOptions;
use empires_testkit::{drop_postgres, fresh_postgres};

const T0: i64 = 1_795_000_000_000;
const HOUR: i64 = 3_600_000;

fn seat(c: &str) -> SeatCode {
    c.parse().unwrap()
}

fn sheet_from(seat_code: &str, body: &str) -> Submission {
    Submission {
        empire: Some(seat(seat_code)),
        body: body.as_bytes().to_vec(),
        door: "test".into(),
        received_at: T0,
        for_turn: None,
        late: false,
    }
}

async fn europe(store: &SqlStore, name: &str) {
    empires_testkit::napoleonic_game(
        &empires_host::store::Services::of(store.clone()),
        name,
        &[],
        11,
        T0,
    )
    .await;
}

/// SQLite, and PostgreSQL when a server is at hand.
async fn stores(tag: &str) -> (Vec<(SqlStore, Option<String>)>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("host.db").display());
    let mut out = vec![(SqlStore::open(&url).await.unwrap(), None)];
    if let Some(url) = fresh_postgres(tag).await {
        out.push((SqlStore::open(&url).await.unwrap(), Some(url)));
    }
    (out, dir)
}

/// France sends its blank sheet with one order added.
async fn one_sheet(store: &SqlStore, game: &str) {
    let g = store.read_hosted(game).await.unwrap();
    let blank = g.ruleset.sheet(g.text(), "FRA").unwrap();
    let accepted = empires_host::submit::accept(
        store,
        game,
        &sheet_from("FRA", &format!("{blank}\nHOLD\n")),
        "FRA.txt",
    )
    .await
    .unwrap();
    assert_eq!(accepted.receipt.for_turn, 1);
    let checked = accepted.checked.expect("the ruleset's check");
    assert!(checked.text().contains("FRA.txt"), "{}", checked.text());
}

/// France sends its sheet; the turn is played.
async fn one_turn(store: &SqlStore, game: &str) -> Files {
    one_sheet(store, game).await;
    let options = TurnOptions {
        yes: true,
        ..TurnOptions::default()
    };
    store.play_turn(game, options, T0 + HOUR).await.unwrap();
    store.turn_files(game, 1).await.unwrap()
}

#[tokio::test]
async fn a_napoleonic_game_is_kept_played_and_read_on_every_database() {
    let (stores, _dir) = stores("ruleset_games").await;
    let mut turns = Vec::new();
    for (store, url) in &stores {
        europe(store, "europe").await;
        assert_eq!(store.ruleset("europe").await.unwrap().id(), "napoleonic");
        // An Empires door asking for it as an Empires game is told what it is.
        let e = empires_ruleset::ruleset::load(store, "europe")
            .await
            .unwrap_err();
        assert!(e.to_string().contains("Napoleonic Empires"), "{e}");
        let seats = store.seats("europe").await.unwrap();
        assert_eq!(seats.len(), 22);
        assert!(seats.iter().all(|s| s.status == "playing"));

        // A sheet for no kingdom of the game, or an empire's, is refused and not kept.
        for bad in ["XYZ", "EN"] {
            let r = empires_host::submit::accept(store, "europe", &sheet_from(bad, "x"), "s").await;
            assert!(r.is_err(), "{bad}");
        }
        assert!(store.pending("europe").await.unwrap().is_empty());

        // France and Prussia have players; every other kingdom is the computer's.
        for (code, name) in [("FRA", "alice"), ("PRU", "bob")] {
            let a = store
                .create_account(name, None, empires_host::store::sql::Role::Player, None, T0)
                .await
                .unwrap();
            store
                .assign_seat("europe", seat(code), Some(a), T0)
                .await
                .unwrap();
        }
        // Without the GM's word a turn waits for every kingdom with a player.
        let g = store.read_hosted("europe").await.unwrap();
        let blank = g.ruleset.sheet(g.text(), "PRU").unwrap();
        empires_host::submit::accept(store, "europe", &sheet_from("PRU", &blank), "PRU.txt")
            .await
            .unwrap();
        let waiting = store
            .play_turn("europe", TurnOptions::default(), T0)
            .await
            .unwrap_err();
        assert!(
            waiting.to_string().contains("no orders yet from FRA:"),
            "{waiting}"
        );

        // The GM's message to every player, printed in every report of the turn.
        let gm = Submission {
            empire: None,
            ..sheet_from("FRA", "Winter quarters are over.")
        };
        store.submit("europe", &gm).await.unwrap();
        let files = one_turn(store, "europe").await;
        for seat in ["FRA", "AUS"] {
            let report = store
                .turn_file("europe", 1, &format!("reports/{seat}.txt"), None)
                .await
                .unwrap();
            let report = String::from_utf8(report).unwrap();
            assert!(
                report.contains("From the GM: Winter quarters are over."),
                "{report}"
            );
        }
        let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
        for want in [
            "state.json",
            "state.sha256",
            "events.json",
            "turn.json",
            "orders/FRA.txt",
            "orders/PRU.txt",
            "reports/FRA.html",
            "reports/FRA.txt",
            "reports/FRA.json",
            "computer/IND.json",
            "computer/AUS.json",
        ] {
            assert!(paths.contains(&want), "{want} in {paths:?}");
        }
        // The caretaker stands in for the kingdoms no one plays, never for a player's.
        assert!(!paths.contains(&"computer/FRA.json") && !paths.contains(&"computer/PRU.json"));
        assert_eq!(
            paths.iter().filter(|p| p.starts_with("computer/")).count(),
            21
        );
        // Who reads what: France its own, never Prussia's or the GM's; the GM all.
        let fra = Some(seat("FRA"));
        for own in ["reports/FRA.txt", "orders/FRA.txt"] {
            assert!(
                store.turn_file("europe", 1, own, fra).await.is_ok(),
                "{own}"
            );
        }
        for other in [
            "reports/PRU.txt",
            "orders/PRU.txt",
            "computer/IND.json",
            "state.json",
            "events.json",
        ] {
            let e = store.turn_file("europe", 1, other, fra).await.unwrap_err();
            assert_eq!(e.kind(), Kind::NotFound, "{other}");
            assert!(store.turn_file("europe", 1, other, None).await.is_ok());
        }
        // A kingdom's code is not an empire's of another length: FR reads nothing of FRA.
        assert!(
            store
                .turn_file("europe", 1, "reports/FRA.txt", Some(seat("FR")))
                .await
                .is_err()
        );
        turns.push(files);

        // Played again from what it kept, the turn gives the state it stored.
        let verified = empires_host::verify::verify(store, "europe").await.unwrap();
        assert_eq!(
            verified.turns,
            [(1, empires_host::verify::Check::Same)],
            "{verified}"
        );

        // Taken back, the sheets sent for it wait again.
        let undone = store.undo("europe", T0 + 2 * HOUR).await.unwrap();
        assert_eq!(undone.turn, 1);
        assert_eq!(undone.pending, ["FRA.txt", "PRU.txt", "gm.txt"]);
        assert_eq!(store.read_hosted("europe").await.unwrap().turn, 0);
        if let Some(url) = url {
            drop_postgres(url).await;
        }
    }
    // Every database keeps the same turn, byte for byte.
    for t in &turns[1..] {
        assert_eq!(t, &turns[0]);
    }
}

#[tokio::test]
async fn an_early_napoleonic_turn_waits_only_for_the_kingdoms_with_a_player() {
    let (stores, _dir) = stores("ruleset_early").await;
    for (store, url) in &stores {
        europe(store, "europe").await;
        let a = store
            .create_account(
                "alice",
                None,
                empires_host::store::sql::Role::Player,
                None,
                T0,
            )
            .await
            .unwrap();
        store
            .assign_seat("europe", seat("FRA"), Some(a), T0)
            .await
            .unwrap();
        let early = Schedule::parse("every 24h early").unwrap();
        store
            .set_schedule("europe", &early, CatchUp::Each, &[], T0)
            .await
            .unwrap();
        // France's player has sent nothing: nothing runs before the deadline.
        assert!(
            empires_host::clock::run_due(
                &empires_host::store::Services::of(store.clone()),
                T0 + HOUR
            )
            .await
            .unwrap()
            .is_empty()
        );
        // Once she has, the turn runs: the 21 kingdoms no one plays wait for no one.
        one_sheet(store, "europe").await;
        let ran = empires_host::clock::run_due(
            &empires_host::store::Services::of(store.clone()),
            T0 + 2 * HOUR,
        )
        .await
        .unwrap();
        assert_eq!(ran.len(), 1, "{ran:?}");
        assert_eq!(store.read_hosted("europe").await.unwrap().turn, 1);
        if let Some(url) = url {
            drop_postgres(url).await;
        }
    }
}

#[tokio::test]
async fn the_clock_plays_a_napoleonic_turn_at_its_deadline() {
    let (stores, _dir) = stores("ruleset_clock").await;
    for (store, url) in &stores {
        europe(store, "europe").await;
        let every_day = Schedule::parse("every 24h").unwrap();
        store
            .set_schedule("europe", &every_day, CatchUp::Each, &[], T0)
            .await
            .unwrap();
        assert!(
            empires_host::clock::run_due(
                &empires_host::store::Services::of(store.clone()),
                T0 + HOUR
            )
            .await
            .unwrap()
            .is_empty()
        );
        let ran = empires_host::clock::run_due(
            &empires_host::store::Services::of(store.clone()),
            T0 + 25 * HOUR,
        )
        .await
        .unwrap();
        assert_eq!(ran.len(), 1, "{ran:?}");
        let g = store.read_hosted("europe").await.unwrap();
        assert_eq!(g.turn, 1);
        // The schedule's announcement, a GM message, is kept with the turn.
        let gm = store
            .turn_file("europe", 1, "orders/gm.txt", None)
            .await
            .unwrap();
        assert!(String::from_utf8_lossy(&gm).contains("every 24h"));
        // The deadline moved on to the next turn.
        let s = store.schedule_of("europe").await.unwrap().unwrap();
        assert_eq!(s.for_turn, 2);
        if let Some(url) = url {
            drop_postgres(url).await;
        }
    }
}
