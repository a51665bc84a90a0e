//! Diagnostics: what is wrong (or probably wrong) with a turnsheet, where, and what was
//! expected, with a stable code per kind of problem. Rendered as plain text for email and
//! serialised as JSON for the web.

use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Errors stop an action; warnings point at orders that are legal but probably wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// The stable code of each kind of problem. The text form is `E001`, `W101`...
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Code {
    /// The first word is not an action.
    #[serde(rename = "E001")]
    UnknownAction,
    /// More boxes than an action has.
    #[serde(rename = "E002")]
    TooManyBoxes,
    /// A box holds something that is not an area or empire code.
    #[serde(rename = "E003")]
    NotACode,
    /// The number box holds something that is not a number form.
    #[serde(rename = "E004")]
    BadNumber,
    /// A line too long to be an action: it is not read.
    #[serde(rename = "E005")]
    LineTooLong,
    /// An area code that is not on the map.
    #[serde(rename = "E010")]
    UnknownArea,
    /// An empire code that is not in the game.
    #[serde(rename = "E011")]
    UnknownEmpire,
    /// A box the action needs is blank.
    #[serde(rename = "E012")]
    MissingBox,
    /// A number form the action does not take.
    #[serde(rename = "E014")]
    NumberNotAllowed,
    /// An action not used in this game's variant.
    #[serde(rename = "E015")]
    NotInVariant,
    /// A land area where a sea area is needed, or the other way round.
    #[serde(rename = "E016")]
    WrongKindOfArea,
    /// Two areas that must be next to each other are not.
    #[serde(rename = "E017")]
    NotAdjacent,
    /// The turnsheet is for another turn.
    #[serde(rename = "E018")]
    WrongTurn,
    /// The turnsheet is for another empire.
    #[serde(rename = "E019")]
    WrongEmpire,
    /// A box the action does not use is filled in; it will be ignored.
    #[serde(rename = "W101")]
    UnusedBox,
    /// MOVE into an area the empire does not own.
    #[serde(rename = "W102")]
    MoveIntoForeignArea,
    /// ATTACK on an area the empire owns.
    #[serde(rename = "W103")]
    AttackOwnArea,
    /// RESERVE after ARMY or DISBAND in the same turn.
    #[serde(rename = "W104")]
    ReserveAfterArmy,
    /// FLEET in a base after BUILD or RECOVER there.
    #[serde(rename = "W105")]
    FleetAfterBuild,
    /// RECOVER after NAVY or CLOSE.
    #[serde(rename = "W106")]
    RecoverAfterNavy,
    /// SKIP between adjacent areas.
    #[serde(rename = "W107")]
    SkipAdjacent,
    /// SPY or SKIP with no spy and no "from" to recruit one in.
    #[serde(rename = "W108")]
    RecruitWithoutFrom,
    /// More actions than the empire may make.
    #[serde(rename = "W109")]
    TooManyActions,
    /// ORDER with no number before the last action: ignored.
    #[serde(rename = "W110")]
    OrderIgnored,
    /// A second GROW of an area, or a second BUILD in a base, in one turn.
    #[serde(rename = "W111")]
    OncePerTurn,
    /// A PHONE or EMAIL line too long for the roundup.
    #[serde(rename = "W112")]
    LongContact,
    /// European Empires: a land attack from an area with no supply trains.
    #[serde(rename = "W113")]
    AttackWithoutTrains,
    /// The forecast, on what the empire can see, says the action will fail.
    #[serde(rename = "W114")]
    ForecastFails,
    /// A line after MESSAGES that reads as an action: it is part of a message, not played.
    #[serde(rename = "W115")]
    ActionInMessages,
    /// A message longer than a message may be: it is cut short.
    #[serde(rename = "W116")]
    MessageCut,
    /// A PHONE or EMAIL line longer than one may be: it is cut short.
    #[serde(rename = "W117")]
    ContactCut,
    /// An action's written number disagrees with its place on the sheet, repeats an
    /// earlier one, or is beyond the actions a turn.
    #[serde(rename = "W118")]
    NumberLabel,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::UnknownAction => "E001",
            Code::TooManyBoxes => "E002",
            Code::NotACode => "E003",
            Code::BadNumber => "E004",
            Code::LineTooLong => "E005",
            Code::UnknownArea => "E010",
            Code::UnknownEmpire => "E011",
            Code::MissingBox => "E012",
            Code::NumberNotAllowed => "E014",
            Code::NotInVariant => "E015",
            Code::WrongKindOfArea => "E016",
            Code::NotAdjacent => "E017",
            Code::WrongTurn => "E018",
            Code::WrongEmpire => "E019",
            Code::UnusedBox => "W101",
            Code::MoveIntoForeignArea => "W102",
            Code::AttackOwnArea => "W103",
            Code::ReserveAfterArmy => "W104",
            Code::FleetAfterBuild => "W105",
            Code::RecoverAfterNavy => "W106",
            Code::SkipAdjacent => "W107",
            Code::RecruitWithoutFrom => "W108",
            Code::TooManyActions => "W109",
            Code::OrderIgnored => "W110",
            Code::OncePerTurn => "W111",
            Code::LongContact => "W112",
            Code::AttackWithoutTrains => "W113",
            Code::ForecastFails => "W114",
            Code::ActionInMessages => "W115",
            Code::MessageCut => "W116",
            Code::ContactCut => "W117",
            Code::NumberLabel => "W118",
        }
    }

    pub fn severity(self) -> Severity {
        if self.as_str().starts_with('E') {
            Severity::Error
        } else {
            Severity::Warning
        }
    }
}

/// One problem found in a turnsheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    /// 1-based line and column (in characters) of the offending text.
    pub line: u32,
    pub column: u32,
    /// Its length in characters (at least 1).
    pub length: u32,
    /// The offending text as written.
    pub found: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// "Did you mean" suggestions, best first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<String>,
}

impl Diagnostic {
    pub fn new(
        code: Code,
        line: u32,
        column: u32,
        found: &str,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: code.severity(),
            code,
            line,
            column,
            length: found.chars().count().max(1) as u32,
            found: found.to_string(),
            message: message.into(),
            expected: None,
            suggestions: Vec::new(),
        }
    }

    pub fn expected(mut self, what: impl Into<String>) -> Self {
        self.expected = Some(what.into());
        self
    }

    pub fn suggest(mut self, s: Vec<String>) -> Self {
        self.suggestions = s;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Renders diagnostics like a compiler: the location, the line with the offending text
/// marked, what was expected and the suggestions. `file` names the turnsheet.
pub fn render(file: &str, source: &str, diags: &[Diagnostic]) -> String {
    let lines: Vec<&str> = crate::sheet::lines(source).collect();
    let mut out = String::new();
    for d in diags {
        let kind = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let _ = writeln!(
            out,
            "{file}:{}:{}: {kind}[{}]: {}",
            d.line,
            d.column,
            d.code.as_str(),
            d.message
        );
        if let Some(text) = d.line.checked_sub(1).and_then(|i| lines.get(i as usize)) {
            let num = d.line.to_string();
            let pad = " ".repeat(num.len());
            let shown: String = text
                .chars()
                .map(|c| if c == '\t' { ' ' } else { c })
                .collect();
            let _ = writeln!(out, " {num} | {shown}");
            let marks = format!(
                "{}{}",
                " ".repeat(d.column.saturating_sub(1) as usize),
                "^".repeat(d.length as usize)
            );
            match &d.expected {
                Some(e) => {
                    let _ = writeln!(out, " {pad} | {marks} expected {e}");
                }
                None => {
                    let _ = writeln!(out, " {pad} | {marks}");
                }
            }
        } else if let Some(e) = &d.expected {
            let _ = writeln!(out, "    expected {e}");
        }
        if !d.suggestions.is_empty() {
            let _ = writeln!(out, "    = did you mean {}?", d.suggestions.join(", or "));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialise_by_their_stable_names() {
        assert_eq!(
            serde_json::to_string(&Code::UnknownArea).unwrap(),
            "\"E010\""
        );
        assert_eq!(Code::TooManyActions.as_str(), "W109");
        assert_eq!(Code::UnusedBox.severity(), Severity::Warning);
        assert_eq!(Code::BadNumber.severity(), Severity::Error);
    }

    #[test]
    fn rendering_marks_the_offending_text() {
        let d = Diagnostic::new(
            Code::UnknownArea,
            2,
            6,
            "PRS",
            "`PRS` is not an area on this map",
        )
        .expected("an area code")
        .suggest(vec!["PAR (Paris)".into()]);
        let text = render("FR.txt", "TAX\nMOVE PRS BUR 2\n", &[d]);
        assert_eq!(
            text,
            "FR.txt:2:6: error[E010]: `PRS` is not an area on this map\n \
             2 | MOVE PRS BUR 2\n   |      ^^^ expected an area code\n    = did you mean PAR (Paris)?\n"
        );
    }
}
