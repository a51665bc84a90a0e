//! What a kingdom can afford (digest 5.1, 5.4). Three rules, all in exact hundredths:
//!
//! 1. **No shortfall this turn**: the treasury, less upkeep (L3) and everything ordered,
//!    keeps a reserve: the money panel's surplus never falls below it (5.4; the rulebook's
//!    advice is to keep 2 gold spare).
//! 2. **No shortfall next turn**: what is left, after decay (L9) and this season's revenue
//!    (L11), still pays next turn's upkeep, new troops included, and the reserve.
//! 3. **Troops the income can keep**: new troops are raised only while the revenue covers
//!    the whole upkeep, so the treasury does not drain turn after turn. A purse may be told
//!    to spend its savings ([`Purse::spend_savings`]): it then also raises troops beyond
//!    its income while what is left in the treasury pays the shortfall for that many turns
//!    (decay, L9, takes a share of savings every turn anyway).
//!
//! Annexation costs gold but no upkeep, and raises the revenue from the turn after (T65);
//! that gain is not counted in advance.

use napoleonic_rules::fixed::Gold;
use napoleonic_rules::hq;
use napoleonic_rules::ids::KingdomCode;
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::KingdomOrders;
use napoleonic_rules::state::GameState;

#[derive(Debug, Clone)]
pub(crate) struct Purse {
    treasury: Gold,
    upkeep: Gold,
    revenue: Gold,
    reserve: Gold,
    keep_pct: i64,
    spent: Gold,
    added_upkeep: Gold,
    savings_turns: i64,
}

impl Purse {
    /// The purse of a kingdom with nothing ordered yet. The reserve is 2 gold plus
    /// `reserve_pct` % of the upkeep.
    pub fn new(map: &Map, state: &GameState, me: &KingdomCode, reserve_pct: i64) -> Purse {
        // The money panel's own figures (hq.rs): upkeep of everything the kingdom holds, and
        // the revenue of the provinces it owns and has annexed.
        let panel = hq::money_panel(map, state, me, &KingdomOrders::default());
        Purse {
            treasury: panel.treasury,
            upkeep: panel.upkeep,
            revenue: panel.expected_revenue,
            reserve: Gold::whole(2) + panel.upkeep.percent(reserve_pct),
            keep_pct: 100 - state.settings.decay_percent,
            spent: Gold::ZERO,
            added_upkeep: Gold::ZERO,
            savings_turns: 0,
        }
    }

    /// Rule 1: gold that can still be spent this turn.
    fn cash(&self) -> Gold {
        self.treasury - self.upkeep - self.spent - self.reserve
    }

    /// Rule 2: what next turn's treasury would hold beyond its upkeep and the reserve.
    fn next(&self, cost: Gold, upkeep: Gold) -> Gold {
        let left = self.treasury - self.upkeep - self.spent - cost;
        left.percent(self.keep_pct) + self.revenue
            - (self.upkeep + self.added_upkeep + upkeep)
            - self.reserve
    }

    /// Lets rule 3 be met from savings: upkeep beyond the revenue is allowed while the
    /// treasury left after this turn's spending pays that shortfall for `turns` turns.
    pub fn spend_savings(&mut self, turns: i64) {
        self.savings_turns = turns.max(0);
    }

    /// Whether something costing `cost` now and `upkeep` each turn after fits all three rules.
    pub fn can(&self, cost: Gold, upkeep: Gold) -> bool {
        let room = self.revenue - self.upkeep - self.added_upkeep - upkeep;
        let saved = || {
            self.savings_turns > 0 && self.cash() - cost >= (Gold::ZERO - room) * self.savings_turns
        };
        self.cash() >= cost
            && self.next(cost, upkeep) >= Gold::ZERO
            && (upkeep == Gold::ZERO || room >= Gold::ZERO || saved())
    }

    pub fn pay(&mut self, cost: Gold, upkeep: Gold) {
        self.spent += cost;
        self.added_upkeep += upkeep;
    }

    /// Whether the kingdom, ordering nothing, would fall short this turn or the next.
    pub fn short(&self) -> bool {
        self.cash() < Gold::ZERO || self.next(Gold::ZERO, Gold::ZERO) < Gold::ZERO
    }

    /// Troops disbanded (F11) pay no upkeep (T60).
    pub fn relieve(&mut self, upkeep: Gold) {
        self.upkeep -= upkeep;
    }
}
