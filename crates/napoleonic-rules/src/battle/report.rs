//! Everything a battle report needs (digest 4.8), as the engine records it while the battle
//! is fought: who fought on which side, the siege rolls, each round's damage caused and
//! suffered, the casualties of the even rounds, the retreats, the aftermath and the winner.
//! The report crate words it for each kingdom; nothing here is worded.

use crate::event::UnitRef;
use crate::fixed::Fixed;
use crate::ids::{KingdomCode, LocId, TroopCode};
use serde::{Deserialize, Serialize};

/// Where a battle is fought: in a province, with its fortification (4.2); across a border
/// between two provinces (4.4); in a sea (4.6); or across a border at sea, between fleets
/// sailing against each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleKind {
    Land,
    Border,
    Sea,
    SeaBorder,
}

/// One fighter's kind: a troop of a type, or a leader by name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    Troop(TroopCode),
    Leader(String),
}

/// The whole battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleReport {
    pub kind: BattleKind,
    /// The province or sea fought in; for a border battle, one side of the border.
    pub at: LocId,
    /// A border battle: the other side of the border.
    pub across: Option<LocId>,
    /// The fortification, if the province has one.
    pub fortification: Option<FortReport>,
    /// Friendly kingdoms pooled together (4.1); the units list says who stood where.
    pub sides: Vec<Vec<KingdomCode>>,
    pub units: Vec<UnitReport>,
    /// Before the first round (2.6): one roll per siege troop.
    pub siege: Vec<SiegeRoll>,
    pub rounds: Vec<RoundReport>,
    /// Damage still pending when the battle ended on an odd round, made casualties then.
    pub final_losses: Vec<Losses>,
    pub aftermath: Vec<WoundRoll>,
    pub captured: Vec<Capture>,
    pub improved: Vec<Improvement>,
    /// Sides still on the field at the end (by index into `sides`). Empty: nobody won
    /// (everyone fell, or the battle reached the round limit).
    pub winners: Vec<usize>,
    /// The battle was stopped at the round limit with enemies still facing each other.
    pub stopped: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FortReport {
    pub level: u8,
    pub name: String,
    /// Damage before the siege rolls and after them.
    pub damage_before: u8,
    pub damage_after: u8,
    /// Whether any unit fought from inside it (it was not ruined and had defenders).
    pub defended: bool,
}

/// A unit as it entered the battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitReport {
    pub unit: UnitRef,
    pub name: String,
    pub side: usize,
    pub retreat_level: u8,
    /// It fought from inside the fortification (and could not retreat).
    pub defends: bool,
    /// It landed from the sea this phase (the amphibious modifier).
    pub amphibious: bool,
    /// At sea: an army whose soldiers fight as marines from this fleet's deck.
    pub aboard: Option<UnitRef>,
    /// An army aboard a fleet of a kingdom it fights (4.6, treachery): it fights on that
    /// fleet's deck (`aboard`), all of it, against the crew.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_enemy_deck: bool,
    /// At sea, aboard a fleet with no marine capacity (transports only, 4.6): its soldiers
    /// stay below decks and neither fight nor take hits.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub below_decks: bool,
    /// The unit leader, who gives its troops his tactics.
    pub leader: Option<String>,
    /// Unmodified: attacks × combat, and hit points, of its fighters (troops and leaders).
    pub total_combat: u32,
    pub total_hp: Fixed,
    pub fighters: Vec<Count>,
}

/// How many fighters of a kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    pub who: Who,
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiegeRoll {
    pub unit: UnitRef,
    pub troop: TroopCode,
    /// In hundredths of a percent (36.3 % is 3 630).
    pub chance: u32,
    pub success: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundReport {
    pub number: u32,
    /// Damage each unit's fighters caused, by kind.
    pub caused: Vec<Caused>,
    /// Each unit's state at the end of the round.
    pub status: Vec<UnitStatus>,
    /// Even rounds: what the pending damage destroyed.
    pub casualties: Option<Vec<Losses>>,
    pub retreats: Vec<Retreat>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caused {
    pub unit: UnitRef,
    pub who: Who,
    /// Fighters of that kind who attacked.
    pub count: u32,
    pub damage: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitStatus {
    pub unit: UnitRef,
    /// Damage allocated to it this round.
    pub suffered: Fixed,
    /// Its hit points when the battle began, and the damage taken since.
    pub total_hp: Fixed,
    pub taken: Fixed,
}

/// A unit's casualties at the end of an even round (or at its retreat, or at the end).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Losses {
    pub unit: UnitRef,
    /// The damage made casualties now.
    pub damage: Fixed,
    pub killed: Vec<Killed>,
    /// Damage left on survivors as wounds.
    pub remains: Fixed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Killed {
    pub who: Who,
    pub count: u32,
    /// Hit points of one (with the fortification's bonus when it had it).
    pub hp: Fixed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retreat {
    pub unit: UnitRef,
    pub to: LocId,
    /// What the damage it carried did when it left (G18).
    pub losses: Losses,
}

/// The aftermath's roll for one wounded fighter (T36).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WoundRoll {
    pub unit: UnitRef,
    pub who: Who,
    pub damage: Fixed,
    pub hp: Fixed,
    /// damage / hp, in hundredths of a percent.
    pub chance: u32,
    pub destroyed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capture {
    pub from: UnitRef,
    pub troop: TroopCode,
    pub to: UnitRef,
}

/// A leader's skill that rose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Improvement {
    pub unit: UnitRef,
    pub leader: String,
    pub skill: Skill,
    pub to: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Skill {
    Infantry,
    Cavalry,
    Siege,
    Naval,
}

impl BattleReport {
    /// The kingdoms that fought.
    pub fn kingdoms(&self) -> Vec<KingdomCode> {
        let mut v: Vec<KingdomCode> = self.sides.iter().flatten().cloned().collect();
        v.sort();
        v.dedup();
        v
    }

    /// The kingdoms of the winning sides.
    pub fn winning_kingdoms(&self) -> Vec<KingdomCode> {
        let mut v: Vec<KingdomCode> = self
            .winners
            .iter()
            .filter_map(|i| self.sides.get(*i))
            .flatten()
            .cloned()
            .collect();
        v.sort();
        v
    }

    pub fn unit(&self, r: &UnitRef) -> Option<&UnitReport> {
        self.units.iter().find(|u| &u.unit == r)
    }

    /// Fighters of a unit lost in the battle, counting the rounds, its retreat, the end and
    /// the aftermath.
    pub fn lost(&self, r: &UnitRef) -> u32 {
        let rounds = self
            .rounds
            .iter()
            .flat_map(|x| {
                x.casualties
                    .iter()
                    .flatten()
                    .chain(x.retreats.iter().map(|t| &t.losses))
            })
            .chain(self.final_losses.iter())
            .filter(|l| &l.unit == r)
            .flat_map(|l| l.killed.iter())
            .map(|k| k.count)
            .sum::<u32>();
        let wounds = self
            .aftermath
            .iter()
            .filter(|w| &w.unit == r && w.destroyed)
            .count() as u32;
        rounds + wounds
    }
}
