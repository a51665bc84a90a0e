//! Small helpers the First Events and the movement phases share: naming units, taking troops
//! and leaders out of a unit, forming a unit, and who is hostile to whom in a province.

use super::Turn;
use crate::event::{UnitRef, What, When};
use crate::ids::{KingdomCode, LocId, TroopCode, UnitId, UnitKind};
use crate::map::Map;
use crate::orders::{PhasePlan, TroopCount, UnitOrders};
use crate::state::{GameState, Leader, Relation, Troop, Unit};
use crate::tables::Tables;
use std::collections::BTreeMap;

/// "FRA A3".
pub(crate) fn name(r: &UnitRef) -> String {
    format!("{} {}", r.0, r.1)
}

/// "12 Paris" or "12" for a location the map lacks.
pub(crate) fn place(map: &Map, at: LocId) -> String {
    map.get(at)
        .map_or_else(|| at.to_string(), |l| format!("{} {}", l.id, l.name))
}

pub(crate) fn uref(u: &Unit) -> UnitRef {
    (u.owner.clone(), u.id)
}

/// Every unit, in the stable order of the state (kingdom, then unit id): the order in which
/// one step handles them (digest 3, proposal). Taken as a list first because steps insert
/// and remove units as they go.
pub(crate) fn all_refs(state: &GameState) -> Vec<UnitRef> {
    state.units.iter().map(uref).collect()
}

/// Troops listed as counts per type, in code order: "2 LIN, 1 CUI".
pub(crate) fn counts_of(troops: &[Troop]) -> Vec<TroopCount> {
    let mut by: BTreeMap<TroopCode, u32> = BTreeMap::new();
    for t in troops {
        *by.entry(t.code.clone()).or_default() += 1;
    }
    by.into_iter()
        .map(|(code, count)| TroopCount { code, count })
        .collect()
}

/// Adds up counts written several times for one type ("2 LIN" and "1 LIN" make 3 LIN).
pub(crate) fn merged(list: &[TroopCount]) -> BTreeMap<TroopCode, u32> {
    let mut by: BTreeMap<TroopCode, u32> = BTreeMap::new();
    for t in list {
        *by.entry(t.code.clone()).or_default() += t.count;
    }
    by
}

pub(crate) fn describe_counts(list: &[TroopCount]) -> String {
    list.iter()
        .map(|t| format!("{} {}", t.count, t.code))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Removes `count` troops of a type, the first ones in the unit's list, or nothing at all
/// if it holds fewer. The choice is fixed so that a turn replays to the same bytes.
pub(crate) fn take_troops(unit: &mut Unit, code: &TroopCode, count: u32) -> Option<Vec<Troop>> {
    if (unit.count(code) as u64) < u64::from(count) {
        return None;
    }
    let mut taken = Vec::new();
    let mut left = count;
    let mut kept = Vec::with_capacity(unit.troops.len());
    for t in unit.troops.drain(..) {
        if left > 0 && &t.code == code {
            left -= 1;
            taken.push(t);
        } else {
            kept.push(t);
        }
    }
    unit.troops = kept;
    Some(taken)
}

/// Removes a leader by name (case does not matter), keeping the unit leader pointing at
/// the same person; if he was the one leaving, the first remaining leader takes over (G44).
pub(crate) fn take_leader(unit: &mut Unit, name: &str) -> Option<Leader> {
    let i = unit
        .leaders
        .iter()
        .position(|l| l.name.eq_ignore_ascii_case(name.trim()))?;
    let leader = unit.leaders.remove(i);
    unit.unit_leader = match unit.unit_leader {
        Some(j) if j == i => (!unit.leaders.is_empty()).then_some(0),
        Some(j) if j > i => Some(j - 1),
        other => other,
    };
    Some(leader)
}

/// Adds a leader; a unit without a unit leader gets him as its leader.
pub(crate) fn add_leader(unit: &mut Unit, leader: Leader) {
    unit.leaders.push(leader);
    if unit.unit_leader.is_none() {
        unit.unit_leader = Some(unit.leaders.len() - 1);
    }
}

/// The name a unit gets when its orders give none: "France A4", as at the start (setup).
pub(crate) fn default_name(state: &GameState, owner: &KingdomCode, id: UnitId) -> String {
    let kingdom = state
        .kingdoms
        .get(owner)
        .map_or_else(|| owner.to_string(), |k| k.name.clone());
    format!("{kingdom} {id}")
}

/// Forms an empty army or fleet of a kingdom at a location under the lowest free number,
/// or None when the kingdom already has 99 of that kind.
pub(crate) fn form_unit(
    state: &mut GameState,
    owner: &KingdomCode,
    kind: UnitKind,
    at: LocId,
) -> Option<UnitId> {
    let number = state.free_number(owner, kind)?;
    let id = UnitId { kind, number };
    let name = default_name(state, owner, id);
    state.insert_unit(Unit::new(owner.clone(), id, name, at));
    Some(id)
}

/// Forms a unit as [`form_unit`] does, during the turn, and reports it (`UnitFormed`).
pub(crate) fn form_reported(
    turn: &mut Turn,
    when: When,
    owner: &KingdomCode,
    kind: UnitKind,
    at: LocId,
    by: UnitId,
) -> Option<UnitId> {
    let id = form_unit(&mut turn.state, owner, kind, at)?;
    let name = turn
        .state
        .unit(owner, id)
        .map_or_else(String::new, |u| u.name.clone());
    turn.emit(
        when,
        What::UnitFormed {
            unit: (owner.clone(), id),
            by,
            at,
            name,
        },
    );
    Some(id)
}

/// Whether two kingdoms fight each other in a location (4.1, G38): only kingdoms at war
/// fight. The independents are at war with everyone, but spare a kingdom holding special
/// permission for their province (2.8, G35).
pub(crate) fn hostile_in(state: &GameState, a: &KingdomCode, b: &KingdomCode, at: LocId) -> bool {
    if state.relation(a, b) != Relation::War {
        return false;
    }
    let guest = if a.is_independent() {
        b
    } else if b.is_independent() {
        a
    } else {
        return true;
    };
    !state
        .provinces
        .get(&at)
        .is_some_and(|p| p.owner.is_independent() && p.permissions.contains(guest))
}

/// Whether a province is enemy territory for a kingdom: owned by a kingdom at war with it,
/// or by the independents (3.3). Own, allied and neutral land is not.
pub(crate) fn enemy_land(state: &GameState, k: &KingdomCode, at: LocId) -> bool {
    state
        .provinces
        .get(&at)
        .is_some_and(|p| hostile_in(state, k, &p.owner, at))
}

/// Unmodified total combat of a unit's soldiers, leaders left out: what an amphibious
/// landing rolls against (G33, T14).
pub(crate) fn soldier_combat(unit: &Unit, tables: &Tables) -> u32 {
    unit.troops
        .iter()
        .filter_map(|t| tables.troop(&t.code))
        .filter(|t| t.is_soldier())
        .map(|t| t.total_combat())
        .sum()
}

/// A unit's orders this turn; none once its kingdom is no longer alive.
pub(crate) fn orders_of<'a>(turn: &Turn<'a>, r: &UnitRef) -> Option<&'a UnitOrders> {
    if !turn.state.kingdoms.get(&r.0).is_some_and(|k| k.alive) {
        return None;
    }
    turn.unit_orders(&r.0, r.1)
}

/// A unit's plan entries for a phase. An entry for phase 0 ("before Phase 1 movement",
/// 2.12) is played with phase 1, whose loads already come before its movement.
pub(crate) fn entries<'a>(turn: &Turn<'a>, r: &UnitRef, phase: u8) -> Vec<&'a PhasePlan> {
    orders_of(turn, r).map_or_else(Vec::new, |o| {
        o.plan
            .iter()
            .filter(|e| e.phase == phase || (phase == 1 && e.phase == 0))
            .collect()
    })
}

/// A kingdom's unit orders in unit-id order, one set per unit: the first set written for a
/// unit is the one used, as `Turn::unit_orders` reads it (the others are reported at F8).
pub(crate) fn unit_orders_sorted<'a>(turn: &Turn<'a>, k: &KingdomCode) -> Vec<&'a UnitOrders> {
    let Some(orders) = turn.orders.get(k) else {
        return Vec::new();
    };
    let mut v: Vec<&'a UnitOrders> = Vec::new();
    for o in &orders.units {
        if !v.iter().any(|x| x.unit == o.unit) {
            v.push(o);
        }
    }
    v.sort_by_key(|o| o.unit);
    v
}
