//! Naval actions: BUILD, NAVY, LAYUP, RECOVER, FLEET, SCRAP, BASE, CLOSE (5.10-5.17),
//! SEAMOVE and CONVOY with sea battles (7.2, 7.12, 8.1).

use super::economy::fleet_distance;
use super::{Act, Clamp, Done, Turn, count, definite, sea_losses};
use crate::codes::{AreaCode, EmpireCode};
use crate::event::{SeaFight, What};
use crate::map::AreaId;
use crate::order::{Order, Quantity};
use crate::state::{Fleet, NavalBase};

/// Where ships set out from in a sea move.
#[derive(Clone, Copy)]
enum Berth {
    /// A naval base in this land area.
    Base(AreaId),
    /// A fleet in this sea area.
    Sea(AreaId),
}

impl Turn<'_> {
    /// An owned land area with a naval base; `usable` also requires that it was not built
    /// this turn (5.16).
    fn own_base(&self, e: usize, o: &Order, usable: bool) -> Result<AreaId, String> {
        let a = self.own_land(e, &o.from, "where")?;
        let base = self
            .st
            .area(a)
            .base
            .as_ref()
            .ok_or_else(|| format!("there is no naval base in {}", self.map.code(a)))?;
        if usable && base.built >= self.turn {
            return Err(format!(
                "the base in {} was built this turn and can be used from next turn (5.16)",
                self.map.code(a)
            ));
        }
        Ok(a)
    }

    fn base_mut(&mut self, a: AreaId) -> &mut NavalBase {
        self.st
            .area_mut(a)
            .base
            .as_mut()
            .expect("checked by own_base")
    }

    /// 5.10 BUILD: laid-up ships at 3 BPs, once per base per turn, up to the population.
    pub(super) fn build(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_base(e, o, true)?;
        if self.area[a.index()].built {
            return Err(format!(
                "the base in {} has already built this turn (5.10)",
                self.map.code(a)
            ));
        }
        let n = definite(o)?;
        let (k, cut) = Clamp::new(n)
            .limit(self.st.area(a).population, |m| {
                format!("no more ships than the population ({m}) in one action")
            })
            .limit(self.bps(e) / 3, |m| {
                format!("3 BPs a ship and you could pay for {m}")
            })
            .get()?;
        self.pay(e, 3 * k)?;
        self.base_mut(a).laid_up += k;
        let s = &mut self.area[a.index()];
        s.built = true;
        s.fleet_locked = true;
        Ok(Done::new(format!(
            "built {k_ship}, laid up in {}",
            self.map.code(a),
            k_ship = count(k, "ship")
        ))
        .cut(cut))
    }

    /// 5.11 NAVY: ships into the naval reserve at 3 BPs; then no RECOVER this turn.
    pub(super) fn navy(&mut self, e: usize, o: &Order) -> Act {
        self.emp[e].navy_locked = true;
        let afford = self.bps(e) / 3;
        let (k, cut) = match o.number {
            Quantity::All if afford > 0 => (afford, None),
            Quantity::All => {
                return Err(format!(
                    "3 BPs a ship and you have {}",
                    count(self.bps(e), "BP")
                ));
            }
            Quantity::AllBut(_) => return Err(definite(o).unwrap_err()),
            Quantity::Exactly(n) => Clamp::new(n)
                .limit(afford, |m| {
                    format!("3 BPs a ship and you could pay for {m}")
                })
                .get()?,
        };
        self.pay(e, 3 * k)?;
        self.st.empires[e].navy_reserve += k;
        Ok(Done::new(format!(
            "built {k_ship} in the naval reserve",
            k_ship = count(k, "ship")
        ))
        .cut(cut))
    }

    /// 5.12 LAYUP: ships out of commission at 1 BP each.
    pub(super) fn layup(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_base(e, o, false)?;
        let n = definite(o)?;
        let ships = self.st.area(a).base.as_ref().map_or(0, |b| b.ships);
        let (k, cut) = Clamp::new(n)
            .limit(ships, |m| {
                format!(
                    "only {m_ship} are in commission there",
                    m_ship = count(m, "ship")
                )
            })
            .limit(self.bps(e), |m| {
                format!("1 BP a ship and you had {}", count(m, "BP"))
            })
            .get()?;
        self.pay(e, k)?;
        let b = self.base_mut(a);
        b.ships -= k;
        b.laid_up += k;
        Ok(Done::new(format!(
            "laid up {k_ship} in {}",
            self.map.code(a),
            k_ship = count(k, "ship")
        ))
        .cut(cut))
    }

    /// 5.13 RECOVER: reserve ships into a base, laid up, 1 BP each, up to the population;
    /// not after NAVY or CLOSE.
    pub(super) fn recover(&mut self, e: usize, o: &Order) -> Act {
        if self.emp[e].navy_locked {
            return Err("no RECOVER after a NAVY or CLOSE action in the same turn (5.13)".into());
        }
        let a = self.own_base(e, o, true)?;
        let n = definite(o)?;
        let (k, cut) = Clamp::new(n)
            .limit(self.st.area(a).population, |m| {
                format!("no more ships than the population ({m}) in one action")
            })
            .limit(self.st.empires[e].navy_reserve, |m| {
                format!("the naval reserve holds only {m}")
            })
            .limit(self.bps(e), |m| {
                format!("1 BP a ship and you had {}", count(m, "BP"))
            })
            .get()?;
        self.pay(e, k)?;
        self.st.empires[e].navy_reserve -= k;
        self.base_mut(a).laid_up += k;
        self.area[a.index()].fleet_locked = true;
        Ok(Done::new(format!(
            "recovered {k_ship} into {}",
            self.map.code(a),
            k_ship = count(k, "ship")
        ))
        .cut(cut))
    }

    /// 5.14 FLEET: laid-up ships into commission at 3 BPs, up to the population; not in a
    /// base that has built or recovered ships this turn.
    pub(super) fn fleet(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_base(e, o, true)?;
        if self.area[a.index()].fleet_locked {
            return Err(format!(
                "ships were built or recovered in {} this turn; commission them next turn (5.14)",
                self.map.code(a)
            ));
        }
        let n = definite(o)?;
        let laid_up = self.st.area(a).base.as_ref().map_or(0, |b| b.laid_up);
        let (k, cut) = Clamp::new(n)
            .limit(laid_up, |m| {
                format!("only {m_ship} are laid up there", m_ship = count(m, "ship"))
            })
            .limit(self.st.area(a).population, |m| {
                format!("no more ships than the population ({m}) in one action")
            })
            .limit(self.bps(e) / 3, |m| {
                format!("3 BPs a ship and you could pay for {m}")
            })
            .get()?;
        self.pay(e, 3 * k)?;
        let b = self.base_mut(a);
        b.laid_up -= k;
        b.ships += k;
        Ok(Done::new(format!(
            "commissioned {k_ship} in {}",
            self.map.code(a),
            k_ship = count(k, "ship")
        ))
        .cut(cut))
    }

    /// 5.15 SCRAP: laid-up ships scrapped for 2 treasury BPs each.
    pub(super) fn scrap(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_base(e, o, false)?;
        let n = definite(o)?;
        let laid_up = self.st.area(a).base.as_ref().map_or(0, |b| b.laid_up);
        let (k, cut) = Clamp::new(n)
            .limit(laid_up, |m| {
                format!("only {m_ship} are laid up there", m_ship = count(m, "ship"))
            })
            .get()?;
        self.base_mut(a).laid_up -= k;
        self.st.empires[e].treasury += 2 * k;
        Ok(Done::new(format!(
            "scrapped {k_ship} for {} treasury BPs",
            2 * k,
            k_ship = count(k, "ship")
        ))
        .cut(cut))
    }

    /// 5.16 BASE: a naval base in an owned coastal area, entered from one adjacent sea area,
    /// for 10 BPs; usable from next turn.
    pub(super) fn base(&mut self, e: usize, o: &Order) -> Act {
        let a = self.own_land(e, &o.from, "where")?;
        let code = self.map.code(a);
        if self.st.area(a).base.is_some() {
            return Err(format!("{code} already has a naval base"));
        }
        if !self.map.area(a).coastal {
            return Err(format!("{code} is not coastal"));
        }
        let s = self.area_field(&o.to, "entrance")?;
        if !self.map.area(s).is_sea() || !self.map.adjacent(a, s) {
            return Err(format!(
                "{} is not a sea area next to {code}",
                self.map.code(s)
            ));
        }
        self.pay(e, 10)?;
        self.st.area_mut(a).base = Some(NavalBase {
            entrance: self.map.code(s),
            ships: 0,
            laid_up: 0,
            built: self.turn,
        });
        Ok(Done::new(format!(
            "built a naval base in {code} entered from {}",
            self.map.code(s)
        )))
    }

    /// 5.17 CLOSE: the base closes and all its ships go to the naval reserve; no RECOVER
    /// for the rest of the turn.
    pub(super) fn close(&mut self, e: usize, o: &Order) -> Act {
        // Decision 34: ordering a CLOSE locks RECOVER whether or not it succeeds, as NAVY.
        self.emp[e].navy_locked = true;
        let a = self.own_base(e, o, false)?;
        let b = self
            .st
            .area_mut(a)
            .base
            .take()
            .expect("checked by own_base");
        self.cut_off_fleets(self.map.code(a));
        let ships = b.ships + b.laid_up;
        self.st.empires[e].navy_reserve += ships;
        Ok(Done::new(format!(
            "closed the base in {}; {ships_ship} went to the reserve",
            self.map.code(a),
            ships_ship = count(ships, "ship")
        )))
    }

    /// 7.2 SEAMOVE and CONVOY: ships (with as many armies as ships, for CONVOY) move one
    /// step at sea, or between a base and its entrance, for 1 BP plus the distance to base.
    pub(super) fn sea_move(&mut self, e: usize, o: &Order, convoy: bool) -> Act {
        let me = self.code(e);
        let from = self.area_field(&o.from, "where from")?;
        let to = self.area_field(&o.to, "where to")?;
        let (fc, tc) = (self.map.code(from), self.map.code(to));
        let berth = if self.map.area(from).is_sea() {
            match &self.st.area(from).fleet {
                Some(f) if f.owner == me => Berth::Sea(from),
                _ => return Err(format!("you have no ships in {fc}")),
            }
        } else {
            let a = self.own_base_at(e, from)?;
            if self.st.area(a).base.as_ref().map(|b| b.entrance) != Some(tc) {
                return Err(format!("ships leave the base in {fc} only by its entrance"));
            }
            Berth::Base(a)
        };
        // The destination: a sea area next door, or one of our bases entered from here.
        let into_base = if self.map.area(to).is_sea() {
            if !self.map.adjacent(from, to) {
                return Err(format!("{tc} is not next to {fc}"));
            }
            None
        } else {
            let a = self.own_base_at(e, to)?;
            if self.st.area(a).base.as_ref().map(|b| b.entrance) != Some(fc) {
                return Err(format!("the base in {tc} is not entered from {fc}"));
            }
            if matches!(berth, Berth::Base(_)) {
                return Err("ships move from a base to its entrance, not to another base".into());
            }
            Some(a)
        };
        // What is there to move, and with which home base (7.12).
        let (ships_here, armies_here, home) = match berth {
            Berth::Sea(s) => {
                let f = self.st.area(s).fleet.as_ref().expect("checked above");
                (f.ships, f.armies, f.base)
            }
            Berth::Base(a) => {
                if convoy && self.area[a.index()].sticky {
                    return Err(format!("the armies in {fc} are stuck this turn (7.5)"));
                }
                let area = self.st.area(a);
                (
                    area.base.as_ref().map_or(0, |b| b.ships),
                    area.armies,
                    Some(fc),
                )
            }
        };
        let ships = take(o.number, ships_here, "ships", fc.as_str())?;
        let armies = if convoy { ships.min(armies_here) } else { 0 };
        if let Berth::Sea(_) = berth {
            // Decision 15: ships never sail off leaving armies without transport.
            if ships_here - ships < armies_here - armies {
                return Err(format!(
                    "that would leave {} armies in {fc} with only {} ships",
                    armies_here - armies,
                    ships_here - ships
                ));
            }
        }
        // Cost: 1 BP plus the distance from base; with no route, a ship and an army are
        // dispersed instead of paying the distance (7.2).
        let route = match berth {
            Berth::Base(_) => Some(0),
            Berth::Sea(s) => {
                let f = self.st.area(s).fleet.as_ref().expect("checked above");
                fleet_distance(self.map, &self.st, s, f)
            }
        };
        self.pay(e, 1 + route.unwrap_or(0))?;
        // Lift the moving force out of its berth.
        match berth {
            Berth::Sea(s) => {
                let f = self.st.area_mut(s).fleet.as_mut().expect("checked above");
                f.ships -= ships;
                f.armies -= armies;
                if f.ships == 0 {
                    self.st.area_mut(s).fleet = None;
                }
            }
            Berth::Base(a) => {
                let area = self.st.area_mut(a);
                area.armies -= armies;
                if let Some(b) = area.base.as_mut() {
                    b.ships -= ships;
                }
            }
        }
        let (mut ships, mut armies) = (ships, armies);
        let mut note = String::new();
        if route.is_none() {
            // 7.2 (decision 35): one ship and one army of the fleet are dispersed; the ship
            // from those moving, the army from those moving if any, otherwise from the armies
            // staying behind in the area being left.
            ships -= 1;
            let mut lost_army = armies.min(1);
            armies -= lost_army;
            if lost_army == 0
                && let Berth::Sea(s) = berth
                && let Some(f) = self.st.area_mut(s).fleet.as_mut()
                && f.armies > 0
            {
                f.armies -= 1;
                lost_army = 1;
            }
            let emp = &mut self.st.empires[e];
            emp.navy_reserve += 1;
            emp.army_reserve += lost_army;
            note = format!(
                "; no route to base, so 1 ship and {lost_army_army} dispersed",
                lost_army_army = count(lost_army, "army")
            );
            self.push(
                vec![me],
                What::NoRouteToBase {
                    empire: me,
                    area: fc,
                    ships: 1,
                    armies: lost_army,
                },
            );
            if ships == 0 {
                self.return_to_berth(berth, me, 0, armies, home);
                return Ok(Done::new(format!("no ships were left to move{note}")));
            }
        }
        if let Some(a) = into_base {
            // Entering a base: ships join it in commission, armies land in the area.
            let area = self.st.area_mut(a);
            area.armies += armies;
            if let Some(b) = area.base.as_mut() {
                b.ships += ships;
            }
            if armies > 0 && self.map.area(a).terrain.is_difficult() {
                self.area[a.index()].sticky = true;
            }
            return Ok(Done::new(format!(
                "{ships_ship}{} entered the base in {tc}{note}",
                carried(armies),
                ships_ship = count(ships, "ship")
            )));
        }
        let defender = self.st.area(to).fleet.as_ref().map(|f| f.owner);
        match defender {
            Some(d) if d != me => {
                let won = self.sea_battle(me, d, berth, to, ships, armies, home);
                let text = if won {
                    format!("won a sea battle and moved into {tc}{note}")
                } else {
                    format!("lost a sea battle in {tc}; survivors returned to {fc}{note}")
                };
                Ok(Done::new(text).affecting(Some(d)).seeing(&[to]))
            }
            _ => {
                self.arrive(to, me, ships, armies, home);
                Ok(Done::new(format!(
                    "{ships_ship}{} moved from {fc} to {tc}{note}",
                    carried(armies),
                    ships_ship = count(ships, "ship")
                ))
                .seeing(&[to]))
            }
        }
    }

    /// An owned land area with a usable naval base, named directly by id.
    fn own_base_at(&self, e: usize, a: AreaId) -> Result<AreaId, String> {
        let code = self.map.code(a);
        if self.st.area(a).owner != Some(self.code(e)) {
            return Err(format!("you do not own {code}"));
        }
        match &self.st.area(a).base {
            None => Err(format!("there is no naval base in {code}")),
            Some(b) if b.built >= self.turn => Err(format!(
                "the base in {code} was built this turn and can be used from next turn (5.16)"
            )),
            Some(_) => Ok(a),
        }
    }

    /// Decision 16: fleets belonging to a base that is captured, closed or disowned have no
    /// route to base from then on, even if the area is later won back or a base rebuilt.
    pub(super) fn cut_off_fleets(&mut self, base: AreaCode) {
        for a in &mut self.st.areas {
            if let Some(f) = a.fleet.as_mut().filter(|f| f.base == Some(base)) {
                f.base = None;
            }
        }
    }

    /// Ships arriving in a sea area: they join any fleet of ours there, and the combined
    /// fleet belongs to the movers' base (7.12).
    fn arrive(
        &mut self,
        to: AreaId,
        owner: EmpireCode,
        ships: u32,
        armies: u32,
        home: Option<AreaCode>,
    ) {
        let area = self.st.area_mut(to);
        match area.fleet.as_mut() {
            Some(f) if f.owner == owner => {
                f.ships += ships;
                f.armies += armies;
                f.base = home;
            }
            _ => {
                area.fleet = Some(Fleet {
                    owner,
                    ships,
                    armies,
                    base: home,
                })
            }
        }
    }

    /// Puts ships and armies back where they set out from. At sea they rejoin what is left
    /// of their fleet, keeping its base; armies with no ship left to carry them are lost.
    fn return_to_berth(
        &mut self,
        berth: Berth,
        owner: EmpireCode,
        ships: u32,
        armies: u32,
        home: Option<AreaCode>,
    ) {
        match berth {
            Berth::Base(a) => {
                let area = self.st.area_mut(a);
                area.armies += armies;
                if let Some(b) = area.base.as_mut() {
                    b.ships += ships;
                }
            }
            Berth::Sea(s) => {
                let area = self.st.area_mut(s);
                match area.fleet.as_mut() {
                    Some(f) => {
                        f.ships += ships;
                        f.armies = (f.armies + armies).min(f.ships);
                    }
                    None if ships > 0 => {
                        area.fleet = Some(Fleet {
                            owner,
                            ships,
                            armies: armies.min(ships),
                            base: home,
                        })
                    }
                    None => {}
                }
            }
        }
    }

    /// 8.1: a single round at sea. Returns whether the attacker won.
    #[allow(clippy::too_many_arguments)]
    fn sea_battle(
        &mut self,
        me: EmpireCode,
        them: EmpireCode,
        berth: Berth,
        at: AreaId,
        ships: u32,
        armies: u32,
        home: Option<AreaCode>,
    ) -> bool {
        let def = self.st.area(at).fleet.clone().expect("a defender is there");
        let (al, dl) = sea_losses(ships, def.ships);
        let a_ships = ships - al;
        let d_ships = def.ships - dl;
        // Armies beyond the ships that carry them are lost (8.1).
        let a_armies = armies.min(a_ships);
        let d_armies = def.armies.min(d_ships);
        let won = d_ships == 0;
        {
            let area = self.st.area_mut(at);
            if won {
                area.fleet = None;
            } else if let Some(f) = area.fleet.as_mut() {
                f.ships = d_ships;
                f.armies = d_armies;
            }
        }
        if won {
            if a_ships > 0 {
                self.arrive(at, me, a_ships, a_armies, home);
            }
        } else {
            self.return_to_berth(berth, me, a_ships, a_armies, home);
        }
        self.push(
            vec![me, them],
            What::SeaBattle {
                area: self.map.code(at),
                from: match berth {
                    Berth::Base(a) | Berth::Sea(a) => self.map.code(a),
                },
                attacker: me,
                defender: them,
                fight: SeaFight {
                    attacker_ships: ships,
                    defender_ships: def.ships,
                    attacker_lost: al,
                    defender_lost: dl,
                },
                attacker_armies_lost: armies - a_armies,
                defender_armies_lost: def.armies - d_armies,
                attacker_won: won,
            },
        );
        won
    }
}

/// Resolves an ALL / ALL BUT / number box against what is there (6.3): a definite number
/// larger than what is there fails.
pub(super) fn take(q: Quantity, available: u32, what: &str, place: &str) -> Result<u32, String> {
    match q {
        Quantity::Exactly(n) if n > available => Err(format!(
            "{n} {what} ordered but only {available} in {place} (6.3)"
        )),
        Quantity::Exactly(0) => Err(format!("the number of {what} is zero")),
        _ => {
            let k = q.of(available);
            if k == 0 {
                Err(format!("no {what} to move in {place}"))
            } else {
                Ok(k)
            }
        }
    }
}

fn carried(armies: u32) -> String {
    if armies > 0 {
        format!(
            " carrying {armies_army}",
            armies_army = count(armies, "army")
        )
    } else {
        String::new()
    }
}
