//! The one turn pipeline, whichever the game and the store: a store claims the game and
//! gathers what was sent for its next turn ([`Taken`]); [`play`] reads the sheets, decides
//! who the computer stands in for, has the game's ruleset play the turn and lays out every
//! file the turn keeps, with who may read each ([`PlayedTurn`]); the store then commits it
//! as one unit. Pure: it reads and writes nothing, so a directory and a database play a
//! turn the same way and keep the same bytes.

use crate::error::{Error, Result};
use crate::gamedir::{
    EVENTS_FILE, GM_MESSAGES_FILE, HASH_FILE, ORDERS_DIR, STATE_FILE, sha256_hex,
};
use crate::gamedir::{REPORTS_DIR, RULINGS, STANDING_DIR};
use crate::ruleset::{Finished, Game, Orders, Seat, Standing, Step, to_pretty_json};
use crate::staging::{RECORD_FILE, TurnRecord, UNREADABLE_DIR};
use crate::store::{Declared, Files, sorted_unique};
use crate::turn::{TurnOptions, TurnReport, decode_sheet};

/// What a store gathered for a turn it has claimed.
#[derive(Debug, Clone, Default)]
pub struct Taken {
    /// What was sent for the turn, each seat's latest: (seat, or `None` for the GM's
    /// messages, and the bytes as received).
    pub sent: Vec<(Option<String>, Vec<u8>)>,
    /// The seats a player's account holds, where the store keeps accounts; `None` where
    /// the game's own seats alone say who has a player, and no one stands in for a seat
    /// (a directory).
    pub held: Option<Vec<String>>,
    /// Sheets replaced after an interrupted turn, kept with this one and not played.
    pub superseded: Vec<String>,
    /// Why the state could not be verified, when the GM had the turn played on it anyway.
    pub state_accepted: Option<String>,
    /// Where the sheets were, for messages: `orders`, a game's `orders` in a database.
    pub label: String,
    /// The standing sheets in force, each seat's latest: (seat, bytes as received).
    pub standing: Vec<(String, Vec<u8>)>,
    /// When each sheet in `sent` arrived, by seat (the GM's rulings as [`RULINGS`]), where
    /// the game rules on it ([`crate::ruleset::Ruleset::arrival_times`]).
    pub arrived: Vec<(String, i64)>,
}

/// A turn played and laid out, ready for a store to commit.
#[derive(Debug, Clone)]
pub struct PlayedTurn {
    /// The turn played.
    pub turn: u32,
    /// Every file the turn keeps, by path within the turn, sorted.
    pub files: Files,
    /// Who may read the turn's reports, as the ruleset declared.
    pub declared: Declared,
    /// The SHA-256 of the new state.
    pub hash: String,
    pub record: TurnRecord,
    /// The game's seats as the turn left them.
    pub after: Vec<Seat>,
    pub finished: Option<Finished>,
    /// Fees the ruleset charges seats' players, where the game's turns are paid for.
    pub fees: Vec<ruleset_api::Fee>,
    /// Derived data the ruleset asks to keep from now on (the map's drawing).
    pub kept: Option<String>,
    /// What the turn did, for the GM; the store says where it was written.
    pub report: TurnReport,
    /// The step that was played, as the ruleset described it before playing it: whether it
    /// began a game-turn decides whether the players are charged for it.
    pub step: Step,
    /// The step after it, when the game plays in steps; `None`: the next whole turn.
    pub next: Option<Step>,
}

/// The name a sent file has in a turn's `orders/`: `EN.txt`, or `gm.txt` for the GM's.
pub fn sent_name(seat: Option<&str>) -> String {
    seat.map_or(GM_MESSAGES_FILE.to_string(), |s| format!("{s}.txt"))
}

/// Whether a seat has a player the turn should wait for: one the game names, or one an
/// account holds; a seat the ruleset plays as a dummy never waits.
fn has_player(seat: &Seat, held: Option<&[String]>) -> bool {
    seat.player.is_some()
        || (seat.standing != Standing::Dummy && held.is_some_and(|h| h.contains(&seat.code)))
}

/// What a turn is handed, read from what was taken for it.
struct Read {
    /// The seats' sheets, as (seat, text), and the GM's messages.
    sheets: Vec<(String, String)>,
    gm: Option<String>,
    /// The names of the sent files that were read, and of those that could not be, why.
    read: Vec<String>,
    unreadable: Vec<(String, String)>,
    stand_ins: Vec<String>,
    warnings: Vec<String>,
    /// The standing sheets in force, as (seat, text).
    standing: Vec<(String, String)>,
    /// The GM's rulings, and why the step needed them when it is played without.
    rulings: Option<String>,
    gm_silent: Option<String>,
    arrived: Vec<(String, i64)>,
}

impl Read {
    fn orders(&self) -> Orders<'_> {
        Orders {
            sheets: &self.sheets,
            stand_ins: &self.stand_ins,
            gm: self.gm.as_deref(),
            standing: &self.standing,
            rulings: self.rulings.as_deref(),
            arrived: &self.arrived,
        }
    }
}

/// Reads what `taken` holds for the next turn of `game`, whose seats are `before`, as
/// `options` allow: refused while a seat with a player has sent nothing (without `yes`),
/// or a sheet cannot be read (without `unreadable_as_missed`).
fn read_taken(
    game: &dyn Game,
    (before, step): (&[Seat], &Step),
    taken: &Taken,
    options: TurnOptions,
) -> Result<Read> {
    let next = game.turn() + 1;
    let held = taken.held.as_deref();
    // The step says which seats it waits for and plays: every living seat unless the game
    // plays in steps (one runner's leg, one country's slot).
    let sent_by = |code: &str| taken.sent.iter().any(|(s, _)| s.as_deref() == Some(code));
    let silent = |s: &&Seat| s.alive && step.expects(&s.code) && !sent_by(&s.code);
    // A step waits for every expected living seat with a player unless the GM says to play
    // it anyway (the clock always does, at the deadline).
    if !options.yes {
        let missing: Vec<String> = before
            .iter()
            .filter(silent)
            .filter(|s| has_player(s, held))
            .map(|s| match &s.player {
                Some(p) => format!("{} ({})", s.code, p.name),
                None => s.code.clone(),
            })
            .collect();
        // A step that needs the GM waits for the GM's rulings as it waits for a seat.
        if let Some(why) = &step.needs_gm
            && !sent_by(RULINGS)
            && missing.is_empty()
        {
            return Err(Error::new(format!(
                "{} waits for the GM's rulings: {why}. Send them with `empires submit --rulings`, or \
                 play now with `empires turn --yes` (the GM's silence is recorded with the turn)",
                step.label
            )));
        }
        if !missing.is_empty() {
            let at = if step.expected.is_some() {
                format!(" for {}", step.label)
            } else {
                String::new()
            };
            return Err(Error::new(format!(
                "no orders yet{at} from {}: {} Wait for them, or play now with `empires turn --yes`",
                missing.join(", "),
                game.ruleset().missed_turn()
            )));
        }
    }
    let mut sheets = Vec::new();
    let mut gm = None;
    let mut rulings = None;
    let mut read = Vec::new();
    let mut unreadable = Vec::new();
    for (seat, body) in &taken.sent {
        let name = sent_name(seat.as_deref());
        match (decode_sheet(body), seat) {
            (Ok(text), Some(seat)) if seat == RULINGS => {
                rulings = Some(text);
                read.push(name);
            }
            (Ok(text), Some(seat)) => {
                sheets.push((seat.clone(), text));
                read.push(name);
            }
            (Ok(text), None) => {
                gm = Some(text);
                read.push(name);
            }
            (Err(why), _) => unreadable.push((name, why)),
        }
    }
    let mut warnings = Vec::new();
    if !unreadable.is_empty() {
        let list = unreadable
            .iter()
            .map(|(n, why)| format!("{}/{n}: {why}", taken.label))
            .collect::<Vec<_>>()
            .join("; ");
        if !options.unreadable_as_missed {
            return Err(Error::new(format!(
                "turn {next} not played, some turnsheets cannot be read: {list}. Ask for them \
                 again, or run `empires turn --unreadable-as-missed` to play those seats \
                 as having sent no orders (the sheets are kept with the turn)"
            )));
        }
        warnings.push(format!(
            "played as sent no orders (--unreadable-as-missed), the sheets kept with the turn \
             in {ORDERS_DIR}/{UNREADABLE_DIR}/: {list}"
        ));
    }
    // Where accounts say who plays, the computer stands in for the seats no one holds; in
    // a directory the GM says who plays by the sheets sent, and the ruleset's own rule
    // decides what a silent seat does.
    let stand_ins: Vec<String> = match held {
        Some(_) => before
            .iter()
            .filter(|s| s.alive && step.expects(&s.code))
            .filter(|s| !sheets.iter().any(|(c, _)| c == &s.code))
            .filter(|s| !has_player(s, held))
            .map(|s| s.code.clone())
            .collect(),
        None => Vec::new(),
    };
    // A standing sheet that cannot be read as text stands as no sheet: it was checked
    // when it was kept, so only a damaged store gives one.
    let standing = taken
        .standing
        .iter()
        .filter_map(|(seat, body)| decode_sheet(body).ok().map(|t| (seat.clone(), t)))
        .collect();
    // Played without the rulings it needed (at its deadline, or by the GM's word): the
    // GM's silence is recorded with the turn.
    let gm_silent = step.needs_gm.clone().filter(|_| rulings.is_none());
    if let Some(why) = &gm_silent {
        warnings.push(format!(
            "{} was played without the GM's rulings it needed ({why}): the GM's silence is \
             recorded with the turn",
            step.label
        ));
    }
    Ok(Read {
        sheets,
        gm,
        read,
        unreadable,
        stand_ins,
        warnings,
        standing,
        rulings,
        gm_silent,
        arrived: taken.arrived.clone(),
    })
}

/// Plays again, for `empires verify`, the turn `taken` was taken for, on `game` as it stood
/// before it: the state it gives (a seat's sheet that could not be read plays as sending
/// nothing, as it did).
pub fn replay(game: &dyn Game, taken: &Taken) -> Result<String> {
    let options = TurnOptions {
        yes: true,
        unreadable_as_missed: true,
        accept_state: true,
        expect: None,
        by: None,
    };
    let before = game.seats()?;
    let step = game.step()?;
    let read = read_taken(game, (&before, &step), taken, options)?;
    game.replay(read.orders())
}

/// Plays the next turn of `game`, as its ruleset read it, with what `taken` holds, as
/// `options` allow.
pub fn play(game: &dyn Game, taken: Taken, options: TurnOptions) -> Result<PlayedTurn> {
    let ruleset = game.ruleset();
    let next = game.turn() + 1;
    let before = game.seats()?;
    let step = game.step()?;
    let taken_read = read_taken(game, (&before, &step), &taken, options)?;
    let played = game.play(taken_read.orders())?;
    let Read {
        sheets,
        mut read,
        unreadable,
        mut warnings,
        gm_silent,
        arrived,
        ..
    } = taken_read;
    if played.turn != next {
        return Err(Error::corrupt(format!(
            "{}: the state is ready for turn {}, but the game has played {} turns",
            game.name(),
            played.turn,
            game.turn()
        )));
    }
    read.sort();
    let record = TurnRecord {
        sent: read,
        computer: played
            .computer_orders
            .iter()
            .map(|(n, _)| n.clone())
            .collect(),
        unreadable: unreadable.iter().map(|(n, _)| n.clone()).collect(),
        state_accepted: taken.state_accepted.clone(),
        superseded: taken.superseded.clone(),
        rules_version: ruleset.rules_version().map(str::to_string),
        arrived: if ruleset.arrival_times() {
            arrived
        } else {
            Vec::new()
        },
        gm_silent,
    };
    let hash = sha256_hex(played.state.as_bytes());
    let mut files: Files = vec![
        (STATE_FILE.into(), played.state.clone().into_bytes()),
        (HASH_FILE.into(), format!("{hash}\n").into_bytes()),
        (EVENTS_FILE.into(), played.events.clone().into_bytes()),
        (
            RECORD_FILE.into(),
            to_pretty_json(&record, RECORD_FILE)?.into_bytes(),
        ),
    ];
    for (seat, body) in &taken.sent {
        let name = sent_name(seat.as_deref());
        let path = if record.unreadable.contains(&name) {
            format!("{ORDERS_DIR}/{UNREADABLE_DIR}/{name}")
        } else {
            format!("{ORDERS_DIR}/{name}")
        };
        files.push((path, body.clone()));
    }
    for (name, text) in &played.computer_orders {
        let path = format!("{}/{name}", ruleset.computer_dir());
        files.push((path, text.clone().into_bytes()));
    }
    // Who reads a report is the ruleset's word, not its name's; a standing sheet in force
    // is kept with every turn it was played in, its seat's and the GM's alone unless the
    // step opens them to all, so that the turn replays as it was played.
    let mut declared = Declared::new();
    for (seat, body) in &taken.standing {
        let path = format!("{STANDING_DIR}/{seat}.txt");
        let readers = if step.standing_public {
            crate::ruleset::Readers::Everyone
        } else {
            crate::ruleset::Readers::Seats(vec![seat.clone()])
        };
        declared.insert(path.clone(), readers);
        files.push((path, body.clone()));
    }
    for w in &played.reports {
        let path = format!("{REPORTS_DIR}/{}", w.name);
        declared.insert(path.clone(), w.readers.clone());
        files.push((path, w.text.clone().into_bytes()));
    }
    let files = sorted_unique(files)?;
    // A sheet the ruleset would not play is named in its notes, "EN.txt: why".
    let refused = |seat: &str| {
        played
            .notes
            .iter()
            .any(|n| n.starts_with(&format!("{seat}.txt:")))
    };
    let orders_from: Vec<String> = sheets
        .iter()
        .map(|(s, _)| s.clone())
        .filter(|s| !refused(s))
        .collect();
    let no_orders = before
        .iter()
        .filter(|s| s.alive && !orders_from.contains(&s.code))
        .filter(|s| !played.computer_played.contains(&s.code))
        .map(|s| s.code.clone())
        .collect();
    warnings.extend(played.notes.iter().cloned());
    if !record.superseded.is_empty() {
        warnings.push(format!(
            "kept with the turn in {ORDERS_DIR}/{}/, not played: {}",
            crate::staging::SUPERSEDED_DIR,
            record.superseded.join(" ")
        ));
    }
    let report = TurnReport {
        game: game.name().to_string(),
        turn: next,
        written_to: String::new(),
        events: played.events_count,
        failed: played.failed,
        ignored: played.ignored,
        hash: hash.clone(),
        orders_from,
        no_orders,
        computer_written: played.computer_played.clone(),
        news: played.news.clone(),
        finished: played.finished.is_some(),
        warnings,
    };
    Ok(PlayedTurn {
        turn: next,
        files,
        declared,
        hash,
        record,
        after: played.seats,
        finished: played.finished,
        fees: played.fees,
        kept: played.kept,
        report,
        step,
        next: played.next,
    })
}
