//! Sea battles in the turn (M6; digest 4.3, 4.4, 4.6, G15, G16): fleets of kingdoms at war
//! that crossed one border at sea against each other fight there first, then fleets of
//! kingdoms at war sharing a sea fight, sea by sea in order of number, until no enemies
//! share a sea (a fleet that retreats into another sea may have to fight again there).
//!
//! Ships fight, with their fleets' leaders; soldiers aboard fight as marines when their
//! army's option says so, as many as the fleet's marine capacity holds (`Battle::
//! add_marines`). Only fleets retreat, taking their armies with them. A fleet left without
//! ships is gone: its leaders go to another fleet of its kingdom in the same sea, its armies
//! aboard to another fleet there, or they are lost at sea.
//!
//! Soldiers aboard a fleet of a kingdom they fight (an ally turned enemy: the treachery
//! case of 4.6) fight its ships where the fleet is, all of them and their leaders
//! (`Battle::add_boarders`), together with whatever else fights in that sea. In a harbour
//! only that fleet and the armies aboard it fight: fleets docked in a harbour never fight
//! one another (note N1 of `docs/napoleonic/rules.md`).

use super::engine::{Battle, Setup};
use super::land::{Learned, apply, group_sides, origin};
use super::report::{BattleKind, BattleReport};
use crate::event::{MoveStep, UnitRef, What, When};
use crate::ids::{KingdomCode, LocId, UnitKind};
use crate::state::{Troop, Unit};
use crate::turn::Turn;
use crate::turn::movement::{Phase, cargo, relocate};
use crate::turn::units::{add_leader, counts_of, form_reported, hostile_in, uref};
use std::collections::BTreeSet;

/// A safety stop on the sea battles of one phase: retreats into seas with enemies could
/// otherwise chain without end.
pub const MAX_SEA_BATTLES: usize = 64;

/// Whether a fleet has ships: a fleet without any does not fight.
fn afloat(turn: &Turn, u: &Unit) -> bool {
    u.kind() == UnitKind::Fleet
        && u.troops.iter().any(|t| {
            turn.state
                .tables
                .troop(&t.code)
                .is_some_and(|x| x.is_ship())
        })
}

fn at_sea(turn: &Turn, at: LocId) -> bool {
    turn.map.get(at).is_some_and(|l| l.is_sea())
}

/// Fleets with ships in a location, in unit order.
fn fleets_at(turn: &Turn, at: LocId) -> Vec<UnitRef> {
    turn.state
        .units
        .iter()
        .filter(|u| u.location == at && afloat(turn, u))
        .map(uref)
        .collect()
}

/// Whether enemy ships of `k` are in a location.
fn enemy_ships(turn: &Turn, k: &KingdomCode, at: LocId) -> bool {
    fleets_at(turn, at)
        .iter()
        .any(|f| hostile_in(&turn.state, k, &f.0, at))
}

/// Whether a fleet carries an army of a kingdom it fights (4.6, treachery).
fn carries_enemies(turn: &Turn, f: &UnitRef, at: LocId) -> bool {
    cargo(turn, f)
        .iter()
        .any(|a| hostile_in(&turn.state, &a.0, &f.0, at))
}

/// The kingdoms of a sea battle among these fleets: the owners of fleets facing an enemy
/// fleet (when fleets `engage` each other: at sea, not in a harbour, N1); the owners of
/// armies aboard one of these fleets hostile to it, and that fleet's owner (treachery,
/// 4.6); and the owners of armies aboard those fleets, boarding enemy ships, who are at war
/// with one of them (4.6). Kingdoms in code order.
fn fighting(turn: &Turn, fleets: &[UnitRef], at: LocId, engage: bool) -> Vec<KingdomCode> {
    let owners: BTreeSet<KingdomCode> = fleets.iter().map(|f| f.0.clone()).collect();
    let mut out: BTreeSet<KingdomCode> = if engage {
        owners
            .iter()
            .filter(|a| owners.iter().any(|b| hostile_in(&turn.state, a, b, at)))
            .cloned()
            .collect()
    } else {
        BTreeSet::new()
    };
    for f in fleets {
        for a in cargo(turn, f) {
            if hostile_in(&turn.state, &a.0, &f.0, at) {
                out.insert(a.0.clone());
                out.insert(f.0.clone());
            }
        }
    }
    let owners: BTreeSet<KingdomCode> = out.clone();
    let fighting_fleets: Vec<UnitRef> = fleets
        .iter()
        .filter(|f| out.contains(&f.0))
        .cloned()
        .collect();
    for f in &fighting_fleets {
        for a in cargo(turn, f) {
            let Some(army) = turn.state.unit(&a.0, a.1) else {
                continue;
            };
            if army.marines
                && !hostile_in(&turn.state, &a.0, &f.0, at)
                && owners.iter().any(|o| hostile_in(&turn.state, &a.0, o, at))
            {
                out.insert(a.0.clone());
            }
        }
    }
    out.into_iter().collect()
}

/// Where a fleet may retreat from a sea, best first (4.6, G46): where it came from; then
/// harbours of its own, then harbours it has permission for (no reef, never enemy land);
/// then seas by number. Places with enemy ships come last, the origin first among them:
/// a fleet may have to fight again where it flees.
fn destinations(turn: &Turn, u: &Unit, from: Option<LocId>) -> Vec<LocId> {
    let at = u.location;
    let Some(here) = turn.map.get(at) else {
        return Vec::new();
    };
    let state = &turn.state;
    let port = |to: LocId| {
        here.edge(to).is_some_and(|e| !e.barrier)
            && state.provinces.get(&to).is_some_and(|p| {
                p.harbour
                    && state.has_permission(&u.owner, to)
                    && !hostile_in(state, &u.owner, &p.owner, to)
            })
    };
    let sea = |to: LocId| {
        here.edge(to).is_some_and(|e| !e.barrier) && turn.map.get(to).is_some_and(|l| l.is_sea())
    };
    let own = |to: LocId| state.provinces.get(&to).is_some_and(|p| p.owner == u.owner);
    let clean = |to: LocId| !enemy_ships(turn, &u.owner, to);
    let mut out: Vec<LocId> = Vec::new();
    let add = |out: &mut Vec<LocId>, to: LocId| {
        if !out.contains(&to) {
            out.push(to);
        }
    };
    if let Some(o) = from
        && o != at
        && (port(o) || sea(o))
        && clean(o)
    {
        add(&mut out, o);
    }
    for e in &here.edges {
        if port(e.to) && own(e.to) && clean(e.to) {
            add(&mut out, e.to);
        }
    }
    for e in &here.edges {
        if port(e.to) && clean(e.to) {
            add(&mut out, e.to);
        }
    }
    for e in &here.edges {
        if sea(e.to) && clean(e.to) {
            add(&mut out, e.to);
        }
    }
    if let Some(o) = from
        && o != at
        && sea(o)
    {
        add(&mut out, o);
    }
    for e in &here.edges {
        if sea(e.to) {
            add(&mut out, e.to);
        }
    }
    out
}

fn new_battle(turn: &Turn, kind: BattleKind, at: LocId, across: Option<LocId>) -> Battle {
    let mut b = Battle::new(kind, at, across);
    b.marines_replaced = turn.state.settings.marines_replaced;
    b
}

/// A sea battle among these fleets (with their marines): sides of friendly kingdoms, each
/// fleet with its retreat places.
fn muster(
    turn: &Turn,
    kind: BattleKind,
    at: LocId,
    across: Option<LocId>,
    fleets: &[(UnitRef, Vec<LocId>)],
    kingdoms: &[KingdomCode],
) -> Battle {
    let state = &turn.state;
    let mut b = new_battle(turn, kind, at, across);
    let sides = group_sides(state, kingdoms);
    for s in &sides {
        b.add_side(s.clone());
    }
    for x in kingdoms {
        for y in kingdoms {
            if hostile_in(state, x, y, at) {
                b.set_enemies(x, y);
            }
        }
    }
    let side_of = |k: &KingdomCode| sides.iter().position(|s| s.contains(k));
    for (f, places) in fleets {
        let Some(u) = state.unit(&f.0, f.1) else {
            continue;
        };
        let Some(side) = side_of(&u.owner) else {
            continue;
        };
        // A fleet that already fled once this turn fights where it fled (it has done all
        // it may do this turn, M6): no fleet flees from sea to sea without end.
        let setup = Setup {
            may_retreat: !u.retreated,
            destinations: places.clone(),
            ..Setup::default()
        };
        let fi = b.add_unit(side, u, &state.tables, setup);
        for a in cargo(turn, f) {
            let Some(army) = state.unit(&a.0, a.1) else {
                continue;
            };
            let Some(s) = side_of(&a.0) else {
                continue;
            };
            if hostile_in(state, &a.0, &f.0, at) {
                // 4.6, treachery: soldiers aboard a fleet of a kingdom they fight take on
                // its crew, whatever their marines option.
                b.add_boarders(s, army, fi, &state.tables);
            } else if army.marines {
                b.add_marines(s, army, fi, &state.tables);
            }
            // Otherwise below decks.
        }
    }
    b
}

/// Fights a mustered sea battle and writes it back: losses, retreats, captures, leaders'
/// skills (`land::apply`), fleets sunk, and with `sea_battle_stops_fleet` (G16) no move
/// points left for the fleets that stayed. The battle's report is emitted.
fn fight(turn: &mut Turn, when: When, mut b: Battle) -> (Battle, BattleReport) {
    let rep = b.fight(&mut turn.rng);
    let mut learned = Learned::new();
    let strays = apply(turn, &b, &rep, &mut learned);
    for (captor, troops) in strays {
        house_prize(turn, when, &captor, troops);
    }
    if turn.state.settings.sea_battle_stops_fleet {
        for bu in b.units.iter().filter(|x| x.kind == UnitKind::Fleet) {
            if let Some(u) = turn.state.unit_mut(&bu.unit.0, bu.unit.1) {
                u.stop();
            }
        }
    }
    for bu in b.units.iter().filter(|x| x.kind == UnitKind::Fleet) {
        sunk(turn, when, &bu.unit);
    }
    turn.emit(when, What::Battle(Box::new(rep.clone())));
    (b, rep)
}

/// Captured troops the captor cannot hold themselves (7.5, at sea): ships taken by soldiers
/// who won on an enemy's deck form a new fleet of their kingdom where they are, and the
/// soldiers go aboard it; artillery taken by a fleet forms a new army of its kingdom aboard
/// that fleet (M7 then checks what the fleet can carry). With no number free for the new
/// unit (99 of a kind), the prize is lost.
fn house_prize(turn: &mut Turn, when: When, captor: &UnitRef, troops: Vec<Troop>) {
    let Some(u) = turn.state.unit(&captor.0, captor.1) else {
        return;
    };
    let at = u.location;
    let (kind, carrier) = match u.kind() {
        UnitKind::Fleet => (UnitKind::Army, Some(captor.clone())),
        _ => (UnitKind::Fleet, None),
    };
    let Some(id) = form_reported(turn, when, &captor.0, kind, at, captor.1) else {
        turn.emit(
            when,
            What::Overboard {
                fleet: captor.clone(),
                troops: counts_of(&troops),
            },
        );
        return;
    };
    let made = (captor.0.clone(), id);
    let moved = counts_of(&troops);
    if let Some(x) = turn.state.unit_mut(&made.0, made.1) {
        x.troops = troops;
        x.aboard = carrier;
    }
    turn.emit(
        when,
        What::Transferred {
            from: captor.clone(),
            to: made.clone(),
            troops: moved,
            leaders: Vec::new(),
        },
    );
    if kind == UnitKind::Fleet {
        if let Some(a) = turn.state.unit_mut(&captor.0, captor.1) {
            a.aboard = Some(made.clone());
        }
        turn.emit(
            when,
            What::Loaded {
                fleet: made,
                army: captor.clone(),
                at,
            },
        );
    }
}

/// A fleet left without ships is gone (4.6, M6): its leaders join another fleet of its
/// kingdom with ships in the same place, or are lost at sea; each army aboard goes aboard
/// another fleet there, of its own kingdom or else of the lost fleet's if that one is not
/// its enemy (M7 then throws over what the new fleet cannot carry), or is lost at sea with
/// its leaders. A fleet lost in a harbour (the treachery case) is in port: its leaders
/// without a sister fleet there form a new army, and the armies aboard go ashore.
pub fn sunk(turn: &mut Turn, when: When, f: &UnitRef) {
    let Some(fleet) = turn.state.unit(&f.0, f.1) else {
        return;
    };
    if afloat(turn, fleet) {
        return;
    }
    let at = fleet.location;
    let in_port = !at_sea(turn, at);
    let others = |turn: &Turn, k: &KingdomCode| -> Option<UnitRef> {
        turn.state
            .units
            .iter()
            .find(|u| &u.owner == k && u.location == at && &uref(u) != f && afloat(turn, u))
            .map(uref)
    };
    let Some(idx) = turn.state.unit_index(&f.0, f.1) else {
        return;
    };
    let lost = turn.state.units.remove(idx);
    let leaders: Vec<String> = lost.leaders.iter().map(|l| l.name.clone()).collect();
    let sister = if lost.leaders.is_empty() {
        None
    } else {
        others(turn, &f.0)
    };
    match sister {
        Some(to) => {
            if let Some(u) = turn.state.unit_mut(&to.0, to.1) {
                for l in lost.leaders {
                    add_leader(u, l);
                }
            }
            turn.emit(
                when,
                What::Transferred {
                    from: f.clone(),
                    to,
                    troops: Vec::new(),
                    leaders,
                },
            );
        }
        None if in_port && !lost.leaders.is_empty() => {
            if let Some(id) = form_reported(turn, when, &f.0, UnitKind::Army, at, f.1) {
                if let Some(u) = turn.state.unit_mut(&f.0, id) {
                    for l in lost.leaders {
                        add_leader(u, l);
                    }
                    u.stop();
                }
                turn.emit(
                    when,
                    What::Transferred {
                        from: f.clone(),
                        to: (f.0.clone(), id),
                        troops: Vec::new(),
                        leaders,
                    },
                );
            }
        }
        None => {
            for leader in leaders {
                turn.emit(
                    when,
                    What::LeaderLost {
                        unit: f.clone(),
                        leader,
                        reason: "his fleet was sunk and he was lost at sea".to_string(),
                    },
                );
            }
        }
    }
    for a in cargo(turn, f) {
        if in_port {
            // In port the soldiers simply step ashore.
            if let Some(u) = turn.state.unit_mut(&a.0, a.1) {
                u.aboard = None;
                u.stop();
            }
            turn.emit(
                when,
                What::Unloaded {
                    fleet: f.clone(),
                    army: a,
                    at,
                    amphibious: false,
                },
            );
            continue;
        }
        let friendly = !hostile_in(&turn.state, &a.0, &f.0, at);
        let new_fleet =
            others(turn, &a.0).or_else(|| if friendly { others(turn, &f.0) } else { None });
        match new_fleet {
            Some(to) => {
                if let Some(u) = turn.state.unit_mut(&a.0, a.1) {
                    u.aboard = Some(to.clone());
                }
                turn.emit(
                    when,
                    What::Loaded {
                        fleet: to,
                        army: a,
                        at,
                    },
                );
            }
            None => {
                let Some(i) = turn.state.unit_index(&a.0, a.1) else {
                    continue;
                };
                let army = turn.state.units.remove(i);
                if !army.troops.is_empty() {
                    turn.emit(
                        when,
                        What::Overboard {
                            fleet: f.clone(),
                            troops: counts_of(&army.troops),
                        },
                    );
                }
                for l in army.leaders {
                    turn.emit(
                        when,
                        What::LeaderLost {
                            unit: a.clone(),
                            leader: l.name,
                            reason: "the fleet carrying him was sunk and he was lost at sea"
                                .to_string(),
                        },
                    );
                }
            }
        }
    }
}

/// M6: the sea battles of a phase. First the border battles of fleets that sailed against
/// each other at M4 (4.4, the sea version): a fleet that retreats stays where it started,
/// the winners sail on. Then every sea holding fleets of kingdoms at war, lowest number
/// first, until none is left (a battle stopped at the round limit is not fought again in
/// the phase). A sea battle costs no move points unless `sea_battle_stops_fleet` (G16).
pub(crate) fn sea_battles(turn: &mut Turn, ph: &Phase) {
    let when = When::Phase(ph.number, MoveStep::SeaBattles);
    for c in &ph.sea_clashes {
        turn.emit(
            when,
            What::BorderBattleJoined {
                between: c.between,
                kingdoms: c.kingdoms.clone(),
                units: c.units.clone(),
            },
        );
        let fleets: Vec<(UnitRef, Vec<LocId>)> = c
            .crossings
            .iter()
            .filter(|cr| {
                turn.state
                    .unit(&cr.unit.0, cr.unit.1)
                    .is_some_and(|u| afloat(turn, u))
            })
            .map(|cr| (cr.unit.clone(), vec![cr.from]))
            .collect();
        let refs: Vec<UnitRef> = fleets.iter().map(|f| f.0.clone()).collect();
        let kingdoms = fighting(turn, &refs, c.between.0, true);
        let b = muster(
            turn,
            BattleKind::SeaBorder,
            c.between.0,
            Some(c.between.1),
            &fleets,
            &kingdoms,
        );
        let (b, rep) = fight(turn, when, b);
        // The winners sail on across the border; the others stay where they were.
        for cr in &c.crossings {
            let Some(bu) = b.units.iter().find(|x| x.unit == cr.unit) else {
                continue;
            };
            if !rep.winners.contains(&bu.side) || bu.retreated.is_some() {
                continue;
            }
            if turn.state.unit(&cr.unit.0, cr.unit.1).is_none() {
                continue;
            }
            relocate(turn, &cr.unit, cr.to);
            if let Some(u) = turn.state.unit_mut(&cr.unit.0, cr.unit.1) {
                u.spend(cr.cost);
            }
            turn.emit(
                when,
                What::Moved {
                    unit: cr.unit.clone(),
                    from: cr.from,
                    to: cr.to,
                    cost: cr.cost,
                },
            );
        }
    }
    let mut stopped: Vec<(LocId, Vec<UnitRef>)> = Vec::new();
    for _ in 0..MAX_SEA_BATTLES {
        // Every sea with fleets, and every harbour where a fleet carries its enemies.
        let places: BTreeSet<LocId> = turn
            .state
            .units
            .iter()
            .filter(|u| {
                afloat(turn, u)
                    && (at_sea(turn, u.location) || carries_enemies(turn, &uref(u), u.location))
            })
            .map(|u| u.location)
            .collect();
        let next = places.into_iter().find_map(|at| {
            // N1: in a harbour fleets do not engage each other; only a fleet with enemies
            // aboard fights them there.
            let engage = at_sea(turn, at);
            let fleets: Vec<UnitRef> = fleets_at(turn, at)
                .into_iter()
                .filter(|f| engage || carries_enemies(turn, f, at))
                .collect();
            let kingdoms = fighting(turn, &fleets, at, engage);
            let mine: Vec<UnitRef> = fleets
                .into_iter()
                .filter(|f| kingdoms.contains(&f.0))
                .collect();
            let again = stopped.iter().any(|(l, f)| *l == at && *f == mine);
            (!mine.is_empty() && !again).then_some((at, mine, kingdoms))
        });
        let Some((at, fleets, kingdoms)) = next else {
            break;
        };
        turn.emit(
            when,
            What::BattleJoined {
                at,
                kingdoms: kingdoms.clone(),
            },
        );
        let with_places: Vec<(UnitRef, Vec<LocId>)> = fleets
            .iter()
            .map(|f| {
                let places = turn
                    .state
                    .unit(&f.0, f.1)
                    .map_or_else(Vec::new, |u| destinations(turn, u, origin(turn, f, at)));
                (f.clone(), places)
            })
            .collect();
        let b = muster(turn, BattleKind::Sea, at, None, &with_places, &kingdoms);
        let (_, rep) = fight(turn, when, b);
        if rep.stopped {
            stopped.push((at, fleets));
        }
    }
}
