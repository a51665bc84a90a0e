//! Every message of the corpus (`tests/corpus`, written by `scripts/mail-corpus` and, for
//! the real mutt's, `scripts/mail-corpus-mutt`) taken in by the door, with the outcome
//! `expected.txt` gives it: what was kept, who was answered and what the answer says.

use crate::common;

use common::*;
use empires_host::store::Services;
use empires_mail::Receiver;
use std::path::Path;

fn corpus() -> Vec<(String, String, String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let expected = std::fs::read_to_string(dir.join("expected.txt")).unwrap();
    expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut w = l.splitn(3, ' ');
            let name = w.next().unwrap().to_string();
            let outcome = w.next().unwrap().to_string();
            let note = w.next().unwrap_or("").to_string();
            let raw = std::fs::read(dir.join(format!("{name}.eml"))).unwrap();
            (name, outcome, note, raw)
        })
        .collect()
}

async fn sheets_of(store: &Services) -> Vec<String> {
    let mut out = Vec::new();
    for e in ["EN", "SC"] {
        if let Some((body, _, _)) = store
            .accounts
            .latest_sheet("alpha", empires_host::store::SeatCode::parse(e).unwrap(), 1)
            .await
            .unwrap()
        {
            out.push(String::from_utf8_lossy(&body).into_owned());
        }
    }
    out
}

#[tokio::test]
async fn every_message_of_the_corpus_gets_its_outcome() {
    let all = corpus();
    assert!(all.len() >= 30, "the corpus holds {} messages", all.len());
    for (name, outcome, note, raw) in all {
        let w = world().await;
        let before = outbox(&w.store).await.len();
        let got = Receiver::new(&w.store, &w.cfg)
            .receive(&raw, raw.len(), START)
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got.word(), outcome, "{name}: {got:?}");
        let mail = outbox(&w.store).await;
        match outcome.as_str() {
            "ignored" => {
                assert_eq!(mail.len(), before, "{name}: nothing may be sent for it");
                let log = w.store.mail.mail_log(None, 10).await.unwrap();
                let logged = w.store.mail.mail_log(Some("alpha"), 10).await.unwrap();
                let line = log
                    .iter()
                    .chain(&logged)
                    .map(|e| e.detail.clone())
                    .collect::<String>();
                assert!(line.contains(&note), "{name}: the log says {line}");
            }
            _ => {
                assert_eq!(mail.len(), before + 1, "{name}: one answer");
                let answer = mail.last().unwrap();
                let to_bob = name.starts_with("bob");
                assert_eq!(
                    answer.to,
                    if to_bob {
                        "bob@example.net"
                    } else {
                        "alice@example.org"
                    },
                    "{name}: answered only at the address on record"
                );
                let text = answer.text();
                if outcome == "refused" {
                    assert!(text.contains(&note), "{name}: the answer says\n{text}");
                    assert!(text.contains("Nothing"), "{name}: {text}");
                } else {
                    assert!(text.contains("Content hash (SHA-256)"), "{name}: {text}");
                    assert!(text.contains("Forecast of turn 1"), "{name}: {text}");
                    let sheets = sheets_of(&w.store).await;
                    assert_eq!(sheets.len(), 1, "{name}: one sheet kept");
                    assert!(sheets[0].contains("1. TAX"), "{name}: {}", sheets[0]);
                    if let Some(left_out) = note.strip_prefix('-') {
                        assert!(!sheets[0].contains(left_out), "{name}: kept\n{}", sheets[0]);
                        let said = text.split("Left out of your message").nth(1);
                        assert!(
                            said.is_some_and(|s| s.contains(left_out)),
                            "{name}: the receipt names what was left out\n{text}"
                        );
                        assert!(!sheets[0].contains("FAILED"), "{name}");
                    } else if !note.is_empty() && note != "attachment" {
                        assert!(sheets[0].contains(&note), "{name}: kept\n{}", sheets[0]);
                    }
                    // The receipt repeats the sheet as it was read.
                    assert!(
                        text.contains("Your sheet as kept") && text.contains("\n  1. TAX"),
                        "{name}: {text}"
                    );
                    if outcome == "late" {
                        assert!(text.contains("LATE ORDERS"), "{name}: {text}");
                    }
                }
                for m in &mail {
                    let raw = String::from_utf8_lossy(&m.raw).to_lowercase();
                    assert!(
                        !raw.contains("tst2-mail-pass"),
                        "{name}: a password in mail sent"
                    );
                    assert!(
                        !m.text().to_lowercase().contains("tst2-mail-pass"),
                        "{name}"
                    );
                }
            }
        }
        for s in sheets_of(&w.store).await {
            assert!(
                !s.to_lowercase().contains("tst2-mail-pass"),
                "{name}: the password was kept"
            );
            assert!(
                !s.to_lowercase().contains("password"),
                "{name}: the PASSWORD line was kept"
            );
        }
    }
}
