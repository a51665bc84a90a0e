//! Splitting a line of an order sheet into tokens: words, quoted names, and the marks `;`
//! (between orders), `,` (between list items) and `:` (after a phase number). `#` starts a
//! comment, except inside quotes. Every token keeps its column, counted in characters, so a
//! diagnostic can point at it.

use crate::diag::{Code, Diagnostic, Span};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A run of letters, digits and other marks: a keyword, a code, a number.
    Word,
    /// A name in quotes ("Grande Armée", or “curly” ones); the text is what is inside.
    Quoted,
    Semi,
    Comma,
    Colon,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
    pub span: Span,
}

impl Token<'_> {
    pub fn is_word(&self) -> bool {
        self.kind == Kind::Word
    }

    /// Whether this is the keyword `kw` (written in capitals), in any case.
    pub fn is(&self, kw: &str) -> bool {
        self.kind == Kind::Word && self.text.eq_ignore_ascii_case(kw)
    }

    /// The word in capitals, as keywords and codes are compared.
    pub fn upper(&self) -> String {
        self.text.to_uppercase()
    }

    /// How the token reads in a message.
    pub fn shown(&self) -> String {
        match self.kind {
            Kind::Quoted => format!("\"{}\"", self.text),
            _ => self.text.to_string(),
        }
    }
}

fn special(c: char) -> bool {
    matches!(c, ';' | ',' | ':' | '"' | '\u{201C}' | '\u{201D}' | '#')
}

/// The tokens of one line (numbered `line`), and a diagnostic for a quotation left open,
/// which then runs to the end of the line.
pub fn tokens(line: u32, text: &str) -> (Vec<Token<'_>>, Option<Diagnostic>) {
    let mut out = Vec::new();
    let mut problem = None;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let byte_at = |i: usize| chars.get(i).map_or(text.len(), |&(b, _)| b);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        let column = i as u32 + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        match c {
            '#' => break,
            ';' | ',' | ':' => {
                out.push(Token {
                    kind: match c {
                        ';' => Kind::Semi,
                        ',' => Kind::Comma,
                        _ => Kind::Colon,
                    },
                    text: &text[byte_at(i)..byte_at(i + 1)],
                    span: Span::new(line, column, 1),
                });
                i += 1;
            }
            '"' | '\u{201C}' | '\u{201D}' => {
                let start = i + 1;
                let mut j = start;
                while j < chars.len() && !matches!(chars[j].1, '"' | '\u{201C}' | '\u{201D}') {
                    j += 1;
                }
                let closed = j < chars.len();
                let inner = &text[byte_at(start)..byte_at(j)];
                let end = if closed { j + 1 } else { j };
                let span = Span::new(line, column, (end - i) as u32);
                if !closed {
                    problem = Some(
                        Diagnostic::new(
                            Code::Unclosed,
                            Span::new(line, column, 1),
                            &text[byte_at(i)..],
                            "this quotation is never closed: it runs to the end of the line",
                        )
                        .expected("a closing `\"`"),
                    );
                }
                out.push(Token {
                    kind: Kind::Quoted,
                    text: inner,
                    span,
                });
                i = end;
            }
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].1.is_whitespace() && !special(chars[i].1) {
                    i += 1;
                }
                out.push(Token {
                    kind: Kind::Word,
                    text: &text[byte_at(start)..byte_at(i)],
                    span: Span::new(line, column, (i - start) as u32),
                });
            }
        }
    }
    (out, problem)
}

/// A line's tokens cut at each `;`, with empty pieces dropped.
pub fn pieces<'t, 'a>(tokens: &'t [Token<'a>]) -> Vec<&'t [Token<'a>]> {
    tokens
        .split(|t| t.kind == Kind::Semi)
        .filter(|p| !p.is_empty())
        .collect()
}

/// The text of a line without its comment, for messages.
pub fn without_comment(text: &str) -> &str {
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' | '\u{201C}' | '\u{201D}' => quoted = !quoted,
            '#' if !quoted => return &text[..i],
            _ => {}
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, String, u32)> {
        tokens(1, text)
            .0
            .into_iter()
            .map(|t| (t.kind, t.text.to_string(), t.span.column))
            .collect()
    }

    #[test]
    fn words_marks_and_names_keep_their_columns() {
        assert_eq!(
            kinds("  2: MOVE ALS; PILLAGE # burn it"),
            vec![
                (Kind::Word, "2".into(), 3),
                (Kind::Colon, ":".into(), 4),
                (Kind::Word, "MOVE".into(), 6),
                (Kind::Word, "ALS".into(), 11),
                (Kind::Semi, ";".into(), 14),
                (Kind::Word, "PILLAGE".into(), 16),
            ]
        );
        assert_eq!(
            kinds("A1 \"Grande Armée\" x"),
            vec![
                (Kind::Word, "A1".into(), 1),
                (Kind::Quoted, "Grande Armée".into(), 4),
                (Kind::Word, "x".into(), 19),
            ]
        );
    }

    #[test]
    fn a_hash_inside_quotes_is_text_and_an_open_quote_is_reported() {
        assert_eq!(kinds("\"No #1\"")[0].1, "No #1");
        let (t, d) = tokens(3, "A1 \"Armée du Nord");
        assert_eq!(t[1].text, "Armée du Nord");
        let d = d.unwrap();
        assert_eq!((d.line, d.column, d.code), (3, 4, Code::Unclosed));
    }

    #[test]
    fn curly_quotes_and_non_ascii_columns() {
        let t = kinds("é “Ney” LIN");
        assert_eq!(t[1], (Kind::Quoted, "Ney".into(), 3));
        assert_eq!(t[2].2, 9);
    }
}
