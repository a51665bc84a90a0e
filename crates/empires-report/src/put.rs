//! Writing report text straight into a buffer. A turn makes dozens of reports of hundreds of
//! lines each, so the lines every report has (actions, areas, scouting) are written piece by
//! piece here rather than through `format!`, whose generality costs far more than the
//! writing itself. Widths count characters, as `{:<w$}` and `{:>w$}` do.

use std::convert::Infallible;

pub(crate) trait Put {
    /// Writes `s` as it is.
    fn put(&mut self, s: &str) -> &mut Self;
    /// Writes a whole number.
    fn num<N: itoa::Integer>(&mut self, n: N) -> &mut Self;
    /// Writes `n` spaces.
    fn spaces(&mut self, n: usize) -> &mut Self;
    /// Pads what was written from byte `start` on with spaces to `width` characters.
    fn pad_from(&mut self, start: usize, width: usize) -> &mut Self;
    /// Writes `s` left-aligned in `width` characters, like `{:<width$}`.
    fn left(&mut self, s: &str, width: usize) -> &mut Self;
    /// Writes `n` right-aligned in `width` characters, like `{:>width$}`.
    fn right<N: itoa::Integer>(&mut self, n: N, width: usize) -> &mut Self;
    /// Writes `s` with HTML's special characters escaped.
    fn esc(&mut self, s: &str) -> &mut Self;
}

/// The characters of `s`: its length when it is ASCII, as most report text is.
fn width_of(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

impl Put for String {
    fn put(&mut self, s: &str) -> &mut Self {
        self.push_str(s);
        self
    }

    fn num<N: itoa::Integer>(&mut self, n: N) -> &mut Self {
        self.push_str(itoa::Buffer::new().format(n));
        self
    }

    fn spaces(&mut self, n: usize) -> &mut Self {
        const SPACES: &str = "                                ";
        let mut left = n;
        while left > 0 {
            let k = left.min(SPACES.len());
            self.push_str(&SPACES[..k]);
            left -= k;
        }
        self
    }

    fn pad_from(&mut self, start: usize, width: usize) -> &mut Self {
        let used = width_of(&self[start..]);
        self.spaces(width.saturating_sub(used))
    }

    fn left(&mut self, s: &str, width: usize) -> &mut Self {
        self.put(s).spaces(width.saturating_sub(width_of(s)))
    }

    fn right<N: itoa::Integer>(&mut self, n: N, width: usize) -> &mut Self {
        let mut digits = itoa::Buffer::new();
        let s = digits.format(n);
        self.spaces(width.saturating_sub(s.len())).put(s)
    }

    fn esc(&mut self, s: &str) -> &mut Self {
        let _ = escape_html(s, |piece| -> Result<(), Infallible> {
            self.push_str(piece);
            Ok(())
        });
        self
    }
}

/// Hands `write` the pieces of `s` with HTML's special characters escaped.
pub(crate) fn escape_html<E>(
    s: &str,
    mut write: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    const SPECIAL: [bool; 256] = {
        let mut table = [false; 256];
        let mut i = 0;
        while i < 5 {
            table[b"&<>\"'"[i] as usize] = true;
            i += 1;
        }
        table
    };
    let special = |b: u8| SPECIAL[b as usize];
    let mut rest = s;
    while let Some(i) = rest.bytes().position(special) {
        write(&rest[..i])?;
        write(match rest.as_bytes()[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => "&#39;",
        })?;
        rest = &rest[i + 1..];
    }
    write(rest)
}

#[cfg(test)]
mod tests {
    use super::Put;

    #[test]
    fn widths_match_the_format_macros() {
        for s in ["", "ab", "abcdef", "Zürich", "ÆØÅ"] {
            for w in [0, 3, 8] {
                let mut out = String::new();
                out.left(s, w);
                assert_eq!(out, format!("{s:<w$}"));
            }
        }
        for n in [0u32, 7, 42, 123456] {
            for w in [0, 3, 8] {
                let mut out = String::new();
                out.right(n, w);
                assert_eq!(out, format!("{n:>w$}"));
            }
        }
        let mut out = String::new();
        out.right(-12i32, 5);
        assert_eq!(out, format!("{:>5}", -12));
    }

    #[test]
    fn writes_any_number_of_spaces() {
        for n in [0, 1, 31, 32, 33, 100] {
            let mut out = String::new();
            out.spaces(n);
            assert_eq!(out, " ".repeat(n));
        }
    }

    #[test]
    fn padding_counts_characters_written_since_the_mark() {
        let mut out = String::from("xx");
        out.put("né").pad_from(2, 5).put("|");
        assert_eq!(out, "xxné   |");
    }

    #[test]
    fn escapes_every_special_character() {
        let mut out = String::new();
        out.esc(r#"a & b < c > "d" 'e'"#);
        assert_eq!(out, "a &amp; b &lt; c &gt; &quot;d&quot; &#39;e&#39;");
    }
}
