//! Identifiers of areas (three characters) and empires (two letters), rule 4.2.
//!
//! Both are small `Copy` values parsed once at the edge, so the engine never handles raw
//! strings for codes. They serialise as plain upper-case strings.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Why a text is not a valid code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    #[error("`{0}` is not an area code: expected three letters or digits, starting with a letter")]
    Area(String),
    #[error("`{0}` is not an empire code: expected two letters")]
    Empire(String),
}

/// A map area's three-character code such as `PAR` (4.2). The default, `AAA`, exists only
/// so that state records can be built field by field.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AreaCode([u8; 3]);

impl Default for AreaCode {
    fn default() -> Self {
        AreaCode(*b"AAA")
    }
}

impl AreaCode {
    /// Parses a code, ignoring case and surrounding blanks.
    pub fn parse(text: &str) -> Result<Self, CodeError> {
        let t = text.trim();
        let b = t.as_bytes();
        let ok = b.len() == 3
            && b[0].is_ascii_alphabetic()
            && b.iter().all(|c| c.is_ascii_alphanumeric());
        if !ok {
            return Err(CodeError::Area(t.to_string()));
        }
        Ok(AreaCode([
            b[0].to_ascii_uppercase(),
            b[1].to_ascii_uppercase(),
            b[2].to_ascii_uppercase(),
        ]))
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII bytes are ever stored.
        std::str::from_utf8(&self.0).unwrap_or("???")
    }
}

/// An empire's two-letter code such as `FR` (4.2).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EmpireCode([u8; 2]);

impl EmpireCode {
    /// Parses a code, ignoring case and surrounding blanks.
    pub fn parse(text: &str) -> Result<Self, CodeError> {
        let t = text.trim();
        let b = t.as_bytes();
        if b.len() != 2 || !b.iter().all(|c| c.is_ascii_alphabetic()) {
            return Err(CodeError::Empire(t.to_string()));
        }
        Ok(EmpireCode([
            b[0].to_ascii_uppercase(),
            b[1].to_ascii_uppercase(),
        ]))
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).unwrap_or("??")
    }
}

macro_rules! code_traits {
    ($t:ty) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                <$t>::parse(&s).map_err(serde::de::Error::custom)
            }
        }
        impl std::str::FromStr for $t {
            type Err = CodeError;
            fn from_str(s: &str) -> Result<Self, CodeError> {
                <$t>::parse(s)
            }
        }
    };
}
code_traits!(AreaCode);
code_traits!(EmpireCode);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_codes_are_three_characters_starting_with_a_letter() {
        assert_eq!(AreaCode::parse(" par ").unwrap().as_str(), "PAR");
        assert_eq!(AreaCode::parse("A01").unwrap().as_str(), "A01");
        assert!(AreaCode::parse("PA").is_err());
        assert!(AreaCode::parse("1AB").is_err());
        assert!(AreaCode::parse("PARI").is_err());
        assert!(AreaCode::parse("P-R").is_err());
    }

    #[test]
    fn empire_codes_are_two_letters() {
        assert_eq!(EmpireCode::parse("fr").unwrap().as_str(), "FR");
        assert!(EmpireCode::parse("F1").is_err());
        assert!(EmpireCode::parse("FRA").is_err());
    }

    #[test]
    fn codes_serialise_as_strings() {
        let c = AreaCode::parse("lon").unwrap();
        assert_eq!(serde_json::to_string(&c).unwrap(), "\"LON\"");
        let e: EmpireCode = serde_json::from_str("\"gb\"").unwrap();
        assert_eq!(e.as_str(), "GB");
        assert!(serde_json::from_str::<EmpireCode>("\"G\"").is_err());
    }
}
