//! A game of any ruleset kept in a directory of plain files, played through the one turn
//! pipeline ([`crate::pipeline`]): the store does not know which game it holds. One
//! layout for every game, the one a database keeps a turn's files in:
//!
//! ```text
//! game.toml              the ruleset (`napoleonic`, `empires`) and the game's name
//! map.toml               the map the game is played on (a copy: it never changes)
//! kept.json | map.js     what the ruleset keeps with the game (the map's drawing)
//! orders/FRA.txt         the sheets sent for the next turn, one per seat; gm.txt
//! turns/0000/            the starting position: state.json, state.sha256, reports/
//! turns/NNNN/            after turn N: the state, events.json, turn.json, the orders
//!                        it took (and the computer's), every seat's reports
//! turns/superseded/      only after an interrupted turn: sheets replaced since
//! ```
//!
//! An Empires directory made before `game.toml` was written opens as an Empires game
//! named by its state. A turn takes the sheets into `turns/NNNN.tmp/` before it reads
//! them ([`crate::staging`]), writes its record there before anything the computer
//! wrote, and is renamed whole when done: it exists whole or not at all, and an
//! interrupted turn is rolled back by the next, its sheets put back.

use crate::error::{Error, Result};
use crate::files;
use crate::gamedir::{GameDir, HASH_FILE, MAP_FILE, ORDERS_DIR, STATE_FILE, sha256_hex};
use crate::gamedir::{REPORTS_DIR, STANDING_DIR};
use crate::pipeline::{self, Taken};
use crate::ruleset::{self, Checked, GameText, HostedGame, Ruleset, Seat, Setup};
use crate::staging::{RECORD_FILE, SUPERSEDED_DIR, TurnRecord, UNREADABLE_DIR};
use crate::store::{Files, Receipt};
use crate::turn::{TurnOptions, TurnReport};
use serde::{Deserialize, Serialize};
use std::fs;
use std::path::{Path, PathBuf};

const GAME_FILE: &str = "game.toml";
/// The map as its ruleset reads it fastest ([`Ruleset::ready_map`]): only a copy, made
/// again when missing or made from another map.
const READY_MAP: &str = crate::gamedir::READY_MAP_FILE;

/// The most bytes of a sent sheet a turn reads: enough to tell that it is too long.
const SHEET_READ_LIMIT: u64 = 1 << 20;

/// `game.toml`: which ruleset, and the game's name.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    ruleset: String,
    name: String,
}

/// A game directory.
pub struct GameFiles {
    dir: GameDir,
    /// The name the game's sheets carry on their `GAME` line.
    pub name: String,
    pub ruleset: &'static dyn Ruleset,
    map: String,
    kept: Option<String>,
    ready_map: Option<String>,
}

/// The ruleset a directory's `game.toml` names, if it has one.
pub fn ruleset_of(root: &Path) -> Option<String> {
    fs::read_to_string(root.join(GAME_FILE))
        .ok()
        .and_then(|t| toml::from_str::<GameFile>(&t).ok())
        .map(|g| g.ruleset)
}

/// Writes `game.toml` into a game directory being made.
pub fn write_game_file(root: &Path, ruleset: &dyn Ruleset, name: &str) -> Result<()> {
    let game = GameFile {
        ruleset: ruleset.id().to_string(),
        name: name.to_string(),
    };
    let text = toml::to_string(&game).map_err(|e| Error::new(e.to_string()))?;
    files::write_atomic(&root.join(GAME_FILE), text.as_bytes())
}

impl GameFiles {
    /// Creates a game of `ruleset` in `root` (missing or empty).
    pub fn create(root: &Path, ruleset: &'static dyn Ruleset, setup: &Setup) -> Result<GameFiles> {
        let started = ruleset.start(setup)?;
        GameFiles::create_started(root, ruleset, &setup.name, &started)
    }

    /// Keeps the new game `started`, of `ruleset`, named `name`, in `root` (missing or
    /// empty): built beside its place and renamed into it whole.
    pub fn create_started(
        root: &Path,
        ruleset: &'static dyn Ruleset,
        name: &str,
        started: &ruleset::Started,
    ) -> Result<GameFiles> {
        crate::create::build_whole(root, |building| {
            for d in [ORDERS_DIR, crate::gamedir::TURNS_DIR] {
                fs::create_dir(building.join(d))
                    .map_err(|e| Error::io("cannot create", building, e))?;
            }
            files::write_new(&building.join(MAP_FILE), started.map.as_bytes())?;
            files::write_new(&building.join(crate::gamedir::LOCK_FILE), b"")?;
            write_game_file(building, ruleset, name)?;
            if let Some(k) = &started.kept {
                files::write_new(&building.join(ruleset.kept_file()), k.as_bytes())?;
            }
            if let Some(ready) = ruleset.ready_map(&started.map) {
                files::write_new(&building.join(READY_MAP), ready.as_bytes())?;
            }
            let text = GameText {
                name,
                map: &started.map,
                state: &started.state,
                kept: started.kept.as_deref(),
            };
            let first = ruleset.next_turn(text)?.saturating_sub(1);
            let start = GameDir::at(building).turn_dir(first);
            fs::create_dir(&start).map_err(|e| Error::io("cannot create", &start, e))?;
            let mut out: Files = vec![
                (STATE_FILE.into(), started.state.clone().into_bytes()),
                (
                    HASH_FILE.into(),
                    format!("{}\n", sha256_hex(started.state.as_bytes())).into_bytes(),
                ),
            ];
            for w in &started.reports {
                out.push((
                    format!("{REPORTS_DIR}/{}", w.name),
                    w.text.clone().into_bytes(),
                ));
            }
            write_files(&start, &out, |_| false)?;
            files::flush_tree(building)
        })?;
        GameFiles::open(root, Some(ruleset.id()))
    }

    /// Opens a game directory; `expect` refuses a game of another ruleset.
    pub fn open(root: &Path, expect: Option<&str>) -> Result<GameFiles> {
        let dir = GameDir::at(root);
        let game_path = root.join(GAME_FILE);
        let game = match files::Kind::of(&game_path) {
            Ok(files::Kind::Missing) => None,
            _ => {
                let text = files::read_text_in_game(&game_path, files::MAX_SMALL_BYTES)?;
                let game: GameFile = toml::from_str(&text)
                    .map_err(|e| Error::new(format!("{}: {e}", game_path.display())))?;
                Some(game)
            }
        };
        if game.is_none() {
            // An Empires game made before games said their ruleset.
            dir.check_is_game()?;
        }
        let id = game.as_ref().map_or("empires", |g| g.ruleset.as_str());
        let ruleset = ruleset::by_id(id)?;
        if let Some(want) = expect
            && want != id
        {
            return Err(Error::new(format!(
                "{} is a game of {}, not of {}",
                root.display(),
                ruleset.title(),
                ruleset::by_id(want).map_or(want, |r| r.title())
            )));
        }
        if game.is_some() {
            upgrade_layout(&dir)?;
        }
        let map = files::read_text_in_game(&root.join(MAP_FILE), files::MAX_MAP_BYTES)?;
        // Kept data that cannot be read is made again by the ruleset.
        let kept =
            files::read_text_in_game(&root.join(ruleset.kept_file()), files::MAX_SCRIPT_BYTES).ok();
        let ready_map =
            files::read_text_in_game(&root.join(READY_MAP), 2 * files::MAX_MAP_BYTES).ok();
        let mut g = GameFiles {
            dir,
            name: game.map(|g| g.name).unwrap_or_default(),
            ruleset,
            map,
            kept,
            ready_map,
        };
        if g.name.is_empty() {
            let current = g.current_turn()?;
            let (state, _) = g.state_checked(current)?;
            let path = g.dir.turn_dir(current).join(STATE_FILE);
            g.name = ruleset
                .game_title(g.text(&state))
                .map_err(|e| Error::of(e.kind(), format!("{}: {e}", path.display())))?;
        }
        Ok(g)
    }

    pub fn root(&self) -> &Path {
        self.dir.root()
    }

    fn text<'a>(&'a self, state: &'a str) -> GameText<'a> {
        GameText {
            name: &self.name,
            map: &self.map,
            state,
            kept: self.kept.as_deref(),
        }
    }

    /// Turns played so far: the latest turn directory.
    pub fn current_turn(&self) -> Result<u32> {
        self.dir.current_turn()
    }

    /// The lowest turn directory: the starting position.
    pub fn first_turn(&self) -> Result<u32> {
        let dir = self.dir.turns_dir();
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

    /// The state after `turn`, and why it does not match its recorded hash if it does not.
    fn state_checked(&self, turn: u32) -> Result<(String, Option<String>)> {
        let dir = self.dir.turn_dir(turn);
        let path = dir.join(STATE_FILE);
        let text = files::read_text_in_game(&path, files::MAX_STATE_BYTES)?;
        let hash = files::read_text_in_game(&dir.join(HASH_FILE), files::MAX_SMALL_BYTES);
        let problem = match hash {
            Ok(h) if h.trim() == sha256_hex(text.as_bytes()) => None,
            Ok(_) => Some(format!(
                "{} does not match its {HASH_FILE}: it was changed after the turn was written",
                path.display()
            )),
            Err(e) => Some(format!(
                "{HASH_FILE} is missing or unreadable ({e}): the state cannot be verified"
            )),
        };
        Ok((text, problem))
    }

    /// The state after `turn`, checked against its recorded hash.
    pub fn state(&self, turn: u32) -> Result<String> {
        match self.state_checked(turn)? {
            (text, None) => Ok(text),
            (_, Some(problem)) => Err(Error::new(problem)),
        }
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

    /// The game as the host's doors see a game of any ruleset: its texts at the turn it
    /// stands.
    pub fn hosted(&self) -> Result<HostedGame> {
        let current = self.current_turn()?;
        let (state, problem) = self.state_checked(current)?;
        Ok(HostedGame {
            name: self.name.clone(),
            ruleset: self.ruleset,
            turn: current,
            map: self.map.clone(),
            state,
            kept: self.kept.clone(),
            ready_map: self.ready_map.clone(),
            warnings: problem.into_iter().collect(),
        })
    }

    /// Plays the next turn with the sheets waiting in `orders/`, as `options` allow, and
    /// commits it. The sheets are moved into the turn being written before they are read:
    /// the turn plays exactly the sheets it keeps, a sheet that arrives meanwhile waits for
    /// the next turn, and a turn that fails puts its sheets back.
    pub fn play(&self, options: TurnOptions) -> Result<TurnReport> {
        let lock = self.dir.lock()?;
        let mut notes = self.dir.recover()?;
        let current = self.current_turn()?;
        let next = current + 1;
        crate::turn::expect_turn(&options, next, &self.name)?;
        let mut hosted = self.hosted()?;
        let problem = hosted.warnings.pop();
        // A state that cannot be read is named with its line and field before anything
        // else is said of it.
        let game = self
            .ruleset
            .open(hosted)
            .map_err(|e| Error::of(e.kind(), format!("{}/{e}", self.root().display())))?;
        let codes: Vec<String> = game.seats()?.into_iter().map(|s| s.code).collect();
        let state_accepted = match problem {
            Some(p) if !options.accept_state => {
                return Err(Error::new(format!(
                    "{p}; no turn is played on a state that cannot be verified. If the state \
                     is as the GM wants it, run `empires turn --accept-state`, which records \
                     this with the turn"
                )));
            }
            Some(p) => {
                notes.push(format!("{p}; played all the same (--accept-state)"));
                Some(p)
            }
            None => None,
        };
        let taken = self.dir.take_orders(next, &codes)?;
        let played = self
            .play_taken(game.as_ref(), &taken, options, state_accepted)
            .map_err(|e| self.dir.undo(e));
        drop(lock);
        let mut report = played?;
        notes.extend(taken.waiting.warnings.iter().cloned());
        notes.append(&mut report.warnings);
        report.warnings = notes;
        Ok(report)
    }

    /// Plays the turn whose sheets `taken` holds, and commits it.
    fn play_taken(
        &self,
        game: &dyn ruleset::Game,
        taken: &crate::staging::Taken,
        options: TurnOptions,
        state_accepted: Option<String>,
    ) -> Result<TurnReport> {
        let orders = taken.orders();
        let mut sent = Vec::new();
        let mut arrived = Vec::new();
        let named = taken
            .waiting
            .sheets
            .iter()
            .map(|(code, name)| (Some(code.clone()), name))
            .chain(taken.waiting.gm.iter().map(|name| (None, name)));
        for (seat, name) in named {
            // The record names a sheet as the pipeline does (`EN.txt`, `gm.txt`).
            let want = pipeline::sent_name(seat.as_deref());
            let path = orders.join(&want);
            if *name != want {
                files::move_no_replace(&orders.join(name), &path)
                    .map_err(|e| Error::io("cannot rename", &orders.join(name), e))?;
            }
            let file = files::open_in_game(&path)?;
            let bytes = files::read_at_most(file, SHEET_READ_LIMIT)
                .map_err(|e| Error::io("cannot read", &path, e))?
                .unwrap_or_else(|| vec![0; SHEET_READ_LIMIT as usize + 1]);
            // A directory's sheet arrived when its file was last written.
            if let Some(code) = seat.as_ref().filter(|_| self.ruleset.arrival_times()) {
                arrived.push((code.clone(), files::written_at(&path)));
            }
            sent.push((seat, bytes));
        }
        let label = self.dir.orders_dir().display().to_string();
        let played = pipeline::play(
            game,
            Taken {
                standing: self.standing()?,
                sent,
                held: None,
                superseded: taken.superseded.clone(),
                state_accepted,
                label,
                arrived,
            },
            options,
        )?;
        for name in &played.record.unreadable {
            self.dir.set_aside(taken, name)?;
        }
        // The record first: from here on the computer's orders may be in the turn, and only
        // the record tells them from the players'. It is on disk before anything else.
        let json = crate::gamedir::to_pretty_json(&played.record, RECORD_FILE)?;
        files::write_atomic(&taken.tmp.join(RECORD_FILE), json.as_bytes())?;
        files::sync_dir(&taken.tmp);
        let record = &played.record;
        write_files(&taken.tmp, &played.files, |path| {
            path == RECORD_FILE || taken_file(record, path)
        })?;
        files::flush_tree(&taken.tmp)?;
        let target = self.dir.turn_dir(played.turn);
        if files::Kind::of(&target).map_err(|e| Error::io("cannot read", &target, e))?
            != files::Kind::Missing
        {
            return Err(Error::new(format!("{} already exists", target.display())));
        }
        fs::rename(&taken.tmp, &target).map_err(|e| Error::io("cannot rename", &taken.tmp, e))?;
        files::sync_dir(&self.dir.turns_dir());
        // The turn is committed: nothing below may fail it. What is kept to save work is
        // written without waiting for the disk: a torn copy is passed over and made again.
        if self.ready_map.is_none()
            && let Some(ready) = self.ruleset.ready_map(&self.map)
        {
            let _ = files::write_unsynced(&self.root().join(READY_MAP), ready.as_bytes());
        }
        if let Some(k) = &played.kept {
            let _ =
                files::write_unsynced(&self.root().join(self.ruleset.kept_file()), k.as_bytes());
        }
        let mut report = played.report;
        report.written_to = target.display().to_string();
        Ok(report)
    }

    /// Keeps a seat's standing sheet in `standing/SEAT.txt`, written whole under the game's
    /// shared lock; it replaces the seat's last one and is read by every play from the next.
    pub fn keep_standing(&self, seat: &str, body: &[u8]) -> Result<Receipt> {
        let _lock = self.dir.lock_shared()?;
        let game = self.hosted()?;
        if let Some(over) = self.ruleset.finished(game.text())? {
            return Err(Error::conflict(format!(
                "{}: the game is over ({over}); it takes no more sheets or messages",
                self.root().display()
            )));
        }
        let seats = self.ruleset.seats(game.text())?;
        let Some(s) = seats.iter().find(|s| s.code.eq_ignore_ascii_case(seat)) else {
            return Err(Error::new(format!("{seat} is not a seat of this game")));
        };
        let dir = self.root().join(STANDING_DIR);
        fs::create_dir_all(&dir).map_err(|e| Error::io("cannot create", &dir, e))?;
        let target = dir.join(format!("{}.txt", s.code));
        let before =
            match files::Kind::of(&target).map_err(|e| Error::io("cannot read", &target, e))? {
                files::Kind::File => Some(files::read_in_game(&target, files::MAX_STATE_BYTES)?),
                _ => None,
            };
        files::write_atomic(&target, body)?;
        Ok(Receipt {
            for_turn: game.turn + 1,
            sha256: sha256_hex(body),
            replaces: before.map(|b| sha256_hex(&b)),
        })
    }

    /// Keeps a sheet under `name` (a seat's code, or the GM's rulings) for turn `for_turn`
    /// (the next when `None`): the next turn's in `orders/NAME.txt`, a later one's, sent
    /// ahead, in `ahead/NNNN/NAME.txt`, moved into that turn when it is played. Written
    /// whole under the game's shared lock; the latest replaces the one before.
    pub fn keep_for(&self, name: &str, body: &[u8], for_turn: Option<u32>) -> Result<Receipt> {
        let _lock = self.dir.lock_shared()?;
        let game = self.hosted()?;
        let next = game.turn + 1;
        let for_turn = for_turn.unwrap_or(next);
        if for_turn < next {
            return Err(Error::conflict(format!(
                "{}: the sheet was checked for turn {for_turn}, but the next turn is {next}; check it again",
                self.root().display()
            )));
        }
        if let Some(over) = self.ruleset.finished(game.text())? {
            return Err(Error::conflict(format!(
                "{}: the game is over ({over}); it takes no more sheets or messages",
                self.root().display()
            )));
        }
        let file = if name == crate::gamedir::RULINGS {
            crate::gamedir::RULINGS_FILE.to_string()
        } else {
            let seats = self.ruleset.seats(game.text())?;
            let Some(s) = seats.iter().find(|s| s.code.eq_ignore_ascii_case(name)) else {
                return Err(Error::new(format!("{name} is not a seat of this game")));
            };
            pipeline::sent_name(Some(&s.code))
        };
        let dir = if for_turn == next {
            self.dir.orders_dir()
        } else {
            self.root()
                .join(crate::gamedir::AHEAD_DIR)
                .join(crate::gamedir::turn_name(for_turn))
        };
        fs::create_dir_all(&dir).map_err(|e| Error::io("cannot create", &dir, e))?;
        let target = dir.join(file);
        let before =
            match files::Kind::of(&target).map_err(|e| Error::io("cannot read", &target, e))? {
                files::Kind::File => Some(files::read_in_game(&target, files::MAX_STATE_BYTES)?),
                _ => None,
            };
        files::write_atomic(&target, body)?;
        Ok(Receipt {
            for_turn,
            sha256: sha256_hex(body),
            replaces: before.map(|b| sha256_hex(&b)),
        })
    }

    /// The standing sheets in force as their files, `standing/SEAT.txt`, sorted.
    pub fn standing_files(&self) -> Result<Files> {
        Ok(self
            .standing()?
            .into_iter()
            .map(|(seat, body)| (format!("{STANDING_DIR}/{seat}.txt"), body))
            .collect())
    }

    /// The standing sheets in force, each seat's latest, by seat, from `standing/`.
    pub fn standing(&self) -> Result<Vec<(String, Vec<u8>)>> {
        let dir = self.root().join(STANDING_DIR);
        if files::Kind::of(&dir).map_err(|e| Error::io("cannot read", &dir, e))?
            != files::Kind::Directory
        {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for entry in files::read_dir_sorted(&dir)? {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(seat) = name.strip_suffix(".txt") else {
                continue;
            };
            if files::Kind::of(&path).map_err(|e| Error::io("cannot read", &path, e))?
                != files::Kind::File
            {
                continue;
            }
            out.push((
                seat.to_string(),
                files::read_in_game(&path, files::MAX_STATE_BYTES)?,
            ));
        }
        Ok(out)
    }

    /// Keeps a seat's sheet (or, for `None`, the GM's messages, which add up) for the next
    /// turn in `orders/`, written whole under the game's shared lock (a turn being played
    /// is waited for); the latest sheet of a seat is the one played. A sheet checked for
    /// another turn than the next (`for_turn`) is refused: the game has moved on since.
    pub fn submit(
        &self,
        seat: Option<&str>,
        body: &[u8],
        for_turn: Option<u32>,
    ) -> Result<Receipt> {
        let _lock = self.dir.lock_shared()?;
        let game = self.hosted()?;
        let next = game.turn + 1;
        if let Some(want) = for_turn.filter(|t| *t != next) {
            return Err(Error::conflict(format!(
                "{}: the sheet was checked for turn {want}, but the next turn is {next}; check it again",
                self.root().display()
            )));
        }
        if let Some(over) = self.ruleset.finished(game.text())? {
            return Err(Error::conflict(format!(
                "{}: the game is over ({over}); it takes no more sheets or messages",
                self.root().display()
            )));
        }
        let name = match seat {
            Some(seat) => {
                let seats = self.ruleset.seats(game.text())?;
                let Some(s) = seats.iter().find(|s| s.code.eq_ignore_ascii_case(seat)) else {
                    return Err(Error::new(format!(
                        "{seat} is not a seat of this game (the seats are {})",
                        seats
                            .iter()
                            .map(|s| s.code.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )));
                };
                pipeline::sent_name(Some(&s.code))
            }
            None => pipeline::sent_name(None),
        };
        let target = self.dir.orders_dir().join(&name);
        let before =
            match files::Kind::of(&target).map_err(|e| Error::io("cannot read", &target, e))? {
                files::Kind::File => Some(files::read_in_game(&target, files::MAX_STATE_BYTES)?),
                _ => None,
            };
        // The GM's messages add up, as in a database; a sheet replaces the one before.
        let kept = match (&before, seat) {
            (Some(old), None) => [&old[..], b"\n\n", body].concat(),
            _ => body.to_vec(),
        };
        files::write_atomic(&target, &kept)?;
        Ok(Receipt {
            for_turn: next,
            sha256: sha256_hex(body),
            replaces: before.filter(|_| seat.is_some()).map(|b| sha256_hex(&b)),
        })
    }

    /// The sheets waiting in `orders/` for the next turn, by file name, with their bytes.
    pub fn pending(&self) -> Result<Files> {
        let codes: Vec<String> = self.seats()?.into_iter().map(|s| s.code).collect();
        let waiting = self.dir.waiting(&codes)?;
        let mut out = Vec::new();
        for name in waiting.sheets.values().chain(&waiting.gm) {
            let p = self.dir.orders_dir().join(name);
            out.push((
                name.clone(),
                files::read_in_game(&p, files::MAX_STATE_BYTES)?,
            ));
        }
        out.sort();
        Ok(out)
    }

    /// Takes back the last turn: its directory becomes an interrupted turn again and is
    /// rolled back, so the sheets it played wait in `orders/` as they were sent. Refused
    /// while sheets wait for the next turn (they would be mixed), and at the start.
    /// Returns the turn taken back and the sheets waiting again.
    pub fn undo(&self) -> Result<(u32, Vec<String>)> {
        let _lock = self.dir.lock()?;
        self.dir.recover()?;
        let (current, first) = (self.current_turn()?, self.first_turn()?);
        if current == first {
            return Err(Error::new(
                "there is no turn to undo: the game is at its starting position",
            ));
        }
        let waiting: Vec<String> = self.pending()?.into_iter().map(|(n, _)| n).collect();
        if waiting
            .iter()
            .any(|n| !n.eq_ignore_ascii_case(crate::gamedir::GM_MESSAGES_FILE))
        {
            return Err(Error::new(format!(
                "{} holds sheets sent for the next turn ({}); undoing the last turn would mix \
                 them with the ones it played. Move them out of the way first",
                self.dir.orders_dir().display(),
                waiting.join(" ")
            )));
        }
        let done = self.dir.turn_dir(current);
        let tmp = self.dir.tmp_dir(current);
        fs::rename(&done, &tmp).map_err(|e| Error::io("cannot rename", &done, e))?;
        files::sync_dir(&self.dir.turns_dir());
        self.dir.recover()?;
        let back = self.pending()?.into_iter().map(|(n, _)| n).collect();
        Ok((current, back))
    }

    /// A file of the reports of turn `turn` (`FRA.txt`, `FRA.json`, `FRA.html`).
    pub fn report(&self, turn: u32, file: &str) -> Result<String> {
        if file.contains(['/', '\\']) || file.starts_with('.') {
            return Err(Error::new(format!("{file:?} is not a report's name")));
        }
        let path = self.dir.turn_dir(turn).join(REPORTS_DIR).join(file);
        files::read_text_in_game(&path, files::MAX_STATE_BYTES)
    }
}

/// Brings a directory game written by an earlier version into the one layout, once: its
/// turn directories were named for the turn their state was ready to play (one more than
/// today's, turns played) and each kept every seat's blank sheet (`sheets/`), which a
/// ruleset makes again on demand. Done under the game's lock; a game already in the
/// layout is left alone.
fn upgrade_layout(dir: &GameDir) -> Result<()> {
    const OLD_SHEETS: &str = "sheets";
    let old = |turns: &[u32]| {
        turns
            .first()
            .is_some_and(|t| *t > 0 && dir.turn_dir(*t).join(OLD_SHEETS).is_dir())
    };
    let numbered = |d: &GameDir| -> Result<Vec<u32>> {
        let mut turns: Vec<u32> = files::read_dir_sorted(&d.turns_dir())?
            .iter()
            .filter_map(|e| {
                e.file_name()
                    .to_str()
                    .and_then(crate::gamedir::parse_turn_name)
            })
            .collect();
        turns.sort();
        Ok(turns)
    };
    if !old(&numbered(dir)?) {
        return Ok(());
    }
    let _lock = dir.lock()?;
    let turns = numbered(dir)?;
    if !old(&turns) {
        return Ok(());
    }
    for t in turns {
        let from = dir.turn_dir(t);
        let sheets = from.join(OLD_SHEETS);
        if sheets.is_dir() {
            fs::remove_dir_all(&sheets).map_err(|e| Error::io("cannot remove", &sheets, e))?;
        }
        let to = dir.turn_dir(t - 1);
        fs::rename(&from, &to).map_err(|e| Error::io("cannot rename", &from, e))?;
    }
    files::sync_dir(&dir.turns_dir());
    Ok(())
}

/// Whether `path`, a file of a turn, is one the turn took from `orders/` and holds already:
/// a sheet sent, one that could not be read, one superseded.
fn taken_file(record: &TurnRecord, path: &str) -> bool {
    let Some(rest) = path.strip_prefix(&format!("{ORDERS_DIR}/")) else {
        return false;
    };
    record.sent.iter().any(|n| n == rest)
        || rest
            .strip_prefix(&format!("{UNREADABLE_DIR}/"))
            .is_some_and(|n| record.unreadable.iter().any(|u| u == n))
        || rest.starts_with(&format!("{SUPERSEDED_DIR}/"))
}

/// Writes a turn's files into `dir`, making their folders, but those `skip` names.
fn write_files(dir: &Path, list: &Files, skip: impl Fn(&str) -> bool) -> Result<()> {
    let mut made: Vec<PathBuf> = Vec::new();
    for (path, body) in list {
        if skip(path) {
            continue;
        }
        let target = dir.join(path);
        if let Some(parent) = target.parent()
            && parent != dir
            && !made.iter().any(|m| m == parent)
        {
            fs::create_dir_all(parent).map_err(|e| Error::io("cannot create", parent, e))?;
            made.push(parent.to_path_buf());
        }
        files::write_new_unsynced(&target, body)?;
    }
    Ok(())
}
