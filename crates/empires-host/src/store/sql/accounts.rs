//! Who may do what on a host: accounts (players and GMs), their log-in sessions and API
//! tokens, the one-time links a GM hands out, which GM runs which game and which account
//! holds which seat. Every secret (a session's cookie, a token, a link) is kept only as its
//! SHA-256, so a copy of the database lets no one in; password hashes are made by the door
//! that takes the password.

use super::{Pool, SqlStore};
use crate::error::{Error, Result};
use crate::seat::SeatCode;
use crate::store::Millis;
use crate::store::prelude::*;

/// What an account may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Plays the empires whose seats it holds.
    Player,
    /// Runs games: creates them, sees everything of the games it runs.
    Gm,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Gm => "gm",
        }
    }

    fn parse(s: &str) -> Role {
        if s == "gm" { Role::Gm } else { Role::Player }
    }
}

/// An account as a door sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: i64,
    pub name: String,
    pub email: Option<String>,
    pub role: Role,
    /// The password's hash (PHC string); `None` until a password is set.
    pub password_hash: Option<String>,
    /// The host administrator: a GM who also makes GMs and recovers any account.
    pub admin: bool,
    /// The GM that made the account for one of its games, and that game's id, while the
    /// owner has not yet set a password of their own: that GM alone may hand the account
    /// an invitation link or a mail password. `None` once the owner has taken it over.
    pub managed: Option<(i64, i64)>,
    /// Whether the owner has shown that `email` is theirs.
    pub email_verified: bool,
}

type AccountRow = (
    i64,
    String,
    Option<String>,
    String,
    Option<String>,
    i64,
    Option<i64>,
    Option<i64>,
    i64,
);
/// An account's row and its session's CSRF token.
type SessionRow = (
    i64,
    String,
    Option<String>,
    String,
    Option<String>,
    i64,
    Option<i64>,
    Option<i64>,
    i64,
    String,
);
/// A seat's row: empire, account id and name, status, missed turns.
type SeatRow = (String, Option<i64>, Option<String>, String, i64);

fn account(row: AccountRow) -> Account {
    let (id, name, email, role, password_hash, admin, managed_by, managed_game, verified) = row;
    Account {
        id,
        name,
        email,
        role: Role::parse(&role),
        password_hash,
        admin: admin != 0,
        managed: managed_by.zip(managed_game),
        email_verified: verified != 0,
    }
}

const ACCOUNT_COLUMNS: &str = "a.id, a.name, a.email, a.role, a.password_hash, a.admin, \
     a.managed_by, a.managed_game, a.email_verified";

/// What a one-time link is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkPurpose {
    /// A new player's first password, for the seat they were invited to.
    Invite,
    /// A new password for an account that forgot its own.
    Reset,
}

impl LinkPurpose {
    fn as_str(self) -> &'static str {
        match self {
            LinkPurpose::Invite => "invite",
            LinkPurpose::Reset => "reset",
        }
    }
}

/// A game as its list on a player's or GM's page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEntry {
    pub name: String,
    pub title: String,
    pub turn: u32,
    /// The seat (empire, kingdom) the account plays in it; `None` on a GM's list.
    pub empire: Option<SeatCode>,
}

/// A seat of a game, as the GM's console shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub empire: SeatCode,
    /// The account holding it, if any: (id, name).
    pub account: Option<(i64, String)>,
    /// playing, missing, dropped, dummy or eliminated (2.5).
    pub status: String,
    pub missed_turns: u32,
}

/// An API token as its owner's list shows it (never the token itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenEntry {
    pub id: i64,
    pub label: String,
    pub created_at: Millis,
    pub revoked_at: Option<Millis>,
}

/// Ends every session of an account and revokes its live API tokens, in the transaction
/// `$tx` (of either backend): what a new password does to whoever held the old one.
macro_rules! shut_out {
    ($tx:ident, $account:expr, $now:expr) => {
        sqlx::query("DELETE FROM sessions WHERE account_id = $1")
            .bind($account)
            .execute(&mut *$tx)
            .await?;
        sqlx::query(
            "UPDATE api_tokens SET revoked_at = $1 WHERE account_id = $2 AND revoked_at IS NULL",
        )
        .bind($now)
        .bind($account)
        .execute(&mut *$tx)
        .await?;
        // A browser that knew the old password is no longer one the log-in limit trusts.
        sqlx::query("DELETE FROM login_devices WHERE account_id = $1")
            .bind($account)
            .execute(&mut *$tx)
            .await?;
        // Nor are the feeds' URLs handed out under it.
        sqlx::query("UPDATE accounts SET feed_sha256 = NULL WHERE id = $1")
            .bind($account)
            .execute(&mut *$tx)
            .await?;
    };
}

#[async_trait::async_trait]
impl AccountRecords for SqlStore {
    async fn create_account(
        &self,
        name: &str,
        email: Option<&str>,
        role: Role,
        password_hash: Option<&str>,
        now: Millis,
    ) -> Result<i64> {
        let row: sqlx::Result<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "INSERT INTO accounts (name, email, role, password_hash, created_at) \
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
            )
            .bind(name)
            .bind(email)
            .bind(role.as_str())
            .bind(password_hash)
            .bind(now)
            .fetch_one(p)
            .await
        });
        match row {
            Ok((id,)) => Ok(id),
            Err(e) => {
                let e = self.err("cannot create the account", e);
                if e.kind() == crate::error::Kind::Conflict {
                    Err(Error::conflict(format!(
                        "an account named \"{name}\" already exists"
                    )))
                } else {
                    Err(e)
                }
            }
        }
    }

    async fn create_managed_account(
        &self,
        name: &str,
        gm: i64,
        game: &str,
        now: Millis,
    ) -> Result<i64> {
        let row: sqlx::Result<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "INSERT INTO accounts (name, role, created_at, managed_by, managed_game) \
                 VALUES ($1, 'player', $2, $3, (SELECT id FROM games WHERE name = $4)) RETURNING id",
            )
            .bind(name)
            .bind(now)
            .bind(gm)
            .bind(game)
            .fetch_one(p)
            .await
        });
        row.map(|(id,)| id).map_err(|e| {
            let e = self.err("cannot create the account", e);
            if e.kind() == crate::error::Kind::Conflict {
                Error::conflict(format!("an account named \"{name}\" already exists"))
            } else {
                e
            }
        })
    }

    async fn mail_count_since(&self, account: i64, kind: &str, since: Millis) -> Result<i64> {
        let (n,): (i64,) = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT COUNT(*) FROM outbox WHERE account_id = $1 AND kind = $2 AND created_at >= $3",
            )
            .bind(account)
            .bind(kind)
            .bind(since)
            .fetch_one(p)
            .await
        })
        .map_err(|e| self.err("cannot read the outbox", e))?;
        Ok(n)
    }

    async fn set_email_verified(&self, account: i64, verified: bool) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query("UPDATE accounts SET email_verified = $1 WHERE id = $2")
                .bind(i64::from(verified))
                .bind(account)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot change the account", e))
    }

    async fn mark_managed(&self, account: i64, gm: i64, game: &str) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "UPDATE accounts SET managed_by = $1, managed_game = (SELECT id FROM games WHERE name = $2) \
                 WHERE id = $3 AND password_hash IS NULL AND managed_by IS NULL",
            )
            .bind(gm)
            .bind(game)
            .bind(account)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot change the account", e))
    }

    async fn manages(&self, gm: i64, account: i64, game: &str) -> Result<bool> {
        let row: Option<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT a.id FROM accounts a JOIN games g ON g.id = a.managed_game \
                 WHERE a.id = $1 AND a.managed_by = $2 AND g.name = $3 AND g.gm_account_id = $2 \
                 AND a.password_hash IS NULL",
            )
            .bind(account)
            .bind(gm)
            .bind(game)
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot read the accounts", e))?;
        Ok(row.is_some())
    }

    async fn set_role(&self, account: i64, role: Role, admin: bool) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query("UPDATE accounts SET role = $1, admin = $2 WHERE id = $3")
                .bind(role.as_str())
                .bind(i64::from(admin))
                .bind(account)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot change the account", e))
    }

    async fn ensure_admin(&self) -> Result<Option<String>> {
        let row: Option<(String,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "UPDATE accounts SET admin = 1 WHERE id = (SELECT MIN(id) FROM accounts WHERE role = 'gm') \
                 AND NOT EXISTS (SELECT 1 FROM accounts WHERE admin = 1) RETURNING name",
            )
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot change the account", e))?;
        Ok(row.map(|(n,)| n))
    }

    async fn account_by_name(&self, name: &str) -> Result<Option<Account>> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.name = $1");
        let row: Option<AccountRow> = on_pool!(&self.pool, |p| {
            sqlx::query_as(&sql).bind(name).fetch_optional(p).await
        })
        .map_err(|e| self.err("cannot read the accounts", e))?;
        Ok(row.map(account))
    }

    async fn set_feed(&self, account: i64, token_sha256: Option<&str>) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query("UPDATE accounts SET feed_sha256 = $1 WHERE id = $2")
                .bind(token_sha256)
                .bind(account)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot change the account", e))
    }

    async fn has_feed(&self, account: i64) -> Result<bool> {
        let row: Option<(Option<String>,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT feed_sha256 FROM accounts WHERE id = $1")
                .bind(account)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the accounts", e))?;
        Ok(matches!(row, Some((Some(_),))))
    }

    async fn account_by_feed(&self, token_sha256: &str) -> Result<Option<i64>> {
        let row: Option<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT id FROM accounts WHERE feed_sha256 = $1")
                .bind(token_sha256)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the accounts", e))?;
        Ok(row.map(|(id,)| id))
    }

    async fn account(&self, id: i64) -> Result<Account> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = $1");
        let row: Option<AccountRow> = on_pool!(&self.pool, |p| sqlx::query_as(&sql)
            .bind(id)
            .fetch_optional(p)
            .await)
        .map_err(|e| self.err("cannot read the accounts", e))?;
        row.map(account)
            .ok_or_else(|| Error::not_found("no such account"))
    }

    async fn accounts(&self) -> Result<Vec<Account>> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts a ORDER BY a.name");
        let rows: Vec<AccountRow> =
            on_pool!(&self.pool, |p| sqlx::query_as(&sql).fetch_all(p).await)
                .map_err(|e| self.err("cannot read the accounts", e))?;
        Ok(rows.into_iter().map(account).collect())
    }

    async fn gm_count(&self) -> Result<i64> {
        let (n,): (i64,) = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT COUNT(*) FROM accounts WHERE role = 'gm'")
                .fetch_one(p)
                .await
        })
        .map_err(|e| self.err("cannot read the accounts", e))?;
        Ok(n)
    }

    async fn set_password(&self, account: i64, hash: &str, now: Millis) -> Result<()> {
        on_pool!(&self.pool, |p| async {
            let mut tx = p.begin().await?;
            sqlx::query(
                "UPDATE accounts SET password_hash = $1, managed_by = NULL, managed_game = NULL \
                 WHERE id = $2",
            )
            .bind(hash)
            .bind(account)
            .execute(&mut *tx)
            .await?;
            shut_out!(tx, account, now);
            tx.commit().await
        }
        .await)
        .map_err(|e| self.err("cannot set the password", e))
    }

    async fn create_session(
        &self,
        token_sha256: &str,
        account: i64,
        csrf: &str,
        now: Millis,
        expires_at: Millis,
    ) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "INSERT INTO sessions (token_sha256, account_id, csrf, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(token_sha256)
            .bind(account)
            .bind(csrf)
            .bind(now)
            .bind(expires_at)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot start the session", e))
    }

    async fn session(&self, token_sha256: &str, now: Millis) -> Result<Option<(Account, String)>> {
        let sql = format!(
            "SELECT {ACCOUNT_COLUMNS}, s.csrf FROM sessions s JOIN accounts a ON a.id = s.account_id \
             WHERE s.token_sha256 = $1 AND s.expires_at > $2"
        );
        let row: Option<SessionRow> = on_pool!(&self.pool, |p| {
            sqlx::query_as(&sql)
                .bind(token_sha256)
                .bind(now)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the session", e))?;
        Ok(row.map(
            |(id, name, email, role, hash, admin, by, game, verified, csrf)| {
                (
                    account((id, name, email, role, hash, admin, by, game, verified)),
                    csrf,
                )
            },
        ))
    }

    async fn end_session(&self, token_sha256: &str, now: Millis) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query("DELETE FROM sessions WHERE token_sha256 = $1 OR expires_at <= $2")
                .bind(token_sha256)
                .bind(now)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot end the session", e))
    }

    async fn create_token(
        &self,
        account: i64,
        label: &str,
        token_sha256: &str,
        now: Millis,
    ) -> Result<i64> {
        let (id,): (i64,) = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "INSERT INTO api_tokens (account_id, label, token_sha256, created_at) \
                 VALUES ($1, $2, $3, $4) RETURNING id",
            )
            .bind(account)
            .bind(label)
            .bind(token_sha256)
            .bind(now)
            .fetch_one(p)
            .await
        })
        .map_err(|e| self.err("cannot keep the token", e))?;
        Ok(id)
    }

    async fn tokens(&self, account: i64) -> Result<Vec<TokenEntry>> {
        let rows: Vec<(i64, String, i64, Option<i64>)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT id, label, created_at, revoked_at FROM api_tokens \
                 WHERE account_id = $1 ORDER BY id DESC",
            )
            .bind(account)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the tokens", e))?;
        Ok(rows
            .into_iter()
            .map(|(id, label, created_at, revoked_at)| TokenEntry {
                id,
                label,
                created_at,
                revoked_at,
            })
            .collect())
    }

    async fn revoke_token(&self, account: i64, id: i64, now: Millis) -> Result<bool> {
        let done = on_pool!(&self.pool, |p| {
            sqlx::query(
                "UPDATE api_tokens SET revoked_at = $1 \
                 WHERE id = $2 AND account_id = $3 AND revoked_at IS NULL",
            )
            .bind(now)
            .bind(id)
            .bind(account)
            .execute(p)
            .await
            .map(|r| r.rows_affected())
        })
        .map_err(|e| self.err("cannot revoke the token", e))?;
        Ok(done == 1)
    }

    async fn token_account(&self, token_sha256: &str) -> Result<Option<Account>> {
        let sql = format!(
            "SELECT {ACCOUNT_COLUMNS} FROM api_tokens t JOIN accounts a ON a.id = t.account_id \
             WHERE t.token_sha256 = $1 AND t.revoked_at IS NULL"
        );
        let row: Option<AccountRow> = on_pool!(&self.pool, |p| {
            sqlx::query_as(&sql)
                .bind(token_sha256)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the tokens", e))?;
        Ok(row.map(account))
    }

    async fn create_link(
        &self,
        token_sha256: &str,
        purpose: LinkPurpose,
        account: i64,
        created_by: i64,
        now: Millis,
        expires_at: Millis,
    ) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "INSERT INTO links (token_sha256, purpose, account_id, created_by, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(token_sha256)
            .bind(purpose.as_str())
            .bind(account)
            .bind(created_by)
            .bind(now)
            .bind(expires_at)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot keep the link", e))
    }

    async fn link_account(
        &self,
        token_sha256: &str,
        purpose: LinkPurpose,
        now: Millis,
    ) -> Result<Option<Account>> {
        let sql = format!(
            "SELECT {ACCOUNT_COLUMNS} FROM links l JOIN accounts a ON a.id = l.account_id \
             WHERE l.token_sha256 = $1 AND l.purpose = $2 AND l.used_at IS NULL AND l.expires_at > $3"
        );
        let row: Option<AccountRow> = on_pool!(&self.pool, |p| {
            sqlx::query_as(&sql)
                .bind(token_sha256)
                .bind(purpose.as_str())
                .bind(now)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the link", e))?;
        Ok(row.map(account))
    }

    async fn redeem_link(
        &self,
        token_sha256: &str,
        purpose: LinkPurpose,
        password_hash: &str,
        now: Millis,
    ) -> Result<Option<i64>> {
        let done: sqlx::Result<Option<i64>> = on_pool!(&self.pool, |p| {
            async {
            let mut tx = p.begin().await?;
            let row: Option<(i64,)> = sqlx::query_as(
                "UPDATE links SET used_at = $1 \
                 WHERE token_sha256 = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > $1 \
                 RETURNING account_id",
            )
            .bind(now)
            .bind(token_sha256)
            .bind(purpose.as_str())
            .fetch_optional(&mut *tx)
            .await?;
            if let Some((id,)) = row {
                sqlx::query(
                    "UPDATE accounts SET password_hash = $1, managed_by = NULL, managed_game = NULL \
                     WHERE id = $2",
                )
                .bind(password_hash)
                .bind(id)
                .execute(&mut *tx)
                .await?;
                shut_out!(tx, id, now);
            }
            tx.commit().await?;
            Ok(row.map(|(id,)| id))
        }
        .await
        });
        done.map_err(|e| self.err("cannot use the link", e))
    }

    async fn games_played_by(&self, account: i64) -> Result<Vec<GameEntry>> {
        let rows: Vec<(String, String, i64, String)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT g.name, g.title, g.turn, s.empire FROM seats s JOIN games g ON g.id = s.game_id \
                 WHERE s.account_id = $1 ORDER BY g.name, s.empire",
            )
            .bind(account)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the games", e))?;
        Ok(rows
            .into_iter()
            .map(|(name, title, turn, empire)| GameEntry {
                name,
                title,
                turn: turn as u32,
                empire: SeatCode::parse(&empire),
            })
            .collect())
    }

    async fn games_run_by(&self, account: i64) -> Result<Vec<GameEntry>> {
        let rows: Vec<(String, String, i64)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT name, title, turn FROM games WHERE gm_account_id = $1 ORDER BY name",
            )
            .bind(account)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the games", e))?;
        Ok(rows
            .into_iter()
            .map(|(name, title, turn)| GameEntry {
                name,
                title,
                turn: turn as u32,
                empire: None,
            })
            .collect())
    }

    async fn game_gm(&self, game: &str) -> Result<Option<i64>> {
        let row: Option<(Option<i64>,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT gm_account_id FROM games WHERE name = $1")
                .bind(game)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the game", e))?;
        row.map(|(gm,)| gm)
            .ok_or_else(|| Error::not_found(format!("no game named \"{game}\"")))
    }

    async fn set_game_gm(&self, game: &str, gm: i64) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query("UPDATE games SET gm_account_id = $1 WHERE name = $2")
                .bind(gm)
                .bind(game)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot give the game to its GM", e))
    }

    async fn adopt_games(&self, gm: i64) -> Result<Vec<String>> {
        let rows: Vec<(String,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "UPDATE games SET gm_account_id = $1 WHERE gm_account_id IS NULL RETURNING name",
            )
            .bind(gm)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot give the games to their GM", e))?;
        let mut names: Vec<String> = rows.into_iter().map(|(n,)| n).collect();
        names.sort();
        Ok(names)
    }

    async fn seat_of(&self, game: &str, account: i64) -> Result<Option<SeatCode>> {
        let row: Option<(String,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT s.empire FROM seats s JOIN games g ON g.id = s.game_id \
                 WHERE g.name = $1 AND s.account_id = $2 ORDER BY s.empire LIMIT 1",
            )
            .bind(game)
            .bind(account)
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot read the seats", e))?;
        Ok(row.and_then(|(e,)| SeatCode::parse(&e)))
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
        Ok(rows.iter().filter_map(|(e,)| SeatCode::parse(e)).collect())
    }

    async fn seats(&self, game: &str) -> Result<Vec<Seat>> {
        let rows: Vec<SeatRow> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT s.empire, a.id, a.name, s.status, s.missed_turns \
                     FROM seats s JOIN games g ON g.id = s.game_id \
                     LEFT JOIN accounts a ON a.id = s.account_id \
                     WHERE g.name = $1 ORDER BY s.empire",
            )
            .bind(game)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the seats", e))?;
        Ok(rows
            .into_iter()
            .filter_map(|(empire, id, name, status, missed)| {
                Some(Seat {
                    empire: SeatCode::parse(&empire)?,
                    account: id.zip(name),
                    status,
                    missed_turns: missed as u32,
                })
            })
            .collect())
    }

    async fn assign_seat(
        &self,
        game: &str,
        empire: SeatCode,
        account: Option<i64>,
        now: Millis,
    ) -> Result<()> {
        let done = on_pool!(&self.pool, |p| async {
            let mut tx = p.begin().await?;
            let n = sqlx::query(
                "UPDATE seats SET account_id = $1 \
                 WHERE empire = $2 AND game_id = (SELECT id FROM games WHERE name = $3)",
            )
            .bind(account)
            .bind(empire.as_str())
            .bind(game)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            sqlx::query(
                "UPDATE seat_invitations SET answered_at = $1, answer = 'withdrawn' \
                 WHERE seat = $2 AND answered_at IS NULL \
                 AND game_id = (SELECT id FROM games WHERE name = $3)",
            )
            .bind(now)
            .bind(empire.as_str())
            .bind(game)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok::<u64, sqlx::Error>(n)
        }
        .await)
        .map_err(|e| self.err("cannot assign the seat", e))?;
        if done == 0 {
            return Err(Error::not_found(format!(
                "game \"{game}\" has no empire {empire}"
            )));
        }
        Ok(())
    }

    async fn audit_by(
        &self,
        game: Option<&str>,
        account: i64,
        at: Millis,
        action: &str,
        detail: &str,
    ) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "INSERT INTO audit_log (game_id, account_id, at, action, detail) \
                 VALUES ((SELECT id FROM games WHERE name = $1), $2, $3, $4, $5)",
            )
            .bind(game)
            .bind(account)
            .bind(at)
            .bind(action)
            .bind(detail)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot write the audit log", e))
    }

    async fn audit_entries(
        &self,
        game: &str,
    ) -> Result<Vec<(Millis, Option<String>, String, String)>> {
        on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT l.at, a.name, l.action, l.detail FROM audit_log l \
                 LEFT JOIN accounts a ON a.id = l.account_id \
                 WHERE l.game_id = (SELECT id FROM games WHERE name = $1) ORDER BY l.id",
            )
            .bind(game)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the audit log", e))
    }

    async fn latest_sheet(
        &self,
        game: &str,
        empire: SeatCode,
        for_turn: u32,
    ) -> Result<Option<(Vec<u8>, String, Millis)>> {
        on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT body, sha256, received_at FROM submissions \
                 WHERE game_id = (SELECT id FROM games WHERE name = $1) AND empire = $2 AND for_turn = $3 \
                 ORDER BY id DESC LIMIT 1",
            )
            .bind(game)
            .bind(empire.as_str())
            .bind(i64::from(for_turn))
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot read the turnsheets", e))
    }

    async fn version(&self, game: &str) -> Result<(u32, i64)> {
        let row: Option<(i64, i64)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT turn, claims FROM games WHERE name = $1")
                .bind(game)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the game", e))?;
        row.map(|(t, c)| (t as u32, c))
            .ok_or_else(|| Error::not_found(format!("no game named \"{game}\"")))
    }

    async fn sheet_count(&self, game: &str) -> Result<i64> {
        let (n,): (i64,) = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT COUNT(*) FROM submissions WHERE game_id = (SELECT id FROM games WHERE name = $1)",
            )
            .bind(game)
            .fetch_one(p)
            .await
        })
        .map_err(|e| self.err("cannot count the turnsheets", e))?;
        Ok(n)
    }
}
