//! Moving a game between a database and a game directory: `empires export` writes a
//! database game as a directory, `empires import` loads a directory into a database. Every
//! turn's files go across byte for byte; accounts, passwords and the audit log stay in the
//! host.

use crate::error::{Error, Result};
use crate::gamedir::{self, GameDir, LOCK_FILE, MAP_FILE, ORDERS_DIR, TURNS_DIR};
use crate::gamefiles::GameFiles;
use crate::store::dir::{DirStore, files_under};
use crate::store::sql::{GameRow, SqlStore};
use crate::store::{Millis, Store};
use std::fs;
use std::path::Path;

/// What an export or import moved.
#[derive(Debug, Clone)]
pub struct Moved {
    pub game: String,
    pub turns: u32,
    pub files: usize,
    pub pending: usize,
}

impl std::fmt::Display for Moved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} turns and {} files moved, {} turnsheets pending",
            self.game,
            self.turns + 1,
            self.files,
            self.pending
        )
    }
}

/// Writes `game` of `store`, of any ruleset, as the game directory `dir`, which must not
/// exist or be empty. The directory is built beside its place and renamed into it whole.
pub async fn export(store: &dyn Store, game: &str, dir: &Path) -> Result<Moved> {
    let g = store.hosted(game).await?;
    let mut turns = Vec::new();
    // A game may start after turn 0 (a scenario): turns before its start hold nothing.
    for t in 0..=g.turn {
        let files = store.turn_files(game, t).await?;
        if !files.is_empty() {
            turns.push((t, files));
        }
    }
    let pending = store.pending(game).await?;
    let standing = store.standing(game).await?;
    let ahead = store.ahead(game).await?;
    let files = turns.iter().map(|(_, f)| f.len()).sum::<usize>();
    crate::create::build_whole(dir, |building| {
        crate::files::write_new(&building.join(MAP_FILE), g.map.as_bytes())?;
        crate::gamefiles::write_game_file(building, g.ruleset, &g.name)?;
        if let Some(kept) = &g.kept {
            crate::files::write_new(&building.join(g.ruleset.kept_file()), kept.as_bytes())?;
        }
        crate::files::write_new(&building.join(LOCK_FILE), b"")?;
        let turns_dir = building.join(TURNS_DIR);
        mkdir(&turns_dir)?;
        for (t, files) in &turns {
            let td = turns_dir.join(gamedir::turn_name(*t));
            mkdir(&td)?;
            for (path, body) in files {
                let target = td.join(path);
                if let Some(parent) = target.parent() {
                    fs::create_dir_all(parent)
                        .map_err(|e| Error::io("cannot create", parent, e))?;
                }
                crate::files::write_new(&target, body)?;
            }
        }
        let orders = building.join(ORDERS_DIR);
        mkdir(&orders)?;
        for (name, body) in &pending {
            crate::files::write_new(&orders.join(name), body)?;
        }
        // The standing sheets in force go with the game.
        if !standing.is_empty() {
            mkdir(&building.join(crate::gamedir::STANDING_DIR))?;
        }
        for (path, body) in &standing {
            crate::files::write_new(&building.join(path), body)?;
        }
        // So do the sheets sent ahead, each for its own step.
        for (path, body) in &ahead {
            let target = building.join(path);
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent).map_err(|e| Error::io("cannot create", parent, e))?;
            }
            crate::files::write_new(&target, body)?;
        }
        Ok(())
    })?;
    Ok(Moved {
        game: store.describe(game),
        turns: g.turn,
        files,
        pending: pending.len(),
    })
}

fn mkdir(p: &Path) -> Result<()> {
    fs::create_dir(p).map_err(|e| Error::io("cannot create", p, e))
}

/// Loads the game directory `dir`, of any ruleset, into `store` as the game `name`, in one
/// transaction. The directory must have no interrupted turn and a state that matches its
/// hash.
pub async fn import(store: &SqlStore, dir: &Path, name: &str, now: Millis) -> Result<Moved> {
    let game = GameFiles::open(dir, None)?;
    let hosted = game.hosted()?;
    let mut problems = GameDir::at(dir).interrupted_turns()?;
    problems.extend(hosted.warnings.iter().cloned());
    if !problems.is_empty() {
        return Err(Error::new(format!(
            "{} cannot be imported as it is: {}; run `empires turn` or `empires status` on it first",
            dir.display(),
            problems.join("; ")
        )));
    }
    let (first, current) = (game.first_turn()?, game.current_turn()?);
    let mut turns = Vec::new();
    for t in first..=current {
        turns.push((t, files_under(&GameDir::at(dir).turn_dir(t))?));
    }
    let files = turns.iter().map(|(_, f)| f.len()).sum();
    let pending = game.pending()?;
    let standing = game.standing()?;
    let ahead = DirStore.ahead(&dir.display().to_string()).await?;
    let ruleset = hosted.ruleset;
    let seats = ruleset.seats(hosted.text())?;
    let step = ruleset.step(hosted.text())?;
    let title = ruleset.game_title(hosted.text())?;
    let row = GameRow {
        name,
        ruleset,
        title: &title,
        variant: ruleset.title(),
        map: &hosted.map,
        kept: hosted.kept.as_deref(),
        turn: current,
        seats: &seats,
        created_at: now,
        standing: &standing,
        step: &step,
        ahead: &ahead,
    };
    store.import_game(&row, &turns, &pending).await?;
    Ok(Moved {
        game: store.describe(name),
        turns: current,
        files,
        pending: pending.len(),
    })
}
