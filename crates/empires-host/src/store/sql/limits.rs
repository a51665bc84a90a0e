//! The host's limits on what one player may send, kept in the database so that every
//! process of the host reads the same (`empires host limits`, or the administrator's
//! Accounts page, sets them):
//!
//! - `sheets_per_minute`: sheets one account may send in a minute, through every door and
//!   token (the web door enforces it);
//! - `sheets_kept`: superseded sheets kept for one seat and turn. Beyond it the oldest are
//!   dropped as newer ones come, their hashes written in the game's audit log. The sheet a
//!   turn plays is never dropped, nor the newest. They are dropped a fifth of the limit at a
//!   time (every tenth sheet at the default 50), not at every sheet: looking for sheets to
//!   drop costs as much as keeping one, so a seat may hold up to a fifth more for a moment.

use super::{Pool, SqlStore};
use crate::error::{Error, Result};
use crate::store::Millis;
use crate::store::prelude::*;

/// The limits a host applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostLimits {
    pub sheets_per_minute: u32,
    pub sheets_kept: u32,
}

impl Default for HostLimits {
    fn default() -> HostLimits {
        HostLimits {
            sheets_per_minute: 30,
            sheets_kept: 50,
        }
    }
}

/// Replacing sheets a process kept since it last dropped superseded ones, by (game, seat,
/// turn).
pub(super) type Replaced = std::collections::HashMap<(String, String, u32), u32>;

const PER_MINUTE: &str = "sheets_per_minute";
const KEPT: &str = "sheets_kept";

#[async_trait::async_trait]
impl Upkeep for SqlStore {
    async fn host_limits(&self) -> Result<HostLimits> {
        let rows: Vec<(String, String)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT name, value FROM host_settings WHERE name IN ($1, $2)")
                .bind(PER_MINUTE)
                .bind(KEPT)
                .fetch_all(p)
                .await
        })
        .map_err(|e| self.err("cannot read the host's settings", e))?;
        let mut limits = HostLimits::default();
        for (name, value) in rows {
            let n: u32 = value.trim().parse().map_err(|_| {
                Error::corrupt(format!(
                    "{}: the host's setting {name} is \"{value}\", not a whole number",
                    self.shown
                ))
            })?;
            match name.as_str() {
                PER_MINUTE => limits.sheets_per_minute = n,
                _ => limits.sheets_kept = n,
            }
        }
        Ok(limits)
    }

    async fn set_host_limits(&self, limits: HostLimits) -> Result<()> {
        if limits.sheets_per_minute == 0 || limits.sheets_kept == 0 {
            return Err(Error::new(
                "a limit is at least 1: a host that takes no sheets takes no games",
            ));
        }
        for (name, value) in [
            (PER_MINUTE, limits.sheets_per_minute),
            (KEPT, limits.sheets_kept),
        ] {
            on_pool!(&self.pool, |p| {
                sqlx::query(
                    "INSERT INTO host_settings (name, value) VALUES ($1, $2) \
                     ON CONFLICT (name) DO UPDATE SET value = $2",
                )
                .bind(name)
                .bind(value.to_string())
                .execute(p)
                .await
                .map(|_| ())
            })
            .map_err(|e| self.err("cannot keep the host's settings", e))?;
        }
        self.kept
            .store(limits.sheets_kept, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    async fn keep_wal_small(&self) -> Result<bool> {
        SqlStore::keep_wal_small(self).await
    }

    async fn close(&self) {
        SqlStore::close(self).await
    }
}

impl SqlStore {
    /// Drops a seat's oldest superseded sheets of one turn and status beyond the host's
    /// `sheets_kept`, writing their hashes in the game's audit log. Called after a sheet
    /// that replaced another was kept.
    pub(super) async fn drop_superseded(
        &self,
        game: &str,
        seat: &str,
        for_turn: u32,
        status: &str,
        now: Millis,
    ) -> Result<()> {
        let limit = self.kept.load(std::sync::atomic::Ordering::Relaxed).max(1);
        if !self.drop_due(game, seat, for_turn, limit) {
            return Ok(());
        }
        let kept = i64::from(limit);
        let dropped: Vec<(String,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "DELETE FROM submissions WHERE id IN (SELECT s.id FROM submissions s \
                 JOIN games g ON g.id = s.game_id WHERE g.name = $1 AND s.empire = $2 \
                 AND s.for_turn = $3 AND s.status = $4 AND s.consumed_turn IS NULL \
                 ORDER BY s.id DESC LIMIT 1000000000 OFFSET $5) RETURNING sha256",
            )
            .bind(game)
            .bind(seat)
            .bind(i64::from(for_turn))
            .bind(status)
            .bind(kept)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot drop superseded sheets", e))?;
        if dropped.is_empty() {
            return Ok(());
        }
        let hashes: Vec<String> = dropped.into_iter().map(|(h,)| h).collect();
        self.audit(
            Some(game),
            now,
            "dropped superseded sheets",
            &format!(
                "{seat}, turn {for_turn}: {} sheets beyond the {kept} kept, SHA-256 {}",
                hashes.len(),
                hashes.join(" ")
            ),
        )
        .await
    }
    /// Whether superseded sheets are to be dropped now, at this replacing sheet of a seat
    /// and turn: at the first this process sees (sheets kept before it started are dropped
    /// then) and at every fifth of `limit` after it.
    fn drop_due(&self, game: &str, seat: &str, for_turn: u32, limit: u32) -> bool {
        let every = (limit / 5).max(1);
        let Ok(mut replaced) = self.replaced.lock() else {
            return true;
        };
        // Seats of turns long played are forgotten now and then.
        if replaced.len() > 10_000 {
            replaced.clear();
        }
        let n = replaced
            .entry((game.to_string(), seat.to_string(), for_turn))
            .or_insert(0);
        *n += 1;
        (*n - 1) % every == 0
    }
}
