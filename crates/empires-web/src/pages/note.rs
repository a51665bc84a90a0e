//! A GM's message to one player, apart from the messages every report prints (10.6): mailed
//! to the player's confirmed address when the host sends mail, and kept in the player's
//! account log, which they read at the foot of their account page, either way. Only the GM
//! of the game sends one, only to a seat of it held by an account, and the game's audit log
//! records that it was sent (not what it said: it is the player's).

use super::console::{back, empire_of, holder_of};
use super::schedule::audit;
use crate::access::gm_of;
use crate::auth::CsrfForm;
use crate::failure::Failure;
use crate::host::Host;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use std::sync::Arc;

/// The longest message, in characters.
const MOST: usize = 4000;

#[derive(Deserialize)]
pub struct NoteForm {
    #[serde(default)]
    empire: String,
    #[serde(default)]
    text: String,
}

/// `POST /games/{game}/console/note`.
pub async fn send(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<NoteForm>,
) -> Result<Response, Failure> {
    let me = &form.me;
    gm_of(&host, &me.account, &game).await?;
    let empire = empire_of(&form.form.empire)?;
    let text = form.form.text.trim();
    if text.is_empty() || text.chars().count() > MOST {
        return Err(Failure::bad_request(format!(
            "a message is 1 to {MOST} characters"
        )));
    }
    let (account, name) = holder_of(&host, &game, empire, "the computer plays it").await?;
    let now = host.now();
    host.store
        .accounts
        .log_account(
            account,
            Some(me.account.id),
            Some(&game),
            now,
            "message from the GM",
            text,
        )
        .await?;
    let a = host.store.accounts.account(account).await?;
    let mailed = match (&a.email, a.email_verified, host.mail_config()?) {
        (Some(email), true, Some(_)) => {
            let g = host.game(&game).await?;
            let body = format!(
                "Hello {name},\n\nA message from the GM of \"{}\" to you alone ({empire}):\n\n{}\n\nAnswer your GM directly; this address takes turnsheets only.\n",
                g.title(),
                empires_mail::reports::wrapped(text, "  ")
            );
            host.queue_text(
                account,
                email,
                "note",
                &format!("From your GM: {}", g.title()),
                &body,
            )
            .await?;
            true
        }
        _ => false,
    };
    let detail = format!(
        "to {name} ({empire}){}",
        if mailed { ", mailed" } else { "" }
    );
    audit(
        &host,
        &game,
        me.account.id,
        "sent a message to one player",
        &detail,
    )
    .await?;
    Ok(back(&game, if mailed { "note-mailed" } else { "note" }))
}
