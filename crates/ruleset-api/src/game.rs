//! A game read once and kept: what a door that runs for long (the web, the mail door) asks
//! of a game between two turns — its seats, a blank sheet, a sheet checked — without
//! reading and parsing it again for every request.

use crate::mail::{MailReport, TurnFiles};
use crate::{Checked, HostedGame, Orders, Result, Ruleset, Seat, SheetHelp, Turn};
use std::any::Any;

/// A game as its ruleset read it ([`Ruleset::open`]).
pub trait Game: Send + Sync + Any {
    fn ruleset(&self) -> &'static dyn Ruleset;
    /// The name the host keeps the game by: what a sheet's `GAME` line names.
    fn name(&self) -> &str;
    /// Turns played so far.
    fn turn(&self) -> u32;
    /// The game's title for people (its own name, which may differ from [`Game::name`]).
    fn title(&self) -> &str;
    fn seats(&self) -> Result<Vec<Seat>>;
    /// The one blank sheet a seat fills in for the next turn: the report's, the mail's and
    /// the web editor's.
    fn sheet(&self, seat: &str) -> Result<String>;
    /// How `seat`'s sheet is written, for an editor to say.
    fn sheet_help(&self, seat: &str) -> SheetHelp {
        let _ = seat;
        SheetHelp {
            label: "Sheet: orders as the sheet explains".to_string(),
            ..SheetHelp::default()
        }
    }
    /// Whether the game is over, and how it ended ([`Ruleset::finished`]).
    fn finished(&self) -> Result<Option<String>> {
        Ok(None)
    }
    /// The next step ([`Ruleset::step`]).
    fn step(&self) -> Result<crate::Step> {
        Ok(crate::Step::turn(self.turn() + 1))
    }
    /// Reads and checks a seat's sheet, named `file` in messages.
    fn check(&self, seat: &str, file: &str, sheet: &str) -> Result<Checked>;
    /// Plays the next turn with what was sent for it ([`Ruleset::play`] on the game as
    /// read, without reading it again).
    fn play(&self, orders: Orders) -> Result<Turn>;
    /// Reads and checks the GM's rulings ([`Ruleset::check_rulings`]); a game kept parsed
    /// whose GM only writes messages takes none.
    fn check_rulings(&self, file: &str, rulings: &str) -> Result<Checked> {
        let _ = rulings;
        Err(crate::no_rulings(self.ruleset(), file))
    }
    /// The state the next turn gives with `orders`, as [`Game::play`] would leave it, for
    /// `empires verify`: a ruleset may skip what only the reports need.
    fn replay(&self, orders: Orders) -> Result<String> {
        self.play(orders).map(|t| t.state)
    }
    /// What the reader should know: a state that does not match its hash.
    fn warnings(&self) -> &[String];
    /// `seat`'s report of turn `turn` (played, its files `files`) as a letter carries it:
    /// whole, its map a picture where the game draws one.
    fn mail_report(&self, turn: u32, files: &TurnFiles, seat: &str) -> Result<MailReport> {
        let _ = turn;
        crate::mail::as_written(files, seat)
    }
    /// The introductions turn `turn` made (its files `files`), as (from seat, to seat): a
    /// seat whose ruler sent the other an ambassador (Napoleonic Empires), so that the host
    /// passes the sender's address on where its player allows it. None in most games.
    fn introductions(&self, turn: u32, files: &TurnFiles) -> Result<Vec<(String, String)>> {
        let _ = (turn, files);
        Ok(Vec::new())
    }
    /// The script every report page of the game loads beside it (Empires: the map's
    /// layer, `map.js`), when the ruleset keeps one.
    fn page_script(&self) -> Option<&str> {
        None
    }
    /// The game as its own ruleset's type, for what only that ruleset's pages show.
    fn as_any(&self) -> &dyn Any;
}

/// A game kept as its texts, each question asked of the ruleset: what [`Ruleset::open`]
/// gives unless a ruleset keeps its games parsed.
pub struct TextGame {
    game: HostedGame,
}

impl TextGame {
    pub fn new(game: HostedGame) -> TextGame {
        TextGame { game }
    }
}

impl Game for TextGame {
    fn ruleset(&self) -> &'static dyn Ruleset {
        self.game.ruleset
    }

    fn name(&self) -> &str {
        &self.game.name
    }

    fn turn(&self) -> u32 {
        self.game.turn
    }

    fn title(&self) -> &str {
        &self.game.name
    }

    fn seats(&self) -> Result<Vec<Seat>> {
        self.game.ruleset.seats(self.game.text())
    }

    fn sheet(&self, seat: &str) -> Result<String> {
        self.game.ruleset.sheet(self.game.text(), seat)
    }

    fn step(&self) -> Result<crate::Step> {
        self.game.ruleset.step(self.game.text())
    }

    fn finished(&self) -> Result<Option<String>> {
        self.game.ruleset.finished(self.game.text())
    }

    fn check(&self, seat: &str, file: &str, sheet: &str) -> Result<Checked> {
        self.game.ruleset.check(self.game.text(), seat, file, sheet)
    }

    fn play(&self, orders: Orders) -> Result<Turn> {
        self.game.ruleset.play(self.game.text(), orders)
    }

    fn check_rulings(&self, file: &str, rulings: &str) -> Result<Checked> {
        self.game
            .ruleset
            .check_rulings(self.game.text(), file, rulings)
    }

    fn warnings(&self) -> &[String] {
        &self.game.warnings
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
