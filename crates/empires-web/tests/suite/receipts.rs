//! Sheets sent through the API while turns are played: every receipt is honoured, played in
//! the turn it names or still pending for it, on SQLite and (with `DATABASE_URL`) on
//! PostgreSQL, where an unlocked read of the game once stranded most of them.

use crate::common::{self, world};
use axum::http::StatusCode;
use empires_host::store::HostLimits;
use empires_host::turn::TurnOptions;
use std::sync::atomic::{AtomicBool, Ordering};

async fn sheets_while_turns_are_played(w: common::World) {
    w.host
        .store
        .limits
        .set_host_limits(HostLimits {
            sheets_per_minute: 100_000,
            sheets_kept: 50,
        })
        .await
        .unwrap();
    let tokens = [w.token("alice").await, w.token("alice").await];
    let stop = AtomicBool::new(false);
    let send = |token: &str, i: usize| {
        let token = token.to_string();
        let w = &w;
        async move {
            let text = format!("GAME alpha\nEMPIRE EN\n\n1. TAX\n# {i}\n");
            w.post_orders(&token, &text, None).await
        }
    };
    let sender = |token: &'static str| {
        let (stop, send) = (&stop, &send);
        async move {
            let mut kept = 0;
            let mut i = 0;
            while !stop.load(Ordering::Relaxed) {
                i += 1;
                let a = send(token, i).await;
                assert!(
                    a.status == StatusCode::OK || a.status == StatusCode::CONFLICT,
                    "{}: {}",
                    a.status,
                    a.body
                );
                kept += usize::from(a.status == StatusCode::OK);
                tokio::task::yield_now().await;
            }
            kept
        }
    };
    let one: &'static str = Box::leak(tokens[0].clone().into_boxed_str());
    let two: &'static str = Box::leak(tokens[1].clone().into_boxed_str());
    let turns = async {
        // The tutorial game is won at turn 11: eight turns stay short of it.
        for t in 1..=8 {
            let options = TurnOptions {
                yes: true,
                expect: Some(t),
                ..TurnOptions::default()
            };
            w.host
                .store
                .games
                .play_turn("alpha", options, w.host.now())
                .await
                .unwrap();
            // Time for sheets between turns as well as during them.
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        stop.store(true, Ordering::Relaxed);
    };
    let (a, b, ()) = tokio::join!(sender(one), sender(two), turns);
    assert!(a + b > 8, "{a} + {b} sheets kept");
    let stranded = w.host.store.games.stranded_receipts("alpha").await.unwrap();
    assert!(
        stranded.is_empty(),
        "{} stranded: {stranded:?}",
        stranded.len()
    );
    let checked = empires_host::verify::verify(w.host.store.games.as_ref(), "alpha")
        .await
        .unwrap();
    assert_eq!(checked.failures(), 0, "{checked}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_receipt_of_the_api_is_honoured_while_turns_are_played() {
    sheets_while_turns_are_played(world().await).await;
    if let Some(url) = empires_testkit::fresh_postgres("web_receipts").await {
        sheets_while_turns_are_played(common::build(url.clone(), None).await).await;
        empires_testkit::drop_postgres(&url).await;
    }
}
