//! Empires (seed 000) with its European supply rules (seed 003) as a ruleset of the host:
//! the game read once and kept parsed ([`ruleset::EmpiresGame`]), the checker with its
//! forecast ([`check`]), the turn ([`turn`]), every report ([`render`], [`whole`]) and the
//! map's drawing, worked out once per game ([`drawing`]; the standard maps' at build time).
//! The host knows none of it: the program's registry hands it [`Empires`] as a
//! [`empires_host::ruleset::Ruleset`].

pub mod check;
pub mod create;
pub mod drawing;
pub mod gamedir;
pub mod mail;
pub mod mapcache;
pub mod render;
pub mod ruleset;
pub mod turn;
pub mod whole;

pub use ruleset::{Empires, EmpiresGame};

// The host's pieces every module here speaks in.
use empires_host::{error, store};

use empires_host::store::SeatCode;
use empires_rules::{EmpireCode, GameState, Map};

/// An Empires game as a store holds it now, read to look at it.
#[derive(Debug)]
pub struct Loaded {
    pub map_text: String,
    /// The map's layer for the report pages (`map.js`), when the game keeps one.
    pub map_script: Option<String>,
    pub map: Map,
    pub turn: u32,
    pub state: GameState,
    /// Things the reader should know: a hash that does not match, an interrupted turn.
    pub warnings: Vec<String>,
}

impl Loaded {
    /// The blank turnsheet of `empire` for the next turn, as its report ends with it: the
    /// game's name as the host keeps it (`game`) on the `GAME` line, and the empire's own
    /// number of actions (2.6). Every door hands out this one text.
    pub fn blank_sheet(&self, game: &str, empire: EmpireCode) -> String {
        blank_sheet(game, &self.state, empire)
    }
}

/// The actions `empire` may take a turn: its own limit, else the game's (2.6).
pub fn actions_of(state: &GameState, empire: EmpireCode) -> u32 {
    state
        .empire(empire)
        .and_then(|e| e.actions_per_turn)
        .unwrap_or(state.options.actions_per_turn)
}

/// `empire`'s blank turnsheet for the turn after `state`, the game named `game` on its
/// `GAME` line (the name the host keeps it by) with the empire's own number of actions.
pub fn blank_sheet(game: &str, state: &GameState, empire: EmpireCode) -> String {
    let actions = actions_of(state, empire);
    empires_report::text::blank_sheet(game, state.turn + 1, empire.as_str(), actions)
}

/// The seat an empire is.
pub fn seat(empire: EmpireCode) -> SeatCode {
    // An empire's code is two letters, always a seat's code.
    SeatCode::parse(empire.as_str()).expect("an empire's code is a seat's code")
}

/// The empire a seat is, in an Empires game.
pub fn empire(seat: SeatCode) -> Option<EmpireCode> {
    EmpireCode::parse(seat.as_str()).ok()
}
