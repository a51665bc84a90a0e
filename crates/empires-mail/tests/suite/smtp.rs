//! The mail door over a real SMTP server (aiosmtpd on loopback, keeping what it receives in
//! a Maildir): a turnsheet in, its receipt out, the turn played, the report out with its
//! text body, HTML alternative, PNG map and turnsheet, all parsed back; delivery failures
//! tried again; STARTTLS with a log-in.

use crate::common;

use common::*;
use empires_host::store::Submission;
use empires_host::turn::TurnOptions;
use empires_mail::{MailConfig, Receiver, SmtpConfig, maildir, reports, send};
use mail_parser::{MessageParser, MimeHeaders};

fn sheet_mail(id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: Alice <alice@example.org>\r\nTo: empires@localhost\r\nSubject: orders\r\nMessage-ID: <{id}@example.org>\r\n\r\n{body}"
    )
    .replace("\r\n", "\n")
    .replace('\n', "\r\n")
    .into_bytes()
}

fn with_smtp(w: &World, url: &str) -> MailConfig {
    MailConfig {
        smtp: Some(SmtpConfig::parse(url).unwrap()),
        ..w.cfg.clone()
    }
}

#[tokio::test]
async fn a_turnsheet_in_a_receipt_out_a_turn_played_and_the_report_out() {
    let Some(server) = SmtpServer::start(SmtpOptions {
        auth: None,
        tls: None,
    }) else {
        return;
    };
    let w = world().await;
    let cfg = with_smtp(&w, &server.url());
    let raw = sheet_mail(
        "one",
        "GAME alpha\nEMPIRE EN\nPASSWORD tst2-mail-pass\n1. TAX\n2. GROW XXX\n",
    );
    let got = Receiver::new(&w.store, &cfg)
        .receive(&raw, raw.len(), START)
        .await
        .unwrap();
    assert_eq!(got.word(), "accepted");
    let sent = send::send_due(&w.store, &cfg, START)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((sent.sent, sent.deferred, sent.failed), (1, 0, 0));
    let received = server.received();
    assert_eq!(received.len(), 1);
    let receipt = MessageParser::default().parse(&received[0]).unwrap();
    assert_eq!(
        receipt.to().unwrap().first().unwrap().address(),
        Some("alice@example.org")
    );
    assert_eq!(
        receipt.header_raw("Auto-Submitted").map(str::trim),
        Some("auto-replied")
    );
    assert_eq!(receipt.in_reply_to().as_text(), Some("one@example.org"));
    let text = receipt.body_text(0).unwrap();
    assert!(text.contains("kept for turn 1"), "{text}");
    assert!(
        text.contains("E0"),
        "the checker's diagnostic for XXX: {text}"
    );
    assert!(text.contains("2. GROW XXX"), "{text}");

    // The GM writes to every player; the turn is played; the reports go to Alice and Bob,
    // who asked for them.
    w.store
        .games
        .submit(
            "alpha",
            &Submission {
                empire: None,
                body: b"Peace talks at the next turn: the GM.".to_vec(),
                door: "cli".into(),
                received_at: START + 500,
                for_turn: None,
                late: false,
            },
        )
        .await
        .unwrap();
    w.store
        .games
        .play_turn(
            "alpha",
            TurnOptions {
                yes: true,
                ..TurnOptions::default()
            },
            START + 1000,
        )
        .await
        .unwrap();
    let queued = reports::queue_all(&w.store, &cfg, START + 2000)
        .await
        .unwrap();
    // Turn 1 alone: the game is older than its mail, so turn 0 is not sent now.
    assert_eq!(queued, 2);
    assert_eq!(
        reports::queue_all(&w.store, &cfg, START + 2000)
            .await
            .unwrap(),
        0,
        "queued once"
    );
    let sent = send::send_due(&w.store, &cfg, START + 2000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(sent.sent, 2);
    let received = server.received();
    assert_eq!(received.len(), 3);
    let report = received
        .iter()
        .map(|r| MessageParser::default().parse(r).unwrap())
        .find(|m| {
            m.to().unwrap().first().unwrap().address() == Some("alice@example.org")
                && m.subject().unwrap_or("").contains("report")
        })
        .expect("Alice's report");
    assert_eq!(report.subject(), Some("England: report of turn 1, alpha"));
    let text = report.body_text(0).unwrap();
    assert!(text.contains("game \"alpha\", turn 1"), "{text}");
    assert!(text.contains("No deadline is set for turn 2"), "{text}");
    assert!(
        text.contains("From your GM:\n  Peace talks at the next turn: the GM."),
        "the GM's message of the turn: {text}"
    );
    assert!(
        text.lines().all(|l| l.chars().count() <= 100),
        "printable lines"
    );
    let html = report.body_html(0).unwrap();
    assert!(
        html.contains("<img src=\"cid:map@empires\"") && !html.contains("<svg"),
        "the HTML report shows the map sent with it"
    );
    assert!(html.contains("Areas"), "the rest of the page stays");
    assert!(
        html.contains("No deadline is set for turn 2")
            && html.contains("Peace talks")
            && html.contains("PASSWORD line"),
        "the HTML part opens like the text part: deadline and how to answer"
    );
    assert!(
        !html.contains("<script src="),
        "the HTML report loads nothing from elsewhere"
    );
    let attachments: Vec<_> = report.attachments().collect();
    assert_eq!(
        attachments.len(),
        3,
        "the close-up, the whole map, the sheet"
    );
    let png = |name: &str| {
        let a = attachments
            .iter()
            .find(|a| a.attachment_name() == Some(name))
            .unwrap_or_else(|| panic!("{name}"));
        assert!(a.content_type().is_some_and(|c| c.subtype() == Some("png")));
        assert!(a.contents().starts_with(b"\x89PNG\r\n"));
        // The width, from the PNG's header (IHDR).
        u32::from_be_bytes(a.contents()[16..20].try_into().unwrap())
    };
    // The picture in the page is the empire and its neighbours, 720 pixels across; the
    // whole map goes with it, since the host here has no public address to link to.
    assert_eq!(png("alpha-EN-turn1.png"), 720);
    assert_eq!(png("alpha-EN-turn1-whole-map.png"), 960);
    assert!(
        report.body_text(0).unwrap().contains("whole map"),
        "the opening says where the whole map is"
    );
    let sheet = attachments
        .iter()
        .find(|a| a.attachment_name() == Some("alpha-EN-turn2.txt"))
        .unwrap();
    let sheet = sheet.text_contents().unwrap();
    // The sheet the report's text ends with, word for word.
    let body = report.body_text(0).unwrap().replace("\r\n", "\n");
    assert!(
        body.ends_with(sheet.trim_end()) || body.trim_end().ends_with(sheet.trim_end()),
        "{body}\n---\n{sheet}"
    );
    assert!(sheet.contains("GAME alpha\nTURN 2\nEMPIRE EN\n"), "{sheet}");
    // The turnsheet sent back, filled in, with the password added, is taken for the next
    // turn.
    let filled = sheet
        .replace("EMPIRE EN\n", "EMPIRE EN\nPASSWORD tst2-mail-pass\n")
        .replace("1.\n", "1. TAX\n");
    let raw = sheet_mail("two", &filled);
    let got = Receiver::new(&w.store, &cfg)
        .receive(&raw, raw.len(), START + 3000)
        .await
        .unwrap();
    assert_eq!(got.word(), "accepted", "{got:?}");
    for r in server.received() {
        assert!(!String::from_utf8_lossy(&r).contains("tst2-mail-pass"));
    }
}

#[tokio::test]
async fn mail_the_server_cannot_take_waits_and_is_sent_when_it_can() {
    let w = world().await;
    // Nothing listens on this port: the message is kept and tried again later.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let cfg = with_smtp(&w, &format!("smtp://127.0.0.1:{port}"));
    let raw = sheet_mail("three", "GAME alpha\nPASSWORD tst2-mail-pass\n1. TAX\n");
    Receiver::new(&w.store, &cfg)
        .receive(&raw, raw.len(), START)
        .await
        .unwrap();
    let s = send::send_due(&w.store, &cfg, START)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((s.sent, s.deferred, s.failed), (0, 1, 0));
    let out = w.store.mail.outbox("alpha", 10).await.unwrap();
    assert_eq!(out[0].state, "waiting");
    assert!(out[0].last_error.is_some());
    let log = w.store.mail.mail_log(Some("alpha"), 10).await.unwrap();
    assert!(
        log.iter().any(|e| e.outcome == "retry"),
        "the GM sees the failure: {log:?}"
    );
    // Not due again until the back-off has passed.
    let s = send::send_due(&w.store, &cfg, START + 1000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(s, send::Sent::default());
    let Some(server) = SmtpServer::start(SmtpOptions {
        auth: None,
        tls: None,
    }) else {
        return;
    };
    let cfg = with_smtp(&w, &server.url());
    let s = send::send_due(&w.store, &cfg, START + send::backoff(1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(s.sent, 1);
    assert_eq!(server.received().len(), 1);
    assert_eq!(
        w.store.mail.outbox("alpha", 10).await.unwrap()[0].state,
        "sent"
    );
}

#[tokio::test]
async fn mail_is_given_up_after_its_last_try_and_shown_to_the_gm() {
    let w = world().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let cfg = with_smtp(&w, &format!("smtp://127.0.0.1:{port}"));
    let raw = sheet_mail("four", "GAME alpha\nPASSWORD tst2-mail-pass\n1. TAX\n");
    Receiver::new(&w.store, &cfg)
        .receive(&raw, raw.len(), START)
        .await
        .unwrap();
    let mut now = START;
    for _ in 0..send::MAX_ATTEMPTS {
        send::send_due(&w.store, &cfg, now).await.unwrap();
        now += 3_600_000 * 2;
    }
    let out = w.store.mail.outbox("alpha", 10).await.unwrap();
    assert_eq!(out[0].state, "failed");
    assert_eq!(out[0].attempts, send::MAX_ATTEMPTS);
    let log = w.store.mail.mail_log(Some("alpha"), 20).await.unwrap();
    assert!(log.iter().any(|e| e.outcome == "failed"));
    assert!(
        w.store
            .mail
            .retry_mail("alpha", out[0].id, now)
            .await
            .unwrap()
    );
    assert_eq!(
        w.store.mail.outbox("alpha", 10).await.unwrap()[0].state,
        "waiting"
    );
}

/// A certificate authority and a certificate for 127.0.0.1 signed by it, made by openssl:
/// (CA, certificate, key), or `None` without openssl.
fn certificates(
    dir: &std::path::Path,
) -> Option<(std::path::PathBuf, std::path::PathBuf, std::path::PathBuf)> {
    let p = |n: &str| dir.join(n);
    std::fs::write(p("ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n").ok()?;
    let run = |args: &[&str]| {
        std::process::Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let ok = run(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=Test CA",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
    ]) && run(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=localhost",
        "-keyout",
        "key.pem",
        "-out",
        "req.csr",
    ]) && run(&[
        "x509",
        "-req",
        "-in",
        "req.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        "ext",
        "-out",
        "cert.pem",
    ]);
    ok.then(|| (p("ca.pem"), p("cert.pem"), p("key.pem")))
}

#[tokio::test]
async fn starttls_and_a_log_in() {
    let dir = tempfile::tempdir().unwrap();
    let Some((ca, cert, key)) = certificates(dir.path()) else {
        assert!(!required("openssl is not installed"), "openssl is needed");
        return;
    };
    let Some(server) = SmtpServer::start(SmtpOptions {
        auth: Some(("gm".into(), "s3cret".into())),
        tls: Some((cert.clone(), key)),
    }) else {
        return;
    };
    let w = world().await;
    let mut smtp = SmtpConfig::parse(&format!(
        "smtp://gm:s3cret@127.0.0.1:{}?tls=required",
        server.port
    ))
    .unwrap();
    smtp.ca_pem = Some(std::fs::read(&ca).unwrap());
    let cfg = MailConfig {
        smtp: Some(smtp),
        ..w.cfg.clone()
    };
    let raw = sheet_mail("five", "GAME alpha\nPASSWORD tst2-mail-pass\n1. TAX\n");
    Receiver::new(&w.store, &cfg)
        .receive(&raw, raw.len(), START)
        .await
        .unwrap();
    let s = send::send_due(&w.store, &cfg, START)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (s.sent, s.deferred, s.failed),
        (1, 0, 0),
        "{:?}",
        w.store.mail.outbox("alpha", 1).await.unwrap()
    );
    assert_eq!(server.received().len(), 1);
}

#[tokio::test]
async fn messages_are_taken_from_a_maildir_and_answered() {
    let Some(server) = SmtpServer::start(SmtpOptions {
        auth: None,
        tls: None,
    }) else {
        return;
    };
    let w = world().await;
    let cfg = with_smtp(&w, &server.url());
    let md = w.dir.path().join("in");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    std::fs::write(
        md.join("new/1.a.host"),
        sheet_mail("m1", "GAME alpha\nPASSWORD tst2-mail-pass\n1. TAX\n"),
    )
    .unwrap();
    std::fs::write(md.join("new/2.b.host"), sheet_mail("m2", "hello\n")).unwrap();
    std::fs::write(
        md.join("new/3.c.host"),
        sheet_mail("m1", "GAME alpha\nPASSWORD tst2-mail-pass\n1. TAX\n"),
    )
    .unwrap();
    let mut r = Receiver::new(&w.store, &cfg);
    let f = maildir::fetch(&mut r, &md, START).await.unwrap();
    assert_eq!(
        (f.messages, f.accepted, f.refused, f.ignored),
        (3, 1, 1, 1),
        "the third is the first again"
    );
    assert_eq!(std::fs::read_dir(md.join("new")).unwrap().count(), 0);
    let cur: Vec<String> = std::fs::read_dir(md.join("cur"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(cur.iter().all(|n| n.ends_with(":2,S")), "{cur:?}");
    send::send_due(&w.store, &cfg, START).await.unwrap();
    assert_eq!(
        server.received().len(),
        2,
        "one receipt, one refusal; the repeat is not answered"
    );
}
