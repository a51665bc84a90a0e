//! An Empires game in a directory, read: the map (from its ready-to-load copy when there
//! is one, [`crate::mapcache`]), the current state checked against its `state.sha256`, and
//! the map's drawing kept beside them. The directory itself (its layout, lock and
//! recovery) is the host's ([`empires_host::gamedir`]).

use crate::{drawing, mapcache};
use empires_host::error::{Error, Result};
use empires_host::files;
use empires_host::gamedir::{
    EVENTS_FILE, GameDir, STATE_FILE, one_line_toml, sha256_hex, to_pretty_json,
};
use empires_host::store::SeatCode;
use empires_maps::draw::{Layers, Layout};
use empires_rules::event::Event;
use empires_rules::map::MapFile;
use empires_rules::state::STATE_FORMAT;
use empires_rules::{EmpireCode, GameState, Map};
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

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
        if let Some(id) = empires_host::gamefiles::ruleset_of(root).filter(|r| r != "empires") {
            let title = empires_host::ruleset::by_id(&id).map_or(id.as_str(), |r| r.title());
            return Err(Error::new(format!(
                "{} is a game of {title}: this command is for Empires games only; `empires sheet`, `check`, `submit`, `status`, `turn`, `undo`, `verify` and `report` work on it",
                root.display()
            )));
        }
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
        let kept = kept_head(&self.dir);
        let (layout, fresh) = drawing::layout(
            &self.map,
            &self.map_text,
            kept.as_ref().map(|(h, n)| (h.as_str(), *n)),
        );
        if let (true, Some(script)) = (keep, fresh) {
            files::write_atomic(
                &self.dir.root().join(drawing::MAP_SCRIPT),
                script.as_bytes(),
            )?;
        }
        Ok(layout)
    }

    /// The map's whole layer, as kept in `map.js` or worked out again; nothing is written.
    pub fn layers(&self) -> Option<Arc<Layers>> {
        let kept = self.dir.kept_script();
        drawing::layers(&self.map, &self.map_text, kept.as_deref())
    }
}

/// What an Empires game reads from its directory.
pub trait EmpiresDir {
    /// The map's text and the map: from the ready-to-load copy ([`mapcache`]) when it was
    /// made from this text, else from `map.toml`, keeping a fresh copy when `keep` is set.
    fn load_map(&self, keep: bool) -> Result<(String, Map)>;

    /// The kept `map.js`, whole, if there is one.
    fn kept_script(&self) -> Option<String>;

    /// Reads `turns/NNNN/state.json`, checks it fits the map and that it is the state after
    /// that turn.
    fn load_state(&self, turn: u32, map: &Map) -> Result<GameState>;

    /// [`GameDir::load_state`], and what is wrong with its `state.sha256` if anything:
    /// missing, or not matching the state's bytes.
    fn load_verified_state(&self, turn: u32, map: &Map) -> Result<(GameState, Option<String>)>;
}

impl EmpiresDir for GameDir {
    fn load_map(&self, keep: bool) -> Result<(String, Map)> {
        let path = self.map_path();
        let text = files::read_text_in_game(&path, files::MAX_MAP_BYTES)?;
        let shown = path.display().to_string();
        let cache_path = self.root().join(mapcache::MAP_CACHE);
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

    fn kept_script(&self) -> Option<String> {
        let path = self.root().join(drawing::MAP_SCRIPT);
        path.exists()
            .then(|| files::read_text_in_game(&path, files::MAX_SCRIPT_BYTES).ok())?
    }

    fn load_state(&self, turn: u32, map: &Map) -> Result<GameState> {
        self.load_verified_state(turn, map).map(|(s, _)| s)
    }

    fn load_verified_state(&self, turn: u32, map: &Map) -> Result<(GameState, Option<String>)> {
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
}

/// The first line of the kept `map.js`, which holds all a turn needs of it, and the
/// file's length, if there is one.
fn kept_head(dir: &GameDir) -> Option<(String, u64)> {
    use std::io::{BufRead, BufReader, Read};
    let path = dir.root().join(drawing::MAP_SCRIPT);
    let file = path.exists().then(|| files::open_in_game(&path).ok())??;
    let length = file.metadata().ok()?.len();
    let mut line = Vec::new();
    BufReader::new(file.take(files::MAX_SCRIPT_BYTES))
        .read_until(b'\n', &mut line)
        .ok()?;
    Some((String::from_utf8(line).ok()?, length))
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
    seat_empire(state, crate::seat(e)).map(|_| ())
}

/// The empire a seat is in an Empires game, if the game has it.
pub fn seat_empire(state: &GameState, seat: SeatCode) -> Result<EmpireCode> {
    if let Some(e) = EmpireCode::parse(seat.as_str())
        .ok()
        .filter(|e| state.empire(*e).is_some())
    {
        return Ok(e);
    }
    let codes: Vec<String> = state.empires.iter().map(|x| x.code.to_string()).collect();
    Err(Error::new(format!(
        "{seat} is not an empire of this game; its empires are {}",
        codes.join(" ")
    )))
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
