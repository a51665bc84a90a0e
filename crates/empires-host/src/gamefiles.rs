//! A game of any ruleset kept in a directory of plain files, through the [`Ruleset`]
//! interface alone: the store does not know which game it holds. Napoleonic Empires games
//! live here; an Empires game can too (the Empires commands still use their own
//! [`crate::gamedir`], with its turn records, crash recovery and database stores).
//!
//! ```text
//! game.toml              the ruleset (`napoleonic`, `empires`) and the game's name
//! map.toml               the map the game is played on (a copy: it never changes)
//! orders/FRA.txt         the sheets sent for the next turn, one per seat
//! turns/0001/            the starting position: state.json, state.sha256, sheets/
//! turns/0002/            after turn 1: the state, events.json, the orders it took,
//!                        every seat's reports and its next sheet
//! turns/superseded/      only after an interrupted turn: sheets replaced since
//! ```
//!
//! A turn directory is named for the turn its state is ready to play. It is written into
//! `turns/playing.tmp/` (the starting position into `turns/NNNN.tmp/`), flushed, and
//! renamed: it exists whole or not at all. The sheets a turn plays are moved into it before
//! they are read, so a sheet sent meanwhile waits for the next turn and none is ever
//! removed from `orders/`; an interrupted turn is rolled back by the next `turn`, its sheets
//! put back (a seat's newer sheet wins; the older is kept with the next turn, in its
//! `orders/superseded/`).

use crate::error::{Error, Result};
use crate::files;
use crate::gamedir::{sha256_hex, turn_name};
use crate::ruleset::{self, Checked, GameText, Ruleset, Seat, Setup};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};

const GAME_FILE: &str = "game.toml";
const MAP_FILE: &str = "map.toml";
const STATE_FILE: &str = "state.json";
const HASH_FILE: &str = "state.sha256";
const EVENTS_FILE: &str = "events.json";
const ORDERS_DIR: &str = "orders";
const TURNS_DIR: &str = "turns";
const REPORTS_DIR: &str = "reports";
const SHEETS_DIR: &str = "sheets";
const COMPUTER_DIR: &str = "computer";
/// What the ruleset keeps with the game (the map's drawing): made again if lost.
const KEPT_FILE: &str = "kept.json";
/// The turn being played, holding the sheets it took until it is renamed for its number.
const PLAYING: &str = "playing.tmp";

/// `game.toml`: which ruleset, and the game's name.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    ruleset: String,
    name: String,
}

/// A game directory.
pub struct GameFiles {
    root: PathBuf,
    pub name: String,
    pub ruleset: &'static dyn Ruleset,
    map: String,
    kept: Option<String>,
}

/// What playing a turn did.
#[derive(Debug, Clone)]
pub struct Played {
    pub turn: u32,
    pub events: usize,
    pub failed: usize,
    /// Seats whose sheets were used, and living seats that sent none.
    pub orders_from: Vec<String>,
    pub no_orders: Vec<String>,
    /// Sheets not used, and why; anything else the GM should know.
    pub notes: Vec<String>,
    pub written_to: PathBuf,
}

/// The ruleset a directory's `game.toml` names, if it is a game of this kind.
pub fn ruleset_of(root: &Path) -> Option<String> {
    fs::read_to_string(root.join(GAME_FILE))
        .ok()
        .and_then(|t| toml::from_str::<GameFile>(&t).ok())
        .map(|g| g.ruleset)
}

impl GameFiles {
    /// Creates a game of `ruleset` in `root` (missing or empty).
    pub fn create(root: &Path, ruleset: &'static dyn Ruleset, setup: &Setup) -> Result<GameFiles> {
        let started = ruleset.create(setup)?;
        if root.exists() && !crate::gamedir::dir_is_empty(root)? {
            return Err(Error::new(format!(
                "{} exists and is not empty: a new game needs a directory of its own",
                root.display()
            )));
        }
        for d in [ORDERS_DIR, TURNS_DIR] {
            fs::create_dir_all(root.join(d)).map_err(|e| Error::io("cannot create", root, e))?;
        }
        let game = GameFile {
            ruleset: ruleset.id().to_string(),
            name: setup.name.clone(),
        };
        let game_toml = toml::to_string(&game).map_err(|e| Error::new(e.to_string()))?;
        files::write_atomic(&root.join(MAP_FILE), started.map.as_bytes())?;
        files::write_atomic(&root.join(GAME_FILE), game_toml.as_bytes())?;
        if let Some(k) = &started.kept {
            files::write_unsynced(&root.join(KEPT_FILE), k.as_bytes())?;
        }
        let g = GameFiles {
            root: root.to_path_buf(),
            name: setup.name.clone(),
            ruleset,
            map: started.map,
            kept: started.kept,
        };
        let text = g.text(&started.state);
        let first = ruleset.next_turn(text)?;
        let mut turn = TurnWrite::new(&g, first)?;
        turn.state(&started.state)?;
        let seats = ruleset.seats(text)?;
        let sheets = seats
            .iter()
            .filter(|s| s.alive)
            .map(|s| Ok((s.code.clone(), ruleset.sheet(text, &s.code)?)))
            .collect::<Result<Vec<_>>>()?;
        turn.files(
            SHEETS_DIR,
            sheets.iter().map(|(c, t)| (format!("{c}.txt"), t)),
        )?;
        turn.commit()?;
        Ok(g)
    }

    /// Opens a game directory; `expect` refuses a game of another ruleset.
    pub fn open(root: &Path, expect: Option<&str>) -> Result<GameFiles> {
        let game_path = root.join(GAME_FILE);
        let text = files::read_text_in_game(&game_path, files::MAX_SMALL_BYTES)?;
        let game: GameFile = toml::from_str(&text)
            .map_err(|e| Error::new(format!("{}: {e}", game_path.display())))?;
        let ruleset = ruleset::by_id(&game.ruleset)?;
        if let Some(want) = expect
            && want != game.ruleset
        {
            return Err(Error::new(format!(
                "{} is a game of {}, not of {}",
                root.display(),
                ruleset.title(),
                ruleset::by_id(want).map_or(want, |r| r.title())
            )));
        }
        let map = files::read_text_in_game(&root.join(MAP_FILE), files::MAX_MAP_BYTES)?;
        // Kept data that cannot be read is made again by the ruleset.
        let kept = files::read_text_in_game(&root.join(KEPT_FILE), files::MAX_SCRIPT_BYTES).ok();
        Ok(GameFiles {
            root: root.to_path_buf(),
            name: game.name,
            ruleset,
            map,
            kept,
        })
    }

    fn text<'a>(&'a self, state: &'a str) -> GameText<'a> {
        GameText {
            name: &self.name,
            map: &self.map,
            state,
            kept: self.kept.as_deref(),
        }
    }

    fn turn_dir(&self, turn: u32) -> PathBuf {
        self.root.join(TURNS_DIR).join(turn_name(turn))
    }

    /// The latest turn directory: the turn to be played next.
    pub fn current_turn(&self) -> Result<u32> {
        let dir = self.root.join(TURNS_DIR);
        let mut last = None;
        for entry in files::read_dir_sorted(&dir)? {
            let name = entry.file_name();
            if let Some(n) = name.to_str().and_then(crate::gamedir::parse_turn_name) {
                last = Some(last.map_or(n, |l: u32| l.max(n)));
            }
        }
        last.ok_or_else(|| Error::new(format!("{} holds no turn", dir.display())))
    }

    /// The state ready to play `turn`, checked against its recorded hash.
    pub fn state(&self, turn: u32) -> Result<String> {
        let dir = self.turn_dir(turn);
        let path = dir.join(STATE_FILE);
        let text = files::read_text_in_game(&path, files::MAX_STATE_BYTES)?;
        let hash = files::read_text_in_game(&dir.join(HASH_FILE), files::MAX_SMALL_BYTES)?;
        if hash.trim() != sha256_hex(text.as_bytes()) {
            return Err(Error::new(format!(
                "{} does not match its {HASH_FILE}: it was changed after the turn was written",
                path.display()
            )));
        }
        Ok(text)
    }

    pub fn seats(&self) -> Result<Vec<Seat>> {
        let state = self.state(self.current_turn()?)?;
        self.ruleset.seats(self.text(&state))
    }

    /// A seat's sheet for the next turn.
    pub fn sheet(&self, seat: &str) -> Result<String> {
        let state = self.state(self.current_turn()?)?;
        self.ruleset.sheet(self.text(&state), seat)
    }

    /// Reads and checks a seat's sheet for the next turn, named `file` in messages.
    pub fn check(&self, seat: &str, file: &str, sheet: &str) -> Result<Checked> {
        let state = self.state(self.current_turn()?)?;
        self.ruleset.check(self.text(&state), seat, file, sheet)
    }

    /// Plays the next turn with the sheets in `orders/`, named SEAT.txt.
    ///
    /// The sheets are moved into the turn being written (`turns/playing.tmp/orders/`)
    /// before they are read, as an Empires game's are ([`crate::staging`]): the turn plays
    /// exactly the sheets it keeps, a sheet that arrives meanwhile waits in `orders/` for
    /// the next turn, and nothing in `orders/` is ever removed or written over. A turn that
    /// fails, or was interrupted, puts its sheets back first.
    pub fn play(&self) -> Result<Played> {
        let lock = crate::gamedir::GameDir::at(&self.root).lock()?;
        let mut notes = self.recover()?;
        let turn = self.current_turn()?;
        let state = self.state(turn)?;
        let tmp = self.root.join(TURNS_DIR).join(PLAYING);
        fs::create_dir(&tmp).map_err(|e| Error::io("cannot create", &tmp, e))?;
        let played = self
            .take_orders(&tmp, &mut notes)
            .and_then(|taken| self.play_taken(&tmp, (turn, &state), taken, notes));
        let played = match played {
            Ok(p) => p,
            Err(e) => {
                return Err(match self.recover() {
                    Ok(_) => e,
                    Err(again) => Error::new(format!(
                        "{e}; and putting the sheets back failed too: {again}"
                    )),
                });
            }
        };
        drop(lock);
        Ok(played)
    }

    /// Plays every turn again from the state before it and the sheets it took (kept in its
    /// `orders/`), as `play` did, and compares the state with the one kept. For each turn
    /// played (and the starting position, as turn 0): `None` when they agree, else why not.
    /// A state changed after it was written is caught by its own `state.sha256`.
    pub fn replay(&self) -> Result<Vec<(u32, Option<String>)>> {
        let ready = self.current_turn()?;
        let mut found = vec![(0, self.state(1).err().map(|e| e.to_string()))];
        for next in 2..=ready {
            let why = match (self.state(next - 1), self.state(next)) {
                (_, Err(e)) => Some(e.to_string()),
                (Err(_), Ok(_)) => Some("the state it was played from cannot be read".into()),
                (Ok(before), Ok(kept)) => {
                    let sheets = self.taken_sheets(next)?;
                    let orders = ruleset::Orders {
                        sheets: &sheets,
                        ..Default::default()
                    };
                    let again = self.ruleset.play(self.text(&before), orders)?;
                    (again.state != kept).then(|| {
                        crate::verify::first_difference(again.state.as_bytes(), kept.as_bytes())
                    })
                }
            };
            found.push((next - 1, why));
        }
        Ok(found)
    }

    /// The sheets the turn that made `turns/NNNN` read, by seat, in the order it read them;
    /// one that could not be read was played as sending nothing.
    fn taken_sheets(&self, turn: u32) -> Result<Vec<(String, String)>> {
        let dir = self.turn_dir(turn).join(ORDERS_DIR);
        let mut sheets = Vec::new();
        if files::Kind::of(&dir).ok() != Some(files::Kind::Directory) {
            return Ok(sheets);
        }
        for entry in files::read_dir_sorted(&dir)? {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(seat) = name.strip_suffix(".txt").filter(|s| !s.is_empty()) else {
                continue;
            };
            if files::Kind::of(&path).ok() != Some(files::Kind::File) {
                continue;
            }
            if let Ok(text) = files::read_text_in_game(&path, 1 << 20) {
                sheets.push((seat.to_string(), text));
            }
        }
        Ok(sheets)
    }

    /// Rolls back a turn interrupted while being written: the sheets it took go back to
    /// `orders/` (a seat that has sent a newer one since keeps it, and the older is held
    /// for the next turn to keep, in `turns/superseded/`). Returns notes for the GM.
    fn recover(&self) -> Result<Vec<String>> {
        let orders = self.root.join(ORDERS_DIR);
        let turns = self.root.join(TURNS_DIR);
        let mut notes = Vec::new();
        for entry in files::read_dir_sorted(&turns)? {
            let tmp = entry.path();
            let is_tmp = entry.file_name().to_string_lossy().ends_with(".tmp")
                && entry.file_type().is_ok_and(|t| t.is_dir());
            if !is_tmp {
                continue;
            }
            let restored = crate::staging::restore(
                &tmp,
                &orders,
                &turns.join(crate::staging::SUPERSEDED_DIR),
            )?;
            fs::remove_dir_all(&tmp).map_err(|e| Error::io("cannot remove", &tmp, e))?;
            let mut note = format!("{} was an interrupted turn: rolled back", tmp.display());
            if !restored.back.is_empty() {
                note.push_str(&format!(
                    "; its sheets are back in {}: {}",
                    orders.display(),
                    restored.back.join(" ")
                ));
            }
            if !restored.superseded.is_empty() {
                note.push_str(&format!(
                    "; sheets replaced since by newer ones are kept with the next turn, not played: {}",
                    restored.superseded.join(" ")
                ));
            }
            notes.push(note);
        }
        Ok(notes)
    }

    /// Moves the sheets waiting in `orders/` (plain files named SEAT.txt) into the turn
    /// being written, and any sheets held as superseded into its `orders/superseded/`;
    /// returns the sheets read, by seat, and the superseded ones' names.
    fn take_orders(&self, tmp: &Path, notes: &mut Vec<String>) -> Result<TakenSheets> {
        let taken = tmp.join(ORDERS_DIR);
        fs::create_dir(&taken).map_err(|e| Error::io("cannot create", &taken, e))?;
        let mut sent = Vec::new();
        for entry in files::read_dir_sorted(&self.root.join(ORDERS_DIR))? {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(seat) = name.strip_suffix(".txt").filter(|s| !s.is_empty()) else {
                notes.push(format!(
                    "{}: not named SEAT.txt, left where it is",
                    path.display()
                ));
                continue;
            };
            if files::Kind::of(&path).ok() != Some(files::Kind::File) {
                notes.push(format!(
                    "{}: not a plain file, left where it is",
                    path.display()
                ));
                continue;
            }
            let to = taken.join(&name);
            match files::move_no_replace(&path, &to) {
                Ok(()) => {}
                // Taken away since it was listed: it was never there for this turn.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(Error::io("cannot move", &path, e)),
            }
            match files::read_text_in_game(&to, 1 << 20) {
                Ok(text) => sent.push((seat.to_string(), text)),
                Err(e) => notes.push(format!(
                    "{e}; played as sending nothing, the sheet kept with the turn"
                )),
            }
        }
        let held = self
            .root
            .join(TURNS_DIR)
            .join(crate::staging::SUPERSEDED_DIR);
        let mut superseded = Vec::new();
        if files::Kind::of(&held).ok() == Some(files::Kind::Directory) {
            let aside = taken.join(crate::staging::SUPERSEDED_DIR);
            for entry in files::read_dir_sorted(&held)? {
                let from = entry.path();
                if files::Kind::of(&from).ok() != Some(files::Kind::File) {
                    continue;
                }
                if superseded.is_empty() {
                    fs::create_dir(&aside).map_err(|e| Error::io("cannot create", &aside, e))?;
                }
                let name = entry.file_name().to_string_lossy().into_owned();
                files::move_no_replace(&from, &aside.join(&name))
                    .map_err(|e| Error::io("cannot move", &from, e))?;
                superseded.push(name);
            }
        }
        Ok(TakenSheets { sent, superseded })
    }

    /// Plays `turn` on its `state` with the sheets taken into `tmp`, and commits it;
    /// `notes` are what the GM has been told so far.
    fn play_taken(
        &self,
        tmp: &Path,
        (turn, state): (u32, &str),
        taken: TakenSheets,
        mut notes: Vec<String>,
    ) -> Result<Played> {
        let TakenSheets { sent, superseded } = taken;
        let seats = self.ruleset.seats(self.text(state))?;
        // A directory game has no accounts: the GM says who plays by the sheets sent.
        let orders = ruleset::Orders {
            sheets: &sent,
            ..Default::default()
        };
        let played = self.ruleset.play(self.text(state), orders)?;
        notes.extend(played.notes.iter().cloned());
        if !superseded.is_empty() {
            notes.push(format!(
                "kept with the turn in {ORDERS_DIR}/{}/, not played: {}",
                crate::staging::SUPERSEDED_DIR,
                superseded.join(" ")
            ));
        }
        let refused = |seat: &str| {
            played
                .notes
                .iter()
                .any(|n| n.starts_with(&format!("{seat}.txt:")))
        };
        let orders_from: Vec<String> = sent
            .iter()
            .map(|(s, _)| s.clone())
            .filter(|s| !refused(s))
            .collect();
        let no_orders = seats
            .iter()
            .filter(|s| s.alive && !orders_from.iter().any(|o| o.eq_ignore_ascii_case(&s.code)))
            .map(|s| s.code.clone())
            .collect();
        let next = self.ruleset.next_turn(self.text(&played.state))?;
        let mut write = TurnWrite::at(tmp.to_path_buf(), self.turn_dir(next))?;
        write.state(&played.state)?;
        write.files(".", [(EVENTS_FILE.to_string(), &played.events)])?;
        write.files(
            REPORTS_DIR,
            played.reports.iter().map(|w| (w.name.clone(), &w.text)),
        )?;
        write.files(
            SHEETS_DIR,
            played.sheets.iter().map(|(c, t)| (format!("{c}.txt"), t)),
        )?;
        write.files(
            COMPUTER_DIR,
            played.computer_orders.iter().map(|(n, t)| (n.clone(), t)),
        )?;
        let written_to = write.commit()?;
        if let Some(k) = &played.kept {
            files::write_unsynced(&self.root.join(KEPT_FILE), k.as_bytes())?;
        }
        Ok(Played {
            turn,
            events: played.events_count,
            failed: played.failed,
            orders_from,
            no_orders,
            notes,
            written_to,
        })
    }

    /// The game as the host's doors see a game of any ruleset: its texts at the turn it
    /// stands, and the turns played so far (the first turn directory holds the start).
    pub fn hosted(&self) -> Result<ruleset::HostedGame> {
        let current = self.current_turn()?;
        let first = self.first_turn()?;
        Ok(ruleset::HostedGame {
            name: self.name.clone(),
            ruleset: self.ruleset,
            turn: current - first,
            map: self.map.clone(),
            state: self.state(current)?,
            kept: self.kept.clone(),
            warnings: Vec::new(),
        })
    }

    /// The lowest turn directory: the starting position.
    fn first_turn(&self) -> Result<u32> {
        let dir = self.root.join(TURNS_DIR);
        files::read_dir_sorted(&dir)?
            .iter()
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(crate::gamedir::parse_turn_name)
            })
            .min()
            .ok_or_else(|| Error::new(format!("{} holds no turn", dir.display())))
    }

    /// Keeps a seat's sheet for the next turn in `orders/SEAT.txt`, written whole under the
    /// game's shared lock (a turn being played is waited for); the latest sheet of a seat
    /// is the one played. A sheet checked for another turn (`for_turn`, counted as turns played + 1) than the
    /// next is refused: the game has moved on since.
    pub fn submit(
        &self,
        seat: &str,
        body: &[u8],
        for_turn: Option<u32>,
    ) -> Result<crate::store::Receipt> {
        let _lock = crate::gamedir::GameDir::at(&self.root).lock_shared()?;
        let current = self.current_turn()?;
        let next = current - self.first_turn()? + 1;
        if let Some(want) = for_turn.filter(|t| *t != next) {
            return Err(Error::conflict(format!(
                "{}: the sheet was checked for turn {want}, but the next turn is {next}; check it again",
                self.root.display()
            )));
        }
        let state = self.state(current)?;
        let seats = self.ruleset.seats(self.text(&state))?;
        let Some(seat) = seats.iter().find(|s| s.code.eq_ignore_ascii_case(seat)) else {
            return Err(Error::new(format!(
                "{seat} is not a seat of this game (the seats are {})",
                seats
                    .iter()
                    .map(|s| s.code.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        let target = self
            .root
            .join(ORDERS_DIR)
            .join(format!("{}.txt", seat.code));
        let before =
            match files::Kind::of(&target).map_err(|e| Error::io("cannot read", &target, e))? {
                files::Kind::File => Some(files::read_in_game(&target, files::MAX_STATE_BYTES)?),
                _ => None,
            };
        files::write_atomic(&target, body)?;
        Ok(crate::store::Receipt {
            for_turn: next,
            sha256: sha256_hex(body),
            replaces: before.map(|b| sha256_hex(&b)),
        })
    }

    /// The sheets waiting in `orders/` for the next turn, by file name, with their bytes.
    pub fn pending(&self) -> Result<Vec<(String, Vec<u8>)>> {
        let mut out = Vec::new();
        for entry in files::read_dir_sorted(&self.root.join(ORDERS_DIR))? {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".txt") && files::Kind::of(&path).ok() == Some(files::Kind::File) {
                out.push((name, files::read_in_game(&path, files::MAX_STATE_BYTES)?));
            }
        }
        Ok(out)
    }

    /// Takes back the last turn: its directory becomes an interrupted turn again and is
    /// rolled back, so the sheets it played wait in `orders/` as they were sent. Refused
    /// while sheets wait for the next turn (they would be mixed), and at the start.
    /// Returns the turn taken back and the sheets waiting again.
    pub fn undo(&self) -> Result<(u32, Vec<String>)> {
        let _lock = crate::gamedir::GameDir::at(&self.root).lock()?;
        self.recover()?;
        let (current, first) = (self.current_turn()?, self.first_turn()?);
        if current == first {
            return Err(Error::new(
                "there is no turn to undo: the game is at its starting position",
            ));
        }
        let waiting: Vec<String> = self.pending()?.into_iter().map(|(n, _)| n).collect();
        if !waiting.is_empty() {
            return Err(Error::new(format!(
                "{} holds sheets sent for the next turn ({}); undoing the last turn would mix \
                 them with the ones it played. Move them out of the way first",
                self.root.join(ORDERS_DIR).display(),
                waiting.join(" ")
            )));
        }
        let done = self.turn_dir(current);
        let tmp = self.root.join(TURNS_DIR).join(PLAYING);
        fs::rename(&done, &tmp).map_err(|e| Error::io("cannot rename", &done, e))?;
        files::sync_dir(&self.root.join(TURNS_DIR));
        self.recover()?;
        let back = self.pending()?.into_iter().map(|(n, _)| n).collect();
        Ok((current - first, back))
    }

    /// A file of a played turn's reports (`FRA.txt`, `FRA.json`, `FRA.html`).
    pub fn report(&self, turn: u32, file: &str) -> Result<String> {
        let next = self.turn_dir(turn + 1);
        let path = next.join(REPORTS_DIR).join(file);
        if file.contains(['/', '\\']) || file.starts_with('.') {
            return Err(Error::new(format!("{file:?} is not a report's name")));
        }
        files::read_text_in_game(&path, files::MAX_STATE_BYTES)
    }
}

/// The sheets a turn took: those read, by seat, and the names of the superseded ones kept
/// with it.
struct TakenSheets {
    sent: Vec<(String, String)>,
    superseded: Vec<String>,
}

/// A turn directory being written: `turns/NNNN.tmp/` (or `turns/playing.tmp/`, holding
/// the sheets it took), renamed whole when done.
struct TurnWrite {
    tmp: PathBuf,
    target: PathBuf,
}

impl TurnWrite {
    fn new(game: &GameFiles, turn: u32) -> Result<TurnWrite> {
        let tmp = game
            .root
            .join(TURNS_DIR)
            .join(format!("{}.tmp", turn_name(turn)));
        if tmp.exists() {
            // A starting position interrupted before its rename: it holds no sheet.
            fs::remove_dir_all(&tmp).map_err(|e| Error::io("cannot remove", &tmp, e))?;
        }
        fs::create_dir(&tmp).map_err(|e| Error::io("cannot create", &tmp, e))?;
        TurnWrite::at(tmp, game.turn_dir(turn))
    }

    /// Writes into `tmp`, made already, for the turn directory `target`.
    fn at(tmp: PathBuf, target: PathBuf) -> Result<TurnWrite> {
        if target.exists() {
            return Err(Error::new(format!(
                "{} exists already: the turn was played",
                target.display()
            )));
        }
        Ok(TurnWrite { tmp, target })
    }

    fn state(&mut self, json: &str) -> Result<()> {
        files::write_new_unsynced(&self.tmp.join(STATE_FILE), json.as_bytes())?;
        let hash = format!("{}\n", sha256_hex(json.as_bytes()));
        files::write_new_unsynced(&self.tmp.join(HASH_FILE), hash.as_bytes())
    }

    /// Writes files into a folder of the turn (`.` for the turn's own).
    fn files<'a>(
        &mut self,
        folder: &str,
        list: impl IntoIterator<Item = (String, &'a String)>,
    ) -> Result<()> {
        let dir = self.tmp.join(folder);
        let mut made = dir.exists();
        for (name, body) in list {
            if !made {
                fs::create_dir(&dir).map_err(|e| Error::io("cannot create", &dir, e))?;
                made = true;
            }
            files::write_new_unsynced(&dir.join(&name), body.as_bytes())?;
        }
        Ok(())
    }

    fn commit(self) -> Result<PathBuf> {
        files::flush_tree(&self.tmp)?;
        fs::rename(&self.tmp, &self.target)
            .map_err(|e| Error::io("cannot rename", &self.tmp, e))?;
        if let Some(parent) = self.target.parent() {
            files::sync_dir(parent);
        }
        Ok(self.target)
    }
}
