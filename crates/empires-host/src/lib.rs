//! The game host's core: everything a door (the command line, the web, mail) needs to run a
//! game, so that a turnsheet gets the same checking, adjudication and reports whichever way
//! it came in.
//!
//! The host names no game: every game comes as a [`ruleset::Ruleset`] the program installs.
//!
//! - [`pipeline`] plays a turn of any game: the sheets a store gathered, the ruleset's
//!   play, and every file laid out with its readers, for the store to commit as one unit.
//! - [`store`] keeps games: a directory ([`gamefiles`], [`gamedir`], [`staging`]), SQLite
//!   or PostgreSQL; [`files`] reads and writes inside a game's directory safely.
//! - [`submit`] and [`games`] take a sheet from any door; [`verify`] plays a game again
//!   from what it kept; [`transfer`] moves a game between stores.

pub mod calendar;
pub mod clock;
pub mod create;
pub mod error;
pub mod files;
pub mod gamedir;
pub mod gamefiles;
pub mod gamelock;
pub mod games;
pub mod ledger;
pub mod pipeline;
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

pub use error::{Error, Result};
