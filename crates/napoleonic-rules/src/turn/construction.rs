//! Structures (digest 2.6): L8 Construction Happens (the free repair of a fortification,
//! then ordered building and repair) and L10 Structures Razed. The checks are public so the
//! Headquarters money panel can price the same orders.

use super::Turn;
use super::economy::{earn, sorted_unit_orders, spend, treasury};
use crate::event::{What, When};
use crate::fixed::{Fixed, Gold};
use crate::ids::{KingdomCode, LocId, UnitId, UnitKind};
use crate::map::Map;
use crate::orders::Structure;
use crate::state::{GameState, Unit};
use std::collections::BTreeSet;

fn place_name(map: &Map, at: LocId) -> String {
    map.get(at)
        .map_or_else(|| at.to_string(), |l| format!("{} {}", l.id, l.name))
}

/// Where a unit may build, repair or raze (L8, L10 proposals): an army on land (not aboard
/// a fleet) or a garrison, in a province its kingdom owns at this moment.
fn site<'s>(
    map: &Map,
    state: &'s GameState,
    k: &KingdomCode,
    unit: UnitId,
) -> Result<(&'s Unit, LocId), String> {
    let u = state
        .unit(k, unit)
        .ok_or_else(|| format!("{k} has no unit {unit}"))?;
    match u.kind() {
        UnitKind::Fleet => {
            return Err("fleets do not build or raze; armies and garrisons do".into());
        }
        UnitKind::Army if u.aboard.is_some() => {
            return Err("an army aboard a fleet cannot build or raze".into());
        }
        _ => {}
    }
    let at = u.location;
    match state.provinces.get(&at) {
        Some(p) if &p.owner == k => Ok((u, at)),
        Some(p) => Err(format!(
            "{} is held by {}, and a unit builds or razes only in its own kingdom's provinces",
            place_name(map, at),
            p.owner
        )),
        None => Err(format!("{} is not a province", place_name(map, at))),
    }
}

/// Workers are the unit's soldiers (2.6: "3 workers needed means at least 3 soldiers").
fn workers(state: &GameState, u: &Unit, needed: u32, what: &str) -> Result<(), String> {
    let have = u.soldiers(&state.tables) as u32;
    if have < needed {
        Err(format!(
            "{what} needs {needed} workers (soldiers in the unit), and it has {have}"
        ))
    } else {
        Ok(())
    }
}

/// Judges a build order and returns (gold, what is built). A fortification rises one level
/// a turn; gold and workers come from the table row of the fortification being raised (G2,
/// G3: "a hillfort requires 3 workers and 14 gold to raise the level by one", so raising
/// the level-2 hillfort costs 14; with no fortification yet, the first row prices it). A harbour needs a city and a coast without a reef (2.6) and costs
/// `harbour_cost`; the rulebook names no workers for it, so it needs none.
pub fn build_check(
    map: &Map,
    state: &GameState,
    k: &KingdomCode,
    unit: UnitId,
    structure: Structure,
) -> Result<(Gold, String), String> {
    let (u, at) = site(map, state, k, unit)?;
    let p = &state.provinces[&at];
    match structure {
        Structure::Fortification => {
            let level = p.fort_level + 1;
            let new = state.tables.fort(level).ok_or_else(|| {
                format!(
                    "the fortification of {} is at the highest level, {}",
                    place_name(map, at),
                    p.fort_level
                )
            })?;
            let row = state.tables.fort(p.fort_level.max(1)).unwrap_or(new);
            let what = format!("fortification level {level} ({})", new.name);
            workers(state, u, row.workers, &what)?;
            Ok((row.gold, what))
        }
        Structure::Harbour => {
            if p.harbour {
                return Err(format!("{} has a harbour already", place_name(map, at)));
            }
            if map.get(at).is_none_or(|l| l.city.is_none()) {
                return Err(format!(
                    "{} has no city, and a harbour needs one",
                    place_name(map, at)
                ));
            }
            if !map.has_open_coast(at) {
                return Err(format!(
                    "{} has no coast free of reefs, and a harbour needs one",
                    place_name(map, at)
                ));
            }
            Ok((Fixed::whole(state.settings.harbour_cost), "harbour".into()))
        }
    }
}

/// Judges a REPAIR order: one more level of fortification damage mended, for the gold and
/// workers of the level it restores (G11).
pub fn repair_check(
    map: &Map,
    state: &GameState,
    k: &KingdomCode,
    unit: UnitId,
) -> Result<(Gold, String), String> {
    let (u, at) = site(map, state, k, unit)?;
    let p = &state.provinces[&at];
    if p.fort_damage == 0 {
        return Err(format!(
            "the fortification of {} has no damage to repair",
            place_name(map, at)
        ));
    }
    let level = p.effective_fort() + 1;
    let row = state
        .tables
        .fort(level)
        .ok_or_else(|| format!("there is no fortification level {level} in the table"))?;
    let what = format!("repair of fortification level {level} ({})", row.name);
    workers(state, u, row.workers, &what)?;
    Ok((row.gold, what))
}

/// Judges a raze order and returns (salvage, what is razed): one fortification level for
/// the table's `raze` of that level, or the harbour for `harbour_raze` (L10).
pub fn raze_check(
    map: &Map,
    state: &GameState,
    k: &KingdomCode,
    unit: UnitId,
    structure: Structure,
) -> Result<(Gold, String), String> {
    let (_, at) = site(map, state, k, unit)?;
    let p = &state.provinces[&at];
    match structure {
        Structure::Fortification => {
            if p.fort_level == 0 {
                return Err(format!("{} has no fortification", place_name(map, at)));
            }
            let row = state.tables.fort(p.fort_level);
            Ok((
                row.map_or(Gold::ZERO, |r| r.raze),
                format!(
                    "fortification level {}{}",
                    p.fort_level,
                    row.map(|r| format!(" ({})", r.name)).unwrap_or_default()
                ),
            ))
        }
        Structure::Harbour => {
            if !p.harbour {
                return Err(format!("{} has no harbour", place_name(map, at)));
            }
            Ok((Fixed::whole(state.settings.harbour_raze), "harbour".into()))
        }
    }
}

/// G8: building, repairing and razing cost an army `action_mp` move points, and it needs
/// them left; a garrison never moves and pays none.
fn check_mp(turn: &Turn, k: &KingdomCode, unit: UnitId) -> Result<(), String> {
    let need = turn.state.settings.action_mp;
    match turn.state.unit(k, unit) {
        Some(u) if u.kind() == UnitKind::Army && u.mp() < need => Err(format!(
            "it takes {need} move points and the army has {} left",
            u.mp()
        )),
        _ => Ok(()),
    }
}

fn spend_mp(turn: &mut Turn, k: &KingdomCode, unit: UnitId) {
    let need = turn.state.settings.action_mp;
    if let Some(u) = turn.state.unit_mut(k, unit)
        && u.kind() == UnitKind::Army
    {
        u.spend(need);
    }
}

/// Carries out a checked build or repair: once a province a turn, MP, then gold. Returns
/// the province and the gold spent.
fn pay_for_work(
    turn: &mut Turn,
    k: &KingdomCode,
    unit: UnitId,
    label: &str,
    checked: Result<(Gold, String), String>,
    once: &mut BTreeSet<LocId>,
    once_reason: &str,
) -> Option<(LocId, Gold, String)> {
    const WHEN: When = When::Final(8);
    let result = checked.and_then(|(cost, what)| {
        let at = turn
            .state
            .unit(k, unit)
            .map(|u| u.location)
            .expect("checked");
        if once.contains(&at) {
            return Err(once_reason.to_string());
        }
        check_mp(turn, k, unit)?;
        if treasury(&turn.state, k) < cost {
            return Err(format!(
                "{what} costs {cost} gold and the treasury holds {}",
                treasury(&turn.state, k)
            ));
        }
        Ok((at, cost, what))
    });
    match result {
        Err(reason) => {
            turn.fail(WHEN, k, Some(unit), label, reason);
            None
        }
        Ok((at, cost, what)) => {
            spend(&mut turn.state, k, cost);
            spend_mp(turn, k, unit);
            once.insert(at);
            Some((at, cost, what))
        }
    }
}

pub fn construction(turn: &mut Turn) {
    const WHEN: When = When::Final(8);
    // G11: first the free repair of one level of fortification damage where there was no
    // battle and no pillage this turn (T68, T69: two levels can come back in one turn).
    let ids: Vec<LocId> = turn.state.provinces.keys().copied().collect();
    for id in ids {
        let p = turn.state.provinces.get_mut(&id).expect("listed");
        if p.fort_damage > 0 && !p.battle && !p.pillaged {
            p.fort_damage -= 1;
            let damage = p.fort_damage;
            turn.emit(
                WHEN,
                What::FortRepaired {
                    province: id,
                    damage,
                },
            );
        }
    }
    let orders = turn.orders;
    let mut repaired: BTreeSet<LocId> = BTreeSet::new();
    let mut raised: BTreeSet<LocId> = BTreeSet::new();
    for k in turn.ordering_kingdoms() {
        for uo in sorted_unit_orders(&orders[&k]) {
            if uo.repair {
                let checked = repair_check(turn.map, &turn.state, &k, uo.unit);
                if let Some((at, cost, what)) = pay_for_work(
                    turn,
                    &k,
                    uo.unit,
                    "repair the fortification",
                    checked,
                    &mut repaired,
                    "one level of fortification damage is repaired by order a turn",
                ) {
                    let p = turn.state.provinces.get_mut(&at).expect("checked");
                    p.fort_damage -= 1;
                    turn.emit(
                        WHEN,
                        What::Built {
                            unit: (k.clone(), uo.unit),
                            province: at,
                            what,
                            cost,
                        },
                    );
                }
            }
            let Some(structure) = uo.build else {
                continue;
            };
            // 2.6: a fortification rises one level a turn by building; a harbour is
            // built once, and its own flag keeps a second one from being paid for.
            let mut no_limit = BTreeSet::new();
            let (label, once) = match structure {
                Structure::Fortification => ("build a fortification level", &mut raised),
                Structure::Harbour => ("build a harbour", &mut no_limit),
            };
            let checked = build_check(turn.map, &turn.state, &k, uo.unit, structure);
            if let Some((at, cost, what)) = pay_for_work(
                turn,
                &k,
                uo.unit,
                label,
                checked,
                once,
                "a fortification rises by one level a turn",
            ) {
                let p = turn.state.provinces.get_mut(&at).expect("checked");
                match structure {
                    Structure::Fortification => p.fort_level += 1,
                    Structure::Harbour => p.harbour = true,
                }
                turn.emit(
                    WHEN,
                    What::Built {
                        unit: (k.clone(), uo.unit),
                        province: at,
                        what,
                        cost,
                    },
                );
            }
        }
    }
}

pub fn razing(turn: &mut Turn) {
    const WHEN: When = When::Final(10);
    let orders = turn.orders;
    for k in turn.ordering_kingdoms() {
        for uo in sorted_unit_orders(&orders[&k]) {
            let Some(structure) = uo.raze else {
                continue;
            };
            let label = match structure {
                Structure::Fortification => "raze a fortification level",
                Structure::Harbour => "raze the harbour",
            };
            let checked = raze_check(turn.map, &turn.state, &k, uo.unit, structure)
                .and_then(|x| check_mp(turn, &k, uo.unit).map(|()| x));
            let (salvage, what) = match checked {
                Ok(x) => x,
                Err(reason) => {
                    turn.fail(WHEN, &k, Some(uo.unit), label, reason);
                    continue;
                }
            };
            spend_mp(turn, &k, uo.unit);
            let at = turn.state.unit(&k, uo.unit).expect("checked").location;
            let p = turn.state.provinces.get_mut(&at).expect("checked");
            match structure {
                Structure::Fortification => {
                    // The level goes; damage can never exceed the level (2.6).
                    p.fort_level -= 1;
                    p.fort_damage = p.fort_damage.min(p.fort_level);
                }
                // Fleets docked here become homeless and flee in the next turn's M5 (G31).
                Structure::Harbour => p.harbour = false,
            }
            // L10: the salvage arrives after decay (L9), so none of it decays (T70).
            earn(&mut turn.state, &k, salvage);
            turn.emit(
                WHEN,
                What::Razed {
                    unit: (k.clone(), uo.unit),
                    province: at,
                    what,
                    salvage,
                },
            );
        }
    }
}
