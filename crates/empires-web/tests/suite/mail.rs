//! Play by email on the web: a player's mail settings and mail password, and the GM's mail
//! page (log, outbox, a player's new mail password), each for its own account only.

use crate::common;

use axum::http::StatusCode;
use common::world;
use empires_host::store::{Direction, OutMail};

/// The value of the read-only input a secret shown once is put in.
fn shown_secret(body: &str) -> String {
    let i = body
        .find("class=\"copy\" readonly value=\"")
        .expect("a secret shown")
        + 29;
    body[i..].split('"').next().unwrap().to_string()
}

#[tokio::test]
async fn a_player_sets_their_address_reports_and_mail_password() {
    let w = world().await;
    let alice = w.session("alice").await;
    let id = w
        .host
        .store
        .accounts
        .account_by_name("alice")
        .await
        .unwrap()
        .unwrap()
        .id;
    let a = w.get("/account/mail", Some(&alice)).await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(a.body.contains("no mail password yet"));
    let a = w
        .post_form(
            "/account/mail",
            Some(&alice),
            &[("email", "alice@example.org"), ("reports", "on")],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(
        w.host.store.mail.mail_settings(id).await.unwrap(),
        (Some("alice@example.org".into()), true)
    );
    // Sharing the address with ambassadors' hosts is off until ticked, and untick again.
    assert!(!w.host.store.mail.share_address(id).await.unwrap());
    assert!(a.body.contains("name=\"share\" value=\"on\">"), "unticked");
    for (share, ticked) in [(Some("on"), true), (None, false)] {
        let mut fields = vec![("email", "alice@example.org"), ("reports", "on")];
        fields.extend(share.map(|v| ("share", v)));
        let a = w
            .post_form("/account/mail", Some(&alice), &fields, true)
            .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        assert_eq!(w.host.store.mail.share_address(id).await.unwrap(), ticked);
        assert_eq!(
            a.body.contains("name=\"share\" value=\"on\" checked"),
            ticked
        );
    }
    // Not an address; reports without an address.
    let a = w
        .post_form(
            "/account/mail",
            Some(&alice),
            &[("email", "not an address")],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    let a = w
        .post_form(
            "/account/mail",
            Some(&alice),
            &[("email", ""), ("reports", "on")],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    // Without the form's token nothing changes.
    let a = w
        .post_form(
            "/account/mail",
            Some(&alice),
            &[("email", "x@evil.example")],
            false,
        )
        .await;
    assert_ne!(a.status, StatusCode::OK);
    assert_eq!(
        w.host
            .store
            .mail
            .mail_settings(id)
            .await
            .unwrap()
            .0
            .as_deref(),
        Some("alice@example.org")
    );

    let a = w
        .post_form("/account/mail-password", Some(&alice), &[], true)
        .await;
    let p = shown_secret(&a.body);
    let kept = w
        .host
        .store
        .mail
        .mail_password_hash(id)
        .await
        .unwrap()
        .unwrap();
    assert!(empires_mail::password::verify(&p, &kept));
    assert!(!kept.contains(&p), "kept only as a hash");
    // Shown once: the page does not show it again.
    let a = w.get("/account/mail", Some(&alice)).await;
    assert!(!a.body.contains(&p));
    assert!(a.body.contains("You have a mail password"));
}

#[tokio::test]
async fn the_gm_reads_the_mail_and_gives_a_player_a_new_mail_password() {
    let w = world().await;
    let gm = w.session("gm1").await;
    let store = &w.host.store;
    store
        .mail
        .log_mail(
            Some("alpha"),
            None,
            common::START,
            Direction::In,
            "<script>x</script>@evil",
            "ignored",
            "a stranger",
        )
        .await
        .unwrap();
    let out = OutMail {
        game: Some("alpha".into()),
        account: None,
        kind: "receipt".into(),
        dedupe: None,
        recipient: "alice@example.org".into(),
        subject: "Turnsheet received".into(),
        message: b"Subject: x\r\n\r\nx".to_vec(),
    };
    let id = store
        .mail
        .queue_mail(&out, common::START)
        .await
        .unwrap()
        .unwrap();
    store
        .mail
        .mail_not_sent(id, "550 no such user", None, common::START)
        .await
        .unwrap();
    let a = w.get("/games/alpha/console/mail", Some(&gm)).await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(
        a.body.contains("script&#62;x") && !a.body.contains("<script>x"),
        "escaped"
    );
    assert!(a.body.contains("550 no such user") && a.body.contains("Send again"));
    let a = w
        .post_form(
            &format!("/games/alpha/console/mail/{id}/retry"),
            Some(&gm),
            &[],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(
        store.mail.outbox("alpha", 5).await.unwrap()[0].state,
        "waiting"
    );
    // Another game's GM cannot send this game's mail again.
    let gm2 = w.session("gm2").await;
    let a = w
        .post_form(
            &format!("/games/beta/console/mail/{id}/retry"),
            Some(&gm2),
            &[],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);

    // Alice has a password of her own: her mail password is hers to make.
    let a = w
        .post_form(
            "/games/alpha/console/mail/password/EN",
            Some(&gm),
            &[],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.body);
    // An account the GM made for the game gets one from the GM, shown once.
    w.post_form(
        "/games/alpha/console/seat",
        Some(&gm),
        &[("empire", "IR"), ("account", "dave"), ("new", "1")],
        true,
    )
    .await;
    let a = w
        .post_form(
            "/games/alpha/console/mail/password/IR",
            Some(&gm),
            &[],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let i = a.body.find("shown only now: ").unwrap() + 16;
    let p: String = a.body[i..].chars().take(14).collect();
    let dave = store
        .accounts
        .account_by_name("dave")
        .await
        .unwrap()
        .unwrap()
        .id;
    assert!(empires_mail::password::verify(
        &p,
        &store.mail.mail_password_hash(dave).await.unwrap().unwrap()
    ));
    let audit = store.accounts.audit_entries("alpha").await.unwrap();
    assert!(
        audit
            .iter()
            .any(|(_, _, action, d)| action == "new mail password" && !d.contains(&p))
    );
}

/// A new address counts for nothing until the link mailed to it is opened: no report goes
/// there and no sheet is taken from it; no two accounts hold one address; an address set
/// by the host's operator is taken on their word.
#[tokio::test]
async fn a_new_address_is_proved_before_it_is_used() {
    let w = world().await;
    let store = &w.host.store;
    let alice = w.session("alice").await;
    let id = store
        .accounts
        .account_by_name("alice")
        .await
        .unwrap()
        .unwrap()
        .id;
    let a = w
        .post_form(
            "/account/mail",
            Some(&alice),
            &[("email", "alice@example.org"), ("reports", "on")],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert!(a.body.contains("A link is on its way"), "{}", a.body);
    assert!(!store.accounts.account(id).await.unwrap().email_verified);
    assert!(
        store
            .mail
            .accounts_by_email("alice@example.org")
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .mail
            .report_recipients("alpha", true)
            .await
            .unwrap()
            .is_empty()
    );
    // The link is in the outbox, to the new address.
    let due = store.mail.due_mail(i64::MAX, 50).await.unwrap();
    let mail = due
        .iter()
        .find(|m| m.recipient == "alice@example.org")
        .expect("a link mailed to the new address");
    let text = String::from_utf8_lossy(&mail.message).replace("=\r\n", "");
    let at = text.find("/account/mail/verify/").expect("the link");
    let link: String = text[at..at + 21 + 64].to_string();
    // Bob cannot claim the address meanwhile.
    let bob = w.session("bob").await;
    let a = w
        .post_form(
            "/account/mail",
            Some(&bob),
            &[("email", "Alice@Example.org")],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.body);
    let opened = w.get(&link, None).await;
    assert_eq!(opened.status, StatusCode::OK, "{}", opened.body);
    assert!(store.accounts.account(id).await.unwrap().email_verified);
    assert_eq!(
        store
            .mail
            .accounts_by_email("alice@example.org")
            .await
            .unwrap(),
        vec![id]
    );
    assert_eq!(
        store
            .mail
            .report_recipients("alpha", true)
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        w.get(&link, None).await.status,
        StatusCode::NOT_FOUND,
        "once"
    );
    // Saving the same address again keeps it proved; a new one waits again.
    w.post_form(
        "/account/mail",
        Some(&alice),
        &[("email", "ALICE@example.org"), ("reports", "on")],
        true,
    )
    .await;
    assert!(store.accounts.account(id).await.unwrap().email_verified);
    w.post_form(
        "/account/mail",
        Some(&alice),
        &[("email", "new@example.org")],
        true,
    )
    .await;
    assert!(!store.accounts.account(id).await.unwrap().email_verified);
    // The operator's word (`empires mail account --email`) needs no link.
    store
        .mail
        .set_mail_settings(id, Some("op@example.org"), false)
        .await
        .unwrap();
    assert!(store.accounts.account(id).await.unwrap().email_verified);
}

/// A player whose address is proved is mailed the report of the turn now current at once
/// when the mail door is open: a new player's first mail is the turn-0 report with its
/// blank sheet, not silence until turn 1 is played.
#[tokio::test]
async fn a_proved_address_is_mailed_the_report_of_the_turn_now_current() {
    let w = common::world_with(empires_web::WebConfig {
        mail_address: Some("Empires <empires@localhost>".into()),
        ..empires_web::WebConfig::default()
    })
    .await;
    let store = &w.host.store;
    // Turn 0 was mailed before Alice had an address: to no one.
    store.mail.turn_mailed("alpha", 0, 1).await.unwrap();
    let alice = w.session("alice").await;
    w.post_form(
        "/account/mail",
        Some(&alice),
        &[("email", "alice@example.org"), ("reports", "on")],
        true,
    )
    .await;
    let reports = |due: &[empires_host::store::Queued]| {
        due.iter()
            .filter(|m| {
                m.recipient == "alice@example.org"
                    && m.subject.contains(": report of turn 0, alpha")
            })
            .count()
    };
    let due = store.mail.due_mail(i64::MAX, 50).await.unwrap();
    assert_eq!(reports(&due), 0, "nothing goes to an address not proved");
    let mail = due
        .iter()
        .find(|m| m.recipient == "alice@example.org")
        .expect("the link");
    let text = String::from_utf8_lossy(&mail.message).replace("=\r\n", "");
    let at = text.find("/account/mail/verify/").expect("the link");
    let link: String = text[at..at + 21 + 64].to_string();
    let opened = w.get(&link, None).await;
    assert!(
        opened
            .body
            .contains("Your latest report is on its way there."),
        "{}",
        opened.body
    );
    let due = store.mail.due_mail(i64::MAX, 50).await.unwrap();
    assert_eq!(reports(&due), 1, "the turn-0 report, once");
    let report = due
        .iter()
        .find(|m| m.subject.contains(": report of turn 0, alpha"))
        .unwrap();
    let raw = String::from_utf8_lossy(&report.message);
    assert!(raw.contains("alpha-EN-turn1.txt"), "with the blank sheet");
    // Given a seat in the same game later, or proving the address again, sends no second copy.
    assert_eq!(
        w.host
            .mail_current_report("alpha", report.account.unwrap())
            .await
            .unwrap(),
        0
    );
}
