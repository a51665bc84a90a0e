//! A sheet's bytes as text, the same for every game: UTF-8 (with or without a byte-order
//! mark) and UTF-16 with a byte-order mark are read; anything else is refused with one
//! message saying where, never guessed at. Every door and every turn reads a sheet through
//! [`decode`], so they always agree on what it says.

/// The largest turnsheet read, in bytes. A full turn of orders with messages fits in a few
/// kilobytes; the limit keeps a mistaken or hostile file from taking the moderator's time
/// and memory.
pub const MAX_SHEET_BYTES: usize = 64 * 1024;
/// Why a turnsheet's bytes are not read as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable(pub String);

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The text of a turnsheet's bytes: UTF-8 without its byte-order mark, or UTF-16 (little or
/// big endian) announced by its byte-order mark.
pub fn decode(bytes: &[u8]) -> Result<String, Unreadable> {
    if bytes.len() > MAX_SHEET_BYTES {
        return Err(Unreadable(format!(
            "{} bytes, more than the {MAX_SHEET_BYTES} bytes a turnsheet may hold",
            bytes.len()
        )));
    }
    let text = if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        utf8(rest)?
    } else if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        utf16(rest, encoding_rs::UTF_16LE, "UTF-16 (little endian)")?
    } else if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        utf16(rest, encoding_rs::UTF_16BE, "UTF-16 (big endian)")?
    } else {
        utf8(bytes)?
    };
    // A NUL is never in a text a person typed: it is UTF-16 without its byte-order mark, or
    // not text at all.
    if let Some(at) = text.find('\0') {
        return Err(Unreadable(format!(
            "line {}: holds a NUL character, so this is not a text file (or it is UTF-16 \
             without a byte-order mark); save it as UTF-8 text",
            line_of(text.as_bytes(), at)
        )));
    }
    Ok(text)
}

fn utf8(bytes: &[u8]) -> Result<String, Unreadable> {
    match std::str::from_utf8(bytes) {
        Ok(t) => Ok(t.to_string()),
        Err(e) => Err(Unreadable(format!(
            "line {}: byte {} is not UTF-8 text; save the turnsheet as UTF-8 (or UTF-16 with \
             a byte-order mark)",
            line_of(bytes, e.valid_up_to()),
            e.valid_up_to() + 1
        ))),
    }
}

fn utf16(
    bytes: &[u8],
    encoding: &'static encoding_rs::Encoding,
    name: &str,
) -> Result<String, Unreadable> {
    encoding
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(|t| t.into_owned())
        .ok_or_else(|| {
            Unreadable(format!(
                "marked as {name} but not valid {name}; save the turnsheet as UTF-8"
            ))
        })
}

/// The line (1-based) byte `at` of a text is on, counting CR, LF and CRLF line ends as the
/// turnsheet reader does.
fn line_of(bytes: &[u8], at: usize) -> usize {
    let before = &bytes[..at.min(bytes.len())];
    let mut line = 1;
    let mut i = 0;
    while i < before.len() {
        match before[i] {
            b'\n' => line += 1,
            b'\r' if before.get(i + 1) != Some(&b'\n') => line += 1,
            _ => {}
        }
        i += 1;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_and_utf16_with_a_mark_are_read() {
        assert_eq!(decode(b"TAX\n").unwrap(), "TAX\n");
        assert_eq!(decode(b"\xEF\xBB\xBFTAX\n").unwrap(), "TAX\n");
        assert_eq!(decode(b"\xFF\xFET\0A\0X\0").unwrap(), "TAX");
        assert_eq!(decode(b"\xFE\xFF\0T\0A\0X").unwrap(), "TAX");
    }

    #[test]
    fn anything_else_is_refused_saying_where() {
        let e = decode(b"TAX\rGROW \xFF\n").unwrap_err();
        assert!(e.0.starts_with("line 2: byte 10 "), "{e}");
        let e = decode(b"T\0A\0X\0").unwrap_err();
        assert!(e.0.contains("NUL"), "{e}");
        let e = decode(b"\xFF\xFE\x00\xD8").unwrap_err();
        assert!(e.0.contains("not valid UTF-16"), "{e}");
        let e = decode(&vec![b'x'; MAX_SHEET_BYTES + 1]).unwrap_err();
        assert!(e.0.contains("65536"), "{e}");
        assert!(decode(&vec![b'x'; MAX_SHEET_BYTES]).is_ok());
    }
}
