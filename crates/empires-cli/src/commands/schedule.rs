//! `empires schedule ...` and `empires host run`: a host game's deadlines (2.4) from the
//! command line, and the host's clock run without the web door.
//!
//! Schedules belong to games kept in a host's database; a game directory is run by hand.

use crate::commands::hosted::block_on;
use crate::commands::mail::MailArgs;
use crate::error::{Error, Result};
use empires_host::clock::Clock;
use empires_host::schedule::{Schedule, parse_duration};
use empires_host::store::Millis;
use empires_host::store::prelude::*;
use empires_host::store::sql::SqlStore;
use empires_host::store::{CatchUp, GameSchedule, Services, reminders_text};
use std::fmt::Write as _;

/// What `empires schedule` does.
#[derive(Debug, clap::Subcommand)]
pub enum ScheduleCommand {
    /// Show a game's schedule and its next deadline.
    Show {
        game: String,
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// Set a game's schedule: "tuesdays 17:00 America/Los_Angeles", "mon,thu 09:30
    /// Europe/London", "daily 18:00 UTC", "every 48h" or "manual", optionally followed by
    /// "early" (run as soon as every living player has sent orders) and "grace 1h".
    Set {
        game: String,
        /// The schedule, in quotes.
        schedule: String,
        #[arg(long, value_name = "URL")]
        db: String,
        /// After the host was down over several deadlines: `each` plays one turn per
        /// deadline missed, `skip` plays one and sets the next deadline after the present.
        #[arg(long, default_value = "each", value_parser = parse_catch_up)]
        catch_up: CatchUp,
        /// Remind players who have sent nothing this long before the deadline: "24h,2h".
        #[arg(long, value_name = "TIMES")]
        remind: Option<String>,
    },
    /// Pause a game: no turn is run by the clock until it is resumed.
    Pause {
        game: String,
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// Resume a paused game; a deadline that passed meanwhile moves to the next one.
    Resume {
        game: String,
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// Put the next deadline back by a time ("48h", "2d") or to a moment (RFC 3339, e.g.
    /// 2026-12-01T17:00:00Z).
    Extend {
        game: String,
        #[arg(long, value_name = "URL")]
        db: String,
        /// How much later: "48h", "2d", "90m".
        #[arg(long, value_parser = parse_duration_arg, conflicts_with = "to", required_unless_present = "to")]
        by: Option<Millis>,
        /// The new deadline, as 2026-12-01T17:00:00Z.
        #[arg(long, value_parser = parse_instant)]
        to: Option<Millis>,
    },
}

/// What `empires host` does.
#[derive(Debug, clap::Subcommand)]
pub enum HostCommand {
    /// Run the host's clock without the web door: every game's turn is played when its
    /// deadline comes, reminders and reports mailed with --mail. Several processes may run
    /// on one PostgreSQL database: each turn is played once.
    Run {
        #[command(flatten)]
        mail: MailArgs,
        /// Also send mail: reminders, reports after each turn, the outbox (through --smtp,
        /// or kept in the outbox).
        #[arg(long = "mail")]
        with_mail: bool,
        /// Look once and stop, rather than every --tick seconds until stopped.
        #[arg(long)]
        once: bool,
        /// Seconds between looks.
        #[arg(long, default_value_t = 5.0)]
        tick: f64,
    },
    /// Show the host's limits on what one player may send, or set them: every process of
    /// the host reads them from the database (a serving host within a minute).
    Limits {
        /// The database (sqlite:<file> or postgres://...).
        #[arg(long, value_name = "URL")]
        db: String,
        /// Sheets one account may send in a minute, through every door and token.
        #[arg(long, value_name = "N")]
        sheets_per_minute: Option<u32>,
        /// Sheets kept for one seat and turn; older superseded ones are dropped, their
        /// hashes kept in the game's audit log.
        #[arg(long, value_name = "N")]
        sheets_kept: Option<u32>,
    },
}

fn parse_catch_up(s: &str) -> std::result::Result<CatchUp, String> {
    CatchUp::parse(s).ok_or_else(|| format!("`{s}` is not a catch-up policy: each or skip"))
}

fn parse_duration_arg(s: &str) -> std::result::Result<Millis, String> {
    parse_duration(s).map_err(|e| e.to_string())
}

fn parse_reminders(s: &str) -> std::result::Result<Vec<Millis>, String> {
    s.split(',')
        .filter(|p| !p.trim().is_empty())
        .map(|p| parse_duration(p.trim()).map_err(|e| e.to_string()))
        .collect()
}

fn parse_instant(s: &str) -> std::result::Result<Millis, String> {
    s.trim()
        .parse::<jiff::Timestamp>()
        .map(|t| t.as_millisecond())
        .map_err(|e| format!("`{s}` is not a moment such as 2026-12-01T17:00:00Z: {e}"))
}

use super::now;

/// Runs one `empires schedule` command; returns what to print.
pub fn run(command: ScheduleCommand) -> Result<String> {
    block_on(async {
        match command {
            ScheduleCommand::Show { game, db } => {
                let store = SqlStore::open_existing(&db).await?;
                match store.schedule_of(&game).await? {
                    Some(s) => Ok(describe(&game, &s)),
                    None => Ok(format!(
                        "{game}: no schedule; turns are run by hand (set one with `empires schedule set {game} \"...\" --db {db}`)"
                    )),
                }
            }
            ScheduleCommand::Set {
                game,
                schedule,
                db,
                catch_up,
                remind,
            } => {
                let schedule = Schedule::parse(&schedule).map_err(|e| Error::new(e.to_string()))?;
                let remind = match remind {
                    Some(r) => {
                        parse_reminders(&r).map_err(|e| Error::new(format!("--remind: {e}")))?
                    }
                    None => Vec::new(),
                };
                let store = SqlStore::open_existing(&db).await?;
                let s = store
                    .set_schedule(&game, &schedule, catch_up, &remind, now()?)
                    .await?;
                Ok(describe(&game, &s))
            }
            ScheduleCommand::Pause { game, db } => {
                let store = SqlStore::open_existing(&db).await?;
                Ok(describe(&game, &store.pause(&game, now()?).await?))
            }
            ScheduleCommand::Resume { game, db } => {
                let store = SqlStore::open_existing(&db).await?;
                Ok(describe(&game, &store.resume(&game, now()?).await?))
            }
            ScheduleCommand::Extend { game, db, by, to } => {
                let store = SqlStore::open_existing(&db).await?;
                let to = match (by, to) {
                    (_, Some(t)) => t,
                    (Some(by), None) => {
                        let current = store.schedule_of(&game).await?.and_then(|s| s.deadline);
                        current.ok_or_else(|| {
                            Error::new(format!("game \"{game}\" has no deadline to extend"))
                        })? + by
                    }
                    (None, None) => return Err(Error::new("give --by or --to")),
                };
                Ok(describe(&game, &store.extend(&game, to, now()?).await?))
            }
        }
    })
}

/// A schedule as the GM reads it.
fn describe(game: &str, s: &GameSchedule) -> String {
    let mut out = format!("{game}: {}", s.schedule);
    if s.catch_up == CatchUp::Skip {
        out.push_str(", catching up by one turn after downtime");
    }
    if !s.reminders.is_empty() {
        let _ = write!(out, ", reminders {} before", reminders_text(&s.reminders));
    }
    out.push('\n');
    match (s.deadline, s.paused_at) {
        (_, Some(_)) => {
            let _ = write!(
                out,
                "paused: no turn is run until `empires schedule resume`"
            );
        }
        (Some(d), None) => {
            let _ = write!(
                out,
                "turn {} is due by {}",
                s.for_turn,
                s.schedule.describe(d)
            );
        }
        (None, None) => {
            let _ = write!(out, "turn {} is run by hand", s.for_turn);
        }
    }
    out
}

/// `empires host run`: the host's clock without the web door.
pub fn host(command: HostCommand) -> Result<String> {
    let (mail, with_mail, once, tick) = match command {
        HostCommand::Run {
            mail,
            with_mail,
            once,
            tick,
        } => (mail, with_mail, once, tick),
        HostCommand::Limits {
            db,
            sheets_per_minute,
            sheets_kept,
        } => return limits(&db, sheets_per_minute, sheets_kept),
    };
    let config = if with_mail {
        Some(mail.config()?)
    } else {
        None
    };
    let clock = Clock::from_env();
    let tick = std::time::Duration::from_secs_f64(tick.clamp(0.01, 3600.0));
    block_on(async {
        let store = Services::open_existing(&mail.db).await?;
        loop {
            let now = clock.now().map_err(Error::new)?;
            for line in empires_web::serve::clock_round(&store, config.as_ref(), now).await {
                println!("{line}");
            }
            if let Some(cfg) = &config {
                if let Err(e) = empires_mail::reports::queue_all(&store, cfg, now).await {
                    eprintln!("mail: the reports could not be queued: {e}");
                }
                if let Err(e) = empires_mail::send::send_due(&store, cfg, now).await {
                    eprintln!("mail: the outbox could not be sent: {e}");
                }
            }
            if once {
                return Ok(String::new());
            }
            tokio::time::sleep(tick).await;
        }
    })
}

/// `empires host limits`: the host's limits, changed as asked.
fn limits(db: &str, per_minute: Option<u32>, kept: Option<u32>) -> Result<String> {
    let store = crate::commands::hosted::open_db(db)?;
    block_on(async {
        let mut limits = store.host_limits().await?;
        if per_minute.is_some() || kept.is_some() {
            limits.sheets_per_minute = per_minute.unwrap_or(limits.sheets_per_minute);
            limits.sheets_kept = kept.unwrap_or(limits.sheets_kept);
            store.set_host_limits(limits).await?;
        }
        Ok(format!(
            "sheets a minute from one account: {}\nsheets kept for one seat and turn: {}",
            limits.sheets_per_minute, limits.sheets_kept
        ))
    })
}
