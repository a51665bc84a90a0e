//! Turnsheets in by email: one message at a time, as a mail server's delivery pipe hands it
//! over (`empires mail receive`) or as it lies in a Maildir (`empires mail fetch`).
//!
//! A message is answered only at the address on record of the account it claims to come
//! from, never at the address it came from, so forged mail cannot make the host write to
//! strangers; a message from an address no account has is logged and not answered. The
//! sender proves who they are with their mail password in the sheet's header. A message
//! delivered twice (the same sender, Message-ID and content) is answered once, and mail
//! sent by programs (auto-replies, bounces) is never answered.
//!
//! One message cannot stop the door: a sheet the host refuses (bytes that are not text, too
//! large, a turn moved on...) is answered with the reason like any other refusal, and only
//! an outage (the database out of reach, [`Kind::Unavailable`]) leaves a message to be
//! delivered again. Refusals to one address are answered at most
//! [`MailConfig::refusals_per_hour`] times an hour, so forged mail cannot make the host
//! flood a player with them.

pub mod message;
pub mod request;
pub mod sheet;

use crate::compose::{self, Envelope};
use crate::config::MailConfig;
use crate::password;
use empires_host::Result;
use empires_host::error::Kind;
use empires_host::store::SeatCode;
use empires_host::store::Services;
use empires_host::store::{Direction, Seen};
use empires_host::store::{Millis, Submission};
use empires_host::submit::{Accepted, changes};
use empires_host::turn::decode_sheet;
use message::Incoming;

/// What became of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Kept for the next turn.
    Accepted {
        game: String,
        empire: SeatCode,
        for_turn: u32,
    },
    /// Kept as late orders (2.4, decision 22).
    Late {
        game: String,
        empire: SeatCode,
        for_turn: u32,
    },
    /// A player asked for their report again: it is queued to their address on record.
    Resent { game: String, reports: usize },
    /// Refused, and the sender told why.
    Refused(String),
    /// Refused, and not answered: the address on record has been sent as many refusals in
    /// the past hour as the door answers ([`MailConfig::refusals_per_hour`]). Logged for
    /// the GM.
    Unanswered(String),
    /// Not answered: sent by a program, or from an address no account has.
    Ignored(String),
    /// Delivered before, and answered then.
    Duplicate,
    /// Not dealt with: the host failed on it in a way that is not an outage, so that taking
    /// it in again would fail again. Logged for the GM; nothing was kept or answered.
    Failed(String),
}

impl Outcome {
    /// The word the mail log uses.
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Accepted { .. } => "accepted",
            Outcome::Late { .. } => "late",
            Outcome::Resent { .. } => "resent",
            Outcome::Refused(_) | Outcome::Unanswered(_) => "refused",
            Outcome::Ignored(_) => "ignored",
            Outcome::Duplicate => "duplicate",
            Outcome::Failed(_) => "failed",
        }
    }
}

/// Takes in messages for one host, keeping each game it reads in memory between messages.
pub struct Receiver<'a> {
    store: &'a Services,
    cfg: &'a MailConfig,
    games: empires_host::games::Games,
    /// What the mail log notes of the message being taken in besides its outcome: its
    /// Message-ID used before by another message, a fault of the host's.
    notes: Vec<String>,
}

/// An hour, in milliseconds: the span over which refusals to one address are counted.
const HOUR: Millis = 3_600_000;

/// The longest Message-ID kept to notice its reuse (a header line's length, RFC 5322).
const MAX_ID_CHARS: usize = 998;

/// The account a message speaks for and the address on record the answer goes to.
struct Sender {
    account: i64,
    address: String,
}

impl<'a> Receiver<'a> {
    pub fn new(store: &'a Services, cfg: &'a MailConfig) -> Receiver<'a> {
        Receiver {
            store,
            cfg,
            games: Default::default(),
            notes: Vec::new(),
        }
    }

    /// Takes in one message of `size` bytes, of which `raw` holds at least the head (all of
    /// it unless it is too large). An error means the message could not be dealt with
    /// because the host is out of order (the database could not be reached,
    /// [`Kind::Unavailable`]): nothing of it was kept, and it should be delivered again
    /// later. Anything else, a sheet the host refuses included, is an [`Outcome`].
    pub async fn receive(&mut self, raw: &[u8], size: usize, now: Millis) -> Result<Outcome> {
        let inc = Incoming::read(raw, size);
        let from = inc.from.clone().unwrap_or_else(|| "(no sender)".into());
        self.notes.clear();
        let mut recorded = false;
        let result = self.take(&inc, &from, now, &mut recorded).await;
        let failed = match result {
            Ok(outcome) => return Ok(outcome),
            Err(e) if e.kind() == Kind::Unavailable => e,
            Err(e) => {
                // Not an outage: taking the message in again would fail the same way, and
                // would hold up the messages after it. The GM reads why in the mail log.
                let outcome = Outcome::Failed(format!("the host could not deal with it: {e}"));
                match self.log(None, None, now, &from, &outcome).await {
                    Ok(()) => return Ok(outcome),
                    Err(e) => e,
                }
            }
        };
        if recorded {
            // Not dealt with: a later delivery must be taken in afresh.
            let _ = self.store.mail.forget_seen(&inc.key).await;
        }
        Err(failed)
    }

    /// [`Receiver::receive`], with every error returned; `recorded` is set once the message
    /// is recorded as seen.
    async fn take(
        &mut self,
        inc: &Incoming,
        from: &str,
        now: Millis,
        recorded: &mut bool,
    ) -> Result<Outcome> {
        if let Some(why) = &inc.automatic {
            let outcome = Outcome::Ignored(format!("not answered: {why}"));
            self.log(None, None, now, from, &outcome).await?;
            return Ok(outcome);
        }
        let id = inc.message_id.as_deref().map(|i| {
            i.chars()
                .filter(|c| !c.is_control())
                .take(MAX_ID_CHARS)
                .collect::<String>()
        });
        match self
            .store
            .mail
            .first_seen(&inc.key, id.as_deref(), now)
            .await?
        {
            Seen::Again => {
                let outcome = Outcome::Duplicate;
                self.log(None, None, now, from, &outcome).await?;
                return Ok(outcome);
            }
            Seen::First { id_reused } => {
                *recorded = true;
                if id_reused {
                    self.notes.push(format!(
                        "its Message-ID <{}> came before with another message (another sender or other content): read as a message of its own",
                        one_line(id.as_deref().unwrap_or(""), 100)
                    ));
                }
            }
        }
        self.answer(inc, from, now).await
    }

    async fn answer(&mut self, inc: &Incoming, from: &str, now: Millis) -> Result<Outcome> {
        let accounts = match &inc.from {
            Some(a) if !a.chars().any(char::is_control) => {
                self.store.mail.accounts_by_email(a).await?
            }
            _ => Vec::new(),
        };
        let mut found = inc.candidates.iter().find_map(|c| sheet::find(&c.text));
        // A message with no header: a reply to a report mail (by its In-Reply-To, or its
        // subject where the mail program kept none), or a request for a report.
        let mut replied = None;
        let mut asked = None;
        if found.is_none() {
            replied = match self.replied_report(inc, &accounts).await? {
                Some(r) => Some(r),
                None => self.replied_by_subject(inc, &accounts).await?,
            };
            asked = request::asked(inc);
            if asked.is_none()
                && let Some((game, seat)) = &replied
            {
                found = inc
                    .candidates
                    .iter()
                    .find_map(|c| sheet::in_reply(&c.text, game, seat.as_str()));
            }
        }
        let named_game = match found.as_ref().and_then(|f| f.game.clone()) {
            // A name with a control character in it (a NUL) is no game's, and is not asked
            // of a database that may refuse to read it.
            Some(g)
                if !g.chars().any(char::is_control) && self.store.mail.game_exists(&g).await? =>
            {
                Some(g)
            }
            _ => None,
        };
        let Some(&first) = accounts.first() else {
            let outcome = Outcome::Ignored(
                "not answered: no account has the sender's address (a stranger, or a forged sender)".into(),
            );
            self.log(named_game.as_deref(), None, now, from, &outcome)
                .await?;
            return Ok(outcome);
        };
        // The account that holds a seat in the game named, if several share the address.
        let mut account = first;
        if let Some(g) = &named_game {
            for &a in &accounts {
                if !self.store.mail.seats_of(g, a).await?.is_empty() {
                    account = a;
                    break;
                }
            }
        }
        let sender = Sender {
            account,
            address: self
                .store
                .accounts
                .account(account)
                .await?
                .email
                .unwrap_or_default(),
        };
        let refuse = |why: String| Outcome::Refused(why);
        if let Some(why) = &inc.unreadable {
            let o = refuse(format!(
                "your message could not be read: {why}. Send the turnsheet as plain text in the message, or as a .txt attachment."
            ));
            return self
                .refused(inc, &sender, named_game.as_deref(), o, now)
                .await;
        }
        if let Some(named) = asked {
            let game = named.or(replied.map(|(g, _)| g));
            return self.resend(inc, &sender, game, now).await;
        }
        let Some(found) = found else {
            let o = refuse("no turnsheet was found in your message. A turnsheet starts with a header naming the game and your empire, and your mail password:\n\n  GAME <game>\n  EMPIRE <your empire's code>\n  PASSWORD <your mail password>\n\nthen your actions, one per line.".into());
            return self.refused(inc, &sender, None, o, now).await;
        };
        let game_written = found.game.clone().unwrap_or_default();
        let Some(game) = named_game else {
            let o = refuse(format!(
                "there is no game named \"{game_written}\" on this host: check the GAME line against your report."
            ));
            return self.refused(inc, &sender, None, o, now).await;
        };
        let seats = self.store.mail.seats_of(&game, sender.account).await?;
        if seats.is_empty() {
            let o = refuse(format!("your account holds no empire in game \"{game}\"."));
            return self.refused(inc, &sender, Some(&game), o, now).await;
        }
        let empire = match found.empire.as_deref().map(str::trim) {
            Some(written) => match seats
                .iter()
                .find(|e| e.as_str().eq_ignore_ascii_case(written))
            {
                Some(e) => *e,
                None => {
                    let yours = seats
                        .iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join(", ");
                    let o = refuse(format!(
                        "the sheet is for empire \"{written}\", which is not yours in game \"{game}\" (yours: {yours}). Nothing was kept."
                    ));
                    return self.refused(inc, &sender, Some(&game), o, now).await;
                }
            },
            None if seats.len() == 1 => seats[0],
            None => {
                // The header's word for a seat is the game's (EMPIRE, KINGDOM, RUNNER): the
                // blank sheet of each seat's report shows it.
                let yours = seats
                    .iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                let o = refuse(format!(
                    "you hold several seats in game \"{game}\" ({yours}): name in the sheet's header which one it is for, as the blank sheet in that seat's report does. Nothing was kept."
                ));
                return self.refused(inc, &sender, Some(&game), o, now).await;
            }
        };
        let kept_hash = self.store.mail.mail_password_hash(sender.account).await?;
        let proven = match (&found.password, &kept_hash) {
            (Some(p), Some(k)) => password::verify(p, k),
            _ => false,
        };
        if !proven {
            let why = match (&found.password, &kept_hash) {
                (_, None) => "your account has no mail password yet: get one on your account page on the web, or ask your GM.".to_string(),
                (None, _) => "the sheet has no PASSWORD line: add \"PASSWORD <your mail password>\" to its header.".to_string(),
                _ => "the mail password in the sheet is not yours: check it on your account page, or ask your GM for a new one.".to_string(),
            };
            let o = refuse(format!("{why} Nothing was kept."));
            return self.refused(inc, &sender, Some(&game), o, now).await;
        }
        self.keep(inc, &sender, &game, empire, &found, now).await
    }

    /// The game and seat of the report mail `inc` answers, if it answers one sent for a seat
    /// of one of `accounts` (the sender's): a report's Message-ID is made from its game,
    /// turn and seat ([`crate::reports::report_key`]), so a reply needs no header.
    async fn replied_report(
        &self,
        inc: &Incoming,
        accounts: &[i64],
    ) -> Result<Option<(String, SeatCode)>> {
        let ids: Vec<&str> = inc
            .replies_to
            .iter()
            .filter_map(|id| id.split('.').next())
            .filter(|h| h.len() == 32)
            .collect();
        if ids.is_empty() {
            return Ok(None);
        }
        for &account in accounts {
            for g in self.store.accounts.games_played_by(account).await? {
                let Some(seat) = g.empire else { continue };
                // The latest report first: it is the one most replies answer.
                for turn in (0..=g.turn).rev() {
                    let id =
                        compose::id_of(&crate::reports::report_key(&g.name, turn, seat.as_str()));
                    if ids.contains(&id.as_str()) {
                        return Ok(Some((g.name, seat)));
                    }
                }
            }
        }
        Ok(None)
    }

    /// The game and seat of the report mail `inc` answers by its subject
    /// ([`request::report_subject`]), for a reply whose mail program kept no `In-Reply-To`:
    /// the game named there, and the sender's seat in it (by the seat's name where they
    /// hold several).
    async fn replied_by_subject(
        &self,
        inc: &Incoming,
        accounts: &[i64],
    ) -> Result<Option<(String, SeatCode)>> {
        // A reply that names the message it answers is tied by that alone: a reply to
        // another player's report is not made the sender's by its subject.
        if !inc.replies_to.is_empty() {
            return Ok(None);
        }
        let Some((name, game)) = request::report_subject(&inc.subject) else {
            return Ok(None);
        };
        if game.chars().any(char::is_control) || !self.store.mail.game_exists(&game).await? {
            return Ok(None);
        }
        for &account in accounts {
            let seats = self.store.mail.seats_of(&game, account).await?;
            match seats.as_slice() {
                [] => continue,
                [one] => return Ok(Some((game, *one))),
                several => {
                    let opened =
                        empires_host::submit::open(self.store.games.as_ref(), &game).await?;
                    let named = opened.seats()?.into_iter().find(|s| {
                        s.name.eq_ignore_ascii_case(&name)
                            && several.iter().any(|c| c.as_str() == s.code)
                    });
                    if let Some(s) = named.and_then(|s| SeatCode::parse(&s.code)) {
                        return Ok(Some((game, s)));
                    }
                }
            }
        }
        Ok(None)
    }

    /// Mails the sender the report of the turn now current of their seats in `game` again
    /// (or of the one game they play, when none is named), at most
    /// [`crate::reports::AGAIN_PER_HOUR`] an hour.
    async fn resend(
        &mut self,
        inc: &Incoming,
        sender: &Sender,
        game: Option<String>,
        now: Millis,
    ) -> Result<Outcome> {
        let played: Vec<String> = self
            .store
            .accounts
            .games_of(sender.account)
            .await?
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        let game = match game {
            Some(g) => match played.iter().find(|p| p.eq_ignore_ascii_case(&g)) {
                Some(p) => p.clone(),
                None => {
                    let o = Outcome::Refused(format!(
                        "you asked for your report again, but you hold no seat in a game named \"{g}\" (yours: {}).",
                        if played.is_empty() {
                            "none".to_string()
                        } else {
                            played.join(", ")
                        }
                    ));
                    return self.refused(inc, sender, None, o, now).await;
                }
            },
            None if played.len() == 1 => played[0].clone(),
            None => {
                let o = Outcome::Refused(if played.is_empty() {
                    "you asked for your report again, but your account holds no seat in any game."
                        .to_string()
                } else {
                    format!(
                        "you asked for your report again, but you play several games ({}): write REPORT and the game's name, as \"REPORT {}\".",
                        played.join(", "),
                        played[0]
                    )
                });
                return self.refused(inc, sender, None, o, now).await;
            }
        };
        let reports = crate::reports::queue_current(
            self.store,
            self.cfg,
            &game,
            sender.account,
            crate::reports::Resend::Again,
            now,
        )
        .await?;
        if reports == 0 {
            let o = Outcome::Refused(format!(
                "you asked for your report of game \"{game}\" again, but it has been sent again {} times in the past hour, as often as the host sends it: ask again later, or read it on the web.",
                crate::reports::AGAIN_PER_HOUR
            ));
            return self.refused(inc, sender, Some(&game), o, now).await;
        }
        let outcome = Outcome::Resent {
            game: game.clone(),
            reports,
        };
        self.log(
            Some(&game),
            Some(sender.account),
            now,
            &sender.address,
            &outcome,
        )
        .await?;
        Ok(outcome)
    }

    /// Keeps a proven sheet and answers with the receipt; a sheet the host refuses is
    /// answered with the reason.
    async fn keep(
        &mut self,
        inc: &Incoming,
        sender: &Sender,
        game: &str,
        empire: SeatCode,
        found: &sheet::Found,
        now: Millis,
    ) -> Result<Outcome> {
        // The sheet's bytes as every door checks them: not text (a NUL, which a
        // quoted-printable `=00` or a binary attachment brings), or too large.
        if let Err(why) = decode_sheet(found.text.as_bytes()) {
            let o = Outcome::Refused(format!(
                "the turnsheet cannot be kept: {why}. Send it as plain text in the message, or as a .txt attachment saved as plain text. Nothing was kept."
            ));
            return self.refused(inc, sender, Some(game), o, now).await;
        }
        let written_for = found
            .turn
            .as_deref()
            .and_then(|t| t.trim().parse::<u32>().ok());
        let (accepted, before, next, late) = match self
            .accept(game, empire, found, written_for, now)
            .await
        {
            Ok(Ok(taken)) => taken,
            Ok(Err(refusal)) => return self.refused(inc, sender, Some(game), refusal, now).await,
            Err(e) if e.kind() == Kind::Unavailable => return Err(e),
            // Refused by the store or the game (a turn played meanwhile, the deadline
            // passed, bytes it will not keep): the sender is told, and the door goes on.
            Err(e) => {
                let why = if e.kind() == Kind::Corrupt {
                    self.notes.push(format!("a fault of the host's: {e}"));
                    "the host could not keep it because of a fault of its own, which your GM can see in the mail log. Send it again later, or ask your GM. Nothing was kept.".to_string()
                } else {
                    format!("{e}. Nothing was kept.")
                };
                let o = Outcome::Refused(why);
                return self.refused(inc, sender, Some(game), o, now).await;
            }
        };
        let for_turn = accepted.receipt.for_turn;
        // Kept for a later turn than the one waiting, and not sent ahead for the seat's own
        // step: it came after that turn's deadline (2.4, decision 22), and the store set it
        // aside as late orders.
        let after_deadline = !late && for_turn > next && !accepted.ahead;
        let late = late || after_deadline;
        let mut body = String::new();
        if after_deadline {
            body.push_str(&format!(
                "LATE ORDERS. Your turnsheet for {empire} in game \"{game}\" arrived after the deadline of turn {next}. It is kept as late orders for turn {for_turn} (rule 2.4): they are played only if you send nothing newer for turn {for_turn}.\n\n"
            ));
        } else if late {
            body.push_str(&format!(
                "LATE ORDERS. Your turnsheet for {empire} in game \"{game}\" was written for turn {}, which has been played. It is kept as late orders for turn {for_turn} (rule 2.4): they are played only if you send nothing newer for turn {for_turn}.\n\n",
                written_for.unwrap_or_default()
            ));
        } else {
            let step = accepted
                .step
                .as_ref()
                .map_or(String::new(), |s| format!(" ({s})"));
            body.push_str(&format!(
                "Your turnsheet for {empire} in game \"{game}\" is kept for turn {for_turn}{step}.\n\n"
            ));
        }
        body.push_str(&receipt_lines(
            &accepted.receipt.sha256,
            before.as_ref(),
            &found.text,
            now,
        ));
        body.push_str(&as_read(found));
        if let Some(check) = accepted.check_text() {
            body.push_str("\nWhat the checker found:\n\n");
            body.push_str(&check);
        }
        body.push_str("\nYou may send a new turnsheet at any time before the turn is played: the latest one you send is the one played.\n");
        let subject = format!(
            "Turnsheet {} for {empire}, {game}, turn {for_turn}",
            if late {
                "kept as late orders"
            } else {
                "received"
            }
        );
        let env = Envelope {
            to: &sender.address,
            subject,
            in_reply_to: inc.message_id.as_deref(),
            key: format!("receipt:{}", inc.key),
            now,
        };
        let message = compose::answer(self.cfg, &env, &body)?;
        let mail = compose::queued(
            Some(game),
            Some(sender.account),
            "receipt",
            None,
            &env,
            message,
        );
        self.store.mail.queue_mail(&mail, now).await?;
        let outcome = if late {
            Outcome::Late {
                game: game.to_string(),
                empire,
                for_turn,
            }
        } else {
            Outcome::Accepted {
                game: game.to_string(),
                empire,
                for_turn,
            }
        };
        let detail = format!(
            "{empire}, turn {for_turn}, {}",
            &accepted.receipt.sha256[..12]
        );
        self.log_line(
            Some(game),
            Some(sender.account),
            now,
            &sender.address,
            outcome.word(),
            detail,
        )
        .await?;
        Ok(outcome)
    }

    /// Checks and keeps the sheet for the turn waiting: what was kept, the sheet it
    /// replaces, the turn that was waiting and whether it was written for a turn already
    /// played; or the refusal the game answers (a Napoleonic sheet for a turn played).
    async fn accept(
        &mut self,
        game: &str,
        empire: SeatCode,
        found: &sheet::Found,
        written_for: Option<u32>,
        now: Millis,
    ) -> Result<std::result::Result<Taken, Outcome>> {
        let kept = self.games.game(self.store, game).await?;
        let next = kept.turn() + 1;
        let late = written_for.is_some_and(|t| t < next);
        // Late orders are a ruleset's policy (Empires' 2.4): without them a sheet names its
        // turn, and one for a turn already played is refused.
        if let (Some(t), true, false) = (written_for, late, kept.ruleset().late_orders()) {
            return Ok(Err(Outcome::Refused(format!(
                "the sheet is for turn {t} of game \"{game}\", which has been played. Write your orders on the sheet for turn {next} that came with your report. Nothing was kept."
            ))));
        }
        // In a game played in steps a seat not expected now sends for its own next step
        // (the host reads the step a sheet names from its header).
        let own = kept.step()?.own_turn(empire.as_str(), next);
        let before = self.store.accounts.latest_sheet(game, empire, own).await?;
        let submission = Submission {
            empire: Some(empire),
            body: found.text.clone().into_bytes(),
            door: "mail".into(),
            received_at: now,
            for_turn: None,
            late,
        };
        // A turn played meanwhile: the game is read again and the sheet kept for the new
        // turn.
        let accepted = self
            .games
            .accept(self.store, game, &submission, "turnsheet")
            .await?;
        Ok(Ok((accepted, before, next, late)))
    }

    /// Answers a refusal at the address on record, and logs it for the GM. Beyond
    /// [`MailConfig::refusals_per_hour`] refusals to that address in the past hour the
    /// refusal is logged and not answered: the outcome is then [`Outcome::Unanswered`].
    async fn refused(
        &mut self,
        inc: &Incoming,
        sender: &Sender,
        game: Option<&str>,
        outcome: Outcome,
        now: Millis,
    ) -> Result<Outcome> {
        let Outcome::Refused(why) = &outcome else {
            return Ok(outcome);
        };
        let limit = i64::from(self.cfg.refusals_per_hour);
        let since = now - HOUR;
        // Counted in the outbox, which every process taking mail in shares.
        let sent = self
            .store
            .mail
            .mail_queued_to(&sender.address, "refusal", since)
            .await?;
        let mut queued = None;
        if sent < limit {
            let subject = if inc.subject.is_empty() {
                "Your turnsheet was not kept".to_string()
            } else {
                format!("Not kept: {}", one_line(&inc.subject, 60))
            };
            let mut body = format!(
                "Your message of {} could not be taken as orders:\n\n{why}\n\nNothing from it was kept. Any turnsheet you sent before stands.\n",
                when(now)
            );
            if sent + 1 == limit {
                body.push_str(&format!(
                    "\nThis is the {} refusal sent to your address within an hour, the most the host sends: until the hour is out, messages it refuses are not answered (your GM sees them in the mail log). Turnsheets it keeps are always answered.\n",
                    ordinal(sent + 1)
                ));
            }
            let env = Envelope {
                to: &sender.address,
                subject,
                in_reply_to: inc.message_id.as_deref(),
                key: format!("refusal:{}", inc.key),
                now,
            };
            let message = compose::answer(self.cfg, &env, &body)?;
            let mail = compose::queued(game, Some(sender.account), "refusal", None, &env, message);
            // The count again as the message goes in: another process may have answered
            // meanwhile.
            queued = self
                .store
                .mail
                .queue_mail_within(&mail, now, since, limit)
                .await?;
        }
        let outcome = match queued {
            Some(_) => outcome,
            None => Outcome::Unanswered(why.clone()),
        };
        self.log(game, Some(sender.account), now, &sender.address, &outcome)
            .await?;
        Ok(outcome)
    }

    async fn log(
        &self,
        game: Option<&str>,
        account: Option<i64>,
        now: Millis,
        address: &str,
        outcome: &Outcome,
    ) -> Result<()> {
        let detail = match outcome {
            Outcome::Refused(w) | Outcome::Ignored(w) | Outcome::Failed(w) => w.clone(),
            Outcome::Unanswered(w) => format!(
                "not answered ({} refusals an hour to this address at most): {w}",
                self.cfg.refusals_per_hour
            ),
            Outcome::Duplicate => "delivered again; answered the first time".into(),
            Outcome::Resent { game, reports } => {
                format!("asked for the report again: {reports} queued, game \"{game}\"")
            }
            Outcome::Accepted {
                empire, for_turn, ..
            }
            | Outcome::Late {
                empire, for_turn, ..
            } => {
                format!("{empire}, turn {for_turn}")
            }
        };
        self.log_line(game, account, now, address, outcome.word(), detail)
            .await
    }

    /// Writes the mail log's line for the message being taken in, with its notes.
    async fn log_line(
        &self,
        game: Option<&str>,
        account: Option<i64>,
        now: Millis,
        address: &str,
        word: &str,
        detail: String,
    ) -> Result<()> {
        let mut detail = one_line(&detail, 300);
        for note in &self.notes {
            detail.push_str("; ");
            detail.push_str(&one_line(note, 300));
        }
        self.store
            .mail
            .log_mail(
                game,
                account,
                now,
                Direction::In,
                &one_line(address, 200),
                word,
                &detail,
            )
            .await
    }
}

/// A sheet kept: what the store answered, the sheet it replaces (its bytes, hash and time),
/// the turn that was waiting, and whether it was written for a turn already played.
type Taken = (Accepted, Option<(Vec<u8>, String, Millis)>, u32, bool);

/// "1st", "2nd", "5th": for the refusal that says it is the last one for a while.
fn ordinal(n: i64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The receipt proper: when, the content hash, and what changed since the sheet before.
fn receipt_lines(
    sha: &str,
    before: Option<&(Vec<u8>, String, Millis)>,
    text: &str,
    now: Millis,
) -> String {
    let mut s = format!("Received: {}\nContent hash (SHA-256): {sha}\n", when(now));
    match before {
        Some((old, old_sha, _)) if old_sha == sha => {
            s.push_str("It is the same as the sheet you sent before for this turn.\n");
        }
        Some((old, old_sha, at)) => {
            s.push_str(&format!(
                "It replaces the sheet you sent at {} (SHA-256 {}).\nChanges (- taken out, + put in):\n",
                when(*at),
                &old_sha[..12.min(old_sha.len())]
            ));
            for line in changes(&String::from_utf8_lossy(old), text) {
                s.push_str("  ");
                s.push_str(&line);
                s.push('\n');
            }
        }
        None => s.push_str("It is the first sheet you sent for this turn.\n"),
    }
    s
}

/// What of the message was left out as not orders, then the sheet as it was kept: a
/// player on a phone sees at once what the host read, and that a signature cost no action.
fn as_read(found: &sheet::Found) -> String {
    let mut s = String::new();
    if !found.left_out.is_empty() {
        s.push_str("\nLeft out of your message, as not orders:\n");
        for what in &found.left_out {
            s.push_str(&format!("  - {what}\n"));
        }
    }
    s.push_str("\nYour sheet as kept (your password taken out):\n\n");
    for line in found.text.lines() {
        s.push_str("  ");
        s.push_str(line);
        s.push('\n');
    }
    s
}

/// A time as the host's mail writes it: UTC, to the second.
pub fn when(at: Millis) -> String {
    empires_host::calendar::utc_second(at)
}

/// Text on one line, cut to `max` characters: what a log line or a subject can hold.
fn one_line(s: &str, max: usize) -> String {
    let flat: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.chars().count() <= max {
        flat
    } else {
        let mut cut: String = flat.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_in_utc() {
        assert_eq!(when(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(when(1_772_539_200_000), "2026-03-03 12:00:00 UTC");
        assert_eq!(when(951_782_400_000), "2000-02-29 00:00:00 UTC");
    }

    #[test]
    fn log_lines_are_one_line_and_short() {
        assert_eq!(one_line("a\r\nb", 10), "a  b");
        assert_eq!(one_line("abcdef", 4), "abc…");
    }

    #[test]
    fn a_receipt_lists_what_changed() {
        let before = (b"1. TAX\n2. ARMY 3\n".to_vec(), "aa".repeat(32), 0);
        let r = receipt_lines("bb", Some(&before), "1. TAX\n2. ARMY 4\n", 1000);
        assert!(
            r.contains("- 2. ARMY 3") && r.contains("+ 2. ARMY 4"),
            "{r}"
        );
        assert!(receipt_lines("bb", None, "x", 0).contains("first sheet"));
    }
}
