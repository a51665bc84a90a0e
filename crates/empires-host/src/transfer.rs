//! Moving a game between a database and a game directory: `empires export` writes a
//! database game as a directory, `empires import` loads a directory into a database. Every
//! turn's files go across byte for byte; accounts, passwords and the audit log stay in the
//! host.

use crate::drawing::MAP_SCRIPT;
use crate::error::{Error, Result};
use crate::gamedir::{self, Game, LOCK_FILE, MAP_FILE, ORDERS_DIR, TURNS_DIR};
use crate::store::dir::files_under;
use crate::store::sql::SqlStore;
use crate::store::{Millis, NewGame, Store};
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

/// Writes `game` of `store` as the game directory `dir`, which must not exist or be empty.
/// The directory is built beside its place and renamed into it whole.
pub async fn export(store: &dyn Store, game: &str, dir: &Path) -> Result<Moved> {
    let loaded = store.load(game).await?;
    let mut turns = Vec::new();
    for t in 0..=loaded.turn {
        turns.push(store.turn_files(game, t).await?);
    }
    let pending = store.pending(game).await?;
    let files = turns.iter().map(Vec::len).sum::<usize>();
    crate::create::build_whole(dir, |building| {
        crate::files::write_new(&building.join(MAP_FILE), loaded.map_text.as_bytes())?;
        crate::mapcache::keep(building, &loaded.map_text)?;
        if let Some(script) = &loaded.map_script {
            crate::files::write_new(&building.join(MAP_SCRIPT), script.as_bytes())?;
        }
        crate::files::write_new(&building.join(LOCK_FILE), b"")?;
        let turns_dir = building.join(TURNS_DIR);
        mkdir(&turns_dir)?;
        for (t, files) in turns.iter().enumerate() {
            let td = turns_dir.join(gamedir::turn_name(t as u32));
            mkdir(&td)?;
            if t > 0 {
                mkdir(&td.join(ORDERS_DIR))?;
            }
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
        Ok(())
    })?;
    Ok(Moved {
        game: store.describe(game),
        turns: loaded.turn,
        files,
        pending: pending.len(),
    })
}

fn mkdir(p: &Path) -> Result<()> {
    fs::create_dir(p).map_err(|e| Error::io("cannot create", p, e))
}

/// Loads the game directory `dir` into `store` as the game `name`, in one transaction. The
/// directory must have no interrupted turn and a state that matches its hash.
pub async fn import(store: &SqlStore, dir: &Path, name: &str, now: Millis) -> Result<Moved> {
    let game = Game::load(dir)?;
    if !game.warnings.is_empty() {
        return Err(Error::new(format!(
            "{} cannot be imported as it is: {}; run `empires turn` or `empires status` on it first",
            dir.display(),
            game.warnings.join("; ")
        )));
    }
    let map_script = game.dir.kept_script();
    let mut turns = Vec::new();
    for t in 0..=game.turn {
        let files = files_under(&game.dir.turn_dir(t))?;
        turns.push((t, files));
    }
    let files = turns.iter().map(|(_, f)| f.len()).sum();
    let pending = crate::store::dir::DirStore
        .pending(&dir.display().to_string())
        .await?;
    store
        .import(
            &NewGame {
                name,
                map_text: &game.map_text,
                map: &game.map,
                state: &game.state,
                created_at: now,
            },
            map_script.as_deref(),
            &turns,
            &pending,
        )
        .await?;
    Ok(Moved {
        game: store.describe(name),
        turns: game.turn,
        files,
        pending: pending.len(),
    })
}
