//! Economy: STASH, CASH, TAX, GIFT, ORDER (3.4-3.9, 6.2) and supply costs (3.3).

use super::{Act, Clamp, Done, Turn, count, definite};
use crate::codes::EmpireCode;
use crate::map::Map;
use crate::order::{Order, Quantity};
use crate::state::GameState;
use crate::variant::SeaSupply;

impl Turn<'_> {
    /// 3.5 STASH: 3 BPs buy one treasury point.
    pub(super) fn stash(&mut self, e: usize, o: &Order) -> Act {
        let n = definite(o)?;
        let (k, cut) = Clamp::new(n)
            .limit(self.bps(e) / 3, |m| {
                format!("3 BPs a point and you could pay for {m}")
            })
            .get()?;
        self.pay(e, 3 * k)?;
        self.st.empires[e].treasury += k;
        Ok(Done::new(format!(
            "stashed {k_treasury_point}",
            k_treasury_point = count(k, "treasury point")
        ))
        .cut(cut))
    }

    /// 3.6 CASH: treasury points become BPs at no cost; unused ones return at the end.
    pub(super) fn cash(&mut self, e: usize, o: &Order) -> Act {
        let n = definite(o)?;
        let (k, cut) = Clamp::new(n)
            .limit(self.st.empires[e].treasury, |m| {
                format!("the treasury holds only {m}")
            })
            .get()?;
        let emp = &mut self.st.empires[e];
        emp.treasury -= k;
        emp.bps += k;
        self.emp[e].cashed += k;
        Ok(Done::new(format!(
            "cashed {k_treasury_point}",
            k_treasury_point = count(k, "treasury point")
        ))
        .cut(cut))
    }

    /// 3.8 TAX: two more BPs.
    pub(super) fn tax(&mut self, e: usize) -> Act {
        self.st.empires[e].bps += 2;
        Ok(Done::new("taxed 2 BPs"))
    }

    /// 3.9 GIFT: BPs to another empire's current balance; only a definite number.
    pub(super) fn gift(&mut self, e: usize, o: &Order) -> Act {
        let n = definite(o)?;
        let to = self.empire_field(&o.to, "to whom")?;
        if to == e {
            return Err("you cannot give BPs to yourself".into());
        }
        let (k, cut) = Clamp::new(n)
            .limit(self.bps(e), |m| format!("you had only {}", count(m, "BP")))
            .get()?;
        self.pay(e, k)?;
        self.st.empires[to].bps += k;
        let who = self.code(to);
        let me = self.code(e);
        Ok(Done::new(format!("gave {} to {who}", count(k, "BP")))
            .cut(cut)
            .affecting(Some(who))
            .telling(format!("{me} gave you {} (3.9)", count(k, "BP"))))
    }

    /// 6.2 ORDER: BPs bid for a place at the front of next turn's order of play. With no
    /// number it takes every BP left; the driver ignores it unless it is the last action.
    pub(super) fn order(&mut self, e: usize, o: &Order) -> Act {
        let wanted = match o.number {
            Quantity::Exactly(n) => n,
            Quantity::All => self.bps(e),
            Quantity::AllBut(_) => return Err(definite(o).unwrap_err()),
        };
        let (k, cut) = Clamp::new(wanted)
            .limit(self.bps(e), |m| format!("you had only {}", count(m, "BP")))
            .get()
            .map_err(|_| "no BPs left to bid".to_string())?;
        self.pay(e, k)?;
        self.emp[e].bid += k;
        Ok(Done::new(format!("bid {} for the order of play", count(k, "BP"))).cut(cut))
    }
}

/// The income and supply cost of one empire (3.2, 3.3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Balance {
    pub income: u32,
    pub supply: u32,
}

/// 3.2, 3.3: every empire's income (the population it owns) and supply cost, in one pass
/// over the map; indexed like `st.empires`.
pub fn balances(map: &Map, st: &GameState) -> Vec<Balance> {
    let mut out = vec![Balance::default(); st.empires.len()];
    for (id, a) in map.ids().zip(&st.areas) {
        let owner = match (&a.fleet, a.owner) {
            (Some(f), _) => f.owner,
            (None, Some(o)) => o,
            (None, None) => continue,
        };
        let Some(i) = st.empire_index(owner) else {
            continue;
        };
        out[i].income += a.population;
        out[i].supply += area_supply(map, st, id);
    }
    for (b, emp) in out.iter_mut().zip(&st.empires) {
        // 3.3 RESERVES (decision 7): each reserve counted separately, fractions ignored.
        b.supply += emp.army_reserve / 4 + emp.navy_reserve / 4 + emp.air_force / 4;
    }
    out
}

/// 3.2, 3.3: sets every surviving empire's income, supply cost and balance for the coming
/// turn, the balance being income less supply (never below zero).
pub fn settle_balances(map: &Map, st: &mut GameState) {
    let all = balances(map, st);
    for (e, b) in st.empires.iter_mut().zip(all) {
        if e.alive() {
            e.income = b.income;
            e.supply_cost = b.supply;
            e.bps = b.income.saturating_sub(b.supply);
        }
    }
}

/// 3.3: an empire's supply cost for the coming turn: each land area's forces beyond its
/// population, each fleet at sea, and the reserves.
pub fn supply_cost(map: &Map, st: &GameState, empire: EmpireCode) -> u32 {
    let i = st.empire_index(empire);
    i.map_or(0, |i| balances(map, st)[i].supply)
}

/// The supply cost of one area for whoever holds it (3.3).
pub fn area_supply(map: &Map, st: &GameState, id: crate::map::AreaId) -> u32 {
    let a = st.area(id);
    if map.area(id).is_land() {
        let cost = land_supply(st, id);
        // S.9 (decision 29): more than one train cuts a cost over 1 BP by their number.
        if trains_cut_supply(map, st, id) {
            cost.saturating_sub(a.trains)
        } else {
            cost
        }
    } else if let Some(f) = &a.fleet {
        // 3.3 AT-SEA / 13.3 (decision 6): the distance to base, plus half the forces under
        // the default option. A fleet with no route pays no distance.
        let distance = fleet_distance(map, st, id, f).unwrap_or(0);
        match st.options.sea_supply {
            SeaSupply::DistancePlusHalf => distance + (f.armies + f.ships) / 2,
            SeaSupply::DistanceOnly => distance,
        }
    } else {
        0
    }
}

/// 3.3 ON-LAND (decision 5): half the armies, commissioned ships and forts beyond the
/// population; laid-up ships do not count.
fn land_supply(st: &GameState, id: crate::map::AreaId) -> u32 {
    let a = st.area(id);
    let ships = a.base.as_ref().map_or(0, |b| b.ships);
    (a.armies + ships + a.forts).saturating_sub(a.population) / 2
}

/// S.9: whether supply trains reduce this land area's supply cost (and so one is used).
pub(crate) fn trains_cut_supply(map: &Map, st: &GameState, id: crate::map::AreaId) -> bool {
    st.variant.has_supply()
        && map.area(id).is_land()
        && st.area(id).owner.is_some()
        && land_supply(st, id) > 1
        && st.area(id).trains > 1
}

/// 4.5 / decision 6: the fleet's distance from its base, counted from the base's entrance;
/// `None` when the fleet has no route to its base (captured, closed, or cut off by land).
pub fn fleet_distance(
    map: &Map,
    st: &GameState,
    at: crate::map::AreaId,
    fleet: &crate::state::Fleet,
) -> Option<u32> {
    let base_id = map.id(fleet.base?)?;
    let base_area = st.area(base_id);
    if base_area.owner != Some(fleet.owner) {
        return None;
    }
    let base = base_area.base.as_ref()?;
    let entrance = map.id(base.entrance)?;
    map.sea_steps(entrance, at)
}
