//! The mail door for a Napoleonic Empires game on the same host: a kingdom's sheet sent by
//! mail is found, proven, checked by its ruleset (with the dry run in the answer) and kept;
//! a sheet for a kingdom that is not the sender's is refused; after the turn each kingdom's
//! player is mailed its own report, and no one else's.

use crate::common;
use mail_parser::MimeHeaders;

use common::{ALICE_PW, START, World, outbox, world};
use empires_host::turn::TurnOptions;
use empires_mail::inbound::{Outcome, Receiver};

/// Adds the Napoleonic game "europe": alice plays France, bob Prussia.
async fn europe(w: &World) {
    let players = [("FRA", "alice"), ("PRU", "bob")];
    empires_testkit::napoleonic_game(&w.store, "europe", &players, 9, START).await;
}

fn mail(from: &str, id: &str, body: &str) -> Vec<u8> {
    format!("From: {from}\r\nTo: empires@localhost\r\nSubject: orders\r\nMessage-ID: <{id}@x.org>\r\n\r\n{body}")
        .into_bytes()
}

/// France's blank sheet for the next turn, with the password line a player adds.
async fn france_sheet(w: &World, extra: &str) -> String {
    let g = w.store.games.hosted("europe").await.unwrap();
    let blank = g.ruleset.sheet(g.text(), "FRA").unwrap();
    let (head, rest) = blank.split_once('\n').unwrap();
    format!("Here are my orders.\n\n{head}\nPASSWORD {ALICE_PW}\n{rest}{extra}")
}

#[tokio::test]
async fn a_kingdoms_sheet_by_mail_is_checked_kept_and_answered() {
    let w = world().await;
    europe(&w).await;
    let sheet = france_sheet(&w, "MARCH NOWHERE\n").await;
    let raw = mail("alice@example.org", "fra1", &sheet);
    let mut r = Receiver::new(&w.store, &w.cfg);
    let outcome = r.receive(&raw, raw.len(), START).await.unwrap();
    assert_eq!(
        outcome,
        Outcome::Accepted {
            game: "europe".into(),
            empire: "FRA".parse().unwrap(),
            for_turn: 1
        }
    );
    // Kept without the password and without the note above the sheet.
    let pending = w.store.games.pending("europe").await.unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].0, "FRA.txt");
    let kept = String::from_utf8(pending[0].1.clone()).unwrap();
    assert!(kept.starts_with("GAME \"europe\""), "{kept}");
    assert!(!kept.contains(ALICE_PW) && !kept.contains("Here are my orders"));
    // The answer goes to Alice, with the ruleset's check: the bad line is named.
    let out = outbox(&w.store).await;
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].to, "alice@example.org");
    let text = out[0].text();
    assert!(text.contains("kept for turn 1"), "{text}");
    assert!(text.contains("NOWHERE"), "{text}");
}

#[tokio::test]
async fn a_sheet_for_a_kingdom_not_the_senders_is_refused() {
    let w = world().await;
    europe(&w).await;
    // Bob plays Prussia; his password, France's sheet.
    let sheet = france_sheet(&w, "")
        .await
        .replace(ALICE_PW, "bob-mail-pass");
    let raw = mail("bob@example.net", "forged", &sheet);
    let mut r = Receiver::new(&w.store, &w.cfg);
    let outcome = r.receive(&raw, raw.len(), START).await.unwrap();
    let Outcome::Refused(why) = outcome else {
        panic!("kept: {outcome:?}");
    };
    assert!(why.contains("\"FRA\", which is not yours"), "{why}");
    assert!(w.store.games.pending("europe").await.unwrap().is_empty());
    // Carol, in no seat of the game, is refused too; a stranger is not even answered.
    let raw = mail("carol@example.com", "carol", &france_sheet(&w, "").await);
    let outcome = r.receive(&raw, raw.len(), START).await.unwrap();
    assert!(matches!(outcome, Outcome::Refused(_)), "{outcome:?}");
    let raw = mail("eve@example.com", "eve", &france_sheet(&w, "").await);
    let outcome = r.receive(&raw, raw.len(), START).await.unwrap();
    assert!(matches!(outcome, Outcome::Ignored(_)), "{outcome:?}");
    assert!(w.store.games.pending("europe").await.unwrap().is_empty());
}

#[tokio::test]
async fn a_sheet_for_a_turn_already_played_is_refused_not_kept_as_late_orders() {
    let w = world().await;
    europe(&w).await;
    let options = TurnOptions {
        yes: true,
        ..TurnOptions::default()
    };
    let old = france_sheet(&w, "").await;
    w.store
        .games
        .play_turn("europe", options, START)
        .await
        .unwrap();
    let raw = mail("alice@example.org", "old", &old);
    let mut r = Receiver::new(&w.store, &w.cfg);
    let outcome = r.receive(&raw, raw.len(), START).await.unwrap();
    let Outcome::Refused(why) = outcome else {
        panic!("kept: {outcome:?}");
    };
    assert!(
        why.contains("turn 1 of game \"europe\", which has been played"),
        "{why}"
    );
    assert!(why.contains("sheet for turn 2"), "{why}");
    assert!(w.store.games.pending("europe").await.unwrap().is_empty());
}

#[tokio::test]
async fn a_sheet_after_the_deadline_is_refused_while_the_turn_waits() {
    let w = world().await;
    europe(&w).await;
    let daily = empires_host::schedule::Schedule::parse("every 24h").unwrap();
    w.store
        .schedules
        .set_schedule(
            "europe",
            &daily,
            empires_host::store::CatchUp::Each,
            &[],
            START,
        )
        .await
        .unwrap();
    let sheet = france_sheet(&w, "").await;
    let raw = mail("alice@example.org", "late", &sheet);
    let mut r = Receiver::new(&w.store, &w.cfg);
    // An hour after the deadline, before the clock has played the turn.
    let after = START + 25 * 3_600_000;
    let outcome = r.receive(&raw, raw.len(), after).await.unwrap();
    let Outcome::Refused(why) = outcome else {
        panic!("kept: {outcome:?}");
    };
    assert!(why.contains("the deadline of turn 1 has passed"), "{why}");
    // Only the GM's announcement of the schedule waits, no sheet.
    let pending = w.store.games.pending("europe").await.unwrap();
    assert!(
        pending.iter().all(|(name, _)| name == "gm.txt"),
        "{pending:?}"
    );
    // Before the deadline the same sheet is kept.
    let raw = mail("alice@example.org", "on-time", &sheet);
    let outcome = r.receive(&raw, raw.len(), START + 3_600_000).await.unwrap();
    assert!(matches!(outcome, Outcome::Accepted { .. }), "{outcome:?}");
}

#[tokio::test]
async fn after_the_turn_each_kingdom_is_mailed_its_own_report() {
    let w = world().await;
    europe(&w).await;
    let options = TurnOptions {
        yes: true,
        ..TurnOptions::default()
    };
    w.store
        .games
        .play_turn("europe", options, START)
        .await
        .unwrap();
    let n = empires_mail::reports::queue_reports(&w.store, &w.cfg, "europe", START)
        .await
        .unwrap();
    assert_eq!(n, 2, "alice and bob want their reports by mail");
    let out = outbox(&w.store).await;
    let to = |who: &str| out.iter().find(|m| m.to == who).unwrap().text();
    let (alice, bob) = (to("alice@example.org"), to("bob@example.net"));
    assert!(alice.contains("France (FRA)"), "{alice}");
    assert!(
        !alice.contains("Prussia (PRU), game"),
        "another kingdom's report"
    );
    assert!(bob.contains("Prussia (PRU)"), "{bob}");
    assert!(!bob.contains("France (FRA), game"));
    // Each report carries its kingdom's map as a picture, shown by the HTML page in place
    // of the page's own drawing (mail readers show images, not drawings).
    let alice_mail = out.iter().find(|m| m.to == "alice@example.org").unwrap();
    let parsed = mail_parser::MessageParser::default()
        .parse(&alice_mail.raw)
        .unwrap();
    let html = parsed.body_html(0).unwrap();
    assert!(
        html.contains("<img src=\"cid:map@empires\"") && !html.contains("<svg"),
        "the page shows the picture"
    );
    let png = parsed
        .attachments()
        .find(|a| a.content_type().is_some_and(|c| c.subtype() == Some("png")))
        .expect("a PNG map");
    assert_eq!(png.attachment_name(), Some("europe-FRA-turn1.png"));
    assert!(png.contents().starts_with(b"\x89PNG\r\n"));
    // Mailed once: asking again queues nothing.
    let again = empires_mail::reports::queue_reports(&w.store, &w.cfg, "europe", START)
        .await
        .unwrap();
    assert_eq!(again, 0);
}

/// A kingdom's report mail fits a phone: on a host with a public address it is under
/// 200 KB, its picture a close-up of the kingdom 720 pixels across, the whole map linked;
/// and before the first turn the player is mailed the starting position.
#[tokio::test]
async fn a_kingdoms_report_mail_is_a_close_up_under_200_kb() {
    let w = world().await;
    europe(&w).await;
    let mut cfg = w.cfg.clone();
    cfg.public_url = Some("https://empires.example.org".into());
    let n = empires_mail::reports::queue_reports(&w.store, &cfg, "europe", START)
        .await
        .unwrap();
    assert_eq!(n, 2, "the starting position's reports, to alice and bob");
    let out = outbox(&w.store).await;
    let alice = out.iter().find(|m| m.to == "alice@example.org").unwrap();
    assert!(alice.raw.len() < 200_000, "{} bytes", alice.raw.len());
    let parsed = mail_parser::MessageParser::default()
        .parse(&alice.raw)
        .unwrap();
    assert_eq!(parsed.subject(), Some("France: report of turn 0, europe"));
    let pngs: Vec<_> = parsed
        .attachments()
        .filter(|a| a.content_type().is_some_and(|c| c.subtype() == Some("png")))
        .collect();
    assert_eq!(pngs.len(), 1, "the close-up alone: the whole map is linked");
    let width = u32::from_be_bytes(pngs[0].contents()[16..20].try_into().unwrap());
    assert_eq!(width, 720);
    let text = parsed.body_text(0).unwrap();
    // The link may go to a line of its own, the opening keeping to 78 columns.
    assert!(text.contains("The whole map:"), "{text}");
    assert!(
        text.contains("https://empires.example.org/games/europe/turns/0/reports/FRA.html"),
        "{text}"
    );
    assert!(text.contains("the starting position"), "{text}");
}

/// Send Ambassador ("to send your email address to another player"): Prussia's player is
/// given France's ruler's address with the report, once Alice lets her address be shared;
/// by default, and for the sender, nothing is passed on.
#[tokio::test]
async fn an_ambassador_passes_the_senders_address_on_only_when_shared() {
    for share in [false, true] {
        let w = world().await;
        europe(&w).await;
        let alice = w
            .store
            .accounts
            .account_by_name("alice")
            .await
            .unwrap()
            .unwrap();
        assert!(
            !w.store.mail.share_address(alice.id).await.unwrap(),
            "off by default"
        );
        w.store
            .mail
            .set_share_address(alice.id, share)
            .await
            .unwrap();
        let g = w.store.games.hosted("europe").await.unwrap();
        let blank = g.ruleset.sheet(g.text(), "FRA").unwrap();
        let sheet = blank.replacen("HQ\n", "HQ\nSEND AMBASSADOR TO PRU\n", 1);
        assert_ne!(sheet, blank, "the sheet has an HQ section");
        let submission = empires_host::store::Submission {
            empire: Some("FRA".parse().unwrap()),
            body: sheet.into_bytes(),
            door: "test".into(),
            received_at: START,
            for_turn: None,
            late: false,
        };
        w.store.games.submit("europe", &submission).await.unwrap();
        let options = TurnOptions {
            yes: true,
            ..TurnOptions::default()
        };
        w.store
            .games
            .play_turn("europe", options, START)
            .await
            .unwrap();
        empires_mail::reports::queue_reports(&w.store, &w.cfg, "europe", START)
            .await
            .unwrap();
        let out = outbox(&w.store).await;
        let to = |who: &str| out.iter().find(|m| m.to == who).unwrap().text();
        let (alice_mail, bob_mail) = (to("alice@example.org"), to("bob@example.net"));
        assert!(bob_mail.contains("sent you an ambassador"), "{bob_mail}");
        assert_eq!(
            bob_mail.contains("France (FRA): alice, alice@example.org"),
            share,
            "{bob_mail}"
        );
        assert!(
            alice_mail.contains("Your ambassador reached"),
            "{alice_mail}"
        );
        assert!(!alice_mail.contains("bob@example.net"), "{alice_mail}");
    }
}
