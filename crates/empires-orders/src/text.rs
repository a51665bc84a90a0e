//! The limits on what a turnsheet's lines hold. Its bytes are read as text as every game's
//! sheets are ([`ruleset_api::text::decode`]), so `empires check` and `empires turn` always
//! agree on what it says.

pub use ruleset_api::text::{MAX_SHEET_BYTES, Unreadable, decode};

/// The longest line read as an action or header, in characters; a longer one is not read.
pub const MAX_LINE_CHARS: usize = 500;
/// The longest player message kept, in characters; a longer one is cut to this.
pub const MAX_MESSAGE_CHARS: usize = 1000;
/// The longest PHONE or EMAIL line kept, in characters; a longer one is cut to this.
pub const MAX_CONTACT_CHARS: usize = 100;

/// `text` cut to at most `max` characters; `None` when it is no longer than that.
pub fn cut(text: &str, max: usize) -> Option<&str> {
    // Bytes are at least as many as characters: a short text needs no counting.
    if text.len() <= max {
        return None;
    }
    text.char_indices().nth(max).map(|(at, _)| &text[..at])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutting_counts_characters() {
        assert_eq!(cut("abc", 3), None);
        assert_eq!(cut("abcd", 3), Some("abc"));
        assert_eq!(cut("ééé", 2), Some("éé"));
        assert_eq!(cut("éé", 2), None);
    }
}
