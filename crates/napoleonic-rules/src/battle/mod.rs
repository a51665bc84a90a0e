//! Battles (digest 4.1-4.8): the engine ([`engine`]), a pure function of a battle's sides,
//! units and fortification and of its [`dice`]; the report it writes ([`report`]); and the
//! turn's side of it: building the land and border battles of M11 and M12 ([`land`]) and
//! the sea battles of M6 ([`sea`]) from the state, and writing their outcome back.
//!
//! Every random draw goes through the [`dice::Dice`] trait, the game's generator in play
//! and a script in tests, in a fixed order (see [`engine`]).

pub mod dice;
pub mod engine;
pub mod land;
pub mod report;
pub mod sea;

pub use dice::{Dice, Draw, Scripted};
pub use engine::{Battle, Setup};
pub use report::{BattleKind, BattleReport};
