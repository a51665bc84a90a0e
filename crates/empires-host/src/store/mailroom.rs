//! The host's mail, as the doors ask for it: each player's mail settings and password,
//! the outbox and its log, the messages already read, and which turns' reports are mailed.

use super::sql::{Direction, MailLogEntry, OutMail, OutboxEntry, Queued, ReportRecipient, Seen};
use super::{Millis, SeatCode};
use crate::error::Result;

/// The mail kept by the host's database ([`super::sql::SqlStore`]); a door holds it as
/// `Arc<dyn Mailroom>` ([`super::Services`]).
#[async_trait::async_trait]
pub trait Mailroom: Send + Sync {
    /// An account's mail settings: its address and whether it wants its reports by mail.
    async fn mail_settings(&self, account: i64) -> Result<(Option<String>, bool)>;

    /// Sets an account's address (`None` for none) and whether its reports are mailed, as
    /// whoever runs the host does it: the address is taken as verified. A player's own
    /// change goes through [`super::Accounts::set_address`], and waits for its proof.
    async fn set_mail_settings(
        &self,
        account: i64,
        email: Option<&str>,
        mail_reports: bool,
    ) -> Result<()>;

    /// Sets the hash of an account's mail password, the proof a turnsheet sent by mail
    /// carries in its header.
    async fn set_mail_password(&self, account: i64, hash: &str) -> Result<()>;

    /// The hash of an account's mail password, if one was issued.
    async fn mail_password_hash(&self, account: i64) -> Result<Option<String>>;

    /// Whether the account lets the rulers it sends an ambassador to see its confirmed
    /// address (off until the player turns it on).
    async fn share_address(&self, account: i64) -> Result<bool>;

    /// Turns the sharing of the account's address with ambassadors' hosts on or off.
    async fn set_share_address(&self, account: i64, share: bool) -> Result<()>;

    /// The seats of `game` whose player shares a confirmed address, each with the player's
    /// name and the address, in the order of the seats' codes.
    async fn shared_addresses(&self, game: &str) -> Result<Vec<(SeatCode, String, String)>>;

    /// The accounts whose address on record is `email` (compared without regard to case),
    /// once verified: a sheet from an address not yet proved is a stranger's.
    async fn accounts_by_email(&self, email: &str) -> Result<Vec<i64>>;

    /// Records that a message was taken in. `message_key` names the message (the same key
    /// is the same message delivered again); `message_id` is its Message-ID, if it has one,
    /// so that another message reusing it is noticed.
    async fn first_seen(
        &self,
        message_key: &str,
        message_id: Option<&str>,
        now: Millis,
    ) -> Result<Seen>;

    /// Forgets that a message was taken in, when it could not be dealt with (the database
    /// failed half-way): a later delivery of it is then dealt with afresh.
    async fn forget_seen(&self, message_key: &str) -> Result<()>;

    /// Writes a line of the mail log, for the GM of `game` (or, for no game, the host's).
    #[allow(clippy::too_many_arguments)]
    async fn log_mail(
        &self,
        game: Option<&str>,
        account: Option<i64>,
        at: Millis,
        direction: Direction,
        address: &str,
        outcome: &str,
        detail: &str,
    ) -> Result<()>;

    /// The mail log of a game (`None`: the entries of no game), oldest first, the last
    /// `limit` entries.
    async fn mail_log(&self, game: Option<&str>, limit: i64) -> Result<Vec<MailLogEntry>>;

    /// Puts a message in the outbox, to be sent at once; `None` if a message with the same
    /// `dedupe` key was queued before.
    async fn queue_mail(&self, mail: &OutMail, now: Millis) -> Result<Option<i64>>;

    /// How many messages of `kind` were queued to `recipient` (the address exactly as it
    /// was queued: an account's address on record) since `since`.
    async fn mail_queued_to(&self, recipient: &str, kind: &str, since: Millis) -> Result<i64>;

    /// Puts a message in the outbox as [`Self::queue_mail`] does, unless `limit` or more
    /// messages of its kind were queued to its recipient since `since`: `None` then. The
    /// count and the insert are one statement, so processes queueing at once share the
    /// count (on SQLite exactly, writes being one at a time; on PostgreSQL two statements at
    /// the very same moment may each see the count below the limit).
    async fn queue_mail_within(
        &self,
        mail: &OutMail,
        now: Millis,
        since: Millis,
        limit: i64,
    ) -> Result<Option<i64>>;

    /// Messages due to be sent now, oldest first, at most `limit`.
    async fn due_mail(&self, now: Millis, limit: i64) -> Result<Vec<Queued>>;

    /// Records that a message was handed to the mail server.
    async fn mail_sent(&self, id: i64, now: Millis) -> Result<()>;

    /// Records a failed attempt: tried again at `retry_at`, or given up (`None`).
    async fn mail_not_sent(
        &self,
        id: i64,
        error: &str,
        retry_at: Option<Millis>,
        now: Millis,
    ) -> Result<()>;

    /// Puts a message given up on back in the outbox, to be tried again at once.
    async fn retry_mail(&self, game: &str, id: i64, now: Millis) -> Result<bool>;

    /// The keys of the notices sent in place of reports held back for payment in `game`
    /// (`held:GAME:TURN:EMPIRE`, 2.10): few, and only in games whose turns are paid for.
    async fn held_notices(&self, game: &str) -> Result<Vec<String>>;

    /// Whether a message with this key (`report:GAME:TURN:EMPIRE`) has been queued.
    async fn mail_queued(&self, key: &str) -> Result<bool>;

    /// A game's outbox, newest first, at most `limit` messages (never their bodies).
    async fn outbox(&self, game: &str, limit: i64) -> Result<Vec<OutboxEntry>>;

    /// How many messages of the whole outbox are waiting, sent and given up on.
    async fn outbox_counts(&self) -> Result<(i64, i64, i64)>;

    /// The turns of a game whose reports are still to be mailed: every turn after the last
    /// one queued, or the current turn alone if none ever was (a game older than its mail).
    async fn unmailed_turns(&self, game: &str) -> Result<Vec<u32>>;

    /// Records that a turn's reports are queued.
    async fn turn_mailed(&self, game: &str, turn: u32, now: Millis) -> Result<()>;

    /// Who gets a game's reports by mail: every seat held by an account with a verified
    /// address that asked for them (or, with `reports_only` false, every seat held by an account
    /// with an address), in the order of the empires' codes.
    async fn report_recipients(
        &self,
        game: &str,
        reports_only: bool,
    ) -> Result<Vec<ReportRecipient>>;

    /// The empires an account holds in a game, in the order of their codes.
    async fn seats_of(&self, game: &str, account: i64) -> Result<Vec<SeatCode>>;

    /// Whether a game of that name exists.
    async fn game_exists(&self, game: &str) -> Result<bool>;
}
