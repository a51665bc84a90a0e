//! Deadlines kept with host games (2.4): each game's schedule, the deadline of the turn it
//! waits for, the GM's pause and extensions, and which games are due to be run.
//!
//! The deadline moves on in the same transaction that stores a turn
//! ([`advance_in`], called by the turn's commit), so that a turn and its deadline are never
//! out of step: a crash between them cannot make the clock run one deadline twice.

use super::{Pool, SqlStore};
use crate::error::{Error, Result};
use crate::schedule::{Every, Schedule, duration_text};
use crate::store::Millis;
use crate::store::prelude::*;

/// What the host does after it was down over several deadlines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CatchUp {
    /// One turn per deadline missed, each in its own run, oldest first.
    Each,
    /// One turn for all of them, then the next deadline after the present.
    Skip,
}

impl CatchUp {
    pub fn as_str(self) -> &'static str {
        match self {
            CatchUp::Each => "each",
            CatchUp::Skip => "skip",
        }
    }

    pub fn parse(s: &str) -> Option<CatchUp> {
        match s.trim().to_ascii_lowercase().as_str() {
            "each" => Some(CatchUp::Each),
            "skip" => Some(CatchUp::Skip),
            _ => None,
        }
    }
}

/// A game's schedule and where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSchedule {
    pub schedule: Schedule,
    pub catch_up: CatchUp,
    /// How long before the deadline players who have sent nothing are reminded.
    pub reminders: Vec<Millis>,
    /// The turn the deadline is for.
    pub for_turn: u32,
    /// `None` when the schedule is manual.
    pub deadline: Option<Millis>,
    pub paused_at: Option<Millis>,
}

impl GameSchedule {
    /// When the turn is run by the clock: the deadline and its grace, unless paused.
    pub fn runs_at(&self) -> Option<Millis> {
        match self.paused_at {
            Some(_) => None,
            None => self.deadline.map(|d| self.schedule.run_at(d)),
        }
    }
}

/// A turn the clock says is to be run now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Due {
    pub game: String,
    pub turn: u32,
    pub deadline: Millis,
    /// Run before its deadline because every living human player has sent orders.
    pub early: bool,
}

/// A reminder to send now: players of `game` who have sent nothing for `turn` are told it
/// is due at `deadline`; `label` ("24h") names which of the game's reminders it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReminderDue {
    pub game: String,
    pub turn: u32,
    pub deadline: Millis,
    pub label: String,
}

type ScheduleRow = (String, String, String, i64, Option<i64>, Option<i64>);

/// The reminder offsets in their written form: "24h,2h".
pub fn reminders_text(offsets: &[Millis]) -> String {
    offsets
        .iter()
        .map(|o| duration_text(*o))
        .collect::<Vec<_>>()
        .join(",")
}

/// Reads the reminder offsets back; unreadable parts are left out.
fn parse_reminders(text: &str) -> Vec<Millis> {
    text.split(',')
        .filter_map(|s| crate::schedule::parse_duration(s.trim()).ok())
        .collect()
}

fn from_row(shown: &str, game: &str, row: ScheduleRow) -> Result<GameSchedule> {
    let (spec, catch_up, reminders, for_turn, deadline, paused_at) = row;
    let schedule = Schedule::parse(&spec).map_err(|e| {
        Error::corrupt(format!(
            "{shown}, game \"{game}\": the kept schedule \"{spec}\" cannot be read: {e}"
        ))
    })?;
    Ok(GameSchedule {
        schedule,
        catch_up: CatchUp::parse(&catch_up).unwrap_or(CatchUp::Each),
        reminders: parse_reminders(&reminders),
        for_turn: for_turn as u32,
        deadline,
        paused_at,
    })
}

/// Where the deadline goes after turn `played` was stored at `now`: the schedule's next
/// deadline after the one just met, so that deadlines stay on the schedule's grid and a
/// host that was down plays one turn per deadline missed ([`CatchUp::Each`]); or, with
/// [`CatchUp::Skip`] or when no deadline was set, the next one after the present. A
/// schedule counted from each play counts from `now`, the play, with the next step's
/// `allowance` unless it gives its own.
pub fn next_deadline(
    schedule: &Schedule,
    catch_up: CatchUp,
    met: Option<Millis>,
    (now, allowance): (Millis, Option<Millis>),
) -> Option<Millis> {
    if let Every::AfterPlay(_) = schedule.every {
        return schedule.next_after_play(now, allowance);
    }
    let from = match (met, catch_up) {
        (Some(d), CatchUp::Each) => d,
        (Some(d), CatchUp::Skip) => d.max(now),
        (None, _) => now,
    };
    let mut next = schedule.next_after(from)?;
    // A schedule of every N hours counts from the deadline met; under `skip` it must still
    // land after the present.
    if catch_up == CatchUp::Skip {
        while next <= now {
            next = schedule.next_after(next)?;
        }
    }
    Some(next)
}

impl SqlStore {
    /// The time game `game`'s next step suggests its seats be given, as its last play
    /// recorded.
    async fn step_allowance(&self, game: &str) -> Result<Option<Millis>> {
        let row: Option<(Option<i64>,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT step_allowance FROM games WHERE name = $1")
                .bind(game)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the game", e))?;
        Ok(row.and_then(|(a,)| a))
    }
}

#[async_trait::async_trait]
impl Schedules for SqlStore {
    async fn schedule_of(&self, game: &str) -> Result<Option<GameSchedule>> {
        let row: Option<ScheduleRow> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT d.spec, d.catch_up, d.reminders, d.for_turn, d.deadline, d.paused_at \
                 FROM schedules d JOIN games g ON g.id = d.game_id WHERE g.name = $1",
            )
            .bind(game)
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot read the schedule", e))?;
        row.map(|r| from_row(&self.shown, game, r)).transpose()
    }

    async fn set_schedule(
        &self,
        game: &str,
        schedule: &Schedule,
        catch_up: CatchUp,
        reminders: &[Millis],
        now: Millis,
    ) -> Result<GameSchedule> {
        let deadline = schedule.next_after_play(now, self.step_allowance(game).await?);
        if deadline.is_none() && schedule.every == Every::AfterPlay(None) {
            return Err(Error::conflict(format!(
                "game \"{game}\": its next step suggests no allowance, so \"after each play\" \
                 needs one: say how long, as in \"after each play 24h\""
            )));
        }
        let spec = schedule.to_string();
        let grace = schedule.grace;
        let early = i64::from(schedule.early);
        let words = match deadline {
            Some(d) => format!(
                "The GM set the schedule to \"{spec}\": orders are next due by {}.",
                schedule.describe(d)
            ),
            None => format!("The GM set the schedule to \"{spec}\": turns are run by hand."),
        };
        let notice = match deadline {
            Some(_) => format!("The GM set the schedule to \"{spec}\"."),
            None => format!("The GM set the schedule to \"{spec}\": turns are run by hand."),
        };
        let reminders = reminders_text(reminders);
        self.schedule_change(game, now, "schedule", (&words, &notice), |id, turn| {
            (
                "INSERT INTO schedules (game_id, spec, grace, early, catch_up, reminders, for_turn, deadline, paused_at, changed_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, $9) \
                 ON CONFLICT (game_id) DO UPDATE SET spec = $2, grace = $3, early = $4, catch_up = $5, \
                 reminders = $6, for_turn = $7, deadline = $8, paused_at = NULL, changed_at = $9",
                vec![
                    Arg::I(id),
                    Arg::S(spec.clone()),
                    Arg::I(grace),
                    Arg::I(early),
                    Arg::S(catch_up.as_str().into()),
                    Arg::S(reminders.clone()),
                    Arg::I(turn + 1),
                    Arg::O(deadline),
                    Arg::I(now),
                ],
            )
        })
        .await?;
        self.schedule_of(game).await?.ok_or_else(|| {
            Error::conflict(format!(
                "game \"{game}\": the schedule was removed meanwhile"
            ))
        })
    }

    async fn pause(&self, game: &str, now: Millis) -> Result<GameSchedule> {
        let current = self.scheduled(game).await?;
        if current.paused_at.is_some() {
            return Err(Error::conflict(format!(
                "game \"{game}\" is paused already"
            )));
        }
        self.schedule_change(
            game,
            now,
            "pause",
            (
                "The GM paused the game: no turn is run until it is resumed.",
                "The GM paused the game: no turn is run until it is resumed.",
            ),
            |id, _| {
                (
                    "UPDATE schedules SET paused_at = $2, changed_at = $2 WHERE game_id = $1",
                    vec![Arg::I(id), Arg::I(now)],
                )
            },
        )
        .await?;
        self.scheduled(game).await
    }

    async fn pause_after_failure(
        &self,
        game: &str,
        turn: u32,
        why: &str,
        now: Millis,
    ) -> Result<GameSchedule> {
        let words = format!(
            "The host paused the game: turn {turn} could not be played. Your GM has been told and will resume it."
        );
        self.schedule_change(game, now, "pause", (&words, &words), |id, _| {
            (
                "UPDATE schedules SET paused_at = $2, changed_at = $2 WHERE game_id = $1 AND paused_at IS NULL",
                vec![Arg::I(id), Arg::I(now)],
            )
        })
        .await?;
        self.audit(
            Some(game),
            now,
            "turn failed",
            &format!("turn {turn} could not be played by the clock: {why}"),
        )
        .await?;
        self.scheduled(game).await
    }

    async fn resume(&self, game: &str, now: Millis) -> Result<GameSchedule> {
        let current = self.scheduled(game).await?;
        if current.paused_at.is_none() {
            return Err(Error::conflict(format!("game \"{game}\" is not paused")));
        }
        let deadline = match current.deadline {
            Some(d) if current.schedule.run_at(d) <= now => current
                .schedule
                .next_after_play(now, self.step_allowance(game).await?),
            other => other,
        };
        let words = match deadline {
            Some(d) => format!(
                "The GM resumed the game: orders for turn {} are due by {}.",
                current.for_turn,
                current.schedule.describe(d)
            ),
            None => "The GM resumed the game.".to_string(),
        };
        self.schedule_change(
            game,
            now,
            "resume",
            (&words, "The GM resumed the game."),
            |id, _| {
            (
                "UPDATE schedules SET paused_at = NULL, deadline = $2, changed_at = $3 WHERE game_id = $1",
                vec![Arg::I(id), Arg::O(deadline), Arg::I(now)],
            )
            },
        )
        .await?;
        self.scheduled(game).await
    }

    async fn extend(&self, game: &str, to: Millis, now: Millis) -> Result<GameSchedule> {
        let current = self.scheduled(game).await?;
        let Some(was) = current.deadline else {
            return Err(Error::conflict(format!(
                "game \"{game}\" has no deadline to extend: its schedule is manual"
            )));
        };
        if to <= now {
            return Err(Error::conflict(format!(
                "game \"{game}\": the new deadline {} is in the past",
                current.schedule.describe(to)
            )));
        }
        if to <= was {
            return Err(Error::conflict(format!(
                "game \"{game}\": the new deadline {} is not later than the present one, {}",
                current.schedule.describe(to),
                current.schedule.describe(was)
            )));
        }
        let words = format!(
            "The GM extended the deadline of turn {}: orders are now due by {}.",
            current.for_turn,
            current.schedule.describe(to)
        );
        let notice = format!("The GM extended the deadline of turn {}.", current.for_turn);
        self.schedule_change(game, now, "extend", (&words, &notice), |id, _| {
            (
                "UPDATE schedules SET deadline = $2, changed_at = $3 WHERE game_id = $1",
                vec![Arg::I(id), Arg::I(to), Arg::I(now)],
            )
        })
        .await?;
        self.scheduled(game).await
    }

    async fn due(&self, now: Millis) -> Result<Vec<Due>> {
        let rows: Vec<(String, i64, i64, i64)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT g.name, d.for_turn, d.deadline, \
                 CAST(CASE WHEN d.deadline + d.grace <= $1 THEN 0 ELSE 1 END AS BIGINT) \
                 FROM schedules d JOIN games g ON g.id = d.game_id \
                 WHERE d.paused_at IS NULL AND d.deadline IS NOT NULL AND g.turn + 1 = d.for_turn \
                 AND (d.deadline + d.grace <= $1 OR (d.early = 1 \
                   AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.status IN ('playing', 'missing') AND s.account_id IS NOT NULL AND s.expected = 1) \
                   AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.status IN ('playing', 'missing') AND s.account_id IS NOT NULL AND s.expected = 1 \
                     AND NOT EXISTS (SELECT 1 FROM submissions u WHERE u.game_id = g.id AND u.empire = s.empire \
                       AND u.for_turn = d.for_turn AND u.consumed_turn IS NULL AND u.status = 'accepted')) \
                   AND (g.step_needs_gm IS NULL OR EXISTS (SELECT 1 FROM submissions r WHERE r.game_id = g.id \
                     AND r.empire = 'rulings' AND r.for_turn = d.for_turn AND r.consumed_turn IS NULL)))) \
                 ORDER BY d.deadline, g.name",
            )
            .bind(now)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the schedules", e))?;
        Ok(rows
            .into_iter()
            .map(|(game, turn, deadline, early)| Due {
                game,
                turn: turn as u32,
                deadline,
                early: early == 1,
            })
            .collect())
    }

    async fn reminders_due(&self, now: Millis) -> Result<Vec<ReminderDue>> {
        let rows: Vec<(String, i64, i64, i64, String)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT g.name, g.id, d.for_turn, d.deadline, d.reminders \
                 FROM schedules d JOIN games g ON g.id = d.game_id \
                 WHERE d.paused_at IS NULL AND d.deadline IS NOT NULL AND d.deadline > $1 \
                 AND d.reminders <> '' AND g.turn + 1 = d.for_turn ORDER BY g.name",
            )
            .bind(now)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the schedules", e))?;
        let mut out = Vec::new();
        for (game, id, turn, deadline, reminders) in rows {
            let sent: Vec<(String,)> = on_pool!(&self.pool, |p| {
                sqlx::query_as(
                    "SELECT label FROM reminders_sent WHERE game_id = $1 AND for_turn = $2",
                )
                .bind(id)
                .bind(turn)
                .fetch_all(p)
                .await
            })
            .map_err(|e| self.err("cannot read the reminders", e))?;
            // Only the latest reminder whose time has come: after downtime, one reminder,
            // not a burst of them.
            let passed = parse_reminders(&reminders)
                .into_iter()
                .filter(|o| deadline - o <= now)
                .min();
            if let Some(o) = passed {
                let label = duration_text(o);
                if !sent.iter().any(|(l,)| *l == label) {
                    out.push(ReminderDue {
                        game,
                        turn: turn as u32,
                        deadline,
                        label,
                    });
                }
            }
        }
        Ok(out)
    }

    async fn reminder_sent(&self, r: &ReminderDue, now: Millis) -> Result<bool> {
        let n = on_pool!(&self.pool, |p| {
            sqlx::query(
                "INSERT INTO reminders_sent (game_id, for_turn, label, sent_at) \
                 SELECT id, $2, $3, $4 FROM games WHERE name = $1 \
                 ON CONFLICT (game_id, for_turn, label) DO NOTHING",
            )
            .bind(&r.game)
            .bind(i64::from(r.turn))
            .bind(&r.label)
            .bind(now)
            .execute(p)
            .await
            .map(|r| r.rows_affected())
        })
        .map_err(|e| self.err("cannot record the reminder", e))?;
        Ok(n == 1)
    }
}

impl SqlStore {
    /// The schedule of `game`, which must have one.
    async fn scheduled(&self, game: &str) -> Result<GameSchedule> {
        self.schedule_of(game).await?.ok_or_else(|| {
            Error::conflict(format!(
                "game \"{game}\" has no schedule: set one first (empires schedule {game} \"...\")"
            ))
        })
    }

    /// Changes a game's schedule row with `change(id, turn)`'s statement, records the GM's
    /// action in the audit log (`words`, with its dates) and announces it to the players
    /// with the next turn's reports (`notice`, which names no date), all in one transaction.
    async fn schedule_change(
        &self,
        game: &str,
        now: Millis,
        action: &str,
        (words, notice): (&str, &str),
        change: impl Fn(i64, i64) -> (&'static str, Vec<Arg>),
    ) -> Result<()> {
        let shown = &self.shown;
        let fail = |what: &'static str| move |e: sqlx::Error| super::db_error(what, shown, e);
        // The announcement is for the turn read here: the read locks the game's row so
        // that no turn is played between the two.
        let read = format!(
            "SELECT g.id, g.turn FROM games g WHERE g.name = $1{}",
            self.share_game()
        );
        let begin = self.begin_write();
        on_pool!(&self.pool, |p| {
            let mut tx = p.begin_with(begin).await.map_err(fail("cannot start"))?;
            let row: Option<(i64, i64)> = sqlx::query_as(&read)
                .bind(game)
                .fetch_optional(&mut *tx)
                .await
                .map_err(fail("cannot read the game"))?;
            let (id, turn) = row.ok_or_else(|| {
                Error::not_found(format!("{shown}: no game named \"{game}\" is kept here"))
            })?;
            let (sql, args) = change(id, turn);
            let mut q = sqlx::query(sql);
            for a in args {
                q = match a {
                    Arg::I(v) => q.bind(v),
                    Arg::O(v) => q.bind(v),
                    Arg::S(v) => q.bind(v),
                };
            }
            q.execute(&mut *tx)
                .await
                .map_err(fail("cannot change the schedule"))?;
            sqlx::query(
                "INSERT INTO audit_log (game_id, at, action, detail) VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(now)
            .bind(action)
            .bind(words)
            .execute(&mut *tx)
            .await
            .map_err(fail("cannot write the audit log"))?;
            // One notice of each kind of change: a newer one replaces any of its kind the
            // players have not read yet (a new schedule every earlier notice of the
            // schedule), and says nothing a later change could make untrue (the report's
            // opening gives the deadline).
            let kind = notice_kind(action);
            let replaced = if kind == "schedule:set" {
                "schedule%"
            } else {
                kind
            };
            sqlx::query(
                "DELETE FROM gm_messages WHERE game_id = $1 AND notice LIKE $2 \
                 AND consumed_turn IS NULL",
            )
            .bind(id)
            .bind(replaced)
            .execute(&mut *tx)
            .await
            .map_err(fail("cannot replace the notice of the schedule"))?;
            sqlx::query(
                "INSERT INTO gm_messages (game_id, for_turn, body, written_at, notice) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(turn + 1)
            .bind(notice.as_bytes())
            .bind(now)
            .bind(kind)
            .execute(&mut *tx)
            .await
            .map_err(fail("cannot announce the change"))?;
            tx.commit()
                .await
                .map_err(fail("cannot change the schedule"))
        })
    }
}

/// A value bound to a schedule statement.
enum Arg {
    I(i64),
    O(Option<i64>),
    S(String),
}

/// The kind of notice a change of the schedule gives the players (`gm_messages.notice`): a
/// pause and a resume are one kind, so the players read where the game stands, not the trail.
fn notice_kind(action: &str) -> &'static str {
    match action {
        "schedule" => "schedule:set",
        "extend" => "schedule:extend",
        _ => "schedule:pause",
    }
}
