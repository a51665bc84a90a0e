//! The game host's core: everything a door (the command line, the web, mail) needs to run a
//! game, so that a turnsheet gets the same checking, adjudication and reports whichever way
//! it came in.
//!
//! - [`turn`] plays the next turn: the turnsheets sent, the computer's for the rest
//!   (2.5), the adjudication and every report, committed as one unit.
//! - [`gamedir`] and [`staging`] keep a game in a directory of plain files, the format a
//!   GM can read, archive and diff; [`files`] reads and writes inside it safely.
//! - [`render`] writes every report of a turn; [`drawing`] keeps the map's drawing, worked
//!   out once per game.

pub mod calendar;
pub mod check;
pub mod clock;
pub mod create;
pub mod drawing;
pub mod error;
pub mod files;
pub mod gamedir;
pub mod gamefiles;
pub mod gamelock;
pub mod games;
pub mod ledger;
pub mod mapcache;
pub mod pipeline;
pub mod render;
pub mod ruleset;
pub mod schedule;
pub mod seat;
pub mod staging;
pub mod store;
pub mod submit;
pub mod transfer;
pub mod turn;
pub mod undo;
pub mod verify;
pub mod whole;

pub use error::{Error, Result};
