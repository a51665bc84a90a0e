//! A game played in steps through the web: Relay (`empires_testkit::relay`), whose steps
//! each expect one runner. The runner whose leg it is sends a sheet and the receipt names
//! the step; the other is refused, told when their leg comes; each runner's own page is
//! theirs alone.

use crate::common::{START, world};
use axum::http::{Method, StatusCode};

async fn race(w: &crate::common::World) {
    let runners = [("RED", "alice"), ("BLU", "bob")];
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
    let refused = w.api(Method::POST, path, Some(&bob), Some(run(3))).await;
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
