//! A game played in steps through the web: Relay (`empires_testkit::relay`), whose steps
//! each expect one runner. The runner whose leg it is sends a sheet and the receipt names
//! the step; the other is refused, told when their leg comes; each runner's own page is
//! theirs alone.

use crate::common::{START, world};
use axum::http::{Method, StatusCode};

async fn race(w: &crate::common::World) {
    let runners = [("RED", "alice"), ("BLU", "bob"), ("GRN", "carol")];
    empires_testkit::relay_game(&w.host.store, "race", &runners, START).await;
    let gm = w
        .host
        .store
        .accounts
        .account_by_name("gm1")
        .await
        .unwrap()
        .unwrap();
    w.host
        .store
        .accounts
        .set_game_gm("race", gm.id)
        .await
        .unwrap();
}

fn run(n: u32) -> serde_json::Value {
    serde_json::json!({ "text": format!("RUN {n}\n") })
}

#[tokio::test]
async fn the_runner_out_of_turn_is_refused_and_told_when_to_run() {
    let w = world().await;
    race(&w).await;
    let (alice, bob) = (w.token("alice").await, w.token("bob").await);
    let path = "/api/games/race/orders";
    let for_red = serde_json::json!({ "text": "RUN 3\n", "for_turn": 1 });
    let refused = w.api(Method::POST, path, Some(&bob), Some(for_red)).await;
    assert_eq!(refused.status, StatusCode::CONFLICT, "{}", refused.body);
    assert!(
        refused.body.contains("game-turn 1, leg 2 of 2: BLU runs"),
        "{}",
        refused.body
    );
    let kept = w.api(Method::POST, path, Some(&alice), Some(run(3))).await;
    assert_eq!(kept.status, StatusCode::OK, "{}", kept.body);
    let receipt: serde_json::Value = serde_json::from_str(&kept.body).unwrap();
    assert_eq!(receipt["for_turn"], 1);
    assert_eq!(receipt["step"], "game-turn 1, leg 1 of 2: RED runs");
    // A game that plays each turn whole says nothing of steps.
    let whole = w
        .post_orders(&alice, "GAME alpha\nEMPIRE EN\nTURN 1\n", Some(1))
        .await;
    assert_eq!(whole.status, StatusCode::OK, "{}", whole.body);
    assert!(!whole.body.contains("\"step\""), "{}", whole.body);
}

/// The GM plays the next step from the console, as shown for turn `turn`.
async fn gm_plays(w: &crate::common::World, gm: &crate::common::Session, turn: u32) {
    let t = turn.to_string();
    let played = w
        .post_form("/games/race/console/play", Some(gm), &[("turn", &t)], true)
        .await;
    assert_eq!(played.status, StatusCode::SEE_OTHER, "{}", played.body);
}

#[tokio::test]
async fn a_race_through_the_pages_sent_ahead_ruled_by_the_gm_split_and_finished() {
    let w = world().await;
    race(&w).await;
    let alice = w.session("alice").await;
    let bob = w.session("bob").await;
    let carol = w.session("carol").await;
    let gm = w.session("gm1").await;
    // BLU is not expected at RED's leg: the page says when BLU is, and the editor writes
    // BLU's sheet for that step, kept ahead.
    let page = w.get("/games/race", Some(&bob)).await;
    assert!(
        page.body
            .contains("You are next expected at game-turn 1, leg 2 of 2: BLU runs"),
        "{}",
        page.body
    );
    let editor = w.get("/games/race/orders", Some(&bob)).await;
    assert!(
        editor.body.contains(r#"name="for_turn" value="2""#),
        "{}",
        editor.body
    );
    let ahead = w.send_sheet("race", &bob, "RUNNER BLU\nRUN 2\n", 2).await;
    assert_eq!(ahead.status, StatusCode::OK, "{}", ahead.body);
    assert!(ahead.body.contains("(sent ahead)"), "{}", ahead.body);
    assert!(!ahead.body.contains("late orders"), "{}", ahead.body);
    // The crowd's standing orders are shown on the crowd's page, and on no one else's.
    let cheer = w
        .send_sheet("race", &carol, "RUNNER GRN\nCHEER BLU\n", 1)
        .await;
    assert!(cheer.body.contains("standing orders"), "{}", cheer.body);
    let page = w.get("/games/race", Some(&carol)).await;
    assert!(
        page.body.contains("My standing orders") && page.body.contains("CHEER BLU"),
        "{}",
        page.body
    );
    assert!(
        !w.get("/games/race", Some(&alice))
            .await
            .body
            .contains("CHEER")
    );
    // RED runs and asks the GM; the next leg waits for the GM's rulings, and the console
    // says so.
    let red = w
        .send_sheet("race", &alice, "RUNNER RED\nRUN 5\nASK a tailwind\n", 1)
        .await;
    assert_eq!(red.status, StatusCode::OK, "{}", red.body);
    gm_plays(&w, &gm, 1).await;
    let console = w.get("/games/race/console", Some(&gm)).await;
    assert!(
        console.body.contains("waits for your rulings: RED asks")
            && console.body.contains("it waits for BLU"),
        "{}",
        console.body
    );
    // The rulings are the GM's alone, on the page as through the API.
    let token = w.token("bob").await;
    let grant = serde_json::json!({ "text": "GRANT RED 2\n" });
    let refused = w
        .api(
            Method::POST,
            "/api/games/race/rulings",
            Some(&token),
            Some(grant.clone()),
        )
        .await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    let by_bob = w
        .post_form(
            "/games/race/console/rulings",
            Some(&bob),
            &[("text", "GRANT BLU 3")],
            true,
        )
        .await;
    assert_ne!(by_bob.status, StatusCode::SEE_OTHER);
    let ruled = w
        .post_form(
            "/games/race/console/rulings",
            Some(&gm),
            &[("text", "GRANT RED 2")],
            true,
        )
        .await;
    assert_eq!(ruled.status, StatusCode::SEE_OTHER, "{}", ruled.body);
    let gm_token = w.token("gm1").await;
    let by_api = w
        .api(
            Method::POST,
            "/api/games/race/rulings",
            Some(&gm_token),
            Some(grant),
        )
        .await;
    assert_eq!(by_api.status, StatusCode::OK, "{}", by_api.body);
    let receipt: serde_json::Value = serde_json::from_str(&by_api.body).unwrap();
    assert_eq!(receipt["step"], "game-turn 1, leg 2 of 2: BLU runs");
    gm_plays(&w, &gm, 2).await;
    let report = w
        .get("/games/race/turns/2/reports/BLU.txt", Some(&bob))
        .await;
    assert!(
        report.body.contains("The GM rules: RED is granted 2."),
        "{}",
        report.body
    );
    // The crowd has split: carol holds both halves and switches between them.
    let page = w.get("/games/race", Some(&carol)).await;
    assert!(page.body.contains("You hold 2 seats"), "{}", page.body);
    let stand = w.get("/games/race?seat=YEL", Some(&carol)).await;
    assert!(
        stand.body.contains("The far stand</strong> (YEL)"),
        "{}",
        stand.body
    );
    let mut fields = vec![("text", "RUNNER YEL\nCHEER RED\n"), ("for_turn", "3")];
    fields.push(("seat", "YEL"));
    let kept = w
        .post_form("/games/race/orders", Some(&carol), &fields, true)
        .await;
    assert!(kept.body.contains("standing orders"), "{}", kept.body);
    let yel = "/games/race/turns/2/reports/YEL.txt";
    assert_eq!(w.get(yel, Some(&carol)).await.status, StatusCode::OK);
    assert_eq!(w.get(yel, Some(&bob)).await.status, StatusCode::NOT_FOUND);
    // A seat not held is never granted by asking for it.
    let asked = w.get("/games/race?seat=YEL", Some(&alice)).await;
    assert!(asked.body.contains("(RED)") && !asked.body.contains("(YEL)"));
    // The GM plays the legs out; the game is over, the page says so, and sheets are refused.
    for turn in 3..=8 {
        let page = w.get("/games/race", Some(&alice)).await;
        if page.body.contains("The game is over") {
            break;
        }
        gm_plays(&w, &gm, turn).await;
    }
    let page = w.get("/games/race", Some(&alice)).await;
    assert!(page.body.contains("The game is over"), "{}", page.body);
    let late = w.send_sheet("race", &alice, "RUNNER RED\nRUN 1\n", 9).await;
    assert_ne!(late.status, StatusCode::OK, "{}", late.body);
}

#[tokio::test]
async fn the_api_lists_each_game_with_its_options_and_their_defaults() {
    let w = world().await;
    let token = w.token("alice").await;
    let listed = w
        .api(Method::GET, "/api/rulesets", Some(&token), None)
        .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    let all: serde_json::Value = serde_json::from_str(&listed.body).unwrap();
    let relay = all
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "relay")
        .expect("the test host runs Relay");
    assert_eq!(relay["options"][0]["id"], "finish");
    assert_eq!(relay["options"][0]["default"], "12");
    let anonymous = w.api(Method::GET, "/api/rulesets", None, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_game_that_opens_standing_orders_shows_them_to_every_seat() {
    let w = world().await;
    let seats = [("RED", "alice"), ("BLU", "bob"), ("GRN", "carol")];
    let open = [("open_cheers", "yes")];
    empires_testkit::relay_game_with(&w.host.store, "race", &seats, &open, START).await;
    let carol = w.session("carol").await;
    let cheer = w
        .send_sheet("race", &carol, "RUNNER GRN\nCHEER BLU\n", 1)
        .await;
    assert_eq!(cheer.status, StatusCode::OK, "{}", cheer.body);
    let alice = w.session("alice").await;
    let page = w.get("/games/race", Some(&alice)).await;
    assert!(
        page.body.contains("Standing orders of the other seats") && page.body.contains("CHEER BLU"),
        "{}",
        page.body
    );
}
