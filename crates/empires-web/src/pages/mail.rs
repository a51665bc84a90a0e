//! Play by email on the web: a player sets their address on record, whether their reports
//! are mailed, and issues their mail password (shown once); the GM reads the game's mail log
//! and outbox, sends a message given up on again, and issues a player a new mail password
//! (shown once, to pass on) when they lost theirs.

use super::layout::{Nav, page, time};
use crate::access::gm_of;
use crate::auth::{CsrfForm, Empty, Me};
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use empires_mail::password;
use empires_rules::EmpireCode;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Template)]
#[template(path = "mail_settings.html")]
struct SettingsPage {
    nav: Option<Nav>,
    csrf: String,
    email: String,
    reports: bool,
    has_password: bool,
    new_password: Option<String>,
    notice: Option<String>,
    host_address: Option<String>,
}

async fn settings_page(
    host: &Host,
    me: &Me,
    notice: Option<String>,
    new_password: Option<String>,
) -> Result<Response, Failure> {
    let (email, reports) = host.store.mail_settings(me.account.id).await?;
    let has_password = host
        .store
        .mail_password_hash(me.account.id)
        .await?
        .is_some();
    Ok(page(&SettingsPage {
        nav: Nav::of(me),
        csrf: me.csrf.clone(),
        email: email.unwrap_or_default(),
        reports,
        has_password,
        new_password,
        notice,
        host_address: host.config.mail_address.clone(),
    })?
    .into_response())
}

/// `/account/mail`: my mail settings.
pub async fn settings(State(host): State<Arc<Host>>, me: Me) -> Result<Response, Failure> {
    settings_page(&host, &me, None, None).await
}

#[derive(Deserialize)]
pub struct SettingsForm {
    #[serde(default)]
    email: String,
    /// Present (any value) when the box is ticked.
    reports: Option<String>,
}

/// Sets my address on record and whether my reports are mailed.
pub async fn save(
    State(host): State<Arc<Host>>,
    form: CsrfForm<SettingsForm>,
) -> Result<Response, Failure> {
    let email = form.form.email.trim();
    let email = if email.is_empty() {
        None
    } else {
        empires_mail::config::check_address(email)
            .map_err(|e| Failure::bad_request(e.message()))?;
        Some(email)
    };
    let reports = form.form.reports.is_some();
    if reports && email.is_none() {
        return Err(Failure::bad_request(
            "give an address to have your reports mailed to",
        ));
    }
    host.store
        .set_mail_settings(form.me.account.id, email, reports)
        .await?;
    settings_page(&host, &form.me, Some("Saved.".into()), None).await
}

/// Issues me a new mail password, shown once; the old one stops working.
pub async fn new_password(
    State(host): State<Arc<Host>>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    let p = password::issue();
    host.store
        .set_mail_password(form.me.account.id, &password::hash(&p))
        .await?;
    settings_page(&host, &form.me, None, Some(p)).await
}

/// A line of the mail log as the GM's mail page shows it.
pub struct LogLine {
    pub at: String,
    pub direction: String,
    pub address: String,
    pub outcome: String,
    pub detail: String,
}

/// A message of the outbox as the GM's mail page shows it.
pub struct OutLine {
    pub id: i64,
    pub made: String,
    pub kind: String,
    pub to: String,
    pub subject: String,
    pub state: String,
    pub tries: u32,
    pub error: String,
}

/// A seat whose player may be given a new mail password.
pub struct SeatLine {
    pub empire: String,
    pub player: String,
}

#[derive(Template)]
#[template(path = "console_mail.html")]
struct ConsoleMailPage {
    nav: Option<Nav>,
    csrf: String,
    game: String,
    notice: Option<String>,
    log: Vec<LogLine>,
    outbox: Vec<OutLine>,
    seats: Vec<SeatLine>,
}

async fn console_page(
    host: &Host,
    me: &Me,
    game: &str,
    notice: Option<String>,
) -> Result<Response, Failure> {
    let log = host
        .store
        .mail_log(Some(game), 200)
        .await?
        .into_iter()
        .rev()
        .map(|e| LogLine {
            at: time(e.at),
            direction: e.direction,
            address: e.address,
            outcome: e.outcome,
            detail: e.detail,
        })
        .collect();
    let outbox = host
        .store
        .outbox(game, 100)
        .await?
        .into_iter()
        .map(|o| OutLine {
            id: o.id,
            made: time(o.created_at),
            kind: o.kind,
            to: o.recipient,
            subject: o.subject,
            state: o.state,
            tries: o.attempts,
            error: o.last_error.unwrap_or_default(),
        })
        .collect();
    let seats = host
        .store
        .seats(game)
        .await?
        .into_iter()
        .filter_map(|s| {
            s.account.map(|(_, name)| SeatLine {
                empire: s.empire.to_string(),
                player: name,
            })
        })
        .collect();
    Ok(page(&ConsoleMailPage {
        nav: Nav::of(me),
        csrf: me.csrf.clone(),
        game: game.to_string(),
        notice,
        log,
        outbox,
        seats,
    })?
    .into_response())
}

/// `/games/{game}/console/mail`: the game's mail, for its GM.
pub async fn console(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    me: Me,
) -> Result<Response, Failure> {
    gm_of(&host, &me.account, &game).await?;
    console_page(&host, &me, &game, None).await
}

/// Puts a message given up on back in the outbox.
pub async fn retry(
    State(host): State<Arc<Host>>,
    Path((game, id)): Path<(String, i64)>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    if !host.store.retry_mail(&game, id, host.now()).await? {
        return Err(Failure::not_found(
            "no such message waiting in this game's outbox",
        ));
    }
    host.store
        .audit_by(
            Some(&game),
            form.me.account.id,
            host.now(),
            "sent mail again",
            &format!("message {id}"),
        )
        .await?;
    console_page(
        &host,
        &form.me,
        &game,
        Some("The message will be sent again.".into()),
    )
    .await
}

/// Issues the player of `empire` a new mail password, shown once to the GM to pass on.
pub async fn reset_password(
    State(host): State<Arc<Host>>,
    Path((game, empire)): Path<(String, String)>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    let empire = EmpireCode::parse(&empire).map_err(|_| Failure::not_found("no such empire"))?;
    let seat = host
        .store
        .seats(&game)
        .await?
        .into_iter()
        .find(|s| s.empire == empire)
        .and_then(|s| s.account)
        .ok_or_else(|| Failure::not_found("no player holds that empire"))?;
    let p = password::issue();
    host.store
        .set_mail_password(seat.0, &password::hash(&p))
        .await?;
    host.store
        .audit_by(
            Some(&game),
            form.me.account.id,
            host.now(),
            "new mail password",
            &format!("for {} ({empire})", seat.1),
        )
        .await?;
    let notice = format!(
        "New mail password for {} ({empire}), shown only now: {p} — the old one no longer works.",
        seat.1
    );
    console_page(&host, &form.me, &game, Some(notice)).await
}
