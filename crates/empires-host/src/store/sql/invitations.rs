//! Seats offered to accounts that already exist. A GM never takes an account it did not
//! make into one of its games: it invites the account to a seat, and the seat is the
//! account's when its owner accepts. Giving the seat otherwise meanwhile withdraws the
//! invitation.

use super::{Pool, SqlStore};
use crate::error::{Error, Result};
use crate::seat::SeatCode;
use crate::store::Millis;
use crate::store::prelude::*;

/// An invitation to a seat, waiting for its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    pub id: i64,
    /// The game's name and title.
    pub game: String,
    pub title: String,
    pub seat: String,
    /// The account invited.
    pub account: String,
    /// The GM who invited it.
    pub invited_by: Option<String>,
    pub created_at: Millis,
}

type InvitationRow = (i64, String, String, String, String, Option<String>, Millis);

const INVITATION_QUERY: &str = "SELECT i.id, g.name, g.title, i.seat, a.name, b.name, i.created_at \
     FROM seat_invitations i JOIN games g ON g.id = i.game_id \
     JOIN accounts a ON a.id = i.account_id LEFT JOIN accounts b ON b.id = i.invited_by \
     WHERE i.answered_at IS NULL";

fn invitation(row: InvitationRow) -> Invitation {
    let (id, game, title, seat, account, invited_by, created_at) = row;
    Invitation {
        id,
        game,
        title,
        seat,
        account,
        invited_by,
        created_at,
    }
}

#[async_trait::async_trait]
impl Invitations for SqlStore {
    async fn invite_to_seat(
        &self,
        game: &str,
        seat: SeatCode,
        account: i64,
        by: i64,
        now: Millis,
    ) -> Result<i64> {
        let row: Option<(i64,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "INSERT INTO seat_invitations (game_id, seat, account_id, invited_by, created_at) \
                 SELECT g.id, s.empire, $3, $4, $5 FROM games g JOIN seats s ON s.game_id = g.id \
                 WHERE g.name = $1 AND s.empire = $2 RETURNING id",
            )
            .bind(game)
            .bind(seat.as_str())
            .bind(account)
            .bind(by)
            .bind(now)
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot keep the invitation", e))?;
        row.map(|(id,)| id)
            .ok_or_else(|| Error::not_found(format!("game \"{game}\" has no seat {seat}")))
    }

    async fn invitations_for(&self, account: i64) -> Result<Vec<Invitation>> {
        let sql = format!("{INVITATION_QUERY} AND i.account_id = $1 ORDER BY i.id");
        let rows: Vec<InvitationRow> = on_pool!(&self.pool, |p| sqlx::query_as(&sql)
            .bind(account)
            .fetch_all(p)
            .await)
        .map_err(|e| self.err("cannot read the invitations", e))?;
        Ok(rows.into_iter().map(invitation).collect())
    }

    async fn invitations_of_game(&self, game: &str) -> Result<Vec<Invitation>> {
        let sql = format!("{INVITATION_QUERY} AND g.name = $1 ORDER BY i.id");
        let rows: Vec<InvitationRow> = on_pool!(&self.pool, |p| sqlx::query_as(&sql)
            .bind(game)
            .fetch_all(p)
            .await)
        .map_err(|e| self.err("cannot read the invitations", e))?;
        Ok(rows.into_iter().map(invitation).collect())
    }

    async fn answer_invitation(
        &self,
        id: i64,
        account: i64,
        accept: bool,
        now: Millis,
    ) -> Result<Option<Invitation>> {
        let Some(found) = self
            .invitations_for(account)
            .await?
            .into_iter()
            .find(|i| i.id == id)
        else {
            return Ok(None);
        };
        let answer = if accept { "accepted" } else { "declined" };
        let done: sqlx::Result<bool> = on_pool!(&self.pool, |p| async {
            let mut tx = p.begin().await?;
            let row: Option<(i64, String)> = sqlx::query_as(
                "UPDATE seat_invitations SET answered_at = $1, answer = $2 \
                 WHERE id = $3 AND account_id = $4 AND answered_at IS NULL RETURNING game_id, seat",
            )
            .bind(now)
            .bind(answer)
            .bind(id)
            .bind(account)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((game_id, seat)) = row else {
                return Ok(false);
            };
            if accept {
                sqlx::query("UPDATE seats SET account_id = $1 WHERE game_id = $2 AND empire = $3")
                    .bind(account)
                    .bind(game_id)
                    .bind(&seat)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(
                    "UPDATE seat_invitations SET answered_at = $1, answer = 'withdrawn' \
                     WHERE game_id = $2 AND seat = $3 AND answered_at IS NULL",
                )
                .bind(now)
                .bind(game_id)
                .bind(&seat)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(true)
        }
        .await);
        let done = done.map_err(|e| self.err("cannot answer the invitation", e))?;
        Ok(done.then_some(found))
    }
}
