//! One turn, for all kingdoms together, in the rulebook's fixed order (digest 3): the First
//! Events once, movement phases while any unit still has something to do plus one more,
//! then the Final Events. A pure function of the map, the state and the orders; the random
//! generator travels in the state.

pub mod construction;
pub mod diplomacy;
pub mod economy;
pub mod finals;
pub mod first;
pub mod fleets;
pub mod march;
pub mod movement;
pub mod ownership;
pub mod preview;
pub mod transfer;
pub mod units;

use crate::event::{Event, What, When};
use crate::ids::{KingdomCode, UnitId};
use crate::map::Map;
use crate::orders::{KingdomOrders, UnitOrders};
use crate::rulings::Rulings;
use crate::state::GameState;
use empires_dice::GameRng;
use std::collections::{BTreeMap, BTreeSet};

/// A turn that could not be played at all (a damaged state), as opposed to orders that
/// fail, which are events.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TurnError {
    #[error("the saved random generator is damaged: {0}")]
    Rng(String),
    #[error("the state does not fit the map: {0}")]
    Mismatch(String),
}

/// The new state and everything that happened.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub state: GameState,
    pub events: Vec<Event>,
    /// The result the GM declared with this turn's rulings: the game ends with it; or why
    /// it could not stand (a winner defeated in this very turn), for the GM.
    pub declared: Option<Result<crate::victory::Victory, String>>,
}

/// The work space of one turn: the state being changed, the orders, the generator and the
/// events so far. The steps of the turn are functions over it.
pub struct Turn<'a> {
    pub map: &'a Map,
    pub state: GameState,
    pub orders: &'a BTreeMap<KingdomCode, KingdomOrders>,
    pub rng: GameRng,
    pub events: Vec<Event>,
    /// Kingdoms whose orders would have given away every province and disbanded every
    /// troop: those gift and disband orders are not carried out (6, palace coup), and the
    /// GM is told. Decided before F11; read again at L12.
    pub dethroned: BTreeSet<KingdomCode>,
    /// The GM's rulings for this turn ([`crate::rulings`]).
    pub rulings: Rulings,
    /// The result the GM declared, once L20 has checked it.
    pub declared: Option<Result<crate::victory::Victory, String>>,
}

impl<'a> Turn<'a> {
    pub fn new(
        map: &'a Map,
        state: &GameState,
        orders: &'a BTreeMap<KingdomCode, KingdomOrders>,
    ) -> Result<Turn<'a>, TurnError> {
        let rng = GameRng::restore(&state.rng).map_err(TurnError::Rng)?;
        for id in state.provinces.keys() {
            if map.get(*id).is_none_or(|l| l.is_sea()) {
                return Err(TurnError::Mismatch(format!(
                    "province {id} is not a province of the map {}",
                    map.name
                )));
            }
        }
        for u in &state.units {
            if map.get(u.location).is_none() {
                return Err(TurnError::Mismatch(format!(
                    "{} {} stands in location {}, which is not on the map",
                    u.owner, u.id, u.location
                )));
            }
        }
        Ok(Turn {
            map,
            state: state.clone(),
            orders,
            rng,
            events: Vec::new(),
            dethroned: BTreeSet::new(),
            rulings: Rulings::default(),
            declared: None,
        })
    }

    pub fn emit(&mut self, when: When, what: What) {
        self.events.push(Event { when, what });
    }

    /// Records an order that failed, with the reason in plain words.
    pub fn fail(
        &mut self,
        when: When,
        kingdom: &KingdomCode,
        unit: Option<UnitId>,
        order: impl Into<String>,
        reason: impl Into<String>,
    ) {
        self.emit(
            when,
            What::OrderFailed {
                kingdom: kingdom.clone(),
                unit,
                order: order.into(),
                reason: reason.into(),
            },
        );
    }

    /// The orders a kingdom gave a unit this turn, if any. A kingdom's orders are only
    /// read for kingdoms still alive.
    pub fn unit_orders(&self, owner: &KingdomCode, id: UnitId) -> Option<&'a UnitOrders> {
        self.orders
            .get(owner)
            .and_then(|o| o.units.iter().find(|u| u.unit == id))
    }

    /// Kingdoms with orders, in code order: within one step all kingdoms act at once, and
    /// this stable order makes the result reproducible (digest 3, proposal).
    pub fn ordering_kingdoms(&self) -> Vec<KingdomCode> {
        self.orders
            .keys()
            .filter(|k| self.state.kingdoms.get(*k).is_some_and(|x| x.alive))
            .cloned()
            .collect()
    }

    fn finish(mut self) -> Outcome {
        self.state.rng = self.rng.save();
        self.state.turn += 1;
        Outcome {
            state: self.state,
            events: self.events,
            declared: self.declared,
        }
    }
}

/// Plays one turn.
pub fn play(
    map: &Map,
    state: &GameState,
    orders: &BTreeMap<KingdomCode, KingdomOrders>,
) -> Result<Outcome, TurnError> {
    play_ruled(map, state, orders, &Rulings::default())
}

/// Plays one turn with the GM's rulings for it: a ruler's new status counts from the start
/// of the turn (2.10), a denied proclamation earns nothing at L13, a declared result is
/// checked against the state the turn leaves (L20).
pub fn play_ruled(
    map: &Map,
    state: &GameState,
    orders: &BTreeMap<KingdomCode, KingdomOrders>,
    rulings: &Rulings,
) -> Result<Outcome, TurnError> {
    let mut turn = Turn::new(map, state, orders)?;
    turn.rulings = rulings.clone();
    first::status_ruled(&mut turn);
    first::run(&mut turn);
    movement::run(&mut turn);
    finals::run(&mut turn);
    Ok(turn.finish())
}
