//! A Napoleonic Empires game on the same host as the Empires games, served through the
//! ruleset interface: its player writes and sends a sheet on the web (checked with the dry
//! run), the GM plays the turn from the console, the player reads the report. Every other
//! account — another kingdom's player, a player of another game, another GM, no session —
//! gets nothing of it.

use crate::common;

use axum::http::StatusCode;
use common::{START, World, world};

/// Adds the Napoleonic game "europe", run by gm1, with alice playing France and bob
/// Prussia; carol plays only in the Empires game "beta".
pub async fn europe(w: &World) {
    let store = &w.host.store;
    let players = [("FRA", "alice"), ("PRU", "bob")];
    empires_testkit::napoleonic_game(store, "europe", &players, 5, START).await;
    let gm = store
        .accounts
        .account_by_name("gm1")
        .await
        .unwrap()
        .unwrap();
    store.accounts.set_game_gm("europe", gm.id).await.unwrap();
}

#[tokio::test]
async fn a_kingdom_sends_its_sheet_on_the_web_and_reads_its_report_after_the_gm_plays() {
    let w = world().await;
    europe(&w).await;
    let alice = w.session("alice").await;

    // The game page and the editor, with the blank sheet of France checked.
    let page = w.get("/games/europe", Some(&alice)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("Napoleonic Empires"), "{}", page.body);
    assert!(page.body.contains("France</strong> (FRA)"), "{}", page.body);
    let editor = w.get("/games/europe/orders", Some(&alice)).await;
    assert_eq!(editor.status, StatusCode::OK, "{}", editor.body);
    assert!(
        editor.body.contains("KINGDOM FRA  TURN 1"),
        "{}",
        editor.body
    );
    assert!(
        !editor.body.contains("KINGDOM PRU"),
        "another kingdom's sheet"
    );

    // A sheet with a mistake is kept, and the answer names the line.
    let blank = w
        .host
        .store
        .games
        .hosted("europe")
        .await
        .map(|g| g.ruleset.sheet(g.text(), "FRA").unwrap())
        .unwrap();
    let sheet = format!("{blank}\nMARCH NOWHERE\n");
    let sent = w.send_sheet("europe", &alice, &sheet, 1).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.body);
    assert!(sent.body.contains("was kept"), "{}", sent.body);
    assert!(sent.body.contains("1 error"), "{}", sent.body);
    let pending = w.host.store.games.pending("europe").await.unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].0, "FRA.txt");

    // The editor's live check answers with the ruleset's check, keeping nothing.
    let live = w.live_check("europe", &alice, &sheet).await;
    assert_eq!(live.status, StatusCode::OK, "{}", live.body);
    let v: serde_json::Value = serde_json::from_str(&live.body).unwrap();
    assert_eq!(v["errors"], 1, "{v}");
    // The same shape as every game's: each mistake at its line, and the dry run.
    let d = &v["diagnostics"][0];
    assert_eq!(d["severity"], "error", "{v}");
    assert!(d["line"].as_u64().unwrap() > 1, "{v}");
    assert!(
        v["forecast"]["text"]
            .as_str()
            .unwrap()
            .contains("No order fails")
            || v["forecast"]["title"] == "Dry run",
        "{v}"
    );
    assert_eq!(w.host.store.games.pending("europe").await.unwrap().len(), 1);

    // A sheet written for a turn already played is refused.
    let stale = w.send_sheet("europe", &alice, &blank, 7).await;
    assert_eq!(stale.status, StatusCode::CONFLICT, "{}", stale.body);

    // The GM sees the seats and who has sent, and plays the turn.
    let gm = w.session("gm1").await;
    let console = w.get("/games/europe/console", Some(&gm)).await;
    assert_eq!(console.status, StatusCode::OK, "{}", console.body);
    assert!(
        console.body.contains("Sheets in: 1 of 22 seats"),
        "{}",
        console.body
    );
    assert!(
        console.body.contains("does nothing this turn"),
        "{}",
        console.body
    );
    // No turn credits in a game whose turns are never charged, and no link to reports the
    // game does not write.
    assert!(!console.body.contains("Turn credits"), "{}", console.body);
    assert!(!console.body.contains("gm.txt"), "{}", console.body);
    // The GM rules from the console (N5): the Rulings form is there, a ruling is kept for
    // the next turn; a player may not send one.
    assert!(
        console.body.contains("id=\"gm-rulings\""),
        "{}",
        console.body
    );
    assert!(
        console.body.contains("ROYALTY FRA (FEE 10"),
        "the form says how rulings are written"
    );
    let by_alice = w
        .post_form(
            "/games/europe/console/rulings",
            Some(&alice),
            &[("text", "ROYALTY FRA")],
            true,
        )
        .await;
    assert_ne!(by_alice.status, StatusCode::SEE_OTHER, "{}", by_alice.body);
    let ruled = w
        .post_form(
            "/games/europe/console/rulings",
            Some(&gm),
            &[("text", "ROYALTY PRU")],
            true,
        )
        .await;
    assert_eq!(ruled.status, StatusCode::SEE_OTHER, "{}", ruled.body);
    // Before turn 1, France reads its map of Europe and its kingdom.
    let start = w
        .get("/games/europe/turns/0/reports/FRA.html", Some(&alice))
        .await;
    assert_eq!(start.status, StatusCode::OK, "{}", start.body);
    assert!(start.body.contains("<svg"), "the map is drawn");
    assert!(
        start.body.contains("the starting position"),
        "{}",
        start.body
    );
    assert!(start.body.contains("France"));
    let played = w
        .post_form(
            "/games/europe/console/play",
            Some(&gm),
            &[("turn", "1")],
            true,
        )
        .await;
    assert_eq!(played.status, StatusCode::SEE_OTHER, "{}", played.body);
    assert_eq!(w.host.store.games.hosted("europe").await.unwrap().turn, 1);
    // The GM's ruling was played with the turn: Prussia's report says so, France's not.
    let bob = w.session("bob").await;
    let pru = w
        .get("/games/europe/turns/1/reports/PRU.txt", Some(&bob))
        .await;
    assert!(pru.body.contains("your ruler is Royalty"), "{}", pru.body);
    let fra = w
        .get("/games/europe/turns/1/reports/FRA.txt", Some(&alice))
        .await;
    assert!(!fra.body.contains("your ruler is Royalty"), "{}", fra.body);

    // France reads its report of turn 1, in each form; the game page shows it.
    for ext in ["html", "txt", "json"] {
        let r = w
            .get(
                &format!("/games/europe/turns/1/reports/FRA.{ext}"),
                Some(&alice),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{ext}: {}", r.body);
        assert!(r.body.contains("France"), "{ext}");
    }
    let page = w.get("/games/europe", Some(&alice)).await;
    assert!(
        page.body.contains("Turn 1 has been played"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("/turns/1/reports/FRA.html"),
        "{}",
        page.body
    );
    // The sheet she sent is kept with the turn, and hers to read.
    let kept = w
        .host
        .store
        .games
        .turn_file("europe", 1, "orders/FRA.txt", Some("FRA".parse().unwrap()))
        .await
        .unwrap();
    assert_eq!(kept, sheet.into_bytes());
}

#[tokio::test]
async fn no_one_else_reads_or_writes_a_kingdoms_part() {
    let w = world().await;
    europe(&w).await;
    let gm = w.session("gm1").await;
    w.post_form(
        "/games/europe/console/play",
        Some(&gm),
        &[("turn", "1")],
        true,
    )
    .await;
    let bob = w.session("bob").await;
    let carol = w.session("carol").await;
    let gm2 = w.session("gm2").await;

    // Prussia's player reads Prussia's report, never France's; the GM reads both.
    let own = w
        .get("/games/europe/turns/1/reports/PRU.html", Some(&bob))
        .await;
    assert_eq!(own.status, StatusCode::OK);
    for file in ["FRA.html", "FRA.txt", "FRA.json"] {
        let path = format!("/games/europe/turns/1/reports/{file}");
        let r = w.get(&path, Some(&bob)).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{file}: {}", r.body);
        assert!(!r.body.contains("France (FRA)"), "{file}");
        let g = w.get(&path, Some(&gm)).await;
        assert_eq!(g.status, StatusCode::OK, "the GM reads {file}");
    }
    // Bob's editor is Prussia's: he cannot send a sheet as France.
    let editor = w.get("/games/europe/orders", Some(&bob)).await;
    assert!(editor.body.contains("KINGDOM PRU"), "{}", editor.body);
    assert!(!editor.body.contains("KINGDOM FRA"));

    // Someone with no part in the game, another game's GM, and no session at all.
    let routes = [
        "/games/europe",
        "/games/europe/orders",
        "/games/europe/turns/1/reports/FRA.html",
        "/games/europe/turns/1/reports/PRU.txt",
        "/games/europe/console",
        "/games/europe/console/sheets/FRA",
    ];
    for path in routes {
        for (who, s) in [("carol", &carol), ("gm2", &gm2)] {
            let r = w.get(path, Some(s)).await;
            assert_eq!(r.status, StatusCode::NOT_FOUND, "{who} {path}: {}", r.body);
        }
        let r = w.get(path, None).await;
        assert!(
            r.status == StatusCode::SEE_OTHER || r.status == StatusCode::UNAUTHORIZED,
            "no session {path}: {}",
            r.status
        );
    }
    // Neither a player nor another GM plays the turn or sends a sheet into the game.
    for s in [&bob, &carol, &gm2] {
        let r = w
            .post_form(
                "/games/europe/console/play",
                Some(s),
                &[("turn", "2")],
                true,
            )
            .await;
        assert!(
            r.status == StatusCode::NOT_FOUND || r.status == StatusCode::FORBIDDEN,
            "{}",
            r.status
        );
    }
    let r = w
        .send_sheet("europe", &carol, "GAME europe KINGDOM FRA TURN 2\n", 2)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(w.host.store.games.hosted("europe").await.unwrap().turn, 1);
    assert!(
        w.host
            .store
            .games
            .pending("europe")
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn a_gm_starts_a_napoleonic_game_on_the_web() {
    let w = world().await;
    let gm = w.session("gm1").await;
    let form = w.get("/games/new", Some(&gm)).await;
    assert!(form.body.contains("Napoleonic Empires"), "{}", form.body);
    // An empire's code is no kingdom: the form comes back saying so, and nothing is made.
    let wrong = w
        .post_form(
            "/games/new",
            Some(&gm),
            &[
                ("ruleset", "napoleonic"),
                ("name", "europe2"),
                ("seed", "3"),
                ("players", "EN=alice"),
            ],
            true,
        )
        .await;
    assert_eq!(wrong.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        wrong
            .body
            .contains("EN is not a seat of Napoleonic Empires"),
        "{}",
        wrong.body
    );
    assert!(w.host.store.games.hosted("europe2").await.is_err());
    let made = w
        .post_form(
            "/games/new",
            Some(&gm),
            &[
                ("ruleset", "napoleonic"),
                ("name", "europe2"),
                ("seed", "3"),
                ("players", "FRA=alice\nrus=dave"),
            ],
            true,
        )
        .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    let console = w.get("/games/europe2/console", Some(&gm)).await;
    assert!(
        console.body.contains("europe2 (Napoleonic Empires)"),
        "{}",
        console.body
    );
    // Alice, who has an account, is invited and accepts; dave's account was made for him.
    w.accept_invitations("alice").await;
    let alice = w.session("alice").await;
    let list = w.get("/games", Some(&alice)).await;
    assert!(list.body.contains("europe2"), "{}", list.body);
    let page = w.get("/games/europe2", Some(&alice)).await;
    assert!(page.body.contains("(FRA)"), "{}", page.body);
    let dave = w
        .host
        .store
        .accounts
        .account_by_name("dave")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        w.host
            .store
            .accounts
            .seat_of("europe2", dave.id)
            .await
            .unwrap(),
        Some("RUS".parse().unwrap())
    );
    // A player cannot start a game.
    let r = w
        .post_form(
            "/games/new",
            Some(&alice),
            &[("ruleset", "napoleonic"), ("name", "mine"), ("seed", "1")],
            true,
        )
        .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_api_checks_and_keeps_a_kingdoms_sheet_for_its_player_alone() {
    use axum::http::Method;
    let w = world().await;
    europe(&w).await;
    let (alice, carol) = (w.token("alice").await, w.token("carol").await);
    let blank = w
        .host
        .store
        .games
        .hosted("europe")
        .await
        .map(|g| g.ruleset.sheet(g.text(), "FRA").unwrap())
        .unwrap();
    let sheet = serde_json::json!({ "text": format!("{blank}\nMARCH NOWHERE\n"), "for_turn": 1 });
    let checked = w
        .api(
            Method::POST,
            "/api/games/europe/check",
            Some(&alice),
            Some(sheet.clone()),
        )
        .await;
    assert_eq!(checked.status, StatusCode::OK, "{}", checked.body);
    let v: serde_json::Value = serde_json::from_str(&checked.body).unwrap();
    assert_eq!(v["errors"], 1, "{v}");
    assert!(v["text"].as_str().unwrap().contains("Dry run"), "{v}");
    assert!(
        w.host
            .store
            .games
            .pending("europe")
            .await
            .unwrap()
            .is_empty(),
        "a check keeps nothing"
    );

    let sent = w
        .api(
            Method::POST,
            "/api/games/europe/orders",
            Some(&alice),
            Some(sheet.clone()),
        )
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.body);
    let v: serde_json::Value = serde_json::from_str(&sent.body).unwrap();
    assert_eq!(
        (v["for_turn"].as_u64(), v["errors"].as_u64()),
        (Some(1), Some(1)),
        "{v}"
    );
    assert_eq!(
        w.host.store.games.pending("europe").await.unwrap()[0].0,
        "FRA.txt"
    );

    // Someone with no seat in the game is told there is no such game, and keeps nothing.
    for path in ["/api/games/europe/check", "/api/games/europe/orders"] {
        let r = w
            .api(Method::POST, path, Some(&carol), Some(sheet.clone()))
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{path}: {}", r.body);
    }
    let r = w
        .api(
            Method::GET,
            "/api/games/europe/reports/0",
            Some(&carol),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(w.host.store.games.pending("europe").await.unwrap().len(), 1);
}
