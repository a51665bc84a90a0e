//! `empires report`, and the reports `empires turn` writes for every empire (section 10).

use crate::error::{Error, Result};
use crate::files;
use crate::gamedir::Game;
use empires_host::drawing::TURN_SCRIPT;
use empires_host::render::REPORTS_DIR;
use empires_report::public;
use empires_rules::EmpireCode;
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
    fn extension(self) -> &'static str {
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
    let reports = game.dir.turn_dir(turn).join(REPORTS_DIR);
    let ext = format.extension();
    let own = files::read_text_in_game(
        &reports.join(format!("{empire}.{ext}")),
        files::MAX_STATE_BYTES,
    )?;
    let public = if public::needs_parts(ext, &own) {
        let path = reports.join(public::file(ext));
        Some(files::read_text_in_game(&path, files::MAX_STATE_BYTES)?)
    } else {
        None
    };
    let page = with_parts(ext, own, public.as_deref(), &reports.display().to_string())?;
    if format != Format::Html {
        return Ok(page);
    }
    let turn_script = if loads_turn_script(&page) {
        let path = reports.join(TURN_SCRIPT);
        Some(files::read_text_in_game(&path, files::MAX_STATE_BYTES)?)
    } else {
        None
    };
    Ok(whole(
        page,
        game.layers().as_deref(),
        turn_script.as_deref(),
    ))
}

/// Whether a kept page loads its turn's shared part of the map, `public.js`.
fn loads_turn_script(page: &str) -> bool {
    page.contains(&format!("<script src=\"{TURN_SCRIPT}\"></script>"))
}

/// A report made whole: the parts every empire's report of the turn shares put back from
/// the turn's `public` file (see [`empires_report::public`]).
fn with_parts(ext: &str, own: String, public: Option<&str>, place: &str) -> Result<String> {
    if !public::needs_parts(ext, &own) {
        return Ok(own);
    }
    public::whole(ext, &own, public).map_err(|e| Error::corrupt(format!("{place}: {e}")))
}

/// A report page in one file, the map's layer and the turn's shared part of it put in: the
/// pages kept with a turn load the game's one copy of the layer and the turn's `public.js`,
/// which a page sent or saved elsewhere does not have.
fn whole(
    page: String,
    layers: Option<&empires_maps::draw::Layers>,
    turn_script: Option<&str>,
) -> String {
    match layers {
        Some(l) => empires_host::drawing::whole_page(&page, l, turn_script),
        None => page,
    }
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
    let loaded = hosted::block_on(store.load(&game))?;
    crate::commands::map::known_empire(&loaded.state, empire)?;
    let turn = turn.unwrap_or(loaded.turn);
    let ext = format.extension();
    let read = |path: String| -> Result<String> {
        let bytes = hosted::block_on(store.turn_file(&game, turn, &path, None))?;
        String::from_utf8(bytes).map_err(|_| {
            Error::corrupt(format!(
                "{}: turn {turn}, {path}: not valid UTF-8 text",
                store.describe(&game)
            ))
        })
    };
    let own = read(format!("{REPORTS_DIR}/{empire}.{ext}"))?;
    let public = if public::needs_parts(ext, &own) {
        Some(read(format!("{REPORTS_DIR}/{}", public::file(ext)))?)
    } else {
        None
    };
    let place = format!("{}: turn {turn}", store.describe(&game));
    let page = with_parts(ext, own, public.as_deref(), &place)?;
    if format != Format::Html {
        return Ok(page);
    }
    let turn_script = if loads_turn_script(&page) {
        Some(read(format!("{REPORTS_DIR}/{TURN_SCRIPT}"))?)
    } else {
        None
    };
    let (layers, _) =
        empires_host::drawing::layers(&loaded.map, &loaded.map_text, loaded.map_script.as_deref());
    Ok(whole(page, layers.as_deref(), turn_script.as_deref()))
}
