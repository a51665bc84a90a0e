//! `empires mail ...`: the mail door of a host's database, from the command line.
//!
//! - `receive` takes one message on standard input, as a mail server's delivery pipe
//!   (`|empires mail receive --db ...`) hands it over;
//! - `fetch` takes every new message from a Maildir;
//! - `send` queues the reports of turns played since the last run and sends the outbox;
//! - `account` sets a player's address, whether their reports are mailed, and issues
//!   their mail password;
//! - `log` shows what the door did.
//!
//! Each command that takes mail in also sends what it queued, in the same run, when an SMTP
//! server is given.

use crate::commands::hosted::{self, GameAt, block_on, open_db};
use crate::error::{Error, Result};
use empires_host::store::SeatCode;
use empires_host::store::Services;
use empires_host::store::prelude::*;
use empires_mail::config::{DEFAULT_FROM, DEFAULT_REFUSALS_PER_HOUR};
use empires_mail::inbound::message::MAX_MESSAGE_BYTES;
use empires_mail::{MailConfig, Receiver, SmtpConfig, maildir, password, reports, send};
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The settings every mail command shares.
#[derive(Debug, Clone, clap::Args)]
pub struct MailArgs {
    /// The host's database (sqlite:<file> or postgres://...).
    #[arg(long, value_name = "URL")]
    pub db: String,
    /// The address the host's mail comes from, and players send their turnsheets to
    /// (`--from` is read too, as before).
    #[arg(
        long = "mail-from",
        alias = "from",
        value_name = "ADDRESS",
        env = "EMPIRES_MAIL_FROM",
        default_value = DEFAULT_FROM
    )]
    pub from: String,
    /// The SMTP server to send through: smtp://host:25, smtp://user:pass@host:587?tls=required
    /// (STARTTLS) or smtps://user:pass@host:465. Without one, mail waits in the outbox.
    #[arg(
        long,
        value_name = "URL",
        env = "EMPIRES_SMTP_URL",
        hide_env_values = true
    )]
    pub smtp: Option<String>,
    /// A certificate authority (PEM) to trust for the SMTP server's certificate, besides
    /// the usual ones.
    #[arg(long, value_name = "FILE.pem", env = "EMPIRES_SMTP_CA")]
    pub smtp_ca: Option<PathBuf>,
    /// How many refusals the door answers to one address in an hour: a message refused
    /// beyond it is logged for the GM and not answered, so forged mail cannot flood a
    /// player with refusals (receipts are always sent; 0 answers no refusal).
    /// (`--refusals-per-hour` is read too, as before.)
    #[arg(
        long = "mail-refusals-per-hour",
        alias = "refusals-per-hour",
        value_name = "N",
        env = "EMPIRES_MAIL_REFUSALS_PER_HOUR",
        default_value_t = DEFAULT_REFUSALS_PER_HOUR
    )]
    pub refusals_per_hour: u32,
}

impl MailArgs {
    /// The mail door's settings these arguments give.
    pub fn config(&self) -> Result<MailConfig> {
        let smtp = match &self.smtp {
            Some(url) => {
                let mut s = SmtpConfig::parse(url)?;
                if let Some(ca) = &self.smtp_ca {
                    s.ca_pem =
                        Some(std::fs::read(ca).map_err(|e| Error::io("cannot read", ca, e))?);
                }
                Some(s)
            }
            None => None,
        };
        Ok(MailConfig {
            refusals_per_hour: self.refusals_per_hour,
            ..MailConfig::new(&self.from, smtp)?
        })
    }
}

/// Sends what is due, and says what was done.
async fn send_now(store: &Services, cfg: &MailConfig, out: &mut String) -> Result<()> {
    match send::send_due(store, cfg, super::now()?).await? {
        Some(s) => {
            let _ = writeln!(
                out,
                "sent {} message(s), {} to try again later, {} given up",
                s.sent, s.deferred, s.failed
            );
        }
        None => {
            let (waiting, _, _) = store.mail.outbox_counts().await?;
            let _ = writeln!(
                out,
                "no SMTP server given: {waiting} message(s) wait in the outbox"
            );
        }
    }
    Ok(())
}

/// `empires mail receive`: one message from standard input. An error means the host could
/// not deal with the message (the database out of reach, the command's settings wrong):
/// the mail server is asked to deliver it again later. Whatever the message holds, it is
/// dealt with: kept, refused with the reason, or logged.
pub fn receive(args: &MailArgs) -> Result<String> {
    let cfg = args.config()?;
    let (raw, size) = read_stdin()?;
    block_on(async {
        let store = Services::open_existing(&args.db).await?;
        let now = super::now()?;
        let outcome = Receiver::new(&store, &cfg).receive(&raw, size, now).await?;
        let mut out = format!("{}\n", describe(&outcome));
        // The message is dealt with and its answer queued: a failure to send now leaves the
        // answer in the outbox, and must not have the message delivered again.
        if let Err(e) = send_now(&store, &cfg, &mut out).await {
            let _ = writeln!(out, "the outbox could not be sent now ({e}): it waits");
        }
        Ok(out)
    })
}

/// Reads standard input whole, keeping at most what the door takes in: a message too
/// large is read to its end (so the mail server sees it delivered) and refused.
fn read_stdin() -> Result<(Vec<u8>, usize)> {
    let mut raw = Vec::new();
    let mut stdin = std::io::stdin().lock();
    (&mut stdin)
        .take((MAX_MESSAGE_BYTES + 1) as u64)
        .read_to_end(&mut raw)
        .map_err(|e| Error::new(format!("cannot read the message from standard input: {e}")))?;
    let mut size = raw.len();
    if size > MAX_MESSAGE_BYTES {
        let mut sink = [0u8; 64 << 10];
        loop {
            match stdin.read(&mut sink) {
                Ok(0) => break,
                Ok(n) => size += n,
                Err(e) => {
                    return Err(Error::new(format!(
                        "cannot read the message from standard input: {e}"
                    )));
                }
            }
        }
    }
    Ok((raw, size))
}

fn describe(o: &empires_mail::Outcome) -> String {
    use empires_mail::Outcome::*;
    match o {
        Accepted {
            game,
            empire,
            for_turn,
        } => {
            format!(
                "accepted: {empire}'s turnsheet for turn {for_turn} of {game}; the receipt is queued"
            )
        }
        Late {
            game,
            empire,
            for_turn,
        } => {
            format!(
                "late: {empire}'s turnsheet kept as late orders for turn {for_turn} of {game}; the receipt is queued"
            )
        }
        Resent { game, reports } => {
            format!("resent: {reports} report(s) of {game} queued again, as asked")
        }
        Refused(why) => format!(
            "refused; the answer is queued: {}",
            why.lines().next().unwrap_or("")
        ),
        Unanswered(why) => format!(
            "refused, not answered (the address has had as many refusals this hour as the door sends): {}",
            why.lines().next().unwrap_or("")
        ),
        Ignored(why) => format!("ignored: {why}"),
        Duplicate => "ignored: delivered before, and answered then".to_string(),
        Failed(why) => format!("failed, logged for the GM: {why}"),
    }
}

/// `empires mail fetch`: every new message of a Maildir.
pub fn fetch(args: &MailArgs, dir: &Path) -> Result<String> {
    let cfg = args.config()?;
    block_on(async {
        let store = Services::open_existing(&args.db).await?;
        let mut receiver = Receiver::new(&store, &cfg);
        let f = maildir::fetch(&mut receiver, dir, super::now()?).await?;
        let mut out = format!(
            "{} message(s): {} turnsheet(s) kept, {} refused, {} not answered\n",
            f.messages, f.accepted, f.refused, f.ignored
        );
        if f.resent > 0 {
            let _ = writeln!(out, "{} report(s) sent again, as asked", f.resent);
        }
        if f.failed > 0 {
            let _ = writeln!(
                out,
                "{} message(s) the host failed on (see `empires mail log`):",
                f.failed
            );
            for p in &f.problems {
                let _ = writeln!(out, "  {p}");
            }
        }
        send_now(&store, &cfg, &mut out).await?;
        Ok(out)
    })
}

/// `empires mail send`: the reports of turns played since they were last queued, then the
/// whole outbox.
pub fn send(args: &MailArgs) -> Result<String> {
    let cfg = args.config()?;
    block_on(async {
        let store = Services::open_existing(&args.db).await?;
        let queued = reports::queue_all(&store, &cfg, super::now()?).await?;
        let mut out = format!("{queued} report(s) queued\n");
        send_now(&store, &cfg, &mut out).await?;
        Ok(out)
    })
}

/// What `empires mail account` changes.
#[derive(Debug, Clone, Default)]
pub struct AccountChange {
    pub email: Option<String>,
    pub reports: Option<bool>,
    pub new_password: bool,
    /// The address the host's mail comes from, for the report mailed when an address is
    /// set.
    pub from: String,
}

/// `empires mail account`: a player's mail settings, changed as asked; a new mail
/// password is printed once and never kept in the clear.
pub fn account(db: &str, name: &str, change: &AccountChange) -> Result<String> {
    let store = open_db(db)?;
    block_on(async {
        let account = store
            .account_by_name(name)
            .await?
            .ok_or_else(|| Error::not_found(format!("no account named \"{name}\"")))?;
        let (email, reports) = store.mail_settings(account.id).await?;
        let email = match &change.email {
            Some(e) if e.is_empty() => None,
            Some(e) => {
                empires_mail::config::check_address(e)?;
                Some(e.clone())
            }
            None => email,
        };
        let reports = change.reports.unwrap_or(reports);
        store
            .set_mail_settings(account.id, email.as_deref(), reports)
            .await?;
        let mut out = format!(
            "{name}: address {}, reports by mail {}\n",
            email.as_deref().unwrap_or("none"),
            if reports { "on" } else { "off" }
        );
        // An address set (or reports turned on) reaches the player at once: the report of
        // the turn now current of each game they play, with its blank sheet, unless they
        // were mailed it before.
        if email.is_some() && reports {
            let cfg = MailConfig::new(&change.from, None)?;
            let services = Services::of(store.clone());
            let queued = reports::catch_up(&services, &cfg, account.id, super::now()?).await?;
            if queued > 0 {
                let _ = writeln!(
                    out,
                    "{queued} report(s) of the turn now current queued for {name}: `empires mail send` sends them"
                );
            }
        }
        if change.new_password {
            let p = password::issue();
            store
                .set_mail_password(account.id, &password::hash(&p))
                .await?;
            let _ = writeln!(out, "new mail password (shown this once): {p}");
        } else if store.mail_password_hash(account.id).await?.is_none() {
            out.push_str("no mail password issued yet: give --new-password to issue one\n");
        }
        Ok(out)
    })
}

/// `empires mail preview`: the report mail a seat gets for a turn (the last one played
/// unless `turn` is given), written to `out` as a message file (`.eml`) that any mail
/// program opens, with what it weighs and how long it took to make.
pub fn preview(
    at: &GameAt,
    seat: SeatCode,
    (turn, public_url): (Option<u32>, Option<String>),
    out: Option<PathBuf>,
) -> Result<String> {
    let started = std::time::Instant::now();
    let (store, key) = hosted::open(at)?;
    block_on(async {
        let game = empires_host::submit::open(store.as_ref(), &key).await?;
        let shown = turn.unwrap_or(game.turn());
        let files: std::collections::HashMap<String, Vec<u8>> =
            store.turn_files(&key, shown).await?.into_iter().collect();
        let place = format!("{}: turn {shown}", store.describe(&key));
        let files = empires_host::ruleset::mail::TurnFiles {
            place: &place,
            files: &files,
            whole_map: public_url.is_none(),
        };
        let deadline = match at {
            GameAt::Db { url, .. } => {
                reports::deadline_after(&Services::open_existing(url).await?, &key, shown).await?
            }
            GameAt::Dir(_) => None,
        };
        let name = game
            .seats()?
            .into_iter()
            .find(|s| s.code == seat.as_str())
            .map_or_else(|| seat.to_string(), |s| s.name);
        let mut cfg = MailConfig::new(DEFAULT_FROM, None)?;
        cfg.public_url = public_url;
        let game_name = at.name();
        let message = reports::preview(
            &cfg,
            (&game_name, game.as_ref()),
            (shown, &files),
            (seat, &name, "player@example.invalid"),
            deadline.as_deref(),
            super::now()?,
        )?;
        let out = out.unwrap_or_else(|| PathBuf::from(format!("{seat}-turn{shown}.eml")));
        std::fs::write(&out, &message).map_err(|e| Error::io("cannot write", &out, e))?;
        let mut said = format!(
            "wrote {}: {} bytes, made in {:.2} s\n",
            out.display(),
            message.len(),
            started.elapsed().as_secs_f64()
        );
        for (part, bytes) in empires_mail::compose::part_sizes(&message) {
            let _ = writeln!(said, "  {part}: {bytes} bytes");
        }
        Ok(said)
    })
}

/// `empires mail log`: the door's log for a game, or for no game.
pub fn log(db: &str, game: Option<&str>) -> Result<String> {
    let store = open_db(db)?;
    let entries = block_on(store.mail_log(game, 200))?;
    let mut out = String::new();
    for e in entries {
        let _ = writeln!(
            out,
            "{}  {:<3} {:<9} {}  {}",
            empires_mail::inbound::when(e.at),
            e.direction,
            e.outcome,
            e.address,
            e.detail
        );
    }
    if out.is_empty() {
        out.push_str("nothing logged\n");
    }
    Ok(out)
}
