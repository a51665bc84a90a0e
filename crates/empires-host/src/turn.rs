//! What playing a turn did and what the GM allows it, for every game and store, and how a
//! sent sheet's bytes are read; `empires turn` of a directory ([`run_with`]).

use crate::error::{Error, Result};
use crate::files;
use ruleset_api::text::{self, MAX_SHEET_BYTES};
use std::fmt;
use std::path::Path;

/// What playing a turn did, whichever the game and the store.
#[derive(Debug, Clone, Default)]
pub struct TurnReport {
    pub game: String,
    pub turn: u32,
    /// Where the turn was written: a turn directory, or a game in a database.
    pub written_to: String,
    pub events: usize,
    /// Actions that failed, counting lines that could not be read.
    pub failed: usize,
    /// Actions not processed (beyond the action limit, ORDER without a number).
    pub ignored: usize,
    pub hash: String,
    /// Seats whose sheet was played.
    pub orders_from: Vec<String>,
    /// Living seats with a player that sent nothing, which the computer did not play.
    pub no_orders: Vec<String>,
    /// Seats whose orders the computer wrote (2.5).
    pub computer_written: Vec<String>,
    /// What the GM is told beside the counts: a victory warned of, the game won.
    pub news: Vec<String>,
    /// The game ended with this turn.
    pub finished: bool,
    pub warnings: Vec<String>,
}

impl TurnReport {
    /// Whose orders the turn played, in a line: "orders from EN FR, the computer's for SC,
    /// none from WA" (the audit log's words for a turn).
    pub fn counts(&self) -> String {
        let some = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(" ")
            }
        };
        let mut line = format!(
            "orders from {}, the computer's for {}",
            some(&self.orders_from),
            some(&self.computer_written)
        );
        if !self.no_orders.is_empty() {
            line.push_str(&format!(", none from {}", some(&self.no_orders)));
        }
        line
    }
}

impl fmt::Display for TurnReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(" ")
            }
        };
        writeln!(
            f,
            "turn {} of \"{}\" adjudicated: {}, {}{}",
            self.turn,
            self.game,
            count(self.events, "event"),
            count(self.failed, "failed action"),
            if self.ignored > 0 {
                format!(", {} ignored", self.ignored)
            } else {
                String::new()
            }
        )?;
        write!(f, "orders from: {}; ", list(&self.orders_from))?;
        if !self.no_orders.is_empty() {
            write!(f, "no orders from: {}; ", list(&self.no_orders))?;
        }
        writeln!(
            f,
            "written by the computer for: {}",
            list(&self.computer_written)
        )?;
        writeln!(f, "state sha256: {}", self.hash)?;
        write!(f, "written to {}", self.written_to)?;
        for line in &self.news {
            write!(f, "\n{line}")?;
        }
        Ok(())
    }
}

/// What the GM allows a turn that would otherwise not be played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TurnOptions {
    /// The account that asked for the turn (a GM on the web), for the audit log's line of
    /// it; `None` for the host's clock and the command line.
    pub by: Option<i64>,
    /// Play on a state whose `state.sha256` is missing or does not match.
    pub accept_state: bool,
    /// Play an empire whose turnsheet cannot be read (not text, too large) as having sent
    /// none, keeping the sheet with the turn, instead of stopping.
    pub unreadable_as_missed: bool,
    /// Play even though players (not dummies) have sent no orders: the computer writes
    /// theirs (2.5). Without it such a turn is not played.
    pub yes: bool,
    /// The turn the GM means to play: refused if another turn is next (played meanwhile by
    /// another process, say). `None` plays whichever turn is next.
    pub expect: Option<u32>,
}

/// Plays the next turn of the game in `dir` and writes it.
pub fn run(dir: &Path) -> Result<TurnReport> {
    run_with(dir, TurnOptions::default())
}

/// Plays the next turn of the game in `dir` and writes it, as `options` allow, through
/// the one turn pipeline every store plays by.
pub fn run_with(dir: &Path, options: TurnOptions) -> Result<TurnReport> {
    crate::gamefiles::GameFiles::open(dir, None)?.play(options)
}

/// Refuses a turn that is not the one the GM means to play.
pub fn expect_turn(options: &TurnOptions, next: u32, game: &str) -> Result<()> {
    match options.expect {
        Some(want) if want != next => Err(Error::conflict(format!(
            "turn {want} of \"{game}\" cannot be played: the next turn is {next}{}",
            if want < next {
                " (it has been played already, perhaps just now by another process)"
            } else {
                ""
            }
        ))),
        _ => Ok(()),
    }
}

/// The text of a turnsheet a turn has taken, read as `empires check` reads one, or why it
/// cannot be read: not a plain file, more than the bytes a sheet may hold, not text.
pub fn read_sent_sheet(path: &Path) -> std::result::Result<String, String> {
    let limit = MAX_SHEET_BYTES as u64;
    let file = files::open_in_game(path).map_err(|e| e.to_string())?;
    let bytes = files::read_at_most(file, limit)
        .map_err(|e| Error::io("cannot read", path, e).to_string())?
        .ok_or_else(|| format!("more than the {limit} bytes a turnsheet may hold"))?;
    decode_sheet(&bytes)
}

/// A turnsheet's bytes as text, or why they are not a turnsheet.
pub fn decode_sheet(bytes: &[u8]) -> std::result::Result<String, String> {
    if bytes.len() > MAX_SHEET_BYTES {
        return Err(format!(
            "more than the {MAX_SHEET_BYTES} bytes a turnsheet may hold"
        ));
    }
    text::decode(bytes).map_err(|e| e.to_string())
}

/// "3 events", "1 failed action".
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}
