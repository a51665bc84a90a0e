//! A GM reaches only the accounts it made for its own games. The path a GM of one game
//! once had to another GM's player (give the player's account a seat in my game, make a
//! reset link for it, use it, and be that player everywhere) is refused at every step, on
//! SQLite and on PostgreSQL, and what the GM tried is written in its own game's audit log
//! and in the account's log, never in the other GM's game.

use crate::common::{self, Session, World, world};
use crate::play::log_in_form;
use axum::http::{Method, StatusCode};

async fn seat(w: &World, gm: &Session, game: &str, empire: &str, name: &str) -> common::Answer {
    w.post_form(
        &format!("/games/{game}/console/seat"),
        Some(gm),
        &[("empire", empire), ("account", name), ("new", "1")],
        true,
    )
    .await
}

async fn link(w: &World, gm: &Session, game: &str, empire: &str, purpose: &str) -> common::Answer {
    w.post_form(
        &format!("/games/{game}/console/link"),
        Some(gm),
        &[("empire", empire), ("purpose", purpose)],
        true,
    )
    .await
}

async fn id_of(w: &World, name: &str) -> i64 {
    w.host
        .store
        .accounts
        .account_by_name(name)
        .await
        .unwrap()
        .unwrap()
        .id
}

/// gm1 runs alpha; carol plays EN in gm2's beta, with her own password and an API token.
async fn takeover_is_refused(w: &World) {
    let gm1 = w.session("gm1").await;
    let token = w.token("carol").await;
    // Step 1: giving carol a seat in alpha only invites her.
    let a = seat(w, &gm1, "alpha", "SC", "carol").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    let carol = id_of(w, "carol").await;
    assert_eq!(
        w.host.store.accounts.seat_of("alpha", carol).await.unwrap(),
        None
    );
    let bob = id_of(w, "bob").await;
    assert_eq!(
        w.host
            .store
            .accounts
            .seat_of("alpha", bob)
            .await
            .unwrap()
            .map(|s| s.to_string()),
        Some("SC".to_string()),
        "the seat stays with bob until carol accepts"
    );
    // Step 2: no link, no mail password, for a seat whose player has their own password.
    for purpose in ["reset", "invite"] {
        let a = link(w, &gm1, "alpha", "SC", purpose).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{purpose}: {}", a.body);
        assert!(!a.body.contains("/reset/") && !a.body.contains("/invite/"));
    }
    let a = w
        .post_form(
            "/games/alpha/console/mail/password/SC",
            Some(&gm1),
            &[],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.body);
    // Even once carol accepts the seat, her account stays hers.
    let carol_s = w.session("carol").await;
    let id = w.host.store.accounts.invitations_for(carol).await.unwrap()[0].id;
    let a = w
        .post_form(
            &format!("/account/invitations/{id}/accept"),
            Some(&carol_s),
            &[],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert!(
        w.host
            .store
            .accounts
            .seat_of("alpha", carol)
            .await
            .unwrap()
            .is_some()
    );
    for purpose in ["reset", "invite"] {
        let a = link(w, &gm1, "alpha", "SC", purpose).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{purpose}: {}", a.body);
    }
    let a = w
        .post_form(
            "/games/alpha/console/mail/password/SC",
            Some(&gm1),
            &[],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.body);
    // Carol's password and token still work; gm1 reads nothing of beta.
    assert_eq!(
        log_in_form(w, "carol", "carol-password").await.status,
        StatusCode::SEE_OTHER
    );
    let games = w.api(Method::GET, "/api/games", Some(&token), None).await;
    assert_eq!(games.status, StatusCode::OK, "{}", games.body);
    assert_eq!(
        w.get("/games/beta/turns/0/reports/EN.html", Some(&gm1))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    // What gm1 did is in alpha's audit log and carol's own log, and nowhere in beta's.
    let alpha = w.host.store.accounts.audit_entries("alpha").await.unwrap();
    assert!(
        alpha
            .iter()
            .any(|(_, who, a, d)| who.as_deref() == Some("gm1")
                && a == "invited an account to a seat"
                && d == "carol to SC"),
        "{alpha:?}"
    );
    let beta = w.host.store.accounts.audit_entries("beta").await.unwrap();
    assert!(
        !beta
            .iter()
            .any(|(_, who, _, _)| who.as_deref() == Some("gm1")),
        "{beta:?}"
    );
    let log = w.host.store.accounts.account_log(carol, 50).await.unwrap();
    assert!(
        log.iter().any(|l| l.actor.as_deref() == Some("gm1")
            && l.game.as_deref() == Some("alpha")
            && l.action == "invited to a seat"),
        "{log:?}"
    );
    let page = w.get("/account", Some(&carol_s)).await;
    assert!(page.body.contains("invited to a seat"), "{}", page.body);
}

#[tokio::test]
async fn a_gm_cannot_take_over_another_gms_player_on_sqlite() {
    takeover_is_refused(&world().await).await;
}

#[tokio::test]
async fn a_gm_cannot_take_over_another_gms_player_on_postgres() {
    let Some(url) = empires_testkit::fresh_postgres("web_takeover").await else {
        return;
    };
    takeover_is_refused(&common::build(url.clone(), None).await).await;
    empires_testkit::drop_postgres(&url).await;
}

/// A new game's form seats new names and invites existing accounts.
#[tokio::test]
async fn a_new_game_invites_the_accounts_that_exist() {
    let w = world().await;
    let gm1 = w.session("gm1").await;
    let a = w
        .post_form(
            "/games/new",
            Some(&gm1),
            &[
                ("name", "gamma"),
                ("map", "tutorial"),
                ("seed", "2"),
                ("players", "EN=carol\nSC=erin"),
            ],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    let carol = id_of(&w, "carol").await;
    let erin = id_of(&w, "erin").await;
    assert_eq!(
        w.host.store.accounts.seat_of("gamma", carol).await.unwrap(),
        None
    );
    assert_eq!(
        w.host
            .store
            .accounts
            .invitations_for(carol)
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(
        w.host
            .store
            .accounts
            .seat_of("gamma", erin)
            .await
            .unwrap()
            .is_some()
    );
    let gm1_id = id_of(&w, "gm1").await;
    assert!(
        w.host
            .store
            .accounts
            .manages(gm1_id, erin, "gamma")
            .await
            .unwrap()
    );
    assert!(
        !w.host
            .store
            .accounts
            .manages(gm1_id, carol, "gamma")
            .await
            .unwrap()
    );
    let a = link(&w, &gm1, "gamma", "SC", "invite").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert!(a.body.contains("/invite/"));
    let a = link(&w, &gm1, "gamma", "EN", "reset").await;
    assert!(
        a.status == StatusCode::BAD_REQUEST,
        "no one holds EN yet: {}",
        a.body
    );
}

/// A changed password shuts out every session and every API token made with the old one.
#[tokio::test]
async fn a_new_password_revokes_the_api_tokens() {
    let w = world().await;
    let token = w.token("alice").await;
    let alice = w.session("alice").await;
    let games = w.api(Method::GET, "/api/games", Some(&token), None).await;
    assert_eq!(games.status, StatusCode::OK);
    let a = w
        .post_form(
            "/account/password",
            Some(&alice),
            &[
                ("current", "alice-password"),
                ("password", "a-new-password"),
                ("again", "a-new-password"),
            ],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    let games = w.api(Method::GET, "/api/games", Some(&token), None).await;
    assert_eq!(games.status, StatusCode::UNAUTHORIZED, "{}", games.body);
    assert_eq!(
        w.get("/games", Some(&alice)).await.status,
        StatusCode::SEE_OTHER,
        "the old session is over"
    );
}

/// Only the host administrator reaches the accounts pages; it makes GMs and reset links
/// for anyone, a GM included, and each is written in the account's log.
#[tokio::test]
async fn the_administrator_makes_gms_and_recovers_accounts() {
    let w = world().await;
    let gm1 = w.session("gm1").await;
    assert_eq!(
        w.get("/admin", Some(&gm1)).await.status,
        StatusCode::NOT_FOUND
    );
    let a = w
        .post_form("/admin/gm", Some(&gm1), &[("name", "gm3")], true)
        .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    let gm1_id = id_of(&w, "gm1").await;
    w.host
        .store
        .accounts
        .set_role(gm1_id, empires_host::store::Role::Gm, true)
        .await
        .unwrap();
    let gm1 = w.session("gm1").await;
    let page = w.get("/admin", Some(&gm1)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    for name in ["alice", "carol", "gm2"] {
        assert!(page.body.contains(name), "{name}: {}", page.body);
    }
    let a = w
        .post_form("/admin/gm", Some(&gm1), &[("name", "gm3")], true)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let at = a.body.find("with the password ").unwrap() + 18;
    let password: String = a.body[at..].chars().take(20).collect();
    assert!(!password.contains(','), "{}", &a.body[at - 40..at + 40]);
    assert_eq!(
        log_in_form(&w, "gm3", &password).await.status,
        StatusCode::SEE_OTHER
    );
    let gm2 = id_of(&w, "gm2").await;
    let a = w
        .post_form(
            &format!("/admin/accounts/{gm2}/reset"),
            Some(&gm1),
            &[],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert!(a.body.contains("/reset/"));
    let log = w.get(&format!("/admin/accounts/{gm2}"), Some(&gm1)).await;
    assert!(
        log.body.contains("reset link, by the host administrator"),
        "{}",
        log.body
    );
}

/// The first GM of a host from before there were administrators becomes its
/// administrator when the host starts.
#[tokio::test]
async fn the_first_gm_becomes_the_administrator() {
    let w = world().await;
    let gm1 = id_of(&w, "gm1").await;
    assert!(!w.host.store.accounts.account(gm1).await.unwrap().admin);
    let options = empires_web::serve::ServeOptions {
        listen: "127.0.0.1:0".parse().unwrap(),
        db: w.url.clone(),
        demo: None,
        demo_autoplay: false,
        config: Default::default(),
        mail: None,
    };
    let started = empires_web::serve::prepare(&options, empires_web::Clock::manual(common::START))
        .await
        .unwrap();
    assert!(
        started
            .lines
            .iter()
            .any(|l| l.contains("\"gm1\" is the host's administrator")),
        "{:?}",
        started.lines
    );
    assert!(w.host.store.accounts.account(gm1).await.unwrap().admin);
    assert!(
        !w.host
            .store
            .accounts
            .account(id_of(&w, "gm2").await)
            .await
            .unwrap()
            .admin
    );
}

/// A reset link by mail goes only to a verified address, and at most three an hour.
#[tokio::test]
async fn a_forgotten_password_is_mailed_to_its_owner_alone() {
    let w = world().await;
    let alice = id_of(&w, "alice").await;
    w.host
        .store
        .mail
        .set_mail_settings(alice, Some("alice@example.org"), false)
        .await
        .unwrap();
    w.host
        .store
        .accounts
        .set_email_verified(alice, true)
        .await
        .unwrap();
    let ask = |name: &'static str| {
        let w = &w;
        async move {
            let form = w.get("/forgot", None).await;
            let cookie = form.headers.get("set-cookie").unwrap().to_str().unwrap();
            let cookie = cookie.split(';').next().unwrap().to_string();
            let body = serde_urlencoded::to_string([
                ("csrf", crate::play::csrf_of(&form.body)),
                ("name", name.to_string()),
            ])
            .unwrap();
            w.send(
                axum::http::Request::builder()
                    .method(Method::POST)
                    .uri("/forgot")
                    .header("cookie", cookie)
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body(axum::body::Body::from(body))
                    .unwrap(),
            )
            .await
        }
    };
    for _ in 0..5 {
        let a = ask("alice").await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        assert!(a.body.contains("on its way"));
    }
    let a = ask("nobody-at-all").await;
    assert!(
        a.body.contains("on its way"),
        "the same answer for an unknown name"
    );
    let sent = w
        .host
        .store
        .accounts
        .mail_count_since(alice, "reset", 0)
        .await
        .unwrap();
    assert_eq!(sent, 3, "three mails an hour at most");
}

/// The demo says how its turn is played: a few seconds after the player's orders, or, with
/// `--no-autoplay`, when the GM plays it.
#[tokio::test]
async fn the_demo_says_who_plays_its_turn() {
    for autoplay in [true, false] {
        let w = world().await;
        let ruleset = empires_host::ruleset::by_id("empires").unwrap();
        let mut players = std::collections::BTreeMap::new();
        players.insert(
            "EN".to_string(),
            empires_web::serve::DEMO_PLAYER.to_string(),
        );
        let started = ruleset
            .start(&empires_host::ruleset::Setup {
                name: empires_web::serve::DEMO_GAME.to_string(),
                seed: 1,
                standard_map: Some("tutorial".to_string()),
                players,
                ..Default::default()
            })
            .unwrap();
        let options = empires_web::serve::ServeOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            db: w.url.clone(),
            demo: Some(empires_web::serve::Demo {
                ruleset,
                started,
                seat: "EN".to_string(),
                seat_name: "England".to_string(),
            }),
            demo_autoplay: autoplay,
            config: Default::default(),
            mail: None,
        };
        let started =
            empires_web::serve::prepare(&options, empires_web::Clock::manual(common::START))
                .await
                .unwrap();
        let line = started
            .lines
            .iter()
            .find(|l| l.starts_with("Demo:"))
            .unwrap();
        if autoplay {
            assert!(
                line.contains("a few seconds after England's orders"),
                "{line}"
            );
        } else {
            assert!(line.contains("when the GM plays it"), "{line}");
            assert!(!line.contains("a few seconds"), "{line}");
        }
    }
}
