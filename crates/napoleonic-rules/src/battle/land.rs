//! Battles in the turn (M11, M12; digest 4.1-4.4): who fights on which side, which units
//! defend the fortification, who besieges it, who landed from the sea, where each army may
//! retreat; then the engine fights, and the outcome is written back into the state (losses,
//! wounds, retreats, captures, the fortification's damage, leaders' skills, move points).

use super::engine::{Battle, Setup, Slot};
use super::report::{BattleKind, BattleReport, Skill};
use crate::event::{MoveStep, UnitRef, What, When};
use crate::ids::{KingdomCode, LocId, UnitKind};
use crate::state::{GameState, Relation, Troop, Unit};
use crate::turn::Turn;
use crate::turn::movement::{Phase, relocate};
use crate::turn::ownership::{land_force, present_at};
use crate::turn::units::{enemy_land, hostile_in, uref};
use std::collections::{BTreeMap, BTreeSet};

/// Leaders who learned siegecraft this turn, by kingdom and name (2.5: at most once a
/// turn).
pub type Learned = BTreeSet<(KingdomCode, String)>;

/// Friendly kingdoms pooled into sides (4.1): a kingdom joins the first side whose every
/// kingdom is its ally; otherwise it makes a side of its own. Kingdoms in code order.
pub fn group_sides(state: &GameState, kingdoms: &[KingdomCode]) -> Vec<Vec<KingdomCode>> {
    let mut sides: Vec<Vec<KingdomCode>> = Vec::new();
    let mut sorted = kingdoms.to_vec();
    sorted.sort();
    sorted.dedup();
    for k in sorted {
        match sides
            .iter_mut()
            .find(|s| s.iter().all(|o| state.relation(o, &k) == Relation::Ally))
        {
            Some(s) => s.push(k),
            None => sides.push(vec![k]),
        }
    }
    sides
}

fn side_of(sides: &[Vec<KingdomCode>], k: &KingdomCode) -> Option<usize> {
    sides.iter().position(|s| s.contains(k))
}

/// Whether enemy soldiers stand in a province: land forces of a kingdom that would fight
/// `k` there.
fn enemy_troops(turn: &Turn, k: &KingdomCode, at: LocId) -> bool {
    turn.state.units.iter().any(|u| {
        u.location == at
            && land_force(u, &turn.state.tables)
            && hostile_in(&turn.state, k, &u.owner, at)
    })
}

/// Where the army came from: the start of its last march into the place it stands.
pub(super) fn origin(turn: &Turn, r: &UnitRef, at: LocId) -> Option<LocId> {
    turn.events.iter().rev().find_map(|e| match &e.what {
        What::Moved { unit, from, to, .. } if unit == r && *to == at => Some(*from),
        _ => None,
    })
}

/// Retreat destinations, best first (4.2, G46): the province the army came from, then its
/// own provinces, then others it has permission for, by number. Each must border the
/// battle without mountains, be land the army has permission for now (a province lost
/// this turn is no longer its own, T44), and hold no enemy soldiers. Armies never retreat
/// onto ships.
fn destinations(turn: &Turn, u: &Unit, from: Option<LocId>) -> Vec<LocId> {
    let at = u.location;
    let Some(here) = turn.map.get(at) else {
        return Vec::new();
    };
    let ok = |to: LocId| {
        turn.map.get(to).is_some_and(|l| !l.is_sea())
            && here.edge(to).is_some_and(|e| !e.barrier)
            && turn.state.has_permission(&u.owner, to)
            && !enemy_troops(turn, &u.owner, to)
    };
    let mut out: Vec<LocId> = Vec::new();
    if let Some(o) = from
        && ok(o)
    {
        out.push(o);
    }
    let owned = |to: LocId| {
        turn.state
            .provinces
            .get(&to)
            .is_some_and(|p| p.owner == u.owner)
    };
    for own in [true, false] {
        for e in &here.edges {
            if owned(e.to) == own && ok(e.to) && !out.contains(&e.to) {
                out.push(e.to);
            }
        }
    }
    out
}

/// Whether an army landed from the sea into this province in this phase (the amphibious
/// modifier: only in the landing phase, only into enemy land, 4.2).
fn landed(turn: &Turn, r: &UnitRef, at: LocId, p: u8) -> bool {
    turn.events.iter().any(|e| {
        e.when == When::Phase(p, MoveStep::Unload)
            && matches!(&e.what, What::Unloaded { army, at: to, amphibious: true, .. }
                if army == r && *to == at)
    })
}

fn new_battle(turn: &Turn, kind: BattleKind, at: LocId, across: Option<LocId>) -> Battle {
    let mut b = Battle::new(kind, at, across);
    b.fort_divisor = turn.state.settings.leader_fort_divisor;
    b
}

fn may_learn(learned: &Learned, u: &Unit) -> bool {
    u.unit_leader
        .and_then(|i| u.leaders.get(i))
        .is_some_and(|l| !learned.contains(&(u.owner.clone(), l.name.clone())))
}

/// M11 (4.4): armies of kingdoms at war crossing one border against each other fight on
/// the border, with no fortification, siege or garrison, and only those armies. A side
/// that retreats stays where it started; the winners go on to their destination and meet
/// whatever is there at M12. The battle itself costs no move points.
pub(crate) fn border_battles(turn: &mut Turn, learned: &mut Learned, ph: &Phase) {
    let when = When::Phase(ph.number, MoveStep::BorderBattles);
    for c in &ph.land_clashes {
        turn.emit(
            when,
            What::BorderBattleJoined {
                between: c.between,
                kingdoms: c.kingdoms.clone(),
                units: c.units.clone(),
            },
        );
        let mut b = new_battle(turn, BattleKind::Border, c.between.0, Some(c.between.1));
        let sides = group_sides(&turn.state, &c.kingdoms);
        for s in &sides {
            b.add_side(s.clone());
        }
        for x in &c.kingdoms {
            for y in &c.kingdoms {
                if turn.state.relation(x, y) == Relation::War {
                    b.set_enemies(x, y);
                }
            }
        }
        let mut moves = Vec::new();
        for cr in &c.crossings {
            let Some(u) = turn.state.unit(&cr.unit.0, cr.unit.1) else {
                continue;
            };
            let Some(side) = side_of(&sides, &u.owner) else {
                continue;
            };
            let setup = Setup {
                may_retreat: true,
                destinations: vec![cr.from],
                ..Setup::default()
            };
            b.add_unit(side, u, &turn.state.tables, setup);
            moves.push(cr.clone());
        }
        let rep = b.fight(&mut turn.rng);
        apply(turn, &b, &rep, learned);
        turn.emit(when, What::Battle(Box::new(rep.clone())));
        // 4.4: the winners carry on across the border; the losers stay where they were.
        for cr in moves {
            let Some(bu) = b.units.iter().find(|x| x.unit == cr.unit) else {
                continue;
            };
            if !rep.winners.contains(&bu.side) || bu.retreated.is_some() {
                continue;
            }
            let Some(u) = turn.state.unit_mut(&cr.unit.0, cr.unit.1) else {
                continue;
            };
            u.location = cr.to;
            u.spend(cr.cost);
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
}

/// M12 (4.1, 4.2): a battle in every province holding land forces of kingdoms that fight
/// each other, in order of province number. Kingdoms present with no enemy there only
/// watch. The province is marked (`battle`, for L1). Survivors in enemy or independent
/// land have no move points left; in their own, allied or neutral land they keep them
/// (3.3, T26-T28).
pub(crate) fn land_battles(turn: &mut Turn, learned: &mut Learned, p: u8) {
    let when = When::Phase(p, MoveStep::LandBattles);
    let places: BTreeSet<LocId> = turn
        .state
        .units
        .iter()
        .filter(|u| {
            turn.state.provinces.contains_key(&u.location) && land_force(u, &turn.state.tables)
        })
        .map(|u| u.location)
        .collect();
    for at in places {
        let present = present_at(turn, at);
        let kingdoms: Vec<KingdomCode> = present
            .iter()
            .filter(|a| present.iter().any(|b| hostile_in(&turn.state, a, b, at)))
            .cloned()
            .collect();
        if kingdoms.is_empty() {
            continue;
        }
        if let Some(pr) = turn.state.provinces.get_mut(&at) {
            pr.battle = true;
        }
        turn.emit(
            when,
            What::BattleJoined {
                at,
                kingdoms: kingdoms.clone(),
            },
        );
        let (b, rep) = fight_land(turn, learned, at, &kingdoms, p);
        // 3.3: a battle uses move points only in enemy territory.
        for bu in &b.units {
            if enemy_land(&turn.state, &bu.unit.0, at)
                && let Some(u) = turn.state.unit_mut(&bu.unit.0, bu.unit.1)
                && u.location == at
            {
                u.stop();
            }
        }
        turn.emit(when, What::Battle(Box::new(rep)));
    }
}

/// Builds the land battle in a province from the state, fights it with the game's
/// generator and writes the outcome back.
fn fight_land(
    turn: &mut Turn,
    learned: &mut Learned,
    at: LocId,
    kingdoms: &[KingdomCode],
    p: u8,
) -> (Battle, BattleReport) {
    let mut b = muster(turn, learned, at, kingdoms, p);
    let rep = b.fight(&mut turn.rng);
    apply(turn, &b, &rep, learned);
    (b, rep)
}

/// The land battle in a province as it stands (4.1, 4.2): sides of friendly kingdoms among
/// those fighting; every land force of theirs there, armies ashore or aboard a fleet in the
/// province and garrisons with soldiers or leaders. The owner and his allies are protected
/// by the fortification (T47): their garrison always defends it, their armies ashore when
/// their option is on; everyone else hostile to them besieges it (G47).
pub fn muster(
    turn: &Turn,
    learned: &Learned,
    at: LocId,
    kingdoms: &[KingdomCode],
    p: u8,
) -> Battle {
    let state = &turn.state;
    let mut b = new_battle(turn, BattleKind::Land, at, None);
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
    let Some(province) = state.provinces.get(&at) else {
        return b;
    };
    b.set_fort(province.fort_level, province.fort_damage, &state.tables);
    let owner = province.owner.clone();
    let protected = |k: &KingdomCode| *k == owner || state.relation(k, &owner) == Relation::Ally;
    let fort = province.fort_level > 0;
    for u in &state.units {
        if u.location != at || !land_force(u, &state.tables) {
            continue;
        }
        let Some(side) = side_of(&sides, &u.owner) else {
            continue;
        };
        let r = uref(u);
        let ashore = u.aboard.is_none();
        let army = u.kind() == UnitKind::Army;
        let besieges = fort
            && !protected(&u.owner)
            && (hostile_in(state, &u.owner, &owner, at)
                || kingdoms
                    .iter()
                    .any(|o| protected(o) && hostile_in(state, &u.owner, o, at)));
        let setup = Setup {
            may_retreat: army && ashore,
            wants_to_defend: fort
                && ashore
                && protected(&u.owner)
                && (u.kind() == UnitKind::Garrison || (army && u.defend_forts)),
            besieges,
            amphibious: landed(turn, &r, at, p),
            destinations: if army && ashore {
                destinations(turn, u, origin(turn, &r, at))
            } else {
                Vec::new()
            },
            may_learn_siege: may_learn(learned, u),
            ..Setup::default()
        };
        b.add_unit(side, u, &state.tables, setup);
    }
    b
}

/// Captured troops whose captor cannot hold them (at sea: ships taken by soldiers, or
/// artillery taken by a fleet), with the captor; the sea battle forms a unit for them.
pub type Strays = Vec<(UnitRef, Vec<Troop>)>;

/// Writes a fought battle (on land or at sea) back into the state: the fortification's
/// damage; the dead removed, survivors' wounds settled by the aftermath (a survivor keeps
/// none); a unit whose leader fell left without one until the next turn (G44); retreats
/// made (all move points spent, nothing more this turn; a fleet takes its armies aboard
/// along); captured troops joining their captor; leaders' new skills; armies left with
/// nothing removed. Returns the captured troops the captor's kind of unit cannot hold.
pub fn apply(turn: &mut Turn, b: &Battle, rep: &BattleReport, learned: &mut Learned) -> Strays {
    if let Some(f) = &b.fort
        && let Some(pr) = turn.state.provinces.get_mut(&b.at)
    {
        pr.fort_damage = f.damage.min(pr.fort_level);
    }
    let mut captured: BTreeMap<usize, Vec<Troop>> = BTreeMap::new();
    for f in &b.fighters {
        if let (Some(to), Slot::Troop(i), super::report::Who::Troop(code)) =
            (f.captured_by, f.slot, &f.who)
        {
            // A captured troop keeps the move points it had left, as a transferred one
            // does (M1), and joins its captor in the front rank, unwounded.
            let from = &b.units[f.unit].unit;
            let mp = turn
                .state
                .unit(&from.0, from.1)
                .and_then(|u| u.troops.get(i))
                .map_or(0, |t| t.mp);
            captured.entry(to).or_default().push(Troop {
                code: code.clone(),
                rank: 1,
                mp,
                damage: crate::fixed::Fixed::ZERO,
            });
        }
    }
    // Ships go to fleets, soldiers to armies and garrisons; the rest stray.
    let mut strays: Strays = Vec::new();
    for (ui, list) in std::mem::take(&mut captured) {
        let fleet = b.units[ui].kind == UnitKind::Fleet;
        let tables = &turn.state.tables;
        let (fits, other): (Vec<Troop>, Vec<Troop>) = list
            .into_iter()
            .partition(|t| tables.troop(&t.code).is_some_and(|x| x.is_ship()) == fleet);
        if !fits.is_empty() {
            captured.insert(ui, fits);
        }
        if !other.is_empty() {
            strays.push((b.units[ui].unit.clone(), other));
        }
    }
    let mut emptied: Vec<UnitRef> = Vec::new();
    for (ui, bu) in b.units.iter().enumerate() {
        let Some(u) = turn.state.unit_mut(&bu.unit.0, bu.unit.1) else {
            continue;
        };
        let mut dead_troops = BTreeSet::new();
        let mut dead_leaders = BTreeSet::new();
        for f in b.fighters.iter().filter(|f| f.unit == ui) {
            match f.slot {
                Slot::Troop(i) if f.dead => {
                    dead_troops.insert(i);
                }
                Slot::Troop(i) => {
                    if let Some(t) = u.troops.get_mut(i) {
                        t.damage = crate::fixed::Fixed::ZERO;
                    }
                }
                Slot::Leader(i) if f.dead => {
                    dead_leaders.insert(i);
                }
                Slot::Leader(i) => {
                    if let Some(l) = u.leaders.get_mut(i) {
                        l.damage = crate::fixed::Fixed::ZERO;
                    }
                }
            }
        }
        let mut i = 0;
        u.troops.retain(|_| {
            let keep = !dead_troops.contains(&i);
            i += 1;
            keep
        });
        let old_leader = u.unit_leader;
        let mut i = 0;
        u.leaders.retain(|_| {
            let keep = !dead_leaders.contains(&i);
            i += 1;
            keep
        });
        // G44: a unit whose leader fell has no leader for the rest of the turn; the next
        // turn's F8 names one of those left (`first::leaders_named`).
        u.unit_leader = match old_leader {
            Some(j) if dead_leaders.contains(&j) => None,
            Some(j) => Some(j - dead_leaders.iter().filter(|&&d| d < j).count()),
            None => None,
        };
        for imp in rep.improved.iter().filter(|x| x.unit == bu.unit) {
            if let Some(l) = u.leaders.iter_mut().find(|l| l.name == imp.leader) {
                match imp.skill {
                    Skill::Infantry => l.infantry = imp.to,
                    Skill::Cavalry => l.cavalry = imp.to,
                    Skill::Siege => {
                        l.siege = imp.to;
                        learned.insert((bu.unit.0.clone(), imp.leader.clone()));
                    }
                    Skill::Naval => l.naval = imp.to,
                }
            }
        }
        if let Some(list) = captured.remove(&ui) {
            u.troops.extend(list);
        }
        if u.kind() == UnitKind::Army && u.troops.is_empty() && u.leaders.is_empty() {
            emptied.push(bu.unit.clone());
        }
        // 3.3: a retreat spends every move point; the unit does nothing more this turn. An
        // army aboard goes where its fleet goes.
        match bu.retreated {
            Some((to, _)) if u.aboard.is_none() => {
                u.stop();
                u.retreated = true;
                if u.kind() == UnitKind::Fleet {
                    relocate(turn, &bu.unit, to);
                } else {
                    u.location = to;
                }
            }
            _ => {}
        }
    }
    // An army with nothing left is gone; its later orders are reported void.
    turn.state
        .units
        .retain(|u| !emptied.contains(&(u.owner.clone(), u.id)));
    strays
}
