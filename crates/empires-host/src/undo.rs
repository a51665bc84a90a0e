//! `empires undo`: takes back the last turn played, as if it had never been run. The
//! turnsheets the players sent for it are pending again in `orders/`, exactly as sent; those
//! the computer wrote are gone with the turn.
//!
//! The turn's directory is first renamed to an interrupted turn, `turns/NNNN.tmp`, which the
//! rollback every command already knows then undoes: so an undo cut short by a crash is
//! finished by the next command, and nothing is lost either way.

use crate::error::{Error, Result};
use crate::gamedir::{Access, Game};
use std::fmt;
use std::fs;
use std::path::Path;

/// What `empires undo` did.
#[derive(Debug, Clone)]
pub struct UndoReport {
    pub undone: u32,
    /// The turnsheets (and GM messages) back in `orders/`.
    pub pending: Vec<String>,
    pub warnings: Vec<String>,
}

impl fmt::Display for UndoReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "turn {} undone: the game is back after turn {}",
            self.undone,
            self.undone - 1
        )?;
        if self.pending.is_empty() {
            write!(f, "; no turnsheets had been sent for it")
        } else {
            write!(
                f,
                "; the turnsheets sent for it are waiting again: {}",
                self.pending.join(" ")
            )
        }
    }
}

/// Takes back the last turn of the game in `dir`.
pub fn run(dir: &Path) -> Result<UndoReport> {
    // The game's own lock, and any interrupted turn rolled back first.
    let game = Game::open(dir, Access::Play { accept_state: true })?;
    let turn = game.turn;
    if turn == 0 {
        return Err(Error::new(
            "there is no turn to undo: the game is at its starting position",
        ));
    }
    let waiting = game.dir.waiting(&game.seat_codes())?;
    let mut pending: Vec<&String> = waiting.sheets.values().collect();
    pending.extend(&waiting.gm);
    if !pending.is_empty() {
        let names: Vec<&str> = pending.iter().map(|s| s.as_str()).collect();
        return Err(Error::new(format!(
            "{} holds turnsheets sent for turn {} ({}); undoing turn {turn} would mix them with \
             the ones sent for it. Move them out of the way first",
            game.dir.orders_dir().display(),
            turn + 1,
            names.join(" ")
        )));
    }
    let done = game.dir.turn_dir(turn);
    let tmp = game.dir.tmp_dir(turn);
    fs::rename(&done, &tmp).map_err(|e| Error::io("cannot rename", &done, e))?;
    crate::files::sync_dir(&game.dir.turns_dir());
    let notes = game.dir.recover()?;
    let mut sent = game.dir.waiting(&game.seat_codes())?;
    let mut back: Vec<String> = std::mem::take(&mut sent.sheets).into_values().collect();
    back.extend(sent.gm.take());
    back.sort();
    let mut warnings = game.warnings.clone();
    warnings.extend(
        notes
            .into_iter()
            .filter(|n| !n.contains(".tmp was an interrupted turn")),
    );
    Ok(UndoReport {
        undone: turn,
        pending: back,
        warnings,
    })
}
