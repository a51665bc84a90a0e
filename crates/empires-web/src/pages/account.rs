//! A player's own account: changing the password, API tokens; and the one-time links a GM
//! hands out (an invitation to set a first password, a password reset).

use super::layout::{Nav, page, time};
use super::login::start_session;
use crate::auth::{
    self, CsrfForm, Empty, LOGIN_COOKIE, Me, check_new_password, hash_password, new_secret,
    same_token, secret_hash, set_cookie,
};
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::http::header::SET_COOKIE;
use axum::response::{AppendHeaders, IntoResponse, Redirect, Response};
use empires_host::store::LinkPurpose;
use serde::Deserialize;
use std::sync::Arc;

/// A token as the account page lists it.
pub struct TokenLine {
    pub id: i64,
    pub label: String,
    pub created: String,
    pub revoked: bool,
}

/// An invitation to a seat as the account page lists it.
pub struct InvitationLine {
    pub id: i64,
    pub game: String,
    pub title: String,
    pub seat: String,
    pub by: String,
    pub at: String,
}

/// A line of the account's own log.
pub struct LogLine {
    pub at: String,
    pub who: String,
    pub game: String,
    pub action: String,
    pub detail: String,
}

#[derive(Template)]
#[template(path = "account.html")]
struct AccountPage {
    nav: Option<Nav>,
    csrf: String,
    name: String,
    notice: Option<String>,
    new_token: Option<String>,
    tokens: Vec<TokenLine>,
    invitations: Vec<InvitationLine>,
    log: Vec<LogLine>,
    /// The addresses of my calendar and news feeds, shown once when made.
    feeds: Option<super::feeds::FeedLinks>,
    has_feeds: bool,
}

/// How many lines of its log the account page shows.
const LOG_LINES: i64 = 100;

/// An account's log as a page shows it: `who` names the actor, "you" for the account.
pub async fn log_lines(host: &Host, account: i64, name: &str) -> Result<Vec<LogLine>, Failure> {
    Ok(host
        .store
        .accounts
        .account_log(account, LOG_LINES)
        .await?
        .into_iter()
        .map(|l| LogLine {
            at: time(l.at),
            who: match l.actor {
                Some(a) if a == name => "you".to_string(),
                Some(a) => a,
                None => "the host's command line".to_string(),
            },
            game: l.game.unwrap_or_default(),
            action: l.action,
            detail: l.detail,
        })
        .collect())
}

async fn account_page(
    host: &Host,
    me: &Me,
    notice: Option<String>,
    new_token: Option<String>,
) -> Result<Response, Failure> {
    account_page_with(host, me, notice, new_token, None).await
}

/// The account page, with my feeds' addresses when they were just made.
pub async fn account_page_with(
    host: &Host,
    me: &Me,
    notice: Option<String>,
    new_token: Option<String>,
    feeds: Option<super::feeds::FeedLinks>,
) -> Result<Response, Failure> {
    let tokens = host
        .store
        .accounts
        .tokens(me.account.id)
        .await?
        .into_iter()
        .map(|t| TokenLine {
            id: t.id,
            label: t.label,
            created: time(t.created_at),
            revoked: t.revoked_at.is_some(),
        })
        .collect();
    let invitations = host
        .store
        .accounts
        .invitations_for(me.account.id)
        .await?
        .into_iter()
        .map(|i| InvitationLine {
            id: i.id,
            game: i.game,
            title: i.title,
            seat: i.seat,
            by: i.invited_by.unwrap_or_else(|| "the host".to_string()),
            at: time(i.created_at),
        })
        .collect();
    Ok(page(&AccountPage {
        nav: Nav::of(me),
        csrf: me.csrf.clone(),
        name: me.account.name.clone(),
        notice,
        new_token,
        tokens,
        invitations,
        log: log_lines(host, me.account.id, &me.account.name).await?,
        has_feeds: host.store.accounts.has_feed(me.account.id).await?,
        feeds,
    })?
    .into_response())
}

/// `/account`.
pub async fn show(State(host): State<Arc<Host>>, me: Me) -> Result<Response, Failure> {
    account_page(&host, &me, None, None).await
}

#[derive(Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    current: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    again: String,
}

/// Changes my password, given the current one; every session ends and this one starts
/// anew.
pub async fn password(
    State(host): State<Arc<Host>>,
    form: CsrfForm<PasswordForm>,
) -> Result<Response, Failure> {
    let (me, f) = (&form.me, &form.form);
    let current = me.account.password_hash.clone().unwrap_or_default();
    if !auth::verify_password(&current, &f.current).await {
        return Err(Failure::forbidden("the current password is wrong"));
    }
    check_new_password(&f.password, &f.again)?;
    let hash = hash_password(&f.password).await?;
    let now = host.now();
    host.store
        .accounts
        .set_password(me.account.id, &hash, now)
        .await?;
    host.store
        .accounts
        .log_account(
            me.account.id,
            Some(me.account.id),
            None,
            now,
            "password changed",
            "every session ended and every API token revoked",
        )
        .await?;
    let cookie = start_session(&host, me.account.id).await?;
    Ok(([(SET_COOKIE, cookie)], Redirect::to("/account")).into_response())
}

#[derive(Deserialize)]
pub struct TokenForm {
    #[serde(default)]
    label: String,
}

/// Makes an API token, shown once.
pub async fn make_token(
    State(host): State<Arc<Host>>,
    form: CsrfForm<TokenForm>,
) -> Result<Response, Failure> {
    let label = form.form.label.trim();
    if label.is_empty() || label.chars().count() > 100 {
        return Err(Failure::bad_request(
            "say what the token is for, in at most 100 characters",
        ));
    }
    let token = new_secret();
    host.store
        .accounts
        .create_token(form.me.account.id, label, &secret_hash(&token), host.now())
        .await?;
    account_page(&host, &form.me, None, Some(token)).await
}

/// Revokes one of my tokens.
pub async fn revoke_token(
    State(host): State<Arc<Host>>,
    Path(id): Path<i64>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    if !host
        .store
        .accounts
        .revoke_token(form.me.account.id, id, host.now())
        .await?
    {
        return Err(Failure::not_found("you have no such live token"));
    }
    account_page(&host, &form.me, Some("The token was revoked.".into()), None).await
}

#[derive(Template)]
#[template(path = "link.html")]
struct LinkPage {
    nav: Option<Nav>,
    heading: &'static str,
    name: String,
    action: String,
    csrf: String,
    message: Option<String>,
}

fn purpose_of(kind: &str) -> Result<(LinkPurpose, &'static str), Failure> {
    match kind {
        "invite" => Ok((LinkPurpose::Invite, "Welcome: choose your password")),
        "reset" => Ok((LinkPurpose::Reset, "Choose a new password")),
        _ => Err(Failure::not_found("no such page")),
    }
}

fn spent() -> Failure {
    Failure::not_found(
        "this link has been used, has expired or was never made: ask your GM for a new one",
    )
}

/// `/invite/{token}` and `/reset/{token}`: the form to set a password, if the link is live.
pub async fn link_form(
    State(host): State<Arc<Host>>,
    Path((kind, token)): Path<(String, String)>,
) -> Result<Response, Failure> {
    let (purpose, heading) = purpose_of(&kind)?;
    let account = host
        .store
        .accounts
        .link_account(&secret_hash(&token), purpose, host.now())
        .await?
        .ok_or_else(spent)?;
    let csrf = new_secret();
    let body = page(&LinkPage {
        nav: None,
        heading,
        name: account.name,
        action: format!("/{kind}/{token}"),
        csrf: csrf.clone(),
        message: None,
    })?;
    let cookie = set_cookie(LOGIN_COOKIE, &csrf, 3600, host.config.secure_cookies);
    Ok(([(SET_COOKIE, cookie)], body).into_response())
}

#[derive(Deserialize)]
pub struct LinkForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    again: String,
}

/// Sets the password a link was for, uses the link up and logs the player in.
pub async fn link_use(
    State(host): State<Arc<Host>>,
    Path((kind, token)): Path<(String, String)>,
    req: Request,
) -> Result<Response, Failure> {
    let (purpose, _) = purpose_of(&kind)?;
    let (parts, body) = req.into_parts();
    let doubled = auth::cookie(&parts, LOGIN_COOKIE).unwrap_or_default();
    let bytes = auth::read_body(Request::from_parts(parts, body), &host).await?;
    let f: LinkForm = serde_urlencoded::from_bytes(&bytes)
        .map_err(|e| Failure::bad_request(format!("the form cannot be read: {e}")))?;
    if !same_token(&f.csrf, &doubled) {
        return Err(Failure::forbidden(
            "the form's security token is missing or out of date: open the link again",
        ));
    }
    check_new_password(&f.password, &f.again)?;
    let hash = hash_password(&f.password).await?;
    let account = host
        .store
        .accounts
        .redeem_link(&secret_hash(&token), purpose, &hash, host.now())
        .await?
        .ok_or_else(spent)?;
    host.store
        .accounts
        .log_account(
            account,
            Some(account),
            None,
            host.now(),
            "password set",
            &format!(
                "with a one-time {kind} link; every session ended and every API token revoked"
            ),
        )
        .await?;
    // A link the host mailed proves the address it went to, as the address's own link does
    // (the two share the token): a player invited by mail need not confirm it again.
    if let Some((_, email)) = host
        .store
        .accounts
        .verify_email(&secret_hash(&token), host.now())
        .await?
    {
        host.store
            .accounts
            .log_account(
                account,
                Some(account),
                None,
                host.now(),
                "address confirmed",
                &email,
            )
            .await?;
        host.mail_current_reports(account).await?;
    }
    let cookie = start_session(&host, account).await?;
    let clear = set_cookie(LOGIN_COOKIE, "", 0, host.config.secure_cookies);
    Ok((
        StatusCode::SEE_OTHER,
        AppendHeaders([(SET_COOKIE, cookie), (SET_COOKIE, clear)]),
        Redirect::to("/games"),
    )
        .into_response())
}

/// Accepts or declines an invitation to a seat: `/account/invitations/{id}/{answer}`.
/// Accepting makes the seat the account's, and the game is told who plays it.
pub async fn answer_invitation(
    State(host): State<Arc<Host>>,
    Path((id, answer)): Path<(i64, String)>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    let me = &form.me;
    let accept = match answer.as_str() {
        "accept" => true,
        "decline" => false,
        _ => return Err(Failure::not_found("an invitation is accepted or declined")),
    };
    let now = host.now();
    let invitation = host
        .store
        .accounts
        .answer_invitation(id, me.account.id, accept, now)
        .await?
        .ok_or_else(|| Failure::not_found("no such invitation is waiting for you"))?;
    let (game, seat) = (&invitation.game, &invitation.seat);
    let word = if accept { "accepted" } else { "declined" };
    let code = empires_host::store::SeatCode::parse(seat)
        .ok_or_else(|| Failure::not_found(format!("\"{seat}\" is not a seat")))?;
    if accept {
        super::console::announce_player(&host, game, code, &me.account.name).await?;
        host.mail_current_report(game, me.account.id).await?;
    }
    host.store
        .accounts
        .audit_by(
            Some(game),
            me.account.id,
            now,
            &format!("{word} an invitation"),
            &format!("{} to {seat}", me.account.name),
        )
        .await?;
    host.store
        .accounts
        .log_account(
            me.account.id,
            Some(me.account.id),
            Some(game),
            now,
            &format!("invitation {word}"),
            &format!("{seat} of game \"{game}\""),
        )
        .await?;
    let notice = if accept {
        format!("You play {seat} in \"{}\" from now on.", invitation.title)
    } else {
        format!("You declined {seat} in \"{}\".", invitation.title)
    };
    account_page(&host, me, Some(notice), None).await
}
