//! A game of Napoleonic Empires kept in a directory of plain files, the second ruleset the
//! host runs. The layout follows an Empires game's, so a GM finds the same things in the
//! same places:
//!
//! ```text
//! game.toml              ruleset = "napoleonic" and the game's name
//! map.toml               the map the game is played on (a copy: it never changes)
//! orders/FRA.txt         the order sheets sent for the next turn
//! turns/0001/            the starting position: state.json, state.sha256, sheets/
//! turns/0002/            after turn 1: the state, events.json, the orders it took,
//!                        every kingdom's report (json, txt, html) and its next sheet
//! ```
//!
//! A turn is written into `turns/NNNN.tmp/`, flushed, and renamed: it exists whole or not
//! at all, as an Empires turn does.

use crate::error::{Error, Result};
use crate::files;
use crate::gamedir::{sha256_hex, turn_name};
use napoleonic_orders::{Code, Diagnostic, ParsedSheet};
use napoleonic_report::draw::{MapDrawer, options};
use napoleonic_rules::event::{Event, What};
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::{GameState, KingdomCode, KingdomOrders, Map, play};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

pub const RULESET: &str = "napoleonic";
const GAME_FILE: &str = "game.toml";
const MAP_FILE: &str = "map.toml";
const STATE_FILE: &str = "state.json";
const HASH_FILE: &str = "state.sha256";
const EVENTS_FILE: &str = "events.json";
const ORDERS_DIR: &str = "orders";
const TURNS_DIR: &str = "turns";
const REPORTS_DIR: &str = "reports";
const SHEETS_DIR: &str = "sheets";

/// `game.toml`: which ruleset, and the game's name.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameFile {
    ruleset: String,
    name: String,
}

/// A Napoleonic game directory.
pub struct NapoleonicGame {
    root: PathBuf,
    pub name: String,
    pub map: Map,
}

/// What playing a turn did.
#[derive(Debug, Clone)]
pub struct Played {
    pub turn: u32,
    pub events: usize,
    pub failed: usize,
    /// Kingdoms whose sheets were used, and living kingdoms that sent none.
    pub orders_from: Vec<KingdomCode>,
    pub no_orders: Vec<KingdomCode>,
    /// Sheets not used, and why (a header naming another kingdom or turn).
    pub refused: Vec<String>,
    pub written_to: PathBuf,
}

/// Whether `root` holds a Napoleonic game (so a command can tell the two rulesets apart).
pub fn is_napoleonic(root: &Path) -> bool {
    fs::read_to_string(root.join(GAME_FILE))
        .ok()
        .and_then(|t| toml::from_str::<GameFile>(&t).ok())
        .is_some_and(|g| g.ruleset == RULESET)
}

impl NapoleonicGame {
    /// Creates a game in `root` (missing or empty) on `map_text` (the standard map when
    /// `None`), with the kingdoms named (all the map's when empty).
    pub fn create(
        root: &Path,
        name: &str,
        map_text: Option<&str>,
        seed: u64,
        kingdoms: Vec<KingdomCode>,
    ) -> Result<NapoleonicGame> {
        let text = map_text.unwrap_or(napoleonic_rules::standard::EUROPE_TOML);
        let map = Map::parse(text)
            .map_err(|e| Error::new(format!("the map cannot be used:\n  {}", e.join("\n  "))))?;
        let mut options = NewGame::standard(seed);
        options.kingdoms = kingdoms;
        let roster = napoleonic_rules::mapcheck::roster_problems(&map, &options.tables);
        if !roster.is_empty() {
            return Err(Error::new(format!(
                "the map's troops are not in the roster:\n  {}",
                roster.join("\n  ")
            )));
        }
        let state = new_game(&map, &options).map_err(Error::new)?;
        if root.exists() && !crate::gamedir::dir_is_empty(root)? {
            return Err(Error::new(format!(
                "{} exists and is not empty: a new game needs a directory of its own",
                root.display()
            )));
        }
        fs::create_dir_all(root.join(ORDERS_DIR))
            .map_err(|e| Error::io("cannot create", root, e))?;
        fs::create_dir_all(root.join(TURNS_DIR))
            .map_err(|e| Error::io("cannot create", root, e))?;
        let game = GameFile {
            ruleset: RULESET.to_string(),
            name: name.to_string(),
        };
        let game_toml = toml::to_string(&game).map_err(|e| Error::new(e.to_string()))?;
        files::write_atomic(&root.join(MAP_FILE), text.as_bytes())?;
        files::write_atomic(&root.join(GAME_FILE), game_toml.as_bytes())?;
        let g = NapoleonicGame {
            root: root.to_path_buf(),
            name: name.to_string(),
            map,
        };
        let mut turn = TurnWrite::new(&g, 1)?;
        turn.state(&state)?;
        turn.sheets(&g, &state)?;
        turn.commit()?;
        Ok(g)
    }

    pub fn open(root: &Path) -> Result<NapoleonicGame> {
        let game_path = root.join(GAME_FILE);
        let text = files::read_text_in_game(&game_path, files::MAX_SMALL_BYTES)?;
        let game: GameFile = toml::from_str(&text)
            .map_err(|e| Error::new(format!("{}: {e}", game_path.display())))?;
        if game.ruleset != RULESET {
            return Err(Error::new(format!(
                "{} is a game of {}, not of Napoleonic Empires",
                root.display(),
                game.ruleset
            )));
        }
        let map_path = root.join(MAP_FILE);
        let map_text = files::read_text_in_game(&map_path, files::MAX_MAP_BYTES)?;
        let map = Map::parse(&map_text)
            .map_err(|e| Error::new(format!("{}:\n  {}", map_path.display(), e.join("\n  "))))?;
        Ok(NapoleonicGame {
            root: root.to_path_buf(),
            name: game.name,
            map,
        })
    }

    fn turn_dir(&self, turn: u32) -> PathBuf {
        self.root.join(TURNS_DIR).join(turn_name(turn))
    }

    /// The latest turn directory: the state of the turn to be played next.
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

    /// The state at the start of `turn`, checked against its recorded hash.
    pub fn state(&self, turn: u32) -> Result<GameState> {
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
        serde_json::from_str(&text).map_err(|e| Error::new(format!("{}: {e}", path.display())))
    }

    /// The printed order sheet of a kingdom for the next turn.
    pub fn sheet(&self, kingdom: &KingdomCode) -> Result<String> {
        let turn = self.current_turn()?;
        let state = self.state(turn)?;
        self.living(&state, kingdom)?;
        Ok(napoleonic_orders::sheet::order_sheet(
            &self.name, &self.map, &state, kingdom,
        ))
    }

    fn living(&self, state: &GameState, kingdom: &KingdomCode) -> Result<()> {
        match state.kingdoms.get(kingdom) {
            Some(k) if k.alive && !k.independent => Ok(()),
            Some(_) => Err(Error::new(format!("{kingdom} is no longer in the game"))),
            None => Err(Error::new(format!(
                "no kingdom {kingdom} in this game; the kingdoms are {}",
                state
                    .kingdoms
                    .values()
                    .filter(|k| !k.independent)
                    .map(|k| k.code.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ))),
        }
    }

    /// Reads and checks a sheet for the next turn: the diagnostics, and the dry run of its
    /// movement phase by phase.
    pub fn check(&self, kingdom: &KingdomCode, text: &str) -> Result<Checked> {
        let turn = self.current_turn()?;
        let state = self.state(turn)?;
        self.living(&state, kingdom)?;
        let sheet = napoleonic_orders::parse(&self.map, text);
        let diagnostics = napoleonic_orders::check::check_sheet(&self.map, &state, kingdom, &sheet);
        let dry_run = napoleonic_orders::dryrun::dry_run(&self.map, &state, kingdom, &sheet.orders)
            .map_err(|e| Error::new(e.to_string()))?;
        Ok(Checked {
            sheet,
            diagnostics,
            dry_run,
        })
    }

    /// Plays the next turn with the sheets in `orders/`.
    pub fn play(&self) -> Result<Played> {
        let lock = crate::gamedir::GameDir::at(&self.root).lock()?;
        let turn = self.current_turn()?;
        let state = self.state(turn)?;
        let mut orders: BTreeMap<KingdomCode, KingdomOrders> = BTreeMap::new();
        let mut taken: Vec<(PathBuf, String)> = Vec::new();
        let mut refused = Vec::new();
        for entry in files::read_dir_sorted(&self.root.join(ORDERS_DIR))? {
            let path = entry.path();
            let Some(code) = sheet_kingdom(&path) else {
                refused.push(format!("{}: not named KINGDOM.txt", path.display()));
                continue;
            };
            if self.living(&state, &code).is_err() {
                refused.push(format!(
                    "{}: {code} is not a kingdom in play",
                    path.display()
                ));
                continue;
            }
            let text = match files::read_text_in_game(&path, 1 << 20) {
                Ok(t) => t,
                Err(e) => {
                    refused.push(e.to_string());
                    continue;
                }
            };
            let sheet = napoleonic_orders::parse(&self.map, &text);
            let header = header_problems(&self.map, &state, &sheet, &code);
            if let Some(d) = header.first() {
                refused.push(format!("{}: {}", path.display(), d.message));
                continue;
            }
            orders.insert(code, sheet.orders);
            let name = entry.file_name().to_string_lossy().into_owned();
            taken.push((path, name));
        }
        let outcome = play(&self.map, &state, &orders).map_err(|e| Error::new(e.to_string()))?;
        let next = turn + 1;
        let mut write = TurnWrite::new(self, next)?;
        write.state(&outcome.state)?;
        write.events(&outcome.events)?;
        write.reports(self, &outcome.state, &outcome.events)?;
        write.sheets(self, &outcome.state)?;
        write.take_orders(&taken)?;
        let written_to = write.commit()?;
        drop(lock);
        let failed = outcome
            .events
            .iter()
            .filter(|e| matches!(e.what, What::OrderFailed { .. }))
            .count();
        let no_orders = state
            .kingdoms
            .values()
            .filter(|k| k.alive && !k.independent && !orders.contains_key(&k.code))
            .map(|k| k.code.clone())
            .collect();
        Ok(Played {
            turn,
            events: outcome.events.len(),
            failed,
            orders_from: orders.keys().cloned().collect(),
            no_orders,
            refused,
            written_to,
        })
    }

    /// A kingdom's report of a played turn, as `json`, `txt` or `html`.
    pub fn report(&self, kingdom: &KingdomCode, turn: u32, format: &str) -> Result<String> {
        let path = self
            .turn_dir(turn + 1)
            .join(REPORTS_DIR)
            .join(format!("{kingdom}.{format}"));
        files::read_text_in_game(&path, files::MAX_STATE_BYTES)
    }
}

/// A checked sheet.
pub struct Checked {
    pub sheet: ParsedSheet,
    pub diagnostics: Vec<Diagnostic>,
    pub dry_run: napoleonic_orders::dryrun::DryRun,
}

/// A sheet's header must name the kingdom it is filed for and the turn to be played: the
/// checker's header diagnostics, the only ones that keep a sheet out of a turn.
fn header_problems(
    map: &Map,
    state: &GameState,
    sheet: &ParsedSheet,
    kingdom: &KingdomCode,
) -> Vec<Diagnostic> {
    napoleonic_orders::check::check_sheet(map, state, kingdom, sheet)
        .into_iter()
        .filter(|d| matches!(d.code, Code::WrongKingdom | Code::WrongTurn))
        .collect()
}

/// `orders/FRA.txt` → FRA.
fn sheet_kingdom(path: &Path) -> Option<KingdomCode> {
    if path.extension()? != "txt" {
        return None;
    }
    KingdomCode::new(path.file_stem()?.to_str()?).ok()
}

/// A turn directory being written: `turns/NNNN.tmp/`, renamed whole when done.
struct TurnWrite {
    tmp: PathBuf,
    target: PathBuf,
    /// The sheets copied into the turn, removed from `orders/` once it is committed.
    taken: Vec<PathBuf>,
}

impl TurnWrite {
    fn new(game: &NapoleonicGame, turn: u32) -> Result<TurnWrite> {
        let target = game.turn_dir(turn);
        if target.exists() {
            return Err(Error::new(format!(
                "{} exists already: the turn was played",
                target.display()
            )));
        }
        let tmp = game
            .root
            .join(TURNS_DIR)
            .join(format!("{}.tmp", turn_name(turn)));
        if tmp.exists() {
            // A turn interrupted before its rename: nothing of it counts.
            fs::remove_dir_all(&tmp).map_err(|e| Error::io("cannot remove", &tmp, e))?;
        }
        fs::create_dir(&tmp).map_err(|e| Error::io("cannot create", &tmp, e))?;
        Ok(TurnWrite {
            tmp,
            target,
            taken: Vec::new(),
        })
    }

    fn state(&mut self, state: &GameState) -> Result<()> {
        let json = crate::gamedir::to_pretty_json(state, STATE_FILE)?;
        files::write_new_unsynced(&self.tmp.join(STATE_FILE), json.as_bytes())?;
        let hash = format!("{}\n", sha256_hex(json.as_bytes()));
        files::write_new_unsynced(&self.tmp.join(HASH_FILE), hash.as_bytes())
    }

    fn events(&mut self, events: &[Event]) -> Result<()> {
        let json = crate::gamedir::to_pretty_json(&events, EVENTS_FILE)?;
        files::write_new_unsynced(&self.tmp.join(EVENTS_FILE), json.as_bytes())
    }

    fn dir(&self, name: &str) -> Result<PathBuf> {
        let d = self.tmp.join(name);
        if !d.exists() {
            fs::create_dir(&d).map_err(|e| Error::io("cannot create", &d, e))?;
        }
        Ok(d)
    }

    /// Every kingdom's report of the turn just played: JSON, text and HTML with the map.
    fn reports(
        &mut self,
        game: &NapoleonicGame,
        state: &GameState,
        events: &[Event],
    ) -> Result<()> {
        let dir = self.dir(REPORTS_DIR)?;
        let drawer = MapDrawer::new(&game.map, &options()).map_err(Error::new)?;
        for k in state.kingdoms.values().filter(|k| !k.independent) {
            let r = napoleonic_report::report(&game.map, state, events, &k.code, None);
            let svg = drawer.svg(&game.map, &r);
            let parts = [
                ("json", napoleonic_report::model::to_json(&r)),
                ("txt", napoleonic_report::text::text(&r)),
                ("html", napoleonic_report::html::html(&r, Some(&svg))),
            ];
            for (ext, body) in parts {
                files::write_new_unsynced(&dir.join(format!("{}.{ext}", k.code)), body.as_bytes())?;
            }
        }
        Ok(())
    }

    /// Every living kingdom's order sheet for the turn that follows.
    fn sheets(&mut self, game: &NapoleonicGame, state: &GameState) -> Result<()> {
        let dir = self.dir(SHEETS_DIR)?;
        for k in state
            .kingdoms
            .values()
            .filter(|k| k.alive && !k.independent)
        {
            let sheet =
                napoleonic_orders::sheet::order_sheet(&game.name, &game.map, state, &k.code);
            files::write_new_unsynced(&dir.join(format!("{}.txt", k.code)), sheet.as_bytes())?;
        }
        Ok(())
    }

    /// Moves the sheets the turn used into it, so `orders/` is empty for the next.
    fn take_orders(&mut self, taken: &[(PathBuf, String)]) -> Result<()> {
        let dir = self.dir(ORDERS_DIR)?;
        for (from, name) in taken {
            fs::copy(from, dir.join(name)).map_err(|e| Error::io("cannot copy", from, e))?;
        }
        self.taken = taken.iter().map(|(p, _)| p.clone()).collect();
        Ok(())
    }

    fn commit(self) -> Result<PathBuf> {
        files::flush_tree(&self.tmp)?;
        fs::rename(&self.tmp, &self.target)
            .map_err(|e| Error::io("cannot rename", &self.tmp, e))?;
        if let Some(parent) = self.target.parent() {
            files::sync_dir(parent);
        }
        // The sheets are in the turn now; removing them from `orders/` comes after the
        // commit, so a crash leaves them in both places rather than in neither.
        for p in &self.taken {
            let _ = fs::remove_file(p);
        }
        Ok(self.target)
    }
}
