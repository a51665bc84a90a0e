//! The games a door that runs for long (the web, the mail door) keeps read between
//! requests: each game's current turn, read once by its ruleset ([`Ruleset::open`]), with
//! the stored version it was read at. Checking a sheet then costs one small read (is the
//! game still at that version?) instead of reading and parsing the map and the state
//! again. A turn played or taken back by any process changes the version, and the game is
//! read again.
//!
//! [`Ruleset::open`]: crate::ruleset::Ruleset::open

use crate::error::{Kind, Result};
use crate::ruleset::Game;
use crate::store::{Services, Submission};
use crate::submit::{Accepted, accept_on, accept_rulings};
use std::collections::HashMap;
use std::sync::{Arc, RwLock};

/// A game as kept: the version it was read at, and the game.
type Kept = ((u32, i64), Arc<dyn Game>);

/// Games kept in memory, shared by every request of a door.
#[derive(Default)]
pub struct Games {
    kept: RwLock<HashMap<String, Kept>>,
}

impl std::fmt::Debug for Games {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.kept.read().map_or(0, |k| k.len());
        write!(f, "Games({count} kept)")
    }
}

impl Games {
    /// The game as it stands now, whichever its ruleset: as kept while its version has not
    /// changed.
    pub async fn game(&self, store: &Services, key: &str) -> Result<Arc<dyn Game>> {
        let version = store.accounts.version(key).await?;
        let kept = self.kept.read().ok().and_then(|g| g.get(key).cloned());
        if let Some((v, g)) = kept
            && v == version
        {
            return Ok(g);
        }
        let game = crate::submit::open(store.games.as_ref(), key).await?;
        if let Ok(mut g) = self.kept.write() {
            g.insert(key.to_string(), (version, game.clone()));
        }
        Ok(game)
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
        store: &Services,
        key: &str,
        submission: &Submission,
        file: &str,
    ) -> Result<Accepted> {
        let game = self.game(store, key).await?;
        match accept_on(store.games.as_ref(), key, game.as_ref(), submission, file).await {
            Err(e) if e.kind() == Kind::Conflict => {
                self.forget(key);
                let game = self.game(store, key).await?;
                accept_on(store.games.as_ref(), key, game.as_ref(), submission, file).await
            }
            other => other,
        }
    }

    /// Checks and keeps the GM's rulings ([`accept_rulings`]) against the game as kept.
    pub async fn accept_rulings(
        &self,
        store: &Services,
        key: &str,
        submission: &Submission,
        file: &str,
    ) -> Result<Accepted> {
        let game = self.game(store, key).await?;
        accept_rulings(store.games.as_ref(), key, game.as_ref(), submission, file).await
    }
}
