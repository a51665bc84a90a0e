//! `empires new`: create a game directory from a map file or from a GM's scenario file.

use crate::commands::hosted::{self, GameAt};
use crate::error::{Error, Result};
use crate::gamedir;
use empires_host::store::Store;
use empires_rules::scenario::Scenario;
use empires_rules::setup::NewGame;
use empires_rules::{EmpireCode, GameState, Map, Options, Variant};
use empires_ruleset::ruleset::EmpiresStore;
use std::collections::BTreeMap;
use std::fmt;
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
    /// What to do next, in words.
    pub next: String,
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
        write!(f, "next: {}", self.next)
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
    let (map_text, map, state) = match source {
        Source::Map(m) => from_map(m)?,
        Source::Scenario(path) => from_scenario(path)?,
    };
    let hash = empires_ruleset::create::create_dir(dir, &map_text, &map, &state)?;
    Ok(NewReport {
        dir: dir.to_path_buf(),
        next: format!(
            "put turnsheets in {}/<CODE>.txt and run `empires turn {}`",
            dir.join(gamedir::ORDERS_DIR).display(),
            dir.display()
        ),
        state,
        hash,
    })
}

/// Creates a game where `at` says: a directory, or a game of that name in a database.
pub fn run_at(at: &GameAt, source: &Source) -> Result<NewReport> {
    let (url, name) = match at {
        GameAt::Dir(dir) => return run(dir, source),
        GameAt::Db { url, name } => (url, name),
    };
    let (map_text, map, state) = match source {
        Source::Map(m) => from_map(m)?,
        Source::Scenario(path) => from_scenario(path)?,
    };
    let store = hosted::create_db(url)?;
    hosted::block_on(store.create(&empires_ruleset::ruleset::NewGame {
        name,
        map_text: &map_text,
        map: &map,
        state: &state,
        created_at: super::now()?,
    }))?;
    let hash = empires_host::gamedir::sha256_hex(
        empires_host::gamedir::to_pretty_json(&state, "state")?.as_bytes(),
    );
    Ok(NewReport {
        dir: PathBuf::from(store.describe(name)),
        next: format!(
            "send turnsheets with `empires submit {name} --db {} --empire <CODE> <FILE>` and run \
             `empires turn {name} --db {}`",
            store.url(),
            store.url()
        ),
        state,
        hash,
    })
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
    let map = empires_ruleset::gamedir::parse_map(&map_text, &file)?;
    let setup = NewGame {
        name: m.name.clone().unwrap_or_else(|| map.name.clone()),
        variant: m.variant.or(map.variant).unwrap_or(Variant::World),
        seed: m.seed,
        players,
        options,
    };
    let state = empires_ruleset::create::start(&map, &file, &setup)?;
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
    let map = empires_ruleset::gamedir::parse_map(&map_text, &map_path.display().to_string())?;
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

/// `empires new --ruleset ID`: a game of a ruleset other than Empires, named `name` (by
/// default the directory's or the database game's), from `seed` (by default 1), on `map`
/// (by default the ruleset's standard map), with the `seats` in play (by default all) and
/// the game's `options`, each `ID=VALUE` (the others take their defaults).
pub fn other_ruleset(
    ruleset: &str,
    at: &GameAt,
    (name, seed, map): (Option<String>, Option<u64>, Option<&Path>),
    (seats, options): (Vec<String>, Vec<String>),
) -> Result<String> {
    let ruleset = empires_host::ruleset::by_id(ruleset)?;
    let options = options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((id, value)) if !id.trim().is_empty() => {
                Ok((id.trim().to_string(), value.trim().to_string()))
            }
            _ => Err(Error::new(format!(
                "--option {o}: expected ID=VALUE; {}'s options: {}",
                ruleset.title(),
                ruleset.new_game_form().describe_options()
            ))),
        })
        .collect::<Result<_>>()?;
    let map = map
        .map(|p| std::fs::read_to_string(p).map_err(|e| Error::io("cannot read", p, e)))
        .transpose()?;
    let key = match at {
        GameAt::Dir(dir) => dir.file_name().map_or_else(
            || dir.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        GameAt::Db { name, .. } => name.clone(),
    };
    let setup = empires_host::ruleset::Setup {
        name: name.unwrap_or(key),
        seed: seed.unwrap_or(1),
        map,
        seats: seats
            .iter()
            .map(|s| s.trim().to_ascii_uppercase())
            .collect(),
        options,
        ..Default::default()
    };
    hosted::create(ruleset, at, &setup)
}

/// `empires rulesets`: every game the program runs, with what `empires new` chooses for it.
pub fn rulesets() -> String {
    let mut out = String::new();
    for r in empires_host::ruleset::all() {
        let form = r.new_game_form();
        out.push_str(&format!("{} ({})\n", r.id(), r.title()));
        if !form.maps.is_empty() {
            out.push_str(&format!(
                "  maps: {} (the first is the default)\n",
                form.maps.join(", ")
            ));
        }
        if !form.variants.is_empty() {
            out.push_str(&format!("  rules: {}\n", form.variants.join(", ")));
        }
        for o in &form.options {
            out.push_str(&format!(
                "  option {} (default {}): {}\n",
                o.id, o.default, o.label
            ));
        }
    }
    out
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
