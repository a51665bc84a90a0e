//! The fleet steps of a phase (digest 3.2): loading (M3, and again after the march, M9b,
//! G12), sailing (M4, G7), homeless fleets (M5, G31), sea battles (M6, fought in
//! `battle::sea`), the storage check (M7, G19) and unloading with amphibious landings (M8,
//! G33).

use super::Turn;
use super::march::{Crossing, clashes, follow, hold};
use super::movement::{Moves, Phase, cargo, relocate};
use super::units::{
    add_leader, all_refs, counts_of, entries, form_reported, form_unit, hostile_in, name, place,
    soldier_combat,
};
use crate::event::{MoveStep, UnitRef, What, When};
use crate::ids::{KingdomCode, LocId, UnitId, UnitKind};
use crate::orders::Step;
use crate::state::{Troop, Unit};
use std::collections::{BTreeMap, BTreeSet};

fn resolve(owner: &KingdomCode, k: &Option<KingdomCode>, id: UnitId) -> UnitRef {
    (k.clone().unwrap_or_else(|| owner.clone()), id)
}

/// Weight of the armies a fleet carries.
fn load_weight(turn: &Turn, fleet: &UnitRef) -> u32 {
    cargo(turn, fleet)
        .iter()
        .filter_map(|a| turn.state.unit(&a.0, a.1))
        .map(|u| u.weight(&turn.state.tables))
        .sum()
}

fn capacity(turn: &Turn, fleet: &UnitRef) -> u32 {
    turn.state
        .unit(&fleet.0, fleet.1)
        .map_or(0, |u| u.storage(&turn.state.tables))
}

/// M3 (before the phase's movement) and M9b (`after`, G12): fleets load armies. The army
/// needs no order if it is the fleet's kingdom's; a foreign army must have prepared to
/// board for that kingdom (M2). The fleet is in the army's province, or in a sea joined to
/// it without a reef. The army may weigh up to 1.5 times the fleet's free storage, or only
/// the free storage with `strict_load_limit` (G45). A loaded army has no MP left this turn.
pub(crate) fn load(turn: &mut Turn, p: u8, after: bool) {
    let step = if after {
        MoveStep::LoadAgain
    } else {
        MoveStep::Load
    };
    let when = When::Phase(p, step);
    for f in all_refs(&turn.state) {
        for e in entries(turn, &f, p) {
            let list = if after { &e.load_after } else { &e.load };
            for (k, id) in list {
                let a = resolve(&f.0, k, *id);
                let order = format!("load {}", name(&a));
                match check_load(turn, &f, &a) {
                    Err(reason) => turn.fail(when, &f.0, Some(f.1), order, reason),
                    Ok(at) => {
                        if let Some(u) = turn.state.unit_mut(&a.0, a.1) {
                            u.aboard = Some(f.clone());
                            u.location = at;
                            u.stop();
                        }
                        turn.emit(
                            when,
                            What::Loaded {
                                fleet: f.clone(),
                                army: a,
                                at,
                            },
                        );
                    }
                }
            }
        }
    }
}

fn check_load(turn: &Turn, f: &UnitRef, a: &UnitRef) -> Result<LocId, String> {
    let state = &turn.state;
    let Some(fleet) = state.unit(&f.0, f.1) else {
        return Err(format!("{} no longer exists", name(f)));
    };
    if fleet.kind() != UnitKind::Fleet {
        return Err("only fleets load armies".to_string());
    }
    if fleet.retreated {
        return Err("the fleet retreated this turn".to_string());
    }
    let Some(army) = state.unit(&a.0, a.1) else {
        return Err(format!("there is no unit {}", name(a)));
    };
    if army.kind() != UnitKind::Army {
        return Err(format!("{} is not an army", name(a)));
    }
    if let Some(on) = &army.aboard {
        return Err(if on == f {
            format!("{} is already aboard", name(a))
        } else {
            format!("{} is aboard {}", name(a), name(on))
        });
    }
    if army.retreated {
        return Err(format!("{} retreated this turn", name(a)));
    }
    // 4.6: soldiers and a fleet of kingdoms at war are enemies, never passengers (an army
    // already aboard when war comes fights the crew at M6).
    if hostile_in(state, &a.0, &f.0, fleet.location) {
        return Err(format!("{} and {} are at war", a.0, f.0));
    }
    // M2: "your army will refuse to board any foreign fleet" unless prepared for it.
    if a.0 != f.0 && army.prepared_for.as_ref() != Some(&f.0) {
        return Err(format!(
            "{} has not prepared to board {}'s fleets (M2)",
            name(a),
            f.0
        ));
    }
    let at = fleet.location;
    let joined = army.location == at
        || turn
            .map
            .get(at)
            .is_some_and(|l| l.is_sea() && l.edge(army.location).is_some_and(|e| !e.barrier));
    if !joined {
        let reef = turn
            .map
            .get(at)
            .and_then(|l| l.edge(army.location))
            .is_some_and(|e| e.barrier);
        return Err(if reef {
            "a reef bars that coast".to_string()
        } else {
            format!(
                "the fleet in {} is not next to {} in {}",
                place(turn.map, at),
                name(a),
                place(turn.map, army.location)
            )
        });
    }
    let weight = army.weight(&state.tables);
    let free = capacity(turn, f).saturating_sub(load_weight(turn, f));
    // G45: "50% more than the storage" read literally, or strictly.
    let fits = if state.settings.strict_load_limit {
        weight <= free
    } else {
        u64::from(weight) * 2 <= u64::from(free) * 3
    };
    if !fits {
        return Err(format!(
            "{} weighs {weight} and the fleet has {free} storage free{}",
            name(a),
            if state.settings.strict_load_limit {
                ""
            } else {
                " (at most half as much again may board, G45)"
            }
        ));
    }
    Ok(at)
}

/// Judges one fleet's sail (G7) and files the move or the failure.
pub(crate) fn decide_sail(
    turn: &mut Turn,
    when: When,
    r: &UnitRef,
    to: LocId,
    leader: Option<&UnitRef>,
    moves: &mut Vec<Crossing>,
) {
    let order = match leader {
        Some(l) => format!("follow {} to {}", l.1, place(turn.map, to)),
        None => format!("sail to {}", place(turn.map, to)),
    };
    let Some(u) = turn.state.unit(&r.0, r.1) else {
        return;
    };
    let from = u.location;
    match judge_sail(turn, u, to) {
        Ok(()) => moves.push(Crossing {
            unit: r.clone(),
            from,
            to,
            cost: 1,
        }),
        Err((true, reason)) => turn.emit(
            when,
            What::Bounced {
                unit: r.clone(),
                at: from,
                toward: to,
                reason,
            },
        ),
        Err((false, reason)) => turn.fail(when, &r.0, Some(r.1), order, reason),
    }
}

/// G7: 1 MP a move, sea to sea or between a sea and a province; docking needs a harbour,
/// no reef, permission, and never an enemy-owned province. Err((bounced, reason)).
fn judge_sail(turn: &Turn, u: &Unit, to: LocId) -> Result<(), (bool, String)> {
    let fail = |s: String| Err((false, s));
    if u.retreated {
        return fail("it retreated this turn".to_string());
    }
    if !u.troops.iter().any(|t| {
        turn.state
            .tables
            .troop(&t.code)
            .is_some_and(|x| x.is_ship())
    }) {
        return fail("a fleet without ships cannot sail".to_string());
    }
    let from = u.location;
    if from == to {
        return fail(format!("it is already in {}", place(turn.map, to)));
    }
    let Some(target) = turn.map.get(to) else {
        return fail(format!("there is no location {to}"));
    };
    let Some(here) = turn.map.get(from) else {
        return fail(format!("there is no location {from}"));
    };
    let Some(edge) = here.edge(to) else {
        return fail(format!(
            "{} does not border {}, where the fleet is",
            place(turn.map, to),
            place(turn.map, from)
        ));
    };
    if !here.is_sea() && !target.is_sea() {
        return fail("fleets sail between seas, or between a sea and a coast".to_string());
    }
    if edge.barrier {
        return fail("a reef bars that coast".to_string());
    }
    if !target.is_sea() {
        let Some(p) = turn.state.provinces.get(&to) else {
            return fail(format!("there is no province {to}"));
        };
        if !p.harbour {
            return fail(format!("{} has no harbour to dock in", place(turn.map, to)));
        }
        if hostile_in(&turn.state, &u.owner, &p.owner, to) {
            return fail(format!(
                "{} belongs to {}, an enemy: fleets never dock there",
                place(turn.map, to),
                p.owner
            ));
        }
        if !turn.state.has_permission(&u.owner, to) {
            return Err((
                true,
                format!(
                    "{} belongs to {}, who gave no permission to dock (2.9)",
                    place(turn.map, to),
                    p.owner
                ),
            ));
        }
    }
    if u.mp() < 1 {
        return fail("no move points left".to_string());
    }
    Ok(())
}

/// M4: fleets set sail, carrying the armies aboard. A fleet that fled its port this turn
/// sails no more (M5). Enemy fleets swapping across one border stay where they are until
/// their border battle at M6 lets the winners cross (4.4, the sea version).
pub(crate) fn sail(turn: &mut Turn, mv: &Moves, ph: &mut Phase) {
    let p = ph.number;
    let when = When::Phase(p, MoveStep::Sail);
    let mut moves: Vec<Crossing> = Vec::new();
    let mut acted: BTreeSet<UnitRef> = BTreeSet::new();
    for r in all_refs(&turn.state) {
        let steps: Vec<Step> = entries(turn, &r, p).iter().filter_map(|e| e.step).collect();
        let Some(first) = steps.first().copied() else {
            continue;
        };
        if turn.state.unit(&r.0, r.1).map(|u| u.kind()) != Some(UnitKind::Fleet) {
            continue;
        }
        acted.insert(r.clone());
        for _ in &steps[1..] {
            let reason = "one movement a phase: only the first is carried out";
            turn.fail(when, &r.0, Some(r.1), "sail", reason);
        }
        if mv.fled.contains(&r) {
            let reason =
                "it fled its port as a homeless fleet: its sailing orders are cancelled (M5)";
            turn.fail(when, &r.0, Some(r.1), "sail", reason);
            continue;
        }
        match first {
            Step::Hold => hold(turn, when, &r),
            Step::Move(to) => decide_sail(turn, when, &r, to, None, &mut moves),
        }
    }
    acted.extend(mv.fled.iter().cloned());
    follow(turn, when, &mut acted, &mut moves, UnitKind::Fleet);
    let (held, list) = clashes(turn, &moves);
    ph.sea_clashes = list;
    for c in moves.iter().filter(|c| !held.contains(&c.unit)) {
        relocate(turn, &c.unit, c.to);
        if let Some(u) = turn.state.unit_mut(&c.unit.0, c.unit.1) {
            u.spend(c.cost);
        }
        turn.emit(
            when,
            What::Moved {
                unit: c.unit.clone(),
                from: c.from,
                to: c.to,
                cost: c.cost,
            },
        );
    }
}

/// A fleet in a province with no harbour, or owned by a kingdom at war with it, is
/// homeless (2.6, M5).
fn is_homeless(turn: &Turn, u: &Unit) -> bool {
    if u.kind() != UnitKind::Fleet {
        return false;
    }
    match turn.state.provinces.get(&u.location) {
        None => false,
        Some(p) => !p.harbour || hostile_in(&turn.state, &u.owner, &p.owner, u.location),
    }
}

/// Whether some fleet still waits to flee its port at the next M5 (G37's extra phase).
pub(crate) fn homeless_waiting(turn: &Turn) -> bool {
    turn.state.units.iter().any(|u| is_homeless(turn, u))
}

/// Seas joined to a province over a coast without a reef, in id order.
fn open_seas(turn: &Turn, at: LocId) -> Vec<LocId> {
    turn.map.get(at).map_or_else(Vec::new, |l| {
        l.edges
            .iter()
            .filter(|e| !e.barrier && turn.map.get(e.to).is_some_and(|x| x.is_sea()))
            .map(|e| e.to)
            .collect()
    })
}

/// M5 (G31): a fleet found homeless at this step (it became so at an earlier phase's M13,
/// or by war or a lost harbour before) flees to a random sea joined to its province, using
/// all its MP; its remaining sailing orders are cancelled. With no sea to flee to, its ships
/// are scuttled and its leaders form a new army.
pub(crate) fn homeless(turn: &mut Turn, mv: &mut Moves, p: u8) {
    let when = When::Phase(p, MoveStep::HomelessDepart);
    for r in all_refs(&turn.state) {
        let Some(u) = turn.state.unit(&r.0, r.1) else {
            continue;
        };
        if !is_homeless(turn, u) {
            continue;
        }
        let from = u.location;
        let seas = open_seas(turn, from);
        if seas.is_empty() {
            turn.emit(
                when,
                What::HomelessFled {
                    fleet: r.clone(),
                    from,
                    to: None,
                },
            );
            lose_fleet(turn, when, &r, None);
            continue;
        }
        let to = seas[turn.rng.index(seas.len())];
        relocate(turn, &r, to);
        if let Some(u) = turn.state.unit_mut(&r.0, r.1) {
            u.stop();
        }
        mv.fled.insert(r.clone());
        turn.emit(
            when,
            What::HomelessFled {
                fleet: r.clone(),
                from,
                to: Some(to),
            },
        );
    }
}

/// Ships that cannot flee (M5 with no sea; T57 at a conquest): each is captured by
/// `captor` with its capture chance (10 % warships, 20 % transports), else scuttled by its
/// crew. Captured ships form one new fleet of the captor there. The leaders form a new
/// army; the armies aboard are put ashore where the fleet lay. The fleet is gone.
pub(crate) fn lose_fleet(turn: &mut Turn, when: When, r: &UnitRef, captor: Option<&KingdomCode>) {
    let Some(idx) = turn.state.unit_index(&r.0, r.1) else {
        return;
    };
    let fleet = turn.state.units.remove(idx);
    let at = fleet.location;
    for a in cargo(turn, r) {
        if let Some(u) = turn.state.unit_mut(&a.0, a.1) {
            u.aboard = None;
            u.location = at;
        }
    }
    let mut captured: Vec<Troop> = Vec::new();
    let mut scuttled: Vec<Troop> = Vec::new();
    for mut t in fleet.troops {
        let chance = turn.state.tables.troop(&t.code).map_or(0, |x| x.capture);
        if captor.is_some() && turn.rng.range(1, 100) <= chance {
            t.mp = 0;
            captured.push(t);
        } else {
            scuttled.push(t);
        }
    }
    let mut captured_by = None;
    if let Some(k) = captor
        && !captured.is_empty()
    {
        match form_unit(&mut turn.state, k, UnitKind::Fleet, at) {
            Some(id) => {
                if let Some(u) = turn.state.unit_mut(k, id) {
                    u.troops = captured.clone();
                }
                captured_by = Some((k.clone(), id));
            }
            // No room for a 100th fleet: the prize is scuttled.
            None => scuttled.append(&mut captured),
        }
    }
    let mut leaders_to = None;
    if !fleet.leaders.is_empty()
        && let Some(id) = form_reported(turn, when, &r.0, UnitKind::Army, at, r.1)
    {
        if let Some(u) = turn.state.unit_mut(&r.0, id) {
            for l in fleet.leaders {
                add_leader(u, l);
            }
            u.stop();
        }
        leaders_to = Some((r.0.clone(), id));
    }
    turn.emit(
        when,
        What::FleetLost {
            fleet: r.clone(),
            at,
            captured: counts_of(&captured),
            captured_by,
            scuttled: counts_of(&scuttled),
            leaders_to,
        },
    );
}

/// M6: sea battles, fought by the battle engine (`battle::sea`): fleets that crossed one
/// border at sea against each other, then fleets of kingdoms at war sharing a sea.
pub(crate) fn sea_battles(turn: &mut Turn, ph: &Phase) {
    crate::battle::sea::sea_battles(turn, ph);
}

/// M7: a fleet carrying more than its storage throws soldiers overboard, chosen at random
/// with heavy and cheap troops likelier (G19: chance in proportion to weight / cost). A
/// thrown troop goes to another fleet of its own kingdom in the same place with room for
/// it (into an army of that kingdom aboard, or a new one), else it is lost.
pub(crate) fn storage(turn: &mut Turn, p: u8) {
    let when = When::Phase(p, MoveStep::StorageChecked);
    for f in all_refs(&turn.state) {
        if f.1.kind != UnitKind::Fleet {
            continue;
        }
        let room = capacity(turn, &f);
        let mut lost: Vec<Troop> = Vec::new();
        while load_weight(turn, &f) > room {
            let mut pool: Vec<(UnitRef, usize, u64)> = Vec::new();
            for a in cargo(turn, &f) {
                let Some(u) = turn.state.unit(&a.0, a.1) else {
                    continue;
                };
                for (i, t) in u.troops.iter().enumerate() {
                    let Some(x) = turn.state.tables.troop(&t.code) else {
                        continue;
                    };
                    if x.weight == 0 {
                        continue;
                    }
                    let w = (u64::from(x.weight) * 10_000 / x.cost.0.max(1) as u64).max(1);
                    pool.push((a.clone(), i, w));
                }
            }
            let total: u64 = pool.iter().map(|x| x.2).sum();
            if total == 0 {
                break;
            }
            let mut pick = u64::from(turn.rng.range(1, total.min(u64::from(u32::MAX)) as u32));
            let mut chosen = pool.len() - 1;
            for (j, x) in pool.iter().enumerate() {
                if pick <= x.2 {
                    chosen = j;
                    break;
                }
                pick -= x.2;
            }
            let (army, i, _) = pool[chosen].clone();
            let Some(troop) = turn
                .state
                .unit_mut(&army.0, army.1)
                .map(|u| u.troops.remove(i))
            else {
                break;
            };
            match rescue(turn, when, &f, &army, troop) {
                Ok((to, t)) => turn.emit(
                    when,
                    What::Transferred {
                        from: army.clone(),
                        to,
                        troops: counts_of(std::slice::from_ref(&t)),
                        leaders: Vec::new(),
                    },
                ),
                Err(t) => lost.push(t),
            }
        }
        if !lost.is_empty() {
            turn.emit(
                when,
                What::Overboard {
                    fleet: f.clone(),
                    troops: counts_of(&lost),
                },
            );
        }
    }
}

/// Finds room for a thrown troop aboard another fleet of its kingdom in the same place.
fn rescue(
    turn: &mut Turn,
    when: When,
    from_fleet: &UnitRef,
    army: &UnitRef,
    t: Troop,
) -> Result<(UnitRef, Troop), Troop> {
    let Some(at) = turn
        .state
        .unit(&from_fleet.0, from_fleet.1)
        .map(|u| u.location)
    else {
        return Err(t);
    };
    let weight = turn.state.tables.troop(&t.code).map_or(0, |x| x.weight);
    let others: Vec<UnitRef> = turn
        .state
        .units
        .iter()
        .filter(|u| {
            u.kind() == UnitKind::Fleet
                && u.owner == army.0
                && u.location == at
                && &(u.owner.clone(), u.id) != from_fleet
        })
        .map(|u| (u.owner.clone(), u.id))
        .collect();
    for o in others {
        if capacity(turn, &o).saturating_sub(load_weight(turn, &o)) < weight {
            continue;
        }
        let aboard = cargo(turn, &o).into_iter().find(|a| a.0 == army.0);
        let to = match aboard {
            Some(a) => a,
            None => match form_reported(turn, when, &army.0, UnitKind::Army, at, o.1) {
                Some(id) => {
                    if let Some(u) = turn.state.unit_mut(&army.0, id) {
                        u.aboard = Some(o.clone());
                    }
                    (army.0.clone(), id)
                }
                None => continue,
            },
        };
        if let Some(u) = turn.state.unit_mut(&to.0, to.1) {
            u.troops.push(t.clone());
            return Ok((to, t));
        }
    }
    Err(t)
}

/// M8: fleets put armies ashore in their own province or on a coast of their sea without
/// a reef. Into own land or land the army has permission for it simply lands; into enemy or
/// independent land it is an amphibious invasion. Every army of one kingdom landing on one
/// province in this phase, whichever fleets carry them, makes one roll together, with a
/// chance equal to their soldiers' unmodified total combat (G33 as corrected: Ch5 sums "all
/// soldiers in all armies being unloaded"), 100 or more always succeeding. A failed landing
/// leaves them aboard. Neutral or allied land without permission refuses them. After a
/// landing the fleet and the armies have no MP left.
pub(crate) fn unload(turn: &mut Turn, p: u8) {
    let when = When::Phase(p, MoveStep::Unload);
    let mut plain: Vec<(UnitRef, UnitRef, LocId)> = Vec::new();
    // (province, the armies' kingdom) -> (fleet, army), in the order the fleets come.
    let mut amphibious: BTreeMap<(LocId, KingdomCode), Vec<(UnitRef, UnitRef)>> = BTreeMap::new();
    for f in all_refs(&turn.state) {
        let mut queued: BTreeSet<UnitRef> = BTreeSet::new();
        for e in entries(turn, &f, p) {
            for (k, id, target) in &e.unload {
                let a = resolve(&f.0, k, *id);
                let order = format!("unload {} in {}", name(&a), place(turn.map, *target));
                if queued.contains(&a) {
                    let reason = "it is already being unloaded this phase";
                    turn.fail(when, &f.0, Some(f.1), order, reason);
                    continue;
                }
                match check_unload(turn, &f, &a, *target) {
                    Err(reason) => turn.fail(when, &f.0, Some(f.1), order, reason),
                    Ok(false) => {
                        queued.insert(a.clone());
                        plain.push((f.clone(), a, *target));
                    }
                    Ok(true) => {
                        queued.insert(a.clone());
                        let key = (*target, a.0.clone());
                        amphibious.entry(key).or_default().push((f.clone(), a));
                    }
                }
            }
        }
    }
    let mut landed: BTreeSet<UnitRef> = BTreeSet::new();
    for (f, a, at) in plain {
        put_ashore(turn, when, &f, &a, at, false);
        landed.insert(f);
    }
    for ((at, _), landing) in amphibious {
        let tables = &turn.state.tables;
        let chance: u32 = landing
            .iter()
            .filter_map(|(_, a)| turn.state.unit(&a.0, a.1))
            .map(|u| soldier_combat(u, tables))
            .sum();
        let success = chance >= 100 || turn.rng.range(1, 100) <= chance;
        let fleets: BTreeSet<UnitRef> = landing.iter().map(|(f, _)| f.clone()).collect();
        if !success {
            for fleet in fleets {
                turn.emit(when, What::LandingFailed { fleet, at, chance });
            }
            continue;
        }
        for (f, a) in &landing {
            put_ashore(turn, when, f, a, at, true);
        }
        landed.extend(fleets);
    }
    for f in landed {
        if let Some(u) = turn.state.unit_mut(&f.0, f.1) {
            u.stop();
        }
    }
}

fn put_ashore(turn: &mut Turn, when: When, f: &UnitRef, a: &UnitRef, at: LocId, amphibious: bool) {
    if let Some(u) = turn.state.unit_mut(&a.0, a.1) {
        u.aboard = None;
        u.location = at;
        u.stop();
    }
    turn.emit(
        when,
        What::Unloaded {
            fleet: f.clone(),
            army: a.clone(),
            at,
            amphibious,
        },
    );
}

/// Ok(amphibious?) or the reason the army cannot be put ashore there.
fn check_unload(turn: &Turn, f: &UnitRef, a: &UnitRef, target: LocId) -> Result<bool, String> {
    let state = &turn.state;
    let Some(fleet) = state.unit(&f.0, f.1) else {
        return Err(format!("{} no longer exists", name(f)));
    };
    if fleet.kind() != UnitKind::Fleet {
        return Err("only fleets unload armies".to_string());
    }
    if fleet.retreated {
        return Err("the fleet retreated this turn".to_string());
    }
    let Some(army) = state.unit(&a.0, a.1) else {
        return Err(format!("there is no unit {}", name(a)));
    };
    if army.aboard.as_ref() != Some(f) {
        return Err(format!("{} is not aboard {}", name(a), name(f)));
    }
    let Some(p) = state.provinces.get(&target) else {
        return Err(format!("{target} is not a province"));
    };
    let at = fleet.location;
    if at != target {
        match turn.map.get(at).and_then(|l| l.edge(target)) {
            Some(e) if e.barrier => return Err("a reef bars that coast".to_string()),
            Some(_) if turn.map.get(at).is_some_and(|l| l.is_sea()) => {}
            _ => {
                return Err(format!(
                    "{} is not on the coast of {}, where the fleet is",
                    place(turn.map, target),
                    place(turn.map, at)
                ));
            }
        }
    }
    if state.has_permission(&a.0, target) {
        return Ok(false);
    }
    if hostile_in(state, &a.0, &p.owner, target) {
        return Ok(true);
    }
    Err(format!(
        "{} belongs to {}, who gave {} no permission (2.9)",
        place(turn.map, target),
        p.owner,
        a.0
    ))
}
