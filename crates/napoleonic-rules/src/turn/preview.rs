//! A dry run of the First Events and the movement phases (digest 1.2 item 6: "a detailed
//! listing of what will happen in each segment"): where every unit stands after each phase,
//! and the events, with the Final Events left out. Random draws (amphibious landings,
//! homeless fleets, conquest ties) come from a generator of the preview's own, never from
//! the game's, so a preview cannot reveal the game's coming rolls.

use super::{Turn, TurnError, first, movement};
use crate::event::{Event, UnitRef};
use crate::ids::{KingdomCode, LocId};
use crate::map::Map;
use crate::orders::KingdomOrders;
use crate::state::GameState;
use empires_dice::GameRng;
use std::collections::BTreeMap;

/// The seed of the preview's generator.
const PREVIEW_SEED: u64 = 0;

/// The outcome of a dry run.
#[derive(Debug, Clone)]
pub struct Preview {
    /// For each unit, where it stands when movement begins (index 0, after the First
    /// Events) and after each phase (index `p`); None where the unit does not exist (not
    /// yet formed, or gone).
    pub positions: BTreeMap<UnitRef, Vec<Option<LocId>>>,
    /// Phases played.
    pub phases: u8,
    /// The First Events' and the phases' events, failures included.
    pub events: Vec<Event>,
    /// The state when movement is over (before the Final Events).
    pub state: GameState,
}

/// Plays the First Events and the movement phases on a copy of the state.
pub fn preview(
    map: &Map,
    state: &GameState,
    orders: &BTreeMap<KingdomCode, KingdomOrders>,
) -> Result<Preview, TurnError> {
    let mut turn = Turn::new(map, state, orders)?;
    turn.rng = GameRng::from_game_seed(PREVIEW_SEED);
    first::run(&mut turn);
    let mut snaps: Vec<BTreeMap<UnitRef, LocId>> = Vec::new();
    movement::run_phases(&mut turn, |t, _| {
        snaps.push(
            t.state
                .units
                .iter()
                .map(|u| ((u.owner.clone(), u.id), u.location))
                .collect(),
        );
    });
    let mut positions: BTreeMap<UnitRef, Vec<Option<LocId>>> = BTreeMap::new();
    for snap in &snaps {
        for r in snap.keys() {
            positions.entry(r.clone()).or_default();
        }
    }
    for (r, v) in positions.iter_mut() {
        *v = snaps.iter().map(|s| s.get(r).copied()).collect();
    }
    Ok(Preview {
        positions,
        phases: snaps.len().saturating_sub(1) as u8,
        events: turn.events,
        state: turn.state,
    })
}

/// Where each unit stands when movement begins and after every phase (see [`Preview`]).
pub fn positions_by_phase(
    map: &Map,
    state: &GameState,
    orders: &BTreeMap<KingdomCode, KingdomOrders>,
) -> Result<BTreeMap<UnitRef, Vec<Option<LocId>>>, TurnError> {
    preview(map, state, orders).map(|p| p.positions)
}
