//! The game's tables as data: the troop roster and the fortification levels (authored:
//! the rulebook's own tables are lost, decisions G1-G3), and the settings that settle the
//! rulebook's gaps and conflicts (every G-decision with a number or a choice in it).

use crate::fixed::{Fixed, Gold};
use crate::ids::TroopCode;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How a troop fights and which bonuses apply to it (digest 2.4 "Tactics type").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TroopClass {
    /// Infantry: the leader's infantry tactics and the fortification's foot bonus.
    Foot,
    /// Cavalry: cavalry tactics and the mounted bonus.
    Mounted,
    /// Siege machines: no tactics type, so no fortification or leader bonus; siege power.
    Artillery,
    /// Ships: naval tactics; they sail, carry soldiers and fight at sea.
    Ship,
}

/// One row of the troop roster (digest 2.4, G1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TroopType {
    pub code: TroopCode,
    pub name: String,
    pub class: TroopClass,
    /// The "Marine" type of infantry: no penalty at sea or when landing.
    #[serde(default)]
    pub marine: bool,
    /// Percent chance that one attack causes one damage.
    pub combat: u32,
    pub attacks: u32,
    #[serde(with = "decimal")]
    pub hp: Fixed,
    pub mp: u8,
    #[serde(with = "decimal")]
    pub cost: Gold,
    #[serde(with = "decimal")]
    pub upkeep: Gold,
    /// Soldiers: what they weigh aboard ship. Ships: 0.
    #[serde(default)]
    pub weight: u32,
    /// Ships: what they carry.
    #[serde(default)]
    pub storage: u32,
    /// Ships: the weight of soldiers that can fight aboard as marines.
    #[serde(default)]
    pub marine_capacity: u32,
    /// Percent added to combat in a sea battle (infantry -30, cavalry -50).
    #[serde(default)]
    pub marine_mod: i32,
    /// Percent added to combat in the phase of an amphibious landing.
    #[serde(default)]
    pub amphib_mod: i32,
    /// Percent chance, once a battle, of one more level of damage to a fortification.
    #[serde(default)]
    pub siege: u32,
    /// Room on the walls a troop takes to fight from a fortification.
    #[serde(default)]
    pub fighting_room: u32,
    /// Percent chance that a casualty is captured by the victors.
    #[serde(default)]
    pub capture: u32,
}

impl TroopType {
    pub fn is_ship(&self) -> bool {
        self.class == TroopClass::Ship
    }

    pub fn is_soldier(&self) -> bool {
        !self.is_ship()
    }

    /// Attacks × combat: what one troop adds to its unit's total combat (T2).
    pub fn total_combat(&self) -> u32 {
        self.attacks * self.combat
    }

    /// What salvaging one gives back: a third of its cost for ships and siege machines
    /// (rule 7.5 item 5), nothing for other soldiers.
    pub fn salvage(&self) -> Gold {
        match self.class {
            TroopClass::Ship | TroopClass::Artillery => self.cost.ratio(1, 3),
            _ => Gold::ZERO,
        }
    }
}

/// One level of fortification (digest 7.7, G2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FortLevel {
    pub level: u8,
    pub name: String,
    pub fighting_room: u32,
    pub foot_combat: u32,
    #[serde(with = "decimal")]
    pub foot_hp: Fixed,
    pub mounted_combat: u32,
    #[serde(with = "decimal")]
    pub mounted_hp: Fixed,
    pub workers: u32,
    #[serde(with = "decimal")]
    pub gold: Gold,
    #[serde(with = "decimal")]
    pub raze: Gold,
}

/// The roster and the fortification levels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tables {
    pub troops: BTreeMap<TroopCode, TroopType>,
    /// Index 0 is level 1.
    pub fortifications: Vec<FortLevel>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TablesFile {
    troop: Vec<TroopType>,
    fortification: Vec<FortLevel>,
}

impl Tables {
    /// The authored tables shipped with the game (`data/tables.toml`).
    pub fn standard() -> Tables {
        Tables::parse(include_str!("../data/tables.toml"))
            .expect("the shipped tables are valid; a test checks them")
    }

    /// Reads tables from TOML, checking what the rules need of them.
    pub fn parse(text: &str) -> Result<Tables, String> {
        let de = toml::Deserializer::parse(text).map_err(|e| e.to_string())?;
        let file: TablesFile = serde_path_to_error::deserialize(de)
            .map_err(|e| format!("{}: {}", e.path(), e.inner()))?;
        let mut troops = BTreeMap::new();
        for t in file.troop {
            if t.mp > 4 {
                // Digest 0: "the most Move-points you can possibly have is four".
                return Err(format!(
                    "troop {}: at most 4 move points, not {}",
                    t.code, t.mp
                ));
            }
            if t.attacks == 0 || t.attacks > 8 {
                return Err(format!(
                    "troop {}: 1 to 8 attacks, not {}",
                    t.code, t.attacks
                ));
            }
            if t.hp <= Fixed::ZERO {
                return Err(format!("troop {}: hit points must be above 0", t.code));
            }
            let code = t.code.clone();
            if troops.insert(code.clone(), t).is_some() {
                return Err(format!("troop {code} is listed twice"));
            }
        }
        for (i, f) in file.fortification.iter().enumerate() {
            if usize::from(f.level) != i + 1 {
                return Err(format!(
                    "fortification levels must run 1, 2, 3, ...: found {} in place {}",
                    f.level,
                    i + 1
                ));
            }
        }
        Ok(Tables {
            troops,
            fortifications: file.fortification,
        })
    }

    pub fn troop(&self, code: &TroopCode) -> Option<&TroopType> {
        self.troops.get(code)
    }

    /// The row for a level (1-based); None for level 0 or beyond the table.
    pub fn fort(&self, level: u8) -> Option<&FortLevel> {
        usize::from(level)
            .checked_sub(1)
            .and_then(|i| self.fortifications.get(i))
    }
}

/// The settings behind the decisions the rulebook leaves open. Every field names its
/// decision; a game is created with the defaults and keeps its settings in its state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// G4: revenue in percent at damage 0, 1, 2 and 3 (only 65 % at level 2 survives).
    pub damage_revenue: [i64; 4],
    /// Gold decay per turn, percent (L9).
    pub decay_percent: i64,
    /// Send-gold fee, percent of the amount (L2).
    pub send_gold_fee_percent: i64,
    /// The sender's garrison must be within this many locations of the recipient's (L2).
    pub send_gold_reach: u32,
    /// Chance in percent that an unpaid troop is lost (L3).
    pub unpaid_loss_percent: u32,
    /// Turns a province may stay owned by someone other than its annexer (L7, G25).
    pub annex_decline_turns: u32,
    /// Annexed-province limits beyond the starting provinces (2.10).
    pub commoner_annex_limit: u32,
    pub royalty_annex_limit: u32,
    /// Income of a suitable proclamation (L13).
    pub proclamation_income: i64,
    /// G27: what hiring a leader costs, and the chance in percent of a naval skill.
    pub leader_cost: i64,
    pub admiral_percent: u32,
    /// Harbour: gold to build, gold razing gives (the rulebook gives neither).
    pub harbour_cost: i64,
    pub harbour_raze: i64,
    /// G32: chance in percent that a captured province loses its harbour.
    pub harbour_loss_percent: u32,
    /// Minimum total combat to take a province (M13) or to pillage (M14).
    pub conquest_combat: u32,
    pub pillage_combat: u32,
    /// G8: move points spent by building, razing, repairing, pillaging, preparing to board.
    pub action_mp: u8,
    /// G37: the safety stop on movement phases.
    pub max_phases: u8,
    /// G45: refuse a load heavier than the free storage itself, rather than 150 % of it.
    pub strict_load_limit: bool,
    /// G16: a fleet that fought a sea battle stops for the turn (the FAQ's reading).
    pub sea_battle_stops_fleet: bool,
    /// G15: marines lost in a sea battle are replaced from the soldiers aboard.
    pub marines_replaced: bool,
    /// G21: the divisor of the leader's tactics bonus when a fortification is involved.
    pub leader_fort_divisor: i64,
    /// G5: the share of all provinces, in percent, a surviving alliance must hold to win.
    pub victory_province_percent: u32,
    /// G5: or the share, in percent, of the map's total revenue (the provinces' maximum
    /// revenue) its provinces must be worth; 0 leaves this way of winning off.
    pub victory_revenue_percent: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            damage_revenue: [100, 85, 65, 40],
            decay_percent: 7,
            send_gold_fee_percent: 10,
            send_gold_reach: 7,
            unpaid_loss_percent: 50,
            annex_decline_turns: 3,
            commoner_annex_limit: 4,
            royalty_annex_limit: 40,
            proclamation_income: 7,
            leader_cost: 20,
            admiral_percent: 25,
            harbour_cost: 20,
            harbour_raze: 4,
            harbour_loss_percent: 10,
            conquest_combat: 10,
            pillage_combat: 10,
            action_mp: 1,
            max_phases: 30,
            strict_load_limit: false,
            sea_battle_stops_fleet: false,
            marines_replaced: true,
            leader_fort_divisor: 200,
            victory_province_percent: 50,
            victory_revenue_percent: 0,
        }
    }
}

impl Settings {
    /// Revenue multiplier in percent for a damage level (G4), clamped to 0..=3.
    pub fn revenue_percent(&self, damage: u8) -> i64 {
        self.damage_revenue[usize::from(damage.min(3))]
    }
}

/// Decimal numbers written as strings in data files ("1.1"), read exactly.
mod decimal {
    use crate::fixed::Fixed;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Fixed, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Fixed, D::Error> {
        let text = String::deserialize(d)?;
        Fixed::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "expected a number with at most two decimals, in quotes, found {text:?}"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_tables_keep_every_figure_the_rulebook_fixes() {
        let t = Tables::standard();
        let get = |c: &str| t.troop(&TroopCode(c.into())).unwrap();
        assert_eq!(get("LIN").mp, 2, "infantry 2 MP (7.9)");
        assert_eq!(get("LCV").mp, 3, "cavalry 3 MP (7.9)");
        assert_eq!(get("LCV").hp, Fixed::whole(3), "cavalry 3 HP (7.9)");
        assert_eq!(get("GRE").hp, Fixed::whole(2), "Man-at-Arms 2 HP (7.9)");
        assert_eq!((get("WAR").storage, get("WAR").marine_capacity), (4, 4));
        assert_eq!((get("TRN").storage, get("TRN").marine_capacity), (4, 0));
        assert_eq!(
            (get("WAR").capture, get("TRN").capture, get("ART").capture),
            (10, 20, 20)
        );
        assert_eq!(get("ART").siege, 50);
        assert!(
            get("ART").total_combat() < 10,
            "a lone siege machine cannot conquer"
        );
        assert!(t.troops.values().all(|x| x.mp <= 4));
        assert_eq!(t.fort(2).unwrap().foot_combat, 47);
        assert_eq!(t.fort(3).unwrap().foot_hp, Fixed(130));
        assert_eq!(t.fort(3).unwrap().mounted_hp, Fixed(50));
        assert_eq!(t.fort(2).unwrap().gold, Fixed::whole(14));
        assert_eq!(t.fort(2).unwrap().workers, 3);
        assert!(t.fortifications.iter().all(|f| f.raze == Fixed::whole(4)));
        assert!(t.fort(0).is_none() && t.fort(9).is_none());
    }

    #[test]
    fn salvage_is_a_third_of_the_cost_for_ships_and_siege_machines_only() {
        let t = Tables::standard();
        let get = |c: &str| t.troop(&TroopCode(c.into())).unwrap();
        assert_eq!(get("WAR").salvage(), Fixed::whole(10));
        assert_eq!(get("ART").salvage(), Fixed::whole(5));
        assert_eq!(get("LIN").salvage(), Fixed::ZERO);
    }

    #[test]
    fn bad_tables_are_refused_with_a_reason() {
        let fast = include_str!("../data/tables.toml").replace("mp = 4", "mp = 5");
        assert!(
            Tables::parse(&fast)
                .unwrap_err()
                .contains("at most 4 move points")
        );
        let typo = include_str!("../data/tables.toml").replace("upkeep = \"0.5\"", "upkeep = 0.5");
        assert!(Tables::parse(&typo).unwrap_err().contains("upkeep"));
    }

    #[test]
    fn revenue_falls_with_damage_and_level_two_is_sixty_five_percent() {
        let s = Settings::default();
        assert_eq!(s.revenue_percent(2), 65);
        assert_eq!(s.revenue_percent(9), 40);
    }
}
