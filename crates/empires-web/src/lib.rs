//! The web door of the game host (`empires serve`): players log in to read their reports
//! and write their turnsheets, checked as they type (2.7); the GM runs games from a
//! console; third-party clients use a JSON API with revocable tokens. Every page and call
//! goes through the host core ([`empires_host`]), so a turnsheet is checked, kept and
//! played exactly as one sent by the command line or by mail.
//!
//! - [`host`]: what every request shares (the store, the clock, games kept in memory).
//! - [`auth`]: passwords, sessions, CSRF tokens, API tokens, the log-in rate limit.
//! - [`access`]: who may see what of a game; every handler asks it first.
//! - [`pages`]: the HTML pages, rendered on the server, usable without JavaScript.
//! - [`api`]: the JSON API and its OpenAPI description.
//! - [`serve`]: starting the server, the first GM account, the demo.

pub mod access;
pub mod api;
pub mod auth;
pub mod failure;
pub mod host;
pub mod pages;
pub mod serve;
pub mod sheet_limit;

use axum::Router;
use std::sync::Arc;

pub use host::{Clock, Host, WebConfig};

/// The header carrying a request's id: taken from a proxy in front when it sends one, made
/// here otherwise, answered back, and written on every log line of the request.
pub const REQUEST_ID: &str = "x-request-id";

/// Every route of the site and the API, over one shared [`Host`]. Each request is logged
/// (`tracing`) in a span holding its id, method and path.
pub fn app(host: Arc<Host>) -> Router {
    use axum::http::HeaderName;
    use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
    use tower_http::trace::{DefaultOnResponse, TraceLayer};
    let id = HeaderName::from_static(REQUEST_ID);
    let trace = TraceLayer::new_for_http()
        .make_span_with(|req: &axum::http::Request<_>| {
            let id = req
                .headers()
                .get(REQUEST_ID)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("-");
            tracing::info_span!("request", id, method = %req.method(), path = %req.uri().path())
        })
        // One line a request at `info`: its status and how long it took.
        .on_response(DefaultOnResponse::new().level(tracing::Level::INFO));
    Router::new()
        .merge(pages::router())
        .nest("/api", api::router())
        .layer(axum::middleware::from_fn(pages::security_headers))
        // Pages, reports and the API's JSON go out compressed (gzip or brotli, as the
        // browser asks): a Napoleonic report page is most of a megabyte as written. Pictures
        // are compressed already and are sent as they are. Compressing pages that hold a
        // CSRF token beside text a stranger chose would open them to BREACH, but a stranger
        // cannot make a player's browser send credentialed requests from another site (the
        // session cookie is SameSite=Lax and the API takes tokens only by header).
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(host)
        .layer(PropagateRequestIdLayer::new(id.clone()))
        .layer(trace)
        .layer(SetRequestIdLayer::new(id, MakeRequestUuid))
}
