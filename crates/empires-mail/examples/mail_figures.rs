//! Measures the mail door on a World game of 28 empires, each played by an account that
//! wants its reports by mail: taking in and answering 1,000 turnsheet emails, and sending
//! the 28 report emails of a turn. Run by `scripts/mail-figures`, which starts an SMTP
//! server on loopback:
//!
//!     mail_figures smtp://127.0.0.1:2525 [messages]

use empires_host::store::Services;
use empires_host::turn::TurnOptions;
use empires_mail::{MailConfig, Receiver, SmtpConfig, password, reports, send};
use empires_rules::setup::NewGame as Setup;
use empires_ruleset::ruleset::{EmpiresStore, NewGame};
use std::time::Instant;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let smtp = args.get(1).expect("give the SMTP server's URL");
    let count: usize = args.get(2).map_or(1000, |n| n.parse().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let store = Services::open(&format!("sqlite:{}", dir.path().join("host.db").display()))
        .await
        .unwrap();
    let standard = empires_maps::standard::find("world").unwrap();
    let map = empires_ruleset::gamedir::parse_map(standard.text, standard.file).unwrap();
    let mut setup = Setup::without_players("world", map.variant.unwrap(), 1);
    let codes: Vec<_> = map.empires.iter().map(|e| e.code).collect();
    for c in &codes {
        setup.players.insert(*c, format!("p{c}"));
    }
    let state = empires_ruleset::create::start(&map, standard.file, &setup).unwrap();
    let start = 1_795_000_000_000i64;
    store
        .games
        .create(&NewGame {
            name: "world",
            map_text: standard.text,
            map: &map,
            state: &state,
            created_at: start,
        })
        .await
        .unwrap();
    for c in &codes {
        let a = store
            .accounts
            .account_by_name(&format!("p{c}"))
            .await
            .unwrap()
            .unwrap();
        store
            .mail
            .set_mail_settings(a.id, Some(&format!("p{c}@example.org")), true)
            .await
            .unwrap();
        store
            .mail
            .set_mail_password(a.id, &password::hash(&format!("pw-{c}")))
            .await
            .unwrap();
    }
    let cfg = MailConfig {
        smtp: Some(SmtpConfig::parse(smtp).unwrap()),
        ..MailConfig::new("Empires <empires@localhost>", None).unwrap()
    };
    // The starting reports are not part of the figures.
    reports::queue_all(&store, &cfg, start).await.unwrap();
    send::send_due(&store, &cfg, start).await.unwrap();

    let messages: Vec<Vec<u8>> = (0..count)
        .map(|i| {
            let c = codes[i % codes.len()];
            format!(
                "From: p{c}@example.org\r\nTo: empires@localhost\r\nSubject: orders\r\nMessage-ID: <m{i}@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nGAME world\r\nEMPIRE {c}\r\nPASSWORD pw-{c}\r\n\r\n1. TAX\r\n2. TAX\r\n3. ORDER - - 1\r\n"
            )
            .into_bytes()
        })
        .collect();
    let t = Instant::now();
    let mut receiver = Receiver::new(&store, &cfg);
    for m in &messages {
        let o = receiver.receive(m, m.len(), start + 1).await.unwrap();
        assert_eq!(o.word(), "accepted", "{o:?}");
    }
    let took_in = t.elapsed();
    let t = Instant::now();
    let s = send::send_due(&store, &cfg, start + 1)
        .await
        .unwrap()
        .unwrap();
    let sent_receipts = t.elapsed();
    assert_eq!(s.sent, count);
    println!(
        "{count} turnsheet emails taken in, checked, kept and answered: {:.2} s ({:.2} ms each); their {count} receipts handed to the SMTP server: {:.2} s",
        took_in.as_secs_f64(),
        took_in.as_secs_f64() * 1000.0 / count as f64,
        sent_receipts.as_secs_f64()
    );

    store
        .games
        .play_turn(
            "world",
            TurnOptions {
                yes: true,
                ..TurnOptions::default()
            },
            start + 2,
        )
        .await
        .unwrap();
    let t = Instant::now();
    let queued = reports::queue_reports(&store, &cfg, "world", start + 3)
        .await
        .unwrap();
    let composed = t.elapsed();
    if let Ok(path) = std::env::var("MAIL_FIGURES_SAMPLE") {
        let first = store.mail.due_mail(start + 3, 1).await.unwrap();
        std::fs::write(path, &first[0].message).unwrap();
    }
    let size: usize = store
        .mail
        .due_mail(start + 3, 100)
        .await
        .unwrap()
        .iter()
        .map(|m| m.message.len())
        .sum();
    let t = Instant::now();
    let s = send::send_due(&store, &cfg, start + 3)
        .await
        .unwrap()
        .unwrap();
    let sent = t.elapsed();
    assert_eq!((queued, s.sent), (codes.len(), codes.len()));
    println!(
        "the {} report emails of a World turn ({:.1} MB in all): made (text, HTML, PNG map, turnsheet) {:.2} s; handed to the SMTP server {:.3} s",
        codes.len(),
        size as f64 / 1e6,
        composed.as_secs_f64(),
        sent.as_secs_f64()
    );
}
