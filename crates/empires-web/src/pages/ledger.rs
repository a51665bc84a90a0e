//! The GM's turn-credit controls on the console (2.10): make the game's turns paid for or
//! free, and enter a player's payment. Carries and corrections are `empires ledger`'s.

use super::schedule::{audit, back_to};
use crate::access::gm_of;
use crate::auth::CsrfForm;
use crate::failure::Failure;
use crate::host::Host;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct PaidForm {
    #[serde(default)]
    paid: String,
}

/// `POST /games/{game}/console/ledger/paid`: makes the game's turns paid for (`on`) or free.
pub async fn paid(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<PaidForm>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    let on = form.form.paid == "on";
    host.store
        .ledgers
        .set_paid_turns(&game, on, host.now())
        .await?;
    let what = if on {
        "made turns paid for"
    } else {
        "made turns free"
    };
    audit(&host, &game, form.me.account.id, what, "").await?;
    Ok(back_to(&game, "ledger", "ledger"))
}

#[derive(Deserialize)]
pub struct PaymentForm {
    #[serde(default)]
    empire: String,
    #[serde(default)]
    turns: String,
}

/// `POST /games/{game}/console/ledger/buy`: enters a payment of turn credits for the player
/// of a seat (2.10); ten or more at once also credit the discount held in the game.
pub async fn buy(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<PaymentForm>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    let empire = empires_host::store::SeatCode::parse(form.form.empire.trim())
        .ok_or_else(|| Failure::bad_request("say which seat's player paid"))?;
    let turns: u32 = form
        .form
        .turns
        .trim()
        .parse()
        .ok()
        .filter(|t| (1..=1000).contains(t))
        .ok_or_else(|| Failure::bad_request("the number of turns paid for: 1 to 1000"))?;
    let account = host
        .store
        .accounts
        .seats(&game)
        .await?
        .into_iter()
        .find(|s| s.empire == empire)
        .and_then(|s| s.account)
        .ok_or_else(|| Failure::bad_request(format!("{empire} has no player to credit")))?;
    let entry = empires_host::ledger::Entry::Bought {
        game: game.clone(),
        turns,
    };
    host.store
        .ledgers
        .enter(account.0, &entry, host.now())
        .await?;
    let detail = format!("{turns} turns for {} ({empire})", account.1);
    audit(
        &host,
        &game,
        form.me.account.id,
        "entered a payment",
        &detail,
    )
    .await?;
    Ok(back_to(&game, "payment", "ledger"))
}
