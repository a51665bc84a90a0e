//! Build actions on land: LEVY, MOBILISE, ARMY, DISARM, RESERVE, DISBAND, FORTIFY, RAZE,
//! GROW, DISOWN, AIR (5.1-5.9, 5.18, 5.19).
use crate::common;
use common::*;
use empires_rules::Variant;
use empires_rules::event::Outcome;

#[test]
fn rule_5_1_levy_turns_half_the_population_into_armies() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["LEVY DDD", "LEVY DDD", "LEVY DDD"])]);
    // 5 -> 3 pop, +2 armies; 3 -> 2, +1; 2 -> 1, +1.
    let d = area(&m, &t.state, "DDD");
    assert_eq!(d.population, 1);
    let levied = 2 + 1 + 1;
    // End-of-turn dispersal: 3 + 4 = 7 armies over pop 1 -> half dispersed.
    assert_eq!(d.armies, (3 + levied) - (3 + levied) / 2);
}

#[test]
fn rule_5_1_levy_of_too_small_a_population_fails() {
    let (m, mut st) = basic();
    let i = m.find("CCC").unwrap().index();
    st.areas[i].population = 1;
    let t = play(&m, &st, &[("AA", &["LEVY CCC"])]);
    assert!(failure(&t, "AA", 0).contains("too little population"));
}

#[test]
fn rule_5_2_mobilise_levies_everywhere() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["MOBILISE"])]);
    for (code, pop) in [("AAA", 2), ("BBB", 2), ("CCC", 1), ("DDD", 3)] {
        assert_eq!(area(&m, &t.state, code).population, pop, "{code}");
    }
}

#[test]
fn rule_5_3_army_builds_into_the_reserve_at_three_bps() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["ARMY - - 4", "ARMY", "ARMY - - AB-1"])]);
    done(&t, "AA", 0);
    // 30 - 12 = 18: blank builds 6 more.
    done(&t, "AA", 1);
    assert!(failure(&t, "AA", 2).contains("ALL BUT"));
    // 6 + 4 + 6 (+1 dispersed from AAA at the end).
    assert_eq!(emp(&t.state, "AA").army_reserve, 6 + 4 + 6 + 1);
}

#[test]
fn rule_5_5_reserve_places_armies_limited_by_armies_ships_and_population() {
    let (m, mut st) = basic();
    st.empires[0].bps = 6;
    // CCC: 0 armies, pop 2, no ships: at most 2 per action.
    let t = play(&m, &st, &[("AA", &["RESERVE CCC - 5", "RESERVE CCC - 5"])]);
    assert!(
        matches!(&outcomes(&t, "AA")[0], Outcome::CutDown { reason } if reason.contains("at most 2"))
    );
    // Second action: 2 armies + pop 2 = 4 allowed, the reserve has 4 left.
    assert!(matches!(&outcomes(&t, "AA")[1], Outcome::CutDown { .. }));
    // 6 placed in CCC; at the end 6 / 2 disperse (and 1 from AAA): nothing left over.
    assert_eq!(area(&m, &t.state, "CCC").armies, 3);
    assert_eq!(emp(&t.state, "AA").army_reserve, 3 + 1);
}

#[test]
fn rule_5_5_reserve_counts_ships_in_the_limit() {
    let (m, mut st) = basic();
    let i = m.find("AAA").unwrap().index();
    st.areas[i].armies = 0;
    // AAA: 0 armies + 4 ships in commission + 4 population = 8 (laid-up ships don't count).
    let t = play(&m, &st, &[("AA", &["RESERVE AAA - 9"])]);
    assert!(
        matches!(&outcomes(&t, "AA")[0], Outcome::CutDown { reason } if reason.contains("at most 8"))
    );
}

#[test]
fn rule_5_5_reserved_armies_are_stuck_for_the_turn() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["RESERVE DDD - 2", "MOVE DDD AAA 1"])]);
    done(&t, "AA", 0);
    assert!(failure(&t, "AA", 1).contains("stuck"));
}

#[test]
fn rule_5_5_no_reserve_after_army_or_disband() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["ARMY - - 1", "RESERVE DDD - 1"])]);
    assert!(failure(&t, "AA", 1).contains("5.5"));
    // A DISBAND that fails still counts as attempted.
    let t = play(&m, &st, &[("AA", &["DISBAND CCC", "RESERVE DDD - 1"])]);
    assert!(failure(&t, "AA", 0).contains("no armies"));
    assert!(failure(&t, "AA", 1).contains("5.5"));
}

#[test]
fn rule_5_6_disband_returns_all_armies_to_the_reserve() {
    let (m, mut st) = basic();
    st.empires[0].bps = 0;
    let t = play(&m, &st, &[("AA", &["DISBAND DDD"])]);
    assert_eq!(area(&m, &t.state, "DDD").armies, 0);
    // 6 + 3 disbanded + 1 dispersed from AAA.
    assert_eq!(emp(&t.state, "AA").army_reserve, 10);
}

#[test]
fn rule_5_4_disarm_gives_two_treasury_bps_an_army() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["DISARM - - 4", "DISARM - - 9"])]);
    assert!(matches!(&outcomes(&t, "AA")[1], Outcome::CutDown { .. }));
    assert_eq!(emp(&t.state, "AA").treasury, 10 + 2 * 6);
}

#[test]
fn rule_5_7_fortify_is_limited_by_population() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["FORTIFY CCC - 5"])]);
    assert!(
        matches!(&outcomes(&t, "AA")[0], Outcome::CutDown { reason } if reason.contains("population (2)"))
    );
    assert_eq!(area(&m, &t.state, "CCC").forts, 2);
}

#[test]
fn rule_5_8_raze_costs_a_bp_a_level() {
    let (m, mut st) = basic();
    st.empires[0].bps = 1;
    let t = play(&m, &st, &[("AA", &["RAZE AAA - 3"])]);
    assert!(matches!(&outcomes(&t, "AA")[0], Outcome::CutDown { .. }));
    assert_eq!(area(&m, &t.state, "AAA").forts, 0);
}

#[test]
fn rule_5_9_grow_costs_population_plus_terrain_and_once_per_turn() {
    let (m, mut st) = basic();
    st.empires[0].bps = 12;
    // CCC is mountains, pop 2: 2 + 3 = 5. BBB is forest, pop 3: 3 + 2 = 5.
    let t = play(
        &m,
        &st,
        &[("AA", &["GROW CCC", "GROW CCC", "GROW BBB", "GROW DDD"])],
    );
    done(&t, "AA", 0);
    assert!(failure(&t, "AA", 1).contains("already grown"));
    done(&t, "AA", 2);
    // 2 BPs left; DDD (lowlands, pop 5) costs 5.
    assert!(failure(&t, "AA", 3).contains("costs 5"));
    assert_eq!(area(&m, &t.state, "CCC").population, 3);
    assert_eq!(area(&m, &t.state, "BBB").population, 4);
}

#[test]
fn rule_5_18_disown_makes_the_area_and_its_armies_neutral() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["DISOWN BBB"])]);
    let b = area(&m, &t.state, "BBB");
    assert_eq!(b.owner, None);
    // Its 2 armies stayed, neutral (pop 3, so no dispersal).
    assert_eq!(b.armies, 2);
}

#[test]
fn rule_5_19_air_in_world_and_australian_empires_only() {
    let (m, mut st) = basic();
    for airless in [Variant::Medieval, Variant::European] {
        st.variant = airless;
        let t = play(&m, &st, &[("AA", &["AIR - - 1"])]);
        assert!(failure(&t, "AA", 0).contains("no air forces"), "{airless}");
        assert_eq!(emp(&t.state, "AA").air_force, 0);
    }
    // Decision 39: Australian Empires plays the air rules as World Empires does.
    for airy in [Variant::World, Variant::Australian] {
        st.variant = airy;
        let t = play(&m, &st, &[("AA", &["AIR - - 2", "AIR"])]);
        done(&t, "AA", 0);
        done(&t, "AA", 1);
        // 30 BPs: 2 for 14, then 2 more for 14.
        assert_eq!(emp(&t.state, "AA").air_force, 4, "{airy}");
    }
}

/// Decision 50 (5.4, 5.8, 6.3): DISARM and RAZE of more armies or fort levels than there are
/// are cut to those there, and fail only when there are none.
#[test]
fn decision_50_disarm_and_raze_are_cut_to_what_there_is() {
    let (m, st) = basic();
    // AA: 6 reserve armies, 10 treasury points, 30 BPs; AAA has 1 fort level, CCC none.
    let t = play(
        &m,
        &st,
        &[(
            "AA",
            &[
                "DISARM - - 9",
                "DISARM - - 1",
                "RAZE AAA - 3",
                "RAZE AAA - 1",
                "RAZE CCC - 1",
            ],
        )],
    );
    assert!(
        matches!(&outcomes(&t, "AA")[0], Outcome::CutDown { reason } if reason.contains("holds only 6"))
    );
    assert!(failure(&t, "AA", 1).contains("holds only 0"));
    assert!(
        matches!(&outcomes(&t, "AA")[2], Outcome::CutDown { reason } if reason.contains("only 1 fort level"))
    );
    assert_eq!(spent(&t, "AA", 2), 1);
    assert!(failure(&t, "AA", 3).contains("only 0 fort levels"));
    assert!(failure(&t, "AA", 4).contains("only 0 fort levels"));
    assert_eq!(emp(&t.state, "AA").treasury, 10 + 2 * 6);
    assert_eq!(area(&m, &t.state, "AAA").forts, 0);
}

/// Decision 54 (5.18, 11.4, decision 13): DISOWN changes no VPs; 11.4's loss is for an area
/// lost in battle.
#[test]
fn decision_54_disown_changes_no_vps() {
    let (m, mut st) = basic();
    st.empires[0].vps = 5;
    let t = play(&m, &st, &[("AA", &["DISOWN BBB", "DISOWN DDD"])]);
    done(&t, "AA", 0);
    done(&t, "AA", 1);
    assert_eq!(area(&m, &t.state, "BBB").owner, None);
    assert_eq!(area(&m, &t.state, "DDD").owner, None);
    // Not a census turn (next census 9): nothing else moves the VPs.
    assert_eq!(emp(&t.state, "AA").vps, 5);
    assert_eq!(emp(&t.state, "BB").vps, 0);
}
