//! A new Empires game: its starting position, and a directory made for it.

use empires_host::error::{Error, Result};
use empires_host::gamedir;
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{GameState, Map};
use std::path::Path;

/// The starting position of a game on `map` (read from `file`, named in messages) under
/// `setup` (12.6-12.9), checked against the limits every saved state keeps before anything
/// is written.
pub fn start(map: &Map, file: &str, setup: &NewGame) -> Result<GameState> {
    let state = new_game(map, setup).map_err(|e| Error::new(format!("{file}: {e}")))?;
    state
        .validate(map)
        .map_err(|e| Error::new(format!("{file}: {e}")))?;
    Ok(state)
}

/// Creates the game directory `dir` at the starting position `state`; returns the state's
/// hash. Refuses a directory that exists and is not empty.
pub fn create_dir(dir: &Path, map_text: &str, map: &Map, state: &GameState) -> Result<String> {
    let started = crate::ruleset::started(&state.game, map_text, map, state)?;
    empires_host::gamefiles::GameFiles::create_started(
        dir,
        &crate::Empires,
        &state.game,
        &started,
    )?;
    Ok(gamedir::sha256_hex(started.state.as_bytes()))
}
