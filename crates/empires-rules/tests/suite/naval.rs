//! Ships: BUILD, NAVY, LAYUP, RECOVER, FLEET, SCRAP, BASE, CLOSE (5.10-5.17), SEAMOVE and
//! CONVOY (7.2), fleets and their bases (7.12), sea battles (8.1), attacks from the sea.
use crate::common;
use common::*;
use empires_rules::event::{Outcome, What};

/// AA's fleet of 3 ships carrying 2 armies in ESE, belonging to the base in AAA.
fn with_fleet() -> (empires_rules::Map, empires_rules::GameState) {
    scenario(&format!(
        "{BASIC}\n[[fleet]]\narea = \"ESE\"\nowner = \"AA\"\nships = 3\narmies = 2\nbase = \"AAA\"\n"
    ))
}

#[test]
fn rule_5_10_build_once_per_base_limited_by_population() {
    let (m, st) = basic();
    let t = play(
        &m,
        &st,
        &[("AA", &["BUILD AAA - 9", "BUILD AAA - 1", "BUILD DDD - 1"])],
    );
    assert!(
        matches!(&outcomes(&t, "AA")[0], Outcome::CutDown { reason } if reason.contains("population (4)"))
    );
    assert!(failure(&t, "AA", 1).contains("already built"));
    assert!(failure(&t, "AA", 2).contains("no naval base"));
    assert_eq!(
        area(&m, &t.state, "AAA").base.as_ref().unwrap().laid_up,
        2 + 4
    );
}

#[test]
fn rule_5_14_fleet_commissions_but_not_after_build_or_recover_in_that_base() {
    let (m, st) = basic();
    let t = play(
        &m,
        &st,
        &[("AA", &["FLEET AAA - 1", "BUILD AAA - 1", "FLEET AAA - 1"])],
    );
    done(&t, "AA", 0);
    assert!(failure(&t, "AA", 2).contains("commission them next turn"));
    let b = area(&m, &t.state, "AAA").base.clone().unwrap();
    assert_eq!((b.ships, b.laid_up), (5, 2));
}

#[test]
fn rule_5_11_5_13_navy_then_no_recover() {
    let (m, st) = basic();
    let t = play(
        &m,
        &st,
        &[("AA", &["RECOVER AAA - 2", "NAVY - - 1", "RECOVER AAA - 1"])],
    );
    done(&t, "AA", 0);
    done(&t, "AA", 1);
    assert!(failure(&t, "AA", 2).contains("5.13"));
    let aa = emp(&t.state, "AA");
    assert_eq!(aa.navy_reserve, 3 - 2 + 1);
}

#[test]
fn rule_5_12_5_15_layup_and_scrap() {
    let (m, st) = basic();
    let t = play(
        &m,
        &st,
        &[("AA", &["LAYUP AAA - 3", "SCRAP AAA - 4", "SCRAP AAA - 9"])],
    );
    done(&t, "AA", 0);
    done(&t, "AA", 1);
    assert!(matches!(&outcomes(&t, "AA")[2], Outcome::CutDown { .. }));
    let b = area(&m, &t.state, "AAA").base.clone().unwrap();
    assert_eq!((b.ships, b.laid_up), (1, 0));
    assert_eq!(emp(&t.state, "AA").treasury, 10 + 2 * 5);
}

#[test]
fn rule_5_16_a_new_base_waits_a_turn() {
    let (m, st) = basic();
    let t = play(
        &m,
        &st,
        &[(
            "AA",
            &[
                "BASE DDD ESE",
                "BUILD DDD - 1",
                "BASE CCC NSE",
                "BASE AAA NSE",
            ],
        )],
    );
    done(&t, "AA", 0);
    assert!(failure(&t, "AA", 1).contains("next turn"));
    assert!(failure(&t, "AA", 2).contains("not coastal"));
    assert!(failure(&t, "AA", 3).contains("already has"));
    let t2 = play(&m, &t.state, &[("AA", &["BUILD DDD - 1"])]);
    done(&t2, "AA", 0);
}

#[test]
fn rule_5_17_close_sends_ships_to_the_reserve_and_blocks_recover() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["CLOSE AAA", "RECOVER AAA - 1"])]);
    done(&t, "AA", 0);
    assert!(area(&m, &t.state, "AAA").base.is_none());
    assert_eq!(emp(&t.state, "AA").navy_reserve, 3 + 6);
}

#[test]
fn decision_34_a_failed_close_still_locks_recover() {
    let (m, st) = basic();
    // DDD has no naval base, so the CLOSE fails; RECOVER is locked all the same.
    assert!(area(&m, &st, "DDD").base.is_none());
    let t = play(&m, &st, &[("AA", &["CLOSE DDD", "RECOVER AAA - 1"])]);
    failure(&t, "AA", 0);
    assert!(failure(&t, "AA", 1).contains("5.13"));
    assert_eq!(emp(&t.state, "AA").navy_reserve, 3);
}

#[test]
fn rule_7_2_seamove_costs_one_plus_the_distance_from_base() {
    let (m, mut st) = with_fleet();
    st.empires[0].bps = 10;
    // ESE is one step beyond the base's entrance NSE: distance 1, cost 2.
    let t = play(
        &m,
        &st,
        &[("AA", &["SEAMOVE ESE SSE 1", "SEAMOVE AAA NSE 2"])],
    );
    done(&t, "AA", 0);
    done(&t, "AA", 1);
    let spent: Vec<u32> = t
        .events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::Action { spent, .. } => Some(*spent),
            _ => None,
        })
        .collect();
    assert_eq!(spent, vec![2, 1]);
    assert_eq!(area(&m, &t.state, "NSE").fleet.as_ref().unwrap().ships, 2);
}

#[test]
fn decision_15_seamove_never_strands_armies() {
    let (m, st) = with_fleet();
    let t = play(
        &m,
        &st,
        &[("AA", &["SEAMOVE ESE SSE 2", "CONVOY ESE SSE 2"])],
    );
    assert!(failure(&t, "AA", 0).contains("leave 2 armies"));
    done(&t, "AA", 1);
    let f = area(&m, &t.state, "SSE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (2, 2));
}

#[test]
fn rule_7_3_armies_move_at_sea_only_where_ships_carry_them() {
    let (m, st) = with_fleet();
    // DDD -> ESE: the fleet has 3 ships and 2 armies aboard, room for 1.
    let t = play(
        &m,
        &st,
        &[(
            "AA",
            &["MOVE DDD ESE 2", "MOVE DDD ESE 1", "MOVE ESE DDD 3"],
        )],
    );
    assert!(failure(&t, "AA", 0).contains("only 1 more"));
    done(&t, "AA", 1);
    done(&t, "AA", 2);
    assert_eq!(area(&m, &t.state, "ESE").fleet.as_ref().unwrap().armies, 0);
}

#[test]
fn rule_7_12_combined_fleets_take_the_movers_base() {
    let (m, mut st) = with_fleet();
    // A second AA fleet from GGG's... give AA a base in DDD entered from ESE.
    let d = m.find("DDD").unwrap().index();
    st.areas[d].base = Some(empires_rules::state::NavalBase {
        entrance: "ESE".parse().unwrap(),
        ships: 2,
        laid_up: 0,
        built: 0,
    });
    let t = play(&m, &st, &[("AA", &["SEAMOVE DDD ESE 1"])]);
    let f = area(&m, &t.state, "ESE").fleet.clone().unwrap();
    assert_eq!(f.ships, 4);
    assert_eq!(f.base.unwrap().to_string(), "DDD");
}

#[test]
fn rule_8_1_sea_battle_through_a_move() {
    let (m, st) = with_fleet();
    // BB's 2 ships leave GGG into ESE, where AA has 3: BB loses 1 + 0, AA loses 0.
    let t = play(&m, &st, &[("BB", &["SEAMOVE GGG ESE 2"])]);
    let battle = t
        .events
        .iter()
        .find_map(|ev| match &ev.what {
            What::SeaBattle {
                fight,
                attacker_won,
                ..
            } => Some((fight.clone(), *attacker_won)),
            _ => None,
        })
        .unwrap();
    assert_eq!((battle.0.attacker_lost, battle.0.defender_lost), (1, 0));
    assert!(!battle.1);
    // The surviving ship went home to its base.
    assert_eq!(area(&m, &t.state, "GGG").base.as_ref().unwrap().ships, 1);
    assert_eq!(
        area(&m, &t.state, "ESE").fleet.as_ref().unwrap().owner,
        e("AA")
    );
}

#[test]
fn rule_8_1_winning_attacker_moves_in_and_excess_armies_drown() {
    let (m, mut st) = with_fleet();
    let g = m.find("GGG").unwrap().index();
    st.areas[g].base.as_mut().unwrap().ships = 9;
    let t = play(&m, &st, &[("BB", &["SEAMOVE GGG ESE 9"])]);
    // 9 v 3: AA loses 3 + 2 = all; BB loses 1 and moves in with 8.
    let f = area(&m, &t.state, "ESE").fleet.clone().unwrap();
    assert_eq!(
        (f.owner, f.ships, f.base.unwrap().to_string()),
        (e("BB"), 8, "GGG".into())
    );
}

#[test]
fn rule_7_4_attack_from_the_sea_makes_the_capture_sticky() {
    let (m, mut st) = with_fleet();
    // Make GGG an easy target: 1 army, pop 1, no base ships.
    let g = m.find("GGG").unwrap().index();
    st.areas[g].armies = 0;
    st.areas[g].population = 1;
    st.areas[g].base = None;
    let t = play(&m, &st, &[("AA", &["ATTACK ESE GGG 2", "MOVE GGG EEE 1"])]);
    done(&t, "AA", 0);
    assert_eq!(area(&m, &t.state, "GGG").owner, Some(e("AA")));
    assert!(failure(&t, "AA", 1).contains("stuck"));
}

#[test]
fn rule_6_5_7_2_fleet_with_no_route_disperses_on_moving() {
    let (m, st) = with_fleet();
    // Closing the base leaves the fleet in ESE with no route: moving costs 1 BP but loses
    // a ship and an army.
    let t = play(&m, &st, &[("AA", &["CLOSE AAA", "CONVOY ESE SSE 3"])]);
    done(&t, "AA", 1);
    assert!(!events_of(&t, |w| matches!(w, What::NoRouteToBase { .. })).is_empty());
    // 3 ships 2 armies -> 2 ships 1 army after the move; 1 ship more and the last army at
    // the end of the turn.
    let f = area(&m, &t.state, "SSE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (1, 0));
}

#[test]
fn decision_16_a_fleet_cut_off_from_its_base_stays_cut_off() {
    let (m, st) = with_fleet();
    // Closing the base cuts the fleet off; building a new base there does not restore it.
    let t = play(&m, &st, &[("AA", &["CLOSE AAA", "BASE AAA NSE"])]);
    assert_eq!(area(&m, &t.state, "ESE").fleet.as_ref().unwrap().base, None);
    let t2 = play(&m, &t.state, &[("AA", &["TAX"])]);
    // Still no route: another ship and army dispersed at the end of the next turn.
    let disp = events_of(&t2, |w| matches!(w, What::Dispersal { ships: 1, .. }));
    assert_eq!(disp.len(), 1);
}

#[test]
fn decision_16_capturing_a_base_sinks_its_ships_and_cuts_off_its_fleets() {
    let (m, mut st) = with_fleet();
    // BB takes AAA, the home of AA's fleet in ESE, with a big army from... give BB DDD.
    let d = m.find("DDD").unwrap().index();
    st.areas[d].owner = Some(e("BB"));
    st.areas[d].armies = 20;
    let a = m.find("AAA").unwrap().index();
    st.areas[a].armies = 1;
    let t = play(&m, &st, &[("BB", &["ATTACK DDD AAA 20"])]);
    let aaa = area(&m, &t.state, "AAA");
    assert_eq!(aaa.owner, Some(e("BB")));
    let b = aaa.base.clone().unwrap();
    assert_eq!((b.ships, b.laid_up), (0, 0));
    assert_eq!(area(&m, &t.state, "ESE").fleet.as_ref().unwrap().base, None);
}

/// BB's fleet in NSE (based in DDD) against AA's AAA: plains, naval base entered from NSE.
fn sea_attack(
    fleet: (u32, u32),
    base_ships: u32,
    armies: u32,
    population: u32,
) -> (empires_rules::Map, empires_rules::GameState) {
    let (ships, aboard) = fleet;
    scenario(&format!(
        r#"
next_census = 9
order_of_play = ["BB", "AA", "CC"]
compute_balances = false
[[empire]]
code = "AA"
[[empire]]
code = "BB"
bps = 20
[[empire]]
code = "CC"
[[area]]
code = "AAA"
owner = "AA"
population = {population}
armies = {armies}
defence = "defend"
base = {{ entrance = "NSE", ships = {base_ships} }}
[[area]]
code = "BBB"
owner = "AA"
population = 3
[[area]]
code = "DDD"
owner = "BB"
population = 3
base = {{ entrance = "ESE" }}
[[area]]
code = "JJJ"
owner = "CC"
population = 3
[[fleet]]
area = "NSE"
owner = "BB"
ships = {ships}
armies = {aboard}
base = "DDD"
"#
    ))
}

fn land_battle_of(t: &empires_rules::TurnOutcome) -> empires_rules::event::LandBattle {
    t.events
        .iter()
        .find_map(|ev| match &ev.what {
            What::LandBattle(b) => Some((**b).clone()),
            _ => None,
        })
        .expect("a land battle")
}

#[test]
fn decision_31_ships_sunk_in_the_sea_phase_take_their_armies_down() {
    // 3 ships carrying 3 armies against an empty area (population 0) with 9 ships in its
    // base: 9 v 3 sinks all 3 ships (8.1), so all 3 armies are lost before the land phase
    // and the attack fails.
    let (m, st) = sea_attack((3, 3), 9, 0, 0);
    let t = play(&m, &st, &[("BB", &["ATTACK NSE AAA 3"])]);
    let b = land_battle_of(&t);
    let s = b.sea.clone().unwrap();
    assert_eq!((s.attacker_lost, s.defender_lost), (3, 1));
    assert_eq!(b.lost_at_sea, 3);
    assert_eq!(b.attacker_lost, 3);
    assert!(!b.captured);
    assert_eq!((b.moved_in, b.returned), (0, 0));
    let aaa = area(&m, &t.state, "AAA");
    assert_eq!(aaa.owner, Some(e("AA")));
    assert_eq!(aaa.base.as_ref().unwrap().ships, 8);
    assert!(area(&m, &t.state, "NSE").fleet.is_none());
    // A failed attack (decision 13): nothing was captured or lost on land.
    assert_eq!((b.attacker_vps, b.defender_vps), (-1, 0));
}

#[test]
fn decision_31_the_excess_armies_are_lost_and_the_rest_attack() {
    // 6 ships with 6 armies against a base of 6 ships and 4 armies defending plains
    // (population 2, no forts): each side loses 2 ships, so 2 armies are lost; 4 attack a
    // defence of 4, each side loses 1, the attack fails and 3 go back aboard the 4 ships.
    let (m, st) = sea_attack((6, 6), 6, 4, 2);
    let t = play(&m, &st, &[("BB", &["ATTACK NSE AAA 6"])]);
    let b = land_battle_of(&t);
    let s = b.sea.clone().unwrap();
    assert_eq!((s.attacker_lost, s.defender_lost), (2, 2));
    assert_eq!(b.lost_at_sea, 2);
    assert_eq!((b.attack_strength, b.defence_strength), (4, 4));
    assert_eq!(b.defender_lost, 1);
    assert_eq!(b.attacker_lost, 2 + 1);
    assert!(!b.captured);
    assert_eq!(b.returned, 3);
    let f = area(&m, &t.state, "NSE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (4, 3));
    assert_eq!(area(&m, &t.state, "AAA").base.as_ref().unwrap().ships, 4);
}

#[test]
fn decision_33_the_excess_comes_from_the_attacking_armies_first() {
    // 6 ships with 6 armies, 4 of them attack; 2 ships are sunk, so 2 armies too many are
    // aboard: both come from the 4 attacking, the 2 staying aboard keep their places.
    let (m, st) = sea_attack((6, 6), 6, 4, 2);
    let t = play(&m, &st, &[("BB", &["ATTACK NSE AAA 4"])]);
    let b = land_battle_of(&t);
    assert_eq!(b.lost_at_sea, 2);
    assert_eq!(b.attack_strength, 2);
    // 2 attack a defence of 4: the attacker loses 4/3 + 2/3 = 1, the defender none.
    assert_eq!((b.attacker_lost, b.defender_lost), (2 + 1, 0));
    let f = area(&m, &t.state, "NSE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (4, 2 + 1));
}

#[test]
fn decision_35_a_seamove_with_no_route_disperses_an_army_left_behind() {
    // A fleet of 5 ships and 2 armies is cut off from its base; 3 ships SEAMOVE (carrying no
    // armies): one ship of those moving and one army of those staying are dispersed.
    let (m, mut st) = with_fleet();
    let ese = m.find("ESE").unwrap().index();
    let f = st.areas[ese].fleet.as_mut().unwrap();
    f.ships = 5;
    f.base = None;
    let t = play(&m, &st, &[("AA", &["SEAMOVE ESE SSE 3"])]);
    done(&t, "AA", 0);
    let ev = events_of(&t, |w| matches!(w, What::NoRouteToBase { .. }));
    assert!(matches!(
        &ev[0].what,
        What::NoRouteToBase {
            ships: 1,
            armies: 1,
            ..
        }
    ));
    let result = t
        .events
        .iter()
        .find_map(|ev| match &ev.what {
            What::Action { empire, result, .. } if empire.as_str() == "AA" => Some(result.clone()),
            _ => None,
        })
        .unwrap();
    assert!(result.contains("1 ship and 1 army dispersed"), "{result}");
    // After the move: 2 ships in SSE; 2 ships and 1 army in ESE. The end of the turn
    // disperses a ship and an army (if any) of each fleet with no route (6.5).
    let fleet = |c: &str| {
        let f = area(&m, &t.state, c).fleet.clone().unwrap();
        (f.ships, f.armies)
    };
    assert_eq!(fleet("SSE"), (1, 0));
    assert_eq!(fleet("ESE"), (1, 0));
    // Dispersed ships and armies go to the reserves (decision 17): 2 armies, 3 ships.
    let (before, after) = (emp(&st, "AA"), emp(&t.state, "AA"));
    assert_eq!(after.navy_reserve, before.navy_reserve + 3);
}

/// Decision 37 (7.6, 7.11): an area captured from the sea starts in RETREAT mode with no
/// retreat location, whatever the loser had set: its captors stand and fight as in DEFEND.
#[test]
fn decision_37_an_area_captured_from_the_sea_has_no_retreat_location_and_stands() {
    use empires_rules::state::DefenceMode;
    let (m, mut st) = with_fleet();
    let g = m.find("GGG").unwrap().index();
    st.areas[g].armies = 0;
    st.areas[g].population = 1;
    st.areas[g].base = None;
    st.areas[g].defence = DefenceMode::Entrench;
    st.areas[g].defence_against = Some("EEE".parse().unwrap());
    // BB's retreat location for GGG is HHH, which AA owns: kept, it would let AA's captors
    // slip away.
    st.areas[g].retreat_to = Some("HHH".parse().unwrap());
    let h = m.find("HHH").unwrap().index();
    st.areas[h].owner = Some(e("AA"));
    let t = play(&m, &st, &[("AA", &["ATTACK ESE GGG 2"])]);
    done(&t, "AA", 0);
    let b = land_battle_of(&t);
    // No defenders: collateral 1 takes the population; 2 survivors capture, 1 lands.
    assert!(b.captured);
    assert_eq!((b.moved_in, b.returned), (1, 1));
    let a = area(&m, &t.state, "GGG");
    assert_eq!(a.owner, Some(e("AA")));
    assert_eq!(
        (a.defence, a.defence_against, a.retreat_to, a.armies),
        (DefenceMode::Retreat, None, None, 1)
    );
    // Next turn BB attacks with 3 from EEE: the lone army would lose 1 to the attacker's 0
    // and the area fall, but with no retreat location it stands, and is destroyed.
    let mut st2 = t.state.clone();
    let bb = st2.empire_index(e("BB")).unwrap();
    st2.empires[bb].bps = 10;
    let t2 = play(&m, &st2, &[("BB", &["ATTACK EEE GGG 3"])]);
    done(&t2, "BB", 0);
    let b = land_battle_of(&t2);
    assert_eq!(b.retreated_to, None);
    assert_eq!((b.defenders, b.defender_lost, b.attacker_lost), (1, 1, 0));
    assert!(b.captured);
    assert_eq!(
        area(&m, &t2.state, "HHH").armies,
        area(&m, &t.state, "HHH").armies
    );
}

/// Decision 44 (8.5, 8.14, decision 16): base ships that survive the sea phase do not stop
/// the landing; the armies left fight the land phase, the control phase decides, and the
/// surviving ships are lost with the base when the area falls.
#[test]
fn decision_44_surviving_base_ships_do_not_stop_a_landing() {
    // BB's 6 ships carrying 6 armies attack AAA (plains, no armies, population 1) whose base
    // holds 9 ships. Sea phase: BB loses 9/3 + 3/3 = 4 ships, AA 6/3 = 2, so 7 survive; 4
    // armies too many for BB's 2 ships are lost and 2 land.
    let (m, st) = sea_attack((6, 6), 9, 0, 1);
    let t = play(&m, &st, &[("BB", &["ATTACK NSE AAA 6"])]);
    done(&t, "BB", 0);
    let b = land_battle_of(&t);
    let s = b.sea.clone().unwrap();
    assert_eq!((s.attacker_lost, s.defender_lost), (4, 2));
    assert_eq!(b.lost_at_sea, 4);
    // The ships take no part on land: defence 0, no losses either side; collateral 1 leaves
    // population 0, and 2 survivors capture: 1 goes back aboard, 1 moves in.
    assert_eq!((b.attack_strength, b.defence_strength), (2, 0));
    assert!(b.captured);
    assert_eq!((b.moved_in, b.returned), (1, 1));
    assert_eq!((b.attacker_vps, b.defender_vps), (1, -2));
    let aaa = area(&m, &t.state, "AAA");
    assert_eq!(aaa.owner, Some(e("BB")));
    assert_eq!(aaa.armies, 1);
    let base = aaa.base.clone().unwrap();
    assert_eq!((base.ships, base.laid_up), (0, 0));
    let f = area(&m, &t.state, "NSE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (2, 1));
}

/// Decision 50 (5.12, 5.15, 6.3): LAYUP and SCRAP of more ships than there are are cut to
/// those there; they fail only when there are none.
#[test]
fn decision_50_layup_and_scrap_are_cut_to_the_ships_there() {
    let (m, st) = basic();
    // AAA's base: 4 ships in commission, 2 laid up; AA has 30 BPs and 10 treasury points.
    let t = play(
        &m,
        &st,
        &[(
            "AA",
            &[
                "LAYUP AAA - 9",
                "LAYUP AAA - 1",
                "SCRAP AAA - 9",
                "SCRAP AAA - 1",
            ],
        )],
    );
    assert!(
        matches!(&outcomes(&t, "AA")[0], Outcome::CutDown { reason } if reason.contains("only 4 ships"))
    );
    assert_eq!(spent(&t, "AA", 0), 4);
    assert!(failure(&t, "AA", 1).contains("only 0 ships"));
    assert!(
        matches!(&outcomes(&t, "AA")[2], Outcome::CutDown { reason } if reason.contains("only 6 ships"))
    );
    assert!(failure(&t, "AA", 3).contains("only 0 ships"));
    let b = area(&m, &t.state, "AAA").base.clone().unwrap();
    assert_eq!((b.ships, b.laid_up), (0, 0));
    assert_eq!(emp(&t.state, "AA").treasury, 10 + 2 * 6);
}

/// Decision 52 (8.5, decision 16): ships in commission in the base of an unowned area defend
/// it in the sea phase of an attack from the sea; they score nothing and are lost with the
/// area.
#[test]
fn decision_52_ships_of_an_unowned_base_defend_and_are_lost_with_it() {
    let (m, mut st) = sea_attack((9, 6), 9, 0, 1);
    let a = m.find("AAA").unwrap().index();
    st.areas[a].base.as_mut().unwrap().laid_up = 2;
    st.order_of_play = vec![e("AA"), e("BB"), e("CC")];
    // AA disowns AAA in round 1, before BB's attack: an unowned area that has taken no
    // random action yet (6.4), its base and ships still there (5.18).
    let t = play(
        &m,
        &st,
        &[("AA", &["DISOWN AAA"]), ("BB", &["ATTACK NSE AAA 6"])],
    );
    done(&t, "AA", 0);
    done(&t, "BB", 0);
    let b = land_battle_of(&t);
    assert_eq!(b.defender, None);
    // 9 ships against the 9 in commission (not the laid-up 2): 3 lost each side.
    let s = b.sea.clone().unwrap();
    assert_eq!(
        (
            s.attacker_ships,
            s.defender_ships,
            s.attacker_lost,
            s.defender_lost
        ),
        (9, 9, 3, 3)
    );
    // 6 armies land on an empty area of population 1: captured, 3 back aboard, 3 in.
    assert!(b.captured);
    assert_eq!((b.moved_in, b.returned), (3, 3));
    // The captor scores 1 + 0 population left; the unowned side nothing.
    assert_eq!((b.attacker_vps, b.defender_vps), (1, 0));
    assert_eq!(emp(&t.state, "BB").vps, 1);
    assert_eq!(emp(&t.state, "AA").vps, 0);
    let aaa = area(&m, &t.state, "AAA");
    assert_eq!(aaa.owner, Some(e("BB")));
    let base = aaa.base.clone().unwrap();
    assert_eq!((base.ships, base.laid_up), (0, 0));
    let f = area(&m, &t.state, "NSE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (6, 3));
}

/// Decision 53 (5.16, 5.17): a land area holds one naval base; a BASE where one stands
/// fails at no cost. After a CLOSE a new one may be built.
#[test]
fn decision_53_a_base_where_one_stands_fails_at_no_cost() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["BASE AAA NSE"])]);
    assert!(failure(&t, "AA", 0).contains("already has a naval base"));
    assert_eq!(spent(&t, "AA", 0), 0);
    let b = area(&m, &t.state, "AAA").base.clone().unwrap();
    assert_eq!(
        (b.entrance.as_str(), b.ships, b.laid_up, b.built),
        ("NSE", 4, 2, 0)
    );
    // All 30 BPs were left over: 10 armies, plus 1 dispersed from AAA.
    assert_eq!(emp(&t.state, "AA").army_reserve, 6 + 10 + 1);
    // Closed first, the base can be built again, for 10 BPs.
    let t = play(&m, &st, &[("AA", &["CLOSE AAA", "BASE AAA NSE"])]);
    done(&t, "AA", 1);
    assert_eq!(spent(&t, "AA", 1), 10);
    let b = area(&m, &t.state, "AAA").base.clone().unwrap();
    assert_eq!((b.ships, b.laid_up, b.built), (0, 0, 1));
}

/// Decision 54 (decisions 17, 35): the army a cut-off fleet loses when it moves goes to the
/// reserve and does not stop a later RESERVE, as DISBAND would (5.5).
#[test]
fn decision_54_an_army_dispersed_by_a_cut_off_fleet_does_not_block_reserve() {
    let (m, mut st) = with_fleet();
    let ese = m.find("ESE").unwrap().index();
    st.areas[ese].fleet.as_mut().unwrap().base = None;
    let t = play(&m, &st, &[("AA", &["CONVOY ESE SSE 3", "RESERVE DDD - 2"])]);
    done(&t, "AA", 0);
    assert!(matches!(
        &events_of(&t, |w| matches!(w, What::NoRouteToBase { .. }))[0].what,
        What::NoRouteToBase {
            ships: 1,
            armies: 1,
            ..
        }
    ));
    done(&t, "AA", 1);
    assert_eq!(spent(&t, "AA", 1), 2);
    // DDD: 3 + 2 armies, not more than its population of 5.
    assert_eq!(area(&m, &t.state, "DDD").armies, 5);
}
