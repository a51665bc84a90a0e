//! What was done to an account, by whom, and from which game: its own log, which its
//! owner and the host administrator read. A GM's action on an account is written here
//! and in the acting game's audit log, and never in another GM's game.

use super::{Pool, SqlStore};
use crate::error::Result;
use crate::store::Millis;
use crate::store::prelude::*;

/// One line of an account's log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountLogLine {
    pub at: Millis,
    /// Who acted: the account itself, a GM, the administrator; `None` for the command line.
    pub actor: Option<String>,
    /// The game the action was taken from, if any.
    pub game: Option<String>,
    pub action: String,
    pub detail: String,
}

/// A line's row: time, actor's name, game's name, action, detail.
type LogRow = (Millis, Option<String>, Option<String>, String, String);

#[async_trait::async_trait]
impl AccountLog for SqlStore {
    async fn log_account(
        &self,
        account: i64,
        actor: Option<i64>,
        game: Option<&str>,
        at: Millis,
        action: &str,
        detail: &str,
    ) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "INSERT INTO account_log (account_id, at, actor_id, game_id, action, detail) \
                 VALUES ($1, $2, $3, (SELECT id FROM games WHERE name = $4), $5, $6)",
            )
            .bind(account)
            .bind(at)
            .bind(actor)
            .bind(game)
            .bind(action)
            .bind(detail)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot write the account's log", e))
    }

    async fn account_log(&self, account: i64, limit: i64) -> Result<Vec<AccountLogLine>> {
        let rows: Vec<LogRow> =
            on_pool!(&self.pool, |p| {
                sqlx::query_as(
                    "SELECT l.at, a.name, g.name, l.action, l.detail FROM account_log l \
                     LEFT JOIN accounts a ON a.id = l.actor_id LEFT JOIN games g ON g.id = l.game_id \
                     WHERE l.account_id = $1 ORDER BY l.id DESC LIMIT $2",
                )
                .bind(account)
                .bind(limit)
                .fetch_all(p)
                .await
            })
            .map_err(|e| self.err("cannot read the account's log", e))?;
        Ok(rows
            .into_iter()
            .map(|(at, actor, game, action, detail)| AccountLogLine {
                at,
                actor,
                game,
                action,
                detail,
            })
            .collect())
    }
}
