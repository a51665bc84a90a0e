//! The games a door that runs for long (the web, the mail door) keeps parsed between
//! requests: each game's current turn, read once, with the stored version it was read at.
//! Checking a sheet then costs one small read (is the game still at that version?) instead
//! of reading and parsing the map and the state again. A turn played or taken back by any
//! process changes the version, and the game is read again.

use crate::error::{Error, Kind, Result};
use crate::store::sql::SqlStore;
use crate::store::{Loaded, Store, Submission};
use crate::submit::{Accepted, accept_on};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// A game as kept: the version it was read at, and the game.
type Kept = ((u32, i64), Arc<Loaded>);

/// Games kept in memory, shared by every request of a door.
#[derive(Debug, Default)]
pub struct Games {
    kept: RwLock<HashMap<String, Kept>>,
}

impl Games {
    /// The game as it stands now: as kept while its version has not changed.
    pub async fn loaded(&self, store: &SqlStore, game: &str) -> Result<Arc<Loaded>> {
        let version = store.version(game).await?;
        let kept = self.kept.read().ok().and_then(|g| g.get(game).cloned());
        if let Some((v, l)) = kept
            && v == version
        {
            return Ok(l);
        }
        let loaded = Arc::new(store.load(game).await?);
        if let Ok(mut g) = self.kept.write() {
            g.insert(game.to_string(), (version, loaded.clone()));
        }
        Ok(loaded)
    }

    /// Forgets what is kept of a game: the next request reads it again.
    pub fn forget(&self, game: &str) {
        if let Ok(mut g) = self.kept.write() {
            g.remove(game);
        }
    }

    /// Checks and keeps a submission ([`accept_on`]) against the game as kept; if a turn
    /// was played meanwhile, reads the game again and tries once more. A submission's
    /// `for_turn`, when given, must be the next turn: a sheet written for a turn that has
    /// been played is refused, never kept for the turn after.
    pub async fn accept(
        &self,
        store: &SqlStore,
        game: &str,
        submission: &Submission,
        file: &str,
    ) -> Result<Accepted> {
        let loaded = self.loaded(store, game).await?;
        match accept_for_turn(store, game, &loaded, submission, file).await {
            Err(e) if e.kind() == Kind::Conflict => {
                self.forget(game);
                let loaded = self.loaded(store, game).await?;
                accept_for_turn(store, game, &loaded, submission, file).await
            }
            other => other,
        }
    }
}

async fn accept_for_turn(
    store: &SqlStore,
    game: &str,
    loaded: &Loaded,
    submission: &Submission,
    file: &str,
) -> Result<Accepted> {
    let next = loaded.turn + 1;
    if let Some(want) = submission.for_turn.filter(|t| *t != next) {
        return Err(Error::conflict(format!(
            "the turnsheet was written for turn {want}, but turn {next} is next: read your new report and send it again"
        )));
    }
    accept_on(store, game, loaded, submission, file).await
}
