//! Logging in and out. The log-in form doubles its CSRF token in a short-lived cookie (there
//! is no session yet to keep it in); each attempt counts against the rate limit
//! ([`crate::auth::limit`]); a successful one starts a new session with a new id and marks
//! the browser with a device cookie.

use super::layout::{Nav, page};
use crate::auth::limit::{self, Keys};
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
use empires_host::store::Account;
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

/// A log-in that succeeded.
pub struct LoggedIn {
    pub account: Account,
    /// The SHA-256 of the device cookie the browser sent, when it is one this account's
    /// log-ins were made from ([`limit::DEVICE_COOKIE`]).
    pub device: Option<String>,
}

/// Checks a name and password, with the rate limit ([`crate::auth::limit`]): the account,
/// or why not. `device` is the device cookie the request carried, if any. A name longer
/// than an account's can be, or a password longer than any taken, is refused with 400
/// before anything is looked up or counted.
pub async fn authenticate(
    host: &Host,
    name: &str,
    password: &str,
    address: &str,
    device: Option<&str>,
) -> Result<LoggedIn, Failure> {
    let name = limit::normalise_name(name);
    limit::check_login_name(name)?;
    if password.len() > auth::MAX_PASSWORD {
        return Err(Failure::bad_request(format!(
            "a password has at most {} bytes",
            auth::MAX_PASSWORD
        )));
    }
    let now = host.now();
    let account = host.store.accounts.account_by_name(name).await?;
    let device = match (device.filter(|d| !d.is_empty()), &account) {
        (Some(token), Some(a)) => {
            let sha = secret_hash(token);
            let owner = host.store.accounts.login_device(&sha, now).await?;
            (owner == Some(a.id)).then_some(sha)
        }
        _ => None,
    };
    let keys = match &device {
        Some(sha) => Keys::Device(sha.clone()),
        None => Keys::Name {
            name: name.to_string(),
            address: address.to_string(),
        },
    };
    // The try is counted before the password is checked: attempts made at the same time
    // cannot all pass a check that none of them has counted yet.
    keys.reserve(&host.store, now).await?;
    let hash = match account.as_ref().and_then(|a| a.password_hash.clone()) {
        Some(h) => h,
        None => stand_in_hash().await.to_string(),
    };
    let ok = auth::verify_password(&hash, password).await;
    match account {
        Some(a) if ok && a.password_hash.is_some() => {
            keys.succeeded(&host.store).await?;
            Ok(LoggedIn { account: a, device })
        }
        _ => Err(Failure::new(
            StatusCode::UNAUTHORIZED,
            "wrong account name or password",
        )),
    }
}

/// The device cookie for a browser that has just logged in: the one it sent, kept a year
/// longer, or a new one remembered for the account.
async fn device_cookie(
    host: &Host,
    logged: &LoggedIn,
    sent: Option<&str>,
) -> Result<String, Failure> {
    let now = host.now();
    let expires = now + limit::DEVICE_LIFE;
    let token = match (&logged.device, sent) {
        (Some(sha), Some(token)) => {
            host.store.accounts.renew_login_device(sha, expires).await?;
            token.to_string()
        }
        _ => {
            let token = new_secret();
            host.store
                .accounts
                .add_login_device(
                    &secret_hash(&token),
                    logged.account.id,
                    now,
                    expires,
                    limit::DEVICES_PER_ACCOUNT,
                )
                .await?;
            token
        }
    };
    Ok(set_cookie(
        limit::DEVICE_COOKIE,
        &token,
        limit::DEVICE_LIFE / 1000,
        host.config.secure_cookies,
    ))
}

/// Starts a session for `account`: the `Set-Cookie` value that carries it.
pub async fn start_session(host: &Host, account: i64) -> Result<String, Failure> {
    let token = new_secret();
    let now = host.now();
    host.store
        .accounts
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

/// Logs in, or shows the form again with what went wrong. A browser that logs in is given
/// a device cookie (or keeps its own), so that failures from elsewhere never shut it out.
pub async fn submit(State(host): State<Arc<Host>>, req: Request) -> Result<Response, Failure> {
    let (parts, body) = req.into_parts();
    let address = client_address(&parts, &host);
    let doubled = auth::cookie(&parts, LOGIN_COOKIE).unwrap_or_default();
    let device = auth::cookie(&parts, limit::DEVICE_COOKIE);
    let bytes = auth::read_body(Request::from_parts(parts, body), &host).await?;
    let form: LoginForm = serde_urlencoded::from_bytes(&bytes)
        .map_err(|e| Failure::bad_request(format!("the form cannot be read: {e}")))?;
    if !same_token(&form.csrf, &doubled) {
        return Err(Failure::forbidden(
            "the log-in form's security token is missing or out of date: reload the page and log in again",
        ));
    }
    match authenticate(
        &host,
        &form.name,
        &form.password,
        &address,
        device.as_deref(),
    )
    .await
    {
        Ok(logged) => {
            let cookie = start_session(&host, logged.account.id).await?;
            let device = device_cookie(&host, &logged, device.as_deref()).await?;
            let clear = set_cookie(LOGIN_COOKIE, "", 0, host.config.secure_cookies);
            Ok((
                AppendHeaders([
                    (SET_COOKIE, cookie),
                    (SET_COOKIE, device),
                    (SET_COOKIE, clear),
                ]),
                Redirect::to("/games"),
            )
                .into_response())
        }
        Err(f) if f.status.is_client_error() => {
            // The name is shown again in the form: never more of it than a name can have.
            let name = form.name.chars().take(limit::MAX_NAME).collect();
            login_page(&host, name, Some(f.message), f.status)
        }
        Err(f) => Err(f),
    }
}

/// Logs out (a POST with the session's CSRF token, so no other site can log a player out).
pub async fn logout(
    State(host): State<Arc<Host>>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    host.store
        .accounts
        .end_session(&form.me.session, host.now())
        .await?;
    let clear = set_cookie(SESSION_COOKIE, "", 0, host.config.secure_cookies);
    Ok(([(SET_COOKIE, clear)], Redirect::to("/login")).into_response())
}
