//! The turnsheet language (2.6, 2.9, 6.3, 13.4): reading the orders players write, pointing
//! at every mistake like a compiler would, and checking them against the game.
//!
//! One action per line: `VERB WHERE WHERE-TO NUMBER`, in any case. Blank boxes may be written
//! `-` or left out when the meaning is clear: `ARMY 5`, `GIFT FR 10` and `SPY PAR` read as
//! `ARMY - - 5`, `GIFT - FR 10` and `SPY - PAR -`. The number is a count, blank, `-` or `ALL`
//! for all, or all-but as `AB-2`, `AB2`, `AB 2` or `ALL BUT 2`. Lines may start with their
//! action number (`3. MOVE ...`). `#`, `;` and `//` start comments. `GAME`, `TURN` and
//! `EMPIRE` lines form the header; `MESSAGE text`, `PHONE text` and `EMAIL text` lines, or a
//! `MESSAGES` line followed by free text, carry player messages (2.9).

pub mod check;
pub mod diag;
pub mod sheet;
pub mod spec;
pub mod suggest;
pub mod text;

pub use check::{Context, check};
pub use diag::{Code, Diagnostic, Severity, render};
pub use sheet::{ParsedSheet, parse_quantity, parse_sheet};

use empires_rules::order::{Order, Turnsheet};

/// Reads one order line. `Err` says what could not be understood.
pub fn parse_order(text: &str) -> Result<Order, String> {
    let mut diags = Vec::new();
    match sheet::parse_action(1, text, &mut diags) {
        Some(a) => a.order,
        None => Err("empty line".into()),
    }
}

/// Reads a whole turnsheet for the engine. Lines that cannot be understood are kept, with
/// the reason, so that the engine reports them in their place and the rest goes on.
pub fn parse_turnsheet(text: &str) -> Turnsheet {
    sheet::parse_turnsheet(text)
}
