//! What the mail door keeps in the host's database: each account's mail settings and mail
//! password, the messages already answered, the mail log the GM reads, the outbox of mail
//! waiting to be sent, and which turns' reports have been queued.

use super::{Pool, SqlStore};
use crate::error::Result;
use crate::seat::SeatCode;
use crate::store::Millis;
use crate::store::prelude::*;

/// Which way a message went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    In,
    Out,
}

impl Direction {
    fn as_str(self) -> &'static str {
        match self {
            Direction::In => "in",
            Direction::Out => "out",
        }
    }
}

/// Whether a message was taken in before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// Never: it is read. `id_reused` when another message (another sender, or other
    /// content) came before it with the same Message-ID.
    First { id_reused: bool },
    /// The same message was taken in before: it is delivered again.
    Again,
}

/// One line of the mail log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailLogEntry {
    pub at: Millis,
    /// `in` or `out`.
    pub direction: String,
    /// The sender of a message in, the recipient of a message out.
    pub address: String,
    /// What became of it: `accepted`, `late`, `refused`, `ignored`, `sent`, `retry`, `failed`.
    pub outcome: String,
    pub detail: String,
}

/// A message to send.
#[derive(Debug, Clone)]
pub struct OutMail {
    pub game: Option<String>,
    pub account: Option<i64>,
    /// `receipt`, `refusal`, `report`, `held` (a notice in place of a report not paid for)
    /// or `reminder`.
    pub kind: String,
    /// What the message is for, when only one such message may ever be queued (a turn's
    /// report to one empire): a second message with the same key is not queued.
    pub dedupe: Option<String>,
    pub recipient: String,
    pub subject: String,
    /// The whole message as it goes out.
    pub message: Vec<u8>,
}

/// A message waiting in the outbox.
#[derive(Debug, Clone)]
pub struct Queued {
    pub id: i64,
    pub game: Option<String>,
    pub account: Option<i64>,
    pub recipient: String,
    pub subject: String,
    pub message: Vec<u8>,
    pub attempts: u32,
}

/// A message of the outbox as the GM's console lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEntry {
    pub id: i64,
    pub kind: String,
    pub recipient: String,
    pub subject: String,
    pub created_at: Millis,
    pub attempts: u32,
    pub last_error: Option<String>,
    /// `waiting`, `sent` or `failed`.
    pub state: String,
}

/// Someone who gets a game's reports by mail: the empire, the account and its address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRecipient {
    pub empire: SeatCode,
    pub account: i64,
    pub name: String,
    pub email: String,
    /// Whether the game's next step expects the seat (every seat, unless the game plays in
    /// steps): only these are reminded.
    pub expected: bool,
}

type QueuedRow = (
    i64,
    Option<String>,
    Option<i64>,
    String,
    String,
    Vec<u8>,
    i64,
);
type OutboxRow = (
    i64,
    String,
    String,
    String,
    Millis,
    i64,
    Option<String>,
    Option<Millis>,
    Option<Millis>,
);

#[async_trait::async_trait]
impl Mailroom for SqlStore {
    async fn mail_settings(&self, account: i64) -> Result<(Option<String>, bool)> {
        let row: (Option<String>, i64) = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT email, mail_reports FROM accounts WHERE id = $1")
                .bind(account)
                .fetch_one(p)
                .await
        })
        .map_err(|e| self.err("cannot read the account", e))?;
        Ok((row.0, row.1 != 0))
    }

    async fn set_mail_settings(
        &self,
        account: i64,
        email: Option<&str>,
        mail_reports: bool,
    ) -> Result<()> {
        self.set_address(account, email, mail_reports, true)
            .await
            .map(|_| ())
    }

    async fn set_mail_password(&self, account: i64, hash: &str) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query("UPDATE accounts SET mail_password_hash = $1 WHERE id = $2")
                .bind(hash)
                .bind(account)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot set the mail password", e))
    }

    async fn share_address(&self, account: i64) -> Result<bool> {
        let row: (i64,) = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT CAST(share_address AS BIGINT) FROM accounts WHERE id = $1")
                .bind(account)
                .fetch_one(p)
                .await
        })
        .map_err(|e| self.err("cannot read the account", e))?;
        Ok(row.0 != 0)
    }

    async fn set_share_address(&self, account: i64, share: bool) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query("UPDATE accounts SET share_address = $1 WHERE id = $2")
                .bind(i64::from(share))
                .bind(account)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot change the account", e))
    }

    async fn shared_addresses(&self, game: &str) -> Result<Vec<(SeatCode, String, String)>> {
        let rows: Vec<(String, String, String)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT s.empire, a.name, a.email FROM seats s \
                 JOIN games g ON g.id = s.game_id JOIN accounts a ON a.id = s.account_id \
                 WHERE g.name = $1 AND a.share_address <> 0 AND a.email IS NOT NULL \
                 AND a.email <> '' AND a.email_verified <> 0 ORDER BY s.empire",
            )
            .bind(game)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the seats", e))?;
        Ok(rows
            .into_iter()
            .filter_map(|(seat, name, email)| Some((SeatCode::parse(&seat)?, name, email)))
            .collect())
    }

    async fn mail_password_hash(&self, account: i64) -> Result<Option<String>> {
        let row: Option<(Option<String>,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT mail_password_hash FROM accounts WHERE id = $1")
                .bind(account)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the account", e))?;
        Ok(row.and_then(|r| r.0))
    }

    async fn accounts_by_email(&self, email: &str) -> Result<Vec<i64>> {
        let rows: Vec<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT id FROM accounts WHERE LOWER(email) = LOWER($1) AND email_verified <> 0 ORDER BY id",
            )
                .bind(email)
                .fetch_all(p)
                .await
        })
        .map_err(|e| self.err("cannot read the accounts", e))?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    async fn first_seen(
        &self,
        message_key: &str,
        message_id: Option<&str>,
        now: Millis,
    ) -> Result<Seen> {
        let n = on_pool!(&self.pool, |p| {
            sqlx::query(
                "INSERT INTO mail_seen (message_key, message_id, received_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (message_key) DO NOTHING",
            )
            .bind(message_key)
            .bind(message_id)
            .bind(now)
            .execute(p)
            .await
            .map(|r| r.rows_affected())
        })
        .map_err(|e| self.err("cannot record the message", e))?;
        if n != 1 {
            return Ok(Seen::Again);
        }
        let Some(id) = message_id else {
            return Ok(Seen::First { id_reused: false });
        };
        let other: Option<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT received_at FROM mail_seen WHERE message_id = $1 AND message_key <> $2 LIMIT 1",
            )
            .bind(id)
            .bind(message_key)
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot read the messages seen", e))?;
        Ok(Seen::First {
            id_reused: other.is_some(),
        })
    }

    async fn forget_seen(&self, message_key: &str) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query("DELETE FROM mail_seen WHERE message_key = $1")
                .bind(message_key)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot record the message", e))
    }

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
    ) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "INSERT INTO mail_log (game_id, account_id, at, direction, address, outcome, detail) \
                 VALUES ((SELECT id FROM games WHERE name = $1), $2, $3, $4, $5, $6, $7)",
            )
            .bind(game)
            .bind(account)
            .bind(at)
            .bind(direction.as_str())
            .bind(address)
            .bind(outcome)
            .bind(detail)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot write the mail log", e))
    }

    async fn mail_log(&self, game: Option<&str>, limit: i64) -> Result<Vec<MailLogEntry>> {
        let rows: Vec<(Millis, String, String, String, String)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT at, direction, address, outcome, detail FROM mail_log \
                 WHERE ($1 IS NULL AND game_id IS NULL) OR game_id = (SELECT id FROM games WHERE name = $1) \
                 ORDER BY id DESC LIMIT $2",
            )
            .bind(game)
            .bind(limit)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the mail log", e))?;
        Ok(rows
            .into_iter()
            .rev()
            .map(|(at, direction, address, outcome, detail)| MailLogEntry {
                at,
                direction,
                address,
                outcome,
                detail,
            })
            .collect())
    }

    async fn queue_mail(&self, mail: &OutMail, now: Millis) -> Result<Option<i64>> {
        let row: Option<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "INSERT INTO outbox (game_id, account_id, kind, dedupe, recipient, subject, message, created_at, next_attempt_at) \
                 VALUES ((SELECT id FROM games WHERE name = $1), $2, $3, $4, $5, $6, $7, $8, $8) \
                 ON CONFLICT (dedupe) DO NOTHING RETURNING id",
            )
            .bind(mail.game.as_deref())
            .bind(mail.account)
            .bind(&mail.kind)
            .bind(mail.dedupe.as_deref())
            .bind(&mail.recipient)
            .bind(&mail.subject)
            .bind(&mail.message)
            .bind(now)
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot queue the mail", e))?;
        Ok(row.map(|r| r.0))
    }

    async fn mail_queued_to(&self, recipient: &str, kind: &str, since: Millis) -> Result<i64> {
        let row: (i64,) = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT COUNT(*) FROM outbox WHERE recipient = $1 AND kind = $2 AND created_at >= $3",
            )
            .bind(recipient)
            .bind(kind)
            .bind(since)
            .fetch_one(p)
            .await
        })
        .map_err(|e| self.err("cannot read the outbox", e))?;
        Ok(row.0)
    }

    async fn queue_mail_within(
        &self,
        mail: &OutMail,
        now: Millis,
        since: Millis,
        limit: i64,
    ) -> Result<Option<i64>> {
        let row: Option<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "INSERT INTO outbox (game_id, account_id, kind, dedupe, recipient, subject, message, created_at, next_attempt_at) \
                 SELECT (SELECT id FROM games WHERE name = $1), $2, $3, $4, $5, $6, $7, $8, $8 \
                 WHERE (SELECT COUNT(*) FROM outbox WHERE recipient = $5 AND kind = $3 AND created_at >= $9) < $10 \
                 ON CONFLICT (dedupe) DO NOTHING RETURNING id",
            )
            .bind(mail.game.as_deref())
            .bind(mail.account)
            .bind(&mail.kind)
            .bind(mail.dedupe.as_deref())
            .bind(&mail.recipient)
            .bind(&mail.subject)
            .bind(&mail.message)
            .bind(now)
            .bind(since)
            .bind(limit)
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot queue the mail", e))?;
        Ok(row.map(|r| r.0))
    }

    async fn due_mail(&self, now: Millis, limit: i64) -> Result<Vec<Queued>> {
        let rows: Vec<QueuedRow> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT o.id, g.name, o.account_id, o.recipient, o.subject, o.message, o.attempts \
                 FROM outbox o LEFT JOIN games g ON g.id = o.game_id \
                 WHERE o.sent_at IS NULL AND o.failed_at IS NULL AND o.next_attempt_at <= $1 \
                 ORDER BY o.next_attempt_at, o.id LIMIT $2",
            )
            .bind(now)
            .bind(limit)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the outbox", e))?;
        Ok(rows
            .into_iter()
            .map(
                |(id, game, account, recipient, subject, message, attempts)| Queued {
                    id,
                    game,
                    account,
                    recipient,
                    subject,
                    message,
                    attempts: attempts as u32,
                },
            )
            .collect())
    }

    async fn mail_sent(&self, id: i64, now: Millis) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query("UPDATE outbox SET sent_at = $1, attempts = attempts + 1 WHERE id = $2")
                .bind(now)
                .bind(id)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot update the outbox", e))
    }

    async fn mail_not_sent(
        &self,
        id: i64,
        error: &str,
        retry_at: Option<Millis>,
        now: Millis,
    ) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "UPDATE outbox SET attempts = attempts + 1, last_error = $1, \
                 next_attempt_at = COALESCE($2, next_attempt_at), \
                 failed_at = CASE WHEN $2 IS NULL THEN $3 ELSE NULL END WHERE id = $4",
            )
            .bind(error)
            .bind(retry_at)
            .bind(now)
            .bind(id)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot update the outbox", e))
    }

    async fn retry_mail(&self, game: &str, id: i64, now: Millis) -> Result<bool> {
        let n = on_pool!(&self.pool, |p| {
            sqlx::query(
                "UPDATE outbox SET failed_at = NULL, next_attempt_at = $1 \
                 WHERE id = $2 AND sent_at IS NULL AND game_id = (SELECT id FROM games WHERE name = $3)",
            )
            .bind(now)
            .bind(id)
            .bind(game)
            .execute(p)
            .await
            .map(|r| r.rows_affected())
        })
        .map_err(|e| self.err("cannot update the outbox", e))?;
        Ok(n == 1)
    }

    async fn held_notices(&self, game: &str) -> Result<Vec<String>> {
        let rows: Vec<(String,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT dedupe FROM outbox WHERE game_id = (SELECT id FROM games WHERE name = $1) \
                 AND kind = 'held' AND dedupe IS NOT NULL ORDER BY id",
            )
            .bind(game)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the outbox", e))?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    async fn mail_queued(&self, key: &str) -> Result<bool> {
        let row: Option<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT id FROM outbox WHERE dedupe = $1")
                .bind(key)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the outbox", e))?;
        Ok(row.is_some())
    }

    async fn outbox(&self, game: &str, limit: i64) -> Result<Vec<OutboxEntry>> {
        let rows: Vec<OutboxRow> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT id, kind, recipient, subject, created_at, attempts, last_error, sent_at, failed_at \
                 FROM outbox WHERE game_id = (SELECT id FROM games WHERE name = $1) \
                 ORDER BY id DESC LIMIT $2",
            )
            .bind(game)
            .bind(limit)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the outbox", e))?;
        Ok(rows
            .into_iter()
            .map(
                |(id, kind, recipient, subject, created_at, attempts, last_error, sent, failed)| {
                    let state = match (sent, failed) {
                        (Some(_), _) => "sent",
                        (None, Some(_)) => "failed",
                        _ => "waiting",
                    };
                    OutboxEntry {
                        id,
                        kind,
                        recipient,
                        subject,
                        created_at,
                        attempts: attempts as u32,
                        last_error,
                        state: state.to_string(),
                    }
                },
            )
            .collect())
    }

    async fn outbox_counts(&self) -> Result<(i64, i64, i64)> {
        on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT COALESCE(SUM(CASE WHEN sent_at IS NULL AND failed_at IS NULL THEN 1 ELSE 0 END), 0), \
                 COALESCE(SUM(CASE WHEN sent_at IS NOT NULL THEN 1 ELSE 0 END), 0), \
                 COALESCE(SUM(CASE WHEN failed_at IS NOT NULL THEN 1 ELSE 0 END), 0) FROM outbox",
            )
            .fetch_one(p)
            .await
        })
        .map_err(|e| self.err("cannot read the outbox", e))
    }

    async fn unmailed_turns(&self, game: &str) -> Result<Vec<u32>> {
        let (turn, last): (i64, Option<i64>) = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT g.turn, (SELECT MAX(m.turn) FROM mail_turns m WHERE m.game_id = g.id) \
                 FROM games g WHERE g.name = $1",
            )
            .bind(game)
            .fetch_one(p)
            .await
        })
        .map_err(|e| self.err("cannot read the game", e))?;
        let first = last.map_or(turn, |l| l + 1);
        Ok((first..=turn).map(|t| t as u32).collect())
    }

    async fn turn_mailed(&self, game: &str, turn: u32, now: Millis) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "INSERT INTO mail_turns (game_id, turn, queued_at) \
                 VALUES ((SELECT id FROM games WHERE name = $1), $2, $3) ON CONFLICT DO NOTHING",
            )
            .bind(game)
            .bind(i64::from(turn))
            .bind(now)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot record the mailed turn", e))
    }

    async fn report_recipients(
        &self,
        game: &str,
        reports_only: bool,
    ) -> Result<Vec<ReportRecipient>> {
        let rows: Vec<(String, i64, String, String, i64)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT s.empire, a.id, a.name, a.email, CAST(s.expected AS BIGINT) FROM seats s \
                 JOIN games g ON g.id = s.game_id JOIN accounts a ON a.id = s.account_id \
                 WHERE g.name = $1 AND (a.mail_reports <> 0 OR NOT $2) \
                 AND a.email IS NOT NULL AND a.email <> '' AND a.email_verified <> 0 ORDER BY s.empire",
            )
            .bind(game)
            .bind(reports_only)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the seats", e))?;
        Ok(rows
            .into_iter()
            .filter_map(|(empire, account, name, email, expected)| {
                Some(ReportRecipient {
                    empire: SeatCode::parse(&empire)?,
                    account,
                    name,
                    email,
                    expected: expected != 0,
                })
            })
            .collect())
    }

    async fn seats_of(&self, game: &str, account: i64) -> Result<Vec<SeatCode>> {
        let rows: Vec<(String,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT s.empire FROM seats s JOIN games g ON g.id = s.game_id \
                 WHERE g.name = $1 AND s.account_id = $2 ORDER BY s.empire",
            )
            .bind(game)
            .bind(account)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the seats", e))?;
        Ok(rows
            .into_iter()
            .filter_map(|(e,)| SeatCode::parse(&e))
            .collect())
    }

    async fn game_exists(&self, game: &str) -> Result<bool> {
        let row: Option<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT id FROM games WHERE name = $1")
                .bind(game)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the games", e))?;
        Ok(row.is_some())
    }
}
