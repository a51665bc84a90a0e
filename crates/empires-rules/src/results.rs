//! How each empire's player finished a game, in the words a host's ledger of prize
//! discounts reads (11.7): the ruleset says who won and how, the host's discount table says
//! what each result is worth. The host knows only these category names.

use crate::EmpireCode;
use crate::state::{GameState, VictoryClaim, VictoryCondition};

/// The winner of a runaway win (11.6).
pub const RUNAWAY_WIN: &str = "runaway-win";
/// The winner of a knockout win (11.6).
pub const KNOCKOUT_WIN: &str = "knockout-win";
/// The winner of a points win (11.6).
pub const POINTS_WIN: &str = "points-win";
/// A player still in the game when another won on points (11.7).
pub const SURVIVED_POINTS_WIN: &str = "survived-points-win";
/// A player knocked out while still playing: eliminated without having dropped out (11.7).
pub const KNOCKED_OUT: &str = "knocked-out";
/// A player still in the game when another won by a runaway or a knockout: 11.7 gives no
/// discount for it, but the result is recorded all the same.
pub const SURVIVED: &str = "survived";
/// A player who dropped out (2.5): forfeits every discount (11.7).
pub const DROPPED_OUT: &str = "dropped-out";

/// Each player's result at the end of a game won by `claim`; dummies (no player) have none.
/// An empire whose player missed `dropout_after` turns in a row at the end has dropped out,
/// whatever became of it afterwards (2.5, decision 21).
pub fn final_results(state: &GameState, claim: &VictoryClaim) -> Vec<(EmpireCode, &'static str)> {
    state
        .empires
        .iter()
        .filter(|e| e.player.is_some())
        .map(|e| {
            let dropped = e.missed_turns >= state.options.dropout_after;
            let result = if e.code == claim.empire && !dropped {
                match claim.condition {
                    VictoryCondition::Runaway => RUNAWAY_WIN,
                    VictoryCondition::Knockout => KNOCKOUT_WIN,
                    VictoryCondition::Points => POINTS_WIN,
                }
            } else if dropped {
                DROPPED_OUT
            } else if !e.alive() {
                KNOCKED_OUT
            } else if claim.condition == VictoryCondition::Points {
                SURVIVED_POINTS_WIN
            } else {
                SURVIVED
            };
            (e.code, result)
        })
        .collect()
}
