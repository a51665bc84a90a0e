//! The rules engine of Napoleonic Empires (seed 004, reconstructed in the project's digest
//! and decided in `docs/napoleonic/rules.md`): a pure function from (map, state, orders) to
//! (new state, events). No clock, files or network; the random generator travels in the
//! state.
//!
//! Comments cite the turn sequence by step (F1-F11 First Events, M1-M15 movement, L1-L20
//! Final Events), the digest's sections (2.9 permission, 3.3 move points) and the decisions
//! that fill the rulebook's gaps (G1-G48).

pub mod battle;
pub mod event;
pub mod fixed;
pub mod hq;
pub mod ids;
pub mod map;
pub mod mapcheck;
pub mod orders;
pub mod rulings;
pub mod setup;
pub mod standard;
pub mod state;
pub mod tables;
pub mod turn;
pub mod victory;

pub use fixed::{Fixed, Gold};
pub use ids::{KingdomCode, LocId, TroopCode, UnitId, UnitKind};
pub use map::Map;
pub use orders::KingdomOrders;
pub use state::GameState;
pub use turn::{Outcome, TurnError, play, play_ruled};
