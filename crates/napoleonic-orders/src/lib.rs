//! The written orders of Napoleonic Empires: the language players mail their orders in,
//! read into the engine's [`KingdomOrders`](napoleonic_rules::KingdomOrders) with
//! compiler-like diagnostics ([`parse`]), checked against the game ([`check`]), and the
//! printed order sheet each kingdom fills in ([`sheet`]).
//!
//! ```text
//! GAME "Europe 1805"  KINGDOM FRA  TURN 3
//! HQ
//!   DECLARE WAR ON PRU
//! A1 "Grande Armée"
//!   RETREAT 3
//!   1: MOVE BUR
//!   2: MOVE ALS; PILLAGE
//! ```
//!
//! The language is described order by order in `docs/napoleonic/orders.md`.

pub mod check;
pub mod diag;
pub mod dryrun;
pub mod lexer;
pub mod parse;
pub mod sheet;
pub mod spans;
pub mod suggest;

pub use check::{check, check_sheet};
pub use diag::{Code, Diagnostic, Severity, Span, render};
pub use parse::{Header, Located, ParsedSheet, parse};
pub use sheet::order_sheet;
pub use spans::{OrderSpan, PhaseSpans, Spans, UnitSpans};
