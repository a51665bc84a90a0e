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
use serde::Deserialize;
use std::sync::Arc;

#[derive(Template)]
#[template(path = "mail_settings.html")]
struct SettingsPage {
    nav: Option<Nav>,
    csrf: String,
    email: String,
    /// Whether the owner has confirmed the address.
    verified: bool,
    reports: bool,
    /// Whether my address goes to the rulers I send an ambassador to.
    share: bool,
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
    let (email, reports) = host.store.mail.mail_settings(me.account.id).await?;
    let has_password = host
        .store
        .mail
        .mail_password_hash(me.account.id)
        .await?
        .is_some();
    Ok(page(&SettingsPage {
        nav: Nav::of(me),
        csrf: me.csrf.clone(),
        email: email.unwrap_or_default(),
        verified: host
            .store
            .accounts
            .account(me.account.id)
            .await?
            .email_verified,
        reports,
        share: host.store.mail.share_address(me.account.id).await?,
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
    /// Present when my address may go to the rulers I send an ambassador to.
    share: Option<String>,
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
    let me = &form.me;
    let waits = host
        .store
        .accounts
        .set_address(me.account.id, email, reports, false)
        .await?;
    host.store
        .mail
        .set_share_address(me.account.id, form.form.share.is_some())
        .await?;
    let notice = match email {
        Some(e) if waits => {
            mail_proof(&host, me.account.id, e).await?;
            format!(
                "Saved. A link is on its way to {e}: open it to confirm the address is yours. Until then no report is mailed there and no sheet is taken from it."
            )
        }
        _ => "Saved.".to_string(),
    };
    if waits {
        host.store
            .accounts
            .log_account(
                me.account.id,
                Some(me.account.id),
                None,
                host.now(),
                "address changed",
                "waiting for the link mailed to it",
            )
            .await?;
    }
    settings_page(&host, me, Some(notice), None).await
}

/// How long a link proving an address works: 2 days.
const PROOF_LIFE: empires_host::store::Millis = 2 * 24 * 3600 * 1000;

/// Mails `email` a link that proves it is `account`'s.
async fn mail_proof(host: &Host, account: i64, email: &str) -> Result<(), Failure> {
    let token = crate::auth::new_secret();
    let now = host.now();
    host.store
        .accounts
        .create_email_link(
            &crate::auth::secret_hash(&token),
            account,
            email,
            now,
            now + PROOF_LIFE,
        )
        .await?;
    let url = host.link(&format!("/account/mail/verify/{token}"));
    let text = format!(
        "This address was given for an Empires account. To confirm it is yours, open this link within two days:\n\n{url}\n\nUntil then no report is mailed here and no turnsheet is taken from it. If you did not give it, do nothing.\n"
    );
    host.queue_text(
        account,
        email,
        "verify",
        "Confirm your address for Empires",
        &text,
    )
    .await?;
    Ok(())
}

/// `/account/mail/verify/{token}`: the link mailed to a new address; opening it proves the
/// address is the account's. It needs no log-in: the link is the proof.
pub async fn verify(
    State(host): State<Arc<Host>>,
    Path(token): Path<String>,
) -> Result<Response, Failure> {
    let now = host.now();
    let (account, email) = host
        .store
        .accounts
        .verify_email(&crate::auth::secret_hash(&token), now)
        .await?
        .ok_or_else(|| {
            Failure::not_found(
                "this link has been used, has expired, or was mailed to an address the account no longer has: set the address again on your mail page",
            )
        })?;
    host.store
        .accounts
        .log_account(
            account,
            Some(account),
            None,
            now,
            "address confirmed",
            &email,
        )
        .await?;
    // The report the account's seats were mailed before the address was proved (at the
    // start of a game, the turn-0 report and its blank sheet) goes to it now.
    let mailed = host.mail_current_reports(account).await?;
    Ok(axum::response::Html(super::layout::notice_page(
        "Address confirmed",
        &format!(
            "{email} is confirmed: reports can be mailed to it, and turnsheets are taken from it.{}",
            match mailed {
                0 => String::new(),
                1 => " Your latest report is on its way there.".to_string(),
                n => format!(" Your latest reports ({n}) are on their way there."),
            }
        ),
    )?)
    .into_response())
}

/// Issues me a new mail password, shown once; the old one stops working.
pub async fn new_password(
    State(host): State<Arc<Host>>,
    form: CsrfForm<Empty>,
) -> Result<Response, Failure> {
    let p = password::issue();
    host.store
        .mail
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
        .mail
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
        .mail
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
        .accounts
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
    if !host.store.mail.retry_mail(&game, id, host.now()).await? {
        return Err(Failure::not_found(
            "no such message waiting in this game's outbox",
        ));
    }
    host.store
        .accounts
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
    let empire = empires_host::store::SeatCode::parse(&empire)
        .ok_or_else(|| Failure::not_found("no such seat"))?;
    let seat = host
        .store
        .accounts
        .seats(&game)
        .await?
        .into_iter()
        .find(|s| s.empire == empire)
        .and_then(|s| s.account)
        .ok_or_else(|| Failure::not_found("no player holds that empire"))?;
    // Only an account this GM made for this game, whose owner has not taken it over: a
    // mail password opens every game the account plays.
    if !host
        .store
        .accounts
        .manages(form.me.account.id, seat.0, &game)
        .await?
    {
        return Err(Failure::forbidden(format!(
            "{} has a password of their own, or plays in other games: they make their own mail password on their mail page",
            seat.1
        )));
    }
    let p = password::issue();
    host.store
        .mail
        .set_mail_password(seat.0, &password::hash(&p))
        .await?;
    host.store
        .accounts
        .log_account(
            seat.0,
            Some(form.me.account.id),
            Some(&game),
            host.now(),
            "new mail password",
            &format!("issued by the GM, for {empire}"),
        )
        .await?;
    host.store
        .accounts
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
