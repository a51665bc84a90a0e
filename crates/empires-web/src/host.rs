//! What every request shares: the store (which keeps the log-in limit's counts too), the
//! clock and the games kept in memory between requests.

use crate::failure::Failure;
use crate::sheet_limit::SheetLimiter;
use empires_host::ruleset::Game;
use empires_host::store::HostLimits;
use empires_host::store::Services;
use empires_host::store::{Millis, Submission};
use empires_host::submit::Accepted;
use empires_host::turn::{TurnOptions, TurnReport};
use empires_host::{Error, Result};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// How the server was told to behave.
#[derive(Debug, Clone, Default)]
pub struct WebConfig {
    /// Mark cookies `Secure`: the site is reached through TLS (a reverse proxy in front).
    pub secure_cookies: bool,
    /// Take the client's address from `X-Forwarded-For`: its right-most entry, the one the
    /// one reverse proxy in front appended ([`crate::auth::client_address`]); otherwise
    /// that header is ignored (anyone could send it).
    pub trust_forwarded: bool,
    /// The address players reach the site at (`https://empires.example.org`), for the
    /// one-time links the GM hands out; without it links are shown relative to the site.
    pub public_url: Option<String>,
    /// The address players mail their turnsheets to, when the mail door is open.
    pub mail_address: Option<String>,
}

/// The host's clock ([`empires_host::clock::Clock`]: the machine's, the file
/// `EMPIRES_CLOCK_FILE` names, or one a test sets), read by every request. Should a clock
/// file stop being readable, the time last read stands and the reason is logged: a page
/// must still be served.
#[derive(Debug)]
pub struct Clock {
    source: empires_host::clock::Clock,
    last: AtomicI64,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::of(empires_host::clock::Clock::System)
    }
}

impl Clock {
    pub fn of(source: empires_host::clock::Clock) -> Clock {
        let last = source.now().unwrap_or(0);
        Clock {
            source,
            last: AtomicI64::new(last),
        }
    }

    pub fn system() -> Clock {
        Clock::default()
    }

    /// `EMPIRES_CLOCK_FILE` if set, else the machine's clock: as every command reads it.
    pub fn from_env() -> Clock {
        Clock::of(empires_host::clock::Clock::from_env())
    }

    /// A clock standing at `at` until it is moved.
    pub fn manual(at: Millis) -> Clock {
        Clock::of(empires_host::clock::Clock::manual(at))
    }

    pub fn now(&self) -> Millis {
        match self.source.now() {
            Ok(t) => {
                self.last.store(t, Ordering::SeqCst);
                t
            }
            Err(e) => {
                tracing::warn!("{e}; the time last read stands");
                self.last.load(Ordering::SeqCst)
            }
        }
    }

    /// Moves a manual clock on; the system clock cannot be moved.
    pub fn advance(&self, by: Millis) {
        self.source.advance(by);
    }
}

/// What every request shares.
pub struct Host {
    pub store: Services,
    pub clock: Clock,
    pub config: WebConfig,
    /// The sheets each account sent in the last minute.
    sheets: Mutex<SheetLimiter>,
    /// The host's limits, with when they were read: read again after a minute, so that a
    /// change made by another process (`empires host limits`) is taken up.
    limits: RwLock<Option<(Millis, HostLimits)>>,
    /// Each game's current turn, kept parsed between requests
    /// ([`empires_host::games::Games`]).
    games: empires_host::games::Games,
}

impl Host {
    pub fn new(store: Services, clock: Clock, config: WebConfig) -> Host {
        Host {
            store,
            clock,
            config,
            sheets: Mutex::new(SheetLimiter::default()),
            limits: RwLock::new(None),
            games: Default::default(),
        }
    }

    pub fn now(&self) -> Millis {
        self.clock.now()
    }

    /// A page of the site as a link in mail gives it: under `--public-url` when there is one.
    pub fn link(&self, path: &str) -> String {
        let base = self.config.public_url.clone().unwrap_or_default();
        format!("{}{path}", base.trim_end_matches('/'))
    }

    /// Queues a plain-text message from the host to `to`, for `account`, as the outbox's
    /// `kind`; it is sent with the rest of the outbox.
    pub async fn queue_text(
        &self,
        account: i64,
        to: &str,
        kind: &str,
        subject: &str,
        text: &str,
    ) -> Result<()> {
        let now = self.now();
        let cfg = match self.mail_config()? {
            Some(cfg) => cfg,
            None => empires_mail::MailConfig::new(empires_mail::config::DEFAULT_FROM, None)?,
        };
        let env = empires_mail::compose::Envelope {
            to,
            subject: subject.to_string(),
            in_reply_to: None,
            key: format!("{kind}-{account}-{now}"),
            now,
        };
        let message = empires_mail::compose::answer(&cfg, &env, text)?;
        let mail = empires_mail::compose::queued(None, Some(account), kind, None, &env, message);
        self.store.mail.queue_mail(&mail, now).await.map(|_| ())
    }

    /// The mail door's settings for what the web queues (its address and the site's), when
    /// the door is open; `None` when the host sends no mail.
    pub fn mail_config(&self) -> Result<Option<empires_mail::MailConfig>> {
        let Some(from) = &self.config.mail_address else {
            return Ok(None);
        };
        let mut cfg = empires_mail::MailConfig::new(from, None)?;
        cfg.public_url = self.config.public_url.clone();
        Ok(Some(cfg))
    }

    /// Mails `account` the report of the turn now current of every game it plays, when the
    /// mail door is open: its address has just been proved, or it has just been given a
    /// seat, so the turn-0 report with its blank sheet reaches it at once.
    pub async fn mail_current_reports(&self, account: i64) -> Result<usize> {
        match self.mail_config()? {
            Some(cfg) => {
                empires_mail::reports::catch_up(&self.store, &cfg, account, self.now()).await
            }
            None => Ok(0),
        }
    }

    /// Mails `account` the report of the turn now current of its seats in `game`, when the
    /// mail door is open and it was not mailed that report before: it has just been given
    /// a seat there.
    pub async fn mail_current_report(&self, game: &str, account: i64) -> Result<usize> {
        match self.mail_config()? {
            Some(cfg) => {
                empires_mail::reports::queue_current(
                    &self.store,
                    &cfg,
                    game,
                    account,
                    empires_mail::reports::Resend::Missed,
                    self.now(),
                )
                .await
            }
            None => Ok(0),
        }
    }

    /// The host's limits, read at most once a minute.
    pub async fn limits(&self) -> Result<HostLimits> {
        let now = self.now();
        if let Ok(l) = self.limits.read()
            && let Some((at, limits)) = *l
            && now - at < 60_000
        {
            return Ok(limits);
        }
        let limits = self.store.limits.host_limits().await?;
        if let Ok(mut l) = self.limits.write() {
            *l = Some((now, limits));
        }
        Ok(limits)
    }

    /// Forgets the limits read, after the administrator changed them.
    pub fn forget_limits(&self) {
        if let Ok(mut l) = self.limits.write() {
            *l = None;
        }
    }

    /// Counts one sheet `account` sends now, or refuses it (429, with the seconds to wait)
    /// beyond the host's `sheets_per_minute`.
    pub async fn take_sheet(&self, account: i64) -> std::result::Result<(), Failure> {
        let per_minute = self.limits().await?.sheets_per_minute;
        let now = self.now();
        let taken = match self.sheets.lock() {
            Ok(mut l) => l.take(account, now, per_minute),
            Err(_) => Ok(()),
        };
        taken.map_err(|wait| {
            Failure::too_many(
                format!(
                    "more than {per_minute} sheets in a minute from one account: wait {wait} seconds; the last sheet you sent is kept"
                ),
                wait,
            )
        })
    }

    /// The game as it stands now, whichever its ruleset, read from memory.
    pub async fn game(&self, game: &str) -> Result<Arc<dyn Game>> {
        self.games.game(&self.store, game).await
    }

    /// The game's title, with its ruleset, and the turns played.
    pub async fn heading(&self, game: &str) -> Result<(String, u32)> {
        let g = self.game(game).await?;
        Ok((format!("{} ({})", g.title(), g.ruleset().title()), g.turn()))
    }

    /// Forgets what is kept of a game in memory: the next request reads it again.
    pub fn forget(&self, game: &str) {
        self.games.forget(game);
    }

    /// Checks and keeps a submission ([`accept_on`]) against the game as kept in memory;
    /// if another process played a turn meanwhile, reads the game again and tries once more.
    /// A submission's `for_turn`, when given, must be the next turn: a sheet written for a
    /// turn that has been played is refused, never kept for the turn after.
    pub async fn submit(
        &self,
        game: &str,
        submission: &Submission,
        file: &str,
    ) -> Result<Accepted> {
        self.games.accept(&self.store, game, submission, file).await
    }

    /// Checks and keeps the GM's rulings for the next step.
    pub async fn submit_rulings(
        &self,
        game: &str,
        submission: &Submission,
        file: &str,
    ) -> Result<Accepted> {
        self.games
            .accept_rulings(&self.store, game, submission, file)
            .await
    }

    /// Plays the next turn now, on the GM's word: players who sent nothing are played by the
    /// computer (2.5), as the GM confirmed by asking.
    pub async fn play_turn(
        &self,
        game: &str,
        expect: Option<u32>,
        by: Option<i64>,
    ) -> Result<TurnReport> {
        let options = TurnOptions {
            yes: true,
            expect,
            by,
            ..TurnOptions::default()
        };
        let done = self.store.games.play_turn(game, options, self.now()).await;
        self.forget(game);
        done
    }

    /// The turn a game stands at, read from memory.
    pub async fn turn(&self, game: &str) -> Result<u32> {
        Ok(self.game(game).await?.turn())
    }
}

/// An error for a game that is not there, or not the asker's to see: the two look alike,
/// so that no one learns which games exist by asking.
pub fn no_such_game(game: &str) -> Error {
    Error::not_found(format!("no game named \"{game}\" that you can see"))
}
