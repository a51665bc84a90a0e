//! Games kept in a database: `empires turn` killed at random moments, then run again, stores
//! the turn it would have stored uninterrupted, byte for byte, and loses no turnsheet; two
//! processes racing to play the same turn never both do. On SQLite always, and on
//! PostgreSQL when `DATABASE_URL` names a server.

use crate::common;

use common::*;
use empires_cli::commands::hosted::block_on;
use empires_host::store::dir::files_under;
use empires_testkit::{drop_postgres, fresh_postgres};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A small fixed generator, so that the "random" moments are the same on every run.
struct Moments(u64);

impl Moments {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn turn(url: &str, game: &str, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_empires"));
    c.args(["turn", game, "--db", url])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// A game directory waiting for turn 1, with sheets from both players and the GM: what
/// every run starts from, imported afresh under a new name.
fn base_game(dir: &Path) -> std::path::PathBuf {
    let base = dir.join("base");
    ok(&[
        "new",
        s(&base),
        "--map",
        "tutorial",
        "--seed",
        "3",
        "--player",
        "EN=E",
        "--player",
        "SC=S",
    ]);
    let orders = tutorial_orders();
    ok(&[
        "submit",
        s(&base),
        s(&orders.join("EN.txt")),
        "--empire",
        "EN",
    ]);
    ok(&[
        "submit",
        s(&base),
        s(&orders.join("SC.txt")),
        "--empire",
        "SC",
    ]);
    std::fs::write(dir.join("gm.txt"), "Welcome to the game.\n").unwrap();
    ok(&["submit", s(&base), s(&dir.join("gm.txt")), "--gm"]);
    base
}

/// The whole game as a directory: every turn's files and what is pending. The blank sheets
/// at the end of the reports name the game as the database keeps it; they are read here as
/// naming "reference", so that games imported under other names compare.
fn exported(url: &str, game: &str, at: &Path) -> empires_host::store::Files {
    ok(&["export", game, s(at), "--db", url]);
    let files = files_under(at).unwrap();
    std::fs::remove_dir_all(at).unwrap();
    let (from, to) = (format!("GAME {game}\n"), "GAME reference\n");
    let (named, reference) = (format!("name = \"{game}\"\n"), "name = \"reference\"\n");
    files
        .into_iter()
        .map(|(path, bytes)| match String::from_utf8(bytes) {
            Ok(text) if path.contains("/reports/") => (path, text.replace(&from, to).into_bytes()),
            Ok(text) if path == "game.toml" => (path, text.replace(&named, reference).into_bytes()),
            Ok(text) => (path, text.into_bytes()),
            Err(e) => (path, e.into_bytes()),
        })
        .collect()
}

fn crashes(url: &str, tmp: &Path) {
    let base = base_game(tmp);
    ok(&["import", s(&base), "--db", url, "--name", "reference"]);
    let start = Instant::now();
    let o = turn(url, "reference", &[]).output().unwrap();
    let took = start.elapsed();
    assert!(o.status.success(), "{}", stderr(&o));
    let want = exported(url, "reference", &tmp.join("reference"));
    assert!(want.iter().any(|(p, _)| p == "turns/0001/orders/EN.txt"));
    let mut moments = Moments(17);
    let (mut rolled_back, mut kills) = (0, 0);
    let began = Instant::now();
    // At least 200 kills, and more while time allows.
    while kills < 200 || (kills < 400 && began.elapsed() < Duration::from_secs(60)) {
        let game = format!("g{kills}");
        ok(&["import", s(&base), "--db", url, "--name", &game]);
        let mut child = turn(url, &game, &[]).spawn().unwrap();
        // Anywhere from the start to past the time a whole turn takes.
        std::thread::sleep(took.mul_f64(1.5 * moments.next()));
        let _ = child.kill();
        let _ = child.wait();
        kills += 1;
        let games = stdout(&ok(&["games", "--db", url]));
        if games.contains(&format!("{game}: after turn 0")) {
            rolled_back += 1;
            let o = turn(url, &game, &["--turn", "1"]).output().unwrap();
            // A server may still be finishing the commit the killed process sent: then the
            // turn is there after all, and the run says so.
            assert!(
                o.status.success()
                    || stderr(&o).contains("was played by another process meanwhile")
                    || stderr(&o).contains("has been played already"),
                "kill {kills}: {}",
                stderr(&o)
            );
        }
        let got = exported(url, &game, &tmp.join(&game));
        assert!(
            got == want,
            "kill {kills} on {url}: the game differs from the one played without interruption"
        );
    }
    eprintln!(
        "{url}: {kills} kills, {rolled_back} interrupted a turn, the rest came before or after it"
    );
    assert!(
        rolled_back >= kills / 5,
        "only {rolled_back} of {kills} kills interrupted a turn"
    );
}

fn races(url: &str, tmp: &Path) {
    let base = base_game(tmp);
    for i in 0..100 {
        let game = format!("r{i}");
        ok(&["import", s(&base), "--db", url, "--name", &game]);
        let a = turn(url, &game, &["--turn", "1"]).spawn().unwrap();
        let b = turn(url, &game, &["--turn", "1"]).spawn().unwrap();
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        let played = [&a, &b].iter().filter(|o| o.status.success()).count();
        assert_eq!(played, 1, "race {i}: {}{}", stderr(&a), stderr(&b));
        let loser = if a.status.success() { &b } else { &a };
        let told = stderr(loser);
        assert!(
            told.contains("turn 1 of \"") && !told.contains("panicked"),
            "race {i}: the other process is told why: {told}"
        );
        let games = stdout(&ok(&["games", "--db", url]));
        assert!(
            games.contains(&format!("{game}: after turn 1\n"))
                || games.ends_with(&format!("{game}: after turn 1")),
            "race {i}: {games}"
        );
    }
}

#[test]
fn sqlite_turns_killed_at_any_moment_are_replayed_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    crashes(
        &format!("sqlite:{}", tmp.path().join("host.db").display()),
        tmp.path(),
    );
}

#[test]
fn postgres_turns_killed_at_any_moment_are_replayed_byte_for_byte() {
    let Some(url) = block_on(fresh_postgres("crashes")) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    crashes(&url, tmp.path());
    block_on(drop_postgres(&url));
}

#[test]
fn sqlite_two_processes_never_both_play_a_turn() {
    let tmp = tempfile::tempdir().unwrap();
    races(
        &format!("sqlite:{}", tmp.path().join("host.db").display()),
        tmp.path(),
    );
}

#[test]
fn postgres_two_processes_never_both_play_a_turn() {
    let Some(url) = block_on(fresh_postgres("races")) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    races(&url, tmp.path());
    block_on(drop_postgres(&url));
}

/// Sends sheets through a door again and again until `stop`: how many were receipted.
fn keep_sending(stop: &std::sync::atomic::AtomicBool, mut send: impl FnMut(u32) -> bool) -> u32 {
    let mut kept = 0;
    let mut i = 0;
    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
        i += 1;
        if send(i) {
            kept += 1;
        }
    }
    kept
}

/// Sheets sent through the command line and by mail while turns are played, some of the
/// turns killed: every receipt is honoured (played in the turn it names, or still pending
/// for it), as `empires verify` counts them.
fn receipts_at_the_doors(url: &str, tmp: &Path) {
    use std::sync::atomic::{AtomicBool, Ordering};
    // The World map: no empire wins it in the turns played here.
    ok(&[
        "new", "door", "--db", url, "--map", "world", "--seed", "1", "--player", "GB=alice",
        "--player", "FR=bob",
    ]);
    let password = mail_password(url, "bob", "bob@example.org", &[]);
    let stop = AtomicBool::new(false);
    let (by_cli, by_mail, turns, killed) = std::thread::scope(|scope| {
        let cli = scope.spawn(|| {
            keep_sending(&stop, |i| {
                let sheet = tmp.join(format!("GB-{}.txt", i % 4));
                std::fs::write(&sheet, format!("TAX\n# sent by the command line, {i}\n")).unwrap();
                empires(&["submit", "door", s(&sheet), "--empire", "GB", "--db", url])
                    .status
                    .success()
            })
        });
        let mail = scope.spawn(|| {
            keep_sending(&stop, |i| {
                let message = format!(
                    "From: Bob <bob@example.org>\r\nMessage-ID: <race{i}@example.org>\r\nSubject: orders\r\n\r\nGAME door\r\nEMPIRE FR\r\nPASSWORD {password}\r\n1. TAX\r\n# sent by mail, {i}\r\n"
                );
                stdout(&receive(url, &message)).contains("accepted: FR's turnsheet")
            })
        });
        let mut moments = Moments(29);
        let (mut turns, mut killed, mut failed) = (0, 0, 0);
        while turns < 10 {
            // Long enough for sheets through both doors between most turns.
            std::thread::sleep(Duration::from_millis(500));
            if turns % 3 == 1 {
                let mut child = turn(url, "door", &["--yes"]).spawn().unwrap();
                std::thread::sleep(Duration::from_millis((moments.next() * 300.0) as u64));
                let _ = child.kill();
                let _ = child.wait();
                killed += 1;
            }
            let o = turn(url, "door", &["--yes"]).output().unwrap();
            assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
            if o.status.success() {
                turns += 1;
                failed = 0;
            } else {
                // A killed turn's commit may still be finishing; anything else is a fault.
                failed += 1;
                assert!(failed < 5, "turns keep failing: {}", stderr(&o));
            }
        }
        stop.store(true, Ordering::Relaxed);
        (cli.join().unwrap(), mail.join().unwrap(), turns, killed)
    });
    let report = stdout(&ok(&["verify", "door", "--db", url]));
    eprintln!(
        "{url}: {by_cli} sheets by the command line, {by_mail} by mail, {turns} turns ({killed} killed): {}",
        report.lines().last().unwrap_or("")
    );
    assert!(by_cli > 10 && by_mail > 10, "{by_cli} {by_mail}");
    assert!(!report.contains("STRANDED"), "{report}");
    assert!(report.contains(" 0 receipts stranded"), "{report}");
}

#[test]
fn sqlite_every_receipt_is_honoured_at_the_doors() {
    let tmp = tempfile::tempdir().unwrap();
    receipts_at_the_doors(
        &format!("sqlite:{}", tmp.path().join("host.db").display()),
        tmp.path(),
    );
}

#[test]
fn postgres_every_receipt_is_honoured_at_the_doors() {
    let Some(url) = block_on(fresh_postgres("doors")) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    receipts_at_the_doors(&url, tmp.path());
    block_on(drop_postgres(&url));
}
