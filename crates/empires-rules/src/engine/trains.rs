//! European Empires supply trains (seed 003): the CAPITAL, GATHER, WAGONS, SEND and UNLOAD
//! actions (S.3, S.11, S.13), and the trains armies use when they move and attack on land
//! (S.5-S.7), at the end of the turn (S.8, S.9, S.12).

use super::{Act, Clamp, Done, Turn, count};
use crate::map::AreaId;
use crate::order::{Order, Quantity};
use crate::state::NavalBase;
use crate::supply;

/// S.3: the cost of naming a capital, in treasury BPs (decision 8).
const CAPITAL_COST: u32 = 10;

impl Turn<'_> {
    /// Whether the supply rules are in play (European Empires).
    pub(super) fn supply_rules(&self) -> bool {
        self.st.variant.has_supply()
    }

    fn capacity(&self, e: usize) -> u32 {
        self.st.empires[e].supply_capacity
    }

    /// S.5, S.6 (decision 23): a land move or attack of `armies` costs 1 BP an army, less
    /// one per train in the area left, but at least 1.
    pub(super) fn train_cost(&self, from: AreaId, armies: u32) -> u32 {
        armies.saturating_sub(self.st.area(from).trains).max(1)
    }

    /// S.7 (decision 26): the trains left in `from` go with the armies to `to`, except that
    /// one stays behind if any armies stayed behind.
    pub(super) fn trains_follow(&mut self, from: AreaId, to: AreaId) {
        let left = self.st.area(from).trains;
        let stay = u32::from(self.st.area(from).armies > 0).min(left);
        let go = left - stay;
        self.st.area_mut(from).trains = stay;
        self.st.area_mut(to).trains += go;
    }

    /// The number box of a supply action (S.11, S.13): ALL and ALL BUT count from the most
    /// the action could move or build.
    fn supply_amount(
        &self,
        o: &Order,
        most: u32,
        what: &str,
    ) -> Result<(u32, Option<String>), String> {
        match o.number {
            Quantity::Exactly(n) => Clamp::new(n)
                .limit(most, |m| format!("at most {m} {what}"))
                .get(),
            q => {
                let k = q.of(most);
                if k == 0 {
                    Err(format!("no {what} to use"))
                } else {
                    Ok((k, None))
                }
            }
        }
    }

    /// S.3 CAPITAL: names the capital, for 10 treasury BPs; a coastal capital is also a
    /// naval base.
    pub(super) fn capital(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_land(e, &o.from, "where")?;
        let code = self.map.code(a);
        if self.st.empires[e].capital == Some(code) {
            return Err(format!("{code} is already your capital"));
        }
        let treasury = self.st.empires[e].treasury;
        if treasury < CAPITAL_COST {
            return Err(format!(
                "a capital costs {CAPITAL_COST} treasury BPs and the treasury holds {treasury} (S.3)"
            ));
        }
        self.st.empires[e].treasury -= CAPITAL_COST;
        self.st.empires[e].capital = Some(code);
        let mut text = format!("{code} is now your capital");
        // Decision: a coastal capital without a base gets one, entered from the first of its
        // sea areas in map order, usable from next turn like any new base (5.16).
        if self.map.area(a).coastal && self.st.area(a).base.is_none() {
            let entrance = self
                .map
                .neighbours(a)
                .iter()
                .copied()
                .find(|n| self.map.area(*n).is_sea())
                .expect("a coastal area touches a sea area");
            self.st.area_mut(a).base = Some(NavalBase {
                entrance: self.map.code(entrance),
                ships: 0,
                laid_up: 0,
                built: self.turn,
            });
            text.push_str(&format!(
                ", and a naval base entered from {}",
                self.map.code(entrance)
            ));
        }
        Ok(Done::new(text))
    }

    /// S.11 GATHER: trains built in a supply centre at 1 BP each, no more than the supply
    /// capacity and the population there; not in a blockaded base.
    pub(super) fn gather(&mut self, e: usize, o: &Order) -> Act {
        let me = self.code(e);
        let a = self.own_land(e, &o.from, "where")?;
        let code = self.map.code(a);
        if !supply::is_centre(self.map, &self.st, me, a) {
            return Err(format!(
                "{code} is neither your capital nor a naval base (S.2)"
            ));
        }
        // Decision 36: a coastal capital's base is blockaded like any other (S.3, S.11); a
        // capital without a base (never coastal, or closed) cannot be.
        if supply::blockaded(self.map, &self.st, a) {
            return Err(format!("the base in {code} is blockaded (S.11)"));
        }
        let most = self.capacity(e).min(self.st.area(a).population);
        let (k, cut) = self.supply_amount(o, most, "supply capacity and population")?;
        let (k, bp_cut) = Clamp::new(k)
            .limit(self.bps(e), |m| {
                format!("1 BP a train and you had {}", count(m, "BP"))
            })
            .get()?;
        let cut = bp_cut.or(cut);
        self.pay(e, k)?;
        self.st.area_mut(a).trains += k;
        Ok(Done::new(format!("gathered {} in {code}", count(k, "supply train"))).cut(cut))
    }

    /// S.13.1 WAGONS: trains move to a neighbouring land area, owned or not; the retreat
    /// location of an owned destination now points back here.
    pub(super) fn wagons(&mut self, e: usize, o: &Order) -> Act {
        let me = self.code(e);
        let from = self.own_land(e, &o.from, "where from")?;
        let to = self.area_field(&o.to, "where to")?;
        let (fc, tc) = (self.map.code(from), self.map.code(to));
        if self.map.area(to).is_sea() || !self.map.adjacent(from, to) {
            return Err(format!("{tc} is not a land area next to {fc} (S.13.1)"));
        }
        let most = self.capacity(e).min(self.st.area(from).trains);
        let (k, cut) = self.supply_amount(o, most, "supply capacity and trains there")?;
        self.st.area_mut(from).trains -= k;
        self.st.area_mut(to).trains += k;
        let owner = self.st.area(to).owner;
        let mut text = format!("{} went from {fc} to {tc}", count(k, "supply train"));
        let told = format!(
            "{me} sent {} from {fc} into your {tc}; they are yours now (S.13.1)",
            count(k, "supply train")
        );
        if owner == Some(me) {
            self.st.area_mut(to).retreat_to = Some(fc);
            text.push_str(&format!(
                "; {tc} now retreats and draws supply towards {fc}"
            ));
        }
        let owner = owner.filter(|o| *o != me);
        let mut done = Done::new(text).cut(cut).affecting(owner).seeing(&[to]);
        if owner.is_some() {
            done = done.telling(told);
        }
        Ok(done)
    }

    /// S.13.2 SEND: trains go from a supply centre to any land area on a supply line from it.
    pub(super) fn send(&mut self, e: usize, o: &Order) -> Act {
        let me = self.code(e);
        let from = self.own_land(e, &o.from, "where from")?;
        let to = self.own_land(e, &o.to, "where to")?;
        let (fc, tc) = (self.map.code(from), self.map.code(to));
        if !supply::is_centre(self.map, &self.st, me, from) {
            return Err(format!(
                "{fc} is neither your capital nor a naval base (S.2)"
            ));
        }
        if !supply::centres_supplying(self.map, &self.st, to).contains(&from) {
            return Err(format!(
                "{tc} has no supply line back to {fc} (S.4, S.13.2)"
            ));
        }
        let most = self.capacity(e).min(self.st.area(from).trains);
        let (k, cut) = self.supply_amount(o, most, "supply capacity and trains there")?;
        self.st.area_mut(from).trains -= k;
        self.st.area_mut(to).trains += k;
        Ok(Done::new(format!(
            "sent {} from {fc} to {tc}",
            count(k, "supply train")
        ))
        .cut(cut)
        .seeing(&[to]))
    }

    /// S.13.3 UNLOAD: trains from the home base of the ships in a sea area, put ashore next
    /// to them; no more than the ships and the supply capacity; not from a blockaded base.
    pub(super) fn unload(&mut self, e: usize, o: &Order) -> Act {
        let me = self.code(e);
        let sea = self.area_field(&o.from, "where from")?;
        let to = self.area_field(&o.to, "where to")?;
        let (sc, tc) = (self.map.code(sea), self.map.code(to));
        let fleet = match &self.st.area(sea).fleet {
            Some(f) if f.owner == me => f.clone(),
            _ => return Err(format!("you have no ships in {sc}")),
        };
        if self.map.area(to).is_sea() || !self.map.adjacent(sea, to) {
            return Err(format!("{tc} is not a land area next to {sc}"));
        }
        let base = fleet
            .base
            .and_then(|b| self.map.id(b))
            .filter(|&b| self.st.area(b).owner == Some(me) && self.st.area(b).base.is_some())
            .ok_or_else(|| {
                format!("the ships in {sc} have no naval base to fetch supplies from")
            })?;
        if supply::blockaded(self.map, &self.st, base) {
            return Err(format!(
                "their base in {} is blockaded (S.13.3)",
                self.map.code(base)
            ));
        }
        let most = self
            .capacity(e)
            .min(fleet.ships)
            .min(self.st.area(base).trains);
        let (k, cut) =
            self.supply_amount(o, most, "supply capacity, ships and trains in the base")?;
        self.st.area_mut(base).trains -= k;
        self.st.area_mut(to).trains += k;
        let owner = self.st.area(to).owner.filter(|o| *o != me);
        let mut done = Done::new(format!(
            "unloaded {} from the base in {} onto {tc}",
            count(k, "supply train"),
            self.map.code(base)
        ))
        .cut(cut)
        .affecting(owner)
        .seeing(&[to]);
        if owner.is_some() {
            done = done.telling(format!(
                "{me}'s ships unloaded {} onto your {tc}; they are yours now (S.13.3)",
                count(k, "supply train")
            ));
        }
        Ok(done)
    }

    /// S.12 (decision 28): leftover BPs first build trains in the capital, up to the supply
    /// capacity; none while the capital's base is blockaded (decision 36), so the BPs go to
    /// armies. Returns the number built.
    pub(super) fn leftover_trains(&mut self, e: usize) -> u32 {
        let me = self.code(e);
        let Some(cap) = self.st.empires[e].capital.and_then(|c| self.map.id(c)) else {
            return 0;
        };
        if self.st.area(cap).owner != Some(me) || supply::blockaded(self.map, &self.st, cap) {
            return 0;
        }
        let room = self.capacity(e).saturating_sub(self.st.area(cap).trains);
        let k = room.min(self.st.empires[e].bps);
        self.st.empires[e].bps -= k;
        self.st.area_mut(cap).trains += k;
        k
    }
}
