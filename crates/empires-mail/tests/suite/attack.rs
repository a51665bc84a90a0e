//! The mail door under attack (`docs/security.md`): a message the host refuses to keep
//! (a NUL byte, a sheet over 64 KiB) is answered with the reason and the door reads the
//! next one, through a delivery pipe or a Maildir; forged mail cannot make the host flood a
//! player with refusals; and a Message-ID reused by another message does not make the door
//! drop that message as delivered before.

use crate::common;

use common::*;
use empires_host::store::Services;
use empires_mail::config::DEFAULT_REFUSALS_PER_HOUR;
use empires_mail::{Outcome, Receiver, maildir};
use empires_testkit::{drop_postgres, fresh_postgres};

const SHEET: &str = "GAME alpha\r\nEMPIRE EN\r\nPASSWORD tst2-mail-pass\r\n1. TAX\r\n";

fn mail(from: &str, id: &str, body: &str) -> Vec<u8> {
    format!("From: {from}\r\nTo: empires@localhost\r\nSubject: orders\r\nMessage-ID: <{id}@x.org>\r\n\r\n{body}")
        .into_bytes()
}

/// A sheet whose body, in quoted-printable, holds a NUL (`=00`).
fn with_nul(id: &str) -> Vec<u8> {
    format!(
        "From: alice@example.org\r\nSubject: orders\r\nMessage-ID: <{id}@x.org>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n\
         GAME alpha\r\nEMPIRE EN\r\nPASSWORD tst2-mail-pass\r\n1. T=00AX\r\n"
    )
    .into_bytes()
}

/// A sheet attached as a `.txt` file that is not all text: the orders, then the binary
/// bytes a program left at its end.
fn binary_attachment(id: &str) -> Vec<u8> {
    let mut file = SHEET.as_bytes().to_vec();
    file.extend_from_slice(&[0, 0, 0, 0xff, 0xfe, 1, 2, 3, b'\r', b'\n']);
    let b64 = base64(&file);
    format!(
        "From: alice@example.org\r\nSubject: orders\r\nMessage-ID: <{id}@x.org>\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nMy orders.\r\n\
         --b\r\nContent-Type: application/octet-stream; name=\"orders.txt\"\r\n\
         Content-Disposition: attachment; filename=\"orders.txt\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{b64}\r\n--b--\r\n"
    )
    .into_bytes()
}

/// A sheet of more than the 64 KiB a turnsheet may hold.
fn too_large(id: &str) -> Vec<u8> {
    let mut body = SHEET.to_string();
    while body.len() <= 70_000 {
        body.push_str("; a long note to the GM that goes on and on and on and on\r\n");
    }
    mail("alice@example.org", id, &body)
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

async fn refusals_to(store: &Services, address: &str) -> Vec<OutMessage> {
    outbox(store)
        .await
        .into_iter()
        .filter(|m| m.to == address && m.text().contains("could not be taken as orders"))
        .collect()
}

#[tokio::test]
async fn a_sheet_the_host_will_not_keep_is_refused_by_mail_and_the_next_is_read() {
    for (what, raw, says) in [
        ("a NUL in the body", with_nul("nul"), "NUL"),
        ("a binary .txt", binary_attachment("bin"), "NUL"),
        ("a sheet over 64 KiB", too_large("big"), "65536 bytes"),
    ] {
        let w = world().await;
        let mut r = Receiver::new(&w.store, &w.cfg);
        let got = r
            .receive(&raw, raw.len(), START)
            .await
            .unwrap_or_else(|e| panic!("{what}: the door stopped: {e}"));
        let Outcome::Refused(why) = &got else {
            panic!("{what}: {got:?}")
        };
        assert!(why.contains(says), "{what}: {why}");
        let refusals = refusals_to(&w.store, "alice@example.org").await;
        assert_eq!(
            refusals.len(),
            1,
            "{what}: one answer, at the address on record"
        );
        assert!(refusals[0].text().contains(says), "{}", refusals[0].text());
        assert_eq!(
            w.store.accounts.sheet_count("alpha").await.unwrap(),
            0,
            "{what}"
        );
        // The next message is read and kept.
        let good = mail("alice@example.org", "after", SHEET);
        assert_eq!(
            r.receive(&good, good.len(), START + 1)
                .await
                .unwrap()
                .word(),
            "accepted",
            "{what}"
        );
        assert_eq!(
            w.store.accounts.sheet_count("alpha").await.unwrap(),
            1,
            "{what}"
        );
        let log = w.store.mail.mail_log(Some("alpha"), 10).await.unwrap();
        assert_eq!(
            log.iter().map(|e| e.outcome.as_str()).collect::<Vec<_>>(),
            ["refused", "accepted"],
            "{what}"
        );
    }
}

#[tokio::test]
async fn a_maildir_with_a_bad_message_first_reads_the_good_one_after_it() {
    let w = world().await;
    let md = w.dir.path().join("Maildir");
    for d in ["new", "cur", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    std::fs::write(md.join("new/1.a.host"), with_nul("m1")).unwrap();
    std::fs::write(md.join("new/2.b.host"), too_large("m2")).unwrap();
    std::fs::write(
        md.join("new/3.c.host"),
        mail("alice@example.org", "m3", SHEET),
    )
    .unwrap();
    let mut r = Receiver::new(&w.store, &w.cfg);
    let f = maildir::fetch(&mut r, &md, START).await.unwrap();
    assert_eq!(
        (f.messages, f.accepted, f.refused, f.ignored, f.failed),
        (3, 1, 2, 0, 0),
        "{f:?}"
    );
    assert_eq!(std::fs::read_dir(md.join("new")).unwrap().count(), 0);
    assert_eq!(std::fs::read_dir(md.join("cur")).unwrap().count(), 3);
    assert_eq!(w.store.accounts.sheet_count("alpha").await.unwrap(), 1);
    assert_eq!(refusals_to(&w.store, "alice@example.org").await.len(), 2);
    // A second run finds nothing to do: the bad messages are not read again.
    let again = maildir::fetch(&mut r, &md, START + 1).await.unwrap();
    assert_eq!(again.messages, 0);
}

/// 50 forged messages from Alice's address, each refused: at most the limit answered, all
/// logged; a sheet she sends meanwhile is still answered; an hour later she is told again.
async fn forged_refusals_are_answered_at_most_the_limit(w: &World) {
    let limit = DEFAULT_REFUSALS_PER_HOUR as usize;
    let mut r = Receiver::new(&w.store, &w.cfg);
    let mut words = Vec::new();
    for i in 0..50 {
        let raw = mail(
            "alice@example.org",
            &format!("forged{i}"),
            &SHEET.replace("tst2-mail-pass", &format!("guess{i}")),
        );
        let got = r.receive(&raw, raw.len(), START + i * 1000).await.unwrap();
        assert_eq!(got.word(), "refused");
        words.push(matches!(got, Outcome::Refused(_)));
        if i == 30 {
            // Alice's own sheet, among the forgeries: kept, and its receipt sent.
            let good = mail("alice@example.org", "real", SHEET);
            let got = r
                .receive(&good, good.len(), START + i * 1000 + 1)
                .await
                .unwrap();
            assert_eq!(got.word(), "accepted");
        }
    }
    assert_eq!(
        words.iter().filter(|answered| **answered).count(),
        limit,
        "the first {limit} answered"
    );
    let refusals = refusals_to(&w.store, "alice@example.org").await;
    assert_eq!(refusals.len(), limit);
    assert!(
        refusals[limit - 1]
            .text()
            .contains(&format!("This is the {limit}th refusal")),
        "the last one says so: {}",
        refusals[limit - 1].text()
    );
    let receipts = outbox(&w.store)
        .await
        .into_iter()
        .filter(|m| m.to == "alice@example.org" && m.text().contains("is kept for turn"))
        .count();
    assert_eq!(receipts, 1, "the receipt is never held back");
    // Every message is in the mail log for the GM, answered or not.
    let log = w.store.mail.mail_log(Some("alpha"), 500).await.unwrap();
    let refused: Vec<_> = log
        .iter()
        .filter(|e| e.direction == "in" && e.outcome == "refused")
        .collect();
    assert_eq!(refused.len(), 50);
    assert_eq!(
        refused
            .iter()
            .filter(|e| e.detail.starts_with("not answered"))
            .count(),
        50 - limit
    );
    // An hour after the first refusal, refusals are answered again.
    let raw = mail(
        "alice@example.org",
        "later",
        &SHEET.replace("tst2-mail-pass", "wrong"),
    );
    let got = r
        .receive(&raw, raw.len(), START + 3_600_000 + 500)
        .await
        .unwrap();
    assert!(matches!(got, Outcome::Refused(_)), "{got:?}");
    // Bob, who shares nothing with Alice, is answered as ever.
    let raw = mail("bob@example.net", "bob1", "GAME alpha\r\nPASSWORD nope\r\n");
    let got = r.receive(&raw, raw.len(), START + 60_000).await.unwrap();
    assert!(matches!(got, Outcome::Refused(_)), "{got:?}");
}

#[tokio::test]
async fn fifty_forged_messages_get_at_most_the_limit_of_refusals() {
    forged_refusals_are_answered_at_most_the_limit(&world().await).await;
}

#[tokio::test]
async fn fifty_forged_messages_get_at_most_the_limit_of_refusals_on_postgres() {
    let Some(url) = fresh_postgres("mail_refusals").await else {
        return;
    };
    let w = world_at(&url, tempfile::tempdir().unwrap()).await;
    forged_refusals_are_answered_at_most_the_limit(&w).await;
    drop_postgres(&url).await;
}

#[tokio::test]
async fn the_limit_is_the_gms_to_set() {
    let w = world().await;
    let cfg = empires_mail::MailConfig {
        refusals_per_hour: 0,
        ..w.cfg.clone()
    };
    let raw = mail("alice@example.org", "x", "hello");
    let got = Receiver::new(&w.store, &cfg)
        .receive(&raw, raw.len(), START)
        .await
        .unwrap();
    assert!(matches!(got, Outcome::Unanswered(_)), "{got:?}");
    assert!(outbox(&w.store).await.is_empty());
}

#[tokio::test]
async fn a_message_delivered_again_is_answered_once_but_a_reused_message_id_is_read() {
    let w = world().await;
    let mut r = Receiver::new(&w.store, &w.cfg);
    let first = mail("alice@example.org", "same", SHEET);
    assert_eq!(
        r.receive(&first, first.len(), START).await.unwrap().word(),
        "accepted"
    );
    // The same message again, through another mail server that added its own line.
    let mut again = b"Received: from mx2.example.net by mail.example.org\r\n".to_vec();
    again.extend_from_slice(&first);
    assert_eq!(
        r.receive(&again, again.len(), START + 1).await.unwrap(),
        Outcome::Duplicate
    );
    assert_eq!(outbox(&w.store).await.len(), 1, "answered once");
    // Bob's own sheet, whose mail program happens to give the same Message-ID: read.
    let bob = mail(
        "bob@example.net",
        "same",
        "GAME alpha\r\nEMPIRE SC\r\nPASSWORD bob-mail-pass\r\n1. TAX\r\n",
    );
    assert_eq!(
        r.receive(&bob, bob.len(), START + 2).await.unwrap().word(),
        "accepted"
    );
    assert_eq!(outbox(&w.store).await.len(), 2);
    assert_eq!(outbox(&w.store).await[1].to, "bob@example.net");
    let log = w.store.mail.mail_log(Some("alpha"), 10).await.unwrap();
    let line = log.last().unwrap();
    assert_eq!(line.address, "bob@example.net");
    assert!(
        line.detail.contains("Message-ID <same@x.org> came before"),
        "the reuse is noted: {}",
        line.detail
    );
}

#[tokio::test]
async fn a_forger_cannot_suppress_a_players_sheet_by_sending_its_message_id_first() {
    let w = world().await;
    let mut r = Receiver::new(&w.store, &w.cfg);
    // Mallory learns the Message-ID Alice's sheet will carry, and sends it first: once
    // from a stranger's address, once forging Alice's with other content.
    let stranger = mail("mallory@evil.example", "alice-next", SHEET);
    assert_eq!(
        r.receive(&stranger, stranger.len(), START)
            .await
            .unwrap()
            .word(),
        "ignored"
    );
    let forged = mail(
        "alice@example.org",
        "alice-next",
        &SHEET.replace("tst2-mail-pass", "guess"),
    );
    assert_eq!(
        r.receive(&forged, forged.len(), START + 1)
            .await
            .unwrap()
            .word(),
        "refused"
    );
    let real = mail("alice@example.org", "alice-next", SHEET);
    assert_eq!(
        r.receive(&real, real.len(), START + 2)
            .await
            .unwrap()
            .word(),
        "accepted",
        "Alice's own sheet is read"
    );
    assert_eq!(w.store.accounts.sheet_count("alpha").await.unwrap(), 1);
}
