//! `empires accounts ...`: the host's accounts, for whoever runs the host (the command line
//! reaches the database, so it acts as the host administrator):
//!
//! - `list` shows every account, its role and what holds it;
//! - `make-gm` makes a GM: a new account with a password printed once, or an existing
//!   account raised to GM; `--admin` makes it a host administrator too;
//! - `reset` gives any account (a GM who lost their password, most of all) a new password,
//!   printed once: every session of the account ends and every API token is revoked.
//!
//! Each change is written in the account's own log.

use crate::commands::hosted::{block_on, open_db};
use crate::error::{Error, Result};
use empires_host::store::prelude::*;
use empires_host::store::sql::{Account, Role, SqlStore};
use std::fmt::Write as _;

/// How many random characters a printed password has.
const PASSWORD_CHARS: usize = 20;

use super::now;

fn role_text(a: &Account) -> &'static str {
    match (a.role, a.admin) {
        (Role::Gm, true) => "GM, administrator",
        (Role::Gm, false) => "GM",
        (Role::Player, _) => "player",
    }
}

/// `empires accounts list`.
pub fn list(db: &str) -> Result<String> {
    let store = open_db(db)?;
    block_on(async {
        let mut out = String::new();
        for a in store.accounts().await? {
            let email = match (&a.email, a.email_verified) {
                (Some(e), true) => e.clone(),
                (Some(e), false) => format!("{e} (not verified)"),
                (None, _) => "no address".to_string(),
            };
            let password = if a.password_hash.is_some() {
                "own password"
            } else {
                "no password yet"
            };
            let held = match a.managed {
                Some((gm, _)) => format!(
                    ", held by {} until it sets a password",
                    gm_name(&store, gm).await?
                ),
                None => String::new(),
            };
            let seats = store.games_played_by(a.id).await?.len();
            let _ = writeln!(
                out,
                "{}: {}, {email}, {password}, {seats} seats{held}",
                a.name,
                role_text(&a)
            );
        }
        if out.is_empty() {
            out.push_str("no accounts\n");
        }
        Ok(out)
    })
}

async fn gm_name(store: &SqlStore, id: i64) -> Result<String> {
    Ok(store.account(id).await?.name)
}

/// `empires accounts make-gm`.
pub fn make_gm(db: &str, name: &str, admin: bool) -> Result<String> {
    check_name(name)?;
    let store = super::hosted::create_db(db)?;
    block_on(async {
        let at = now()?;
        match store.account_by_name(name).await? {
            Some(a) => {
                let admin = admin || a.admin;
                store.set_role(a.id, Role::Gm, admin).await?;
                let detail = if admin {
                    "made a GM and the host administrator"
                } else {
                    "made a GM"
                };
                store
                    .log_account(a.id, None, None, at, "role changed", detail)
                    .await?;
                Ok(format!(
                    "{name} is now a {}; their password is unchanged\n",
                    if admin {
                        "GM and the host administrator"
                    } else {
                        "GM"
                    }
                ))
            }
            None => {
                let password = empires_web::auth::new_secret()[..PASSWORD_CHARS].to_string();
                let hash = empires_web::auth::hash_password(&password)
                    .await
                    .map_err(|f| Error::new(f.message))?;
                let id = store
                    .create_account(name, None, Role::Gm, Some(&hash), at)
                    .await?;
                if admin {
                    store.set_role(id, Role::Gm, true).await?;
                }
                store
                    .log_account(
                        id,
                        None,
                        None,
                        at,
                        "made",
                        role_text(&store.account(id).await?),
                    )
                    .await?;
                Ok(format!(
                    "made the GM account \"{name}\"{}, password {password}: it is shown only now; log in and change it on the account page\n",
                    if admin { " (host administrator)" } else { "" }
                ))
            }
        }
    })
}

/// `empires accounts reset`.
pub fn reset(db: &str, name: &str) -> Result<String> {
    let store = open_db(db)?;
    block_on(async {
        let account = store
            .account_by_name(name)
            .await?
            .ok_or_else(|| Error::not_found(format!("no account named \"{name}\"")))?;
        let password = empires_web::auth::new_secret()[..PASSWORD_CHARS].to_string();
        let hash = empires_web::auth::hash_password(&password)
            .await
            .map_err(|f| Error::new(f.message))?;
        let at = now()?;
        store.set_password(account.id, &hash, at).await?;
        store
            .log_account(
                account.id,
                None,
                None,
                at,
                "password reset",
                "from the host's command line; every session ended and every API token revoked",
            )
            .await?;
        Ok(format!(
            "new password for \"{name}\", shown only now: {password}\nevery session of the account has ended and its API tokens are revoked; log in and change it on the account page\n"
        ))
    })
}

fn check_name(name: &str) -> Result<()> {
    empires_web::pages::console::check_account_name(name).map_err(|f| Error::new(f.message))
}
