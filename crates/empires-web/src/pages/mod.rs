//! The site's pages, rendered on the server from compiled templates and usable without
//! JavaScript; a small script enhances the order editor with live checking.

pub mod account;
pub mod admin;
pub mod console;
pub mod feeds;
pub mod forgot;
pub mod games;
pub mod layout;
pub mod ledger;
pub mod login;
pub mod mail;
pub mod newgame;
pub mod note;
pub mod orders;
pub mod schedule;
pub mod seat;

use crate::host::Host;
use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::HeaderValue;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::sync::Arc;

/// Every page of the site.
pub fn router() -> Router<Arc<Host>> {
    Router::new()
        .route("/", get(login::home))
        .route("/login", get(login::form).post(login::submit))
        .route("/logout", post(login::logout))
        .route("/forgot", get(forgot::form).post(forgot::send))
        .route("/games", get(games::list))
        .route("/games/new", get(newgame::form).post(newgame::create))
        .route("/games/{game}", get(games::show))
        .route("/games/{game}/map.js", get(games::map_script))
        .route(
            "/games/{game}/turns/{turn}/reports/{file}",
            get(games::report_file),
        )
        .route(
            "/games/{game}/orders",
            get(orders::editor).post(orders::submit),
        )
        .route("/games/{game}/check", post(orders::live_check))
        .route("/games/{game}/console", get(console::show))
        .route("/games/{game}/console/play", post(console::play))
        .route("/games/{game}/console/undo", post(console::undo))
        .route("/games/{game}/console/end", post(console::end))
        .route("/games/{game}/console/message", post(console::message))
        .route("/games/{game}/console/note", post(note::send))
        .route("/games/{game}/console/rulings", post(console::rulings))
        .route("/games/{game}/console/seat", post(seat::give))
        .route("/games/{game}/console/link", post(console::link))
        .route("/games/{game}/console/sheets/{empire}", get(console::sheet))
        .route("/games/{game}/console/schedule", post(schedule::set))
        .route("/games/{game}/console/pause", post(schedule::pause))
        .route("/games/{game}/console/resume", post(schedule::resume))
        .route("/games/{game}/console/extend", post(schedule::extend))
        .route("/games/{game}/console/ledger/paid", post(ledger::paid))
        .route("/games/{game}/console/ledger/buy", post(ledger::buy))
        .route("/games/{game}/export", get(console::export))
        .route("/account", get(account::show))
        .route("/admin", get(admin::show))
        .route("/admin/gm", post(admin::make_gm))
        .route("/admin/accounts/{id}", get(admin::account_log))
        .route("/admin/accounts/{id}/reset", post(admin::reset_link))
        .route("/account/password", post(account::password))
        .route("/account/tokens", post(account::make_token))
        .route("/account/mail", get(mail::settings).post(mail::save))
        .route("/account/mail-password", post(mail::new_password))
        .route("/account/feeds", post(feeds::make))
        .route("/account/feeds/stop", post(feeds::stop))
        .route("/feeds/{token}/deadlines.ics", get(feeds::deadlines))
        .route("/feeds/{token}/reports.atom", get(feeds::reports))
        .route("/account/mail/verify/{token}", get(mail::verify))
        .route("/games/{game}/console/mail", get(mail::console))
        .route("/games/{game}/console/mail/{id}/retry", post(mail::retry))
        .route(
            "/games/{game}/console/mail/password/{empire}",
            post(mail::reset_password),
        )
        .route("/account/tokens/{id}/revoke", post(account::revoke_token))
        .route(
            "/account/invitations/{id}/{answer}",
            post(account::answer_invitation),
        )
        .route(
            "/invite/{token}",
            get(|s: State<Arc<Host>>, Path(t): Path<String>| {
                account::link_form(s, Path(("invite".to_string(), t)))
            })
            .post(|s: State<Arc<Host>>, Path(t): Path<String>, r: Request| {
                account::link_use(s, Path(("invite".to_string(), t)), r)
            }),
        )
        .route(
            "/reset/{token}",
            get(|s: State<Arc<Host>>, Path(t): Path<String>| {
                account::link_form(s, Path(("reset".to_string(), t)))
            })
            .post(|s: State<Arc<Host>>, Path(t): Path<String>, r: Request| {
                account::link_use(s, Path(("reset".to_string(), t)), r)
            }),
        )
        .route("/assets/style.css", get(style))
        .route("/assets/editor.js", get(editor_script))
        // The tab's icon; browsers that read no <link rel="icon"> ask for /favicon.ico.
        .route("/favicon.svg", get(favicon))
        .route("/favicon.ico", get(favicon))
        .fallback(not_found)
}

async fn not_found() -> crate::failure::Failure {
    crate::failure::Failure::not_found("no such page")
}

async fn style() -> Response {
    asset(
        "text/css; charset=utf-8",
        include_str!("../../assets/style.css"),
    )
}

async fn editor_script() -> Response {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("../../assets/editor.js"),
    )
}

async fn favicon() -> Response {
    asset("image/svg+xml", include_str!("../../assets/favicon.svg"))
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (CONTENT_TYPE, kind),
            (CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

/// Headers every answer carries: no sniffing of content types, no framing by other sites,
/// no referrer (a one-time link in the address bar must not leak to another site), and a
/// Content-Security-Policy ([`content_policy`]).
pub async fn security_headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("x-frame-options", HeaderValue::from_static("SAMEORIGIN"));
    h.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    if let Ok(policy) = HeaderValue::from_str(content_policy()) {
        h.insert("content-security-policy", policy);
    }
    res
}

/// What a page may load: scripts only from this host (the editor, a game's map layer) and
/// the report pages' own inline scripts, by hash, as each ruleset names them; nothing from elsewhere, no plugins, no
/// framing by other sites, forms posted only here. Styles may be inline: a report page is
/// one self-contained file with its own stylesheet and drawn map.
pub fn content_policy() -> &'static str {
    static POLICY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        use base64::Engine as _;
        use sha2::Digest as _;
        let mut scripts = String::from("'self'");
        // Each ruleset's report pages, as they are written now and as earlier versions
        // kept them.
        for r in empires_host::ruleset::all() {
            let page = r.page_scripts();
            let current = page.current.iter().map(|text| {
                base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text))
            });
            for hash in current.chain(page.earlier_sha256.iter().map(|h| h.to_string())) {
                scripts.push_str(&format!(" 'sha256-{hash}'"));
            }
        }
        format!(
            "default-src 'none'; script-src {scripts}; style-src 'self' 'unsafe-inline'; \
             img-src 'self' data:; connect-src 'self'; form-action 'self'; \
             frame-src 'self'; frame-ancestors 'self'; base-uri 'none'; object-src 'none'"
        )
    });
    &POLICY
}
