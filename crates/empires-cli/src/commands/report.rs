//! `empires report`, and the reports `empires turn` writes for every empire (section 10).

use crate::error::{Error, Result};
use crate::files;
use crate::gamedir::Game;
use empires_maps::draw::{Base, DrawOptions};
use empires_report::{Turn, render_every};
use empires_rules::event::Event;
use empires_rules::{EmpireCode, GameState, Map};
use std::path::Path;

/// The folder of a turn directory holding its reports.
pub const REPORTS_DIR: &str = "reports";

/// Width in pixels of the map in the HTML reports, which the page's layout is made for.
const REPORT_MAP_WIDTH: u32 = empires_report::html::MAP_WIDTH;

/// The forms of a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Json,
    Text,
    Html,
    /// A printable map of what the empire knew, drawn on request (see `--out`).
    Png,
}

impl Format {
    fn extension(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Text => "txt",
            Format::Html => "html",
            Format::Png => "png",
        }
    }
}

/// Every report of a turn, as (file name, contents): `CODE.json`, `CODE.txt` and
/// `CODE.html` for each empire, and the GM's `gm.txt`.
pub fn render_all(
    map: &Map,
    state: &GameState,
    events: &[Event],
    computer_written: &[EmpireCode],
    gm_messages: &[String],
) -> Result<Vec<(String, String)>> {
    let turn = Turn {
        map,
        state,
        events,
        computer_written,
        gm_messages,
    };
    // 10.5: each page carries the map as its empire knows it. The map's shapes are worked
    // out once for all the empires; a map without positions is left out.
    let opts = DrawOptions {
        width: REPORT_MAP_WIDTH,
        title: Some(format!("{}, turn {}", state.game, state.turn)),
        graticule: true,
        zoom_label: Some(empires_report::html::MAP_LABEL),
    };
    let base = Base::new(map, &opts).ok();
    let reports = render_every(&turn, |empire| {
        base.as_ref()
            .and_then(|b| b.svg(Some((state, Some(empire)))).ok())
    })
    .map_err(|e| Error::new(format!("cannot encode a report: {e}")))?;
    let mut files = Vec::with_capacity(3 * reports.empires.len() + 1);
    for r in reports.empires {
        files.push((format!("{}.json", r.empire), r.json));
        files.push((format!("{}.txt", r.empire), r.text));
        files.push((format!("{}.html", r.empire), r.html));
    }
    files.push(("gm.txt".to_string(), reports.gm));
    Ok(files)
}

/// `empires report`: one empire's report of a turn (the current one unless told), in the
/// form asked for, as written when the turn was played.
pub fn run(dir: &Path, empire: EmpireCode, turn: Option<u32>, format: Format) -> Result<String> {
    let game = Game::load(dir)?;
    crate::commands::map::known_empire(&game.state, empire)?;
    let turn = turn.unwrap_or(game.turn);
    if turn > game.turn {
        return Err(Error::new(format!(
            "turn {turn} has not been played; the last turn played is {}",
            game.turn
        )));
    }
    let path = game
        .dir
        .turn_dir(turn)
        .join(REPORTS_DIR)
        .join(format!("{empire}.{}", format.extension()));
    files::read_text_in_game(&path, files::MAX_STATE_BYTES)
}
