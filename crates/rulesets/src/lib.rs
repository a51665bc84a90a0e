//! The registry: every game this program is built with. Only the program (and the tests'
//! kit) depend on this crate; the host, the web and the mail doors are handed the list as a
//! value when the program starts ([`install`]) and never name a game.
//!
//! Adding a game: implement `ruleset_api::Ruleset` in the game's own crates, then add one
//! line to [`ALL`].

use empires_host::ruleset::{self, Ruleset};

/// Every ruleset, in the order the new-game form offers them.
pub const ALL: &[&'static dyn Ruleset] = &[&empires_ruleset::Empires, &napoleonic_host::Napoleonic];

/// Hands [`ALL`] to the host; call once when the program starts (again is harmless).
pub fn install() {
    ruleset::install(ALL).expect("the program installs one list of rulesets");
}
