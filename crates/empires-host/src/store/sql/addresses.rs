//! An account's mail address, and the proof that it is the account's. A new or changed
//! address counts for nothing until its owner opens the link mailed to it: no report is
//! mailed there and no sheet is taken from it. Addresses on record before there was any
//! proving stay valid, and an address set by whoever runs the host (`empires mail account`)
//! is taken on their word. No two accounts hold one address.

use super::{Pool, SqlStore};
use crate::error::{Error, Result};
use crate::store::Millis;
use crate::store::prelude::*;

#[async_trait::async_trait]
impl Addresses for SqlStore {
    async fn set_address(
        &self,
        account: i64,
        email: Option<&str>,
        mail_reports: bool,
        verified: bool,
    ) -> Result<bool> {
        if let Some(e) = email {
            let others: Vec<(i64,)> = on_pool!(&self.pool, |p| {
                sqlx::query_as(
                    "SELECT id FROM accounts WHERE LOWER(email) = LOWER($1) AND id <> $2",
                )
                .bind(e)
                .bind(account)
                .fetch_all(p)
                .await
            })
            .map_err(|e| self.err("cannot read the accounts", e))?;
            if !others.is_empty() {
                return Err(Error::conflict(format!(
                    "{e} is the address of another account: an address belongs to one account"
                )));
            }
        }
        let (old, _) = self.mail_settings(account).await?;
        let same = match (&old, email) {
            (Some(o), Some(n)) => o.eq_ignore_ascii_case(n),
            (None, None) => true,
            _ => false,
        };
        let was = self.account(account).await?.email_verified;
        let now_verified = verified || (same && was);
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "UPDATE accounts SET email = $1, mail_reports = $2, email_verified = $3 WHERE id = $4",
            )
            .bind(email)
            .bind(i64::from(mail_reports))
            .bind(i64::from(now_verified))
            .bind(account)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot change the account", e))?;
        Ok(email.is_some() && !now_verified)
    }

    async fn create_email_link(
        &self,
        token_sha256: &str,
        account: i64,
        email: &str,
        now: Millis,
        expires_at: Millis,
    ) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "INSERT INTO email_verifications (token_sha256, account_id, email, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(token_sha256)
            .bind(account)
            .bind(email)
            .bind(now)
            .bind(expires_at)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot keep the link", e))
    }

    async fn verify_email(&self, token_sha256: &str, now: Millis) -> Result<Option<(i64, String)>> {
        let row: Option<(i64, String)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "UPDATE email_verifications SET used_at = $1 \
                 WHERE token_sha256 = $2 AND used_at IS NULL AND expires_at > $1 \
                 RETURNING account_id, email",
            )
            .bind(now)
            .bind(token_sha256)
            .fetch_optional(p)
            .await
        })
        .map_err(|e| self.err("cannot use the link", e))?;
        let Some((account, email)) = row else {
            return Ok(None);
        };
        let n = on_pool!(&self.pool, |p| {
            sqlx::query(
                "UPDATE accounts SET email_verified = 1 WHERE id = $1 AND LOWER(email) = LOWER($2)",
            )
            .bind(account)
            .bind(&email)
            .execute(p)
            .await
            .map(|r| r.rows_affected())
        })
        .map_err(|e| self.err("cannot change the account", e))?;
        Ok((n == 1).then_some((account, email)))
    }
}
