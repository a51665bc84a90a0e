//! Every request has an id: made by the host (or taken from the proxy in front), answered in
//! `X-Request-Id`, and written on the request's log lines, so that a player's "it failed at
//! 20:14" can be found in the server's log.

use crate::common::world;
use axum::body::Body;
use axum::http::{Method, Request};
use std::sync::{Arc, Mutex};

/// A log writer keeping what is written, for the test to read.
#[derive(Clone, Default)]
struct Kept(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Kept {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Kept {
    type Writer = Kept;
    fn make_writer(&'a self) -> Kept {
        self.clone()
    }
}

/// The log of this test binary, kept from the first call on: a subscriber for the whole
/// process (one for this thread alone would miss events whose interest other tests' threads
/// already settled). Other tests' lines land here too; the ids told apart are unique.
fn kept_log() -> &'static Kept {
    static KEPT: std::sync::OnceLock<Kept> = std::sync::OnceLock::new();
    KEPT.get_or_init(|| {
        let kept = Kept::default();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(kept.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::INFO)
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("the one subscriber");
        kept
    })
}

#[tokio::test]
async fn every_request_has_an_id_answered_and_logged() {
    let kept = kept_log();
    let w = world().await;

    // An id made by the host: a UUID, different for each request.
    let a = w.get("/login", None).await;
    let b = w.get("/login", None).await;
    let id = |h: &axum::http::HeaderMap| h["x-request-id"].to_str().unwrap().to_string();
    let (first, second) = (id(&a.headers), id(&b.headers));
    assert_eq!(first.len(), 36, "{first}");
    assert_ne!(first, second);

    // An id from the proxy in front is kept.
    let req = Request::builder()
        .method(Method::GET)
        .uri("/nowhere")
        .header("x-request-id", "proxy-7f3a")
        .body(Body::empty())
        .unwrap();
    let c = w.send(req).await;
    assert_eq!(id(&c.headers), "proxy-7f3a");

    // A turn played is logged with its game and number.
    w.host.play_turn("alpha", Some(1), None).await.unwrap();

    let log = String::from_utf8(kept.0.lock().unwrap().clone()).unwrap();
    for want in [
        first.as_str(),
        second.as_str(),
        "proxy-7f3a",
        "path=/nowhere",
    ] {
        assert!(log.contains(want), "{want} is not in the log:\n{log}");
    }
    assert!(
        log.lines().any(|l| l.contains("turn played")
            && l.contains("game=\"alpha\"")
            && l.contains("turn=1")),
        "{log}"
    );
}
