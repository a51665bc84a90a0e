//! Reports out by email (2.8): after each turn, every player whose account asks for it gets
//! their report: the 78-column text report as the body, printable as it is; the HTML report,
//! made whole, as its alternative; the map of what their empire knows as a PNG (mail
//! programs often block pictures drawn in the page); and the turnsheet for the next turn as
//! a text file to fill in and send back. The GM's messages of the turn and the deadline open
//! the mail.
//!
//! Reports are queued after a turn is kept, never as part of it: a turn never waits for
//! mail. Queueing is idempotent (one report per turn and empire), and a turn played while
//! no mail was being sent is caught up the next time.

use crate::compose::{self, Envelope, ReportParts};
use crate::config::MailConfig;
use empires_host::gamedir::REPORTS_DIR;
use empires_host::ruleset::Game;
use empires_host::ruleset::mail::TurnFiles;
use empires_host::store::Millis;
use empires_host::store::OutMail;
use empires_host::store::ReportRecipient;
use empires_host::store::SeatCode;
use empires_host::store::Services;
use empires_host::{Error, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// When the turn after `turn` is due, in words, if the game's schedule has a deadline for it
/// (2.4); `None` for a game run by hand, or paused.
pub async fn deadline_after(store: &Services, game: &str, turn: u32) -> Result<Option<String>> {
    Ok(store.schedules.schedule_of(game).await?.and_then(|s| {
        let d = s
            .deadline
            .filter(|_| s.for_turn == turn + 1 && s.paused_at.is_none())?;
        Some(s.schedule.describe(d))
    }))
}

/// Queues the reports of every turn of `game` not yet mailed, and the reports held back
/// for payment that have been paid for since (2.10); returns how many messages were queued.
/// Every game alike: each seat's report as its ruleset makes it for a letter
/// ([`Game::mail_report`]).
pub async fn queue_reports(
    store: &Services,
    cfg: &MailConfig,
    game: &str,
    now: Millis,
) -> Result<usize> {
    let turns = store.mail.unmailed_turns(game).await?;
    let released = released_reports(store, game).await?;
    if turns.is_empty() && released.is_empty() {
        return Ok(0);
    }
    let everyone = store.mail.report_recipients(game, true).await?;
    let (opened, names) = opened_with_names(store, game).await?;
    let ctx = Turns {
        store,
        cfg,
        game,
        opened: &opened,
        names: &names,
        copy: None,
        now,
    };
    let mut queued = 0;
    for turn in turns {
        if !everyone.is_empty() {
            queued += ctx.queue_turn(turn, &everyone).await?;
        }
        store.mail.turn_mailed(game, turn, now).await?;
    }
    for (turn, seat) in released {
        let those: Vec<ReportRecipient> = everyone
            .iter()
            .filter(|r| r.empire == seat)
            .cloned()
            .collect();
        if !those.is_empty() {
            queued += ctx.queue_turn(turn, &those).await?;
        }
    }
    Ok(queued)
}

/// Why one player is mailed the report of the turn now current outside a turn's own
/// mailing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resend {
    /// Their address was just proved, or a seat just given to them: they have not had the
    /// report their seat was mailed (at the start of a game, the turn-0 report with its
    /// blank sheet). Mailed once to an account, and only to one that wants its reports by
    /// mail.
    Missed,
    /// They asked for it again by mail: at most [`AGAIN_PER_HOUR`] an hour to an address.
    Again,
}

/// How many reports a player may ask for again in an hour.
pub const AGAIN_PER_HOUR: i64 = 3;

/// An hour, in milliseconds.
const HOUR: Millis = 3_600_000;

/// Queues for `account` the report of the turn now current of each seat it holds in
/// `game`, to its proved address ([`Resend`] says why); returns how many were queued. A turn
/// still to be mailed is left to its own mailing, which reaches the account anyway.
pub async fn queue_current(
    store: &Services,
    cfg: &MailConfig,
    game: &str,
    account: i64,
    copy: Resend,
    now: Millis,
) -> Result<usize> {
    let (opened, names) = opened_with_names(store, game).await?;
    let turn = opened.turn();
    if copy == Resend::Missed && store.mail.unmailed_turns(game).await?.contains(&turn) {
        return Ok(0);
    }
    let those: Vec<ReportRecipient> = store
        .mail
        .report_recipients(game, copy == Resend::Missed)
        .await?
        .into_iter()
        .filter(|r| r.account == account)
        .collect();
    if those.is_empty() {
        return Ok(0);
    }
    let ctx = Turns {
        store,
        cfg,
        game,
        opened: &opened,
        names: &names,
        copy: Some(copy),
        now,
    };
    ctx.queue_turn(turn, &those).await
}

/// Queues for `account` the report of the turn now current of every game it plays, once
/// ([`Resend::Missed`]): its address has just been proved, so the turn-0 report with its
/// blank sheet, or the latest one, reaches it without waiting for the next turn.
pub async fn catch_up(
    store: &Services,
    cfg: &MailConfig,
    account: i64,
    now: Millis,
) -> Result<usize> {
    let mut queued = 0;
    for (game, _) in store.accounts.games_of(account).await? {
        queued += queue_current(store, cfg, &game, account, Resend::Missed, now).await?;
    }
    Ok(queued)
}

/// A game opened, with each seat's name by its code.
async fn opened_with_names(
    store: &Services,
    game: &str,
) -> Result<(Arc<dyn Game>, Arc<HashMap<String, String>>)> {
    let opened = empires_host::submit::open(store.games.as_ref(), game).await?;
    let names: HashMap<String, String> = opened
        .seats()?
        .into_iter()
        .map(|s| (s.code, s.name))
        .collect();
    Ok((opened, Arc::new(names)))
}

/// The reports held back for payment (a notice mailed in their place) that are paid for
/// now and not yet mailed: (turn, seat).
async fn released_reports(store: &Services, game: &str) -> Result<Vec<(u32, SeatCode)>> {
    let mut out = Vec::new();
    for key in store.mail.held_notices(game).await? {
        let Some(rest) = key.strip_prefix(&format!("held:{game}:")) else {
            continue;
        };
        let Some((turn, seat)) = rest.split_once(':') else {
            continue;
        };
        let (Ok(turn), Some(seat)) = (turn.parse::<u32>(), SeatCode::parse(seat)) else {
            continue;
        };
        if store
            .mail
            .mail_queued(&format!("report:{game}:{turn}:{seat}"))
            .await?
        {
            continue;
        }
        if store.ledgers.report_held(game, seat, turn).await?.is_none() {
            out.push((turn, seat));
        }
    }
    Ok(out)
}

/// What making a game's report mails needs, for any of its turns.
struct Turns<'a> {
    store: &'a Services,
    cfg: &'a MailConfig,
    game: &'a str,
    opened: &'a Arc<dyn Game>,
    /// Each seat's name, by its code.
    names: &'a Arc<HashMap<String, String>>,
    /// Why the report goes to one player outside the turn's own mailing, if it does.
    copy: Option<Resend>,
    now: Millis,
}

impl Turns<'_> {
    /// Queues the report of `turn` for each of `everyone`: the report, or, when it is not
    /// paid for, a notice in its place.
    async fn queue_turn(&self, turn: u32, everyone: &[ReportRecipient]) -> Result<usize> {
        let Turns {
            store,
            cfg,
            game,
            opened,
            names,
            copy,
            now,
        } = *self;
        let mut queued = 0;
        let place = format!("{}: turn {turn}", store.games.describe(game));
        let files: HashMap<String, Vec<u8>> = store
            .games
            .turn_files(game, turn)
            .await?
            .into_iter()
            .collect();
        let deadline = deadline_after(store, game, turn).await?;
        let contacts = contacts_of(store, game, opened.as_ref(), &place, &files, turn).await?;
        // 2.10: a report not paid for is not mailed; its player is told why instead.
        let mut recipients = Vec::new();
        let paid = store.ledgers.paid_turns(game).await?;
        for r in everyone {
            // A seat with no report this turn (a kingdom out of the game) gets none.
            if !files.contains_key(&format!("{REPORTS_DIR}/{}.txt", r.empire)) {
                continue;
            }
            match store.ledgers.report_held(game, r.empire, turn).await? {
                Some(why) => {
                    if store
                        .mail
                        .queue_mail(&held_notice(cfg, game, turn, r, &why, now)?, now)
                        .await?
                        .is_some()
                    {
                        queued += 1;
                    }
                }
                // 2.10: credits in hand and discounts are shown with the report.
                None if paid => recipients.push((
                    r.clone(),
                    Some(store.ledgers.ledger(r.account).await?.summary_line(game)),
                )),
                None => recipients.push((r.clone(), None)),
            }
        }
        // Drawing the maps is most of the work, and all of it is the processor's: it is
        // done on every core, off the threads that answer requests.
        let (cfg, game, opened, names) =
            (cfg.clone(), game.to_string(), opened.clone(), names.clone());
        let mails: Vec<Result<OutMail>> = tokio::task::spawn_blocking(move || {
            // Where the host has an address the letter links to the whole map, which is then
            // not drawn for it.
            let files = TurnFiles {
                place: &place,
                files: &files,
                whole_map: cfg.public_url.is_none(),
            };
            recipients
                .par_iter()
                .map(|(r, credits)| {
                    let letter = Letter {
                        cfg: &cfg,
                        game: &game,
                        opened: opened.as_ref(),
                        turn,
                        deadline: deadline.as_deref(),
                        now,
                    };
                    let name = names
                        .get(r.empire.as_str())
                        .cloned()
                        .unwrap_or_else(|| r.empire.to_string());
                    let theirs = contacts.get(&r.empire).map_or(&[][..], Vec::as_slice);
                    let mut mail =
                        letter.report_mail(&files, r, &name, credits.as_deref(), theirs)?;
                    // The turn's own mailing is one message a seat; a copy is one more, under
                    // a key of its own (its Message-ID stays the report's, so a reply to it
                    // is tied to the seat as a reply to the first is).
                    match copy {
                        None => {}
                        Some(Resend::Missed) => {
                            mail.dedupe = mail.dedupe.map(|k| format!("{k}:to:{}", r.account));
                        }
                        Some(Resend::Again) => {
                            mail.dedupe = mail.dedupe.map(|k| format!("{k}:again:{now}"));
                            mail.kind = "report again".to_string();
                        }
                    }
                    Ok(mail)
                })
                .collect()
        })
        .await
        .map_err(|e| Error::new(format!("the reports could not be made: {e}")))?;
        for mail in mails {
            let mail = mail?;
            let kept = if copy == Some(Resend::Again) {
                store
                    .mail
                    .queue_mail_within(&mail, now, now - HOUR, AGAIN_PER_HOUR)
                    .await?
            } else {
                store.mail.queue_mail(&mail, now).await?
            };
            if kept.is_some() {
                queued += 1;
            }
        }
        Ok(queued)
    }
}

/// The report mail `seat` (named `name`) of `game` gets for `turn`, as the door composes
/// it, addressed to `to`: for a GM to see what a player receives (`empires mail preview`),
/// and for the figures of what a report mail weighs.
pub fn preview(
    cfg: &MailConfig,
    (game, opened): (&str, &dyn Game),
    (turn, files): (u32, &TurnFiles),
    (seat, name, to): (SeatCode, &str, &str),
    deadline: Option<&str>,
    now: Millis,
) -> Result<Vec<u8>> {
    let letter = Letter {
        cfg,
        game,
        opened,
        turn,
        deadline,
        now,
    };
    let r = ReportRecipient {
        empire: seat,
        account: 0,
        name: name.to_string(),
        email: to.to_string(),
        expected: true,
    };
    Ok(letter.report_mail(files, &r, name, None, &[])?.message)
}

/// Queues the reports of every game's unmailed turns.
pub async fn queue_all(store: &Services, cfg: &MailConfig, now: Millis) -> Result<usize> {
    let mut n = 0;
    for (game, _) in store.games.games().await? {
        n += queue_reports(store, cfg, &game, now).await?;
    }
    Ok(n)
}

/// One turn's report mails of a game.
struct Letter<'a> {
    cfg: &'a MailConfig,
    game: &'a str,
    opened: &'a dyn Game,
    turn: u32,
    deadline: Option<&'a str>,
    now: Millis,
}

impl Letter<'_> {
    /// The report mail of `r`'s seat, named `name`: the opening, the report as the ruleset
    /// makes it for a letter, its map's picture, and the sheet for the turn now waiting.
    fn report_mail(
        &self,
        files: &TurnFiles,
        r: &ReportRecipient,
        name: &str,
        credits: Option<&str>,
        contacts: &[String],
    ) -> Result<OutMail> {
        let Letter {
            cfg,
            game,
            opened,
            turn,
            deadline,
            now,
        } = *self;
        let seat = r.empire;
        let report = opened.mail_report(turn, files, seat.as_str())?;
        // A close-up of the map comes with the whole map: on the web, where the host has an
        // address (the page zooms), else attached.
        let whole_name = format!("{game}-{seat}-turn{turn}-whole-map.png");
        let (whole, whole_at) = match (report.close_up, report.whole, &cfg.public_url) {
            (false, _, _) => (None, None),
            (true, _, Some(url)) => (
                None,
                Some(format!(
                    "The whole map: {}/games/{game}/turns/{turn}/reports/{seat}.html\n",
                    url.trim_end_matches('/')
                )),
            ),
            (true, Some(png), None) => (
                Some((whole_name.clone(), png)),
                Some(format!("The whole map is attached: {whole_name}\n")),
            ),
            (true, None, None) => (None, None),
        };
        let mut opening = opening(
            cfg,
            (game, turn, deadline),
            (name, seat),
            credits,
            report.gm_messages,
        );
        if let Some(line) = whole_at {
            opening.push_str(&wrapped(&line, ""));
        }
        if !contacts.is_empty() {
            opening
                .push_str("\nAmbassadors came to you this turn; their rulers may be written to:\n");
            for c in contacts {
                opening.push_str(&wrapped(c, "  "));
            }
        }
        let html = with_opening(&report.html, &opening);
        let mut text = opening;
        text.push('\n');
        text.push_str(&report.text);
        let next = opened.turn() + 1;
        let sheet = (
            format!("{game}-{seat}-turn{next}.txt"),
            opened.sheet(seat.as_str())?,
        );
        let key = report_key(game, turn, seat.as_str());
        let env = Envelope {
            to: &r.email,
            subject: format!("{name}: report of turn {turn}, {game}"),
            in_reply_to: None,
            key: key.clone(),
            now,
        };
        let png = report
            .picture
            .map(|p| (format!("{game}-{seat}-turn{turn}.png"), p));
        let message = compose::report(
            cfg,
            &env,
            ReportParts {
                text,
                html,
                png,
                whole,
                sheet,
            },
        )?;
        Ok(compose::queued(
            Some(game),
            Some(r.account),
            "report",
            Some(key),
            &env,
            message,
        ))
    }
}

/// For each seat of `game`, the addresses turn `turn` introduced to it: the rulers who sent
/// it an ambassador (Napoleonic Empires' Send Ambassador) and whose players share their
/// confirmed address, one line each ("France (FRA): alice, alice@example.org"). A sender
/// who does not share an address passes nothing on; the report itself says the ambassador
/// came.
async fn contacts_of(
    store: &Services,
    game: &str,
    opened: &dyn Game,
    place: &str,
    files: &HashMap<String, Vec<u8>>,
    turn: u32,
) -> Result<HashMap<SeatCode, Vec<String>>> {
    let tf = TurnFiles {
        place,
        files,
        whole_map: false,
    };
    let intros = opened.introductions(turn, &tf)?;
    if intros.is_empty() {
        return Ok(HashMap::new());
    }
    let shared = store.mail.shared_addresses(game).await?;
    let seats: HashMap<String, String> = opened
        .seats()?
        .into_iter()
        .map(|s| (s.code, s.name))
        .collect();
    let mut out: HashMap<SeatCode, Vec<String>> = HashMap::new();
    for (from, to) in intros {
        let (Some(to), Some((_, player, email))) = (
            SeatCode::parse(&to),
            shared.iter().find(|(s, _, _)| s.as_str() == from),
        ) else {
            continue;
        };
        let ruler = seats.get(&from).cloned().unwrap_or_else(|| from.clone());
        out.entry(to)
            .or_default()
            .push(format!("{ruler} ({from}): {player}, {email}"));
    }
    Ok(out)
}

/// The message a player gets in place of a report held back until its turn is paid for.
fn held_notice(
    cfg: &MailConfig,
    game: &str,
    turn: u32,
    r: &ReportRecipient,
    why: &str,
    now: Millis,
) -> Result<OutMail> {
    let key = format!("held:{game}:{turn}:{}", r.empire);
    let env = Envelope {
        to: &r.email,
        subject: format!(
            "{}: report of turn {turn}, {game}, waits for payment",
            r.empire
        ),
        in_reply_to: None,
        key: key.clone(),
        now,
    };
    let body = format!(
        "Turn {turn} of game \"{game}\" has been played, but {why}\n\nOnce your GM has entered your payment, read the report on the web; send your orders for turn {} as usual.\n",
        turn + 1
    );
    let message = compose::answer(cfg, &env, &body)?;
    Ok(compose::queued(
        Some(game),
        Some(r.account),
        "held",
        Some(key),
        &env,
        message,
    ))
}

/// The width of a mail's text lines (RFC 5322 2.1.1): a phone wraps nothing.
pub const LINE: usize = 78;

/// `text` as lines of at most [`LINE`] columns, each begun by `indent`.
pub fn wrapped(text: &str, indent: &str) -> String {
    let opts = textwrap::Options::new(LINE)
        .initial_indent(indent)
        .subsequent_indent(indent);
    let mut out = String::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            out.push('\n');
            continue;
        }
        for l in textwrap::wrap(line, &opts) {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}

/// What opens a report mail, before the report itself: whose report it is, when the next
/// orders are due (stated here alone: the GM's notices of the schedule name no date), the
/// GM's messages of the turn and how to answer. Every line within [`LINE`] columns.
fn opening(
    cfg: &MailConfig,
    (game, turn, deadline): (&str, u32, Option<&str>),
    (name, e): (&str, SeatCode),
    credits: Option<&str>,
    gm_messages: Option<String>,
) -> String {
    let mut text = wrapped(&format!("{name} ({e}), game \"{game}\", turn {turn}."), "");
    if let Some(c) = credits {
        text.push_str(&wrapped(c, ""));
    }
    text.push_str(&wrapped(
        &match deadline {
            Some(at) => format!("Orders for turn {} are due by {at}.", turn + 1),
            None => format!(
                "No deadline is set for turn {}: your GM will say when it is played.",
                turn + 1
            ),
        },
        "",
    ));
    if let Some(m) = gm_messages {
        text.push_str("\nFrom your GM:\n");
        text.push_str(&wrapped(&m, "  "));
    }
    text.push('\n');
    text.push_str(&wrapped(
        &format!(
            "To send orders, reply to this message with your PASSWORD line (PASSWORD and \
             your mail password) and your actions, one a line: no header is needed, the \
             reply says which game and seat it is for. The attached turnsheet filled in, \
             with your PASSWORD line under its header, may be sent to {} at any time.",
            cfg.from.email
        ),
        "",
    ));
    text
}

/// The report page with the mail's opening shown above the report, as preformatted text so
/// that it reads as in the plain-text part.
fn with_opening(page: &str, opening: &str) -> String {
    const MAIN: &str = "<main>";
    let Some(at) = page.find(MAIN).map(|i| i + MAIN.len()) else {
        return page.to_string();
    };
    let escaped = opening
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        "{}<section class=\"mail-opening\"><pre style=\"white-space:pre-wrap;font:inherit\">{escaped}</pre></section>{}",
        &page[..at],
        &page[at..]
    )
}

/// Reminds every player of `game` with an address on record who has sent no turnsheet for
/// the next turn that it is due at `deadline`. `label` names the reminder ("24h", "2h"): each
/// is sent once per turn and empire however often this is called. Returns how many were
/// queued. Deadlines are kept by the host's schedules; this is what they call.
pub async fn queue_reminders(
    store: &Services,
    cfg: &MailConfig,
    game: &str,
    deadline: Millis,
    label: &str,
    now: Millis,
) -> Result<usize> {
    let next = store.accounts.version(game).await?.0 + 1;
    // A game played in steps names the step the reminder is for ("turn 3, game-turn 2, leg
    // 1 of 2"); one played whole, the turn alone.
    let opened = empires_host::submit::open(store.games.as_ref(), game).await?;
    let step = opened.step()?;
    // What a seat that sends nothing plays as is the ruleset's rule (Empires' 2.5).
    let missed = opened.ruleset().missed_turn();
    let turn = match step.expected {
        Some(_) => format!("turn {next} ({})", step.label),
        None => format!("turn {next}"),
    };
    let sent: Vec<String> = store
        .games
        .pending(game)
        .await?
        .into_iter()
        .map(|(name, _)| name.split('.').next().unwrap_or("").to_uppercase())
        .collect();
    // The deadline in the schedule's own time zone, when the game has one.
    let due = match store.schedules.schedule_of(game).await? {
        Some(s) => s.schedule.describe(deadline),
        None => crate::inbound::when(deadline),
    };
    let mut queued = 0;
    // A game played in steps reminds only the seats its next step waits for.
    for r in store.mail.report_recipients(game, false).await? {
        if sent.contains(&r.empire.to_string()) || !r.expected {
            continue;
        }
        let key = format!("reminder:{game}:{next}:{}:{label}", r.empire);
        let env = Envelope {
            to: &r.email,
            subject: format!("Reminder: orders for {turn} of {game} are due"),
            in_reply_to: None,
            key: key.clone(),
            now,
        };
        let body = format!(
            "No turnsheet from {} for {turn} of game \"{game}\" has reached the host yet.\nOrders are due by {}. Send them to {} (with your PASSWORD line), or on the web.\nIf nothing arrives: {missed}\n",
            r.empire, due, cfg.from.email
        );
        let message = compose::answer(cfg, &env, &body)?;
        let mail = compose::queued(
            Some(game),
            Some(r.account),
            "reminder",
            Some(key),
            &env,
            message,
        );
        if store.mail.queue_mail(&mail, now).await?.is_some() {
            queued += 1;
        }
    }
    Ok(queued)
}

/// Queues the reminders every game's schedule says are due at `now` (2.4): the latest
/// reminder time passed before each deadline, once per turn. Returns how many were queued.
pub async fn queue_reminders_due(store: &Services, cfg: &MailConfig, now: Millis) -> Result<usize> {
    let mut queued = 0;
    for due in store.schedules.reminders_due(now).await? {
        // Recorded first: with several host processes, only the one that records it sends.
        if store.schedules.reminder_sent(&due, now).await? {
            queued += queue_reminders(store, cfg, &due.game, due.deadline, &due.label, now).await?;
        }
    }
    Ok(queued)
}

/// What a seat's report mail of a turn is known by: its Message-ID is made from it, and a
/// reply to it (its `In-Reply-To`) is read as that seat's sheet.
pub fn report_key(game: &str, turn: u32, seat: &str) -> String {
    format!("report:{game}:{turn}:{seat}")
}
