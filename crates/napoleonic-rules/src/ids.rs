//! Identifiers, parsed once at the edge. Locations have numbers, as in the original game's
//! battle reports ("119 Eradas"), and short codes for people; units are A/F/G numbers
//! (digest 1.3: "A7 is Army 7"); kingdoms have three-letter codes.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A location (province or sea) by its number on the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct LocId(pub u16);

impl fmt::Display for LocId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A kingdom's code: two to four capital letters ("FRA", "PRU"). The independents, run by
/// the computer, are the kingdom `IND`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct KingdomCode(String);

impl KingdomCode {
    pub const INDEPENDENT: &'static str = "IND";

    pub fn new(text: &str) -> Result<KingdomCode, String> {
        let t = text.trim();
        if (2..=4).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_uppercase()) {
            Ok(KingdomCode(t.to_string()))
        } else {
            Err(format!(
                "a kingdom code is two to four capital letters, not {t:?}"
            ))
        }
    }

    pub fn independents() -> KingdomCode {
        KingdomCode(Self::INDEPENDENT.to_string())
    }

    pub fn is_independent(&self) -> bool {
        self.0 == Self::INDEPENDENT
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for KingdomCode {
    type Error = String;
    fn try_from(s: String) -> Result<KingdomCode, String> {
        KingdomCode::new(&s)
    }
}

impl From<KingdomCode> for String {
    fn from(k: KingdomCode) -> String {
        k.0
    }
}

impl fmt::Display for KingdomCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The three kinds of unit (digest 2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum UnitKind {
    Army,
    Fleet,
    Garrison,
}

impl UnitKind {
    pub fn letter(self) -> char {
        match self {
            UnitKind::Army => 'A',
            UnitKind::Fleet => 'F',
            UnitKind::Garrison => 'G',
        }
    }
}

/// A unit of one kingdom: `A7`, `F2`, or `G119`, the garrison of location 119. Armies and
/// fleets are numbered 1 to 99 each (the limit of 99 per kingdom); a kingdom has at most one
/// garrison per province, so a garrison takes its province's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct UnitId {
    pub kind: UnitKind,
    pub number: u16,
}

impl UnitId {
    pub const MAX_ARMIES: u16 = 99;
    pub const MAX_FLEETS: u16 = 99;

    pub fn army(n: u16) -> UnitId {
        UnitId {
            kind: UnitKind::Army,
            number: n,
        }
    }

    pub fn fleet(n: u16) -> UnitId {
        UnitId {
            kind: UnitKind::Fleet,
            number: n,
        }
    }

    pub fn garrison(at: LocId) -> UnitId {
        UnitId {
            kind: UnitKind::Garrison,
            number: at.0,
        }
    }
}

impl FromStr for UnitId {
    type Err = String;
    fn from_str(text: &str) -> Result<UnitId, String> {
        let t = text.trim();
        let mut chars = t.chars();
        let kind = match chars.next().map(|c| c.to_ascii_uppercase()) {
            Some('A') => UnitKind::Army,
            Some('F') => UnitKind::Fleet,
            Some('G') => UnitKind::Garrison,
            _ => {
                return Err(format!(
                    "a unit is A, F or G and a number (A7, F2, G119), not {t:?}"
                ));
            }
        };
        let digits = chars.as_str();
        let number: u16 = digits
            .parse()
            .map_err(|_| format!("a unit is A, F or G and a number (A7, F2, G119), not {t:?}"))?;
        let limit = match kind {
            UnitKind::Army => UnitId::MAX_ARMIES,
            UnitKind::Fleet => UnitId::MAX_FLEETS,
            UnitKind::Garrison => u16::MAX,
        };
        if number == 0 || number > limit {
            return Err(format!(
                "{} numbers run from 1 to {limit}, not {number}",
                match kind {
                    UnitKind::Army => "army",
                    UnitKind::Fleet => "fleet",
                    UnitKind::Garrison => "garrison",
                }
            ));
        }
        Ok(UnitId { kind, number })
    }
}

impl TryFrom<String> for UnitId {
    type Error = String;
    fn try_from(s: String) -> Result<UnitId, String> {
        s.parse()
    }
}

impl From<UnitId> for String {
    fn from(u: UnitId) -> String {
        u.to_string()
    }
}

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.letter(), self.number)
    }
}

/// A troop type's code in the roster ("LIN" for line infantry, "WAR" for a warship).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TroopCode(pub String);

impl fmt::Display for TroopCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_read_and_print_as_the_game_writes_them() {
        for t in ["A7", "F2", "G119", "A99"] {
            assert_eq!(t.parse::<UnitId>().unwrap().to_string(), t);
        }
        assert_eq!("a7".parse::<UnitId>().unwrap(), UnitId::army(7));
    }

    #[test]
    fn the_limit_of_99_armies_and_99_fleets_is_in_the_identifier() {
        assert!("A100".parse::<UnitId>().is_err());
        assert!("F0".parse::<UnitId>().is_err());
        assert!("X3".parse::<UnitId>().is_err());
        assert!("A".parse::<UnitId>().is_err());
        assert!("G500".parse::<UnitId>().is_ok());
    }

    #[test]
    fn kingdom_codes_are_short_capitals() {
        assert!(KingdomCode::new("FRA").is_ok());
        assert!(KingdomCode::new("fra").is_err());
        assert!(KingdomCode::new("FRANCE").is_err());
        assert!(KingdomCode::independents().is_independent());
    }
}
