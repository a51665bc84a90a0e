//! Creating a game directory: made beside its place and renamed into it whole.

use crate::error::{Error, Result};
use std::fs;
use std::path::{Path, PathBuf};

/// The longest name a hosted game may have.
pub const MAX_GAME_NAME: usize = 40;

/// Refuses a name a host cannot keep a game under: a game's name becomes a path part (an
/// export's folder, a download's file name) and a web address, so it is 1 to 40 letters,
/// digits, `-` or `_`. Checked by every store that keeps games by name, whichever door
/// asked.
pub fn check_game_name(name: &str) -> Result<()> {
    let fits = !name.is_empty()
        && name.len() <= MAX_GAME_NAME
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if fits {
        Ok(())
    } else {
        let shown: String = name.chars().take(MAX_GAME_NAME + 1).collect();
        Err(Error::new(format!(
            "\"{}\" cannot name a game: a game's name has 1 to {MAX_GAME_NAME} letters, digits, '-' or '_'",
            shown.escape_debug()
        )))
    }
}

/// Builds the directory `dir` whole or not at all: `fill` writes it beside its place, and a
/// rename puts it there, so that a command that fails, or is stopped, never leaves half a
/// game where the game should be. Refuses a directory that exists and is not empty.
pub fn build_whole(dir: &Path, fill: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    check_target(dir)?;
    let building = building_dir(dir)?;
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|e| Error::io("cannot create", parent, e))?;
    }
    fs::create_dir(&building).map_err(|e| Error::io("cannot create", &building, e))?;
    let result = fill(&building).and_then(|()| {
        fs::rename(&building, dir).map_err(|e| Error::io("cannot rename", &building, e))
    });
    if result.is_err() {
        let _ = fs::remove_dir_all(&building);
    }
    result
}

fn check_target(dir: &Path) -> Result<()> {
    if dir.exists() {
        if !dir.is_dir() {
            return Err(Error::new(format!(
                "{} exists and is not a directory",
                dir.display()
            )));
        }
        if !crate::gamedir::dir_is_empty(dir)? {
            return Err(Error::new(format!(
                "{} already exists and is not empty; give a new directory",
                dir.display()
            )));
        }
    }
    Ok(())
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
    use super::check_game_name;

    #[test]
    fn game_names_stay_inside_a_folder_and_an_address() {
        for good in ["nw", "World-2026", "a_b", &"x".repeat(40)] {
            assert!(check_game_name(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "../x",
            "..",
            "a/b",
            "a\\b",
            "The Northern Wars",
            "é",
            "a\0b",
            &"x".repeat(41),
        ] {
            let err = check_game_name(bad).unwrap_err();
            assert!(err.message().contains("cannot name a game"), "{bad}: {err}");
        }
    }
}
