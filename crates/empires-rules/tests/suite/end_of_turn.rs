//! Start and end of turn: unowned areas' random actions (6.4), dispersals (6.5), cash
//! returned (3.6), leftover BPs (3.7, 6.2), income and supply (3.2, 3.3), eliminations
//! (11.1), census (11.2, 11.3) and victory (11.6), in the order of decision 3.
use crate::common;
use common::*;
use empires_rules::event::{Growth, Phase, What};
use empires_rules::state::{EmpireState, GameState, VictoryClaim, VictoryCondition};
use empires_rules::{Map, TurnError, TurnOutcome};
use std::collections::BTreeMap;

fn emp_mut<'a>(st: &'a mut GameState, code: &str) -> &'a mut EmpireState {
    let i = st.empire_index(e(code)).unwrap();
    &mut st.empires[i]
}

fn dispersals(t: &TurnOutcome) -> Vec<(Option<String>, String, u32, u32)> {
    let mut v: Vec<_> = t
        .events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::Dispersal {
                empire,
                area,
                armies,
                ships,
                ..
            } => Some((
                empire.map(|x| x.to_string()),
                area.to_string(),
                *armies,
                *ships,
            )),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

fn economy(t: &TurnOutcome, code: &str) -> Option<(u32, u32, u32)> {
    t.events.iter().find_map(|ev| match &ev.what {
        What::Economy {
            empire,
            income,
            supply,
            bps,
        } if empire.as_str() == code => Some((*income, *supply, *bps)),
        _ => None,
    })
}

fn order_of_play(st: &GameState) -> Vec<String> {
    st.order_of_play.iter().map(|c| c.to_string()).collect()
}

fn claim(turn: u32, empire: &str, condition: VictoryCondition, vps: i32) -> VictoryClaim {
    VictoryClaim {
        turn,
        empire: e(empire),
        condition,
        vps,
    }
}

fn warnings(t: &TurnOutcome) -> Vec<VictoryClaim> {
    t.events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::VictoryWarning { claim } => Some(claim.clone()),
            _ => None,
        })
        .collect()
}

fn game_overs(t: &TurnOutcome) -> Vec<VictoryClaim> {
    t.events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::GameOver { claim } => Some(claim.clone()),
            _ => None,
        })
        .collect()
}

// ----- 6.4 unowned areas -----

/// Each empire owns one area; every other land area is unowned, with room (forts) so that
/// a growing army never disperses.
const UNOWNED: &str = r#"
seed = 11
next_census = 99
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
[[empire]]
code = "BB"
[[empire]]
code = "CC"
[[area]]
code = "AAA"
owner = "AA"
population = 3
armies = 2
[[area]]
code = "GGG"
owner = "BB"
population = 3
armies = 1
[[area]]
code = "JJJ"
owner = "CC"
population = 3
[[area]]
code = "BBB"
population = 2
forts = 40
[[area]]
code = "CCC"
population = 1
armies = 1
forts = 40
[[area]]
code = "DDD"
population = 2
forts = 40
[[area]]
code = "EEE"
forts = 40
[[area]]
code = "FFF"
population = 4
armies = 2
forts = 40
[[area]]
code = "HHH"
population = 1
forts = 40
[[area]]
code = "III"
forts = 40
"#;

#[test]
fn rule_6_4_each_unowned_land_area_gets_exactly_one_random_action() {
    let (m, mut st) = scenario(UNOWNED);
    let mut seen = [0u32; 3];
    for turn in 1..=15 {
        let t = play(&m, &st, &[]);
        let growths: Vec<(String, Growth, Phase)> = t
            .events
            .iter()
            .filter_map(|ev| match &ev.what {
                What::Unowned { area, growth } => Some((area.to_string(), *growth, ev.phase)),
                _ => None,
            })
            .collect();
        let unowned: Vec<String> = m
            .areas()
            .iter()
            .zip(&st.areas)
            .filter(|(def, a)| def.is_land() && a.owner.is_none())
            .map(|(def, _)| def.code.to_string())
            .collect();
        // One event per unowned land area, in the start phase, before any action.
        let mut areas: Vec<String> = growths.iter().map(|g| g.0.clone()).collect();
        areas.sort();
        assert_eq!(areas, unowned, "turn {turn}");
        assert!(growths.iter().all(|g| g.2 == Phase::Start));
        for (def, (before, after)) in m.areas().iter().zip(st.areas.iter().zip(&t.state.areas)) {
            let code = def.code.to_string();
            if def.is_sea() || before.owner.is_some() {
                // Sea areas and owned areas are untouched.
                assert_eq!(before, after, "turn {turn}: {code} changed");
                continue;
            }
            let g = growths.iter().find(|g| g.0 == code).unwrap().1;
            let d = (
                after.armies as i64 - before.armies as i64,
                after.forts as i64 - before.forts as i64,
                after.population as i64 - before.population as i64,
            );
            let want = match g {
                Growth::Army => (1, 0, 0),
                Growth::Fort => (0, 1, 0),
                Growth::Population => (0, 0, 1),
            };
            assert_eq!(d, want, "turn {turn}: {code} grew {g:?}");
            seen[g as usize] += 1;
        }
        st = t.state;
    }
    // 15 turns x 7 areas: every kind of random action turns up.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    assert_eq!(seen.iter().sum::<u32>(), 15 * 7);
}

#[test]
fn rule_6_4_a_disowned_area_takes_random_actions_from_the_next_turn() {
    let (m, st) = scenario(UNOWNED);
    let mut st = st;
    st.area_mut(m.find("BBB").unwrap()).owner = Some(e("AA"));
    let grew = |t: &TurnOutcome, code: &str| {
        t.events
            .iter()
            .any(|ev| matches!(&ev.what, What::Unowned { area, .. } if area.as_str() == code))
    };
    let t1 = play(&m, &st, &[("AA", &["DISOWN BBB"])]);
    done(&t1, "AA", 0);
    assert_eq!(area(&m, &t1.state, "BBB").owner, None);
    assert!(!grew(&t1, "BBB"));
    let t2 = play(&m, &t1.state, &[]);
    assert!(grew(&t2, "BBB"));
}

// ----- 6.5 dispersals -----

const DISPERSAL: &str = r#"
next_census = 99
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
[[empire]]
code = "BB"
[[empire]]
code = "CC"
[[area]]
code = "AAA"
owner = "AA"
population = 2
forts = 1
armies = 7
[[area]]
code = "BBB"
owner = "AA"
population = 1
armies = 5
[[area]]
code = "CCC"
owner = "AA"
armies = 3
[[area]]
code = "DDD"
owner = "AA"
population = 3
forts = 1
armies = 4
[[area]]
code = "EEE"
owner = "AA"
population = 4
armies = 5
[[area]]
code = "FFF"
owner = "AA"
forts = 1
armies = 1
[[area]]
code = "GGG"
owner = "BB"
population = 3
[[area]]
code = "HHH"
owner = "BB"
population = 2
armies = 9
[[area]]
code = "III"
owner = "CC"
population = 1
[[area]]
code = "JJJ"
owner = "CC"
population = 3
"#;

#[test]
fn rule_6_5_land_dispersal_formulas() {
    let (m, st) = scenario(DISPERSAL);
    let t = play(&m, &st, &[]);
    let armies = |c: &str| area(&m, &t.state, c).armies;
    // AAA: 7 armies > 2 pop + 1 fort: 7 / 3 = 2 dispersed.
    assert_eq!(armies("AAA"), 5);
    // BBB: pop + forts = 1 (under 2): half of 5 = 2 dispersed.
    assert_eq!(armies("BBB"), 3);
    // CCC: pop + forts = 0: half of 3 = 1 dispersed.
    assert_eq!(armies("CCC"), 2);
    // DDD: 4 armies, not more than 3 + 1: none.
    assert_eq!(armies("DDD"), 4);
    // EEE: 5 > 4: 5 / 4 = 1.
    assert_eq!(armies("EEE"), 4);
    // FFF: 1 army, not more than 1 fort: none.
    assert_eq!(armies("FFF"), 1);
    // HHH (BB): 9 > 2: 9 / 2 = 4.
    assert_eq!(armies("HHH"), 5);
    // Dispersed armies go to the owner's reserve (no leftover BPs: both had 0).
    assert_eq!(emp(&t.state, "AA").army_reserve, 2 + 2 + 1 + 1);
    assert_eq!(emp(&t.state, "BB").army_reserve, 4);
    let s = |x: &str| Some(x.to_string());
    assert_eq!(
        dispersals(&t),
        vec![
            (s("AA"), "AAA".into(), 2, 0),
            (s("AA"), "BBB".into(), 2, 0),
            (s("AA"), "CCC".into(), 1, 0),
            (s("AA"), "EEE".into(), 1, 0),
            (s("BB"), "HHH".into(), 4, 0),
        ]
    );
}

#[test]
fn rule_6_5_dispersal_comes_before_supply_costs() {
    let (m, st) = scenario(DISPERSAL);
    let t = play(&m, &st, &[]);
    // After dispersal: AAA (5 + 1 - 2) / 2 = 2, BBB (3 - 1) / 2 = 1, CCC 2 / 2 = 1,
    // DDD (4 + 1 - 3) / 2 = 1, EEE 0, FFF (1 + 1) / 2 = 1; reserve 6 / 4 = 1. Total 7.
    // Income 2 + 1 + 0 + 3 + 4 + 0 = 10.
    assert_eq!(economy(&t, "AA"), Some((10, 7, 3)));
    let aa = emp(&t.state, "AA");
    assert_eq!((aa.income, aa.supply_cost, aa.bps), (10, 7, 3));
}

#[test]
fn rule_6_5_dispersal_happens_again_every_turn() {
    let (m, st) = scenario(DISPERSAL);
    let t1 = play(&m, &st, &[]);
    let t2 = play(&m, &t1.state, &[]);
    // AAA: 5 > 3: 5 / 3 = 1 more; BBB: 3 > 1: 1 more; HHH: 5 > 2: 2 more.
    assert_eq!(area(&m, &t2.state, "AAA").armies, 4);
    assert_eq!(area(&m, &t2.state, "BBB").armies, 2);
    assert_eq!(area(&m, &t2.state, "HHH").armies, 3);
    assert_eq!(area(&m, &t2.state, "EEE").armies, 4);
}

#[test]
fn rule_6_5_unowned_dispersed_armies_vanish() {
    let (m, mut st) = scenario(DISPERSAL);
    // CCC becomes unowned, 1 population, no forts, 8 armies.
    {
        let c = st.area_mut(m.find("CCC").unwrap());
        c.owner = None;
        c.population = 1;
        c.armies = 8;
    }
    let t = play(&m, &st, &[]);
    let growth = t
        .events
        .iter()
        .find_map(|ev| match &ev.what {
            What::Unowned { area, growth } if area.as_str() == "CCC" => Some(*growth),
            _ => None,
        })
        .unwrap();
    // After the random action: army -> 9 armies over 1: half, 4; fort -> 8 over 1: 4;
    // population -> 8 over 2: 8 / 2 = 4.
    let (armies, left) = match growth {
        Growth::Army => (4, 5),
        Growth::Fort | Growth::Population => (4, 4),
    };
    assert_eq!(area(&m, &t.state, "CCC").armies, left);
    assert!(dispersals(&t).contains(&(None, "CCC".into(), armies, 0)));
    let ev = t
        .events
        .iter()
        .find(|ev| matches!(&ev.what, What::Dispersal { area, .. } if area.as_str() == "CCC"))
        .unwrap();
    assert!(ev.concerns.is_empty());
    // Nobody's reserve gained them: AA's reserve has only AAA, BBB and EEE's.
    assert_eq!(emp(&t.state, "AA").army_reserve, 2 + 2 + 1);
    assert_eq!(emp(&t.state, "BB").army_reserve, 4);
    assert_eq!(emp(&t.state, "CC").army_reserve, 0);
}

// ----- 6.5 at sea: no route to base -----

const SEAS: &str = r#"
next_census = 99
order_of_play = ["AA", "BB", "CC"]
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
population = 1
base = { entrance = "NSE", ships = 1 }
[[area]]
code = "BBB"
owner = "BB"
population = 3
armies = 10
forts = 10
[[area]]
code = "DDD"
owner = "AA"
population = 3
[[area]]
code = "GGG"
owner = "BB"
population = 3
[[area]]
code = "JJJ"
owner = "CC"
population = 3
[[fleet]]
area = "ESE"
owner = "AA"
ships = 3
armies = 2
base = "AAA"
"#;

#[test]
fn rule_6_5_a_fleet_with_a_route_to_base_does_not_disperse() {
    let (m, st) = scenario(SEAS);
    let t = play(&m, &st, &[]);
    let f = area(&m, &t.state, "ESE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (3, 2));
    assert!(dispersals(&t).iter().all(|d| d.1 != "ESE"));
}

#[test]
fn rule_6_5_a_fleet_whose_base_is_captured_loses_a_ship_and_an_army_each_turn() {
    let (m, st) = scenario(SEAS);
    // BB captures AAA (AA's base) from BBB: no defenders, 1 population.
    let t = play(&m, &st, &[("BB", &["ATTACK BBB AAA 6"])]);
    done(&t, "BB", 0);
    assert_eq!(area(&m, &t.state, "AAA").owner, Some(e("BB")));
    let f = area(&m, &t.state, "ESE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (2, 1));
    assert!(dispersals(&t).contains(&(Some("AA".into()), "ESE".into(), 1, 1)));
    // The ship and the army go to AA's reserves (AA had no BPs to leave over).
    assert_eq!(emp(&t.state, "AA").army_reserve, 1);
    assert_eq!(emp(&t.state, "AA").navy_reserve, 1);
    // Next turn again: 1 ship, no army.
    let t2 = play(&m, &t.state, &[]);
    let f = area(&m, &t2.state, "ESE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (1, 0));
    // And then the fleet is gone.
    let t3 = play(&m, &t2.state, &[]);
    assert_eq!(area(&m, &t3.state, "ESE").fleet, None);
    assert!(dispersals(&t3).contains(&(Some("AA".into()), "ESE".into(), 0, 1)));
}

#[test]
fn decision_16_a_fleet_cut_off_from_its_base_stays_cut_off_after_a_recapture() {
    let (m, mut st) = scenario(SEAS);
    {
        let d = st.area_mut(m.find("DDD").unwrap());
        d.armies = 8;
        d.forts = 8;
    }
    let t1 = play(&m, &st, &[("BB", &["ATTACK BBB AAA 6"])]);
    assert_eq!(area(&m, &t1.state, "AAA").owner, Some(e("BB")));
    assert_eq!(
        area(&m, &t1.state, "ESE").fleet.as_ref().unwrap().base,
        None
    );
    // AA takes AAA back (2 of BB's armies are left there after dispersal).
    let mut st2 = t1.state.clone();
    emp_mut(&mut st2, "AA").bps = 20;
    let t2 = play(&m, &st2, &[("AA", &["ATTACK DDD AAA 8"])]);
    done(&t2, "AA", 0);
    assert_eq!(area(&m, &t2.state, "AAA").owner, Some(e("AA")));
    assert!(area(&m, &t2.state, "AAA").base.is_some());
    // The fleet has no route to base from the capture on: it disperses again.
    let f = area(&m, &t2.state, "ESE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (1, 0));
    assert!(dispersals(&t2).contains(&(Some("AA".into()), "ESE".into(), 1, 1)));
}

#[test]
fn rule_6_5_a_fleet_whose_base_is_closed_disperses() {
    let (m, st) = scenario(SEAS);
    let t = play(&m, &st, &[("AA", &["CLOSE AAA"])]);
    done(&t, "AA", 0);
    let f = area(&m, &t.state, "ESE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (2, 1));
    assert!(dispersals(&t).contains(&(Some("AA".into()), "ESE".into(), 1, 1)));
    // Closing put the base's one ship in the reserve, then the dispersal one more.
    assert_eq!(emp(&t.state, "AA").navy_reserve, 2);
    assert_eq!(emp(&t.state, "AA").army_reserve, 1);
}

#[test]
fn rule_6_5_a_fleet_of_a_base_that_does_not_exist_disperses() {
    let (m, st) = scenario(&SEAS.replace("base = \"AAA\"", "base = \"DDD\""));
    let t = play(&m, &st, &[]);
    let f = area(&m, &t.state, "ESE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (2, 1));
}

// ----- 3.6 cash returned, 3.7 leftovers, 6.2 order of play -----

const PURSE: &str = r#"
next_census = 99
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
treasury = 10
[[empire]]
code = "BB"
[[empire]]
code = "CC"
[[area]]
code = "AAA"
owner = "AA"
population = 3
[[area]]
code = "DDD"
owner = "AA"
population = 5
[[area]]
code = "GGG"
owner = "BB"
population = 3
[[area]]
code = "JJJ"
owner = "CC"
population = 3
"#;

fn leftover(t: &TurnOutcome, code: &str) -> Option<(u32, u32)> {
    t.events.iter().find_map(|ev| match &ev.what {
        What::Leftover {
            empire,
            armies,
            order_bps,
            ..
        } if empire.as_str() == code => Some((*armies, *order_bps)),
        _ => None,
    })
}

fn cash_returned(t: &TurnOutcome, code: &str) -> Option<u32> {
    t.events.iter().find_map(|ev| match &ev.what {
        What::CashReturned { empire, bps } if empire.as_str() == code => Some(*bps),
        _ => None,
    })
}

#[test]
fn rule_3_6_unspent_cash_returns_to_the_treasury_before_leftovers() {
    let (m, mut st) = scenario(PURSE);
    emp_mut(&mut st, "AA").bps = 5;
    let t = play(&m, &st, &[("AA", &["CASH - - 3"])]);
    done(&t, "AA", 0);
    // 8 BPs unspent: 3 (the cash) go back; the other 5 make 1 army and a 2-BP bid.
    assert_eq!(cash_returned(&t, "AA"), Some(3));
    assert_eq!(emp(&t.state, "AA").treasury, 10);
    assert_eq!(leftover(&t, "AA"), Some((1, 2)));
    assert_eq!(emp(&t.state, "AA").army_reserve, 1);
}

#[test]
fn rule_3_6_only_what_is_left_of_the_cash_returns() {
    let (m, st) = scenario(PURSE);
    let t = play(&m, &st, &[("AA", &["CASH - - 6", "FORTIFY DDD - 2"])]);
    done(&t, "AA", 1);
    // 6 cashed, 2 spent: 4 go back.
    assert_eq!(cash_returned(&t, "AA"), Some(4));
    assert_eq!(emp(&t.state, "AA").treasury, 10 - 6 + 4);
    assert_eq!(leftover(&t, "AA"), None);
    assert_eq!(emp(&t.state, "AA").army_reserve, 0);
}

#[test]
fn rule_3_6_cashed_bps_spent_and_earned_back_later_in_the_turn_return() {
    let (m, st) = scenario(PURSE);
    let t = play(
        &m,
        &st,
        &[("AA", &["CASH - - 5", "FORTIFY DDD - 5", "TAX"])],
    );
    done(&t, "AA", 1);
    done(&t, "AA", 2);
    assert_eq!(cash_returned(&t, "AA"), Some(2));
    assert_eq!(emp(&t.state, "AA").treasury, 10 - 5 + 2);
    assert_eq!(leftover(&t, "AA"), None);
}

#[test]
fn rule_3_7_leftovers_build_armies_at_three_bps_and_the_rest_bids_for_the_order() {
    let (m, mut st) = scenario(PURSE);
    emp_mut(&mut st, "AA").bps = 0;
    emp_mut(&mut st, "BB").bps = 4;
    emp_mut(&mut st, "CC").bps = 11;
    let t = play(&m, &st, &[]);
    assert_eq!(leftover(&t, "AA"), None);
    assert_eq!(leftover(&t, "BB"), Some((1, 1)));
    assert_eq!(leftover(&t, "CC"), Some((3, 2)));
    assert_eq!(emp(&t.state, "BB").army_reserve, 1);
    assert_eq!(emp(&t.state, "CC").army_reserve, 3);
    // 6.2: CC bid 2, BB 1, AA nothing.
    assert_eq!(order_of_play(&t.state), vec!["CC", "BB", "AA"]);
    let announced: Vec<String> = t
        .events
        .iter()
        .find_map(|ev| match &ev.what {
            What::OrderOfPlay { order } => Some(order.iter().map(|c| c.to_string()).collect()),
            _ => None,
        })
        .unwrap();
    assert_eq!(announced, vec!["CC", "BB", "AA"]);
}

#[test]
fn rule_6_2_equal_bids_keep_their_order() {
    let (m, mut st) = scenario(PURSE);
    st.order_of_play = vec![e("CC"), e("AA"), e("BB")];
    emp_mut(&mut st, "AA").bps = 1;
    emp_mut(&mut st, "BB").bps = 4;
    emp_mut(&mut st, "CC").bps = 3;
    let t = play(&m, &st, &[]);
    // AA and BB bid 1 each, CC nothing (3 BPs make an army): AA stays ahead of BB.
    assert_eq!(order_of_play(&t.state), vec!["AA", "BB", "CC"]);
}

#[test]
fn rule_3_7_leftover_bid_adds_to_order_actions() {
    let (m, mut st) = scenario(PURSE);
    emp_mut(&mut st, "AA").bps = 5;
    emp_mut(&mut st, "BB").bps = 0;
    emp_mut(&mut st, "CC").bps = 2;
    st.order_of_play = vec![e("CC"), e("BB"), e("AA")];
    // AA: ORDER 1, then 4 left: 1 army and a bid of 1 more: 2 in all, as CC's 2.
    let t = play(&m, &st, &[("AA", &["ORDER - - 1"])]);
    done(&t, "AA", 0);
    assert_eq!(leftover(&t, "AA"), Some((1, 1)));
    assert_eq!(order_of_play(&t.state), vec!["CC", "AA", "BB"]);
    // With ORDER 3 AA bids 3 + 2 left over and goes first.
    let t = play(&m, &st, &[("AA", &["ORDER - - 3"])]);
    assert_eq!(leftover(&t, "AA"), Some((0, 2)));
    assert_eq!(order_of_play(&t.state), vec!["AA", "CC", "BB"]);
}

// ----- 3.2, 3.3 income and supply -----

const SUPPLY: &str = r#"
next_census = 99
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
army_reserve = 7
navy_reserve = 4
air_force = 3
[[empire]]
code = "BB"
[[empire]]
code = "CC"
[[area]]
code = "AAA"
owner = "AA"
population = 2
armies = 4
forts = 2
base = { entrance = "NSE", ships = 3, laid_up = 5 }
[[area]]
code = "BBB"
owner = "AA"
population = 5
armies = 3
[[area]]
code = "CCC"
owner = "AA"
population = 1
armies = 1
forts = 2
[[area]]
code = "DDD"
owner = "AA"
population = 8
base = { entrance = "NSE" }
[[area]]
code = "GGG"
owner = "BB"
population = 3
[[area]]
code = "JJJ"
owner = "CC"
population = 3
[[fleet]]
area = "NSE"
owner = "AA"
ships = 4
armies = 3
base = "DDD"
[[fleet]]
area = "ESE"
owner = "AA"
ships = 3
armies = 2
base = "DDD"
[[fleet]]
area = "SSE"
owner = "AA"
ships = 1
base = "DDD"
"#;

#[test]
fn rule_3_2_3_3_income_and_supply_with_distance_plus_half() {
    let (m, st) = scenario(SUPPLY);
    let t = play(&m, &st, &[]);
    // Income: 2 + 5 + 1 + 8 = 16.
    // Land: AAA (4 armies + 3 ships + 2 forts - 2) / 2 = 3 (laid-up ships don't count);
    //   BBB 3 - 5 < 0: 0; CCC (1 + 2 - 1) / 2 = 1; DDD 0.
    // Sea (13.3, decision 6), distance counted from DDD's entrance NSE:
    //   NSE 0 + (4 + 3) / 2 = 3; ESE 1 + (3 + 2) / 2 = 3 (although DDD touches ESE);
    //   SSE 2 + 1 / 2 = 2.
    // Reserves: 7 / 4 + 4 / 4 + 3 / 4 = 1 + 1 + 0 = 2 (not 14 / 4 = 3).
    // Total 4 + 8 + 2 = 14.
    assert_eq!(economy(&t, "AA"), Some((16, 14, 2)));
    let aa = emp(&t.state, "AA");
    assert_eq!((aa.income, aa.supply_cost, aa.bps), (16, 14, 2));
}

#[test]
fn rule_3_3_sea_supply_distance_only() {
    let (m, st) = scenario(&format!(
        "{SUPPLY}\n[options]\nsea_supply = \"distance_only\"\n"
    ));
    let t = play(&m, &st, &[]);
    // Land 4, sea 0 + 1 + 2 = 3, reserves 2.
    assert_eq!(economy(&t, "AA"), Some((16, 9, 7)));
}

#[test]
fn rule_3_3_supply_beyond_income_leaves_no_bps_but_no_debt() {
    let (m, st) = scenario(
        r#"
next_census = 99
compute_balances = false
[[empire]]
code = "AA"
[[empire]]
code = "BB"
[[empire]]
code = "CC"
[[area]]
code = "AAA"
owner = "AA"
population = 1
armies = 9
forts = 9
[[area]]
code = "GGG"
owner = "BB"
population = 3
[[area]]
code = "JJJ"
owner = "CC"
population = 3
"#,
    );
    let t = play(&m, &st, &[]);
    // (9 + 9 - 1) / 2 = 8 against an income of 1.
    assert_eq!(economy(&t, "AA"), Some((1, 8, 0)));
    // 11.1 note: still in the game, it has income.
    assert_eq!(emp(&t.state, "AA").eliminated, None);
}

#[test]
fn rule_3_2_the_balance_is_the_next_turns_spending_money() {
    let (m, st) = scenario(SUPPLY);
    let t1 = play(&m, &st, &[]);
    assert_eq!(emp(&t1.state, "AA").bps, 2);
    // Two BPs: a GROW in BBB (5 + 2 for forest = 7) cannot be paid, a FORTIFY 2 can.
    let t2 = play(&m, &t1.state, &[("AA", &["GROW BBB", "FORTIFY DDD - 3"])]);
    failure(&t2, "AA", 0);
    done(&t2, "AA", 1);
    assert_eq!(area(&m, &t2.state, "DDD").forts, 2);
}

// ----- 11.1 elimination -----

const THREE: &str = r#"
next_census = 99
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
bps = 20
[[empire]]
code = "BB"
bps = 20
[[empire]]
code = "CC"
bps = 10
[[area]]
code = "AAA"
owner = "AA"
population = 3
[[area]]
code = "BBB"
owner = "AA"
population = 1
[[area]]
code = "CCC"
owner = "AA"
population = 1
[[area]]
code = "EEE"
owner = "BB"
population = 3
armies = 10
forts = 10
[[area]]
code = "GGG"
owner = "BB"
population = 3
[[area]]
code = "JJJ"
owner = "CC"
population = 3
"#;

fn eliminated_events(t: &TurnOutcome) -> Vec<String> {
    t.events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::Eliminated { empire } => Some(empire.to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn rule_11_1_an_empire_with_no_territory_is_eliminated() {
    let (m, mut st) = scenario(THREE);
    st.area_mut(m.find("JJJ").unwrap()).owner = None;
    let t = play(&m, &st, &[("CC", &["TAX"])]);
    assert_eq!(eliminated_events(&t), vec!["CC"]);
    assert_eq!(emp(&t.state, "CC").eliminated, Some(1));
    assert_eq!(emp(&t.state, "AA").eliminated, None);
    // Eliminated: no more actions, no more income.
    let t2 = play(&m, &t.state, &[("CC", &["TAX", "TAX"])]);
    assert!(outcomes(&t2, "CC").is_empty());
    assert_eq!(economy(&t2, "CC"), None);
    assert!(eliminated_events(&t2).is_empty());
}

#[test]
fn rule_11_1_losing_the_last_area_in_battle_eliminates() {
    let (m, mut st) = scenario(THREE);
    {
        let h = st.area_mut(m.find("HHH").unwrap());
        h.owner = Some(e("BB"));
        h.population = 1;
        h.armies = 10;
        h.forts = 10;
    }
    // JJJ: 3 population, no armies: falls to 9 attackers.
    let t = play(&m, &st, &[("BB", &["ATTACK HHH JJJ 9"])]);
    done(&t, "BB", 0);
    assert_eq!(area(&m, &t.state, "JJJ").owner, Some(e("BB")));
    assert_eq!(eliminated_events(&t), vec!["CC"]);
}

#[test]
fn rule_11_1_no_bps_and_no_income_eliminates() {
    let (m, mut st) = scenario(THREE);
    {
        let j = st.area_mut(m.find("JJJ").unwrap());
        j.population = 0;
    }
    emp_mut(&mut st, "CC").bps = 0;
    let t = play(&m, &st, &[]);
    assert_eq!(economy(&t, "CC"), Some((0, 0, 0)));
    assert_eq!(eliminated_events(&t), vec!["CC"]);
    // What it had is nobody's now.
    assert_eq!(area(&m, &t.state, "JJJ").owner, None);
}

#[test]
fn rule_11_1_income_all_spent_on_supply_is_still_in_the_game() {
    let (m, mut st) = scenario(THREE);
    {
        let j = st.area_mut(m.find("JJJ").unwrap());
        j.population = 1;
        j.armies = 1;
        j.forts = 2;
    }
    emp_mut(&mut st, "CC").bps = 0;
    let t = play(&m, &st, &[]);
    // (1 + 2 - 1) / 2 = 1 supply against 1 income: 0 BPs, but income.
    assert_eq!(economy(&t, "CC"), Some((1, 1, 0)));
    assert!(eliminated_events(&t).is_empty());
    assert_eq!(emp(&t.state, "CC").eliminated, None);
}

// ----- 11.2, 11.3 census -----

fn census(t: &TurnOutcome) -> BTreeMap<String, u32> {
    t.events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::Census { empire, vps } => Some((empire.to_string(), *vps)),
            _ => None,
        })
        .collect()
}

const CENSUS: &str = r#"
next_census = 1
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
vps = 2
[[empire]]
code = "BB"
vps = 2
[[empire]]
code = "CC"
vps = 2
[[area]]
code = "AAA"
owner = "AA"
population = 4
base = { entrance = "NSE" }
[[area]]
code = "BBB"
owner = "AA"
population = 3
[[area]]
code = "CCC"
owner = "AA"
[[area]]
code = "DDD"
owner = "AA"
population = 5
[[area]]
code = "EEE"
owner = "BB"
population = 3
[[area]]
code = "FFF"
owner = "BB"
armies = 1
forts = 1
[[area]]
code = "GGG"
owner = "BB"
population = 1
[[area]]
code = "HHH"
owner = "CC"
population = 2
[[area]]
code = "III"
owner = "CC"
population = 1
[[area]]
code = "JJJ"
owner = "CC"
population = 3
[[fleet]]
area = "NSE"
owner = "AA"
ships = 1
base = "AAA"
"#;

#[test]
fn rule_11_2_census_scores_one_vp_per_populated_land_area() {
    let (m, st) = scenario(CENSUS);
    let t = play(&m, &st, &[]);
    // AA: AAA, BBB, DDD (CCC is empty, the sea never counts); BB: EEE, GGG; CC: 3.
    let want: BTreeMap<String, u32> = [("AA", 3), ("BB", 2), ("CC", 3)]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    assert_eq!(census(&t), want);
    assert_eq!(emp(&t.state, "AA").vps, 5);
    assert_eq!(emp(&t.state, "BB").vps, 4);
    assert_eq!(emp(&t.state, "CC").vps, 5);
}

#[test]
fn rule_11_2_no_census_vps_on_other_turns() {
    let (m, mut st) = scenario(CENSUS);
    st.next_census = 3;
    let t1 = play(&m, &st, &[]);
    assert!(census(&t1).is_empty());
    assert_eq!(emp(&t1.state, "AA").vps, 2);
    let t2 = play(&m, &t1.state, &[]);
    assert!(census(&t2).is_empty());
    assert_eq!(emp(&t2.state, "AA").vps, 2);
    let t3 = play(&m, &t2.state, &[]);
    assert_eq!(census(&t3).get("AA"), Some(&3));
    assert_eq!(emp(&t3.state, "AA").vps, 5);
}

#[test]
fn rule_11_3_next_census_is_three_to_five_turns_later() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let (m, st) = scenario(&format!("seed = {seed}\n{CENSUS}"));
        let t = play(&m, &st, &[]);
        assert!(!census(&t).is_empty());
        seen.insert(t.state.next_census);
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![4, 5, 6]);
}

#[test]
fn rule_11_3_census_turns_follow_each_other_three_to_five_turns_apart() {
    let (m, mut st) = scenario(CENSUS);
    st.next_census = 4;
    let mut turns = Vec::new();
    for _ in 0..30 {
        let t = play(&m, &st, &[]);
        if !census(&t).is_empty() {
            turns.push(t.state.turn);
        }
        st = t.state;
    }
    assert_eq!(turns[0], 4);
    for w in turns.windows(2) {
        assert!((3..=5).contains(&(w[1] - w[0])), "{turns:?}");
    }
    assert!(turns.len() >= 6, "{turns:?}");
}

// ----- 11.6 victory -----

/// Each empire owns one populated area, so a census gives everyone 1 VP.
fn race(aa: i32, bb: i32, cc: i32, next_census: u32, extra: &str) -> (Map, GameState) {
    scenario(&format!(
        r#"
next_census = {next_census}
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
{extra}
[[empire]]
code = "AA"
vps = {aa}
[[empire]]
code = "BB"
vps = {bb}
[[empire]]
code = "CC"
vps = {cc}
[[area]]
code = "AAA"
owner = "AA"
population = 2
[[area]]
code = "GGG"
owner = "BB"
population = 2
[[area]]
code = "JJJ"
owner = "CC"
population = 2
"#
    ))
}

fn first_warning(aa: i32, bb: i32, cc: i32, extra: &str) -> Option<VictoryClaim> {
    let (m, st) = race(aa, bb, cc, 99, extra);
    let t = play(&m, &st, &[]);
    let w = warnings(&t);
    assert!(w.len() <= 1);
    assert_eq!(t.state.victory_warning, w.first().cloned());
    assert_eq!(t.state.result, None);
    assert!(game_overs(&t).is_empty());
    w.first().cloned()
}

#[test]
fn rule_11_6_runaway_warning() {
    // 20 is at least double the next highest, 10.
    assert_eq!(
        first_warning(20, 10, 3, ""),
        Some(claim(1, "AA", VictoryCondition::Runaway, 20))
    );
    // Exactly double counts.
    assert_eq!(
        first_warning(4, 8, 1, ""),
        Some(claim(1, "BB", VictoryCondition::Runaway, 8))
    );
}

#[test]
fn rule_11_6_knockout_warning() {
    // 10 of 22 is 45%; 10 is not double 6.
    assert_eq!(
        first_warning(10, 6, 6, ""),
        Some(claim(1, "AA", VictoryCondition::Knockout, 10))
    );
    // 4 of 10 is exactly 40%.
    assert_eq!(
        first_warning(3, 3, 4, ""),
        Some(claim(1, "CC", VictoryCondition::Knockout, 4))
    );
    // 5 of 13 is under 40%.
    assert_eq!(first_warning(5, 4, 4, ""), None);
}

#[test]
fn rule_11_6_points_warning() {
    // The default target is the number of land areas on the map, 10: 11 > 10.
    assert_eq!(
        first_warning(11, 10, 10, ""),
        Some(claim(1, "AA", VictoryCondition::Points, 11))
    );
    // The total must be greater than the target.
    assert_eq!(first_warning(10, 9, 9, ""), None);
    // A target set by the GM.
    let five = "[options]\npoints_target = 5";
    assert_eq!(
        first_warning(5, 6, 5, five),
        Some(claim(1, "BB", VictoryCondition::Points, 6))
    );
    assert_eq!(first_warning(5, 4, 4, five), None);
}

#[test]
fn rule_11_6_a_tie_for_the_highest_total_is_no_win() {
    assert_eq!(first_warning(20, 20, 0, ""), None);
    assert_eq!(first_warning(11, 11, 1, ""), None);
}

#[test]
fn rule_11_6_eliminated_empires_do_not_count() {
    // CC (50 VPs) owns nothing and is eliminated this turn: AA leads the survivors.
    let (m, mut st) = race(10, 6, 50, 99, "");
    st.area_mut(m.find("JJJ").unwrap()).owner = None;
    let t = play(&m, &st, &[]);
    assert_eq!(
        warnings(&t),
        vec![claim(1, "AA", VictoryCondition::Knockout, 10)]
    );
}

#[test]
fn rule_11_6_the_game_ends_on_the_next_census_turn_after_the_warning() {
    let (m, st) = race(10, 6, 6, 3, "");
    let t1 = play(&m, &st, &[]);
    let warned = claim(1, "AA", VictoryCondition::Knockout, 10);
    assert_eq!(warnings(&t1), vec![warned.clone()]);
    // Turn 2 is not a census turn: the condition still holds, but the game goes on.
    let t2 = play(&m, &t1.state, &[]);
    assert!(game_overs(&t2).is_empty());
    assert_eq!(t2.state.result, None);
    assert_eq!(t2.state.victory_warning, Some(warned));
    // Turn 3 is: 11 of 25 VPs is 44%.
    let t3 = play(&m, &t2.state, &[]);
    let over = claim(3, "AA", VictoryCondition::Knockout, 11);
    assert_eq!(game_overs(&t3), vec![over.clone()]);
    assert_eq!(t3.state.result, Some(over));
    // And no more turns are played.
    let err = adjudicate_err(&m, &t3.state);
    assert_eq!(err, TurnError::GameOver(e("AA"), 3));
}

fn adjudicate_err(m: &Map, st: &GameState) -> TurnError {
    match empires_rules::adjudicate(m, st, &BTreeMap::new()) {
        Ok(_) => panic!("a turn was played after the game ended"),
        Err(err) => err,
    }
}

#[test]
fn rule_11_6_a_condition_first_met_on_a_census_turn_only_warns() {
    let (m, st) = race(10, 6, 6, 1, "");
    let t1 = play(&m, &st, &[]);
    // Census: 11, 7, 7: knockout, but this is the warning.
    assert_eq!(
        warnings(&t1),
        vec![claim(1, "AA", VictoryCondition::Knockout, 11)]
    );
    assert!(game_overs(&t1).is_empty());
    assert_eq!(t1.state.result, None);
    // It ends on the next census, 3 to 5 turns later.
    let next = t1.state.next_census;
    assert!((4..=6).contains(&next));
    let mut st = t1.state;
    for turn in 2..next {
        let t = play(&m, &st, &[]);
        assert!(game_overs(&t).is_empty(), "turn {turn}");
        st = t.state;
    }
    let t = play(&m, &st, &[]);
    assert_eq!(
        game_overs(&t),
        vec![claim(next, "AA", VictoryCondition::Knockout, 12)]
    );
}

#[test]
fn rule_11_6_the_end_may_come_by_another_condition() {
    let (m, st) = race(20, 10, 3, 2, "");
    let t1 = play(&m, &st, &[]);
    assert_eq!(
        warnings(&t1),
        vec![claim(1, "AA", VictoryCondition::Runaway, 20)]
    );
    // Census on turn 2: 21, 11, 4: no longer double, but 21 of 36 is a knockout.
    let t2 = play(&m, &t1.state, &[]);
    assert_eq!(
        game_overs(&t2),
        vec![claim(2, "AA", VictoryCondition::Knockout, 21)]
    );
}

#[test]
fn rule_11_6_the_end_may_come_for_another_player() {
    // AA is warned (6 of 12, knockout); on the census turn BB captures AAA from AA.
    let (m, st) = scenario(
        r#"
next_census = 2
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
vps = 6
[[empire]]
code = "BB"
vps = 4
[[empire]]
code = "CC"
vps = 2
[[area]]
code = "AAA"
owner = "AA"
population = 4
[[area]]
code = "CCC"
owner = "AA"
population = 1
[[area]]
code = "BBB"
owner = "BB"
population = 1
armies = 10
forts = 10
[[area]]
code = "JJJ"
owner = "CC"
population = 1
"#,
    );
    let t1 = play(&m, &st, &[]);
    assert_eq!(
        warnings(&t1),
        vec![claim(1, "AA", VictoryCondition::Knockout, 6)]
    );
    let mut st2 = t1.state.clone();
    emp_mut(&mut st2, "BB").bps = 20;
    let t2 = play(&m, &st2, &[("BB", &["ATTACK BBB AAA 9"])]);
    done(&t2, "BB", 0);
    // Capture: 1 population lost, 3 captured: BB +4, AA -5. Census: AA 1 area, BB 2, CC 1.
    // AA 6 - 5 + 1 = 2, BB 4 + 4 + 2 = 10, CC 2 + 1 = 3: a runaway for BB.
    assert_eq!(emp(&t2.state, "AA").vps, 2);
    assert_eq!(emp(&t2.state, "BB").vps, 10);
    assert_eq!(emp(&t2.state, "CC").vps, 3);
    assert_eq!(
        game_overs(&t2),
        vec![claim(2, "BB", VictoryCondition::Runaway, 10)]
    );
    assert_eq!(
        adjudicate_err(&m, &t2.state),
        TurnError::GameOver(e("BB"), 2)
    );
}

#[test]
fn rule_11_6_the_warning_lapses_when_no_condition_holds_on_the_census_turn() {
    // AA 5 of 11 (45%) is warned; then the census gives AA 1, BB 4 and CC 4: 6, 7, 7, a tie.
    let (m, st) = scenario(
        r#"
next_census = 2
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
vps = 5
[[empire]]
code = "BB"
vps = 3
[[empire]]
code = "CC"
vps = 3
[[area]]
code = "AAA"
owner = "AA"
population = 1
[[area]]
code = "BBB"
owner = "BB"
population = 1
[[area]]
code = "CCC"
owner = "BB"
population = 1
[[area]]
code = "DDD"
owner = "BB"
population = 1
[[area]]
code = "EEE"
owner = "BB"
population = 1
[[area]]
code = "FFF"
owner = "CC"
population = 1
[[area]]
code = "GGG"
owner = "CC"
population = 1
[[area]]
code = "HHH"
owner = "CC"
population = 1
[[area]]
code = "JJJ"
owner = "CC"
population = 1
"#,
    );
    let t1 = play(&m, &st, &[]);
    assert_eq!(
        warnings(&t1),
        vec![claim(1, "AA", VictoryCondition::Knockout, 5)]
    );
    let t2 = play(&m, &t1.state, &[]);
    assert_eq!(
        (
            emp(&t2.state, "AA").vps,
            emp(&t2.state, "BB").vps,
            emp(&t2.state, "CC").vps
        ),
        (6, 7, 7)
    );
    assert!(game_overs(&t2).is_empty());
    assert_eq!(t2.state.result, None);
    assert_eq!(t2.state.victory_warning, None);
    // The game goes on.
    let t3 = play(&m, &t2.state, &[]);
    assert_eq!(t3.state.turn, 3);
    assert!(warnings(&t3).is_empty());
}

#[test]
fn option_victory_from_turn_keeps_the_first_turns_free_of_victories() {
    // AA has a runaway lead from the start; with `victory_from_turn = 3` neither the warning
    // nor the census of turn 2 may end anything; turn 3 warns as 11.6 says.
    let (m, st) = race(20, 10, 3, 2, "[options]\nvictory_from_turn = 3");
    let t1 = play(&m, &st, &[]);
    assert!(warnings(&t1).is_empty());
    let t2 = play(&m, &t1.state, &[]);
    assert!(warnings(&t2).is_empty() && game_overs(&t2).is_empty());
    assert_eq!(t2.state.result, None);
    let t3 = play(&m, &t2.state, &[]);
    assert_eq!(warnings(&t3).len(), 1);
    // Without the option, the same position warns on turn 1 (11.6, decision 19).
    let (m, st) = race(20, 10, 3, 2, "");
    assert_eq!(warnings(&play(&m, &st, &[])).len(), 1);
}

/// Decision 40 (6.5, S.8, decision 17): land dispersal applies to every land area, unowned
/// ones included; armies dispersed where nobody owns the area (disowned this turn or never
/// owned) go to no reserve. European: S.8's trains cut it there as well.
#[test]
fn decision_40_dispersal_in_unowned_areas_and_trains_there() {
    let (m, st) = scenario(
        r#"
variant = "european"
seed = 5
next_census = 99
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
[[empire]]
code = "BB"
[[empire]]
code = "CC"
[[area]]
code = "AAA"
owner = "AA"
population = 2
[[area]]
code = "CCC"
owner = "AA"
population = 1
armies = 7
trains = 2
[[area]]
code = "DDD"
owner = "AA"
population = 1
armies = 7
[[area]]
code = "BBB"
population = 1
armies = 8
trains = 3
[[area]]
code = "GGG"
owner = "BB"
population = 3
[[area]]
code = "JJJ"
owner = "CC"
population = 3
"#,
    );
    let t = play(&m, &st, &[("AA", &["DISOWN CCC"])]);
    done(&t, "AA", 0);
    let growth = t
        .events
        .iter()
        .find_map(|ev| match &ev.what {
            What::Unowned { area, growth } if area.as_str() == "BBB" => Some(*growth),
            _ => None,
        })
        .unwrap();
    // CCC, disowned this turn: 7 armies over 1 population lose 7 / 2 = 3, cut by its 2
    // trains to 1; one train is used. Nobody's reserve gains the army.
    let c = area(&m, &t.state, "CCC");
    assert_eq!((c.owner, c.armies, c.trains), (None, 6, 1));
    // BBB, never owned, after its random action: 9 armies over 1 (army), 8 over 1 (fort) or
    // 8 over 2 (population) all lose 4, cut by 3 trains to 1; one train is used.
    let b = area(&m, &t.state, "BBB");
    let armies = if growth == Growth::Army { 8 } else { 7 };
    assert_eq!((b.armies, b.trains), (armies, 2));
    let d = dispersals(&t);
    assert!(d.contains(&(None, "CCC".into(), 1, 0)), "{d:?}");
    assert!(d.contains(&(None, "BBB".into(), 1, 0)), "{d:?}");
    // DDD, still AA's and without trains: 7 / 2 = 3 to AA's reserve, which is all it gets.
    assert!(
        d.contains(&(Some("AA".into()), "DDD".into(), 3, 0)),
        "{d:?}"
    );
    assert_eq!(emp(&t.state, "AA").army_reserve, 3);
}

/// Decision 41 (3.3, 13.3, 7.2, decision 3): a fleet with no route to a base pays no
/// distance: half its armies and ships under `distance_plus_half`, nothing under
/// `distance_only`, counted after the turn's loss of a ship and an army.
#[test]
fn decision_41_a_cut_off_fleet_pays_no_distance() {
    let text = r#"
next_census = 99
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
[[empire]]
code = "BB"
[[empire]]
code = "CC"
[[area]]
code = "AAA"
owner = "AA"
population = 5
base = { entrance = "NSE" }
[[area]]
code = "GGG"
owner = "BB"
population = 3
[[area]]
code = "JJJ"
owner = "CC"
population = 3
[[fleet]]
area = "SSE"
owner = "AA"
ships = 4
armies = 3
"#;
    let (m, st) = scenario(text);
    let t = play(&m, &st, &[]);
    // The fleet (2 sea areas from AAA's entrance, but cut off) loses a ship and an army: 3
    // and 2, costing (3 + 2) / 2 = 2 (not 2 + 2 with the distance, nor 7 / 2 = 3 before
    // the loss). The reserves of 1 ship and 1 army cost nothing; AAA nothing.
    let f = area(&m, &t.state, "SSE").fleet.clone().unwrap();
    assert_eq!((f.ships, f.armies), (3, 2));
    assert_eq!(economy(&t, "AA"), Some((5, 2, 3)));
    let (m, st) = scenario(&format!(
        "{text}\n[options]\nsea_supply = \"distance_only\"\n"
    ));
    let t = play(&m, &st, &[]);
    assert_eq!(economy(&t, "AA"), Some((5, 0, 5)));
}

/// Decision 42 (11.1, 5.18, 6.4, decision 13): an eliminated empire leaves its land areas
/// unowned with everything in them (armies, forts, population, a base and its ships, the
/// defence settings); its fleets at sea, spy, watchers and capital are removed. The areas
/// take random actions from the next turn; capturing one scores for the captor only.
#[test]
fn decision_42_an_eliminated_empire_leaves_its_areas_as_they_stand() {
    use empires_rules::state::DefenceMode;
    let (m, st) = scenario(
        r#"
variant = "european"
seed = 9
next_census = 99
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
[[empire]]
code = "BB"
[[empire]]
code = "CC"
vps = 5
spy = "AAA"
capital = "JJJ"
[[area]]
code = "AAA"
owner = "AA"
population = 3
[[area]]
code = "HHH"
owner = "AA"
population = 1
armies = 10
forts = 10
trains = 2
[[area]]
code = "GGG"
owner = "BB"
population = 3
[[area]]
code = "EEE"
owner = "BB"
population = 3
watcher = "CC"
[[area]]
code = "JJJ"
owner = "CC"
armies = 2
forts = 2
defence = "entrench"
against = "HHH"
[[area]]
code = "III"
owner = "CC"
base = { entrance = "SSE", ships = 2, laid_up = 1 }
[[fleet]]
area = "ESE"
owner = "CC"
ships = 2
armies = 1
base = "III"
"#,
    );
    // CC has no population, so no income, and no BPs: it is eliminated (11.1).
    let t = play(&m, &st, &[]);
    assert_eq!(eliminated_events(&t), vec!["CC"]);
    let s = &t.state;
    let j = area(&m, s, "JJJ");
    assert_eq!((j.owner, j.armies, j.forts, j.population), (None, 2, 2, 0));
    assert_eq!(
        (j.defence, j.defence_against.map(|c| c.to_string())),
        (DefenceMode::Entrench, Some("HHH".into()))
    );
    let i = area(&m, s, "III");
    assert_eq!(i.owner, None);
    let b = i.base.clone().unwrap();
    assert_eq!((b.entrance.as_str(), b.ships, b.laid_up), ("SSE", 2, 1));
    assert_eq!(area(&m, s, "ESE").fleet, None);
    let cc = emp(s, "CC");
    assert_eq!((cc.spy.clone(), cc.capital), (None, None));
    assert_eq!(area(&m, s, "EEE").watcher, None);
    // No random action yet for the areas CC left; from the next turn on, one each.
    let grew = |t: &TurnOutcome, code: &str| {
        t.events
            .iter()
            .any(|ev| matches!(&ev.what, What::Unowned { area, .. } if area.as_str() == code))
    };
    assert!(!grew(&t, "JJJ") && !grew(&t, "III"));
    let mut st2 = t.state.clone();
    emp_mut(&mut st2, "AA").bps = 20;
    let t2 = play(&m, &st2, &[("AA", &["ATTACK HHH JJJ 10"])]);
    assert!(grew(&t2, "JJJ") && grew(&t2, "III"));
    done(&t2, "AA", 0);
    let battle = t2
        .events
        .iter()
        .find_map(|ev| match &ev.what {
            What::LandBattle(b) => Some((**b).clone()),
            _ => None,
        })
        .unwrap();
    // The neutral armies keep CC's entrenchment against HHH: the defence is doubled, 8 (or
    // 10 if the random action was an army); 10 attackers still take the empty-handed area.
    assert!([8, 10].contains(&battle.defence_strength), "{battle:?}");
    assert_eq!(battle.defender, None);
    assert!(battle.captured);
    // The captor scores 1 + the population left (none); CC, out of the game, nothing.
    assert_eq!(battle.population_left, 0);
    assert_eq!((battle.attacker_vps, battle.defender_vps), (1, 0));
    assert_eq!(emp(&t2.state, "AA").vps, 1);
    assert_eq!(emp(&t2.state, "CC").vps, 5);
}

/// Decision 48 (11.6): the victory conditions compare the empires still in the game after
/// the turn's eliminations: the runaway's "next highest" and the knockout's total leave an
/// empire eliminated this turn out.
#[test]
fn decision_48_victory_leaves_eliminated_empires_out() {
    // CC (15 VPs) is eliminated: AA's 20 is double BB's 6, a runaway (with CC second, 20 is
    // not double 15, and 20 of 41 would be a knockout).
    let (m, mut st) = race(20, 6, 15, 99, "");
    st.area_mut(m.find("JJJ").unwrap()).owner = None;
    let t = play(&m, &st, &[]);
    assert_eq!(eliminated_events(&t), vec!["CC"]);
    assert_eq!(
        warnings(&t),
        vec![claim(1, "AA", VictoryCondition::Runaway, 20)]
    );
    // CC (9 VPs) is eliminated: AA's 10 of 18 is a knockout (10 of 27 would be none).
    let (m, mut st) = race(10, 8, 9, 99, "");
    st.area_mut(m.find("JJJ").unwrap()).owner = None;
    let t = play(&m, &st, &[]);
    assert_eq!(eliminated_events(&t), vec!["CC"]);
    assert_eq!(
        warnings(&t),
        vec![claim(1, "AA", VictoryCondition::Knockout, 10)]
    );
}
