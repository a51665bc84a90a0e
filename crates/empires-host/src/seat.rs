//! A seat's code as the host keeps it, whatever the game: an empire's two letters (`EN`), a
//! kingdom's three (`FRA`). The host files, stores and shows seats by this code alone; what
//! a code means belongs to the ruleset.

use std::fmt;

/// Two to four ASCII letters, upper case.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SeatCode {
    bytes: [u8; 4],
    len: u8,
}

impl SeatCode {
    /// The longest code a seat may have.
    pub const MAX_LEN: usize = 4;

    /// Reads a code (any case, surrounding blanks ignored); `None` unless it is two to four
    /// letters.
    pub fn parse(text: &str) -> Option<SeatCode> {
        let b = text.trim().as_bytes();
        if !(2..=Self::MAX_LEN).contains(&b.len()) || !b.iter().all(u8::is_ascii_alphabetic) {
            return None;
        }
        let mut bytes = [0; 4];
        for (to, from) in bytes.iter_mut().zip(b) {
            *to = from.to_ascii_uppercase();
        }
        Some(SeatCode {
            bytes,
            len: b.len() as u8,
        })
    }

    pub fn as_str(&self) -> &str {
        // Only ASCII letters are ever stored.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or("??")
    }
}

impl std::str::FromStr for SeatCode {
    type Err = String;

    fn from_str(s: &str) -> Result<SeatCode, String> {
        SeatCode::parse(s).ok_or_else(|| format!("a seat's code is two to four letters, not {s:?}"))
    }
}

impl fmt::Display for SeatCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for SeatCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SeatCode({})", self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_two_to_four_letters_in_capitals() {
        assert_eq!(SeatCode::parse(" fra ").unwrap().as_str(), "FRA");
        assert_eq!(SeatCode::parse("en").unwrap().as_str(), "EN");
        assert_eq!(SeatCode::parse("PRUS").unwrap().as_str(), "PRUS");
        for bad in ["", "E", "ABCDE", "E1", "É N", "../"] {
            assert_eq!(SeatCode::parse(bad), None, "{bad:?}");
        }
    }
}
