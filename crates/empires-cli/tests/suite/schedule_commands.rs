//! `empires schedule`, `empires host run --once` and `empires ledger` as a GM types them, on
//! an SQLite host, with the clock read from a file: every command and its refusals.

use crate::common;

use common::*;
use std::path::Path;
use std::process::{Command, Output};

/// 2026-11-02 00:00 UTC, a Monday.
const T0: i64 = 1_793_577_600_000;
const HOUR: i64 = 3_600_000;

fn at(clock: &Path, when: i64, args: &[&str]) -> Output {
    std::fs::write(clock, when.to_string()).unwrap();
    Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(args)
        .env("EMPIRES_CLOCK_FILE", clock)
        .output()
        .unwrap()
}

fn said(o: &Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

#[test]
fn a_gm_schedules_pauses_resumes_extends_and_the_clock_plays_the_turn() {
    let tmp = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", tmp.path().join("host.db").display());
    let clock = tmp.path().join("clock");
    ok(&[
        "new", "g", "--db", &db, "--map", "tutorial", "--seed", "2", "--player", "EN=alice",
    ]);
    let set = at(
        &clock,
        T0,
        &[
            "schedule",
            "set",
            "g",
            "tuesdays 17:00 America/Los_Angeles early",
            "--remind",
            "24h,2h",
            "--db",
            &db,
        ],
    );
    assert!(set.status.success(), "{}", said(&set));
    assert!(
        stdout(&set).contains(
            "turn 1 is due by Tuesday 2026-11-03 17:00 PST (01:00 UTC Wednesday 2026-11-04)"
        ),
        "{}",
        said(&set)
    );
    assert!(
        stdout(&set).contains("reminders 24h,2h before"),
        "{}",
        said(&set)
    );
    let bad = at(
        &clock,
        T0,
        &[
            "schedule",
            "set",
            "g",
            "fridays 17:00 Mars/Olympus",
            "--db",
            &db,
        ],
    );
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("Mars/Olympus"), "{}", said(&bad));
    let bad = at(
        &clock,
        T0,
        &[
            "schedule",
            "set",
            "g",
            "daily 09:00 UTC",
            "--remind",
            "soon",
            "--db",
            &db,
        ],
    );
    assert!(
        !bad.status.success() && stderr(&bad).contains("--remind"),
        "{}",
        said(&bad)
    );

    let ext = at(
        &clock,
        T0 + HOUR,
        &["schedule", "extend", "g", "--by", "24h", "--db", &db],
    );
    assert!(
        stdout(&ext).contains("Wednesday 2026-11-04 17:00 PST"),
        "{}",
        said(&ext)
    );
    let past = at(
        &clock,
        T0 + HOUR,
        &[
            "schedule",
            "extend",
            "g",
            "--to",
            "2026-01-01T00:00:00Z",
            "--db",
            &db,
        ],
    );
    assert!(
        !past.status.success() && stderr(&past).contains("in the past"),
        "{}",
        said(&past)
    );
    let p = at(
        &clock,
        T0 + 2 * HOUR,
        &["schedule", "pause", "g", "--db", &db],
    );
    assert!(stdout(&p).contains("paused"), "{}", said(&p));
    // Paused: the clock plays nothing, even long after the deadline.
    let run = at(
        &clock,
        T0 + 100 * HOUR,
        &["host", "run", "--once", "--db", &db],
    );
    assert!(
        run.status.success() && stdout(&run).trim().is_empty(),
        "{}",
        said(&run)
    );
    let r = at(
        &clock,
        T0 + 100 * HOUR,
        &["schedule", "resume", "g", "--db", &db],
    );
    assert!(
        stdout(&r).contains("turn 1 is due by Tuesday 2026-11-10 17:00 PST"),
        "a whole turn again: {}",
        said(&r)
    );
    let run = at(
        &clock,
        T0 + 8 * 24 * HOUR + 25 * HOUR,
        &["host", "run", "--once", "--db", &db],
    );
    assert!(
        stdout(&run).contains("g: turn 1 played at its deadline"),
        "{}",
        said(&run)
    );
    let show = at(
        &clock,
        T0 + 8 * 24 * HOUR + 25 * HOUR,
        &["schedule", "show", "g", "--db", &db],
    );
    assert!(
        stdout(&show).contains("turn 2 is due by Tuesday 2026-11-17"),
        "{}",
        said(&show)
    );
}

#[test]
fn a_gm_keeps_the_ledger_and_a_bad_entry_is_refused_in_plain_words() {
    let tmp = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", tmp.path().join("host.db").display());
    ok(&[
        "new", "g", "--db", &db, "--map", "tutorial", "--seed", "2", "--player", "EN=alice",
    ]);
    let paid = ok(&["ledger", "paid", "g", "on", "--db", &db]);
    assert!(stdout(&paid).contains("paid for"));
    let buy = ok(&["ledger", "buy", "alice", "g", "4", "--db", &db]);
    assert!(
        stdout(&buy).contains("g: Turn credits: 4 in hand"),
        "{}",
        said(&buy)
    );
    ok(&["turn", "g", "--db", &db, "--yes"]);
    let show = ok(&["ledger", "show", "alice", "--db", &db]);
    assert!(
        stdout(&show).contains("3 in hand"),
        "one charged for turn 1: {}",
        said(&show)
    );
    let adj = ok(&[
        "ledger",
        "adjust",
        "alice",
        "g",
        "-1",
        "--reason",
        "correction",
        "--db",
        &db,
    ]);
    assert!(stdout(&adj).contains("2 in hand"), "{}", said(&adj));
    let carry = empires(&["ledger", "carry", "alice", "old", "g", "3", "--db", &db]);
    assert!(!carry.status.success());
    assert!(stderr(&carry).contains("holds only 0"), "{}", said(&carry));
    let table = ok(&["ledger", "discounts", "--db", &db]);
    assert!(
        stdout(&table).contains("runaway-win: 3"),
        "{}",
        said(&table)
    );
    let file = tmp.path().join("table.json");
    std::fs::write(&file, r#"{"by_category": {"points-win": 4}, "cap": 8}"#).unwrap();
    let set = ok(&[
        "ledger",
        "discounts",
        "--set",
        file.to_str().unwrap(),
        "--db",
        &db,
    ]);
    assert!(
        stdout(&set).contains("points-win: 4") && stdout(&set).contains("at most 8"),
        "{}",
        said(&set)
    );
    std::fs::write(&file, r#"{"by_categry": {}}"#).unwrap();
    let typo = empires(&[
        "ledger",
        "discounts",
        "--set",
        file.to_str().unwrap(),
        "--db",
        &db,
    ]);
    assert!(
        !typo.status.success() && stderr(&typo).contains("by_categry"),
        "{}",
        said(&typo)
    );
    let none = empires(&["ledger", "buy", "nobody", "g", "10", "--db", &db]);
    assert!(!none.status.success() && stderr(&none).contains("no account named \"nobody\""));
}
