//! Playing through the web door as its people would: log in, write a turnsheet with a
//! mistake, see it at its line, fix it, send it, get a receipt; the GM opens it (recorded),
//! plays the turn; the player reads the new report. And what must be refused: CSRF-less
//! posts, guessed passwords past the limit, spent links, sheets for a turn already played,
//! and any input a browser or a script can send.

use crate::common;

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use common::{World, world};

const GOOD: &str = "GAME alpha\nTURN 1\nEMPIRE EN\n\n1. TAX\n";
const TYPO: &str = "GAME alpha\nTURN 1\nEMPIRE EN\n\n1. TAX\n2. LEVY LOM\n";

/// The CSRF token of a page's forms.
pub fn csrf_of(page: &str) -> String {
    let at = page
        .find("name=\"csrf\" value=\"")
        .expect("a form with a CSRF token")
        + 19;
    page[at..at + 64].to_string()
}

pub async fn log_in_form(w: &World, name: &str, password: &str) -> common::Answer {
    let form = w.get("/login", None).await;
    let cookie = form.headers.get("set-cookie").unwrap().to_str().unwrap();
    let cookie = cookie.split(';').next().unwrap().to_string();
    let body = serde_urlencoded::to_string([
        ("csrf", csrf_of(&form.body)),
        ("name", name.to_string()),
        ("password", password.to_string()),
    ])
    .unwrap();
    w.send(
        Request::builder()
            .method(Method::POST)
            .uri("/login")
            .header("cookie", cookie)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(body))
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn a_player_logs_in_checks_sends_and_reads_the_next_report() {
    let w = world().await;
    let a = log_in_form(&w, "alice", "alice-password").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
    assert_eq!(a.location(), "/games");
    let cookie = a.headers.get("set-cookie").unwrap().to_str().unwrap();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let alice = w.session("alice").await;

    // The editor starts from a blank numbered sheet, checked.
    let editor = w.get("/games/alpha/orders", Some(&alice)).await;
    assert_eq!(editor.status, StatusCode::OK);
    assert!(editor.body.contains("TURN 1\nEMPIRE EN"), "{}", editor.body);

    // A mistake is found at its line, with a did-you-mean.
    let check = w.live_check("alpha", &alice, TYPO).await;
    assert_eq!(check.status, StatusCode::OK, "{}", check.body);
    let json: serde_json::Value = serde_json::from_str(&check.body).unwrap();
    let d = &json["diagnostics"][0];
    assert_eq!(d["line"], 6, "{d}");
    assert!(json["errors"].as_u64().unwrap() >= 1);
    assert!(d["suggestions"].to_string().contains("LON"), "{d}");
    assert!(json["forecast"]["rows"].as_array().is_some());
    assert_eq!(json["forecast"]["columns"][3], "BPs", "{json}");
    // The forecast says why the mistyped action comes to nothing, in its Result cell.
    let row2 = &json["forecast"]["rows"][1];
    assert_eq!(row2[0], "2", "{json}");
    let result = row2[2].as_str().unwrap_or_default();
    assert!(
        result.starts_with("FAILS: ") || result.starts_with("IGNORED: "),
        "the Result cell names why: {row2}"
    );
    assert!(result.len() > "IGNORED: ".len(), "{row2}");

    // Sent as it is, the sheet is kept and the receipt says so, with its hash.
    let r = w.send_sheet("alpha", &alice, TYPO, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("It is your first sheet for this turn"));
    // The receipt lists the mistake itself, at its line, not only how many there were.
    assert!(r.body.contains("1 error"), "{}", r.body);
    let listed = r
        .body
        .split("id=\"receipt-diagnostics\"")
        .nth(1)
        .expect("the receipt lists its diagnostics");
    assert!(listed.contains("line 6, column"), "{listed}");
    assert!(listed.contains("LON"), "the did-you-mean: {listed}");
    // Fixed and sent again: the receipt names what it replaces and what changed.
    let fixed = TYPO.replace("LOM", "LON");
    let r2 = w.send_sheet("alpha", &alice, &fixed, 1).await;
    assert!(
        r2.body.contains("It replaces the sheet you sent before"),
        "{}",
        r2.body
    );
    assert!(
        r2.body.contains("- 2. LEVY LOM") && r2.body.contains("+ 2. LEVY LON"),
        "{}",
        r2.body
    );
    // The editor now holds the last sheet sent.
    assert!(
        w.get("/games/alpha/orders", Some(&alice))
            .await
            .body
            .contains("LEVY LON")
    );

    // The GM sees who sent, opens the sheet (recorded), and plays the turn.
    let gm = w.session("gm1").await;
    let console = w.get("/games/alpha/console", Some(&gm)).await;
    assert!(
        console.body.contains("Sheets in: 1 of 4 seats"),
        "{}",
        console.body
    );
    let sheet = w.get("/games/alpha/console/sheets/EN", Some(&gm)).await;
    assert!(sheet.body.contains("LEVY LON"));
    let played = w
        .post_form(
            "/games/alpha/console/play",
            Some(&gm),
            &[("turn", "1")],
            true,
        )
        .await;
    assert_eq!(played.status, StatusCode::SEE_OTHER, "{}", played.body);
    let log = w.host.store.accounts.audit_entries("alpha").await.unwrap();
    // The store records its own work (the game made, the turn kept); the GM's actions are
    // recorded with the GM's name.
    let by_gm: Vec<&str> = log
        .iter()
        .filter(|(_, who, _, _)| who.as_deref() == Some("gm1"))
        .map(|(_, _, a, _)| a.as_str())
        .collect();
    assert_eq!(by_gm, ["opened a turnsheet", "turn"]);
    // Every report the console links to is there.
    let console = w.get("/games/alpha/console", Some(&gm)).await;
    assert!(console.body.contains("Turn credits"));
    for file in ["gm.txt", "public.html"] {
        let link = format!("/games/alpha/turns/1/reports/{file}");
        assert!(console.body.contains(&link), "{}", console.body);
        assert_eq!(
            w.get(&link, Some(&gm)).await.status,
            StatusCode::OK,
            "{link}"
        );
    }
    // The turn is one line, with whose orders it played.
    let turns: Vec<&str> = log
        .iter()
        .filter(|(_, _, a, _)| a == "turn")
        .map(|(_, _, _, d)| d.as_str())
        .collect();
    assert_eq!(turns.len(), 1, "{log:?}");
    assert!(
        turns[0].starts_with("turn 1: orders from EN,"),
        "{}",
        turns[0]
    );
    // A second click on the same button plays nothing more.
    let again = w
        .post_form(
            "/games/alpha/console/play",
            Some(&gm),
            &[("turn", "1")],
            true,
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);

    // Alice reads her new report; Bob's is not hers.
    let page = w.get("/games/alpha", Some(&alice)).await;
    assert!(page.body.contains("Turn 1 has been played"));
    let report = w
        .get("/games/alpha/turns/1/reports/EN.html", Some(&alice))
        .await;
    assert_eq!(report.status, StatusCode::OK);
    // As text and as the API's JSON, the report is whole: the roundup and the actions
    // report every empire shares are in it, not a pointer to a file a web player lacks.
    let text = w
        .get("/games/alpha/turns/1/reports/EN.txt", Some(&alice))
        .await;
    assert_eq!(text.status, StatusCode::OK);
    assert!(!text.body.contains("beside this report"), "{}", text.body);
    assert!(text.body.contains("ROUNDUP"), "{}", text.body);
    let json = w
        .get("/games/alpha/turns/1/reports/EN.json", Some(&alice))
        .await;
    let v: serde_json::Value = serde_json::from_str(&json.body).unwrap();
    assert!(v.get("shared_in").is_none_or(|s| s.is_null()), "{v}");
    assert!(v["roundup"].is_object(), "{}", v["roundup"]);
    assert_eq!(
        w.get("/games/alpha/turns/1/reports/SC.html", Some(&alice))
            .await
            .status,
        StatusCode::NOT_FOUND
    );

    // A sheet written for turn 1, sent after it was played, is refused, not kept for turn 2.
    let late = w.send_sheet("alpha", &alice, GOOD, 1).await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.body);
    assert!(
        w.host
            .store
            .games
            .pending("alpha")
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn posts_without_the_sessions_csrf_token_are_refused() {
    let w = world().await;
    let alice = w.session("alice").await;
    let a = w
        .post_form(
            "/games/alpha/orders",
            Some(&alice),
            &[("text", GOOD)],
            false,
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    let bob = w.session("bob").await;
    let a = w
        .post_form(
            "/games/alpha/orders",
            Some(&alice),
            &[("text", GOOD), ("csrf", &bob.csrf)],
            false,
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "another session's token");
    let r = Request::builder()
        .method(Method::POST)
        .uri("/games/alpha/check")
        .header("cookie", &alice.cookie)
        .body(Body::from(GOOD))
        .unwrap();
    assert_eq!(w.send(r).await.status, StatusCode::FORBIDDEN);
    let gm = w.session("gm1").await;
    let a = w
        .post_form(
            "/games/alpha/console/play",
            Some(&gm),
            &[("turn", "1")],
            false,
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    let a = w.post_form("/logout", Some(&alice), &[], false).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    // A log-in form posted without its doubled token is refused too.
    let body = "name=alice&password=alice-password&csrf=abc";
    let r = Request::builder()
        .method(Method::POST)
        .uri("/login")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .unwrap();
    assert_eq!(w.send(r).await.status, StatusCode::FORBIDDEN);
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
async fn guessing_passwords_is_cut_off_by_the_rate_limit() {
    let w = world().await;
    for _ in 0..empires_web::auth::limit::MAX_FAILURES {
        let a = log_in_form(&w, "alice", "guess").await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED);
        assert!(a.body.contains("wrong account name or password"));
    }
    let a = log_in_form(&w, "alice", "alice-password").await;
    assert_eq!(
        a.status,
        StatusCode::TOO_MANY_REQUESTS,
        "even the right password waits"
    );
    // Unknown names fail the same way as wrong passwords.
    let a = log_in_form(&w, "nobody", "whatever-pw").await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    // The API's log-in shares the limit.
    let a = w
        .api(
            Method::POST,
            "/api/login",
            None,
            Some(serde_json::json!({"name": "alice", "password": "alice-password"})),
        )
        .await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS);
    // After the window, the right password works again.
    w.host.clock.advance(empires_web::auth::limit::WINDOW);
    let a = log_in_form(&w, "alice", "alice-password").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER);
}

#[tokio::test]
async fn player_written_text_comes_back_escaped_everywhere() {
    let w = world().await;
    let xss = "<script>alert('x')</script><img src=x onerror=alert(1)>";
    let alice = w.session("alice").await;
    let sheet = format!("GAME alpha\nTURN 1\nEMPIRE EN\n\n1. TAX {xss}\nMESSAGE {xss}\n");
    let receipt = w
        .post_form(
            "/games/alpha/orders",
            Some(&alice),
            &[("text", &sheet), ("messages", xss), ("for_turn", "1")],
            true,
        )
        .await;
    let editor = w.get("/games/alpha/orders", Some(&alice)).await;
    let gm = w.session("gm1").await;
    w.post_form(
        "/games/alpha/console/message",
        Some(&gm),
        &[("text", xss)],
        true,
    )
    .await;
    let opened = w.get("/games/alpha/console/sheets/EN", Some(&gm)).await;
    let tokens = w
        .post_form("/account/tokens", Some(&alice), &[("label", xss)], true)
        .await;
    let newgame = w
        .post_form(
            "/games/new",
            Some(&gm),
            &[
                ("name", xss),
                ("map", "tutorial"),
                ("seed", "1"),
                ("players", xss),
            ],
            true,
        )
        .await;
    let seat = w
        .post_form(
            "/games/alpha/console/seat",
            Some(&gm),
            &[("empire", "IR"), ("account", xss), ("new", "1")],
            true,
        )
        .await;
    w.post_form(
        "/games/alpha/console/play",
        Some(&gm),
        &[("turn", "1")],
        true,
    )
    .await;
    let report = w
        .get("/games/alpha/turns/1/reports/EN.html", Some(&alice))
        .await;
    let public = w
        .get("/games/alpha/turns/1/reports/public.html", Some(&alice))
        .await;
    let missing = w
        .get(
            &format!("/games/{}", "%3Cscript%3Ealert(1)%3C%2Fscript%3E"),
            Some(&alice),
        )
        .await;
    for (name, a) in [
        ("receipt", &receipt),
        ("editor", &editor),
        ("opened sheet", &opened),
        ("tokens", &tokens),
        ("new game", &newgame),
        ("seat", &seat),
        ("report", &report),
        ("public page", &public),
        ("not found", &missing),
    ] {
        assert!(
            !a.body.contains("<script>alert"),
            "{name} lets a script through"
        );
        assert!(!a.body.contains("<img src=x"), "{name} lets markup through");
    }
    assert!(
        editor.body.contains("&lt;script&gt;") || editor.body.contains("&#60;script&#62;"),
        "the editor shows it as text"
    );
    assert!(
        public.body.contains("alert("),
        "the message is printed, as text"
    );
}

#[tokio::test]
async fn one_time_links_set_a_password_once() {
    let w = world().await;
    let gm = w.session("gm1").await;
    // A new name: an account made for this game, which its GM holds until it has a
    // password of its own.
    let seat = w
        .post_form(
            "/games/alpha/console/seat",
            Some(&gm),
            &[("empire", "SC"), ("account", "dave"), ("new", "1")],
            true,
        )
        .await;
    assert_eq!(seat.status, StatusCode::SEE_OTHER, "{}", seat.body);
    let page = w
        .post_form(
            "/games/alpha/console/link",
            Some(&gm),
            &[("empire", "SC"), ("purpose", "invite")],
            true,
        )
        .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let at = page.body.find("/invite/").expect("the link is shown");
    let link = page.body[at..at + 8 + 64].to_string();
    let form = w.get(&link, None).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.body.contains("dave"));
    let cookie = form
        .headers
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let post = |password: &'static str| {
        let body = serde_urlencoded::to_string([
            ("csrf", csrf_of(&form.body).as_str()),
            ("password", password),
            ("again", password),
        ])
        .unwrap();
        Request::builder()
            .method(Method::POST)
            .uri(&link)
            .header("cookie", &cookie)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(body))
            .unwrap()
    };
    let short = w.send(post("short")).await;
    assert_eq!(
        short.status,
        StatusCode::BAD_REQUEST,
        "too short a password"
    );
    let used = w.send(post("daves-new-password")).await;
    assert_eq!(used.status, StatusCode::SEE_OTHER, "{}", used.body);
    assert!(log_in_form(&w, "dave", "daves-new-password").await.status == StatusCode::SEE_OTHER);
    let again = w.send(post("another-password")).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND, "a link works once");
    assert_eq!(w.get(&link, None).await.status, StatusCode::NOT_FOUND);
    // Dave has a password of his own now: his GM makes no more links for him.
    let a = w
        .post_form(
            "/games/alpha/console/link",
            Some(&gm),
            &[("empire", "SC"), ("purpose", "reset")],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.body);
    // A GM makes links only for the seats of their own games.
    let gm2 = w.session("gm2").await;
    let a = w
        .post_form(
            "/games/alpha/console/link",
            Some(&gm2),
            &[("empire", "SC"), ("purpose", "reset")],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_api_logs_in_checks_sends_and_revokes() {
    let w = world().await;
    let a = w
        .api(Method::POST, "/api/login", None, Some(serde_json::json!({"name": "alice", "password": "alice-password", "label": "my client"})))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let j: serde_json::Value = serde_json::from_str(&a.body).unwrap();
    let token = j["token"].as_str().unwrap().to_string();
    let games = w.api(Method::GET, "/api/games", Some(&token), None).await;
    assert!(
        games.body.contains("\"name\":\"alpha\"") && games.body.contains("\"empire\":\"EN\""),
        "{}",
        games.body
    );
    assert!(!games.body.contains("beta"));
    let check = w
        .api(
            Method::POST,
            "/api/games/alpha/check",
            Some(&token),
            Some(serde_json::json!({"text": TYPO})),
        )
        .await;
    assert!(check.body.contains("\"line\":6"), "{}", check.body);
    let sent = w
        .api(
            Method::POST,
            "/api/games/alpha/orders",
            Some(&token),
            Some(serde_json::json!({"text": GOOD, "for_turn": 1})),
        )
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.body);
    let receipt: serde_json::Value = serde_json::from_str(&sent.body).unwrap();
    assert_eq!(receipt["for_turn"], 1);
    assert_eq!(receipt["sha256"].as_str().unwrap().len(), 64);
    let pending = w.host.store.games.pending("alpha").await.unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].1, GOOD.as_bytes());
    let spec = w.api(Method::GET, "/api/openapi.json", None, None).await;
    assert!(spec.body.contains("/api/games/{game}/orders"));
    // Revoked, the token opens nothing.
    let id = j["token_id"].as_i64().unwrap();
    let gone = w
        .api(
            Method::DELETE,
            &format!("/api/tokens/{id}"),
            Some(&token),
            None,
        )
        .await;
    assert_eq!(gone.status, StatusCode::NO_CONTENT);
    assert_eq!(
        w.api(Method::GET, "/api/games", Some(&token), None)
            .await
            .status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn bad_input_gets_a_clear_client_error_and_changes_nothing() {
    let w = world().await;
    let alice = w.session("alice").await;
    let token = w.token("alice").await;
    let raw = |method: Method, uri: &str, ctype: &str, body: Vec<u8>| {
        Request::builder()
            .method(method)
            .uri(uri)
            .header("cookie", &alice.cookie)
            .header("x-csrf-token", &alice.csrf)
            .header("authorization", format!("Bearer {token}"))
            .header("content-type", ctype)
            .body(Body::from(body))
            .unwrap()
    };
    let form = "application/x-www-form-urlencoded";
    let cases = vec![
        (
            "garbled form",
            raw(
                Method::POST,
                "/games/alpha/orders",
                form,
                b"%zz=%%&csrf".to_vec(),
            ),
        ),
        (
            "huge form",
            raw(
                Method::POST,
                "/games/alpha/orders",
                form,
                vec![b'a'; 400 * 1024],
            ),
        ),
        (
            "not UTF-8 sheet",
            raw(
                Method::POST,
                "/games/alpha/check",
                "text/plain",
                vec![0xff, 0xfe, 0x00],
            ),
        ),
        (
            "bad JSON",
            raw(
                Method::POST,
                "/api/games/alpha/orders",
                "application/json",
                b"{not json".to_vec(),
            ),
        ),
        (
            "JSON of the wrong shape",
            raw(
                Method::POST,
                "/api/games/alpha/check",
                "application/json",
                b"[1,2]".to_vec(),
            ),
        ),
        (
            "turn not a number",
            raw(
                Method::GET,
                "/games/alpha/turns/abc/reports/EN.html",
                form,
                vec![],
            ),
        ),
        (
            "turn not played",
            raw(
                Method::GET,
                "/games/alpha/turns/99/reports/EN.html",
                form,
                vec![],
            ),
        ),
        (
            "path escape",
            raw(
                Method::GET,
                "/games/alpha/turns/0/reports/..%2Fstate.json",
                form,
                vec![],
            ),
        ),
        ("unknown page", raw(Method::GET, "/nowhere", form, vec![])),
        (
            "unknown API call",
            raw(Method::GET, "/api/nowhere", form, vec![]),
        ),
        (
            "bad empire",
            raw(
                Method::GET,
                "/games/alpha/console/sheets/%00%01",
                form,
                vec![],
            ),
        ),
        (
            "wrong method",
            raw(Method::DELETE, "/games/alpha/orders", form, vec![]),
        ),
    ];
    for (name, req) in cases {
        let a = w.send(req).await;
        assert!(
            a.status.is_client_error(),
            "{name}: {} {}",
            a.status,
            a.body
        );
        assert!(!a.body.contains("panicked"), "{name}");
    }
    assert!(
        w.host
            .store
            .games
            .pending("alpha")
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn the_web_door_plays_the_same_on_postgresql() {
    let Some(url) = empires_testkit::fresh_postgres("web_story").await else {
        return;
    };
    let w = common::build(url.clone(), None).await;
    let alice = w.session("alice").await;
    let r = w.send_sheet("alpha", &alice, GOOD, 1).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let gm = w.session("gm1").await;
    let played = w
        .post_form(
            "/games/alpha/console/play",
            Some(&gm),
            &[("turn", "1")],
            true,
        )
        .await;
    assert_eq!(played.status, StatusCode::SEE_OTHER, "{}", played.body);
    assert_eq!(
        w.get("/games/alpha/turns/1/reports/EN.html", Some(&alice))
            .await
            .status,
        StatusCode::OK
    );
    let carol = w.session("carol").await;
    assert_eq!(
        w.get("/games/alpha/turns/1/reports/EN.html", Some(&carol))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let gm2 = w.session("gm2").await;
    assert_eq!(
        w.get("/games/alpha/console", Some(&gm2)).await.status,
        StatusCode::NOT_FOUND
    );
    drop(w);
    empires_testkit::drop_postgres(&url).await;
}

#[tokio::test]
async fn a_turn_played_by_another_process_is_seen_at_once() {
    let w = world().await;
    let alice = w.session("alice").await;
    assert!(
        w.get("/games/alpha", Some(&alice))
            .await
            .body
            .contains("No turn has been played yet")
    );
    // `empires turn --db` from the command line, beside the server.
    let other = empires_host::store::Services::open(&w.url).await.unwrap();
    let options = empires_host::turn::TurnOptions {
        yes: true,
        ..Default::default()
    };
    other
        .games
        .play_turn("alpha", options, common::START)
        .await
        .unwrap();
    assert!(
        w.get("/games/alpha", Some(&alice))
            .await
            .body
            .contains("Turn 1 has been played")
    );
    // A sheet checked against the new turn is kept for turn 2.
    let sheet = GOOD.replace("TURN 1", "TURN 2");
    let r = w.send_sheet("alpha", &alice, &sheet, 2).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    // Taking the turn back is refused while a sheet for the next one waits.
    other.games.undo("alpha", common::START).await.unwrap_err();
    assert!(
        w.get("/games/alpha", Some(&alice))
            .await
            .body
            .contains("Turn 1 has been played")
    );
}

#[tokio::test]
async fn the_gm_starts_a_game_from_the_console_and_downloads_it() {
    let w = world().await;
    let gm = w.session("gm1").await;
    // The form lists every map's seats with their names, and draws a seed at random.
    let form = w.get("/games/new", Some(&gm)).await;
    assert!(
        form.body.contains("<code>EN</code> England"),
        "{}",
        form.body
    );
    let seed_of = |page: &str| {
        let at = page.find("id=\"seed\"").unwrap();
        page[at..]
            .split("value=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .to_string()
    };
    let seeds: Vec<String> = [
        seed_of(&form.body),
        seed_of(&w.get("/games/new", Some(&gm)).await.body),
        seed_of(&w.get("/games/new", Some(&gm)).await.body),
    ]
    .into();
    assert!(seeds.iter().all(|s| s.parse::<u32>().is_ok()), "{seeds:?}");
    assert!(seeds[0] != seeds[1] || seeds[1] != seeds[2], "{seeds:?}");
    // A mistyped seat is named, with the seat meant, and makes no game and no account.
    let typo = w
        .post_form(
            "/games/new",
            Some(&gm),
            &[
                ("name", "gamma"),
                ("map", "tutorial"),
                ("seed", "9"),
                ("players", "EM=newcomer"),
            ],
            true,
        )
        .await;
    assert_eq!(typo.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        typo.body.contains("Did you mean EN (England)?"),
        "{}",
        typo.body
    );
    assert!(
        w.host
            .store
            .accounts
            .account_by_name("newcomer")
            .await
            .unwrap()
            .is_none()
    );
    assert!(w.host.game("gamma").await.is_err());
    let bad = w
        .post_form(
            "/games/new",
            Some(&gm),
            &[("name", "gamma"), ("map", "tutorial"), ("seed", "x")],
            true,
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad.body.contains("the seed is a whole number"),
        "{}",
        bad.body
    );
    let made = w
        .post_form(
            "/games/new",
            Some(&gm),
            &[
                ("name", "gamma"),
                ("map", "tutorial"),
                ("seed", "9"),
                ("players", "EN=dora\nIR=alice"),
                ("actions", "12"),
                ("dropout", "2"),
                ("victory_from", "6"),
                ("title", "The Isles, 1066"),
            ],
            true,
        )
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    assert!(
        w.get("/games/gamma/console", Some(&gm))
            .await
            .body
            .contains("The Isles, 1066"),
        "the title heads the console"
    );
    let game = w.host.game("gamma").await.unwrap();
    let loaded = game
        .as_any()
        .downcast_ref::<empires_ruleset::EmpiresGame>()
        .expect("an Empires game")
        .loaded();
    assert_eq!(loaded.state.options.actions_per_turn, 12);
    assert_eq!(loaded.state.options.dropout_after, 2);
    assert_eq!(loaded.state.options.victory_from_turn, 6);
    assert_eq!(made.location(), "/games/gamma/console?notice=created");
    let console = w.get(made.location(), Some(&gm)).await;
    assert!(
        console.body.contains("dora") && console.body.contains("The game was started"),
        "{}",
        console.body
    );
    // Alice, invited, accepts: she plays two games now, and the new one shows on her list.
    w.accept_invitations("alice").await;
    let alice = w.session("alice").await;
    assert!(
        w.get("/games", Some(&alice))
            .await
            .body
            .contains("/games/gamma")
    );
    // The game as a directory: a tar holding its state and reports.
    let tar = w.get("/games/gamma/export", Some(&gm)).await;
    assert_eq!(
        tar.headers.get("content-type").unwrap(),
        "application/x-tar"
    );
    assert!(
        tar.body.contains("gamma/turns/0000/state.json"),
        "the tar names the game's files"
    );
    assert!(tar.body.contains("gamma/turns/0000/reports/EN.html"));
}

/// Failed log-ins for many names, each from the address `forwarded` says.
async fn fail_from_many(w: &World, forwarded: impl Fn(u32) -> String) -> StatusCode {
    for i in 0..empires_web::auth::limit::MAX_FAILURES_PER_ADDRESS {
        let body = serde_json::json!({"name": format!("name{i}"), "password": "wrong-password"});
        let r = Request::builder()
            .method(Method::POST)
            .uri("/api/login")
            .header("x-forwarded-for", forwarded(i))
            .body(Body::from(body.to_string()))
            .unwrap();
        assert_eq!(w.send(r).await.status, StatusCode::UNAUTHORIZED);
    }
    let body = serde_json::json!({"name": "alice", "password": "alice-password"});
    let r = Request::builder()
        .method(Method::POST)
        .uri("/api/login")
        .header("x-forwarded-for", forwarded(999))
        .body(Body::from(body.to_string()))
        .unwrap();
    w.send(r).await.status
}

#[tokio::test]
async fn forwarded_addresses_are_believed_only_when_configured() {
    // Not configured: the header is ignored, so every attempt counts against the one real
    // address, and a client cannot dodge the limit by making addresses up.
    let w = world().await;
    let status = fail_from_many(&w, |i| format!("10.0.0.{i}")).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // Behind a proxy that sets it: each address is counted on its own.
    let config = empires_web::WebConfig {
        trust_forwarded: true,
        ..Default::default()
    };
    let w = common::world_with(config).await;
    let status = fail_from_many(&w, |i| format!("10.0.0.{i}")).await;
    assert_eq!(status, StatusCode::OK);
    // ... and one address failing too often is shut out, whatever names it tries.
    let status = fail_from_many(&w, |_| "10.9.9.9".to_string()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn a_seat_given_to_another_account_changes_who_plays_it() {
    // W5 (2.5): the replacement takes over the empire; the old player is shut out of it.
    let w = world().await;
    let gm = w.session("gm1").await;
    let a = w
        .post_form(
            "/games/alpha/console/seat",
            Some(&gm),
            &[("empire", "SC"), ("account", "carol"), ("new", "1")],
            true,
        )
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    // Carol has an account already: she is invited, and plays SC once she accepts.
    assert!(a.location().ends_with("notice=invited"), "{}", a.location());
    let carol = w.session("carol").await;
    assert_eq!(
        w.get("/games/alpha", Some(&carol)).await.status,
        StatusCode::NOT_FOUND
    );
    let account = w.get("/account", Some(&carol)).await;
    assert!(
        account.body.contains("invites you to play SC"),
        "{}",
        account.body
    );
    let id = w
        .host
        .store
        .accounts
        .invitations_for(
            w.host
                .store
                .accounts
                .account_by_name("carol")
                .await
                .unwrap()
                .unwrap()
                .id,
        )
        .await
        .unwrap()[0]
        .id;
    let accepted = w
        .post_form(
            &format!("/account/invitations/{id}/accept"),
            Some(&carol),
            &[],
            true,
        )
        .await;
    assert_eq!(accepted.status, StatusCode::OK, "{}", accepted.body);
    let page = w.get("/games/alpha", Some(&carol)).await;
    assert!(page.body.contains("(SC)"), "{}", page.body);
    assert_eq!(
        w.get("/games/alpha/turns/0/reports/SC.html", Some(&carol))
            .await
            .status,
        StatusCode::OK
    );
    let bob = w.session("bob").await;
    assert_eq!(
        w.get("/games/alpha", Some(&bob)).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        w.get("/games/alpha/turns/0/reports/SC.html", Some(&bob))
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    // A new name makes a player account on the spot, without a password until invited.
    w.post_form(
        "/games/alpha/console/seat",
        Some(&gm),
        &[("empire", "IR"), ("account", "erin"), ("new", "1")],
        true,
    )
    .await;
    let erin = w
        .host
        .store
        .accounts
        .account_by_name("erin")
        .await
        .unwrap()
        .unwrap();
    assert!(erin.password_hash.is_none());
    let log = w.host.store.accounts.audit_entries("alpha").await.unwrap();
    assert!(
        log.iter()
            .any(|(_, who, a, d)| who.as_deref() == Some("gm1")
                && a == "invited an account to a seat"
                && d == "carol to SC")
    );
    assert!(
        log.iter()
            .any(|(_, who, a, d)| who.as_deref() == Some("carol")
                && a == "accepted an invitation"
                && d == "carol to SC")
    );
    // The game is told with the next reports (2.5): who plays the empire from which turn.
    let pending = w.host.store.games.pending("alpha").await.unwrap();
    let gm_txt = pending
        .iter()
        .find(|(n, _)| n == "gm.txt")
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .expect("an announcement");
    assert!(
        gm_txt.contains("Scotland (SC) is played by carol from turn 1"),
        "{gm_txt}"
    );
}

#[tokio::test]
async fn the_gm_sets_pauses_resumes_and_extends_deadlines_from_the_console() {
    let w = world().await;
    let gm = w.session("gm1").await;
    let alice = w.session("alice").await;
    let set = w
        .post_form(
            "/games/alpha/console/schedule",
            Some(&gm),
            &[
                ("spec", "tuesdays 17:00 America/Los_Angeles"),
                ("remind", "24h, 2h"),
                ("catch_up", "each"),
            ],
            true,
        )
        .await;
    assert_eq!(set.status, StatusCode::SEE_OTHER, "{}", set.body);
    let console = w.get("/games/alpha/console", Some(&gm)).await.body;
    assert!(
        console.contains("PST") || console.contains("PDT"),
        "the deadline in the schedule's zone"
    );
    assert!(
        console.contains("value=\"tuesdays 17:00 America/Los_Angeles\""),
        "the form shows the schedule"
    );
    assert!(console.contains("value=\"24h,2h\""));
    // The player sees the same deadline on the game and orders pages.
    let s = w
        .host
        .store
        .schedules
        .schedule_of("alpha")
        .await
        .unwrap()
        .unwrap();
    let words = s.schedule.describe(s.deadline.unwrap());
    for page in ["/games/alpha", "/games/alpha/orders"] {
        let body = w.get(page, Some(&alice)).await.body;
        assert!(body.contains(&words), "{page} shows the deadline {words}");
    }
    // Within the earliest reminder time, a player who has sent nothing is reminded on the
    // game page as by mail; one who has sent is not.
    let page = w.get("/games/alpha", Some(&alice)).await.body;
    assert!(
        !page.contains("Orders are due in"),
        "not yet: the deadline is days away"
    );
    let now = w.host.now();
    w.host
        .clock
        .advance(s.deadline.unwrap() - now - (90 * 60_000));
    let page = w.get("/games/alpha", Some(&alice)).await.body;
    assert!(
        page.contains("Orders are due in 1 h 30 min"),
        "the reminder on the page"
    );
    w.host
        .clock
        .advance(-(s.deadline.unwrap() - now - (90 * 60_000)));
    // A schedule that does not read is refused, and says why.
    let bad = w
        .post_form(
            "/games/alpha/console/schedule",
            Some(&gm),
            &[("spec", "fridays 17:00 Mars/Olympus")],
            true,
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    // It is the console again, saying why at its top, with what was typed still in the form
    // and the schedule in force unchanged.
    let alert = bad
        .body
        .split("id=\"console-error\">")
        .nth(1)
        .expect("the console with the error");
    assert!(alert.starts_with("The schedule"), "{alert}");
    assert!(alert.contains("Mars/Olympus"), "{alert}");
    assert!(
        bad.body.contains("value=\"fridays 17:00 Mars/Olympus\""),
        "{}",
        bad.body
    );
    assert!(
        bad.body.contains("<h2 id=\"deadlines\">"),
        "the whole console"
    );
    let kept = w
        .host
        .store
        .schedules
        .schedule_of("alpha")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(kept.schedule.to_string(), s.schedule.to_string());
    let bad = w
        .post_form(
            "/games/alpha/console/extend",
            Some(&gm),
            &[("by", "two days")],
            true,
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(
        bad.body
            .contains("id=\"console-error\">The deadline was not extended"),
        "{}",
        bad.body
    );
    // Extend by two days, pause, resume: each in the audit log under the GM's name.
    let ext = w
        .post_form(
            "/games/alpha/console/extend",
            Some(&gm),
            &[("by", "48h")],
            true,
        )
        .await;
    assert_eq!(ext.status, StatusCode::SEE_OTHER, "{}", ext.body);
    let after = w
        .host
        .store
        .schedules
        .schedule_of("alpha")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(after.deadline, Some(s.deadline.unwrap() + 48 * 3_600_000));
    let p = w
        .post_form("/games/alpha/console/pause", Some(&gm), &[], true)
        .await;
    assert_eq!(p.status, StatusCode::SEE_OTHER);
    let body = w.get("/games/alpha", Some(&alice)).await.body;
    assert!(
        body.contains("paused"),
        "the player sees the game is paused"
    );
    let r = w
        .post_form("/games/alpha/console/resume", Some(&gm), &[], true)
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let console = w.get("/games/alpha/console", Some(&gm)).await.body;
    for line in [
        "set the schedule",
        "extended the deadline",
        "paused the game",
        "resumed the game",
    ] {
        assert!(console.contains(line), "audit: {line}");
    }
    // The players are told with the next report: one notice of each kind, the latest (the
    // pause was undone by the resume and is not announced).
    let pending = w.host.store.games.pending("alpha").await.unwrap();
    let gm_txt = pending
        .iter()
        .find(|(n, _)| n == "gm.txt")
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .unwrap();
    for notice in [
        "set the schedule",
        "extended the deadline",
        "resumed the game",
    ] {
        assert_eq!(gm_txt.matches(notice).count(), 1, "{notice}: {gm_txt}");
    }
    assert!(!gm_txt.contains("paused"), "{gm_txt}");
}

#[tokio::test]
async fn a_report_not_paid_for_waits_on_every_door_and_the_gm_still_reads_it() {
    // 2.10: unpaid turns are played but their reports are not given out.
    let w = world().await;
    let store = &w.host.store;
    // The GM makes the game's turns paid for and enters Alice's payment, on the console.
    let gm = w.session("gm1").await;
    let on = w
        .post_form(
            "/games/alpha/console/ledger/paid",
            Some(&gm),
            &[("paid", "on")],
            true,
        )
        .await;
    assert_eq!(on.status, StatusCode::SEE_OTHER);
    let pay = w
        .post_form(
            "/games/alpha/console/ledger/buy",
            Some(&gm),
            &[("empire", "EN"), ("turns", "3")],
            true,
        )
        .await;
    assert_eq!(pay.status, StatusCode::SEE_OTHER, "{}", pay.body);
    let bad = w
        .post_form(
            "/games/alpha/console/ledger/buy",
            Some(&gm),
            &[("empire", "EN"), ("turns", "lots")],
            true,
        )
        .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let console = w.get("/games/alpha/console", Some(&gm)).await.body;
    assert!(
        console.contains("EN, alice: Turn credits: 3 in hand"),
        "the console lists credits"
    );
    w.post_form(
        "/games/alpha/console/play",
        Some(&gm),
        &[("turn", "1")],
        true,
    )
    .await;
    let bob = w.session("bob").await;
    for file in ["SC.html", "SC.txt", "SC.json"] {
        let a = w
            .get(&format!("/games/alpha/turns/1/reports/{file}"), Some(&bob))
            .await;
        assert_eq!(a.status, StatusCode::PAYMENT_REQUIRED, "{file}");
        assert!(a.body.contains("waits for payment"), "{}", a.body);
    }
    let token = w.token("bob").await;
    let api = w
        .api(
            Method::GET,
            "/api/games/alpha/reports/1",
            Some(&token),
            None,
        )
        .await;
    assert_eq!(api.status, StatusCode::PAYMENT_REQUIRED);
    // His earlier reports, the public page and the GM's view are not held.
    for (path, who) in [
        ("/games/alpha/turns/0/reports/SC.html", &bob),
        ("/games/alpha/turns/1/reports/public.html", &bob),
        ("/games/alpha/turns/1/reports/SC.html", &gm),
    ] {
        assert_eq!(
            w.get(path, Some(who)).await.status,
            StatusCode::OK,
            "{path}"
        );
    }
    let page = w.get("/games/alpha", Some(&bob)).await.body;
    assert!(page.contains("turn 1 unpaid"), "the game page says why");
    // Alice paid ahead: hers is there, and her page shows her credits.
    let alice_s = w.session("alice").await;
    assert_eq!(
        w.get("/games/alpha/turns/1/reports/EN.html", Some(&alice_s))
            .await
            .status,
        StatusCode::OK
    );
    assert!(
        w.get("/games/alpha", Some(&alice_s))
            .await
            .body
            .contains("2 in hand")
    );
    // Bob pays; his report is his again.
    let bob_id = store
        .accounts
        .account_by_name("bob")
        .await
        .unwrap()
        .unwrap()
        .id;
    store
        .ledgers
        .enter(
            bob_id,
            &empires_host::ledger::Entry::Bought {
                game: "alpha".into(),
                turns: 1,
            },
            5,
        )
        .await
        .unwrap();
    assert_eq!(
        w.get("/games/alpha/turns/1/reports/SC.html", Some(&bob))
            .await
            .status,
        StatusCode::OK
    );
}

/// The editor's blank sheet is the one the report ends with: the game as the host keeps it
/// (not its title) on the GAME line, and the empire's own number of actions.
#[tokio::test]
async fn the_editors_blank_sheet_names_the_game_as_kept_with_the_seats_own_actions() {
    use empires_ruleset::ruleset::{EmpiresStore, NewGame};
    let w = common::world().await;
    let standard = empires_maps::standard::find("tutorial").unwrap();
    let map = empires_ruleset::gamedir::parse_map(standard.text, standard.file).unwrap();
    let mut setup =
        empires_rules::setup::NewGame::without_players("A Long Title", map.variant.unwrap(), 4);
    setup.players.insert(
        empires_rules::EmpireCode::parse("EN").unwrap(),
        "alice".to_string(),
    );
    let mut state = empires_ruleset::create::start(&map, standard.file, &setup).unwrap();
    // England alone writes ten actions (a scenario may set this).
    let en = state
        .empires
        .iter_mut()
        .find(|e| e.code.as_str() == "EN")
        .unwrap();
    en.actions_per_turn = Some(10);
    w.host
        .store
        .games
        .create(&NewGame {
            name: "titled",
            map_text: standard.text,
            map: &map,
            state: &state,
            created_at: 1,
        })
        .await
        .unwrap();
    let alice = w.session("alice").await;
    let page = w.get("/games/titled/orders", Some(&alice)).await;
    assert_eq!(page.status, axum::http::StatusCode::OK, "{}", page.body);
    let text = page.body.split("<textarea id=\"sheet\"").nth(1).unwrap();
    let text = text.split("</textarea>").next().unwrap();
    assert!(text.contains("GAME titled\nTURN 1\nEMPIRE EN\n"), "{text}");
    assert!(
        text.contains("\n10.\n") && !text.contains("\n11."),
        "{text}"
    );
    // The report's own sheet says the same.
    let report = w
        .get("/games/titled/turns/0/reports/EN.txt", Some(&alice))
        .await;
    assert!(
        report.body.contains("GAME titled\nTURN 1\nEMPIRE EN\n"),
        "{}",
        report.body
    );
}

/// Pages go out compressed when the browser asks (gzip or brotli), and read back to the
/// same page; a client that asks for nothing gets the page as it is.
#[tokio::test]
async fn pages_are_served_compressed_to_a_browser_that_asks() {
    use std::io::Read;
    let w = world().await;
    let alice = w.session("alice").await;
    let path = "/games/alpha";
    let (status, headers, plain) = w.get_bytes(path, Some(&alice), &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers.get("content-encoding").is_none());
    let (status, headers, packed) = w
        .get_bytes(path, Some(&alice), &[("accept-encoding", "gzip")])
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-encoding"], "gzip");
    assert!(
        packed.len() * 2 < plain.len(),
        "{} bytes packed of {}",
        packed.len(),
        plain.len()
    );
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(&packed[..])
        .read_to_end(&mut unpacked)
        .unwrap();
    // The page differs only by its per-request nonce, if any: compare the text around it.
    let text = String::from_utf8(unpacked).unwrap();
    let page = String::from_utf8(plain).unwrap();
    assert_eq!(text.len(), page.len());
    assert!(text.contains("<h1"), "{text}");
    let (_, headers, _) = w
        .get_bytes(path, Some(&alice), &[("accept-encoding", "br")])
        .await;
    assert_eq!(headers["content-encoding"], "br");
}

/// Every page names the site's icon, and the icon is there (also where browsers look for
/// it without being told).
#[tokio::test]
async fn the_site_has_an_icon() {
    let w = world().await;
    let login = w.get("/login", None).await;
    assert!(
        login
            .body
            .contains("<link rel=\"icon\" href=\"/favicon.svg\"")
    );
    for path in ["/favicon.svg", "/favicon.ico"] {
        let icon = w.get(path, None).await;
        assert_eq!(icon.status, StatusCode::OK, "{path}");
        assert_eq!(icon.headers["content-type"], "image/svg+xml");
        assert!(icon.body.starts_with("<svg"), "{path}");
    }
}

/// The GM takes the last turn back from the console: once, and only the turn seen as the
/// last; the sheet it played waits for the turn again, and the audit log says who did it.
#[tokio::test]
async fn the_gm_undoes_the_last_turn_from_the_console() {
    let w = world().await;
    let gm = w.session("gm1").await;
    let alice = w.session("alice").await;
    assert_eq!(
        w.send_sheet("alpha", &alice, GOOD, 1).await.status,
        StatusCode::OK
    );
    let console = w.get("/games/alpha/console", Some(&gm)).await.body;
    assert!(!console.contains("Undo turn"), "nothing to undo at turn 0");
    w.post_form(
        "/games/alpha/console/play",
        Some(&gm),
        &[("turn", "1")],
        true,
    )
    .await;
    let console = w.get("/games/alpha/console", Some(&gm)).await.body;
    assert!(console.contains("Undo turn 1"), "{console}");
    let undone = w
        .post_form(
            "/games/alpha/console/undo",
            Some(&gm),
            &[("turn", "1")],
            true,
        )
        .await;
    assert_eq!(undone.status, StatusCode::SEE_OTHER, "{}", undone.body);
    assert_eq!(w.host.turn("alpha").await.unwrap(), 0);
    let console = w.get(undone.location(), Some(&gm)).await.body;
    assert!(
        console.contains("The last turn was taken back"),
        "{console}"
    );
    assert!(
        console.contains("Sheets in: 1 of 4 seats"),
        "Alice's sheet waits again"
    );
    // A second click finds turn 1 gone, and undoes nothing more.
    let again = w
        .post_form(
            "/games/alpha/console/undo",
            Some(&gm),
            &[("turn", "1")],
            true,
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    let log = w.host.store.accounts.audit_entries("alpha").await.unwrap();
    assert!(
        log.iter()
            .any(|(_, who, a, d)| who.as_deref() == Some("gm1")
                && a == "undid a turn"
                && d.starts_with("turn 1")),
        "{log:?}"
    );
}

/// The GM ends a game from the console, saying they mean it: the game takes no more sheets
/// and its players read that it is over; undoing its last turn opens it again.
#[tokio::test]
async fn the_gm_ends_a_game_from_the_console() {
    let w = world().await;
    let gm = w.session("gm1").await;
    let alice = w.session("alice").await;
    w.post_form(
        "/games/alpha/console/schedule",
        Some(&gm),
        &[("spec", "daily 18:00 UTC"), ("catch_up", "each")],
        true,
    )
    .await;
    w.host.play_turn("alpha", Some(1), None).await.unwrap();
    let unsure = w
        .post_form("/games/alpha/console/end", Some(&gm), &[], true)
        .await;
    assert_eq!(unsure.status, StatusCode::BAD_REQUEST, "{}", unsure.body);
    assert!(unsure.body.contains("tick the box"), "{}", unsure.body);
    let ended = w
        .post_form(
            "/games/alpha/console/end",
            Some(&gm),
            &[("sure", "1")],
            true,
        )
        .await;
    assert_eq!(ended.status, StatusCode::SEE_OTHER, "{}", ended.body);
    let console = w.get(ended.location(), Some(&gm)).await.body;
    assert!(console.contains("The game is over (since"), "{console}");
    let s = w
        .host
        .store
        .schedules
        .schedule_of("alpha")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        s.deadline, None,
        "no deadline for a game that plays no more"
    );
    let page = w.get("/games/alpha", Some(&alice)).await.body;
    assert!(
        page.contains("The game is over: its GM ended it on"),
        "{page}"
    );
    let late = w
        .send_sheet(
            "alpha",
            &alice,
            GOOD.replace("TURN 1", "TURN 2").as_str(),
            2,
        )
        .await;
    assert_eq!(late.status, StatusCode::CONFLICT, "{}", late.body);
    assert!(late.body.contains("the game is over"), "{}", late.body);
    let again = w
        .post_form(
            "/games/alpha/console/end",
            Some(&gm),
            &[("sure", "1")],
            true,
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    let log = w.host.store.accounts.audit_entries("alpha").await.unwrap();
    assert!(
        log.iter()
            .any(|(_, who, a, _)| who.as_deref() == Some("gm1") && a == "ended the game")
    );
    // Undoing the last turn opens the game again.
    let undone = w
        .post_form(
            "/games/alpha/console/undo",
            Some(&gm),
            &[("turn", "1")],
            true,
        )
        .await;
    assert_eq!(undone.status, StatusCode::SEE_OTHER, "{}", undone.body);
    assert_eq!(
        w.send_sheet("alpha", &alice, GOOD, 1).await.status,
        StatusCode::OK
    );
}
