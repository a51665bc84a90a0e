//! The First Events (digest 3.1), run once before movement: the start-of-turn reset, war
//! declared (F1), acceptance (F2), passage rights (F3), special permission (F4), new armies
//! and fleets (F6, F7), administrative orders (F8), same-location transfers (F9), ranks
//! (F10), and disbanding and salvage (F11), with the palace-coup check before F11.
//! F5 "Henchmen Compelled" is a leftover of the sibling fantasy game and is left out (G13).

use super::Turn;
use super::transfer;
use super::units::{default_name, describe_counts, merged, name, take_troops, unit_orders_sorted};
use crate::event::{UnitRef, What, When};
use crate::fixed::Gold;
use crate::ids::{KingdomCode, UnitId, UnitKind};
use crate::orders::{Admin, HqOrder, TroopCount};
use crate::state::{Relation, Unit};
use crate::tables::TroopClass;
use std::collections::{BTreeMap, BTreeSet};

/// The GM's rulings on status (2.10), before anything else: a ruler made Royalty may hire
/// leaders and annex up to the Royal limit this very turn; one made Commoner meets the
/// Commoner's limits at L18. Announced in the kingdom's report (F0, before F1).
pub fn status_ruled(turn: &mut Turn) {
    let ruled: Vec<_> = turn.rulings.status.clone().into_iter().collect();
    for (k, status) in ruled {
        let Some(x) = turn.state.kingdoms.get_mut(&k).filter(|x| x.alive) else {
            continue;
        };
        if x.status == status {
            continue;
        }
        x.status = status;
        turn.emit(When::First(0), What::StatusChanged { kingdom: k, status });
    }
}

pub fn run(turn: &mut Turn) {
    start_of_turn(turn);
    war_declared(turn);
    acceptance(turn);
    passage(turn);
    permission(turn);
    form(turn, UnitKind::Army);
    form(turn, UnitKind::Fleet);
    admin(turn);
    transfers(turn);
    ranks(turn);
    palace_coup(turn);
    disband(turn);
}

/// Clears the marks of the last turn, so that each turn starts clean: every troop gets its
/// type's full move points (3.3), units forget holds, retreats and boarding preparations,
/// and provinces remember who owned them when the turn began.
pub(crate) fn start_of_turn(turn: &mut Turn) {
    let state = &mut turn.state;
    let tables = state.tables.clone();
    for u in &mut state.units {
        for t in &mut u.troops {
            t.mp = tables.troop(&t.code).map_or(0, |x| x.mp);
        }
        u.holds = 0;
        u.retreated = false;
        u.prepared_for = None;
    }
    for p in state.provinces.values_mut() {
        p.owner_at_start = p.owner.clone();
        p.changed = false;
        p.battle = false;
        p.pillaged = false;
        p.annexed_this_turn = false;
    }
}

/// Checks the kingdom an HQ order names: in the game, alive, and not the orderer.
fn other_kingdom(turn: &Turn, k: &KingdomCode, to: &KingdomCode) -> Result<(), String> {
    if to == k {
        return Err("a kingdom cannot order this toward itself".to_string());
    }
    match turn.state.kingdoms.get(to) {
        Some(x) if x.alive => Ok(()),
        _ => Err(format!("there is no kingdom {to} in the game")),
    }
}

fn hq_orders<'a>(turn: &Turn<'a>, k: &KingdomCode) -> &'a [HqOrder] {
    turn.orders.get(k).map_or(&[], |o| o.hq.as_slice())
}

/// F1: war on a neutral kingdom only; it cancels passage rights and special permissions
/// between the two, both ways (2.8, T76). Two kingdoms that declare on each other in the
/// same turn both see their declaration carried out.
fn war_declared(turn: &mut Turn) {
    let when = When::First(1);
    let mut declared_now: BTreeSet<(KingdomCode, KingdomCode)> = BTreeSet::new();
    for k in turn.ordering_kingdoms() {
        for o in hq_orders(turn, &k) {
            let HqOrder::DeclareWar { to } = o else {
                continue;
            };
            let order = format!("declare war on {to}");
            if let Err(reason) = other_kingdom(turn, &k, to) {
                turn.fail(when, &k, None, order, reason);
                continue;
            }
            let pair = if &k < to {
                (k.clone(), to.clone())
            } else {
                (to.clone(), k.clone())
            };
            match turn.state.relation(&k, to) {
                Relation::Ally => turn.fail(
                    when,
                    &k,
                    None,
                    order,
                    format!(
                        "{to} is an ally: cancel the alliance first, then war can be declared next turn"
                    ),
                ),
                Relation::War if declared_now.contains(&pair) => turn.emit(
                    when,
                    What::WarDeclared {
                        by: k.clone(),
                        on: to.clone(),
                    },
                ),
                Relation::War => {
                    turn.fail(when, &k, None, order, format!("already at war with {to}"))
                }
                Relation::Neutral => {
                    turn.state.set_relation(&k, to, Relation::War);
                    cancel_rights(turn, &k, to);
                    declared_now.insert(pair);
                    turn.emit(
                        when,
                        What::WarDeclared {
                            by: k.clone(),
                            on: to.clone(),
                        },
                    );
                }
            }
        }
    }
}

/// F1: passage rights and special permissions between two kingdoms, both directions.
fn cancel_rights(turn: &mut Turn, a: &KingdomCode, b: &KingdomCode) {
    let state = &mut turn.state;
    if let Some(x) = state.kingdoms.get_mut(a) {
        x.passage_to.remove(b);
    }
    if let Some(x) = state.kingdoms.get_mut(b) {
        x.passage_to.remove(a);
    }
    for p in state.provinces.values_mut() {
        if &p.owner == a {
            p.permissions.remove(b);
        } else if &p.owner == b {
            p.permissions.remove(a);
        }
    }
}

/// F2: accept gifts (provinces, transfers, gold) from a kingdom, or refuse them (2.8).
fn acceptance(turn: &mut Turn) {
    let when = When::First(2);
    for k in turn.ordering_kingdoms() {
        for o in hq_orders(turn, &k) {
            let HqOrder::Acceptance { from, accept } = o else {
                continue;
            };
            let order = format!(
                "{} {from}",
                if *accept {
                    "accept gifts from"
                } else {
                    "accept nothing from"
                }
            );
            if let Err(reason) = other_kingdom(turn, &k, from) {
                turn.fail(when, &k, None, order, reason);
                continue;
            }
            if let Some(x) = turn.state.kingdoms.get_mut(&k) {
                if *accept {
                    x.refuses.remove(from);
                } else {
                    x.refuses.insert(from.clone());
                }
            }
            turn.emit(
                when,
                What::AcceptanceChanged {
                    by: k.clone(),
                    toward: from.clone(),
                    accept: *accept,
                },
            );
        }
    }
}

/// F3: grant passage rights to a kingdom that is not an enemy and does not already have
/// them, or revoke them. A grant works from Phase 1 of this same turn (2.9, T77).
fn passage(turn: &mut Turn) {
    let when = When::First(3);
    for k in turn.ordering_kingdoms() {
        for o in hq_orders(turn, &k) {
            let (to, grant) = match o {
                HqOrder::GrantPassage { to } => (to, true),
                HqOrder::RevokePassage { to } => (to, false),
                _ => continue,
            };
            let order = format!(
                "{} passage rights {} {to}",
                if grant { "grant" } else { "revoke" },
                if grant { "to" } else { "of" }
            );
            if let Err(reason) = other_kingdom(turn, &k, to) {
                turn.fail(when, &k, None, order, reason);
                continue;
            }
            let has = turn
                .state
                .kingdoms
                .get(&k)
                .is_some_and(|x| x.passage_to.contains(to));
            let problem = if grant && turn.state.relation(&k, to) == Relation::War {
                Some(format!("{to} is an enemy: no rights while at war"))
            } else if grant && has {
                Some(format!("{to} already has passage rights"))
            } else if !grant && !has {
                Some(format!("{to} has no passage rights to revoke"))
            } else {
                None
            };
            if let Some(reason) = problem {
                turn.fail(when, &k, None, order, reason);
                continue;
            }
            if let Some(x) = turn.state.kingdoms.get_mut(&k) {
                if grant {
                    x.passage_to.insert(to.clone());
                } else {
                    x.passage_to.remove(to);
                }
            }
            turn.emit(
                when,
                What::PassageChanged {
                    by: k.clone(),
                    to: to.clone(),
                    granted: grant,
                },
            );
        }
    }
}

/// F4: special permission for one province the kingdom owns, to a kingdom that is not an
/// enemy (2.8), or its withdrawal.
fn permission(turn: &mut Turn) {
    let when = When::First(4);
    for k in turn.ordering_kingdoms() {
        for o in hq_orders(turn, &k) {
            let (province, to, grant) = match o {
                HqOrder::GrantPermission { province, to } => (*province, to, true),
                HqOrder::RevokePermission { province, to } => (*province, to, false),
                _ => continue,
            };
            let order = format!(
                "{} special permission for {province} {} {to}",
                if grant { "grant" } else { "revoke" },
                if grant { "to" } else { "of" }
            );
            if let Err(reason) = other_kingdom(turn, &k, to) {
                turn.fail(when, &k, None, order, reason);
                continue;
            }
            let problem = match turn.state.provinces.get(&province) {
                None => Some(format!("there is no province {province}")),
                Some(p) if p.owner != k => Some(format!("{province} belongs to {}", p.owner)),
                Some(_) if grant && turn.state.relation(&k, to) == Relation::War => {
                    Some(format!("{to} is an enemy: no permission while at war"))
                }
                Some(p) if grant && p.permissions.contains(to) => {
                    Some(format!("{to} already has permission there"))
                }
                Some(p) if !grant && !p.permissions.contains(to) => {
                    Some(format!("{to} has no permission there to revoke"))
                }
                Some(_) => None,
            };
            if let Some(reason) = problem {
                turn.fail(when, &k, None, order, reason);
                continue;
            }
            if let Some(p) = turn.state.provinces.get_mut(&province) {
                if grant {
                    p.permissions.insert(to.clone());
                } else {
                    p.permissions.remove(to);
                }
            }
            turn.emit(
                when,
                What::PermissionChanged {
                    by: k.clone(),
                    province,
                    to: to.clone(),
                    granted: grant,
                },
            );
        }
    }
}

/// F6 (armies, formed by an army or a garrison) and F7 (fleets, formed by a fleet or a
/// garrison). The new unit stands with its creator, aboard the same fleet if the creator is
/// aboard (the FAQ's way of splitting a cargo), takes the number the order gives if it is
/// free, and can receive transfers and orders this same turn.
fn form(turn: &mut Turn, kind: UnitKind) {
    let step = if kind == UnitKind::Army { 6 } else { 7 };
    let when = When::First(step);
    for k in turn.ordering_kingdoms() {
        for o in unit_orders_sorted(turn, &k) {
            for (id, given_name) in &o.form {
                // Garrison numbers are province numbers: no order forms one (F6 reports it).
                if id.kind != kind && !(id.kind == UnitKind::Garrison && kind == UnitKind::Army) {
                    continue;
                }
                let order = format!("form {id}");
                let by: UnitRef = (k.clone(), o.unit);
                let Some(creator) = turn.state.unit(&k, o.unit) else {
                    turn.fail(
                        when,
                        &k,
                        Some(o.unit),
                        order,
                        format!("there is no unit {}", name(&by)),
                    );
                    continue;
                };
                let allowed = match kind {
                    UnitKind::Army => matches!(creator.kind(), UnitKind::Army | UnitKind::Garrison),
                    _ => matches!(creator.kind(), UnitKind::Fleet | UnitKind::Garrison),
                };
                let problem = if id.kind == UnitKind::Garrison {
                    Some("a garrison cannot be formed: every province has its own".to_string())
                } else if !allowed {
                    Some(match kind {
                        UnitKind::Army => "only an army or a garrison forms a new army".to_string(),
                        _ => "only a fleet or a garrison forms a new fleet".to_string(),
                    })
                } else if turn.state.unit(&k, *id).is_some() {
                    Some(format!("{id} already exists: pick a free number"))
                } else if count_kind(&turn.state.units, &k, kind) >= usize::from(UnitId::MAX_ARMIES)
                {
                    Some("the kingdom already has 99 of them".to_string())
                } else {
                    None
                };
                if let Some(reason) = problem {
                    turn.fail(when, &k, Some(o.unit), order, reason);
                    continue;
                }
                let at = creator.location;
                let aboard = if kind == UnitKind::Army {
                    creator.aboard.clone()
                } else {
                    None
                };
                let unit_name = if given_name.trim().is_empty() {
                    default_name(&turn.state, &k, *id)
                } else {
                    given_name.trim().to_string()
                };
                let mut u = Unit::new(k.clone(), *id, unit_name.clone(), at);
                u.aboard = aboard;
                turn.state.insert_unit(u);
                turn.emit(
                    when,
                    What::UnitFormed {
                        unit: (k.clone(), *id),
                        by: o.unit,
                        at,
                        name: unit_name,
                    },
                );
            }
        }
    }
}

fn count_kind(units: &[Unit], k: &KingdomCode, kind: UnitKind) -> usize {
    units
        .iter()
        .filter(|u| &u.owner == k && u.kind() == kind)
        .count()
}

/// Orders written for units the kingdom does not have (after F6 and F7 formed the new ones),
/// and second sets of orders for one unit: reported once here, then ignored.
fn unknown_units(turn: &mut Turn) {
    let when = When::First(8);
    for k in turn.ordering_kingdoms() {
        let Some(orders) = turn.orders.get(&k) else {
            continue;
        };
        let mut seen: BTreeSet<UnitId> = BTreeSet::new();
        let mut sorted: Vec<_> = orders.units.iter().collect();
        sorted.sort_by_key(|o| o.unit);
        for o in sorted {
            if !seen.insert(o.unit) {
                turn.fail(
                    when,
                    &k,
                    Some(o.unit),
                    "orders",
                    format!(
                        "{} was given orders twice: only the first set is used",
                        o.unit
                    ),
                );
                continue;
            }
            let only_forms = o.admin.is_empty()
                && o.transfers.is_empty()
                && o.ranks.is_empty()
                && o.disband.is_empty()
                && o.salvage.is_empty()
                && o.plan.is_empty()
                && o.recruit.is_empty()
                && !o.hire_leader
                && o.build.is_none()
                && !o.repair
                && o.raze.is_none();
            // A missing creator's formations were already reported at F6/F7.
            if turn.state.unit(&k, o.unit).is_none() && !only_forms {
                turn.fail(
                    when,
                    &k,
                    Some(o.unit),
                    "orders",
                    format!("{k} has no unit {}: its orders are ignored", o.unit),
                );
            }
        }
    }
}

/// F8: administrative orders, which cost no move points: retreat level, follow, the
/// marines option, the unit leader, the name.
fn admin(turn: &mut Turn) {
    unknown_units(turn);
    let when = When::First(8);
    for k in turn.ordering_kingdoms() {
        for o in unit_orders_sorted(turn, &k) {
            let r: UnitRef = (k.clone(), o.unit);
            for a in &o.admin {
                let (order, result) = admin_one(turn, &r, a);
                match result {
                    Ok(what) => turn.emit(
                        when,
                        What::AdminChanged {
                            unit: r.clone(),
                            what,
                        },
                    ),
                    Err(reason) => turn.fail(when, &k, Some(o.unit), order, reason),
                }
            }
        }
    }
    leaders_named(turn);
}

/// G44, 4.7: a unit whose leader fell in battle last turn, and whose orders named no new
/// one, is led by the leader with the highest skill for its troops: naval for a fleet;
/// infantry, or cavalry where mounted soldiers outnumber foot, for an army or a garrison.
/// The first in its list wins a tie.
pub(crate) fn leaders_named(turn: &mut Turn) {
    let when = When::First(8);
    let tables = turn.state.tables.clone();
    let mut named = Vec::new();
    for u in &mut turn.state.units {
        if u.unit_leader.is_some() || u.leaders.is_empty() {
            continue;
        }
        let count = |class: TroopClass| {
            u.troops
                .iter()
                .filter(|t| tables.troop(&t.code).is_some_and(|x| x.class == class))
                .count()
        };
        let skill: fn(&crate::state::Leader) -> u32 = if u.kind() == UnitKind::Fleet {
            |l| l.naval
        } else if count(TroopClass::Mounted) > count(TroopClass::Foot) {
            |l| l.cavalry
        } else {
            |l| l.infantry
        };
        let mut best = 0;
        for (i, l) in u.leaders.iter().enumerate() {
            if skill(l) > skill(&u.leaders[best]) {
                best = i;
            }
        }
        u.unit_leader = Some(best);
        named.push(((u.owner.clone(), u.id), u.leaders[best].name.clone()));
    }
    for (r, leader) in named {
        turn.emit(
            when,
            What::AdminChanged {
                unit: r,
                what: format!("led by {leader}"),
            },
        );
    }
}

fn admin_one(turn: &mut Turn, r: &UnitRef, a: &Admin) -> (String, Result<String, String>) {
    let order = match a {
        Admin::RetreatLevel { rank } => format!("retreat level {rank}"),
        Admin::Follow { unit: Some(u) } => format!("follow {u}"),
        Admin::Follow { unit: None } => "follow no one".to_string(),
        Admin::Marines { board } => format!("marines {}", if *board { "on" } else { "off" }),
        Admin::Leader { name } => format!("unit leader {name}"),
        Admin::Rename { name } => format!("rename {name}"),
    };
    let Some(kind) = turn.state.unit(&r.0, r.1).map(Unit::kind) else {
        return (order, Err(format!("there is no unit {}", name(r))));
    };
    let target_kind = match a {
        Admin::Follow { unit: Some(u) } => turn.state.unit(&r.0, *u).map(Unit::kind),
        _ => None,
    };
    let Some(u) = turn.state.unit_mut(&r.0, r.1) else {
        return (order, Err(format!("there is no unit {}", name(r))));
    };
    let result = match a {
        Admin::RetreatLevel { rank } => {
            if kind == UnitKind::Garrison {
                Err("a garrison never retreats".to_string())
            } else if !(1..=5).contains(rank) {
                Err(format!("ranks run from 1 to 5, not {rank}"))
            } else {
                u.retreat_level = *rank;
                Ok(format!("retreat level {rank}"))
            }
        }
        Admin::Follow { unit: None } => {
            u.follow = None;
            Ok("follows no one".to_string())
        }
        Admin::Follow { unit: Some(f) } => {
            if kind == UnitKind::Garrison {
                Err("a garrison never moves".to_string())
            } else if *f == r.1 {
                Err("a unit cannot follow itself".to_string())
            } else {
                match target_kind {
                    None => Err(format!("there is no unit {} {f}", r.0)),
                    Some(t) if t != kind => Err(format!(
                        "an army follows an army and a fleet a fleet; {f} is not one"
                    )),
                    Some(_) => {
                        u.follow = Some(*f);
                        Ok(format!("follows {f}"))
                    }
                }
            }
        }
        Admin::Marines { board } => {
            if kind != UnitKind::Army {
                Err("the marines option belongs to armies".to_string())
            } else {
                u.marines = *board;
                Ok(format!(
                    "{} enemy ships in sea battles",
                    if *board { "boards" } else { "does not board" }
                ))
            }
        }
        Admin::Leader { name: n } => {
            match u
                .leaders
                .iter()
                .position(|l| l.name.eq_ignore_ascii_case(n.trim()))
            {
                Some(i) => {
                    u.unit_leader = Some(i);
                    Ok(format!("led by {}", u.leaders[i].name))
                }
                None => Err(format!("no leader named {n} in the unit")),
            }
        }
        Admin::Rename { name: n } => {
            let n = n.trim();
            if n.is_empty() {
                Err("a name cannot be empty".to_string())
            } else {
                u.name = n.to_string();
                Ok(format!("renamed {n}"))
            }
        }
    };
    (order, result)
}

/// F9: transfers between units already in the same place; they happen before movement.
fn transfers(turn: &mut Turn) {
    let when = When::First(9);
    for k in turn.ordering_kingdoms() {
        for o in unit_orders_sorted(turn, &k) {
            let giver: UnitRef = (k.clone(), o.unit);
            if turn.state.unit(&k, o.unit).is_none() {
                continue; // reported at F8
            }
            for t in &o.transfers {
                transfer::run(turn, when, &giver, t);
            }
        }
    }
}

/// F10: troops of a type spread over ranks 1 to 5. The counts must add up to the troops of
/// that type the unit holds; the first troops in the unit's list take rank 1, and so on.
fn ranks(turn: &mut Turn) {
    let when = When::First(10);
    for k in turn.ordering_kingdoms() {
        for o in unit_orders_sorted(turn, &k) {
            if o.ranks.is_empty() {
                continue;
            }
            let Some(u) = turn.state.unit_mut(&k, o.unit) else {
                continue; // reported at F8
            };
            let mut problems = Vec::new();
            let mut done = false;
            for ro in &o.ranks {
                let held = u.count(&ro.code) as u64;
                let total: u64 = ro.ranks.iter().map(|&n| u64::from(n)).sum();
                if held == 0 {
                    problems.push((ro, format!("the unit holds no {}", ro.code)));
                    continue;
                }
                if total != held {
                    problems.push((
                        ro,
                        format!(
                            "the ranks add up to {total} but the unit holds {held} {}",
                            ro.code
                        ),
                    ));
                    continue;
                }
                let mut wanted = ro
                    .ranks
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &n)| std::iter::repeat_n(i as u8 + 1, n as usize));
                for t in u.troops.iter_mut().filter(|t| t.code == ro.code) {
                    if let Some(rank) = wanted.next() {
                        t.rank = rank;
                    }
                }
                done = true;
            }
            for (ro, reason) in problems {
                let order = format!("ranks of {}", ro.code);
                turn.fail(when, &k, Some(o.unit), order, reason);
            }
            if done {
                turn.emit(
                    when,
                    What::RanksSet {
                        unit: (k.clone(), o.unit),
                    },
                );
            }
        }
    }
}

/// The palace coup (digest 6, T78): a kingdom whose Give Province orders cover every
/// province it owns and whose disband and salvage orders cover every troop it has would be
/// left with nothing by its own hand. Its ruler is dethroned: the disbands are not carried
/// out here, the gifts are skipped at L12, and the GM is told.
fn palace_coup(turn: &mut Turn) {
    for k in turn.ordering_kingdoms() {
        if k.is_independent() {
            continue;
        }
        let Some(orders) = turn.orders.get(&k) else {
            continue;
        };
        let given: BTreeSet<_> = orders
            .hq
            .iter()
            .filter_map(|o| match o {
                HqOrder::GiveProvince { province, .. } => Some(*province),
                _ => None,
            })
            .collect();
        let owned: Vec<_> = turn.state.owned_by(&k).collect();
        let units: Vec<&Unit> = turn.state.units.iter().filter(|u| u.owner == k).collect();
        let troops: usize = units.iter().map(|u| u.troops.len()).sum();
        if owned.is_empty() && troops == 0 {
            continue; // nothing left to lose: L19's business, not a coup
        }
        let all_given = owned.iter().all(|p| given.contains(p));
        let all_disbanded = units.iter().all(|u| {
            let o = turn.unit_orders(&k, u.id);
            let mut removed: BTreeMap<_, u32> = BTreeMap::new();
            if let Some(o) = o {
                for (code, n) in merged(&o.disband).into_iter().chain(merged(&o.salvage)) {
                    *removed.entry(code).or_default() += n;
                }
            }
            u.troops.iter().all(|t| {
                removed
                    .get(&t.code)
                    .is_some_and(|&n| n as usize >= u.count(&t.code))
            })
        });
        if all_given && all_disbanded {
            turn.dethroned.insert(k.clone());
            turn.emit(When::First(11), What::PalaceCoup { kingdom: k });
        }
    }
}

/// F11: disbanded soldiers and scuttled ships leave at once and cost no upkeep this turn;
/// salvage also pays, for ships and siege machines, a third of their cost, but only in a
/// province, never at sea (T60, T61).
fn disband(turn: &mut Turn) {
    let when = When::First(11);
    for k in turn.ordering_kingdoms() {
        let coup = turn.dethroned.contains(&k);
        for o in unit_orders_sorted(turn, &k) {
            for (list, salvage) in [(&o.disband, false), (&o.salvage, true)] {
                if list.is_empty() {
                    continue;
                }
                let verb = if salvage { "salvage" } else { "disband" };
                let order = format!("{verb} {}", describe_counts(list));
                if coup {
                    turn.fail(
                        when,
                        &k,
                        Some(o.unit),
                        order,
                        "not carried out: the ruler was dethroned in a palace coup",
                    );
                    continue;
                }
                let r: UnitRef = (k.clone(), o.unit);
                match disband_one(turn, &r, list, salvage) {
                    Ok((troops, gold)) => turn.emit(
                        when,
                        What::Disbanded {
                            unit: r,
                            troops,
                            salvage: gold,
                        },
                    ),
                    Err(reason) => turn.fail(when, &k, Some(o.unit), order, reason),
                }
            }
        }
    }
}

fn disband_one(
    turn: &mut Turn,
    r: &UnitRef,
    list: &[TroopCount],
    salvage: bool,
) -> Result<(Vec<TroopCount>, Gold), String> {
    let in_province = {
        let u = turn
            .state
            .unit(&r.0, r.1)
            .ok_or_else(|| format!("there is no unit {}", name(r)))?;
        let wanted = merged(list);
        for (code, n) in &wanted {
            if (u.count(code) as u64) < u64::from(*n) {
                return Err(format!("the unit holds {} {code}, not {n}", u.count(code)));
            }
        }
        turn.map.get(u.location).is_some_and(|l| !l.is_sea())
    };
    let tables = turn.state.tables.clone();
    let mut gold = Gold::ZERO;
    let mut removed = Vec::new();
    if let Some(u) = turn.state.unit_mut(&r.0, r.1) {
        for (code, n) in merged(list) {
            if n == 0 {
                continue;
            }
            if take_troops(u, &code, n).is_some() {
                let troop = tables.troop(&code);
                // 3.1 F11, T61: a third of the cost for ships and siege machines; only
                // ships need to be in a province for it (siege machines pay aboard, at sea).
                let ship = troop.is_some_and(|t| t.is_ship());
                if salvage && (in_province || !ship) {
                    gold += troop.map_or(Gold::ZERO, |t| t.salvage()) * i64::from(n);
                }
                removed.push(TroopCount { code, count: n });
            }
        }
    }
    if gold > Gold::ZERO
        && let Some(x) = turn.state.kingdoms.get_mut(&r.0)
    {
        x.treasury += gold;
    }
    Ok((removed, gold))
}
