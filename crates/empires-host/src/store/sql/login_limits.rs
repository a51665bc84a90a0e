//! The web door's log-in rate limit, kept in the database so that every `serve` process on
//! it counts together and a restart does not start the count again: tries counted by key
//! (an account name, an address, a device) within a window, and the browsers known to have
//! logged in to an account (their device cookie's SHA-256, never the cookie).
//!
//! A try is reserved before the password is checked ([`SqlStore::reserve_login_try`]): one
//! statement per key that counts the try only while the key has tries left, all keys in
//! one transaction, so that concurrent attempts, in one process or several, never get more
//! tries than the limit. What the keys are and how many tries each has is the door's
//! business; the store only counts.

use super::{Pool, SqlStore};
use crate::error::Result;
use crate::store::Millis;
use crate::store::prelude::*;

/// Counts one try on a key, unless its window is still open and it has no try left; a
/// window that has passed starts again with this try. Returns the row only when counted.
const RESERVE: &str = "INSERT INTO login_limits (limit_key, window_start, tries) VALUES ($1, $2, 1) \
     ON CONFLICT (limit_key) DO UPDATE SET \
     window_start = CASE WHEN login_limits.window_start <= $3 THEN $2 ELSE login_limits.window_start END, \
     tries = CASE WHEN login_limits.window_start <= $3 THEN 1 ELSE login_limits.tries + 1 END \
     WHERE login_limits.window_start <= $3 OR login_limits.tries < $4 \
     RETURNING tries";

#[async_trait::async_trait]
impl LoginLimits for SqlStore {
    async fn reserve_login_try(
        &self,
        keys: &[(&str, i64)],
        now: Millis,
        window: Millis,
    ) -> Result<bool> {
        let mut keys = keys.to_vec();
        keys.sort();
        keys.dedup_by(|a, b| a.0 == b.0);
        let expired = now - window;
        on_pool!(&self.pool, |p| async {
            let mut tx = p.begin().await?;
            for (key, max) in &keys {
                let counted: Option<(i64,)> = sqlx::query_as(RESERVE)
                    .bind(*key)
                    .bind(now)
                    .bind(expired)
                    .bind(*max)
                    .fetch_optional(&mut *tx)
                    .await?;
                if counted.is_none() {
                    tx.rollback().await?;
                    return Ok(false);
                }
            }
            tx.commit().await?;
            Ok(true)
        }
        .await)
        .map_err(|e| self.err("cannot count the log-in try", e))
    }

    async fn release_login_try(&self, keys: &[&str]) -> Result<()> {
        for key in keys {
            on_pool!(&self.pool, |p| {
                sqlx::query(
                    "UPDATE login_limits SET tries = tries - 1 WHERE limit_key = $1 AND tries > 0",
                )
                .bind(*key)
                .execute(p)
                .await
                .map(|_| ())
            })
            .map_err(|e| self.err("cannot give back the log-in try", e))?;
        }
        Ok(())
    }

    async fn clear_login_tries(&self, key: &str) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query("DELETE FROM login_limits WHERE limit_key = $1")
                .bind(key)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot clear the log-in tries", e))
    }

    async fn prune_login_limits(&self, now: Millis, window: Millis) -> Result<()> {
        let (limits, devices) = match &self.pool {
            Pool::Sqlite(_) => (
                "DELETE FROM login_limits WHERE window_start <= $1",
                "DELETE FROM login_devices WHERE expires_at <= $1",
            ),
            Pool::Postgres(_) => (
                "DELETE FROM login_limits WHERE limit_key IN (SELECT limit_key FROM login_limits \
                 WHERE window_start <= $1 FOR UPDATE SKIP LOCKED)",
                "DELETE FROM login_devices WHERE token_sha256 IN (SELECT token_sha256 \
                 FROM login_devices WHERE expires_at <= $1 FOR UPDATE SKIP LOCKED)",
            ),
        };
        on_pool!(&self.pool, |p| async {
            sqlx::query(limits).bind(now - window).execute(p).await?;
            sqlx::query(devices).bind(now).execute(p).await.map(|_| ())
        }
        .await)
        .map_err(|e| self.err("cannot drop old log-in counts", e))
    }

    async fn login_limits(&self) -> Result<Vec<(String, i64, Millis)>> {
        on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT limit_key, tries, window_start FROM login_limits ORDER BY limit_key",
            )
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the log-in counts", e))
    }

    async fn add_login_device(
        &self,
        token_sha256: &str,
        account: i64,
        now: Millis,
        expires_at: Millis,
        keep: i64,
    ) -> Result<()> {
        on_pool!(&self.pool, |p| async {
            let mut tx = p.begin().await?;
            sqlx::query(
                "INSERT INTO login_devices (token_sha256, account_id, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(token_sha256)
            .bind(account)
            .bind(now)
            .bind(expires_at)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "DELETE FROM login_devices WHERE account_id = $1 AND token_sha256 NOT IN \
                 (SELECT token_sha256 FROM login_devices WHERE account_id = $1 \
                  ORDER BY expires_at DESC, created_at DESC LIMIT $2)",
            )
            .bind(account)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
            tx.commit().await
        }
        .await)
        .map_err(|e| self.err("cannot remember the device", e))
    }

    async fn login_device(&self, token_sha256: &str, now: Millis) -> Result<Option<i64>> {
        let row: Option<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT account_id FROM login_devices WHERE token_sha256 = $1 AND expires_at > $2",
            )
            .bind(token_sha256)
            .bind(now)
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot read the devices", e))?;
        Ok(row.map(|(a,)| a))
    }

    async fn renew_login_device(&self, token_sha256: &str, expires_at: Millis) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query("UPDATE login_devices SET expires_at = $1 WHERE token_sha256 = $2")
                .bind(expires_at)
                .bind(token_sha256)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot renew the device", e))
    }

    async fn login_device_count(&self, account: i64, now: Millis) -> Result<i64> {
        let (n,): (i64,) = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT COUNT(*) FROM login_devices WHERE account_id = $1 AND expires_at > $2",
            )
            .bind(account)
            .bind(now)
            .fetch_one(p)
            .await
        })
        .map_err(|e| self.err("cannot read the devices", e))?;
        Ok(n)
    }
}
