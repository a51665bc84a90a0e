//! The door's rules that no single corpus message shows: a message delivered twice is
//! answered once; a message too large or with too many parts is refused at the address on
//! record; late orders are played only when nothing newer came (2.4, decision 22); a
//! forged sender makes the host write to no one; random and mutated messages never panic.

use crate::common;

use common::*;
use empires_host::turn::TurnOptions;
use empires_mail::Receiver;
use empires_mail::inbound::message::{Incoming, MAX_MESSAGE_BYTES};
use proptest::prelude::*;

fn mail(from: &str, id: &str, body: &str) -> Vec<u8> {
    format!("From: {from}\r\nTo: empires@localhost\r\nSubject: orders\r\nMessage-ID: <{id}@x.org>\r\n\r\n{body}")
        .into_bytes()
}

const SHEET: &str = "GAME alpha\r\nEMPIRE EN\r\nPASSWORD tst2-mail-pass\r\n1. TAX\r\n";

#[tokio::test]
async fn a_message_delivered_twice_is_answered_once() {
    let w = world().await;
    let raw = mail("alice@example.org", "dup", SHEET);
    let mut r = Receiver::new(&w.store, &w.cfg);
    assert_eq!(
        r.receive(&raw, raw.len(), START).await.unwrap().word(),
        "accepted"
    );
    assert_eq!(
        r.receive(&raw, raw.len(), START + 5).await.unwrap().word(),
        "duplicate"
    );
    assert_eq!(outbox(&w.store).await.len(), 1);
    assert_eq!(w.store.accounts.sheet_count("alpha").await.unwrap(), 1);
}

#[tokio::test]
async fn a_fifty_megabyte_message_is_refused_by_mail() {
    let w = world().await;
    let mut raw = mail("alice@example.org", "big", SHEET);
    let size = 50_000_000;
    raw.resize(MAX_MESSAGE_BYTES + 1, b'x');
    let got = Receiver::new(&w.store, &w.cfg)
        .receive(&raw, size, START)
        .await
        .unwrap();
    assert_eq!(got.word(), "refused");
    let out = outbox(&w.store).await;
    assert_eq!(out.len(), 1);
    assert!(out[0].text().contains("50.0 MB"), "{}", out[0].text());
    assert_eq!(w.store.accounts.sheet_count("alpha").await.unwrap(), 0);
}

#[tokio::test]
async fn a_message_with_a_thousand_attachments_is_refused_by_mail() {
    let w = world().await;
    let mut body = String::from(
        "Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n",
    );
    body.push_str(SHEET);
    for i in 0..1000 {
        body.push_str(&format!("\r\n--b\r\nContent-Type: text/plain; name=\"a{i}.txt\"\r\nContent-Disposition: attachment; filename=\"a{i}.txt\"\r\n\r\nx"));
    }
    body.push_str("\r\n--b--\r\n");
    let raw =
        format!("From: alice@example.org\r\nMessage-ID: <many@x>\r\nMIME-Version: 1.0\r\n{body}")
            .into_bytes();
    let got = Receiver::new(&w.store, &w.cfg)
        .receive(&raw, raw.len(), START)
        .await
        .unwrap();
    assert_eq!(got.word(), "refused", "{got:?}");
    assert!(outbox(&w.store).await[0].text().contains("parts"));
}

#[tokio::test]
async fn a_forged_sender_makes_the_host_write_to_no_one() {
    let w = world().await;
    // Mallory knows Alice's game and empire but not her address or password.
    let raw = mail("mallory@evil.example", "forged", SHEET);
    let got = Receiver::new(&w.store, &w.cfg)
        .receive(&raw, raw.len(), START)
        .await
        .unwrap();
    assert_eq!(got.word(), "ignored");
    assert!(outbox(&w.store).await.is_empty());
    // Logged for alpha's GM, who can see someone tried.
    let log = w.store.mail.mail_log(Some("alpha"), 5).await.unwrap();
    assert_eq!(log[0].address, "mallory@evil.example");
    // Mallory forging Alice's address without her password is refused, and the refusal
    // goes to Alice, not to Mallory.
    let raw = mail(
        "alice@example.org",
        "forged2",
        &SHEET.replace("tst2-mail-pass", "guess"),
    );
    let got = Receiver::new(&w.store, &w.cfg)
        .receive(&raw, raw.len(), START)
        .await
        .unwrap();
    assert_eq!(got.word(), "refused");
    assert_eq!(outbox(&w.store).await[0].to, "alice@example.org");
    assert_eq!(w.store.accounts.sheet_count("alpha").await.unwrap(), 0);
}

/// The turnsheet the turn played for EN, as the turn kept it.
async fn played_sheet(w: &World, turn: u32) -> String {
    let bytes = w
        .store
        .games
        .turn_file("alpha", turn, "orders/EN.txt", None)
        .await
        .unwrap();
    String::from_utf8(bytes).unwrap()
}

async fn play(w: &World, at: i64) {
    w.store
        .games
        .play_turn(
            "alpha",
            TurnOptions {
                yes: true,
                ..TurnOptions::default()
            },
            at,
        )
        .await
        .unwrap();
}

#[tokio::test]
async fn late_orders_are_played_only_when_nothing_newer_came() {
    let w = world().await;
    play(&w, START).await; // turn 1 played; turn 2 is next
    let mut r = Receiver::new(&w.store, &w.cfg);
    // A sheet written for turn 1, arriving after it was played: late orders for turn 2.
    let late = "GAME alpha\r\nTURN 1\r\nPASSWORD tst2-mail-pass\r\n1. TAX\r\n2. TAX\r\n";
    let got = r
        .receive(&mail("alice@example.org", "l1", late), 100, START + 10)
        .await
        .unwrap();
    assert_eq!(got.word(), "late");
    play(&w, START + 20).await;
    assert!(
        played_sheet(&w, 2).await.contains("TURN 1"),
        "nothing newer came: the late orders are played"
    );

    // Now on-time orders for turn 3 and then a late sheet for turn 2: the on-time ones win,
    // whichever came last, and the two are never played together.
    let on_time = "GAME alpha\r\nTURN 3\r\nPASSWORD tst2-mail-pass\r\n1. GROW LON\r\n";
    r.receive(&mail("alice@example.org", "o3", on_time), 100, START + 30)
        .await
        .unwrap();
    let late2 = "GAME alpha\r\nTURN 2\r\nPASSWORD tst2-mail-pass\r\n1. TAX\r\n";
    assert_eq!(
        r.receive(&mail("alice@example.org", "l2", late2), 100, START + 40)
            .await
            .unwrap()
            .word(),
        "late"
    );
    play(&w, START + 50).await;
    let played = played_sheet(&w, 3).await;
    assert!(
        played.contains("GROW LON") && !played.contains("TURN 2"),
        "{played}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(raw in proptest::collection::vec(any::<u8>(), 0..4000)) {
        let inc = Incoming::read(&raw, raw.len());
        for c in &inc.candidates {
            let _ = empires_mail::inbound::sheet::find(&c.text);
        }
    }

    #[test]
    fn mutated_corpus_messages_never_panic(pick in 0usize..1000, cuts in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..20)) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
        let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "eml")).collect();
        files.sort();
        let mut raw = std::fs::read(&files[pick % files.len()]).unwrap();
        for (at, byte) in cuts {
            if raw.is_empty() { break; }
            let i = at % raw.len();
            match byte % 3 {
                0 => raw[i] = byte,
                1 => { raw.remove(i); }
                _ => raw.insert(i, byte),
            }
        }
        let inc = Incoming::read(&raw, raw.len());
        for c in &inc.candidates {
            let _ = empires_mail::inbound::sheet::find(&c.text);
        }
    }
}

#[tokio::test]
async fn mutated_messages_go_through_the_whole_door_without_panic() {
    let w = world().await;
    let mut r = Receiver::new(&w.store, &w.cfg);
    let base = mail("alice@example.org", "m", SHEET);
    let mut seed = 7u64;
    for n in 0..300 {
        let mut raw = base.clone();
        for _ in 0..(n % 12 + 1) {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (seed >> 33) as usize % raw.len();
            raw[i] = (seed >> 13) as u8;
        }
        let _ = r.receive(&raw, raw.len(), START + n as i64).await.unwrap();
    }
}

#[tokio::test]
async fn reminders_go_once_to_players_who_have_sent_nothing() {
    let w = world().await;
    let raw = mail("alice@example.org", "r1", SHEET);
    Receiver::new(&w.store, &w.cfg)
        .receive(&raw, raw.len(), START)
        .await
        .unwrap();
    let before = outbox(&w.store).await.len();
    let deadline = START + 24 * 3_600_000;
    let n =
        empires_mail::reports::queue_reminders(&w.store, &w.cfg, "alpha", deadline, "24h", START)
            .await
            .unwrap();
    assert_eq!(n, 1, "Bob alone has sent nothing");
    let out = outbox(&w.store).await;
    assert_eq!(out.len(), before + 1);
    let last = out.last().unwrap();
    assert_eq!(last.to, "bob@example.net");
    assert!(
        last.text().contains("turn 1") && last.text().contains("2026-11-19 11:06:40 UTC"),
        "{}",
        last.text()
    );
    let again = empires_mail::reports::queue_reminders(
        &w.store,
        &w.cfg,
        "alpha",
        deadline,
        "24h",
        START + 5,
    )
    .await
    .unwrap();
    assert_eq!(again, 0, "each reminder once");
    let later = empires_mail::reports::queue_reminders(
        &w.store,
        &w.cfg,
        "alpha",
        deadline,
        "2h",
        START + 9,
    )
    .await
    .unwrap();
    assert_eq!(later, 1, "a second reminder has its own label");
}

#[tokio::test]
async fn the_schedule_sends_its_reminders_and_its_deadline_opens_the_report_mail() {
    let w = world().await;
    let schedule = empires_host::schedule::Schedule::parse("daily 17:00 Europe/London").unwrap();
    let s = w
        .store
        .schedules
        .set_schedule(
            "alpha",
            &schedule,
            empires_host::store::CatchUp::Each,
            &[24 * 3_600_000, 2 * 3_600_000],
            START,
        )
        .await
        .unwrap();
    let deadline = s.deadline.unwrap();
    let before = outbox(&w.store).await.len();
    // Two hours before the deadline: the 2h reminder, to both players, once.
    let at = deadline - 2 * 3_600_000;
    let n = empires_mail::reports::queue_reminders_due(&w.store, &w.cfg, at)
        .await
        .unwrap();
    assert_eq!(n, 2);
    assert_eq!(
        empires_mail::reports::queue_reminders_due(&w.store, &w.cfg, at + 1000)
            .await
            .unwrap(),
        0,
        "once"
    );
    let out = outbox(&w.store).await;
    assert_eq!(out.len(), before + 2);
    let text = out.last().unwrap().text();
    assert!(
        text.contains(&schedule.describe(deadline)),
        "the deadline in the schedule's own time: {text}"
    );
    // The turn runs at its deadline; the report mail names the next one.
    let ran = empires_host::clock::run_due(&w.store, deadline)
        .await
        .unwrap();
    assert_eq!(ran.len(), 1);
    empires_mail::reports::queue_all(&w.store, &w.cfg, deadline + 1000)
        .await
        .unwrap();
    let report = outbox(&w.store)
        .await
        .into_iter()
        .rev()
        .find(|m| m.text().contains("game \"alpha\", turn 1."))
        .expect("a report of turn 1");
    let next = w
        .store
        .schedules
        .schedule_of("alpha")
        .await
        .unwrap()
        .unwrap();
    let want = format!(
        "Orders for turn 2 are due by {}.",
        schedule.describe(next.deadline.unwrap())
    );
    // The opening is wrapped at 78 columns: the sentence may go over two lines.
    let flat = report
        .text()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(flat.contains(&want), "{want}\n{}", report.text());
    assert!(
        report.text().lines().all(|l| l.chars().count() <= 78),
        "{}",
        report.text()
    );
    assert!(
        report.text().contains("The GM set the schedule"),
        "the change was announced with the turn"
    );
}

#[tokio::test]
async fn a_report_not_paid_for_is_not_mailed_and_its_player_is_told_why() {
    // 2.10: unpaid turns are not mailed.
    let w = world().await;
    w.store
        .ledgers
        .set_paid_turns("alpha", true, START)
        .await
        .unwrap();
    let alice = w
        .store
        .accounts
        .account_by_name("alice")
        .await
        .unwrap()
        .unwrap()
        .id;
    w.store
        .ledgers
        .enter(
            alice,
            &empires_host::ledger::Entry::Bought {
                game: "alpha".into(),
                turns: 5,
            },
            START,
        )
        .await
        .unwrap();
    play(&w, START).await;
    let before = outbox(&w.store).await.len();
    empires_mail::reports::queue_all(&w.store, &w.cfg, START + 1000)
        .await
        .unwrap();
    let out = outbox(&w.store).await;
    let new: Vec<_> = out[before..].iter().collect();
    assert_eq!(new.len(), 2);
    let to_alice = new.iter().find(|m| m.to == "alice@example.org").unwrap();
    let to_bob = new.iter().find(|m| m.to == "bob@example.net").unwrap();
    assert!(
        to_alice.text().contains("game \"alpha\", turn 1."),
        "Alice's report"
    );
    let notice = to_bob.text();
    assert!(notice.contains("waits for payment"), "{notice}");
    assert!(
        !notice.contains("AREAS OWNED") && !notice.contains("ECONOMY"),
        "nothing of the report itself: {notice}"
    );
    // Nothing more while it is unpaid.
    assert_eq!(
        empires_mail::reports::queue_all(&w.store, &w.cfg, START + 2000)
            .await
            .unwrap(),
        0
    );
    // Bob pays: his report of turn 1 is mailed to him then, once.
    let bob = w
        .store
        .accounts
        .account_by_name("bob")
        .await
        .unwrap()
        .unwrap()
        .id;
    w.store
        .ledgers
        .enter(
            bob,
            &empires_host::ledger::Entry::Bought {
                game: "alpha".into(),
                turns: 2,
            },
            START + 3000,
        )
        .await
        .unwrap();
    let n = empires_mail::reports::queue_all(&w.store, &w.cfg, START + 4000)
        .await
        .unwrap();
    assert_eq!(n, 1);
    let last = outbox(&w.store).await.pop().unwrap();
    assert_eq!(last.to, "bob@example.net");
    assert!(
        last.text().contains("game \"alpha\", turn 1."),
        "{}",
        last.text()
    );
    assert!(
        last.text().contains("Turn credits: 1 in hand"),
        "{}",
        last.text()
    );
    assert_eq!(
        empires_mail::reports::queue_all(&w.store, &w.cfg, START + 5000)
            .await
            .unwrap(),
        0,
        "once"
    );
}

/// A reply to the report mail whose Message-ID is `id`, from `from`, as a phone writes it:
/// the player's lines, the phone's closing line, the report quoted below.
fn reply_to(from: &str, id: &str, lines: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: empires@localhost\r\nSubject: Re: England: report of turn 1, alpha\r\n\
         Message-ID: <reply.{id}@phone.example>\r\nIn-Reply-To: {id}\r\nReferences: {id}\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
         {lines}\r\n\r\nSent from my iPhone\r\n\r\nOn 3 Mar 2026, at 18:00, Empires <empires@localhost> wrote:\r\n\
         > England (EN), game \"alpha\", turn 1.\r\n> 9. TAX\r\n"
    )
    .into_bytes()
}

#[tokio::test]
async fn a_reply_to_a_report_mail_is_that_seats_sheet_with_no_header() {
    let w = world().await;
    play(&w, START).await;
    empires_mail::reports::queue_all(&w.store, &w.cfg, START + 1000)
        .await
        .unwrap();
    let alices = report_id(&w, "alice@example.org").await;
    let bobs = report_id(&w, "bob@example.net").await;
    let mut r = Receiver::new(&w.store, &w.cfg);
    let got = r
        .receive(
            &reply_to(
                "alice@example.org",
                &alices,
                "PASSWORD tst2-mail-pass\r\n1. TAX\r\n2. GROW LON",
            ),
            1000,
            START + 2000,
        )
        .await
        .unwrap();
    assert_eq!(got.word(), "accepted", "{got:?}");
    let kept = w
        .store
        .accounts
        .latest_sheet(
            "alpha",
            empires_host::store::SeatCode::parse("EN").unwrap(),
            2,
        )
        .await
        .unwrap()
        .expect("kept for EN, turn 2");
    assert_eq!(String::from_utf8(kept.0).unwrap(), "1. TAX\n2. GROW LON\n");
    let receipt = outbox(&w.store)
        .await
        .pop()
        .unwrap()
        .text()
        .replace("\r\n", "\n");
    assert!(receipt.contains("Sent from my iPhone"), "{receipt}");
    assert!(receipt.contains("  1. TAX\n  2. GROW LON\n"), "{receipt}");
    // The report answered must be one of the sender's: a reply to Bob's report from Alice
    // is no sheet of hers, nor of his.
    let got = r
        .receive(
            &reply_to(
                "alice@example.org",
                &bobs,
                "PASSWORD tst2-mail-pass\r\n1. TAX\r\n3. TAX",
            ),
            1000,
            START + 3000,
        )
        .await
        .unwrap();
    assert_eq!(got.word(), "refused", "{got:?}");
    let sc = w
        .store
        .accounts
        .latest_sheet(
            "alpha",
            empires_host::store::SeatCode::parse("SC").unwrap(),
            2,
        )
        .await
        .unwrap();
    assert!(sc.is_none(), "nothing kept for Scotland");
    // The password is still needed.
    let got = r
        .receive(
            &reply_to("alice@example.org", &alices, "1. TAX\r\n4. TAX"),
            1000,
            START + 4000,
        )
        .await
        .unwrap();
    assert_eq!(got.word(), "refused", "{got:?}");
}

/// The Message-ID of the report mail queued to `to`, in angle brackets.
async fn report_id(w: &World, to: &str) -> String {
    let raw = outbox(&w.store)
        .await
        .into_iter()
        .rev()
        .find(|m| m.to == to)
        .map(|m| m.raw)
        .unwrap_or_else(|| panic!("a report mail to {to}"));
    let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
    format!("<{}>", m.message_id().unwrap())
}

/// A message from `from` with no In-Reply-To, as some phone mail programs send a reply.
fn bare(from: &str, id: &str, subject: &str, lines: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: empires@localhost\r\nSubject: {subject}\r\n\
         Message-ID: <{id}@phone.example>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{lines}\r\n\r\nSent from my iPhone\r\n"
    )
    .into_bytes()
}

#[tokio::test]
async fn a_reply_without_in_reply_to_is_tied_by_its_subject_and_a_report_is_sent_again_on_request()
{
    let w = world().await;
    play(&w, START).await;
    empires_mail::reports::queue_all(&w.store, &w.cfg, START + 1000)
        .await
        .unwrap();
    let first = report_id(&w, "alice@example.org").await;
    let mut r = Receiver::new(&w.store, &w.cfg);
    // The mail program kept the subject and nothing else of the report.
    let got = r
        .receive(
            &bare(
                "alice@example.org",
                "r1",
                "Re: England: report of turn 1, alpha",
                "PASSWORD tst2-mail-pass\r\n1. TAX",
            ),
            1000,
            START + 2000,
        )
        .await
        .unwrap();
    assert_eq!(got.word(), "accepted", "{got:?}");
    let en = empires_host::store::SeatCode::parse("EN").unwrap();
    let kept = w.store.accounts.latest_sheet("alpha", en, 2).await.unwrap();
    assert_eq!(String::from_utf8(kept.unwrap().0).unwrap(), "1. TAX\n");
    // A subject naming a game the sender plays no seat of ties nothing.
    let got = r
        .receive(
            &bare(
                "alice@example.org",
                "r2",
                "Re: England: report of turn 1, nowhere",
                "PASSWORD tst2-mail-pass\r\n1. TAX",
            ),
            1000,
            START + 2500,
        )
        .await
        .unwrap();
    assert_eq!(got.word(), "refused", "{got:?}");

    // "Send my report again": the report of the turn now current, to the address on record,
    // with the Message-ID's part a reply is tied by unchanged.
    let mailed = outbox(&w.store).await.len();
    let got = r
        .receive(
            &bare(
                "alice@example.org",
                "again1",
                "hello",
                "send my report again please",
            ),
            1000,
            START + 3000,
        )
        .await
        .unwrap();
    assert_eq!(
        got,
        empires_mail::Outcome::Resent {
            game: "alpha".into(),
            reports: 1
        }
    );
    let out = outbox(&w.store).await;
    assert_eq!(out.len(), mailed + 1);
    let again = out.last().unwrap();
    assert_eq!(again.to, "alice@example.org");
    assert!(
        again
            .text()
            .contains("England (EN), game \"alpha\", turn 1.")
    );
    let m = mail_parser::MessageParser::default()
        .parse(&again.raw)
        .unwrap();
    assert_eq!(m.subject(), Some("England: report of turn 1, alpha"));
    let id = m.message_id().unwrap();
    assert_eq!(
        id.split('.').next(),
        first.trim_matches(['<', '>']).split('.').next(),
        "a reply to the copy is tied to the seat as one to the first"
    );
    // Asked for in the subject alone, by a GM's word for it: twice more, then the host
    // stops for the hour and says so.
    for (i, word) in ["resent", "resent", "refused"].into_iter().enumerate() {
        let got = r
            .receive(
                &bare(
                    "alice@example.org",
                    &format!("again{}", i + 2),
                    "REPORT alpha",
                    "",
                ),
                1000,
                START + 4000 + i as i64,
            )
            .await
            .unwrap();
        assert_eq!(got.word(), word, "request {}: {got:?}", i + 2);
    }
    let refusal = outbox(&w.store).await.pop().unwrap().text();
    assert!(refusal.contains("3 times in the past hour"), "{refusal}");
    // A stranger asking gets nothing, and nobody is written to.
    let before = outbox(&w.store).await.len();
    let got = r
        .receive(
            &bare("mallory@evil.example", "again9", "REPORT", ""),
            1000,
            START + 5000,
        )
        .await
        .unwrap();
    assert_eq!(got.word(), "ignored");
    assert_eq!(outbox(&w.store).await.len(), before);
}

/// On a host with a public address a report mail links to the whole map rather than
/// carrying it, and the whole map is not drawn for it.
#[tokio::test]
async fn a_host_with_a_public_address_links_the_whole_map() {
    let w = world().await;
    play(&w, START).await;
    let mut cfg = w.cfg.clone();
    cfg.public_url = Some("https://empires.example.org/".into());
    empires_mail::reports::queue_all(&w.store, &cfg, START + 1000)
        .await
        .unwrap();
    let raw = outbox(&w.store)
        .await
        .into_iter()
        .find(|m| m.to == "alice@example.org")
        .expect("Alice's report")
        .raw;
    let m = mail_parser::MessageParser::default().parse(&raw).unwrap();
    use mail_parser::MimeHeaders;
    let names: Vec<&str> = m
        .attachments()
        .filter_map(|a| a.attachment_name())
        .collect();
    assert_eq!(
        names,
        ["alpha-EN-turn1.png", "alpha-EN-turn2.txt"],
        "no whole map carried"
    );
    let text = m.body_text(0).unwrap();
    assert!(
        text.contains(
            "The whole map: https://empires.example.org/games/alpha/turns/1/reports/EN.html"
        ),
        "{text}"
    );
}
