//! The end of the turn, in the order of decision 3: cash returned (3.6), leftover BPs (3.7,
//! 6.2), dispersals (6.5), census (11.2), income and supply (3.2, 3.3), eliminations (11.1),
//! victory (11.6) and the next order of play (6.2).

use super::Turn;
use super::economy::{fleet_distance, settle_balances, trains_cut_supply};
use crate::codes::EmpireCode;
use crate::event::What;
use crate::state::{VictoryClaim, VictoryCondition};

impl Turn<'_> {
    pub(super) fn end_of_turn(&mut self) {
        self.return_cash();
        self.spend_leftovers();
        self.dispersals();
        let census = self.census();
        self.income();
        self.eliminations();
        self.victory(census);
        self.next_order_of_play();
    }

    fn alive(&self) -> Vec<usize> {
        (0..self.st.empires.len())
            .filter(|&e| self.st.empires[e].alive())
            .collect()
    }

    /// 3.6: BPs left unspent, up to what was cashed, go back to the treasury.
    pub(super) fn return_cash(&mut self) {
        for e in self.alive() {
            let back = self.st.empires[e].bps.min(self.emp[e].cashed);
            if back > 0 {
                let emp = &mut self.st.empires[e];
                emp.bps -= back;
                emp.treasury += back;
                let code = emp.code;
                self.push(
                    vec![code],
                    What::CashReturned {
                        empire: code,
                        bps: back,
                    },
                );
            }
        }
    }

    /// 3.7: the rest builds reserve armies at 3 BPs; the last 1 or 2 BPs are an ORDER bid.
    pub(super) fn spend_leftovers(&mut self) {
        for e in self.alive() {
            let trains = if self.supply_rules() {
                self.leftover_trains(e)
            } else {
                0
            };
            let emp = &mut self.st.empires[e];
            let armies = emp.bps / 3;
            let order_bps = emp.bps % 3;
            emp.army_reserve += armies;
            emp.bps = 0;
            self.emp[e].bid += order_bps;
            if trains + armies + order_bps > 0 {
                let code = emp.code;
                self.push(
                    vec![code],
                    What::Leftover {
                        empire: code,
                        trains,
                        armies,
                        order_bps,
                    },
                );
            }
        }
    }

    /// 6.5 (decision 17): armies beyond population + forts disperse to the reserve; fleets
    /// with no route to base lose a ship and an army.
    pub(super) fn dispersals(&mut self) {
        for id in self.map.ids() {
            let code = self.map.code(id);
            if self.map.area(id).is_land() {
                let a = self.st.area(id);
                let hold = a.population + a.forts;
                if a.armies <= hold {
                    continue;
                }
                let mut n = if hold < 2 {
                    a.armies / 2
                } else {
                    a.armies / hold
                };
                // S.8: trains present cut the dispersal by their number, and one is used up.
                let (trains, owner, present) = (a.trains, a.owner, a.armies);
                let cut_by = if self.supply_rules() { trains } else { 0 };
                if self.supply_rules() && n > 0 && trains > 0 {
                    n = n.saturating_sub(trains);
                    self.st.area_mut(id).trains -= 1;
                }
                if n == 0 {
                    continue;
                }
                self.st.area_mut(id).armies -= n;
                // Unowned areas have no reserve: their dispersed armies are simply gone.
                if let Some(i) = owner.and_then(|o| self.st.empire_index(o)) {
                    self.st.empires[i].army_reserve += n;
                }
                self.push(
                    owner.into_iter().collect(),
                    What::Dispersal {
                        empire: owner,
                        area: code,
                        armies: n,
                        ships: 0,
                        present,
                        hold,
                        trains: cut_by,
                    },
                );
            } else if let Some(f) = self.st.area(id).fleet.clone() {
                if fleet_distance(self.map, &self.st, id, &f).is_some() {
                    continue;
                }
                let armies = f.armies.min(1);
                let fleet = self.st.area_mut(id).fleet.as_mut().expect("cloned above");
                fleet.ships -= 1;
                fleet.armies -= armies;
                if fleet.ships == 0 {
                    self.st.area_mut(id).fleet = None;
                }
                if let Some(i) = self.st.empire_index(f.owner) {
                    self.st.empires[i].navy_reserve += 1;
                    self.st.empires[i].army_reserve += armies;
                }
                self.push(
                    vec![f.owner],
                    What::Dispersal {
                        empire: Some(f.owner),
                        area: code,
                        armies,
                        ships: 1,
                        present: 0,
                        hold: 0,
                        trains: 0,
                    },
                );
            }
        }
    }

    /// 11.2, 11.3 (decision 19): on a census turn, 1 VP per populated land area owned; then
    /// the next census is drawn 3 to 5 turns on.
    fn census(&mut self) -> bool {
        if self.turn < self.st.next_census {
            return false;
        }
        for e in self.alive() {
            let code = self.st.empires[e].code;
            let vps = self.populated_areas(code);
            self.st.empires[e].vps += vps as i32;
            self.push(vec![code], What::Census { empire: code, vps });
        }
        self.st.next_census = self.turn + self.rng.range(3, 5);
        true
    }

    /// 10.1, 11.2: land areas owned that contain population.
    fn populated_areas(&self, code: EmpireCode) -> u32 {
        self.st
            .areas
            .iter()
            .filter(|a| a.owner == Some(code) && a.population > 0)
            .count() as u32
    }

    /// 3.2, 3.3: income is the population owned; supply costs come off at once.
    fn income(&mut self) {
        settle_balances(self.map, &mut self.st);
        if self.supply_rules() {
            // S.9 (decision 29): where trains cut an area's supply cost, one is used up.
            for id in self.map.ids() {
                if trains_cut_supply(self.map, &self.st, id) {
                    self.st.area_mut(id).trains -= 1;
                }
            }
        }
        for e in self.alive() {
            let emp = &self.st.empires[e];
            let (empire, income, supply, bps) = (emp.code, emp.income, emp.supply_cost, emp.bps);
            self.push(
                vec![empire],
                What::Economy {
                    empire,
                    income,
                    supply,
                    bps,
                },
            );
        }
    }

    /// 11.1: no territory, or no BPs and no income, and the empire is out. What it still
    /// has on the map becomes neutral or is lost.
    fn eliminations(&mut self) {
        for e in self.alive() {
            let code = self.st.empires[e].code;
            let territories = self.st.areas.iter().any(|a| a.owner == Some(code));
            let emp = &self.st.empires[e];
            if territories && !(emp.bps == 0 && emp.income == 0) {
                continue;
            }
            let emp = &mut self.st.empires[e];
            emp.eliminated = Some(self.turn);
            emp.spy = None;
            emp.capital = None;
            for a in &mut self.st.areas {
                if a.owner == Some(code) {
                    a.owner = None;
                }
                if a.fleet.as_ref().is_some_and(|f| f.owner == code) {
                    a.fleet = None;
                }
                if a.watcher == Some(code) {
                    a.watcher = None;
                }
            }
            self.push(vec![code], What::Eliminated { empire: code });
        }
    }

    /// 11.6 (decision 19): conditions are checked every turn; the first time one holds,
    /// everyone is warned; the game ends on a later census turn on which any holds.
    fn victory(&mut self, census: bool) {
        // Option `victory_from_turn`: a GM may keep the first turns free of victories.
        if self.turn < self.st.options.victory_from_turn {
            return;
        }
        let claim = self.victory_claim();
        match (&self.st.victory_warning, claim) {
            (Some(w), Some(c)) if census && w.turn < self.turn => {
                self.st.result = Some(c.clone());
                self.push(self.everyone(), What::GameOver { claim: c });
            }
            (Some(w), None) if census && w.turn < self.turn => {
                // The warning lapses: nobody met a condition on the census turn.
                self.st.victory_warning = None;
            }
            (None, Some(c)) => {
                self.st.victory_warning = Some(c.clone());
                self.push(self.everyone(), What::VictoryWarning { claim: c });
            }
            _ => {}
        }
    }

    fn everyone(&self) -> Vec<EmpireCode> {
        self.st.empires.iter().map(|e| e.code).collect()
    }

    /// The victory condition met now, if any: the leader must be alone at the top (11.6).
    fn victory_claim(&self) -> Option<VictoryClaim> {
        let mut alive: Vec<(EmpireCode, i32)> = self
            .st
            .empires
            .iter()
            .filter(|e| e.alive())
            .map(|e| (e.code, e.vps))
            .collect();
        alive.sort_by_key(|a| std::cmp::Reverse(a.1));
        let &(leader, top) = alive.first()?;
        if top <= 0 || alive.get(1).is_some_and(|s| s.1 == top) {
            return None;
        }
        let second = alive.get(1).map_or(0, |s| s.1);
        let total: i64 = alive.iter().map(|s| s.1 as i64).sum();
        let target = self
            .st
            .options
            .points_target
            .unwrap_or(self.map.land_count() as u32) as i32;
        let condition = if top as i64 >= 2 * second.max(0) as i64 && alive.len() > 1 {
            VictoryCondition::Runaway
        } else if 10 * top as i64 >= 4 * total {
            VictoryCondition::Knockout
        } else if top > target {
            VictoryCondition::Points
        } else {
            return None;
        };
        Some(VictoryClaim {
            turn: self.turn,
            empire: leader,
            condition,
            vps: top,
        })
    }

    /// 6.2: empires move ahead of those that bid less, keeping their order among equals.
    fn next_order_of_play(&mut self) {
        let mut order: Vec<(EmpireCode, u32)> = self
            .st
            .order_of_play
            .iter()
            .filter_map(|c| {
                let i = self.st.empire_index(*c)?;
                self.st.empires[i].alive().then_some((*c, self.emp[i].bid))
            })
            .collect();
        order.sort_by_key(|a| std::cmp::Reverse(a.1));
        let next: Vec<EmpireCode> = order.into_iter().map(|(c, _)| c).collect();
        // Eliminated empires keep their place at the back, so the state stays complete.
        let mut full = next.clone();
        for c in &self.st.order_of_play {
            if !full.contains(c) {
                full.push(*c);
            }
        }
        self.st.order_of_play = full;
        self.push(self.everyone(), What::OrderOfPlay { order: next });
    }
}
