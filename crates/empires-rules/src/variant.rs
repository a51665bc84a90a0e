//! Rules variants (1.7, 12.x) and the ruleset options a GM may set per game.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The Empires variant a game is played under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    World,
    Medieval,
    European,
    Australian,
}

impl Variant {
    /// 1.7 and decision 39: Medieval and European Empires have no air forces; World and
    /// Australian Empires play the air rules (AIR, the air phase, anti-aircraft fire, air
    /// supply).
    pub fn has_air(self) -> bool {
        matches!(self, Variant::World | Variant::Australian)
    }

    /// 12.8: only World Empires starts with an air force (5) and the smaller army reserve
    /// (5); Medieval, European and, by decision 39, Australian empires start with an army
    /// reserve of 10 and no aircraft.
    pub fn starts_with_air(self) -> bool {
        self == Variant::World
    }

    /// Seed 003: supply trains, capitals and supply lines in European Empires.
    pub fn has_supply(self) -> bool {
        self == Variant::European
    }

    pub fn parse(text: &str) -> Option<Variant> {
        match text.trim().to_ascii_lowercase().as_str() {
            "world" => Some(Variant::World),
            "medieval" => Some(Variant::Medieval),
            "european" => Some(Variant::European),
            "australian" => Some(Variant::Australian),
            _ => None,
        }
    }

    /// The variant's name as players write it in prose: "Medieval" (Empires).
    pub fn title(self) -> &'static str {
        match self {
            Variant::World => "World",
            Variant::Medieval => "Medieval",
            Variant::European => "European",
            Variant::Australian => "Australian",
        }
    }

    /// The variant's name as a setting: "medieval".
    pub fn name(self) -> &'static str {
        match self {
            Variant::World => "world",
            Variant::Medieval => "medieval",
            Variant::European => "european",
            Variant::Australian => "australian",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the supply cost of ships at sea is counted (decision 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeaSupply {
    /// 13.3: distance to base + half of (armies + ships).
    #[default]
    DistancePlusHalf,
    /// 3.3 body text: the distance only.
    DistanceOnly,
}

/// Ruleset options (the decisions marked "option"), with their defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Actions per turn for every empire unless the empire has its own setting (2.6).
    pub actions_per_turn: u32,
    pub sea_supply: SeaSupply,
    /// S.11: a base is blockaded unless its owner holds the entrance sea area.
    pub blockade_means_not_owned: bool,
    /// Missed turns in a row after which an empire counts as dropped out (2.5).
    pub dropout_after: u32,
    /// The POINTS WIN target (11.6); `None` means the number of land areas on the map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points_target: Option<u32>,
    /// The first turn at whose end victory conditions are looked at (11.6): before it none
    /// warns or ends the game. 0, the default, is the rule as written: from the first turn.
    #[serde(skip_serializing_if = "is_zero")]
    pub victory_from_turn: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Default for Options {
    fn default() -> Self {
        Options {
            actions_per_turn: 16,
            sea_supply: SeaSupply::default(),
            blockade_means_not_owned: false,
            dropout_after: 3,
            points_target: None,
            victory_from_turn: 0,
        }
    }
}
