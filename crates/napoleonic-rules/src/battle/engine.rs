//! The battle engine (digest 4.1-4.7): a pure function from a [`Battle`] (sides, units,
//! their troops and leaders, the fortification) and [`Dice`] to its outcome and its report.
//! It reads no game state: the turn builds the battle (`battle::land`, `battle::sea`) and
//! writes the outcome back.
//!
//! The draws come in a fixed order, so that a scripted test can force them: the order of
//! fighters within each rank (side by side, rank by rank); the siege rolls (unit by unit,
//! troop by troop); the defenders who get the fortification's hit-point bonus; then each
//! round: the defenders who get its combat bonus, and every fighter in turn (units in the
//! order they were added, troops before leaders) choosing a target side if it has several,
//! then rolling its attacks; at the end, the wounded fighters' rolls and the captures.
//! Nothing is drawn for a choice that has one answer, nor for a chance of 0 or of 100 %.

use super::dice::{Dice, Draw};
use super::report::{
    BattleKind, BattleReport, Capture, Caused, Count, FortReport, Improvement, Killed, Losses,
    Retreat, RoundReport, SiegeRoll, Skill, UnitReport, UnitStatus, Who, WoundRoll,
};
use crate::event::UnitRef;
use crate::fixed::Fixed;
use crate::ids::{KingdomCode, LocId, UnitKind};
use crate::state::Unit;
use crate::tables::{FortLevel, Tables, TroopClass};
use std::collections::BTreeSet;

/// G22: a chance after modifiers is capped at 99 %, in hundredths of a percent.
pub const CHANCE_CAP: i64 = 9_900;
/// A battle still undecided after this many rounds stops with no winner (the rulebook
/// knows battles of 18 rounds; this only guards against sides that cannot hurt each other).
pub const MAX_ROUNDS: u32 = 100;
/// What a leader's skill gains from a victory, or from damaging a fortification (2.5: the
/// size is not given).
pub const SKILL_GAIN: u32 = 2;
/// No skill rises past this by fighting.
pub const SKILL_MAX: u32 = 100;
/// A troop attacks 1 to 8 times a round (digest 0); a state claiming more is read as 8.
pub const MAX_ATTACKS: u32 = 8;

/// Where a fighter comes from in its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// Index into the unit's troops.
    Troop(usize),
    /// Index into the unit's leaders.
    Leader(usize),
}

/// A troop or a leader on the field.
#[derive(Debug, Clone)]
pub struct Fighter {
    /// Index into [`Battle::units`].
    pub unit: usize,
    pub slot: Slot,
    pub who: Who,
    /// Troops: foot, mounted, artillery or ship. Leaders have no tactics type and get no
    /// modifier.
    pub class: Option<TroopClass>,
    /// 1 to 5; leaders always 5.
    pub rank: u8,
    /// Percent chance of one damage per attack, before modifiers.
    pub combat: u32,
    pub attacks: u32,
    pub hp: Fixed,
    /// The fortification's hit-point bonus, if this fighter holds it in this battle.
    pub bonus_hp: Fixed,
    /// Damage made casualties and left as a wound (carried from earlier casualty rounds).
    pub wound: Fixed,
    /// Damage taken since the last casualty round (odd rounds carry it, T34).
    pub pending: Fixed,
    pub siege: u32,
    pub room: u32,
    pub amphib_mod: i32,
    pub marine_mod: i32,
    /// A soldier's weight aboard ship (what it takes of the marine capacity).
    pub weight: u32,
    /// A ship's marine capacity.
    pub marine_cap: u32,
    pub capture: u32,
    /// A soldier fighting from a ship's deck (4.6): the marine modifier applies.
    pub marine: bool,
    /// On the field. Every fighter is, except marines waiting below decks for a place.
    pub active: bool,
    pub dead: bool,
    /// Captured by the victors (index of the unit it joins).
    pub captured_by: Option<usize>,
}

impl Fighter {
    pub fn max_hp(&self) -> Fixed {
        self.hp + self.bonus_hp
    }

    /// A casualty: the damage on it reaches its hit points (T13).
    pub fn casualty(&self) -> bool {
        self.wound + self.pending >= self.max_hp()
    }

    fn room_left(&self) -> Fixed {
        (self.max_hp() - self.wound - self.pending).max(Fixed::ZERO)
    }

    fn is_ship(&self) -> bool {
        self.class == Some(TroopClass::Ship)
    }
}

/// The unit leader's skills, as they stand in the battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tactics {
    pub name: String,
    pub infantry: u32,
    pub cavalry: u32,
    pub siege: u32,
    pub naval: u32,
}

/// How a unit takes part, decided by the turn from the state.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// An army standing on land or a fleet: it may retreat (unless it defends the
    /// fortification). Garrisons and armies aboard ships never retreat by themselves.
    pub may_retreat: bool,
    /// It would defend the fortification (a garrison, or an army with the option on, of
    /// the owner or an ally of the owner): it does if the fortification is not ruined after
    /// the siege.
    pub wants_to_defend: bool,
    /// Its siege troops roll against the fortification (G47).
    pub besieges: bool,
    /// It landed from the sea in this phase (the amphibious modifier, 4.2).
    pub amphibious: bool,
    /// Where it may retreat, best first (G46). Empty: nowhere.
    pub destinations: Vec<LocId>,
    /// Its leader has not yet learned siegecraft this turn (2.5: once a turn).
    pub may_learn_siege: bool,
    /// An army aboard a fleet of a kingdom it fights (4.6, the treachery case): it is
    /// already on the enemy's deck, so all of it fights there, whatever the fleet's marine
    /// capacity, and it holds its side on the field at sea though it has no ships. It never
    /// retreats, and the fleet it stands on cannot sail away from it.
    pub aboard_enemy: bool,
}

/// A unit in the battle.
#[derive(Debug, Clone)]
pub struct BattleUnit {
    pub unit: UnitRef,
    pub name: String,
    pub kind: UnitKind,
    pub side: usize,
    pub retreat_level: u8,
    pub follows: Option<UnitRef>,
    pub setup: Setup,
    /// Decided after the siege.
    pub defends: bool,
    /// The unit leader: his skills and his fighter.
    pub tactics: Option<Tactics>,
    pub leader: Option<usize>,
    /// Where it went, and in which round.
    pub retreated: Option<(LocId, u32)>,
    /// One of its troops damaged the fortification.
    pub damaged_fort: bool,
    /// An army aboard ship at sea: the fleet (index into the units) whose deck its marines
    /// fight from, and with which it leaves if the fleet retreats.
    pub carrier: Option<usize>,
}

/// The fortification of the province fought in.
#[derive(Debug, Clone)]
pub struct Fort {
    pub level: u8,
    pub damage: u8,
    /// The table's levels (index 0 is level 1).
    pub levels: Vec<FortLevel>,
}

impl Fort {
    /// Level less damage (2.6, T6).
    pub fn effective(&self) -> u8 {
        self.level.saturating_sub(self.damage)
    }

    fn stats(&self) -> Option<&FortLevel> {
        usize::from(self.effective())
            .checked_sub(1)
            .and_then(|i| self.levels.get(i))
    }
}

/// A battle about to be fought, and once fought, its outcome.
#[derive(Debug, Clone)]
pub struct Battle {
    pub kind: BattleKind,
    pub at: LocId,
    pub across: Option<LocId>,
    /// Friendly kingdoms pooled together (4.1).
    pub sides: Vec<Vec<KingdomCode>>,
    hostile: Vec<Vec<bool>>,
    /// Pairs of kingdoms that fight each other (both orders). A fighter attacks only sides
    /// holding one of its own kingdom's enemies: an ally who is not at war with them
    /// watches (4.1).
    enemies: BTreeSet<(KingdomCode, KingdomCode)>,
    pub units: Vec<BattleUnit>,
    pub fighters: Vec<Fighter>,
    pub fort: Option<Fort>,
    /// The leader's Number: 200 without a fortification; `fort_divisor` when one is
    /// defended (G21).
    pub divisor: i64,
    pub fort_divisor: i64,
    pub max_rounds: u32,
    /// G15: marines who fall are replaced from the soldiers below decks.
    pub marines_replaced: bool,
    /// Each side's fighters in the order they absorb damage (rank, then lot: G19).
    order: Vec<Vec<usize>>,
    fort_defended: bool,
}

impl Battle {
    pub fn new(kind: BattleKind, at: LocId, across: Option<LocId>) -> Battle {
        Battle {
            kind,
            at,
            across,
            sides: Vec::new(),
            hostile: Vec::new(),
            enemies: BTreeSet::new(),
            units: Vec::new(),
            fighters: Vec::new(),
            fort: None,
            divisor: 200,
            fort_divisor: 200,
            max_rounds: MAX_ROUNDS,
            marines_replaced: true,
            order: Vec::new(),
            fort_defended: false,
        }
    }

    /// Fought at sea (4.6): ships and marines, no fortification.
    pub fn at_sea(&self) -> bool {
        matches!(self.kind, BattleKind::Sea | BattleKind::SeaBorder)
    }

    /// A side of friendly kingdoms; returns its index.
    pub fn add_side(&mut self, kingdoms: Vec<KingdomCode>) -> usize {
        self.sides.push(kingdoms);
        for row in &mut self.hostile {
            row.push(false);
        }
        self.hostile.push(vec![false; self.sides.len()]);
        self.sides.len() - 1
    }

    /// Two sides fight each other, every kingdom of one against every kingdom of the other.
    pub fn set_hostile(&mut self, a: usize, b: usize) {
        if a == b || a >= self.sides.len() || b >= self.sides.len() {
            return;
        }
        self.hostile[a][b] = true;
        self.hostile[b][a] = true;
        for x in self.sides[a].clone() {
            for y in self.sides[b].clone() {
                self.enemies.insert((x.clone(), y.clone()));
                self.enemies.insert((y, x.clone()));
            }
        }
    }

    /// Two kingdoms fight each other (4.1: at war, or intruders and independents); their
    /// sides become hostile. Kingdoms on no side, or on one side together, are ignored.
    pub fn set_enemies(&mut self, x: &KingdomCode, y: &KingdomCode) {
        let find = |k: &KingdomCode| self.sides.iter().position(|s| s.contains(k));
        let (Some(a), Some(b)) = (find(x), find(y)) else {
            return;
        };
        if a == b {
            return;
        }
        self.hostile[a][b] = true;
        self.hostile[b][a] = true;
        self.enemies.insert((x.clone(), y.clone()));
        self.enemies.insert((y.clone(), x.clone()));
    }

    pub fn hostile(&self, a: usize, b: usize) -> bool {
        self.hostile
            .get(a)
            .and_then(|r| r.get(b))
            .copied()
            .unwrap_or(false)
    }

    /// Whether a kingdom attacks a side: the side holds one of its enemies.
    fn attacks_side(&self, k: &KingdomCode, side: usize) -> bool {
        self.sides[side]
            .iter()
            .any(|o| self.enemies.contains(&(k.clone(), o.clone())))
    }

    /// The province's fortification (land battles only; 4.4: never across a border).
    pub fn set_fort(&mut self, level: u8, damage: u8, tables: &Tables) {
        if level > 0 && self.kind == BattleKind::Land {
            self.fort = Some(Fort {
                level,
                damage: damage.min(level),
                levels: tables.fortifications.clone(),
            });
        }
    }

    fn push_unit(&mut self, side: usize, unit: &Unit, setup: Setup, carrier: Option<usize>) {
        self.units.push(BattleUnit {
            unit: (unit.owner.clone(), unit.id),
            name: unit.name.clone(),
            kind: unit.kind(),
            side,
            retreat_level: unit.retreat_level.clamp(1, 5),
            follows: unit.follow.map(|f| (unit.owner.clone(), f)),
            setup,
            defends: false,
            tactics: None,
            leader: None,
            retreated: None,
            damaged_fort: false,
            carrier,
        });
    }

    fn push_troops(&mut self, ui: usize, unit: &Unit, tables: &Tables, ships: bool, marine: bool) {
        for (i, t) in unit.troops.iter().enumerate() {
            let Some(ty) = tables.troop(&t.code) else {
                continue;
            };
            if ty.is_ship() != ships {
                continue;
            }
            self.fighters.push(Fighter {
                unit: ui,
                slot: Slot::Troop(i),
                who: Who::Troop(t.code.clone()),
                class: Some(ty.class),
                rank: t.rank.clamp(1, 5),
                combat: ty.combat,
                attacks: ty.attacks.min(MAX_ATTACKS),
                hp: ty.hp,
                bonus_hp: Fixed::ZERO,
                wound: t.damage.max(Fixed::ZERO),
                pending: Fixed::ZERO,
                siege: ty.siege,
                room: ty.fighting_room,
                amphib_mod: ty.amphib_mod,
                marine_mod: ty.marine_mod,
                weight: ty.weight,
                marine_cap: ty.marine_capacity,
                capture: ty.capture,
                marine,
                active: !marine,
                dead: false,
                captured_by: None,
            });
        }
    }

    /// A unit joins a side: its leaders and its troops, with the wounds they carry. On land
    /// its soldiers fight and its ships do not (ships never fight on land); at sea its ships
    /// fight (soldiers aboard fight only as marines, [`Battle::add_marines`]). Returns its
    /// index.
    pub fn add_unit(&mut self, side: usize, unit: &Unit, tables: &Tables, setup: Setup) -> usize {
        let ui = self.units.len();
        self.push_unit(side, unit, setup, None);
        let sea = self.at_sea();
        self.push_troops(ui, unit, tables, sea, false);
        self.push_leaders(ui, unit);
        ui
    }

    /// A unit's leaders join it on the field, the unit leader giving his tactics.
    fn push_leaders(&mut self, ui: usize, unit: &Unit) {
        for (i, l) in unit.leaders.iter().enumerate() {
            if unit.unit_leader == Some(i) {
                self.units[ui].leader = Some(self.fighters.len());
                self.units[ui].tactics = Some(Tactics {
                    name: l.name.clone(),
                    infantry: l.infantry,
                    cavalry: l.cavalry,
                    siege: l.siege,
                    naval: l.naval,
                });
            }
            // 2.5, 4.7: a leader fights like a soldier, always in rank 5.
            self.fighters.push(Fighter {
                unit: ui,
                slot: Slot::Leader(i),
                who: Who::Leader(l.name.clone()),
                class: None,
                rank: 5,
                combat: l.combat,
                attacks: l.attacks.min(MAX_ATTACKS),
                hp: l.hp,
                bonus_hp: Fixed::ZERO,
                wound: l.damage.max(Fixed::ZERO),
                pending: Fixed::ZERO,
                siege: 0,
                room: 0,
                amphib_mod: 0,
                marine_mod: 0,
                weight: 0,
                marine_cap: 0,
                capture: 0,
                marine: false,
                active: true,
                dead: false,
                captured_by: None,
            });
        }
    }

    /// An army aboard the fleet `carrier` (a unit already added) whose soldiers board enemy
    /// ships (4.6): they fight as marines while the fleet's marine capacity, counted in
    /// weight, has room for them, front ranks first; the others wait below decks. Its
    /// leaders stay below decks: they neither fight nor lead the marines. Returns its
    /// index.
    pub fn add_marines(
        &mut self,
        side: usize,
        army: &Unit,
        carrier: usize,
        tables: &Tables,
    ) -> usize {
        let ui = self.units.len();
        self.push_unit(side, army, Setup::default(), Some(carrier));
        self.push_troops(ui, army, tables, false, true);
        ui
    }

    /// An army aboard the fleet `carrier` (a unit already added) of a kingdom it fights:
    /// the treachery case of 4.6 ("a battle between your soldiers and his ships"). Every
    /// soldier is on the enemy's deck and fights from the start, with its marine modifier
    /// (a fight at sea), and so do the army's leaders, the unit leader giving his tactics as
    /// on land. Returns its index.
    pub fn add_boarders(
        &mut self,
        side: usize,
        army: &Unit,
        carrier: usize,
        tables: &Tables,
    ) -> usize {
        let setup = Setup {
            aboard_enemy: true,
            ..Setup::default()
        };
        let ui = self.units.len();
        self.push_unit(side, army, setup, Some(carrier));
        self.push_troops(ui, army, tables, false, true);
        for f in self.fighters.iter_mut().filter(|f| f.unit == ui) {
            f.active = true;
        }
        self.push_leaders(ui, army);
        ui
    }

    fn unit_gone(&self, ui: usize) -> bool {
        let u = &self.units[ui];
        u.retreated.is_some()
            || (!u.setup.aboard_enemy
                && u.carrier.is_some_and(|c| self.units[c].retreated.is_some()))
    }

    fn on_field(&self, fi: usize) -> bool {
        let f = &self.fighters[fi];
        !f.dead && f.active && !self.unit_gone(f.unit)
    }

    fn count_on_field(&self, side: usize) -> u32 {
        (0..self.fighters.len())
            .filter(|&fi| self.on_field(fi) && self.units[self.fighters[fi].unit].side == side)
            .count() as u32
    }

    /// What keeps a side in the battle: any fighter on land, ships at sea (4.6: soldiers do
    /// not count), or soldiers standing on an enemy's deck (the treachery case: they fight
    /// until they or the ships under them are gone).
    fn holds_field(&self, side: usize) -> bool {
        let sea = self.at_sea();
        (0..self.fighters.len()).any(|fi| {
            let u = &self.units[self.fighters[fi].unit];
            self.on_field(fi)
                && u.side == side
                && (!sea || self.fighters[fi].is_ship() || u.setup.aboard_enemy)
        })
    }

    fn leader_alive(&self, ui: usize) -> bool {
        self.units[ui]
            .leader
            .is_some_and(|fi| !self.fighters[fi].dead)
    }

    /// The unit leader's tactic for a troop of this class (4.7): infantry for foot, cavalry
    /// for mounted, naval for ships; none for siege machines, none once he has fallen
    /// (G44).
    fn tactic(&self, ui: usize, class: TroopClass) -> i64 {
        if !self.leader_alive(ui) {
            return 0;
        }
        let Some(t) = &self.units[ui].tactics else {
            return 0;
        };
        i64::from(match class {
            TroopClass::Foot => t.infantry,
            TroopClass::Mounted => t.cavalry,
            TroopClass::Ship => t.naval,
            TroopClass::Artillery => 0,
        })
    }

    /// One attack's chance in hundredths of a percent (4.2, G22): combat plus the unit
    /// leader's Combat × Tactic / Number, times the fortification's bonus for a defender
    /// holding it this round, times the amphibious modifier in the landing phase, times the
    /// marine modifier for a soldier fighting at sea; the factors multiply and the product
    /// is capped at 99 %.
    pub fn chance(&self, fi: usize, fort_bonus: bool) -> u32 {
        let f = &self.fighters[fi];
        let u = &self.units[f.unit];
        let base = i64::from(f.combat).saturating_mul(100);
        let Some(class) = f.class else {
            // Leaders: their own combat, no modifier.
            return base.clamp(0, CHANCE_CAP) as u32;
        };
        let n = if self.fort_defended {
            self.fort_divisor
        } else {
            self.divisor
        };
        let mut c = base;
        if n > 0 {
            c = c.saturating_add(base.saturating_mul(self.tactic(f.unit, class)) / n);
        }
        if fort_bonus && let Some(stats) = self.fort.as_ref().and_then(Fort::stats) {
            let pct = match class {
                TroopClass::Foot => i64::from(stats.foot_combat),
                TroopClass::Mounted => i64::from(stats.mounted_combat),
                _ => 0,
            };
            c = c.saturating_mul(100 + pct) / 100;
        }
        if u.setup.amphibious {
            c = c.saturating_mul(100 + i64::from(f.amphib_mod)) / 100;
        }
        if f.marine {
            c = c.saturating_mul(100 + i64::from(f.marine_mod)) / 100;
        }
        c.clamp(0, CHANCE_CAP) as u32
    }

    /// Fights the battle to its end and returns its report; the outcome stays in the
    /// battle (fighters dead or captured, units retreated, the fortification's damage,
    /// leaders' skills) for the turn to write back.
    pub fn fight(&mut self, dice: &mut dyn Dice) -> BattleReport {
        self.shuffle_ranks(dice);
        self.fill_marines();
        let mut rep = BattleReport {
            kind: self.kind,
            at: self.at,
            across: self.across,
            fortification: None,
            sides: self.sides.clone(),
            units: Vec::new(),
            siege: Vec::new(),
            rounds: Vec::new(),
            final_losses: Vec::new(),
            aftermath: Vec::new(),
            captured: Vec::new(),
            improved: Vec::new(),
            winners: Vec::new(),
            stopped: false,
        };
        let before = self.fort.as_ref().map(|f| f.damage);
        self.siege(dice, &mut rep);
        self.commit_defenders(dice);
        if let (Some(f), Some(before)) = (&self.fort, before) {
            rep.fortification = Some(FortReport {
                level: f.level,
                name: f
                    .levels
                    .get(usize::from(f.level).saturating_sub(1))
                    .map_or_else(String::new, |l| l.name.clone()),
                damage_before: before,
                damage_after: f.damage,
                defended: self.fort_defended,
            });
        }
        rep.units = self.unit_reports();
        let start_hp: Vec<Fixed> = (0..self.units.len()).map(|ui| self.unit_hp(ui)).collect();
        let mut taken = vec![Fixed::ZERO; self.units.len()];
        let mut ended = !self.enemies_on_field();
        let mut r = 1;
        while !ended && r <= self.max_rounds {
            let round = self.round(r, dice, &start_hp, &mut taken);
            rep.rounds.push(round);
            ended = !self.enemies_on_field();
            r += 1;
        }
        // The end: damage still pending becomes casualties, even after an odd round.
        for ui in 0..self.units.len() {
            let pending = self
                .unit_fighters(ui)
                .any(|fi| self.on_field(fi) && self.fighters[fi].pending > Fixed::ZERO);
            if pending {
                let l = self.casualties(ui);
                rep.final_losses.push(l);
            }
        }
        rep.stopped = !ended;
        if ended {
            rep.winners = (0..self.sides.len())
                .filter(|&s| self.holds_field(s))
                .collect();
        }
        self.aftermath(dice, &mut rep);
        rep
    }

    fn unit_fighters(&self, ui: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.fighters.len()).filter(move |&fi| self.fighters[fi].unit == ui)
    }

    fn unit_hp(&self, ui: usize) -> Fixed {
        self.unit_fighters(ui)
            .map(|fi| self.fighters[fi].max_hp())
            .sum()
    }

    /// G19: within one rank the order of losses is drawn once, at the start; ranks come
    /// first (T39, T40), and friendly units of one side are pooled, ships and marines
    /// together at sea (T50).
    fn shuffle_ranks(&mut self, dice: &mut dyn Dice) {
        self.order = Vec::new();
        for s in 0..self.sides.len() {
            let mut order = Vec::new();
            for rank in 1..=5u8 {
                let mut group: Vec<usize> = (0..self.fighters.len())
                    .filter(|&fi| {
                        let f = &self.fighters[fi];
                        f.rank == rank && self.units[f.unit].side == s
                    })
                    .collect();
                for i in (1..group.len()).rev() {
                    let j = dice.pick(Draw::Order, i as u32 + 1) as usize;
                    group.swap(i, j.min(i));
                }
                order.extend(group);
            }
            self.order.push(order);
        }
    }

    /// Marines go on deck while their fleet's marine capacity has room (4.6, T51, T52): the
    /// capacity of its ships still afloat, less the weight of marines already fighting;
    /// the soldiers aboard come forward front rank first (then unit, then troop order),
    /// and one too heavy for the room left gives way to a lighter one behind it.
    fn fill_marines(&mut self) {
        for c in 0..self.units.len() {
            if self.units[c].kind != UnitKind::Fleet || self.units[c].retreated.is_some() {
                continue;
            }
            let cap: u32 = self
                .unit_fighters(c)
                .filter(|&fi| !self.fighters[fi].dead)
                .map(|fi| self.fighters[fi].marine_cap)
                .sum();
            // Soldiers on an enemy's deck take none of its marine capacity.
            let carried = |fi: usize| {
                let u = &self.units[self.fighters[fi].unit];
                u.carrier == Some(c) && !u.setup.aboard_enemy
            };
            let used: u32 = (0..self.fighters.len())
                .filter(|&fi| {
                    let f = &self.fighters[fi];
                    carried(fi) && f.active && !f.dead
                })
                .map(|fi| self.fighters[fi].weight)
                .sum();
            let mut waiting: Vec<usize> = (0..self.fighters.len())
                .filter(|&fi| {
                    let f = &self.fighters[fi];
                    carried(fi) && f.marine && !f.active && !f.dead
                })
                .collect();
            waiting.sort_by_key(|&fi| (self.fighters[fi].rank, self.fighters[fi].unit, fi));
            let mut left = cap.saturating_sub(used);
            for fi in waiting {
                let w = self.fighters[fi].weight;
                if w <= left {
                    left -= w;
                    self.fighters[fi].active = true;
                }
            }
        }
    }

    /// Step 1 of a land battle (2.6, T4, T5, G47): each siege troop of a besieging unit
    /// rolls once, before the first round, SP + SP × Siegecraft / 200 percent, Siegecraft
    /// being its own unit leader's; each success is one more level of damage, never past
    /// the level (once the fortification is ruined, nobody rolls any more).
    fn siege(&mut self, dice: &mut dyn Dice, rep: &mut BattleReport) {
        let Some(level) = self.fort.as_ref().map(|f| f.level) else {
            return;
        };
        for ui in 0..self.units.len() {
            if !self.units[ui].setup.besieges {
                continue;
            }
            let craft = i64::from(self.units[ui].tactics.as_ref().map_or(0, |t| t.siege));
            let troops: Vec<usize> = self
                .unit_fighters(ui)
                .filter(|&fi| self.fighters[fi].siege > 0 && self.fighters[fi].active)
                .collect();
            for fi in troops {
                let damage = self.fort.as_ref().map_or(level, |f| f.damage);
                if damage >= level {
                    return;
                }
                let sp = i64::from(self.fighters[fi].siege).saturating_mul(100);
                let chance = sp
                    .saturating_add(sp.saturating_mul(craft) / 200)
                    .clamp(0, 10_000) as u32;
                let success = chance >= 10_000 || (chance > 0 && dice.chance(Draw::Siege, chance));
                if success {
                    if let Some(f) = self.fort.as_mut() {
                        f.damage += 1;
                    }
                    self.units[ui].damaged_fort = true;
                }
                if let Who::Troop(code) = &self.fighters[fi].who {
                    rep.siege.push(SiegeRoll {
                        unit: self.units[ui].unit.clone(),
                        troop: code.clone(),
                        chance,
                        success,
                    });
                }
            }
        }
    }

    /// Step 2 (4.2): the units that would defend do so if the fortification is not ruined
    /// after the siege; they cannot retreat. The hit-point bonus goes once, by lot, to as
    /// many defenders as its fighting room holds (G20, G48).
    fn commit_defenders(&mut self, dice: &mut dyn Dice) {
        let standing = self.fort.as_ref().is_some_and(|f| f.effective() > 0);
        for u in &mut self.units {
            u.defends = standing && u.setup.wants_to_defend;
        }
        self.fort_defended = self.units.iter().any(|u| u.defends);
        if !self.fort_defended {
            return;
        }
        let Some(stats) = self.fort.as_ref().and_then(Fort::stats).cloned() else {
            return;
        };
        for fi in self.fill_room(dice) {
            let f = &mut self.fighters[fi];
            f.bonus_hp = match f.class {
                Some(TroopClass::Foot) => stats.foot_hp,
                Some(TroopClass::Mounted) => stats.mounted_hp,
                _ => Fixed::ZERO,
            };
        }
    }

    /// Defenders who fit the fortification's fighting room (G20, G48): troops with a
    /// tactics type (foot or mounted) of every defending unit, pooled; when they do not all
    /// fit, taken in an order drawn by lot until the room is full (one that does not fit
    /// the room left gives way to the next).
    fn fill_room(&self, dice: &mut dyn Dice) -> Vec<usize> {
        let Some(stats) = self.fort.as_ref().and_then(Fort::stats) else {
            return Vec::new();
        };
        let mut eligible: Vec<usize> = (0..self.fighters.len())
            .filter(|&fi| {
                let f = &self.fighters[fi];
                self.on_field(fi)
                    && self.units[f.unit].defends
                    && matches!(f.class, Some(TroopClass::Foot | TroopClass::Mounted))
            })
            .collect();
        let room = stats.fighting_room;
        let need: u64 = eligible
            .iter()
            .map(|&fi| u64::from(self.fighters[fi].room))
            .sum();
        if need <= u64::from(room) {
            return eligible;
        }
        for i in (1..eligible.len()).rev() {
            let j = dice.pick(Draw::FortRoom, i as u32 + 1) as usize;
            eligible.swap(i, j.min(i));
        }
        let mut left = room;
        let mut chosen = Vec::new();
        for fi in eligible {
            let r = self.fighters[fi].room;
            if r <= left {
                left -= r;
                chosen.push(fi);
            }
        }
        chosen.sort_unstable();
        chosen
    }

    fn unit_reports(&self) -> Vec<UnitReport> {
        self.units
            .iter()
            .enumerate()
            .map(|(ui, u)| {
                let mut fighters: Vec<Count> = Vec::new();
                let mut combat = 0u32;
                for fi in self.unit_fighters(ui) {
                    let f = &self.fighters[fi];
                    combat = combat.saturating_add(f.attacks.saturating_mul(f.combat));
                    match fighters.iter_mut().find(|c| c.who == f.who) {
                        Some(c) => c.count += 1,
                        None => fighters.push(Count {
                            who: f.who.clone(),
                            count: 1,
                        }),
                    }
                }
                UnitReport {
                    unit: u.unit.clone(),
                    name: u.name.clone(),
                    side: u.side,
                    retreat_level: u.retreat_level,
                    defends: u.defends,
                    amphibious: u.setup.amphibious,
                    aboard: u.carrier.map(|c| self.units[c].unit.clone()),
                    on_enemy_deck: u.setup.aboard_enemy,
                    // 4.6: a fleet of transports has no marine capacity: its passengers
                    // stay below decks, neither fighting nor hit.
                    below_decks: u.carrier.is_some_and(|c| {
                        !u.setup.aboard_enemy
                            && self
                                .unit_fighters(c)
                                .map(|fi| self.fighters[fi].marine_cap)
                                .sum::<u32>()
                                == 0
                    }),
                    leader: u.tactics.as_ref().map(|t| t.name.clone()),
                    total_combat: combat,
                    total_hp: self.unit_hp(ui),
                    fighters,
                }
            })
            .collect()
    }

    /// The side a fighter attacks this round (4.5, T45): among the sides holding its
    /// kingdom's enemies with fighters on the field, one drawn in proportion to the fighters
    /// each has there. None when no enemy is left.
    fn target(&self, fi: usize, counts: &[u32], dice: &mut dyn Dice) -> Option<usize> {
        let k = &self.units[self.fighters[fi].unit].unit.0;
        let targets: Vec<usize> = (0..self.sides.len())
            .filter(|&s| counts[s] > 0 && self.attacks_side(k, s))
            .collect();
        match targets.len() {
            0 => None,
            1 => Some(targets[0]),
            _ => {
                let total: u32 = targets.iter().map(|&s| counts[s]).sum();
                let mut x = dice.pick(Draw::Target, total);
                for &s in &targets {
                    if x < counts[s] {
                        return Some(s);
                    }
                    x -= counts[s];
                }
                targets.last().copied()
            }
        }
    }

    /// One round (4.2 step 3): attacks, damage allocated in rank order over each side,
    /// casualties removed at the end of even rounds only (T34, T37), then retreats.
    fn round(
        &mut self,
        r: u32,
        dice: &mut dyn Dice,
        start_hp: &[Fixed],
        taken: &mut [Fixed],
    ) -> RoundReport {
        let holders = if self.fort_defended {
            self.fill_room(dice)
        } else {
            Vec::new()
        };
        let present: Vec<bool> = (0..self.units.len())
            .map(|ui| self.unit_fighters(ui).any(|fi| self.on_field(fi)))
            .collect();
        let counts: Vec<u32> = (0..self.sides.len())
            .map(|s| self.count_on_field(s))
            .collect();
        let mut hits = vec![0u32; self.sides.len()];
        let mut caused: Vec<Caused> = Vec::new();
        for fi in 0..self.fighters.len() {
            if !self.on_field(fi) || self.fighters[fi].attacks == 0 {
                continue;
            }
            let k = &self.units[self.fighters[fi].unit].unit.0;
            if !(0..self.sides.len()).any(|s| counts[s] > 0 && self.attacks_side(k, s)) {
                continue;
            }
            let chance = self.chance(fi, holders.binary_search(&fi).is_ok());
            let mut h = 0u32;
            if chance > 0
                && let Some(target) = self.target(fi, &counts, dice)
            {
                for _ in 0..self.fighters[fi].attacks {
                    if dice.chance(Draw::Hit, chance) {
                        h += 1;
                    }
                }
                hits[target] += h;
            }
            let f = &self.fighters[fi];
            let unit = self.units[f.unit].unit.clone();
            match caused.iter_mut().find(|c| c.unit == unit && c.who == f.who) {
                Some(c) => {
                    c.count += 1;
                    c.damage += h;
                }
                None => caused.push(Caused {
                    unit,
                    who: f.who.clone(),
                    count: 1,
                    damage: h,
                }),
            }
        }
        // Determine casualties: each side's hits go down its order (T39, T40, T13).
        let mut suffered = vec![Fixed::ZERO; self.units.len()];
        for (s, n) in hits.iter().enumerate() {
            let mut left = Fixed::whole(i64::from(*n));
            for k in 0..self.order[s].len() {
                if left <= Fixed::ZERO {
                    break;
                }
                let fi = self.order[s][k];
                if !self.on_field(fi) {
                    continue;
                }
                let take = self.fighters[fi].room_left().min(left);
                if take > Fixed::ZERO {
                    self.fighters[fi].pending += take;
                    suffered[self.fighters[fi].unit] += take;
                    left -= take;
                }
            }
        }
        let mut status = Vec::new();
        for ui in 0..self.units.len() {
            if !present[ui] {
                continue;
            }
            taken[ui] += suffered[ui];
            status.push(UnitStatus {
                unit: self.units[ui].unit.clone(),
                suffered: suffered[ui],
                total_hp: start_hp[ui],
                taken: taken[ui],
            });
        }
        let casualties = r.is_multiple_of(2).then(|| {
            let l = (0..self.units.len())
                .filter(|&ui| present[ui])
                .map(|ui| self.casualties(ui))
                .collect();
            // G15: fallen marines are replaced from below decks at a casualty round.
            if self.marines_replaced {
                self.fill_marines();
            }
            l
        });
        let retreats = self.retreats(r);
        RoundReport {
            number: r,
            caused,
            status,
            casualties,
            retreats,
        }
    }

    /// Pending damage of a unit's fighters on the field becomes casualties: those it
    /// reaches are killed, the rest keep it as a wound (T13, T37).
    fn casualties(&mut self, ui: usize) -> Losses {
        let mut losses = Losses {
            unit: self.units[ui].unit.clone(),
            damage: Fixed::ZERO,
            killed: Vec::new(),
            remains: Fixed::ZERO,
        };
        let fis: Vec<usize> = self
            .unit_fighters(ui)
            .filter(|&fi| self.on_field(fi))
            .collect();
        for fi in fis {
            let f = &mut self.fighters[fi];
            losses.damage += f.pending;
            if f.casualty() {
                f.dead = true;
                let hp = f.max_hp();
                match losses
                    .killed
                    .iter_mut()
                    .find(|k| k.who == f.who && k.hp == hp)
                {
                    Some(k) => k.count += 1,
                    None => losses.killed.push(Killed {
                        who: f.who.clone(),
                        count: 1,
                        hp,
                    }),
                }
            } else {
                f.wound += f.pending;
                losses.remains += f.pending;
            }
            f.pending = Fixed::ZERO;
        }
        losses
    }

    /// Whether two hostile sides still hold the field (4.2 step 3e; at sea, with ships).
    fn enemies_on_field(&self) -> bool {
        let holds: Vec<bool> = (0..self.sides.len()).map(|s| self.holds_field(s)).collect();
        (0..self.sides.len())
            .any(|a| holds[a] && (0..self.sides.len()).any(|b| holds[b] && self.hostile(a, b)))
    }

    fn may_retreat(&self, ui: usize) -> bool {
        let u = &self.units[ui];
        u.setup.may_retreat && !u.defends && !self.unit_gone(ui) && !self.boarded(ui)
    }

    /// Whether enemies still stand on this fleet's deck (4.6, treachery): it cannot sail
    /// away from them.
    fn boarded(&self, ui: usize) -> bool {
        (0..self.fighters.len()).any(|fi| {
            let b = &self.units[self.fighters[fi].unit];
            b.setup.aboard_enemy && b.carrier == Some(ui) && self.on_field(fi)
        })
    }

    /// The retreat condition (4.2): every fighter of the unit in ranks 1 to its retreat
    /// level is a casualty, empty ranks counting as such (T41, T42); a unit all of whose
    /// fighters are casualties cannot retreat (G17, T43).
    fn wants_retreat(&self, ui: usize) -> bool {
        let level = self.units[ui].retreat_level;
        let on: Vec<&Fighter> = self
            .unit_fighters(ui)
            .filter(|&fi| self.on_field(fi))
            .map(|fi| &self.fighters[fi])
            .collect();
        if on.is_empty() || on.iter().all(|f| f.casualty()) {
            return false;
        }
        on.iter().filter(|f| f.rank <= level).all(|f| f.casualty())
    }

    /// The followed unit, if it is in this battle (4.2: follow takes precedence).
    fn leader_unit(&self, ui: usize) -> Option<usize> {
        let f = self.units[ui].follows.as_ref()?;
        self.units
            .iter()
            .position(|u| &u.unit == f)
            .filter(|&li| li != ui)
    }

    /// A destination among the unit's candidates (G46), skipping any place where a unit
    /// of a hostile side has gone during this battle; `prefer` first if it is allowed.
    fn destination(&self, ui: usize, prefer: Option<LocId>) -> Option<LocId> {
        let side = self.units[ui].side;
        let allowed = |to: &LocId| {
            self.units[ui].setup.destinations.contains(to)
                && !self.units.iter().any(|o| {
                    o.retreated.is_some_and(|(d, _)| d == *to) && self.hostile(o.side, side)
                })
        };
        if let Some(p) = prefer
            && allowed(&p)
        {
            return Some(p);
        }
        self.units[ui]
            .setup
            .destinations
            .iter()
            .find(|d| allowed(d))
            .copied()
    }

    /// Retreats at the end of a round: first units on their own retreat level, then those
    /// that follow a unit in the battle, when it has just retreated, to where it went if
    /// they may (4.2, G46). A follower whose unit has fallen never retreats.
    fn retreats(&mut self, r: u32) -> Vec<Retreat> {
        let mut out = Vec::new();
        for ui in 0..self.units.len() {
            if !self.may_retreat(ui) || self.leader_unit(ui).is_some() {
                continue;
            }
            if self.wants_retreat(ui)
                && let Some(to) = self.destination(ui, None)
            {
                out.extend(self.retreat(ui, to, r));
            }
        }
        loop {
            let mut changed = false;
            for ui in 0..self.units.len() {
                if !self.may_retreat(ui) {
                    continue;
                }
                let Some(li) = self.leader_unit(ui) else {
                    continue;
                };
                let Some((to, when)) = self.units[li].retreated else {
                    continue;
                };
                let alive = self.unit_fighters(ui).any(|fi| self.on_field(fi));
                let all_down = self
                    .unit_fighters(ui)
                    .filter(|&fi| self.on_field(fi))
                    .all(|fi| self.fighters[fi].casualty());
                if when != r || !alive || all_down {
                    continue;
                }
                if let Some(dest) = self.destination(ui, Some(to)) {
                    out.extend(self.retreat(ui, dest, r));
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        out
    }

    /// G18: a retreating unit's pending damage becomes casualties now; then it leaves, and
    /// a fleet takes the armies aboard with it (their marines' damage is settled too).
    fn retreat(&mut self, ui: usize, to: LocId, r: u32) -> Vec<Retreat> {
        let carried: Vec<usize> = (0..self.units.len())
            .filter(|&ci| {
                let c = &self.units[ci];
                c.carrier == Some(ui) && c.retreated.is_none() && !c.setup.aboard_enemy
            })
            .collect();
        let mut out = Vec::new();
        for x in std::iter::once(ui).chain(carried.iter().copied()) {
            let losses = self.casualties(x);
            out.push(Retreat {
                unit: self.units[x].unit.clone(),
                to,
                losses,
            });
        }
        for x in std::iter::once(ui).chain(carried) {
            self.units[x].retreated = Some((to, r));
        }
        out
    }

    /// The unit that takes a captured fighter (7.5): on land, a victorious army or
    /// garrison still on the field. At sea a ship goes to the victorious fleet with the
    /// most ships afloat (its first on a tie), and artillery lost at sea (a marine or a
    /// soldier on an enemy's deck) to a victorious army still on the field. When the victors
    /// have no unit of that kind there, the other kind takes it: ships taken by soldiers
    /// who won on an enemy's deck, artillery taken by a fleet without soldiers aboard. The
    /// turn then forms a fleet or an army around the prize (`land::apply`).
    fn captor(&self, fi: usize, winners: &[usize]) -> Option<usize> {
        let side = self.units[self.fighters[fi].unit].side;
        let eligible = |ui: usize| {
            let u = &self.units[ui];
            winners.contains(&u.side)
                && self.hostile(u.side, side)
                && !self.unit_gone(ui)
                && self.unit_fighters(ui).any(|x| !self.fighters[x].dead)
        };
        if self.at_sea() {
            let ships = |ui: usize| {
                self.unit_fighters(ui)
                    .filter(|&x| !self.fighters[x].dead && self.fighters[x].is_ship())
                    .count()
            };
            let mut fleet: Option<(usize, usize)> = None;
            for ui in 0..self.units.len() {
                if self.units[ui].kind != UnitKind::Fleet || !eligible(ui) {
                    continue;
                }
                let n = ships(ui);
                if n > 0 && fleet.is_none_or(|(_, m)| n > m) {
                    fleet = Some((ui, n));
                }
            }
            let fleet = fleet.map(|(ui, _)| ui);
            let army = (0..self.units.len())
                .find(|&ui| self.units[ui].kind == UnitKind::Army && eligible(ui));
            if self.fighters[fi].is_ship() {
                fleet.or(army)
            } else {
                army.or(fleet)
            }
        } else {
            (0..self.units.len()).find(|&ui| self.units[ui].kind != UnitKind::Fleet && eligible(ui))
        }
    }

    /// Battle aftermath (4.2): every wounded fighter, winner or loser, is destroyed with
    /// chance damage / hit points (T35, T36); the victors may capture casualties (7.5); the
    /// leaders of the victors' units improve (naval skill at sea, infantry and cavalry on
    /// land), and so do leaders whose troops damaged the fortification (2.5).
    fn aftermath(&mut self, dice: &mut dyn Dice, rep: &mut BattleReport) {
        for fi in 0..self.fighters.len() {
            let f = &self.fighters[fi];
            if f.dead || f.wound <= Fixed::ZERO {
                continue;
            }
            let hp = f.max_hp();
            let chance = if hp > Fixed::ZERO {
                (f.wound.0.saturating_mul(10_000) / hp.0).clamp(0, 10_000) as u32
            } else {
                10_000
            };
            let destroyed = chance >= 10_000 || (chance > 0 && dice.chance(Draw::Wounded, chance));
            rep.aftermath.push(WoundRoll {
                unit: self.units[f.unit].unit.clone(),
                who: f.who.clone(),
                damage: f.wound,
                hp,
                chance,
                destroyed,
            });
            if destroyed {
                self.fighters[fi].dead = true;
            }
        }
        if rep.winners.is_empty() {
            return;
        }
        for fi in 0..self.fighters.len() {
            let f = &self.fighters[fi];
            if !f.dead || f.capture == 0 {
                continue;
            }
            let Some(captor) = self.captor(fi, &rep.winners) else {
                continue;
            };
            let chance = f.capture.saturating_mul(100).min(10_000);
            if chance >= 10_000 || dice.chance(Draw::Capture, chance) {
                if let Who::Troop(code) = &f.who {
                    rep.captured.push(Capture {
                        from: self.units[f.unit].unit.clone(),
                        troop: code.clone(),
                        to: self.units[captor].unit.clone(),
                    });
                }
                self.fighters[fi].captured_by = Some(captor);
            }
        }
        let sea = self.at_sea();
        for ui in 0..self.units.len() {
            if !self.leader_alive(ui) {
                continue;
            }
            let won = rep.winners.contains(&self.units[ui].side) && !self.unit_gone(ui);
            let learns = self.units[ui].damaged_fort && self.units[ui].setup.may_learn_siege;
            let unit = self.units[ui].unit.clone();
            let Some(t) = self.units[ui].tactics.as_mut() else {
                continue;
            };
            let gain = |v: &mut u32| *v = v.saturating_add(SKILL_GAIN).min(SKILL_MAX.max(*v));
            let mut gains: Vec<(Skill, u32)> = Vec::new();
            if won && sea {
                gain(&mut t.naval);
                gains.push((Skill::Naval, t.naval));
            } else if won {
                gain(&mut t.infantry);
                gain(&mut t.cavalry);
                gains.push((Skill::Infantry, t.infantry));
                gains.push((Skill::Cavalry, t.cavalry));
            }
            if learns {
                gain(&mut t.siege);
                gains.push((Skill::Siege, t.siege));
            }
            for (skill, to) in gains {
                rep.improved.push(Improvement {
                    unit: unit.clone(),
                    leader: t.name.clone(),
                    skill,
                    to,
                });
            }
        }
    }
}
