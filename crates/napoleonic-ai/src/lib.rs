//! Computer players of Napoleonic Empires (`docs/napoleonic/computer.md`):
//!
//! - the **independents** (digest 1.1, decision G36), who recruit, keep their garrisons and
//!   strike only at provinces annexed to them: [`independents_orders`], and
//!   [`play_with_independents`], which plays a turn with their orders in place of any given;
//! - a **computer player** for a kingdom, as the GM's [`Style::Caretaker`] for a missed turn
//!   or as a [`Style::Conqueror`]: [`computer_orders`], and [`orders_with_stand_ins`], which
//!   completes a turn's orders for the kingdoms that sent none;
//! - whole **simulated games** on a map, to a victory (G5) or a turn limit: [`simulate`] and
//!   [`play_on`], whose [`SimulationResult`] prints its own summary.
//!
//! Every routine reads the state and writes ordinary [`KingdomOrders`], which the engine
//! plays like anyone's; none of them draws from the game's own generator. Each is a
//! [`ComputerPlayer`], the trait G36 asks the independents' routine to sit behind, so that
//! another routine can be put in its place ([`play_with`]).

mod choose;
mod coalition;
mod independents;
mod leaders;
mod player;
mod purse;
mod sea;
mod sheet;
pub mod sim;
mod view;

pub use sim::{KingdomTurn, Simulation, SimulationResult, Styles, TurnSummary, play_on, simulate};

use empires_dice::GameRng;
use napoleonic_orders::check;
use napoleonic_orders::spans::Spans;
use napoleonic_rules::ids::KingdomCode;
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::KingdomOrders;
use napoleonic_rules::state::GameState;
use napoleonic_rules::turn::{Outcome, TurnError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use view::Picture;

/// How a computer player plays a kingdom.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    /// The GM's stand-in for a missed turn: defends, recruits within its means, annexes
    /// what it may and keeps a surplus; no diplomacy, no attack.
    Caretaker,
    /// Forms coalitions with neighbours that share its enemies, declares war on a weaker
    /// neighbour, concentrates its forces on enemy and independent provinces, annexes its
    /// conquests, recruits with its income and its savings.
    Conqueror,
}

/// A computer player: writes one kingdom's orders from the state between two turns.
pub trait ComputerPlayer {
    fn orders(&self, map: &Map, state: &GameState, kingdom: &KingdomCode) -> KingdomOrders;
}

/// A kingdom's player in a style ([`computer_orders`]).
impl ComputerPlayer for Style {
    fn orders(&self, map: &Map, state: &GameState, kingdom: &KingdomCode) -> KingdomOrders {
        computer_orders(map, state, kingdom, *self)
    }
}

/// The independents' own routine (G36, [`independents_orders`]); it writes for the
/// independents only, and no orders for anyone else.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Independents;

impl ComputerPlayer for Independents {
    fn orders(&self, map: &Map, state: &GameState, kingdom: &KingdomCode) -> KingdomOrders {
        if kingdom.is_independent() {
            independents_orders(map, state)
        } else {
            KingdomOrders::default()
        }
    }
}

/// The independents' orders for the turn (G36): recruiting in their cities, garrisons kept,
/// and attacks only on provinces annexed to them that someone else holds (or their own
/// where intruders stand). Empty once the independents are out of the game.
pub fn independents_orders(map: &Map, state: &GameState) -> KingdomOrders {
    independents_with(map, state, &Picture::new(state))
}

fn independents_with(map: &Map, state: &GameState, pic: &Picture) -> KingdomOrders {
    guarded(map, state, &KingdomCode::independents(), || {
        independents::draft(map, state, pic)
    })
}

/// A kingdom's orders written by the computer in the given style. For the independents,
/// their own routine whatever the style; for a kingdom not in the game (defeated, or not
/// on the map), no orders.
///
/// The orders are checked with `napoleonic_orders::check` before they are handed out:
/// should the checker ever find an error in them, the movement is dropped, and if that is
/// not enough, the kingdom sends no orders at all (the rulebook's missed turn). The
/// routines are written so that this never happens; [`draft_orders`] gives the orders
/// before this safety net, for tests.
pub fn computer_orders(
    map: &Map,
    state: &GameState,
    kingdom: &KingdomCode,
    style: Style,
) -> KingdomOrders {
    orders_with(map, state, &Picture::new(state), kingdom, style)
}

/// [`computer_orders`] with the picture of the state already made: one picture serves
/// every kingdom of a turn.
pub(crate) fn orders_with(
    map: &Map,
    state: &GameState,
    pic: &Picture,
    kingdom: &KingdomCode,
    style: Style,
) -> KingdomOrders {
    guarded(map, state, kingdom, || {
        player::draft(map, state, pic, kingdom, style)
    })
}

/// The orders [`computer_orders`] writes, before its safety check.
pub fn draft_orders(
    map: &Map,
    state: &GameState,
    kingdom: &KingdomCode,
    style: Style,
) -> KingdomOrders {
    player::draft(map, state, &Picture::new(state), kingdom, style)
}

/// Orders for the whole turn, as a GM plays it: the given ones untouched, a computer player
/// in `style` for every kingdom still in the game that gave none (the GM's stand-in; a
/// kingdom that sent an empty sheet did give orders), and the independents' own, which
/// replace any given for them.
pub fn orders_with_stand_ins(
    map: &Map,
    state: &GameState,
    orders: &BTreeMap<KingdomCode, KingdomOrders>,
    style: Style,
) -> BTreeMap<KingdomCode, KingdomOrders> {
    let pic = Picture::new(state);
    let mut all = orders.clone();
    for k in state.kingdoms.values() {
        if k.alive && !k.independent && !all.contains_key(&k.code) {
            all.insert(
                k.code.clone(),
                orders_with(map, state, &pic, &k.code, style),
            );
        }
    }
    with_independents(map, state, &pic, all)
}

/// Plays a turn (`napoleonic_rules::play`) with the independents' orders added to the
/// players': the independents are always the computer's, so any orders given for `IND`
/// are replaced.
pub fn play_with_independents(
    map: &Map,
    state: &GameState,
    orders: &BTreeMap<KingdomCode, KingdomOrders>,
) -> Result<Outcome, TurnError> {
    let all = with_independents(map, state, &Picture::new(state), orders.clone());
    napoleonic_rules::play(map, state, &all)
}

/// Plays a turn with the independents' orders written by `independents` in place of any
/// given for them (and none once they are out of the game).
pub fn play_with(
    map: &Map,
    state: &GameState,
    orders: &BTreeMap<KingdomCode, KingdomOrders>,
    independents: &dyn ComputerPlayer,
) -> Result<Outcome, TurnError> {
    let ind = KingdomCode::independents();
    let mut all = orders.clone();
    all.remove(&ind);
    if state.kingdoms.get(&ind).is_some_and(|k| k.alive) {
        all.insert(ind.clone(), independents.orders(map, state, &ind));
    }
    napoleonic_rules::play(map, state, &all)
}

fn with_independents(
    map: &Map,
    state: &GameState,
    pic: &Picture,
    mut orders: BTreeMap<KingdomCode, KingdomOrders>,
) -> BTreeMap<KingdomCode, KingdomOrders> {
    let ind = KingdomCode::independents();
    orders.remove(&ind);
    if state.kingdoms.get(&ind).is_some_and(|k| k.alive) {
        orders.insert(ind, independents_with(map, state, pic));
    }
    orders
}

/// The draft if the checker finds no error in it; else the draft without movement; else
/// no orders.
fn guarded(
    map: &Map,
    state: &GameState,
    kingdom: &KingdomCode,
    draft: impl FnOnce() -> KingdomOrders,
) -> KingdomOrders {
    let clean = |o: &KingdomOrders| {
        !check(map, state, kingdom, o, &Spans::default())
            .iter()
            .any(|d| d.is_error())
    };
    let full = draft();
    if full == KingdomOrders::default() || clean(&full) {
        return full;
    }
    let still = sheet::Sheet::without_movement(&full);
    if clean(&still) {
        return still;
    }
    KingdomOrders::default()
}

/// A generator of the computer player's own for a kingdom and a turn: seeded from the
/// game's seed (not its position in the stream), the turn and the kingdom, so the player's
/// draws never take a roll from the game's stream nor depend on what it has drawn.
pub(crate) fn ai_rng(state: &GameState, who: &KingdomCode) -> GameRng {
    // FNV-1a over the seed, the turn and the code: fixed, and the same on every machine.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = state
        .rng
        .seed
        .bytes()
        .chain(state.turn.to_le_bytes())
        .chain(who.as_str().bytes())
        .chain(*b"computer player");
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    GameRng::from_game_seed(h)
}
