//! One player cannot fill the host: an API body over 256 KiB is refused with a JSON answer
//! before it is read whole; an account sending more sheets a minute than the host's limit
//! is answered 429 with Retry-After, through every door and token it has; a seat's
//! superseded sheets beyond the host's limit are dropped, their hashes kept in the audit
//! log, and the played sheet never is; an SQLite store's write-ahead log stays under its
//! cap while readers never stop, and a clean stop empties it.

use crate::common::{self, world};
use axum::http::{Method, StatusCode};
use empires_host::store::HostLimits;
use empires_host::store::prelude::*;
use empires_host::store::sql::WAL_CAP;
use serde_json::json;

const SHEET: &str = "GAME alpha\nTURN 1\nEMPIRE EN\n\n1. TAX\n";

#[tokio::test]
async fn an_api_body_over_256_kib_is_refused_as_json() {
    let w = world().await;
    let token = w.token("alice").await;
    let big = format!("{SHEET}# {}\n", "x".repeat(300 * 1024));
    for path in ["/api/games/alpha/orders", "/api/games/alpha/check"] {
        let a = w
            .api(
                Method::POST,
                path,
                Some(&token),
                Some(json!({ "text": big })),
            )
            .await;
        assert_eq!(
            a.status,
            StatusCode::PAYLOAD_TOO_LARGE,
            "{path}: {}",
            a.body
        );
        let j: serde_json::Value = serde_json::from_str(&a.body).expect("a JSON answer");
        assert!(
            j["error"].as_str().unwrap().contains("256 KiB"),
            "{}",
            a.body
        );
    }
    assert_eq!(w.host.store.accounts.sheet_count("alpha").await.unwrap(), 0);
}

#[tokio::test]
async fn an_account_over_its_sheets_a_minute_is_told_to_wait() {
    let w = world().await;
    w.host
        .store
        .limits
        .set_host_limits(HostLimits {
            sheets_per_minute: 3,
            sheets_kept: 50,
        })
        .await
        .unwrap();
    let (one, two) = (w.token("alice").await, w.token("alice").await);
    let send = |token: &str| {
        let token = token.to_string();
        let w = &w;
        async move { w.post_orders(&token, SHEET, Some(1)).await }
    };
    for token in [&one, &two, &one] {
        assert_eq!(send(token).await.status, StatusCode::OK);
    }
    // The fourth, through either token or the web form, waits.
    let a = send(&two).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
    let wait: u64 = a.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert!(a.body.contains("\"error\""), "{}", a.body);
    let alice = w.session("alice").await;
    let form = w.send_sheet("alpha", &alice, SHEET, 1).await;
    assert_eq!(form.status, StatusCode::TOO_MANY_REQUESTS, "{}", form.body);
    assert!(form.headers.contains_key("retry-after"));
    // Bob has his own allowance; a minute later alice has hers again.
    let bob = w.token("bob").await;
    let a = w
        .post_orders(&bob, &SHEET.replace("EN", "SC"), Some(1))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    w.host.clock.advance(61_000);
    assert_eq!(send(&one).await.status, StatusCode::OK);
}

/// Runs `check` on an SQLite world and, with `DATABASE_URL`, on PostgreSQL.
async fn on_every_store<F, Fut>(tag: &str, check: F)
where
    F: Fn(common::World) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    check(world().await).await;
    if let Some(url) = empires_testkit::fresh_postgres(tag).await {
        check(common::build(url.clone(), None).await).await;
        empires_testkit::drop_postgres(&url).await;
    }
}

#[tokio::test]
async fn superseded_sheets_beyond_the_limit_are_dropped_and_their_hashes_kept() {
    on_every_store("web_kept", |w| async move {
        w.host
            .store
            .limits
            .set_host_limits(HostLimits {
                sheets_per_minute: 1000,
                sheets_kept: 3,
            })
            .await
            .unwrap();
        let token = w.token("alice").await;
        let mut hashes = Vec::new();
        for i in 0..8 {
            let text = format!("{SHEET}# sheet {i}\n");
            hashes.push(empires_host::gamedir::sha256_hex(text.as_bytes()));
            let a = w.post_orders(&token, &text, Some(1)).await;
            assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        }
        let kept: Vec<String> = w
            .sql
            .submissions("alpha")
            .await
            .unwrap()
            .into_iter()
            .map(|(_, _, h, _, _, _)| h)
            .collect();
        assert_eq!(kept, hashes[5..], "the three newest are kept");
        let audit = w.host.store.accounts.audit_entries("alpha").await.unwrap();
        let dropped: String = audit
            .iter()
            .filter(|(_, _, a, _)| a == "dropped superseded sheets")
            .map(|(_, _, _, d)| d.clone())
            .collect();
        for h in &hashes[..5] {
            assert!(dropped.contains(h.as_str()), "{h} is not in {dropped}");
        }
        // The turn plays the newest, and keeps it.
        w.host.play_turn("alpha", Some(1), None).await.unwrap();
        let played = w.host.store.games.turn_files("alpha", 1).await.unwrap();
        let en = played.iter().find(|(p, _)| p == "orders/EN.txt").unwrap();
        assert_eq!(empires_host::gamedir::sha256_hex(&en.1), hashes[7]);
    })
    .await;
}

/// Superseded sheets are dropped a fifth of the limit at a time, not at every sheet: a
/// seat holds the limit, or up to a fifth more for a moment, and every sheet sent is either
/// kept or named in the audit log.
#[tokio::test]
async fn superseded_sheets_are_dropped_a_fifth_of_the_limit_at_a_time() {
    let w = world().await;
    w.host
        .store
        .limits
        .set_host_limits(HostLimits {
            sheets_per_minute: 1000,
            sheets_kept: 10,
        })
        .await
        .unwrap();
    let token = w.token("alice").await;
    let mut hashes = Vec::new();
    let mut most = 0;
    for i in 0..25 {
        let text = format!("{SHEET}# sheet {i}\n");
        hashes.push(empires_host::gamedir::sha256_hex(text.as_bytes()));
        let a = w.post_orders(&token, &text, Some(1)).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        let held = w.sql.submissions("alpha").await.unwrap().len();
        assert!(held <= 11, "sheet {i}: {held} held");
        most = most.max(held);
    }
    assert_eq!(most, 11, "at most one sheet waits to be dropped");
    let kept: Vec<String> = w
        .sql
        .submissions("alpha")
        .await
        .unwrap()
        .into_iter()
        .map(|(_, _, h, _, _, _)| h)
        .collect();
    assert_eq!(kept, hashes[25 - kept.len()..], "the newest are kept");
    let audit = w.host.store.accounts.audit_entries("alpha").await.unwrap();
    let dropped: String = audit
        .iter()
        .filter(|(_, _, a, _)| a == "dropped superseded sheets")
        .map(|(_, _, _, d)| d.clone())
        .collect();
    for h in &hashes[..25 - kept.len()] {
        assert!(dropped.contains(h.as_str()), "{h} is not in {dropped}");
    }
}

#[tokio::test]
async fn the_write_ahead_log_stays_under_its_cap_while_readers_never_stop() {
    let w = world().await;
    let store = w.sql.clone();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (store, stop) = (store.clone(), stop.clone());
        tokio::spawn(async move {
            let mut reads = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                store.audit_entries("alpha").await.unwrap();
                reads += 1;
            }
            reads
        })
    };
    let detail = "x".repeat(512 * 1024);
    let mut largest = 0;
    // 160 MiB written, well past the cap, while the reader reads.
    for _ in 0..320 {
        store
            .audit(Some("alpha"), 0, "filler", &detail)
            .await
            .unwrap();
        store.keep_wal_small().await.unwrap();
        largest = largest.max(store.wal_bytes().unwrap());
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let reads = reader.await.unwrap();
    assert!(reads > 10, "the reader read {reads} times");
    assert!(largest <= WAL_CAP, "the log reached {largest} bytes");
    assert!(store.wal_bytes().unwrap() > 0);
    store.close().await;
    assert_eq!(store.wal_bytes(), Some(0), "a clean stop empties the log");
}
