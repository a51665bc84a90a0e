//! The standard maps, built into the program so a game can start on a fresh machine with
//! nothing but a map's name (section 12).

use empires_rules::Map;
use empires_rules::map::MapError;

/// A standard map: its name for `--map`, and its file.
pub struct Standard {
    pub name: &'static str,
    pub file: &'static str,
    pub text: &'static str,
}

/// Every standard map, in the order of section 12.
pub const MAPS: &[Standard] = &[
    Standard {
        name: "world",
        file: "maps/world.toml",
        text: include_str!("../../../maps/world.toml"),
    },
    Standard {
        name: "medieval",
        file: "maps/medieval.toml",
        text: include_str!("../../../maps/medieval.toml"),
    },
    Standard {
        name: "european",
        file: "maps/european.toml",
        text: include_str!("../../../maps/european.toml"),
    },
    Standard {
        name: "australian",
        file: "maps/australian.toml",
        text: include_str!("../../../maps/australian.toml"),
    },
    Standard {
        name: "tutorial",
        file: "maps/tutorial.toml",
        text: include_str!("../../../maps/tutorial.toml"),
    },
];

/// The standard map of that name, if there is one.
pub fn find(name: &str) -> Option<&'static Standard> {
    MAPS.iter()
        .find(|m| m.name.eq_ignore_ascii_case(name.trim()))
}

/// Loads a standard map by name.
pub fn load(name: &str) -> Option<Result<Map, MapError>> {
    find(name).map(|m| Map::from_toml(m.text, m.file))
}

/// The names of the standard maps, for messages.
pub fn names() -> Vec<&'static str> {
    MAPS.iter().map(|m| m.name).collect()
}
