//! Every route of the site and the API, tried by someone who may not use it: no session,
//! a player of another game, the GM of another game, and the other player of the same game
//! on what is one empire's alone. All are refused; the rightful account is let in.

use crate::common;

use axum::http::{Method, StatusCode};
use common::{Session, World, world};

/// The routes of the game "alpha" that only its members may use: (method, path, fields).
/// A route of `pages::router` or `api::router` that touches a game belongs here.
const GAME_PAGES: &[(&str, &str)] = &[
    ("GET", "/games/alpha"),
    ("GET", "/games/alpha/map.js"),
    ("GET", "/games/alpha/orders"),
    ("POST", "/games/alpha/orders"),
    ("POST", "/games/alpha/check"),
    ("GET", "/games/alpha/turns/0/reports/EN.html"),
    ("GET", "/games/alpha/turns/0/reports/EN.json"),
    ("GET", "/games/alpha/turns/0/reports/EN.txt"),
    ("GET", "/games/alpha/turns/0/reports/public.html"),
    ("GET", "/games/alpha/console"),
    ("POST", "/games/alpha/console/play"),
    ("POST", "/games/alpha/console/undo"),
    ("POST", "/games/alpha/console/end"),
    ("POST", "/games/alpha/console/note"),
    ("POST", "/games/alpha/console/message"),
    ("POST", "/games/alpha/console/seat"),
    ("POST", "/games/alpha/console/link"),
    ("GET", "/games/alpha/console/sheets/EN"),
    ("GET", "/games/alpha/export"),
    ("GET", "/games/alpha/console/mail"),
    ("POST", "/games/alpha/console/mail/1/retry"),
    ("POST", "/games/alpha/console/mail/password/EN"),
    ("POST", "/games/alpha/console/schedule"),
    ("POST", "/games/alpha/console/pause"),
    ("POST", "/games/alpha/console/resume"),
    ("POST", "/games/alpha/console/extend"),
    ("POST", "/games/alpha/console/ledger/paid"),
    ("POST", "/games/alpha/console/ledger/buy"),
];

/// The routes of the site that need a session but no game.
const ACCOUNT_PAGES: &[(&str, &str)] = &[
    ("GET", "/games"),
    ("GET", "/games/new"),
    ("POST", "/games/new"),
    ("GET", "/account"),
    ("POST", "/account/password"),
    ("POST", "/account/feeds"),
    ("POST", "/account/feeds/stop"),
    ("POST", "/account/tokens"),
    ("POST", "/account/tokens/1/revoke"),
    ("GET", "/account/mail"),
    ("POST", "/account/mail"),
    ("POST", "/account/mail-password"),
    ("POST", "/logout"),
];

/// The API's routes of the game "alpha".
const GAME_API: &[(&str, &str)] = &[
    ("GET", "/api/games/alpha/reports/0"),
    ("POST", "/api/games/alpha/check"),
    ("POST", "/api/games/alpha/orders"),
];

const SHEET: &str = "GAME alpha\nTURN 1\nEMPIRE EN\n\n1. TAX\n";

fn fields(path: &str) -> Vec<(&'static str, &'static str)> {
    match path {
        p if p.ends_with("/orders") => vec![("text", SHEET), ("for_turn", "1")],
        p if p.ends_with("/message") => vec![("text", "hello")],
        p if p.ends_with("/seat") => vec![("empire", "EN"), ("account", "carol")],
        p if p.ends_with("/link") => vec![("empire", "EN"), ("purpose", "reset")],
        p if p.ends_with("/play") => vec![("turn", "1")],
        p if p.ends_with("/schedule") => vec![("spec", "every 48h"), ("remind", "2h")],
        p if p.ends_with("/extend") => vec![("by", "24h")],
        p if p.ends_with("/ledger/paid") => vec![("paid", "on")],
        p if p.ends_with("/ledger/buy") => vec![("empire", "EN"), ("turns", "10")],
        _ => vec![],
    }
}

async fn try_page(w: &World, method: &str, path: &str, s: Option<&Session>) -> common::Answer {
    if path.ends_with("/check") {
        return match s {
            Some(s) => w.live_check("alpha", s, SHEET).await,
            None => w.post_form(path, None, &[], false).await,
        };
    }
    match method {
        "GET" => w.get(path, s).await,
        _ => w.post_form(path, s, &fields(path), true).await,
    }
}

fn refused(a: &common::Answer) -> bool {
    matches!(a.status, StatusCode::NOT_FOUND | StatusCode::FORBIDDEN)
}

#[tokio::test]
async fn no_session_is_sent_to_log_in_on_every_page() {
    let w = world().await;
    for (method, path) in GAME_PAGES.iter().chain(ACCOUNT_PAGES) {
        let a = try_page(&w, method, path, None).await;
        assert_eq!(
            a.status,
            StatusCode::SEE_OTHER,
            "{method} {path}: {}",
            a.body
        );
        assert_eq!(a.location(), "/login", "{method} {path}");
    }
    // A session that ended lets no one in either.
    let s = w.session("alice").await;
    w.post_form("/logout", Some(&s), &[], true).await;
    let a = w.get("/games/alpha", Some(&s)).await;
    assert_eq!(a.location(), "/login");
}

#[tokio::test]
async fn a_player_of_another_game_and_its_gm_see_nothing_of_this_one() {
    let w = world().await;
    for who in ["carol", "gm2"] {
        let s = w.session(who).await;
        for (method, path) in GAME_PAGES {
            let a = try_page(&w, method, path, Some(&s)).await;
            assert_eq!(
                a.status,
                StatusCode::NOT_FOUND,
                "{who}: {method} {path}: {}",
                a.body
            );
            assert!(
                !a.body.contains("Alpha") && !a.body.contains("alice"),
                "{who}: {method} {path} leaks"
            );
        }
    }
    // Nothing was changed by those attempts.
    assert!(
        w.host
            .store
            .games
            .pending("alpha")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(w.host.turn("alpha").await.unwrap(), 0);
}

#[tokio::test]
async fn the_other_player_of_the_game_gets_neither_my_files_nor_the_console() {
    let w = world().await;
    let bob = w.session("bob").await;
    for path in [
        "/games/alpha/turns/0/reports/EN.html",
        "/games/alpha/turns/0/reports/EN.json",
        "/games/alpha/turns/0/reports/EN.txt",
        "/games/alpha/turns/0/reports/gm.txt",
        "/games/alpha/console",
        "/games/alpha/console/sheets/EN",
        "/games/alpha/export",
        "/games/alpha/console/mail",
    ] {
        let a = w.get(path, Some(&bob)).await;
        assert!(refused(&a), "bob: GET {path}: {} {}", a.status, a.body);
    }
    for path in [
        "/games/alpha/console/play",
        "/games/alpha/console/undo",
        "/games/alpha/console/end",
        "/games/alpha/console/note",
        "/games/alpha/console/message",
        "/games/alpha/console/seat",
        "/games/alpha/console/link",
        "/games/alpha/console/mail/1/retry",
        "/games/alpha/console/mail/password/EN",
        "/games/alpha/console/schedule",
        "/games/alpha/console/pause",
        "/games/alpha/console/resume",
        "/games/alpha/console/extend",
        "/games/alpha/console/ledger/paid",
        "/games/alpha/console/ledger/buy",
    ] {
        let a = w.post_form(path, Some(&bob), &fields(path), true).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "bob: POST {path}");
    }
    // Bob's own report and the shared pages are his to read.
    assert_eq!(
        w.get("/games/alpha/turns/0/reports/SC.html", Some(&bob))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(
        w.get("/games/alpha/turns/0/reports/public.html", Some(&bob))
            .await
            .status,
        StatusCode::OK
    );
    // A player cannot start games.
    assert_eq!(
        w.get("/games/new", Some(&bob)).await.status,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn the_games_gm_and_its_players_are_let_in() {
    let w = world().await;
    let gm = w.session("gm1").await;
    for path in [
        "/games/alpha/console",
        "/games/alpha/turns/0/reports/EN.html",
        "/games/alpha/turns/0/reports/gm.txt",
        "/games/alpha/export",
        "/games/alpha/map.js",
    ] {
        let a = w.get(path, Some(&gm)).await;
        assert_eq!(a.status, StatusCode::OK, "gm1: GET {path}: {}", a.body);
    }
    let alice = w.session("alice").await;
    for path in [
        "/games/alpha",
        "/games/alpha/orders",
        "/games/alpha/turns/0/reports/EN.html",
        "/games/alpha/map.js",
    ] {
        let a = w.get(path, Some(&alice)).await;
        assert_eq!(a.status, StatusCode::OK, "alice: GET {path}: {}", a.body);
    }
}

#[tokio::test]
async fn the_api_refuses_no_token_a_wrong_token_and_other_games() {
    let w = world().await;
    for (m, path) in GAME_API
        .iter()
        .chain(&[("GET", "/api/games"), ("GET", "/api/tokens")])
    {
        let method = Method::from_bytes(m.as_bytes()).unwrap();
        let body = (*m == "POST").then(|| serde_json::json!({ "text": SHEET }));
        let a = w.api(method.clone(), path, None, body.clone()).await;
        assert_eq!(
            a.status,
            StatusCode::UNAUTHORIZED,
            "{m} {path} without a token"
        );
        let a = w.api(method, path, Some("not-a-token"), body).await;
        assert_eq!(
            a.status,
            StatusCode::UNAUTHORIZED,
            "{m} {path} with a wrong token"
        );
    }
    for who in ["carol", "gm2"] {
        let t = w.token(who).await;
        for (m, path) in GAME_API {
            let method = Method::from_bytes(m.as_bytes()).unwrap();
            let body = (*m == "POST").then(|| serde_json::json!({ "text": SHEET }));
            let a = w.api(method, path, Some(&t), body).await;
            assert_eq!(
                a.status,
                StatusCode::NOT_FOUND,
                "{who}: {m} {path}: {}",
                a.body
            );
        }
    }
    // Bob's token reads his own report only; the GM's reads any, when named.
    let bob = w.token("bob").await;
    let a = w
        .api(Method::GET, "/api/games/alpha/reports/0", Some(&bob), None)
        .await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(a.body.contains("\"SC\""), "bob's report is SC's");
    let a = w
        .api(
            Method::GET,
            "/api/games/alpha/reports/0?empire=EN",
            Some(&bob),
            None,
        )
        .await;
    assert!(
        !a.body.contains("\"empire\":{\"code\":\"EN\""),
        "bob cannot pick EN's report"
    );
    let gm = w.token("gm1").await;
    let a = w
        .api(
            Method::GET,
            "/api/games/alpha/reports/0?empire=EN",
            Some(&gm),
            None,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
}

/// Every answer carries a Content-Security-Policy that runs no script but the host's own
/// files and the report pages' own inline scripts, by hash: an inline script smuggled into
/// a page (a player's text that escaped its escaping) would not run.
#[tokio::test]
async fn every_page_carries_a_policy_that_runs_only_the_hosts_scripts() {
    let w = world().await;
    let gm = w.session("gm1").await;
    let alice = w.session("alice").await;
    let mut pages: Vec<(&str, Option<&Session>)> = vec![("/login", None), ("/nowhere", None)];
    pages.extend(
        ACCOUNT_PAGES
            .iter()
            .filter(|(m, _)| *m == "GET")
            .map(|(_, p)| (*p, Some(&gm))),
    );
    pages.extend(
        GAME_PAGES
            .iter()
            .filter(|(m, _)| *m == "GET")
            .map(|(_, p)| (*p, Some(&gm))),
    );
    pages.push(("/games/alpha/orders", Some(&alice)));
    for (path, session) in pages {
        let a = w.get(path, session).await;
        let policy = a
            .headers
            .get("content-security-policy")
            .unwrap_or_else(|| panic!("GET {path}: no policy"))
            .to_str()
            .unwrap()
            .to_string();
        let scripts = policy
            .split(';')
            .map(str::trim)
            .find(|d| d.starts_with("script-src"))
            .unwrap_or_else(|| panic!("GET {path}: {policy}"));
        assert!(
            !scripts.contains("unsafe-inline")
                && !scripts.contains("unsafe-eval")
                && !scripts.contains('*'),
            "GET {path}: {scripts}"
        );
        // A page's title is text alone (a section once slipped into the account page's).
        if let Some(title) = a.body.split("<title>").nth(1) {
            let title = title.split("</title>").next().unwrap_or("");
            assert!(
                !title.contains('<'),
                "GET {path}: the title holds markup: {title}"
            );
        }
        for directive in [
            "default-src 'none'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
        ] {
            assert!(policy.contains(directive), "GET {path}: {policy}");
        }
    }
    // A report page's inline scripts are exactly the ones the policy lets run.
    let page = w
        .get("/games/alpha/turns/0/reports/EN.html", Some(&alice))
        .await;
    let policy = page.headers["content-security-policy"]
        .to_str()
        .unwrap()
        .to_string();
    let mut inline = 0;
    for chunk in page.body.split("<script>").skip(1) {
        let text = chunk.split("</script>").next().unwrap();
        use base64::Engine as _;
        use sha2::Digest as _;
        let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text));
        assert!(
            policy.contains(&format!("'sha256-{hash}'")),
            "{hash} not in {policy}"
        );
        inline += 1;
    }
    assert!(inline >= 1, "the report page has its inline scripts");
}
