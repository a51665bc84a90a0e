//! Sending the outbox: every message due is handed to the SMTP server; a message the server
//! refuses for now is tried again later, waiting longer each time, and one it refuses for
//! good (or after [`MAX_ATTEMPTS`]) is given up and shown to the GM. Nothing here can hold
//! up or undo a turn: the outbox is filled after the turn is kept, and emptied apart.

use crate::config::MailConfig;
use empires_host::Result;
use empires_host::store::Millis;
use empires_host::store::Services;
use empires_host::store::{Direction, Queued};
use lettre::address::Envelope;
use lettre::transport::smtp::client::AsyncSmtpConnection;

/// How many times a message is tried before it is given up.
pub const MAX_ATTEMPTS: u32 = 8;

/// How many messages are read from the outbox at a time.
const BATCH: i64 = 200;

/// What a run of the sender did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sent {
    pub sent: usize,
    /// Failed for now, to be tried again.
    pub deferred: usize,
    /// Given up.
    pub failed: usize,
}

/// How long to wait before trying again after `attempts` failures: one minute, doubling,
/// at most an hour.
pub fn backoff(attempts: u32) -> Millis {
    60_000 * (1i64 << attempts.min(6))
}

/// Sends every message due now; `None` if no SMTP server is set (the mail waits).
pub async fn send_due(store: &Services, cfg: &MailConfig, now: Millis) -> Result<Option<Sent>> {
    let Some(smtp) = &cfg.smtp else {
        return Ok(None);
    };
    let mut done = Sent::default();
    let mut conn: Option<AsyncSmtpConnection> = None;
    // Why the server cannot be reached, once it could not be: the rest of the run's
    // messages wait for the next run rather than each trying again.
    let mut down: Option<String> = None;
    // Messages deferred in this run are due again only later, so the loop ends.
    loop {
        let due = store.mail.due_mail(now, BATCH).await?;
        if due.is_empty() {
            break;
        }
        for mail in due {
            // One connection for the whole run, opened again when it breaks.
            if down.is_none() && conn.as_ref().is_none_or(|c| c.has_broken()) {
                conn = match smtp.connect().await {
                    Ok(c) => Some(c),
                    Err(e) => {
                        down = Some(e.to_string());
                        None
                    }
                };
            }
            if let Some(why) = &down {
                let e = NotSent {
                    why: why.clone(),
                    permanent: false,
                };
                record(store, &mail, Err(e), now, &mut done).await?;
                continue;
            }
            let Some(c) = conn.as_mut() else { continue };
            let outcome = deliver(c, cfg, &mail).await;
            record(store, &mail, outcome, now, &mut done).await?;
        }
    }
    if let Some(mut c) = conn {
        let _ = c.quit().await;
    }
    Ok(Some(done))
}

/// Why a message was not sent, and whether trying again may help.
struct NotSent {
    why: String,
    permanent: bool,
}

async fn deliver(
    conn: &mut AsyncSmtpConnection,
    cfg: &MailConfig,
    mail: &Queued,
) -> std::result::Result<(), NotSent> {
    let to = mail
        .recipient
        .parse::<lettre::Address>()
        .map_err(|e| NotSent {
            why: format!("\"{}\" is not an address ({e})", mail.recipient),
            permanent: true,
        })?;
    let envelope = Envelope::new(Some(cfg.from.email.clone()), vec![to]).map_err(|e| NotSent {
        why: e.to_string(),
        permanent: true,
    })?;
    conn.send(&envelope, &mail.message)
        .await
        .map(|_| ())
        .map_err(|e| NotSent {
            permanent: e.is_permanent(),
            why: e.to_string(),
        })
}

async fn record(
    store: &Services,
    mail: &Queued,
    outcome: std::result::Result<(), NotSent>,
    now: Millis,
    done: &mut Sent,
) -> Result<()> {
    let log = |outcome: &'static str, detail: String| {
        let game = mail.game.clone();
        async move {
            store
                .mail
                .log_mail(
                    game.as_deref(),
                    mail.account,
                    now,
                    Direction::Out,
                    &mail.recipient,
                    outcome,
                    &detail,
                )
                .await
        }
    };
    match outcome {
        Ok(()) => {
            store.mail.mail_sent(mail.id, now).await?;
            done.sent += 1;
            log("sent", mail.subject.clone()).await
        }
        Err(e) => {
            let tries = mail.attempts + 1;
            if e.permanent || tries >= MAX_ATTEMPTS {
                store.mail.mail_not_sent(mail.id, &e.why, None, now).await?;
                done.failed += 1;
                let detail = format!("{}: given up after {tries} tries: {}", mail.subject, e.why);
                log("failed", detail).await
            } else {
                let at = now + backoff(tries);
                store
                    .mail
                    .mail_not_sent(mail.id, &e.why, Some(at), now)
                    .await?;
                done.deferred += 1;
                let detail = format!(
                    "{}: try {tries} failed, tried again later: {}",
                    mail.subject, e.why
                );
                log("retry", detail).await
            }
        }
    }
}
