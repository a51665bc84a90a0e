//! The one error type of the host and of every ruleset: defined beside the [`Ruleset`]
//! interface (`ruleset-api`) so that a ruleset's errors reach a door unchanged.
//!
//! [`Ruleset`]: crate::ruleset::Ruleset

pub use ruleset_api::error::*;
