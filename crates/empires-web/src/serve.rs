//! Starting the server: the store, the first GM account (its one-time password printed
//! once), games made at the command line given to that GM, the demo game, and serving
//! until stopped.

use crate::auth::{hash_password, new_secret};
use crate::failure::Failure;
use crate::host::{Clock, Host, WebConfig};
use empires_host::store::Millis;
use empires_host::store::Role;
use empires_host::store::Services;
use empires_host::{Error, Result};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

/// The database `empires serve` uses when none is named: a file in the current directory.
pub const DEFAULT_DB: &str = "sqlite:empires-host.db";
/// The database of `empires serve --demo` when none is named.
pub const DEMO_DB: &str = "sqlite:empires-demo.db";
/// The demo game's name, and its player account and password.
pub const DEMO_GAME: &str = "demo";
pub const DEMO_PLAYER: &str = "newcomer";
pub const DEMO_PASSWORD: &str = "try-empires";

/// How `empires serve` was asked to run.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub listen: SocketAddr,
    pub db: String,
    /// The demo game to open with, made by the program (the web names no game).
    pub demo: Option<Demo>,
    /// In the demo, play the player's turn as soon as its orders are in (off to measure
    /// submissions alone).
    pub demo_autoplay: bool,
    pub config: WebConfig,
    /// The mail door, when the host plays by email too.
    pub mail: Option<MailDoor>,
}

/// A demo game, made by the program: every seat but one played by the computer, and a
/// player account for that one to try.
#[derive(Debug, Clone)]
pub struct Demo {
    pub ruleset: &'static dyn empires_host::ruleset::Ruleset,
    /// The game at its start, its sheets naming it [`DEMO_GAME`]; the seat `seat` has the
    /// player [`DEMO_PLAYER`].
    pub started: empires_host::ruleset::Started,
    pub seat: String,
    /// The seat's name, for the line that invites a newcomer in.
    pub seat_name: String,
}

/// The mail door of a serving host: mail is sent through `config` (or waits in the
/// outbox), reports are queued after each turn, and new messages are taken from `maildir`.
#[derive(Debug, Clone)]
pub struct MailDoor {
    pub config: empires_mail::MailConfig,
    pub maildir: Option<std::path::PathBuf>,
}

/// How often the mail door looks for new mail, turns played and mail to send.
const MAIL_TICK: std::time::Duration = std::time::Duration::from_secs(10);

/// The mail door's round, every [`MAIL_TICK`]: new messages in, reports of new turns
/// queued, the outbox sent. A failure is reported and tried again next round; it never
/// stops the web door.
async fn mail_rounds(host: Arc<Host>, door: MailDoor) {
    loop {
        let now = host.now();
        if let Some(dir) = &door.maildir {
            let mut receiver = empires_mail::Receiver::new(&host.store, &door.config);
            match empires_mail::maildir::fetch(&mut receiver, dir, now).await {
                Ok(fetched) => {
                    for p in &fetched.problems {
                        tracing::warn!("mail: {p}");
                    }
                }
                Err(e) => tracing::error!("mail: {}: {e}", dir.display()),
            }
        }
        if let Err(e) = empires_mail::reports::queue_all(&host.store, &door.config, now).await {
            tracing::error!("mail: the reports could not be queued: {e}");
        }
        if let Err(e) = empires_mail::send::send_due(&host.store, &door.config, now).await {
            tracing::error!("mail: the outbox could not be sent: {e}");
        }
        tokio::time::sleep(MAIL_TICK).await;
    }
}

/// How often the host looks at its games' deadlines.
pub const CLOCK_TICK: std::time::Duration = std::time::Duration::from_secs(5);

/// One round of the host's clock at `now`: every turn whose deadline has come is played
/// (one per game a round, so a host catching up plays one deadline at a time), and, with
/// the mail door, the reminders due are queued. Returns what to log.
pub async fn clock_round(
    store: &Services,
    mail: Option<&empires_mail::MailConfig>,
    now: Millis,
) -> Vec<String> {
    let mut lines = Vec::new();
    match empires_host::clock::run_due(store, now).await {
        Ok(ran) => lines.extend(
            ran.iter()
                .filter(|r| !matches!(r, empires_host::clock::Ran::Taken { .. }))
                .map(|r| r.to_string()),
        ),
        Err(e) => lines.push(format!("deadlines: {e}")),
    }
    if let Some(cfg) = mail
        && let Err(e) = empires_mail::reports::queue_reminders_due(store, cfg, now).await
    {
        lines.push(format!("mail: the reminders could not be queued: {e}"));
    }
    lines
}

/// The host's clock, every [`CLOCK_TICK`], for as long as the host serves; an SQLite
/// store's write-ahead log is kept under its cap at the same pace.
async fn clock_rounds(host: Arc<Host>, mail: Option<empires_mail::MailConfig>) {
    loop {
        for line in clock_round(&host.store, mail.as_ref(), host.now()).await {
            tracing::info!("{line}");
        }
        if let Err(e) = host.store.limits.keep_wal_small().await {
            tracing::error!("{e}");
        }
        tokio::time::sleep(CLOCK_TICK).await;
    }
}

/// What starting the host has to tell the person who started it.
pub struct Started {
    pub host: Arc<Host>,
    pub lines: Vec<String>,
}

fn failed(e: Failure) -> Error {
    Error::new(e.message)
}

/// Opens the store and makes it ready to serve: the first GM account when there is none,
/// the games no GM runs given to the first GM, the demo game when asked for.
pub async fn prepare(options: &ServeOptions, clock: Clock) -> Result<Started> {
    let store = Services::open(&options.db).await?;
    let host = Arc::new(Host::new(store, clock, options.config.clone()));
    let mut lines = Vec::new();
    let now = host.now();
    if host.store.accounts.gm_count().await? == 0 {
        let password = new_secret()[..20].to_string();
        let hash = hash_password(&password).await.map_err(failed)?;
        let name = if host.store.accounts.account_by_name("gm").await?.is_none() {
            "gm".to_string()
        } else {
            format!("gm-{}", &new_secret()[..6])
        };
        host.store
            .accounts
            .create_account(&name, None, Role::Gm, Some(&hash), now)
            .await?;
        lines.push(format!(
            "The host's first GM account is \"{name}\", password {password}: it is shown only now. Log in and change it on the account page. It is the host's administrator; a lost password is recovered with `empires accounts reset {name} --db ...`."
        ));
    }
    // The first GM is the host's administrator on a host that has none.
    if let Some(name) = host.store.accounts.ensure_admin().await? {
        lines.push(format!("\"{name}\" is the host's administrator."));
    }
    let gm = first_gm(&host).await?;
    let adopted = host.store.accounts.adopt_games(gm).await?;
    if !adopted.is_empty() {
        lines.push(format!(
            "Games given to the first GM: {}",
            adopted.join(", ")
        ));
    }
    if let Some(d) = &options.demo {
        lines.extend(demo(&host, gm, d, options.demo_autoplay).await?);
    }
    Ok(Started { host, lines })
}

async fn first_gm(host: &Host) -> Result<i64> {
    host.store
        .accounts
        .accounts()
        .await?
        .into_iter()
        .filter(|a| a.role == Role::Gm)
        .map(|a| a.id)
        .min()
        .ok_or_else(|| Error::new("the host has no GM account"))
}

/// The demo: the program's game, two turns played, and a player account for its seat.
async fn demo(host: &Host, gm: i64, d: &Demo, autoplay: bool) -> Result<Vec<String>> {
    let now = host.now();
    if host
        .store
        .accounts
        .account_by_name(DEMO_PLAYER)
        .await?
        .is_none()
    {
        let hash = hash_password(DEMO_PASSWORD).await.map_err(failed)?;
        host.store
            .accounts
            .create_account(DEMO_PLAYER, None, Role::Player, Some(&hash), now)
            .await?;
    }
    if host.store.accounts.game_gm(DEMO_GAME).await.is_err() {
        host.store
            .games
            .create_game(DEMO_GAME, d.ruleset, &d.started, now)
            .await?;
        host.store.accounts.set_game_gm(DEMO_GAME, gm).await?;
        for _ in 0..2 {
            host.play_turn(DEMO_GAME, None, None).await?;
        }
    }
    let when = if autoplay {
        format!(
            "the turn is played a few seconds after {}'s orders arrive",
            d.seat_name
        )
    } else {
        "the turn is played when the GM plays it from the game's console (--no-autoplay)"
            .to_string()
    };
    Ok(vec![format!(
        "Demo: log in as \"{DEMO_PLAYER}\", password \"{DEMO_PASSWORD}\", to play {} in the game \"{DEMO_GAME}\"; {when}.",
        d.seat_name
    )])
}

/// How often the demo looks for its player's orders.
const DEMO_TICK: std::time::Duration = std::time::Duration::from_secs(3);

/// The demo's GM: plays the turn as soon as the player's orders are in, so that a newcomer
/// reads the result of their orders without waiting for anyone.
async fn demo_autoplay(host: Arc<Host>, seat: String) {
    let sheet = format!("{seat}.txt");
    loop {
        tokio::time::sleep(DEMO_TICK).await;
        let sent = match host.store.games.pending(DEMO_GAME).await {
            Ok(files) => files
                .iter()
                .any(|(name, _)| name.eq_ignore_ascii_case(&sheet)),
            Err(_) => false,
        };
        if sent && let Err(e) = host.play_turn(DEMO_GAME, None, None).await {
            tracing::error!("demo: the turn could not be played: {e}");
        }
    }
}

/// Serves `host` on `listener` until `shutdown` completes.
pub async fn run(
    listener: tokio::net::TcpListener,
    host: Arc<Host>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<()> {
    let app = crate::app(host);
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
    .map_err(|e| Error::new(format!("the server stopped: {e}")))
}

/// `empires serve`: prepares the host, prints what its starter must know, and serves until
/// Ctrl-C.
pub async fn serve(options: ServeOptions, mut out: impl std::io::Write) -> Result<()> {
    // The clock every command reads: `EMPIRES_CLOCK_FILE` rehearses a schedule by hand.
    let started = prepare(&options, Clock::from_env()).await?;
    let listener = tokio::net::TcpListener::bind(options.listen)
        .await
        .map_err(|e| Error::new(format!("cannot listen on {}: {e}", options.listen)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Error::new(format!("cannot listen on {}: {e}", options.listen)))?;
    if let (Some(d), true) = (&options.demo, options.demo_autoplay) {
        tokio::spawn(demo_autoplay(started.host.clone(), d.seat.clone()));
    }
    if let Some(door) = &options.mail {
        let smtp = door.config.smtp.as_ref().map_or_else(
            || "no SMTP server: mail waits in the outbox".to_string(),
            |s| format!("sent through {}", s.describe()),
        );
        let _ = writeln!(
            out,
            "Mail door open: mail from {}, {smtp}.",
            door.config.from
        );
        tokio::spawn(mail_rounds(started.host.clone(), door.clone()));
    }
    tokio::spawn(clock_rounds(
        started.host.clone(),
        options.mail.as_ref().map(|d| d.config.clone()),
    ));
    for line in &started.lines {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "Empires is serving {} on http://{addr}/ (Ctrl-C stops it).",
        options.db
    );
    let _ = out.flush();
    let host = started.host.clone();
    let served = run(listener, started.host, stop_signal()).await;
    // A clean stop leaves the database whole in its file.
    host.store.limits.close().await;
    served
}

/// Ctrl-C, or the SIGTERM a service manager stops the host with.
async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(t) => t,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
