//! The standard map of Napoleonic Europe, shipped with the game: built into the program, so
//! a game can start with nothing but the map's name. The map is authored data (the
//! rulebook's is lost, digest 8.1); `docs/napoleonic/maps.md` describes it.

use crate::map::Map;

/// The name a game uses to pick the standard map.
pub const EUROPE: &str = "europe";

/// The map file, as shipped.
pub const EUROPE_TOML: &str = include_str!("../../../maps/napoleonic.toml");

/// The standard map of Europe around 1805, read and checked. The file is part of the
/// program, so a problem in it is a broken build, not bad input; the test
/// `the_standard_map_loads` keeps it from ever reaching a player.
pub fn europe() -> Map {
    Map::parse(EUROPE_TOML).unwrap_or_else(|problems| {
        panic!(
            "the shipped map maps/napoleonic.toml is broken: {}",
            problems.join("; ")
        )
    })
}

/// A standard map by its name, if there is one.
pub fn find(name: &str) -> Option<Map> {
    name.trim().eq_ignore_ascii_case(EUROPE).then(europe)
}
