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

/// The time now, by the clock every command reads: the file `EMPIRES_CLOCK_FILE` names
/// when it is set (a rehearsal of a game's schedule, several processes sharing one clock),
/// else the machine's. What a command records (a sheet's arrival, a turn played, a mail
/// sent) is stamped by it, as `serve` and `host run` stamp theirs.
pub fn now() -> crate::error::Result<empires_host::store::Millis> {
    empires_host::clock::Clock::from_env()
        .now()
        .map_err(crate::error::Error::new)
}
