//! Order entry: the turnsheet in an editor, checked by the same checker as `empires check`
//! (every mistake at its line, with its code and a did-you-mean), the forecast of BPs and
//! treasury after each action, and a receipt for what was sent.

use super::games::empire_name;
use super::layout::{Nav, deadline_text, page, time};
use crate::access::{player_of, seat_of};
use crate::auth::{CsrfForm, Me, read_body, same_token};
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::Json;
use axum::extract::{Path, Request, State};
use axum::response::{IntoResponse, Response};
use empires_ruleset::check::{CheckReport, Format, check_text};
use empires_host::store::{SeatCode, Submission};
use empires_ruleset::Loaded;
use empires_rules::EmpireCode;
use serde::Deserialize;
use std::sync::Arc;

/// The line a turnsheet's messages start after (2.9).
const MESSAGES: &str = "MESSAGES";

/// A diagnostic as the page lists it.
pub struct DiagLine {
    pub severity: &'static str,
    pub line: u32,
    pub column: u32,
    pub code: &'static str,
    pub message: String,
    pub hint: String,
}

/// A line of the sheet with the diagnostics that point at it.
pub struct Listed {
    pub number: usize,
    pub text: String,
    pub notes: Vec<DiagLine>,
}

/// A step of the forecast as the page lists it.
pub struct Step {
    pub slot: u32,
    pub order: String,
    pub result: String,
    pub bps: u32,
    pub treasury: u32,
}

#[derive(Template)]
#[template(path = "orders.html")]
struct OrdersPage {
    nav: Option<Nav>,
    csrf: String,
    game: String,
    title: String,
    empire: String,
    empire_name: String,
    next: u32,
    actions: u32,
    deadline: String,
    text: String,
    messages: String,
    summary: String,
    diagnostics: Vec<DiagLine>,
    listing: Vec<Listed>,
    forecast: Vec<Step>,
    forecast_end: String,
}

/// A turnsheet split into its actions and its messages (the text after a `MESSAGES` line).
pub fn split_messages(sheet: &str) -> (String, String) {
    let mut lines = sheet.lines();
    let mut actions = Vec::new();
    for line in lines.by_ref() {
        if line.trim().eq_ignore_ascii_case(MESSAGES) {
            let rest: Vec<&str> = lines.collect();
            return (actions.join("\n"), rest.join("\n").trim().to_string());
        }
        actions.push(line);
    }
    (actions.join("\n"), String::new())
}

/// The actions and the messages as one turnsheet.
pub fn join_messages(actions: &str, messages: &str) -> String {
    let mut sheet = actions.trim_end().replace("\r\n", "\n");
    if !messages.trim().is_empty() {
        sheet.push_str("\n\n");
        sheet.push_str(MESSAGES);
        sheet.push('\n');
        sheet.push_str(&messages.trim().replace("\r\n", "\n"));
    }
    sheet.push('\n');
    sheet
}

/// Checks a sheet for `empire` on the game as it stands.
pub fn check(loaded: &Loaded, empire: EmpireCode, text: &str) -> Result<CheckReport, Failure> {
    Ok(check_text(
        &loaded.map,
        &loaded.state,
        empire,
        text.to_string(),
        "turnsheet",
        Format::Json,
    )?)
}

fn diag_line(d: &empires_orders::Diagnostic) -> DiagLine {
    let mut hint = String::new();
    if let Some(e) = &d.expected {
        hint.push_str(&format!("Expected {e}."));
    }
    if !d.suggestions.is_empty() {
        if !hint.is_empty() {
            hint.push(' ');
        }
        hint.push_str(&format!("Did you mean {}?", d.suggestions.join(" or ")));
    }
    DiagLine {
        severity: if d.is_error() { "error" } else { "warning" },
        line: d.line,
        column: d.column,
        code: d.code.as_str(),
        message: d.message.clone(),
        hint,
    }
}

/// One line summing up a check.
pub fn summary(errors: usize, warnings: usize) -> String {
    match (errors, warnings) {
        (0, 0) => "No mistakes found.".to_string(),
        (e, w) => format!(
            "{e} error{} and {w} warning{}: actions with errors fail when the turn is played.",
            if e == 1 { "" } else { "s" },
            if w == 1 { "" } else { "s" }
        ),
    }
}

fn forecast_end(r: &CheckReport) -> String {
    let f = &r.forecast;
    format!(
        "Start: {} BPs, treasury {}. End: {} BPs left over, {} returned to the treasury, treasury {}.",
        f.start_bps, f.start_treasury, f.leftover_bps, f.cash_returned, f.end_treasury
    )
}

fn page_for(
    me: &Me,
    (game, deadline): (&str, String),
    loaded: &Loaded,
    empire: EmpireCode,
    sheet: &str,
) -> Result<OrdersPage, Failure> {
    let report = check(loaded, empire, sheet)?;
    let (text, messages) = split_messages(sheet);
    let diagnostics: Vec<DiagLine> = report.diagnostics.iter().map(diag_line).collect();
    let listing = sheet
        .lines()
        .enumerate()
        .map(|(i, l)| Listed {
            number: i + 1,
            text: l.to_string(),
            notes: report
                .diagnostics
                .iter()
                .filter(|d| d.line as usize == i + 1)
                .map(diag_line)
                .collect(),
        })
        .collect();
    Ok(OrdersPage {
        nav: Nav::of(me),
        csrf: me.csrf.clone(),
        game: game.to_string(),
        title: loaded.state.game.clone(),
        empire: empire.to_string(),
        empire_name: empire_name(&loaded.map, empire),
        next: loaded.turn + 1,
        actions: loaded.state.options.actions_per_turn,
        deadline,
        text,
        messages,
        summary: summary(report.errors, report.warnings),
        diagnostics,
        listing,
        forecast: report
            .forecast
            .steps
            .iter()
            .map(|s| Step {
                slot: s.slot,
                order: s.order.clone(),
                result: s.result.clone(),
                bps: s.bps,
                treasury: s.treasury,
            })
            .collect(),
        forecast_end: forecast_end(&report),
    })
}

/// `/games/{game}/orders`: the editor, with my latest sheet for the next turn (or a blank
/// numbered one) checked.
pub async fn editor(
    State(host): State<Arc<Host>>,
    me: Me,
    Path(game): Path<String>,
) -> Result<Response, Failure> {
    let seat = seat_of(&host, &me.account, &game).await?;
    if let Some(hosted) = host.hosted_game(&game).await? {
        return super::hosted::editor(&host, &me, hosted.as_ref(), seat, None).await;
    }
    let empire = player_of(&host, &me.account, &game).await?;
    let loaded = host.loaded(&game).await?;
    let sheet = match host
        .store
        .latest_sheet(&game, empires_ruleset::seat(empire), loaded.turn + 1)
        .await?
    {
        Some((body, _, _)) => String::from_utf8_lossy(&body).into_owned(),
        None => loaded.blank_sheet(&game, empire),
    };
    Ok(page(&page_for(
        &me,
        (&game, deadline_text(&host, &game).await?),
        &loaded,
        empire,
        &sheet,
    )?)?
    .into_response())
}

#[derive(Deserialize)]
pub struct OrdersForm {
    #[serde(default)]
    text: String,
    #[serde(default)]
    messages: String,
    for_turn: Option<u32>,
}

pub use empires_host::submit::changes;

#[derive(Template)]
#[template(path = "receipt.html")]
struct ReceiptPage {
    nav: Option<Nav>,
    game: String,
    title: String,
    empire: String,
    for_turn: u32,
    /// Kept for a later turn than the one waiting: it came after that turn's deadline and
    /// is kept as late orders (2.4, decision 22).
    late: bool,
    at: String,
    sha256: String,
    change: String,
    summary: String,
    changes: Vec<String>,
}

/// Keeps a sheet for `empire`, as received now: what the host made of it, and the time it
/// was received. `for_turn` is the turn the sender wrote it for: refused if that turn has
/// been played meanwhile.
pub async fn keep(
    host: &Host,
    game: &str,
    empire: SeatCode,
    body: String,
    for_turn: Option<u32>,
    door: &str,
) -> Result<(empires_host::submit::Accepted, empires_host::store::Millis), Failure> {
    let submission = Submission {
        empire: Some(empire),
        body: body.into_bytes(),
        door: door.to_string(),
        received_at: host.now(),
        for_turn,
        late: false,
    };
    let accepted = host.submit(game, &submission, "turnsheet").await?;
    Ok((accepted, submission.received_at))
}

/// `POST /games/{game}/orders`: keeps the sheet and shows the receipt.
pub async fn submit(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<OrdersForm>,
) -> Result<Response, Failure> {
    let me = form.me;
    let seat = seat_of(&host, &me.account, &game).await?;
    host.take_sheet(me.account.id).await?;
    if let Some(hosted) = host.hosted_game(&game).await? {
        let text = form.form.text.replace("\r\n", "\n");
        return super::hosted::submit(&host, &me, hosted.as_ref(), seat, text, form.form.for_turn)
            .await;
    }
    let empire = player_of(&host, &me.account, &game).await?;
    let sheet = join_messages(&form.form.text, &form.form.messages);
    // The sheet this one replaces, for the receipt's list of changes: read only here, where
    // the receipt is a page, not on the API's path.
    let loaded = host.loaded(&game).await?;
    let next = loaded.turn + 1;
    let previous = host
        .store
        .latest_sheet(&game, empires_ruleset::seat(empire), form.form.for_turn.unwrap_or(next))
        .await?
        .map(|(b, _, _)| String::from_utf8_lossy(&b).into_owned());
    let (accepted, at) = keep(
        &host,
        &game,
        empires_ruleset::seat(empire),
        sheet.clone(),
        form.form.for_turn,
        "web",
    )
    .await?;
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
        title: loaded.state.game.clone(),
        empire: empire.to_string(),
        for_turn: r.for_turn,
        late: r.for_turn > loaded.turn + 1,
        at: time(at),
        sha256: r.sha256.clone(),
        change,
        summary: accepted
            .checked
            .as_ref()
            .map(|c| summary(c.errors, c.warnings))
            .unwrap_or_default(),
        changes: previous.map(|p| changes(&p, &sheet)).unwrap_or_default(),
        game,
    })?
    .into_response())
}

/// `POST /games/{game}/check`: the editor's live check, as JSON. The body is the sheet;
/// the session's CSRF token comes in the `X-CSRF-Token` header.
pub async fn live_check(
    State(host): State<Arc<Host>>,
    me: Me,
    Path(game): Path<String>,
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
    let seat = seat_of(&host, &me.account, &game).await?;
    let bytes = read_body(req, &host).await?;
    let text = String::from_utf8(bytes.to_vec())
        .map_err(|_| Failure::bad_request("the turnsheet is not UTF-8 text"))?;
    // A game of another ruleset: its ruleset's check, as the text the page shows.
    if let Some(g) = host.hosted_game(&game).await? {
        let checked = g.check(seat.as_str(), "sheet", &text)?;
        return Ok(Json(checked.to_json()).into_response());
    }
    let empire = player_of(&host, &me.account, &game).await?;
    let loaded = host.loaded(&game).await?;
    let report = check(&loaded, empire, &text)?;
    let summary = summary(report.errors, report.warnings);
    let end = forecast_end(&report);
    let mut json = serde_json::to_value(&report)
        .map_err(|e| Failure::bad_request(format!("cannot encode the check: {e}")))?;
    json["summary"] = summary.into();
    json["forecast_end"] = end.into();
    Ok(Json(json).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_join_the_sheet_after_a_messages_line_and_split_back() {
        // W3 (2.9): the message box becomes the sheet's MESSAGES section, as on paper.
        let sheet = join_messages("GAME g\r\n1. TAX\n\n", "Peace to all.\r\nPHONE 555");
        assert_eq!(
            sheet,
            "GAME g\n1. TAX\n\nMESSAGES\nPeace to all.\nPHONE 555\n"
        );
        assert_eq!(
            split_messages(&sheet),
            (
                "GAME g\n1. TAX\n".to_string(),
                "Peace to all.\nPHONE 555".to_string()
            )
        );
        assert_eq!(join_messages("1. TAX", "  "), "1. TAX\n");
        assert_eq!(
            split_messages("1. TAX\n"),
            ("1. TAX".to_string(), String::new())
        );
    }

    #[test]
    fn changes_list_lines_taken_out_and_put_in() {
        let c = changes("1. TAX\n2. LEVY LOM\n", "1. TAX\n2. LEVY LON\n3. TAX\n");
        assert_eq!(c, ["- 2. LEVY LOM", "+ 2. LEVY LON", "+ 3. TAX"]);
    }
}
