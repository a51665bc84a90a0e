//! Turn credits and prize discounts (2.10, 11.7), as a ledger of entries per player.
//!
//! A player pays for turns in advance as credits, game by game (2.10); a turn is played
//! whether or not it is paid, but its report waits until it is. A player who completes a
//! game earns a discount for later games (11.7): bonus turns each time they buy ten or more
//! at once. The host has no game-specific code, so a game's result is a category string,
//! looked up in the GM's [`DiscountTable`].
//!
//! This module is pure: no clock and no I/O. A player's ledger is the list of [`Entry`]s the
//! GM and the host wrote (one stored row each, as JSON); [`Ledger::replay`] works out where the
//! player stands from them, so the same entries always give the same standing. The time of
//! an entry, if kept, is the store's business ([`Millis`]); the ledger only needs the order.
//!
//! The readings of the rules made here:
//! - **Cap (11.7)**: the cap of 10 is on the discount the player holds in all games together;
//!   a result that would pass it earns only up to it.
//! - **Bonus per payment (11.7, 2.10)**: "each time that player pays for ten turns" is read as
//!   each payment of ten or more: buying 25 with a discount of 3 gives 28, not 31.
//! - **Paying later (2.10)**: credits that come in while turns are unpaid pay the oldest
//!   unpaid turns first, so the withheld reports can be sent.
//! - **Dropping out (11.7)**: forfeits the discount held in every game, including games in
//!   progress; credits are kept.

use crate::store;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Milliseconds since 1970 (UTC), the time a store records beside an entry. The ledger
/// itself ignores time: only the order of the entries counts.
pub type Millis = store::Millis;

/// The fewest turns bought in one payment that earn the bonus turns of a discount (11.7).
pub const BONUS_MINIMUM: u32 = 10;

/// The default cap on the discount a player holds in all games together (11.7).
pub const DEFAULT_CAP: u32 = 10;

/// One line of a player's ledger, as stored (one table row per entry).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// The GM enters a payment: `turns` credits paid for, in game `game`. If `turns` is ten
    /// or more, the discount held in that game is added as bonus turns, once per payment
    /// (2.10, 11.7). A payment of no turns is refused.
    Bought { game: String, turns: u32 },
    /// A turn of `game` was played for the player's seat (computer-written turns are charged
    /// like any other): one credit used; if none were left, the turn is unpaid, and its
    /// report waits for payment (2.10). A turn is never charged twice.
    Charged { game: String, turn: u32 },
    /// The game ended with this result for the player, which earns the discount the table
    /// gives the category (maybe 0), up to the cap (11.7). The discount belongs to `game`
    /// until the GM carries it. A game's result is entered once.
    Earned { game: String, category: String },
    /// The GM carries `discount` turns of discount from game `from` to game `to`, when the
    /// player asks (2.10). No more than is held in `from`.
    Carried {
        from: String,
        to: String,
        discount: u32,
    },
    /// The player dropped out (of `game`): the discount held in every game is forfeited
    /// (11.7). Credits are kept. A resignation is entered this way only if the GM so decides.
    DroppedOut { game: String },
    /// The GM adjusts credits in a game by hand (refund, gift, correction), up or down, with
    /// a reason.
    Adjusted {
        game: String,
        turns: i64,
        reason: String,
    },
}

/// The GM's discount table (11.7): the bonus turns each result category earns, and the cap
/// on the discount held in all games together. A table the GM gives replaces the default
/// whole: a category it does not list earns nothing. Missing fields in a stored table take
/// the default's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiscountTable {
    pub by_category: BTreeMap<String, u32>,
    pub cap: u32,
}

impl Default for DiscountTable {
    /// Rule 11.7: a runaway or knockout win earns 3 (pay for ten, get thirteen), a points win
    /// 2, being knocked out while still playing or surviving to the end of a game won on
    /// points 1; at most 10 in all (turns at half price).
    fn default() -> Self {
        let by_category = [
            ("runaway-win", 3),
            ("knockout-win", 3),
            ("points-win", 2),
            ("survived-points-win", 1),
            ("knocked-out", 1),
        ]
        .into_iter()
        .map(|(category, turns)| (category.to_string(), turns))
        .collect();
        DiscountTable {
            by_category,
            cap: DEFAULT_CAP,
        }
    }
}

impl DiscountTable {
    /// The discount a result category earns: 0 for a category the table does not list.
    pub fn discount_for(&self, category: &str) -> u32 {
        self.by_category.get(category).copied().unwrap_or(0)
    }
}

/// Where a player stands in one game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Standing {
    /// Credits in hand; negative when turns (or a correction) are owed.
    pub credits: i64,
    /// The discount held in this game: bonus turns on each payment of ten or more.
    pub discount: u32,
    /// The turns charged against a credit: their reports may be sent.
    pub paid_turns: BTreeSet<u32>,
    /// The turns played without a credit: their reports wait for payment.
    pub unpaid_turns: BTreeSet<u32>,
    /// All the bonus turns received in this game.
    pub bonus_credited: u32,
}

/// Why an entry cannot be applied. The ledger is left as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerError {
    /// A payment of no turns.
    NothingBought { game: String },
    /// A turn charged a second time.
    AlreadyCharged { game: String, turn: u32 },
    /// A second result for the same game.
    AlreadyEarned { game: String },
    /// More discount carried than the game holds.
    OverCarry {
        from: String,
        to: String,
        wanted: u32,
        held: u32,
    },
    /// A carry of no discount, or from a game to itself.
    PointlessCarry { from: String, to: String },
    /// An adjustment of no turns, or without a reason.
    BadAdjustment { game: String, why: &'static str },
    /// Credits beyond what the ledger can count.
    TooManyCredits { game: String },
    /// An entry of [`Ledger::replay`] failed: `number` counts from 1.
    AtEntry {
        number: usize,
        error: Box<LedgerError>,
    },
}

impl fmt::Display for LedgerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LedgerError as E;
        match self {
            E::NothingBought { game } => write!(
                f,
                "a payment in game {game} must buy at least one turn, and this one buys none"
            ),
            E::AlreadyCharged { game, turn } => write!(
                f,
                "turn {turn} of game {game} is already charged: a turn is charged only once"
            ),
            E::AlreadyEarned { game } => write!(
                f,
                "the result of game {game} is already entered: a game earns a discount once"
            ),
            E::OverCarry {
                from,
                to,
                wanted,
                held,
            } => write!(
                f,
                "cannot carry {wanted} turns of discount from game {from} to game {to}: \
                 game {from} holds only {held}"
            ),
            E::PointlessCarry { from, to } if from == to => write!(
                f,
                "cannot carry discount from game {from} to itself: name another game"
            ),
            E::PointlessCarry { from, to } => write!(
                f,
                "a carry from game {from} to game {to} must move at least one turn of discount"
            ),
            E::BadAdjustment { game, why } => {
                write!(f, "the adjustment of credits in game {game} {why}")
            }
            E::TooManyCredits { game } => write!(
                f,
                "the credits in game {game} would pass what the ledger can count: check the \
                 number of turns"
            ),
            E::AtEntry { number, error } => write!(f, "entry {number} of the ledger: {error}"),
        }
    }
}

impl std::error::Error for LedgerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LedgerError::AtEntry { error, .. } => Some(error.as_ref()),
            _ => None,
        }
    }
}

/// A player's turn credits and discounts in every game, worked out from their entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ledger {
    games: BTreeMap<String, Standing>,
    /// The games whose result is entered.
    ended: BTreeSet<String>,
}

impl Ledger {
    /// An empty ledger: no credits, no discount.
    pub fn new() -> Ledger {
        Ledger::default()
    }

    /// The ledger the entries give, applied in order; the first entry refused stops it, and
    /// the error says which entry (counting from 1).
    pub fn replay(entries: &[Entry], table: &DiscountTable) -> Result<Ledger, LedgerError> {
        let mut ledger = Ledger::new();
        for (index, entry) in entries.iter().enumerate() {
            ledger
                .apply(entry, table)
                .map_err(|error| LedgerError::AtEntry {
                    number: index + 1,
                    error: Box::new(error),
                })?;
        }
        Ok(ledger)
    }

    /// Applies one entry; if it is refused, the ledger is left unchanged.
    pub fn apply(&mut self, entry: &Entry, table: &DiscountTable) -> Result<(), LedgerError> {
        match entry {
            Entry::Bought { game, turns } => {
                if *turns == 0 {
                    return Err(LedgerError::NothingBought { game: game.clone() });
                }
                let held = self.games.get(game).map_or(0, |s| s.discount);
                // 11.7 and 2.10: bonus turns once per payment of ten or more.
                let bonus = if *turns >= BONUS_MINIMUM { held } else { 0 };
                self.credit(game, i64::from(*turns) + i64::from(bonus))?;
                let standing = self.entry(game);
                standing.bonus_credited = standing.bonus_credited.saturating_add(bonus);
            }
            Entry::Charged { game, turn } => {
                let standing = self.entry(game);
                if standing.paid_turns.contains(turn) || standing.unpaid_turns.contains(turn) {
                    return Err(LedgerError::AlreadyCharged {
                        game: game.clone(),
                        turn: *turn,
                    });
                }
                let Some(after) = standing.credits.checked_sub(1) else {
                    return Err(LedgerError::TooManyCredits { game: game.clone() });
                };
                // 2.10: a turn without a credit is still played, but unpaid.
                if standing.credits > 0 {
                    standing.paid_turns.insert(*turn);
                } else {
                    standing.unpaid_turns.insert(*turn);
                }
                standing.credits = after;
            }
            Entry::Earned { game, category } => {
                if self.ended.contains(game) {
                    return Err(LedgerError::AlreadyEarned { game: game.clone() });
                }
                // 11.7: the cap is on the total held in all games.
                let room = table.cap.saturating_sub(self.total_discount());
                let earned = table.discount_for(category).min(room);
                self.ended.insert(game.clone());
                let standing = self.entry(game);
                standing.discount = standing.discount.saturating_add(earned);
            }
            Entry::Carried { from, to, discount } => {
                if from == to || *discount == 0 {
                    return Err(LedgerError::PointlessCarry {
                        from: from.clone(),
                        to: to.clone(),
                    });
                }
                let held = self.games.get(from).map_or(0, |s| s.discount);
                if *discount > held {
                    return Err(LedgerError::OverCarry {
                        from: from.clone(),
                        to: to.clone(),
                        wanted: *discount,
                        held,
                    });
                }
                self.entry(from).discount -= discount;
                let target = self.entry(to);
                target.discount = target.discount.saturating_add(*discount);
            }
            Entry::DroppedOut { .. } => {
                // 11.7: every discount is forfeited, in games in progress too. A result the
                // GM enters later (which the GM would not) earns as usual.
                for standing in self.games.values_mut() {
                    standing.discount = 0;
                }
            }
            Entry::Adjusted {
                game,
                turns,
                reason,
            } => {
                let why = if *turns == 0 {
                    "changes nothing: give a number of turns other than 0"
                } else if reason.trim().is_empty() {
                    "has no reason: say why the credits change"
                } else {
                    return self.credit(game, *turns);
                };
                return Err(LedgerError::BadAdjustment {
                    game: game.clone(),
                    why,
                });
            }
        }
        Ok(())
    }

    /// Where the player stands in a game: all zeros for a game the ledger has no entry for.
    pub fn standing(&self, game: &str) -> Standing {
        self.games.get(game).cloned().unwrap_or_default()
    }

    /// Whether the report of this turn may be shown: the turn was charged against a credit,
    /// then or later (2.10). A turn never charged is not paid, so a host that forgot to
    /// charge a turn withholds its report rather than giving it away.
    pub fn is_paid(&self, game: &str, turn: u32) -> bool {
        self.games
            .get(game)
            .is_some_and(|s| s.paid_turns.contains(&turn))
    }

    /// The discount the player holds in all games together (capped, 11.7).
    pub fn total_discount(&self) -> u32 {
        self.games
            .values()
            .fold(0u32, |sum, s| sum.saturating_add(s.discount))
    }

    /// The games the ledger has entries for, with where the player stands in each.
    pub fn games(&self) -> impl Iterator<Item = (&str, &Standing)> {
        self.games.iter().map(|(game, s)| (game.as_str(), s))
    }

    /// The line about credits and discount for the front of the player's report in a game
    /// (2.10), such as "Turn credits: 7 in hand; discount 3 (buy ten or more at once to get
    /// 3 free); turns 5 and 6 unpaid: their reports wait for payment".
    pub fn summary_line(&self, game: &str) -> String {
        let s = self.standing(game);
        let mut line = match s.credits {
            0 => "Turn credits: none in hand".to_string(),
            n if n > 0 => format!("Turn credits: {n} in hand"),
            n => format!("Turn credits: none in hand, {} owed", n.unsigned_abs()),
        };
        match s.discount {
            0 => line.push_str("; no discount"),
            d => line.push_str(&format!(
                "; discount {d} (buy ten or more at once to get {d} free)"
            )),
        }
        // 2.10: discounts in other games are not moved here unless the player asks.
        let elsewhere = self.total_discount().saturating_sub(s.discount);
        if elsewhere > 0 {
            line.push_str(&format!(
                "; {elsewhere} more discount held in other games: ask the GM to carry it here"
            ));
        }
        match s.unpaid_turns.len() {
            0 => {}
            1 => line.push_str(&format!(
                "; turn {} unpaid: its report waits for payment",
                list_turns(&s.unpaid_turns)
            )),
            _ => line.push_str(&format!(
                "; turns {} unpaid: their reports wait for payment",
                list_turns(&s.unpaid_turns)
            )),
        }
        line
    }

    fn entry(&mut self, game: &str) -> &mut Standing {
        self.games.entry(game.to_string()).or_default()
    }

    /// Adds (or, if negative, takes) credits in a game. Credits that come in pay the oldest
    /// unpaid turns first (2.10), one each, even while a correction leaves the credits below
    /// zero. Credits taken never unpay a paid turn (its report may be sent already).
    fn credit(&mut self, game: &str, turns: i64) -> Result<(), LedgerError> {
        let standing = self.entry(game);
        let Some(after) = standing.credits.checked_add(turns) else {
            return Err(LedgerError::TooManyCredits {
                game: game.to_string(),
            });
        };
        standing.credits = after;
        let mut coming = turns;
        while coming > 0 {
            let Some(oldest) = standing.unpaid_turns.pop_first() else {
                break;
            };
            standing.paid_turns.insert(oldest);
            coming -= 1;
        }
        Ok(())
    }
}

/// Turn numbers in plain words: "5", "5 and 6", "2, 4 and 7", with runs of three or more as
/// "4 to 9".
fn list_turns(turns: &BTreeSet<u32>) -> String {
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for &turn in turns {
        match runs.last_mut() {
            Some((_, last)) if last.checked_add(1) == Some(turn) => *last = turn,
            _ => runs.push((turn, turn)),
        }
    }
    let mut items = Vec::new();
    for (first, last) in runs {
        match last - first {
            0 => items.push(first.to_string()),
            1 => items.extend([first.to_string(), last.to_string()]),
            _ => items.push(format!("{first} to {last}")),
        }
    }
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bought(game: &str, turns: u32) -> Entry {
        Entry::Bought {
            game: game.into(),
            turns,
        }
    }

    fn charged(game: &str, turn: u32) -> Entry {
        Entry::Charged {
            game: game.into(),
            turn,
        }
    }

    fn earned(game: &str, category: &str) -> Entry {
        Entry::Earned {
            game: game.into(),
            category: category.into(),
        }
    }

    fn carried(from: &str, to: &str, discount: u32) -> Entry {
        Entry::Carried {
            from: from.into(),
            to: to.into(),
            discount,
        }
    }

    fn adjusted(game: &str, turns: i64, reason: &str) -> Entry {
        Entry::Adjusted {
            game: game.into(),
            turns,
            reason: reason.into(),
        }
    }

    fn replay(entries: &[Entry]) -> Ledger {
        Ledger::replay(entries, &DiscountTable::default()).expect("entries apply")
    }

    fn turns(list: &[u32]) -> BTreeSet<u32> {
        list.iter().copied().collect()
    }

    /// A ledger holding a discount of 3 in game "g" (a runaway win there).
    fn with_discount_3() -> Vec<Entry> {
        vec![earned("g", "runaway-win")]
    }

    #[test]
    fn buying_under_ten_gives_no_bonus() {
        let mut entries = with_discount_3();
        entries.push(bought("g", 9));
        let s = replay(&entries).standing("g");
        assert_eq!(s.credits, 9);
        assert_eq!(s.bonus_credited, 0);
        assert_eq!(s.discount, 3);
    }

    #[test]
    fn buying_ten_or_more_adds_the_discount_once_per_payment() {
        let mut entries = with_discount_3();
        entries.push(bought("g", 10));
        let s = replay(&entries).standing("g");
        assert_eq!(s.credits, 13);
        assert_eq!(s.bonus_credited, 3);
        // The discount stays for the next payment.
        assert_eq!(s.discount, 3);

        entries.push(bought("g", 25));
        let s = replay(&entries).standing("g");
        assert_eq!(
            s.credits,
            13 + 28,
            "25 bought with discount 3 gives 28, not 31"
        );
        assert_eq!(s.bonus_credited, 6);
    }

    #[test]
    fn a_discount_held_in_another_game_gives_no_bonus() {
        let ledger = replay(&[earned("old", "points-win"), bought("new", 10)]);
        assert_eq!(ledger.standing("new").credits, 10);
        assert_eq!(ledger.standing("old").discount, 2);
    }

    #[test]
    fn the_default_table_gives_rule_11_7_discounts() {
        for (category, expected) in [
            ("runaway-win", 3),
            ("knockout-win", 3),
            ("points-win", 2),
            ("survived-points-win", 1),
            ("knocked-out", 1),
            ("something-else", 0),
        ] {
            let ledger = replay(&[earned("g", category)]);
            assert_eq!(ledger.standing("g").discount, expected, "{category}");
            assert_eq!(ledger.total_discount(), expected, "{category}");
        }
        assert_eq!(DiscountTable::default().cap, 10);
    }

    #[test]
    fn the_cap_is_on_the_total_across_games() {
        let ledger = replay(&[
            earned("a", "runaway-win"),
            earned("b", "knockout-win"),
            earned("c", "runaway-win"),
            earned("d", "points-win"),
            earned("e", "runaway-win"),
        ]);
        assert_eq!(ledger.standing("d").discount, 1, "only up to the cap of 10");
        assert_eq!(ledger.standing("e").discount, 0);
        assert_eq!(ledger.total_discount(), 10);
    }

    #[test]
    fn a_result_is_entered_once_per_game() {
        let mut ledger = replay(&[earned("g", "knocked-out")]);
        let err = ledger
            .apply(&earned("g", "runaway-win"), &DiscountTable::default())
            .unwrap_err();
        assert_eq!(err, LedgerError::AlreadyEarned { game: "g".into() });
        assert_eq!(ledger.total_discount(), 1);
    }

    #[test]
    fn the_gm_carries_discount_between_games() {
        let table = DiscountTable::default();
        let mut ledger = replay(&[earned("old", "runaway-win"), bought("new", 10)]);
        ledger.apply(&carried("old", "new", 2), &table).unwrap();
        assert_eq!(ledger.standing("old").discount, 1);
        assert_eq!(ledger.standing("new").discount, 2);
        assert_eq!(ledger.total_discount(), 3);
        ledger.apply(&bought("new", 10), &table).unwrap();
        assert_eq!(ledger.standing("new").credits, 10 + 12);

        let before = ledger.clone();
        let err = ledger.apply(&carried("old", "new", 2), &table).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot carry 2 turns of discount from game old to game new: game old holds only 1"
        );
        assert_eq!(ledger, before, "a refused entry changes nothing");
        let err = ledger
            .apply(&carried("nowhere", "new", 1), &table)
            .unwrap_err();
        assert!(matches!(err, LedgerError::OverCarry { held: 0, .. }));
        assert!(ledger.apply(&carried("old", "old", 1), &table).is_err());
        assert!(ledger.apply(&carried("old", "new", 0), &table).is_err());
        assert_eq!(ledger, before);
    }

    #[test]
    fn dropping_out_forfeits_every_discount_but_keeps_credits() {
        let ledger = replay(&[
            earned("a", "runaway-win"),
            carried("a", "running", 2),
            bought("running", 10),
            bought("other", 4),
            earned("b", "points-win"),
            Entry::DroppedOut {
                game: "other".into(),
            },
            bought("running", 10),
        ]);
        assert_eq!(ledger.total_discount(), 0);
        for game in ["a", "b", "running", "other"] {
            assert_eq!(ledger.standing(game).discount, 0, "{game}");
        }
        let running = ledger.standing("running");
        assert_eq!(running.credits, 12 + 10, "no bonus after dropping out");
        assert_eq!(running.bonus_credited, 2);
        assert_eq!(ledger.standing("other").credits, 4);
    }

    #[test]
    fn unpaid_turns_are_paid_oldest_first_by_a_later_purchase() {
        let table = DiscountTable::default();
        let mut ledger = replay(&[bought("g", 1), charged("g", 1), charged("g", 2)]);
        ledger.apply(&charged("g", 3), &table).unwrap();
        ledger.apply(&charged("g", 4), &table).unwrap();
        let s = ledger.standing("g");
        assert_eq!(s.credits, -3);
        assert_eq!(s.paid_turns, turns(&[1]));
        assert_eq!(s.unpaid_turns, turns(&[2, 3, 4]));
        assert!(ledger.is_paid("g", 1));
        assert!(!ledger.is_paid("g", 2));

        ledger.apply(&bought("g", 2), &table).unwrap();
        let s = ledger.standing("g");
        assert_eq!(s.credits, -1);
        assert_eq!(s.paid_turns, turns(&[1, 2, 3]));
        assert_eq!(s.unpaid_turns, turns(&[4]));
        assert!(ledger.is_paid("g", 2) && ledger.is_paid("g", 3));
        assert!(!ledger.is_paid("g", 4));

        ledger.apply(&bought("g", 5), &table).unwrap();
        assert!(ledger.is_paid("g", 4));
        assert_eq!(ledger.standing("g").credits, 4);
        assert!(!ledger.is_paid("g", 5), "a turn never charged is not paid");
        assert!(!ledger.is_paid("unknown", 1));
    }

    #[test]
    fn bonus_turns_pay_unpaid_turns_too() {
        let mut entries = with_discount_3();
        entries.extend((1..=12).map(|turn| charged("g", turn)));
        entries.push(bought("g", 10));
        let s = replay(&entries).standing("g");
        assert_eq!(s.credits, 1);
        assert!(s.unpaid_turns.is_empty());
        assert_eq!(s.paid_turns.len(), 12);
    }

    #[test]
    fn a_turn_is_never_charged_twice() {
        let table = DiscountTable::default();
        let mut ledger = replay(&[bought("g", 5), charged("g", 1), charged("g", 2)]);
        ledger.apply(&charged("h", 1), &table).unwrap();
        let before = ledger.clone();
        let err = ledger.apply(&charged("g", 1), &table).unwrap_err();
        assert_eq!(
            err.to_string(),
            "turn 1 of game g is already charged: a turn is charged only once"
        );
        // An unpaid turn too.
        ledger.apply(&charged("h", 1), &table).unwrap_err();
        assert_eq!(ledger, before);
        assert_eq!(ledger.standing("g").credits, 3);
    }

    #[test]
    fn a_payment_of_nothing_is_refused() {
        let err = Ledger::replay(&[bought("g", 3), bought("g", 0)], &DiscountTable::default())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "entry 2 of the ledger: a payment in game g must buy at least one turn, and this \
             one buys none"
        );
        assert!(std::error::Error::source(&err).is_some());
    }

    #[test]
    fn adjustments_change_credits_and_pay_unpaid_turns() {
        let table = DiscountTable::default();
        let mut ledger = replay(&[bought("g", 2), charged("g", 1), charged("g", 2)]);
        ledger.apply(&adjusted("g", -3, "refund"), &table).unwrap();
        let s = ledger.standing("g");
        assert_eq!(s.credits, -3);
        assert_eq!(s.paid_turns, turns(&[1, 2]), "paid turns stay paid");

        ledger.apply(&charged("g", 3), &table).unwrap();
        assert!(!ledger.is_paid("g", 3));
        // Credits that come in pay the unpaid turn first, though a debt remains.
        ledger.apply(&adjusted("g", 1, "gift"), &table).unwrap();
        assert!(ledger.is_paid("g", 3));
        assert_eq!(ledger.standing("g").credits, -3);
        assert_eq!(ledger.standing("g").bonus_credited, 0);

        let before = ledger.clone();
        let err = ledger
            .apply(&adjusted("g", 0, "nothing"), &table)
            .unwrap_err();
        assert!(err.to_string().contains("changes nothing"), "{err}");
        let err = ledger.apply(&adjusted("g", 5, "  "), &table).unwrap_err();
        assert!(err.to_string().contains("has no reason"), "{err}");
        assert_eq!(ledger, before);
        // Adjustments of ten or more earn no bonus: only payments do.
        let ledger = replay(&[earned("g", "runaway-win"), adjusted("g", 10, "gift")]);
        assert_eq!(ledger.standing("g").credits, 10);
    }

    #[test]
    fn summary_lines_say_where_the_player_stands() {
        let mut entries = vec![earned("old", "runaway-win"), carried("old", "g", 3)];
        entries.extend([bought("g", 10), charged("g", 1)]);
        let ledger = replay(&entries);
        assert_eq!(
            ledger.summary_line("g"),
            "Turn credits: 12 in hand; discount 3 (buy ten or more at once to get 3 free)"
        );
        assert_eq!(
            Ledger::new().summary_line("g"),
            "Turn credits: none in hand; no discount"
        );

        let ledger = replay(&[
            earned("old", "points-win"),
            earned("g", "knocked-out"),
            bought("g", 4),
            charged("g", 1),
            charged("g", 2),
            charged("g", 3),
            charged("g", 4),
            charged("g", 5),
            charged("g", 6),
        ]);
        assert_eq!(
            ledger.summary_line("g"),
            "Turn credits: none in hand, 2 owed; discount 1 (buy ten or more at once to get 1 \
             free); 2 more discount held in other games: ask the GM to carry it here; turns 5 \
             and 6 unpaid: their reports wait for payment"
        );

        let mut entries: Vec<Entry> = [1, 2, 3, 4, 7, 9, 10, 11].map(|t| charged("g", t)).into();
        entries.push(adjusted("h", -2, "correction"));
        let ledger = replay(&entries);
        assert_eq!(
            ledger.summary_line("g"),
            "Turn credits: none in hand, 8 owed; no discount; turns 1 to 4, 7 and 9 to 11 \
             unpaid: their reports wait for payment"
        );
        assert_eq!(
            ledger.summary_line("h"),
            "Turn credits: none in hand, 2 owed; no discount"
        );
        let ledger = replay(&[charged("g", 8)]);
        assert_eq!(
            ledger.summary_line("g"),
            "Turn credits: none in hand, 1 owed; no discount; turn 8 unpaid: its report \
             waits for payment"
        );
    }

    #[test]
    fn replay_is_deterministic() {
        let entries = vec![
            earned("a", "knockout-win"),
            bought("b", 3),
            charged("b", 1),
            carried("a", "b", 2),
            bought("b", 12),
            charged("b", 2),
            adjusted("b", -1, "correction"),
            Entry::DroppedOut { game: "a".into() },
            earned("c", "points-win"),
        ];
        let first = replay(&entries);
        let second = replay(&entries);
        assert_eq!(first, second);
        let mut step = Ledger::new();
        for entry in &entries {
            step.apply(entry, &DiscountTable::default()).unwrap();
        }
        assert_eq!(first, step);
        let b = first.standing("b");
        assert_eq!(b.credits, 3 - 1 + 14 - 1 - 1);
        assert_eq!(first.total_discount(), 2);
    }

    #[test]
    fn a_custom_table_overrides_the_default() {
        let table = DiscountTable {
            by_category: [("winner".to_string(), 5), ("runaway-win".to_string(), 4)].into(),
            cap: 6,
        };
        let ledger = Ledger::replay(
            &[
                earned("a", "runaway-win"),
                earned("b", "points-win"),
                earned("c", "winner"),
                bought("a", 10),
            ],
            &table,
        )
        .unwrap();
        assert_eq!(ledger.standing("a").discount, 4);
        assert_eq!(ledger.standing("b").discount, 0, "not in the GM's table");
        assert_eq!(ledger.standing("c").discount, 2, "the GM's cap of 6");
        assert_eq!(ledger.standing("a").credits, 14);
    }

    #[test]
    fn entries_and_tables_are_stored_as_json() {
        let entry = carried("a", "b", 2);
        let json = serde_json::to_string(&entry).unwrap();
        assert_eq!(
            json,
            r#"{"kind":"carried","from":"a","to":"b","discount":2}"#
        );
        let dropped: Entry = serde_json::from_str(r#"{"kind":"dropped_out","game":"g"}"#).unwrap();
        assert_eq!(dropped, Entry::DroppedOut { game: "g".into() });
        let back: Entry = serde_json::from_str(&json).unwrap();
        assert_eq!(back, entry);

        let table: DiscountTable = serde_json::from_str(r#"{"by_category":{"winner":4}}"#).unwrap();
        assert_eq!(table.cap, DEFAULT_CAP);
        assert_eq!(table.discount_for("winner"), 4);
        assert_eq!(table.discount_for("runaway-win"), 0);
        let json = serde_json::to_string(&DiscountTable::default()).unwrap();
        assert_eq!(
            serde_json::from_str::<DiscountTable>(&json).unwrap(),
            DiscountTable::default()
        );
        assert!(serde_json::from_str::<DiscountTable>(r#"{"caps":3}"#).is_err());
    }
}
