//! A player's pages of a game of another ruleset (Napoleonic Empires), served through the
//! host's [`empires_host::ruleset::Ruleset`] interface alone: the game page, with the
//! player's report of the last turn and the history, and the sheet editor, where a sheet is
//! checked by the ruleset (its diagnostics and dry run) and kept. The reports are served as
//! the turn stored them, by the same route and the same reader rule as an Empires game's.

use super::layout::{Nav, deadline_text, page, time};
use crate::auth::Me;
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::response::{IntoResponse, Response};
use empires_host::ruleset::Game;
use empires_host::store::{SeatCode, Submission};

#[derive(Template)]
#[template(path = "hosted_game.html")]
struct GamePage {
    nav: Option<Nav>,
    game: String,
    title: String,
    ruleset: String,
    seat: String,
    seat_name: String,
    turn: u32,
    next: u32,
    deadline: String,
    sent: Option<super::games::SentLine>,
    history: Vec<u32>,
}

#[derive(Template)]
#[template(path = "hosted_orders.html")]
struct OrdersPage {
    nav: Option<Nav>,
    csrf: String,
    game: String,
    title: String,
    seat: String,
    seat_name: String,
    next: u32,
    deadline: String,
    text: String,
    /// What was kept, when the page answers a sheet sent.
    kept: Option<String>,
    errors: usize,
    check: String,
}

/// The seat's name in the game, or its code if the ruleset has none.
pub fn seat_name(game: &dyn Game, seat: SeatCode) -> String {
    game.seats()
        .ok()
        .and_then(|s| s.into_iter().find(|s| s.code == seat.as_str()))
        .map_or_else(|| seat.to_string(), |s| s.name)
}

/// `/games/{game}` for a player of a game of another ruleset.
pub async fn show(
    host: &Host,
    me: &Me,
    game: &dyn Game,
    seat: SeatCode,
) -> Result<Response, Failure> {
    let sent = host
        .store
        .latest_sheet(game.name(), seat, game.turn() + 1)
        .await?
        .map(|(_, sha, at)| super::games::SentLine {
            at: time(at),
            short: sha.chars().take(12).collect(),
        });
    Ok(page(&GamePage {
        nav: Nav::of(me),
        game: game.name().to_string(),
        title: game.name().to_string(),
        ruleset: game.ruleset().title().to_string(),
        seat: seat.to_string(),
        seat_name: seat_name(game, seat),
        turn: game.turn(),
        next: game.turn() + 1,
        deadline: deadline_text(host, game.name()).await?,
        sent,
        // Turn 0 is the starting position, which has no reports in this ruleset.
        history: (1..=game.turn()).rev().collect(),
    })?
    .into_response())
}

/// `/games/{game}/orders` for a game of another ruleset: my latest sheet for the next turn
/// (or the blank one), checked; with `kept`, the answer to a sheet just sent.
pub async fn editor(
    host: &Host,
    me: &Me,
    game: &dyn Game,
    seat: SeatCode,
    sent: Option<(String, String)>,
) -> Result<Response, Failure> {
    let (text, kept) = match sent {
        Some((text, kept)) => (text, Some(kept)),
        None => {
            let latest = host
                .store
                .latest_sheet(game.name(), seat, game.turn() + 1)
                .await?;
            let text = match latest {
                Some((body, _, _)) => String::from_utf8_lossy(&body).into_owned(),
                None => game.sheet(seat.as_str())?,
            };
            (text, None)
        }
    };
    let checked = game.check(seat.as_str(), "sheet", &text)?;
    Ok(page(&OrdersPage {
        nav: Nav::of(me),
        csrf: me.csrf.clone(),
        game: game.name().to_string(),
        title: game.name().to_string(),
        seat: seat.to_string(),
        seat_name: seat_name(game, seat),
        next: game.turn() + 1,
        deadline: deadline_text(host, game.name()).await?,
        text,
        kept,
        errors: checked.errors,
        check: checked.text(),
    })?
    .into_response())
}

/// `POST /games/{game}/orders` for a game of another ruleset: keeps the sheet, errors and
/// all (the turn reads it as written), and shows it again with its check and the receipt.
pub async fn submit(
    host: &Host,
    me: &Me,
    game: &dyn Game,
    seat: SeatCode,
    text: String,
    for_turn: Option<u32>,
) -> Result<Response, Failure> {
    let submission = Submission {
        empire: Some(seat),
        body: text.clone().into_bytes(),
        door: "web".into(),
        received_at: host.now(),
        for_turn,
        late: false,
    };
    let accepted = host.submit(game.name(), &submission, "sheet").await?;
    let r = &accepted.receipt;
    let kept = format!(
        "Kept for turn {} at {} (SHA-256 {}). You can change it until the turn is played: the last sheet you send counts.",
        r.for_turn,
        time(submission.received_at),
        &r.sha256[..12]
    );
    editor(host, me, game, seat, Some((text, kept))).await
}
