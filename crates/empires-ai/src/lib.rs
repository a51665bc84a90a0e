//! Computer players (2.1, 2.5, decision 21). Both routines look at the game only as their
//! empire sees it, write an ordinary turnsheet in the order language, and are deterministic:
//! the same game gives the same orders.
//!
//! - The **caretaker** plays for a player who missed a turn: it grows population where it pays
//!   best, guards threatened borders with reserves, forts and defence orders, keeps retreat
//!   locations (and in European Empires supply) in order, brings fleets home, and taxes when
//!   nothing better remains. It never attacks.
//! - The **aggressive** player runs dummies and dropouts: everything the caretaker does, and
//!   it also attacks where it expects to win, raises armies for the next attack, and sends spies.

mod plan;
pub mod sim;
mod view;

pub use plan::{Style, orders_for, turnsheet_for};

use empires_rules::state::EmpireState;
use empires_rules::variant::Options;

/// Which routine plays an empire this turn, if the computer must (decision 21): dummies and
/// empires out for `dropout_after` turns play aggressively; a missed turn gets the caretaker.
pub fn style_for(empire: &EmpireState, options: &Options, sent_orders: bool) -> Option<Style> {
    if sent_orders {
        return None;
    }
    if empire.player.is_none() || empire.missed_turns + 1 >= options.dropout_after {
        Some(Style::Aggressive)
    } else {
        Some(Style::Caretaker)
    }
}
