//! The Final Events that move gold (digest 3.4, 5.1): gold sent (L2), upkeep (L3), troops
//! built (L4), leaders hired (L5), annexation and its decline (L6, L7), decay (L9), revenue
//! (L11) and proclamations (L13). The checks that need no live turn are public, so that the
//! Headquarters money panel (`crate::hq`) predicts what these steps will charge.

use super::Turn;
use crate::event::{What, When};
use crate::fixed::{Fixed, Gold};
use crate::ids::{KingdomCode, LocId, TroopCode, UnitId, UnitKind};
use crate::map::Map;
use crate::orders::{HqOrder, KingdomOrders, TroopCount, UnitOrders};
use crate::state::{GameState, Leader, Status, Troop};
use empires_dice::GameRng;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

// ---------------------------------------------------------------------------------------
// Shared helpers for every Final Event.

/// A kingdom's unit orders in unit-id order (several entries for one unit keep the order
/// they were written in): the stable order in which one step handles them (digest 3).
pub(crate) fn sorted_unit_orders(orders: &KingdomOrders) -> Vec<&UnitOrders> {
    let mut v: Vec<&UnitOrders> = orders.units.iter().collect();
    v.sort_by_key(|u| u.unit);
    v
}

/// The treasury of a kingdom, zero for an unknown one.
pub(crate) fn treasury(state: &GameState, k: &KingdomCode) -> Gold {
    state.kingdoms.get(k).map_or(Gold::ZERO, |x| x.treasury)
}

/// Takes gold from a treasury if it holds that much: a treasury never goes below zero, and
/// an expense that cannot be met is not made at all.
pub(crate) fn spend(state: &mut GameState, k: &KingdomCode, amount: Gold) -> bool {
    match state.kingdoms.get_mut(k) {
        Some(x) if x.treasury >= amount => {
            x.treasury -= amount;
            true
        }
        _ => false,
    }
}

pub(crate) fn earn(state: &mut GameState, k: &KingdomCode, amount: Gold) {
    if let Some(x) = state.kingdoms.get_mut(k) {
        x.treasury += amount;
    }
}

/// "4 LIN, 2 CUI".
pub(crate) fn counts(list: &[TroopCount]) -> String {
    list.iter()
        .map(|t| format!("{} {}", t.count, t.code))
        .collect::<Vec<_>>()
        .join(", ")
}

fn place_name(map: &Map, at: LocId) -> String {
    map.get(at)
        .map_or_else(|| at.to_string(), |l| format!("{} {}", l.id, l.name))
}

fn not_enough(cost: Gold, state: &GameState, k: &KingdomCode) -> String {
    format!(
        "it costs {cost} gold and the treasury holds {}",
        treasury(state, k)
    )
}

// ---------------------------------------------------------------------------------------
// L2 Gold Sent (G23).

/// Checks a Send Gold order and returns the fee. All or nothing: the sender must pay the
/// amount and the fee together (G23), the recipient must accept gifts from the sender, and
/// a route must join their garrisons ([`gold_route`]).
pub fn send_gold_check(
    map: &Map,
    state: &GameState,
    from: &KingdomCode,
    to: &KingdomCode,
    amount: Gold,
) -> Result<Gold, String> {
    if amount <= Gold::ZERO {
        return Err("the amount must be more than 0".to_string());
    }
    let Some(r) = state.kingdoms.get(to).filter(|r| r.alive) else {
        return Err(format!("there is no kingdom {to} in the game"));
    };
    if r.independent {
        return Err("the independents take no gifts".to_string());
    }
    // 2.8: acceptance covers gold sent.
    if r.refuses.contains(from) {
        return Err(format!("{to} accepts nothing from {from}"));
    }
    let fee = send_fee(state, amount);
    gold_route(map, state, from, to)?;
    let total = amount + fee;
    if treasury(state, from) < total {
        return Err(format!(
            "{amount} gold and the {fee} gold fee make {total}, and the treasury holds {}",
            treasury(state, from)
        ));
    }
    Ok(fee)
}

/// The fee on gold sent: `send_gold_fee_percent` of the amount (T17: 10 % of 50 is 5).
pub fn send_fee(state: &GameState, amount: Gold) -> Gold {
    amount.percent(state.settings.send_gold_fee_percent)
}

/// The caravan's route (G23, L2): a breadth-first search of at most `send_gold_reach` steps
/// from any garrison of the sender to any garrison of the recipient. Every location passed
/// through must be a province the sender owns or has permission for (2.9, G6), or a sea
/// holding no fleet of a kingdom at war with the sender; the recipient's garrison itself
/// need not be. Barriers do not stop gold (only marching armies and docking fleets are
/// barred by them). Returns the number of steps.
pub fn gold_route(
    map: &Map,
    state: &GameState,
    from: &KingdomCode,
    to: &KingdomCode,
) -> Result<u32, String> {
    let garrisons = |k: &KingdomCode| -> BTreeSet<LocId> {
        state
            .units
            .iter()
            .filter(|u| &u.owner == k && u.kind() == UnitKind::Garrison)
            .map(|u| u.location)
            .collect()
    };
    let starts = garrisons(from);
    let targets = garrisons(to);
    if starts.is_empty() {
        return Err(format!("{from} has no garrison to send gold from"));
    }
    if targets.is_empty() {
        return Err(format!("{to} has no garrison to receive gold"));
    }
    let reach = state.settings.send_gold_reach;
    let passable = |at: LocId| -> bool {
        match map.get(at) {
            Some(l) if l.is_sea() => !state.units.iter().any(|u| {
                u.location == at
                    && u.kind() == UnitKind::Fleet
                    && state.relation(&u.owner, from) == crate::state::Relation::War
            }),
            Some(_) => state.has_permission(from, at),
            None => false,
        }
    };
    let mut seen: BTreeSet<LocId> = starts.clone();
    let mut queue: VecDeque<(LocId, u32)> = starts.iter().map(|s| (*s, 0)).collect();
    if starts.iter().any(|s| targets.contains(s)) {
        return Ok(0);
    }
    while let Some((at, d)) = queue.pop_front() {
        if d >= reach {
            continue;
        }
        let Some(loc) = map.get(at) else { continue };
        for e in &loc.edges {
            if targets.contains(&e.to) {
                return Ok(d + 1);
            }
            if passable(e.to) && seen.insert(e.to) {
                queue.push_back((e.to, d + 1));
            }
        }
    }
    Err(format!(
        "no route of at most {reach} locations joins a garrison of {from} to one of {to} \
         through {from}'s own or permitted provinces and seas free of enemy fleets"
    ))
}

pub fn gold_sent(turn: &mut Turn) {
    const WHEN: When = When::Final(2);
    let orders = turn.orders;
    // Kingdoms in code order, each one's orders in the order written: a gift received here
    // can pay for a later kingdom's own sending (digest 3, proposal: a stable order).
    for k in turn.ordering_kingdoms() {
        for o in &orders[&k].hq {
            let HqOrder::SendGold { to, amount } = o else {
                continue;
            };
            let label = format!("send {amount} gold to {to}");
            match send_gold_check(turn.map, &turn.state, &k, to, *amount) {
                Err(reason) => turn.fail(WHEN, &k, None, label, reason),
                Ok(fee) => {
                    // L2, G23: the sender pays amount + fee, the recipient gets the amount.
                    if spend(&mut turn.state, &k, *amount + fee) {
                        earn(&mut turn.state, to, *amount);
                        turn.emit(
                            WHEN,
                            What::GoldSent {
                                from: k.clone(),
                                to: to.clone(),
                                amount: *amount,
                                fee,
                            },
                        );
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// L3 Upkeep Paid (G24).

pub fn upkeep(turn: &mut Turn) {
    const WHEN: When = When::Final(3);
    let payers: Vec<KingdomCode> = turn
        .state
        .kingdoms
        .values()
        .filter(|k| k.alive && !k.independent) // the independents pay no upkeep
        .map(|k| k.code.clone())
        .collect();
    for k in payers {
        pay_upkeep(turn, &k, WHEN);
    }
}

fn pay_upkeep(turn: &mut Turn, k: &KingdomCode, when: When) {
    let state = &mut turn.state;
    let units: Vec<usize> = (0..state.units.len())
        .filter(|&i| &state.units[i].owner == k)
        .collect();
    if units.is_empty() {
        return;
    }
    let mut cash = treasury(state, k);
    let mut paid = Gold::ZERO;
    // L3: leaders are paid before troops; a member is paid whole or not at all (G24), and
    // payment goes on down the list, so a cheaper member later may still be paid.
    let mut unpaid_leaders: Vec<(usize, usize)> = Vec::new();
    for &ui in &units {
        for (li, l) in state.units[ui].leaders.iter().enumerate() {
            if l.upkeep <= cash {
                cash -= l.upkeep;
                paid += l.upkeep;
            } else {
                unpaid_leaders.push((ui, li));
            }
        }
    }
    // G24: troops by unit id, then rank, then their place in the unit. Troops disbanded at
    // F11 are gone already and cost nothing (T60).
    let mut unpaid_troops: Vec<(usize, usize)> = Vec::new();
    for &ui in &units {
        let u = &state.units[ui];
        let mut order: Vec<usize> = (0..u.troops.len()).collect();
        order.sort_by_key(|&i| (u.troops[i].rank, i));
        for i in order {
            let cost = state
                .tables
                .troop(&u.troops[i].code)
                .map_or(Gold::ZERO, |t| t.upkeep);
            if cost <= cash {
                cash -= cost;
                paid += cost;
            } else {
                unpaid_troops.push((ui, i));
            }
        }
    }
    if let Some(x) = state.kingdoms.get_mut(k) {
        x.treasury = cash;
    }
    // L3, T59: every member left unpaid is lost with `unpaid_loss_percent` chance, each
    // drawn on its own.
    let pct = state.settings.unpaid_loss_percent;
    let lose = |rng: &mut GameRng| rng.range(1, 100) <= pct;
    let lost_leaders: Vec<(usize, usize)> = unpaid_leaders
        .iter()
        .copied()
        .filter(|_| lose(&mut turn.rng))
        .collect();
    let lost_troops: Vec<(usize, usize)> = unpaid_troops
        .iter()
        .copied()
        .filter(|_| lose(&mut turn.rng))
        .collect();
    let unpaid = (unpaid_leaders.len() + unpaid_troops.len()) as u32;
    let mut lost: Vec<(UnitId, TroopCode)> = lost_troops
        .iter()
        .map(|&(ui, i)| (state.units[ui].id, state.units[ui].troops[i].code.clone()))
        .collect();
    lost.sort();
    let mut leader_events = Vec::new();
    for &(ui, li) in &lost_leaders {
        let u = &state.units[ui];
        leader_events.push(What::LeaderLost {
            unit: (u.owner.clone(), u.id),
            leader: u.leaders[li].name.clone(),
            reason: "his upkeep could not be paid (L3)".to_string(),
        });
    }
    remove_members(state, &lost_leaders, &lost_troops);
    if paid > Gold::ZERO || unpaid > 0 {
        turn.emit(
            when,
            What::UpkeepPaid {
                kingdom: k.clone(),
                paid,
                unpaid,
                lost,
            },
        );
    }
    for e in leader_events {
        turn.emit(when, e);
    }
}

/// Removes leaders and troops given as (unit index, member index), keeping the unit
/// leader pointing at the same man, or at the first one left (G44).
pub(crate) fn remove_members(
    state: &mut GameState,
    leaders: &[(usize, usize)],
    troops: &[(usize, usize)],
) {
    let mut by_unit: BTreeMap<usize, (Vec<usize>, Vec<usize>)> = BTreeMap::new();
    for &(u, i) in leaders {
        by_unit.entry(u).or_default().0.push(i);
    }
    for &(u, i) in troops {
        by_unit.entry(u).or_default().1.push(i);
    }
    for (ui, (mut ls, mut ts)) in by_unit {
        let u = &mut state.units[ui];
        ts.sort_unstable();
        for i in ts.into_iter().rev() {
            u.troops.remove(i);
        }
        if ls.is_empty() {
            continue;
        }
        ls.sort_unstable();
        let chief = u
            .unit_leader
            .and_then(|c| u.leaders.get(c))
            .map(|l| l.name.clone());
        for i in ls.into_iter().rev() {
            u.leaders.remove(i);
        }
        u.unit_leader = chief
            .and_then(|n| u.leaders.iter().position(|l| l.name == n))
            .or(if u.leaders.is_empty() { None } else { Some(0) });
    }
}

// ---------------------------------------------------------------------------------------
// L4 Troops Built.

/// What a garrison's recruit order would build before the treasury is consulted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecruitPlan {
    pub at: LocId,
    /// Each type with its count, cut to the city's limit, and the price of one.
    pub builds: Vec<(TroopCode, u32, Gold)>,
    /// Parts of the order refused, each with its reason.
    pub refused: Vec<String>,
}

impl RecruitPlan {
    pub fn cost(&self) -> Gold {
        self.builds.iter().map(|(_, n, c)| *c * i64::from(*n)).sum()
    }
}

/// Judges a recruit order on the state as it stands (L4): the unit is a garrison of the
/// kingdom with a city, in a province the kingdom owns now (T62, T63); each type is on the
/// city's build list; ships need the province's harbour; at most the city's `max_builds`
/// troops a turn (T19), the later entries cut first. `Err` refuses the whole order.
pub fn plan_recruits(
    map: &Map,
    state: &GameState,
    k: &KingdomCode,
    unit: UnitId,
    wanted: &[TroopCount],
) -> Result<RecruitPlan, String> {
    let u = state
        .unit(k, unit)
        .ok_or_else(|| format!("{k} has no unit {unit}"))?;
    if u.kind() != UnitKind::Garrison {
        return Err("only a garrison recruits troops".to_string());
    }
    let at = u.location;
    let p = state
        .provinces
        .get(&at)
        .ok_or_else(|| format!("{} is not a province", place_name(map, at)))?;
    if &p.owner != k {
        // T63: no building in a province now owned by someone else.
        return Err(format!(
            "{} is held by {} now",
            place_name(map, at),
            p.owner
        ));
    }
    let city = map.get(at).and_then(|l| l.city.as_ref()).ok_or_else(|| {
        format!(
            "{} has no city, and troops are recruited only where there is one",
            place_name(map, at)
        )
    })?;
    let mut room = city.max_builds;
    let mut plan = RecruitPlan {
        at,
        builds: Vec::new(),
        refused: Vec::new(),
    };
    for w in wanted.iter().filter(|w| w.count > 0) {
        let Some(t) = state.tables.troop(&w.code) else {
            plan.refused
                .push(format!("there is no troop type {}", w.code));
            continue;
        };
        if !city.builds.contains(&w.code) {
            plan.refused.push(format!(
                "{} cannot build {} ({})",
                city.name, w.code, t.name
            ));
            continue;
        }
        if t.is_ship() && !p.harbour {
            plan.refused.push(format!(
                "{} {}: ships are built only where there is a harbour",
                w.count, w.code
            ));
            continue;
        }
        let n = w.count.min(room);
        if n < w.count {
            plan.refused.push(format!(
                "{} builds at most {} troops a turn: {n} of {} {} are built",
                city.name, city.max_builds, w.count, w.code
            ));
        }
        if n > 0 {
            room -= n;
            plan.builds.push((w.code.clone(), n, t.cost));
        }
    }
    Ok(plan)
}

pub fn troops_built(turn: &mut Turn) {
    const WHEN: When = When::Final(4);
    let orders = turn.orders;
    for k in turn.ordering_kingdoms() {
        for uo in sorted_unit_orders(&orders[&k]) {
            if uo.recruit.is_empty() {
                continue;
            }
            let label = format!("recruit {}", counts(&uo.recruit));
            let plan = match plan_recruits(turn.map, &turn.state, &k, uo.unit, &uo.recruit) {
                Ok(p) => p,
                Err(reason) => {
                    turn.fail(WHEN, &k, Some(uo.unit), label, reason);
                    continue;
                }
            };
            for reason in &plan.refused {
                turn.fail(WHEN, &k, Some(uo.unit), label.clone(), reason.clone());
            }
            let mut built: Vec<TroopCount> = Vec::new();
            let mut cost = Gold::ZERO;
            for (code, n, price) in &plan.builds {
                // L4: "the number to be built will be reduced to what you can afford".
                let cash = treasury(&turn.state, &k);
                let afford = if *price > Gold::ZERO {
                    (*n).min(u32::try_from(cash.0 / price.0).unwrap_or(u32::MAX))
                } else {
                    *n
                };
                if afford < *n {
                    turn.fail(
                        WHEN,
                        &k,
                        Some(uo.unit),
                        label.clone(),
                        format!(
                            "{code} cost {price} gold each and the treasury held {cash}: \
                             {afford} of {n} are built"
                        ),
                    );
                }
                if afford == 0 {
                    continue;
                }
                let total = *price * i64::from(afford);
                if !spend(&mut turn.state, &k, total) {
                    continue;
                }
                cost += total;
                let mp = turn.state.tables.troop(code).map_or(0, |t| t.mp);
                if let Some(g) = turn.state.unit_mut(&k, uo.unit) {
                    // New troops stand in rank 1 with their type's move points.
                    for _ in 0..afford {
                        g.troops.push(Troop {
                            code: code.clone(),
                            rank: 1,
                            mp,
                            damage: Fixed::ZERO,
                        });
                    }
                }
                match built.iter_mut().find(|b| &b.code == code) {
                    Some(b) => b.count += afford,
                    None => built.push(TroopCount {
                        code: code.clone(),
                        count: afford,
                    }),
                }
            }
            if !built.is_empty() {
                turn.emit(
                    WHEN,
                    What::TroopsBuilt {
                        unit: (k.clone(), uo.unit),
                        troops: built,
                        cost,
                    },
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// L5 Leaders Hired (G27).

/// A hired leader's upkeep a turn (L3, G27).
pub const HIRED_LEADER_UPKEEP: i64 = 2;

/// Judges a Hire Leader order and returns its cost: Royalty only ("None Will Join His
/// Cause" for Commoners, 7.4), a garrison with a city in a province the kingdom owns now.
pub fn hire_check(
    map: &Map,
    state: &GameState,
    k: &KingdomCode,
    unit: UnitId,
) -> Result<Gold, String> {
    let kingdom = state
        .kingdoms
        .get(k)
        .ok_or_else(|| format!("there is no kingdom {k}"))?;
    if kingdom.status != Status::Royalty {
        return Err("no leader will join a Commoner's cause: hiring needs Royalty".to_string());
    }
    let u = state
        .unit(k, unit)
        .ok_or_else(|| format!("{k} has no unit {unit}"))?;
    if u.kind() != UnitKind::Garrison {
        return Err("only a garrison hires leaders".to_string());
    }
    let at = u.location;
    match state.provinces.get(&at) {
        Some(p) if &p.owner == k => {}
        Some(p) => {
            return Err(format!(
                "{} is held by {} now",
                place_name(map, at),
                p.owner
            ));
        }
        None => return Err(format!("{} is not a province", place_name(map, at))),
    }
    if map.get(at).is_none_or(|l| l.city.is_none()) {
        return Err(format!(
            "{} has no city, and leaders are hired only where there is one",
            place_name(map, at)
        ));
    }
    Ok(Fixed::whole(state.settings.leader_cost))
}

/// A new leader with random skills (G27): small hit points and combat, tactics 0-50, and
/// a naval skill with `admiral_percent` chance (2.5: "about 1 in 4").
fn new_leader(rng: &mut GameRng, name: String, admiral_percent: u32) -> Leader {
    let hp = Fixed::whole(i64::from(rng.range(1, 3)));
    let combat = rng.range(20, 40);
    let infantry = rng.range(0, 50);
    let cavalry = rng.range(0, 50);
    let siege = rng.range(0, 50);
    let naval = if rng.range(1, 100) <= admiral_percent {
        rng.range(10, 50)
    } else {
        0
    };
    Leader {
        name,
        hp,
        combat,
        attacks: 2,
        infantry,
        cavalry,
        siege,
        naval,
        upkeep: Fixed::whole(HIRED_LEADER_UPKEEP),
        damage: Fixed::ZERO,
    }
}

pub fn leaders_hired(turn: &mut Turn) {
    const WHEN: When = When::Final(5);
    let orders = turn.orders;
    for k in turn.ordering_kingdoms() {
        for uo in sorted_unit_orders(&orders[&k]) {
            if !uo.hire_leader {
                continue;
            }
            let cost = match hire_check(turn.map, &turn.state, &k, uo.unit) {
                Ok(c) => c,
                Err(reason) => {
                    turn.fail(WHEN, &k, Some(uo.unit), "hire a leader", reason);
                    continue;
                }
            };
            if !spend(&mut turn.state, &k, cost) {
                let reason = not_enough(cost, &turn.state, &k);
                turn.fail(WHEN, &k, Some(uo.unit), "hire a leader", reason);
                continue;
            }
            let name = leader_name(&mut turn.state, &k);
            let admiral = turn.state.settings.admiral_percent;
            let leader = new_leader(&mut turn.rng, name.clone(), admiral);
            if let Some(g) = turn.state.unit_mut(&k, uo.unit) {
                g.leaders.push(leader);
                if g.unit_leader.is_none() {
                    g.unit_leader = Some(g.leaders.len() - 1);
                }
            }
            turn.emit(
                WHEN,
                What::LeaderHired {
                    unit: (k.clone(), uo.unit),
                    leader: name,
                    cost,
                },
            );
        }
    }
}

/// "General 3 of France": numbered by the kingdom's hiring serial, skipping a name one of
/// its leaders already bears, so orders can name each leader.
fn leader_name(state: &mut GameState, k: &KingdomCode) -> String {
    let (mut n, kname) = match state.kingdoms.get(k) {
        Some(x) => (x.leaders_hired + 1, x.name.clone()),
        None => (1, k.to_string()),
    };
    let taken: BTreeSet<String> = state
        .units
        .iter()
        .filter(|u| &u.owner == k)
        .flat_map(|u| u.leaders.iter().map(|l| l.name.clone()))
        .collect();
    while taken.contains(&format!("General {n} of {kname}")) {
        n += 1;
    }
    if let Some(x) = state.kingdoms.get_mut(k) {
        x.leaders_hired = n;
    }
    format!("General {n} of {kname}")
}

// ---------------------------------------------------------------------------------------
// L6 Provinces Annexed (G26), L7 Annexation Declines (G25).

/// The annexed-province limit of a kingdom's status (2.10, 7.4).
pub fn annex_limit(state: &GameState, k: &KingdomCode) -> u32 {
    match state.kingdoms.get(k).map(|x| x.status) {
        Some(Status::Royalty) => state.settings.royalty_annex_limit,
        _ => state.settings.commoner_annex_limit,
    }
}

/// Annexations that count toward the limit: provinces still annexed to the kingdom that
/// were not among its starting provinces (2.10, T67).
pub fn annex_count(state: &GameState, k: &KingdomCode) -> u32 {
    let Some(x) = state.kingdoms.get(k) else {
        return 0;
    };
    x.annexed
        .iter()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .filter(|p| !x.starting.contains(p))
        .filter(|p| state.provinces.get(p).is_some_and(|q| &q.annexed_to == k))
        .count() as u32
}

/// Judges an Annex order and returns its cost, the province's map revenue (L6). The
/// kingdom owns it now and owned it when the season began (T64); it is not annexed to the
/// kingdom already; the status limit has room, starting provinces aside (T67). No unit
/// need be there (G26).
pub fn annex_check(
    map: &Map,
    state: &GameState,
    k: &KingdomCode,
    province: LocId,
) -> Result<Gold, String> {
    let (Some(loc), Some(p)) = (map.get(province), state.provinces.get(&province)) else {
        return Err(format!("{province} is not a province"));
    };
    let Some(kingdom) = state.kingdoms.get(k) else {
        return Err(format!("there is no kingdom {k}"));
    };
    let name = place_name(map, province);
    if &p.owner != k {
        return Err(format!("{name} is held by {}", p.owner));
    }
    if &p.owner_at_start != k {
        return Err(format!(
            "{name} was not yours when the season began: it can be annexed next turn"
        ));
    }
    if &p.annexed_to == k {
        return Err(format!("{name} is annexed to you already"));
    }
    if !kingdom.starting.contains(&province) {
        let limit = annex_limit(state, k);
        if annex_count(state, k) >= limit {
            return Err(format!(
                "a {} may hold at most {limit} annexed provinces beyond the starting ones",
                match kingdom.status {
                    Status::Commoner => "Commoner",
                    Status::Royalty => "Royal",
                }
            ));
        }
    }
    Ok(loc.revenue)
}

/// Moves a province's annexation to a new annexer, keeping every kingdom's `annexed` list
/// (oldest first, G28) in step.
pub(crate) fn set_annexer(state: &mut GameState, province: LocId, to: &KingdomCode) {
    let Some(p) = state.provinces.get_mut(&province) else {
        return;
    };
    let old = std::mem::replace(&mut p.annexed_to, to.clone());
    p.decline = 0;
    if let Some(x) = state.kingdoms.get_mut(&old) {
        x.annexed.retain(|q| *q != province);
    }
    if !to.is_independent()
        && let Some(x) = state.kingdoms.get_mut(to)
    {
        x.annexed.retain(|q| *q != province);
        x.annexed.push(province);
    }
}

pub fn annexations(turn: &mut Turn) {
    const WHEN: When = When::Final(6);
    let orders = turn.orders;
    for k in turn.ordering_kingdoms() {
        for o in &orders[&k].hq {
            let HqOrder::Annex { province } = o else {
                continue;
            };
            let label = format!("annex {province}");
            let cost = match annex_check(turn.map, &turn.state, &k, *province) {
                Ok(c) => c,
                Err(reason) => {
                    turn.fail(WHEN, &k, None, label, reason);
                    continue;
                }
            };
            if !spend(&mut turn.state, &k, cost) {
                let reason = not_enough(cost, &turn.state, &k);
                turn.fail(WHEN, &k, None, label, reason);
                continue;
            }
            set_annexer(&mut turn.state, *province, &k);
            if let Some(p) = turn.state.provinces.get_mut(province) {
                // L11, T65: no revenue from it this turn, from the next one on.
                p.annexed_this_turn = true;
            }
            turn.emit(
                WHEN,
                What::Annexed {
                    kingdom: k.clone(),
                    province: *province,
                    cost,
                },
            );
        }
    }
}

pub fn annexation_declines(turn: &mut Turn) {
    const WHEN: When = When::Final(7);
    let limit = turn.state.settings.annex_decline_turns;
    let ids: Vec<LocId> = turn.state.provinces.keys().copied().collect();
    for id in ids {
        let p = &turn.state.provinces[&id];
        if p.owner == p.annexed_to || p.annexed_to.is_independent() {
            // G25: the count restarts once the annexer holds it again (T66: no new fee).
            turn.state.provinces.get_mut(&id).expect("listed").decline = 0;
            continue;
        }
        let from = p.annexed_to.clone();
        let p = turn.state.provinces.get_mut(&id).expect("listed");
        p.decline += 1;
        if p.decline >= limit {
            // G25: after `annex_decline_turns` turns held by another, the annexation goes
            // to the independents (T66).
            set_annexer(&mut turn.state, id, &KingdomCode::independents());
            turn.emit(WHEN, What::AnnexationLapsed { province: id, from });
        }
    }
}

// ---------------------------------------------------------------------------------------
// L9 Gold Decay, L11 Revenue, L13 Proclamations.

/// What decay takes from a treasury: `decay_percent` of it when positive, truncated toward
/// zero at the hundredth (G41; T16: 7 of 100).
pub fn decay_of(state: &GameState, treasury: Gold) -> Gold {
    if treasury > Gold::ZERO {
        treasury.percent(state.settings.decay_percent)
    } else {
        Gold::ZERO
    }
}

pub fn decay(turn: &mut Turn) {
    const WHEN: When = When::Final(9);
    let codes: Vec<KingdomCode> = turn
        .state
        .kingdoms
        .values()
        .filter(|k| k.alive)
        .map(|k| k.code.clone())
        .collect();
    for k in codes {
        let amount = decay_of(&turn.state, treasury(&turn.state, &k));
        if amount > Gold::ZERO && spend(&mut turn.state, &k, amount) {
            turn.emit(WHEN, What::Decay { kingdom: k, amount });
        }
    }
}

/// The revenue of one province to its owner (L11): its map revenue × the damage
/// multiplier (G4, T3: 40 at damage 2 gives 26), when owner and annexer are the same
/// kingdom. Annexed this turn or not is the caller's concern.
pub fn province_revenue(map: &Map, state: &GameState, id: LocId) -> Option<(KingdomCode, Gold)> {
    let p = state.provinces.get(&id)?;
    if p.owner != p.annexed_to {
        return None;
    }
    let loc = map.get(id)?;
    let pct = state.settings.revenue_percent(p.damage);
    Some((p.owner.clone(), loc.revenue.percent(pct)))
}

pub fn revenue(turn: &mut Turn) {
    const WHEN: When = When::Final(11);
    let mut gains: BTreeMap<KingdomCode, (Gold, u32)> = BTreeMap::new();
    for (id, p) in &turn.state.provinces {
        // L11, T65: a province annexed at L6 of this turn pays from the next one.
        if p.annexed_this_turn {
            continue;
        }
        if let Some((k, g)) = province_revenue(turn.map, &turn.state, *id) {
            let e = gains.entry(k).or_default();
            e.0 += g;
            e.1 += 1;
        }
    }
    for (k, (amount, provinces)) in gains {
        if !turn.state.kingdoms.get(&k).is_some_and(|x| x.alive) {
            continue;
        }
        earn(&mut turn.state, &k, amount);
        turn.emit(
            WHEN,
            What::Revenue {
                kingdom: k,
                amount,
                provinces,
            },
        );
    }
}

pub fn proclamations(turn: &mut Turn) {
    const WHEN: When = When::Final(13);
    let orders = turn.orders;
    for k in turn.ordering_kingdoms() {
        let Some(text) = orders[&k].proclamation.as_deref() else {
            continue;
        };
        let text = text.trim();
        // 2.11: one proclamation a kingdom a turn (the orders hold one), paid when it has
        // any text; the GM's judgement of vulgarity stays outside the engine. It is
        // published either way, with what it earned.
        // L13: the proclamation "must be suitable" and "the GM is reading": a denied one is
        // published and earns nothing.
        let denied = turn.rulings.deny_proclamation.contains(&k);
        let income = if text.is_empty() || denied {
            Gold::ZERO
        } else {
            Fixed::whole(turn.state.settings.proclamation_income)
        };
        if denied {
            turn.emit(WHEN, What::ProclamationDenied { kingdom: k.clone() });
        }
        earn(&mut turn.state, &k, income);
        turn.emit(
            WHEN,
            What::Proclamation {
                kingdom: k.clone(),
                text: text.to_string(),
                income,
            },
        );
    }
}
