//! `empires report`, and the reports `empires turn` writes for every empire (section 10).

use crate::error::{Error, Result};
use crate::files;
use empires_host::gamedir::REPORTS_DIR;
use empires_rules::EmpireCode;
use empires_ruleset::gamedir::Game;
use empires_ruleset::whole::whole_report;
use std::path::Path;

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
    /// The report file's extension (`txt`, `json`, `html`; `png` is drawn, not kept).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Text => "txt",
            Format::Html => "html",
            Format::Png => "png",
        }
    }
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
    let turn_dir = game.dir.turn_dir(turn);
    let read = |path: &str| -> empires_host::Result<String> {
        files::read_text_in_game(&turn_dir.join(path), files::MAX_STATE_BYTES)
    };
    let place = turn_dir.join(REPORTS_DIR).display().to_string();
    let layers = if format == Format::Html {
        game.layers()
    } else {
        None
    };
    whole_report(&read, empire, format.extension(), layers.as_deref(), &place)
}

/// An empire's report of a turn wherever the game is kept.
pub fn run_at(
    at: &crate::commands::hosted::GameAt,
    empire: EmpireCode,
    turn: Option<u32>,
    format: Format,
) -> Result<String> {
    use crate::commands::hosted::{self, GameAt};
    if let GameAt::Dir(dir) = at {
        return run(dir, empire, turn, format);
    }
    let (store, game) = hosted::open(at)?;
    let loaded = hosted::block_on(empires_ruleset::ruleset::load(store.as_ref(), &game))?;
    crate::commands::map::known_empire(&loaded.state, empire)?;
    let turn = turn.unwrap_or(loaded.turn);
    let read = |path: &str| -> empires_host::Result<String> {
        let bytes = hosted::block_on(store.turn_file(&game, turn, path, None))?;
        String::from_utf8(bytes).map_err(|_| {
            empires_host::Error::corrupt(format!(
                "{}: turn {turn}, {path}: not valid UTF-8 text",
                store.describe(&game)
            ))
        })
    };
    let place = format!("{}: turn {turn}", store.describe(&game));
    let layers = if format == Format::Html {
        empires_ruleset::drawing::layers(
            &loaded.map,
            &loaded.map_text,
            loaded.map_script.as_deref(),
        )
    } else {
        None
    };
    whole_report(&read, empire, format.extension(), layers.as_deref(), &place)
}
