//! The Headquarters view's money panel (digest 1.3, 5.4, 7.12): what a kingdom's orders
//! will cost at the Final Events, worked out from the map, the state between turns and the
//! orders before they are sent. Every figure is exact (G42); the panel shows them truncated
//! to whole gold, as the original client did (G41, T1: 4.4 shows as 4).
//!
//! The panel uses the same checks as the Final Events (`turn::economy`,
//! `turn::construction`), judged on the state as it stands: an order that would certainly
//! fail costs nothing here, and what movement may change (a province lost, a city
//! retaken) is not foreseen.

use crate::fixed::Gold;
use crate::ids::{KingdomCode, LocId};
use crate::map::Map;
use crate::orders::{HqOrder, KingdomOrders, Structure};
use crate::state::GameState;
use crate::turn::{construction, economy};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// The money panel of one kingdom's Headquarters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoneyPanel {
    pub kingdom: KingdomCode,
    /// Gold in the coffers now.
    pub treasury: Gold,
    /// L3: the upkeep of every leader and troop, less the troops the orders disband or
    /// salvage at F11, which cost nothing (T60). The independents pay none.
    pub upkeep: Gold,
    /// HQ expenses: `annexations + gold_sent + send_fees`.
    pub hq_expenses: Gold,
    /// L6: each province ordered annexed, at its map revenue, within the status limit.
    pub annexations: Gold,
    /// L2: the gold sent, and the fee on it (G23, T17).
    pub gold_sent: Gold,
    pub send_fees: Gold,
    /// Garrison expenses: `recruits + leaders + construction`.
    pub garrison_expenses: Gold,
    /// L4: troops recruited and ships built, within each city's limit.
    pub recruits: Gold,
    /// L5: leaders hired.
    pub leaders: Gold,
    /// L8: fortification levels, repairs and harbours, ordered by garrisons and by armies
    /// (5.4 proposal).
    pub construction: Gold,
    /// `treasury − upkeep − hq_expenses − garrison_expenses` (5.4): the gold carried over;
    /// below zero, some orders will fail during the turn.
    pub surplus: Gold,
    /// L11: the revenue expected this season, owned and annexed provinces at their present
    /// damage; it can only be spent next season. Annexations ordered now add nothing (T65).
    pub expected_revenue: Gold,
}

/// The panel as shown: whole gold, truncated toward zero (G41).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownPanel {
    pub treasury: i64,
    pub upkeep: i64,
    pub hq_expenses: i64,
    pub garrison_expenses: i64,
    pub surplus: i64,
    pub expected_revenue: i64,
}

impl MoneyPanel {
    /// A negative surplus: "some of your orders will fail during turn events".
    pub fn shortfall(&self) -> bool {
        self.surplus.is_negative()
    }

    pub fn shown(&self) -> ShownPanel {
        ShownPanel {
            treasury: self.treasury.truncated(),
            upkeep: self.upkeep.truncated(),
            hq_expenses: self.hq_expenses.truncated(),
            garrison_expenses: self.garrison_expenses.truncated(),
            surplus: self.surplus.truncated(),
            expected_revenue: self.expected_revenue.truncated(),
        }
    }
}

/// Works out a kingdom's money panel for the orders it is about to send.
pub fn money_panel(
    map: &Map,
    state: &GameState,
    kingdom: &KingdomCode,
    orders: &KingdomOrders,
) -> MoneyPanel {
    let treasury = economy::treasury(state, kingdom);
    let upkeep = upkeep(state, kingdom, orders);
    let (annexations, gold_sent, send_fees) = hq_costs(map, state, kingdom, orders);
    let (recruits, leaders, construction) = garrison_costs(map, state, kingdom, orders);
    let hq_expenses = annexations + gold_sent + send_fees;
    let garrison_expenses = recruits + leaders + construction;
    let expected_revenue = state
        .provinces
        .keys()
        .filter_map(|id| economy::province_revenue(map, state, *id))
        .filter(|(k, _)| k == kingdom)
        .map(|(_, g)| g)
        .sum();
    MoneyPanel {
        kingdom: kingdom.clone(),
        treasury,
        upkeep,
        hq_expenses,
        annexations,
        gold_sent,
        send_fees,
        garrison_expenses,
        recruits,
        leaders,
        construction,
        surplus: treasury - upkeep - hq_expenses - garrison_expenses,
        expected_revenue,
    }
}

fn upkeep(state: &GameState, k: &KingdomCode, orders: &KingdomOrders) -> Gold {
    if state.kingdoms.get(k).is_none_or(|x| x.independent) {
        return Gold::ZERO;
    }
    let mut total: Gold = state
        .units
        .iter()
        .filter(|u| &u.owner == k)
        .map(|u| u.upkeep(&state.tables))
        .sum();
    // T60: troops removed at F11 pay no upkeep; never more than the unit holds.
    let mut removed: BTreeMap<(crate::ids::UnitId, crate::ids::TroopCode), u32> = BTreeMap::new();
    for uo in &orders.units {
        let Some(u) = state.unit(k, uo.unit) else {
            continue;
        };
        for t in uo.disband.iter().chain(&uo.salvage) {
            let held = u.count(&t.code) as u32;
            let gone = removed.entry((uo.unit, t.code.clone())).or_default();
            let n = t.count.min(held.saturating_sub(*gone));
            *gone += n;
            if let Some(tt) = state.tables.troop(&t.code) {
                total -= tt.upkeep * i64::from(n);
            }
        }
    }
    total
}

fn hq_costs(
    map: &Map,
    state: &GameState,
    k: &KingdomCode,
    orders: &KingdomOrders,
) -> (Gold, Gold, Gold) {
    let (mut annex, mut sent, mut fees) = (Gold::ZERO, Gold::ZERO, Gold::ZERO);
    let Some(kingdom) = state.kingdoms.get(k) else {
        return (annex, sent, fees);
    };
    let mut room = economy::annex_limit(state, k).saturating_sub(economy::annex_count(state, k));
    let mut seen: BTreeSet<LocId> = BTreeSet::new();
    for o in &orders.hq {
        match o {
            HqOrder::Annex { province } => {
                // Between turns the owner now is the owner when the next season begins.
                let Some(p) = state.provinces.get(province) else {
                    continue;
                };
                if &p.owner != k || &p.annexed_to == k || !seen.insert(*province) {
                    continue;
                }
                if !kingdom.starting.contains(province) {
                    if room == 0 {
                        continue; // L6, T67: past the limit it fails
                    }
                    room -= 1;
                }
                annex += map.get(*province).map_or(Gold::ZERO, |l| l.revenue);
            }
            HqOrder::SendGold { to, amount } if *amount > Gold::ZERO && to != k => {
                sent += *amount;
                fees += economy::send_fee(state, *amount);
            }
            _ => {}
        }
    }
    (annex, sent, fees)
}

fn garrison_costs(
    map: &Map,
    state: &GameState,
    k: &KingdomCode,
    orders: &KingdomOrders,
) -> (Gold, Gold, Gold) {
    let (mut recruits, mut leaders, mut works) = (Gold::ZERO, Gold::ZERO, Gold::ZERO);
    let mut raised: BTreeSet<LocId> = BTreeSet::new();
    let mut repaired: BTreeSet<LocId> = BTreeSet::new();
    let mut harbours: BTreeSet<LocId> = BTreeSet::new();
    for uo in economy::sorted_unit_orders(orders) {
        let at = state.unit(k, uo.unit).map(|u| u.location);
        if !uo.recruit.is_empty()
            && let Ok(plan) = economy::plan_recruits(map, state, k, uo.unit, &uo.recruit)
        {
            recruits += plan.cost();
        }
        if uo.hire_leader
            && let Ok(cost) = economy::hire_check(map, state, k, uo.unit)
        {
            leaders += cost;
        }
        // L8: one level built and one repaired by order a province a turn, one harbour.
        if uo.repair
            && let (Ok((cost, _)), Some(at)) =
                (construction::repair_check(map, state, k, uo.unit), at)
            && repaired.insert(at)
        {
            works += cost;
        }
        if let Some(s) = uo.build
            && let (Ok((cost, _)), Some(at)) =
                (construction::build_check(map, state, k, uo.unit, s), at)
        {
            let once = match s {
                Structure::Fortification => &mut raised,
                Structure::Harbour => &mut harbours,
            };
            if once.insert(at) {
                works += cost;
            }
        }
    }
    (recruits, leaders, works)
}
