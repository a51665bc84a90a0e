//! `empires napoleonic ...`: a game of Napoleonic Empires in a directory, run by a GM from
//! the command line: create it, print each kingdom's order sheet, check a sheet with its
//! per-phase dry run, play the turn, and read the reports.

use crate::error::{Error, Result};
use empires_host::gamefiles::GameFiles;
use empires_host::ruleset::{self, Setup};
use napoleonic_rules::KingdomCode;
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
        /// A map file (TOML, `docs/napoleonic/maps.md`) instead of the standard map.
        #[arg(long)]
        map: Option<PathBuf>,
    },
    /// Print a kingdom's order sheet for the next turn.
    Sheet {
        dir: PathBuf,
        #[arg(value_parser = parse_kingdom)]
        kingdom: KingdomCode,
    },
    /// Check an order sheet and show its dry run, phase by phase.
    Check {
        dir: PathBuf,
        #[arg(value_parser = parse_kingdom)]
        kingdom: KingdomCode,
        sheet: PathBuf,
    },
    /// Play the next turn with the sheets in <dir>/orders/ (named KINGDOM.txt).
    Turn { dir: PathBuf },
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
    },
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
            map,
        } => {
            let map_text = map
                .as_deref()
                .map(|p| {
                    std::fs::read_to_string(p)
                        .map_err(|e| Error::new(format!("cannot read {}: {e}", p.display())))
                })
                .transpose()?;
            let name = name.unwrap_or_else(|| dir_name(&dir));
            let setup = Setup {
                name: name.clone(),
                seed,
                map: map_text,
                seats: kingdoms.iter().map(|k| k.to_string()).collect(),
            };
            let game = GameFiles::create(&dir, ruleset::by_id(RULESET)?, &setup)?;
            let playing: Vec<String> = game.seats()?.into_iter().map(|s| s.code).collect();
            Ok((
                format!(
                    "created the Napoleonic Empires game \"{name}\" in {}: {} kingdoms ({}); \
                     order sheets are in turns/0001/sheets/, and sheets go in orders/KINGDOM.txt",
                    dir.display(),
                    playing.len(),
                    playing.join(" ")
                ),
                false,
            ))
        }
        NapoleonicCommand::Sheet { dir, kingdom } => {
            Ok((open(&dir)?.sheet(kingdom.as_str())?, false))
        }
        NapoleonicCommand::Check {
            dir,
            kingdom,
            sheet,
        } => {
            let game = open(&dir)?;
            let text = std::fs::read_to_string(&sheet)
                .map_err(|e| Error::new(format!("cannot read {}: {e}", sheet.display())))?;
            let checked = game.check(kingdom.as_str(), &sheet.display().to_string(), &text)?;
            Ok((checked.text, checked.errors > 0))
        }
        NapoleonicCommand::Turn { dir } => {
            let game = open(&dir)?;
            let p = game.play()?;
            let list = |v: &[String]| {
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.join(" ")
                }
            };
            let mut out = format!(
                "turn {} of \"{}\" played: {} events, {} failed orders\n\
                 orders from: {}; no orders from: {}\nwritten to {}",
                p.turn,
                game.name,
                p.events,
                p.failed,
                list(&p.orders_from),
                list(&p.no_orders),
                p.written_to.display()
            );
            for r in &p.notes {
                let _ = write!(out, "\nnot used: {r}");
            }
            Ok((out, false))
        }
        NapoleonicCommand::Report {
            dir,
            kingdom,
            turn,
            format,
        } => {
            let game = open(&dir)?;
            let latest = game.current_turn()?.saturating_sub(1);
            if latest == 0 {
                return Err(Error::new(
                    "no turn has been played yet: the order sheets are in turns/0001/sheets/",
                ));
            }
            let turn = turn.unwrap_or(latest);
            Ok((game.report(turn, &format!("{kingdom}.{format}"))?, false))
        }
    }
}

const RULESET: &str = "napoleonic";

fn open(dir: &Path) -> Result<GameFiles> {
    GameFiles::open(dir, Some(RULESET))
}

fn dir_name(dir: &Path) -> String {
    dir.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("Napoleonic Empires")
        .to_string()
}
