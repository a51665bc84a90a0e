//! Armies moving and attacking: MOVE (7.3), ATTACK (7.4), getting stuck (7.5), retreat
//! locations (7.11), and the consequences of a land battle (8.7, 8.13, 8.14, 11.4, 11.5).

use super::battle::{Entrenched, LandInput, land_battle};
use super::naval::take;
use super::{Act, Done, Turn, count};
use crate::codes::EmpireCode;
use crate::event::{LandBattle, What};
use crate::map::AreaId;
use crate::order::{Order, Quantity};
use crate::state::DefenceMode;

/// Where armies set out from.
#[derive(Clone, Copy)]
enum Origin {
    Land(AreaId),
    /// Aboard the empire's fleet in this sea area.
    Sea(AreaId),
}

impl Origin {
    fn area(self) -> AreaId {
        match self {
            Origin::Land(a) | Origin::Sea(a) => a,
        }
    }
}

impl Turn<'_> {
    /// The armies an empire has in the "from" area, and whether they may move (7.5).
    fn origin(&self, e: usize, from: AreaId) -> Result<(Origin, u32), String> {
        let me = self.code(e);
        let code = self.map.code(from);
        if self.map.area(from).is_sea() {
            match &self.st.area(from).fleet {
                Some(f) if f.owner == me => Ok((Origin::Sea(from), f.armies)),
                _ => Err(format!("you have no ships or armies in {code}")),
            }
        } else {
            if self.st.area(from).owner != Some(me) {
                return Err(format!("you do not own {code}"));
            }
            if self.area[from.index()].sticky {
                return Err(format!("the armies in {code} are stuck this turn (7.5)"));
            }
            Ok((Origin::Land(from), self.st.area(from).armies))
        }
    }

    fn remove_armies(&mut self, from: Origin, k: u32) {
        match from {
            Origin::Land(a) => self.st.area_mut(a).armies -= k,
            Origin::Sea(s) => {
                if let Some(f) = self.st.area_mut(s).fleet.as_mut() {
                    f.armies -= k;
                }
            }
        }
    }

    /// Armies going back to where they came from; at sea no more than the ships can carry
    /// (8.1, 8.14). Returns how many were lost for want of ships.
    fn return_armies(&mut self, to: Origin, k: u32) -> u32 {
        match to {
            Origin::Land(a) => {
                self.st.area_mut(a).armies += k;
                0
            }
            Origin::Sea(s) => match self.st.area_mut(s).fleet.as_mut() {
                Some(f) => {
                    let room = f.ships - f.armies.min(f.ships);
                    let back = k.min(room);
                    f.armies += back;
                    k - back
                }
                None => k,
            },
        }
    }

    /// 7.3 MOVE: armies into an adjacent area of one's own for 1 BP, or at sea aboard ships.
    pub(super) fn move_armies(&mut self, e: usize, o: &Order) -> Act {
        let me = self.code(e);
        let from = self.area_field(&o.from, "where from")?;
        let to = self.area_field(&o.to, "where to")?;
        let (fc, tc) = (self.map.code(from), self.map.code(to));
        if !self.map.adjacent(from, to) {
            return Err(format!("{tc} is not next to {fc}"));
        }
        let (origin, available) = self.origin(e, from)?;
        let k = take(o.number, available, "armies", fc.as_str())?;
        if self.map.area(to).is_sea() {
            // Armies move at sea only where enough of their own ships wait for them.
            let room = match &self.st.area(to).fleet {
                Some(f) if f.owner == me => f.ships.saturating_sub(f.armies),
                _ => return Err(format!("you have no ships in {tc} to carry armies")),
            };
            if k > room {
                return Err(format!(
                    "the ships in {tc} can carry only {room} more armies"
                ));
            }
        } else if self.st.area(to).owner != Some(me) {
            return Err(format!("you do not own {tc}; use ATTACK to go there (7.1)"));
        }
        let land_move = matches!(origin, Origin::Land(_)) && self.map.area(to).is_land();
        if self.supply_rules() && land_move {
            return self.supplied_move(e, from, to, k);
        }
        self.pay(e, 1)?;
        self.remove_armies(origin, k);
        if let Some(f) = self.st.area_mut(to).fleet.as_mut() {
            f.armies += k;
        } else {
            self.st.area_mut(to).armies += k;
            self.arrived_on_land(origin, to);
        }
        Ok(Done::new(format!(
            "moved {k_army} from {fc} to {tc}",
            k_army = count(k, "army")
        ))
        .seeing(&[to]))
    }

    /// S.5, S.7 (decision 23): a land move in European Empires costs 1 BP an army less one
    /// per train, and uses a train; with no train it costs the full price and an army is
    /// dispersed. The trains left go along with the armies.
    fn supplied_move(&mut self, e: usize, from: AreaId, to: AreaId, k: u32) -> Act {
        let (fc, tc) = (self.map.code(from), self.map.code(to));
        let supplied = self.st.area(from).trains > 0;
        self.pay(e, self.train_cost(from, k))?;
        self.st.area_mut(from).armies -= k;
        let mut moving = k;
        let note = if supplied {
            self.st.area_mut(from).trains -= 1;
            "using a supply train".to_string()
        } else {
            moving -= 1;
            self.st.empires[e].army_reserve += 1;
            "without supply: 1 army dispersed (S.5)".to_string()
        };
        self.st.area_mut(to).armies += moving;
        self.arrived_on_land(Origin::Land(from), to);
        self.trains_follow(from, to);
        Ok(Done::new(format!(
            "moved {} from {fc} to {tc}, {note}",
            count(moving, "army")
        ))
        .seeing(&[to]))
    }

    /// Armies reaching a land area: 7.11 the retreat location points back where they came
    /// from, and 7.5 difficult terrain makes the area sticky.
    fn arrived_on_land(&mut self, origin: Origin, to: AreaId) {
        if let Origin::Land(from) = origin {
            self.st.area_mut(to).retreat_to = Some(self.map.code(from));
        }
        if self.map.area(to).terrain.is_difficult() {
            self.area[to.index()].sticky = true;
        }
    }

    /// 7.4 ATTACK: armies attack an adjacent land area the empire does not own, from land or
    /// from the sea, at 1 BP an army.
    pub(super) fn attack(&mut self, e: usize, o: &Order) -> Act {
        let me = self.code(e);
        let from = self.area_field(&o.from, "where from")?;
        let to = self.area_field(&o.to, "where to")?;
        let (fc, tc) = (self.map.code(from), self.map.code(to));
        if self.map.area(to).is_sea() {
            return Err(format!(
                "{tc} is a sea area: ships fight at sea by moving (7.1, 7.4)"
            ));
        }
        if !self.map.adjacent(from, to) {
            return Err(format!("{tc} is not next to {fc}"));
        }
        if self.st.area(to).owner == Some(me) {
            return Err(format!("you already own {tc}; use MOVE (7.1)"));
        }
        let (origin, available) = self.origin(e, from)?;
        // S.6: in European Empires a land attack needs a supply train, which takes one BP
        // off the price of each army it supplies.
        let supplied = self.supply_rules() && matches!(origin, Origin::Land(_));
        let trains = if supplied {
            self.st.area(from).trains
        } else {
            0
        };
        if supplied && trains == 0 {
            return Err(format!(
                "there are no supply trains in {fc}: land attacks need one (S.6)"
            ));
        }
        let price = |k: u32| {
            if supplied {
                k.saturating_sub(trains).max(1)
            } else {
                k
            }
        };
        // Decision 9: a definite number must be paid in full; ALL and ALL BUT take as many
        // as the BPs allow.
        let wanted = take(o.number, available, "armies", fc.as_str())?;
        let bps = self.bps(e);
        let affordable = if supplied { bps + trains } else { bps };
        let (k, cut) = match o.number {
            Quantity::Exactly(_) if price(wanted) > bps => {
                return Err(format!(
                    "{} cost {} BPs and you have {bps}",
                    count(wanted, "army"),
                    price(wanted)
                ));
            }
            Quantity::Exactly(_) => (wanted, None),
            _ if bps == 0 => return Err("attacking costs BPs and you have none".into()),
            _ if wanted > affordable => (
                affordable,
                Some(format!(
                    "only {} could be paid for",
                    count(affordable, "army")
                )),
            ),
            _ => (wanted, None),
        };
        self.pay(e, price(k))?;
        if supplied {
            self.st.area_mut(from).trains -= 1;
        }
        self.remove_armies(origin, k);
        let battle = self.fight(e, origin, to, k);
        let defender = battle.defender;
        // The numbers and the reason, so the player sees why it went as it did (8.14).
        let figures = format!(
            "strength {} v {}; you lost {}, the defenders {}",
            battle.attack_strength,
            battle.defence_strength,
            battle.attacker_lost,
            battle.defender_lost
        );
        let text = if battle.captured {
            format!(
                "captured {tc} from {fc} with {k_army} ({figures}): {}",
                battle.verdict(),
                k_army = count(k, "army")
            )
        } else {
            format!(
                "attacked {tc} from {fc} with {k_army} and was repulsed ({figures}): {}",
                battle.verdict(),
                k_army = count(k, "army")
            )
        };
        self.push(
            {
                let mut c = vec![me];
                c.extend(defender);
                c
            },
            What::LandBattle(Box::new(battle)),
        );
        Ok(Done::new(text).cut(cut).affecting(defender).seeing(&[to]))
    }

    /// Fights the battle for `to` and applies everything it changes.
    fn fight(&mut self, e: usize, origin: Origin, to: AreaId, k: u32) -> LandBattle {
        let me = self.code(e);
        let from = origin.area();
        let (fc, tc) = (self.map.code(from), self.map.code(to));
        let target = self.st.area(to).clone();
        let defender = target.owner;
        let def_idx = defender.and_then(|d| self.st.empire_index(d));
        let air = self.air_rules();
        let entrenched = match (target.defence, target.defence_against) {
            (DefenceMode::Entrench, Some(t)) if t == fc => Entrenched::Facing,
            (DefenceMode::Entrench, _) => Entrenched::Elsewhere,
            _ => Entrenched::No,
        };
        // 8.7: a retreat needs RETREAT mode and an adjacent land area the defender owns.
        let retreat_to = match (target.defence, target.retreat_to, defender) {
            (DefenceMode::Retreat, Some(r), Some(d)) => self.map.id(r).filter(|&r| {
                self.map.adjacent(to, r)
                    && self.map.area(r).is_land()
                    && self.st.area(r).owner == Some(d)
            }),
            _ => None,
        };
        let from_sea = matches!(origin, Origin::Sea(_));
        let input = LandInput {
            attackers: k,
            attacker_air: if air { self.st.empires[e].air_force } else { 0 },
            attacker_ships: if from_sea {
                self.st.area(from).fleet.as_ref().map_or(0, |f| f.ships)
            } else {
                0
            },
            // The attacking armies have already left the fleet's count.
            attacker_aboard: if from_sea {
                self.st.area(from).fleet.as_ref().map_or(0, |f| f.armies) + k
            } else {
                0
            },
            defenders: target.armies,
            forts: target.forts,
            population: target.population,
            terrain: self.map.area(to).terrain,
            entrenched,
            ambush: target.defence == DefenceMode::Ambush && target.defence_against == Some(fc),
            defender_air: match def_idx {
                Some(d) if air => self.st.empires[d].air_force,
                _ => 0,
            },
            defender_ships: if from_sea {
                target.base.as_ref().map_or(0, |b| b.ships)
            } else {
                0
            },
            may_retreat: retreat_to.is_some(),
            air_rules: air,
            from_sea,
        };
        let r = land_battle(&input);

        // Air forces and ships lost in the air and sea phases.
        self.st.empires[e].air_force -= r.attacker_air_lost;
        if let Some(d) = def_idx {
            self.st.empires[d].air_force -= r.defender_air_lost;
        }
        if let Some(sea) = &r.sea {
            // Decision 33: the excess armies were taken from the attackers first
            // (`r.lost_at_sea`); any still beyond the ships left are lost from those aboard.
            if let Some(f) = self.st.area_mut(from).fleet.as_mut() {
                f.ships -= sea.attacker_lost;
                f.armies = f.armies.min(f.ships);
            }
            if let Some(b) = self.st.area_mut(to).base.as_mut() {
                b.ships -= sea.defender_lost;
            }
            if self
                .st
                .area(from)
                .fleet
                .as_ref()
                .is_some_and(|f| f.ships == 0)
            {
                self.st.area_mut(from).fleet = None;
            }
        }
        // 8.7: the defenders withdraw to their retreat location before the land phase.
        let mut retreated_to = None;
        if r.retreated
            && let Some(rt) = retreat_to
        {
            let n = self.st.area(to).armies;
            self.st.area_mut(to).armies = 0;
            self.st.area_mut(rt).armies += n;
            retreated_to = Some(self.map.code(rt));
        }
        // 8.8, 8.13: losses and collateral damage.
        {
            let area = self.st.area_mut(to);
            area.armies -= r.defender_lost.min(area.armies);
            area.population -= r.population_lost;
            area.forts -= r.forts_lost;
        }
        let trains_lost = if self.st.variant.has_supply() {
            // S.6 (decision 12): trains suffer the same collateral damage.
            let area = self.st.area_mut(to);
            let lost = r.damage.min(area.trains);
            area.trains -= lost;
            lost
        } else {
            0
        };
        let pop_after = self.st.area(to).population;
        // 8.14, 11.4, 11.5 (decision 13): VPs read together without counting twice.
        let (att_vps, def_vps, moved_in, returned);
        if r.captured {
            att_vps = 1 + pop_after as i32;
            def_vps = -(1 + r.population_lost as i32 + pop_after as i32);
            // S.6 (decision 26): one more train, if there is one, moves the whole force.
            let whole = self.supply_rules()
                && matches!(origin, Origin::Land(_))
                && self.st.area(from).trains > 0;
            if whole {
                self.st.area_mut(from).trains -= 1;
            }
            returned = if whole { 0 } else { r.survivors / 2 };
            moved_in = r.survivors - returned;
            self.capture(me, origin, to, moved_in);
        } else {
            att_vps = -(r.population_lost as i32 + 1);
            def_vps = -(r.population_lost as i32);
            returned = r.survivors;
            moved_in = 0;
        }
        let drowned = self.return_armies(origin, returned);
        if r.captured && self.supply_rules() && matches!(origin, Origin::Land(_)) {
            // S.7: the remaining trains follow the armies that moved in.
            self.trains_follow(from, to);
        }
        self.st.empires[e].vps += att_vps;
        if let Some(d) = def_idx {
            self.st.empires[d].vps += def_vps;
        }
        LandBattle {
            area: tc,
            from: fc,
            attacker: me,
            defender,
            attackers: k,
            defenders: target.armies,
            air: r.air,
            sea: r.sea,
            retreated_to,
            attack_strength: r.attack_strength,
            defence_strength: r.defence_strength,
            attacker_lost: r.lost_at_sea + r.attacker_lost + drowned,
            lost_at_sea: r.lost_at_sea,
            defender_lost: r.defender_lost,
            ambushed: r.ambushed,
            population_lost: r.population_lost,
            forts_lost: r.forts_lost,
            trains_lost,
            survivors: r.survivors,
            population_left: pop_after,
            captured: r.captured,
            moved_in,
            returned: returned - drowned,
            attacker_vps: att_vps,
            defender_vps: if def_idx.is_some() { def_vps } else { 0 },
        }
    }

    /// 8.14: the attacker takes the area with the armies that moved in.
    fn capture(&mut self, me: EmpireCode, origin: Origin, to: AreaId, moved_in: u32) {
        let area = self.st.area_mut(to);
        area.owner = Some(me);
        area.armies = moved_in;
        // Decision: the defeated owner's defence settings do not pass to the captor; the
        // area starts in RETREAT mode pointing back the way the armies came (7.6, 7.11).
        area.defence = DefenceMode::Retreat;
        area.defence_against = None;
        area.retreat_to = None;
        // Decision 16: ships in a captured base are lost; the base passes to the captor, and
        // the old owner's fleets from it are cut off.
        let had_base = area.base.is_some();
        if let Some(b) = area.base.as_mut() {
            b.ships = 0;
            b.laid_up = 0;
        }
        if had_base {
            self.cut_off_fleets(self.map.code(to));
        }
        self.arrived_on_land(origin, to);
        // 7.5: an area captured from the sea is sticky whatever its terrain.
        if matches!(origin, Origin::Sea(_)) {
            self.area[to.index()].sticky = true;
        }
        // 9.5: spies lying in wait in a captured area give up.
        let code = self.map.code(to);
        for emp in &mut self.st.empires {
            if emp.code != me
                && let Some(s) = emp.spy.as_mut().filter(|s| s.area == code)
            {
                s.waiting_for = None;
            }
        }
        // European: the captured capital is no longer anyone's capital.
        for emp in &mut self.st.empires {
            if emp.code != me && emp.capital == Some(code) {
                emp.capital = None;
            }
        }
    }
}
