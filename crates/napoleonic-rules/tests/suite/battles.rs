//! Land and border battles (digest 4.1-4.5, 4.7, 9.3 T34-T49; decisions G17-G22, G44,
//! G46-G48). Most tests build a battle by hand and script the dice (`battle::Scripted`) so
//! that every hit, siege roll and wound is known; the rest play the turn's steps on the
//! small test map, muster a battle from the state as M12 does, or play whole turns.

use crate::battle_support::*;
use crate::moves_support;

use moves_support::*;
use napoleonic_rules::Fixed;
use napoleonic_rules::battle::engine::{Battle, Setup, Slot};
use napoleonic_rules::battle::land::{self, Learned};
use napoleonic_rules::battle::report::{Skill, Who};
use napoleonic_rules::battle::{BattleKind, BattleReport, Draw, Scripted};
use napoleonic_rules::event::{MoveStep, What};
use napoleonic_rules::ids::LocId;
use napoleonic_rules::orders::HqOrder;
use napoleonic_rules::state::{Leader, Unit};
use napoleonic_rules::tables::Tables;
use napoleonic_rules::turn::Turn;

// ---------------------------------------------------------------------------------------
// Building battles by hand.

/// Extra troop types for the worked examples: a sapper of siege power 30 (T4), the
/// rulebook's fantasy Elephant Rider and Dwarf Militia (T35), a troop of 2.1 hit points
/// (T13), a strong one to test the cap (G22) and a leaderless harmless one.
const EXTRA: &str = r#"
[[troop]]
code = "SAP"
name = "Sappers"
class = "foot"
combat = 30
attacks = 2
hp = "1"
mp = 2
cost = "8"
upkeep = "1"
siege = 30
fighting_room = 2

[[troop]]
code = "ELE"
name = "Elephant Rider"
class = "mounted"
combat = 50
attacks = 2
hp = "4"
mp = 3
cost = "20"
upkeep = "1"
fighting_room = 4

[[troop]]
code = "DWM"
name = "Dwarf Militia"
class = "foot"
combat = 40
attacks = 1
hp = "2"
mp = 2
cost = "5"
upkeep = "1"
fighting_room = 2

[[troop]]
code = "TOU"
name = "Tough Infantry"
class = "foot"
combat = 30
attacks = 2
hp = "2.1"
mp = 2
cost = "8"
upkeep = "1"
fighting_room = 2

[[troop]]
code = "GUA"
name = "Old Guard"
class = "foot"
combat = 80
attacks = 2
hp = "2"
mp = 2
cost = "30"
upkeep = "2"
fighting_room = 2

[[troop]]
code = "DUM"
name = "Dummies"
class = "foot"
combat = 0
attacks = 1
hp = "1"
mp = 2
cost = "1"
upkeep = "0"
fighting_room = 2
"#;

fn tables() -> Tables {
    tables_with(EXTRA)
}

/// A unit with troops given as (type, count, rank).
fn unit(owner: &str, id: &str, troops: &[(&str, u32, u8)]) -> Unit {
    unit_at(owner, id, troops, LocId(1), 2)
}

fn general(name: &str, infantry: u32, cavalry: u32, siege: u32) -> Leader {
    Leader {
        name: name.to_string(),
        hp: Fixed::whole(2),
        combat: 30,
        attacks: 2,
        infantry,
        cavalry,
        siege,
        naval: 0,
        upkeep: Fixed::whole(2),
        damage: Fixed::ZERO,
    }
}

fn led(mut x: Unit, l: Leader) -> Unit {
    x.leaders.push(l);
    x.unit_leader = Some(x.leaders.len() - 1);
    x
}

fn stay() -> Setup {
    Setup::default()
}

fn free(to: &[u16]) -> Setup {
    Setup {
        may_retreat: true,
        destinations: to.iter().map(|x| LocId(*x)).collect(),
        ..Setup::default()
    }
}

/// The chances asked of one kind of draw, in order.
fn asked(d: &Scripted, draw: Draw) -> Vec<u32> {
    d.log.iter().filter(|x| x.0 == draw).map(|x| x.1).collect()
}

fn alive(b: &Battle, ui: usize) -> usize {
    b.fighters
        .iter()
        .filter(|f| f.unit == ui && !f.dead)
        .count()
}

fn killed_in(rep: &BattleReport, round: usize, unit: (&str, &str)) -> u32 {
    rep.rounds[round - 1]
        .casualties
        .iter()
        .flatten()
        .filter(|l| l.unit == (k(unit.0), u(unit.1)))
        .flat_map(|l| l.killed.iter())
        .map(|x| x.count)
        .sum()
}

// ---------------------------------------------------------------------------------------
// The chance of one attack (4.2, 4.7, G21, G22).

#[test]
fn t7_t8_t9_t10_g22_modifiers_multiply_and_the_chance_is_capped_at_99() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.set_fort(5, 3, &t); // T6: level 5 with 3 damage is level 2
    let a = b.add_unit(
        0,
        &led(
            unit("FRA", "A1", &[("LIN", 1, 1)]),
            general("Ney", 46, 20, 0),
        ),
        &t,
        stay(),
    );
    b.add_unit(
        0,
        &led(
            unit("FRA", "A2", &[("CUI", 1, 1)]),
            general("Murat", 0, 20, 0),
        ),
        &t,
        stay(),
    );
    b.add_unit(
        0,
        &led(
            unit("FRA", "A3", &[("GUA", 1, 1)]),
            general("Davout", 100, 0, 0),
        ),
        &t,
        stay(),
    );
    b.add_unit(
        1,
        &unit("AUS", "A1", &[("LIN", 1, 1)]),
        &t,
        Setup {
            amphibious: true,
            ..stay()
        },
    );
    let fi = |unit: usize| b.fighters.iter().position(|f| f.unit == unit).unwrap();
    assert_eq!(a, 0);
    // T7: 30 + 30 × 46 / 200 = 36.9 %.
    assert_eq!(b.chance(fi(0), false), 3_690);
    // T8 (per attack, mounted tactic 20): 40 + 40 × 20 / 200 = 44.
    assert_eq!(b.chance(fi(1), false), 4_400);
    // T10: 40 × 1.47 = 58.8 at effective level 2, kept with its fraction (G22, G43).
    // The leader's bonus and the fortification's multiply: 36.9 × 1.47 = 54.24.
    assert_eq!(b.chance(fi(0), true), 5_424);
    // The cavalry bonus is much smaller: 44 × 1.15 = 50.6.
    assert_eq!(b.chance(fi(1), true), 5_060);
    // T9, G22: 80 + 80 × 100 / 200 = 120 → 99.
    assert_eq!(b.chance(fi(2), false), 9_900);
    // The amphibious modifier in the landing phase: 30 × 0.7 = 21.
    assert_eq!(b.chance(fi(3), false), 2_100);
}

#[test]
fn t49_each_leader_modifies_only_his_own_unit_and_leaders_get_no_modifier() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(
        0,
        &led(
            unit("FRA", "A1", &[("LIN", 1, 1)]),
            general("Ney", 40, 0, 0),
        ),
        &t,
        stay(),
    );
    b.add_unit(
        0,
        &led(
            unit("FRA", "A2", &[("LIN", 1, 1)]),
            general("Soult", 80, 0, 0),
        ),
        &t,
        stay(),
    );
    b.add_unit(
        0,
        &unit("FRA", "A3", &[("LIN", 1, 1), ("ART", 1, 1)]),
        &t,
        stay(),
    );
    let chances: Vec<u32> = (0..b.fighters.len())
        .filter(|&i| matches!(b.fighters[i].slot, Slot::Troop(_)))
        .map(|i| b.chance(i, false))
        .collect();
    // 30 + 6, 30 + 12, 30 without a leader; artillery has no tactics type: 4.
    assert_eq!(chances, vec![3_600, 4_200, 3_000, 400]);
    let leader = b
        .fighters
        .iter()
        .position(|f| matches!(f.who, Who::Leader(_)))
        .unwrap();
    assert_eq!(
        b.chance(leader, true),
        3_000,
        "a leader fights on his own combat"
    );
}

// ---------------------------------------------------------------------------------------
// Siege (2.6, 4.2 step 1, G47).

#[test]
fn t4_a_siege_troop_rolls_sp_plus_sp_times_siegecraft_over_200() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.set_fort(2, 0, &t);
    b.add_unit(
        0,
        &led(
            unit("FRA", "A1", &[("SAP", 1, 1)]),
            general("Vauban", 0, 0, 42),
        ),
        &t,
        Setup {
            besieges: true,
            ..stay()
        },
    );
    b.add_unit(
        1,
        &unit("AUS", "G4", &[("MIL", 1, 1)]),
        &t,
        Setup {
            wants_to_defend: true,
            ..stay()
        },
    );
    let mut d = Scripted::new(1).chances(Draw::Siege, [false]);
    let rep = b.fight(&mut d);
    assert_eq!(
        asked(&d, Draw::Siege),
        vec![3_630],
        "30 + 30 × 42 / 200 = 36.3 %"
    );
    assert_eq!(rep.siege.len(), 1);
    assert_eq!((rep.siege[0].chance, rep.siege[0].success), (3_630, false));
}

#[test]
fn t5_each_siege_troop_rolls_once_before_round_one_and_damage_stops_at_the_level() {
    let t = tables();
    let setup = |b: &mut Battle| {
        b.set_fort(2, 0, &t);
        b.add_unit(
            0,
            &unit("FRA", "A1", &[("ART", 3, 1), ("LIN", 4, 1)]),
            &t,
            Setup {
                besieges: true,
                ..stay()
            },
        );
        b.add_unit(
            1,
            &unit("AUS", "G4", &[("LIN", 2, 1)]),
            &t,
            Setup {
                wants_to_defend: true,
                ..stay()
            },
        );
    };
    // Three misses: three rolls of 50 %, all before the first attack, and none later.
    let mut b = duel(BattleKind::Land);
    setup(&mut b);
    let mut d = Scripted::new(2).chances(Draw::Siege, [false, false, false]);
    let rep = b.fight(&mut d);
    assert_eq!(asked(&d, Draw::Siege), vec![5_000; 3]);
    let first_hit = d.log.iter().position(|x| x.0 == Draw::Hit).unwrap();
    let last_siege = d.log.iter().rposition(|x| x.0 == Draw::Siege).unwrap();
    assert!(last_siege < first_hit, "siege comes before round 1");
    assert!(rep.rounds.len() >= 2);
    let f = rep.fortification.as_ref().unwrap();
    assert_eq!((f.damage_before, f.damage_after, f.defended), (0, 0, true));
    assert!(rep.units[1].defends);

    // Two successes ruin a level-2 fortification: the third troop has nothing left to
    // damage, and the defenders fight without the fortification (effective level 0).
    let mut b = duel(BattleKind::Land);
    setup(&mut b);
    let mut d = Scripted::new(2).chances(Draw::Siege, [true, true, true]);
    let rep = b.fight(&mut d);
    assert_eq!(asked(&d, Draw::Siege).len(), 2);
    assert_eq!(d.unused(Draw::Siege), 1);
    let f = rep.fortification.as_ref().unwrap();
    assert_eq!((f.damage_after, f.defended), (2, false));
    assert!(!rep.units[1].defends);
    assert!(b.fighters.iter().all(|x| x.bonus_hp == Fixed::ZERO));
    assert_eq!(b.fort.as_ref().unwrap().damage, 2);
    assert!(b.units[0].damaged_fort);
}

#[test]
fn siege_is_never_rolled_in_a_border_battle() {
    let t = tables();
    let mut b = duel(BattleKind::Border);
    b.set_fort(3, 0, &t);
    b.add_unit(
        0,
        &unit("FRA", "A1", &[("ART", 3, 1)]),
        &t,
        Setup {
            besieges: true,
            ..stay()
        },
    );
    b.add_unit(
        1,
        &unit("AUS", "A1", &[("LIN", 1, 1)]),
        &t,
        Setup {
            wants_to_defend: true,
            ..stay()
        },
    );
    let mut d = Scripted::new(3);
    let rep = b.fight(&mut d);
    assert!(b.fort.is_none() && rep.fortification.is_none());
    assert!(asked(&d, Draw::Siege).is_empty() && rep.siege.is_empty());
    assert!(!rep.units[1].defends);
}

// ---------------------------------------------------------------------------------------
// The fortification's bonuses (G20, G48, T11, T12).

#[test]
fn g20_defenders_within_the_fighting_room_get_the_combat_and_hit_point_bonus() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.set_fort(2, 0, &t); // Hillfort: room 12, foot +47 % and +1, mounted +15 % and +0.4
    b.add_unit(0, &unit("FRA", "A1", &[("LIN", 2, 1)]), &t, stay());
    b.add_unit(
        1,
        &unit("AUS", "G4", &[("LIN", 2, 1), ("LCV", 1, 1), ("ART", 1, 1)]),
        &t,
        Setup {
            wants_to_defend: true,
            ..stay()
        },
    );
    let mut d = Scripted::new(4).chances(Draw::Hit, hits(0, 4));
    b.fight(&mut d);
    // Room 2 + 2 + 4 = 8 fits in 12: nothing is drawn, everyone with a tactics type holds.
    assert!(asked(&d, Draw::FortRoom).is_empty());
    let bonus: Vec<Fixed> = b
        .fighters
        .iter()
        .filter(|f| f.unit == 1)
        .map(|f| f.bonus_hp)
        .collect();
    assert_eq!(
        bonus,
        vec![Fixed::whole(1), Fixed::whole(1), Fixed(40), Fixed::ZERO]
    );
    // Attackers roll 30 %; the defenders' foot 44.1 %, cavalry 34.5 %, artillery 4 %.
    let first: Vec<u32> = d
        .log
        .iter()
        .filter(|x| x.0 == Draw::Hit)
        .take(10)
        .map(|x| x.1)
        .collect();
    assert_eq!(
        first,
        vec![
            3_000, 3_000, 3_000, 3_000, 4_410, 4_410, 4_410, 4_410, 3_450, 3_450
        ]
    );
    assert_eq!(
        d.log.iter().filter(|x| x.0 == Draw::Hit).nth(10).unwrap().1,
        400
    );
}

#[test]
fn t12_g20_g48_the_room_is_shared_by_every_defender_and_drawn_each_round() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.set_fort(2, 0, &t); // room 12: six infantry
    b.add_unit(0, &unit("FRA", "A1", &[("DUM", 1, 1)]), &t, stay());
    let setup = Setup {
        wants_to_defend: true,
        ..stay()
    };
    b.add_unit(1, &unit("AUS", "G4", &[("LIN", 4, 1)]), &t, setup.clone());
    b.add_unit(1, &unit("AUS", "A1", &[("LIN", 4, 1)]), &t, setup);
    b.max_rounds = 3;
    let mut d = Scripted::new(5).chances(Draw::Hit, hits(0, 48));
    let rep = b.fight(&mut d);
    assert!(rep.stopped);
    // G20: the hit-point bonus goes once to six of the eight; G48: pooled over both units.
    let holders: Vec<usize> = b
        .fighters
        .iter()
        .filter(|f| f.bonus_hp > Fixed::ZERO)
        .map(|f| f.unit)
        .collect();
    assert_eq!(holders.len(), 6);
    // The draws: 7 for the hit-point bonus, then 7 each round for the combat bonus, six
    // of the sixteen attacks of a round at 44.1 %, the others at 30 %.
    assert_eq!(asked(&d, Draw::FortRoom).len(), 7 * 4);
    let round1 = &asked(&d, Draw::Hit)[..16];
    assert_eq!(round1.iter().filter(|c| **c == 4_410).count(), 12);
    assert_eq!(round1.iter().filter(|c| **c == 3_000).count(), 4);
}

#[test]
fn t11_a_fort_gives_foot_1_3_and_cavalry_0_5_hit_points() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.set_fort(3, 0, &t);
    b.add_unit(0, &unit("FRA", "A1", &[("LIN", 2, 1)]), &t, stay());
    b.add_unit(
        1,
        &unit("AUS", "G4", &[("LIN", 1, 1), ("LCV", 1, 1)]),
        &t,
        Setup {
            wants_to_defend: true,
            ..stay()
        },
    );
    b.max_rounds = 1;
    let mut d = Scripted::new(6).chances(Draw::Hit, hits(0, 8));
    let rep = b.fight(&mut d);
    let hp: Vec<Fixed> = b
        .fighters
        .iter()
        .filter(|f| f.unit == 1)
        .map(|f| f.max_hp())
        .collect();
    assert_eq!(hp, vec![Fixed(230), Fixed(350)]);
    assert_eq!(rep.units[1].total_hp, Fixed(580));
}

// ---------------------------------------------------------------------------------------
// Casualties (4.2 step 3, T13, T34, T37-T40).

#[test]
fn t34_odd_rounds_carry_damage_and_even_rounds_remove_it() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("LIN", 4, 1)]), &t, stay());
    b.add_unit(1, &unit("AUS", "A1", &[("LIN", 10, 1)]), &t, stay());
    b.max_rounds = 2;
    // Round 1: France 3 hits of 8, Austria 20 misses; round 2: France 4, Austria none.
    let mut d = Scripted::new(7).chances(
        Draw::Hit,
        [hits(3, 5), hits(0, 20), hits(4, 4), hits(0, 20)].concat(),
    );
    let rep = b.fight(&mut d);
    assert!(rep.rounds[0].casualties.is_none(), "round 1 removes no one");
    assert_eq!(rep.rounds[0].status[1].suffered, Fixed::whole(3));
    let lost = &rep.rounds[1].casualties.as_ref().unwrap()[1];
    assert_eq!(
        (lost.damage, killed_in(&rep, 2, ("AUS", "A1"))),
        (Fixed::whole(7), 7)
    );
    assert_eq!(rep.rounds[1].status[1].taken, Fixed::whole(7));
    assert_eq!(alive(&b, 1), 3);
}

#[test]
fn t37_a_troop_hit_to_death_in_an_odd_round_still_attacks_in_the_next() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("GRE", 1, 1)]), &t, stay());
    b.add_unit(1, &unit("AUS", "A1", &[("MIL", 1, 1)]), &t, stay());
    let mut d = Scripted::new(8).chances(
        Draw::Hit,
        [true, true, false, false, false, false, true, false],
    );
    let rep = b.fight(&mut d);
    // The militia took 2 (1 hit point) in round 1 and still attacked in round 2.
    let r2 = &rep.rounds[1];
    let mil = r2
        .caused
        .iter()
        .find(|c| c.unit == (k("AUS"), u("A1")))
        .unwrap();
    assert_eq!((mil.count, mil.damage), (1, 1));
    assert_eq!(r2.status[0].suffered, Fixed::whole(1));
    assert_eq!(killed_in(&rep, 2, ("AUS", "A1")), 1);
    assert_eq!(rep.winning_kingdoms(), vec![k("FRA")]);
}

#[test]
fn t13_fractional_hit_points_take_whole_hits_summed_in_order() {
    for (n, dead, wound) in [
        (3usize, 1u32, Fixed(90)),
        (6, 2, Fixed(180)),
        (7, 3, Fixed::ZERO),
    ] {
        let t = tables();
        let mut b = duel(BattleKind::Land);
        b.add_unit(0, &unit("FRA", "A1", &[("GUA", 4, 1)]), &t, stay());
        b.add_unit(1, &unit("AUS", "A1", &[("TOU", 3, 1)]), &t, stay());
        b.max_rounds = 2;
        let mut d = Scripted::new(9).chances(
            Draw::Hit,
            [hits(n, 8 - n), hits(0, 6), hits(0, 8), hits(0, 6)].concat(),
        );
        let rep = b.fight(&mut d);
        let l = &rep.rounds[1].casualties.as_ref().unwrap()[1];
        assert_eq!(killed_in(&rep, 2, ("AUS", "A1")), dead, "{n} hits");
        assert_eq!(l.remains, wound, "{n} hits");
        assert_eq!(l.killed.first().map(|x| x.hp), Some(Fixed(210)));
    }
}

#[test]
fn t38_three_hits_on_two_men_at_arms_kill_one_and_wound_the_other() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("LIN", 2, 1)]), &t, stay());
    b.add_unit(1, &unit("AUS", "A1", &[("GRE", 2, 1)]), &t, stay());
    b.max_rounds = 2;
    let mut d = Scripted::new(10)
        .chances(
            Draw::Hit,
            [hits(3, 1), hits(0, 4), hits(0, 4), hits(0, 4)].concat(),
        )
        .chances(Draw::Wounded, [false]);
    let rep = b.fight(&mut d);
    assert_eq!(killed_in(&rep, 2, ("AUS", "A1")), 1);
    // The proposal in 9.3: the survivor keeps its wound, with a 1/2 chance in the aftermath.
    assert!(rep.stopped);
    assert_eq!(rep.aftermath.len(), 1);
    assert_eq!(
        (rep.aftermath[0].damage, rep.aftermath[0].chance),
        (Fixed::whole(1), 5_000)
    );
    assert_eq!(alive(&b, 1), 1);
}

#[test]
fn t39_t40_damage_goes_rank_by_rank_over_every_friendly_unit_of_a_side() {
    let t = tables();
    // T39: A only in rank 3, its ally B only in rank 4: A absorbs everything first.
    let mut b = Battle::new(BattleKind::Land, LocId(5), None);
    b.add_side(vec![k("FRA")]);
    b.add_side(vec![k("AUS"), k("GBR")]);
    b.set_enemies(&k("FRA"), &k("AUS"));
    b.set_enemies(&k("FRA"), &k("GBR"));
    b.add_unit(0, &unit("FRA", "A1", &[("GUA", 3, 1)]), &t, stay());
    b.add_unit(1, &unit("GBR", "A1", &[("LIN", 3, 4)]), &t, stay());
    b.add_unit(1, &unit("AUS", "A1", &[("LIN", 3, 3)]), &t, stay());
    b.max_rounds = 2;
    let mut d = Scripted::new(11).chances(
        Draw::Hit,
        [hits(3, 3), hits(0, 12), hits(0, 6), hits(0, 12)].concat(),
    );
    let rep = b.fight(&mut d);
    assert_eq!(killed_in(&rep, 2, ("AUS", "A1")), 3);
    assert_eq!(killed_in(&rep, 2, ("GBR", "A1")), 0);

    // T40: army 1 with five troops in rank 1, army 2 with one in rank 2: army 1 goes first.
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("GUA", 3, 1)]), &t, stay());
    b.add_unit(1, &unit("AUS", "A1", &[("LIN", 5, 1)]), &t, stay());
    b.add_unit(1, &unit("AUS", "A2", &[("LIN", 1, 2)]), &t, stay());
    b.max_rounds = 2;
    let mut d = Scripted::new(12).chances(
        Draw::Hit,
        [hits(5, 1), hits(0, 12), hits(0, 6), hits(0, 12)].concat(),
    );
    let rep = b.fight(&mut d);
    assert_eq!(killed_in(&rep, 2, ("AUS", "A1")), 5);
    assert_eq!(alive(&b, 2), 1);
    assert!(rep.stopped);
}

#[test]
fn t48_a_leader_in_rank_five_falls_last_when_the_rank_is_otherwise_empty() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("GUA", 3, 1)]), &t, stay());
    b.add_unit(
        1,
        &led(
            unit("AUS", "A1", &[("LIN", 2, 1), ("GRE", 1, 4)]),
            general("Mack", 0, 0, 0),
        ),
        &t,
        stay(),
    );
    b.max_rounds = 2;
    // 4 hits: two line infantry (1 each), the grenadiers (2); the leader untouched.
    let mut d = Scripted::new(13).chances(
        Draw::Hit,
        [hits(4, 2), hits(0, 8), hits(0, 6), hits(0, 8)].concat(),
    );
    let rep = b.fight(&mut d);
    assert_eq!(killed_in(&rep, 2, ("AUS", "A1")), 3);
    let leader = b
        .fighters
        .iter()
        .find(|f| matches!(f.who, Who::Leader(_)))
        .unwrap();
    assert!(!leader.dead && leader.wound == Fixed::ZERO);
}

// ---------------------------------------------------------------------------------------
// Retreats (4.2, G17, G18, G46, T41-T43).

#[test]
fn t41_g18_a_retreating_army_takes_the_hits_that_fell_on_it() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("GUA", 3, 1)]), &t, stay());
    b.add_unit(1, &unit("AUS", "A1", &[("MIL", 1, 1)]), &t, stay()); // retreat level 5
    let mut a2 = unit("AUS", "A2", &[("LIN", 3, 2)]);
    a2.retreat_level = 1;
    b.add_unit(1, &a2, &t, free(&[3]));
    // Round 1: 3 hits (the militia absorbs 1, army 2 the other 2); round 2: 2 hits.
    let mut d = Scripted::new(14).chances(Draw::Hit, [hits(3, 3), hits(0, 8), hits(2, 4)].concat());
    let rep = b.fight(&mut d);
    let r1 = &rep.rounds[0];
    assert_eq!(
        r1.retreats.len(),
        1,
        "rank 1 of army 2 is empty: it leaves after round 1"
    );
    let gone = &r1.retreats[0];
    assert_eq!(
        (gone.unit.clone(), gone.to),
        ((k("AUS"), u("A2")), LocId(3))
    );
    let killed: u32 = gone.losses.killed.iter().map(|x| x.count).sum();
    assert_eq!(
        (gone.losses.damage, killed),
        (Fixed::whole(2), 2),
        "its troops took the hits"
    );
    // Round 2's hits fall on the militia only: army 2 is gone.
    assert!(
        rep.rounds[1]
            .status
            .iter()
            .all(|s| s.unit != (k("AUS"), u("A2")))
    );
    assert_eq!(b.units[2].retreated, Some((LocId(3), 1)));
    assert_eq!(alive(&b, 2), 1);
    assert_eq!(rep.winning_kingdoms(), vec![k("FRA")]);
}

#[test]
fn g17_t43_a_unit_whose_every_troop_is_a_casualty_cannot_retreat() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("GUA", 3, 1)]), &t, stay());
    let mut a = unit("AUS", "A1", &[("LIN", 2, 1)]);
    a.retreat_level = 1;
    b.add_unit(1, &a, &t, free(&[3]));
    let mut d = Scripted::new(15).chances(Draw::Hit, hits(2, 4));
    let rep = b.fight(&mut d);
    assert!(rep.rounds[0].retreats.is_empty());
    assert_eq!(b.units[1].retreated, None);
    assert_eq!(alive(&b, 1), 0, "destroyed at the next removal");
    // With one troop still standing in rank 1 the army stays; once rank 1 is all
    // casualties but rank 2 is not, it goes.
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("GUA", 3, 1)]), &t, stay());
    let mut a = unit("AUS", "A1", &[("LIN", 2, 1), ("LIN", 1, 2)]);
    a.retreat_level = 1;
    b.add_unit(1, &a, &t, free(&[3]));
    let mut d = Scripted::new(15).chances(Draw::Hit, [hits(1, 5), hits(0, 6), hits(1, 5)].concat());
    let rep = b.fight(&mut d);
    assert!(rep.rounds[0].retreats.is_empty());
    assert_eq!(rep.rounds[1].retreats.len(), 1);
}

#[test]
fn g46_a_follower_retreats_with_the_unit_it_follows_and_never_once_that_unit_falls() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("DUM", 1, 1)]), &t, stay());
    let mut a1 = unit("AUS", "A1", &[("LIN", 1, 2)]);
    a1.retreat_level = 1;
    let mut a2 = unit("AUS", "A2", &[("LIN", 1, 1)]);
    a2.follow = Some(u("A1"));
    b.add_unit(1, &a1, &t, free(&[7]));
    b.add_unit(1, &a2, &t, free(&[3, 7]));
    let rep = b.fight(&mut Scripted::new(16));
    let gone: Vec<_> = rep.rounds[0]
        .retreats
        .iter()
        .map(|r| (r.unit.1, r.to))
        .collect();
    assert_eq!(
        gone,
        vec![(u("A1"), LocId(7)), (u("A2"), LocId(7))],
        "follow comes first"
    );

    // The followed unit is destroyed: the follower, whose own rank 1 is empty, stays.
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("GUA", 3, 1)]), &t, stay());
    let a1 = unit("AUS", "A1", &[("LIN", 1, 1)]);
    let mut a2 = unit("AUS", "A2", &[("LIN", 1, 3)]);
    a2.follow = Some(u("A1"));
    a2.retreat_level = 1;
    b.add_unit(1, &a1, &t, free(&[7]));
    b.add_unit(1, &a2, &t, free(&[3]));
    b.max_rounds = 4;
    let mut d = Scripted::new(17).chances(Draw::Hit, [hits(1, 5), hits(0, 4), hits(0, 6)].concat());
    let rep = b.fight(&mut d);
    assert!(rep.rounds.iter().all(|r| r.retreats.is_empty()));
    assert_eq!(killed_in(&rep, 2, ("AUS", "A1")), 1);
}

#[test]
fn g46_with_nowhere_to_go_a_unit_stays_and_fights() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("GRE", 1, 1)]), &t, stay());
    let mut a = unit("AUS", "A1", &[("LIN", 1, 2)]);
    a.retreat_level = 1;
    b.add_unit(1, &a, &t, free(&[]));
    b.max_rounds = 3;
    let rep = b.fight(&mut Scripted::new(18).chances(Draw::Hit, hits(0, 12)));
    assert!(rep.rounds.iter().all(|r| r.retreats.is_empty()));
    assert!(b.units[1].retreated.is_none());
    assert_eq!(rep.rounds.len(), 3);
}

#[test]
fn garrisons_and_defenders_of_a_fortification_never_retreat() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.set_fort(1, 0, &t);
    b.add_unit(0, &unit("FRA", "A1", &[("DUM", 1, 1)]), &t, stay());
    let mut a = unit("AUS", "A1", &[("LIN", 1, 2)]);
    a.retreat_level = 1;
    b.add_unit(
        1,
        &a,
        &t,
        Setup {
            wants_to_defend: true,
            ..free(&[3])
        },
    );
    let mut g = unit("AUS", "G5", &[("LIN", 1, 2)]);
    g.retreat_level = 1;
    b.add_unit(1, &g, &t, stay());
    b.max_rounds = 2;
    let rep = b.fight(&mut Scripted::new(19));
    assert!(rep.units[1].defends);
    assert!(rep.rounds.iter().all(|r| r.retreats.is_empty()));
}

// ---------------------------------------------------------------------------------------
// The end of a battle: aftermath, captures, skills (4.2, 7.5, 2.5, G44).

#[test]
fn t35_the_rulebook_battle_report_example() {
    let (b, rep, d) = t35();
    assert_eq!(rep.units[0].total_combat, 200);
    assert_eq!(rep.units[0].total_hp, Fixed::whole(6));
    assert_eq!(rep.units[1].total_combat, 80);
    assert_eq!(rep.units[1].total_hp, Fixed::whole(4));
    assert!(rep.units[1].defends && !rep.units[0].defends);
    let r1 = &rep.rounds[0];
    let caused: Vec<u32> = r1.caused.iter().map(|c| c.damage).collect();
    assert_eq!(
        caused,
        vec![2, 0, 2],
        "Elephant Rider 2, the leader none, 2 Dwarf Militia 2"
    );
    let st: Vec<(Fixed, Fixed, Fixed)> = r1
        .status
        .iter()
        .map(|s| (s.suffered, s.total_hp, s.taken))
        .collect();
    assert_eq!(
        st,
        vec![
            (Fixed::whole(2), Fixed::whole(6), Fixed::whole(2)),
            (Fixed::whole(2), Fixed::whole(4), Fixed::whole(2))
        ]
    );
    assert!(r1.casualties.is_none(), "not a casualty round");
    let r2 = &rep.rounds[1];
    let st: Vec<(Fixed, Fixed)> = r2.status.iter().map(|s| (s.suffered, s.taken)).collect();
    assert_eq!(
        st,
        vec![
            (Fixed::whole(1), Fixed::whole(3)),
            (Fixed::whole(2), Fixed::whole(4))
        ]
    );
    let c = r2.casualties.as_ref().unwrap();
    assert_eq!(
        (c[0].damage, c[0].killed.len(), c[0].remains),
        (Fixed::whole(3), 0, Fixed::whole(3))
    );
    assert_eq!(
        (c[1].damage, c[1].killed[0].count, c[1].remains),
        (Fixed::whole(4), 2, Fixed::ZERO)
    );
    assert_eq!(rep.rounds.len(), 2, "the battle has ended");
    assert_eq!(rep.winning_kingdoms(), vec![k("FRA")]);
    // Aftermath: the wounded rider is destroyed with a chance of 3/4.
    assert_eq!(rep.aftermath.len(), 1);
    assert_eq!(
        (rep.aftermath[0].chance, rep.aftermath[0].destroyed),
        (7_500, true)
    );
    assert_eq!(asked(&d, Draw::Wounded), vec![7_500]);
    assert_eq!(alive(&b, 0), 1, "the leader is left");
}

/// T35 as played: Patrol Force 2 (an Elephant Rider and its leader) against two Dwarf
/// Militia defending a fortification, with the rulebook's hits forced.
fn t35() -> (Battle, BattleReport, Scripted) {
    let mut t = tables();
    t.fortifications[0].foot_hp = Fixed::ZERO; // the example's militia keep 2 hit points
    let mut b = Battle::new(BattleKind::Land, LocId(119), None);
    b.add_side(vec![k("FRA")]);
    b.add_side(vec![k("IND")]);
    b.set_enemies(&k("FRA"), &k("IND"));
    b.set_fort(1, 0, &t);
    let mut patrol = unit("FRA", "A2", &[("ELE", 1, 1)]);
    patrol.name = "Patrol Force 2".into();
    let mut l = general("Hannibal", 0, 0, 0);
    l.combat = 50;
    let patrol = led(patrol, l);
    let mut ind = unit("IND", "A20", &[("DWM", 2, 1)]);
    ind.name = "Independent Army #20".into();
    b.add_unit(0, &patrol, &t, free(&[118]));
    b.add_unit(
        1,
        &ind,
        &t,
        Setup {
            wants_to_defend: true,
            ..stay()
        },
    );
    let mut d = Scripted::new(35)
        .chances(Draw::Hit, [true, true, false, false, true, true])
        .chances(Draw::Hit, [true, true, false, false, true, false])
        .chances(Draw::Wounded, [true]);
    let rep = b.fight(&mut d);
    (b, rep, d)
}

#[test]
fn t36_wounded_troops_of_winners_and_losers_may_die_in_the_aftermath() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("LCV", 1, 1)]), &t, stay());
    b.add_unit(1, &unit("AUS", "A1", &[("LCV", 1, 1)]), &t, stay());
    b.max_rounds = 2;
    let mut d = Scripted::new(36)
        .chances(Draw::Hit, [hits(2, 0), hits(1, 1), hits(0, 4)].concat())
        .chances(Draw::Wounded, [true, false]);
    let rep = b.fight(&mut d);
    assert!(rep.stopped && rep.winners.is_empty());
    let rolls: Vec<(u32, bool)> = rep
        .aftermath
        .iter()
        .map(|w| (w.chance, w.destroyed))
        .collect();
    // Cavalry of 3 hit points with 1 and 2 damage: 1/3 and 2/3.
    assert_eq!(rolls, vec![(3_333, true), (6_666, false)]);
    assert!(b.fighters[0].dead && !b.fighters[1].dead);
}

#[test]
fn only_the_victors_capture_casualty_artillery_one_in_five() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("GUA", 3, 1)]), &t, stay());
    b.add_unit(1, &unit("AUS", "A1", &[("ART", 2, 1)]), &t, stay());
    let mut d = Scripted::new(37)
        .chances(Draw::Hit, [hits(2, 4), hits(0, 4)].concat())
        .chances(Draw::Capture, [true, false]);
    let rep = b.fight(&mut d);
    assert_eq!(asked(&d, Draw::Capture), vec![2_000, 2_000]);
    assert_eq!(rep.captured.len(), 1);
    assert_eq!(rep.captured[0].to, (k("FRA"), u("A1")));
    assert_eq!(
        b.fighters
            .iter()
            .filter(|f| f.captured_by == Some(0))
            .count(),
        1
    );
    // A battle with no winner captures nothing, and the victors' own dead are not taken.
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("ART", 1, 1)]), &t, stay());
    b.add_unit(1, &unit("AUS", "A1", &[("ART", 1, 1)]), &t, stay());
    let mut d = Scripted::new(38).chances(Draw::Hit, [true, true, true, true]);
    let rep = b.fight(&mut d);
    assert!(rep.winners.is_empty());
    assert!(asked(&d, Draw::Capture).is_empty());
}

#[test]
fn leaders_of_the_victors_improve_and_siegecraft_improves_once_a_turn() {
    let t = tables();
    let run = |may_learn: bool| {
        let mut b = duel(BattleKind::Land);
        b.set_fort(2, 0, &t);
        let a = led(
            unit("FRA", "A1", &[("GUA", 3, 1), ("ART", 1, 2)]),
            general("Vauban", 10, 12, 20),
        );
        b.add_unit(
            0,
            &a,
            &t,
            Setup {
                besieges: true,
                may_learn_siege: may_learn,
                ..stay()
            },
        );
        let g = led(
            unit("AUS", "G5", &[("MIL", 1, 1)]),
            general("Mack", 30, 30, 30),
        );
        b.add_unit(
            1,
            &g,
            &t,
            Setup {
                wants_to_defend: true,
                ..stay()
            },
        );
        let mut d = Scripted::new(39)
            .chances(Draw::Siege, [true])
            .chances(Draw::Hit, hits(12, 0));
        let rep = b.fight(&mut d);
        (b, rep)
    };
    let (b, rep) = run(true);
    let gains: Vec<(Skill, u32)> = rep.improved.iter().map(|i| (i.skill, i.to)).collect();
    assert_eq!(
        gains,
        vec![
            (Skill::Infantry, 12),
            (Skill::Cavalry, 14),
            (Skill::Siege, 22)
        ]
    );
    assert!(
        rep.improved.iter().all(|i| i.leader == "Vauban"),
        "the loser learns nothing"
    );
    assert_eq!(b.units[0].tactics.as_ref().unwrap().siege, 22);
    let (_, rep) = run(false);
    assert!(
        rep.improved.iter().all(|i| i.skill != Skill::Siege),
        "once a turn"
    );
}

#[test]
fn g44_a_fallen_leader_gives_no_bonus_for_the_rest_of_the_battle() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    let mut l = general("Ney", 46, 0, 0);
    l.combat = 0; // he never attacks: every French hit draw is a line infantry's
    b.add_unit(
        0,
        &led(unit("FRA", "A1", &[("LIN", 1, 1), ("LIN", 1, 5)]), l),
        &t,
        stay(),
    );
    b.add_unit(1, &unit("AUS", "A1", &[("GUA", 5, 1)]), &t, stay());
    b.max_rounds = 3;
    // Rank 5 drawn as Ney before his second infantry; 3 hits in round 1 fell the first
    // infantry and Ney, who are removed at the end of round 2.
    let mut d = Scripted::new(44).picks(Draw::Order, [0]).chances(
        Draw::Hit,
        [hits(0, 4), hits(3, 7), hits(0, 4), hits(0, 10), hits(0, 2)].concat(),
    );
    let rep = b.fight(&mut d);
    assert_eq!(killed_in(&rep, 2, ("FRA", "A1")), 2);
    let french: Vec<u32> = asked(&d, Draw::Hit)
        .into_iter()
        .filter(|c| *c != 8_000)
        .collect();
    assert_eq!(
        french,
        vec![
            3_690, 3_690, 3_690, 3_690, 3_690, 3_690, 3_690, 3_690, 3_000, 3_000
        ],
        "36.9 % while Ney lives, 30 % once he has fallen"
    );
}

// ---------------------------------------------------------------------------------------
// Several sides (4.1, 4.5, T45-T47).

fn three_way(pick: u32) -> (Battle, BattleReport, Scripted) {
    let t = tables();
    let mut b = Battle::new(BattleKind::Land, LocId(9), None);
    b.add_side(vec![k("IND")]);
    b.add_side(vec![k("FRA")]);
    b.add_side(vec![k("GBR")]);
    b.set_enemies(&k("IND"), &k("FRA"));
    b.set_enemies(&k("IND"), &k("GBR"));
    b.set_enemies(&k("FRA"), &k("GBR"));
    b.add_unit(0, &unit("IND", "G9", &[("LIN", 1, 1)]), &t, stay());
    b.add_unit(1, &unit("FRA", "A1", &[("LIN", 10, 1)]), &t, stay());
    b.add_unit(2, &unit("GBR", "A1", &[("DUM", 15, 1)]), &t, stay());
    b.max_rounds = 1;
    let mut d = Scripted::new(45)
        .picks(Draw::Target, [pick])
        .chances(Draw::Hit, hits(2, 20));
    let rep = b.fight(&mut d);
    (b, rep, d)
}

#[test]
fn t45_each_troop_picks_a_hostile_side_in_proportion_to_its_troops() {
    // The independent draws among 25 (10 French, 15 British): 9 is French, 10 British.
    let (_, rep, d) = three_way(9);
    let targets: Vec<(u32, u32)> = d
        .log
        .iter()
        .filter(|x| x.0 == Draw::Target)
        .map(|x| (x.1, x.2))
        .collect();
    assert_eq!(targets[0], (25, 9));
    assert_eq!(rep.rounds[0].status[1].suffered, Fixed::whole(2));
    assert_eq!(rep.rounds[0].status[2].suffered, Fixed::ZERO);
    // "The same for the troops you attack": each French troop draws among the independent
    // (1) and Britain (15). British dummies never attack and draw nothing.
    assert_eq!(targets.len(), 11);
    assert!(targets[1..].iter().all(|t| t.0 == 16));
    let (_, rep, _) = three_way(10);
    assert_eq!(rep.rounds[0].status[1].suffered, Fixed::ZERO);
    assert_eq!(
        rep.rounds[0].status[2].suffered,
        Fixed::whole(2),
        "10 of 25 is British"
    );
}

#[test]
fn t46_neutral_invaders_fight_only_the_independents() {
    let (map, mut s) = world();
    place(&mut s, "IND", "G9", LAK, &[("LIN", 2)]);
    place(&mut s, "FRA", "A1", LAK, &[("LIN", 2)]);
    place(&mut s, "GBR", "A1", LAK, &[("LIN", 3)]);
    let orders = Orders::new();
    let turn = Turn::new(&map, &s, &orders.0).unwrap();
    let kingdoms = vec![k("FRA"), k("GBR"), k("IND")];
    let mut b = land::muster(&turn, &Learned::new(), LocId(LAK), &kingdoms, 1);
    assert_eq!(b.sides.len(), 3);
    assert!(!b.hostile(0, 1), "France and Britain are neutral");
    let mut d = Scripted::new(46);
    b.fight(&mut d);
    // Only the independents choose among two sides: France (2) and Britain (3).
    let picks: Vec<u32> = d
        .log
        .iter()
        .filter(|x| x.0 == Draw::Target)
        .map(|x| x.1)
        .collect();
    assert!(!picks.is_empty());
    assert!(picks.iter().all(|n| *n <= 5));
}

#[test]
fn an_ally_not_at_war_with_the_enemy_does_not_attack_it() {
    let t = tables();
    // Austria is allied to Britain and at war with France and Prussia; Britain is at war
    // with France only. British troops never strike the Prussians.
    let mut b = Battle::new(BattleKind::Land, LocId(5), None);
    b.add_side(vec![k("AUS"), k("GBR")]);
    b.add_side(vec![k("FRA")]);
    b.add_side(vec![k("PRU")]);
    b.set_enemies(&k("AUS"), &k("FRA"));
    b.set_enemies(&k("AUS"), &k("PRU"));
    b.set_enemies(&k("GBR"), &k("FRA"));
    b.add_unit(0, &unit("GBR", "A1", &[("LIN", 1, 1)]), &t, stay());
    b.add_unit(1, &unit("FRA", "A1", &[("DUM", 1, 5)]), &t, stay());
    b.add_unit(2, &unit("PRU", "A1", &[("DUM", 1, 5)]), &t, stay());
    b.max_rounds = 1;
    let mut d = Scripted::new(47).chances(Draw::Hit, [true, true]);
    let rep = b.fight(&mut d);
    assert!(
        d.log.iter().all(|x| x.0 != Draw::Target),
        "Britain has one enemy here"
    );
    assert_eq!(rep.rounds[0].status[1].suffered, Fixed::whole(1));
    assert_eq!(rep.rounds[0].status[2].suffered, Fixed::ZERO);
}

#[test]
fn t47_g47_who_defends_and_who_besieges_a_fortified_province() {
    let (map, mut s) = world();
    // Flanders (Austrian, fort 2). Britain and Prussia are Austria's allies and at war with
    // each other; France is at war with Austria and Britain.
    set_ally(&mut s, "AUS", "GBR");
    set_ally(&mut s, "AUS", "PRU");
    set_war(&mut s, "GBR", "PRU");
    set_war(&mut s, "FRA", "AUS");
    set_war(&mut s, "FRA", "GBR");
    place(&mut s, "AUS", "G4", FLA, &[("MIL", 1)]);
    place(&mut s, "AUS", "A1", FLA, &[("LIN", 1)]);
    place(&mut s, "AUS", "A2", FLA, &[("LIN", 1)]);
    s.unit_mut(&k("AUS"), u("A2")).unwrap().defend_forts = false;
    place(&mut s, "GBR", "A1", FLA, &[("LIN", 1), ("ART", 1)]);
    place(&mut s, "PRU", "A1", FLA, &[("LIN", 1), ("ART", 1)]);
    place(&mut s, "FRA", "A1", FLA, &[("LIN", 1), ("ART", 1)]);
    let orders = Orders::new();
    let turn = Turn::new(&map, &s, &orders.0).unwrap();
    let kingdoms = vec![k("AUS"), k("FRA"), k("GBR"), k("PRU")];
    let mut b = land::muster(&turn, &Learned::new(), LocId(FLA), &kingdoms, 1);
    let mut d = Scripted::new(48).chances(Draw::Siege, [false]);
    let rep = b.fight(&mut d);
    let defends = |o: &str, i: &str| rep.unit(&(k(o), u(i))).unwrap().defends;
    assert!(defends("AUS", "G4"), "a garrison always defends");
    assert!(
        defends("AUS", "A1"),
        "an army of the owner with its option on"
    );
    assert!(!defends("AUS", "A2"), "the option off: it stays outside");
    assert!(
        defends("GBR", "A1") && defends("PRU", "A1"),
        "T47: both allies at war are protected"
    );
    assert!(!defends("FRA", "A1"));
    // G47: only France, hostile to the protected side, rolls siege.
    assert_eq!(rep.siege.len(), 1);
    assert_eq!(rep.siege[0].unit, (k("FRA"), u("A1")));
}

// ---------------------------------------------------------------------------------------
// The round limit.

#[test]
fn a_battle_neither_side_can_win_stops_at_the_round_limit() {
    let t = tables();
    let mut b = duel(BattleKind::Land);
    b.add_unit(0, &unit("FRA", "A1", &[("DUM", 2, 1)]), &t, stay());
    b.add_unit(1, &unit("AUS", "A1", &[("DUM", 2, 1)]), &t, stay());
    let mut d = Scripted::new(49);
    let rep = b.fight(&mut d);
    assert_eq!(rep.rounds.len(), 100);
    assert!(rep.stopped && rep.winners.is_empty());
    assert!(
        d.log.iter().all(|x| x.0 == Draw::Order),
        "a chance of 0 is never drawn"
    );
}

#[test]
fn a_stopped_battle_leaves_the_province_to_its_owner() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    // Austrian dummies too tough to kill in a hundred rounds.
    s.tables.troops.get_mut(&tc("MIL")).unwrap().combat = 0;
    s.tables.troops.get_mut(&tc("MIL")).unwrap().hp = Fixed::whole(100_000);
    place(&mut s, "AUS", "A1", BRA, &[("MIL", 1)]);
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[BRA]);
    let out = play(&map, &s, &o);
    let (_, rep) = out.fought()[0];
    assert!(rep.stopped);
    assert_eq!(out.owner(BRA), "AUS");
    assert_eq!((out.at("FRA", "A1"), out.mp("FRA", "A1")), (BRA, 0));
}

// ---------------------------------------------------------------------------------------
// Battles in the turn: M11, M12, the state written back.

#[test]
fn t42_a_militia_in_rank_two_fights_one_round_then_retreats_home() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    // Austria's militia in Brabant, in rank 2 with retreat level 1, meets French cavalry
    // that cannot hurt it.
    s.tables.troops.get_mut(&tc("CUI")).unwrap().combat = 0;
    place(&mut s, "AUS", "A1", BRA, &[("MIL", 1)]);
    set_ranks(&mut s, "AUS", "A1", 2, 1);
    place(&mut s, "FRA", "A1", PIC, &[("CUI", 3)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[BRA, LAK]);
    let out = play(&map, &s, &o);
    let (_, rep) = out.fought()[0];
    assert_eq!(rep.rounds.len(), 1, "one round, then the militia is gone");
    // G46: it did not march, so no origin: its own province next door, Flanders.
    assert_eq!(rep.rounds[0].retreats[0].to, LocId(FLA));
    assert_eq!((out.at("AUS", "A1"), out.mp("AUS", "A1")), (FLA, 0));
    assert!(out.unit("AUS", "A1").retreated);
    // The invader is stopped in enemy land: it cannot go on to Lakeland.
    assert_eq!((out.at("FRA", "A1"), out.mp("FRA", "A1")), (BRA, 0));
    assert!(out.failed_with(&["FRA A1", "move to 9 Lakeland"]));
}

#[test]
fn t44_g46_a_retreat_avoids_enemies_and_prefers_home_then_permission() {
    let setup = || {
        let (map, mut s) = world();
        set_war(&mut s, "FRA", "AUS");
        // France invades Brabant from Picardy with infantry in rank 2, retreat level 1;
        // Austria holds Brabant and walks into Picardy behind it.
        place(&mut s, "FRA", "A1", PIC, &[("LIN", 10)]);
        set_ranks(&mut s, "FRA", "A1", 2, 1);
        place(&mut s, "AUS", "A1", BRA, &[("LIN", 4)]);
        place(&mut s, "AUS", "A2", FLA, &[("LIN", 2)]);
        let mut o = Orders::new();
        o.route("FRA", "A1", &[BRA]);
        o.route("AUS", "A1", &[0]);
        o.route("AUS", "A2", &[PIC]);
        (map, s, o)
    };
    let retreats = |out: &Played| -> Vec<u16> {
        let (_, rep) = out
            .fought()
            .into_iter()
            .find(|(_, b)| b.at == LocId(BRA))
            .unwrap();
        rep.rounds
            .iter()
            .flat_map(|r| r.retreats.iter())
            .map(|r| r.to.0)
            .collect()
    };
    // Picardy, where it came from, holds Austrians now; nothing else is France's or open
    // to it: the army stays and fights.
    let (map, s, o) = setup();
    let out = play(&map, &s, &o);
    assert_eq!(retreats(&out), Vec::<u16>::new());
    // Passage rights from Prussia open Alsace.
    let (map, mut s, o) = setup();
    s.kingdoms
        .get_mut(&k("PRU"))
        .unwrap()
        .passage_to
        .insert(k("FRA"));
    let out = play(&map, &s, &o);
    assert_eq!(retreats(&out), vec![ALS]);
    assert_eq!((out.at("FRA", "A1"), out.mp("FRA", "A1")), (ALS, 0));
    assert!(out.unit("FRA", "A1").retreated);
    // France's own Lakeland comes before Alsace, though Alsace has the lower number.
    let (map, mut s, o) = setup();
    s.kingdoms
        .get_mut(&k("PRU"))
        .unwrap()
        .passage_to
        .insert(k("FRA"));
    s.provinces.get_mut(&LocId(LAK)).unwrap().owner = k("FRA");
    let out = play(&map, &s, &o);
    assert_eq!(retreats(&out), vec![LAK]);
}

#[test]
fn a_border_battle_loser_goes_home_and_fights_there_again() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 12)]);
    set_ranks(&mut s, "FRA", "A1", 2, 1);
    place(&mut s, "AUS", "A1", BRA, &[("CUI", 6)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[BRA]);
    o.route("AUS", "A1", &[PIC]);
    let out = play(&map, &s, &o);
    let fought = out.fought();
    let (_, border) = fought[0];
    assert_eq!(border.kind, BattleKind::Border);
    assert_eq!(
        border.rounds[0].retreats[0].to,
        LocId(PIC),
        "back where it started"
    );
    // The winner goes on to Picardy, where the loser now stands: a land battle (M12).
    assert_eq!(out.moved("AUS", "A1"), vec![(BRA, PIC, 2, 1)]);
    let (_, land) = fought[1];
    assert_eq!((land.kind, land.at), (BattleKind::Land, LocId(PIC)));
    assert!(land.unit(&(k("FRA"), u("A1"))).is_some());
    assert!(
        !out.state.provinces[&LocId(BRA)].battle,
        "a border battle marks no province"
    );
    assert!(out.state.provinces[&LocId(PIC)].battle);
}

/// A turn before anything is played, with the land battle mustered in a province as M12
/// does it.
fn muster_at<'a>(
    map: &'a napoleonic_rules::Map,
    s: &napoleonic_rules::GameState,
    orders: &'a Orders,
    at: u16,
    kingdoms: &[&str],
) -> (Turn<'a>, Battle) {
    let turn = Turn::new(map, s, &orders.0).unwrap();
    let ks: Vec<_> = kingdoms.iter().map(|x| k(x)).collect();
    let b = land::muster(&turn, &Learned::new(), LocId(at), &ks, 1);
    (turn, b)
}

#[test]
fn g44_the_state_loses_the_dead_and_a_leaderless_unit_is_led_again_next_turn() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "FRA", "A1", BRA, &[("GRE", 3)]);
    place(&mut s, "AUS", "A1", BRA, &[("LIN", 1)]);
    add_leader(&mut s, "AUS", "A1", "Mack");
    add_leader(&mut s, "AUS", "A1", "Charles");
    s.unit_mut(&k("AUS"), u("A1")).unwrap().leaders[1].infantry = 60;
    let orders = Orders::new();
    let (mut turn, mut b) = muster_at(&map, &s, &orders, BRA, &["AUS", "FRA"]);
    b.max_rounds = 2;
    // Austria's rank 5 is drawn as Mack, then Charles; 3 hits fell the line infantry and
    // Mack, the unit leader.
    let mut d = Scripted::new(50).picks(Draw::Order, [1]).chances(
        Draw::Hit,
        [hits(0, 6), hits(3, 3), hits(0, 6), hits(0, 6)].concat(),
    );
    let rep = b.fight(&mut d);
    land::apply(&mut turn, &b, &rep, &mut Learned::new());
    let a = turn.state.unit(&k("AUS"), u("A1")).unwrap();
    assert!(a.troops.is_empty());
    let names: Vec<&str> = a.leaders.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, vec!["Charles"]);
    assert_eq!(a.unit_leader, None, "no leader until the next turn");
    // Next turn's F8 names the leader with the best infantry skill.
    let mut s2 = turn.state.clone();
    s2.unit_mut(&k("AUS"), u("A1"))
        .unwrap()
        .leaders
        .insert(0, general("Weak", 1, 1, 1));
    let out = play_first(&map, &s2, &Orders::new());
    let a = out.unit("AUS", "A1");
    assert_eq!(a.unit_leader, Some(1));
    assert!(out.events.iter().any(|e| matches!(&e.what,
        What::AdminChanged { what, .. } if what == "led by Charles")));
}

#[test]
fn captured_artillery_joins_the_victors_army_and_the_dead_leave_the_state() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "FRA", "A1", BRA, &[("GRE", 3)]);
    place(&mut s, "AUS", "A1", BRA, &[("ART", 2)]);
    let orders = Orders::new();
    let (mut turn, mut b) = muster_at(&map, &s, &orders, BRA, &["AUS", "FRA"]);
    // Austria's artillery rolls first (its units come first), then France's grenadiers.
    let mut d = Scripted::new(51)
        .chances(
            Draw::Hit,
            [hits(0, 4), hits(2, 4), hits(0, 4), hits(0, 6)].concat(),
        )
        .chances(Draw::Capture, [true, true]);
    let rep = b.fight(&mut d);
    land::apply(&mut turn, &b, &rep, &mut Learned::new());
    assert_eq!(rep.captured.len(), 2);
    assert!(
        turn.state.unit(&k("AUS"), u("A1")).is_none(),
        "an army with nothing left is gone"
    );
    let fra = turn.state.unit(&k("FRA"), u("A1")).unwrap();
    assert_eq!(fra.count(&tc("ART")), 2);
    assert_eq!(fra.count(&tc("GRE")), 3);
}

#[test]
fn a_battle_in_enemy_land_stops_the_survivors_and_marks_the_province() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "AUS", "G4", FLA, &[("MIL", 1)]);
    place(&mut s, "FRA", "A1", PIC, &[("CUI", 4)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[FLA]);
    let out = play(&map, &s, &o);
    assert_eq!(out.fought().len(), 1);
    assert!(out.state.provinces[&LocId(FLA)].battle);
    assert_eq!(out.mp("FRA", "A1"), 0);
    assert!(
        out.events_at(phase(1, MoveStep::LandBattles))
            .iter()
            .any(|w| matches!(w, What::Battle(_)))
    );
}

// ---------------------------------------------------------------------------------------
// Determinism through the whole turn.

#[test]
fn the_same_state_and_orders_give_the_same_battles_byte_for_byte() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    set_war(&mut s, "FRA", "GBR");
    place(&mut s, "AUS", "G4", FLA, &[("LIN", 3), ("LCV", 1)]);
    place(
        &mut s,
        "FRA",
        "A1",
        PIC,
        &[("LIN", 4), ("ART", 2), ("CUI", 1)],
    );
    add_leader(&mut s, "FRA", "A1", "Lannes");
    place(&mut s, "FRA", "A2", NOR, &[("LIN", 2)]);
    place(&mut s, "AUS", "A1", BRA, &[("LIN", 3)]);
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 2)]);
    place(&mut s, "GBR", "F1", NSE, &[("WAR", 2), ("TRN", 1)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[FLA]);
    o.route("FRA", "A2", &[PIC, BRA]);
    o.route("AUS", "A1", &[PIC]);
    o.route("GBR", "F1", &[CHA]);
    let run = || {
        let out = napoleonic_rules::play(&map, &s, &o.0).unwrap();
        (
            serde_json::to_string(&out.state).unwrap(),
            serde_json::to_string(&out.events).unwrap(),
        )
    };
    let a = run();
    assert_eq!(a, run());
    assert!(a.1.contains("\"event\":\"battle\""), "battles were fought");
    // Another seed fights other battles.
    let mut s2 = s.clone();
    s2.rng =
        napoleonic_rules::setup::new_game(&map, &napoleonic_rules::setup::NewGame::standard(43))
            .unwrap()
            .rng;
    let b = napoleonic_rules::play(&map, &s2, &o.0).unwrap();
    assert_ne!(serde_json::to_string(&b.events).unwrap(), a.1);
}

#[test]
fn war_declared_and_battles_fought_in_the_same_turn() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PIC, &[("CUI", 4)]);
    place(&mut s, "AUS", "A1", BRA, &[("MIL", 1)]);
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::DeclareWar { to: k("AUS") });
    o.route("FRA", "A1", &[BRA]);
    let out = play(&map, &s, &o);
    assert_eq!(out.fought().len(), 1);
    assert_eq!(out.owner(BRA), "FRA");
}

// ---------------------------------------------------------------------------------------
// Fortifications in the turn (2.6, 4.1, M12, M13).

#[test]
fn t6_the_effective_level_is_the_level_less_its_damage_and_gives_that_levels_bonus() {
    let t = tables();
    // (level, damage) → effective level, and that level's foot bonus (table, G2).
    for (level, damage, effective, bonus) in [(6u8, 4u8, 2u8, 47), (8, 2, 6, 110), (5, 3, 2, 47)] {
        let (_, mut s) = world();
        let p = s.provinces.get_mut(&LocId(FLA)).unwrap();
        p.fort_level = level;
        p.fort_damage = damage;
        assert_eq!(p.effective_fort(), effective);
        let mut b = duel(BattleKind::Land);
        b.set_fort(level, damage, &t);
        assert_eq!(b.fort.as_ref().unwrap().effective(), effective);
        b.add_unit(1, &unit("AUS", "G4", &[("DWM", 1, 1)]), &t, stay());
        // Combat 40 on the walls: 40 × (100 + bonus) %.
        assert_eq!(b.chance(0, true), 40 * (100 + bonus), "({level}, {damage})");
    }
}

#[test]
fn a_fortification_taken_protects_its_new_owner_from_the_next_phase_on() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    s.settings.harbour_loss_percent = 0;
    // Flanders (Austrian, fortification 2) is empty: France walks in in phase 1. Austria
    // comes back in phase 2 with a gun (one roll cannot ruin a level-2 fortification).
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 4)]);
    place(&mut s, "AUS", "A1", BRA, &[("LIN", 2), ("ART", 1)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[FLA]);
    o.route("AUS", "A1", &[0, FLA]);
    let out = napoleonic_rules::play(&map, &s, &o.0).unwrap();
    let out = Played {
        state: out.state,
        events: out.events,
    };
    assert!(
        out.events_at(phase(1, MoveStep::Ownership))
            .contains(&&What::OwnershipChanged {
                province: LocId(FLA),
                from: k("AUS"),
                to: k("FRA"),
            })
    );
    let (p, rep) = out.fought()[0];
    assert_eq!((p, rep.at), (2, LocId(FLA)));
    // 4.1: the owner at the end of the phase before holds the walls; the old owner is now
    // the invader, and its gun rolls against its own former fortification (G47).
    assert!(rep.unit(&(k("FRA"), u("A1"))).unwrap().defends);
    assert!(!rep.unit(&(k("AUS"), u("A1"))).unwrap().defends);
    assert_eq!(rep.siege.len(), 1);
    assert_eq!(rep.siege[0].unit, (k("AUS"), u("A1")));
    assert_eq!(rep.fortification.as_ref().unwrap().level, 2);
    // M13: the annexation stays with Austria, and its decline has begun (L7, G25).
    let p = &out.state.provinces[&LocId(FLA)];
    assert_eq!(p.owner, k("FRA"), "the defenders held");
    assert_eq!((p.annexed_to.clone(), p.decline), (k("AUS"), 1));
}

#[test]
fn siege_damage_stays_on_the_fortification_and_is_not_mended_that_turn() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    s.settings.harbour_loss_percent = 0;
    place(&mut s, "AUS", "G4", FLA, &[("MIL", 1)]);
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 4), ("ART", 3)]);
    add_leader(&mut s, "FRA", "A1", "Vauban");
    s.unit_mut(&k("FRA"), u("A1")).unwrap().leaders[0].siege = 100;
    let mut o = Orders::new();
    o.route("FRA", "A1", &[FLA]);
    let out = napoleonic_rules::play(&map, &s, &o.0).unwrap();
    let rep = out
        .events
        .iter()
        .find_map(|e| match &e.what {
            What::Battle(b) => Some(b),
            _ => None,
        })
        .unwrap();
    let f = rep.fortification.as_ref().unwrap();
    // Three guns at 50 + 50 × 100 / 200 = 75 %: the fortification of level 2 is damaged.
    assert!(rep.siege.iter().all(|x| x.chance == 7_500));
    assert!(f.damage_after > 0);
    let p = &out.state.provinces[&LocId(FLA)];
    assert_eq!(p.fort_level, 2, "the walls stay with the province");
    // G11: a province that saw a battle gets no free repair at L8.
    assert_eq!(p.fort_damage, f.damage_after);
    assert!(
        !out.events
            .iter()
            .any(|e| matches!(&e.what, What::FortRepaired { .. }))
    );
    // The next quiet turn mends one level.
    let next = napoleonic_rules::play(&map, &out.state, &Orders::new().0).unwrap();
    assert_eq!(
        next.state.provinces[&LocId(FLA)].fort_damage,
        f.damage_after - 1
    );
}

#[test]
fn t47_two_allies_at_war_fight_on_your_walls_and_you_watch() {
    let (map, mut s) = world();
    // Britain and Prussia, both allied with Austria, are at war with each other in
    // Austria's fortified Flanders, where Austria has a garrison.
    set_ally(&mut s, "AUS", "GBR");
    set_ally(&mut s, "AUS", "PRU");
    set_war(&mut s, "GBR", "PRU");
    place(&mut s, "AUS", "G4", FLA, &[("LIN", 2)]);
    place(&mut s, "GBR", "A1", FLA, &[("LIN", 2)]);
    place(&mut s, "PRU", "A1", FLA, &[("LIN", 2)]);
    let out = play(&map, &s, &Orders::new());
    assert_eq!(
        out.battles(),
        vec![(1, FLA, vec!["GBR".into(), "PRU".into()])]
    );
    let (_, rep) = out.fought()[0];
    assert!(rep.unit(&(k("AUS"), u("G4"))).is_none(), "Austria watches");
    assert!(rep.unit(&(k("GBR"), u("A1"))).unwrap().defends);
    assert!(rep.unit(&(k("PRU"), u("A1"))).unwrap().defends);
    assert!(rep.siege.is_empty(), "neither besieges its ally's walls");
    assert_eq!(out.unit("AUS", "G4").troops.len(), 2);
    assert_eq!(out.owner(FLA), "AUS");
}

#[test]
fn troops_intermingled_when_war_is_declared_each_move_once_before_any_battle() {
    let (map, mut s) = world();
    // France stands in Austrian Brabant by passage rights, beside an Austrian army.
    s.kingdoms
        .get_mut(&k("AUS"))
        .unwrap()
        .passage_to
        .insert(k("FRA"));
    place(&mut s, "FRA", "A1", BRA, &[("LIN", 2)]);
    place(&mut s, "AUS", "A1", BRA, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::DeclareWar { to: k("AUS") });
    // Austria marches home to Flanders in phase 1: no battle in Brabant, which France
    // then holds.
    o.route("AUS", "A1", &[FLA]);
    o.route("FRA", "A1", &[0]);
    let out = play(&map, &s, &o);
    assert!(out.fought().is_empty());
    assert_eq!(out.moved("AUS", "A1"), vec![(BRA, FLA, 1, 1)]);
    assert_eq!(out.owner(BRA), "FRA");
    // Staying put, they fight at M12 of the first phase, after the march.
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::DeclareWar { to: k("AUS") });
    let out = play(&map, &s, &o);
    let first = out
        .events
        .iter()
        .position(|e| matches!(e.what, What::Battle(_)))
        .unwrap();
    assert_eq!(out.events[first].when, phase(1, MoveStep::LandBattles));
}
