//! The game directory: where a game's map, pending orders and adjudicated turns live, how
//! they are read, and how a new turn is written so that a crash never leaves half a turn.
//!
//! ```text
//! <dir>/map.toml                 copy of the map
//! <dir>/orders/<CODE>.txt        pending turnsheets for the next turn
//! <dir>/turns/0000/state.json    the starting state (and state.sha256)
//! <dir>/turns/NNNN/state.json    the state after turn N
//! <dir>/turns/NNNN/events.json   what happened in turn N
//! <dir>/turns/NNNN/state.sha256  hex SHA-256 of state.json
//! <dir>/turns/NNNN/orders/       the turnsheets turn N was played with
//! ```
//!
//! A turn is written into `turns/NNNN.tmp/`, the pending `orders/` directory is moved inside
//! it, and renaming `NNNN.tmp` to `NNNN` commits the turn. Every command that reads a game
//! directory first calls [`GameDir::recover`], which rolls an interrupted turn back.

use crate::error::{Error, Result};
use empires_rules::event::Event;
use empires_rules::state::STATE_FORMAT;
use empires_rules::{EmpireCode, GameState, Map};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

pub const MAP_FILE: &str = "map.toml";
pub const ORDERS_DIR: &str = "orders";
pub const TURNS_DIR: &str = "turns";
pub const STATE_FILE: &str = "state.json";
pub const EVENTS_FILE: &str = "events.json";
pub const HASH_FILE: &str = "state.sha256";
/// Suffix of a turn directory being written.
pub const TMP_SUFFIX: &str = ".tmp";

/// The directory name of a turn: four digits, zero padded.
/// The file in `orders/` holding the GM's messages for the next turn's reports.
pub const GM_MESSAGES_FILE: &str = "gm.txt";

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

/// A turnsheet file waiting in `orders/`.
#[derive(Debug, Clone)]
pub struct OrdersFile {
    pub path: PathBuf,
    pub text: String,
}

/// The turnsheets waiting for the next turn, and what was found but not used.
#[derive(Debug, Clone, Default)]
pub struct PendingOrders {
    pub sheets: BTreeMap<EmpireCode, OrdersFile>,
    /// The GM's messages for everyone (10.6), from `orders/gm.txt`: one per paragraph.
    pub gm_messages: Vec<String>,
    pub warnings: Vec<String>,
}

/// Everything a command needs from an existing game directory.
#[derive(Debug, Clone)]
pub struct Game {
    pub dir: GameDir,
    pub map: Map,
    /// The current turn: the highest complete `turns/NNNN` directory.
    pub turn: u32,
    pub state: GameState,
    /// Recovery notes and other things the user should know.
    pub warnings: Vec<String>,
    /// Held while the game is open, so two commands never work on one game at once.
    _lock: std::sync::Arc<std::fs::File>,
}

impl Game {
    /// Opens a game directory, recovering from an interrupted turn first, and loads the map
    /// and the current state.
    pub fn load(root: &Path) -> Result<Game> {
        let dir = GameDir::at(root);
        dir.check_is_game()?;
        let lock = dir.lock()?;
        let mut warnings = dir.recover()?;
        let map = dir.load_map()?;
        let turn = dir.current_turn()?;
        let state = dir.load_state(turn, &map)?;
        warnings.extend(dir.check_hash(turn)?);
        Ok(Game {
            dir,
            map,
            turn,
            state,
            warnings,
            _lock: std::sync::Arc::new(lock),
        })
    }
}

impl GameDir {
    pub fn at(root: impl Into<PathBuf>) -> GameDir {
        GameDir { root: root.into() }
    }

    /// Takes the game's lock file (`.lock`), failing at once if another command holds it.
    pub fn lock(&self) -> Result<std::fs::File> {
        let path = self.root.join(".lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io("cannot open", &path, e))?;
        match file.try_lock() {
            Ok(()) => Ok(file),
            Err(std::fs::TryLockError::WouldBlock) => Err(Error::new(format!(
                "{}: another empires command is working on this game; try again when it ends",
                self.root.display()
            ))),
            Err(std::fs::TryLockError::Error(e)) => Err(Error::io("cannot lock", &path, e)),
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

    /// Fails unless the directory holds a map and a `turns/` directory.
    pub fn check_is_game(&self) -> Result<()> {
        if !self.root.exists() {
            return Err(Error::new(format!(
                "{}: no such game directory; create one with `empires new`",
                self.root.display()
            )));
        }
        if !self.root.is_dir() {
            return Err(Error::new(format!(
                "{} is not a directory",
                self.root.display()
            )));
        }
        if !self.map_path().is_file() || !self.turns_dir().is_dir() {
            return Err(Error::new(format!(
                "{} is not a game directory (it needs {MAP_FILE} and {TURNS_DIR}/); create one with `empires new`",
                self.root.display()
            )));
        }
        Ok(())
    }

    /// Rolls back any turn that was being written when a previous run stopped: its orders go
    /// back to `orders/` and the unfinished `turns/NNNN.tmp` is deleted. Also makes sure
    /// `orders/` exists. Returns notes for the user.
    pub fn recover(&self) -> Result<Vec<String>> {
        let mut notes = Vec::new();
        let turns = self.turns_dir();
        let mut tmps = Vec::new();
        for entry in read_dir_sorted(&turns)? {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(TMP_SUFFIX) && entry.path().is_dir() {
                tmps.push(entry.path());
            }
        }
        let orders = self.orders_dir();
        for tmp in tmps {
            let tmp_orders = tmp.join(ORDERS_DIR);
            if tmp_orders.is_dir() && !dir_is_empty(&tmp_orders)? {
                if orders.exists() && !dir_is_empty(&orders)? {
                    return Err(Error::new(format!(
                        "{} holds the orders of an interrupted turn, and {} holds orders too; \
                         keep one set, delete the other, and run the command again",
                        tmp_orders.display(),
                        orders.display()
                    )));
                }
                if orders.exists() {
                    fs::remove_dir(&orders).map_err(|e| Error::io("cannot remove", &orders, e))?;
                }
                fs::rename(&tmp_orders, &orders)
                    .map_err(|e| Error::io("cannot move back the orders in", &tmp_orders, e))?;
                notes.push(format!(
                    "{} was an interrupted turn: rolled back, its orders are back in {}",
                    tmp.display(),
                    orders.display()
                ));
            } else {
                notes.push(format!(
                    "{} was an interrupted turn: rolled back",
                    tmp.display()
                ));
            }
            fs::remove_dir_all(&tmp).map_err(|e| Error::io("cannot remove", &tmp, e))?;
        }
        if !orders.exists() {
            fs::create_dir(&orders).map_err(|e| Error::io("cannot create", &orders, e))?;
        } else if !orders.is_dir() {
            return Err(Error::new(format!(
                "{} should be a directory of turnsheets",
                orders.display()
            )));
        }
        sync_dir(&self.root);
        Ok(notes)
    }

    /// The highest complete turn directory: `turns/NNNN` holding a `state.json`.
    pub fn current_turn(&self) -> Result<u32> {
        let mut best = None;
        for entry in read_dir_sorted(&self.turns_dir())? {
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

    pub fn load_map(&self) -> Result<Map> {
        let path = self.map_path();
        let text = read_text(&path)?;
        parse_map(&text, &path.display().to_string())
    }

    /// Reads `turns/NNNN/state.json`, checks it fits the map and that it is the state after
    /// that turn.
    pub fn load_state(&self, turn: u32, map: &Map) -> Result<GameState> {
        let path = self.state_path(turn);
        let label = path.display().to_string();
        let text = read_text(&path)?;
        let state = parse_state(&text, &label, map)?;
        if state.turn != turn {
            return Err(Error::new(format!(
                "{label}: field `turn` is {} but the directory is turn {turn}",
                state.turn
            )));
        }
        Ok(state)
    }

    /// A warning when `state.sha256` is there but does not match `state.json`.
    pub fn check_hash(&self, turn: u32) -> Result<Option<String>> {
        let dir = self.turn_dir(turn);
        let hash_path = dir.join(HASH_FILE);
        if !hash_path.is_file() {
            return Ok(None);
        }
        let state_path = dir.join(STATE_FILE);
        let bytes = fs::read(&state_path).map_err(|e| Error::io("cannot read", &state_path, e))?;
        let want = read_text(&hash_path)?;
        if want.trim() != sha256_hex(&bytes) {
            return Ok(Some(format!(
                "{} does not match {}: the state was changed after it was written",
                hash_path.display(),
                state_path.display()
            )));
        }
        Ok(None)
    }

    /// The turnsheets in `orders/`, one per empire of the game, named `<CODE>.txt` in any
    /// case. Anything else is reported in `warnings` and left alone.
    pub fn read_orders(&self, state: &GameState) -> Result<PendingOrders> {
        let dir = self.orders_dir();
        let mut pending = PendingOrders::default();
        if !dir.is_dir() {
            return Ok(pending);
        }
        let codes: Vec<String> = state.empires.iter().map(|e| e.code.to_string()).collect();
        for entry in read_dir_sorted(&dir)? {
            let path = entry.path();
            let shown = path.display();
            if path.is_dir() {
                pending
                    .warnings
                    .push(format!("{shown}: a directory, not a turnsheet; ignored"));
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.eq_ignore_ascii_case(GM_MESSAGES_FILE) {
                let text = read_text(&path)?;
                pending.gm_messages = text
                    .split("\n\n")
                    .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
                    .filter(|p| !p.is_empty())
                    .collect();
                continue;
            }
            let code = name
                .rsplit_once('.')
                .filter(|(_, ext)| ext.eq_ignore_ascii_case("txt"))
                .and_then(|(stem, _)| EmpireCode::parse(stem).ok().filter(|_| stem.len() == 2));
            let Some(code) = code else {
                pending.warnings.push(format!(
                    "{shown}: not a turnsheet (turnsheets are named <CODE>.txt, e.g. {}.txt); ignored",
                    codes.first().map_or("EN", String::as_str)
                ));
                continue;
            };
            if state.empire(code).is_none() {
                pending.warnings.push(format!(
                    "{shown}: {code} is not an empire of this game (the empires are {}); ignored",
                    codes.join(", ")
                ));
                continue;
            }
            if let Some(other) = pending.sheets.get(&code) {
                return Err(Error::new(format!(
                    "{} and {shown} are both orders for {code}; remove one",
                    other.path.display()
                )));
            }
            let bytes = fs::read(&path).map_err(|e| Error::io("cannot read", &path, e))?;
            let text = match String::from_utf8(bytes) {
                Ok(t) => t,
                Err(e) => {
                    pending.warnings.push(format!(
                        "{shown}: not valid UTF-8 text; unreadable characters were replaced"
                    ));
                    String::from_utf8_lossy(e.as_bytes()).into_owned()
                }
            };
            pending.sheets.insert(code, OrdersFile { path, text });
        }
        Ok(pending)
    }

    /// Writes turn `turn` atomically: everything goes into `turns/NNNN.tmp/`, the pending
    /// `orders/` directory is moved in with it (when `with_orders`), and the rename to
    /// `turns/NNNN` commits the turn; a fresh `orders/` is then created. On failure before
    /// the commit the directory is put back as it was.
    pub fn write_turn(&self, turn: u32, files: &TurnFiles, with_orders: bool) -> Result<()> {
        let target = self.turn_dir(turn);
        if target.exists() {
            return Err(Error::new(format!("{} already exists", target.display())));
        }
        let tmp = self.tmp_dir(turn);
        fs::create_dir(&tmp).map_err(|e| Error::io("cannot create", &tmp, e))?;
        let staged = self.stage(&tmp, files, with_orders);
        let committed = staged.and_then(|()| {
            fs::rename(&tmp, &target).map_err(|e| Error::io("cannot rename", &tmp, e))
        });
        if let Err(e) = committed {
            // Put things back; the next command's recovery does the same if this fails too.
            let _ = self.recover();
            return Err(e);
        }
        sync_dir(&self.turns_dir());
        if with_orders {
            let orders = self.orders_dir();
            fs::create_dir(&orders).map_err(|e| Error::io("cannot create", &orders, e))?;
            sync_dir(&self.root);
        }
        Ok(())
    }

    fn stage(&self, tmp: &Path, files: &TurnFiles, with_orders: bool) -> Result<()> {
        write_synced(&tmp.join(STATE_FILE), files.state.as_bytes())?;
        if let Some(events) = &files.events {
            write_synced(&tmp.join(EVENTS_FILE), events.as_bytes())?;
        }
        write_synced(&tmp.join(HASH_FILE), format!("{}\n", files.hash).as_bytes())?;
        if !files.reports.is_empty() {
            let dir = tmp.join(crate::commands::report::REPORTS_DIR);
            fs::create_dir(&dir).map_err(|e| Error::io("cannot create", &dir, e))?;
            for (name, contents) in &files.reports {
                write_synced(&dir.join(name), contents.as_bytes())?;
            }
        }
        if with_orders {
            let orders = self.orders_dir();
            let to = tmp.join(ORDERS_DIR);
            if orders.is_dir() {
                fs::rename(&orders, &to).map_err(|e| Error::io("cannot move", &orders, e))?;
            } else {
                fs::create_dir(&to).map_err(|e| Error::io("cannot create", &to, e))?;
            }
            for (name, text) in &files.computer_orders {
                write_synced(&to.join(name), text.as_bytes())?;
            }
        }
        sync_dir(tmp);
        Ok(())
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
    pub fn new(state: &GameState, events: Option<&[Event]>) -> Result<TurnFiles> {
        let state = to_pretty_json(state, STATE_FILE)?;
        let events = events
            .map(|e| to_pretty_json(&e, EVENTS_FILE))
            .transpose()?;
        let hash = sha256_hex(state.as_bytes());
        Ok(TurnFiles {
            state,
            events,
            hash,
            reports: Vec::new(),
            computer_orders: Vec::new(),
        })
    }
}

/// Pretty JSON with a trailing newline: the one encoding of every JSON file of a game.
pub fn to_pretty_json<T: serde::Serialize>(value: &T, what: &str) -> Result<String> {
    let mut text = serde_json::to_string_pretty(value)
        .map_err(|e| Error::new(format!("cannot encode {what}: {e}")))?;
    text.push('\n');
    Ok(text)
}

/// Lower-case hexadecimal SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Parses a map, turning TOML's multi-line messages into one line.
pub fn parse_map(text: &str, file: &str) -> Result<Map> {
    Map::from_toml(text, file).map_err(|e| Error::new(one_line_toml(&e.to_string())))
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

/// Reads a UTF-8 text file, naming it on failure.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = fs::read(path).map_err(|e| Error::io("cannot read", path, e))?;
    String::from_utf8(bytes)
        .map_err(|_| Error::new(format!("{}: not valid UTF-8 text", path.display())))
}

/// Writes a file and flushes it to disk.
pub fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = File::create(path).map_err(|e| Error::io("cannot create", path, e))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| Error::io("cannot write", path, e))
}

/// Flushes a directory's entries to disk where the system allows it.
fn sync_dir(path: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(path) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = path;
}

fn read_dir_sorted(dir: &Path) -> Result<Vec<fs::DirEntry>> {
    let rd = fs::read_dir(dir).map_err(|e| Error::io("cannot read", dir, e))?;
    let mut entries = Vec::new();
    for entry in rd {
        entries.push(entry.map_err(|e| Error::io("cannot read", dir, e))?);
    }
    entries.sort_by_key(|e| e.file_name());
    Ok(entries)
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
