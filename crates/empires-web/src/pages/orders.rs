//! Order entry for every game: the sheet in an editor, checked by its ruleset (every
//! mistake at its line, with its code and a did-you-mean, and the ruleset's forecast or
//! dry run), and a receipt for what was sent.

use super::games::seat_name;
use super::layout::{Nav, deadline_text, page, time};
use crate::access::{SeatChoice, seat_as};
use crate::auth::{CsrfForm, Me, read_body, same_token};
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::Json;
use axum::extract::{Path, Query, Request, State};
use axum::response::{IntoResponse, Response};
use empires_host::ruleset::{Checked, Diagnostic, Forecast, Game};
use empires_host::store::{SeatCode, Submission};
use serde::Deserialize;
use std::sync::Arc;

/// A diagnostic as the page lists it.
pub struct DiagLine {
    pub severity: &'static str,
    pub line: u32,
    pub column: u32,
    pub code: String,
    pub message: String,
    pub hint: String,
}

impl From<&Diagnostic> for DiagLine {
    fn from(d: &Diagnostic) -> DiagLine {
        DiagLine {
            severity: if d.is_error() { "error" } else { "warning" },
            line: d.line,
            column: d.column,
            code: d.code.clone(),
            message: d.sentence(),
            hint: d.hint(),
        }
    }
}

/// A line of the sheet with the diagnostics that point at it.
pub struct Listed {
    pub number: usize,
    pub text: String,
    pub notes: Vec<DiagLine>,
}

#[derive(Template)]
#[template(path = "orders.html")]
struct OrdersPage {
    nav: Option<Nav>,
    csrf: String,
    game: String,
    title: String,
    seat: String,
    seat_name: String,
    next: u32,
    deadline: String,
    label: String,
    help: String,
    /// The game's sheets carry messages to the other players after this heading.
    messages_heading: Option<String>,
    text: String,
    messages: String,
    summary: String,
    diagnostics: Vec<DiagLine>,
    listing: Vec<Listed>,
    forecast: Forecast,
    /// Where the game's next step stands for the seat, in a game played in steps.
    step_note: Option<String>,
    /// The step the sheet is for, in a game played in steps.
    step_label: Option<String>,
}

/// A sheet split into its orders and its messages (the text after the `heading` line).
pub fn split_messages(sheet: &str, heading: &str) -> (String, String) {
    let mut lines = sheet.lines();
    let mut actions = Vec::new();
    for line in lines.by_ref() {
        if line.trim().eq_ignore_ascii_case(heading) {
            let rest: Vec<&str> = lines.collect();
            return (actions.join("\n"), rest.join("\n").trim().to_string());
        }
        actions.push(line);
    }
    (actions.join("\n"), String::new())
}

/// The orders and the messages as one sheet, the messages after the `heading` line.
pub fn join_messages(actions: &str, messages: &str, heading: &str) -> String {
    let mut sheet = actions.trim_end().replace("\r\n", "\n");
    if !messages.trim().is_empty() {
        sheet.push_str("\n\n");
        sheet.push_str(heading);
        sheet.push('\n');
        sheet.push_str(&messages.trim().replace("\r\n", "\n"));
    }
    sheet.push('\n');
    sheet
}

fn page_for(
    me: &Me,
    deadline: String,
    game: &dyn Game,
    seat: SeatCode,
    sheet: &str,
) -> Result<OrdersPage, Failure> {
    let checked: Checked = game.check(seat.as_str(), "turnsheet", sheet)?;
    let step = game.step()?;
    let help = game.sheet_help(seat.as_str());
    let (text, messages) = match &help.messages {
        Some(h) => split_messages(sheet, h),
        None => (sheet.to_string(), String::new()),
    };
    let found = checked.diagnostics();
    let listing = sheet
        .lines()
        .enumerate()
        .map(|(i, l)| Listed {
            number: i + 1,
            text: l.to_string(),
            notes: found
                .iter()
                .filter(|d| d.line as usize == i + 1)
                .map(DiagLine::from)
                .collect(),
        })
        .collect();
    // A ruleset that gives no forecast of its own: its check's text stands in for one.
    let forecast = checked.forecast().unwrap_or_else(|| Forecast {
        title: "Check".to_string(),
        text: checked.text(),
        ..Forecast::default()
    });
    Ok(OrdersPage {
        nav: Nav::of(me),
        csrf: me.csrf.clone(),
        game: game.name().to_string(),
        title: game.title().to_string(),
        seat: seat.to_string(),
        seat_name: seat_name(game, seat),
        next: step.own_turn(seat.as_str(), game.turn() + 1),
        step_note: super::games::step_note(&step, seat.as_str()),
        step_label: super::games::own_label(&step, seat.as_str()),
        deadline,
        label: help.label,
        help: help.help,
        messages_heading: help.messages,
        text,
        messages,
        summary: checked.summary(),
        diagnostics: found.iter().map(DiagLine::from).collect(),
        listing,
        forecast,
    })
}

/// `/games/{game}/orders`: the editor, with my latest sheet for the next turn (or my blank
/// one, the same text as at the end of my report) checked.
pub async fn editor(
    State(host): State<Arc<Host>>,
    me: Me,
    Path(game): Path<String>,
    Query(choice): Query<SeatChoice>,
) -> Result<Response, Failure> {
    let seat = seat_as(&host, &me.account, &game, choice.code()).await?;
    let g = host.game(&game).await?;
    let own = g.step()?.own_turn(seat.as_str(), g.turn() + 1);
    let sheet = match host.store.accounts.latest_sheet(&game, seat, own).await? {
        Some((body, _, _)) => String::from_utf8_lossy(&body).into_owned(),
        None => g.sheet(seat.as_str())?,
    };
    let deadline = deadline_text(&host, &game).await?;
    Ok(page(&page_for(&me, deadline, g.as_ref(), seat, &sheet)?)?.into_response())
}

#[derive(Deserialize)]
pub struct OrdersForm {
    #[serde(default)]
    text: String,
    #[serde(default)]
    messages: String,
    for_turn: Option<u32>,
    /// Which of my seats the sheet is for, where I hold several.
    seat: Option<String>,
}

pub use empires_host::submit::changes;

#[derive(Template)]
#[template(path = "receipt.html")]
struct ReceiptPage {
    nav: Option<Nav>,
    game: String,
    title: String,
    seat: String,
    for_turn: u32,
    /// The step the sheet is for, in a game played in steps; empty otherwise.
    step: String,
    /// Kept for a later turn than the one waiting: it came after that turn's deadline and
    /// is kept as late orders (2.4, decision 22).
    late: bool,
    at: String,
    sha256: String,
    change: String,
    summary: String,
    /// Every mistake found, each at its line: the receipt is what a player keeps.
    diagnostics: Vec<DiagLine>,
    changes: Vec<String>,
}

/// Keeps a sheet for `seat`, as received now: what the host made of it, and the time it
/// was received. `for_turn` is the turn the sender wrote it for: refused if that turn has
/// been played meanwhile.
pub async fn keep(
    host: &Host,
    game: &str,
    seat: SeatCode,
    body: String,
    for_turn: Option<u32>,
    door: &str,
) -> Result<(empires_host::submit::Accepted, empires_host::store::Millis), Failure> {
    let submission = Submission {
        empire: Some(seat),
        body: body.into_bytes(),
        door: door.to_string(),
        received_at: host.now(),
        for_turn,
        late: false,
    };
    let accepted = host.submit(game, &submission, "turnsheet").await?;
    Ok((accepted, submission.received_at))
}

/// `POST /games/{game}/orders`: keeps the sheet, errors and all (the turn reads it as
/// written), and shows the receipt.
pub async fn submit(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<OrdersForm>,
) -> Result<Response, Failure> {
    let me = form.me;
    let want = form.form.seat.as_deref().and_then(SeatCode::parse);
    let seat = seat_as(&host, &me.account, &game, want).await?;
    host.take_sheet(me.account.id).await?;
    let g = host.game(&game).await?;
    let sheet = match g.sheet_help(seat.as_str()).messages {
        Some(h) => join_messages(&form.form.text, &form.form.messages, &h),
        None => form.form.text.replace("\r\n", "\n"),
    };
    let next = g.turn() + 1;
    // The sheet this one replaces, for the receipt's list of changes: read only here, where
    // the receipt is a page, not on the API's path.
    let previous = host
        .store
        .accounts
        .latest_sheet(&game, seat, form.form.for_turn.unwrap_or(next))
        .await?
        .map(|(b, _, _)| String::from_utf8_lossy(&b).into_owned());
    let (accepted, at) = keep(&host, &game, seat, sheet.clone(), form.form.for_turn, "web").await?;
    let r = &accepted.receipt;
    let change = match &r.replaces {
        Some(old) => format!(
            "It replaces the sheet you sent before (SHA-256 {}).",
            &old[..old.len().min(12)]
        ),
        None => "It is your first sheet for this turn.".to_string(),
    };
    Ok(page(&ReceiptPage {
        nav: Nav::of(&me),
        title: g.title().to_string(),
        seat: seat.to_string(),
        for_turn: r.for_turn,
        step: accepted.step.clone().unwrap_or_default(),
        // Kept for a later turn than the one waiting without being sent ahead for the
        // seat's own step: late orders.
        late: r.for_turn > next && !accepted.ahead,
        at: time(at),
        sha256: r.sha256.clone(),
        change,
        summary: accepted
            .checked
            .as_ref()
            .map(Checked::summary)
            .unwrap_or_default(),
        diagnostics: accepted
            .checked
            .as_ref()
            .map(|c| c.diagnostics().iter().map(DiagLine::from).collect())
            .unwrap_or_default(),
        changes: previous.map(|p| changes(&p, &sheet)).unwrap_or_default(),
        game,
    })?
    .into_response())
}

/// `POST /games/{game}/check`: the editor's live check, as JSON ([`Checked::view`]). The
/// body is the sheet; the session's CSRF token comes in the `X-CSRF-Token` header.
pub async fn live_check(
    State(host): State<Arc<Host>>,
    me: Me,
    Path(game): Path<String>,
    Query(choice): Query<SeatChoice>,
    req: Request,
) -> Result<Response, Failure> {
    let token = req
        .headers()
        .get("x-csrf-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    if !same_token(&token, &me.csrf) {
        return Err(Failure::forbidden("missing or wrong X-CSRF-Token header"));
    }
    let seat = seat_as(&host, &me.account, &game, choice.code()).await?;
    let bytes = read_body(req, &host).await?;
    let text = String::from_utf8(bytes.to_vec())
        .map_err(|_| Failure::bad_request("the turnsheet is not UTF-8 text"))?;
    let checked = host
        .game(&game)
        .await?
        .check(seat.as_str(), "sheet", &text)?;
    Ok(Json(checked.view()).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_join_the_sheet_after_a_messages_line_and_split_back() {
        // W3 (2.9): the message box becomes the sheet's MESSAGES section, as on paper.
        let sheet = join_messages(
            "GAME g\r\n1. TAX\n\n",
            "Peace to all.\r\nPHONE 555",
            "MESSAGES",
        );
        assert_eq!(
            sheet,
            "GAME g\n1. TAX\n\nMESSAGES\nPeace to all.\nPHONE 555\n"
        );
        assert_eq!(
            split_messages(&sheet, "MESSAGES"),
            (
                "GAME g\n1. TAX\n".to_string(),
                "Peace to all.\nPHONE 555".to_string()
            )
        );
        assert_eq!(join_messages("1. TAX", "  ", "MESSAGES"), "1. TAX\n");
        assert_eq!(
            split_messages("1. TAX\n", "MESSAGES"),
            ("1. TAX".to_string(), String::new())
        );
    }

    #[test]
    fn changes_list_lines_taken_out_and_put_in() {
        let c = changes("1. TAX\n2. LEVY LOM\n", "1. TAX\n2. LEVY LON\n3. TAX\n");
        assert_eq!(c, ["- 2. LEVY LOM", "+ 2. LEVY LON", "+ 3. TAX"]);
    }
}
