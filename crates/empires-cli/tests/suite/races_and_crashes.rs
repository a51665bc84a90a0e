//! `empires turn` killed at random moments, and turnsheets arriving at random moments while
//! it runs: no sheet is ever lost or replaced, and a turn rolled back and played again is
//! byte for byte the turn played without interruption.

use crate::common;

use common::*;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A small fixed generator, so that the "random" moments are the same on every run.
struct Moments(u64);

impl Moments {
    /// A fraction in [0, 1).
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Every file and folder under a directory, by path relative to it, with the file's bytes.
type Tree = Vec<(PathBuf, Option<Vec<u8>>)>;

fn tree(dir: &Path) -> Tree {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(dir).unwrap().to_path_buf();
            if p.is_dir() {
                stack.push(p);
                out.push((rel, None));
            } else {
                out.push((rel, Some(fs::read(&p).unwrap())));
            }
        }
    }
    out.sort();
    out
}

fn turn_command(game: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_empires"));
    c.arg("turn")
        .arg(game)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Plays turn 1 of a copy of `base` without interruption: its files, and how long it took.
fn reference(base: &Path, at: &Path) -> (Tree, Duration) {
    copy_dir(base, at);
    let start = Instant::now();
    let o = turn_command(at).output().unwrap();
    let took = start.elapsed();
    assert!(o.status.success(), "{}", stderr(&o));
    (tree(&at.join("turns/0001")), took)
}

/// The sheets the players sent: where each is, there must be exactly one copy of it, as
/// sent, in `orders/` or in the turn (being) written.
fn sent_sheets_are_whole(game: &Path, sent: &[(&str, &str)], what: &str) {
    for (name, text) in sent {
        let places = [
            game.join("orders").join(name),
            game.join("turns/0001.tmp/orders").join(name),
            game.join("turns/0001/orders").join(name),
        ];
        let copies: Vec<&PathBuf> = places.iter().filter(|p| p.exists()).collect();
        assert_eq!(copies.len(), 1, "{what}: {name} is at {copies:?}");
        assert_eq!(
            &fs::read_to_string(copies[0]).unwrap(),
            text,
            "{what}: {name}"
        );
    }
}

#[test]
fn a_turn_killed_at_any_moment_is_replayed_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    ok(&[
        "new",
        s(&base),
        "--map",
        "world",
        "--seed",
        "3",
        "--player",
        "FR=F",
        "--player",
        "GB=G",
    ]);
    let sent = [
        ("FR.txt", "TAX\nMESSAGE Vive la paix\n"),
        ("GB.txt", "TAX\n"),
        ("gm.txt", "Welcome to the game.\n"),
    ];
    for (name, text) in sent {
        fs::write(base.join("orders").join(name), text).unwrap();
    }
    let (want, took) = reference(&base, &tmp.path().join("reference"));
    let mut moments = Moments(13);
    let mut rolled_back = 0;
    for i in 0..50 {
        let game = tmp.path().join(format!("g{i}"));
        copy_dir(&base, &game);
        let mut child = turn_command(&game).spawn().unwrap();
        // Anywhere from the start to past the time a whole turn takes, as the machine may be
        // busier now than when it was timed.
        std::thread::sleep(took.mul_f64(1.5 * moments.next()));
        let _ = child.kill();
        let _ = child.wait();
        let what = format!("kill {i}");
        sent_sheets_are_whole(&game, &sent, &what);
        if !game.join("turns/0001").exists() {
            rolled_back += 1;
            let o = turn_command(&game).output().unwrap();
            assert!(o.status.success(), "{what}: {}", stderr(&o));
        }
        sent_sheets_are_whole(&game, &sent, &what);
        assert!(
            tree(&game.join("turns/0001")) == want,
            "{what}: the turn differs from the one played without interruption"
        );
        assert_eq!(names(&game.join("turns")), ["0000", "0001"], "{what}");
        assert!(names(&game.join("orders")).is_empty(), "{what}");
        fs::remove_dir_all(&game).unwrap();
    }
    eprintln!("50 kills: {rolled_back} interrupted a turn, the rest came after its commit");
    // The kills must have hit turns in progress, not only finished ones.
    assert!(
        rolled_back >= 10,
        "only {rolled_back} of 50 kills interrupted a turn"
    );
}

#[test]
fn a_sheet_sent_at_any_moment_of_a_turn_is_played_or_waits() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    new_tutorial(&base);
    let (_, took) = reference(&base, &tmp.path().join("reference"));
    let mut moments = Moments(7);
    let (mut played, mut waiting) = (0, 0);
    for i in 0..100 {
        let game = tmp.path().join(format!("g{i}"));
        copy_dir(&base, &game);
        let text = format!("TAX\n# try {i}\n");
        let child = turn_command(&game).spawn().unwrap();
        std::thread::sleep(took.mul_f64(1.2 * moments.next()));
        // Delivered as mail delivery should: written under another name, then renamed.
        let orders = game.join("orders");
        fs::create_dir_all(&orders).unwrap();
        fs::write(orders.join("EN.part"), &text).unwrap();
        fs::rename(orders.join("EN.part"), orders.join("EN.txt")).unwrap();
        let o = child.wait_with_output().unwrap();
        let what = format!("try {i}");
        // Once a turn is committed it exits 0, whatever else happened.
        assert!(o.status.success(), "{what}: {}", stderr(&o));
        let archived = fs::read_to_string(game.join("turns/0001/orders/EN.txt")).unwrap();
        let record = fs::read_to_string(game.join("turns/0001/turn.json")).unwrap();
        if stdout(&o).contains("orders from: EN;") {
            played += 1;
            assert_eq!(archived, text, "{what}: kept as sent");
            assert!(record.contains("\"EN.txt\""), "{what}: {record}");
            assert!(
                !orders.join("EN.txt").exists(),
                "{what}: played and still waiting"
            );
        } else {
            waiting += 1;
            assert!(archived.starts_with("# written by the computer"), "{what}");
            assert_eq!(
                fs::read_to_string(orders.join("EN.txt")).unwrap(),
                text,
                "{what}: still waiting, as sent"
            );
        }
        fs::remove_dir_all(&game).unwrap();
    }
    eprintln!("100 sheets sent during a turn: {played} played, {waiting} waiting");
    assert_eq!(played + waiting, 100);
}
