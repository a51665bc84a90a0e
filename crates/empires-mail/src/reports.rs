//! Reports out by email (2.8): after each turn, every player whose account asks for it gets
//! their report: the 80-column text report as the body, printable as it is; the HTML report,
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
use empires_host::gamedir::{GM_MESSAGES_FILE, ORDERS_DIR, STATE_FILE};
use empires_host::ruleset::HostedGame;
use empires_host::store::SeatCode;
use empires_host::store::sql::OutMail;
use empires_host::store::sql::{ReportRecipient, SqlStore};
use empires_host::store::{Millis, Store};
use empires_host::{Error, Result};
use empires_maps::draw::Layers;
use empires_rules::{EmpireCode, GameState};
use empires_ruleset::Loaded;
use empires_ruleset::drawing;
use empires_ruleset::gamedir::parse_state;
use empires_ruleset::whole::whole_report;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// When the turn after `turn` is due, in words, if the game's schedule has a deadline for it
/// (2.4); `None` for a game run by hand, or paused.
pub async fn deadline_after(store: &SqlStore, game: &str, turn: u32) -> Result<Option<String>> {
    Ok(store.schedule_of(game).await?.and_then(|s| {
        let d = s
            .deadline
            .filter(|_| s.for_turn == turn + 1 && s.paused_at.is_none())?;
        Some(s.schedule.describe(d))
    }))
}

/// Queues the reports of every turn of `game` not yet mailed, and the reports held back
/// for payment that have been paid for since (2.10); returns how many messages were queued.
pub async fn queue_reports(
    store: &SqlStore,
    cfg: &MailConfig,
    game: &str,
    now: Millis,
) -> Result<usize> {
    if let Some(hosted) = store.hosted_game(game).await? {
        return queue_hosted(store, cfg, &hosted, now).await;
    }
    let turns = store.unmailed_turns(game).await?;
    let released = released_reports(store, game).await?;
    if turns.is_empty() && released.is_empty() {
        return Ok(0);
    }
    let everyone = store.report_recipients(game, true).await?;
    let loaded = Arc::new(empires_ruleset::ruleset::load(store, game).await?);
    let layers = drawing::layers(&loaded.map, &loaded.map_text, loaded.map_script.as_deref());
    let ctx = Turns {
        store,
        cfg,
        game,
        loaded: &loaded,
        layers: &layers,
        now,
    };
    let mut queued = 0;
    for turn in turns {
        if !everyone.is_empty() {
            queued += ctx.queue_turn(turn, &everyone).await?;
        }
        store.turn_mailed(game, turn, now).await?;
    }
    for (turn, empire) in released {
        let those: Vec<ReportRecipient> = everyone
            .iter()
            .filter(|r| r.empire == empires_ruleset::seat(empire))
            .cloned()
            .collect();
        if !those.is_empty() {
            queued += ctx.queue_turn(turn, &those).await?;
        }
    }
    Ok(queued)
}

/// [`queue_reports`] for a game of another ruleset: each seat's text report as the body, its
/// HTML report as the alternative, and the sheet for the next turn to fill in, all as the
/// ruleset wrote them (no turn of such a game is charged for).
async fn queue_hosted(
    store: &SqlStore,
    cfg: &MailConfig,
    game: &HostedGame,
    now: Millis,
) -> Result<usize> {
    let name = &game.name;
    let names: HashMap<String, String> = game
        .ruleset
        .seats(game.text())?
        .into_iter()
        .map(|s| (s.code, s.name))
        .collect();
    let mut queued = 0;
    for turn in store.unmailed_turns(name).await? {
        let everyone = store.report_recipients(name, true).await?;
        let files = TurnFiles::read(store, name, turn).await?;
        let deadline = deadline_after(store, name, turn).await?;
        for r in &everyone {
            let seat = r.empire;
            let read = |ext: &str| files.text(&format!("{REPORTS_DIR}/{seat}.{ext}"));
            let (Ok(report), Ok(html)) = (read("txt"), read("html")) else {
                // A seat with no report this turn (a kingdom out of the game) gets none.
                continue;
            };
            let seat_name = names
                .get(seat.as_str())
                .cloned()
                .unwrap_or_else(|| seat.to_string());
            let mut text = opening(
                cfg,
                (name, turn, deadline.as_deref()),
                (&seat_name, seat),
                None,
                // The report itself opens its messages with the GM's.
                None,
            );
            text.push('\n');
            text.push_str(&report);
            // The sheet to fill in is the one for the turn now waiting.
            let sheet = match game.ruleset.sheet(game.text(), seat.as_str()) {
                Ok(s) => (format!("{name}-{seat}-turn{}.txt", game.turn + 1), s),
                Err(_) => continue,
            };
            let key = format!("report:{name}:{turn}:{seat}");
            let env = Envelope {
                to: &r.email,
                subject: format!("{seat_name}: report of turn {turn}, {name}"),
                in_reply_to: None,
                key: key.clone(),
                now,
            };
            // The map as a picture where the ruleset draws one: mail readers do not show
            // the page's own drawing. A picture that cannot be made leaves the page as it is.
            let png = read("json").ok().and_then(|json| {
                match game.ruleset.picture(game.text(), seat.as_str(), &json) {
                    Ok(png) => png,
                    Err(e) => {
                        tracing::warn!("{name}, turn {turn}, {seat}: no map picture: {e}");
                        None
                    }
                }
            });
            let html = match &png {
                Some(_) => picture_in_page(&html),
                None => html,
            };
            let png = png.map(|p| (format!("{name}-{seat}-turn{turn}.png"), p));
            let message = compose::report(
                cfg,
                &env,
                ReportParts {
                    text,
                    html,
                    png,
                    sheet,
                },
            )?;
            let mail = compose::queued(
                Some(name),
                Some(r.account),
                "report",
                Some(key),
                &env,
                message,
            );
            if store.queue_mail(&mail, now).await?.is_some() {
                queued += 1;
            }
        }
        store.turn_mailed(name, turn, now).await?;
    }
    Ok(queued)
}

/// A report page with its first inline drawing (`<svg>...</svg>`) swapped for the
/// picture mailed with it: mail readers show an image, not a drawing.
fn picture_in_page(page: &str) -> String {
    let Some(a) = page.find("<svg") else {
        return page.to_string();
    };
    let Some(end) = page[a..].find("</svg>").map(|i| a + i + "</svg>".len()) else {
        return page.to_string();
    };
    format!(
        "{}<img src=\"cid:{}\" alt=\"The map of what your realm knows\" style=\"max-width:100%;height:auto\">{}",
        &page[..a],
        crate::compose::MAP_CID,
        &page[end..]
    )
}

/// The reports held back for payment (a notice mailed in their place) that are paid for
/// now and not yet mailed: (turn, empire).
async fn released_reports(store: &SqlStore, game: &str) -> Result<Vec<(u32, EmpireCode)>> {
    let mut out = Vec::new();
    for key in store.held_notices(game).await? {
        let Some(rest) = key.strip_prefix(&format!("held:{game}:")) else {
            continue;
        };
        let Some((turn, empire)) = rest.split_once(':') else {
            continue;
        };
        let (Ok(turn), Ok(empire)) = (turn.parse::<u32>(), EmpireCode::parse(empire)) else {
            continue;
        };
        if store
            .mail_queued(&format!("report:{game}:{turn}:{empire}"))
            .await?
        {
            continue;
        }
        if store
            .report_held(game, empires_ruleset::seat(empire), turn)
            .await?
            .is_none()
        {
            out.push((turn, empire));
        }
    }
    Ok(out)
}

/// What making a game's report mails needs, for any of its turns.
struct Turns<'a> {
    store: &'a SqlStore,
    cfg: &'a MailConfig,
    game: &'a str,
    loaded: &'a Arc<Loaded>,
    layers: &'a Option<Arc<Layers>>,
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
            loaded,
            layers,
            now,
        } = *self;
        let mut queued = 0;
        let files = TurnFiles::read(store, game, turn).await?;
        let state = files.state(loaded, turn)?;
        let deadline = deadline_after(store, game, turn).await?;
        // 2.10: a report not paid for is not mailed; its player is told why instead.
        let mut recipients = Vec::new();
        let paid = store.paid_turns(game).await?;
        for r in everyone {
            match store.report_held(game, r.empire, turn).await? {
                Some(why) => {
                    if store
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
                    Some(store.ledger(r.account).await?.summary_line(game)),
                )),
                None => recipients.push((r.clone(), None)),
            }
        }
        let recipients = Arc::new(recipients);
        // Drawing the maps is most of the work, and all of it is the processor's: it is
        // done on every core, off the threads that answer requests.
        let (cfg2, game2, loaded2, layers2, recipients2) = (
            cfg.clone(),
            game.to_string(),
            loaded.clone(),
            layers.clone(),
            recipients.clone(),
        );
        let mails: Vec<Result<OutMail>> = tokio::task::spawn_blocking(move || {
            recipients2
                .par_iter()
                .map(|(r, credits)| {
                    report_mail(
                        &cfg2,
                        &game2,
                        &loaded2,
                        turn,
                        &files,
                        &state,
                        layers2.as_deref(),
                        r,
                        (deadline.as_deref(), credits.as_deref()),
                        now,
                    )
                })
                .collect()
        })
        .await
        .map_err(|e| Error::new(format!("the reports could not be made: {e}")))?;
        for mail in mails {
            if store.queue_mail(&mail?, now).await?.is_some() {
                queued += 1;
            }
        }
        Ok(queued)
    }
}

/// Queues the reports of every game's unmailed turns.
pub async fn queue_all(store: &SqlStore, cfg: &MailConfig, now: Millis) -> Result<usize> {
    let mut n = 0;
    for (game, _) in store.games().await? {
        n += queue_reports(store, cfg, &game, now).await?;
    }
    Ok(n)
}

/// A turn's files, read once for all its reports.
struct TurnFiles {
    place: String,
    files: HashMap<String, Vec<u8>>,
}

impl TurnFiles {
    async fn read(store: &SqlStore, game: &str, turn: u32) -> Result<TurnFiles> {
        Ok(TurnFiles {
            place: format!("{}: turn {turn}", store.describe(game)),
            files: store.turn_files(game, turn).await?.into_iter().collect(),
        })
    }

    fn text(&self, path: &str) -> Result<String> {
        let bytes = self
            .files
            .get(path)
            .ok_or_else(|| Error::corrupt(format!("{}: {path} is missing", self.place)))?;
        String::from_utf8(bytes.clone())
            .map_err(|_| Error::corrupt(format!("{}: {path} is not valid UTF-8", self.place)))
    }

    /// The game as it stood after the turn, for drawing each empire's map.
    fn state(&self, loaded: &Loaded, turn: u32) -> Result<GameState> {
        if turn == loaded.turn {
            return Ok(loaded.state.clone());
        }
        parse_state(&self.text(STATE_FILE)?, &self.place, &loaded.map)
    }

    /// The GM's messages played in the turn, if any.
    fn gm_messages(&self) -> Option<String> {
        let path = format!("{ORDERS_DIR}/{GM_MESSAGES_FILE}");
        self.files
            .get(&path)
            .map(|b| String::from_utf8_lossy(b).trim().to_string())
            .filter(|s| !s.is_empty())
    }
}

#[allow(clippy::too_many_arguments)]
fn report_mail(
    cfg: &MailConfig,
    game: &str,
    loaded: &Loaded,
    turn: u32,
    files: &TurnFiles,
    state: &GameState,
    layers: Option<&Layers>,
    r: &ReportRecipient,
    (deadline, credits): (Option<&str>, Option<&str>),
    now: Millis,
) -> Result<empires_host::store::sql::OutMail> {
    let e = empires_ruleset::empire(r.empire).ok_or_else(|| {
        Error::corrupt(format!(
            "{}: {} is not an empire's seat",
            files.place, r.empire
        ))
    })?;
    let read = |path: &str| files.text(path);
    let report_text = whole_report(&read, e, "txt", None, &files.place)?;
    let png = match layers {
        Some(l) => Some((
            format!("{game}-{e}-turn{turn}.png"),
            map_png(loaded, state, l, e)?,
        )),
        None => None,
    };
    // With a picture of the map, the page shows it rather than carrying the drawing.
    let html = match png {
        Some(_) => with_map_picture(&whole_report(&read, e, "html", None, &files.place)?),
        None => whole_report(&read, e, "html", layers, &files.place)?,
    };
    let name = empire_name(loaded, e);
    let opening = opening(
        cfg,
        (game, turn, deadline),
        (&name, empires_ruleset::seat(e)),
        credits,
        files.gm_messages(),
    );
    let html = with_opening(&html, &opening);
    let mut text = opening;
    text.push('\n');
    text.push_str(&report_text);
    let sheet = (
        format!("{game}-{e}-turn{}.txt", turn + 1),
        loaded.blank_sheet(game, e),
    );
    let env = Envelope {
        to: &r.email,
        subject: format!("{name}: report of turn {turn}, {game}"),
        in_reply_to: None,
        key: format!("report:{game}:{turn}:{e}"),
        now,
    };
    let message = compose::report(
        cfg,
        &env,
        ReportParts {
            text,
            html,
            png,
            sheet,
        },
    )?;
    Ok(compose::queued(
        Some(game),
        Some(r.account),
        "report",
        Some(format!("report:{game}:{turn}:{e}")),
        &env,
        message,
    ))
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

/// What opens a report mail, before the report itself: whose report it is, when the next
/// orders are due, the GM's messages of the turn and how to answer.
fn opening(
    cfg: &MailConfig,
    (game, turn, deadline): (&str, u32, Option<&str>),
    (name, e): (&str, SeatCode),
    credits: Option<&str>,
    gm_messages: Option<String>,
) -> String {
    let mut text = format!("{name} ({e}), game \"{game}\", turn {turn}.\n");
    if let Some(c) = credits {
        text.push_str(c);
        text.push('\n');
    }
    text.push_str(&match deadline {
        Some(at) => format!("Orders for turn {} are due by {at}.\n", turn + 1),
        None => format!(
            "No deadline is set for turn {}: your GM will say when it is played.\n",
            turn + 1
        ),
    });
    if let Some(m) = gm_messages {
        text.push_str("\nFrom your GM:\n");
        for line in m.lines() {
            text.push_str("  ");
            text.push_str(line);
            text.push('\n');
        }
    }
    text.push_str(&format!(
        "\nTo send orders, reply with the attached turnsheet filled in, with your PASSWORD line\nadded to its header, in the message or as a .txt attachment, to {}.\n",
        cfg.from.email
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

/// A report page whose map section shows the PNG sent with it (by its Content-ID) in place
/// of the drawing and the scripts that draw it.
fn with_map_picture(page: &str) -> String {
    const START: &str = "<section class=\"map\" id=\"map\">";
    let Some(a) = page.find(START) else {
        return page.to_string();
    };
    let rest = &page[a + START.len()..];
    let end = ["<section", "</main>"]
        .iter()
        .filter_map(|m| rest.find(m))
        .min()
        .map_or(page.len(), |i| a + START.len() + i);
    format!(
        "{}{START}<h2>Map</h2><img src=\"cid:{}\" alt=\"The map of what your empire knows\" style=\"max-width:100%;height:auto\"></section>{}",
        &page[..a],
        crate::compose::MAP_CID,
        &page[end..]
    )
}

/// The map of what `empire` knows, drawn on the game's kept layer and made a PNG.
fn map_png(
    loaded: &Loaded,
    state: &GameState,
    layers: &Layers,
    empire: EmpireCode,
) -> Result<Vec<u8>> {
    let overlay = empires_maps::draw::overlay(
        &layers.layout,
        &loaded.map,
        Some((state, Some(empire))),
        None,
    )
    .map_err(Error::new)?;
    empires_maps::draw::png_small(&layers.assemble(&overlay)).map_err(Error::new)
}

fn empire_name(loaded: &Loaded, e: EmpireCode) -> String {
    loaded
        .map
        .empires
        .iter()
        .find(|x| x.code == e)
        .map_or_else(|| e.to_string(), |x| x.name.clone())
}

/// Reminds every player of `game` with an address on record who has sent no turnsheet for
/// the next turn that it is due at `deadline`. `label` names the reminder ("24h", "2h"): each
/// is sent once per turn and empire however often this is called. Returns how many were
/// queued. Deadlines are kept by the host's schedules; this is what they call.
pub async fn queue_reminders(
    store: &SqlStore,
    cfg: &MailConfig,
    game: &str,
    deadline: Millis,
    label: &str,
    now: Millis,
) -> Result<usize> {
    let next = store.version(game).await?.0 + 1;
    let sent: Vec<String> = store
        .pending(game)
        .await?
        .into_iter()
        .map(|(name, _)| name.split('.').next().unwrap_or("").to_uppercase())
        .collect();
    // The deadline in the schedule's own time zone, when the game has one.
    let due = match store.schedule_of(game).await? {
        Some(s) => s.schedule.describe(deadline),
        None => crate::inbound::when(deadline),
    };
    let mut queued = 0;
    for r in store.report_recipients(game, false).await? {
        if sent.contains(&r.empire.to_string()) {
            continue;
        }
        let key = format!("reminder:{game}:{next}:{}:{label}", r.empire);
        let env = Envelope {
            to: &r.email,
            subject: format!("Reminder: orders for turn {next} of {game} are due"),
            in_reply_to: None,
            key: key.clone(),
            now,
        };
        let body = format!(
            "No turnsheet from {} for turn {next} of game \"{game}\" has reached the host yet.\nOrders are due by {}. Send them to {} (with your PASSWORD line), or on the web.\nIf nothing arrives, the computer plays your empire's turn (rule 2.5).\n",
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
        if store.queue_mail(&mail, now).await?.is_some() {
            queued += 1;
        }
    }
    Ok(queued)
}

/// Queues the reminders every game's schedule says are due at `now` (2.4): the latest
/// reminder time passed before each deadline, once per turn. Returns how many were queued.
pub async fn queue_reminders_due(store: &SqlStore, cfg: &MailConfig, now: Millis) -> Result<usize> {
    let mut queued = 0;
    for due in store.reminders_due(now).await? {
        // Recorded first: with several host processes, only the one that records it sends.
        if store.reminder_sent(&due, now).await? {
            queued += queue_reminders(store, cfg, &due.game, due.deadline, &due.label, now).await?;
        }
    }
    Ok(queued)
}
