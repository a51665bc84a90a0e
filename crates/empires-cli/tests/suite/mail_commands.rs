//! `empires mail` as a GM and a mail server use it: a player's mail set up at the command
//! line, a message piped to `mail receive` as a delivery pipe does, the outbox waiting when
//! no SMTP server is given, and exit status 75 (the mail server delivers again later) when
//! the database cannot be reached.

use crate::common;

use common::*;
use std::io::Write;
use std::process::{Command, Stdio};

fn receive(db: &str, message: &str) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(["mail", "receive", "--db", db])
        .env_remove("EMPIRES_SMTP_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(message.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_turnsheet_piped_in_is_kept_and_its_receipt_waits_in_the_outbox() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let db = url.as_str();
    ok(&[
        "new", "britain", "--db", db, "--map", "tutorial", "--seed", "1", "--player", "EN=alice",
    ]);
    let set = stdout(&ok(&[
        "mail",
        "account",
        "alice",
        "--db",
        db,
        "--email",
        "alice@example.org",
        "--reports",
        "on",
        "--new-password",
    ]));
    assert!(
        set.contains("address alice@example.org, reports by mail on"),
        "{set}"
    );
    let password = set
        .lines()
        .find_map(|l| l.strip_prefix("new mail password (shown this once): "))
        .expect("the password, shown once")
        .to_string();
    let message = format!(
        "From: Alice <alice@example.org>\r\nMessage-ID: <c1@example.org>\r\nSubject: orders\r\n\r\nGAME britain\r\nEMPIRE EN\r\nPASSWORD {password}\r\n1. TAX\r\n"
    );
    let o = receive(db, &message);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("accepted: EN's turnsheet for turn 1 of britain"),
        "{out}"
    );
    assert!(
        out.contains("no SMTP server given: 1 message(s) wait in the outbox"),
        "{out}"
    );
    // The same message again: answered once.
    let again = stdout(&receive(db, &message));
    assert!(again.contains("delivered before"), "{again}");
    // The turn is played; `mail send` queues its report (no server: it waits too).
    ok(&["turn", "britain", "--db", db, "--yes"]);
    let sent = stdout(&ok(&["mail", "send", "--db", db]));
    assert!(
        sent.contains("1 report(s) queued") && sent.contains("2 message(s) wait"),
        "{sent}"
    );
    let log = stdout(&ok(&["mail", "log", "--db", db, "--game", "britain"]));
    assert!(
        log.contains("in  accepted") && log.contains("alice@example.org"),
        "{log}"
    );
    assert!(!log.contains(&password));
}

#[test]
fn a_database_out_of_reach_asks_the_mail_server_to_try_again() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite:{}",
        tmp.path().join("no/such/dir/host.db").display()
    );
    let o = receive(&url, "From: a@b\r\n\r\nGAME x\r\n");
    assert_eq!(o.status.code(), Some(75), "{}", stderr(&o));
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
}

#[test]
fn a_bad_smtp_url_or_address_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let e = fails(&["mail", "send", "--db", &url, "--smtp", "http://u:secret@x"]);
    assert!(
        e.contains("not an SMTP URL") && !e.contains("secret"),
        "{e}"
    );
    let e = fails(&["mail", "send", "--db", &url, "--from", "nobody"]);
    assert!(e.contains("not an email address"), "{e}");
    let e = fails(&["mail", "account", "ghost", "--db", &url]);
    assert!(e.contains("no account named \"ghost\""), "{e}");
}
