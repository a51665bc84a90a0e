//! Accepting a submission, the same whichever door it came through: the text is read as a
//! turn reads it, checked and forecast on the sender's view of the game, kept, and answered
//! with the diagnostics, the forecast and a receipt.

use crate::check::{CheckReport, Format, check_text};
use crate::error::{Error, Result};
use crate::gamedir::seat_empire;
use crate::ruleset::Checked;
use crate::ruleset::HostedGame;
use crate::store::{Loaded, Receipt, Store, Submission};
use crate::turn::decode_sheet;

/// The answer to a submission.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub receipt: Receipt,
    /// The checker's diagnostics and the forecast; none for the GM's messages.
    pub check: Option<CheckReport>,
    /// In a game of another ruleset, its checker's diagnostics and dry run instead.
    pub checked: Option<Checked>,
}

impl Accepted {
    /// The diagnostics and forecast as the player reads them, whichever the game.
    pub fn check_text(&self) -> Option<String> {
        match (&self.check, &self.checked) {
            (Some(c), _) => Some(c.to_string()),
            (None, Some(c)) => Some(c.text.clone()),
            (None, None) => None,
        }
    }

    /// How many errors the check found.
    pub fn errors(&self) -> usize {
        self.check.as_ref().map_or(0, |c| c.errors) + self.checked.as_ref().map_or(0, |c| c.errors)
    }
}

/// Checks `submission` against the game's current turn and keeps it. A turnsheet with
/// mistakes is kept all the same (the turn reads it as written); one that is not text, or
/// is for an empire not in the game, is refused and nothing is kept. `file` names the
/// sheet in the diagnostics.
pub async fn accept(
    store: &dyn Store,
    game: &str,
    submission: &Submission,
    file: &str,
) -> Result<Accepted> {
    if let Some(hosted) = store.hosted_game(game).await? {
        return accept_hosted(store, game, &hosted, submission, file).await;
    }
    let loaded = store.load(game).await?;
    accept_on(store, game, &loaded, submission, file).await
}

/// [`accept`] for a game of a ruleset other than Empires, through its [`Checked`] sheet:
/// the ruleset's diagnostics and dry run. A seat not in the game is refused. `key` names
/// the game in `store` (a database's name for it, a directory's path), which may differ
/// from the name the game itself goes by.
pub async fn accept_hosted(
    store: &dyn Store,
    key: &str,
    game: &HostedGame,
    submission: &Submission,
    file: &str,
) -> Result<Accepted> {
    let text = decode_sheet(&submission.body).map_err(|e| Error::new(format!("{file}: {e}")))?;
    let checked = match submission.empire {
        Some(seat) => Some(
            game.ruleset
                .check(game.text(), seat.as_str(), file, &text)?,
        ),
        None => None,
    };
    // Late orders are an Empires rule (2.4): a sheet names its turn, so one that comes
    // after the deadline while the turn waits is refused, never kept for the turn after.
    if submission.empire.is_some()
        && store
            .deadline_passed(key, submission.received_at)
            .await?
            .is_some()
    {
        return Err(Error::conflict(format!(
            "the deadline of turn {} has passed: the turn will be played without this sheet. \
             Send your orders for turn {} with the sheet that comes with your next report",
            game.turn + 1,
            game.turn + 2
        )));
    }
    let submission = Submission {
        for_turn: Some(game.turn + 1),
        ..submission.clone()
    };
    let receipt = store.submit(key, &submission).await?;
    Ok(Accepted {
        receipt,
        check: None,
        checked,
    })
}

/// [`accept`] on a game already loaded, as a host that keeps its games in memory calls it:
/// the sheet is checked against `loaded` and kept for the turn after it, or refused if the
/// game has moved on since it was loaded.
pub async fn accept_on(
    store: &dyn Store,
    game: &str,
    loaded: &Loaded,
    submission: &Submission,
    file: &str,
) -> Result<Accepted> {
    let text = decode_sheet(&submission.body).map_err(|e| Error::new(format!("{file}: {e}")))?;
    let check = match submission.empire {
        Some(seat) => {
            let code = seat_empire(&loaded.state, seat)?;
            Some(check_text(
                &loaded.map,
                &loaded.state,
                code,
                text,
                file,
                Format::Text,
            )?)
        }
        None => None,
    };
    let submission = Submission {
        for_turn: Some(loaded.turn + 1),
        ..submission.clone()
    };
    let receipt = store.submit(game, &submission).await?;
    Ok(Accepted {
        receipt,
        check,
        checked: None,
    })
}

/// What changed between two sheets, line by line: `- ` a line taken out, `+ ` one put in.
/// Every door's receipt lists it.
pub fn changes(before: &str, after: &str) -> Vec<String> {
    similar::TextDiff::from_lines(before, after)
        .iter_all_changes()
        .filter_map(|c| {
            let sign = match c.tag() {
                similar::ChangeTag::Delete => "- ",
                similar::ChangeTag::Insert => "+ ",
                similar::ChangeTag::Equal => return None,
            };
            Some(format!("{sign}{}", c.value().trim_end_matches('\n')))
        })
        .collect()
}
