//! The Final Events between kingdoms (digest 2.8, 3.4, 7.11): provinces gifted (L12),
//! peace (L15), alliances cancelled (L16) and formed (L17).

use super::Turn;
use crate::event::{What, When};
use crate::ids::{KingdomCode, LocId, TroopCode, UnitId, UnitKind};
use crate::map::Map;
use crate::orders::{HqOrder, TroopCount};
use crate::state::{GameState, Leader, Relation, Troop, Unit};
use std::collections::{BTreeMap, BTreeSet};

// ---------------------------------------------------------------------------------------
// L12 Provinces Gifted.

/// Judges a Give Province order (L12 proposal): the giver still owns the province at this
/// step, and the recipient is another kingdom in the game that accepts its gifts (2.8), or
/// the independents, to whom a province is ceded (the FAQ: they take control of it, and no
/// troops are made for them).
pub fn gift_check(
    map: &Map,
    state: &GameState,
    from: &KingdomCode,
    province: LocId,
    to: &KingdomCode,
) -> Result<(), String> {
    let Some(p) = state.provinces.get(&province) else {
        return Err(format!("{province} is not a province"));
    };
    let name = map
        .get(province)
        .map_or_else(|| province.to_string(), |l| format!("{} {}", l.id, l.name));
    if &p.owner != from {
        return Err(format!("{name} is held by {} now", p.owner));
    }
    if to == from {
        return Err(format!("{name} is yours already"));
    }
    match state.kingdoms.get(to) {
        Some(r) if r.alive && !r.independent => {
            if r.refuses.contains(from) {
                return Err(format!("{to} accepts nothing from {from}"));
            }
        }
        Some(r) if r.independent => {}
        _ => return Err(format!("there is no kingdom {to} in the game")),
    }
    Ok(())
}

/// Send Ambassador: "to send your email address to another player", so that diplomacy
/// can go on by private letter. The engine only records who sent an ambassador to whom,
/// at the end of the turn (L20); the host passes the sender's address on, where the
/// sender's player allows it. A kingdom no longer in the game, or the independents, who
/// have no ruler, receive none.
pub fn ambassadors(turn: &mut Turn) {
    const WHEN: When = When::Final(20);
    let orders = turn.orders;
    for k in turn.ordering_kingdoms() {
        let mut sent: BTreeSet<&KingdomCode> = BTreeSet::new();
        for o in &orders[&k].hq {
            let HqOrder::SendAmbassador { to } = o else {
                continue;
            };
            let label = format!("send an ambassador to {to}");
            let reason = match turn.state.kingdoms.get(to) {
                _ if to == &k => Some("a ruler needs no ambassador to their own court".to_string()),
                Some(x) if x.independent => {
                    Some("the independents have no ruler to send an ambassador to".to_string())
                }
                Some(x) if x.alive => None,
                Some(_) => Some(format!("{to} is no longer in the game")),
                None => Some(format!("there is no kingdom {to} in the game")),
            };
            if let Some(reason) = reason {
                turn.fail(WHEN, &k, None, label, reason);
                continue;
            }
            // One ambassador a court is enough.
            if sent.insert(to) {
                turn.emit(
                    WHEN,
                    What::AmbassadorSent {
                        from: k.clone(),
                        to: to.clone(),
                    },
                );
            }
        }
    }
}

pub fn gifts(turn: &mut Turn) {
    const WHEN: When = When::Final(12);
    let orders = turn.orders;
    for k in turn.ordering_kingdoms() {
        for o in &orders[&k].hq {
            let HqOrder::GiveProvince { province, to } = o else {
                continue;
            };
            let label = format!("give {province} to {to}");
            if turn.dethroned.contains(&k) {
                // 6, T78: a ruler who would give away every province and disband every
                // troop is obeyed in neither; the GM is told (PalaceCoup, before F11).
                turn.fail(
                    WHEN,
                    &k,
                    None,
                    label,
                    "palace coup: these orders would leave the kingdom with nothing",
                );
                continue;
            }
            if let Err(reason) = gift_check(turn.map, &turn.state, &k, *province, to) {
                turn.fail(WHEN, &k, None, label, reason);
                continue;
            }
            give(turn, &k, *province, to);
        }
    }
}

fn give(turn: &mut Turn, from: &KingdomCode, at: LocId, to: &KingdomCode) {
    const WHEN: When = When::Final(12);
    let map = turn.map;
    let loc = map.loc(at);
    // G29: the giver's garrison troops do not pass with the province; they leave it as
    // new armies (soldiers) and fleets (ships) of the giver in the same place.
    let had_garrison = match turn.state.unit_index(from, UnitId::garrison(at)) {
        Some(i) => {
            let g = turn.state.units.remove(i);
            empty_garrison(turn, g);
            true
        }
        None => false,
    };
    let p = turn.state.provinces.get_mut(&at).expect("checked");
    p.owner = to.clone();
    // Special permissions were the giver's grants for its own province.
    p.permissions.clear();
    let fort = p.fort_level;
    // L12 (Ch4 "Provinces Gifted"): the fortification and the harbour are the province's
    // and pass with it, but a change of owner does not change the annexation. The giver
    // stays the annexer, so neither earns from it (L11) until the recipient annexes it,
    // paying as usual (L6); meanwhile the annexation declines (L7) and, unclaimed, lapses
    // to the independents.
    let g = UnitId::garrison(at);
    if turn.state.unit(to, g).is_none() && (had_garrison || loc.city.is_some() || fort > 0) {
        // 2.3: a province with a city or a fortification has its owner's garrison.
        turn.state.insert_unit(Unit::new(
            to.clone(),
            g,
            format!("Garrison of {}", loc.name),
            at,
        ));
    }
    turn.emit(
        WHEN,
        What::ProvinceGiven {
            province: at,
            from: from.clone(),
            to: to.clone(),
        },
    );
}

fn tally(troops: &[Troop]) -> Vec<TroopCount> {
    let mut m: BTreeMap<TroopCode, u32> = BTreeMap::new();
    for t in troops {
        *m.entry(t.code.clone()).or_default() += 1;
    }
    m.into_iter()
        .map(|(code, count)| TroopCount { code, count })
        .collect()
}

/// G29: moves a given-away garrison's soldiers into a new army and its ships into a new
/// fleet; leaders go with the soldiers, else with the ships. Past the limit of 99 a kind,
/// the troops are disbanded and the leaders leave.
fn empty_garrison(turn: &mut Turn, g: Unit) {
    let tables = &turn.state.tables;
    let (ships, soldiers): (Vec<Troop>, Vec<Troop>) = g
        .troops
        .iter()
        .cloned()
        .partition(|t| tables.troop(&t.code).is_some_and(|x| x.is_ship()));
    let mut leaders = g.leaders.clone();
    if !soldiers.is_empty() || (ships.is_empty() && !leaders.is_empty()) {
        let taken = std::mem::take(&mut leaders);
        if let Err(back) = form(turn, &g, UnitKind::Army, soldiers, taken) {
            leaders = back;
        }
    }
    if !ships.is_empty() {
        let taken = std::mem::take(&mut leaders);
        if let Err(back) = form(turn, &g, UnitKind::Fleet, ships, taken) {
            leaders = back;
        }
    }
    for l in leaders {
        turn.emit(
            When::Final(12),
            What::LeaderLost {
                unit: (g.owner.clone(), g.id),
                leader: l.name,
                reason: "his garrison's province was given away and he had no unit to join"
                    .to_string(),
            },
        );
    }
}

/// Forms one unit out of a given-away garrison; gives the leaders back if it cannot.
fn form(
    turn: &mut Turn,
    g: &Unit,
    kind: UnitKind,
    troops: Vec<Troop>,
    leaders: Vec<Leader>,
) -> Result<(), Vec<Leader>> {
    const WHEN: When = When::Final(12);
    let owner = g.owner.clone();
    let Some(number) = turn.state.free_number(&owner, kind) else {
        if !troops.is_empty() {
            turn.emit(
                WHEN,
                What::Disbanded {
                    unit: (owner, g.id),
                    troops: tally(&troops),
                    salvage: crate::fixed::Gold::ZERO,
                },
            );
        }
        return Err(leaders);
    };
    let id = UnitId { kind, number };
    let place = turn.map.loc(g.location).name.clone();
    let name = match kind {
        UnitKind::Fleet => format!("Squadron of {place}"),
        _ => format!("Troops of {place}"),
    };
    let mut u = Unit::new(owner.clone(), id, name.clone(), g.location);
    let moved = tally(&troops);
    let names: Vec<String> = leaders.iter().map(|l| l.name.clone()).collect();
    u.troops = troops;
    u.unit_leader = if leaders.is_empty() { None } else { Some(0) };
    u.leaders = leaders;
    turn.state.insert_unit(u);
    turn.emit(
        WHEN,
        What::UnitFormed {
            unit: (owner.clone(), id),
            by: g.id,
            at: g.location,
            name,
        },
    );
    turn.emit(
        WHEN,
        What::Transferred {
            from: (owner.clone(), g.id),
            to: (owner, id),
            troops: moved,
            leaders: names,
        },
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------
// L15 Peace, L16 Alliances Cancelled, L17 Alliances Formed.

/// Every (giver, target) of one kind of HQ order, kingdoms in code order, each one's
/// orders as written, without repeats.
fn offers(
    turn: &Turn,
    pick: impl Fn(&HqOrder) -> Option<&KingdomCode>,
) -> Vec<(KingdomCode, KingdomCode)> {
    let mut out = Vec::new();
    for k in turn.ordering_kingdoms() {
        for o in &turn.orders[&k].hq {
            if let Some(to) = pick(o) {
                let pair = (k.clone(), to.clone());
                if !out.contains(&pair) {
                    out.push(pair);
                }
            }
        }
    }
    out
}

/// Why a diplomatic order names an impossible partner, if it does.
fn partner_problem(turn: &Turn, a: &KingdomCode, b: &KingdomCode) -> Option<String> {
    if a == b {
        return Some("a kingdom has no relations with itself".to_string());
    }
    match turn.state.kingdoms.get(b) {
        Some(x) if x.independent => {
            Some("the independents never change their relations (1.1)".to_string())
        }
        Some(x) if x.alive => None,
        _ => Some(format!("there is no kingdom {b} in the game")),
    }
}

fn changed(turn: &mut Turn, when: When, a: &KingdomCode, b: &KingdomCode, r: Relation) {
    turn.state.set_relation(a, b, r);
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    turn.emit(
        when,
        What::RelationChanged {
            a: a.clone(),
            b: b.clone(),
            relation: r,
        },
    );
}

fn key(a: &KingdomCode, b: &KingdomCode) -> (KingdomCode, KingdomCode) {
    if a <= b {
        (a.clone(), b.clone())
    } else {
        (b.clone(), a.clone())
    }
}

/// The relations the alliance offers were made under, taken before L15 (T74: kingdoms at
/// war cannot offer an alliance, even if they make peace at L15 of the same turn).
pub fn alliance_offers_at_start(turn: &Turn) -> BTreeMap<(KingdomCode, KingdomCode), Relation> {
    offers(turn, |o| match o {
        HqOrder::OfferAlliance { to } => Some(to),
        _ => None,
    })
    .into_iter()
    .map(|(a, b)| {
        let r = turn.state.relation(&a, &b);
        ((a, b), r)
    })
    .collect()
}

pub fn peace(turn: &mut Turn) {
    const WHEN: When = When::Final(15);
    let all = offers(turn, |o| match o {
        HqOrder::OfferPeace { to } => Some(to),
        _ => None,
    });
    let valid: BTreeSet<(KingdomCode, KingdomCode)> = all
        .iter()
        .filter(|(a, b)| {
            partner_problem(turn, a, b).is_none() && turn.state.relation(a, b) == Relation::War
        })
        .cloned()
        .collect();
    let mut made = BTreeSet::new();
    for (a, b) in all {
        let label = format!("offer peace to {b}");
        if let Some(reason) = partner_problem(turn, &a, &b) {
            turn.fail(WHEN, &a, None, label, reason);
        } else if !valid.contains(&(a.clone(), b.clone())) {
            turn.fail(WHEN, &a, None, label, format!("{a} is not at war with {b}"));
        } else if valid.contains(&(b.clone(), a.clone())) {
            // L15: both offered, so the war ends.
            if made.insert(key(&a, &b)) {
                changed(turn, WHEN, &a, &b, Relation::Neutral);
            }
        } else {
            // T75: one offer alone leaves them at war.
            turn.fail(
                WHEN,
                &a,
                None,
                label,
                format!("{b} did not offer peace this turn, so the war goes on"),
            );
        }
    }
}

pub fn alliances_cancelled(turn: &mut Turn) {
    const WHEN: When = When::Final(16);
    let all = offers(turn, |o| match o {
        HqOrder::CancelAlliance { to } => Some(to),
        _ => None,
    });
    let mut done = BTreeSet::new();
    for (a, b) in all {
        let label = format!("cancel the alliance with {b}");
        if let Some(reason) = partner_problem(turn, &a, &b) {
            turn.fail(WHEN, &a, None, label, reason);
        } else if done.contains(&key(&a, &b)) {
            // The other side cancelled it already in this step.
        } else if turn.state.relation(&a, &b) == Relation::Ally {
            // L16: either ally may end it alone.
            done.insert(key(&a, &b));
            changed(turn, WHEN, &a, &b, Relation::Neutral);
        } else {
            turn.fail(WHEN, &a, None, label, format!("{a} is not allied with {b}"));
        }
    }
}

pub fn alliances_formed(
    turn: &mut Turn,
    at_start: &BTreeMap<(KingdomCode, KingdomCode), Relation>,
) {
    const WHEN: When = When::Final(17);
    let mut made = BTreeSet::new();
    for ((a, b), before) in at_start.iter().map(|(p, r)| (p.clone(), *r)) {
        if made.contains(&key(&a, &b)) {
            continue; // formed when the other side's offer was read
        }
        let label = format!("offer an alliance to {b}");
        let problem = partner_problem(turn, &a, &b).or_else(|| match before {
            Relation::War => Some(format!(
                "{a} and {b} are at war: an alliance can be offered only once peace is made"
            )),
            Relation::Ally => Some(format!("{a} and {b} are allied already")),
            Relation::Neutral if turn.state.relation(&a, &b) != Relation::Neutral => Some(format!(
                "{a} and {b} are no longer neutral toward each other"
            )),
            Relation::Neutral => None,
        });
        if let Some(reason) = problem {
            turn.fail(WHEN, &a, None, label, reason);
            continue;
        }
        let back = at_start.get(&(b.clone(), a.clone()));
        if back == Some(&Relation::Neutral) {
            // L17: both offered while neutral.
            if made.insert(key(&a, &b)) {
                changed(turn, WHEN, &a, &b, Relation::Ally);
            }
        } else {
            turn.fail(
                WHEN,
                &a,
                None,
                label,
                format!("{b} did not offer an alliance this turn"),
            );
        }
    }
}
