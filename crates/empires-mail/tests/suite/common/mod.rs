//! A host for the mail door's tests: game "alpha" with alice (EN, alice@example.org) and bob
//! (SC, bob@example.net), game "beta" with carol (EN, carol@example.com). Alice's mail
//! password is "tst2-mail-pass", Bob's "bob-mail-pass"; Alice and Bob want their reports
//! by mail. And a real SMTP server (aiosmtpd, `scripts/smtp-test-server`) keeping what it
//! receives in a Maildir.
#![allow(dead_code)]

use empires_host::store::Services;
use empires_mail::{MailConfig, password};
use empires_rules::EmpireCode;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

pub const START: i64 = 1_795_000_000_000;
pub const ALICE_PW: &str = "tst2-mail-pass";

pub struct World {
    pub store: Services,
    pub cfg: MailConfig,
    pub dir: tempfile::TempDir,
}

pub fn code(c: &str) -> EmpireCode {
    EmpireCode::parse(c).unwrap()
}

pub async fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", dir.path().join("host.db").display());
    world_at(&url, dir).await
}

pub async fn world_at(url: &str, dir: tempfile::TempDir) -> World {
    let store = Services::open(url).await.unwrap();
    new_game(&store, "alpha", &[("EN", "alice"), ("SC", "bob")]).await;
    new_game(&store, "beta", &[("EN", "carol")]).await;
    for (name, email, pw, reports) in [
        ("alice", "alice@example.org", Some(ALICE_PW), true),
        ("bob", "bob@example.net", Some("bob-mail-pass"), true),
        ("carol", "carol@example.com", None, false),
    ] {
        let a = store.accounts.account_by_name(name).await.unwrap().unwrap();
        store
            .mail
            .set_mail_settings(a.id, Some(email), reports)
            .await
            .unwrap();
        if let Some(pw) = pw {
            store
                .mail
                .set_mail_password(a.id, &password::hash(pw))
                .await
                .unwrap();
        }
    }
    let cfg = MailConfig::new("Empires <empires@localhost>", None).unwrap();
    World { store, cfg, dir }
}

async fn new_game(store: &Services, name: &str, players: &[(&str, &str)]) {
    empires_testkit::tutorial_game(store, name, players, 3, START).await;
}

/// A message queued in the outbox, parsed back.
pub struct OutMessage {
    pub to: String,
    pub kind: String,
    pub raw: Vec<u8>,
}

impl OutMessage {
    /// The text of every text part, decoded.
    pub fn text(&self) -> String {
        let m = mail_parser::MessageParser::default()
            .parse(&self.raw)
            .unwrap();
        let mut s = String::new();
        for i in 0..m.text_body_count() {
            s.push_str(&m.body_text(i).unwrap());
        }
        s
    }
}

/// Every message of the outbox waiting to be sent, oldest first.
pub async fn outbox(store: &Services) -> Vec<OutMessage> {
    store
        .mail
        .due_mail(i64::MAX, 10_000)
        .await
        .unwrap()
        .into_iter()
        .map(|q| OutMessage {
            to: q.recipient,
            kind: String::new(),
            raw: q.message,
        })
        .collect()
}

/// Whether tests needing `what` must run (CI) or may be skipped with a notice.
pub fn required(what: &str) -> bool {
    let required = std::env::var("EMPIRES_REQUIRE_SMTP").is_ok_and(|v| v == "1");
    if !required {
        eprintln!("SKIPPED: {what} (set EMPIRES_REQUIRE_SMTP=1 to make this a failure)");
    }
    required
}

/// A real SMTP server on loopback, keeping what it receives in a Maildir.
pub struct SmtpServer {
    child: Child,
    pub port: u16,
    pub maildir: PathBuf,
    _dir: tempfile::TempDir,
}

pub struct SmtpOptions {
    pub auth: Option<(String, String)>,
    pub tls: Option<(PathBuf, PathBuf)>,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/smtp-test-server")
}

impl SmtpServer {
    /// Starts the server, or `None` (with a notice) when aiosmtpd is not installed and the
    /// tests are not required to run; with `EMPIRES_REQUIRE_SMTP=1` a missing server fails.
    pub fn start(opts: SmtpOptions) -> Option<SmtpServer> {
        let has = Command::new("python3")
            .args(["-c", "import aiosmtpd"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !has {
            assert!(
                !required("the SMTP server aiosmtpd is not installed (pip install aiosmtpd)"),
                "EMPIRES_REQUIRE_SMTP=1 but aiosmtpd is not installed"
            );
            return None;
        }
        let dir = tempfile::tempdir().unwrap();
        let maildir = dir.path().join("Maildir");
        let port = free_port();
        let mut cmd = Command::new("python3");
        cmd.arg(script()).arg(port.to_string()).arg(&maildir);
        if let Some((u, p)) = &opts.auth {
            cmd.arg("--auth").arg(format!("{u}:{p}"));
        }
        if let Some((c, k)) = &opts.tls {
            cmd.arg("--tls").arg(c).arg(k);
        }
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready", "the SMTP server did not start");
        Some(SmtpServer {
            child,
            port,
            maildir,
            _dir: dir,
        })
    }

    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Every message the server received, oldest first (by file time, then name).
    pub fn received(&self) -> Vec<Vec<u8>> {
        let mut files: Vec<_> = ["new", "cur"]
            .iter()
            .filter_map(|d| std::fs::read_dir(self.maildir.join(d)).ok())
            .flatten()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .collect();
        files.sort_by_key(|p| {
            (
                std::fs::metadata(p).and_then(|m| m.modified()).ok(),
                p.clone(),
            )
        });
        files.iter().map(|p| std::fs::read(p).unwrap()).collect()
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.child.stdin.take() {
            let _ = stdin.write_all(b"");
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
