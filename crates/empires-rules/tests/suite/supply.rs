//! European Empires supply (seed 003): trains, capitals, supply lines, S.1-S.13.
use crate::common;
use common::*;
use empires_rules::event::{Outcome, What};
use empires_rules::supply::{blockaded, centres_supplying, is_centre, source};

/// AA's capital AAA (a port) holds 3 trains; a line runs CCC -> BBB -> AAA and DDD -> AAA.
const EUROPE: &str = r#"
variant = "european"
next_census = 9
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
bps = 30
treasury = 20
army_reserve = 6
capital = "AAA"
supply_capacity = 5
[[empire]]
code = "BB"
bps = 30
treasury = 20
capital = "GGG"
[[empire]]
code = "CC"
bps = 10
[[area]]
code = "AAA"
owner = "AA"
population = 4
armies = 6
forts = 1
trains = 3
base = { entrance = "NSE", ships = 2 }
[[area]]
code = "BBB"
owner = "AA"
population = 3
armies = 2
retreat_to = "AAA"
[[area]]
code = "CCC"
owner = "AA"
population = 2
retreat_to = "BBB"
[[area]]
code = "DDD"
owner = "AA"
population = 5
armies = 3
retreat_to = "AAA"
[[area]]
code = "EEE"
owner = "BB"
population = 3
armies = 1
trains = 2
[[area]]
code = "FFF"
owner = "BB"
population = 2
armies = 1
[[area]]
code = "GGG"
owner = "BB"
population = 4
armies = 4
trains = 2
base = { entrance = "ESE", ships = 2 }
[[area]]
code = "HHH"
owner = "CC"
population = 2
armies = 2
[[area]]
code = "III"
owner = "CC"
population = 1
[[area]]
code = "JJJ"
owner = "CC"
population = 3
armies = 1
"#;

fn europe() -> (empires_rules::Map, empires_rules::GameState) {
    scenario(EUROPE)
}

fn id(m: &empires_rules::Map, c: &str) -> empires_rules::map::AreaId {
    m.find(c).unwrap()
}

fn trains(m: &empires_rules::Map, st: &empires_rules::GameState, c: &str) -> u32 {
    area(m, st, c).trains
}

#[test]
fn rule_s2_supply_centres_are_the_capital_and_naval_bases() {
    let (m, st) = europe();
    assert!(is_centre(&m, &st, e("AA"), id(&m, "AAA")));
    assert!(!is_centre(&m, &st, e("AA"), id(&m, "DDD")));
    // GGG is BB's capital and base, not AA's.
    assert!(!is_centre(&m, &st, e("AA"), id(&m, "GGG")));
    assert!(is_centre(&m, &st, e("BB"), id(&m, "GGG")));
}

#[test]
fn rule_s4_supply_lines_follow_retreat_locations_through_own_areas() {
    let (m, mut st) = europe();
    assert_eq!(source(&m, &st, id(&m, "CCC")), Some(id(&m, "AAA")));
    assert_eq!(source(&m, &st, id(&m, "DDD")), Some(id(&m, "AAA")));
    assert_eq!(source(&m, &st, id(&m, "AAA")), Some(id(&m, "AAA")));
    // The line breaks where it runs through an area the empire does not own.
    st.areas[id(&m, "BBB").index()].owner = Some(e("BB"));
    assert_eq!(source(&m, &st, id(&m, "CCC")), None);
    // A loop of retreat locations leads nowhere.
    st.areas[id(&m, "BBB").index()].owner = Some(e("AA"));
    st.areas[id(&m, "BBB").index()].retreat_to = Some("CCC".parse().unwrap());
    assert_eq!(source(&m, &st, id(&m, "CCC")), None);
}

#[test]
fn rule_s3_capital_costs_ten_treasury_bps_and_a_coastal_one_is_a_base() {
    let (m, st) = europe();
    let t = play(
        &m,
        &st,
        &[("AA", &["CAPITAL DDD", "CAPITAL BBB", "CAPITAL CCC"])],
    );
    done(&t, "AA", 0);
    let aa = emp(&t.state, "AA");
    assert_eq!(aa.capital.unwrap().to_string(), "BBB");
    // Two capitals named: 20 treasury BPs; the third had no treasury left.
    assert!(
        matches!(&outcomes(&t, "AA")[2], Outcome::Failed { reason } if reason.contains("treasury holds 0"))
    );
    assert_eq!(aa.treasury, 0);
    // DDD is coastal: it became a naval base as well (entrance NSE, first in map order).
    assert_eq!(
        area(&m, &t.state, "DDD")
            .base
            .as_ref()
            .unwrap()
            .entrance
            .to_string(),
        "NSE"
    );
    assert!(area(&m, &t.state, "BBB").base.is_none());
}

#[test]
fn rule_s5_moves_cost_less_with_trains_and_use_one() {
    let (m, mut st) = europe();
    // Exactly the BPs needed, so no leftover BPs build trains at the end (S.12).
    st.empires[0].bps = 2;
    // 5 armies from AAA (3 trains): 5 - 3 = 2 BPs, one train used, the other two follow
    // except one that stays with the army left behind.
    let t = play(&m, &st, &[("AA", &["MOVE AAA DDD 5"])]);
    assert_eq!(spent(&t, "AA", 0), 2);
    assert_eq!(trains(&m, &t.state, "AAA"), 1);
    // DDD: 8 armies over population 5 would lose 1 to dispersal; its train saves it and
    // is used up (S.8).
    assert_eq!(area(&m, &t.state, "DDD").armies, 3 + 5);
    assert_eq!(trains(&m, &t.state, "DDD"), 0);
}

#[test]
fn rule_s5_moves_without_trains_cost_full_price_and_disperse_an_army() {
    let (m, st) = europe();
    let t = play(&m, &st, &[("AA", &["MOVE DDD AAA 3"])]);
    assert_eq!(spent(&t, "AA", 0), 3);
    // 2 arrive; 1 went to the reserve.
    assert!(matches!(&t.events.iter().find_map(|ev| match &ev.what {
        What::Action { result, .. } => Some(result.clone()),
        _ => None
    }), Some(r) if r.contains("1 army dispersed")));
}

#[test]
fn rule_s5_sea_moves_are_not_affected() {
    let (m, st) = scenario(&format!(
        "{EUROPE}\n[[fleet]]\narea = \"NSE\"\nowner = \"AA\"\nships = 3\nbase = \"AAA\"\n"
    ));
    let t = play(&m, &st, &[("AA", &["MOVE DDD NSE 3"])]);
    assert_eq!(spent(&t, "AA", 0), 1);
    assert_eq!(area(&m, &t.state, "NSE").fleet.as_ref().unwrap().armies, 3);
}

#[test]
fn rule_s6_land_attacks_need_a_train() {
    let (m, st) = europe();
    let t = play(&m, &st, &[("AA", &["ATTACK DDD EEE 3"])]);
    assert!(failure(&t, "AA", 0).contains("no supply trains in DDD"));
}

#[test]
fn rule_s6_a_capture_with_an_extra_train_moves_the_whole_force() {
    let (m, mut st) = europe();
    // Put 10 armies and 3 trains in DDD, next to EEE (1 army, pop 3, 2 trains).
    st.areas[id(&m, "DDD").index()].armies = 10;
    st.areas[id(&m, "DDD").index()].trains = 3;
    let t = play(&m, &st, &[("AA", &["ATTACK DDD EEE 10"])]);
    // 10 armies - 3 trains = 7 BPs.
    assert_eq!(spent(&t, "AA", 0), 7);
    let b = t
        .events
        .iter()
        .find_map(|ev| match &ev.what {
            What::LandBattle(b) => Some(b.clone()),
            _ => None,
        })
        .unwrap();
    assert!(b.captured);
    // One train paid for the attack, one moved the whole force: nobody went back.
    assert_eq!(b.returned, 0);
    assert_eq!(b.moved_in, b.attackers - b.attacker_lost);
    // S.6: the defender's 2 trains took collateral damage (1), the rest passed to AA;
    // the last train of DDD went along since no army stayed behind (S.7).
    assert_eq!(b.trains_lost, 1);
    assert_eq!(trains(&m, &t.state, "DDD"), 0);
    assert_eq!(area(&m, &t.state, "EEE").owner, Some(e("AA")));
}

#[test]
fn rule_s7_one_train_stays_with_armies_left_behind() {
    let (m, mut st) = europe();
    st.empires[0].bps = 1;
    st.areas[id(&m, "AAA").index()].trains = 4;
    // 3 of 6 armies move for 1 BP: one train used, one stays, two go.
    let t = play(&m, &st, &[("AA", &["MOVE AAA DDD 3"])]);
    assert_eq!(spent(&t, "AA", 0), 1);
    assert_eq!(trains(&m, &t.state, "AAA"), 1);
    // DDD: 2 trains arrived; at the end one of them stops a dispersal (S.8).
    assert_eq!(trains(&m, &t.state, "DDD"), 1);
    assert_eq!(area(&m, &t.state, "DDD").armies, 6);
}

#[test]
fn rule_s8_trains_cut_dispersals_and_one_is_used() {
    let (m, mut st) = europe();
    // CCC: 7 armies, pop 2, no forts -> 7 / 2 = 3 would disperse; 2 trains cut it to 1.
    st.areas[id(&m, "CCC").index()].armies = 7;
    st.areas[id(&m, "CCC").index()].trains = 2;
    let t = play(&m, &st, &[]);
    let c = area(&m, &t.state, "CCC");
    assert_eq!(c.armies, 6);
    // One train used by S.8; the supply cost of (6 - 2) / 2 = 2 then used no more
    // because only one train was left (S.9 needs more than one).
    assert_eq!(c.trains, 1);
}

#[test]
fn rule_s9_trains_cut_supply_costs_over_one_bp() {
    let (m, mut st) = europe();
    // DDD: 11 armies, pop 5: cost (11 - 5) / 2 = 3; 3 trains cut it to 0 and one is used.
    st.areas[id(&m, "DDD").index()].armies = 11;
    st.areas[id(&m, "DDD").index()].forts = 6;
    st.areas[id(&m, "DDD").index()].trains = 3;
    let with = play(&m, &st, &[]);
    st.areas[id(&m, "DDD").index()].trains = 0;
    let without = play(&m, &st, &[]);
    let cost = |t: &empires_rules::TurnOutcome| emp(&t.state, "AA").supply_cost;
    // (11 + 6 - 5) / 2 = 6, less 3 trains.
    assert_eq!(cost(&without) - cost(&with), 3);
    assert_eq!(trains(&m, &with.state, "DDD"), 2);
}

#[test]
fn rule_s10_s11_gather_is_limited_by_capacity_population_and_bps() {
    let (m, mut st) = europe();
    st.empires[0].supply_capacity = 3;
    let t = play(
        &m,
        &st,
        &[(
            "AA",
            &[
                "GATHER AAA - 9",
                "GATHER AAA",
                "GATHER AAA - AB-1",
                "GATHER DDD - 1",
            ],
        )],
    );
    assert!(matches!(&outcomes(&t, "AA")[0], Outcome::CutDown { .. }));
    done(&t, "AA", 1);
    done(&t, "AA", 2);
    assert!(failure(&t, "AA", 3).contains("neither your capital nor a naval base"));
    // 3 + 3 + 3 + 2 gathered for 8 BPs. At the end AAA's trains stop a dispersal (6 armies
    // over population 4 + fort 1) and cut its supply cost of 2 BPs, using one train each
    // (S.8, S.9).
    assert_eq!(
        spent(&t, "AA", 0) + spent(&t, "AA", 1) + spent(&t, "AA", 2),
        8
    );
    assert_eq!(trains(&m, &t.state, "AAA"), 3 + 3 + 3 + 2 - 2);
}

/// BB's ships in NSE, outside AA's capital AAA and a base of AA's in DDD, both entered
/// from NSE.
fn blockading() -> (empires_rules::Map, empires_rules::GameState) {
    let (m, mut st) = europe();
    st.areas[id(&m, "DDD").index()].base = Some(empires_rules::state::NavalBase {
        entrance: "NSE".parse().unwrap(),
        ships: 0,
        laid_up: 0,
        built: 0,
    });
    st.areas[id(&m, "NSE").index()].fleet = Some(empires_rules::state::Fleet {
        owner: e("BB"),
        ships: 2,
        armies: 0,
        base: Some("GGG".parse().unwrap()),
    });
    (m, st)
}

fn leftover(t: &empires_rules::TurnOutcome, who: &str) -> (u32, u32, u32) {
    t.events
        .iter()
        .find_map(|ev| match &ev.what {
            What::Leftover {
                empire,
                trains,
                armies,
                order_bps,
            } if empire.as_str() == who => Some((*trains, *armies, *order_bps)),
            _ => None,
        })
        .unwrap()
}

#[test]
fn rule_s11_no_gathering_in_a_blockaded_base() {
    let (m, st) = blockading();
    assert!(blockaded(&m, &st, id(&m, "DDD")));
    let t = play(&m, &st, &[("AA", &["GATHER DDD - 1"])]);
    assert!(failure(&t, "AA", 0).contains("blockaded"));
    assert_eq!(trains(&m, &t.state, "DDD"), 0);
}

#[test]
fn decision_36_a_blockaded_coastal_capital_gathers_no_trains() {
    let (m, st) = blockading();
    // The capital AAA is a naval base entered from NSE, where BB's ships are.
    assert!(blockaded(&m, &st, id(&m, "AAA")));
    let t = play(&m, &st, &[("AA", &["GATHER AAA - 1"])]);
    assert!(failure(&t, "AA", 0).contains("blockaded"));
}

#[test]
fn decision_36_leftover_bps_of_a_blockaded_capital_go_to_armies() {
    let (m, st) = blockading();
    // 30 BPs left and no trains may be built in the capital: 10 armies, no bid.
    let t = play(&m, &st, &[]);
    assert_eq!(leftover(&t, "AA"), (0, 10, 0));
    // The forecast of `check` splits the leftover the same way.
    let f = empires_rules::engine::forecast(&m, &st, e("AA"), &sheet(&[])).unwrap();
    assert_eq!(
        (f.leftover_trains, f.leftover_armies, f.leftover_order_bid),
        (0, 10, 0)
    );
    // Unblockaded, the capital takes 2 trains first (decision 28), in the forecast too.
    let (m, st) = europe();
    let f = empires_rules::engine::forecast(&m, &st, e("AA"), &sheet(&[])).unwrap();
    assert_eq!(
        (f.leftover_trains, f.leftover_armies, f.leftover_order_bid),
        (2, 9, 1)
    );
}

#[test]
fn decision_36_a_capital_whose_base_is_closed_is_not_blockaded() {
    let (m, st) = blockading();
    // CLOSE the capital's base: it has no base, so no blockade, and it gathers again.
    let t = play(&m, &st, &[("AA", &["CLOSE AAA", "GATHER AAA - 1"])]);
    done(&t, "AA", 0);
    assert!(!blockaded(&m, &t.state, id(&m, "AAA")));
    done(&t, "AA", 1);
}

#[test]
fn rule_s12_leftover_bps_build_trains_in_the_capital_first() {
    let (m, st) = europe();
    // 30 BPs left: 2 trains bring AAA's 3 to the capacity of 5, then 28 BPs = 9 armies + 1.
    let t = play(&m, &st, &[]);
    assert_eq!(leftover(&t, "AA"), (2, 9, 1));
}

#[test]
fn rule_s13_1_wagons_move_trains_and_reset_the_retreat_location() {
    let (m, st) = europe();
    let t = play(
        &m,
        &st,
        &[(
            "AA",
            &["WAGONS AAA DDD 2", "WAGONS DDD EEE 1", "WAGONS AAA CCC 1"],
        )],
    );
    done(&t, "AA", 0);
    // DDD's line now points back to AAA explicitly (it already did).
    assert_eq!(
        area(&m, &t.state, "DDD").retreat_to.unwrap().to_string(),
        "AAA"
    );
    // Trains sent into BB's area become BB's (decision 25).
    done(&t, "AA", 1);
    assert_eq!(trains(&m, &t.state, "EEE"), 2 + 1);
    let gift = t.events.iter().find(|ev| matches!(&ev.what, What::Action { order, .. } if order.starts_with("WAGONS DDD EEE"))).unwrap();
    assert!(gift.concerns.contains(&e("BB")));
    assert!(failure(&t, "AA", 2).contains("not a land area next to AAA"));
}

#[test]
fn rule_s10_s13_supply_moves_are_limited_by_capacity() {
    let (m, mut st) = europe();
    st.empires[0].supply_capacity = 2;
    let t = play(&m, &st, &[("AA", &["WAGONS AAA DDD 3"])]);
    assert!(
        matches!(&outcomes(&t, "AA")[0], Outcome::CutDown { reason } if reason.contains("at most 2"))
    );
}

#[test]
fn rule_s13_2_send_goes_up_a_supply_line() {
    let (m, st) = europe();
    // CCC draws on AAA through BBB: trains go straight there.
    let t = play(&m, &st, &[("AA", &["SEND AAA CCC 2", "SEND DDD CCC 1"])]);
    done(&t, "AA", 0);
    assert_eq!(trains(&m, &t.state, "CCC"), 2);
    assert!(failure(&t, "AA", 1).contains("neither your capital nor a naval base"));
}

#[test]
fn rule_s13_2_supply_lines_chain_through_further_centres() {
    let (m, mut st) = europe();
    // DDD becomes a base whose own line runs to AAA; BBB now draws on DDD? No: make CCC's
    // line end at a base in BBB, whose retreat location leads on to AAA.
    st.areas[id(&m, "BBB").index()].base = None;
    st.areas[id(&m, "DDD").index()].base = Some(empires_rules::state::NavalBase {
        entrance: "ESE".parse().unwrap(),
        ships: 0,
        laid_up: 0,
        built: 0,
    });
    st.areas[id(&m, "EEE").index()].owner = Some(e("AA"));
    st.areas[id(&m, "EEE").index()].retreat_to = Some("DDD".parse().unwrap());
    // EEE's source is the base in DDD, whose own line leads to the capital AAA.
    assert_eq!(
        centres_supplying(&m, &st, id(&m, "EEE")),
        vec![id(&m, "DDD"), id(&m, "AAA")]
    );
    let t = play(&m, &st, &[("AA", &["SEND AAA EEE 1"])]);
    done(&t, "AA", 0);
}

#[test]
fn rule_s13_3_unload_from_the_fleets_base_limited_by_ships() {
    let (m, st) = scenario(&format!(
        "{EUROPE}\n[[fleet]]\narea = \"ESE\"\nowner = \"AA\"\nships = 2\nbase = \"AAA\"\n"
    ));
    // ESE touches DDD and GGG; trains come from AAA's base, no more than 2 ships carry.
    let t = play(
        &m,
        &st,
        &[("AA", &["UNLOAD ESE DDD 3", "UNLOAD ESE AAA 1"])],
    );
    assert!(
        matches!(&outcomes(&t, "AA")[0], Outcome::CutDown { reason } if reason.contains("at most 2"))
    );
    assert_eq!(trains(&m, &t.state, "AAA") + 2, 3 + 2 - 2 + 2);
    assert!(failure(&t, "AA", 1).contains("not a land area next to ESE"));
}

#[test]
fn supply_actions_are_only_for_european_games() {
    let (m, mut st) = europe();
    st.variant = empires_rules::Variant::Medieval;
    let t = play(&m, &st, &[("AA", &["GATHER AAA - 1"])]);
    assert!(failure(&t, "AA", 0).contains("European Empires supply action"));
    // And moves cost the ordinary 1 BP whatever the trains.
    let t = play(&m, &st, &[("AA", &["MOVE DDD AAA 3"])]);
    assert_eq!(spent(&t, "AA", 0), 1);
}

/// Decision 54 (decisions 17, 23): the army a move without supply trains disperses goes to
/// the reserve and does not stop a later RESERVE, as DISBAND would (5.5).
#[test]
fn decision_54_an_army_dispersed_by_an_unsupplied_move_does_not_block_reserve() {
    let (m, st) = europe();
    // DDD has no trains: 3 BPs, 2 arrive in AAA and 1 goes to the reserve (6 -> 7).
    let t = play(&m, &st, &[("AA", &["MOVE DDD AAA 3", "RESERVE AAA - 7"])]);
    assert_eq!(spent(&t, "AA", 0), 3);
    done(&t, "AA", 1);
    // All 7 reserve armies, the dispersed one included, are placed for 7 BPs.
    assert_eq!(spent(&t, "AA", 1), 7);
    assert_eq!(area(&m, &t.state, "DDD").armies, 0);
    // AAA: 6 + 2 + 7 = 15 armies over population 4 + 1 fort would lose 3 to dispersal; its
    // trains (3, and 2 more left over in the capital) cut that to none and one is used
    // (S.8).
    assert_eq!(area(&m, &t.state, "AAA").armies, 15);
}
