//! The computer at sea (M3, M4, M6, M8): amphibious invasions and sea battles.
//!
//! - **Invasion by sea** (the conqueror). Where a province the kingdom's armies cannot
//!   reach by land (an island across a strait, a coast beyond a bay) lies on a sea next to
//!   one of its harbours, an army standing in that harbour with its own fleet docked beside
//!   it boards (M3), sails out (M4) and lands (M8) in the first phase. It goes only when the
//!   landing is sure (the soldiers' total combat of 100 or more, G33) and the army is twice
//!   the defence there, the amphibious modifier being a handicap, and when the fleet can
//!   carry it (its weight within the fleet's free storage: G45 lets half again more board,
//!   but M7 throws the excess overboard). An army too heavy sends a detachment of its
//!   strongest soldiers for their weight, formed at F6 and handed them at F9.
//! - **Sea battles**. A fleet with warships sails into a neighbouring sea holding an enemy
//!   fleet it outguns by half again; the conqueror seeks them anywhere next to it, the
//!   caretaker only off its own coast, which it defends. A fleet with orders already (an
//!   invasion) is left to them.

use crate::sheet::{Counts, Sheet};
use crate::view::{View, strength};
use napoleonic_rules::ids::{LocId, TroopCode, UnitId, UnitKind};
use napoleonic_rules::orders::{PhasePlan, Step};
use napoleonic_rules::state::Unit;
use napoleonic_rules::tables::Tables;
use std::collections::BTreeSet;

/// A fleet's fighting strength at sea: its ships' total combat.
fn gunnery(u: &Unit, tables: &Tables) -> u32 {
    u.troops
        .iter()
        .filter_map(|t| tables.troop(&t.code))
        .filter(|t| t.is_ship())
        .map(|t| t.total_combat())
        .fold(0u32, u32::saturating_add)
}

/// Seas a location touches without a reef, in id order.
fn seas_off(view: &View, at: LocId) -> Vec<LocId> {
    view.map.get(at).map_or_else(Vec::new, |l| {
        l.edges
            .iter()
            .filter(|e| !e.barrier && view.map.get(e.to).is_some_and(|x| x.is_sea()))
            .map(|e| e.to)
            .collect()
    })
}

/// Provinces on a sea's coasts without a reef, in id order.
fn coasts_of(view: &View, sea: LocId) -> Vec<LocId> {
    view.map.get(sea).map_or_else(Vec::new, |l| {
        l.edges
            .iter()
            .filter(|e| !e.barrier && view.map.get(e.to).is_some_and(|x| !x.is_sea()))
            .map(|e| e.to)
            .collect()
    })
}

/// Invasions by sea; answers the armies and fleets given orders.
pub(crate) fn invade(view: &View, sheet: &mut Sheet) -> BTreeSet<UnitId> {
    let state = view.state;
    let tables = &state.tables;
    let me = &view.me;
    let mut busy = BTreeSet::new();
    // Provinces our armies can reach by land: a border of our land.
    let by_land: BTreeSet<LocId> = state
        .owned_by(me)
        .flat_map(|p| view.land_neighbours(p))
        .collect();
    let mut taken: BTreeSet<LocId> = BTreeSet::new();
    let mut fleets: Vec<&Unit> = state
        .units
        .iter()
        .filter(|u| &u.owner == me && u.kind() == UnitKind::Fleet && !u.troops.is_empty())
        .filter(|u| view.owner(u.location) == Some(me))
        .collect();
    fleets.sort_by_key(|f| f.id);
    for f in fleets {
        let harbour = f.location;
        // G45 lets an army half again heavier than the free storage board, but M7 then
        // throws the excess overboard: the computer loads no more than the storage.
        let room = f.storage(tables);
        let aboard: u32 = state
            .units
            .iter()
            .filter(|a| {
                a.aboard
                    .as_ref()
                    .is_some_and(|(k, id)| k == me && *id == f.id)
            })
            .map(|a| a.weight(tables))
            .sum();
        let room = room.saturating_sub(aboard);
        // The strongest army in the harbour; a detachment of it when it is too heavy for
        // the fleet (F6, F9: a new army formed by it takes what the fleet can carry).
        let army = state
            .units
            .iter()
            .filter(|a| {
                &a.owner == me
                    && a.kind() == UnitKind::Army
                    && a.aboard.is_none()
                    && a.location == harbour
                    && !busy.contains(&a.id)
                    && !a.troops.is_empty()
                    // Nothing of it is given away or disbanded by the sheet so far.
                    && sheet.left(a.id).values().sum::<u32>() as usize == a.troops.len()
            })
            .max_by_key(|a| (strength(a, tables), std::cmp::Reverse(a.id)));
        let Some(army) = army else {
            continue;
        };
        let (party, weight) = detachment(army, tables, room);
        if weight == 0 {
            continue;
        }
        // G33: the landing is sure at a total combat of 100; the soldiers' combat is also
        // their strength ashore (leaders stay with the army unless it all goes).
        let whole = party.values().sum::<u32>() as usize == army.troops.len();
        let landing: u32 = party
            .iter()
            .filter_map(|(c, n)| tables.troop(c).map(|t| t.total_combat().saturating_mul(*n)))
            .sum();
        let power = if whole {
            strength(army, tables)
        } else {
            landing
        };
        if landing < 100 {
            continue;
        }
        let mut best: Option<(u32, LocId, LocId)> = None;
        for sea in seas_off(view, harbour) {
            for t in coasts_of(view, sea) {
                if by_land.contains(&t) || taken.contains(&t) || !view.enemy_land(t) {
                    continue;
                }
                let need = view
                    .defence(t)
                    .saturating_mul(2)
                    .max(state.settings.conquest_combat);
                if power < need {
                    continue;
                }
                let revenue = view.map.get(t).map_or(0, |l| l.revenue.0);
                let key = u32::try_from(revenue.max(0)).unwrap_or(u32::MAX);
                if best.is_none_or(|(r, _, _)| key > r) {
                    best = Some((key, sea, t));
                }
            }
        }
        let Some((_, sea, target)) = best else {
            continue;
        };
        let goes = if whole {
            army.id
        } else {
            let Some(new) = sheet.form_army(army.id) else {
                continue; // 99 armies already
            };
            sheet.transfer(army.id, new, &party);
            new
        };
        taken.insert(target);
        busy.insert(army.id);
        busy.insert(goes);
        busy.insert(f.id);
        sheet.sail(
            f.id,
            PhasePlan {
                phase: 1,
                load: vec![(None, goes)],
                step: Some(Step::Move(sea)),
                unload: vec![(None, goes, target)],
                ..PhasePlan::default()
            },
        );
    }
    busy
}

/// Sea battles sought (M6); `coast_only` keeps the fleet to seas off the kingdom's land.
pub(crate) fn seek_battle(
    view: &View,
    sheet: &mut Sheet,
    busy: &BTreeSet<UnitId>,
    coast_only: bool,
) {
    let state = view.state;
    let tables = &state.tables;
    let me = &view.me;
    let ours: BTreeSet<LocId> = state.owned_by(me).collect();
    let mut claimed: BTreeSet<LocId> = BTreeSet::new();
    for f in state.units.iter().filter(|u| {
        &u.owner == me
            && u.kind() == UnitKind::Fleet
            && !busy.contains(&u.id)
            && !u.troops.is_empty()
    }) {
        let guns = gunnery(f, tables);
        if guns == 0 {
            continue;
        }
        // Nowhere to go if it is in a battle already where it lies.
        let options: Vec<LocId> = if view.map.get(f.location).is_some_and(|l| l.is_sea()) {
            view.map
                .get(f.location)
                .map(|l| {
                    l.edges
                        .iter()
                        .filter(|e| view.map.get(e.to).is_some_and(|x| x.is_sea()))
                        .map(|e| e.to)
                        .collect()
                })
                .unwrap_or_default()
        } else {
            seas_off(view, f.location)
        };
        let enemy_guns = |sea: LocId| -> u32 {
            state
                .units
                .iter()
                .filter(|u| {
                    u.location == sea && u.kind() == UnitKind::Fleet && view.hostile(&u.owner)
                })
                .map(|u| gunnery(u, tables))
                .fold(0u32, u32::saturating_add)
        };
        let target = options
            .into_iter()
            .filter(|s| !claimed.contains(s))
            .filter(|s| !coast_only || coasts_of(view, *s).iter().any(|p| ours.contains(p)))
            .filter_map(|s| {
                let theirs = enemy_guns(s);
                (theirs > 0 && guns.saturating_mul(2) >= theirs.saturating_mul(3))
                    .then_some((theirs, s))
            })
            .max_by_key(|(theirs, s)| (*theirs, std::cmp::Reverse(*s)));
        if let Some((_, sea)) = target {
            claimed.insert(sea);
            sheet.sail(
                f.id,
                PhasePlan {
                    phase: 1,
                    step: Some(Step::Move(sea)),
                    ..PhasePlan::default()
                },
            );
        }
    }
}

/// The soldiers of `army` the fleet can carry (weight at most `room`): the whole army when
/// it fits, else its strongest soldiers for their weight, one at a time. Answers the troops
/// and their weight.
fn detachment(army: &Unit, tables: &Tables, room: u32) -> (Counts, u32) {
    let mut soldiers: Vec<(&TroopCode, u32, u32)> = army
        .troops
        .iter()
        .filter_map(|t| {
            let ty = tables.troop(&t.code).filter(|x| x.is_soldier())?;
            Some((&t.code, ty.total_combat(), ty.weight))
        })
        .collect();
    let all: u32 = soldiers.iter().map(|(_, _, w)| *w).sum();
    let mut party = Counts::new();
    if all <= room {
        for (c, _, _) in &soldiers {
            *party.entry((*c).clone()).or_default() += 1;
        }
        return (party, all);
    }
    // Most combat for the weight first; the code breaks ties, so the choice is the same.
    soldiers.sort_by(|a, b| {
        (u64::from(b.1) * u64::from(a.2.max(1)))
            .cmp(&(u64::from(a.1) * u64::from(b.2.max(1))))
            .then(a.0.cmp(b.0))
    });
    let mut used = 0;
    for (c, _, w) in soldiers {
        if used + w <= room {
            used += w;
            *party.entry(c.clone()).or_default() += 1;
        }
    }
    (party, used)
}
