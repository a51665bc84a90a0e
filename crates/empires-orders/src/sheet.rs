//! Reading a turnsheet: one action per line, `VERB WHERE WHERE-TO NUMBER` (2.6, 13.4), with
//! the header, comment and message lines around them (2.9). Every piece keeps its line and
//! column so diagnostics can point at it.

use crate::diag::{Code, Diagnostic};
use crate::spec::{Field, spec};
use crate::text::{MAX_CONTACT_CHARS, MAX_LINE_CHARS, MAX_MESSAGE_CHARS, cut};
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
    /// The action's number as written before it ("4." or "4)"), if it was: a label that
    /// should agree with the action's place on the sheet, which is what counts (2.6).
    pub label: Option<Label>,
    /// A numbered line with nothing after the number: an action left unused (2.6).
    pub blank: bool,
}

/// The number written before an action, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub number: u32,
    pub column: u32,
    pub text: String,
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
                    blank: a.blank,
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
                    blank: a.blank,
                })
                .collect(),
            messages: self.messages.clone(),
            phone: self.phone.as_ref().map(|p| p.value.clone()),
            email: self.email.as_ref().map(|p| p.value.clone()),
            computer: false,
        }
    }
}

/// A word of a line, still borrowed from it, and the column (1-based, in characters) it
/// starts at. Only the words that end up in the result are copied out as [`Token`]s.
#[derive(Debug, Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    column: u32,
}

impl Word<'_> {
    fn token(self) -> Token {
        Token {
            text: self.text.to_string(),
            column: self.column,
        }
    }
}

/// Splits a line into words at blanks and commas, keeping columns, into `out`.
fn words<'a>(line: &'a str, out: &mut Vec<Word<'a>>) {
    out.clear();
    let mut push = |from: usize, to: usize, column: usize| {
        out.push(Word {
            text: &line[from..to],
            column: column as u32 + 1,
        })
    };
    // Columns count characters, not bytes. Lines are nearly always plain ASCII, where the
    // two are the same and a byte can be read as a character without decoding it.
    if line.is_ascii() {
        // Where the word being read starts.
        let mut word = None;
        for (i, &b) in line.as_bytes().iter().enumerate() {
            // The ASCII blanks of `char::is_whitespace`, and the comma.
            if matches!(b, b' ' | b'\t'..=b'\r' | b',') {
                if let Some(from) = word.take() {
                    push(from, i, from);
                }
            } else if word.is_none() {
                word = Some(i);
            }
        }
        if let Some(from) = word {
            push(from, line.len(), from);
        }
        return;
    }
    // Where the word being read starts: its byte offset and its column.
    let mut word: Option<(usize, usize)> = None;
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
}

/// Cuts a comment (`#`, `;` or `//` to the end of the line) off a line.
pub fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        // Letters and blanks, nearly every byte, are ruled out by one comparison.
        if (b'#'..=b';').contains(&b)
            && (b == b'#' || b == b';' || (b == b'/' && bytes.get(i + 1) == Some(&b'/')))
        {
            return &line[..i];
        }
    }
    line
}

/// The lines of a text. A line ends at LF, CRLF or a lone CR (old Mac editors, some mail
/// programs), so a sheet reads the same whichever its line ends. Turnsheet lines are short:
/// a plain search for the line end is quick on them.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let line = match rest.bytes().position(|b| b == b'\n' || b == b'\r') {
            Some(end) => {
                let line = &rest[..end];
                let crlf =
                    rest.as_bytes()[end] == b'\r' && rest.as_bytes().get(end + 1) == Some(&b'\n');
                rest = &rest[end + if crlf { 2 } else { 1 }..];
                line
            }
            None => std::mem::take(&mut rest),
        };
        Some(line)
    })
}

/// `str::trim_start`, quicker when there is nothing to trim, as on nearly every line.
fn trim_start(s: &str) -> &str {
    match s.as_bytes().first() {
        Some(b) if b.is_ascii_graphic() => s,
        _ => s.trim_start(),
    }
}

/// `str::trim_end`, quicker when there is nothing to trim, as on nearly every line.
fn trim_end(s: &str) -> &str {
    match s.as_bytes().last() {
        Some(b) if b.is_ascii_graphic() => s,
        _ => s.trim_end(),
    }
}

/// `str::trim`, quicker when there is nothing to trim, as on nearly every line.
fn trim(s: &str) -> &str {
    trim_end(trim_start(s))
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

/// Whether a word was meant as a number even though it is not a valid one: it starts with a
/// digit, is `-` followed by more, or is `AB` (any case) followed by `-` and more or a digit.
fn looks_like_a_number(word: &str) -> bool {
    let b = word.as_bytes();
    let ab = b.len() > 2 && b[..2].eq_ignore_ascii_case(b"AB");
    match b.first() {
        Some(d) if d.is_ascii_digit() => true,
        Some(b'-') => b.len() > 1,
        _ => ab && ((b[2] == b'-' && b.len() > 3) || b[2].is_ascii_digit()),
    }
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

/// The number box as written: up to three words and the column of the first.
#[derive(Debug, Clone, Copy)]
struct NumberWords<'a> {
    words: [&'a str; 3],
    count: usize,
    column: u32,
}

impl NumberWords<'_> {
    fn token(&self) -> Token {
        let words = &self.words[..self.count];
        Token {
            text: match words {
                [one] => one.to_string(),
                _ => words.join(" "),
            },
            column: self.column,
        }
    }
}

/// One action line as read, its words still borrowed from the line. The engine needs only
/// the text and the order; the words and where they were written are for the diagnostics
/// and the checker, so they are copied out only for a [`ParsedAction`].
struct Action<'a> {
    line: u32,
    text: &'a str,
    verb_token: Word<'a>,
    verb: Option<Verb>,
    from: Option<Word<'a>>,
    to: Option<Word<'a>>,
    number: Quantity,
    number_words: Option<NumberWords<'a>>,
    order: Result<Order, String>,
    label: Option<(u32, Word<'a>)>,
    blank: bool,
}

impl Action<'_> {
    fn parsed(self) -> ParsedAction {
        ParsedAction {
            line: self.line,
            text: self.text.to_string(),
            verb_token: self.verb_token.token(),
            verb: self.verb,
            from: self.from.map(Word::token),
            to: self.to.map(Word::token),
            number: self.number,
            number_token: self.number_words.as_ref().map(NumberWords::token),
            order: self.order,
            label: self.label.map(|(number, w)| Label {
                number,
                column: w.column,
                text: w.text.to_string(),
            }),
            blank: self.blank,
        }
    }

    fn order_line(self) -> OrderLine {
        OrderLine {
            line: self.line,
            text: self.text.to_string(),
            order: self.order,
            blank: self.blank,
        }
    }
}

/// Reads one action line. `line` is its number, `text` the line without its comment.
pub fn parse_action(line: u32, text: &str, diags: &mut Vec<Diagnostic>) -> Option<ParsedAction> {
    read_action(
        line,
        text,
        text.trim(),
        &mut Vec::new(),
        diags,
        Action::parsed,
    )
}

/// Reads one action line, kept as `keep` makes it: `text` is the line without its comment
/// and `trimmed` the same trimmed. `buffer` holds the words, kept from line to line of a
/// sheet.
fn read_action<'a, A>(
    line: u32,
    text: &'a str,
    trimmed: &'a str,
    buffer: &mut Vec<Word<'a>>,
    diags: &mut Vec<Diagnostic>,
    keep: impl FnOnce(Action<'a>) -> A,
) -> Option<A> {
    words(text, buffer);
    let mut toks: &[Word<'a>] = buffer;
    let mut trimmed = trimmed;
    // A leading action number ("1.", "12)", "3:", "4") is a label, read apart from the
    // action on every path: no verb starts with a digit.
    let label = toks
        .first()
        .and_then(|w| label_number(w.text).map(|n| (n, *w)));
    if let Some((_, w)) = label {
        toks = &toks[1..];
        trimmed =
            trimmed[w.text.len()..].trim_start_matches(|c: char| c.is_whitespace() || c == ',');
    }
    let Some((&verb_token, rest)) = toks.split_first() else {
        // A numbered line with nothing after the number: the action is left unused (2.6).
        let (_, w) = label?;
        return Some(keep(Action {
            line,
            text: "",
            verb_token: w,
            verb: None,
            from: None,
            to: None,
            number: Quantity::All,
            number_words: None,
            order: Err("left blank".into()),
            label,
            blank: true,
        }));
    };
    let first_error = diags.len();
    let verb = Verb::parse(verb_token.text);
    if verb.is_none() {
        diags.push(
            Diagnostic::new(
                Code::UnknownAction,
                line,
                verb_token.column,
                verb_token.text,
                format!("`{}` is not an action", verb_token.text),
            )
            .expected("an action such as MOVE, ATTACK, GROW or TAX")
            .suggest(crate::suggest::verbs(verb_token.text)),
        );
    }
    // The number is at the end: the longest number form wins. Every number form ends in a
    // word starting with a digit, `-` or `A`, which most boxes (area codes) do not: they are
    // passed over at once.
    let mut fields: &[Word<'a>] = rest;
    let mut number = Quantity::All;
    let mut number_words = None;
    let takes = match fields.last().map(|w| w.text.as_bytes()[0]) {
        Some(b'0'..=b'9' | b'-' | b'a' | b'A') => [3usize, 2, 1].as_slice(),
        _ => &[],
    };
    for &take in takes {
        if fields.len() < take {
            continue;
        }
        let tail = &fields[fields.len() - take..];
        let mut written = [""; 3];
        for (w, t) in written.iter_mut().zip(tail) {
            *w = t.text;
        }
        let words = &written[..take];
        // A lone "-" at the end is the number box only when every box is written.
        if words == ["-"] && fields.len() < 3 {
            continue;
        }
        // "AB 2" would swallow an empire code AB in the box before the number.
        if take == 2
            && words[0].eq_ignore_ascii_case("AB")
            && verb.is_some_and(|v| matches!(spec(v).to, Field::Empire { .. }))
        {
            continue;
        }
        let Some(q) = parse_quantity(words) else {
            continue;
        };
        number = q;
        number_words = Some(NumberWords {
            words: written,
            count: take,
            column: tail[0].column,
        });
        fields = &fields[..fields.len() - take];
        break;
    }
    if number_words.is_none()
        && let Some(last) = fields.last()
        && looks_like_a_number(last.text)
    {
        diags.push(
            Diagnostic::new(
                Code::BadNumber,
                line,
                last.column,
                last.text,
                format!("`{}` is not a number", last.text),
            )
            .expected("a number, blank for all, or all-but written AB-2"),
        );
        fields = &fields[..fields.len() - 1];
    }
    let blank = |t: &Word<'a>| (t.text != "-").then_some(*t);
    let (from, to) = match fields {
        [] => (None, None),
        [one] => match (blank(one), verb.map(|v| lone_code_goes_to(v, one.text))) {
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
                    extra.text,
                    format!("`{}` is one box too many", extra.text),
                )
                .expected(format!("at most `{shape}`")),
            );
            (blank(&fields[0]), blank(&fields[1]))
        }
    };
    for t in [&from, &to].into_iter().flatten() {
        if !t.text.bytes().all(|b| b.is_ascii_alphanumeric()) {
            diags.push(
                Diagnostic::new(
                    Code::NotACode,
                    line,
                    t.column,
                    t.text,
                    format!("`{}` is not an area or empire code", t.text),
                )
                .expected("a three-character area code or a two-letter empire code"),
            );
        }
    }
    let order = match (verb, diags.get(first_error)) {
        (Some(verb), None) => Ok(Order {
            verb,
            from: from.map(|t| t.text.to_ascii_uppercase()),
            to: to.map(|t| t.text.to_ascii_uppercase()),
            number,
        }),
        (_, Some(d)) => Err(d.message.clone()),
        (None, None) => Err(format!("`{}` is not an action", verb_token.text)),
    };
    Some(keep(Action {
        line,
        text: trimmed,
        verb_token,
        verb,
        from,
        to,
        number,
        number_words,
        order,
        label,
        blank: false,
    }))
}

/// The header word a line starts with, if it is one: any case, with or without a colon.
fn header(word: &str) -> Option<&'static str> {
    let word = word.trim_end_matches(':');
    // Every line is asked, and most are actions: the length and the first letter rule out
    // all headers but one at most.
    let first = word.as_bytes().first()?.to_ascii_uppercase();
    let keyword = match (word.len(), first) {
        (4, b'G') => "GAME",
        (4, b'T') => "TURN",
        (5, b'P') => "PHONE",
        (5, b'E') => "EMAIL",
        (6, b'E') => "EMPIRE",
        (7, b'M') => "MESSAGE",
        (7, b'C') => "COUNTRY",
        (8, b'M') => "MESSAGES",
        _ => return None,
    };
    word.eq_ignore_ascii_case(keyword).then_some(keyword)
}

/// An action's number label: digits, alone or followed by `.`, `)` or `:`.
fn label_number(word: &str) -> Option<u32> {
    let digits = word.strip_suffix(['.', ')', ':']).unwrap_or(word);
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The turnsheet's own furniture as the reports print it, which a player may send back
/// with the sheet: rules of `=` or `-` and the banner line.
fn furniture(line: &str) -> bool {
    let rule =
        line.len() >= 3 && (line.bytes().all(|b| b == b'=') || line.bytes().all(|b| b == b'-'));
    rule || first_word(line).eq_ignore_ascii_case("TURNSHEET")
}

/// The first word of a trimmed line: up to the first blank.
fn first_word(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii() {
            if (b as char).is_whitespace() {
                return &line[..i];
            }
            i += 1;
        } else {
            let c = line[i..].chars().next().unwrap_or_default();
            if c.is_whitespace() {
                return &line[..i];
            }
            i += c.len_utf8();
        }
    }
    line
}

/// Reads a whole turnsheet.
pub fn parse_sheet(text: &str) -> ParsedSheet {
    let mut sheet = ParsedSheet::default();
    sheet.actions = read_sheet(text, &mut sheet, Action::parsed);
    sheet
}

/// Reads a whole turnsheet for the engine, as [`ParsedSheet::into_turnsheet`] of
/// [`parse_sheet`] would. Every computer player's orders are read back this way every turn,
/// and the engine needs no words or columns.
pub(crate) fn parse_turnsheet(text: &str) -> Turnsheet {
    let mut sheet = ParsedSheet::default();
    let actions = read_sheet(text, &mut sheet, Action::order_line);
    Turnsheet {
        actions,
        messages: sheet.messages,
        phone: sheet.phone.map(|p| p.value),
        email: sheet.email.map(|p| p.value),
        computer: false,
    }
}

/// Reads a whole turnsheet into `sheet`, but for its actions, which are returned as `keep`
/// makes them.
fn read_sheet<'a, A>(
    text: &'a str,
    sheet: &mut ParsedSheet,
    mut keep: impl FnMut(Action<'a>) -> A,
) -> Vec<A> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut actions = Vec::new();
    let mut buffer = Vec::new();
    let mut in_messages = false;
    // The message being read after MESSAGES, and the line it started on.
    let mut message = String::new();
    let mut message_line = 0;
    for (i, raw) in lines(text).enumerate() {
        let line = i as u32 + 1;
        let indented = trim_start(raw);
        let trimmed = trim_end(indented);
        let head = first_word(trimmed);
        let head_up = header(head);
        // What follows the first word; only header lines need it.
        let tail = || trimmed[head.len()..].trim();
        let indent = || raw[..raw.len() - indented.len()].chars().count() as u32;
        let located = |v: &str| {
            // Columns count characters; only the blanks before the first word need counting.
            Located {
                value: v.to_string(),
                line,
                column: indent() + 1 + head.chars().count() as u32 + 1,
            }
        };
        match head_up {
            Some(what @ ("PHONE" | "EMAIL")) => {
                let mut v = located(tail());
                if let Some(short) = cut(&v.value, MAX_CONTACT_CHARS) {
                    sheet.diagnostics.push(
                        Diagnostic::new(
                            Code::ContactCut,
                            line,
                            v.column,
                            short,
                            format!(
                                "a {what} line is kept to its first {MAX_CONTACT_CHARS} characters"
                            ),
                        )
                        .expected(format!("at most {MAX_CONTACT_CHARS} characters")),
                    );
                    v.value = short.to_string();
                }
                if what == "PHONE" {
                    sheet.phone = Some(v);
                } else {
                    sheet.email = Some(v);
                }
                continue;
            }
            Some("MESSAGES") if tail().is_empty() => {
                in_messages = true;
                continue;
            }
            _ => {}
        }
        if in_messages {
            // 2.9: a blank line ends one message; anything else is text, `#` included.
            if trimmed.is_empty() {
                if !message.is_empty() {
                    let m = std::mem::take(&mut message);
                    push_message(sheet, m, message_line, 1);
                }
            } else {
                if message.is_empty() {
                    message_line = line;
                } else {
                    message.push(' ');
                }
                // A line that reads as an action is text here, which a player who forgot
                // the block was open would not expect.
                if looks_like_an_action(trimmed, &mut buffer) {
                    sheet.diagnostics.push(
                        Diagnostic::new(
                            Code::ActionInMessages,
                            line,
                            indent() + 1,
                            trimmed,
                            "this line comes after MESSAGES, so it is part of a message and is not played",
                        )
                        .expected("actions before the MESSAGES line"),
                    );
                }
                // Past the limit the rest is dropped; it need not be kept meanwhile.
                if message.len() <= 4 * MAX_MESSAGE_CHARS {
                    message.push_str(trimmed);
                }
            }
            continue;
        }
        let code = strip_comment(raw);
        // Without a comment the line reads as it did above.
        let (ctrim, chead, cheader) = if code.len() == raw.len() {
            (trimmed, head, head_up)
        } else {
            let ctrim = trim(code);
            let chead = first_word(ctrim);
            (ctrim, chead, header(chead))
        };
        if ctrim.is_empty() || furniture(ctrim) {
            continue;
        }
        let ctail = || ctrim[chead.len()..].trim();
        match cheader {
            Some("MESSAGE") => {
                let text = trimmed[head.len()..].trim().to_string();
                push_message(sheet, text, line, indent() + 1);
            }
            Some("GAME") => sheet.game = Some(located(ctail())),
            Some("TURN") => sheet.turn = Some(located(ctail())),
            Some("EMPIRE" | "COUNTRY") => sheet.empire = Some(located(ctail())),
            _ => {
                let diags = &mut sheet.diagnostics;
                if let Some(short) = cut(ctrim, MAX_LINE_CHARS) {
                    actions.push(keep(too_long(line, indent() + 1, short, diags)));
                } else if let Some(a) =
                    read_action(line, code, ctrim, &mut buffer, diags, &mut keep)
                {
                    actions.push(a);
                }
            }
        }
    }
    if !message.is_empty() {
        push_message(sheet, message, message_line, 1);
    }
    actions
}

/// Keeps a player's message (2.9), cut to the longest a message may be.
fn push_message(sheet: &mut ParsedSheet, mut text: String, line: u32, column: u32) {
    if let Some(short) = cut(&text, MAX_MESSAGE_CHARS) {
        let at = short.len();
        sheet.diagnostics.push(
            Diagnostic::new(
                Code::MessageCut,
                line,
                column,
                "MESSAGE",
                format!("a message is kept to its first {MAX_MESSAGE_CHARS} characters"),
            )
            .expected(format!("at most {MAX_MESSAGE_CHARS} characters a message")),
        );
        text.truncate(at);
    }
    sheet.messages.push(text);
}

/// Whether a line of a message would be read as an action outside the message block.
fn looks_like_an_action<'a>(line: &'a str, buffer: &mut Vec<Word<'a>>) -> bool {
    let first = first_word(line).trim_end_matches(['.', ')', ':']);
    let verb_first = Verb::parse(first).is_some()
        || (first.bytes().all(|b| b.is_ascii_digit()) && !first.is_empty());
    if !verb_first || line.len() > MAX_LINE_CHARS {
        return false;
    }
    let code = strip_comment(line);
    let mut diags = Vec::new();
    read_action(0, code, trim(code), buffer, &mut diags, |a| a.order.is_ok()).unwrap_or(false)
}

/// An action line too long to read: kept, cut short, as an action that fails.
fn too_long<'a>(line: u32, column: u32, short: &'a str, diags: &mut Vec<Diagnostic>) -> Action<'a> {
    let reason = format!("the line is longer than the {MAX_LINE_CHARS} characters a line may have");
    let shown = cut(short, 20).unwrap_or(short);
    diags.push(
        Diagnostic::new(Code::LineTooLong, line, column, shown, reason.clone())
            .expected(format!("at most {MAX_LINE_CHARS} characters")),
    );
    Action {
        line,
        text: short,
        verb_token: Word {
            text: first_word(shown),
            column,
        },
        verb: None,
        from: None,
        to: None,
        number: Quantity::All,
        number_words: None,
        order: Err(reason),
        label: None,
        blank: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn columns(line: &str) -> Vec<(&str, u32)> {
        let mut out = Vec::new();
        words(line, &mut out);
        out.into_iter().map(|w| (w.text, w.column)).collect()
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        assert_eq!(
            columns("\tMOVE\tDDD,AAA  2"),
            [("MOVE", 2), ("DDD", 7), ("AAA", 11), ("2", 16)]
        );
        assert_eq!(
            columns("\tMOVE é  DDD,AAA 2"),
            [("MOVE", 2), ("é", 7), ("DDD", 10), ("AAA", 14), ("2", 18)]
        );
        // An ideographic space is a blank too, three bytes long.
        assert_eq!(
            columns("TAX\u{3000}ÄÄ AB-1"),
            [("TAX", 1), ("ÄÄ", 5), ("AB-1", 8)]
        );
        let sheet = parse_sheet("TAX\n\u{a0}\tMOVE é D?D\n \u{a0}GAME  x\n");
        let found: Vec<_> = sheet
            .diagnostics
            .iter()
            .map(|d| (d.line, d.column, d.found.as_str()))
            .collect();
        assert_eq!(found, [(2, 8, "é"), (2, 10, "D?D")]);
        let game = sheet.game.unwrap();
        assert_eq!((game.value.as_str(), game.line, game.column), ("x", 3, 8));
    }

    #[test]
    fn verbs_are_read_whole_in_any_case() {
        assert_eq!(Verb::parse("tax"), Some(Verb::Tax));
        assert_eq!(Verb::parse(" Sabotage\t"), Some(Verb::Sabotage));
        assert_eq!(Verb::parse("MOBILIZE"), Some(Verb::Mobilise));
        for not in ["TAX\0", "TA", "TAXES", "ENTRENCHES", "", "TÄX", "\0"] {
            assert_eq!(Verb::parse(not), None, "{not:?}");
        }
    }

    #[test]
    fn the_engine_reads_what_the_sheet_reads() {
        for text in [
            "",
            "\u{feff}GAME g\r\nTURN 3\r\nEMPIRE FR\r\n1. TAX\r\nMOVE ABC DEF AB 2 # note\r\n",
            "ATACK DDD EEE 3\nGROW D?D\nMOVE DDD AAA BBB 3\nMESSAGE hi\nPHONE 1 2\n",
            "EMAIL a@b\nMESSAGES\nhello\n# all\n\nagain\nTAX",
            "\tRESERVE\tTUC - 10\nFORTIFY ENT - 1\nGIFT , FR, 10\nTAX ; GROW\r",
        ] {
            assert_eq!(
                parse_turnsheet(text),
                parse_sheet(text).into_turnsheet(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn cr_lf_and_crlf_all_end_lines() {
        for text in [
            "TAX\nGROW LON\n",
            "TAX\r\nGROW LON\r\n",
            "TAX\rGROW LON\r",
            "TAX\rGROW LON\n",
        ] {
            let sheet = parse_sheet(text);
            let lines: Vec<_> = sheet
                .actions
                .iter()
                .map(|a| (a.line, a.text.as_str()))
                .collect();
            assert_eq!(lines, [(1, "TAX"), (2, "GROW LON")], "{text:?}");
        }
        // An empty line between two CRs counts.
        let sheet = parse_sheet("TAX\r\rGROW LON");
        assert_eq!(sheet.actions[1].line, 3);
    }

    #[test]
    fn an_action_after_messages_is_a_message_with_a_warning() {
        let sheet = parse_sheet("TAX\nMESSAGES\nHello all\n\nMOVE LON KEN 3\n");
        assert_eq!(sheet.actions.len(), 1);
        assert_eq!(sheet.messages, ["Hello all", "MOVE LON KEN 3"]);
        let codes: Vec<_> = sheet.diagnostics.iter().map(|d| (d.code, d.line)).collect();
        assert_eq!(codes, [(Code::ActionInMessages, 5)]);
    }

    #[test]
    fn long_lines_messages_and_contacts_are_bounded() {
        let long = "A".repeat(MAX_LINE_CHARS + 1);
        let sheet = parse_sheet(&format!("TAX\nMOVE {long}\n"));
        assert_eq!(sheet.actions.len(), 2);
        assert!(sheet.actions[1].order.is_err());
        assert!(sheet.actions[1].text.chars().count() <= MAX_LINE_CHARS);
        assert_eq!(sheet.diagnostics[0].code, Code::LineTooLong);

        let text = format!("MESSAGE {}\nPHONE {}\n", "é".repeat(5000), "1".repeat(5000));
        let sheet = parse_sheet(&text);
        assert_eq!(sheet.messages[0].chars().count(), MAX_MESSAGE_CHARS);
        assert_eq!(sheet.phone.as_ref().unwrap().value.len(), MAX_CONTACT_CHARS);
        let codes: Vec<_> = sheet.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::MessageCut, Code::ContactCut]);
        assert_eq!(parse_turnsheet(&text), sheet.into_turnsheet());
    }
}
