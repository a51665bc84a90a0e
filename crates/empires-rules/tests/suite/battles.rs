//! The battle routine (section 8), first as arithmetic on the pure functions, then through
//! ATTACK actions on the test map.
use crate::common;
use common::*;
use empires_rules::Terrain;
use empires_rules::engine::{Entrenched, LandInput, land_battle, sea_losses};
use empires_rules::event::{LandBattle, What};

fn input(
    attackers: u32,
    defenders: u32,
    forts: u32,
    population: u32,
    terrain: Terrain,
) -> LandInput {
    LandInput {
        attackers,
        attacker_air: 0,
        attacker_ships: 0,
        attacker_aboard: 0,
        defenders,
        forts,
        population,
        terrain,
        entrenched: Entrenched::No,
        ambush: false,
        defender_air: 0,
        defender_ships: 0,
        may_retreat: false,
        air_rules: false,
        from_sea: false,
    }
}

#[test]
fn rule_8_1_sea_battle_losses() {
    // 9 against 4: the attacker loses 1, the defender 3 + 1.
    assert_eq!(sea_losses(9, 4), (1, 4));
    // 6 against 6: two each, no difference.
    assert_eq!(sea_losses(6, 6), (2, 2));
    // 2 against 8: the weaker attacker loses 8/3 + 6/3 = 4, capped at 2.
    assert_eq!(sea_losses(2, 8), (2, 0));
}

#[test]
fn rule_8_8_8_9_a_successful_attack() {
    // 9 attack lowlands with 3 armies, 2 forts, pop 4: defence 3 + 2 = 5.
    let r = land_battle(&input(9, 3, 2, 4, Terrain::Lowlands));
    assert_eq!(r.defence_strength, 5);
    assert_eq!(r.attacker_lost, 1);
    assert_eq!(r.defender_lost, 3);
    // 8.13: a third of 3 destroyed = 1 population and 1 fort.
    assert_eq!((r.population_lost, r.forts_lost), (1, 1));
    assert!(r.captured);
    assert_eq!(r.survivors, 8);
}

#[test]
fn rule_8_9_8_12_a_failed_attack_in_mountains() {
    // 6 attack mountains with 4 armies, 1 fort, pop 2: defence 4 + 1 + 2 = 7.
    let r = land_battle(&input(6, 4, 1, 2, Terrain::Mountains));
    assert_eq!(r.defence_strength, 7);
    // The weaker attacker loses 7/3 + (7-6)/3 = 2.
    assert_eq!(r.attacker_lost, 2);
    // The defender loses 6/3 = 2, one fewer in difficult terrain.
    assert_eq!(r.defender_lost, 1);
    assert!(!r.captured);
    assert_eq!(r.population_lost, 1);
}

#[test]
fn rule_8_9_forts_count_only_up_to_the_armies() {
    let r = land_battle(&input(3, 2, 5, 0, Terrain::Plains));
    assert_eq!(r.defence_strength, 4);
    let r = land_battle(&input(3, 0, 5, 0, Terrain::Uplands));
    // No armies: the forts count for nothing, the terrain bonus stays (decision 10).
    assert_eq!(r.defence_strength, 1);
    assert_eq!(r.attacker_lost, 0);
}

#[test]
fn rule_8_10_entrenchment_doubles_facing_and_halves_elsewhere() {
    let mut i = input(12, 4, 0, 1, Terrain::Plains);
    i.entrenched = Entrenched::Facing;
    let r = land_battle(&i);
    assert_eq!(r.defence_strength, 8);
    assert_eq!(r.attacker_lost, 8 / 3);
    i.entrenched = Entrenched::Elsewhere;
    let r = land_battle(&i);
    assert_eq!(r.defence_strength, 2);
}

#[test]
fn rule_8_11_ambush_costs_the_attacker_one_more() {
    let mut i = input(6, 3, 0, 1, Terrain::Plains);
    let plain = land_battle(&i).attacker_lost;
    i.ambush = true;
    let r = land_battle(&i);
    assert!(r.ambushed);
    assert_eq!(r.attacker_lost, plain + 1);
    // With no armies there is nobody to spring it.
    let mut empty = input(6, 0, 0, 1, Terrain::Plains);
    empty.ambush = true;
    assert!(!land_battle(&empty).ambushed);
}

#[test]
fn rule_8_13_collateral_is_a_third_of_the_defenders_destroyed_but_at_least_one() {
    let r = land_battle(&input(30, 9, 9, 9, Terrain::Plains));
    assert_eq!(r.defender_lost, 9);
    assert_eq!((r.population_lost, r.forts_lost), (3, 3));
    let r = land_battle(&input(2, 0, 0, 0, Terrain::Plains));
    assert_eq!(r.population_lost, 0); // nothing to lose, never below zero
    assert!(r.captured);
}

#[test]
fn rule_8_14_attacker_needs_more_survivors_than_population() {
    // 4 attack an empty area of population 4: collateral leaves 3; 4 > 3 captures.
    assert!(land_battle(&input(4, 0, 0, 4, Terrain::Plains)).captured);
    // 3 attackers against population 4 (3 after collateral): 3 is not more than 3.
    assert!(!land_battle(&input(3, 0, 0, 4, Terrain::Plains)).captured);
}

#[test]
fn rule_8_7_defenders_retreat_only_from_a_lost_cause() {
    // 12 against 3 on plains, pop 2: they would lose 3 to the attacker's 1 and the area.
    let mut i = input(12, 3, 0, 2, Terrain::Plains);
    i.may_retreat = true;
    let r = land_battle(&i);
    assert!(r.retreated);
    assert_eq!((r.attacker_lost, r.defender_lost), (0, 0));
    assert_eq!(r.population_lost, 1);
    assert!(r.captured);
    // 4 against 3 with a fort: the attack would fail, so they stand.
    let mut i = input(4, 3, 1, 2, Terrain::Plains);
    i.may_retreat = true;
    assert!(!land_battle(&i).retreated);
}

#[test]
fn rule_8_3_air_phase_and_carry_over() {
    // 9 attackers with 9 aircraft; the defender has 2 aircraft available.
    let mut i = input(9, 6, 0, 3, Terrain::Plains);
    i.air_rules = true;
    i.attacker_air = 9;
    i.defender_air = 2;
    let r = land_battle(&i);
    // 8.4: 3 hits against 2 aircraft would leave one spare: the defender stays grounded.
    let air = r.air.clone().unwrap();
    assert_eq!(air.defender_air, 0);
    assert_eq!(air.carried_to_defender, 3);
    // Land phase: defender loses 9/3 + (9-6)/3 + 3 carried = 7, capped at 6.
    assert_eq!(r.defender_lost, 6);
    // 8.3: with 6 aircraft against 3, each loses a third of the other.
    let mut i = input(6, 6, 0, 3, Terrain::Plains);
    i.air_rules = true;
    i.attacker_air = 6;
    i.defender_air = 3;
    let r = land_battle(&i);
    let air = r.air.unwrap();
    assert_eq!((air.attacker_lost, air.defender_lost), (1, 2));
    assert_eq!(air.carried_to_defender, 0);
}

#[test]
fn rule_4_14_air_strength_is_limited_by_the_forces_on_the_ground() {
    let mut i = input(3, 1, 0, 1, Terrain::Plains);
    i.air_rules = true;
    i.attacker_air = 20;
    i.defender_air = 20;
    let air = land_battle(&i).air.unwrap();
    assert_eq!(air.attacker_air, 3);
    assert_eq!(air.defender_air, 2);
}

#[test]
fn rule_8_5_8_6_sea_phase_with_anti_aircraft_fire() {
    let mut i = input(6, 2, 0, 1, Terrain::Plains);
    i.from_sea = true;
    i.attacker_ships = 9;
    i.defender_ships = 3;
    i.air_rules = true;
    i.attacker_air = 6;
    i.defender_air = 0;
    let r = land_battle(&i);
    // Air: 2 hits carried into the sea phase; ships: 9 v 3 sinks 3 + 2 = 5 capped at 3.
    let sea = r.sea.clone().unwrap();
    assert_eq!(sea.defender_lost, 3);
    assert_eq!(sea.attacker_lost, 1);
    // 8.6: the defending ships shoot down 3/3 = 1 aircraft (no more than the 2 carried).
    assert_eq!(r.attacker_air_lost, 1);
    // Spare hits (3 + 2 + 2 carried - 3 ships = 4) carry into the land phase: all
    // defenders gone.
    assert_eq!(r.defender_lost, 2);
    assert!(r.captured);
}

#[test]
fn rule_8_5_sea_hits_beyond_the_ships_carry_into_the_land_phase() {
    // 9 ships against a base with 1: 3 + 2 = 5 hits, 4 beyond the ship carry over.
    // 4 armies attack 6 defenders on plains: without the carried hits the defenders would
    // lose 4/3 = 1; with them 1 + 4 = 5.
    let mut i = input(4, 6, 0, 0, Terrain::Plains);
    i.from_sea = true;
    i.attacker_ships = 9;
    i.defender_ships = 1;
    let r = land_battle(&i);
    assert_eq!(r.sea.clone().unwrap().defender_lost, 1);
    assert_eq!(r.defender_lost, 5);
    i.defender_ships = 0;
    // No ships on the defending side: no sea phase, nothing carried (8.5).
    let r = land_battle(&i);
    assert!(r.sea.is_none());
    assert_eq!(r.defender_lost, 1);
}

fn battle(t: &empires_rules::TurnOutcome) -> LandBattle {
    t.events
        .iter()
        .find_map(|ev| match &ev.what {
            What::LandBattle(b) => Some((**b).clone()),
            _ => None,
        })
        .expect("a battle")
}

#[test]
fn rule_8_14_capture_moves_half_in_and_scores_vps() {
    let (m, st) = basic();
    // AA reinforces DDD (lowlands, so not sticky) and attacks EEE (uplands, 3 armies,
    // 1 fort, pop 3).
    let t = play(&m, &st, &[("AA", &["MOVE AAA DDD 6", "ATTACK DDD EEE 9"])]);
    done(&t, "AA", 0);
    let b = battle(&t);
    // Defence 3 + 1 + 1 (uplands) = 5; attacker loses 1; defender 9/3 + 4/3 = 4, capped 3.
    assert_eq!(
        (b.defence_strength, b.attacker_lost, b.defender_lost),
        (5, 1, 3)
    );
    assert!(b.captured);
    // 8 survivors: 4 go back to DDD, 4 move in.
    assert_eq!((b.returned, b.moved_in), (4, 4));
    let eee = area(&m, &t.state, "EEE");
    assert_eq!(eee.owner, Some(e("AA")));
    assert_eq!(eee.population, 2);
    // 7.11: the captured area's retreat location points back to DDD.
    assert_eq!(eee.retreat_to.map(|c| c.to_string()), Some("DDD".into()));
    // Decision 13: attacker +1 +2 population captured; defender -(1 + 1 + 2).
    assert_eq!((b.attacker_vps, b.defender_vps), (3, -4));
    assert_eq!(emp(&t.state, "AA").vps, 3);
    assert_eq!(emp(&t.state, "BB").vps, -4);
}

#[test]
fn rule_11_5_failed_attack_costs_both_sides() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["ATTACK DDD EEE 3"])]);
    let b = battle(&t);
    assert!(!b.captured);
    assert_eq!(b.returned + b.attacker_lost, 3);
    assert_eq!((b.attacker_vps, b.defender_vps), (-2, -1));
}

#[test]
fn rule_7_4_attack_costs_a_bp_an_army_and_a_definite_number_must_be_paid() {
    let (m, mut st) = basic();
    st.empires[0].bps = 2;
    let t = play(
        &m,
        &st,
        &[(
            "AA",
            &["ATTACK AAA BBB 3", "ATTACK DDD EEE 3", "ATTACK DDD EEE"],
        )],
    );
    assert!(failure(&t, "AA", 0).contains("already own"));
    assert!(failure(&t, "AA", 1).contains("cost 3 BPs"));
    // ALL takes as many as the 2 BPs pay for.
    assert!(matches!(
        &outcomes(&t, "AA")[2],
        empires_rules::event::Outcome::CutDown { .. }
    ));
    assert_eq!(battle(&t).attackers, 2);
}

#[test]
fn rule_7_4_no_attack_on_the_sea_or_from_land_into_sea() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["ATTACK AAA NSE 1"])]);
    assert!(failure(&t, "AA", 0).contains("sea area"));
}

#[test]
fn rule_8_7_retreat_moves_defenders_to_their_retreat_location() {
    let (m, mut st) = basic();
    let f = m.find("FFF").unwrap().index();
    let e_ = m.find("EEE").unwrap().index();
    st.areas[e_].retreat_to = Some("FFF".parse().unwrap());
    st.areas[e_].forts = 0;
    let d = m.find("DDD").unwrap().index();
    st.areas[d].armies = 12;
    let t = play(&m, &st, &[("AA", &["ATTACK DDD EEE 12"])]);
    let b = battle(&t);
    assert_eq!(b.retreated_to.map(|c| c.to_string()), Some("FFF".into()));
    assert!(b.captured);
    assert_eq!(b.defender_lost, 0);
    // FFF had 1 army and received 3 (end-of-turn dispersal aside: pop 2, 4 armies -> 2 go).
    assert_eq!(t.state.areas[f].armies, 4 - 4 / 2);
}

#[test]
fn rule_8_11_ambush_through_an_attack() {
    let (m, mut st) = basic();
    let i = m.find("EEE").unwrap().index();
    st.areas[i].defence = empires_rules::state::DefenceMode::Ambush;
    st.areas[i].defence_against = Some("DDD".parse().unwrap());
    let t = play(&m, &st, &[("AA", &["ATTACK DDD EEE 3"])]);
    assert!(battle(&t).ambushed);
    let t = play(&m, &st, &[("AA", &["ATTACK BBB EEE 2"])]);
    assert!(!battle(&t).ambushed);
}

#[test]
fn rule_8_10_entrenchment_through_an_attack() {
    let (m, mut st) = basic();
    let i = m.find("EEE").unwrap().index();
    st.areas[i].defence = empires_rules::state::DefenceMode::Entrench;
    st.areas[i].defence_against = Some("DDD".parse().unwrap());
    let t = play(&m, &st, &[("AA", &["ATTACK DDD EEE 3"])]);
    assert_eq!(battle(&t).defence_strength, 2 * (3 + 1 + 1));
    let t = play(&m, &st, &[("AA", &["ATTACK BBB EEE 2"])]);
    // Halved from 3 + 1 + 1 = 5, rounded down.
    assert_eq!(battle(&t).defence_strength, 2);
}

#[test]
fn major_battles_have_double_figures_on_both_sides() {
    let (m, mut st) = basic();
    let i = m.find("EEE").unwrap().index();
    st.areas[i].armies = 10;
    let d = m.find("DDD").unwrap().index();
    st.areas[d].armies = 20;
    let t = play(&m, &st, &[("AA", &["ATTACK DDD EEE 10"])]);
    assert!(battle(&t).major());
}

#[test]
fn decision_i32_nothing_lands_so_no_land_battle_and_no_damage() {
    // 3 ships with 3 armies against a base of 9 ships: all ships sunk, all armies with them
    // (decision 31). The area (population 3, 2 forts, 1 army) suffers no collateral damage,
    // which every land battle would do (8.13).
    let mut i = input(3, 1, 2, 3, Terrain::Plains);
    i.from_sea = true;
    i.attacker_ships = 3;
    i.attacker_aboard = 3;
    i.defender_ships = 9;
    let r = land_battle(&i);
    assert_eq!(r.lost_at_sea, 3);
    assert_eq!((r.damage, r.population_lost, r.forts_lost), (0, 0, 0));
    assert_eq!((r.attacker_lost, r.defender_lost, r.survivors), (0, 0, 0));
    assert!(!r.captured);
    assert_eq!(r.defenders_left, 1);
    // One ship more than armies after the sea phase: they land and a battle is fought,
    // with its collateral damage.
    i.attacker_ships = 12;
    let r = land_battle(&i);
    assert_eq!(r.lost_at_sea, 0);
    assert_eq!(r.damage, 1);
}
