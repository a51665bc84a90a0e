//! Build actions on land (5.1-5.9, 5.18, 5.19) and the defence-mode actions (7.7-7.10).

use super::{Act, Clamp, Done, Turn, count, definite};
use crate::map::AreaId;
use crate::order::{Order, Quantity, Verb};
use crate::state::DefenceMode;

impl Turn<'_> {
    /// 5.1 LEVY: half the population (rounded down) becomes armies, at no cost.
    pub(super) fn levy(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_land(e, &o.from, "where")?;
        let k = self.levy_in(a);
        if k == 0 {
            return Err(format!(
                "{} has too little population to levy (half of {} is 0)",
                self.map.code(a),
                self.st.area(a).population
            ));
        }
        Ok(Done::new(format!(
            "levied {k_army} in {}",
            self.map.code(a),
            k_army = count(k, "army")
        )))
    }

    fn levy_in(&mut self, a: AreaId) -> u32 {
        let area = self.st.area_mut(a);
        let k = area.population / 2;
        area.population -= k;
        area.armies += k;
        k
    }

    /// 5.2 MOBILISE: a LEVY in every area the empire owns.
    pub(super) fn mobilise(&mut self, e: usize) -> Act {
        let code = self.code(e);
        let owned: Vec<AreaId> = self.st.owned_by(code).collect();
        let mut total = 0;
        let mut areas = 0;
        for a in owned {
            let k = self.levy_in(a);
            if k > 0 {
                total += k;
                areas += 1;
            }
        }
        if total == 0 {
            return Err("no area you own has population enough to levy".into());
        }
        Ok(Done::new(format!(
            "levied {total_army} in {areas} areas",
            total_army = count(total, "army")
        )))
    }

    /// 5.3 ARMY: 3 BPs an army into the reserve; blank means all you can afford; no ALL BUT.
    pub(super) fn army(&mut self, e: usize, o: &Order) -> Act {
        // 5.5: once ARMY has been tried, RESERVE is over for the turn.
        self.emp[e].reserve_locked = true;
        let (k, cut) = self.buy_count(e, o, 3)?;
        self.pay(e, 3 * k)?;
        self.st.empires[e].army_reserve += k;
        Ok(Done::new(format!(
            "built {k_army} in the reserve",
            k_army = count(k, "army")
        ))
        .cut(cut))
    }

    /// The number to buy at `unit` BPs each where blank means all affordable (5.3, 5.11, 5.19).
    fn buy_count(&self, e: usize, o: &Order, unit: u32) -> Result<(u32, Option<String>), String> {
        let afford = self.bps(e) / unit;
        match o.number {
            Quantity::All => Clamp::new(afford)
                .limit(afford, |_| String::new())
                .get()
                .map_err(|_| format!("{unit} BPs each and you have {}", count(self.bps(e), "BP"))),
            Quantity::AllBut(_) => Err(definite(o).unwrap_err()),
            Quantity::Exactly(n) => Clamp::new(n)
                .limit(afford, |m| {
                    format!("{unit} BPs each and you could pay for {m}")
                })
                .get(),
        }
    }

    /// 5.4 DISARM: reserve armies become 2 treasury BPs each.
    pub(super) fn disarm(&mut self, e: usize, o: &Order) -> Act {
        let n = definite(o)?;
        let (k, cut) = Clamp::new(n)
            .limit(self.st.empires[e].army_reserve, |m| {
                format!("the reserve holds only {m}")
            })
            .get()?;
        let emp = &mut self.st.empires[e];
        emp.army_reserve -= k;
        emp.treasury += 2 * k;
        Ok(Done::new(format!(
            "disarmed {k_reserve_army} for {} treasury BPs",
            2 * k,
            k_reserve_army = count(k, "reserve army")
        ))
        .cut(cut))
    }

    /// 5.5 RESERVE: place reserve armies at 1 BP each, no more than the armies, ships and
    /// population already there; the area becomes sticky (7.5).
    pub(super) fn reserve(&mut self, e: usize, o: &Order) -> Act {
        if self.emp[e].reserve_locked {
            return Err("no RESERVE after an ARMY or DISBAND action in the same turn (5.5)".into());
        }
        let a = self.own_land(e, &o.from, "where")?;
        let n = definite(o)?;
        let area = self.st.area(a);
        // Decision: "ships" are the commissioned ships of the area's base.
        let ships = area.base.as_ref().map_or(0, |b| b.ships);
        let limit = area.armies + ships + area.population;
        let (k, cut) = Clamp::new(n)
            .limit(limit, |m| {
                format!("at most {m} (armies + ships + population) in one action")
            })
            .limit(self.st.empires[e].army_reserve, |m| {
                format!("the reserve holds only {m}")
            })
            .limit(self.bps(e), |m| {
                format!("1 BP each and you had {}", count(m, "BP"))
            })
            .get()?;
        self.pay(e, k)?;
        self.st.empires[e].army_reserve -= k;
        self.st.area_mut(a).armies += k;
        self.area[a.index()].sticky = true;
        Ok(Done::new(format!(
            "placed {k_reserve_army} in {}",
            self.map.code(a),
            k_reserve_army = count(k, "reserve army")
        ))
        .cut(cut))
    }

    /// 5.6 DISBAND: every army in the area goes back to the reserve.
    pub(super) fn disband(&mut self, e: usize, o: &Order) -> Act {
        self.emp[e].reserve_locked = true;
        let a = self.own_land(e, &o.from, "where")?;
        let k = std::mem::take(&mut self.st.area_mut(a).armies);
        if k == 0 {
            return Err(format!("there are no armies in {}", self.map.code(a)));
        }
        self.st.empires[e].army_reserve += k;
        Ok(Done::new(format!(
            "disbanded {k_army} from {}",
            self.map.code(a),
            k_army = count(k, "army")
        )))
    }

    /// 5.7 FORTIFY: 1 BP a level, no more levels in one action than the population.
    pub(super) fn fortify(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_land(e, &o.from, "where")?;
        let n = definite(o)?;
        let (k, cut) = Clamp::new(n)
            .limit(self.st.area(a).population, |m| {
                format!("no more levels than the population ({m}) in one action")
            })
            .limit(self.bps(e), |m| {
                format!("1 BP a level and you had {}", count(m, "BP"))
            })
            .get()?;
        self.pay(e, k)?;
        self.st.area_mut(a).forts += k;
        Ok(Done::new(format!(
            "built {k_fort_level} in {}",
            self.map.code(a),
            k_fort_level = count(k, "fort level")
        ))
        .cut(cut))
    }

    /// 5.8 RAZE: 1 BP a level destroyed.
    pub(super) fn raze(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_land(e, &o.from, "where")?;
        let n = definite(o)?;
        let (k, cut) = Clamp::new(n)
            .limit(self.st.area(a).forts, |m| {
                format!(
                    "there are only {m_fort_level}",
                    m_fort_level = count(m, "fort level")
                )
            })
            .limit(self.bps(e), |m| {
                format!("1 BP a level and you had {}", count(m, "BP"))
            })
            .get()?;
        self.pay(e, k)?;
        self.st.area_mut(a).forts -= k;
        Ok(Done::new(format!(
            "razed {k_fort_level} in {}",
            self.map.code(a),
            k_fort_level = count(k, "fort level")
        ))
        .cut(cut))
    }

    /// 5.9 GROW: population + 1, costing the population plus the terrain's extra; once per
    /// area per turn.
    pub(super) fn grow(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_land(e, &o.from, "where")?;
        if self.area[a.index()].grown {
            return Err(format!(
                "{} has already grown this turn (5.9)",
                self.map.code(a)
            ));
        }
        let terrain = self.map.area(a).terrain;
        let cost = self.st.area(a).population + terrain.grow_extra();
        self.pay(e, cost)?;
        self.st.area_mut(a).population += 1;
        self.area[a.index()].grown = true;
        Ok(Done::new(format!(
            "population of {} grew to {}",
            self.map.code(a),
            self.st.area(a).population
        )))
    }

    /// 5.19 AIR: 7 BPs a strength, World Empires only (1.7).
    pub(super) fn air(&mut self, e: usize, o: &Order) -> Act {
        if !self.air_rules() {
            return Err(format!(
                "there are no air forces in {} Empires (1.7)",
                self.st.variant.title()
            ));
        }
        let (k, cut) = self.buy_count(e, o, 7)?;
        self.pay(e, 7 * k)?;
        self.st.empires[e].air_force += k;
        Ok(Done::new(format!("air force grew by {k}")).cut(cut))
    }

    /// 5.18 DISOWN: the area and everything in it become neutral.
    pub(super) fn disown(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_land(e, &o.from, "where")?;
        let code = self.map.code(a);
        self.st.area_mut(a).owner = None;
        if self.st.area(a).base.is_some() {
            self.cut_off_fleets(code);
        }
        let emp = &mut self.st.empires[e];
        if emp.capital == Some(code) {
            emp.capital = None;
        }
        // 9.5: a spy can wait only in its own empire's areas.
        if let Some(s) = emp.spy.as_mut().filter(|s| s.area == code) {
            s.waiting_for = None;
        }
        Ok(Done::new(format!("disowned {code}")))
    }

    /// 7.7-7.10: DEFEND, ENTRENCH, AMBUSH and RETREAT set an area's defence mode.
    pub(super) fn defence_mode(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_land(e, &o.from, "where")?;
        let code = self.map.code(a);
        let target = match (&o.to, o.verb) {
            (None, Verb::Entrench | Verb::Ambush) => {
                return Err(format!("{} needs the area it is set against", o.verb));
            }
            (None, _) => None,
            (Some(_), Verb::Defend) => None,
            (Some(_), _) => {
                let t = self.area_field(&o.to, "where to")?;
                if !self.map.adjacent(a, t) {
                    return Err(format!("{} is not next to {code}", self.map.code(t)));
                }
                if o.verb == Verb::Retreat && self.map.area(t).is_sea() {
                    return Err("armies can only retreat to a land area (7.10)".into());
                }
                Some(self.map.code(t))
            }
        };
        let area = self.st.area_mut(a);
        let text = match o.verb {
            Verb::Defend => {
                area.defence = DefenceMode::Defend;
                area.defence_against = None;
                format!("{code} will stand and defend")
            }
            Verb::Entrench | Verb::Ambush => {
                area.defence = if o.verb == Verb::Entrench {
                    DefenceMode::Entrench
                } else {
                    DefenceMode::Ambush
                };
                area.defence_against = target;
                format!(
                    "{code} will {} against {}",
                    o.verb.name().to_ascii_lowercase(),
                    target.map_or("?".into(), |t| t.to_string())
                )
            }
            _ => {
                area.defence = DefenceMode::Retreat;
                area.defence_against = None;
                if target.is_some() {
                    area.retreat_to = target;
                }
                match area.retreat_to {
                    Some(r) => format!("{code} will retreat to {r}"),
                    None => format!("{code} is set to retreat but has no retreat location"),
                }
            }
        };
        Ok(Done::new(text))
    }
}
