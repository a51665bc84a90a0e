//! The rulesets this host runs: the interface every game provides ([`Ruleset`], from
//! `ruleset-api`) and the registry the program fills when it starts.
//!
//! The host names no game: the program hands it the list of rulesets it was built with
//! ([`install`]), and a game kept in a store is
//! played by the ruleset its `ruleset` field names ([`by_id`]). Adding a game to the host
//! is implementing [`Ruleset`] in the game's own crates and adding one line to the
//! program's list.

pub use ruleset_api::*;

use std::sync::OnceLock;

static INSTALLED: OnceLock<Vec<&'static dyn Ruleset>> = OnceLock::new();

/// Hands the host the rulesets it runs, once, when the program starts. Installing the same
/// list again, or part of it (each test of a suite does; a test program may run a game of
/// its own beside the program's), is harmless; anything else is refused: the games a host
/// can read must not change while it runs.
pub fn install(rulesets: &[&'static dyn Ruleset]) -> Result<()> {
    let ids = |list: &[&'static dyn Ruleset]| list.iter().map(|r| r.id()).collect::<Vec<_>>();
    let kept = INSTALLED.get_or_init(|| rulesets.to_vec());
    if ids(rulesets).iter().all(|id| ids(kept).contains(id)) {
        Ok(())
    } else {
        Err(Error::new(format!(
            "the host already runs {}; it cannot switch to {}",
            ids(kept).join(", "),
            ids(rulesets).join(", ")
        )))
    }
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

/// Every ruleset the host runs, as installed; none until the program installs its list.
pub fn all() -> &'static [&'static dyn Ruleset] {
    INSTALLED.get().map_or(&[], Vec::as_slice)
}

/// The ruleset kept under `id`.
pub fn by_id(id: &str) -> Result<&'static dyn Ruleset> {
    all().iter().copied().find(|r| r.id() == id).ok_or_else(|| {
        Error::new(format!(
            "no ruleset {id:?}; this host runs {}",
            all().iter().map(|r| r.id()).collect::<Vec<_>>().join(", ")
        ))
    })
}
