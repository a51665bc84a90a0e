//! An Empires turn: the computer's orders for the empires that sent none, the adjudication
//! and every report, played on the parsed game and handed to the host's pipeline.

use crate::gamedir::TurnFiles;
use crate::render::render_into;
use empires_host::error::{Error, Result};
use empires_host::turn::TurnReport;
use empires_maps::draw::Layout;
use empires_orders::parse_turnsheet;
use empires_rules::engine::TurnOutcome;
use empires_rules::event::{Event, Outcome, What};
use empires_rules::state::VictoryClaim;
use empires_rules::{EmpireCode, GameState, Map, adjudicate};
use std::collections::BTreeMap;

/// The version of the rules a turn is played under, recorded with every turn so that a
/// replay can tell a changed rule from a changed state (`empires verify`). Raise it whenever
/// a change to the engine or the computer players can change a turn's outcome.
///
/// - "1": the rules as first released.
/// - "2": decision 39, Australian Empires plays the air rules.
pub const RULES_VERSION: &str = "2";

/// "EN has won by points with 30 VPs on turn 7".
pub fn claim_text(c: &VictoryClaim) -> String {
    let how = match c.condition {
        empires_rules::state::VictoryCondition::Runaway => "a runaway win",
        empires_rules::state::VictoryCondition::Knockout => "a knockout",
        empires_rules::state::VictoryCondition::Points => "points",
    };
    format!(
        "{} by {how} with {} VPs on turn {}",
        c.empire, c.vps, c.turn
    )
}

/// One sheet a turn plays: a player's turnsheet or the GM's messages (`empire` is `None`),
/// read as text (the pipeline sets aside what cannot be read, [`crate::pipeline`]).
#[derive(Debug, Clone)]
pub struct Sent {
    /// Its name in the turn's `orders/`: `EN.txt`, `gm.txt`.
    pub name: String,
    pub empire: Option<EmpireCode>,
    pub text: String,
}

/// A turn played and encoded, ready for a store to commit as one unit.
#[derive(Debug, Clone)]
pub struct Played {
    /// The state after the turn, as `files.state` holds it encoded.
    pub state: GameState,
    pub files: TurnFiles,
    pub report: TurnReport,
}

/// Where a turn's sheets come from: how messages name the place (a folder, a game in a
/// database), and the name the host keeps the game under, which the blank turnsheets at the
/// end of the reports give on their `GAME` line so that a door finds the game by it (`None`
/// for a game directory, whose sheets give the game's title).
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    pub label: &'a str,
    pub game: Option<&'a str>,
}

impl<'a> Origin<'a> {
    /// Sheets from `label`, of a game known by its title.
    pub fn titled(label: &'a str) -> Origin<'a> {
        Origin { label, game: None }
    }
}

/// Plays turn `next` of an Empires game on `state` with the sheets sent for it: the
/// computer's orders for the empires that sent none, the adjudication and every report.
/// Pure: it reads and writes nothing.
pub fn play_sheets(
    map: &Map,
    layout: Option<&Layout>,
    state: &GameState,
    next: u32,
    sent: &[Sent],
    from: Origin,
) -> Result<Played> {
    let mut reports = Vec::with_capacity(3 * state.empires.len() + 5);
    let mut played = play_sheets_into(map, layout, state, next, sent, from, &mut |name, text| {
        reports.push((name, text));
        Ok(())
    })?;
    played.files.reports = reports;
    Ok(played)
}

/// [`play_sheets`], handing each report to `reports` as it is rendered rather than keeping
/// them in the [`Played`] turn's files: a store that can write them as they come never holds
/// them all in memory.
#[allow(clippy::too_many_arguments)]
pub fn play_sheets_into(
    map: &Map,
    layout: Option<&Layout>,
    state: &GameState,
    next: u32,
    sent: &[Sent],
    from: Origin,
    reports: &mut crate::render::Sink,
) -> Result<Played> {
    let mut sheets = BTreeMap::new();
    let mut gm_messages = Vec::new();
    for s in sent {
        match s.empire {
            Some(code) => {
                sheets.insert(code, parse_turnsheet(&s.text));
            }
            None => gm_messages = gm_paragraphs(&s.text),
        }
    }
    let Adjudicated {
        outcome,
        computer,
        computer_orders,
    } = adjudicate_sheets(map, state, next, sheets.clone())?;
    // The store works the state's hash out as it keeps the turn (crate::pipeline).
    let mut files = TurnFiles::unhashed(&outcome.state, Some(&outcome.events))?;
    render_into(
        map,
        layout,
        &outcome.state,
        &outcome.events,
        &computer,
        &gm_messages,
        from.game,
        reports,
    )?;
    files.computer_orders = computer_orders;
    let mut news = Vec::new();
    if let Some(c) = &outcome.state.victory_warning {
        news.push(format!("victory warning: {}", claim_text(c)));
    }
    if let Some(c) = &outcome.state.result {
        news.push(format!("game over: {}", claim_text(c)));
    }
    let report = TurnReport {
        game: outcome.state.game.clone(),
        turn: next,
        events: outcome.events.len(),
        failed: count(&outcome.events, |o| matches!(o, Outcome::Failed { .. })),
        ignored: count(&outcome.events, |o| matches!(o, Outcome::Ignored { .. })),
        hash: files.hash.clone(),
        orders_from: sheets.keys().map(ToString::to_string).collect(),
        computer_written: computer.iter().map(ToString::to_string).collect(),
        news,
        finished: outcome.state.result.is_some(),
        ..TurnReport::default()
    };
    Ok(Played {
        state: outcome.state,
        files,
        report,
    })
}

/// The computer's orders for every empire that sent none (2.1, 2.5, decision 21), and the
/// adjudication: the new state and events, which empires the computer played, and the
/// turnsheets it wrote, as files for the turn's `orders/`.
pub fn adjudicate_sheets(
    map: &Map,
    state: &GameState,
    next: u32,
    sent: BTreeMap<EmpireCode, empires_rules::order::Turnsheet>,
) -> Result<Adjudicated> {
    let sheets = empires_ai::sim::complete_orders(map, state, &sent);
    let outcome = adjudicate(map, state, &sheets)
        .map_err(|e| Error::new(format!("cannot play turn {next}: {e}")))?;
    if outcome.state.turn != next {
        return Err(Error::new(format!(
            "the rules engine returned turn {} instead of turn {next}",
            outcome.state.turn
        )));
    }
    let computer: Vec<EmpireCode> = sheets
        .iter()
        .filter(|(_, s)| s.computer)
        .map(|(c, _)| *c)
        .collect();
    let orders = computer
        .iter()
        .map(|c| {
            let text = sheets[c]
                .actions
                .iter()
                .map(|l| format!("{}\n", l.text))
                .collect::<String>();
            (
                format!("{c}.txt"),
                format!("# written by the computer (rule 2.5)\n{text}"),
            )
        })
        .collect();
    Ok(Adjudicated {
        outcome,
        computer,
        computer_orders: orders,
    })
}

/// A turn adjudicated: the new state and events, the empires the computer played, and the
/// turnsheets it wrote for them as (file name, text).
pub struct Adjudicated {
    pub outcome: TurnOutcome,
    pub computer: Vec<EmpireCode>,
    pub computer_orders: Vec<(String, String)>,
}

/// The GM's messages for everyone (10.6): one per paragraph, blanks closed up.
fn gm_paragraphs(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in text.lines().flat_map(|l| l.split('\r')) {
        if line.trim().is_empty() {
            if !current.is_empty() {
                out.push(current.join(" "));
                current.clear();
            }
        } else {
            current.extend(line.split_whitespace());
        }
    }
    if !current.is_empty() {
        out.push(current.join(" "));
    }
    out
}

fn count(events: &[Event], pick: impl Fn(&Outcome) -> bool) -> usize {
    events
        .iter()
        .filter(|e| matches!(&e.what, What::Action { outcome, .. } if pick(outcome)))
        .count()
}
