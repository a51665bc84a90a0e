//! The rules engine of Empires: a pure function from (map, state, orders) to (new state,
//! events). No clock, files or network; the random generator travels in the state.
//!
//! Rule numbers in comments refer to the Empires rulebook (sections 1-13) and to the
//! European Empires supply rules (S.1-S.13); "decision N" refers to the project's rules
//! decisions, described in `docs/rules.md`.

pub mod codes;
pub mod engine;
pub mod event;
pub mod knowledge;
pub mod map;
pub mod order;
pub mod results;
/// The seeded generator, shared with the other rulesets of the family.
pub use empires_dice as rng;
pub mod scenario;
pub mod setup;
pub mod state;
pub mod supply;
pub mod terrain;
pub mod variant;
pub mod words;

pub use codes::{AreaCode, EmpireCode};
pub use engine::{TurnError, TurnOutcome, adjudicate};
pub use map::Map;
pub use order::{Order, OrderLine, Quantity, Turnsheet, Verb};
pub use state::GameState;
pub use terrain::Terrain;
pub use variant::{Options, Variant};
