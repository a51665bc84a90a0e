//! `empires turn`: adjudicate the next turn with the turnsheets waiting in `orders/`.

use crate::commands::report::render_all;
use crate::error::{Error, Result};
use crate::gamedir::{Game, TurnFiles};
use empires_orders::parse_turnsheet;
use empires_rules::event::{Event, Outcome, What};
use empires_rules::state::VictoryClaim;
use empires_rules::{EmpireCode, Turnsheet, adjudicate};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// What `empires turn` did.
#[derive(Debug, Clone)]
pub struct TurnReport {
    pub game: String,
    pub turn: u32,
    pub dir: PathBuf,
    pub events: usize,
    /// Actions that failed, counting lines that could not be read.
    pub failed: usize,
    /// Actions not processed (beyond the action limit, ORDER without a number).
    pub ignored: usize,
    pub hash: String,
    /// Empires whose turnsheet was used, and the living empires that sent none.
    pub orders_from: Vec<EmpireCode>,
    /// Empires whose orders the computer wrote (2.5).
    pub computer_written: Vec<EmpireCode>,
    pub victory_warning: Option<VictoryClaim>,
    pub game_over: Option<VictoryClaim>,
    pub warnings: Vec<String>,
}

impl fmt::Display for TurnReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[EmpireCode]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        };
        writeln!(
            f,
            "turn {} of \"{}\" adjudicated: {} events, {} failed actions{}",
            self.turn,
            self.game,
            self.events,
            self.failed,
            if self.ignored > 0 {
                format!(", {} ignored", self.ignored)
            } else {
                String::new()
            }
        )?;
        writeln!(
            f,
            "orders from: {}; written by the computer for: {}",
            list(&self.orders_from),
            list(&self.computer_written)
        )?;
        writeln!(f, "state sha256: {}", self.hash)?;
        write!(f, "written to {}", self.dir.display())?;
        if let Some(c) = &self.victory_warning {
            write!(f, "\nvictory warning: {}", claim_text(c))?;
        }
        if let Some(c) = &self.game_over {
            write!(f, "\ngame over: {}", claim_text(c))?;
        }
        Ok(())
    }
}

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

/// Plays the next turn of the game in `dir` and writes it.
pub fn run(dir: &Path) -> Result<TurnReport> {
    let game = Game::load(dir)?;
    let mut warnings = game.warnings.clone();
    let pending = game.dir.read_orders(&game.state)?;
    warnings.extend(pending.warnings.iter().cloned());
    let sent: BTreeMap<EmpireCode, Turnsheet> = pending
        .sheets
        .iter()
        .map(|(code, file)| (*code, parse_turnsheet(&file.text)))
        .collect();
    // 2.1, 2.5 (decision 21): the computer writes the orders of every empire that sent none.
    let sheets = empires_ai::sim::complete_orders(&game.map, &game.state, &sent);
    let next = game.turn + 1;
    let outcome = adjudicate(&game.map, &game.state, &sheets)
        .map_err(|e| Error::new(format!("cannot play turn {next}: {e}")))?;
    if outcome.state.turn != next {
        return Err(Error::new(format!(
            "the rules engine returned turn {} instead of turn {next}",
            outcome.state.turn
        )));
    }
    let mut files = TurnFiles::new(&outcome.state, Some(&outcome.events))?;
    let computer: Vec<EmpireCode> = sheets
        .iter()
        .filter(|(_, s)| s.computer)
        .map(|(c, _)| *c)
        .collect();
    files.reports = render_all(
        &game.map,
        &outcome.state,
        &outcome.events,
        &computer,
        &pending.gm_messages,
    )?;
    files.computer_orders = computer
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
    game.dir.write_turn(next, &files, true)?;

    Ok(TurnReport {
        game: outcome.state.game.clone(),
        turn: next,
        dir: game.dir.turn_dir(next),
        events: outcome.events.len(),
        failed: count(&outcome.events, |o| matches!(o, Outcome::Failed { .. })),
        ignored: count(&outcome.events, |o| matches!(o, Outcome::Ignored { .. })),
        hash: files.hash,
        orders_from: sent.keys().copied().collect(),
        computer_written: computer,
        victory_warning: outcome.state.victory_warning.clone(),
        game_over: outcome.state.result.clone(),
        warnings,
    })
}

fn count(events: &[Event], pick: impl Fn(&Outcome) -> bool) -> usize {
    events
        .iter()
        .filter(|e| matches!(&e.what, What::Action { outcome, .. } if pick(outcome)))
        .count()
}
