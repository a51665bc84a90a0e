//! Logging in and out. The log-in form doubles its CSRF token in a short-lived cookie (there
//! is no session yet to keep it in); failed attempts count against the name and the address
//! ([`crate::auth::limit`]); a successful one starts a new session with a new id.

use super::layout::{Nav, page};
use crate::auth::{
    self, CsrfForm, Empty, LOGIN_COOKIE, MaybeMe, SESSION_COOKIE, SESSION_LIFE, client_address,
    new_secret, same_token, secret_hash, set_cookie,
};
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::SET_COOKIE;
use axum::response::{AppendHeaders, IntoResponse, Redirect, Response};
use serde::Deserialize;
use std::sync::Arc;
use tokio::sync::OnceCell;

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    nav: Option<Nav>,
    csrf: String,
    name: String,
    message: Option<String>,
}

/// `/`: a logged-in visitor's games, else the log-in page.
pub async fn home(MaybeMe(me): MaybeMe) -> Redirect {
    Redirect::to(if me.is_some() { "/games" } else { "/login" })
}

/// The log-in form, with a fresh CSRF token doubled in a cookie.
pub async fn form(
    State(host): State<Arc<Host>>,
    MaybeMe(me): MaybeMe,
) -> Result<Response, Failure> {
    if me.is_some() {
        return Ok(Redirect::to("/games").into_response());
    }
    login_page(&host, String::new(), None, StatusCode::OK)
}

fn login_page(
    host: &Host,
    name: String,
    message: Option<String>,
    status: StatusCode,
) -> Result<Response, Failure> {
    let csrf = new_secret();
    let body = page(&LoginPage {
        nav: None,
        csrf: csrf.clone(),
        name,
        message,
    })?;
    let cookie = set_cookie(LOGIN_COOKIE, &csrf, 3600, host.config.secure_cookies);
    Ok((status, [(SET_COOKIE, cookie)], body).into_response())
}

#[derive(Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
}

/// A hash no password matches, checked when the name is unknown so that an unknown name
/// takes as long to refuse as a wrong password.
async fn stand_in_hash() -> &'static str {
    static HASH: OnceCell<String> = OnceCell::const_new();
    HASH.get_or_init(|| async { auth::hash_password(&new_secret()).await.unwrap_or_default() })
        .await
}

/// Checks a name and password, with the rate limit: the account, or why not.
pub async fn authenticate(
    host: &Host,
    name: &str,
    password: &str,
    address: &str,
) -> Result<empires_host::store::sql::Account, Failure> {
    let now = host.now();
    let allowed = host
        .limiter
        .lock()
        .map(|mut l| l.allows(name, address, now))
        .unwrap_or(false);
    if !allowed {
        return Err(Failure::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many failed log-ins: wait a quarter of an hour and try again",
        ));
    }
    let account = host.store.account_by_name(name.trim()).await?;
    let hash = match account.as_ref().and_then(|a| a.password_hash.clone()) {
        Some(h) => h,
        None => stand_in_hash().await.to_string(),
    };
    let ok = password.len() <= auth::MAX_PASSWORD && auth::verify_password(&hash, password).await;
    match account {
        Some(a) if ok && a.password_hash.is_some() => {
            if let Ok(mut l) = host.limiter.lock() {
                l.succeeded(name);
            }
            Ok(a)
        }
        _ => {
            if let Ok(mut l) = host.limiter.lock() {
                l.failed(name, address, now);
            }
            Err(Failure::new(
                StatusCode::UNAUTHORIZED,
                "wrong account name or password",
            ))
        }
    }
}

/// Starts a session for `account`: the `Set-Cookie` value that carries it.
pub async fn start_session(host: &Host, account: i64) -> Result<String, Failure> {
    let token = new_secret();
    let now = host.now();
    host.store
        .create_session(
            &secret_hash(&token),
            account,
            &new_secret(),
            now,
            now + SESSION_LIFE,
        )
        .await?;
    Ok(set_cookie(
        SESSION_COOKIE,
        &token,
        SESSION_LIFE / 1000,
        host.config.secure_cookies,
    ))
}

/// Logs in, or shows the form again with what went wrong.
pub async fn submit(State(host): State<Arc<Host>>, req: Request) -> Result<Response, Failure> {
    let (parts, body) = req.into_parts();
    let address = client_address(&parts, &host);
    let doubled = auth::cookie(&parts, LOGIN_COOKIE).unwrap_or_default();
    let bytes = auth::read_body(Request::from_parts(parts, body), &host).await?;
    let form: LoginForm = serde_urlencoded::from_bytes(&bytes)
        .map_err(|e| Failure::bad_request(format!("the form cannot be read: {e}")))?;
    if !same_token(&form.csrf, &doubled) {
        return Err(Failure::forbidden(
            "the log-in form's security token is missing or out of date: reload the page and log in again",
        ));
    }
    match authenticate(&host, &form.name, &form.password, &address).await {
        Ok(account) => {
            let cookie = start_session(&host, account.id).await?;
            let clear = set_cookie(LOGIN_COOKIE, "", 0, host.config.secure_cookies);
            Ok((
                AppendHeaders([(SET_COOKIE, cookie), (SET_COOKIE, clear)]),
                Redirect::to("/games"),
            )
                .into_response())
        }
        Err(f) if f.status.is_client_error() => {
            login_page(&host, form.name, Some(f.message), f.status)
        }
        Err(f) => Err(f),
    }
}

/// Logs out (a POST with the session's CSRF token, so no other site can log a player out).
pub async fn logout(
    State(host): State<Arc<Host>>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    host.store.end_session(&form.me.session, host.now()).await?;
    let clear = set_cookie(SESSION_COOKIE, "", 0, host.config.secure_cookies);
    Ok(([(SET_COOKIE, clear)], Redirect::to("/login")).into_response())
}
