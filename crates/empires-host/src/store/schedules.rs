//! Each game's schedule, as the doors ask for it: its deadlines, pauses and reminders, and
//! the turns the clock says are due.

use super::Millis;
use super::sql::{CatchUp, Due, GameSchedule, ReminderDue};
use crate::error::Result;
use crate::schedule::Schedule;

/// The schedules kept by the host's database ([`super::sql::SqlStore`]); a door holds it as
/// `Arc<dyn Schedules>` ([`super::Services`]).
#[async_trait::async_trait]
pub trait Schedules: Send + Sync {
    /// The schedule of `game`, if it has one.
    async fn schedule_of(&self, game: &str) -> Result<Option<GameSchedule>>;

    /// Sets the schedule of `game`: the next turn's deadline is the schedule's first after
    /// `now` (none for a manual schedule). Recorded in the audit log and announced to the
    /// players with the next reports.
    async fn set_schedule(
        &self,
        game: &str,
        schedule: &Schedule,
        catch_up: CatchUp,
        reminders: &[Millis],
        now: Millis,
    ) -> Result<GameSchedule>;

    /// Pauses `game`: no turn is run by the clock until it is resumed.
    async fn pause(&self, game: &str, now: Millis) -> Result<GameSchedule>;

    /// Pauses `game` because its turn could not be played by the clock (a stored state that
    /// does not verify, say): tried again every few seconds it would only fail again. The
    /// players are told the game is paused; the reason goes to the audit log, for the GM.
    async fn pause_after_failure(
        &self,
        game: &str,
        turn: u32,
        why: &str,
        now: Millis,
    ) -> Result<GameSchedule>;

    /// Resumes a paused game. A deadline that passed while it was paused is moved to the
    /// schedule's next after `now`, so that players get a whole turn's time again.
    async fn resume(&self, game: &str, now: Millis) -> Result<GameSchedule>;

    /// Moves the deadline of the next turn to `to`, which must be later than the present
    /// deadline and in the future. The deadlines after it keep to the schedule.
    async fn extend(&self, game: &str, to: Millis, now: Millis) -> Result<GameSchedule>;

    /// The turns the clock says are to be run at `now`: deadlines (with their grace)
    /// passed, or, for games that run early, every living human player the next step
    /// expects has sent orders (a player is a seat an account holds: a seat no one holds is
    /// the computer's, and waits for no one; a game played in steps expects some seats at a
    /// time).
    /// Paused games and games whose next turn is not the one the deadline is for are left.
    async fn due(&self, now: Millis) -> Result<Vec<Due>>;

    /// The reminders to send at `now`: for each game not paused, each reminder time passed
    /// before a deadline still ahead, not sent before for that turn. Call
    /// [`Self::reminder_sent`] once it is queued.
    async fn reminders_due(&self, now: Millis) -> Result<Vec<ReminderDue>>;

    /// Records that a reminder was sent; `false` if it had been already (another process).
    async fn reminder_sent(&self, r: &ReminderDue, now: Millis) -> Result<bool>;
}
