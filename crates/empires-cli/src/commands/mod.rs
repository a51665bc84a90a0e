//! One module per subcommand. Each `run` returns a report to print; warnings inside it go
//! to standard error.

pub mod accounts;
pub mod check;
pub mod demo;
pub mod hosted;
pub mod ledger;
pub mod mail;
pub mod map;
pub mod napoleonic;
pub mod new;
pub mod report;
pub mod schedule;
pub mod serve;
pub mod simulate;
pub mod status;
pub use empires_host::{turn, undo};
