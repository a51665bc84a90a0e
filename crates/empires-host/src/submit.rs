//! Accepting a submission, the same whichever door it came through: the text is read as a
//! turn reads it, checked and forecast on the sender's view of the game, kept, and answered
//! with the diagnostics, the forecast and a receipt.

use crate::error::{Error, Result};
use crate::ruleset::{Checked, Game};
use crate::store::{Receipt, Store, Submission};
use crate::turn::decode_sheet;
use std::sync::Arc;

/// The answer to a submission.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub receipt: Receipt,
    /// The step the sheet is kept for, as people name it, in a game played in steps (a
    /// game that plays each turn whole needs no more than the receipt's turn).
    pub step: Option<String>,
    /// The ruleset's diagnostics and forecast or dry run; none for the GM's messages.
    pub checked: Option<Checked>,
    /// Kept for the seat's own later step, sent ahead: a later turn than the next, but not
    /// late orders.
    pub ahead: bool,
}

impl Accepted {
    /// The diagnostics and forecast as the player reads them.
    /// A checker with nothing to say (no mistakes, no forecast) is answered by its summary,
    /// never by a blank.
    pub fn check_text(&self) -> Option<String> {
        self.checked.as_ref().map(|c| {
            let text = c.text();
            if text.trim().is_empty() {
                format!("{}\n", c.summary())
            } else {
                text
            }
        })
    }

    /// How many errors the check found.
    pub fn errors(&self) -> usize {
        self.checked.as_ref().map_or(0, |c| c.errors)
    }
}

/// The game kept under `key` in `store` (a database's name for it, a directory's path), as
/// its ruleset reads it.
pub async fn open(store: &dyn Store, key: &str) -> Result<Arc<dyn Game>> {
    let hosted = store.hosted(key).await?;
    hosted.ruleset.open(hosted)
}

/// Checks `submission` against the game's current turn and keeps it. A sheet with
/// mistakes is kept all the same (the turn reads it as written); one that is not text, or
/// is for a seat not in the game, is refused and nothing is kept. `file` names the sheet in
/// the diagnostics.
pub async fn accept(
    store: &dyn Store,
    key: &str,
    submission: &Submission,
    file: &str,
) -> Result<Accepted> {
    let game = open(store, key).await?;
    accept_on(store, key, game.as_ref(), submission, file).await
}

/// [`accept`] on a game already read, as a door that keeps its games in memory calls it:
/// the sheet is checked against `game` and kept for the turn after it, or refused if the
/// game has moved on since it was read (the store knows). `key` names the game in `store`.
/// A submission's `for_turn`, when given, must be the next turn: a sheet written for a
/// turn that has been played is refused, never kept for the turn after.
pub async fn accept_on(
    store: &dyn Store,
    key: &str,
    game: &dyn Game,
    submission: &Submission,
    file: &str,
) -> Result<Accepted> {
    let next = game.turn() + 1;
    let step = game.step()?;
    let text = decode_sheet(&submission.body).map_err(|e| Error::new(format!("{file}: {e}")))?;
    // In a game played in steps a sheet may name the step it is for in its header (the
    // ruleset's, Relay's `STEP n`), where the door did not say.
    let named = submission.for_turn.or_else(|| {
        step.expected.as_ref()?;
        game.ruleset().header(&text).turn?.trim().parse().ok()
    });
    let submission = &Submission {
        for_turn: named,
        ..submission.clone()
    };
    // A seat not expected now may send its sheet for its own next step at any time (one
    // allowed standing sheets sends those, unless its sheet names that step).
    let seat = submission.empire;
    let upcoming = seat.and_then(|s| step.upcoming(s.as_str()).cloned());
    let standing_seat = seat.is_some_and(|s| {
        !step.expects(s.as_str()) && step.standing.iter().any(|c| c == s.as_str())
    });
    let ahead = upcoming.filter(|u| {
        !step.expects(&u.seat)
            && match submission.for_turn {
                Some(t) => t == u.turn,
                None => !standing_seat,
            }
    });
    if let Some(want) = submission.for_turn.filter(|t| *t != next)
        && ahead.is_none()
    {
        return Err(Error::conflict(format!(
            "the sheet was written for turn {want}, but turn {next} is next: read your new report and send it again"
        )));
    }
    // A game played in steps takes a sheet only from a seat its step expects, one allowed
    // a standing sheet, or one sending ahead for its own next step; the others are told
    // when their turn comes.
    if let Some(seat) = seat
        && ahead.is_none()
        && let Some(why) = step.refusal(seat.as_str())
    {
        return Err(Error::conflict(format!("{file}: {why}")));
    }
    // A seat the step allows a standing sheet but does not expect sends one: kept until it
    // sends another, read by every play, whatever the step's deadline.
    let standing = standing_seat && ahead.is_none();
    // Checked against the game as it stands now, and read again when its step is played.
    let checked = match seat {
        Some(seat) => Some(game.check(seat.as_str(), file, &text)?),
        None => None,
    };
    // A game without late orders (2.4 is Empires') names the one turn a sheet is for: one
    // that comes after the deadline while the turn waits is refused, never kept for the
    // turn after. A standing sheet, or one sent ahead, is for no step's deadline.
    if !game.ruleset().late_orders()
        && seat.is_some()
        && !standing
        && ahead.is_none()
        && store
            .deadline_passed(key, submission.received_at)
            .await?
            .is_some()
    {
        return Err(Error::conflict(format!(
            "the deadline of turn {next} has passed: the turn will be played without this sheet. \
             Send your orders for turn {} with the sheet that comes with your next report",
            next + 1
        )));
    }
    if let (Some(seat), Some(u)) = (seat, &ahead) {
        let submission = Submission {
            for_turn: Some(u.turn),
            ..submission.clone()
        };
        let receipt = store.keep_for(key, seat.as_str(), &submission).await?;
        return Ok(Accepted {
            receipt,
            checked,
            step: Some(format!("{} (sent ahead)", u.label)),
            ahead: true,
        });
    }
    let submission = Submission {
        for_turn: Some(next),
        ..submission.clone()
    };
    if standing {
        let receipt = store.keep_standing(key, &submission).await?;
        return Ok(Accepted {
            receipt,
            checked,
            step: Some("standing orders, in force until replaced".to_string()),
            ahead: false,
        });
    }
    let receipt = store.submit(key, &submission).await?;
    Ok(Accepted {
        receipt,
        checked,
        step: step.expected.is_some().then_some(step.label),
        ahead: false,
    })
}

/// Checks the GM's rulings against the game as it stands, by its ruleset, and keeps them
/// for the next step (the latest replaces the last): applied when the step is played. Kept
/// with their mistakes, as a player's sheet is; refused by a game that takes no rulings.
pub async fn accept_rulings(
    store: &dyn Store,
    key: &str,
    game: &dyn Game,
    submission: &Submission,
    file: &str,
) -> Result<Accepted> {
    let text = decode_sheet(&submission.body).map_err(|e| Error::new(format!("{file}: {e}")))?;
    let checked = game.check_rulings(file, &text)?;
    let step = game.step()?;
    let submission = Submission {
        empire: None,
        for_turn: Some(game.turn() + 1),
        ..submission.clone()
    };
    let receipt = store
        .keep_for(key, crate::gamedir::RULINGS, &submission)
        .await?;
    Ok(Accepted {
        receipt,
        checked: Some(checked),
        step: Some(step.label),
        ahead: false,
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
