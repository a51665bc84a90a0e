//! `empires mail` as a GM and a mail server use it: a player's mail set up at the command
//! line, a message piped to `mail receive` as a delivery pipe does, the outbox waiting when
//! no SMTP server is given, and exit status 75 (the mail server delivers again later) when
//! the database cannot be reached, but 0 for a sheet the host will not keep: it is answered
//! with the reason, through the pipe and through a Maildir, and the next message is read.

use crate::common;
use empires_host::store::prelude::*;

use common::*;
use empires_cli::commands::hosted::block_on;
use std::io::Write;
use std::process::{Command, Stdio};

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
    let e = fails(&["mail", "send", "--db", &url, "--mail-from", "nobody"]);
    assert!(e.contains("not an email address"), "{e}");
    ok(&["accounts", "make-gm", "gm", "--db", &url]);
    let e = fails(&["mail", "account", "ghost", "--db", &url]);
    assert!(e.contains("no account named \"ghost\""), "{e}");
}

/// A host with game "britain", Alice (EN) at alice@example.org with reports by mail; her
/// mail password.
fn alice_host(db: &str) -> String {
    ok(&[
        "new", "britain", "--db", db, "--map", "tutorial", "--seed", "1", "--player", "EN=alice",
    ]);
    mail_password(db, "alice", "alice@example.org", &[])
}

/// A sheet whose body, in quoted-printable, holds a NUL (`=00`): the host will not keep it.
fn sheet_with_nul(id: &str, password: &str) -> String {
    format!(
        "From: Alice <alice@example.org>\r\nMessage-ID: <{id}@example.org>\r\nSubject: orders\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nGAME britain\r\nEMPIRE EN\r\nPASSWORD {password}\r\n1. T=00AX\r\n"
    )
}

fn good_sheet(id: &str, password: &str) -> String {
    format!(
        "From: Alice <alice@example.org>\r\nMessage-ID: <{id}@example.org>\r\nSubject: orders\r\n\r\nGAME britain\r\nEMPIRE EN\r\nPASSWORD {password}\r\n1. TAX\r\n"
    )
}

/// The outbox waiting to be sent: each message's recipient and whole text.
fn waiting(db: &str) -> Vec<(String, String)> {
    let store = block_on(empires_host::store::sql::SqlStore::open(db)).unwrap();
    block_on(store.due_mail(i64::MAX, 1000))
        .unwrap()
        .into_iter()
        .map(|q| {
            (
                q.recipient,
                String::from_utf8_lossy(&q.message).into_owned(),
            )
        })
        .collect()
}

#[test]
fn a_sheet_the_host_will_not_keep_is_answered_and_the_pipe_exits_0() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let db = url.as_str();
    let password = alice_host(db);
    let o = receive(db, &sheet_with_nul("bad", &password));
    assert_eq!(
        o.status.code(),
        Some(0),
        "dealt with, not to be delivered again: {}{}",
        stdout(&o),
        stderr(&o)
    );
    let out = stdout(&o);
    assert!(
        out.contains("refused; the answer is queued") && out.contains("NUL"),
        "{out}"
    );
    let queued = waiting(db);
    assert_eq!(queued.len(), 1, "{queued:?}");
    assert_eq!(queued[0].0, "alice@example.org", "to the address on record");
    assert!(
        queued[0].1.contains("Subject: Not kept") && queued[0].1.contains("NUL"),
        "{}",
        queued[0].1
    );
    // The next message is read and kept.
    let o = receive(db, &good_sheet("good", &password));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("accepted: EN's turnsheet for turn 1 of britain"),
        "{}",
        stdout(&o)
    );
    let log = stdout(&ok(&["mail", "log", "--db", db, "--game", "britain"]));
    assert!(
        log.contains("in  refused") && log.contains("in  accepted"),
        "{log}"
    );
}

#[test]
fn mail_fetch_answers_a_bad_message_and_reads_the_good_one_after_it() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let db = url.as_str();
    let password = alice_host(db);
    let md = tmp.path().join("Maildir");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    std::fs::write(md.join("new/1.a.host"), sheet_with_nul("bad", &password)).unwrap();
    std::fs::write(md.join("new/2.b.host"), good_sheet("good", &password)).unwrap();
    let o = empires(&["mail", "fetch", "--maildir", s(&md), "--db", db]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("2 message(s): 1 turnsheet(s) kept, 1 refused, 0 not answered"),
        "{out}"
    );
    assert_eq!(std::fs::read_dir(md.join("new")).unwrap().count(), 0);
    let mut cur: Vec<String> = std::fs::read_dir(md.join("cur"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    cur.sort();
    assert_eq!(cur, ["1.a.host:2,S", "2.b.host:2,S"]);
    let queued = waiting(db);
    assert_eq!(queued.len(), 2, "a refusal and a receipt");
    assert!(queued.iter().all(|(to, _)| to == "alice@example.org"));
    assert!(
        queued[0].1.contains("Subject: Not kept") && queued[0].1.contains("NUL"),
        "{}",
        queued[0].1
    );
    // Run again: nothing waits, nothing is answered twice.
    let out = stdout(&ok(&["mail", "fetch", "--maildir", s(&md), "--db", db]));
    assert!(out.starts_with("0 message(s)"), "{out}");
    assert_eq!(waiting(db).len(), 2);
}

#[test]
fn the_refusal_limit_is_set_on_the_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let db = url.as_str();
    alice_host(db);
    let mut child = Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(["mail", "receive", "--db", db, "--refusals-per-hour", "1"])
        .env_remove("EMPIRES_SMTP_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let forged = |id: &str| {
        format!(
            "From: alice@example.org\r\nMessage-ID: <{id}@x>\r\n\r\nGAME britain\r\nPASSWORD guess\r\n"
        )
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(forged("f1").as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    let o = Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(["mail", "receive", "--db", db])
        .env("EMPIRES_MAIL_REFUSALS_PER_HOUR", "1")
        .env_remove("EMPIRES_SMTP_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(forged("f2").as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("refused, not answered"),
        "{}",
        stdout(&o)
    );
    assert_eq!(waiting(db).len(), 1, "one refusal answered, not two");
}

/// A database game whose name ("nw") is not its title ("The Northern Wars"), with a seat
/// (Wales) allowed fewer actions than the game's 12: the sheet the mailed report ends with
/// and its attachment are one text, naming the game as the host keeps it, with Wales's own
/// 10 lines; filled in and mailed back, it is accepted as sent.
#[test]
fn the_mailed_sheet_is_the_reports_own_and_is_accepted_as_sent() {
    use mail_parser::MimeHeaders as _;
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let db = url.as_str();
    let scenario = repo().join("maps/tutorial-scenario.toml");
    ok(&["new", "nw", "--db", db, "--scenario", s(&scenario)]);
    let password = mail_password(db, "Carys", "carys@example.org", &["--reports", "on"]);
    ok(&["turn", "nw", "--db", db, "--yes"]);
    ok(&["mail", "send", "--db", db]);
    let queued = block_on(async {
        let store = empires_host::store::sql::SqlStore::open(db).await.unwrap();
        store.due_mail(i64::MAX, 100).await.unwrap()
    });
    let report = queued
        .iter()
        .find(|q| q.recipient == "carys@example.org" && q.subject.contains("report of turn 4"))
        .expect("Carys's report of turn 4 (the scenario starts after turn 3) is queued");
    let message = mail_parser::MessageParser::default()
        .parse(&report.message)
        .unwrap();
    let body = message.body_text(0).unwrap().replace("\r\n", "\n");
    let attached = message
        .attachments()
        .find(|a| a.attachment_name().is_some_and(|n| n.ends_with(".txt")))
        .expect("the blank sheet attached")
        .text_contents()
        .unwrap()
        .replace("\r\n", "\n");
    assert!(
        body.trim_end().ends_with(attached.trim_end()),
        "the body ends with the attached sheet:\n{body}\n---\n{attached}"
    );
    assert!(
        attached.contains("GAME nw\nTURN 5\nEMPIRE WA\n"),
        "{attached}"
    );
    assert!(
        attached.contains("\n10.\n") && !attached.contains("\n11."),
        "{attached}"
    );
    // Filled in as the player would: the password under the header, an action a line.
    let mut filled = attached.replace("EMPIRE WA\n", &format!("EMPIRE WA\nPASSWORD {password}\n"));
    for i in 1..=10 {
        filled = filled.replace(&format!("\n{i}.\n"), &format!("\n{i}. TAX\n"));
    }
    let o = receive(
        db,
        &format!(
            "From: Carys <carys@example.org>\r\nMessage-ID: <wa2@example.org>\r\nSubject: orders\r\n\r\n{}",
            filled.replace('\n', "\r\n")
        ),
    );
    let out = stdout(&o);
    assert!(
        out.contains("accepted: WA's turnsheet for turn 5 of nw"),
        "{out}"
    );
    assert!(!out.contains("dropped") && !out.contains("beyond"), "{out}");
    let kept = stdout(&ok(&["status", "nw", "--db", db]));
    assert!(kept.contains("WA"), "{kept}");
}
