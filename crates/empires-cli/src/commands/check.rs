//! `empires check`: reads a turnsheet, points at every mistake, and forecasts the turn as if
//! no other empire acted, on what the empire can see of the game.

use crate::error::{Error, Result};
use crate::files;
use empires_orders::text::{self, MAX_SHEET_BYTES};
use empires_report::Report;
use empires_report::known::state_from_report;
use empires_rules::{EmpireCode, GameState, Map};
pub use empires_ruleset::check::{CheckReport, Format, Supply, SupplyArea, check_text};
use empires_ruleset::gamedir::Game;
use std::path::Path;

/// Checks `orders` for `empire` against the game in `dir`.
pub fn run(dir: &Path, empire: EmpireCode, orders: &Path, format: Format) -> Result<CheckReport> {
    let game = Game::load(dir)?;
    crate::commands::map::known_empire(&game.state, empire)?;
    check_on(&game.map, &game.state, empire, orders, format)
}

/// Checks `orders` for `empire` against a game wherever it is kept.
pub fn run_at(
    at: &crate::commands::hosted::GameAt,
    empire: EmpireCode,
    orders: &Path,
    format: Format,
) -> Result<CheckReport> {
    if let crate::commands::hosted::GameAt::Dir(dir) = at {
        return run(dir, empire, orders, format);
    }
    let (map, state, _) = crate::commands::hosted::load(at)?;
    crate::commands::map::known_empire(&state, empire)?;
    check_on(&map, &state, empire, orders, format)
}

/// Checks `orders` on the game as the player's own report shows it: for a player with no
/// copy of the game, which holds every empire's secrets. The map is a standard map of the
/// report's map name, or `map`.
pub fn run_from_report(
    report: &Path,
    map: Option<&Path>,
    orders: &Path,
    format: Format,
) -> Result<CheckReport> {
    let text = crate::files::read_text_in_game(report, crate::files::MAX_SMALL_BYTES * 16)?;
    let r: Report = serde_json::from_str(&text).map_err(|e| {
        Error::new(format!(
            "{}: not a report as `empires report --format json` writes one: {e}",
            report.display()
        ))
    })?;
    // A report kept with its turn leaves the parts every empire shares to the turn's
    // public.json beside it.
    let public = match &r.shared_in {
        Some(name) => {
            let path = report.with_file_name(name);
            Some(crate::files::read_text_in_game(&path, crate::files::MAX_STATE_BYTES).map_err(
                |_| {
                    Error::new(format!(
                        "{}: the report's shared parts are in {name} beside it, which cannot be read; \
                         `empires report --format json` gives the whole report",
                        report.display()
                    ))
                },
            )?)
        }
        None => None,
    };
    let r = empires_report::public::fill(r, public.as_deref())
        .map_err(|e| Error::new(format!("{}: {e}", report.display())))?;
    let map = match map {
        Some(path) => {
            let (text, file) = crate::commands::new::map_text(path)?;
            empires_ruleset::gamedir::parse_map(&text, &file)?
        }
        None => empires_maps::standard::names()
            .into_iter()
            .filter_map(|n| empires_maps::standard::load(n)?.ok())
            .find(|m| m.name == r.map)
            .ok_or_else(|| {
                Error::new(format!(
                    "the report's map, \"{}\", is not a standard map: give its file with --map",
                    r.map
                ))
            })?,
    };
    let state = state_from_report(&map, &r)
        .map_err(|e| Error::new(format!("{}: {e}", report.display())))?;
    let empire = EmpireCode::parse(&r.empire.code)
        .map_err(|_| Error::new(format!("{}: no empire code", report.display())))?;
    check_on(&map, &state, empire, orders, format)
}

/// A turnsheet given on the command line, read and decoded exactly as `empires turn` reads
/// the sheets in `orders/`: at most [`MAX_SHEET_BYTES`] bytes, UTF-8 or UTF-16 with a
/// byte-order mark.
pub fn read_turnsheet(path: &Path) -> Result<String> {
    let file = std::fs::File::open(path).map_err(|e| Error::io("cannot read", path, e))?;
    let bytes = files::read_at_most(file, MAX_SHEET_BYTES as u64)
        .map_err(|e| Error::io("cannot read", path, e))?
        .ok_or_else(|| {
            Error::new(format!(
                "{}: more than the {MAX_SHEET_BYTES} bytes a turnsheet may hold",
                path.display()
            ))
        })?;
    text::decode(&bytes).map_err(|e| Error::new(format!("{}: {e}", path.display())))
}

/// Checks `orders` for `empire` on `state`.
pub fn check_on(
    map: &Map,
    state: &GameState,
    empire: EmpireCode,
    orders: &Path,
    format: Format,
) -> Result<CheckReport> {
    let source = read_turnsheet(orders)?;
    check_text(
        map,
        state,
        empire,
        source,
        &orders.display().to_string(),
        format,
    )
}

/// Reads `text` or `json`, as given to `--format`.
pub fn parse_format(text: &str) -> std::result::Result<Format, String> {
    match text {
        "text" => Ok(Format::Text),
        "json" => Ok(Format::Json),
        _ => Err(format!("`{text}`: use text or json")),
    }
}
