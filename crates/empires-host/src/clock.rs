//! The host's clock, and the one rule of running by it: each game's turn is played when its
//! deadline comes (2.4), by whichever host process gets there first, exactly once.
//!
//! A run plays at most one turn per game: a host that was down over several deadlines
//! catches up one deadline per run ([`crate::store::sql::CatchUp`]), never two turns at once.

use crate::error::Kind;

use crate::store::sql::Due;
use crate::store::{Millis, Services};
use crate::turn::{TurnOptions, TurnReport};
use std::path::PathBuf;

/// Where the present time comes from.
#[derive(Debug, Clone)]
pub enum Clock {
    /// The machine's clock.
    System,
    /// A file holding the time in milliseconds since 1970, read at each tick: several host
    /// processes given one file share one clock that a test (or a rehearsal of a whole
    /// game's schedule) moves by hand. Set with `EMPIRES_CLOCK_FILE`.
    File(PathBuf),
    /// A clock standing where a test puts it ([`Clock::manual`], [`Clock::advance`]).
    Manual(std::sync::Arc<std::sync::atomic::AtomicI64>),
}

impl Clock {
    /// `EMPIRES_CLOCK_FILE` if set, else the machine's clock.
    pub fn from_env() -> Clock {
        match std::env::var_os("EMPIRES_CLOCK_FILE") {
            Some(p) if !p.is_empty() => Clock::File(PathBuf::from(p)),
            _ => Clock::System,
        }
    }

    /// A clock standing at `at` until it is moved.
    pub fn manual(at: Millis) -> Clock {
        Clock::Manual(std::sync::Arc::new(std::sync::atomic::AtomicI64::new(at)))
    }

    /// Moves a manual clock on; the machine's clock and a clock file are not moved here.
    pub fn advance(&self, by: Millis) {
        if let Clock::Manual(t) = self {
            t.fetch_add(by, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// The present time; a clock file that cannot be read is an error, never the machine's
    /// time in disguise.
    pub fn now(&self) -> Result<Millis, String> {
        match self {
            Clock::Manual(t) => Ok(t.load(std::sync::atomic::Ordering::SeqCst)),
            Clock::System => Ok(std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as Millis)),
            Clock::File(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read the clock file {}: {e}", path.display()))?;
                text.trim().parse().map_err(|_| {
                    format!(
                        "the clock file {} holds {:?}, not a time in milliseconds",
                        path.display(),
                        text.trim()
                    )
                })
            }
        }
    }
}

/// What happened to one turn the clock said was due.
#[derive(Debug, Clone)]
pub enum Ran {
    /// This process played it.
    Played { due: Due, report: Box<TurnReport> },
    /// Another process played it first: nothing to do.
    Taken { due: Due },
    /// It could not be played: with the database away it is tried again next run; for any
    /// other reason (a stored state that does not verify) the game is paused for its GM.
    Failed { due: Due, error: String },
}

impl std::fmt::Display for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ran::Played { due, report } => write!(
                f,
                "{}: turn {} played {} (state {})",
                due.game,
                due.turn,
                if due.early {
                    "early: every player had sent orders"
                } else {
                    "at its deadline"
                },
                &report.hash[..12.min(report.hash.len())]
            ),
            Ran::Taken { due } => write!(
                f,
                "{}: turn {} was played by another host process",
                due.game, due.turn
            ),
            Ran::Failed { due, error } => {
                write!(f, "{}: turn {} not played: {error}", due.game, due.turn)
            }
        }
    }
}

/// Plays every turn due at `now`, one per game. The computer writes the orders of players
/// who sent none (2.5, decision 21); a turn already played by another process is left.
pub async fn run_due(store: &Services, now: Millis) -> Result<Vec<Ran>, crate::Error> {
    let mut out = Vec::new();
    for due in store.schedules.due(now).await? {
        let options = TurnOptions {
            yes: true,
            expect: Some(due.turn),
            ..TurnOptions::default()
        };
        out.push(match store.games.play_turn(&due.game, options, now).await {
            Ok(report) => Ran::Played {
                due,
                report: Box::new(report),
            },
            Err(e) if e.kind() == Kind::Conflict => Ran::Taken { due },
            // The database is away: the next round tries again.
            Err(e) if e.kind() == Kind::Unavailable => Ran::Failed {
                due,
                error: e.to_string(),
            },
            // Anything else would fail again every round: the game waits for its GM.
            Err(e) => {
                let error = e.to_string();
                store
                    .schedules
                    .pause_after_failure(&due.game, due.turn, &error, now)
                    .await?;
                Ran::Failed {
                    due,
                    error: format!("{error}; the game is paused until its GM resumes it"),
                }
            }
        });
    }
    Ok(out)
}
