//! The Movement Events (digest 3.2): phases 1, 2, 3, ... while any unit still has a plan
//! entry for this phase or a later one, then one extra phase for delayed effects such as
//! homeless fleets (G37), never more than `settings.max_phases`. Each phase runs the steps
//! M1 to M15 for all kingdoms at once, units in (kingdom, unit id) order.
//!
//! Land and border battles (M11, M12) are fought by the battle engine (`crate::battle`);
//! fleet steps live in `fleets`, marching in `march`, ownership in `ownership`.

use super::Turn;
use super::units::{all_refs, entries, name, place, uref};
use super::{fleets, march, ownership, transfer};
use crate::event::{MoveStep, UnitRef, What, When};
use crate::ids::{KingdomCode, LocId, UnitKind};
use std::collections::BTreeSet;

/// What movement remembers from one phase to the next.
#[derive(Debug, Default)]
pub(crate) struct Moves {
    /// Units that existed when movement began: orders for others were reported at F8.
    pub known: BTreeSet<UnitRef>,
    /// Units whose disappearance during movement has been reported.
    pub vanished: BTreeSet<UnitRef>,
    /// Homeless fleets that fled (M5): their remaining sailing orders are cancelled.
    pub fled: BTreeSet<UnitRef>,
    /// Leaders who learned siegecraft this turn (2.5: at most once a turn).
    pub learned: crate::battle::land::Learned,
}

/// Armies or fleets of kingdoms at war that crossed one border in opposite directions in
/// the same phase (M11, 4.4; the sea version at M6). Neither side has crossed yet: each
/// stays where it started until the border battle is fought.
#[derive(Debug, Clone)]
pub(crate) struct Clash {
    pub between: (LocId, LocId),
    pub kingdoms: Vec<KingdomCode>,
    pub units: Vec<UnitRef>,
    /// The moves held back, in unit order: the winners make theirs after the battle.
    pub crossings: Vec<super::march::Crossing>,
}

/// One phase's work space.
#[derive(Debug, Default)]
pub(crate) struct Phase {
    pub number: u8,
    pub sea_clashes: Vec<Clash>,
    pub land_clashes: Vec<Clash>,
}

pub fn run(turn: &mut Turn) {
    run_phases(turn, |_, _| {});
}

/// Plays every phase, calling `after` with the turn once before the first phase (number 0)
/// and after each phase: the per-phase dry run (`preview`) reads positions there.
pub(crate) fn run_phases(turn: &mut Turn, mut after: impl FnMut(&Turn, u8)) {
    let mut mv = Moves {
        known: all_refs(&turn.state).into_iter().collect(),
        ..Moves::default()
    };
    after(turn, 0);
    let cap = turn.state.settings.max_phases;
    let mut extra_done = false;
    let mut played = 0u8;
    let mut p = 1u8;
    // M15, G37: repeat while plans remain, then once more; a fleet still waiting to flee
    // its port gets its phase too. The cap is the safety stop.
    while p <= cap {
        if last_planned(turn) < p {
            if extra_done && !fleets::homeless_waiting(turn) {
                break;
            }
            extra_done = true;
        }
        phase(turn, &mut mv, p);
        played = p;
        after(turn, p);
        p = match p.checked_add(1) {
            Some(n) => n,
            None => break,
        };
    }
    unplayed(turn, played);
}

/// The last phase any existing unit has a plan entry for.
fn last_planned(turn: &Turn) -> u8 {
    all_refs(&turn.state)
        .iter()
        .filter_map(|r| super::units::orders_of(turn, r))
        .map(|o| o.last_phase())
        .max()
        .unwrap_or(0)
}

/// G37: plan entries beyond the last phase played were never carried out.
fn unplayed(turn: &mut Turn, played: u8) {
    for r in all_refs(&turn.state) {
        let Some(o) = super::units::orders_of(turn, &r) else {
            continue;
        };
        for e in o.plan.iter().filter(|e| e.phase > played) {
            turn.fail(
                When::Phase(played, MoveStep::Pillage),
                &r.0,
                Some(r.1),
                format!("phase {} orders", e.phase),
                format!(
                    "only {played} phases were played this turn (the safety stop is {})",
                    turn.state.settings.max_phases
                ),
            );
        }
    }
}

fn phase(turn: &mut Turn, mv: &mut Moves, p: u8) {
    let mut ph = Phase {
        number: p,
        ..Phase::default()
    };
    vanished(turn, mv, p);
    transfers(turn, p); // M1
    prepare_to_board(turn, p); // M2
    fleets::load(turn, p, false); // M3
    fleets::sail(turn, mv, &mut ph); // M4
    fleets::homeless(turn, mv, p); // M5
    fleets::sea_battles(turn, &ph); // M6
    fleets::storage(turn, p); // M7
    fleets::unload(turn, p); // M8
    march::run(turn, &mut ph); // M9
    fleets::load(turn, p, true); // M9b (G12)
    defend(turn, p); // M10
    ownership::border_battles(turn, mv, &ph); // M11
    ownership::land_battles(turn, mv, p); // M12
    ownership::conquest(turn, p); // M13
    pillage(turn, p); // M14
}

/// A unit that existed when movement began but is gone now (scuttled, say) cannot carry
/// out its later plan: said once.
fn vanished(turn: &mut Turn, mv: &mut Moves, p: u8) {
    let orders = turn.orders;
    for (k, ko) in orders {
        if !turn.state.kingdoms.get(k).is_some_and(|x| x.alive) {
            continue;
        }
        for o in &ko.units {
            let r: UnitRef = (k.clone(), o.unit);
            let has_entry = o.plan.iter().any(|e| e.phase >= p);
            if has_entry
                && mv.known.contains(&r)
                && turn.state.unit(k, o.unit).is_none()
                && mv.vanished.insert(r.clone())
            {
                turn.fail(
                    When::Phase(p, MoveStep::Transfers),
                    k,
                    Some(o.unit),
                    "plan",
                    format!(
                        "{} no longer exists: the rest of its plan is void",
                        name(&r)
                    ),
                );
            }
        }
    }
}

/// M1: transfers of the phase, when giver and recipient stand in the same place now (T33).
fn transfers(turn: &mut Turn, p: u8) {
    let when = When::Phase(p, MoveStep::Transfers);
    for r in all_refs(&turn.state) {
        for e in entries(turn, &r, p) {
            for t in &e.transfers {
                transfer::run(turn, when, &r, t);
            }
        }
    }
}

/// M2: an army lets another kingdom's fleet load it. It costs `action_mp` and needs that
/// much left (G8).
fn prepare_to_board(turn: &mut Turn, p: u8) {
    let when = When::Phase(p, MoveStep::PrepareToBoard);
    let cost = turn.state.settings.action_mp;
    for r in all_refs(&turn.state) {
        for e in entries(turn, &r, p) {
            let Some(k) = &e.prepare_board else {
                continue;
            };
            let order = format!("prepare to board {k}'s fleets");
            let problem = match turn.state.unit(&r.0, r.1) {
                None => continue,
                Some(u) if u.kind() != UnitKind::Army => {
                    Some("only armies board fleets".to_string())
                }
                Some(u) if u.retreated => Some("it retreated this turn".to_string()),
                Some(u) if u.aboard.is_some() => Some("it is already aboard a fleet".to_string()),
                Some(_) if !turn.state.kingdoms.get(k).is_some_and(|x| x.alive) => {
                    Some(format!("there is no kingdom {k} in the game"))
                }
                Some(u) if u.mp() < cost => Some(format!(
                    "it needs {cost} move point{} and has {} left (G8)",
                    if cost == 1 { "" } else { "s" },
                    u.mp()
                )),
                Some(_) => None,
            };
            if let Some(reason) = problem {
                turn.fail(when, &r.0, Some(r.1), order, reason);
                continue;
            }
            if let Some(u) = turn.state.unit_mut(&r.0, r.1) {
                u.spend(cost);
                u.prepared_for = Some(k.clone());
            }
            turn.emit(
                when,
                What::BoardingPrepared {
                    unit: r.clone(),
                    for_kingdom: k.clone(),
                },
            );
        }
    }
}

/// M10: the army's defend-fortifications option for this phase takes effect before the
/// battles. Garrisons always defend; fleets never fight on land.
fn defend(turn: &mut Turn, p: u8) {
    let when = When::Phase(p, MoveStep::DefendOption);
    for r in all_refs(&turn.state) {
        for e in entries(turn, &r, p) {
            let Some(on) = e.defend else {
                continue;
            };
            let order = format!("defend fortifications {}", if on { "on" } else { "off" });
            let Some(u) = turn.state.unit_mut(&r.0, r.1) else {
                continue;
            };
            match u.kind() {
                UnitKind::Army => {
                    u.defend_forts = on;
                    turn.emit(
                        when,
                        What::AdminChanged {
                            unit: r.clone(),
                            what: if on {
                                "defends the fortifications".to_string()
                            } else {
                                "stays outside the fortifications".to_string()
                            },
                        },
                    );
                }
                UnitKind::Garrison => turn.fail(
                    when,
                    &r.0,
                    Some(r.1),
                    order,
                    "a garrison always defends its fortification",
                ),
                UnitKind::Fleet => {
                    turn.fail(when, &r.0, Some(r.1), order, "fleets never fight on land")
                }
            }
        }
    }
}

/// M14: pillage (G9). The unit needs a total combat of at least `pillage_combat`; an army
/// spends `action_mp` and must have it (G8; a garrison has no move points and pays none).
/// A province yields once a turn: its revenue at the current damage, straight into the
/// treasury. Ownership and annexation do not matter.
fn pillage(turn: &mut Turn, p: u8) {
    let when = When::Phase(p, MoveStep::Pillage);
    let cost = turn.state.settings.action_mp;
    let need = turn.state.settings.pillage_combat;
    for r in all_refs(&turn.state) {
        for e in entries(turn, &r, p) {
            if !e.pillage {
                continue;
            }
            let Some(u) = turn.state.unit(&r.0, r.1) else {
                continue;
            };
            let at = u.location;
            let combat = u.total_combat(&turn.state.tables);
            let problem = if u.kind() == UnitKind::Fleet {
                Some("fleets do not pillage".to_string())
            } else if u.aboard.is_some() {
                Some("it is aboard a fleet".to_string())
            } else if u.retreated {
                Some("it retreated this turn".to_string())
            } else if combat < need {
                Some(format!(
                    "its total combat is {combat}, under the {need} pillage needs (G9)"
                ))
            } else if u.kind() == UnitKind::Army && u.mp() < cost {
                Some(format!(
                    "it needs {cost} move point{} and has {} left (G8)",
                    if cost == 1 { "" } else { "s" },
                    u.mp()
                ))
            } else {
                match turn.state.provinces.get(&at) {
                    None => Some("there is nothing to pillage at sea".to_string()),
                    Some(pr) if pr.pillaged => Some(format!(
                        "{} was already pillaged this turn (G9)",
                        place(turn.map, at)
                    )),
                    Some(_) => None,
                }
            };
            if let Some(reason) = problem {
                turn.fail(when, &r.0, Some(r.1), "pillage", reason);
                continue;
            }
            let revenue = turn
                .map
                .get(at)
                .map_or_else(Default::default, |l| l.revenue);
            let damage = turn.state.provinces.get(&at).map_or(0, |x| x.damage);
            let gold = revenue.percent(turn.state.settings.revenue_percent(damage));
            if let Some(pr) = turn.state.provinces.get_mut(&at) {
                pr.pillaged = true;
            }
            if let Some(u) = turn.state.unit_mut(&r.0, r.1)
                && u.kind() == UnitKind::Army
            {
                u.spend(cost);
            }
            if let Some(x) = turn.state.kingdoms.get_mut(&r.0) {
                x.treasury += gold;
            }
            turn.emit(
                when,
                What::Pillaged {
                    province: at,
                    unit: r.clone(),
                    gold,
                },
            );
        }
    }
}

/// Armies aboard a fleet (owner and id).
pub(crate) fn cargo(turn: &Turn, fleet: &UnitRef) -> Vec<UnitRef> {
    turn.state
        .units
        .iter()
        .filter(|u| u.aboard.as_ref() == Some(fleet))
        .map(uref)
        .collect()
}

/// Moves a unit, and the armies it carries, to a location.
pub(crate) fn relocate(turn: &mut Turn, r: &UnitRef, to: LocId) {
    for a in cargo(turn, r) {
        if let Some(u) = turn.state.unit_mut(&a.0, a.1) {
            u.location = to;
        }
    }
    if let Some(u) = turn.state.unit_mut(&r.0, r.1) {
        u.location = to;
    }
}
