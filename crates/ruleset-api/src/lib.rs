//! What every game the host runs provides, whichever game it is: the interface between the
//! host (games, seats, sheets, turns, reports, storage) and a ruleset (Empires, Napoleonic
//! Empires, ...). The host speaks to a ruleset only in the texts it keeps — the map file,
//! the state as JSON, the players' sheets, the reports — so a store and a door never need to
//! know which game they hold.
//!
//! What stays game-specific: the map format, the state, the order language, the report
//! model, the computer players; each ruleset's crates own them and implement [`Ruleset`]
//! in a crate of their own (`napoleonic-host`), which only the program depends on: the host,
//! the web and the mail doors depend on this crate alone.

pub mod error;
pub mod game;
pub mod mail;
pub mod text;

pub use error::{Error, Kind, Result};
pub use game::{Game, TextGame};

use std::sync::Arc;

/// A game as the host keeps it: its name, map file and state, as text, and what the
/// ruleset asked it to keep (the map's drawing, worked out once).
#[derive(Debug, Clone, Copy)]
pub struct GameText<'a> {
    pub name: &'a str,
    pub map: &'a str,
    pub state: &'a str,
    /// What the ruleset returned to keep; `None` if nothing is kept or it was lost.
    pub kept: Option<&'a str>,
}

/// A game of any ruleset as a store keeps it, as texts: what [`Ruleset`] is handed.
#[derive(Debug, Clone)]
pub struct HostedGame {
    pub name: String,
    pub ruleset: &'static dyn Ruleset,
    /// Turns played so far.
    pub turn: u32,
    pub map: String,
    pub state: String,
    pub kept: Option<String>,
    /// The map in a form its ruleset reads faster than the map file
    /// ([`Ruleset::ready_map`]), where the store keeps one; trusted only by the ruleset
    /// that made it, and only for the map text it was made from.
    pub ready_map: Option<String>,
    /// What the reader should know: a state that does not match its hash.
    pub warnings: Vec<String>,
}

impl HostedGame {
    pub fn text(&self) -> GameText<'_> {
        GameText {
            name: &self.name,
            map: &self.map,
            state: &self.state,
            kept: self.kept.as_deref(),
        }
    }
}

/// A place at the table: an empire, a kingdom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub code: String,
    pub name: String,
    /// Still in the game: it gets a sheet and a report.
    pub alive: bool,
    /// How the seat stands with its player, as the ruleset keeps it.
    pub standing: Standing,
    /// The player the game itself names for the seat (an Empires position lists its
    /// players); `None` where the host's accounts alone say who plays it.
    pub player: Option<Player>,
    /// The seat this one split from during play (a country divided in two): the host gives
    /// it to the player of that seat until the GM gives it to another.
    pub split_from: Option<String>,
}

impl Seat {
    /// A living seat the game names no player for, playing.
    pub fn new(code: impl Into<String>, name: impl Into<String>, alive: bool) -> Seat {
        Seat {
            code: code.into(),
            name: name.into(),
            alive,
            standing: if alive {
                Standing::Playing
            } else {
                Standing::Eliminated
            },
            player: None,
            split_from: None,
        }
    }
}

/// A player as the game names one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    pub email: Option<String>,
}

/// How a seat stands with its player: what the host's seats and ledger record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// Played by its player, who sent the last sheet.
    Playing,
    /// No player: the computer plays it.
    Dummy,
    /// Its player has missed this many turns in a row, not yet enough to drop out.
    Missing(u32),
    /// Its player missed so many turns that they dropped out, after this many.
    Dropped(u32),
    /// Out of the game.
    Eliminated,
}

impl Standing {
    /// As a seat's row records it: `playing`, `dummy`, `missing`, `dropped`, `eliminated`.
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Playing => "playing",
            Standing::Dummy => "dummy",
            Standing::Missing(_) => "missing",
            Standing::Dropped(_) => "dropped",
            Standing::Eliminated => "eliminated",
        }
    }

    /// Turns missed in a row.
    pub fn missed(self) -> u32 {
        match self {
            Standing::Missing(n) | Standing::Dropped(n) => n,
            _ => 0,
        }
    }
}

/// How a new game is set up, in terms every ruleset understands.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    pub name: String,
    /// The game's title for people, when it is to be other than its name.
    pub title: Option<String>,
    pub seed: u64,
    /// The map file's text; the ruleset's standard map when `None`.
    pub map: Option<String>,
    /// The seats in play (codes); all the map's when empty.
    pub seats: Vec<String>,
    /// One of the ruleset's standard maps, by name ([`NewGameForm::maps`]), when `map`
    /// gives no map of its own.
    pub standard_map: Option<String>,
    /// The rules, by the ruleset's name for them ([`NewGameForm::variants`]); the map's own
    /// when `None`.
    pub variant: Option<String>,
    /// The game's options, by the ids [`NewGameForm::options`] gives, as the GM wrote
    /// them; one left out takes its default.
    pub options: std::collections::BTreeMap<String, String>,
    /// Who plays which seat, as (seat code, player's name); the others are the computer's.
    pub players: std::collections::BTreeMap<String, String>,
}

/// What a GM chooses when starting a game of a ruleset, beside its name and seed.
#[derive(Debug, Clone, Default)]
pub struct NewGameForm {
    /// The standard maps, by name, the first the default; empty when the game has one map.
    pub maps: Vec<String>,
    /// The rules the maps may be played under, by name; empty when there is no choice.
    pub variants: Vec<String>,
    pub options: Vec<GameOption>,
    /// A sentence on the seats' codes, for the players' box ("an empire's code, EN").
    pub seats_hint: String,
}

/// An option of a new game, entered as text.
#[derive(Debug, Clone)]
pub struct GameOption {
    pub id: &'static str,
    /// What it is, with its rule and its default ("Actions a turn (2.6; blank: 16)").
    pub label: String,
    /// What a game gets when the GM leaves the option out, as the GM would write it.
    pub default: String,
}

impl NewGameForm {
    /// Refuses an option the ruleset does not offer, naming those it does with their
    /// defaults; the ruleset checks each value when it creates the game.
    pub fn check_options(&self, given: &std::collections::BTreeMap<String, String>) -> Result<()> {
        for id in given.keys() {
            if !self.options.iter().any(|o| o.id == id) {
                let offered = if self.options.is_empty() {
                    "this game has none".to_string()
                } else {
                    format!("this game's are {}", self.describe_options())
                };
                return Err(Error::new(format!(
                    "there is no option \"{id}\": {offered}"
                )));
            }
        }
        Ok(())
    }

    /// The options as a line for people: `finish (default 12): the distance that wins`.
    pub fn describe_options(&self) -> String {
        self.options
            .iter()
            .map(|o| format!("{} (default {}): {}", o.id, o.default, o.label))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// A new game: the map it is played on and its starting state, as the host keeps them.
#[derive(Debug, Clone, Default)]
pub struct Started {
    /// The game's own title, when it has one apart from the name the host keeps it by.
    pub title: Option<String>,
    /// The kind of game for people ("World Empires"); the ruleset's title when `None`.
    pub variant: Option<String>,
    pub map: String,
    pub state: String,
    /// The starting position's reports, each with who may read it.
    pub reports: Vec<Written>,
    /// Derived data to keep with the game and hand back in [`GameText::kept`]: it can
    /// always be made again, so losing it costs time, never a turn.
    pub kept: Option<String>,
}

/// A sheet read and checked: the counts, and what a player reads (every mistake with its
/// line and column, and the ruleset's forecast or dry run), made when a door asks for it:
/// the web's API wants JSON, the mail door text, and keeping a sheet neither.
#[derive(Debug, Clone)]
pub struct Checked {
    pub errors: usize,
    pub warnings: usize,
    detail: Arc<dyn CheckDetail>,
}

/// The full account of a check, as a ruleset gives it.
pub trait CheckDetail: Send + Sync + std::fmt::Debug {
    /// The text a player reads.
    fn text(&self) -> String;
    /// The ruleset's own account for the API, as JSON (Empires: every diagnostic and the
    /// forecast); `None` where the text is all.
    fn json(&self) -> Option<serde_json::Value> {
        None
    }
    /// Every mistake found, each at its line and column, in the one shape the doors show.
    fn diagnostics(&self) -> Vec<Diagnostic> {
        Vec::new()
    }
    /// What the sheet would do if no other seat acted, when the ruleset can tell.
    fn forecast(&self) -> Option<Forecast> {
        None
    }
}

/// One mistake a check found in a sheet, where it is: every ruleset's checker reports in
/// this shape, so that every door shows a mistake the same way.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// 1-based line and column of the sheet.
    pub line: u32,
    pub column: u32,
    /// The ruleset's short code for the kind of mistake (`E-UNKNOWN-AREA`).
    pub code: String,
    pub message: String,
    /// What was expected there, when the checker can say.
    pub expected: Option<String>,
    /// What the player may have meant.
    pub suggestions: Vec<String>,
    /// How to put it right, in a sentence, when the checker has one.
    pub note: Option<String>,
}

/// Whether a mistake stops its order (an error) or only deserves a look (a warning).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    /// An error where `is_error`, else a warning.
    pub fn of(is_error: bool) -> Severity {
        if is_error {
            Severity::Error
        } else {
            Severity::Warning
        }
    }
}

impl Diagnostic {
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The message as a sentence, ending in a full stop, so that the hint after it reads
    /// as another ("`LNO` is not an area on this map. Expected a three-character area
    /// code.").
    pub fn sentence(&self) -> String {
        let m = self.message.trim_end();
        match m.chars().last() {
            Some('.' | '!' | '?' | ':') | None => m.to_string(),
            Some(_) => format!("{m}."),
        }
    }

    /// "Expected a number. Did you mean LON or LOM?": what helps beside the message.
    pub fn hint(&self) -> String {
        let mut hint = String::new();
        if let Some(e) = &self.expected {
            hint.push_str(&format!("Expected {e}."));
        }
        if !self.suggestions.is_empty() {
            if !hint.is_empty() {
                hint.push(' ');
            }
            hint.push_str(&format!("Did you mean {}?", self.suggestions.join(" or ")));
        }
        if let Some(n) = &self.note {
            if !hint.is_empty() {
                hint.push(' ');
            }
            hint.push_str(n);
        }
        hint
    }
}

/// What a sheet would do if no other seat acted: a table of its steps (Empires: the BPs
/// and treasury after each action), a text (Napoleonic Empires: where each unit would be
/// in each phase), or both, with a last line summing up.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Forecast {
    /// The heading the doors give it ("Forecast", "Dry run").
    pub title: String,
    /// One sentence saying what it shows.
    pub note: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub text: String,
    pub end: String,
}

/// How a ruleset's sheet is written, as a door's editor explains it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SheetHelp {
    /// The editor's label ("Turnsheet: one action a line, in order (16 actions)").
    pub label: String,
    /// A sentence or two on how a line is written; empty when the sheet explains itself.
    pub help: String,
    /// The heading after which a sheet's messages to the other players start, when the
    /// game has them (Empires: `MESSAGES`, 2.9): the editor gives them a box of their own.
    pub messages: Option<String>,
}

/// A check whose account is its text alone.
#[derive(Debug)]
struct TextOnly(String);

impl CheckDetail for TextOnly {
    fn text(&self) -> String {
        self.0.clone()
    }
}

impl Checked {
    /// A check with its full account, made when asked for.
    pub fn new(errors: usize, warnings: usize, detail: impl CheckDetail + 'static) -> Checked {
        Checked {
            errors,
            warnings,
            detail: Arc::new(detail),
        }
    }

    /// A check whose account is a text, made already.
    pub fn of_text(errors: usize, warnings: usize, text: String) -> Checked {
        Checked::new(errors, warnings, TextOnly(text))
    }

    /// The diagnostics and the forecast or dry run as a player reads them.
    pub fn text(&self) -> String {
        self.detail.text()
    }

    /// Every mistake found, each at its line and column.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.detail.diagnostics()
    }

    /// What the sheet would do, when the ruleset can tell.
    pub fn forecast(&self) -> Option<Forecast> {
        self.detail.forecast()
    }

    /// One line summing the check up.
    pub fn summary(&self) -> String {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        match (self.errors, self.warnings) {
            (0, 0) => "No mistakes found.".to_string(),
            (e, w) => format!(
                "{e} error{} and {w} warning{}: orders with errors fail when the turn is played.",
                plural(e),
                plural(w)
            ),
        }
    }

    /// The check as an editor redraws it as the player types: the counts, the summary,
    /// every diagnostic and the forecast, the same shape for every game.
    pub fn view(&self) -> serde_json::Value {
        let diagnostics: Vec<serde_json::Value> = self
            .diagnostics()
            .iter()
            .map(|d| {
                let mut v = serde_json::to_value(d).unwrap_or_default();
                v["message"] = d.sentence().into();
                v["hint"] = d.hint().into();
                v
            })
            .collect();
        let forecast = self.forecast();
        // A ruleset that gives neither diagnostics nor a forecast has its text alone.
        let text = if forecast.is_none() && diagnostics.is_empty() {
            self.text()
        } else {
            String::new()
        };
        serde_json::json!({
            "errors": self.errors,
            "warnings": self.warnings,
            "summary": self.summary(),
            "diagnostics": diagnostics,
            "forecast": forecast,
            "text": text,
        })
    }

    /// The check as the API answers it: the ruleset's JSON, else the counts and the text.
    pub fn to_json(&self) -> serde_json::Value {
        self.detail.json().unwrap_or_else(|| {
            serde_json::json!({ "errors": self.errors, "warnings": self.warnings, "text": self.text() })
        })
    }
}

/// What a turn is played with.
#[derive(Debug, Clone, Copy, Default)]
pub struct Orders<'a> {
    /// The sheets sent, as (seat, text).
    pub sheets: &'a [(String, String)],
    /// The seats no one plays (no account holds them): the ruleset's computer player stands
    /// in for those that sent nothing. What becomes of a seat that has a player but sent
    /// nothing is the ruleset's rule.
    pub stand_ins: &'a [String],
    /// The GM's messages to every player, printed in every report of the turn.
    pub gm: Option<&'a str>,
    /// The standing sheets in force, as (seat, text): each seat's latest, kept until it
    /// sends another ([`Step::standing`]).
    pub standing: &'a [(String, String)],
    /// The GM's rulings for this step, as typed ([`Ruleset::check_rulings`]): distinct from
    /// the GM's messages, which are only printed. `None`: the GM sent none, and a step that
    /// needed them ([`Step::needs_gm`]) is being played at its deadline in the GM's silence.
    pub rulings: Option<&'a str>,
    /// When each sheet in `sheets` arrived, as (seat, milliseconds since 1970): a game may
    /// rule on the order sheets came in, or on one that came late.
    pub arrived: &'a [(String, i64)],
}

/// A turn played: everything the host writes for it, as text.
#[derive(Debug, Clone)]
pub struct Turn {
    /// The turn that was played.
    pub turn: u32,
    pub state: String,
    pub events: String,
    /// Every report, each with who may read it: `FRA.txt`, `EN.html`, ...
    pub reports: Vec<Written>,
    /// The game's seats as the turn left them.
    pub seats: Vec<Seat>,
    /// The orders the computer wrote, as (file, text), kept in the turn's
    /// [`Ruleset::computer_dir`].
    pub computer_orders: Vec<(String, String)>,
    /// The seats the computer played this turn, whose sheets it wrote.
    pub computer_played: Vec<String>,
    pub events_count: usize,
    pub failed: usize,
    /// Orders not carried out and not failed (beyond a sheet's limit, say).
    pub ignored: usize,
    /// The game ended with this turn.
    pub finished: Option<Finished>,
    /// What the GM is told of the turn beside its counts: a victory warned of, a game won.
    pub news: Vec<String>,
    /// Things the GM should know (sheets not used, and why).
    pub notes: Vec<String>,
    /// New derived data to keep, when what was kept was missing or stale.
    pub kept: Option<String>,
    /// The step after this one, as [`Ruleset::step`] would read it from the new state,
    /// for a game played in steps; `None`: the next whole turn, every seat expected.
    pub next: Option<Step>,
    /// Fees the turn charges a seat's player, in turn credits, where the game's turns are
    /// paid for (Napoleonic Empires' Royalty, the GM's fee of 2.10); none elsewhere.
    pub fees: Vec<Fee>,
}

/// A fee charged to a seat's player in the ledger, in turn credits, with the reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fee {
    pub seat: String,
    pub credits: u32,
    pub reason: String,
}

/// How a game ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Finished {
    /// For people: who won, how, on which turn.
    pub summary: String,
    /// Each seat's result, by the ruleset's categories (for the players' ledgers); a seat
    /// whose player dropped out has none.
    pub results: Vec<(String, String)>,
}

/// Who may read a file a turn writes, as the ruleset that wrote it says: the host keeps
/// it with the file and every door asks it. A seat named that is not in the game reads
/// nothing; the GM reads everything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Readers {
    /// The GM alone.
    Gm,
    /// These seats (and the GM): a seat's own report, or one shared by allies.
    Seats(Vec<String>),
    /// Everyone in the game: what holds nothing secret.
    Everyone,
}

/// A file a turn writes for its readers: a report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// Its name: `FRA.txt`, `public.json`.
    pub name: String,
    pub text: String,
    pub readers: Readers,
}

impl Written {
    /// A seat's own file.
    pub fn for_seat(seat: &str, name: String, text: String) -> Written {
        Written {
            name,
            text,
            readers: Readers::Seats(vec![seat.to_string()]),
        }
    }
}

/// The inline scripts of a ruleset's report pages (see [`Ruleset::page_scripts`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct PageScripts {
    /// The scripts the pages carry now, as text.
    pub current: &'static [&'static str],
    /// The SHA-256, in base64, of the scripts that pages kept by earlier versions carry: a
    /// stored page is served as it was kept, so its scripts must still run.
    pub earlier_sha256: &'static [&'static str],
}

/// What a sheet's header names, as written: found in a letter before the game is known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SheetHeader {
    pub game: Option<String>,
    /// The empire or kingdom.
    pub seat: Option<String>,
    pub turn: Option<String>,
}

/// The next step of a game: one turn of the host (one `turns/NNNN`, one receipt's "for
/// turn", one undo), as its ruleset describes it. Most games play a game-turn in one step
/// that waits for everyone ([`Step::turn`]); a game played in windows, or one country at a
/// time, describes each step.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Step {
    /// The step for people: "turn 5", "game-turn 6, slot 4 of 9".
    pub label: String,
    /// The seats the step waits for and plays; `None`: every living seat with a player.
    /// A sheet from a seat not among them is refused.
    pub expected: Option<Vec<String>>,
    /// For a seat not expected now, the step it is next expected at: a sheet it sends now
    /// is kept for that step (sent ahead), and a refused sheet says when to send it.
    pub next_expected: Vec<Upcoming>,
    /// The seats that may send a standing sheet now.
    pub standing: Vec<String>,
    /// The standing sheets in force are open to every seat, not only to their own seat and
    /// the GM (votes cast in the open, say).
    pub standing_public: bool,
    /// Why the GM must rule before the step is played, when the step needs the GM.
    pub needs_gm: Option<String>,
    /// The time the step suggests its seats be given, from the previous play, in
    /// milliseconds.
    pub allowance: Option<i64>,
    /// Whether the step begins a game-turn: what the ledger charges for.
    pub begins_game_turn: bool,
}

/// A later step a seat is expected at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Upcoming {
    pub seat: String,
    /// The host turn the step will be (this step's turn plus one, or more).
    pub turn: u32,
    /// The step for people, as [`Step::label`] will name it.
    pub label: String,
}

impl Upcoming {
    pub fn new(seat: impl Into<String>, turn: u32, label: impl Into<String>) -> Upcoming {
        Upcoming {
            seat: seat.into(),
            turn,
            label: label.into(),
        }
    }
}

impl Step {
    /// A whole turn `turn`, played in one step that waits for every living seat with a
    /// player.
    pub fn turn(turn: u32) -> Step {
        Step {
            label: format!("turn {turn}"),
            begins_game_turn: true,
            ..Step::default()
        }
    }

    /// Whether the step waits for, and plays, `seat`.
    pub fn expects(&self, seat: &str) -> bool {
        self.expected
            .as_ref()
            .is_none_or(|e| e.iter().any(|s| s == seat))
    }

    /// The later step `seat` is next expected at, when it is not expected now.
    pub fn upcoming(&self, seat: &str) -> Option<&Upcoming> {
        self.next_expected.iter().find(|u| u.seat == seat)
    }

    /// The host turn a sheet `seat` sends now is for, this step being turn `next`: its own
    /// next step when it is not expected at this one (a sheet sent ahead), else this one.
    pub fn own_turn(&self, seat: &str, next: u32) -> u32 {
        match self.upcoming(seat) {
            Some(u) if !self.expects(seat) => u.turn,
            _ => next,
        }
    }

    /// Why a sheet from `seat` is not taken for this step, or `None` when it is: the seat
    /// is neither expected nor allowed a standing sheet.
    pub fn refusal(&self, seat: &str) -> Option<String> {
        if self.expects(seat) || self.standing.iter().any(|s| s == seat) {
            return None;
        }
        let next = self.upcoming(seat).map_or_else(
            || "it is not expected again".to_string(),
            |u| format!("its next is {}", u.label),
        );
        Some(format!(
            "{seat} is not expected at {}, the step now being played: {next}; send its sheet then",
            self.label
        ))
    }
}

/// A game family the host can run.
pub trait Ruleset: Send + Sync {
    /// The name kept in a game's `game.toml`: `empires`, `napoleonic`.
    fn id(&self) -> &'static str;
    /// The game's name for people.
    fn title(&self) -> &'static str;
    /// What becomes of a seat that sends no sheet for a turn, said to the GM (the ruleset's
    /// policy, not the host's).
    fn missed_turn(&self) -> &'static str;
    fn create(&self, setup: &Setup) -> Result<Started>;
    /// [`Ruleset::create`], after refusing an option the ruleset does not offer
    /// ([`NewGameForm::check_options`]): how every door starts a game.
    fn start(&self, setup: &Setup) -> Result<Started> {
        self.new_game_form().check_options(&setup.options)?;
        self.create(setup)
    }
    /// What a GM chooses when starting a game ([`Setup`]'s maps, rules and options).
    fn new_game_form(&self) -> NewGameForm {
        NewGameForm::default()
    }
    fn seats(&self, game: GameText) -> Result<Vec<Seat>>;
    /// The turn to be played next.
    fn next_turn(&self, game: GameText) -> Result<u32>;
    /// The next step: whom it waits for, and how people name it. Unless a ruleset plays in
    /// steps, the whole next turn, waiting for everyone.
    fn step(&self, game: GameText) -> Result<Step> {
        self.next_turn(game).map(Step::turn)
    }
    /// The blank sheet a seat fills in for the next turn.
    fn sheet(&self, game: GameText, seat: &str) -> Result<String>;
    /// Reads and checks a seat's sheet, named `file` in messages.
    fn check(&self, game: GameText, seat: &str, file: &str, sheet: &str) -> Result<Checked>;
    /// Plays the next turn with what was sent for it.
    fn play(&self, game: GameText, orders: Orders) -> Result<Turn>;
    /// Reads and checks the GM's rulings ([`Orders::rulings`]), named `file` in messages, as
    /// a player's sheet is checked. A game whose GM only writes messages takes none.
    fn check_rulings(&self, game: GameText, file: &str, rulings: &str) -> Result<Checked> {
        let _ = (game, rulings);
        Err(no_rulings(self, file))
    }
    /// The header of a sheet written in this ruleset's order language: what a letter's
    /// sheet says it is for, read before the game is known.
    fn header(&self, sheet: &str) -> SheetHeader;
    /// How the GM's rulings are written, in a line for the console's form ("One a line:
    /// ROYALTY FRA [FEE 10], ..."), in a game that takes them ([`Ruleset::check_rulings`]).
    fn rulings_help(&self) -> &'static str {
        ""
    }
    /// The derived data ([`Started::kept`]) the program carries built in for a map, when
    /// `map` is the text of one of the ruleset's standard maps: a database then keeps none
    /// of its own for the game, and hands this out as the game's.
    fn built_kept(&self, map: &str) -> Option<&'static str> {
        let _ = map;
        None
    }
    /// The inline scripts this ruleset's report pages carry, for the web's
    /// Content-Security-Policy: a page is allowed to run those and no other.
    fn page_scripts(&self) -> PageScripts {
        PageScripts::default()
    }
    /// Whether the game takes late orders: a sheet written for a turn already played is
    /// kept, marked late, for the next (Empires, 2.4). Without them a sheet names the one
    /// turn it is for: one written for a turn played, or sent after the deadline while the
    /// turn waits, is refused and the player told to use the next sheet.
    fn late_orders(&self) -> bool {
        false
    }
    /// The version of the rules a turn is played under, kept with every turn so that a
    /// replay can tell a changed rule from a changed state; `None` where none is kept.
    fn rules_version(&self) -> Option<&'static str> {
        None
    }
    /// The folder of a turn keeping the orders the computer wrote (GM's eyes only).
    fn computer_dir(&self) -> &'static str {
        "computer"
    }
    /// The file beside a directory game's map that keeps [`Started::kept`]: report pages
    /// may load it by name.
    fn kept_file(&self) -> &'static str {
        "kept.json"
    }
    /// The map in a form this ruleset reads faster than the map file, for a store that
    /// reads a game again for every command (a directory) to keep beside it and hand back
    /// in [`HostedGame::ready_map`]; `None` where reading the map costs little.
    fn ready_map(&self, _map_text: &str) -> Option<String> {
        None
    }
    /// The game's own title, as its state gives it: what its sheets carry on their `GAME`
    /// line where the host keeps the game by no other name (a directory).
    fn game_title(&self, game: GameText) -> Result<String> {
        Ok(game.name.to_string())
    }
    /// Whether the game is over, and how it ended: it then takes no more sheets.
    fn finished(&self, _game: GameText) -> Result<Option<String>> {
        Ok(None)
    }
    /// The forms a seat's report is written in (`reports/SEAT.html`, `.txt`, `.json`), the
    /// first the one a page shows.
    fn report_formats(&self) -> &'static [&'static str] {
        &["html", "txt", "json"]
    }
    /// The seats of a new game on one of the ruleset's standard maps (`None`: its first):
    /// each code with its name, for the GM writing who plays which.
    fn map_seats(&self, _map: Option<&str>) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The file of a turn's `reports/` that a seat's report `file`, as kept (`kept`),
    /// leaves some of itself to (what every seat's report shares, kept once): a reader is
    /// given the report made whole with it ([`Ruleset::made_whole`]). `None`: whole as it is.
    fn shared_part(&self, _file: &str, _kept: &str) -> Option<String> {
        None
    }
    /// The report `file` as kept, made whole with the text of its [`Ruleset::shared_part`].
    fn made_whole(&self, _file: &str, kept: &str, _shared: &str) -> Result<String> {
        Ok(kept.to_string())
    }
    /// The reports of a turn that are not a seat's, which the GM's console links to: each
    /// file in the turn's `reports/` with what to call it ("the GM's summary"). None by
    /// default.
    fn gm_reports(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
    /// Whether the game rules on when sheets arrived ([`Orders::arrived`]): the host then
    /// keeps each played sheet's arrival with its turn, so that a replay is told the same.
    fn arrival_times(&self) -> bool {
        false
    }
    /// Whether a game's turns may be charged to its players (the host's ledger of turn
    /// credits, 2.10 of Empires): dropouts and results are recorded all the same.
    fn paid_turns(&self) -> bool {
        false
    }
    /// The game read once, kept by the doors that run for long until a turn is played.
    /// By default the texts are kept and each question asked of the ruleset; a ruleset
    /// whose reading is costly keeps its game parsed instead.
    fn open(&self, game: HostedGame) -> Result<Arc<dyn Game>> {
        Ok(Arc::new(TextGame::new(game)))
    }
}

impl std::fmt::Debug for dyn Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// Why the GM's rulings `file` are refused by a game of `ruleset`, which takes none.
pub fn no_rulings(ruleset: &(impl Ruleset + ?Sized), file: &str) -> Error {
    Error::conflict(format!(
        "{file}: a game of {} takes no rulings from the GM; write to the players with a message instead",
        ruleset.title()
    ))
}

/// A value as pretty JSON with a final newline: how a state and a turn's records are kept,
/// so that a GM can read and diff them.
pub fn to_pretty_json<T: serde::Serialize>(value: &T, what: &str) -> Result<String> {
    let mut text = serde_json::to_string_pretty(value)
        .map_err(|e| Error::new(format!("cannot encode {what}: {e}")))?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod option_tests {
    use super::{GameOption, NewGameForm};

    #[test]
    fn an_option_not_offered_is_refused_naming_those_that_are_with_their_defaults() {
        let form = NewGameForm {
            options: vec![GameOption {
                id: "finish",
                label: "The distance that wins".into(),
                default: "12".into(),
            }],
            ..NewGameForm::default()
        };
        let mut given = std::collections::BTreeMap::new();
        given.insert("finish".to_string(), "8".to_string());
        assert!(form.check_options(&given).is_ok());
        given.insert("laps".to_string(), "3".to_string());
        let why = form.check_options(&given).unwrap_err().to_string();
        assert!(
            why.contains("no option \"laps\"") && why.contains("finish (default 12)"),
            "{why}"
        );
        let none = NewGameForm::default().check_options(&given).unwrap_err();
        assert!(none.to_string().contains("this game has none"));
    }
}

#[cfg(test)]
mod step_tests {
    use super::{Step, Upcoming};

    #[test]
    fn a_whole_turn_waits_for_everyone_and_refuses_no_seat() {
        let step = Step::turn(5);
        assert_eq!(step.label, "turn 5");
        assert!(step.begins_game_turn && step.expects("EN") && step.refusal("EN").is_none());
    }

    #[test]
    fn a_seat_out_of_turn_is_told_its_next_step_and_a_standing_seat_is_taken() {
        let step = Step {
            label: "slot 1 of 3".into(),
            expected: Some(vec!["AA".into()]),
            next_expected: vec![Upcoming::new("BB", 2, "slot 2 of 3")],
            standing: vec!["CC".into()],
            ..Step::default()
        };
        let why = step.refusal("BB").unwrap();
        assert!(
            why.contains("slot 1 of 3") && why.contains("its next is slot 2 of 3"),
            "{why}"
        );
        assert!(step.refusal("CC").is_none());
        assert!(step.refusal("DD").unwrap().contains("not expected again"));
    }
}

#[cfg(test)]
mod diagnostic_tests {
    use super::{Diagnostic, Severity};

    #[test]
    fn a_message_and_its_hint_read_as_two_sentences() {
        let mut d = Diagnostic {
            severity: Severity::Error,
            line: 4,
            column: 9,
            code: "E010".into(),
            message: "`LNO` is not an area on this map".into(),
            expected: Some("a three-character area code".into()),
            suggestions: vec!["LON".into()],
            note: None,
        };
        assert_eq!(
            format!("{} {}", d.sentence(), d.hint()),
            "`LNO` is not an area on this map. Expected a three-character area code. Did you mean LON?"
        );
        d.message = "Is this right?".into();
        assert_eq!(d.sentence(), "Is this right?");
    }
}
