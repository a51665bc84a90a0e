//! The GM's console: the seats and who holds them, who has sent a turnsheet (and opening
//! one, which the audit log records), playing the turn, messages to every player, one-time
//! links for players, the reports of every empire, the game as a directory to download,
//! and starting new games. Every action is recorded in the game's audit log.

use super::games::url_part;
use super::layout::{Nav, deadline_text, page, time};
use super::schedule::audit;
use crate::access::gm_of;
use crate::auth::{CsrfForm, Me, new_secret, secret_hash};
use crate::failure::Failure;
use crate::host::Host;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Redirect, Response};
use empires_host::store::LinkPurpose;
use empires_host::store::SeatCode;
use empires_host::store::{Millis, Submission};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::sync::Arc;

/// How long a one-time link works: 7 days.
pub const LINK_LIFE: Millis = 7 * 24 * 3600 * 1000;

/// A seat as the console lists it.
pub struct SeatLine {
    pub empire: String,
    pub holder: String,
    pub holder_name: String,
    pub has_holder: bool,
    /// The holder's account is this GM's to hand links to: made for this game, and its
    /// owner has not set a password of their own.
    pub held: bool,
    pub status: String,
    pub missed: u32,
    pub sent: bool,
    /// The player's turn credits in a paid game (2.10).
    pub credits: String,
}

/// An audit entry as the console lists it.
pub struct AuditLine {
    pub at: String,
    pub who: String,
    pub action: String,
    pub detail: String,
}

/// A one-time link just made, shown once.
pub struct LinkShown {
    pub what: String,
    pub url: String,
    pub days: i64,
    /// The address the host mailed it to as well, when it did.
    pub mailed_to: Option<String>,
}

#[derive(Template)]
#[template(path = "console.html")]
struct ConsolePage {
    nav: Option<Nav>,
    csrf: String,
    game: String,
    title: String,
    turn: u32,
    next: u32,
    deadline: String,
    notice: Option<String>,
    link: Option<LinkShown>,
    seats: Vec<SeatLine>,
    /// Invitations to the game's seats still waiting: (seat, account, when).
    invitations: Vec<(String, String, String)>,
    sent_count: usize,
    audit: Vec<AuditLine>,
    schedule: super::schedule::ScheduleForm,
    paid: bool,
    /// What becomes of a seat that sent nothing, in the game's ruleset.
    missing_note: String,
    /// The starting position has reports (a ruleset may write none before the first turn).
    start_reported: bool,
    /// The next step and whom it waits for, in a game played in steps.
    step_note: Option<String>,
    /// Why the next step waits for my rulings, when it does.
    needs_gm: Option<String>,
    /// The game takes the GM's rulings (a sheet of its own, checked by its rules).
    takes_rulings: bool,
    /// How its rulings are written.
    rulings_help: String,
    /// What the GM typed that could not be taken, and why.
    error: Option<String>,
    /// When the game ended, by its rules or its GM, if it has.
    ended: Option<String>,
    /// The game's turns may be paid for (its ruleset keeps a ledger).
    ledger: bool,
    /// The turn's reports that are no seat's: (file, what it is).
    gm_reports: Vec<(String, String)>,
}

#[derive(Deserialize)]
pub struct NoticeQuery {
    notice: Option<String>,
}

/// What a console action says when it is done.
fn notice_text(code: &str) -> Option<String> {
    Some(
        match code {
            "played" => "The turn was played: every report is ready.",
            "ended" => "The game is over: it takes no more sheets, and no turn is played. Undoing its last turn opens it again.",
            "undone" => "The last turn was taken back: the game stands where it stood before it, and the sheets it played wait for the turn again.",
            "message" => "The message will be printed in the next report.",
            "note" => "The message is in the player's account log, at the foot of their account page (the host sends no mail to them).",
            "note-mailed" => "The message was mailed to the player, and is in their account log too.",
            "seat" => "The seat was given.",
            "freed" => "The seat is now free: the computer plays it until you give it to a player.",
            "mailed" => "An invitation was mailed to the player: the link in it lets them choose a password and play; their address counts as confirmed once they use it.",
            "invited" => "That account exists already: it is invited to the seat, which is its own when its owner accepts on their games page.",
            "created" => "The game was started.",
            "schedule" => "The schedule was set; the players are told with the next reports.",
            "paused" => "The game is paused: no turn is played until you resume it.",
            "resumed" => "The game is running again.",
            "extended" => "The deadline was extended; the players are told with the next reports.",
            "ledger" => "The game's turns are now paid for, or free, as you chose.",
            "payment" => "The payment was entered.",
            "rulings" => "Your rulings are kept for the next step: the last you send counts.",
            _ => return None,
        }
        .to_string(),
    )
}

/// What a console page shows beside the game: a notice of what was just done, a link shown
/// once, or a mistake in what the GM typed, with the schedule's form as it was typed.
#[derive(Default)]
pub struct Shown {
    pub notice: Option<String>,
    pub link: Option<LinkShown>,
    pub error: Option<String>,
    pub schedule: Option<super::schedule::ScheduleForm>,
}

/// The console again with `error` at its top (400 Bad Request), the schedule's form
/// holding what the GM typed when given, so that nothing typed is lost.
pub async fn console_error(
    host: &Host,
    me: &Me,
    game: &str,
    error: String,
    schedule: Option<super::schedule::ScheduleForm>,
) -> Result<Response, Failure> {
    let page = console_page(
        host,
        me,
        game,
        Shown {
            error: Some(error),
            schedule,
            ..Shown::default()
        },
    )
    .await?;
    Ok((StatusCode::BAD_REQUEST, page).into_response())
}

async fn console_page(host: &Host, me: &Me, game: &str, shown: Shown) -> Result<Response, Failure> {
    let Shown {
        notice,
        link,
        error,
        schedule,
    } = shown;
    let (title, turn) = host.heading(game).await?;
    let g = host.game(game).await?;
    let step = g.step()?;
    // A game played in steps says which seats the step waits for.
    let step_note = step.expected.as_ref().map(|seats| {
        let who = if seats.is_empty() {
            "no seat".to_string()
        } else {
            seats.join(", ")
        };
        format!("The game is at {}: it waits for {who}.", step.label)
    });
    let takes_rulings = g.check_rulings("rulings", "").is_ok();
    // What a missing sheet means is the ruleset's to say.
    let ruleset = host.store.games.ruleset(game).await?;
    let missing_note = ruleset.missed_turn();
    let sent: BTreeSet<String> = host
        .store
        .games
        .pending(game)
        .await?
        .into_iter()
        .map(|(name, _)| name.split('.').next().unwrap_or("").to_uppercase())
        .collect();
    let paid = host.store.ledgers.paid_turns(game).await?;
    let mut seats = Vec::new();
    for s in host.store.accounts.seats(game).await? {
        // 2.10: in a paid game, where each player stands.
        let credits = match (&s.account, paid) {
            (Some((account, _)), true) => host
                .store
                .ledgers
                .ledger(*account)
                .await?
                .summary_line(game),
            _ => String::new(),
        };
        seats.push(SeatLine {
            empire: s.empire.to_string(),
            // A seat no account holds is played by the computer (2.5; N4).
            holder: s
                .account
                .as_ref()
                .map_or_else(|| "(computer)".to_string(), |(_, n)| n.clone()),
            holder_name: s
                .account
                .as_ref()
                .map(|(_, n)| n.clone())
                .unwrap_or_default(),
            has_holder: s.account.is_some(),
            held: match &s.account {
                Some((id, _)) => {
                    host.store
                        .accounts
                        .manages(me.account.id, *id, game)
                        .await?
                }
                None => false,
            },
            // A seat just given to a player is the computer's until the next turn (2.5):
            // the rules still call it a dummy, the console says who takes it over.
            status: if s.status == "dummy" && s.account.is_some() {
                format!("new player from turn {}", turn + 1)
            } else {
                s.status
            },
            missed: s.missed_turns,
            sent: sent.contains(s.empire.as_str()),
            credits,
        });
    }
    let start_reported = match seats.first() {
        Some(s) => host
            .store
            .games
            .turn_file(game, 0, &format!("reports/{}.html", s.empire), None)
            .await
            .is_ok(),
        None => false,
    };
    let audit = host
        .store
        .accounts
        .audit_entries(game)
        .await?
        .into_iter()
        .rev()
        .take(200)
        .map(|(at, who, action, detail)| AuditLine {
            at: time(at),
            // The store's own work: a game made, a turn played by the clock or the
            // command line.
            who: who.unwrap_or_else(|| "the host".to_string()),
            action,
            detail,
        })
        .collect();
    Ok(page(&ConsolePage {
        nav: Nav::of(me),
        csrf: me.csrf.clone(),
        game: game.to_string(),
        title,
        turn,
        next: turn + 1,
        deadline: deadline_text(host, game).await?,
        notice,
        link,
        sent_count: seats.iter().filter(|s| s.sent).count(),
        seats,
        invitations: host
            .store
            .accounts
            .invitations_of_game(game)
            .await?
            .into_iter()
            .map(|i| (i.seat, i.account, time(i.created_at)))
            .collect(),
        audit,
        schedule: match schedule {
            Some(typed) => typed,
            None => super::schedule::ScheduleForm::of(
                host.store.schedules.schedule_of(game).await?.as_ref(),
            ),
        },
        error,
        ended: host
            .store
            .games
            .ended_at(game)
            .await?
            .map(super::layout::time),
        paid,
        missing_note: missing_note.to_string(),
        start_reported,
        step_note,
        needs_gm: step.needs_gm,
        takes_rulings,
        rulings_help: ruleset.rulings_help().to_string(),
        ledger: ruleset.paid_turns(),
        gm_reports: ruleset
            .gm_reports()
            .iter()
            .map(|(f, what)| (f.to_string(), what.to_string()))
            .collect(),
    })?
    .into_response())
}

/// `/games/{game}/console`.
pub async fn show(
    State(host): State<Arc<Host>>,
    me: Me,
    Path(game): Path<String>,
    Query(q): Query<NoticeQuery>,
) -> Result<Response, Failure> {
    gm_of(&host, &me.account, &game).await?;
    let notice = q.notice.as_deref().and_then(notice_text);
    console_page(
        &host,
        &me,
        &game,
        Shown {
            notice,
            ..Shown::default()
        },
    )
    .await
}

pub(super) fn back(game: &str, notice: &str) -> Response {
    Redirect::to(&format!(
        "/games/{}/console?notice={notice}",
        url_part(game)
    ))
    .into_response()
}

#[derive(Deserialize)]
pub struct PlayForm {
    turn: Option<u32>,
}

/// Plays the next turn now (the turn the page showed: a second click is refused).
pub async fn play(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<PlayForm>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    // The store writes the audit log's one line of the turn, whichever door played it;
    // the request log says which GM asked.
    host.play_turn(&game, form.form.turn, Some(form.me.account.id))
        .await?;
    Ok(back(&game, "played"))
}

#[derive(Deserialize)]
pub struct EndForm {
    /// The box the GM ticks to say they mean it.
    #[serde(default)]
    sure: Option<String>,
}

/// Ends the game on the GM's word: no more sheets or turns, the deadline cleared, the
/// players told on their game pages. Undoing the last turn opens it again.
pub async fn end(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<EndForm>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    if form.form.sure.is_none() {
        let why = "The game was not ended: tick the box to say you mean it.".to_string();
        return console_error(&host, &form.me, &game, why, None).await;
    }
    host.store.games.end_game(&game, host.now()).await?;
    host.forget(&game);
    audit(&host, &game, form.me.account.id, "ended the game", "").await?;
    Ok(back(&game, "ended"))
}

#[derive(Deserialize)]
pub struct UndoForm {
    /// The turn the GM saw as the last one played: a second click undoes nothing more.
    #[serde(default)]
    turn: u32,
}

/// Takes the last turn back: the game stands where it stood before it, and the sheets and
/// messages it played wait for the turn again. Only the turn the GM saw as the last one.
pub async fn undo(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<UndoForm>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    let turn = host.turn(&game).await?;
    if turn != form.form.turn || turn == 0 {
        return Err(Failure::new(
            StatusCode::CONFLICT,
            format!(
                "turn {} is not the last turn played (the game stands after turn {turn}): nothing was undone",
                form.form.turn
            ),
        ));
    }
    let undone = host.store.games.undo(&game, host.now()).await;
    host.forget(&game);
    let undone = undone?;
    let waiting = if undone.pending.is_empty() {
        "nothing".to_string()
    } else {
        undone.pending.join(" ")
    };
    let detail = format!("turn {}; waiting again: {waiting}", undone.turn);
    audit(&host, &game, form.me.account.id, "undid a turn", &detail).await?;
    Ok(back(&game, "undone"))
}

#[derive(Deserialize)]
pub struct MessageForm {
    #[serde(default)]
    text: String,
}

/// Keeps a GM's message for the next report (10.6).
pub async fn message(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<MessageForm>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    let text = form.form.text.trim();
    if text.is_empty() {
        return Err(Failure::bad_request("the message is empty"));
    }
    let submission = Submission {
        empire: None,
        body: text.as_bytes().to_vec(),
        door: "web".into(),
        received_at: host.now(),
        for_turn: None,
        late: false,
    };
    let accepted = host.submit(&game, &submission, "message").await?;
    host.store
        .accounts
        .audit_by(
            Some(&game),
            form.me.account.id,
            host.now(),
            "posted a message",
            &format!("for turn {}", accepted.receipt.for_turn),
        )
        .await?;
    Ok(back(&game, "message"))
}

/// Keeps the GM's rulings for the next step, checked by the game's rules; the last sent
/// counts. Rulings with mistakes are kept all the same, and the GM is shown the mistakes at
/// once, to send them again corrected.
pub async fn rulings(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<MessageForm>,
) -> Result<Response, Failure> {
    gm_of(&host, &form.me.account, &game).await?;
    let submission = Submission {
        empire: None,
        body: form.form.text.replace("\r\n", "\n").into_bytes(),
        door: "web".into(),
        received_at: host.now(),
        for_turn: None,
        late: false,
    };
    let accepted = host.submit_rulings(&game, &submission, "rulings").await?;
    host.store
        .accounts
        .audit_by(
            Some(&game),
            form.me.account.id,
            host.now(),
            "sent rulings",
            &format!("for turn {}", accepted.receipt.for_turn),
        )
        .await?;
    if accepted.errors() > 0 {
        let text = accepted.check_text().unwrap_or_default();
        return Err(Failure::bad_request(format!(
            "your rulings are kept, but they have mistakes: send them again corrected.\n{text}"
        )));
    }
    Ok(back(&game, "rulings"))
}

/// The account holding `empire`'s seat in `game`: (id, name). A seat no one holds is
/// refused, saying `then` (what to do first).
pub(super) async fn holder_of(
    host: &Host,
    game: &str,
    empire: SeatCode,
    then: &str,
) -> Result<(i64, String), Failure> {
    let seat = host
        .store
        .accounts
        .seats(game)
        .await?
        .into_iter()
        .find(|s| s.empire == empire)
        .ok_or_else(|| Failure::not_found(format!("no seat {empire} in this game")))?;
    seat.account
        .ok_or_else(|| Failure::bad_request(format!("no one holds {empire}'s seat: {then}")))
}

/// A seat's code as a console form gives it.
pub(super) fn empire_of(text: &str) -> Result<SeatCode, Failure> {
    SeatCode::parse(text)
        .ok_or_else(|| Failure::bad_request(format!("\"{text}\" is not a seat's code")))
}

/// Tells the game, with the next reports, who plays a seat from the next turn (2.5).
pub async fn announce_player(
    host: &Host,
    game: &str,
    empire: SeatCode,
    name: &str,
) -> Result<(), Failure> {
    let g = host.game(game).await?;
    let (empire_name, turn) = (super::games::seat_name(g.as_ref(), empire), g.turn());
    let words = format!(
        "{empire_name} ({empire}) is played by {name} from turn {}.",
        turn + 1
    );
    host.submit(
        game,
        &Submission {
            empire: None,
            body: words.into_bytes(),
            door: "web".into(),
            received_at: host.now(),
            for_turn: None,
            late: false,
        },
        "message",
    )
    .await?;
    Ok(())
}

/// An account name the host takes: 1 to 40 letters, digits, spaces, `-`, `_` or `.`.
pub fn check_account_name(name: &str) -> Result<(), Failure> {
    let ok = !name.is_empty()
        && name.chars().count() <= crate::auth::limit::MAX_NAME
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(Failure::bad_request(
            "an account name has 1 to 40 letters, digits, spaces, '-', '_' or '.'",
        ))
    }
}

#[derive(Deserialize)]
pub struct LinkForm {
    #[serde(default)]
    empire: String,
    #[serde(default)]
    purpose: String,
}

/// Makes a one-time link for the player of a seat: an invitation (to set a first password)
/// or a password reset. The link is shown once; only its hash is kept.
pub async fn link(
    State(host): State<Arc<Host>>,
    Path(game): Path<String>,
    form: CsrfForm<LinkForm>,
) -> Result<Response, Failure> {
    let me = &form.me;
    gm_of(&host, &me.account, &game).await?;
    let empire = empire_of(&form.form.empire)?;
    let (purpose, path, what) = match form.form.purpose.as_str() {
        "invite" => (LinkPurpose::Invite, "invite", "Invitation"),
        "reset" => (LinkPurpose::Reset, "reset", "Password reset"),
        _ => return Err(Failure::bad_request("a link is for invite or reset")),
    };
    let (account, name) = holder_of(&host, &game, empire, "give it to an account first").await?;
    // A GM's links reach only the accounts it made for this game, and only until their
    // owners set passwords of their own: never an account that plays elsewhere, never a GM.
    if !host
        .store
        .accounts
        .manages(me.account.id, account, &game)
        .await?
    {
        return Err(Failure::forbidden(format!(
            "{name} has a password of their own, or plays in other games: only they can reset it (\"forgot your password?\" on the log-in page sends a link to their address), or the host administrator"
        )));
    }
    let token = new_secret();
    let now = host.now();
    host.store
        .accounts
        .create_link(
            &secret_hash(&token),
            purpose,
            account,
            me.account.id,
            now,
            now + LINK_LIFE,
        )
        .await?;
    host.store
        .accounts
        .audit_by(
            Some(&game),
            me.account.id,
            now,
            "made a one-time link",
            &format!("{path} link for {name} ({empire})"),
        )
        .await?;
    host.store
        .accounts
        .log_account(
            account,
            Some(me.account.id),
            Some(&game),
            now,
            "one-time link made",
            &format!("{path} link, for {empire}"),
        )
        .await?;
    let base = host.config.public_url.clone().unwrap_or_default();
    let url = format!("{}/{path}/{token}", base.trim_end_matches('/'));
    let days = LINK_LIFE / (24 * 3600 * 1000);
    // With the mail door open and an address for links, the host mails the link to the
    // player's address itself (using it proves the address, as its own link does).
    let address = host.store.accounts.account(account).await?.email;
    let mailed_to = match (address, host.mail_config()?, &host.config.public_url) {
        (Some(email), Some(_), Some(_)) => {
            host.store
                .accounts
                .create_email_link(&secret_hash(&token), account, &email, now, now + LINK_LIFE)
                .await?;
            let (subject, why) = match purpose {
                LinkPurpose::Invite => ("Your invitation to play", "choose your password and play"),
                LinkPurpose::Reset => ("Choose a new password", "choose a new password"),
            };
            let text = format!(
                "Hello {name},\n\nYour GM sends you a link to {why} ({empire} in \"{game}\"). Your account is \"{name}\". The link works once, for {days} days:\n\n  {url}\n"
            );
            host.queue_text(account, &email, path, &format!("{subject} ({game})"), &text)
                .await?;
            Some(email)
        }
        _ => None,
    };
    let shown = LinkShown {
        what: format!("{what} for {name} ({empire})"),
        url,
        days,
        mailed_to,
    };
    console_page(
        &host,
        me,
        &game,
        Shown {
            link: Some(shown),
            ..Shown::default()
        },
    )
    .await
}

#[derive(Template)]
#[template(path = "sheet.html")]
struct SheetPage {
    nav: Option<Nav>,
    game: String,
    title: String,
    empire: String,
    next: u32,
    at: String,
    sha256: String,
    text: String,
}

/// Opens the turnsheet an empire sent for the next turn; the opening is recorded.
pub async fn sheet(
    State(host): State<Arc<Host>>,
    me: Me,
    Path((game, empire)): Path<(String, String)>,
) -> Result<Response, Failure> {
    gm_of(&host, &me.account, &game).await?;
    let empire = empire_of(&empire)?;
    let (title, turn) = host.heading(&game).await?;
    let next = turn + 1;
    let (body, sha256, at) = host
        .store
        .accounts
        .latest_sheet(&game, empire, next)
        .await?
        .ok_or_else(|| Failure::not_found(format!("{empire} has sent nothing for turn {next}")))?;
    host.store
        .accounts
        .audit_by(
            Some(&game),
            me.account.id,
            host.now(),
            "opened a turnsheet",
            &format!("{empire}'s for turn {next}"),
        )
        .await?;
    Ok(page(&SheetPage {
        nav: Nav::of(&me),
        title,
        empire: empire.to_string(),
        next,
        at: time(at),
        sha256,
        text: String::from_utf8_lossy(&body).into_owned(),
        game,
    })?
    .into_response())
}

/// The game as a game directory, in a tar archive.
pub async fn export(
    State(host): State<Arc<Host>>,
    me: Me,
    Path(game): Path<String>,
) -> Result<Response, Failure> {
    gm_of(&host, &me.account, &game).await?;
    let scratch = tempfile::tempdir().map_err(|e| {
        Failure::from(empires_host::Error::new(format!(
            "cannot make a scratch directory: {e}"
        )))
    })?;
    // A fixed folder and a tidied name: a game's name is never a path of its own, even one
    // kept before names were checked.
    let dir = scratch.path().join("game");
    empires_host::transfer::export(host.store.games.as_ref(), &game, &dir).await?;
    let name: String = game
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let folder = name.clone();
    let tar = tokio::task::spawn_blocking(move || -> std::io::Result<Vec<u8>> {
        let mut b = tar::Builder::new(Vec::new());
        b.mode(tar::HeaderMode::Deterministic);
        b.append_dir_all(&folder, &dir)?;
        b.into_inner()
    })
    .await
    .map_err(|e| {
        Failure::from(empires_host::Error::new(format!(
            "the export task failed: {e}"
        )))
    })?
    .map_err(|e| {
        Failure::from(empires_host::Error::new(format!(
            "cannot pack the game: {e}"
        )))
    })?;
    host.store
        .accounts
        .audit_by(
            Some(&game),
            me.account.id,
            host.now(),
            "downloaded the game",
            "as a directory",
        )
        .await?;
    let disposition = format!("attachment; filename=\"{name}.tar\"");
    Ok((
        [
            (CONTENT_TYPE, "application/x-tar".to_string()),
            (CONTENT_DISPOSITION, disposition),
        ],
        tar,
    )
        .into_response())
}
