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

/// Decision 37 (7.6, 7.11): a captured land area starts with the captor's defaults: RETREAT
/// mode, its retreat location the land area the attack came from, and the loser's
/// entrenchment front or ambush cleared.
#[test]
fn decision_37_a_captured_area_takes_the_captors_defaults() {
    use empires_rules::state::DefenceMode;
    let (m, mut st) = basic();
    let eee = m.find("EEE").unwrap().index();
    // BB's EEE retreats to FFF and is entrenched against BBB, not against AA's DDD.
    st.areas[eee].defence = DefenceMode::Entrench;
    st.areas[eee].defence_against = Some("BBB".parse().unwrap());
    st.areas[eee].retreat_to = Some("FFF".parse().unwrap());
    let t = play(&m, &st, &[("AA", &["MOVE AAA DDD 6", "ATTACK DDD EEE 9"])]);
    let b = battle(&t);
    // Entrenched elsewhere: (3 + 1 + 1) / 2 = 2; the defender loses 9/3 + 7/3 = 5, all 3.
    assert_eq!((b.defence_strength, b.defender_lost), (2, 3));
    assert!(b.captured);
    let a = area(&m, &t.state, "EEE");
    assert_eq!(a.owner, Some(e("AA")));
    assert_eq!(a.defence, DefenceMode::Retreat);
    assert_eq!(a.defence_against, None);
    assert_eq!(a.retreat_to.map(|c| c.to_string()), Some("DDD".into()));
    // An ambush is cleared the same way.
    st.areas[eee].defence = DefenceMode::Ambush;
    st.areas[eee].defence_against = Some("FFF".parse().unwrap());
    let t = play(&m, &st, &[("AA", &["MOVE AAA DDD 6", "ATTACK DDD EEE 9"])]);
    assert!(battle(&t).captured);
    let a = area(&m, &t.state, "EEE");
    assert_eq!(
        (
            a.defence,
            a.defence_against,
            a.retreat_to.map(|c| c.to_string())
        ),
        (DefenceMode::Retreat, None, Some("DDD".into()))
    );
}

/// Decision 38 (5.19, 4.13): AIR takes effect at once. The strength bought fights in every
/// later battle of the turn, attacking or defending, and is supplied at the end of it.
#[test]
fn decision_38_air_bought_fights_in_later_battles_of_the_same_turn() {
    use empires_rules::event::AirFight;
    let air = |a, d, al, dl, cd, ca| AirFight {
        attacker_air: a,
        defender_air: d,
        attacker_lost: al,
        defender_lost: dl,
        carried_to_defender: cd,
        carried_to_attacker: ca,
    };
    let (m, mut st) = basic();
    st.empires[0].bps = 40;
    // Attacking: AA buys 4 strengths (28 BPs), then attacks EEE twice (3 + 2 BPs).
    let t = play(
        &m,
        &st,
        &[("AA", &["AIR - - 4", "ATTACK DDD EEE 3", "ATTACK BBB EEE 2"])],
    );
    for n in 0..3 {
        done(&t, "AA", n);
    }
    let fights: Vec<_> = events_of(&t, |w| matches!(w, What::LandBattle(_)))
        .into_iter()
        .map(|ev| match &ev.what {
            What::LandBattle(b) => (**b).clone(),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(fights.len(), 2);
    // First battle: min(4, 3 armies) = 3 aircraft score 1 hit; BB has no aircraft, so the hit
    // carries over (8.4). EEE (uplands, 3 armies, 1 fort, population 3): defence 5; the
    // defender loses 3/3 + 1 = 2, the attacker 5/3 + 2/3 = 1.
    assert_eq!(fights[0].air, Some(air(3, 0, 0, 0, 1, 0)));
    assert_eq!((fights[0].defender_lost, fights[0].attacker_lost), (2, 1));
    // Second battle: min(4, 2) = 2 aircraft, no hit; EEE now 1 army, no fort, population 2:
    // defence 2 against 2, nobody loses.
    assert_eq!(fights[1].air, Some(air(2, 0, 0, 0, 0, 0)));
    assert_eq!((fights[1].defender_lost, fights[1].attacker_lost), (0, 0));
    let aa = emp(&t.state, "AA");
    assert_eq!(aa.air_force, 4);
    // Supply at the end of the turn: 40 - 33 = 7 left over make 2 armies (reserve 6 + 2, and
    // 1 dispersed from AAA's 6 over 4 + 1). Land: AAA (6 - 1 + 4 ships + 1 fort - 4) / 2 = 3,
    // the others nothing; reserves 9/4 + 3/4 + 4/4 (the new air force) = 3. Income 4+3+2+5.
    assert_eq!(aa.army_reserve, 9);
    assert_eq!((aa.income, aa.supply_cost, aa.bps), (14, 6, 8));

    // Defending: BB buys 3 strengths in round 1, after AA's first action; AA attacks in
    // round 2. BB sends min(3, 3 + 1 + 3) = 3 aircraft: 1 hit carried onto the attackers,
    // who lose 1 + 5/3 + 2/3 = 2; the defender 3/3 = 1.
    let t = play(
        &m,
        &st,
        &[("AA", &["TAX", "ATTACK DDD EEE 3"]), ("BB", &["AIR - - 3"])],
    );
    done(&t, "BB", 0);
    let b = battle(&t);
    assert_eq!(b.air, Some(air(0, 3, 0, 0, 0, 1)));
    assert_eq!((b.attacker_lost, b.defender_lost), (2, 1));
    assert_eq!(emp(&t.state, "BB").air_force, 3);
}

/// Decision 39 (1.7, 8.3): Australian Empires plays the air phase as World Empires does;
/// Medieval Empires has none, whatever air force an empire may hold.
#[test]
fn decision_39_australian_air_forces_fight_and_medieval_ones_do_not() {
    let (m, mut st) = scenario(&format!("variant = \"australian\"\n{BASIC}"));
    assert_eq!(st.variant, empires_rules::Variant::Australian);
    st.empires[0].air_force = 9;
    let t = play(&m, &st, &[("AA", &["ATTACK DDD EEE 3"])]);
    let b = battle(&t);
    // min(9, 3 armies) = 3 aircraft score 1 hit, which carries over as BB has none (8.4):
    // EEE's defenders lose 3/3 + 1 = 2; the attackers 5/3 = 1.
    let air = b.air.clone().expect("an air phase");
    assert_eq!(
        (air.attacker_air, air.defender_air, air.carried_to_defender),
        (3, 0, 1)
    );
    assert_eq!((b.defender_lost, b.attacker_lost), (2, 1));
    // The same attack in Medieval Empires: no air phase, the defenders lose only 1.
    st.variant = empires_rules::Variant::Medieval;
    let t = play(&m, &st, &[("AA", &["ATTACK DDD EEE 3"])]);
    let b = battle(&t);
    assert_eq!(b.air, None);
    assert_eq!((b.defender_lost, b.attacker_lost), (1, 1));
    assert_eq!(emp(&t.state, "AA").air_force, 9);
}

/// Decision 43 (8.12, 13.2): difficult terrain takes one loss off the defender's whole
/// land-phase loss, hits carried over from the air and sea phases included; once a battle.
#[test]
fn decision_43_one_terrain_reduction_off_the_whole_land_phase_loss() {
    // 2 armies from 9 ships against a mountain area with 6 armies and a base of 1 ship: the
    // sea phase scores 9/3 + 8/3 = 5, 1 sinks the ship and 4 carry into the land phase. The
    // land phase's own loss is 2/3 = 0; the whole 0 + 4 less one is 3 (not 0 less one, plus 4).
    let mut i = input(2, 6, 0, 3, Terrain::Mountains);
    i.from_sea = true;
    i.attacker_ships = 9;
    i.attacker_aboard = 2;
    i.defender_ships = 1;
    let r = land_battle(&i);
    assert_eq!(r.sea.clone().unwrap().defender_lost, 1);
    assert_eq!(r.defence_strength, 8);
    assert_eq!(r.defender_lost, 3);
    // 6 armies with 9 aircraft (min(9, 6) = 6, 2 hits carried: no defending aircraft) from the
    // same ships against 12 defenders: the sea phase carries 5 + 2 - 1 = 6; the land phase
    // 6/3 + 6 = 8, less one for the mountains once = 7 (not once for each phase).
    let mut i = input(6, 12, 0, 3, Terrain::Mountains);
    i.air_rules = true;
    i.attacker_air = 9;
    i.from_sea = true;
    i.attacker_ships = 9;
    i.attacker_aboard = 6;
    i.defender_ships = 1;
    let r = land_battle(&i);
    assert_eq!(r.air.clone().unwrap().carried_to_defender, 2);
    assert_eq!(r.defence_strength, 14);
    assert_eq!(r.defender_lost, 7);
}

/// Decision 45 (8.6): anti-aircraft fire hits whichever side's aircraft carried hits into
/// the sea phase: a third of the opposing ships at the start of the phase, at most the hits
/// carried. There is none without a sea phase.
#[test]
fn decision_45_anti_aircraft_fire_on_either_side_only_in_a_sea_phase() {
    // The attacker's 6 aircraft carry 2 hits into a sea phase of 9 ships against 9: they
    // would lose 9/3 = 3, but no more than the 2 carried.
    let mut i = input(6, 2, 0, 1, Terrain::Plains);
    i.air_rules = true;
    i.attacker_air = 6;
    i.from_sea = true;
    i.attacker_ships = 9;
    i.attacker_aboard = 6;
    i.defender_ships = 9;
    let r = land_battle(&i);
    assert_eq!(r.air.clone().unwrap().carried_to_defender, 2);
    assert_eq!((r.attacker_air_lost, r.defender_air_lost), (2, 0));
    // The defender's 9 aircraft (9 armies + population 1 allow them all) carry 3 hits onto
    // an attack of 6 ships against 3. They lose a third of the 6 ships the attacker had at
    // the start of the phase, 2 (the 2 left after it would give 0); the attacker's ships
    // lose 3/3 + 3 carried = 4.
    let mut i = input(3, 9, 0, 1, Terrain::Plains);
    i.air_rules = true;
    i.defender_air = 9;
    i.from_sea = true;
    i.attacker_ships = 6;
    i.attacker_aboard = 3;
    i.defender_ships = 3;
    let r = land_battle(&i);
    assert_eq!(r.air.clone().unwrap().carried_to_attacker, 3);
    assert_eq!(r.sea.clone().unwrap().attacker_lost, 4);
    assert_eq!((r.attacker_air_lost, r.defender_air_lost), (0, 2));
    // No ships in the base, so no sea phase: no anti-aircraft fire either.
    i.defender_ships = 0;
    let r = land_battle(&i);
    assert!(r.sea.is_none());
    assert_eq!((r.attacker_air_lost, r.defender_air_lost), (0, 0));
    // Nor in an attack from land.
    i.defender_ships = 3;
    i.from_sea = false;
    let r = land_battle(&i);
    assert!(r.sea.is_none());
    assert_eq!((r.attacker_air_lost, r.defender_air_lost), (0, 0));
}

/// Decision 46 (4.14, 8.3, decision 10): an area with no armies may be defended by air, up to
/// its forts and population, and the hits its aircraft carry over fall on the attacking
/// armies in the land phase.
#[test]
fn decision_46_an_area_without_armies_is_defended_by_air() {
    let (m, mut st) = basic();
    let fff = m.find("FFF").unwrap().index();
    st.areas[fff].armies = 0;
    st.areas[fff].forts = 3;
    st.areas[fff].population = 3;
    let ccc = m.find("CCC").unwrap().index();
    st.areas[ccc].armies = 6;
    st.empires[1].air_force = 9;
    let t = play(&m, &st, &[("AA", &["ATTACK CCC FFF 6"])]);
    done(&t, "AA", 0);
    let b = battle(&t);
    // BB sends min(9, 0 armies + 3 forts + 3 population) = 6 aircraft: 2 hits against none,
    // carried onto the 6 attacking armies.
    let air = b.air.clone().expect("an air phase");
    assert_eq!(
        (air.attacker_air, air.defender_air, air.carried_to_attacker),
        (0, 6, 2)
    );
    // Land phase: no armies inflict no losses of their own (decision 10), but the 2 carried
    // hits stand. Defence 0 + 0 + 1 (wetlands).
    assert_eq!(b.defence_strength, 1);
    assert_eq!((b.attacker_lost, b.defender_lost), (2, 0));
    // Collateral 1 (population 2 left); 4 survivors capture: 2 go back, 2 move in.
    assert!(b.captured);
    assert_eq!((b.returned, b.moved_in), (2, 2));
    assert_eq!(emp(&t.state, "BB").air_force, 9);
}
