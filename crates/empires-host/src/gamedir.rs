//! The game directory: where a game's map, pending orders and adjudicated turns live, how
//! they are read, and how a new turn is written so that a crash never leaves half a turn.
//!
//! ```text
//! <dir>/map.toml                 copy of the map
//! <dir>/map.js                   the map's layer for the report pages, drawn once
//! <dir>/orders/<CODE>.txt        pending turnsheets for the next turn
//! <dir>/turns/0000/state.json    the starting state (and state.sha256)
//! <dir>/turns/NNNN/state.json    the state after turn N
//! <dir>/turns/NNNN/events.json   what happened in turn N
//! <dir>/turns/NNNN/state.sha256  hex SHA-256 of state.json
//! <dir>/turns/NNNN/orders/       the turnsheets turn N was played with
//! <dir>/turns/NNNN/turn.json     which of them were sent and which the computer wrote
//! <dir>/turns/superseded/        sheets replaced after an interrupted turn, until the next
//!                                turn keeps them in its orders/superseded/
//! ```
//!
//! A turn is written into `turns/NNNN.tmp/`, taking the pending turnsheets into it first
//! (see [`crate::staging`]), and renaming `NNNN.tmp` to `NNNN` commits the turn. A command
//! that plays a turn first calls [`GameDir::recover`], which rolls an interrupted turn back;
//! the commands that only look leave it alone.

use crate::error::{Error, Result};
use crate::files::{self, Kind};
use crate::{drawing, gamelock, mapcache, staging};
use empires_maps::draw::{Layers, Layout};
use empires_rules::event::Event;
use empires_rules::map::MapFile;
use empires_rules::state::STATE_FORMAT;
use empires_rules::{EmpireCode, GameState, Map};
use sha2::{Digest, Sha256};
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const MAP_FILE: &str = "map.toml";
pub const ORDERS_DIR: &str = "orders";
pub const TURNS_DIR: &str = "turns";
pub const STATE_FILE: &str = "state.json";
pub const EVENTS_FILE: &str = "events.json";
pub const HASH_FILE: &str = "state.sha256";
pub const LOCK_FILE: &str = ".lock";
/// Suffix of a turn directory being written.
pub const TMP_SUFFIX: &str = ".tmp";

/// The file in `orders/` holding the GM's messages for the next turn's reports.
pub const GM_MESSAGES_FILE: &str = "gm.txt";

/// The directory name of a turn: four digits, zero padded.
pub fn turn_name(turn: u32) -> String {
    format!("{turn:04}")
}

/// The turn number a directory name stands for, if it is one (`0007`, not `7` or `07x`).
pub fn parse_turn_name(name: &str) -> Option<u32> {
    if name.len() < 4 || !name.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = name.parse().ok()?;
    (turn_name(n) == name).then_some(n)
}

/// A game directory on disk.
#[derive(Debug, Clone)]
pub struct GameDir {
    root: PathBuf,
}

/// How a command opens a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Looks only: a shared lock when one can be had, no recovery, nothing written. Works
    /// on a read-only copy of a game.
    Read,
    /// Plays a turn: the game's lock alone, recovery of an interrupted turn, and a state
    /// that must match its `state.sha256` unless `accept_state` is set.
    Play { accept_state: bool },
}

/// Everything a command needs from an existing game directory.
#[derive(Debug)]
pub struct Game {
    pub dir: GameDir,
    /// The map's text, as `map.toml` holds it, and the map.
    pub map_text: String,
    pub map: Map,
    /// The current turn: the highest complete `turns/NNNN` directory.
    pub turn: u32,
    pub state: GameState,
    /// Recovery notes and other things the user should know.
    pub warnings: Vec<String>,
    /// Why the state could not be verified against its `state.sha256`, when it could not and
    /// the GM accepted it all the same; recorded with the turn played on it.
    pub state_accepted: Option<String>,
    /// Held while the game is open: exclusive to play a turn, shared to look.
    _lock: Option<File>,
}

impl Game {
    /// The codes of the game's empires, as its seats.
    pub fn seat_codes(&self) -> Vec<String> {
        self.state
            .empires
            .iter()
            .map(|e| e.code.to_string())
            .collect()
    }

    /// Opens a game directory to look at it: the map and the current state, under a shared
    /// lock where the directory allows one. An interrupted turn is reported, not rolled back.
    pub fn load(root: &Path) -> Result<Game> {
        Game::open(root, Access::Read)
    }

    /// Opens a game directory. To play, the game's lock is taken and an interrupted turn
    /// rolled back first.
    pub fn open(root: &Path, access: Access) -> Result<Game> {
        let dir = GameDir::at(root);
        dir.check_is_game()?;
        let (lock, mut warnings) = match access {
            Access::Read => (dir.lock_shared()?, dir.interrupted_turns()?),
            Access::Play { .. } => {
                let lock = dir.lock()?;
                let notes = dir.recover()?;
                (Some(lock), notes)
            }
        };
        let (map_text, map) = dir.load_map(matches!(access, Access::Play { .. }))?;
        let turn = dir.current_turn()?;
        let (state, problem) = dir.load_verified_state(turn, &map)?;
        let mut state_accepted = None;
        if let Some(problem) = problem {
            match access {
                Access::Read => warnings.push(problem),
                Access::Play {
                    accept_state: false,
                } => {
                    return Err(Error::new(format!(
                        "{problem}; no turn is played on a state that cannot be verified. If \
                         the state is as the GM wants it, run `empires turn --accept-state`, \
                         which records this with the turn"
                    )));
                }
                Access::Play { accept_state: true } => {
                    warnings.push(format!("{problem}; played all the same (--accept-state)"));
                    state_accepted = Some(problem);
                }
            }
        }
        Ok(Game {
            dir,
            map_text,
            map,
            turn,
            state,
            warnings,
            state_accepted,
            _lock: lock,
        })
    }
}

impl Game {
    /// The layout of the map's layer for the report pages, kept in `map.js`
    /// ([`crate::drawing`]): the layer is worked out again, and kept when `keep` is set, when
    /// the file is missing or was drawn from another map or by another version of the
    /// drawing.
    pub fn layout(&self, keep: bool) -> Result<Option<Arc<Layout>>> {
        let kept = self.dir.kept_head();
        let (layout, fresh) = drawing::layout(
            &self.map,
            &self.map_text,
            kept.as_ref().map(|(h, n)| (h.as_str(), *n)),
        );
        if let (true, Some(script)) = (keep, fresh) {
            files::write_atomic(&self.dir.root.join(drawing::MAP_SCRIPT), script.as_bytes())?;
        }
        Ok(layout)
    }

    /// The map's whole layer, as kept in `map.js` or worked out again; nothing is written.
    pub fn layers(&self) -> Option<Arc<Layers>> {
        let kept = self.dir.kept_script();
        drawing::layers(&self.map, &self.map_text, kept.as_deref())
    }
}

impl GameDir {
    pub fn at(root: impl Into<PathBuf>) -> GameDir {
        GameDir { root: root.into() }
    }

    fn lock_path(&self) -> PathBuf {
        self.root.join(LOCK_FILE)
    }

    /// Takes the game's lock file (`.lock`) for this command alone, waiting a bounded time
    /// ([`gamelock::wait_allowed`]) for commands that hold it to finish.
    pub fn lock(&self) -> Result<File> {
        let path = self.lock_path();
        let mut options = std::fs::OpenOptions::new();
        options.create(true).truncate(false).write(true);
        #[cfg(unix)]
        {
            // A link in place of the lock file must not make us create a file elsewhere.
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NOFOLLOW);
        }
        let file = options
            .open(&path)
            .map_err(|e| Error::io("cannot open", &path, e))?;
        let wait = gamelock::wait_allowed();
        match gamelock::take(&file, gamelock::Mode::Exclusive, wait) {
            gamelock::Outcome::Taken => Ok(file),
            gamelock::Outcome::Busy => Err(gamelock::busy(&self.root, &path, wait)),
            gamelock::Outcome::Failed(e) => Err(Error::io("cannot lock", &path, e)),
        }
    }

    /// Takes the game's lock file shared with other readers, so that a turn is not played
    /// while a command looks; a turn being played is waited for as [`GameDir::lock`] waits.
    /// A game without a lock file, or one that cannot be locked (a read-only copy), is
    /// looked at without a lock: nothing is written, and a turn commits with one rename, so
    /// a reader sees either the turn before or the turn after.
    pub fn lock_shared(&self) -> Result<Option<File>> {
        let path = self.lock_path();
        let Ok(file) = files::open_in_game(&path) else {
            return Ok(None);
        };
        let wait = gamelock::wait_allowed();
        match gamelock::take(&file, gamelock::Mode::Shared, wait) {
            gamelock::Outcome::Taken => Ok(Some(file)),
            gamelock::Outcome::Busy => Err(gamelock::busy(&self.root, &path, wait)),
            gamelock::Outcome::Failed(_) => Ok(None),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn map_path(&self) -> PathBuf {
        self.root.join(MAP_FILE)
    }

    pub fn orders_dir(&self) -> PathBuf {
        self.root.join(ORDERS_DIR)
    }

    pub fn turns_dir(&self) -> PathBuf {
        self.root.join(TURNS_DIR)
    }

    pub fn turn_dir(&self, turn: u32) -> PathBuf {
        self.turns_dir().join(turn_name(turn))
    }

    pub fn tmp_dir(&self, turn: u32) -> PathBuf {
        self.turns_dir()
            .join(format!("{}{TMP_SUFFIX}", turn_name(turn)))
    }

    pub fn state_path(&self, turn: u32) -> PathBuf {
        self.turn_dir(turn).join(STATE_FILE)
    }

    /// Fails unless the directory holds a map and a `turns/` directory, neither of them a
    /// link: the moderator reads and writes nothing outside the game's own directory.
    pub fn check_is_game(&self) -> Result<()> {
        let kind = |p: &Path| Kind::of(p).map_err(|e| Error::io("cannot read", p, e));
        match std::fs::metadata(&self.root) {
            Err(_) => {
                return Err(Error::new(format!(
                    "{}: no such game directory; create one with `empires new`",
                    self.root.display()
                )));
            }
            Ok(m) if !m.is_dir() => {
                return Err(Error::new(format!(
                    "{} is not a directory",
                    self.root.display()
                )));
            }
            Ok(_) => {}
        }
        if let Some(id) = crate::gamefiles::ruleset_of(&self.root).filter(|r| r != "empires") {
            let title = crate::ruleset::by_id(&id).map_or(id.as_str(), |r| r.title());
            return Err(Error::new(format!(
                "{} is a game of {title}: this command is for Empires games only; `empires sheet`, `check`, `submit`, `status`, `turn`, `undo`, `verify` and `report` work on it",
                self.root.display()
            )));
        }
        let (map, turns) = (kind(&self.map_path())?, kind(&self.turns_dir())?);
        if map == Kind::Missing || turns == Kind::Missing {
            return Err(Error::new(format!(
                "{} is not a game directory (it needs {MAP_FILE} and {TURNS_DIR}/); create one with `empires new`",
                self.root.display()
            )));
        }
        for (path, is, want) in [
            (self.map_path(), map, Kind::File),
            (self.turns_dir(), turns, Kind::Directory),
        ] {
            if is != want {
                return Err(Error::new(format!(
                    "{}: is {}, but should be {} inside the game directory",
                    path.display(),
                    is.described(),
                    want.described()
                )));
            }
        }
        Ok(())
    }

    /// The `turns/NNNN.tmp` directories of turns interrupted while being written.
    fn tmp_dirs(&self) -> Result<Vec<PathBuf>> {
        let mut tmps = Vec::new();
        for entry in files::read_dir_sorted(&self.turns_dir())? {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(TMP_SUFFIX) && entry.file_type().is_ok_and(|t| t.is_dir()) {
                tmps.push(entry.path());
            }
        }
        Ok(tmps)
    }

    /// Notes on interrupted turns, for a command that only looks: the next `empires turn`
    /// rolls them back.
    pub fn interrupted_turns(&self) -> Result<Vec<String>> {
        Ok(self
            .tmp_dirs()?
            .iter()
            .map(|tmp| {
                format!(
                    "{} is an interrupted turn; the next `empires turn` rolls it back and \
                     puts its turnsheets back in {ORDERS_DIR}/",
                    tmp.display()
                )
            })
            .collect())
    }

    /// Rolls back any turn that was being written when a previous run stopped: the
    /// turnsheets the players sent go back to `orders/` (those the computer wrote do not)
    /// and the unfinished `turns/NNNN.tmp` is deleted. Also makes sure `orders/` exists.
    /// Returns notes for the user.
    pub fn recover(&self) -> Result<Vec<String>> {
        let orders = self.orders_dir();
        match Kind::of(&orders).map_err(|e| Error::io("cannot read", &orders, e))? {
            Kind::Directory => {}
            Kind::Missing => {
                fs::create_dir(&orders).map_err(|e| Error::io("cannot create", &orders, e))?;
                files::sync_dir(&self.root);
            }
            other => {
                return Err(Error::new(format!(
                    "{}: is {}, but should be the directory of turnsheets inside the game",
                    orders.display(),
                    other.described()
                )));
            }
        }
        let mut notes = Vec::new();
        for tmp in self.tmp_dirs()? {
            let restored = staging::restore(&tmp, &orders, &self.held_dir())?;
            fs::remove_dir_all(&tmp).map_err(|e| Error::io("cannot remove", &tmp, e))?;
            let mut note = format!("{} was an interrupted turn: rolled back", tmp.display());
            if !restored.back.is_empty() {
                note.push_str(&format!(
                    ", and the turnsheets sent for it are back in {}: {}",
                    orders.display(),
                    restored.back.join(" ")
                ));
            }
            if !restored.superseded.is_empty() {
                note.push_str(&format!(
                    "; sheets sent for it and replaced since by newer ones are kept with the \
                     next turn, not played (held in {}): {}",
                    self.held_dir().display(),
                    restored.superseded.join(" ")
                ));
            }
            if !restored.joined.is_empty() {
                note.push_str(
                    "; the GM's messages sent for it come before those sent since, in one gm.txt",
                );
            }
            notes.push(note);
        }
        // Only what was moved needs flushing: a game with nothing to recover (every command
        // starts here) waits for no disk.
        if !notes.is_empty() {
            files::sync_dir(&orders);
            files::sync_dir(&self.turns_dir());
        }
        Ok(notes)
    }

    /// The highest complete turn directory: `turns/NNNN` holding a `state.json`.
    pub fn current_turn(&self) -> Result<u32> {
        let mut best = None;
        for entry in files::read_dir_sorted(&self.turns_dir())? {
            let name = entry.file_name().to_string_lossy().into_owned();
            if let Some(n) = parse_turn_name(&name)
                && entry.path().join(STATE_FILE).is_file()
            {
                best = best.max(Some(n));
            }
        }
        best.ok_or_else(|| {
            Error::new(format!(
                "{} holds no turn (expected {TURNS_DIR}/0000/{STATE_FILE})",
                self.turns_dir().display()
            ))
        })
    }

    /// The map's text and the map: from the ready-to-load copy ([`mapcache`]) when it was
    /// made from this text, else from `map.toml`, keeping a fresh copy when `keep` is set.
    pub fn load_map(&self, keep: bool) -> Result<(String, Map)> {
        let path = self.map_path();
        let text = files::read_text_in_game(&path, files::MAX_MAP_BYTES)?;
        let shown = path.display().to_string();
        let cache_path = self.root.join(mapcache::MAP_CACHE);
        let kept = cache_path
            .exists()
            .then(|| files::read_text_in_game(&cache_path, 2 * files::MAX_MAP_BYTES).ok())
            .flatten()
            .and_then(|c| mapcache::decode(&c, &text));
        if let Some(file) = kept {
            // A copy that no longer makes a valid map (made by a version that checked
            // less) is passed over like a stale one.
            if let Ok(map) = Map::from_file(file, &shown) {
                return Ok((text, map));
            }
        }
        let file: MapFile = parse_map_file(&text, &shown)?;
        let cache = if keep {
            mapcache::encode(&text, &file)
        } else {
            None
        };
        let map =
            Map::from_file(file, &shown).map_err(|e| Error::new(one_line_toml(&e.to_string())))?;
        if let Some(cache) = cache {
            // Only a copy: written without waiting for the disk, for a torn one is passed
            // over and made again.
            files::write_unsynced(&cache_path, cache.as_bytes())?;
        }
        Ok((text, map))
    }

    /// The first line of the kept `map.js`, which holds all a turn needs of it, and the
    /// file's length, if there is one.
    fn kept_head(&self) -> Option<(String, u64)> {
        use std::io::{BufRead, BufReader, Read};
        let path = self.root.join(drawing::MAP_SCRIPT);
        let file = path.exists().then(|| files::open_in_game(&path).ok())??;
        let length = file.metadata().ok()?.len();
        let mut line = Vec::new();
        BufReader::new(file.take(files::MAX_SCRIPT_BYTES))
            .read_until(b'\n', &mut line)
            .ok()?;
        Some((String::from_utf8(line).ok()?, length))
    }

    /// The kept `map.js`, whole, if there is one.
    pub fn kept_script(&self) -> Option<String> {
        let path = self.root.join(drawing::MAP_SCRIPT);
        path.exists()
            .then(|| files::read_text_in_game(&path, files::MAX_SCRIPT_BYTES).ok())?
    }

    /// Reads `turns/NNNN/state.json`, checks it fits the map and that it is the state after
    /// that turn.
    pub fn load_state(&self, turn: u32, map: &Map) -> Result<GameState> {
        self.load_verified_state(turn, map).map(|(s, _)| s)
    }

    /// [`GameDir::load_state`], and what is wrong with its `state.sha256` if anything:
    /// missing, or not matching the state's bytes.
    pub fn load_verified_state(&self, turn: u32, map: &Map) -> Result<(GameState, Option<String>)> {
        let path = self.state_path(turn);
        let label = path.display().to_string();
        let bytes = files::read_in_game(&path, files::MAX_STATE_BYTES)?;
        let problem = self.hash_problem(turn, &bytes)?;
        let text = String::from_utf8(bytes)
            .map_err(|_| Error::new(format!("{label}: not valid UTF-8 text")))?;
        let state = parse_state(&text, &label, map)?;
        if state.turn != turn {
            return Err(Error::new(format!(
                "{label}: field `turn` is {} but the directory is turn {turn}",
                state.turn
            )));
        }
        Ok((state, problem))
    }

    /// What is wrong with turn `turn`'s `state.sha256`, given the bytes of its state.
    fn hash_problem(&self, turn: u32, state: &[u8]) -> Result<Option<String>> {
        let dir = self.turn_dir(turn);
        let hash_path = dir.join(HASH_FILE);
        let state_path = dir.join(STATE_FILE);
        if Kind::of(&hash_path).map_err(|e| Error::io("cannot read", &hash_path, e))?
            == Kind::Missing
        {
            return Ok(Some(format!(
                "{} is missing, so {} cannot be checked",
                hash_path.display(),
                state_path.display()
            )));
        }
        let want = files::read_text_in_game(&hash_path, files::MAX_SMALL_BYTES)?;
        if want.trim() != sha256_hex(state) {
            return Ok(Some(format!(
                "{} does not match {}: the state was changed after it was written",
                hash_path.display(),
                state_path.display()
            )));
        }
        Ok(None)
    }
}

/// The files of one turn directory, already encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnFiles {
    pub state: String,
    /// `None` for the starting state, which has no events.
    pub events: Option<String>,
    /// Hex SHA-256 of `state`.
    pub hash: String,
    /// The players' and GM's reports, as (file name, contents), for `reports/`.
    pub reports: Vec<(String, String)>,
    /// Turnsheets the computer wrote, as (file name, contents), archived with the others.
    pub computer_orders: Vec<(String, String)>,
}

impl TurnFiles {
    /// Writes the state, events, hash and reports into a new turn directory, without
    /// waiting for the disk: the caller flushes the whole directory ([`files::flush_tree`])
    /// before the rename that commits it.
    pub(crate) fn write_into(&self, dir: &Path) -> Result<()> {
        files::write_new_unsynced(&dir.join(STATE_FILE), self.state.as_bytes())?;
        if let Some(events) = &self.events {
            files::write_new_unsynced(&dir.join(EVENTS_FILE), events.as_bytes())?;
        }
        files::write_new_unsynced(&dir.join(HASH_FILE), format!("{}\n", self.hash).as_bytes())?;
        if !self.reports.is_empty() {
            let reports = dir.join(crate::render::REPORTS_DIR);
            fs::create_dir(&reports).map_err(|e| Error::io("cannot create", &reports, e))?;
            for (name, contents) in &self.reports {
                files::write_new_unsynced(&reports.join(name), contents.as_bytes())?;
            }
        }
        Ok(())
    }

    pub fn new(state: &GameState, events: Option<&[Event]>) -> Result<TurnFiles> {
        let mut files = TurnFiles::unhashed(state, events)?;
        files.hash = sha256_hex(files.state.as_bytes());
        Ok(files)
    }

    /// [`TurnFiles::new`] without the state's hash, for a turn whose store works it out
    /// as it keeps the turn ([`crate::pipeline`]): hashing a World state costs a few
    /// million instructions.
    pub fn unhashed(state: &GameState, events: Option<&[Event]>) -> Result<TurnFiles> {
        let state = to_pretty_json(state, STATE_FILE)?;
        let events = events
            .map(|e| to_pretty_json(&e, EVENTS_FILE))
            .transpose()?;
        Ok(TurnFiles {
            state,
            events,
            hash: String::new(),
            reports: Vec::new(),
            computer_orders: Vec::new(),
        })
    }
}

/// Refuses an empire that is not in the game, naming those that are.
pub fn known_empire(state: &GameState, e: EmpireCode) -> Result<()> {
    seat_empire(state, e.into()).map(|_| ())
}

/// The empire a seat is in an Empires game, if the game has it.
pub fn seat_empire(state: &GameState, seat: crate::seat::SeatCode) -> Result<EmpireCode> {
    if let Some(e) = seat.empire().filter(|e| state.empire(*e).is_some()) {
        return Ok(e);
    }
    let codes: Vec<String> = state.empires.iter().map(|x| x.code.to_string()).collect();
    Err(Error::new(format!(
        "{seat} is not an empire of this game; its empires are {}",
        codes.join(" ")
    )))
}

pub use ruleset_api::to_pretty_json;

/// Lower-case hexadecimal SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Parses a map, turning TOML's multi-line messages into one line.
pub fn parse_map(text: &str, file: &str) -> Result<Map> {
    Map::from_toml(text, file).map_err(|e| Error::new(one_line_toml(&e.to_string())))
}

/// Parses a map's file without checking it, with messages as [`parse_map`] gives them.
pub fn parse_map_file(text: &str, file: &str) -> Result<MapFile> {
    toml::from_str(text).map_err(|e| {
        Error::new(one_line_toml(
            &empires_rules::map::MapError::Syntax {
                file: file.to_string(),
                message: e.to_string(),
            }
            .to_string(),
        ))
    })
}

/// Reads a state file's text. Messages give the file, line, column and field path, or the
/// field named by the state's own consistency check.
pub fn parse_state(text: &str, file: &str, map: &Map) -> Result<GameState> {
    let mut de = serde_json::Deserializer::from_str(text);
    let state: GameState = match serde_path_to_error::deserialize(&mut de) {
        Ok(s) => s,
        Err(e) => {
            let path = e.path().to_string();
            return Err(Error::new(json_message(file, &path, &e.into_inner())));
        }
    };
    de.end()
        .map_err(|e| Error::new(json_message(file, ".", &e)))?;
    if state.format != STATE_FORMAT {
        return Err(Error::new(format!(
            "{file}: field `format`: the state is in format {}, this program reads format {STATE_FORMAT}",
            state.format
        )));
    }
    state.validate(map).map_err(|m| {
        Error::new(match m.split_once(": ") {
            Some((field, why)) => format!("{file}: field `{field}`: {why}"),
            None => format!("{file}: {m}"),
        })
    })?;
    Ok(state)
}

fn json_message(file: &str, path: &str, e: &serde_json::Error) -> String {
    let (line, column) = (e.line(), e.column());
    let full = e.to_string();
    let suffix = format!(" at line {line} column {column}");
    let message = full.strip_suffix(&suffix).unwrap_or(&full);
    let field = if path.is_empty() || path == "." {
        String::new()
    } else {
        format!(" field `{path}`:")
    };
    format!("{file}: line {line}, column {column}:{field} {message}")
}

/// TOML errors print the offending line with markers under it; keep the position and the
/// message only.
pub fn one_line_toml(message: &str) -> String {
    let lines: Vec<&str> = message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let at = lines
        .iter()
        .position(|l| l.contains("TOML parse error at "));
    match at {
        Some(i) => {
            let (head, pos) = lines[i]
                .split_once("TOML parse error at ")
                .unwrap_or((lines[i], ""));
            let reason: Vec<&str> = lines[i + 1..]
                .iter()
                .copied()
                .filter(|l| !l.contains('|') && !l.chars().all(|c| c == '^' || c == ' '))
                .collect();
            format!("{head}{pos}: {}", reason.join(" "))
        }
        None => lines.join(" "),
    }
}

/// Reads a UTF-8 text file given on the command line (a map, a scenario), naming it on
/// failure. Bounded, so that a device or an enormous file cannot take all memory.
pub fn read_text(path: &Path) -> Result<String> {
    let file = File::open(path).map_err(|e| Error::io("cannot read", path, e))?;
    let bytes = files::read_at_most(file, files::MAX_MAP_BYTES)
        .map_err(|e| Error::io("cannot read", path, e))?
        .ok_or_else(|| {
            Error::new(format!(
                "{}: larger than the {} bytes allowed",
                path.display(),
                files::MAX_MAP_BYTES
            ))
        })?;
    String::from_utf8(bytes)
        .map_err(|_| Error::new(format!("{}: not valid UTF-8 text", path.display())))
}

/// Writes a file and flushes it to disk, replacing it if it is there. For files outside
/// game directories only (drawings); a game's own files are written with
/// [`files::write_new`].
pub fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = File::create(path).map_err(|e| Error::io("cannot create", path, e))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| Error::io("cannot write", path, e))
}

pub fn dir_is_empty(dir: &Path) -> Result<bool> {
    let mut rd = fs::read_dir(dir).map_err(|e| Error::io("cannot read", dir, e))?;
    Ok(rd.next().is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_names_are_four_digits() {
        assert_eq!(turn_name(0), "0000");
        assert_eq!(turn_name(12), "0012");
        assert_eq!(parse_turn_name("0012"), Some(12));
        assert_eq!(parse_turn_name("12"), None);
        assert_eq!(parse_turn_name("0012.tmp"), None);
        assert_eq!(parse_turn_name("00012"), None);
        assert_eq!(parse_turn_name("12345"), Some(12345));
    }

    #[test]
    fn toml_messages_fit_on_one_line() {
        let m = "map.toml: TOML parse error at line 9, column 11\n  |\n9 | terrain = \"swamp\"\n  |           ^^^^^^^\nunknown variant `swamp`, expected one of `desert`\n";
        assert_eq!(
            one_line_toml(m),
            "map.toml: line 9, column 11: unknown variant `swamp`, expected one of `desert`"
        );
    }

    #[test]
    fn hashes_are_lower_case_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
