//! Every player's ledger of turn credits and prize discounts (2.10, 11.7), kept in the
//! host's database as the entries [`crate::ledger`] replays.
//!
//! The GM enters payments, carries and adjustments; the host writes the rest itself, in
//! the transaction that stores a turn (`record_turn`, among a turn's queries in
//! `games.rs`): a charge for every player of a game whose turns are paid for, a dropout
//! when a seat drops out, and each player's result when the game ends.

use super::{Pool, SqlStore};
use crate::error::{Error, Result};
use crate::ledger::{DiscountTable, Entry, Ledger};
use crate::ruleset::{Finished, Seat, Standing};
use crate::store::Millis;
use crate::store::prelude::*;

/// The name of the discount table among the host's settings.
const DISCOUNT_TABLE: &str = "discount_table";

/// A seat as it stood before a turn: (seat, account, status).
pub type SeatBefore = (String, Option<i64>, String);

/// The entries a stored turn writes: charges (when the game's turns are paid for),
/// dropouts, and, when the turn ends the game, each player's result. `after` are the
/// game's seats as the turn left them, by the ruleset.
pub fn ledger_entries_of_turn(
    (game, turn): (&str, u32),
    paid: bool,
    before: &[SeatBefore],
    after: &[Seat],
    finished: Option<&Finished>,
) -> Vec<(i64, Entry)> {
    let mut out = Vec::new();
    for (code, account, was) in before {
        let Some(account) = *account else { continue };
        let Some(seat) = after.iter().find(|s| &s.code == code) else {
            continue;
        };
        let now = seat.standing;
        // 2.10: a turn is charged to every player in the game, whether they wrote it or the
        // computer did for them (2.5); a player who has dropped out is no longer charged.
        // A player holding several seats of the game (a country split in two) pays for the
        // turn once.
        let charged = out
            .iter()
            .any(|(a, e)| *a == account && matches!(e, Entry::Charged { .. }));
        if paid
            && !charged
            && (matches!(was.as_str(), "playing" | "missing") || now == Standing::Playing)
        {
            out.push((
                account,
                Entry::Charged {
                    game: game.to_string(),
                    turn,
                },
            ));
        }
        // 11.7: dropping out forfeits every discount, in every game.
        if matches!(now, Standing::Dropped(_)) && was != "dropped" {
            out.push((
                account,
                Entry::DroppedOut {
                    game: game.to_string(),
                },
            ));
        }
    }
    if let Some(finished) = finished {
        for (code, category) in &finished.results {
            let account = before
                .iter()
                .find(|(e, _, _)| e == code)
                .and_then(|(_, a, _)| *a);
            if let Some(account) = account {
                out.push((
                    account,
                    Entry::Earned {
                        game: game.to_string(),
                        category: category.clone(),
                    },
                ));
            }
        }
    }
    out
}

/// The fees a turn charges (Napoleonic Empires' Royalty, 2.10), as corrections of the
/// credits of each seat's player, where the game's turns are paid for: nothing otherwise,
/// nor for a seat no account holds.
pub fn fee_entries(
    game: &str,
    paid: bool,
    before: &[SeatBefore],
    fees: &[ruleset_api::Fee],
) -> Vec<(i64, Entry)> {
    if !paid {
        return Vec::new();
    }
    fees.iter()
        .filter_map(|f| {
            let account = before
                .iter()
                .find(|(code, _, _)| code == &f.seat)
                .and_then(|(_, a, _)| *a)?;
            Some((
                account,
                Entry::Adjusted {
                    game: game.to_string(),
                    turns: -i64::from(f.credits),
                    reason: f.reason.clone(),
                },
            ))
        })
        .collect()
}

#[async_trait::async_trait]
impl Ledgers for SqlStore {
    async fn discount_table(&self) -> Result<DiscountTable> {
        let row: Option<(String,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT value FROM host_settings WHERE name = $1")
                .bind(DISCOUNT_TABLE)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the host's settings", e))?;
        match row {
            None => Ok(DiscountTable::default()),
            Some((text,)) => serde_json::from_str(&text).map_err(|e| {
                Error::corrupt(format!(
                    "{}: the kept discount table cannot be read: {e}",
                    self.shown
                ))
            }),
        }
    }

    async fn set_discount_table(&self, table: &DiscountTable) -> Result<()> {
        let text = serde_json::to_string(table).unwrap_or_default();
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "INSERT INTO host_settings (name, value) VALUES ($1, $2) \
                 ON CONFLICT (name) DO UPDATE SET value = $2",
            )
            .bind(DISCOUNT_TABLE)
            .bind(&text)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot keep the discount table", e))
    }

    async fn paid_turns(&self, game: &str) -> Result<bool> {
        let row: Option<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT paid_turns FROM games WHERE name = $1")
                .bind(game)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the game", e))?;
        row.map(|r| r.0 != 0).ok_or_else(|| {
            Error::not_found(format!(
                "{}: no game named \"{game}\" is kept here",
                self.shown
            ))
        })
    }

    async fn set_paid_turns(&self, game: &str, paid: bool, now: Millis) -> Result<()> {
        let n = on_pool!(&self.pool, |p| {
            sqlx::query("UPDATE games SET paid_turns = $1 WHERE name = $2")
                .bind(i64::from(paid))
                .bind(game)
                .execute(p)
                .await
                .map(|r| r.rows_affected())
        })
        .map_err(|e| self.err("cannot change the game", e))?;
        if n == 0 {
            return Err(Error::not_found(format!(
                "{}: no game named \"{game}\" is kept here",
                self.shown
            )));
        }
        let what = if paid {
            "turns are paid for"
        } else {
            "turns are free"
        };
        self.audit(Some(game), now, "ledger", what).await
    }

    async fn ledger_entries(&self, account: i64) -> Result<Vec<(Millis, Entry)>> {
        let rows: Vec<(Millis, String)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT at, entry FROM ledger WHERE account_id = $1 ORDER BY id")
                .bind(account)
                .fetch_all(p)
                .await
        })
        .map_err(|e| self.err("cannot read the ledger", e))?;
        rows.into_iter()
            .map(|(at, text)| {
                serde_json::from_str(&text).map(|e| (at, e)).map_err(|e| {
                    Error::corrupt(format!(
                        "{}: a ledger entry cannot be read ({e}): {text}",
                        self.shown
                    ))
                })
            })
            .collect()
    }

    async fn ledger(&self, account: i64) -> Result<Ledger> {
        let table = self.discount_table().await?;
        let entries: Vec<Entry> = self
            .ledger_entries(account)
            .await?
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        Ledger::replay(&entries, &table)
            .map_err(|e| Error::corrupt(format!("{}: the ledger does not add up: {e}", self.shown)))
    }

    async fn enter(&self, account: i64, entry: &Entry, now: Millis) -> Result<Ledger> {
        let table = self.discount_table().await?;
        let mut ledger = self.ledger(account).await?;
        ledger
            .apply(entry, &table)
            .map_err(|e| Error::new(e.to_string()))?;
        let text = serde_json::to_string(entry).unwrap_or_default();
        on_pool!(&self.pool, |p| {
            sqlx::query("INSERT INTO ledger (account_id, at, entry) VALUES ($1, $2, $3)")
                .bind(account)
                .bind(now)
                .bind(&text)
                .execute(p)
                .await
                .map(|_| ())
        })
        .map_err(|e| self.err("cannot keep the ledger entry", e))?;
        Ok(ledger)
    }

    async fn report_held(
        &self,
        game: &str,
        empire: crate::seat::SeatCode,
        turn: u32,
    ) -> Result<Option<String>> {
        let row: Option<(i64, Option<i64>)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT g.paid_turns, s.account_id FROM games g \
                 JOIN seats s ON s.game_id = g.id AND s.empire = $2 WHERE g.name = $1",
            )
            .bind(game)
            .bind(empire.as_str())
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot read the game", e))?;
        let Some((paid, Some(account))) = row else {
            return Ok(None);
        };
        if paid == 0 {
            return Ok(None);
        }
        let ledger = self.ledger(account).await?;
        let unpaid = ledger.standing(game).unpaid_turns.contains(&turn);
        Ok(unpaid.then(|| {
            format!(
                "the report of turn {turn} waits for payment: turn credits pay for the turns played (2.10). {}",
                ledger.summary_line(game)
            )
        }))
    }
}
