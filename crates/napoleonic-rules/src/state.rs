//! The state of a game between turns (digest 2.2-2.11): kingdoms with their treasuries,
//! status and diplomacy, every province's owner, annexation, damage and structures, and
//! every unit with its troops and leaders. Plain data, saved as JSON; everything that
//! changes it lives in the turn's steps.

use crate::fixed::{Fixed, Gold};
use crate::ids::{KingdomCode, LocId, TroopCode, UnitId, UnitKind};
use crate::tables::{Settings, Tables};
use empires_dice::RngState;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// Player status (2.10): Royalty is bought from the GM and lifts the limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    #[default]
    Commoner,
    Royalty,
}

/// The main relation between two kingdoms (2.8), the same from both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    #[default]
    Neutral,
    Ally,
    War,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kingdom {
    pub code: KingdomCode,
    pub name: String,
    /// The computer-run Local forces (1.1).
    pub independent: bool,
    pub status: Status,
    pub treasury: Gold,
    /// Removed at L19 once it has no provinces and no troops.
    pub alive: bool,
    /// Provinces it started with: they never count toward the annexation limit (2.10).
    pub starting: BTreeSet<LocId>,
    /// Provinces it annexed, oldest first (G28 reverts the latest first).
    pub annexed: Vec<LocId>,
    /// Kingdoms this one has granted passage rights to (2.8, directed).
    pub passage_to: BTreeSet<KingdomCode>,
    /// Kingdoms whose gifts (provinces, transfers, gold) this one refuses (2.8, F2).
    pub refuses: BTreeSet<KingdomCode>,
    /// Serial for naming hired leaders.
    pub leaders_hired: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Province {
    pub owner: KingdomCode,
    /// The owner when the turn began (move cost, annexation, 3.3).
    pub owner_at_start: KingdomCode,
    /// Ownership changed during this turn: entering costs 2 for everyone (3.3).
    pub changed: bool,
    /// Whose revenue it is: a kingdom, or the independents ("no one").
    pub annexed_to: KingdomCode,
    /// Turns in a row its owner has not been its annexer (L7, G25).
    pub decline: u32,
    /// Annexed at L6 of this turn: no revenue until the next (L11).
    pub annexed_this_turn: bool,
    /// 0 (none) to 3 (heavy).
    pub damage: u8,
    pub fort_level: u8,
    /// At most the level; effective level = level - damage (2.6).
    pub fort_damage: u8,
    pub harbour: bool,
    /// Kingdoms with special permission to pass through (2.8, F4).
    pub permissions: BTreeSet<KingdomCode>,
    /// This turn's marks (G10, G11): a land battle, a pillage.
    pub battle: bool,
    pub pillaged: bool,
}

impl Province {
    pub fn effective_fort(&self) -> u8 {
        self.fort_level.saturating_sub(self.fort_damage)
    }
}

/// One troop: a formation of soldiers or a squadron of ships.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Troop {
    pub code: TroopCode,
    /// 1 to 5 (F10).
    pub rank: u8,
    /// Move points left this turn (3.3: every troop keeps its own).
    pub mp: u8,
    /// Wounds carried.
    pub damage: Fixed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leader {
    pub name: String,
    pub hp: Fixed,
    pub combat: u32,
    pub attacks: u32,
    pub infantry: u32,
    pub cavalry: u32,
    pub siege: u32,
    pub naval: u32,
    pub upkeep: Gold,
    pub damage: Fixed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    pub owner: KingdomCode,
    pub id: UnitId,
    pub name: String,
    pub location: LocId,
    pub troops: Vec<Troop>,
    /// Leaders always stand in rank 5.
    pub leaders: Vec<Leader>,
    /// Index into `leaders` of the one who gives bonuses.
    pub unit_leader: Option<usize>,
    /// 1 to 5: retreat once this rank is reached (4.2).
    pub retreat_level: u8,
    pub follow: Option<UnitId>,
    pub defend_forts: bool,
    pub marines: bool,
    /// An army aboard a fleet: the fleet's owner and id.
    pub aboard: Option<(KingdomCode, UnitId)>,
    /// This turn: holds made (the first is free), retreated, prepared to board.
    pub holds: u8,
    pub retreated: bool,
    pub prepared_for: Option<KingdomCode>,
}

impl Unit {
    pub fn new(owner: KingdomCode, id: UnitId, name: String, location: LocId) -> Unit {
        Unit {
            owner,
            id,
            name,
            location,
            troops: Vec::new(),
            leaders: Vec::new(),
            unit_leader: None,
            retreat_level: 5,
            follow: None,
            defend_forts: true,
            marines: false,
            aboard: None,
            holds: 0,
            retreated: false,
            prepared_for: None,
        }
    }

    pub fn kind(&self) -> UnitKind {
        self.id.kind
    }

    /// A unit's move points: the fewest any of its troops has left (3.3). A unit with no
    /// troops (leaders alone) moves as far as the fastest troop could: 4.
    pub fn mp(&self) -> u8 {
        if self.id.kind == UnitKind::Garrison {
            return 0;
        }
        self.troops.iter().map(|t| t.mp).min().unwrap_or(4)
    }

    /// Spends move points: every troop spends the same (3.3).
    pub fn spend(&mut self, mp: u8) {
        for t in &mut self.troops {
            t.mp = t.mp.saturating_sub(mp);
        }
    }

    /// Sets every troop's move points to 0 (loading, unloading, retreat, 3.3).
    pub fn stop(&mut self) {
        for t in &mut self.troops {
            t.mp = 0;
        }
    }

    pub fn count(&self, code: &TroopCode) -> usize {
        self.troops.iter().filter(|t| &t.code == code).count()
    }

    /// Soldiers in the unit (ships are not soldiers): workers for construction (L8).
    pub fn soldiers(&self, tables: &Tables) -> usize {
        self.troops
            .iter()
            .filter(|t| tables.troop(&t.code).is_some_and(|x| x.is_soldier()))
            .count()
    }

    /// Total combat (T2): attacks × combat summed over its troops and leaders, without
    /// modifiers. Pillage and conquest need 10 (M13, M14, G9, G14).
    pub fn total_combat(&self, tables: &Tables) -> u32 {
        let troops: u32 = self
            .troops
            .iter()
            .filter_map(|t| tables.troop(&t.code))
            .map(|t| t.total_combat())
            .sum();
        let leaders: u32 = self.leaders.iter().map(|l| l.attacks * l.combat).sum();
        troops + leaders
    }

    /// What the unit costs a turn: its troops' and leaders' upkeep (L3).
    pub fn upkeep(&self, tables: &Tables) -> Gold {
        let troops: Gold = self
            .troops
            .iter()
            .filter_map(|t| tables.troop(&t.code))
            .map(|t| t.upkeep)
            .sum();
        troops + self.leaders.iter().map(|l| l.upkeep).sum()
    }

    /// The weight of its soldiers aboard ship; leaders weigh nothing (7.9).
    pub fn weight(&self, tables: &Tables) -> u32 {
        self.troops
            .iter()
            .filter_map(|t| tables.troop(&t.code))
            .map(|t| t.weight)
            .sum()
    }

    /// A fleet's storage and marine capacity: the sums over its ships.
    pub fn storage(&self, tables: &Tables) -> u32 {
        self.troops
            .iter()
            .filter_map(|t| tables.troop(&t.code))
            .map(|t| t.storage)
            .sum()
    }
}

/// The whole game between turns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// The turn about to be played, from 1. One turn is a season.
    pub turn: u32,
    pub settings: Settings,
    pub tables: Tables,
    pub rng: RngState,
    pub kingdoms: BTreeMap<KingdomCode, Kingdom>,
    /// Main relations that are not Neutral, keyed by the two codes in order.
    pub relations: BTreeMap<String, Relation>,
    pub provinces: BTreeMap<LocId, Province>,
    /// Sorted by owner, then id.
    pub units: Vec<Unit>,
    /// The result the GM declared (digest 6, N5): the game is over and takes no more orders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<crate::victory::Victory>,
}

impl GameState {
    fn pair(a: &KingdomCode, b: &KingdomCode) -> String {
        if a <= b {
            format!("{a}-{b}")
        } else {
            format!("{b}-{a}")
        }
    }

    /// The main relation between two kingdoms. The independents are at war with every
    /// kingdom (they "attack every intruder"); a kingdom is its own ally.
    pub fn relation(&self, a: &KingdomCode, b: &KingdomCode) -> Relation {
        if a == b {
            return Relation::Ally;
        }
        if a.is_independent() || b.is_independent() {
            return Relation::War;
        }
        self.relations
            .get(&Self::pair(a, b))
            .copied()
            .unwrap_or_default()
    }

    pub fn set_relation(&mut self, a: &KingdomCode, b: &KingdomCode, r: Relation) {
        let key = Self::pair(a, b);
        if r == Relation::Neutral {
            self.relations.remove(&key);
        } else {
            self.relations.insert(key, r);
        }
    }

    /// Permission to pass through a province (2.9, G6): the owner is you, or has granted
    /// you passage rights, or special permission for this province. Being allied is not
    /// enough.
    pub fn has_permission(&self, who: &KingdomCode, at: LocId) -> bool {
        let Some(p) = self.provinces.get(&at) else {
            return false;
        };
        &p.owner == who
            || p.permissions.contains(who)
            || self
                .kingdoms
                .get(&p.owner)
                .is_some_and(|k| k.passage_to.contains(who))
    }

    pub fn unit(&self, owner: &KingdomCode, id: UnitId) -> Option<&Unit> {
        self.unit_index(owner, id).map(|i| &self.units[i])
    }

    pub fn unit_mut(&mut self, owner: &KingdomCode, id: UnitId) -> Option<&mut Unit> {
        self.unit_index(owner, id).map(move |i| &mut self.units[i])
    }

    pub fn unit_index(&self, owner: &KingdomCode, id: UnitId) -> Option<usize> {
        self.units
            .binary_search_by(|u| (&u.owner, u.id).cmp(&(owner, id)))
            .ok()
    }

    /// Adds a unit in its sorted place; false if one with that id exists.
    pub fn insert_unit(&mut self, unit: Unit) -> bool {
        match self
            .units
            .binary_search_by(|u| (&u.owner, u.id).cmp(&(&unit.owner, unit.id)))
        {
            Ok(_) => false,
            Err(i) => {
                self.units.insert(i, unit);
                true
            }
        }
    }

    /// The lowest free army or fleet number of a kingdom, if it has fewer than 99.
    pub fn free_number(&self, owner: &KingdomCode, kind: UnitKind) -> Option<u16> {
        let limit = match kind {
            UnitKind::Army => UnitId::MAX_ARMIES,
            UnitKind::Fleet => UnitId::MAX_FLEETS,
            UnitKind::Garrison => return None,
        };
        (1..=limit).find(|&n| self.unit(owner, UnitId { kind, number: n }).is_none())
    }

    /// Provinces a kingdom owns.
    pub fn owned_by<'a>(&'a self, k: &'a KingdomCode) -> impl Iterator<Item = LocId> + 'a {
        self.provinces
            .iter()
            .filter(move |(_, p)| &p.owner == k)
            .map(|(id, _)| *id)
    }
}
