//! `empires new`: create a game directory from a map file or from a GM's scenario file.

use crate::error::{Error, Result};
use crate::gamedir::{self, GameDir, TurnFiles};
use empires_rules::scenario::Scenario;
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{EmpireCode, GameState, Map, Options, Variant};
use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// Where the starting position comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A map, set up by the rules of 12.6-12.9 from a seed.
    Map(MapStart),
    /// A scenario file naming its map and giving the position by hand.
    Scenario(PathBuf),
}

#[derive(Debug, Clone)]
pub struct MapStart {
    pub map: PathBuf,
    pub seed: u64,
    /// Defaults to the map's variant, or World Empires.
    pub variant: Option<Variant>,
    pub players: Vec<(EmpireCode, String)>,
    /// Defaults to the map's name.
    pub name: Option<String>,
    pub actions_per_turn: Option<u32>,
    /// Missed turns in a row after which a player counts as dropped out (2.5, decision 21).
    pub dropout_after: Option<u32>,
    /// The first turn at whose end victory conditions count (11.6).
    pub victory_from_turn: Option<u32>,
}

/// What `empires new` made.
#[derive(Debug, Clone)]
pub struct NewReport {
    pub dir: PathBuf,
    pub state: GameState,
    pub hash: String,
}

impl fmt::Display for NewReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.state;
        writeln!(
            f,
            "created game \"{}\" ({} Empires) in {}, starting after turn {}",
            s.game,
            s.variant.title(),
            self.dir.display(),
            s.turn
        )?;
        for e in &s.empires {
            let who = e.player.as_deref().unwrap_or("dummy");
            writeln!(f, "  {} {} ({who})", e.code, e.name)?;
        }
        let order: Vec<String> = s.order_of_play.iter().map(|c| c.to_string()).collect();
        writeln!(f, "order of play: {}", order.join(" "))?;
        writeln!(f, "state sha256: {}", self.hash)?;
        write!(
            f,
            "next: put turnsheets in {}/<CODE>.txt and run `empires turn {}`",
            self.dir.join(gamedir::ORDERS_DIR).display(),
            self.dir.display()
        )
    }
}

/// Reads `CODE=Name`, as given to `--player`.
pub fn parse_player(text: &str) -> std::result::Result<(EmpireCode, String), String> {
    let (code, name) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` should be CODE=NAME, e.g. EN=Alice"))?;
    let code = EmpireCode::parse(code).map_err(|e| e.to_string())?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("`{text}`: the player's name is empty"));
    }
    Ok((code, name.to_string()))
}

/// Reads a variant name, as given to `--variant`.
pub fn parse_variant(text: &str) -> std::result::Result<Variant, String> {
    Variant::parse(text).ok_or_else(|| {
        format!("`{text}` is not a variant: use world, medieval, european or australian")
    })
}

/// Creates the game directory `dir`. Refuses a directory that exists and is not empty.
pub fn run(dir: &Path, source: &Source) -> Result<NewReport> {
    check_target(dir)?;
    let (map_text, map, state) = match source {
        Source::Map(m) => from_map(m)?,
        Source::Scenario(path) => from_scenario(path)?,
    };
    // The game is made beside its place and renamed into it whole, so that a `new` that
    // fails, or is stopped, never leaves half a game where the game should be.
    let building = building_dir(dir)?;
    let result = write_game(&building, &map_text, &map, &state).and_then(|hash| {
        fs::rename(&building, dir)
            .map_err(|e| Error::io("cannot rename", &building, e))
            .map(|()| hash)
    });
    if result.is_err() {
        let _ = fs::remove_dir_all(&building);
    }
    let hash = result?;
    Ok(NewReport {
        dir: dir.to_path_buf(),
        state,
        hash,
    })
}

fn check_target(dir: &Path) -> Result<()> {
    if dir.exists() {
        if !dir.is_dir() {
            return Err(Error::new(format!(
                "{} exists and is not a directory",
                dir.display()
            )));
        }
        if !gamedir::dir_is_empty(dir)? {
            return Err(Error::new(format!(
                "{} already exists and is not empty; give a new directory",
                dir.display()
            )));
        }
    }
    Ok(())
}

/// The text of a map given on the command line: a file, or else a standard map's name.
pub fn map_text(path: &Path) -> Result<(String, String)> {
    if !path.exists()
        && let Some(std) = path.to_str().and_then(empires_maps::standard::find)
    {
        return Ok((std.text.to_string(), std.file.to_string()));
    }
    if !path.exists() && path.extension().is_none() {
        return Err(Error::new(format!(
            "{}: no such map file, nor a standard map (standard maps: {})",
            path.display(),
            empires_maps::standard::names().join(", ")
        )));
    }
    Ok((gamedir::read_text(path)?, path.display().to_string()))
}

fn from_map(m: &MapStart) -> Result<(String, Map, GameState)> {
    let (map_text, file) = map_text(&m.map)?;
    let map = gamedir::parse_map(&map_text, &file)?;
    let mut players = BTreeMap::new();
    for (code, name) in &m.players {
        if players.insert(*code, name.clone()).is_some() {
            return Err(Error::new(format!("--player {code} is given twice")));
        }
    }
    let mut options = Options::default();
    if let Some(n) = m.actions_per_turn {
        options.actions_per_turn = n;
    }
    if let Some(n) = m.dropout_after {
        options.dropout_after = n;
    }
    if let Some(n) = m.victory_from_turn {
        options.victory_from_turn = n;
    }
    let setup = NewGame {
        name: m.name.clone().unwrap_or_else(|| map.name.clone()),
        variant: m.variant.or(map.variant).unwrap_or(Variant::World),
        seed: m.seed,
        players,
        options,
    };
    let state = new_game(&map, &setup).map_err(|e| Error::new(format!("{file}: {e}")))?;
    // The same limits as every saved state, checked before anything is written.
    state
        .validate(&map)
        .map_err(|e| Error::new(format!("{file}: {e}")))?;
    Ok((map_text, map, state))
}

fn from_scenario(path: &Path) -> Result<(String, Map, GameState)> {
    let label = path.display().to_string();
    let text = gamedir::read_text(path)?;
    let scenario = Scenario::parse(&text, &label).map_err(|e| Error::new(e.to_string()))?;
    let map_path = path
        .parent()
        .unwrap_or_else(|| Path::new(""))
        .join(&scenario.map);
    let map_text = gamedir::read_text(&map_path)?;
    let map = gamedir::parse_map(&map_text, &map_path.display().to_string())?;
    let state = scenario
        .build(&map, &text, &label)
        .map_err(|e| Error::new(e.to_string()))?;
    if state.empires.is_empty() {
        return Err(Error::new(format!(
            "{label}: the scenario lists no empires ([[empire]] tables)"
        )));
    }
    Ok((map_text, map, state))
}

/// Writes map, starting turn and an empty `orders/` into a new directory `dir`; returns the
/// state's hash.
fn write_game(dir: &Path, map_text: &str, map: &Map, state: &GameState) -> Result<String> {
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|e| Error::io("cannot create", parent, e))?;
    }
    fs::create_dir(dir).map_err(|e| Error::io("cannot create", dir, e))?;
    let game = GameDir::at(dir);
    crate::files::write_new(&game.map_path(), map_text.as_bytes())?;
    // Made now, so that commands that only look can share it even on a read-only copy.
    crate::files::write_new(&dir.join(gamedir::LOCK_FILE), b"")?;
    let turns = game.turns_dir();
    fs::create_dir(&turns).map_err(|e| Error::io("cannot create", &turns, e))?;
    let mut files = TurnFiles::new(state, None)?;
    files.reports = empires_host::render::render_all(map, state, &[], &[], &[])?;
    game.write_start(state.turn, &files)?;
    let orders = game.orders_dir();
    fs::create_dir(&orders).map_err(|e| Error::io("cannot create", &orders, e))?;
    Ok(files.hash)
}

/// Where a game for `dir` is built: a hidden directory beside it, named for it and for
/// this process.
fn building_dir(dir: &Path) -> Result<PathBuf> {
    let name = dir
        .file_name()
        .ok_or_else(|| Error::new(format!("{}: give the game directory a name", dir.display())))?;
    let mut hidden = std::ffi::OsString::from(".");
    hidden.push(name);
    hidden.push(format!(".new-{}", std::process::id()));
    Ok(dir.with_file_name(hidden))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_are_code_equals_name() {
        let (c, n) = parse_player("fr=Alice Smith").unwrap();
        assert_eq!((c.as_str(), n.as_str()), ("FR", "Alice Smith"));
        assert!(parse_player("FR").unwrap_err().contains("CODE=NAME"));
        assert!(parse_player("FRA=Bob").is_err());
        assert!(parse_player("FR=").is_err());
    }

    #[test]
    fn variants_by_name() {
        assert_eq!(parse_variant("Medieval"), Ok(Variant::Medieval));
        assert!(parse_variant("roman").is_err());
    }
}
