//! M9 Armies March (digest 3.2, 3.3, 7.2): one province a phase at the move cost, Hold
//! Position, bounces off land the army has no permission for, units that follow another,
//! and the border clashes of armies at war crossing one border in opposite directions.

use super::Turn;
use super::movement::{Clash, Phase};
use super::units::{all_refs, entries, hostile_in, name, place};
use crate::event::{MoveStep, UnitRef, What, When};
use crate::ids::{KingdomCode, LocId, UnitKind};
use crate::orders::Step;
use crate::state::Relation;
use std::collections::{BTreeMap, BTreeSet};

/// A move decided in a phase, not yet made.
#[derive(Debug, Clone)]
pub(crate) struct Crossing {
    pub unit: UnitRef,
    pub from: LocId,
    pub to: LocId,
    pub cost: u8,
}

/// What a march would come to.
pub(crate) enum Verdict {
    Go(u8),
    /// Neutral or allied land without permission: the unit stays and pays nothing (2.9).
    Bounce(String),
    Fail(String),
}

/// The move cost and conditions of 3.3 for one army into a neighbouring location, judged
/// from where the army really is (G30).
pub(crate) fn judge(turn: &Turn, r: &UnitRef, to: LocId) -> Verdict {
    let state = &turn.state;
    let Some(u) = state.unit(&r.0, r.1) else {
        return Verdict::Fail(format!("{} no longer exists", name(r)));
    };
    if u.retreated {
        return Verdict::Fail("it retreated this turn".to_string());
    }
    if let Some(f) = &u.aboard {
        return Verdict::Fail(format!(
            "it is aboard {}: a fleet must unload it first",
            name(f)
        ));
    }
    let from = u.location;
    if from == to {
        return Verdict::Fail(format!("it is already in {}", place(turn.map, to)));
    }
    let Some(target) = turn.map.get(to) else {
        return Verdict::Fail(format!("there is no location {to}"));
    };
    let Some(edge) = turn.map.get(from).and_then(|l| l.edge(to)) else {
        return Verdict::Fail(format!(
            "{} does not border {}, where the army stands (G30)",
            place(turn.map, to),
            place(turn.map, from)
        ));
    };
    if target.is_sea() {
        return Verdict::Fail("armies enter a sea only aboard a fleet".to_string());
    }
    if edge.barrier {
        return Verdict::Fail(format!(
            "mountains bar the border between {} and {}",
            place(turn.map, from),
            place(turn.map, to)
        ));
    }
    let Some(p) = state.provinces.get(&to) else {
        return Verdict::Fail(format!("there is no province {to}"));
    };
    // 3.3, 7.2: 1 with permission into land that kept its owner this turn; 2 into land
    // that changed owner this turn (for everyone), and 2 into enemy or independent land.
    let (cost, enemy) = if state.has_permission(&r.0, to) {
        (if p.changed { 2 } else { 1 }, false)
    } else if hostile_in(state, &r.0, &p.owner, to) {
        (2, true)
    } else {
        let rel = match state.relation(&r.0, &p.owner) {
            Relation::Ally => "an ally",
            _ => "neutral",
        };
        return Verdict::Bounce(format!(
            "{} belongs to {}, {rel}, who gave no permission (2.9)",
            place(turn.map, to),
            p.owner
        ));
    };
    let mp = u.mp();
    if mp < cost {
        return Verdict::Fail(if enemy && mp == 1 {
            "one move point is not enough to enter enemy land (3.3)".to_string()
        } else {
            format!("entering costs {cost} move points and it has {mp} left (3.3)")
        });
    }
    Verdict::Go(cost)
}

/// Hold Position for an army or a fleet: the first hold of the turn is free, each later
/// one costs 1 move point (3.3, 7.2; the same for fleets, M4).
pub(crate) fn hold(turn: &mut Turn, when: When, r: &UnitRef) {
    let Some(u) = turn.state.unit_mut(&r.0, r.1) else {
        return;
    };
    let cost = if u.holds == 0 { 0 } else { 1 };
    if u.mp() < cost {
        let reason = "a second hold costs 1 move point and none is left; the unit stays";
        turn.fail(when, &r.0, Some(r.1), "hold position", reason);
        return;
    }
    u.spend(cost);
    u.holds = u.holds.saturating_add(1);
    let at = u.location;
    turn.emit(
        when,
        What::Held {
            unit: r.clone(),
            at,
            cost,
        },
    );
}

/// Moves across one border in opposite directions by kingdoms at war (4.4). Those units do
/// not cross here: each stays at its origin until the border battle is fought (M11), which
/// lets the winners carry on. Moves of kingdoms not at war pass each other (G38).
pub(crate) fn clashes(turn: &Turn, moves: &[Crossing]) -> (BTreeSet<UnitRef>, Vec<Clash>) {
    let mut held = BTreeSet::new();
    for c in moves {
        let met = moves.iter().any(|d| {
            d.from == c.to
                && d.to == c.from
                && turn.state.relation(&c.unit.0, &d.unit.0) == Relation::War
        });
        if met {
            held.insert(c.unit.clone());
        }
    }
    type Border = (BTreeSet<KingdomCode>, Vec<UnitRef>, Vec<Crossing>);
    let mut borders: BTreeMap<(LocId, LocId), Border> = BTreeMap::new();
    for c in moves.iter().filter(|c| held.contains(&c.unit)) {
        let key = (c.from.min(c.to), c.from.max(c.to));
        let e = borders.entry(key).or_default();
        e.0.insert(c.unit.0.clone());
        e.1.push(c.unit.clone());
        e.2.push(c.clone());
    }
    let list = borders
        .into_iter()
        .map(|(between, (kingdoms, mut units, mut crossings))| {
            units.sort();
            crossings.sort_by(|a, b| a.unit.cmp(&b.unit));
            Clash {
                between,
                kingdoms: kingdoms.into_iter().collect(),
                units,
                crossings,
            }
        })
        .collect();
    (held, list)
}

/// M9: every army's step for the phase, then the armies that follow another, then the
/// border clashes; the moves left are made together.
pub(crate) fn run(turn: &mut Turn, ph: &mut Phase) {
    let p = ph.number;
    let when = When::Phase(p, MoveStep::March);
    let mut moves: Vec<Crossing> = Vec::new();
    let mut acted: BTreeSet<UnitRef> = BTreeSet::new();
    for r in all_refs(&turn.state) {
        let steps: Vec<Step> = entries(turn, &r, p).iter().filter_map(|e| e.step).collect();
        let Some(first) = steps.first().copied() else {
            continue;
        };
        let Some(kind) = turn.state.unit(&r.0, r.1).map(|u| u.kind()) else {
            continue;
        };
        match kind {
            UnitKind::Fleet => continue, // M4
            UnitKind::Garrison => {
                for s in &steps {
                    turn.fail(
                        when,
                        &r.0,
                        Some(r.1),
                        step_words(turn, s),
                        "a garrison never moves",
                    );
                }
                continue;
            }
            UnitKind::Army => {}
        }
        for s in &steps[1..] {
            // 2.12: a movement action takes exactly one phase.
            let reason = "one movement a phase: only the first is carried out";
            turn.fail(when, &r.0, Some(r.1), step_words(turn, s), reason);
        }
        acted.insert(r.clone());
        match first {
            Step::Hold => hold(turn, when, &r),
            Step::Move(to) => decide(turn, when, &r, to, None, &mut moves),
        }
    }
    follow(turn, when, &mut acted, &mut moves, UnitKind::Army);
    let (held, list) = clashes(turn, &moves);
    ph.land_clashes = list;
    for c in moves.iter().filter(|c| !held.contains(&c.unit)) {
        if let Some(u) = turn.state.unit_mut(&c.unit.0, c.unit.1) {
            u.location = c.to;
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

fn step_words(turn: &Turn, s: &Step) -> String {
    match s {
        Step::Hold => "hold position".to_string(),
        Step::Move(to) => format!("move to {}", place(turn.map, *to)),
    }
}

/// Judges one army's march and files the outcome: a move to make, a bounce, or a failure.
fn decide(
    turn: &mut Turn,
    when: When,
    r: &UnitRef,
    to: LocId,
    leader: Option<&UnitRef>,
    moves: &mut Vec<Crossing>,
) {
    let from = turn.state.unit(&r.0, r.1).map_or(to, |u| u.location);
    let order = match leader {
        Some(l) => format!("follow {} to {}", l.1, place(turn.map, to)),
        None => format!("move to {}", place(turn.map, to)),
    };
    match judge(turn, r, to) {
        Verdict::Go(cost) => moves.push(Crossing {
            unit: r.clone(),
            from,
            to,
            cost,
        }),
        Verdict::Bounce(reason) => turn.emit(
            when,
            What::Bounced {
                unit: r.clone(),
                at: from,
                toward: to,
                reason,
            },
        ),
        Verdict::Fail(reason) => turn.fail(when, &r.0, Some(r.1), order, reason),
    }
}

/// FOLLOW (F8): a unit with no step of its own this phase goes where the unit it follows
/// is moving, if it can get there itself; chains of followers are resolved in turn.
pub(crate) fn follow(
    turn: &mut Turn,
    when: When,
    acted: &mut BTreeSet<UnitRef>,
    moves: &mut Vec<Crossing>,
    kind: UnitKind,
) {
    loop {
        let mut added = false;
        for r in all_refs(&turn.state) {
            if acted.contains(&r) {
                continue;
            }
            let Some(u) = turn.state.unit(&r.0, r.1) else {
                continue;
            };
            if u.kind() != kind || u.aboard.is_some() {
                continue;
            }
            let Some(l) = u.follow else {
                continue;
            };
            if !turn.state.kingdoms.get(&r.0).is_some_and(|k| k.alive) {
                continue;
            }
            let leader: UnitRef = (r.0.clone(), l);
            let Some(dest) = moves.iter().find(|c| c.unit == leader).map(|c| c.to) else {
                continue;
            };
            acted.insert(r.clone());
            added = true;
            if kind == UnitKind::Army {
                decide(turn, when, &r, dest, Some(&leader), moves);
            } else {
                super::fleets::decide_sail(turn, when, &r, dest, Some(&leader), moves);
            }
        }
        if !added {
            break;
        }
    }
}
