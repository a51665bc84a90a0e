//! Diagnostics: what is wrong, or probably wrong, with an order sheet, where it is, what was
//! found and what was expected, with a hint where one helps. Each kind of problem has a
//! stable code (`E…` errors, `W…` warnings) that the web form and the mail gateway may rely
//! on. Rendered as plain text like a compiler's messages, or serialised as JSON.

use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Errors are orders that cannot be carried out as written (the moderator reports them as
/// failed and goes on with the rest of the sheet); warnings are orders that will be carried
/// out but probably not as meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

macro_rules! codes {
    ($($(#[$doc:meta])* $name:ident = $text:literal,)*) => {
        /// The stable code of each kind of problem; written `E001`, `W201`...
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum Code {
            $($(#[$doc])* #[serde(rename = $text)] $name,)*
        }

        impl Code {
            /// Every code, in order.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$name => $text,)*
                }
            }
        }
    };
}

codes! {
    // --- Reading the sheet (no game needed beyond the map) ---
    /// A word that is not an order, or not one that fits here.
    UnknownWord = "E001",
    /// An order that stops before it has all it needs.
    Missing = "E002",
    /// More words than the order takes.
    Extra = "E003",
    /// Not a number, or a number out of range.
    BadNumber = "E004",
    /// A line too long to read.
    LineTooLong = "E005",
    /// A sheet too large to read.
    SheetTooLarge = "E006",
    /// Not a unit, kingdom or troop code of the right shape.
    BadCode = "E007",
    /// A location that is not on the map.
    UnknownLocation = "E008",
    /// An order in the wrong section: outside any, an HQ order under a unit, a phase order
    /// outside a phase, a one-off unit order inside one.
    Misplaced = "E009",
    /// A phase number out of range.
    BadPhase = "E010",
    /// A second movement (MOVE or HOLD) in one phase.
    TwoMovements = "E011",
    /// A quotation or a proclamation that is never closed.
    Unclosed = "E012",
    /// A second order of a kind a unit, a phase or the sheet may have only once.
    Twice = "E013",
    // --- Checking against the game ---
    /// The header names another kingdom.
    WrongKingdom = "E101",
    /// The header names another turn.
    WrongTurn = "E102",
    /// A unit the kingdom does not have and does not form.
    NoSuchUnit = "E103",
    /// An order the unit's kind cannot carry out.
    WrongUnitKind = "E104",
    /// A kingdom that is not in the game.
    UnknownKingdom = "E105",
    /// A troop type that is not in the roster.
    UnknownTroop = "E106",
    /// A sea where a province is needed, or the other way round; a location id not on the
    /// map.
    WrongPlace = "E107",
    /// A movement, load or unload to a location that is not next to the unit.
    NotAdjacent = "E108",
    /// More troops than the unit will hold.
    TooManyTroops = "E109",
    /// A diplomatic order the relation does not allow (7.11).
    Relation = "E110",
    /// A province the kingdom does not own.
    NotOwned = "E111",
    /// A recruit the city cannot make: no city, not on its build list, over its limit.
    CannotBuild = "E112",
    /// FORM with a number already in use.
    NumberTaken = "E113",
    /// A leader the unit does not have.
    NoSuchLeader = "E114",
    /// A before-movement transfer (F9) between units in different places.
    NotTogether = "E115",
    /// An order the kingdom's status or limits forbid (2.10).
    Limit = "E116",
    /// A structure that cannot be built, repaired or razed there.
    Structure = "E117",
    /// An order aimed at the kingdom itself, or a unit at itself.
    SelfTarget = "E118",
    // --- Warnings from reading ---
    /// A unit's section appears twice: the orders are put together.
    UnitRepeated = "W001",
    /// Things in a phase written in another order than they happen in.
    StepOrder = "W002",
    /// Text cut to its limit.
    Cut = "W003",
    /// Too many problems: the rest are not reported.
    TooMany = "W004",
    /// A header line repeated or out of place.
    Header = "W005",
    /// A phase label with nothing after it.
    EmptyPhase = "W006",
    // --- Warnings from checking ---
    /// A planned step that fails on the plan's own terms (a barrier, too few move points,
    /// no permission, no harbour), assuming no one else moves.
    StepFails = "W101",
    /// Not enough gold on the plan's own terms.
    Gold = "W102",
    /// An order that changes nothing.
    NoEffect = "W103",
    /// An order that repeats or contradicts an earlier one.
    Contradicts = "W104",
    /// A kingdom that refuses gifts from this one.
    Refused = "W105",
    /// Units that will not be in the same place for a phase's transfer, by the plan.
    Apart = "W106",
    /// A unit too weak for what it is asked (pillage, workers).
    Weak = "W107",
    /// A phase beyond the last one played.
    LatePhase = "W108",
    /// No route for sent gold.
    NoRoute = "W109",
    /// Ranks that place fewer troops than the unit holds.
    RanksPartial = "W110",
    /// Salvage that gives no gold.
    NoSalvage = "W111",
    /// Orders that would give away everything: the palace coup (6).
    PalaceCoup = "W112",
}

impl Code {
    pub fn severity(self) -> Severity {
        if self.as_str().starts_with('E') {
            Severity::Error
        } else {
            Severity::Warning
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where something is written: 1-based line and column (in characters) and its length.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Span {
    pub line: u32,
    pub column: u32,
    pub length: u32,
}

impl Span {
    pub fn new(line: u32, column: u32, length: u32) -> Span {
        Span {
            line,
            column,
            length: length.max(1),
        }
    }

    /// From the start of `self` to the end of `other` (on the same line).
    pub fn to(self, other: Span) -> Span {
        if other.line != self.line || other.column < self.column {
            return self;
        }
        Span::new(
            self.line,
            self.column,
            other.column + other.length - self.column,
        )
    }

    /// No place: orders that did not come from a sheet.
    pub fn is_none(&self) -> bool {
        self.line == 0
    }
}

/// One problem found in an order sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    /// 1-based line and column (in characters) of the offending text; 0 when the orders
    /// did not come from a sheet.
    pub line: u32,
    pub column: u32,
    /// Its length in characters (at least 1).
    pub length: u32,
    /// The offending text as written, if there is any.
    pub found: String,
    pub message: String,
    /// What would have fitted here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// How to put it right, or what was probably meant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn new(code: Code, at: Span, found: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: code.severity(),
            code,
            line: at.line,
            column: at.column,
            length: at.length.max(1),
            found: found.to_string(),
            message: message.into(),
            expected: None,
            hint: None,
        }
    }

    pub fn expected(mut self, what: impl Into<String>) -> Diagnostic {
        self.expected = Some(what.into());
        self
    }

    pub fn hint(mut self, what: impl Into<String>) -> Diagnostic {
        self.hint = Some(what.into());
        self
    }

    /// Adds a hint only when there is one.
    pub fn maybe_hint(mut self, what: Option<String>) -> Diagnostic {
        if what.is_some() {
            self.hint = what;
        }
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    pub fn span(&self) -> Span {
        Span {
            line: self.line,
            column: self.column,
            length: self.length,
        }
    }
}

/// The most diagnostics reported for one sheet: past this, one last warning says the rest
/// were left out. A sheet with a hundred problems is best fixed from the top.
pub const MAX_DIAGNOSTICS: usize = 100;

/// A list of diagnostics that stops growing at [`MAX_DIAGNOSTICS`].
#[derive(Debug, Clone, Default)]
pub struct Diags {
    pub list: Vec<Diagnostic>,
    full: bool,
    /// Where a diagnostic past the limit goes, so it can still be finished off.
    sink: Option<Diagnostic>,
}

impl Diags {
    /// Adds a diagnostic and gives it back to be finished off (a hint added, say).
    pub fn push_mut(&mut self, d: Diagnostic) -> &mut Diagnostic {
        let before = self.list.len();
        let dropped = self.full || before >= MAX_DIAGNOSTICS;
        if dropped {
            self.push(d.clone());
            return self.sink.insert(d);
        }
        self.push(d);
        &mut self.list[before]
    }

    pub fn push(&mut self, d: Diagnostic) {
        if self.full {
            return;
        }
        if self.list.len() >= MAX_DIAGNOSTICS {
            self.full = true;
            let at = d.span();
            self.list.push(Diagnostic::new(
                Code::TooMany,
                at,
                "",
                format!(
                    "more than {MAX_DIAGNOSTICS} problems: the rest are not reported; fix these \
                     and check again"
                ),
            ));
            return;
        }
        self.list.push(d);
    }

    pub fn extend(&mut self, ds: impl IntoIterator<Item = Diagnostic>) {
        for d in ds {
            self.push(d);
        }
    }

    pub fn errors(&self) -> usize {
        self.list.iter().filter(|d| d.is_error()).count()
    }

    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.list
    }
}

/// Puts diagnostics in the order of the sheet: by line, then column, errors first.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| {
        (a.line, a.column, a.severity, a.code).cmp(&(b.line, b.column, b.severity, b.code))
    });
}

/// The lines of a text, ending at LF, CRLF or a lone CR, as the reader counts them.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match rest.bytes().position(|b| b == b'\n' || b == b'\r') {
            Some(end) => {
                let line = &rest[..end];
                let crlf =
                    rest.as_bytes()[end] == b'\r' && rest.as_bytes().get(end + 1) == Some(&b'\n');
                rest = &rest[end + if crlf { 2 } else { 1 }..];
                Some(line)
            }
            None => {
                let line = rest;
                rest = "";
                Some(line)
            }
        }
    })
}

/// Renders diagnostics like a compiler: where, what, the line with the offending text
/// marked and what was expected there, then the hint. `file` names the sheet. A summary
/// line counts the errors and warnings.
pub fn render(file: &str, source: &str, diags: &[Diagnostic]) -> String {
    let text_lines: Vec<&str> = lines(source).collect();
    let mut out = String::new();
    for d in diags {
        let kind = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(
            out,
            "{file}:{}:{}: {kind}[{}]: {}",
            d.line, d.column, d.code, d.message
        );
        let shown = d
            .line
            .checked_sub(1)
            .and_then(|i| text_lines.get(i as usize));
        match shown {
            Some(text) => {
                let num = d.line.to_string();
                let pad = " ".repeat(num.len());
                let shown: String = text
                    .chars()
                    .map(|c| if c.is_control() { ' ' } else { c })
                    .collect();
                let _ = writeln!(out, " {num} | {shown}");
                let marks = format!(
                    "{}{}",
                    " ".repeat(d.column.saturating_sub(1) as usize),
                    "^".repeat(d.length.clamp(1, 200) as usize)
                );
                match &d.expected {
                    Some(e) => {
                        let _ = writeln!(out, " {pad} | {marks} expected {e}");
                    }
                    None => {
                        let _ = writeln!(out, " {pad} | {marks}");
                    }
                }
            }
            None => {
                if let Some(e) = &d.expected {
                    let _ = writeln!(out, "    expected {e}");
                }
            }
        }
        if let Some(h) = &d.hint {
            let _ = writeln!(out, "    = hint: {h}");
        }
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    let plural = |n: usize, w: &str| {
        if n == 1 {
            format!("1 {w}")
        } else {
            format!("{n} {w}s")
        }
    };
    let _ = writeln!(
        out,
        "{}, {}",
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_their_letter_gives_the_severity() {
        let mut seen = std::collections::BTreeSet::new();
        for c in Code::ALL {
            assert!(seen.insert(c.as_str()), "{c} twice");
        }
        assert_eq!(Code::UnknownWord.severity(), Severity::Error);
        assert_eq!(Code::StepFails.severity(), Severity::Warning);
    }

    #[test]
    fn rendering_marks_the_offending_text_and_gives_the_hint() {
        let d = Diagnostic::new(
            Code::UnknownLocation,
            Span::new(2, 8, 3),
            "BRG",
            "`BRG` is not a location on this map",
        )
        .expected("a location code or number")
        .hint("did you mean BUR (Burgundy)?");
        let text = render("FRA.txt", "A1\n  1: MOVE BRG\n", &[d]);
        assert_eq!(
            text,
            "FRA.txt:2:8: error[E008]: `BRG` is not a location on this map\n \
             2 |   1: MOVE BRG\n   |        ^^^ expected a location code or number\n    \
             = hint: did you mean BUR (Burgundy)?\n1 error, 0 warnings\n"
        );
    }

    #[test]
    fn the_list_stops_growing_with_one_last_word() {
        let mut d = Diags::default();
        for i in 0..(MAX_DIAGNOSTICS + 10) {
            d.push(Diagnostic::new(
                Code::Extra,
                Span::new(i as u32 + 1, 1, 1),
                "x",
                "x",
            ));
        }
        assert_eq!(d.list.len(), MAX_DIAGNOSTICS + 1);
        assert_eq!(d.list.last().unwrap().code, Code::TooMany);
    }
}
