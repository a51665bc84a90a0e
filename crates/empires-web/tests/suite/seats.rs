//! Giving a seat from the console as a GM types it: a slip makes no account, an empty box
//! frees the seat, a seat just given reads as its new player's, and a mail address invites
//! the player by mail, whose link sets their password and confirms their address.

use crate::common::{self, World, world};
use crate::play::csrf_of;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use empires_web::WebConfig;

async fn give(
    w: &World,
    gm: &common::Session,
    empire: &str,
    who: &str,
    new: bool,
) -> common::Answer {
    let mut fields = vec![("empire", empire), ("account", who)];
    if new {
        fields.push(("new", "1"));
    }
    w.post_form("/games/alpha/console/seat", Some(gm), &fields, true)
        .await
}

#[tokio::test]
async fn a_mistyped_name_makes_no_account_and_an_empty_box_frees_the_seat() {
    let w = world().await;
    let gm = w.session("gm1").await;
    let typo = give(&w, &gm, "IR", "dorra", false).await;
    assert_eq!(typo.status, StatusCode::BAD_REQUEST, "{}", typo.body);
    let alert = typo.body.split("id=\"console-error\">").nth(1).unwrap();
    assert!(alert.starts_with("No account is named"), "{alert}");
    assert!(alert.contains("dorra"), "{alert}");
    assert!(
        w.host
            .store
            .accounts
            .account_by_name("dorra")
            .await
            .unwrap()
            .is_none()
    );
    // Meant: the account is made, and the console says who takes the seat over.
    let made = give(&w, &gm, "IR", "dora", true).await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let console = w.get("/games/alpha/console", Some(&gm)).await.body;
    let row = console
        .split("<td data-label=\"Seat\">IR</td>")
        .nth(1)
        .unwrap();
    let row = row.split("</tr>").next().unwrap();
    assert!(row.contains("dora"), "{row}");
    assert!(row.contains("new player from turn 1"), "{row}");
    assert!(!row.contains(">dummy"), "{row}");
    // An empty box frees it, and says so.
    let freed = give(&w, &gm, "IR", "", false).await;
    assert_eq!(freed.location(), "/games/alpha/console?notice=freed");
    let console = w.get(freed.location(), Some(&gm)).await.body;
    assert!(console.contains("The seat is now free"), "{console}");
}

/// The host with its mail door open and a public address.
async fn mailing_world() -> World {
    common::world_with(WebConfig {
        mail_address: Some("Empires <empires@localhost>".into()),
        public_url: Some("https://empires.example.org".into()),
        ..WebConfig::default()
    })
    .await
}

#[tokio::test]
async fn a_player_invited_by_mail_sets_a_password_by_the_mailed_link_and_is_mailed_the_report() {
    let w = mailing_world().await;
    let store = &w.host.store;
    // Turn 0 was mailed before the seat had a player.
    store.mail.turn_mailed("alpha", 0, 1).await.unwrap();
    let gm = w.session("gm1").await;
    let sent = give(&w, &gm, "IR", "Dora.Smith@example.org", false).await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.body);
    assert!(
        sent.location().contains("notice=mailed"),
        "{}",
        sent.location()
    );
    let account = store
        .accounts
        .account_by_name("Dora.Smith")
        .await
        .unwrap()
        .expect("an account named from the address");
    assert!(!account.email_verified, "not proved yet");
    let due = store.mail.due_mail(i64::MAX, 50).await.unwrap();
    let invitation = due
        .iter()
        .find(|m| {
            m.recipient == "Dora.Smith@example.org" && m.subject.starts_with("Invited to play")
        })
        .expect("the invitation mailed");
    let text = String::from_utf8_lossy(&invitation.message).replace("=\r\n", "");
    let at = text
        .find("https://empires.example.org/invite/")
        .expect("a whole link");
    let link = text[at + "https://empires.example.org".len()..][..8 + 64].to_string();
    assert!(text.contains("Your account is \"Dora.Smith\""), "{text}");
    // The GM's own invitation link is mailed to her address too, and shown.
    let again = w
        .post_form(
            "/games/alpha/console/link",
            Some(&gm),
            &[("empire", "IR"), ("purpose", "invite")],
            true,
        )
        .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert!(
        again
            .body
            .contains("It was mailed to Dora.Smith@example.org too."),
        "{}",
        again.body
    );
    let mailed = store
        .mail
        .due_mail(i64::MAX, 50)
        .await
        .unwrap()
        .into_iter()
        .filter(|m| m.recipient == "Dora.Smith@example.org")
        .count();
    assert_eq!(mailed, 2, "the first invitation and the GM's link");
    // Dora opens it and chooses her password: her address is proved by it, and the
    // report of the turn now waiting comes to it.
    let form = w.get(&link, None).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.body);
    let cookie = form.headers["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let body = serde_urlencoded::to_string([
        ("csrf", csrf_of(&form.body).as_str()),
        ("password", "doras-password"),
        ("again", "doras-password"),
    ])
    .unwrap();
    let used = w
        .send(
            Request::builder()
                .method(Method::POST)
                .uri(&link)
                .header("cookie", &cookie)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(Body::from(body))
                .unwrap(),
        )
        .await;
    assert_eq!(used.status, StatusCode::SEE_OTHER, "{}", used.body);
    assert!(
        store
            .accounts
            .account(account.id)
            .await
            .unwrap()
            .email_verified
    );
    let due = store.mail.due_mail(i64::MAX, 50).await.unwrap();
    assert!(
        due.iter().any(|m| m.recipient == "Dora.Smith@example.org"
            && m.subject.contains(": report of turn 0, alpha")),
        "the turn-0 report mailed"
    );
    // An address whose account exists is that account's invitation, told by mail.
    store
        .mail
        .set_mail_settings(
            store
                .accounts
                .account_by_name("carol")
                .await
                .unwrap()
                .unwrap()
                .id,
            Some("carol@example.org"),
            false,
        )
        .await
        .unwrap();
    let invited = give(&w, &gm, "SC", "carol@example.org", false).await;
    assert!(
        invited.location().contains("notice=invited"),
        "{}",
        invited.location()
    );
    let due = store.mail.due_mail(i64::MAX, 50).await.unwrap();
    assert!(due.iter().any(|m| m.recipient == "carol@example.org"
        && m.subject.starts_with("Invited to play")));
}

#[tokio::test]
async fn a_host_that_sends_no_mail_says_so_rather_than_inviting_by_mail() {
    let w = world().await;
    let gm = w.session("gm1").await;
    let sent = give(&w, &gm, "IR", "dora@example.org", false).await;
    assert_eq!(sent.status, StatusCode::BAD_REQUEST, "{}", sent.body);
    assert!(
        sent.body.contains("The host mails no invitations"),
        "{}",
        sent.body
    );
    assert!(
        w.host
            .store
            .accounts
            .account_by_name("dora")
            .await
            .unwrap()
            .is_none()
    );
}

/// A GM's word to one player: in that player's account log, mailed when it can be, never
/// in anyone else's view, and the audit log says it was sent but not what it said.
#[tokio::test]
async fn the_gm_sends_a_message_to_one_player_alone() {
    let w = mailing_world().await;
    let gm = w.session("gm1").await;
    let store = &w.host.store;
    let alice_id = store
        .accounts
        .account_by_name("alice")
        .await
        .unwrap()
        .unwrap()
        .id;
    store
        .mail
        .set_mail_settings(alice_id, Some("alice@example.org"), false)
        .await
        .unwrap();
    let sent = w
        .post_form(
            "/games/alpha/console/note",
            Some(&gm),
            &[
                ("empire", "EN"),
                ("text", "Your alliance with Scotland is noticed."),
            ],
            true,
        )
        .await;
    assert_eq!(sent.status, StatusCode::SEE_OTHER, "{}", sent.body);
    assert!(
        sent.location().contains("notice=note-mailed"),
        "{}",
        sent.location()
    );
    let due = store.mail.due_mail(i64::MAX, 50).await.unwrap();
    let mail = due
        .iter()
        .find(|m| m.recipient == "alice@example.org" && m.subject.starts_with("From your GM"))
        .expect("mailed to Alice");
    assert!(String::from_utf8_lossy(&mail.message).contains("Scotland is noticed"));
    assert!(!due.iter().any(|m| m.recipient != "alice@example.org"
        && String::from_utf8_lossy(&m.message).contains("Scotland is noticed")));
    let alice = w.session("alice").await;
    assert!(
        w.get("/account", Some(&alice))
            .await
            .body
            .contains("Scotland is noticed")
    );
    let bob = w.session("bob").await;
    assert!(
        !w.get("/account", Some(&bob))
            .await
            .body
            .contains("Scotland is noticed")
    );
    let log = store.accounts.audit_entries("alpha").await.unwrap();
    let line = log
        .iter()
        .find(|(_, _, a, _)| a == "sent a message to one player")
        .unwrap();
    assert!(
        line.3.contains("alice (EN)") && !line.3.contains("Scotland"),
        "{line:?}"
    );
    // Only the game's GM sends one, and only to a seat someone holds.
    let refused = w
        .post_form(
            "/games/alpha/console/note",
            Some(&bob),
            &[("empire", "EN"), ("text", "hi")],
            true,
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    let nobody = w
        .post_form(
            "/games/alpha/console/note",
            Some(&gm),
            &[("empire", "IR"), ("text", "hi")],
            true,
        )
        .await;
    assert_eq!(nobody.status, StatusCode::BAD_REQUEST, "{}", nobody.body);
}
