//! A forgotten password, recovered by its owner alone: `/forgot` takes an account's name
//! and mails a one-time reset link to the account's verified address. The answer is the
//! same whether or not the name exists or has an address, so that asking tells nothing;
//! an account gets at most [`MAILS_PER_HOUR`] such mails an hour, so that no one can fill
//! its owner's mailbox. A GM cannot reset the password of an account with one of its own;
//! the host administrator can (the accounts page, or `empires accounts reset`).

use super::layout::page;
use crate::auth::{self, LOGIN_COOKIE, new_secret, same_token, secret_hash, set_cookie};
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::extract::{Request, State};
use axum::http::header::SET_COOKIE;
use axum::response::{IntoResponse, Response};
use empires_host::store::LinkPurpose;
use empires_host::store::Millis;
use serde::Deserialize;
use std::sync::Arc;

/// How long a link sent by mail works: one day.
pub const MAILED_LINK_LIFE: Millis = 24 * 3600 * 1000;
/// Reset mails one account may be sent in an hour.
pub const MAILS_PER_HOUR: i64 = 3;
/// What the outbox calls such a mail.
const KIND: &str = "reset";

#[derive(Template)]
#[template(path = "forgot.html")]
struct ForgotPage {
    nav: Option<super::layout::Nav>,
    csrf: String,
    done: bool,
}

fn forgot_page(host: &Host, done: bool) -> Result<Response, Failure> {
    let csrf = new_secret();
    let body = page(&ForgotPage {
        nav: None,
        csrf: csrf.clone(),
        done,
    })?;
    let cookie = set_cookie(LOGIN_COOKIE, &csrf, 3600, host.config.secure_cookies);
    Ok(([(SET_COOKIE, cookie)], body).into_response())
}

/// `/forgot`: the form.
pub async fn form(State(host): State<Arc<Host>>) -> Result<Response, Failure> {
    forgot_page(&host, false)
}

#[derive(Deserialize)]
pub struct ForgotForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
}

/// Mails a reset link to the account's verified address, if it has one; the same answer
/// either way.
pub async fn send(State(host): State<Arc<Host>>, req: Request) -> Result<Response, Failure> {
    let (parts, body) = req.into_parts();
    let doubled = auth::cookie(&parts, LOGIN_COOKIE).unwrap_or_default();
    let bytes = auth::read_body(Request::from_parts(parts, body), &host).await?;
    let f: ForgotForm = serde_urlencoded::from_bytes(&bytes)
        .map_err(|e| Failure::bad_request(format!("the form cannot be read: {e}")))?;
    if !same_token(&f.csrf, &doubled) {
        return Err(Failure::forbidden(
            "the form's security token is missing or out of date: open the page again",
        ));
    }
    let name = f.name.trim();
    if name.len() <= 40
        && let Some(account) = host.store.accounts.account_by_name(name).await?
        && let (Some(email), true) = (account.email.clone(), account.email_verified)
    {
        let now = host.now();
        let sent = host
            .store
            .accounts
            .mail_count_since(account.id, KIND, now - 3600 * 1000)
            .await?;
        if sent < MAILS_PER_HOUR {
            mail_link(&host, &account, &email, now).await?;
        }
    }
    forgot_page(&host, true)
}

async fn mail_link(
    host: &Host,
    account: &empires_host::store::Account,
    email: &str,
    now: Millis,
) -> Result<(), Failure> {
    let token = new_secret();
    host.store
        .accounts
        .create_link(
            &secret_hash(&token),
            LinkPurpose::Reset,
            account.id,
            account.id,
            now,
            now + MAILED_LINK_LIFE,
        )
        .await?;
    let url = host.link(&format!("/reset/{token}"));
    let text = format!(
        "Someone (we hope you) asked for a new password for the Empires account \"{}\".\n\nTo choose one, open this link within a day; it works once:\n\n{url}\n\nIf you did not ask, do nothing: your password stays as it is.\n",
        account.name
    );
    host.queue_text(
        account.id,
        email,
        KIND,
        "A new password for your Empires account",
        &text,
    )
    .await?;
    host.store
        .accounts
        .log_account(
            account.id,
            None,
            None,
            now,
            "reset link mailed",
            &format!("to {email}, asked for on the log-in page"),
        )
        .await?;
    Ok(())
}
