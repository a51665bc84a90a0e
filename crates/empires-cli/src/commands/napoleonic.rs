//! `empires napoleonic ...`: a game of Napoleonic Empires in a directory, or with `--db` in
//! the host's database, run by a GM from the command line: create it, print each kingdom's
//! order sheet, check a sheet with its per-phase dry run, play the turn, and read the
//! reports; and whole games played by computer players (`simulate`).

use super::hosted;
use crate::error::{Error, Result};
use empires_host::gamefiles::GameFiles;
use empires_host::ruleset::HostedGame;
use empires_host::ruleset::{self, Setup};
use empires_host::store::Store;
use empires_host::store::sql::SqlStore;
use napoleonic_ai::Style;
use napoleonic_ai::sim::{Simulation, simulate};
use napoleonic_rules::{KingdomCode, Map};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Subcommand)]
pub enum NapoleonicCommand {
    /// Create a game directory on the standard map of Europe (or a map file).
    New {
        dir: PathBuf,
        /// Seed of the game's random generator.
        #[arg(long, default_value_t = 1805)]
        seed: u64,
        /// The game's name; defaults to the directory's.
        #[arg(long)]
        name: Option<String>,
        /// A kingdom in play; repeat for each. Default: every kingdom of the map.
        #[arg(long = "kingdom", value_parser = parse_kingdom)]
        kingdoms: Vec<KingdomCode>,
        /// A kingdom whose ruler starts as Royalty (2.10, the GM's fee paid); repeat for
        /// each. The others start as Commoners; the GM changes a status later with a
        /// ruling (`ROYALTY FRA`, `empires submit --rulings`).
        #[arg(long = "royalty", value_parser = parse_kingdom)]
        royalty: Vec<KingdomCode>,
        /// A map file (TOML, `docs/napoleonic/maps.md`) instead of the standard map.
        #[arg(long)]
        map: Option<PathBuf>,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Print a kingdom's order sheet for the next turn.
    Sheet {
        dir: PathBuf,
        #[arg(value_parser = parse_kingdom)]
        kingdom: KingdomCode,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Check an order sheet and show its dry run, phase by phase.
    Check {
        dir: PathBuf,
        #[arg(value_parser = parse_kingdom)]
        kingdom: KingdomCode,
        sheet: PathBuf,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Play the next turn with the sheets in <dir>/orders/ (named KINGDOM.txt), or with
    /// --db the sheets sent to the database (`empires submit --empire KINGDOM --db`).
    Turn {
        dir: PathBuf,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Print a kingdom's report of a played turn (the latest by default).
    Report {
        dir: PathBuf,
        #[arg(value_parser = parse_kingdom)]
        kingdom: KingdomCode,
        #[arg(long)]
        turn: Option<u32>,
        /// txt, json or html.
        #[arg(long, default_value = "txt", value_parser = ["txt", "json", "html"])]
        format: String,
        /// Keep the game in this database (sqlite:<file> or postgres://...) under the name
        /// given in place of the directory.
        #[arg(long, value_name = "URL")]
        db: Option<String>,
    },
    /// Play a whole game with computer players, every kingdom a conqueror unless told
    /// otherwise, until a victory or the turn limit, and print how it went.
    Simulate {
        /// Seed of the game's random generator.
        #[arg(long, default_value_t = 1805)]
        seed: u64,
        /// The most turns to play.
        #[arg(long, default_value_t = 100)]
        turns: u32,
        /// The share of the map's provinces that wins, in percent (G5); 0 leaves victory to
        /// the GM. Default: the game's setting.
        #[arg(long)]
        victory: Option<u32>,
        /// A kingdom played in another style, as KINGDOM=caretaker or KINGDOM=conqueror;
        /// repeat for each.
        #[arg(long = "style", value_parser = parse_style)]
        styles: Vec<(KingdomCode, Style)>,
        /// A kingdom in play; repeat for each. Default: every kingdom of the map.
        #[arg(long = "kingdom", value_parser = parse_kingdom)]
        kingdoms: Vec<KingdomCode>,
        /// A kingdom whose ruler starts as Royalty (2.10); repeat for each, or `ALL`.
        #[arg(long = "royalty", value_parser = parse_kingdom)]
        royalty: Vec<KingdomCode>,
        /// A map file (TOML, `docs/napoleonic/maps.md`) instead of the standard map.
        #[arg(long)]
        map: Option<PathBuf>,
        /// Print the whole result as JSON (every turn's figures) rather than the summary.
        #[arg(long)]
        json: bool,
        /// Play this many games, seeds SEED, SEED+1, ..., and print one line of figures a
        /// game (turns, winner, battles, sea battles, landings, leaders hired, gold spent)
        /// with their totals, in place of one game's summary.
        #[arg(long, value_name = "N")]
        seeds: Option<u32>,
    },
}

fn parse_style(s: &str) -> std::result::Result<(KingdomCode, Style), String> {
    let (k, style) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?}: expected KINGDOM=caretaker or KINGDOM=conqueror"))?;
    let style = match style.trim().to_ascii_lowercase().as_str() {
        "caretaker" => Style::Caretaker,
        "conqueror" => Style::Conqueror,
        other => return Err(format!("{other:?}: the styles are caretaker and conqueror")),
    };
    Ok((parse_kingdom(k.trim())?, style))
}

fn read_map(path: &Path) -> Result<String> {
    std::fs::read_to_string(path)
        .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display())))
}

fn parse_kingdom(s: &str) -> std::result::Result<KingdomCode, String> {
    KingdomCode::new(&s.to_ascii_uppercase())
}

/// Runs a command; the text to print, and whether it found errors (a sheet with errors).
pub fn run(command: NapoleonicCommand) -> Result<(String, bool)> {
    match command {
        NapoleonicCommand::New {
            dir,
            seed,
            name,
            kingdoms,
            royalty,
            map,
            db,
        } => {
            let mut options = std::collections::BTreeMap::new();
            if !royalty.is_empty() {
                let codes: Vec<&str> = royalty.iter().map(KingdomCode::as_str).collect();
                options.insert(napoleonic_host::ROYALTY_OPTION.to_string(), codes.join(","));
            }
            let setup = Setup {
                name: name.unwrap_or_else(|| dir_name(&dir)),
                seed,
                map: map.as_deref().map(read_map).transpose()?,
                seats: kingdoms.iter().map(|k| k.to_string()).collect(),
                options,
                ..Default::default()
            };
            let at = hosted::GameAt::new(&dir, db.as_deref());
            Ok((
                hosted::create(ruleset::by_id(RULESET)?, &at, &setup)?,
                false,
            ))
        }
        NapoleonicCommand::Sheet { dir, kingdom, db } => match db {
            Some(url) => {
                let (_, g) = hosted_game(&url, &dir)?;
                Ok((g.ruleset.sheet(g.text(), kingdom.as_str())?, false))
            }
            None => Ok((open(&dir)?.sheet(kingdom.as_str())?, false)),
        },
        NapoleonicCommand::Check {
            dir,
            kingdom,
            sheet,
            db,
        } => {
            let text = std::fs::read_to_string(&sheet)
                .map_err(|e| Error::new(format!("cannot read {}: {e}", sheet.display())))?;
            let file = sheet.display().to_string();
            let checked = match db {
                Some(url) => {
                    let (_, g) = hosted_game(&url, &dir)?;
                    g.ruleset.check(g.text(), kingdom.as_str(), &file, &text)?
                }
                None => open(&dir)?.check(kingdom.as_str(), &file, &text)?,
            };
            Ok((checked.text(), checked.errors > 0))
        }
        NapoleonicCommand::Turn { dir, db: Some(url) } => {
            let store = hosted::open_db(&url)?;
            let options = empires_host::turn::TurnOptions {
                yes: true,
                ..Default::default()
            };
            let played =
                hosted::block_on(store.play_game_turn(&name_of(&dir), options, super::now()?))?;
            Ok((played.to_string(), false))
        }
        NapoleonicCommand::Turn { dir, db: None } => {
            let game = open(&dir)?;
            // A directory game has no deadline: the GM plays it when the sheets are in.
            let p = game.play(empires_host::turn::TurnOptions {
                yes: true,
                ..Default::default()
            })?;
            let mut out = p.to_string();
            for r in &p.warnings {
                let _ = write!(out, "\nnote: {r}");
            }
            Ok((out, false))
        }
        NapoleonicCommand::Report {
            dir,
            kingdom,
            turn,
            format,
            db,
        } => {
            let at = hosted::GameAt::new(&dir, db.as_deref());
            let seat = kingdom
                .as_str()
                .parse()
                .map_err(|e| Error::new(format!("{kingdom}: {e}")))?;
            Ok((hosted::report(&at, seat, turn, &format)?, false))
        }
        NapoleonicCommand::Simulate {
            seed,
            turns,
            victory,
            styles,
            kingdoms,
            royalty,
            map,
            json,
            seeds,
        } => {
            let map = match map {
                Some(path) => Map::parse(&read_map(&path)?).map_err(|e| {
                    Error::new(format!(
                        "{} cannot be used:\n  {}",
                        path.display(),
                        e.join("\n  ")
                    ))
                })?,
                None => napoleonic_rules::standard::europe(),
            };
            let mut setup = Simulation::new(seed, turns);
            // `--royalty ALL`: every kingdom in play starts as Royalty.
            setup.game.royalty = if royalty.iter().any(|k| k.as_str() == "ALL") {
                if kingdoms.is_empty() {
                    map.kingdoms.iter().map(|k| k.code.clone()).collect()
                } else {
                    kingdoms.clone()
                }
            } else {
                royalty
            };
            setup.game.kingdoms = kingdoms;
            if let Some(percent) = victory {
                setup.game.settings.victory_province_percent = percent;
            }
            setup.styles.kingdoms.extend(styles);
            if let Some(n) = seeds {
                return Ok((many_games(&map, &setup, n), false));
            }
            let result = simulate(&map, &setup);
            if result.turns == 0
                && let Some(why) = &result.stopped
            {
                return Err(Error::new(why.clone()));
            }
            let text = if json {
                serde_json::to_string_pretty(&result).map_err(|e| Error::new(e.to_string()))?
            } else {
                result.summary()
            };
            Ok((text, false))
        }
    }
}

const RULESET: &str = "napoleonic";

/// `simulate --seeds N`: N games from `setup`'s seed on, one line of figures each, then
/// the totals and how many games saw each thing. No clock enters it.
fn many_games(map: &Map, setup: &Simulation, n: u32) -> String {
    let mut out = String::from(
        " seed  turns  winner        battles  at sea  landings  leaders  gold spent\n",
    );
    let (mut sea_games, mut landing_games, mut leader_games) = (0, 0, 0);
    let mut all = napoleonic_ai::sim::Totals::default();
    for i in 0..n {
        let mut one = setup.clone();
        one.game.seed = setup.game.seed + u64::from(i);
        let r = simulate(map, &one);
        let t = r.totals();
        let winner = r.winner.as_ref().map_or_else(
            || {
                r.stopped
                    .as_ref()
                    .map_or("-".to_string(), |_| "stopped".to_string())
            },
            |v| {
                v.kingdoms
                    .iter()
                    .map(|k| k.as_str())
                    .collect::<Vec<_>>()
                    .join("+")
            },
        );
        let _ = writeln!(
            out,
            "{:>5}  {:>5}  {winner:<12}  {:>7}  {:>6}  {:>8}  {:>7}  {:>10}",
            one.game.seed,
            r.turns,
            t.battles,
            t.sea_battles,
            t.landings,
            t.leaders_hired,
            t.gold_spent.truncated()
        );
        sea_games += u32::from(t.sea_battles > 0);
        landing_games += u32::from(t.landings > 0);
        leader_games += u32::from(t.leaders_hired > 0);
        all += t;
    }
    let _ = writeln!(
        out,
        "\n{n} games: {} battles, {} at sea (in {sea_games} games), {} landings (in \
         {landing_games}), {} leaders hired (in {leader_games}), {} gold spent",
        all.battles,
        all.sea_battles,
        all.landings,
        all.leaders_hired,
        all.gold_spent.truncated()
    );
    out
}

/// The game's name in a database, given where a directory would be.
fn name_of(game: &Path) -> String {
    game.to_string_lossy().into_owned()
}

/// A Napoleonic game kept in a database, as texts.
fn hosted_game(url: &str, game: &Path) -> Result<(SqlStore, HostedGame)> {
    let store = hosted::open_db(url)?;
    let g = hosted::block_on(store.read_hosted(&name_of(game)))?;
    if g.ruleset.id() != RULESET {
        return Err(Error::new(format!(
            "{} is a game of {}, not of Napoleonic Empires",
            store.describe(&g.name),
            g.ruleset.title()
        )));
    }
    Ok((store, g))
}

/// `empires napoleonic new NAME --db URL`: the game kept in a database, for the host's doors.
fn open(dir: &Path) -> Result<GameFiles> {
    GameFiles::open(dir, Some(RULESET))
}

fn dir_name(dir: &Path) -> String {
    dir.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("Napoleonic Empires")
        .to_string()
}
