//! A player's games: the list, a game's page (the current report, the turn history, the
//! state of the next turnsheet) and the files of the reports themselves.

use super::layout::{Nav, deadline_text, page, time};
use crate::access::{SeatChoice, Viewer, viewer, viewer_as};
use crate::auth::Me;
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Redirect, Response};
use empires_host::ruleset::Game;
use empires_host::store::SeatCode;
use std::sync::Arc;

/// A game in a list.
pub struct GameLine {
    pub name: String,
    pub title: String,
    pub turn: u32,
    pub empire: String,
}

#[derive(Template)]
#[template(path = "games.html")]
struct GamesPage {
    nav: Option<Nav>,
    is_gm: bool,
    played: Vec<GameLine>,
    run: Vec<GameLine>,
}

/// `/games`: the games I play and, for a GM, the games I run.
pub async fn list(State(host): State<Arc<Host>>, me: Me) -> Result<Response, Failure> {
    let line = |g: empires_host::store::GameEntry| GameLine {
        name: g.name,
        title: g.title,
        turn: g.turn,
        empire: g.empire.map(|e| e.to_string()).unwrap_or_default(),
    };
    let played = host.store.accounts.games_played_by(me.account.id).await?;
    let run = if me.is_gm() {
        host.store.accounts.games_run_by(me.account.id).await?
    } else {
        Vec::new()
    };
    Ok(page(&GamesPage {
        nav: Nav::of(&me),
        is_gm: me.is_gm(),
        played: played.into_iter().map(line).collect(),
        run: run.into_iter().map(line).collect(),
    })?
    .into_response())
}

/// A sheet already sent, as the game page mentions it.
pub struct SentLine {
    pub at: String,
    pub short: String,
}

#[derive(Template)]
#[template(path = "game.html")]
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
    /// What the ruleset does for a seat that sends nothing.
    missed_turn: String,
    /// Turn credits and discounts, in a game whose turns are paid for (2.10).
    credits: Option<String>,
    /// The reminder the GM's schedule gives now, when I have sent nothing and the deadline
    /// is within the earliest reminder time (2.4).
    reminder: Option<String>,
    sent: Option<SentLine>,
    /// The turn's report has been written (a game may write none for its starting
    /// position).
    reported: bool,
    report_url: String,
    /// The report's other forms, as (form, link): text, JSON.
    report_links: Vec<(String, String)>,
    /// The form each past report is linked in.
    report_ext: String,
    history: Vec<u32>,
    /// The seats I hold in the game, when more than one: the page is for one at a time.
    seats: Vec<SeatLink>,
    /// `?seat=XX` on this page's links, when I hold several seats.
    seat_query: String,
    /// Where the game's next step stands for my seat, in a game played in steps.
    step_note: Option<String>,
    /// The next step's label, in a game played in steps.
    step_label: Option<String>,
    /// My seat's standing orders in force, as sent.
    standing: Option<String>,
    /// The other seats' standing orders in force, in a game that opens them to all:
    /// (seat, text).
    open_standing: Vec<(String, String)>,
    /// How the game ended, once it is over: it takes no more sheets.
    over: Option<String>,
    /// A sheet of mine is awaited, now or at my next step (not a seat that only sends
    /// standing orders).
    awaited: bool,
}

/// One of my seats, for the switcher.
struct SeatLink {
    code: String,
    name: String,
    current: bool,
}

/// Where `step` stands for `seat`, in a game played in steps; `None` for a whole turn.
pub fn step_note(step: &empires_host::ruleset::Step, seat: &str) -> Option<String> {
    step.expected.as_ref()?;
    Some(if step.expects(seat) {
        "Your sheet is awaited for this step.".to_string()
    } else if step.standing.iter().any(|s| s == seat) {
        "You are not expected at this step: the orders you send stand, read at every step, until you send others.".to_string()
    } else if let Some(u) = step.upcoming(seat) {
        format!(
            "You are next expected at {}: a sheet you send now is kept for it.",
            u.label
        )
    } else {
        "You are not expected again.".to_string()
    })
}

/// The step a sheet `seat` writes now is for, in a game played in steps: its own next one
/// when it is not expected at this one.
pub fn own_label(step: &empires_host::ruleset::Step, seat: &str) -> Option<String> {
    step.expected.as_ref()?;
    Some(match step.upcoming(seat) {
        Some(u) if !step.expects(seat) => u.label.clone(),
        _ => step.label.clone(),
    })
}

/// The seat's name in the game, or its code if the ruleset has none.
pub fn seat_name(game: &dyn Game, seat: SeatCode) -> String {
    game.seats()
        .ok()
        .and_then(|s| s.into_iter().find(|s| s.code == seat.as_str()))
        .map_or_else(|| seat.to_string(), |s| s.name)
}

/// `/games/{game}`: a player's page of the game, whichever its ruleset; the GM goes to the
/// console.
pub async fn show(
    State(host): State<Arc<Host>>,
    me: Me,
    Path(game): Path<String>,
    Query(choice): Query<SeatChoice>,
) -> Result<Response, Failure> {
    let seat = match viewer_as(&host, &me.account, &game, choice.code()).await? {
        Viewer::Gm => {
            return Ok(Redirect::to(&format!("/games/{}/console", url_part(&game))).into_response());
        }
        Viewer::Player(e) => e,
    };
    let g = host.game(&game).await?;
    let turn = g.turn();
    let held = host.store.accounts.seats_of(&game, me.account.id).await?;
    let seats = if held.len() > 1 {
        held.iter()
            .map(|c| SeatLink {
                code: c.to_string(),
                name: seat_name(g.as_ref(), *c),
                current: *c == seat,
            })
            .collect()
    } else {
        Vec::new()
    };
    let seat_query = if held.len() > 1 {
        format!("?seat={seat}")
    } else {
        String::new()
    };
    let step = g.step()?;
    let standing_path = format!("{}/{seat}.txt", empires_host::gamedir::STANDING_DIR);
    let in_force = host.store.games.standing(&game).await?;
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let standing = in_force
        .iter()
        .find(|(p, _)| *p == standing_path)
        .map(|(_, b)| text(b));
    // Another seat's standing orders are its own and the GM's, unless the game opens them.
    let open_standing = in_force
        .iter()
        .filter(|(p, _)| step.standing_public && *p != standing_path)
        .map(|(p, b)| {
            let seat = p.rsplit('/').next().unwrap_or(p).trim_end_matches(".txt");
            (seat.to_string(), text(b))
        })
        .collect();
    // A sheet sent ahead is kept for the seat's own next step, not the game's.
    let own_turn = step.own_turn(seat.as_str(), turn + 1);
    let sent = host
        .store
        .accounts
        .latest_sheet(&game, seat, own_turn)
        .await?
        .map(|(_, sha, at)| SentLine {
            at: time(at),
            short: sha.chars().take(12).collect(),
        });
    // A ruleset may write no report for the starting position.
    let formats = g.ruleset().report_formats();
    let ext = formats.first().copied().unwrap_or("txt");
    let path = format!("{}/{seat}.{ext}", empires_host::gamedir::REPORTS_DIR);
    let first = match host
        .store
        .games
        .turn_file(&game, 0, &path, Some(seat))
        .await
    {
        Ok(_) => 0,
        Err(_) => 1,
    };
    let base = format!("/games/{}/turns/{turn}/reports/{seat}", url_part(&game));
    Ok(page(&GamePage {
        nav: Nav::of(&me),
        title: g.title().to_string(),
        ruleset: g.ruleset().title().to_string(),
        seat: seat.to_string(),
        seat_name: seat_name(g.as_ref(), seat),
        turn,
        next: turn + 1,
        deadline: deadline_text(&host, &game).await?,
        missed_turn: g.ruleset().missed_turn().to_string(),
        credits: if host.store.ledgers.paid_turns(&game).await? {
            Some(
                host.store
                    .ledgers
                    .ledger(me.account.id)
                    .await?
                    .summary_line(&game),
            )
        } else {
            None
        },
        reminder: match &sent {
            Some(_) => None,
            None => reminder(&host, &game).await?,
        },
        sent,
        reported: turn >= first,
        report_url: format!("{base}.{ext}"),
        report_links: formats
            .iter()
            .skip(1)
            .map(|f| {
                let name = if *f == "txt" { "text" } else { "JSON" };
                (format!("as {name}"), format!("{base}.{f}"))
            })
            .collect(),
        report_ext: ext.to_string(),
        history: (first..=turn).rev().collect(),
        seats,
        seat_query,
        step_note: step_note(&step, seat.as_str()),
        step_label: step.expected.as_ref().map(|_| step.label.clone()),
        standing,
        open_standing,
        // Over by its rules, or on its GM's word.
        over: match g.finished()? {
            Some(how) => Some(how),
            None => host
                .store
                .games
                .ended_at(&game)
                .await?
                .map(|at| format!("its GM ended it on {}", super::layout::time(at))),
        },
        awaited: step.expects(seat.as_str()) || step.upcoming(seat.as_str()).is_some(),
        game,
    })?
    .into_response())
}

/// "Orders are due in 2 h 10 min": shown to a player who has sent nothing once the deadline
/// is within the earliest of the game's reminder times, as the reminder mail says it.
async fn reminder(host: &Host, game: &str) -> Result<Option<String>, Failure> {
    let Some(s) = host.store.schedules.schedule_of(game).await? else {
        return Ok(None);
    };
    let (Some(deadline), None) = (s.deadline, s.paused_at) else {
        return Ok(None);
    };
    let Some(&earliest) = s.reminders.iter().max() else {
        return Ok(None);
    };
    let left = deadline - host.now();
    if left <= 0 || left > earliest {
        return Ok(None);
    }
    let minutes = (left + 59_999) / 60_000;
    let when = match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    };
    Ok(Some(format!(
        "Orders are due in {when} and yours have not arrived: if nothing comes, the computer plays your turn (2.5)."
    )))
}

/// A game's name as it goes in a link.
pub fn url_part(name: &str) -> String {
    name.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// `/games/{game}/turns/{turn}/reports/{file}`: a file of a turn's reports, if the viewer
/// may read it ([`empires_host::store::Reader`]): the player their own empire's and the
/// shared ones, the GM every one.
pub async fn report_file(
    State(host): State<Arc<Host>>,
    me: Me,
    Path((game, turn, file)): Path<(String, u32, String)>,
) -> Result<Response, Failure> {
    // A report is named for its seat: a player holding several reads each as its seat's.
    let named = file.split('.').next().and_then(SeatCode::parse);
    let who = viewer_as(&host, &me.account, &game, named).await?;
    if file.contains('/') || file.contains("..") {
        return Err(Failure::not_found("no such report"));
    }
    let body = report_bytes(&host, &game, turn, &file, who).await?;
    Ok(file_response(&file, body))
}

/// A file of a turn's reports as `who` may read it; refused as not found otherwise, the
/// same answer as for a file that is not there.
pub async fn report_bytes(
    host: &Host,
    game: &str,
    turn: u32,
    file: &str,
    who: Viewer,
) -> Result<Vec<u8>, Failure> {
    // 2.10: a player's own report of a turn not paid for waits for payment, on every door.
    if let Viewer::Player(e) = who
        && file.split('.').next() == Some(e.as_str())
        && let Some(why) = host.store.ledgers.report_held(game, e, turn).await?
    {
        return Err(Failure::new(StatusCode::PAYMENT_REQUIRED, why));
    }
    let read = |file: String| async move {
        let path = format!("{}/{file}", empires_host::gamedir::REPORTS_DIR);
        host.store
            .games
            .turn_file(game, turn, &path, who.empire())
            .await
            .map_err(|e| match e.kind() {
                empires_host::error::Kind::NotFound => Failure::not_found("no such report"),
                _ => e.into(),
            })
    };
    let kept = read(file.to_string()).await?;
    // A report that leaves what every seat shares to a file of its turn is given whole.
    // The game as kept in memory: no query of the database for each file served.
    let ruleset = host.game(game).await?.ruleset();
    let Some(part) = std::str::from_utf8(&kept)
        .ok()
        .and_then(|k| ruleset.shared_part(file, k))
    else {
        return Ok(kept);
    };
    let shared = read(part).await?;
    let whole = ruleset.made_whole(
        file,
        &String::from_utf8_lossy(&kept),
        &String::from_utf8_lossy(&shared),
    )?;
    Ok(whole.into_bytes())
}

/// `/games/{game}/map.js`: the map's layer every report page of the game draws on, when
/// its ruleset keeps one ([`Game::page_script`]).
pub async fn map_script(
    State(host): State<Arc<Host>>,
    me: Me,
    Path(game): Path<String>,
) -> Result<Response, Failure> {
    viewer(&host, &me.account, &game).await?;
    let script = host
        .game(&game)
        .await?
        .page_script()
        .map(str::to_string)
        .ok_or_else(|| Failure::not_found("this game's map has no drawing"))?;
    Ok(file_response("map.js", script.into_bytes()))
}

/// A stored file with the content type its name says; never cached by a shared cache.
pub fn file_response(name: &str, body: Vec<u8>) -> Response {
    let kind = match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("json") => "application/json",
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        _ => "text/plain; charset=utf-8",
    };
    (
        [(CONTENT_TYPE, kind), (CACHE_CONTROL, "private, no-cache")],
        body,
    )
        .into_response()
}
