//! `empires turn`: adjudicate the next turn with the turnsheets waiting in `orders/`.

use crate::error::{Error, Result};
use crate::files;
use crate::gamedir::{Access, Game, TurnFiles};
use crate::render::render_all;
use crate::staging::{Taken, TurnRecord, UNREADABLE_DIR};
use empires_orders::parse_turnsheet;
use empires_rules::event::{Event, Outcome, What};
use empires_rules::state::VictoryClaim;
use empires_rules::words;
use empires_rules::{EmpireCode, adjudicate};
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
            "turn {} of \"{}\" adjudicated: {}, {}{}",
            self.turn,
            self.game,
            words::count(self.events as u32, "event"),
            words::count(self.failed as u32, "failed action"),
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

/// What the GM allows a turn that would otherwise not be played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnOptions {
    /// Play on a state whose `state.sha256` is missing or does not match.
    pub accept_state: bool,
    /// Play an empire whose turnsheet cannot be read (not text, too large) as having sent
    /// none, keeping the sheet with the turn, instead of stopping.
    pub unreadable_as_missed: bool,
    /// Play even though players (not dummies) have sent no orders: the computer writes
    /// theirs (2.5). Without it such a turn is not played.
    pub yes: bool,
}

/// Plays the next turn of the game in `dir` and writes it.
pub fn run(dir: &Path) -> Result<TurnReport> {
    run_with(dir, TurnOptions::default())
}

/// Plays the next turn of the game in `dir` and writes it, as `options` allow.
pub fn run_with(dir: &Path, options: TurnOptions) -> Result<TurnReport> {
    let game = Game::open(
        dir,
        Access::Play {
            accept_state: options.accept_state,
        },
    )?;
    let next = game.turn + 1;
    if !options.yes {
        let waiting = game.dir.waiting(&game.state)?;
        let missing: Vec<String> = game
            .state
            .empires
            .iter()
            .filter(|e| e.alive() && !waiting.sheets.contains_key(&e.code))
            .filter_map(|e| e.player.as_ref().map(|p| format!("{} ({p})", e.code)))
            .collect();
        if !missing.is_empty() {
            return Err(Error::new(format!(
                "no orders yet from {}: the computer would write their turn (2.5); wait for \
                 them, or play now with `empires turn --yes`",
                missing.join(", ")
            )));
        }
    }
    // From here the sheets are in the turn being written: any failure must put them back.
    let taken = game.dir.take_orders(next, &game.state)?;
    play(&game, next, &taken, options).map_err(|e| game.dir.undo(e))
}

/// The text of a turnsheet a turn has taken, read as `empires check` reads one, or why it
/// cannot be read: not a plain file, more than the bytes a sheet may hold, not text.
pub fn read_sent_sheet(path: &Path) -> std::result::Result<String, String> {
    let limit = empires_orders::text::MAX_SHEET_BYTES as u64;
    let file = files::open_in_game(path).map_err(|e| e.to_string())?;
    let bytes = files::read_at_most(file, limit)
        .map_err(|e| Error::io("cannot read", path, e).to_string())?
        .ok_or_else(|| format!("more than the {limit} bytes a turnsheet may hold"))?;
    empires_orders::text::decode(&bytes).map_err(|e| e.to_string())
}

fn play(game: &Game, next: u32, taken: &Taken, options: TurnOptions) -> Result<TurnReport> {
    let mut warnings = game.warnings.clone();
    warnings.extend(taken.waiting.warnings.iter().cloned());
    let mut record = TurnRecord {
        state_accepted: game.state_accepted.clone(),
        ..TurnRecord::default()
    };
    let mut sent = BTreeMap::new();
    let mut unreadable = Vec::new();
    for (code, name) in &taken.waiting.sheets {
        match read_sent_sheet(&taken.orders().join(name)) {
            Ok(text) => {
                sent.insert(*code, parse_turnsheet(&text));
                record.sent.push(name.clone());
            }
            Err(why) => unreadable.push((name.clone(), why)),
        }
    }
    let mut gm_messages = Vec::new();
    if let Some(name) = &taken.waiting.gm {
        match read_sent_sheet(&taken.orders().join(name)) {
            Ok(text) => {
                gm_messages = gm_paragraphs(&text);
                record.sent.push(name.clone());
            }
            Err(why) => unreadable.push((name.clone(), why)),
        }
    }
    if !unreadable.is_empty() {
        let list = unreadable
            .iter()
            .map(|(n, why)| format!("{}/{n}: {why}", game.dir.orders_dir().display()))
            .collect::<Vec<_>>()
            .join("; ");
        if !options.unreadable_as_missed {
            return Err(Error::new(format!(
                "turn {next} not played, some turnsheets cannot be read: {list}. Ask for them \
                 again, or run `empires turn --unreadable-as-missed` to play those empires \
                 as having sent no orders (the sheets are kept with the turn)"
            )));
        }
        for (name, _) in &unreadable {
            game.dir.set_aside(taken, name)?;
            record.unreadable.push(name.clone());
        }
        warnings.push(format!(
            "played as sent no orders (--unreadable-as-missed), the sheets kept in {}/{UNREADABLE_DIR}/: {list}",
            game.dir.turn_dir(next).join(crate::gamedir::ORDERS_DIR).display()
        ));
    }
    record.sent.sort();
    // 2.1, 2.5 (decision 21): the computer writes the orders of every empire that sent none.
    let sheets = empires_ai::sim::complete_orders(&game.map, &game.state, &sent);
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
        &gm_messages,
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
    record.computer = files
        .computer_orders
        .iter()
        .map(|(n, _)| n.clone())
        .collect();
    game.dir.commit_turn(next, taken, &files, &record)?;

    // The turn is committed: nothing below may fail, so that a retry never plays a second
    // turn.
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
