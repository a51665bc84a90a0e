//! Reading a turnsheet: one action per line, `VERB WHERE WHERE-TO NUMBER` (2.6, 13.4), with
//! the header, comment and message lines around them (2.9). Every piece keeps its line and
//! column so diagnostics can point at it.

use crate::diag::{Code, Diagnostic};
use crate::spec::{Field, spec};
use empires_rules::order::{Order, OrderLine, Quantity, Turnsheet, Verb};

/// A word of a line and the column (1-based, in characters) it starts at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub text: String,
    pub column: u32,
}

/// One action line as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedAction {
    pub line: u32,
    /// The line without its comment, trimmed.
    pub text: String,
    pub verb_token: Token,
    pub verb: Option<Verb>,
    pub from: Option<Token>,
    pub to: Option<Token>,
    pub number: Quantity,
    /// Where the number was written, if it was.
    pub number_token: Option<Token>,
    /// The action for the engine, or the first reason it cannot be read.
    pub order: Result<Order, String>,
}

/// A header value and where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<T> {
    pub value: T,
    pub line: u32,
    pub column: u32,
}

/// A whole turnsheet as read, with the problems found while reading it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParsedSheet {
    pub actions: Vec<ParsedAction>,
    pub game: Option<Located<String>>,
    pub turn: Option<Located<String>>,
    pub empire: Option<Located<String>>,
    /// Messages for every player (2.9).
    pub messages: Vec<String>,
    pub phone: Option<Located<String>>,
    pub email: Option<Located<String>>,
    pub diagnostics: Vec<Diagnostic>,
}

impl ParsedSheet {
    /// The turnsheet the engine plays, leaving the sheet as read.
    pub fn into_turnsheet(self) -> Turnsheet {
        Turnsheet {
            actions: self
                .actions
                .into_iter()
                .map(|a| OrderLine {
                    line: a.line,
                    text: a.text,
                    order: a.order,
                })
                .collect(),
            messages: self.messages,
            phone: self.phone.map(|p| p.value),
            email: self.email.map(|p| p.value),
            computer: false,
        }
    }

    /// The turnsheet the engine plays.
    pub fn turnsheet(&self) -> Turnsheet {
        Turnsheet {
            actions: self
                .actions
                .iter()
                .map(|a| OrderLine {
                    line: a.line,
                    text: a.text.clone(),
                    order: a.order.clone(),
                })
                .collect(),
            messages: self.messages.clone(),
            phone: self.phone.as_ref().map(|p| p.value.clone()),
            email: self.email.as_ref().map(|p| p.value.clone()),
            computer: false,
        }
    }
}

/// Splits a line into words at blanks and commas, keeping columns.
fn tokens(line: &str) -> Vec<Token> {
    let mut out = Vec::with_capacity(4);
    // Where the word being read starts: its byte offset and its column.
    let mut word: Option<(usize, usize)> = None;
    let mut push = |from: usize, to: usize, column: usize| {
        out.push(Token {
            text: line[from..to].to_string(),
            column: column as u32 + 1,
        })
    };
    for (column, (i, c)) in line.char_indices().enumerate() {
        if c.is_whitespace() || c == ',' {
            if let Some((from, col)) = word.take() {
                push(from, i, col);
            }
        } else if word.is_none() {
            word = Some((i, column));
        }
    }
    if let Some((from, col)) = word {
        push(from, line.len(), col);
    }
    out
}

/// Cuts a comment (`#`, `;` or `//` to the end of the line) off a line.
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    let cut = (0..bytes.len()).find(|&i| match bytes[i] {
        b'#' | b';' => true,
        b'/' => bytes.get(i + 1) == Some(&b'/'),
        _ => false,
    });
    cut.map_or(line, |i| &line[..i])
}

/// Reads the number box from the words at the end of a line (6.3): a count, `-` or `ALL`
/// for all, and all-but as `AB-2`, `AB2`, `AB 2` or `ALL BUT 2`.
pub fn parse_quantity(words: &[&str]) -> Option<Quantity> {
    let number = |s: &str| {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let is = |w: &str, keyword: &str| w.eq_ignore_ascii_case(keyword);
    match words {
        [w] if *w == "-" || is(w, "ALL") => Some(Quantity::All),
        [n] if number(n).is_some() => number(n).map(Quantity::Exactly),
        [w] if w.get(..2).is_some_and(|ab| is(ab, "AB")) => {
            number(w[2..].trim_start_matches('-')).map(Quantity::AllBut)
        }
        [ab, n] if is(ab, "AB") || is(ab, "ALLBUT") => number(n).map(Quantity::AllBut),
        [all, but, n] if is(all, "ALL") && is(but, "BUT") => number(n).map(Quantity::AllBut),
        _ => None,
    }
}

/// Whether a word was meant as a number even though it is not a valid one.
fn looks_like_a_number(word: &str) -> bool {
    let up = word.to_ascii_uppercase();
    let first = up.chars().next().unwrap_or(' ');
    first.is_ascii_digit()
        || (first == '-' && up.len() > 1)
        || (up.starts_with("AB-") && up.len() > 3)
        || (up.starts_with("AB") && up[2..].starts_with(|c: char| c.is_ascii_digit()))
}

/// Where a lone code goes when only one of the two boxes is written.
fn lone_code_goes_to(verb: Verb, code: &str) -> bool {
    let sp = spec(verb);
    match (sp.from, sp.to) {
        (Field::Unused, _) => true,
        (_, Field::Unused) => false,
        // FIND: an area (three characters) or an empire (two letters).
        _ if verb == Verb::Find => code.len() == 2,
        // SPY and SKIP: the "from" box is only for recruiting (9.2).
        _ if matches!(verb, Verb::Spy | Verb::Skip) => true,
        _ => false,
    }
}

/// Reads one action line. `line` is its number, `text` the line without its comment.
pub fn parse_action(line: u32, text: &str, diags: &mut Vec<Diagnostic>) -> Option<ParsedAction> {
    let mut toks = tokens(text);
    // A leading action number ("1.", "12)", "3:") is allowed and skipped.
    if toks.len() > 1 {
        let t = toks[0].text.trim_end_matches(['.', ')', ':']);
        if !t.is_empty()
            && t.bytes().all(|b| b.is_ascii_digit())
            && Verb::parse(&toks[1].text).is_some()
        {
            toks.remove(0);
        }
    }
    let (verb_token, rest) = toks.split_first()?;
    let first_error = diags.len();
    let verb = Verb::parse(&verb_token.text);
    if verb.is_none() {
        diags.push(
            Diagnostic::new(
                Code::UnknownAction,
                line,
                verb_token.column,
                &verb_token.text,
                format!("`{}` is not an action", verb_token.text),
            )
            .expected("an action such as MOVE, ATTACK, GROW or TAX")
            .suggest(crate::suggest::verbs(&verb_token.text)),
        );
    }
    // The number is at the end: the longest number form wins.
    let mut fields: &[Token] = rest;
    let mut number = Quantity::All;
    let mut number_token = None;
    for take in [3usize, 2, 1] {
        if fields.len() < take {
            continue;
        }
        let tail = &fields[fields.len() - take..];
        let mut written = [""; 3];
        for (w, t) in written.iter_mut().zip(tail) {
            *w = t.text.as_str();
        }
        let words = &written[..take];
        // A lone "-" at the end is the number box only when every box is written.
        if words == ["-"] && fields.len() < 3 {
            continue;
        }
        // "AB 2" would swallow an empire code AB in the box before the number.
        let empire_box = verb.is_some_and(|v| matches!(spec(v).to, Field::Empire { .. }));
        if take == 2 && empire_box && words[0].eq_ignore_ascii_case("AB") {
            continue;
        }
        let Some(q) = parse_quantity(words) else {
            continue;
        };
        number = q;
        number_token = Some(Token {
            text: words.join(" "),
            column: tail[0].column,
        });
        fields = &fields[..fields.len() - take];
        break;
    }
    if number_token.is_none()
        && let Some(last) = fields.last()
        && looks_like_a_number(&last.text)
    {
        diags.push(
            Diagnostic::new(
                Code::BadNumber,
                line,
                last.column,
                &last.text,
                format!("`{}` is not a number", last.text),
            )
            .expected("a number, blank for all, or all-but written AB-2"),
        );
        fields = &fields[..fields.len() - 1];
    }
    let blank = |t: &Token| (t.text != "-").then(|| t.clone());
    let (from, to) = match fields {
        [] => (None, None),
        [one] => match (blank(one), verb.map(|v| lone_code_goes_to(v, &one.text))) {
            (None, _) => (None, None),
            (Some(t), Some(true)) => (None, Some(t)),
            (Some(t), _) => (Some(t), None),
        },
        [a, b] => (blank(a), blank(b)),
        [_, _, extra, ..] => {
            let shape = verb.map_or("VERB WHERE WHERE-TO NUMBER".to_string(), crate::spec::shape);
            diags.push(
                Diagnostic::new(
                    Code::TooManyBoxes,
                    line,
                    extra.column,
                    &extra.text,
                    format!("`{}` is one box too many", extra.text),
                )
                .expected(format!("at most `{shape}`")),
            );
            (blank(&fields[0]), blank(&fields[1]))
        }
    };
    for t in [&from, &to].into_iter().flatten() {
        if !t.text.chars().all(|c| c.is_ascii_alphanumeric()) {
            diags.push(
                Diagnostic::new(
                    Code::NotACode,
                    line,
                    t.column,
                    &t.text,
                    format!("`{}` is not an area or empire code", t.text),
                )
                .expected("a three-character area code or a two-letter empire code"),
            );
        }
    }
    let order = match (verb, diags.get(first_error)) {
        (Some(verb), None) => Ok(Order {
            verb,
            from: from.as_ref().map(|t| t.text.to_ascii_uppercase()),
            to: to.as_ref().map(|t| t.text.to_ascii_uppercase()),
            number,
        }),
        (_, Some(d)) => Err(d.message.clone()),
        (None, None) => Err(format!("`{}` is not an action", verb_token.text)),
    };
    Some(ParsedAction {
        line,
        text: text.trim().to_string(),
        verb_token: verb_token.clone(),
        verb,
        from,
        to,
        number,
        number_token,
        order,
    })
}

/// The header word a line starts with, if it is one: any case, with or without a colon.
fn header(word: &str) -> Option<&'static str> {
    let word = word.trim_end_matches(':');
    [
        "PHONE", "EMAIL", "MESSAGES", "MESSAGE", "GAME", "TURN", "EMPIRE", "COUNTRY",
    ]
    .into_iter()
    .find(|k| word.eq_ignore_ascii_case(k))
}

/// Reads a whole turnsheet.
pub fn parse_sheet(text: &str) -> ParsedSheet {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut sheet = ParsedSheet::default();
    let mut in_messages = false;
    let mut message = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i as u32 + 1;
        let trimmed = raw.trim();
        let (head, tail) = trimmed
            .split_once(char::is_whitespace)
            .map_or((trimmed, ""), |(h, t)| (h, t.trim()));
        let head_up = header(head);
        let column = (raw.chars().count() - raw.trim_start().chars().count()) as u32 + 1;
        let located = |v: &str| Located {
            value: v.to_string(),
            line,
            column: column + head.chars().count() as u32 + 1,
        };
        match head_up {
            Some("PHONE" | "EMAIL") => {
                let v = located(tail);
                if head_up == Some("PHONE") {
                    sheet.phone = Some(v);
                } else {
                    sheet.email = Some(v);
                }
                continue;
            }
            Some("MESSAGES") if tail.is_empty() => {
                in_messages = true;
                continue;
            }
            _ => {}
        }
        if in_messages {
            // 2.9: a blank line ends one message; anything else is text, `#` included.
            if trimmed.is_empty() {
                if !message.is_empty() {
                    sheet.messages.push(std::mem::take(&mut message));
                }
            } else {
                if !message.is_empty() {
                    message.push(' ');
                }
                message.push_str(trimmed);
            }
            continue;
        }
        let code = strip_comment(raw);
        let ctrim = code.trim();
        if ctrim.is_empty() {
            continue;
        }
        let (chead, ctail) = ctrim
            .split_once(char::is_whitespace)
            .map_or((ctrim, ""), |(h, t)| (h, t.trim()));
        match header(chead) {
            Some("MESSAGE") => sheet
                .messages
                .push(trimmed[head.len()..].trim().to_string()),
            Some("GAME") => sheet.game = Some(located(ctail)),
            Some("TURN") => sheet.turn = Some(located(ctail)),
            Some("EMPIRE" | "COUNTRY") => sheet.empire = Some(located(ctail)),
            _ => {
                if let Some(a) = parse_action(line, code, &mut sheet.diagnostics) {
                    sheet.actions.push(a);
                }
            }
        }
    }
    if !message.is_empty() {
        sheet.messages.push(message);
    }
    sheet
}
