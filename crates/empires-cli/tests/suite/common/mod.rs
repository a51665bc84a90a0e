//! Helpers shared by the integration tests: running the real binary and handling game
//! directories.

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root, where `maps/` lives.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn tutorial_map() -> PathBuf {
    repo().join("maps/tutorial.toml")
}

pub fn tutorial_orders() -> PathBuf {
    repo().join("maps/tutorial-orders")
}

/// Runs the `empires` binary.
pub fn empires(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(args)
        .output()
        .expect("the empires binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs the binary and insists that it succeeded.
pub fn ok(args: &[&str]) -> Output {
    let o = empires(args);
    assert!(
        o.status.success(),
        "empires {args:?} failed:\n{}{}",
        stdout(&o),
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    o
}

/// Runs the binary and insists that it failed cleanly: exit code 1, one `error:` line on
/// standard error, no panic. Returns that line.
pub fn fails(args: &[&str]) -> String {
    let o = empires(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "empires {args:?}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "one error line expected: {err}");
    errors[0].to_string()
}

pub fn s(p: &Path) -> &str {
    p.to_str().expect("test paths are UTF-8")
}

/// Creates a game on the tutorial map with seed 1 in `dir`.
pub fn new_tutorial(dir: &Path) {
    ok(&["new", s(dir), "--map", s(&tutorial_map()), "--seed", "1"]);
}

/// Copies the example turnsheets into the game's `orders/`.
pub fn copy_tutorial_orders(dir: &Path) {
    for entry in fs::read_dir(tutorial_orders()).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), dir.join("orders").join(entry.file_name())).unwrap();
    }
}

/// Copies a directory tree.
pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The names in a directory, sorted.
pub fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Sets up `account`'s mail in the database at `db` (`empires mail account`): its address,
/// `extra` options (`--reports on`), and a new mail password, which is returned as printed
/// once.
pub fn mail_password(db: &str, account: &str, email: &str, extra: &[&str]) -> String {
    let mut args = vec!["mail", "account", account, "--db", db, "--email", email];
    args.extend(extra);
    args.push("--new-password");
    let set = stdout(&ok(&args));
    set.lines()
        .find_map(|l| l.strip_prefix("new mail password (shown this once): "))
        .unwrap_or_else(|| panic!("the password, shown once: {set}"))
        .to_string()
}

/// Pipes `message` into `empires mail receive --db db`, as a mail server's delivery pipe
/// does, with no SMTP server (answers wait in the outbox).
pub fn receive(db: &str, message: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(["mail", "receive", "--db", db])
        .env_remove("EMPIRES_SMTP_URL")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A receiver that stops reading early (a refused message) is not the test's concern.
    let _ = child.stdin.take().unwrap().write_all(message.as_bytes());
    child.wait_with_output().unwrap()
}
