//! The land battles of a phase (M11, M12; digest 4.1, 4.4), fought by the battle engine
//! (`crate::battle`), and who owns a province afterwards (M13, G14).

use super::Turn;
use super::fleets::lose_fleet;
use super::movement::{Moves, Phase};
use super::units::{form_reported, hostile_in, uref};
use crate::event::{MoveStep, UnitRef, What, When};
use crate::ids::{KingdomCode, LocId, UnitId, UnitKind};
use crate::state::{Troop, Unit};
use crate::tables::Tables;
use std::collections::{BTreeMap, BTreeSet};

/// M11: armies of kingdoms at war that crossed one border against each other (found at
/// M9) fight there; the winners carry on (4.4, `battle::land`).
pub(crate) fn border_battles(turn: &mut Turn, mv: &mut Moves, ph: &Phase) {
    crate::battle::land::border_battles(turn, &mut mv.learned, ph);
}

/// Whether a unit stands in a province as a land force: an army ashore, or aboard a fleet
/// docked there ("armies fight normally whether they are loaded onto fleets or not", 4.1);
/// a garrison only if it holds soldiers or leaders (an empty one, or one holding ships
/// alone, defends nothing). Fleets never fight on land.
pub(crate) fn land_force(u: &Unit, tables: &Tables) -> bool {
    match u.kind() {
        UnitKind::Fleet => false,
        UnitKind::Army => !u.troops.is_empty() || !u.leaders.is_empty(),
        UnitKind::Garrison => u.soldiers(tables) > 0 || !u.leaders.is_empty(),
    }
}

/// Kingdoms with land forces in each province, and, apart, those standing ashore.
fn presence(turn: &Turn) -> BTreeMap<LocId, (BTreeSet<KingdomCode>, BTreeSet<KingdomCode>)> {
    let mut out: BTreeMap<LocId, (BTreeSet<KingdomCode>, BTreeSet<KingdomCode>)> = BTreeMap::new();
    for u in &turn.state.units {
        if !turn.state.provinces.contains_key(&u.location) || !land_force(u, &turn.state.tables) {
            continue;
        }
        let e = out.entry(u.location).or_default();
        e.0.insert(u.owner.clone());
        if u.aboard.is_none() {
            e.1.insert(u.owner.clone());
        }
    }
    out
}

/// Kingdoms with land forces in one province.
pub(crate) fn present_at(turn: &Turn, at: LocId) -> BTreeSet<KingdomCode> {
    turn.state
        .units
        .iter()
        .filter(|u| u.location == at && land_force(u, &turn.state.tables))
        .map(|u| u.owner.clone())
        .collect()
}

/// The kingdoms present in a province that have an enemy there (4.1, G38): only kingdoms
/// at war fight; the independents fight every intruder without special permission.
fn fighting(turn: &Turn, at: LocId, present: &BTreeSet<KingdomCode>) -> Vec<KingdomCode> {
    present
        .iter()
        .filter(|a| present.iter().any(|b| hostile_in(&turn.state, a, b, at)))
        .cloned()
        .collect()
}

/// M12: a land battle in every province holding land forces of kingdoms that fight each
/// other (4.1), fought to the end by the battle engine (`battle::land`).
pub(crate) fn land_battles(turn: &mut Turn, mv: &mut Moves, p: u8) {
    crate::battle::land::land_battles(turn, &mut mv.learned, p);
}

/// M13 (G14): a province whose owner has no land forces there, where no battle is pending
/// (one stopped undecided at the round limit leaves enemies facing each other),
/// and where invaders stand (kingdoms at war with the owner, or anyone on independent land
/// without special permission) passes to the invader with the most troops and leaders
/// ashore there; a tie goes to the higher total combat, then by lot. It changes hands only
/// if that kingdom's total combat there reaches `conquest_combat` (T55). Allies of the
/// owner not at war with the invader only watch (M13 proposal).
pub(crate) fn conquest(turn: &mut Turn, p: u8) {
    let when = When::Phase(p, MoveStep::Ownership);
    for (at, (present, ashore)) in presence(turn) {
        // Enemies still facing each other (a battle stopped undecided) settle nothing.
        if !fighting(turn, at, &present).is_empty() {
            continue;
        }
        let Some(owner) = turn.state.provinces.get(&at).map(|x| x.owner.clone()) else {
            continue;
        };
        let invaders: Vec<KingdomCode> = ashore
            .iter()
            .filter(|k| hostile_in(&turn.state, k, &owner, at))
            .cloned()
            .collect();
        if invaders.is_empty() {
            continue;
        }
        let tables = &turn.state.tables;
        let mut score: BTreeMap<KingdomCode, (usize, u32)> = BTreeMap::new();
        for u in turn
            .state
            .units
            .iter()
            .filter(|u| u.location == at && u.aboard.is_none() && u.kind() != UnitKind::Fleet)
        {
            if invaders.contains(&u.owner) {
                let e = score.entry(u.owner.clone()).or_default();
                // G14: leaders count as troops.
                e.0 += u.troops.len() + u.leaders.len();
                e.1 += u.total_combat(tables);
            }
        }
        let Some(best) = score.values().max().copied() else {
            continue;
        };
        let tied: Vec<KingdomCode> = score
            .iter()
            .filter(|(_, v)| **v == best)
            .map(|(k, _)| k.clone())
            .collect();
        let winner = if tied.len() == 1 {
            tied[0].clone()
        } else {
            tied[turn.rng.index(tied.len())].clone()
        };
        if best.1 < turn.state.settings.conquest_combat {
            continue; // "a lone siege machine cannot conquer a province"
        }
        change_owner(turn, when, at, &owner, &winner);
    }
}

/// What a change of owner does (M13): the province costs 2 to enter for everyone for the
/// rest of the turn; special permissions the old owner gave lapse; the harbour may be lost
/// (G32); the old owner's garrison, empty of soldiers, gives way to one of the new owner's
/// (the fortification stays with the province, T56); its ships form a fleet. The old
/// owner's fleets there are homeless and flee at the next M5 (G31); if no sea is joined to
/// the province they cannot flee and are captured or scuttled at once (T57). The
/// annexation stays with the old annexer.
fn change_owner(turn: &mut Turn, when: When, at: LocId, old: &KingdomCode, new: &KingdomCode) {
    let mut harbour_lost = false;
    let chance = turn.state.settings.harbour_loss_percent;
    let had_harbour = turn.state.provinces.get(&at).is_some_and(|p| p.harbour);
    if had_harbour && turn.rng.range(1, 100) <= chance {
        harbour_lost = true;
    }
    if let Some(pr) = turn.state.provinces.get_mut(&at) {
        pr.owner = new.clone();
        pr.changed = true;
        pr.permissions.clear();
        if harbour_lost {
            pr.harbour = false;
        }
    }
    turn.emit(
        when,
        What::OwnershipChanged {
            province: at,
            from: old.clone(),
            to: new.clone(),
        },
    );
    if harbour_lost {
        turn.emit(when, What::HarbourLost { province: at });
    }
    let gid = UnitId::garrison(at);
    let had_garrison = match turn.state.unit_index(old, gid) {
        Some(i) => {
            let g = turn.state.units.remove(i);
            let ships: Vec<Troop> = g
                .troops
                .into_iter()
                .filter(|t| {
                    turn.state
                        .tables
                        .troop(&t.code)
                        .is_some_and(|x| x.is_ship())
                })
                .collect();
            // T57: ships in a garrison form a fleet and try to flee.
            if !ships.is_empty()
                && let Some(id) = form_reported(turn, when, old, UnitKind::Fleet, at, gid)
                && let Some(u) = turn.state.unit_mut(old, id)
            {
                u.troops = ships;
            }
            true
        }
        None => false,
    };
    let keeps_garrison = had_garrison
        || turn.map.get(at).is_some_and(|l| l.city.is_some())
        || turn
            .state
            .provinces
            .get(&at)
            .is_some_and(|p| p.fort_level > 0);
    if keeps_garrison && turn.state.unit(new, gid).is_none() {
        let name = format!(
            "Garrison of {}",
            turn.map
                .get(at)
                .map_or_else(|| at.to_string(), |l| l.name.clone())
        );
        turn.state
            .insert_unit(Unit::new(new.clone(), gid, name, at));
    }
    // T57: ships with no sea to flee to are taken or scuttled now.
    if !turn.map.has_open_coast(at) {
        let trapped: Vec<UnitRef> = turn
            .state
            .units
            .iter()
            .filter(|u| {
                u.kind() == UnitKind::Fleet
                    && u.location == at
                    && hostile_in(&turn.state, &u.owner, new, at)
            })
            .map(uref)
            .collect();
        for f in trapped {
            lose_fleet(turn, when, &f, Some(new));
        }
    }
}
