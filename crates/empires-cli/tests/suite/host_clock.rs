//! Two `empires host run` processes on one PostgreSQL database, reading one clock that the
//! test moves: over many deadlines, and a jump over several at once, each turn is played
//! exactly once, by one process or the other, one deadline at a time.

use crate::common;

use common::*;
use empires_cli::commands::hosted::block_on;
use empires_host::store::sql::SqlStore;
use empires_host::testdb::{drop_postgres, fresh_postgres};
use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const HOUR: i64 = 3_600_000;
/// 2026-11-02 00:00 UTC.
const T0: i64 = 1_793_577_600_000;

fn set_clock(file: &Path, at: i64) {
    // Written whole and renamed, so that a process never reads half a number.
    let tmp = file.with_extension("new");
    std::fs::write(&tmp, at.to_string()).unwrap();
    std::fs::rename(&tmp, file).unwrap();
}

fn host_run(url: &str, clock: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(["host", "run", "--db", url, "--tick", "0.02"])
        .env("EMPIRES_CLOCK_FILE", clock)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("empires host run starts")
}

fn turn_of(store: &SqlStore) -> u32 {
    block_on(store.version("g")).unwrap().0
}

/// Waits until the game is after `want`, and fails if it goes past it.
fn wait_for(store: &SqlStore, want: u32) {
    let start = Instant::now();
    loop {
        let t = turn_of(store);
        assert!(t <= want, "turn {t} played, only {want} deadlines passed");
        if t == want {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "turn {want} was not played (the game is after turn {t})"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn two_host_processes_on_one_database_play_each_deadline_exactly_once() {
    let Some(url) = block_on(fresh_postgres("host_clock")) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let clock = tmp.path().join("clock");
    set_clock(&clock, T0);
    ok(&[
        "new", "g", "--db", &url, "--map", "tutorial", "--seed", "5", "--player", "EN=alice",
    ]);
    let set = Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(["schedule", "set", "g", "every 1h", "--db", &url])
        .env("EMPIRES_CLOCK_FILE", &clock)
        .output()
        .unwrap();
    assert!(set.status.success(), "{}", stderr(&set));
    assert!(
        stdout(&set).contains("turn 1 is due by 2026-11-02 01:00 UTC"),
        "{}",
        stdout(&set)
    );

    let store = block_on(SqlStore::open(&url)).unwrap();
    let mut hosts = [host_run(&url, &clock), host_run(&url, &clock)];
    for k in 1..=12 {
        set_clock(&clock, T0 + k * HOUR);
        wait_for(&store, k as u32);
    }
    // Down over five deadlines: five turns, one per deadline, never more.
    set_clock(&clock, T0 + 17 * HOUR + HOUR / 2);
    wait_for(&store, 17);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(turn_of(&store), 17, "no turn before its deadline");

    let mut played = Vec::new();
    for h in &mut hosts {
        h.kill().unwrap();
        h.wait().unwrap();
        let mut out = String::new();
        h.stdout.take().unwrap().read_to_string(&mut out).unwrap();
        played.extend(
            out.lines()
                .filter(|l| l.contains("played at its deadline"))
                .map(|l| l.to_string()),
        );
    }
    played.sort_by_key(|l| {
        l.split_whitespace()
            .nth(2)
            .and_then(|n| n.parse::<u32>().ok())
    });
    let turns: Vec<u32> = played
        .iter()
        .filter_map(|l| l.split_whitespace().nth(2)?.parse().ok())
        .collect();
    assert_eq!(
        turns,
        (1..=17).collect::<Vec<u32>>(),
        "each turn played once, by one of the two: {played:#?}"
    );
    let audit = block_on(store.audit_log("g")).unwrap();
    assert_eq!(audit.iter().filter(|(_, a, _)| a == "turn").count(), 17);
    let s = block_on(store.schedule_of("g")).unwrap().unwrap();
    assert_eq!((s.for_turn, s.deadline), (18, Some(T0 + 18 * HOUR)));
    drop(store);
    block_on(drop_postgres(&url));
}
