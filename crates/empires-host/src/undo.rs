//! `empires undo`: takes back the last turn played, as if it had never been run. The
//! turnsheets the players sent for it are pending again in `orders/`, exactly as sent; those
//! the computer wrote are gone with the turn.
//!
//! The turn's directory is first renamed to an interrupted turn, `turns/NNNN.tmp`, which the
//! rollback every command already knows then undoes: so an undo cut short by a crash is
//! finished by the next command, and nothing is lost either way.

use std::fmt;

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
