//! Turns played in steps, proven with Relay (`empires_testkit::relay`): each step waits
//! only for the runner whose leg it is, a sheet from the other runner is refused with the
//! step it is next expected at, the crowd's standing sheet is read by every later play, and the race is played to its end and one step undone, on
//! a directory, SQLite and PostgreSQL.

use empires_host::error::Kind;
use empires_host::ruleset::{self, Ruleset};
use empires_host::store::dir::DirStore;
use empires_host::store::sql::SqlStore;
use empires_host::store::{Services, Store, Submission};
use empires_host::submit::accept;
use empires_host::turn::TurnOptions;
use empires_testkit::relay::Relay;

const T0: i64 = 1_795_000_000_000;

fn sheet(seat: &str, text: &str) -> Submission {
    Submission {
        empire: Some(seat.parse().expect("a runner's code")),
        body: format!("RUNNER {seat}\n{text}\n").into_bytes(),
        door: "test".into(),
        received_at: T0,
        for_turn: None,
        late: false,
    }
}

/// Plays the next step as the GM would without `--yes`: it waits for the expected seats.
async fn play(store: &dyn Store, game: &str) -> empires_host::Result<u32> {
    let options = TurnOptions::default();
    store.play_turn(game, options, T0).await.map(|r| r.turn)
}

async fn race(store: &dyn Store, game: &str, held: bool) {
    // Step 1 is RED's leg: a sheet BLU wrote for it is refused, naming BLU's own next step.
    let for_step_one = Submission {
        for_turn: Some(1),
        ..sheet("BLU", "RUN 3")
    };
    let refused = accept(store, game, &for_step_one, "BLU.txt")
        .await
        .unwrap_err();
    assert_eq!(refused.kind(), Kind::Conflict, "{refused}");
    let message = refused.to_string();
    assert!(
        message.contains("game-turn 1, leg 1 of 2: RED runs"),
        "{message}"
    );
    assert!(
        message.contains("game-turn 1, leg 2 of 2: BLU runs"),
        "{message}"
    );
    assert!(store.pending(game).await.unwrap().is_empty());
    // Sent for no step in particular, BLU's sheet is kept ahead for BLU's own next leg,
    // checked now and read again when that leg is played.
    let ahead = accept(store, game, &sheet("BLU", "RUN 1"), "BLU.txt")
        .await
        .unwrap();
    assert_eq!(ahead.receipt.for_turn, 2);
    assert_eq!(
        ahead.step.as_deref(),
        Some("game-turn 1, leg 2 of 2: BLU runs (sent ahead)")
    );
    assert!(
        store.pending(game).await.unwrap().is_empty(),
        "a sheet sent ahead waits for its own step, not this one"
    );
    let mistaken = accept(store, game, &sheet("BLU", "RUN 9"), "BLU.txt").await;
    assert_eq!(mistaken.unwrap().errors(), 1, "checked when sent");
    accept(store, game, &sheet("BLU", "RUN 1"), "BLU.txt")
        .await
        .unwrap();
    // The crowd is never expected but may send standing orders: kept until replaced, read
    // by every play. It cheers BLU, who then runs one further on each leg.
    let cheer = accept(store, game, &sheet("GRN", "CHEER BLU"), "GRN.txt")
        .await
        .unwrap();
    assert_eq!(
        cheer.step.as_deref(),
        Some("standing orders, in force until replaced")
    );
    assert!(
        store.pending(game).await.unwrap().is_empty(),
        "a standing sheet is not a step's sheet"
    );
    if held {
        // RED has a player: the step waits for RED, and for RED alone.
        let waiting = play(store, game).await.unwrap_err().to_string();
        assert!(
            waiting.contains("from RED:") && !waiting.contains("BLU"),
            "{waiting}"
        );
    }
    // The legs: RED 5, BLU 1 (sent ahead), RED 5 asking the GM for a tailwind, BLU 1 once
    // the GM granted RED 2, RED standing still: RED reaches 12 on the fifth step and wins.
    let legs = [
        ("RED", "RUN 5"),
        ("BLU", ""),
        ("RED", "RUN 5\nASK a tailwind on the last leg"),
        ("BLU", "RUN 1"),
        ("RED", "RUN"),
    ];
    for (step, (seat, text)) in legs.into_iter().enumerate() {
        let turn = step as u32 + 1;
        if !text.is_empty() {
            let kept = accept(store, game, &sheet(seat, text), "s.txt")
                .await
                .unwrap();
            assert_eq!(kept.receipt.for_turn, turn);
            // The receipt names the step as people do.
            let leg = if seat == "RED" { 1 } else { 2 };
            let label = format!("game-turn {}, leg {leg} of 2: {seat} runs", step / 2 + 1);
            assert_eq!(kept.step.as_deref(), Some(label.as_str()));
        }
        if turn == 4 {
            // RED asked: BLU's leg waits for the GM's rulings, BLU's sheet notwithstanding.
            let waiting = play(store, game).await.unwrap_err().to_string();
            assert!(
                waiting.contains("waits for the GM's rulings")
                    && waiting.contains("RED asks \"a tailwind on the last leg\""),
                "{waiting}"
            );
            // The GM's rulings are checked as a player's sheet is, and kept all the same.
            let checked = rule(store, game, "GRANT RED 9").await.unwrap();
            assert_eq!(checked.errors(), 1);
            let ruled = rule(store, game, "GRANT RED 2").await.unwrap();
            assert_eq!((ruled.errors(), ruled.receipt.for_turn), (0, 4));
            assert!(ruled.receipt.replaces.is_some());
        }
        assert_eq!(play(store, game).await.unwrap(), turn);
        if turn == 2 {
            // The first game-turn over, the crowd splits: the far stand is a seat of its own
            // and sends its own standing orders, cheering BLU as well.
            let stand = accept(store, game, &sheet("YEL", "CHEER BLU"), "YEL.txt")
                .await
                .unwrap();
            assert_eq!(
                stand.step.as_deref(),
                Some("standing orders, in force until replaced")
            );
        }
    }
    // The GM's ruling is in every report of the leg it was applied at.
    for seat in ["RED", "BLU", "GRN"] {
        let report = store
            .turn_file(game, 4, &format!("reports/{seat}.txt"), None)
            .await
            .unwrap();
        let report = String::from_utf8(report).unwrap();
        assert!(
            report.contains("The GM rules: RED is granted 2."),
            "{seat}: {report}"
        );
    }
    // The rulings are kept with the step they were applied at, as sent.
    let rulings = store.turn_file(game, 4, "orders/rulings.txt", None).await;
    assert_eq!(rulings.unwrap(), b"GRANT RED 2\n");
    let report = store
        .turn_file(game, 5, "reports/RED.txt", None)
        .await
        .unwrap();
    let report = String::from_utf8(report).unwrap();
    assert!(report.contains("You have run 12 of 12"), "{report}");
    // BLU ran 1 and 1; the crowd's one standing sheet carried BLU one further on both, and
    // the far stand's, once split, one further on the second.
    let report = store
        .turn_file(game, 4, "reports/BLU.txt", None)
        .await
        .unwrap();
    let report = String::from_utf8(report).unwrap();
    assert!(report.contains("You have run 5 of 12"), "{report}");
    // Every step is replayed with the standing sheet it was played with.
    let verified = empires_host::verify::verify(store, game).await.unwrap();
    assert_eq!(verified.failures(), 0, "{verified}");
    assert_eq!(verified.turns.len(), 5, "{verified}");
    // The race is over: no sheet is kept, for either runner.
    for seat in ["RED", "BLU"] {
        let over = accept(store, game, &sheet(seat, "RUN 1"), "s.txt").await;
        assert!(over.is_err(), "a sheet kept after the race was won");
    }
    // Taking the last step back gives RED's sheet back and the race is on again.
    let undone = store.undo(game, T0).await.unwrap();
    assert_eq!(undone.turn, 5);
    let hosted = store.hosted(game).await.unwrap();
    assert_eq!(hosted.turn, 4);
    assert!(hosted.ruleset.finished(hosted.text()).unwrap().is_none());
    let waiting: Vec<String> = store
        .pending(game)
        .await
        .unwrap()
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    assert!(
        waiting.iter().any(|p| p.ends_with("RED.txt")),
        "{waiting:?}"
    );
}

/// The GM's rulings `text` sent for the next step of `game`.
async fn rule(
    store: &dyn Store,
    game: &str,
    text: &str,
) -> empires_host::Result<empires_host::submit::Accepted> {
    let opened = empires_host::submit::open(store, game).await?;
    let submission = Submission {
        empire: None,
        body: format!("{text}\n").into_bytes(),
        ..sheet("RED", "")
    };
    empires_host::submit::accept_rulings(store, game, opened.as_ref(), &submission, "rulings.txt")
        .await
}

fn relay() -> &'static dyn Ruleset {
    ruleset::by_id("relay").expect("the test program installs Relay")
}

#[tokio::test]
async fn a_race_in_a_directory_waits_for_no_one_and_refuses_the_runner_out_of_turn() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("race");
    let setup = ruleset::Setup {
        name: "race".into(),
        ..Default::default()
    };
    let started = Relay.create(&setup).unwrap();
    let key = dir.display().to_string();
    DirStore
        .create_game(&key, relay(), &started, T0)
        .await
        .unwrap();
    race(&DirStore, &key, false).await;
}

/// The race "race" in the database at `url`, each of `runners` (seat, account) an account
/// with a verified address, for the reminders.
async fn race_at(url: &str, runners: &[(&str, &str)]) -> (SqlStore, Services) {
    let store = SqlStore::open(url).await.unwrap();
    let services = Services::of(store.clone());
    for (_, player) in runners {
        let role = empires_host::store::Role::Player;
        let id = services
            .accounts
            .create_account(player, None, role, None, T0)
            .await
            .unwrap();
        let email = format!("{player}@example.org");
        services
            .mail
            .set_mail_settings(id, Some(&email), true)
            .await
            .unwrap();
        services
            .accounts
            .set_email_verified(id, true)
            .await
            .unwrap();
    }
    empires_testkit::relay_game(&services, "race", runners, T0).await;
    (store, services)
}

async fn race_in_database(url: &str) {
    let runners = [("RED", "alice"), ("BLU", "bob"), ("GRN", "carol")];
    let (store, services) = race_at(url, &runners).await;
    services
        .ledgers
        .set_paid_turns("race", true, T0)
        .await
        .unwrap();
    race(&store, "race", true).await;
    // The crowd's standing sheet is its own and the GM's: the runners cannot read it.
    let grn = Some("GRN".parse().unwrap());
    let blu = Some("BLU".parse().unwrap());
    let path = "standing/GRN.txt";
    assert!(store.turn_file("race", 2, path, grn).await.is_ok());
    assert!(store.turn_file("race", 2, path, blu).await.is_err());
    assert!(store.turn_file("race", 2, path, None).await.is_ok());
    // The GM's rulings are in the game's audit log, each time they were sent.
    let log = services.accounts.audit_entries("race").await.unwrap();
    let ruled = log.iter().filter(|(_, _, action, _)| action == "rulings");
    assert_eq!(ruled.count(), 2, "{log:?}");
    assert!(
        log.iter()
            .any(|(_, _, _, detail)| detail == "for turn 4, by test")
    );
    // The far stand split from the crowd is held by the crowd's player, who holds both.
    let carol = services
        .accounts
        .account_by_name("carol")
        .await
        .unwrap()
        .unwrap();
    let held = services.accounts.seats_of("race", carol.id).await.unwrap();
    assert_eq!(held, ["GRN".parse().unwrap(), "YEL".parse().unwrap()]);
    // Five legs are three game-turns begun (legs 1, 3 and 5): each player is charged three
    // times, not five, and the crowd's player once a game-turn for both seats.
    for player in ["alice", "bob", "carol"] {
        let account = services
            .accounts
            .account_by_name(player)
            .await
            .unwrap()
            .unwrap();
        let entries = services.ledgers.ledger_entries(account.id).await.unwrap();
        let charged = entries
            .iter()
            .filter(|(_, e)| matches!(e, empires_host::ledger::Entry::Charged { .. }))
            .count();
        assert_eq!(charged, 3, "{player}: {entries:?}");
    }
}

#[tokio::test]
async fn a_race_in_sqlite_waits_only_for_the_runner_whose_leg_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    race_in_database(&format!("sqlite:{}", tmp.path().join("host.db").display())).await;
}

#[tokio::test]
async fn a_race_in_postgres_waits_only_for_the_runner_whose_leg_it_is() {
    let Some(url) = empires_testkit::fresh_postgres("steps").await else {
        return;
    };
    race_in_database(&url).await;
    empires_testkit::drop_postgres(&url).await;
}

/// A race on a schedule that runs early, its runners with addresses for reminders.
async fn scheduled_race(url: &str) -> Services {
    let (_, services) = race_at(url, &[("RED", "alice"), ("BLU", "bob")]).await;
    let schedule = empires_host::schedule::Schedule::parse("every 24h early").unwrap();
    services
        .schedules
        .set_schedule(
            "race",
            &schedule,
            empires_host::store::CatchUp::Each,
            &[],
            T0,
        )
        .await
        .unwrap();
    services
}

/// Which seats the reminders of `game` go to, by seat.
async fn reminded(services: &Services, game: &str) -> Vec<String> {
    let all = services.mail.report_recipients(game, false).await.unwrap();
    all.into_iter()
        .filter(|r| r.expected)
        .map(|r| r.empire.to_string())
        .collect()
}

#[tokio::test]
async fn a_step_runs_early_once_its_runner_has_sent_and_reminds_only_that_runner() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let services = scheduled_race(&url).await;
    let soon = T0 + 60_000;
    assert!(services.schedules.due(soon).await.unwrap().is_empty());
    assert_eq!(reminded(&services, "race").await, ["RED"]);
    // RED's leg: RED's sheet alone makes the step due, though BLU has sent nothing.
    let store = services.games.as_ref();
    accept(store, "race", &sheet("RED", "RUN 4"), "RED.txt")
        .await
        .unwrap();
    let due = services.schedules.due(soon).await.unwrap();
    assert!(
        matches!(&due[..], [d] if d.game == "race" && d.early && d.turn == 1),
        "{due:?}"
    );
    let ran = empires_host::clock::run_due(&services, soon).await.unwrap();
    assert_eq!(ran.len(), 1);
    // Now BLU's leg: BLU alone is reminded, and RED's sheet would not make it due.
    assert_eq!(reminded(&services, "race").await, ["BLU"]);
    assert!(services.schedules.due(soon).await.unwrap().is_empty());
    // Taking the leg back expects RED again.
    services.games.undo("race", soon).await.unwrap();
    assert_eq!(reminded(&services, "race").await, ["RED"]);
    // Past the leg's deadline, Relay (no late orders) refuses RED's new sheet, but the
    // crowd's standing orders are no step's and are kept whenever they come.
    let deadline = services
        .schedules
        .schedule_of("race")
        .await
        .unwrap()
        .unwrap()
        .deadline
        .unwrap();
    let late = |seat: &str, text: &str| Submission {
        received_at: deadline + 3_600_000,
        ..sheet(seat, text)
    };
    let refused = accept(store, "race", &late("RED", "RUN 5"), "RED.txt")
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("deadline"), "{refused}");
    accept(store, "race", &late("GRN", "CHEER RED"), "GRN.txt")
        .await
        .unwrap();
}

#[tokio::test]
async fn a_race_moves_between_stores_with_its_standing_sheets_and_whose_leg_it_is() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let services = scheduled_race(&url).await;
    let store = services.games.as_ref();
    accept(store, "race", &sheet("GRN", "CHEER BLU"), "GRN.txt")
        .await
        .unwrap();
    accept(store, "race", &sheet("RED", "RUN 4"), "RED.txt")
        .await
        .unwrap();
    store
        .play_turn("race", TurnOptions::default(), T0)
        .await
        .unwrap();
    let kept = store.standing("race").await.unwrap();
    assert_eq!(kept.len(), 1);
    // RED sends the sheet for RED's next leg ahead, before BLU has run.
    accept(store, "race", &sheet("RED", "RUN 2"), "RED.txt")
        .await
        .unwrap();
    let ahead = store.ahead("race").await.unwrap();
    assert_eq!(
        ahead,
        [(
            "ahead/0003/RED.txt".to_string(),
            b"RUNNER RED\nRUN 2\n".to_vec()
        )]
    );
    // Out to a directory: the standing sheet goes with it, and the directory plays BLU's
    // leg with the crowd's cheer.
    let dir = tmp.path().join("race");
    empires_host::transfer::export(store, "race", &dir)
        .await
        .unwrap();
    let key = dir.display().to_string();
    assert_eq!(DirStore.standing(&key).await.unwrap(), kept);
    assert_eq!(DirStore.ahead(&key).await.unwrap(), ahead);
    // And back into a database as another game: the standing sheet, and BLU's leg next.
    let sql = SqlStore::open(&url).await.unwrap();
    empires_host::transfer::import(&sql, &dir, "race2", T0)
        .await
        .unwrap();
    assert_eq!(store.standing("race2").await.unwrap(), kept);
    assert_eq!(store.ahead("race2").await.unwrap(), ahead);
    for (seat, player) in [("RED", "alice"), ("BLU", "bob")] {
        let account = services
            .accounts
            .account_by_name(player)
            .await
            .unwrap()
            .unwrap();
        services
            .accounts
            .assign_seat("race2", seat.parse().unwrap(), Some(account.id), T0)
            .await
            .unwrap();
    }
    assert_eq!(reminded(&services, "race2").await, ["BLU"]);
    accept(&DirStore, &key, &sheet("BLU", "RUN 2"), "BLU.txt")
        .await
        .unwrap();
    DirStore
        .play_turn(
            &key,
            TurnOptions {
                yes: true,
                ..Default::default()
            },
            T0,
        )
        .await
        .unwrap();
    let report = DirStore
        .turn_file(&key, 2, "reports/BLU.txt", None)
        .await
        .unwrap();
    assert!(
        String::from_utf8(report)
            .unwrap()
            .contains("You have run 3 of 12")
    );
    // RED's leg in the directory plays the sheet RED sent ahead in the database.
    assert_eq!(play(&DirStore, &key).await.unwrap(), 3);
    let report = DirStore
        .turn_file(&key, 3, "reports/RED.txt", None)
        .await
        .unwrap();
    let report = String::from_utf8(report).unwrap();
    assert!(report.contains("You have run 6 of 12"), "{report}");
    assert!(DirStore.ahead(&key).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_step_played_without_the_rulings_it_needed_records_the_gms_silence() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let (store, _) = race_at(&url, &[("RED", "alice"), ("BLU", "bob")]).await;
    let ask = sheet("RED", "RUN 2\nASK a second baton");
    accept(&store, "race", &ask, "RED.txt").await.unwrap();
    play(&store, "race").await.unwrap();
    accept(&store, "race", &sheet("BLU", "RUN 3"), "BLU.txt")
        .await
        .unwrap();
    // The GM says nothing; the clock (or the GM's --yes) plays the leg at its deadline.
    let options = TurnOptions {
        yes: true,
        ..TurnOptions::default()
    };
    let played = store.play_turn("race", options, T0).await.unwrap();
    assert!(
        played
            .warnings
            .iter()
            .any(|w| w.contains("without the GM's rulings")
                && w.contains("RED asks \"a second baton\"")),
        "{:?}",
        played.warnings
    );
    let record = store.turn_file("race", 2, "turn.json", None).await.unwrap();
    let record: serde_json::Value = serde_json::from_slice(&record).unwrap();
    assert_eq!(record["gm_silent"], "RED asks \"a second baton\"");
    let report = store
        .turn_file("race", 2, "reports/BLU.txt", None)
        .await
        .unwrap();
    let report = String::from_utf8(report).unwrap();
    assert!(report.contains("The GM was silent"), "{report}");
    // When each runner's sheet arrived is the ruleset's to read, and kept for the replay.
    assert!(report.contains(&format!("arrived at {T0}")), "{report}");
    assert_eq!(record["arrived"][0], serde_json::json!(["BLU", T0]));
    let verified = empires_host::verify::verify(&store, "race").await.unwrap();
    assert_eq!(verified.failures(), 0, "{verified}");
}

#[tokio::test]
async fn a_game_of_empires_takes_no_rulings() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let services = Services::of(SqlStore::open(&url).await.unwrap());
    empires_testkit::tutorial_game(&services, "tut", &[], 7, T0).await;
    let refused = rule(services.games.as_ref(), "tut", "GRANT EN 2")
        .await
        .unwrap_err();
    assert_eq!(refused.kind(), Kind::Conflict);
    assert!(
        refused.to_string().contains("takes no rulings"),
        "{refused}"
    );
    assert!(services.games.pending("tut").await.unwrap().is_empty());
}

#[tokio::test]
async fn after_each_play_each_step_is_due_its_allowance_after_the_last_play() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let (store, services) = race_at(&url, &[("RED", "alice"), ("BLU", "bob")]).await;
    let day = 24 * 3_600_000;
    let set = |text: &str| {
        let schedule = empires_host::schedule::Schedule::parse(text).unwrap();
        let services = services.clone();
        async move {
            services
                .schedules
                .set_schedule(
                    "race",
                    &schedule,
                    empires_host::store::CatchUp::Each,
                    &[],
                    T0,
                )
                .await
                .unwrap()
        }
    };
    // The step's own allowance (Relay suggests a day), from the time it was set.
    assert_eq!(set("after each play early").await.deadline, Some(T0 + day));
    // Played on arrival: RED's sheet alone makes the leg due at once.
    let at = T0 + 3_600_000;
    accept(&store, "race", &sheet("RED", "RUN 1"), "RED.txt")
        .await
        .unwrap();
    assert_eq!(services.schedules.due(at).await.unwrap().len(), 1);
    empires_host::clock::run_due(&services, at).await.unwrap();
    // BLU's leg is due a day after RED's was played, not a day after RED's deadline.
    let next = services
        .schedules
        .schedule_of("race")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((next.for_turn, next.deadline), (2, Some(at + day)));
    // A time of the GM's own replaces the step's.
    assert_eq!(
        set("after each play 6h").await.deadline,
        Some(T0 + 6 * 3_600_000)
    );
    assert_eq!(
        empires_host::schedule::Schedule::parse("after play 6h")
            .unwrap()
            .to_string(),
        "after each play 6h"
    );
}

#[tokio::test]
async fn a_race_is_started_with_its_options_checked_and_the_others_at_their_defaults() {
    let start = |options: &[(&str, &str)]| {
        let setup = ruleset::Setup {
            name: "race".into(),
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Default::default()
        };
        relay().start(&setup)
    };
    let form = relay().new_game_form();
    assert_eq!(
        (form.options[0].id, form.options[0].default.as_str()),
        ("finish", "12")
    );
    let unknown = start(&[("laps", "3")]).unwrap_err().to_string();
    assert!(unknown.contains("finish (default 12)"), "{unknown}");
    let far = start(&[("finish", "99")]).unwrap_err().to_string();
    assert!(far.contains("5 to 30"), "{far}");
    // A race to 8: RED's 5 and 3 win it at the third leg.
    let tmp = tempfile::tempdir().unwrap();
    let key = tmp.path().join("race").display().to_string();
    let started = start(&[("finish", "8")]).unwrap();
    DirStore
        .create_game(&key, relay(), &started, T0)
        .await
        .unwrap();
    for (seat, run) in [("RED", 5), ("BLU", 1), ("RED", 3)] {
        accept(
            &DirStore,
            &key,
            &sheet(seat, &format!("RUN {run}")),
            "s.txt",
        )
        .await
        .unwrap();
        play(&DirStore, &key).await.unwrap();
    }
    let hosted = DirStore.hosted(&key).await.unwrap();
    let over = hosted.ruleset.finished(hosted.text()).unwrap();
    assert_eq!(over.as_deref(), Some("runner RED won the race"));
}

#[tokio::test]
async fn standing_sheets_a_game_opens_are_every_seats_to_read() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let store = SqlStore::open(&url).await.unwrap();
    let setup = ruleset::Setup {
        name: "open".into(),
        options: [("open_cheers".to_string(), "yes".to_string())].into(),
        ..Default::default()
    };
    let started = relay().start(&setup).unwrap();
    store
        .create_game("open", relay(), &started, T0)
        .await
        .unwrap();
    accept(&store, "open", &sheet("GRN", "CHEER RED"), "GRN.txt")
        .await
        .unwrap();
    accept(&store, "open", &sheet("RED", "RUN 1"), "RED.txt")
        .await
        .unwrap();
    play(&store, "open").await.unwrap();
    let blu = Some("BLU".parse().unwrap());
    let cheer = store.turn_file("open", 1, "standing/GRN.txt", blu).await;
    assert_eq!(cheer.unwrap(), b"RUNNER GRN\nCHEER RED\n");
}

#[tokio::test]
async fn a_database_from_before_steps_opens_and_plays_as_before() {
    use sqlx::Connection;
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("host.db");
    let url = format!("sqlite:{}", file.display());
    {
        let services = Services::of(SqlStore::open(&url).await.unwrap());
        empires_testkit::tutorial_game(&services, "tut", &[], 7, T0).await;
        services.limits.close().await;
    }
    // The database as the host left it before standing sheets, expected seats and what a
    // step needs, the host's own notices, the players' feeds and their sharing of an
    // address with ambassadors were kept (migrations 0011 to 0016).
    {
        let mut c = sqlx::SqliteConnection::connect(&url).await.unwrap();
        for sql in [
            "DROP TABLE standing_sheets",
            "ALTER TABLE seats DROP COLUMN expected",
            "ALTER TABLE games DROP COLUMN step_label",
            "ALTER TABLE games DROP COLUMN step_needs_gm",
            "ALTER TABLE games DROP COLUMN step_allowance",
            "ALTER TABLE gm_messages DROP COLUMN notice",
            "DROP INDEX accounts_feed_sha256",
            "ALTER TABLE accounts DROP COLUMN feed_sha256",
            "ALTER TABLE accounts DROP COLUMN share_address",
            "DELETE FROM _sqlx_migrations WHERE version >= 11",
        ] {
            sqlx::query(sql).execute(&mut c).await.unwrap();
        }
        c.close().await.unwrap();
    }
    let store = SqlStore::open(&url).await.unwrap();
    let options = TurnOptions {
        yes: true,
        ..TurnOptions::default()
    };
    assert_eq!(store.play_turn("tut", options, T0).await.unwrap().turn, 1);
    let verified = empires_host::verify::verify(&store, "tut").await.unwrap();
    assert_eq!(verified.failures(), 0, "{verified}");
    assert!(store.standing("tut").await.unwrap().is_empty());
}
