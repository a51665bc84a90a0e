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
use crate::{gamelock, staging};
use sha2::{Digest, Sha256};
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

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

/// The name the GM's rulings go by where sheets are kept by seat (a database's
/// submissions, a turn's `orders/rulings.txt`): no seat's code, which is two to four letters.
pub const RULINGS: &str = "rulings";

/// The file in `orders/` holding the GM's rulings for the next step.
pub const RULINGS_FILE: &str = "rulings.txt";

/// The sheets sent ahead, each for its seat's own next step: `ahead/NNNN/SEAT.txt`, moved
/// into the turn when step NNNN is played.
pub const AHEAD_DIR: &str = "ahead";

/// The directory of a turn's reports.
pub const REPORTS_DIR: &str = "reports";

/// The standing sheets: in a game's directory, each seat's latest, kept until it sends
/// another; in a turn, those the turn was played with.
pub const STANDING_DIR: &str = "standing";

/// The game's map as its ruleset reads it fastest ([`crate::ruleset::Ruleset::ready_map`]):
/// only a copy, made again when missing or made from another map.
pub const READY_MAP_FILE: &str = ".map.json";

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

    /// What is wrong with turn `turn`'s `state.sha256`, given the bytes of its state.
    pub fn hash_problem(&self, turn: u32, state: &[u8]) -> Result<Option<String>> {
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

pub use ruleset_api::to_pretty_json;

/// Lower-case hexadecimal SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
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
