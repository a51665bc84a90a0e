//! Two `empires host run` processes on one PostgreSQL database, reading one clock that the
//! test moves: over many deadlines, and a jump over several at once, each turn is played
//! exactly once, by one process or the other, one deadline at a time.

use crate::common;
use empires_host::store::prelude::*;

use common::*;
use empires_cli::commands::hosted::block_on;
use empires_host::store::sql::SqlStore;
use empires_testkit::{drop_postgres, fresh_postgres};
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

/// Runs `empires` with the clock file, feeding `stdin` when given.
fn at_clock(clock: &Path, args: &[&str], stdin: Option<&str>) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(args)
        .env("EMPIRES_CLOCK_FILE", clock)
        .env_remove("EMPIRES_SMTP_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    if let Some(text) = stdin {
        input.write_all(text.as_bytes()).unwrap();
    }
    drop(input);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o
}

/// With `EMPIRES_CLOCK_FILE` set, a sheet that arrives by the command line, by mail and by
/// the web is stamped with the file's time, as the schedule that reads the same file.
#[test]
fn every_door_stamps_a_sheet_with_the_clock_file() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let db = url.as_str();
    let clock = tmp.path().join("clock");
    set_clock(&clock, T0);
    at_clock(
        &clock,
        &[
            "new", "g", "--db", db, "--map", "tutorial", "--seed", "1", "--player", "EN=alice",
        ],
        None,
    );
    let store = block_on(SqlStore::open(db)).unwrap();
    let stamp = |seat: &str| {
        let seat = empires_host::store::SeatCode::parse(seat).unwrap();
        block_on(store.latest_sheet("g", seat, 1))
            .unwrap()
            .unwrap()
            .2
    };

    // The command line.
    let sheet = tmp.path().join("EN.txt");
    std::fs::write(&sheet, "TAX\n").unwrap();
    set_clock(&clock, T0 + HOUR);
    at_clock(
        &clock,
        &["submit", "g", s(&sheet), "--empire", "EN", "--db", db],
        None,
    );
    assert_eq!(stamp("EN"), T0 + HOUR);

    // Mail.
    let password = mail_password(db, "alice", "alice@example.org", &[]);
    set_clock(&clock, T0 + 2 * HOUR);
    let message = format!(
        "From: alice@example.org\r\nMessage-ID: <c1@example.org>\r\nSubject: orders\r\n\r\nGAME g\r\nEMPIRE EN\r\nPASSWORD {password}\r\n1. TAX\r\n2. TAX\r\n"
    );
    let o = at_clock(&clock, &["mail", "receive", "--db", db], Some(&message));
    assert!(stdout(&o).contains("accepted"), "{}", stdout(&o));
    assert_eq!(stamp("EN"), T0 + 2 * HOUR);

    // The web, through its API.
    let reset = stdout(&at_clock(
        &clock,
        &["accounts", "reset", "alice", "--db", db],
        None,
    ));
    let web_password = reset
        .split("shown only now: ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("{reset}"))
        .to_string();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = Command::new(env!("CARGO_BIN_EXE_empires"))
        .args([
            "serve",
            "--db",
            db,
            "--listen",
            &format!("127.0.0.1:{port}"),
        ])
        .env("EMPIRES_CLOCK_FILE", &clock)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // A JSON post over plain HTTP/1.1, tried again while the server starts.
    let post = |path: &str, auth: Option<&str>, body: &str| -> String {
        use std::io::{Read, Write};
        let start = std::time::Instant::now();
        let mut stream = loop {
            match std::net::TcpStream::connect(("127.0.0.1", port)) {
                Ok(s) => break s,
                Err(_) if start.elapsed() < Duration::from_secs(30) => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => panic!("the server never listened: {e}"),
            }
        };
        let auth = auth.map_or(String::new(), |t| format!("authorization: Bearer {t}\r\n"));
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n{auth}content-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    set_clock(&clock, T0 + 3 * HOUR);
    let login = post(
        "/api/login",
        None,
        &format!(r#"{{"name":"alice","password":"{web_password}","label":"t"}}"#),
    );
    let token = login
        .split("\"token\":\"")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .unwrap_or_else(|| panic!("{login}"))
        .to_string();
    let sent = post(
        "/api/games/g/orders",
        Some(&token),
        r#"{"text":"GAME g\nEMPIRE EN\n\n1. TAX\n2. TAX\n3. TAX\n"}"#,
    );
    let _ = server.kill();
    let _ = server.wait();
    assert!(sent.contains("sha256"), "{sent}");
    assert_eq!(stamp("EN"), T0 + 3 * HOUR);
}
