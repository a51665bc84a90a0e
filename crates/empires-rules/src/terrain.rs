//! Terrain types and their effects: rules 4.3, 5.9, 7.5, 8.9, 8.12 and the table 13.1.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The terrain of an area (4.3). `Sea` marks sea areas; every other value is land.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    Desert,
    Forest,
    Islands,
    Jungle,
    Lowlands,
    Mountains,
    Plains,
    Tundra,
    Uplands,
    Wetlands,
    Sea,
}

impl Terrain {
    pub const ALL: [Terrain; 11] = [
        Terrain::Desert,
        Terrain::Forest,
        Terrain::Islands,
        Terrain::Jungle,
        Terrain::Lowlands,
        Terrain::Mountains,
        Terrain::Plains,
        Terrain::Tundra,
        Terrain::Uplands,
        Terrain::Wetlands,
        Terrain::Sea,
    ];

    pub fn is_sea(self) -> bool {
        self == Terrain::Sea
    }

    /// 5.9 / 13.1: the extra BPs a GROW costs on top of the current population.
    pub fn grow_extra(self) -> u32 {
        match self {
            Terrain::Lowlands | Terrain::Sea => 0,
            Terrain::Uplands | Terrain::Wetlands | Terrain::Plains => 1,
            Terrain::Islands | Terrain::Forest => 2,
            Terrain::Mountains => 3,
            Terrain::Jungle => 4,
            Terrain::Desert | Terrain::Tundra => 5,
        }
    }

    /// 8.9 / 13.1: the bonus added to the defence strength.
    pub fn defence_bonus(self) -> u32 {
        match self {
            Terrain::Forest | Terrain::Wetlands | Terrain::Uplands => 1,
            Terrain::Jungle | Terrain::Mountains => 2,
            _ => 0,
        }
    }

    /// 7.5 / 8.12 / 13.1: difficult terrain makes armies stuck and cuts the defender's losses.
    pub fn is_difficult(self) -> bool {
        matches!(
            self,
            Terrain::Mountains | Terrain::Forest | Terrain::Jungle | Terrain::Wetlands
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Desert => "desert",
            Terrain::Forest => "forest",
            Terrain::Islands => "islands",
            Terrain::Jungle => "jungle",
            Terrain::Lowlands => "lowlands",
            Terrain::Mountains => "mountains",
            Terrain::Plains => "plains",
            Terrain::Tundra => "tundra",
            Terrain::Uplands => "uplands",
            Terrain::Wetlands => "wetlands",
            Terrain::Sea => "sea",
        }
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::Terrain::*;

    #[test]
    fn table_13_1_grow_costs() {
        let expect = [
            (Desert, 5),
            (Forest, 2),
            (Islands, 2),
            (Jungle, 4),
            (Lowlands, 0),
            (Mountains, 3),
            (Plains, 1),
            (Tundra, 5),
            (Uplands, 1),
            (Wetlands, 1),
        ];
        for (t, c) in expect {
            assert_eq!(t.grow_extra(), c, "{t}");
        }
    }

    #[test]
    fn table_13_1_defence_and_movement() {
        let expect = [
            (Desert, 0, false),
            (Forest, 1, true),
            (Islands, 0, false),
            (Jungle, 2, true),
            (Lowlands, 0, false),
            (Mountains, 2, true),
            (Plains, 0, false),
            (Tundra, 0, false),
            (Uplands, 1, false),
            (Wetlands, 1, true),
        ];
        for (t, bonus, difficult) in expect {
            assert_eq!(t.defence_bonus(), bonus, "{t}");
            assert_eq!(t.is_difficult(), difficult, "{t}");
        }
    }
}
