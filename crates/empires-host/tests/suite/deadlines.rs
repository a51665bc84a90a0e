//! The host's clock over a game's deadlines (2.4), with time given by the test: turns run at
//! their deadline (with grace) exactly once, early when every living player has sent
//! orders, one per missed deadline after downtime (or one under `skip`), not while paused,
//! at an extended deadline; a GM playing by hand or undoing keeps the schedule in step;
//! missed turns count towards dropping out (2.5, decision 21); reminders go once.

use empires_host::clock::{Ran, run_due};
use empires_host::schedule::Schedule;
use empires_host::store::prelude::*;
use empires_host::store::sql::{CatchUp, SqlStore};
use empires_host::store::{Millis, Store, Submission};
use empires_host::turn::TurnOptions;

const HOUR: Millis = 3_600_000;
/// 2026-11-02 00:00 UTC, a Monday.
const T0: Millis = 1_793_577_600_000;

fn seat(c: &str) -> empires_host::store::SeatCode {
    empires_host::store::SeatCode::parse(c).unwrap()
}

#[derive(Debug, Clone, Copy)]
enum Backend {
    Sqlite,
    Postgres,
}

/// Each test, on SQLite and on PostgreSQL (skipped, and saying so, without a server).
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Backend::Sqlite).await
            })*
        }
        mod postgres {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Backend::Postgres).await
            })*
        }
    };
}

on_both!(
    orders_after_the_deadline_are_late_orders_for_the_next_turn,
    a_turn_runs_at_its_deadline_once_and_the_next_deadline_keeps_to_the_schedule,
    orders_within_the_grace_count_and_the_turn_runs_when_it_ends,
    a_game_that_runs_early_runs_once_every_living_player_has_sent,
    after_downtime_one_turn_is_played_per_deadline_missed_one_at_a_time,
    after_downtime_skip_plays_one_turn_and_looks_ahead,
    a_paused_game_waits_and_on_resuming_gets_a_whole_turn_again,
    the_players_read_one_notice_of_each_change_of_the_schedule_naming_no_date,
    an_extended_deadline_moves_the_turn_and_a_bad_one_is_refused,
    a_turn_the_gm_plays_by_hand_moves_the_deadline_on_and_undo_moves_it_back,
    a_manual_schedule_never_runs_a_turn,
    players_who_miss_deadlines_are_played_by_the_computer_and_drop_out,
    the_latest_reminder_due_goes_once_per_turn,
);

/// The tutorial game with players for England and Scotland (the others are dummies), kept
/// in a fresh database, on schedule `spec` set at `T0`. `None` when PostgreSQL is wanted
/// and there is none.
async fn game(b: Backend, spec: &str, catch_up: CatchUp) -> Option<(tempfile::TempDir, SqlStore)> {
    let tmp = tempfile::tempdir().unwrap();
    let url = match b {
        Backend::Sqlite => format!("sqlite:{}", tmp.path().join("host.db").display()),
        Backend::Postgres => {
            // One database per test: the schedule spells the test apart.
            let tag: String = format!("deadline_{:x}", {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                (
                    spec,
                    catch_up.as_str(),
                    std::thread::current().name().unwrap_or(""),
                )
                    .hash(&mut h);
                h.finish() & 0xffff_ffff
            });
            empires_testkit::fresh_postgres(&tag).await?
        }
    };
    let store = SqlStore::open(&url).await.unwrap();
    empires_testkit::tutorial_game(
        &empires_host::store::Services::of(store.clone()),
        "g",
        &[("EN", "alice"), ("SC", "bob")],
        3,
        T0,
    )
    .await;
    let schedule = Schedule::parse(spec).unwrap();
    store
        .set_schedule("g", &schedule, catch_up, &[24 * HOUR, 2 * HOUR], T0)
        .await
        .unwrap();
    Some((tmp, store))
}

async fn send(store: &SqlStore, empire: &str, at: Millis) {
    store
        .submit(
            "g",
            &Submission {
                empire: Some(seat(empire)),
                body: format!("GAME g\nEMPIRE {empire}\n1. TAX\n").into_bytes(),
                door: "test".into(),
                received_at: at,
                for_turn: None,
                late: false,
            },
        )
        .await
        .unwrap();
}

async fn turn(store: &SqlStore) -> u32 {
    store.version("g").await.unwrap().0
}

/// The turns played by one look of the clock at `now`.
async fn tick(store: &SqlStore, now: Millis) -> Vec<u32> {
    run_due(&empires_host::store::Services::of(store.clone()), now)
        .await
        .unwrap()
        .into_iter()
        .map(|r| match r {
            Ran::Played { due, .. } => due.turn,
            other => panic!("not played: {other}"),
        })
        .collect()
}

async fn deadline(store: &SqlStore) -> Option<Millis> {
    store.schedule_of("g").await.unwrap().unwrap().deadline
}

async fn a_turn_runs_at_its_deadline_once_and_the_next_deadline_keeps_to_the_schedule(b: Backend) {
    let Some((_t, store)) = game(b, "every 24h", CatchUp::Each).await else {
        return;
    };
    let d1 = T0 + 24 * HOUR;
    assert_eq!(deadline(&store).await, Some(d1));
    assert_eq!(tick(&store, d1 - 1).await, Vec::<u32>::new(), "not before");
    assert_eq!(tick(&store, d1).await, vec![1], "at the deadline");
    assert_eq!(tick(&store, d1).await, Vec::<u32>::new(), "once");
    assert_eq!(turn(&store).await, 1);
    // Counted from the deadline met, not from when the turn ran.
    assert_eq!(deadline(&store).await, Some(d1 + 24 * HOUR));
    let s = store.schedule_of("g").await.unwrap().unwrap();
    assert_eq!(s.for_turn, 2);
}

async fn orders_within_the_grace_count_and_the_turn_runs_when_it_ends(b: Backend) {
    let Some((_t, store)) = game(b, "every 24h grace 1h", CatchUp::Each).await else {
        return;
    };
    let d1 = T0 + 24 * HOUR;
    assert_eq!(
        tick(&store, d1).await,
        Vec::<u32>::new(),
        "the grace is running"
    );
    send(&store, "EN", d1 + HOUR / 2).await;
    assert_eq!(tick(&store, d1 + HOUR).await, vec![1]);
    let sent = store.turn_file("g", 1, "orders/EN.txt", None).await;
    assert!(
        sent.is_ok(),
        "England's sheet, sent in the grace, was played"
    );
}

async fn a_game_that_runs_early_runs_once_every_living_player_has_sent(b: Backend) {
    let Some((_t, store)) = game(b, "every 24h early", CatchUp::Each).await else {
        return;
    };
    let d1 = T0 + 24 * HOUR;
    send(&store, "EN", T0 + HOUR).await;
    assert_eq!(
        tick(&store, T0 + 2 * HOUR).await,
        Vec::<u32>::new(),
        "Scotland has not sent: the dummies do not count, the players do"
    );
    send(&store, "SC", T0 + 3 * HOUR).await;
    let ran = run_due(
        &empires_host::store::Services::of(store.clone()),
        T0 + 4 * HOUR,
    )
    .await
    .unwrap();
    assert!(
        matches!(&ran[..], [Ran::Played { due, .. }] if due.early && due.turn == 1),
        "{ran:?}"
    );
    // The next turn keeps its own deadline: the one after the deadline the early run met.
    assert_eq!(deadline(&store).await, Some(d1 + 24 * HOUR));
    // Orders sent now are for turn 2.
    send(&store, "EN", T0 + 5 * HOUR).await;
    assert_eq!(
        tick(&store, d1).await,
        Vec::<u32>::new(),
        "turn 2 is not due at turn 1's deadline"
    );
}

async fn after_downtime_one_turn_is_played_per_deadline_missed_one_at_a_time(b: Backend) {
    let Some((_t, store)) = game(b, "every 24h", CatchUp::Each).await else {
        return;
    };
    // Down from before the first deadline until 2 h after the third.
    let back = T0 + 74 * HOUR;
    assert_eq!(tick(&store, back).await, vec![1], "one turn a look");
    assert_eq!(tick(&store, back).await, vec![2]);
    assert_eq!(tick(&store, back).await, vec![3]);
    assert_eq!(
        tick(&store, back).await,
        Vec::<u32>::new(),
        "the fourth is ahead"
    );
    assert_eq!(deadline(&store).await, Some(T0 + 96 * HOUR));
}

async fn after_downtime_skip_plays_one_turn_and_looks_ahead(b: Backend) {
    let Some((_t, store)) = game(b, "daily 18:00 UTC", CatchUp::Skip).await else {
        return;
    };
    let back = T0 + 74 * HOUR; // Thursday 02:00 UTC; deadlines Mon, Tue, Wed 18:00 missed
    assert_eq!(tick(&store, back).await, vec![1]);
    assert_eq!(tick(&store, back).await, Vec::<u32>::new());
    assert_eq!(
        deadline(&store).await,
        Some(T0 + (3 * 24 + 18) * HOUR),
        "Thursday 18:00, the first after the present"
    );
}

async fn a_paused_game_waits_and_on_resuming_gets_a_whole_turn_again(b: Backend) {
    let Some((_t, store)) = game(b, "every 24h", CatchUp::Each).await else {
        return;
    };
    let d1 = T0 + 24 * HOUR;
    store.pause("g", T0 + HOUR).await.unwrap();
    assert!(store.pause("g", T0 + HOUR).await.is_err(), "paused already");
    assert_eq!(tick(&store, d1 + 5 * HOUR).await, Vec::<u32>::new());
    let s = store.resume("g", d1 + 6 * HOUR).await.unwrap();
    assert_eq!(s.deadline, Some(d1 + 30 * HOUR), "24 h from the resume");
    assert_eq!(tick(&store, d1 + 6 * HOUR).await, Vec::<u32>::new());
    // Both are in the audit log; the next reports announce where the game stands now, the
    // resume, not a trail of notices (an unread pause or resume is replaced).
    let log = store.audit_log("g").await.unwrap();
    let actions: Vec<&str> = log.iter().map(|(_, a, _)| a.as_str()).collect();
    assert!(
        actions.ends_with(&["schedule", "pause", "resume"]),
        "{actions:?}"
    );
    let pending = store.pending("g").await.unwrap();
    let gm = pending
        .iter()
        .find(|(name, _)| name == "gm.txt")
        .map(|(_, b)| String::from_utf8(b.clone()).unwrap())
        .expect("the GM's messages for the next turn");
    assert!(gm.contains("The GM resumed the game"), "{gm}");
    assert!(
        !gm.contains("paused"),
        "the pause notice was replaced: {gm}"
    );
}

/// The GM's messages the next turn's reports will carry.
async fn gm_text(store: &SqlStore) -> String {
    let pending = store.pending("g").await.unwrap();
    pending
        .iter()
        .find(|(name, _)| name == "gm.txt")
        .map(|(_, b)| String::from_utf8(b.clone()).unwrap())
        .unwrap_or_default()
}

async fn the_players_read_one_notice_of_each_change_of_the_schedule_naming_no_date(b: Backend) {
    let Some((_t, store)) = game(b, "every 24h", CatchUp::Each).await else {
        return;
    };
    let later = Schedule::parse("every 48h").unwrap();
    store
        .set_schedule("g", &later, CatchUp::Each, &[], T0 + HOUR)
        .await
        .unwrap();
    let d = deadline(&store).await.unwrap();
    store
        .extend("g", d + 5 * HOUR, T0 + 2 * HOUR)
        .await
        .unwrap();
    store
        .extend("g", d + 9 * HOUR, T0 + 3 * HOUR)
        .await
        .unwrap();
    let gm = gm_text(&store).await;
    assert_eq!(gm.matches("The GM set the schedule").count(), 1, "{gm}");
    assert!(gm.contains("\"every 48h\""), "the newer schedule: {gm}");
    assert!(!gm.contains("every 24h"), "the older one is gone: {gm}");
    assert_eq!(gm.matches("extended the deadline").count(), 1, "{gm}");
    // No date that a later change could make untrue: the report's opening gives it.
    assert!(!gm.contains("2026"), "{gm}");
    // The audit log keeps every change, with its dates.
    let log = store.audit_log("g").await.unwrap();
    let extends: Vec<_> = log.iter().filter(|(_, a, _)| a == "extend").collect();
    assert_eq!(extends.len(), 2, "{log:?}");
    assert!(
        extends.iter().all(|(_, _, w)| w.contains("2026")),
        "{log:?}"
    );
    // A new schedule replaces the notice of an extension of the old one.
    store
        .set_schedule("g", &later, CatchUp::Each, &[], T0 + 4 * HOUR)
        .await
        .unwrap();
    let gm = gm_text(&store).await;
    assert_eq!(gm.matches("The GM").count(), 1, "{gm}");
    // Once a turn's reports carried the notice, the next change is announced anew.
    let played = tick(&store, deadline(&store).await.unwrap() + HOUR).await;
    assert_eq!(played, vec![1]);
    assert_eq!(gm_text(&store).await, "", "read with turn 1");
    let d = deadline(&store).await.unwrap();
    store.extend("g", d + HOUR, d - HOUR).await.unwrap();
    let gm = gm_text(&store).await;
    assert!(gm.contains("extended the deadline of turn 2"), "{gm}");
}

async fn an_extended_deadline_moves_the_turn_and_a_bad_one_is_refused(b: Backend) {
    let Some((_t, store)) = game(b, "every 24h", CatchUp::Each).await else {
        return;
    };
    let d1 = T0 + 24 * HOUR;
    let err = store.extend("g", T0 - HOUR, T0).await.unwrap_err();
    assert!(err.to_string().contains("in the past"), "{err}");
    let err = store.extend("g", d1 - HOUR, T0).await.unwrap_err();
    assert!(err.to_string().contains("not later"), "{err}");
    store.extend("g", d1 + 48 * HOUR, T0).await.unwrap();
    assert_eq!(tick(&store, d1).await, Vec::<u32>::new());
    assert_eq!(tick(&store, d1 + 48 * HOUR).await, vec![1]);
    assert_eq!(
        deadline(&store).await,
        Some(d1 + 72 * HOUR),
        "the schedule counts on from the deadline the turn met"
    );
}

async fn a_turn_the_gm_plays_by_hand_moves_the_deadline_on_and_undo_moves_it_back(b: Backend) {
    let Some((_t, store)) = game(b, "every 24h", CatchUp::Each).await else {
        return;
    };
    let d1 = T0 + 24 * HOUR;
    let yes = TurnOptions {
        yes: true,
        ..TurnOptions::default()
    };
    store.play_turn("g", yes, T0 + HOUR).await.unwrap();
    let s = store.schedule_of("g").await.unwrap().unwrap();
    assert_eq!((s.for_turn, s.deadline), (2, Some(d1 + 24 * HOUR)));
    assert_eq!(
        tick(&store, d1).await,
        Vec::<u32>::new(),
        "turn 2 waits for its own deadline"
    );
    // The GM extends turn 2's deadline (announced for turn 2), then takes turn 1 back:
    // the announcement waits for turn 2, and does not stop the undo.
    store
        .extend("g", d1 + 30 * HOUR, T0 + 2 * HOUR)
        .await
        .unwrap();
    store.undo("g", T0 + 2 * HOUR).await.unwrap();
    let s = store.schedule_of("g").await.unwrap().unwrap();
    assert_eq!(s.for_turn, 1, "the undone turn is the one waiting");
    assert_eq!(tick(&store, d1 + 30 * HOUR).await, vec![1]);
    let files = store.turn_files("g", 1).await.unwrap();
    let gm: String = files
        .iter()
        .filter(|(p, _)| p.ends_with("gm.txt"))
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .collect();
    assert!(
        gm.contains("set the schedule") && !gm.contains("extended"),
        "turn 1 played again with its own messages, not turn 2's: {gm}"
    );
    let pending = store.pending("g").await.unwrap();
    assert!(
        pending.iter().any(|(n, _)| n == "gm.txt"),
        "it waits for turn 2"
    );
}

async fn a_manual_schedule_never_runs_a_turn(b: Backend) {
    let Some((_t, store)) = game(b, "manual", CatchUp::Each).await else {
        return;
    };
    assert_eq!(deadline(&store).await, None);
    assert_eq!(tick(&store, T0 + 1000 * HOUR).await, Vec::<u32>::new());
}

async fn players_who_miss_deadlines_are_played_by_the_computer_and_drop_out(b: Backend) {
    let Some((_t, store)) = game(b, "every 24h", CatchUp::Each).await else {
        return;
    };
    // England sends every turn; Scotland never does.
    for k in 1..=3 {
        send(&store, "EN", T0 + (24 * k - 12) * HOUR).await;
        assert_eq!(tick(&store, T0 + 24 * k * HOUR).await, vec![k as u32]);
        let seats = store.seats("g").await.unwrap();
        let sc = seats.iter().find(|s| s.empire == seat("SC")).unwrap();
        let en = seats.iter().find(|s| s.empire == seat("EN")).unwrap();
        assert_eq!(sc.missed_turns, k as u32);
        assert_eq!(en.missed_turns, 0);
        // decision 21: dropped out after `dropout_after` (3) missed turns in a row.
        let want = if k < 3 { "missing" } else { "dropped" };
        assert_eq!(sc.status, want, "after {k} missed");
    }
    let report = store
        .play_turn(
            "g",
            TurnOptions {
                yes: true,
                ..TurnOptions::default()
            },
            T0 + 80 * HOUR,
        )
        .await
        .unwrap();
    assert!(report.computer_written.contains(&"SC".to_string()));
}

async fn the_latest_reminder_due_goes_once_per_turn(b: Backend) {
    let Some((_t, store)) = game(b, "every 48h", CatchUp::Each).await else {
        return;
    };
    let d1 = T0 + 48 * HOUR;
    assert!(
        store
            .reminders_due(d1 - 25 * HOUR)
            .await
            .unwrap()
            .is_empty()
    );
    let due = store.reminders_due(d1 - 24 * HOUR).await.unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!((due[0].label.as_str(), due[0].turn), ("24h", 1));
    assert!(store.reminder_sent(&due[0], d1 - 24 * HOUR).await.unwrap());
    assert!(
        !store.reminder_sent(&due[0], d1 - 24 * HOUR).await.unwrap(),
        "once"
    );
    assert!(store.reminders_due(d1 - 3 * HOUR).await.unwrap().is_empty());
    // A host that was down over both reminder times sends the later one alone.
    let due = store.reminders_due(d1 - HOUR).await.unwrap();
    assert_eq!(
        due.iter().map(|d| d.label.as_str()).collect::<Vec<_>>(),
        ["2h"]
    );
    assert!(
        store.reminders_due(d1 + HOUR).await.unwrap().is_empty(),
        "none after the deadline"
    );
}

async fn sheet_for(store: &SqlStore, empire: &str, text: &str, at: Millis) -> u32 {
    store
        .submit(
            "g",
            &Submission {
                empire: Some(seat(empire)),
                body: text.as_bytes().to_vec(),
                door: "test".into(),
                received_at: at,
                for_turn: None,
                late: false,
            },
        )
        .await
        .unwrap()
        .for_turn
}

async fn orders_after_the_deadline_are_late_orders_for_the_next_turn(b: Backend) {
    let Some((_t, store)) = game(b, "every 24h", CatchUp::Each).await else {
        return;
    };
    let d1 = T0 + 24 * HOUR;
    // The host is down at the deadline; England's sheet comes an hour after it.
    let kept = sheet_for(&store, "EN", "GAME g\nEMPIRE EN\n1. TAX\n", d1 + HOUR).await;
    assert_eq!(kept, 2, "set aside for the next turn (2.4)");
    assert_eq!(tick(&store, d1 + 2 * HOUR).await, vec![1]);
    let one = store
        .play_turn(
            "g",
            TurnOptions {
                yes: true,
                expect: Some(99),
                ..TurnOptions::default()
            },
            0,
        )
        .await;
    assert!(one.is_err(), "nothing else is played");
    let subs = store.submissions("g").await.unwrap();
    assert_eq!(
        (subs[0].1, subs[0].4.as_str(), subs[0].5),
        (2, "late", None),
        "turn 1 was played without it: late orders never join the turn they missed"
    );
    // Nothing newer by turn 2's deadline: the late orders are played.
    assert_eq!(tick(&store, d1 + 24 * HOUR).await, vec![2]);
    let played = store
        .turn_file("g", 2, "orders/EN.txt", None)
        .await
        .unwrap();
    assert!(String::from_utf8(played).unwrap().contains("1. TAX"));
    // Late again for turn 3, then newer orders on time: the newer ones are played, alone.
    let late = sheet_for(
        &store,
        "EN",
        "GAME g\nEMPIRE EN\n1. TAX\n2. TAX\n",
        d1 + 48 * HOUR + HOUR,
    )
    .await;
    assert_eq!(late, 4, "after turn 3's deadline: late orders for turn 4");
    assert_eq!(tick(&store, d1 + 48 * HOUR + 2 * HOUR).await, vec![3]);
    let fresh = sheet_for(
        &store,
        "EN",
        "GAME g\nEMPIRE EN\n1. GROW LON\n",
        d1 + 60 * HOUR,
    )
    .await;
    assert_eq!(fresh, 4);
    assert_eq!(tick(&store, d1 + 72 * HOUR).await, vec![4]);
    let played = String::from_utf8(
        store
            .turn_file("g", 4, "orders/EN.txt", None)
            .await
            .unwrap(),
    )
    .unwrap();
    assert!(
        played.contains("GROW LON") && !played.contains("2. TAX"),
        "{played}"
    );
}

#[tokio::test]
async fn a_turn_that_cannot_be_played_pauses_the_game_for_its_gm() {
    let Some((tmp, store)) = game(Backend::Sqlite, "every 24h", CatchUp::Each).await else {
        return;
    };
    // The stored state is damaged: no turn can be played on it.
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    // Wait for the store's own connections as long as a loaded machine needs.
    let options = <sqlx::sqlite::SqliteConnectOptions as std::str::FromStr>::from_str(&url)
        .unwrap()
        .busy_timeout(std::time::Duration::from_secs(60));
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    sqlx::query(
        "UPDATE turn_files SET body = CAST('{' AS BLOB) WHERE turn = 0 AND path = 'state.json'",
    )
    .execute(&pool)
    .await
    .unwrap();
    let d1 = T0 + 24 * HOUR;
    let ran = run_due(&empires_host::store::Services::of(store.clone()), d1)
        .await
        .unwrap();
    assert!(
        matches!(&ran[..], [Ran::Failed { error, .. }] if error.contains("paused")),
        "{ran:?}"
    );
    // Paused, not tried again every round; the GM reads why, the players that it waits.
    assert!(
        run_due(&empires_host::store::Services::of(store.clone()), d1 + HOUR)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .schedule_of("g")
            .await
            .unwrap()
            .unwrap()
            .paused_at
            .is_some()
    );
    let log = store.audit_log("g").await.unwrap();
    assert!(
        log.iter()
            .any(|(_, a, d)| a == "turn failed" && d.contains("state.json")),
        "{log:?}"
    );
    let pending = store.pending("g").await.unwrap();
    let gm = pending
        .iter()
        .find(|(n, _)| n == "gm.txt")
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .unwrap();
    assert!(
        gm.contains("The host paused the game") && !gm.contains("state.json"),
        "{gm}"
    );
}
