//! The host administrator's pages: every account with its role and who holds it, making a
//! GM, a reset link for any account (a GM who lost their password, a player whose address
//! is gone), and each account's own log. Only the administrator reaches them; anyone else
//! is told there is no such page.

use super::account::{LogLine, log_lines};
use super::console::{LINK_LIFE, LinkShown, check_account_name};
use super::layout::{Nav, page};
use crate::auth::{CsrfForm, Empty, Me, hash_password, new_secret, secret_hash};
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use empires_host::store::{Account, LinkPurpose, Role};
use serde::Deserialize;
use std::sync::Arc;

/// How many random characters a new GM's first password has.
const PASSWORD_CHARS: usize = 20;

/// An account as the administrator's list shows it.
pub struct AccountLine {
    pub id: i64,
    pub name: String,
    pub role: String,
    pub email: String,
    pub password: bool,
    pub held_by: String,
    pub seats: usize,
}

#[derive(Template)]
#[template(path = "admin.html")]
struct AdminPage {
    nav: Option<Nav>,
    csrf: String,
    notice: Option<String>,
    link: Option<LinkShown>,
    accounts: Vec<AccountLine>,
}

#[derive(Template)]
#[template(path = "admin_account.html")]
struct AccountLogPage {
    nav: Option<Nav>,
    csrf: String,
    account: AccountLine,
    log: Vec<LogLine>,
}

/// Refused, as a page that is not there, unless `me` is the host administrator.
fn admin_only(me: &Me) -> Result<(), Failure> {
    if me.account.admin {
        Ok(())
    } else {
        Err(Failure::not_found("no such page"))
    }
}

fn role_text(a: &Account) -> String {
    match (a.role, a.admin) {
        (Role::Gm, true) => "GM, administrator",
        (Role::Gm, false) => "GM",
        (Role::Player, _) => "player",
    }
    .to_string()
}

async fn line(host: &Host, a: Account, names: &[(i64, String)]) -> Result<AccountLine, Failure> {
    let held_by = a
        .managed
        .and_then(|(gm, _)| names.iter().find(|(id, _)| *id == gm))
        .map(|(_, n)| n.clone())
        .unwrap_or_default();
    Ok(AccountLine {
        id: a.id,
        role: role_text(&a),
        email: match (&a.email, a.email_verified) {
            (Some(e), true) => e.clone(),
            (Some(e), false) => format!("{e} (not verified)"),
            (None, _) => String::new(),
        },
        password: a.password_hash.is_some(),
        held_by,
        seats: host.store.accounts.games_played_by(a.id).await?.len(),
        name: a.name,
    })
}

async fn admin_page(
    host: &Host,
    me: &Me,
    notice: Option<String>,
    link: Option<LinkShown>,
) -> Result<Response, Failure> {
    let all = host.store.accounts.accounts().await?;
    let names: Vec<(i64, String)> = all.iter().map(|a| (a.id, a.name.clone())).collect();
    let mut accounts = Vec::new();
    for a in all {
        accounts.push(line(host, a, &names).await?);
    }
    Ok(page(&AdminPage {
        nav: Nav::of(me),
        csrf: me.csrf.clone(),
        notice,
        link,
        accounts,
    })?
    .into_response())
}

/// `/admin`: every account.
pub async fn show(State(host): State<Arc<Host>>, me: Me) -> Result<Response, Failure> {
    admin_only(&me)?;
    admin_page(&host, &me, None, None).await
}

#[derive(Deserialize)]
pub struct GmForm {
    #[serde(default)]
    name: String,
}

/// Makes a GM: a new account, whose first password is shown once, or an existing account
/// raised to GM (its password unchanged).
pub async fn make_gm(
    State(host): State<Arc<Host>>,
    form: CsrfForm<GmForm>,
) -> Result<Response, Failure> {
    let me = &form.me;
    admin_only(me)?;
    let name = form.form.name.trim();
    check_account_name(name)?;
    let now = host.now();
    let notice = match host.store.accounts.account_by_name(name).await? {
        Some(a) => {
            host.store
                .accounts
                .set_role(a.id, Role::Gm, a.admin)
                .await?;
            host.store
                .accounts
                .log_account(
                    a.id,
                    Some(me.account.id),
                    None,
                    now,
                    "role changed",
                    "made a GM",
                )
                .await?;
            format!("{name} is a GM now; their password is unchanged.")
        }
        None => {
            let password = new_secret()[..PASSWORD_CHARS].to_string();
            let hash = hash_password(&password).await?;
            let id = host
                .store
                .accounts
                .create_account(name, None, Role::Gm, Some(&hash), now)
                .await?;
            host.store
                .accounts
                .log_account(id, Some(me.account.id), None, now, "made", "a GM")
                .await?;
            format!(
                "The GM account \"{name}\" is made, with the password {password}, shown only now: pass it on, and ask them to change it on their account page."
            )
        }
    };
    admin_page(&host, me, Some(notice), None).await
}

async fn account_of(host: &Host, id: i64) -> Result<Account, Failure> {
    host.store
        .accounts
        .account(id)
        .await
        .map_err(|_| Failure::not_found("no such account"))
}

/// A one-time reset link for any account, shown once to the administrator to pass on.
pub async fn reset_link(
    State(host): State<Arc<Host>>,
    Path(id): Path<i64>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    let me = &form.me;
    admin_only(me)?;
    let account = account_of(&host, id).await?;
    let token = new_secret();
    let now = host.now();
    host.store
        .accounts
        .create_link(
            &secret_hash(&token),
            LinkPurpose::Reset,
            account.id,
            me.account.id,
            now,
            now + LINK_LIFE,
        )
        .await?;
    host.store
        .accounts
        .log_account(
            account.id,
            Some(me.account.id),
            None,
            now,
            "one-time link made",
            "reset link, by the host administrator",
        )
        .await?;
    let base = host.config.public_url.clone().unwrap_or_default();
    let shown = LinkShown {
        what: format!("Password reset for {}", account.name),
        url: format!("{}/reset/{token}", base.trim_end_matches('/')),
        days: LINK_LIFE / (24 * 3600 * 1000),
        // The administrator hands it over: an account locked out may have lost its mail.
        mailed_to: None,
    };
    admin_page(&host, me, None, Some(shown)).await
}

/// `/admin/accounts/{id}`: one account's log.
pub async fn account_log(
    State(host): State<Arc<Host>>,
    Path(id): Path<i64>,
    me: Me,
) -> Result<Response, Failure> {
    admin_only(&me)?;
    let account = account_of(&host, id).await?;
    let names: Vec<(i64, String)> = host
        .store
        .accounts
        .accounts()
        .await?
        .into_iter()
        .map(|a| (a.id, a.name))
        .collect();
    let log = log_lines(&host, account.id, &account.name).await?;
    Ok(page(&AccountLogPage {
        nav: Nav::of(&me),
        csrf: me.csrf.clone(),
        account: line(&host, account, &names).await?,
        log,
    })?
    .into_response())
}
