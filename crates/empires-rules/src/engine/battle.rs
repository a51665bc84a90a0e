//! The battle arithmetic of section 8, as pure functions of the forces involved. Losses are
//! always rounded down and never carried as fractions (8.2, 13.2).

use crate::event::{AirFight, SeaFight};
use crate::terrain::Terrain;

/// 8.1: losses of a single round between two forces of ships: each side loses a third of
/// the other's number, and the weaker also a third of the difference. Capped at what each
/// side has.
pub fn sea_losses(attacker: u32, defender: u32) -> (u32, u32) {
    let (a, d) = sea_hits(attacker, defender);
    (a.min(attacker), d.min(defender))
}

/// 8.1, 8.5: the hits each side takes at sea, before capping at the ships present; in a
/// land battle what the ships cannot absorb carries over to the land phase.
fn sea_hits(attacker: u32, defender: u32) -> (u32, u32) {
    let (mut a, mut d) = (defender / 3, attacker / 3);
    if attacker < defender {
        a += (defender - attacker) / 3;
    } else if defender < attacker {
        d += (attacker - defender) / 3;
    }
    (a, d)
}

/// Entrenchment of the defender relative to the attack (8.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entrenched {
    No,
    /// Entrenched on the border the attack comes across: defence doubled.
    Facing,
    /// Entrenched elsewhere: defence halved.
    Elsewhere,
}

/// Everything a land battle depends on.
#[derive(Debug, Clone)]
pub struct LandInput {
    pub attackers: u32,
    /// Air strength the attacker could bring (its air force); World Empires only.
    pub attacker_air: u32,
    /// Commissioned ships of the attacker's fleet, when attacking from the sea.
    pub attacker_ships: u32,
    /// Every army aboard that fleet, the attacking ones included (8.1, 8.5).
    pub attacker_aboard: u32,
    pub defenders: u32,
    pub forts: u32,
    pub population: u32,
    pub terrain: Terrain,
    pub entrenched: Entrenched,
    /// An ambush set against the area the attack comes from (8.11).
    pub ambush: bool,
    /// The defender's whole air force; World Empires only.
    pub defender_air: u32,
    /// Commissioned ships in the area's base, when attacked from the sea (8.5).
    pub defender_ships: u32,
    /// The defender is in RETREAT mode with a usable retreat location (8.7).
    pub may_retreat: bool,
    /// Whether air forces take part (1.7).
    pub air_rules: bool,
    /// Whether the attack comes from the sea (8.5).
    pub from_sea: bool,
}

/// Everything a land battle produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LandResult {
    pub air: Option<AirFight>,
    pub sea: Option<SeaFight>,
    pub retreated: bool,
    pub attack_strength: u32,
    pub defence_strength: u32,
    pub attacker_lost: u32,
    pub defender_lost: u32,
    pub ambushed: bool,
    /// Attacking armies lost after the sea phase because too few ships were left to carry
    /// them (8.1, 8.5; decisions 31 and 33). They do not fight the land phase.
    pub lost_at_sea: u32,
    /// Collateral damage (8.13): population and fort levels destroyed.
    pub damage: u32,
    pub population_lost: u32,
    pub forts_lost: u32,
    pub captured: bool,
    /// Attacking armies left standing at the end.
    pub survivors: u32,
    /// Defending armies left in the area (0 after a retreat).
    pub defenders_left: u32,
    /// Aircraft lost by each side, air phase and anti-aircraft fire together.
    pub attacker_air_lost: u32,
    pub defender_air_lost: u32,
}

/// The land phase alone (8.8-8.12), given hits carried over from earlier phases.
struct LandPhase {
    attack: u32,
    defence: u32,
    attacker_lost: u32,
    defender_lost: u32,
    ambushed: bool,
}

fn land_phase(
    i: &LandInput,
    attack: u32,
    defenders: u32,
    carry_to_att: u32,
    carry_to_def: u32,
) -> LandPhase {
    // 8.9 (decision 10): armies + the lesser of armies and forts + the terrain's bonus.
    let mut defence = defenders + defenders.min(i.forts) + i.terrain.defence_bonus();
    // 8.10: doubled facing the attack, halved (rounded down) otherwise; only with armies.
    if defenders > 0 {
        match i.entrenched {
            Entrenched::Facing => defence *= 2,
            Entrenched::Elsewhere => defence /= 2,
            Entrenched::No => {}
        }
    }
    // 8.8: each side loses a third of the other's strength plus hits carried over; the
    // weaker also loses a third of the difference.
    let mut att_lost = carry_to_att;
    let mut def_lost = attack / 3 + carry_to_def;
    if defenders > 0 {
        // Decision 10: an area with no armies inflicts no losses in the land phase.
        att_lost += defence / 3;
        if attack < defence {
            att_lost += (defence - attack) / 3;
        }
    }
    if defence < attack {
        def_lost += (attack - defence) / 3;
    }
    // 8.11: an ambush costs the attacker one extra army, if anyone is there to spring it.
    let ambushed = i.ambush && defenders > 0;
    if ambushed {
        att_lost += 1;
    }
    // 8.12: difficult terrain spares the defender one loss.
    if i.terrain.is_difficult() {
        def_lost = def_lost.saturating_sub(1);
    }
    LandPhase {
        attack,
        defence,
        attacker_lost: att_lost.min(attack),
        defender_lost: def_lost.min(defenders),
        ambushed,
    }
}

/// 8.13 (decision 12): a third of the defending armies destroyed, but at least one.
fn collateral(defenders_destroyed: u32) -> u32 {
    (defenders_destroyed / 3).max(1)
}

/// 8.14: the attacker captures if no defending army is left and more attackers survive
/// than there is population.
fn captures(survivors: u32, defenders_left: u32, population_after: u32) -> bool {
    defenders_left == 0 && survivors > population_after
}

/// Fights a land battle through its air, sea, land and control phases (8.2-8.14).
pub fn land_battle(i: &LandInput) -> LandResult {
    let (mut carry_att, mut carry_def) = (0u32, 0u32);
    let (mut att_air_lost, mut def_air_lost) = (0u32, 0u32);
    let mut air = None;
    if i.air_rules {
        // 4.14: air strength is limited by the forces on the ground.
        let a_air = i.attacker_air.min(i.attackers);
        let mut d_air = i.defender_air.min(i.defenders + i.forts + i.population);
        let a_hits = a_air / 3;
        // 8.4: a defending air force that would all be shot down, with hits to spare,
        // stays on the ground.
        if a_hits > d_air {
            d_air = 0;
        }
        if a_air > 0 || d_air > 0 {
            let d_hits = d_air / 3;
            // 8.3: each side loses a third of the other's air strength; extra hits carry on.
            def_air_lost = a_hits.min(d_air);
            att_air_lost = d_hits.min(a_air);
            carry_def = a_hits - def_air_lost;
            carry_att = d_hits - att_air_lost;
            air = Some(AirFight {
                attacker_air: a_air,
                defender_air: d_air,
                attacker_lost: att_air_lost,
                defender_lost: def_air_lost,
                carried_to_defender: carry_def,
                carried_to_attacker: carry_att,
            });
        }
    }
    let mut sea = None;
    let mut lost_at_sea = 0;
    if i.from_sea && i.attacker_ships > 0 && i.defender_ships > 0 {
        // 8.5: ships on both sides fight as in 8.1, with air hits carried over added (8.6).
        let (a_lost, d_lost) = sea_hits(i.attacker_ships, i.defender_ships);
        let (a_hits, d_hits) = (d_lost + carry_def, a_lost + carry_att);
        // What the ships cannot absorb carries over to the land phase.
        let a_total = (d_hits).min(i.attacker_ships);
        let d_total = (a_hits).min(i.defender_ships);
        // 8.6: anti-aircraft fire: aircraft that carried hits into this phase lose a third
        // of the opposing naval strength, but no more than the hits they carried.
        // The attacker's aircraft carried `carry_def` hits in; the defender's `carry_att`.
        att_air_lost += (i.defender_ships / 3).min(carry_def);
        def_air_lost += (i.attacker_ships / 3).min(carry_att);
        let next_att = d_hits - a_total;
        let next_def = a_hits - d_total;
        sea = Some(SeaFight {
            attacker_ships: i.attacker_ships,
            defender_ships: i.defender_ships,
            attacker_lost: a_total,
            defender_lost: d_total,
        });
        carry_att = next_att;
        carry_def = next_def;
        // 8.1's last step, which 8.5 plays too (decisions 31, 33): armies beyond the ships
        // left are lost before the land phase, the attacking ones first.
        let ships_left = i.attacker_ships - a_total;
        lost_at_sea = i
            .attacker_aboard
            .max(i.attackers)
            .saturating_sub(ships_left)
            .min(i.attackers);
    }
    let attackers = i.attackers - lost_at_sea;
    if attackers == 0 {
        // Nothing lands, so no land phase is fought and no collateral damage is done
        // (8.13 applies to a land battle); the attack has failed.
        return LandResult {
            air,
            sea,
            retreated: false,
            attack_strength: 0,
            defence_strength: 0,
            attacker_lost: 0,
            defender_lost: 0,
            ambushed: false,
            lost_at_sea,
            damage: 0,
            population_lost: 0,
            forts_lost: 0,
            captured: false,
            survivors: 0,
            defenders_left: i.defenders,
            attacker_air_lost: att_air_lost.min(i.attacker_air),
            defender_air_lost: def_air_lost.min(i.defender_air),
        };
    }
    // 8.7 (decision 11): fight the land phase as if the defenders stood; they retreat only
    // if they would lose more than the attacker and the area would fall anyway.
    let stand = land_phase(i, attackers, i.defenders, carry_att, carry_def);
    let mut retreated = false;
    let phase = if i.may_retreat && i.defenders > 0 {
        let damage = collateral(stand.defender_lost);
        let pop_after = i.population.saturating_sub(damage);
        let falls = captures(
            attackers - stand.attacker_lost,
            i.defenders - stand.defender_lost,
            pop_after,
        );
        if stand.defender_lost > stand.attacker_lost && falls {
            retreated = true;
            land_phase(i, attackers, 0, carry_att, carry_def)
        } else {
            stand
        }
    } else {
        stand
    };
    let defenders_present = if retreated { 0 } else { i.defenders };
    let defenders_left = defenders_present - phase.defender_lost;
    let damage = collateral(phase.defender_lost);
    let population_lost = damage.min(i.population);
    let forts_lost = damage.min(i.forts);
    let survivors = attackers - phase.attacker_lost;
    let captured = captures(survivors, defenders_left, i.population - population_lost);
    LandResult {
        air,
        sea,
        retreated,
        attack_strength: phase.attack,
        defence_strength: phase.defence,
        attacker_lost: phase.attacker_lost,
        defender_lost: phase.defender_lost,
        ambushed: phase.ambushed,
        lost_at_sea,
        damage,
        population_lost,
        forts_lost,
        captured,
        survivors,
        defenders_left,
        attacker_air_lost: att_air_lost.min(i.attacker_air),
        defender_air_lost: def_air_lost.min(i.defender_air),
    }
}
