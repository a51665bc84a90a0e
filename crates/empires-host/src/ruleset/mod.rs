//! What every game the host runs provides, whichever game it is: the interface between the
//! host (games, seats, sheets, turns, reports, storage) and a ruleset (Empires, Napoleonic
//! Empires, ...). The host speaks to a ruleset only in the texts it keeps — the map file,
//! the state as JSON, the players' sheets, the reports — so a store and a door never need to
//! know which game they hold.
//!
//! What stays game-specific: the map format, the state, the order language, the report
//! model, the computer players; each ruleset crate owns them and this interface passes
//! them through as text.

pub mod empires;
pub mod napoleonic;

use crate::error::{Error, Result};

/// A game as the host keeps it: its name, map file and state, as text, and what the
/// ruleset asked it to keep (the map's drawing, worked out once).
#[derive(Debug, Clone, Copy)]
pub struct GameText<'a> {
    pub name: &'a str,
    pub map: &'a str,
    pub state: &'a str,
    /// What the ruleset returned to keep; `None` if nothing is kept or it was lost.
    pub kept: Option<&'a str>,
}

/// A game of any ruleset as a store keeps it, as texts: what [`Ruleset`] is handed.
#[derive(Debug, Clone)]
pub struct HostedGame {
    pub name: String,
    pub ruleset: &'static dyn Ruleset,
    /// Turns played so far.
    pub turn: u32,
    pub map: String,
    pub state: String,
    pub kept: Option<String>,
    /// What the reader should know: a state that does not match its hash.
    pub warnings: Vec<String>,
}

impl HostedGame {
    pub fn text(&self) -> GameText<'_> {
        GameText {
            name: &self.name,
            map: &self.map,
            state: &self.state,
            kept: self.kept.as_deref(),
        }
    }
}

/// A place at the table: an empire, a kingdom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub code: String,
    pub name: String,
    /// Still in the game: it gets a sheet and a report.
    pub alive: bool,
}

/// How a new game is set up, in terms every ruleset understands.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    pub name: String,
    pub seed: u64,
    /// The map file's text; the ruleset's standard map when `None`.
    pub map: Option<String>,
    /// The seats in play (codes); all the map's when empty.
    pub seats: Vec<String>,
}

/// A new game: the map it is played on and its starting state, as the host keeps them.
#[derive(Debug, Clone)]
pub struct Started {
    pub map: String,
    pub state: String,
    /// Derived data to keep with the game and hand back in [`GameText::kept`]: it can
    /// always be made again, so losing it costs time, never a turn.
    pub kept: Option<String>,
}

/// A sheet read and checked: the counts, and the text a player reads (every mistake with
/// its line and column, and the ruleset's forecast or dry run).
#[derive(Debug, Clone)]
pub struct Checked {
    pub errors: usize,
    pub warnings: usize,
    pub text: String,
}

/// What a turn is played with.
#[derive(Debug, Clone, Copy, Default)]
pub struct Orders<'a> {
    /// The sheets sent, as (seat, text).
    pub sheets: &'a [(String, String)],
    /// The seats no one plays (no account holds them): the ruleset's computer player stands
    /// in for those that sent nothing. What becomes of a seat that has a player but sent
    /// nothing is the ruleset's rule.
    pub stand_ins: &'a [String],
    /// The GM's messages to every player, printed in every report of the turn.
    pub gm: Option<&'a str>,
}

/// A turn played: everything the host writes for it, as text.
#[derive(Debug, Clone)]
pub struct Turn {
    /// The turn that was played.
    pub turn: u32,
    pub state: String,
    pub events: String,
    /// Every report, as (file name, contents): `FRA.txt`, `EN.html`, ...
    pub reports: Vec<(String, String)>,
    /// Each living seat's sheet for the next turn, as (seat, text).
    pub sheets: Vec<(String, String)>,
    /// Seats whose orders the computer wrote, with the sheets it wrote, as (file, text).
    pub computer_orders: Vec<(String, String)>,
    pub events_count: usize,
    pub failed: usize,
    /// Things the GM should know (sheets not used, and why).
    pub notes: Vec<String>,
    /// New derived data to keep, when what was kept was missing or stale.
    pub kept: Option<String>,
}

/// What a sheet's header names, as written: found in a letter before the game is known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SheetHeader {
    pub game: Option<String>,
    /// The empire or kingdom.
    pub seat: Option<String>,
    pub turn: Option<String>,
}

/// A game family the host can run.
pub trait Ruleset: Send + Sync {
    /// The name kept in a game's `game.toml`: `empires`, `napoleonic`.
    fn id(&self) -> &'static str;
    /// The game's name for people.
    fn title(&self) -> &'static str;
    /// What becomes of a seat that sends no sheet for a turn, said to the GM (the ruleset's
    /// policy, not the host's).
    fn missed_turn(&self) -> &'static str;
    fn create(&self, setup: &Setup) -> Result<Started>;
    fn seats(&self, game: GameText) -> Result<Vec<Seat>>;
    /// The turn to be played next.
    fn next_turn(&self, game: GameText) -> Result<u32>;
    /// The blank sheet a seat fills in for the next turn.
    fn sheet(&self, game: GameText, seat: &str) -> Result<String>;
    /// Reads and checks a seat's sheet, named `file` in messages.
    fn check(&self, game: GameText, seat: &str, file: &str, sheet: &str) -> Result<Checked>;
    /// Plays the next turn with what was sent for it.
    fn play(&self, game: GameText, orders: Orders) -> Result<Turn>;
    /// The header of a sheet written in this ruleset's order language: what a letter's
    /// sheet says it is for, read before the game is known.
    fn header(&self, sheet: &str) -> SheetHeader;
}

/// The header of a sheet, read by every ruleset: the first reading that names a seat, else
/// the first that names a game (the sheets of each game look alike enough that a header of
/// one may be half read by another).
pub fn read_header(sheet: &str) -> SheetHeader {
    let readings: Vec<SheetHeader> = all().iter().map(|r| r.header(sheet)).collect();
    readings
        .iter()
        .find(|h| h.game.is_some() && h.seat.is_some())
        .or_else(|| readings.iter().find(|h| h.game.is_some()))
        .cloned()
        .unwrap_or_default()
}

impl std::fmt::Debug for dyn Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// Every ruleset the host knows.
pub fn all() -> [&'static dyn Ruleset; 2] {
    [&empires::Empires, &napoleonic::Napoleonic]
}

/// The ruleset kept under `id`.
pub fn by_id(id: &str) -> Result<&'static dyn Ruleset> {
    all().into_iter().find(|r| r.id() == id).ok_or_else(|| {
        Error::new(format!(
            "no ruleset {id:?}; the host runs {}",
            all().map(|r| r.id()).join(", ")
        ))
    })
}
