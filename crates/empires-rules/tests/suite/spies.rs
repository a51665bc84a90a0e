//! Spies (section 9): SPY and SKIP (9.2), recruiting (9.2), FIND (9.3), KILL (9.4), WAIT
//! (9.5), SABOTAGE (9.6) and WATCH (9.7).
//!
//! The test map's seas: NSE touches AAA and DDD; ESE touches DDD and GGG; SSE touches III and
//! JJJ; NSE - ESE - SSE in a line. So by sea DDD -> GGG crosses ESE (1 sea area), AAA -> GGG
//! crosses NSE and ESE (2), AAA -> III crosses NSE, ESE and SSE (3).
use crate::common;
use common::*;
use empires_rules::event::{Outcome, What};
use empires_rules::state::{GameState, Spy};
use empires_rules::{Map, TurnOutcome};

fn set_spy(st: &mut GameState, empire: &str, area: &str) {
    let i = st.empire_index(e(empire)).unwrap();
    st.empires[i].spy = Some(Spy {
        area: empires_rules::AreaCode::parse(area).unwrap(),
        waiting_for: None,
    });
}

fn spy_at(st: &GameState, empire: &str) -> Option<String> {
    emp(st, empire).spy.as_ref().map(|s| s.area.to_string())
}

fn set_watcher(m: &Map, st: &mut GameState, area: &str, empire: &str) {
    st.area_mut(m.find(area).unwrap()).watcher = Some(e(empire));
}

fn watcher(m: &Map, st: &GameState, code: &str) -> Option<String> {
    area(m, st, code).watcher.map(|w| w.to_string())
}

// ----- 9.2 SPY and SKIP -----

#[test]
fn rule_9_1_no_spy_at_the_start() {
    let (_, st) = basic();
    for c in ["AA", "BB", "CC"] {
        assert_eq!(spy_at(&st, c), None);
    }
}

#[test]
fn rule_9_2_spy_moves_to_adjacent_land_for_free() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "DDD");
    let t = play(&m, &st, &[("AA", &["SPY - EEE", "SPY - FFF"])]);
    done(&t, "AA", 0);
    done(&t, "AA", 1);
    assert_eq!(spent(&t, "AA", 0), 0);
    assert_eq!(spent(&t, "AA", 1), 0);
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("FFF"));
}

#[test]
fn rule_9_2_spy_to_a_non_adjacent_area_fails_and_points_at_skip() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "AAA");
    let t = play(&m, &st, &[("AA", &["SPY - GGG"])]);
    let why = failure(&t, "AA", 0);
    assert!(why.contains("SKIP"), "{why}");
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("AAA"));
}

#[test]
fn rule_9_2_skip_costs_one_bp_per_sea_area_crossed() {
    // DDD -> GGG crosses ESE: 1 BP.
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "DDD");
    let t = play(&m, &st, &[("AA", &["SKIP - GGG"])]);
    done(&t, "AA", 0);
    assert_eq!(spent(&t, "AA", 0), 1);
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("GGG"));

    // AAA -> GGG crosses NSE and ESE: 2 BPs.
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "AAA");
    let t = play(&m, &st, &[("AA", &["SKIP - GGG"])]);
    assert_eq!(spent(&t, "AA", 0), 2);
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("GGG"));

    // AAA -> III (an island inside SSE) crosses NSE, ESE and SSE: 3 BPs.
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "AAA");
    let t = play(&m, &st, &[("AA", &["SKIP - III"])]);
    assert_eq!(spent(&t, "AA", 0), 3);
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("III"));

    // III -> JJJ: both on SSE, 1 BP.
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "III");
    let t = play(&m, &st, &[("AA", &["SKIP - JJJ"])]);
    assert_eq!(spent(&t, "AA", 0), 1);
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("JJJ"));
}

#[test]
fn rule_9_2_skip_needs_a_sea_route() {
    // CCC is inland: there is no way to reach it by sea.
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "III");
    let t = play(&m, &st, &[("AA", &["SKIP - CCC"])]);
    let why = failure(&t, "AA", 0);
    assert!(why.contains("CCC"), "{why}");
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("III"));
}

#[test]
fn rule_9_2_skip_with_too_few_bps_fails_and_the_spy_stays() {
    let (m, mut st) = basic();
    set_spy(&mut st, "CC", "III");
    let i = st.empire_index(e("CC")).unwrap();
    st.empires[i].bps = 2;
    // III -> AAA crosses 3 sea areas: 3 BPs, CC has 2.
    let t = play(&m, &st, &[("CC", &["SKIP - AAA"])]);
    failure(&t, "CC", 0);
    assert_eq!(spy_at(&t.state, "CC").as_deref(), Some("III"));
}

#[test]
fn rule_9_2_spies_do_not_get_stuck() {
    // Forest, mountains and wetlands never stop a spy (9.2).
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "AAA");
    let t = play(
        &m,
        &st,
        &[("AA", &["SPY - BBB", "SPY - CCC", "SPY - FFF", "SPY - HHH"])],
    );
    for n in 0..4 {
        done(&t, "AA", n);
    }
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("HHH"));
}

// ----- 9.2 recruiting -----

#[test]
fn rule_9_2_recruiting_costs_two_bps_in_an_owned_area_and_moves_in_the_same_action() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["SPY DDD EEE"])]);
    done(&t, "AA", 0);
    assert_eq!(spent(&t, "AA", 0), 2);
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("EEE"));
}

#[test]
fn rule_9_2_recruiting_with_skip_pays_two_plus_the_crossing() {
    // Recruited in AAA (owned) and skipped to III: 2 + 3 sea areas.
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["SKIP AAA III"])]);
    done(&t, "AA", 0);
    assert_eq!(spent(&t, "AA", 0), 5);
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("III"));
}

#[test]
fn rule_9_2_no_spy_and_no_from_fails_with_a_clear_reason() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["SPY - EEE"])]);
    let why = failure(&t, "AA", 0);
    assert!(why.contains("no spy"), "{why}");
    assert!(why.contains("where from"), "{why}");
    assert_eq!(spy_at(&t.state, "AA"), None);
    assert_eq!(spent(&t, "AA", 0), 0);
}

#[test]
fn rule_9_2_cannot_recruit_in_an_area_neither_owned_nor_watched() {
    let (m, st) = basic();
    // EEE belongs to BB and AA has no watcher there.
    let t = play(&m, &st, &[("AA", &["SPY EEE FFF"])]);
    let why = failure(&t, "AA", 0);
    assert!(why.contains("EEE"), "{why}");
    assert!(why.contains("own") && why.contains("watcher"), "{why}");
    assert_eq!(spy_at(&t.state, "AA"), None);
}

#[test]
fn rule_9_2_recruiting_in_an_area_with_your_watcher() {
    let (m, mut st) = basic();
    set_watcher(&m, &mut st, "EEE", "AA");
    let t = play(&m, &st, &[("AA", &["SPY EEE FFF"])]);
    done(&t, "AA", 0);
    assert_eq!(spent(&t, "AA", 0), 2);
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("FFF"));
    // The watcher stays where it is.
    assert_eq!(watcher(&m, &t.state, "EEE").as_deref(), Some("AA"));
}

#[test]
fn rule_9_2_recruiting_needs_the_bps() {
    let (m, mut st) = basic();
    let i = st.empire_index(e("AA")).unwrap();
    st.empires[i].bps = 1;
    let t = play(&m, &st, &[("AA", &["SPY DDD EEE"])]);
    failure(&t, "AA", 0);
    assert_eq!(spy_at(&t.state, "AA"), None);
}

#[test]
fn rule_9_1_only_one_spy_a_second_spy_order_moves_the_same_spy() {
    // With a spy already in place, "from" is not a recruitment: no 2 BPs, the spy moves.
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "EEE");
    let t = play(&m, &st, &[("AA", &["SPY DDD FFF"])]);
    done(&t, "AA", 0);
    assert_eq!(spent(&t, "AA", 0), 0);
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("FFF"));
}

// ----- 9.3 FIND -----

#[test]
fn rule_9_3_find_a_named_empires_spy_anywhere() {
    let (m, mut st) = basic();
    set_spy(&mut st, "BB", "CCC");
    let t = play(&m, &st, &[("AA", &["FIND - BB"])]);
    done(&t, "AA", 0);
    assert_eq!(spent(&t, "AA", 0), 0);
    let found = events_of(&t, |w| matches!(w, What::SpyFound { .. }));
    assert_eq!(found.len(), 1);
    match &found[0].what {
        What::SpyFound {
            finder,
            spy_of,
            area,
        } => {
            assert_eq!(finder.as_str(), "AA");
            assert_eq!(spy_of.as_str(), "BB");
            assert_eq!(area.as_str(), "CCC");
        }
        _ => unreachable!(),
    }
    assert!(found[0].concerns.contains(&e("AA")));
}

#[test]
fn rule_9_3_find_reports_where_the_spy_was_when_the_action_was_processed() {
    // BB moves its spy in round 2, after AA's FIND in round 1: the report says CCC.
    let (m, mut st) = basic();
    set_spy(&mut st, "BB", "CCC");
    let t = play(
        &m,
        &st,
        &[
            ("AA", &["FIND - BB", "FIND - BB"]),
            ("BB", &["TAX", "SPY - FFF"]),
        ],
    );
    let areas: Vec<String> = events_of(&t, |w| matches!(w, What::SpyFound { .. }))
        .iter()
        .map(|ev| match &ev.what {
            What::SpyFound { area, .. } => area.to_string(),
            _ => unreachable!(),
        })
        .collect();
    // Round 2: AA (first in the order of play) finds it before BB moves it.
    assert_eq!(areas, vec!["CCC", "CCC"]);
    let t = play(
        &m,
        &st,
        &[
            ("AA", &["TAX", "TAX", "FIND - BB"]),
            ("BB", &["TAX", "SPY - FFF"]),
        ],
    );
    let areas: Vec<String> = events_of(&t, |w| matches!(w, What::SpyFound { .. }))
        .iter()
        .map(|ev| match &ev.what {
            What::SpyFound { area, .. } => area.to_string(),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(areas, vec!["FFF"]);
}

#[test]
fn rule_9_3_find_any_spy_in_an_area() {
    let (m, mut st) = basic();
    set_spy(&mut st, "BB", "DDD");
    set_spy(&mut st, "CC", "DDD");
    set_spy(&mut st, "AA", "DDD");
    let t = play(&m, &st, &[("AA", &["FIND DDD -"])]);
    done(&t, "AA", 0);
    let mut found: Vec<(String, String, String)> =
        events_of(&t, |w| matches!(w, What::SpyFound { .. }))
            .iter()
            .map(|ev| match &ev.what {
                What::SpyFound {
                    finder,
                    spy_of,
                    area,
                } => (finder.to_string(), spy_of.to_string(), area.to_string()),
                _ => unreachable!(),
            })
            .collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            ("AA".into(), "BB".into(), "DDD".into()),
            ("AA".into(), "CC".into(), "DDD".into())
        ]
    );
}

#[test]
fn rule_9_3_find_finds_nothing_where_there_is_nothing() {
    let (m, mut st) = basic();
    set_spy(&mut st, "BB", "EEE");
    let t = play(&m, &st, &[("AA", &["FIND DDD -", "FIND - CC"])]);
    done(&t, "AA", 0);
    done(&t, "AA", 1);
    assert!(events_of(&t, |w| matches!(w, What::SpyFound { .. })).is_empty());
}

#[test]
fn rule_9_3_find_needs_exactly_one_of_area_and_empire() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["FIND - -", "FIND DDD BB"])]);
    failure(&t, "AA", 0);
    failure(&t, "AA", 1);
}

// ----- 9.4 KILL -----

#[test]
fn rule_9_4_kill_removes_a_spy_in_an_owned_area_without_a_spy_of_ones_own() {
    let (m, mut st) = basic();
    set_spy(&mut st, "BB", "DDD");
    let t = play(&m, &st, &[("AA", &["KILL DDD BB"])]);
    done(&t, "AA", 0);
    assert_eq!(spent(&t, "AA", 0), 0);
    assert_eq!(spy_at(&t.state, "BB"), None);
    let killed = events_of(&t, |w| matches!(w, What::SpyKilled { .. }));
    assert_eq!(killed.len(), 1);
    match &killed[0].what {
        What::SpyKilled {
            victim, by, area, ..
        } => {
            assert_eq!(victim.as_str(), "BB");
            assert_eq!(by.as_str(), "AA");
            assert_eq!(area.as_str(), "DDD");
        }
        _ => unreachable!(),
    }
    // The event concerns both empires.
    assert!(killed[0].concerns.contains(&e("AA")));
    assert!(killed[0].concerns.contains(&e("BB")));
    // And the action shows in BB's report as well.
    let action = t
        .events
        .iter()
        .find(|ev| matches!(&ev.what, What::Action { empire, .. } if empire.as_str() == "AA"))
        .unwrap();
    assert!(action.concerns.contains(&e("BB")));
}

#[test]
fn rule_9_4_kill_only_in_an_area_you_own() {
    let (m, mut st) = basic();
    set_spy(&mut st, "BB", "EEE");
    set_spy(&mut st, "AA", "EEE");
    let t = play(&m, &st, &[("AA", &["KILL EEE BB"])]);
    let why = failure(&t, "AA", 0);
    assert!(why.contains("own"), "{why}");
    assert_eq!(spy_at(&t.state, "BB").as_deref(), Some("EEE"));
}

#[test]
fn rule_9_4_kill_fails_when_the_spy_is_elsewhere() {
    let (m, mut st) = basic();
    set_spy(&mut st, "BB", "EEE");
    let t = play(&m, &st, &[("AA", &["KILL DDD BB"])]);
    failure(&t, "AA", 0);
    assert_eq!(spy_at(&t.state, "BB").as_deref(), Some("EEE"));
    assert!(events_of(&t, |w| matches!(w, What::SpyKilled { .. })).is_empty());
}

#[test]
fn rule_9_1_a_killed_spy_can_be_replaced() {
    let (m, mut st) = basic();
    set_spy(&mut st, "BB", "DDD");
    // AA kills BB's spy in round 1; BB recruits a new one in round 2 (2 BPs).
    let t = play(
        &m,
        &st,
        &[("AA", &["KILL DDD BB"]), ("BB", &["TAX", "SPY GGG EEE"])],
    );
    done(&t, "BB", 1);
    assert_eq!(spent(&t, "BB", 1), 2);
    assert_eq!(spy_at(&t.state, "BB").as_deref(), Some("EEE"));
}

// ----- 9.5 WAIT -----

#[test]
fn rule_9_5_wait_kills_the_target_entering_the_area() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "DDD");
    set_spy(&mut st, "BB", "EEE");
    let t = play(
        &m,
        &st,
        &[("AA", &["WAIT - BB"]), ("BB", &["TAX", "SPY - DDD"])],
    );
    done(&t, "AA", 0);
    assert_eq!(spent(&t, "AA", 0), 0);
    assert_eq!(spy_at(&t.state, "BB"), None);
    // The waiting spy is still there, still waiting.
    let aa = emp(&t.state, "AA").spy.clone().unwrap();
    assert_eq!(aa.area.as_str(), "DDD");
    assert_eq!(aa.waiting_for, Some(e("BB")));
    let killed = events_of(&t, |w| matches!(w, What::SpyKilled { .. }));
    assert_eq!(killed.len(), 1);
    match &killed[0].what {
        What::SpyKilled {
            victim, by, area, ..
        } => {
            assert_eq!(
                (victim.as_str(), by.as_str(), area.as_str()),
                ("BB", "AA", "DDD")
            );
        }
        _ => unreachable!(),
    }
    assert!(killed[0].concerns.contains(&e("AA")) && killed[0].concerns.contains(&e("BB")));
}

#[test]
fn rule_9_5_wait_also_catches_a_spy_arriving_by_sea() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "DDD");
    set_spy(&mut st, "BB", "GGG");
    let t = play(
        &m,
        &st,
        &[("AA", &["WAIT - BB"]), ("BB", &["TAX", "SKIP - DDD"])],
    );
    done(&t, "BB", 1);
    assert_eq!(spy_at(&t.state, "BB"), None);
}

#[test]
fn rule_9_5_wait_catches_only_the_named_empires_spy() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "DDD");
    set_spy(&mut st, "BB", "EEE");
    let t = play(
        &m,
        &st,
        &[("AA", &["WAIT - CC"]), ("BB", &["TAX", "SPY - DDD"])],
    );
    assert_eq!(spy_at(&t.state, "BB").as_deref(), Some("DDD"));
}

#[test]
fn rule_9_5_wait_lasts_into_the_next_turn() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "DDD");
    set_spy(&mut st, "BB", "EEE");
    let t1 = play(&m, &st, &[("AA", &["WAIT - BB"])]);
    let t2 = play(&m, &t1.state, &[("BB", &["SPY - DDD"])]);
    assert_eq!(spy_at(&t2.state, "BB"), None);
}

#[test]
fn rule_9_5_wait_must_be_in_an_area_you_own() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "EEE");
    let t = play(&m, &st, &[("AA", &["WAIT - BB"])]);
    let why = failure(&t, "AA", 0);
    assert!(why.contains("own"), "{why}");
    assert_eq!(emp(&t.state, "AA").spy.as_ref().unwrap().waiting_for, None);
}

#[test]
fn rule_9_5_wait_needs_a_spy() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["WAIT - BB"])]);
    failure(&t, "AA", 0);
}

#[test]
fn rule_9_5_wait_is_cancelled_by_a_spy_move() {
    // AA waits in DDD, then moves the spy on (SPY) and back (SPY): no longer waiting.
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "DDD");
    set_spy(&mut st, "BB", "EEE");
    let t = play(
        &m,
        &st,
        &[
            ("AA", &["WAIT - BB", "SPY - AAA", "SPY - DDD"]),
            ("BB", &["TAX", "TAX", "TAX", "SPY - DDD"]),
        ],
    );
    assert_eq!(emp(&t.state, "AA").spy.as_ref().unwrap().waiting_for, None);
    assert_eq!(spy_at(&t.state, "BB").as_deref(), Some("DDD"));
}

#[test]
fn rule_9_5_wait_is_cancelled_by_another_wait() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "DDD");
    set_spy(&mut st, "BB", "EEE");
    let t = play(
        &m,
        &st,
        &[
            ("AA", &["WAIT - BB", "WAIT - CC"]),
            ("BB", &["TAX", "TAX", "SPY - DDD"]),
        ],
    );
    assert_eq!(spy_at(&t.state, "BB").as_deref(), Some("DDD"));
    assert_eq!(
        emp(&t.state, "AA").spy.as_ref().unwrap().waiting_for,
        Some(e("CC"))
    );
}

#[test]
fn rule_9_5_wait_is_cancelled_when_the_area_is_captured() {
    // AA's spy waits in DDD for CC; BB captures DDD; CC's spy then enters unharmed.
    let (m, st) = scenario(
        r#"
next_census = 9
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
bps = 10
spy = "DDD"
spy_waiting_for = "CC"
[[empire]]
code = "BB"
bps = 20
[[empire]]
code = "CC"
bps = 10
spy = "AAA"
[[area]]
code = "AAA"
owner = "AA"
population = 2
armies = 2
[[area]]
code = "DDD"
owner = "AA"
population = 1
[[area]]
code = "EEE"
owner = "BB"
population = 5
armies = 10
forts = 5
[[area]]
code = "HHH"
owner = "CC"
population = 2
"#,
    );
    let t = play(
        &m,
        &st,
        &[("BB", &["ATTACK EEE DDD 6"]), ("CC", &["TAX", "SPY - DDD"])],
    );
    done(&t, "BB", 0);
    assert_eq!(area(&m, &t.state, "DDD").owner, Some(e("BB")));
    done(&t, "CC", 1);
    assert_eq!(spy_at(&t.state, "CC").as_deref(), Some("DDD"));
    let aa = emp(&t.state, "AA").spy.clone().unwrap();
    assert_eq!(aa.area.as_str(), "DDD");
    assert_eq!(aa.waiting_for, None);
    assert!(events_of(&t, |w| matches!(w, What::SpyKilled { .. })).is_empty());
}

// ----- 9.6 SABOTAGE -----

#[test]
fn rule_9_6_sabotage_destroys_one_army_costs_one_bp_and_loses_the_spy() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "EEE");
    assert_eq!(area(&m, &st, "EEE").armies, 3);
    let t = play(&m, &st, &[("AA", &["SABOTAGE"])]);
    done(&t, "AA", 0);
    assert_eq!(spent(&t, "AA", 0), 1);
    assert_eq!(area(&m, &t.state, "EEE").armies, 2);
    assert_eq!(spy_at(&t.state, "AA"), None);
    // The victim hears of it.
    let action = t
        .events
        .iter()
        .find(|ev| matches!(&ev.what, What::Action { empire, .. } if empire.as_str() == "AA"))
        .unwrap();
    assert!(action.concerns.contains(&e("BB")));
}

#[test]
fn rule_9_6_sabotage_with_no_armies_costs_the_bp_and_the_spy() {
    // Decision 30: the cost and the capture are unconditional.
    let (m, mut st) = basic();
    // CCC (AA's) has no armies; BB's spy is there.
    assert_eq!(area(&m, &st, "CCC").armies, 0);
    set_spy(&mut st, "BB", "CCC");
    let t = play(&m, &st, &[("BB", &["SABOTAGE"])]);
    done(&t, "BB", 0);
    assert_eq!(spent(&t, "BB", 0), 1);
    assert_eq!(spy_at(&t.state, "BB"), None);
    assert_eq!(area(&m, &t.state, "CCC").armies, 0);
    // The area's owner learns of the caught spy, as with any sabotage.
    let action = t
        .events
        .iter()
        .find(|ev| matches!(&ev.what, What::Action { empire, .. } if empire.as_str() == "BB"))
        .unwrap();
    assert!(action.concerns.contains(&e("AA")));
}

#[test]
fn rule_9_6_sabotage_of_ones_own_area_fails_without_cost() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "CCC");
    let t = play(&m, &st, &[("AA", &["SABOTAGE"])]);
    let why = failure(&t, "AA", 0);
    assert!(why.contains("your own area"), "{why}");
    assert_eq!(spent(&t, "AA", 0), 0);
    assert_eq!(spy_at(&t.state, "AA").as_deref(), Some("CCC"));
}

#[test]
fn rule_9_6_sabotage_needs_a_spy() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["SABOTAGE"])]);
    failure(&t, "AA", 0);
    assert_eq!(area(&m, &t.state, "EEE").armies, 3);
}

#[test]
fn rule_9_6_a_sabotage_then_a_new_spy_costs_two_bps() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "EEE");
    let t = play(
        &m,
        &st,
        &[("AA", &["SABOTAGE", "SPY - EEE", "SPY DDD EEE"])],
    );
    done(&t, "AA", 0);
    failure(&t, "AA", 1);
    done(&t, "AA", 2);
    assert_eq!(spent(&t, "AA", 2), 2);
}

// ----- 9.7 WATCH -----

#[test]
fn rule_9_7_watch_sets_a_watcher_and_the_spy_is_gone() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "EEE");
    let t = play(&m, &st, &[("AA", &["WATCH"])]);
    done(&t, "AA", 0);
    assert_eq!(spent(&t, "AA", 0), 0);
    assert_eq!(watcher(&m, &t.state, "EEE").as_deref(), Some("AA"));
    assert_eq!(spy_at(&t.state, "AA"), None);
    // The watcher lasts from turn to turn.
    let t2 = play(&m, &t.state, &[]);
    assert_eq!(watcher(&m, &t2.state, "EEE").as_deref(), Some("AA"));
}

#[test]
fn rule_9_7_a_new_watcher_eliminates_another_empires_watcher() {
    let (m, mut st) = basic();
    set_watcher(&m, &mut st, "EEE", "CC");
    set_spy(&mut st, "AA", "EEE");
    let t = play(&m, &st, &[("AA", &["WATCH"])]);
    done(&t, "AA", 0);
    assert_eq!(watcher(&m, &t.state, "EEE").as_deref(), Some("AA"));
    let gone = events_of(&t, |w| matches!(w, What::WatcherEliminated { .. }));
    assert_eq!(gone.len(), 1);
    match &gone[0].what {
        What::WatcherEliminated { victim, by, area } => {
            assert_eq!(
                (victim.as_str(), by.as_str(), area.as_str()),
                ("CC", "AA", "EEE")
            );
        }
        _ => unreachable!(),
    }
    assert!(gone[0].concerns.contains(&e("CC")) && gone[0].concerns.contains(&e("AA")));
}

#[test]
fn rule_9_7_after_watch_a_new_spy_must_be_recruited_for_two_bps() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "EEE");
    let t = play(
        &m,
        &st,
        &[("AA", &["WATCH", "SPY - FFF", "SPY DDD EEE", "WATCH"])],
    );
    done(&t, "AA", 0);
    // No spy any more: a move without "from" fails.
    let why = failure(&t, "AA", 1);
    assert!(why.contains("no spy"), "{why}");
    // Recruited for 2 BPs.
    done(&t, "AA", 2);
    assert_eq!(spent(&t, "AA", 2), 2);
    // A second watch on the same area by the same empire eliminates nobody.
    done(&t, "AA", 3);
    assert!(events_of(&t, |w| matches!(w, What::WatcherEliminated { .. })).is_empty());
    assert_eq!(watcher(&m, &t.state, "EEE").as_deref(), Some("AA"));
}

#[test]
fn rule_9_7_an_empire_may_keep_several_watchers() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "EEE");
    let t = play(&m, &st, &[("AA", &["WATCH", "SPY EEE FFF", "WATCH"])]);
    for n in 0..3 {
        done(&t, "AA", n);
    }
    assert_eq!(watcher(&m, &t.state, "EEE").as_deref(), Some("AA"));
    assert_eq!(watcher(&m, &t.state, "FFF").as_deref(), Some("AA"));
    assert_eq!(spy_at(&t.state, "AA"), None);
}

#[test]
fn rule_9_7_watch_needs_a_spy() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["WATCH"])]);
    assert!(matches!(outcomes(&t, "AA")[0], Outcome::Failed { .. }));
    assert!(t.state.areas.iter().all(|a| a.watcher.is_none()));
}

#[test]
fn rule_9_5_wait_ends_when_the_area_is_no_longer_owned() {
    // The spy must wait in an area its empire owns: disowning the area ends the wait.
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "DDD");
    set_spy(&mut st, "BB", "EEE");
    let t = play(
        &m,
        &st,
        &[
            ("AA", &["WAIT - BB", "DISOWN DDD"]),
            ("BB", &["TAX", "TAX", "SPY - DDD"]),
        ],
    );
    done(&t, "AA", 1);
    assert_eq!(emp(&t.state, "AA").spy.as_ref().unwrap().waiting_for, None);
    assert_eq!(spy_at(&t.state, "BB").as_deref(), Some("DDD"));
}

/// The areas an empire's n-th action showed it.
fn seen(t: &TurnOutcome, empire: &str, n: usize) -> Vec<String> {
    t.events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::Action {
                empire: x, seen, ..
            } if x.as_str() == empire => Some(seen.iter().map(|a| a.to_string()).collect()),
            _ => None,
        })
        .nth(n)
        .unwrap()
}

#[test]
fn rule_9_2_the_report_covers_where_the_spy_starts_and_finishes() {
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "DDD");
    let t = play(&m, &st, &[("AA", &["SPY - EEE", "SKIP AAA III"])]);
    let mut a = seen(&t, "AA", 0);
    a.sort();
    assert_eq!(a, vec!["DDD", "EEE"]);
    // An existing spy ignores the "from" box: from EEE (inland) there is no sea route to
    // III, so this SKIP fails.
    failure(&t, "AA", 1);
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "AAA");
    let t = play(&m, &st, &[("AA", &["SKIP - III"])]);
    let mut a = seen(&t, "AA", 0);
    a.sort();
    assert_eq!(a, vec!["AAA", "III"]);
}

#[test]
fn rule_9_6_sabotage_without_a_bp_fails_and_keeps_the_spy() {
    let (m, mut st) = basic();
    set_spy(&mut st, "CC", "EEE");
    let i = st.empire_index(e("CC")).unwrap();
    st.empires[i].bps = 0;
    let t = play(&m, &st, &[("CC", &["SABOTAGE"])]);
    failure(&t, "CC", 0);
    assert_eq!(spy_at(&t.state, "CC").as_deref(), Some("EEE"));
    assert_eq!(area(&m, &t.state, "EEE").armies, 3);
}

/// Decision 47 (10.1, 9.2): the land area a spy is in at the end of the turn is scouted for
/// its empire every turn, whether or not the spy moved.
#[test]
fn decision_47_the_spys_area_is_scouted_every_turn() {
    use empires_rules::knowledge::{visible_areas, visible_areas_of_all};
    let (m, mut st) = basic();
    let hhh = m.find("HHH").unwrap().index();
    // HHH is nowhere near AA's land: unseen without a spy.
    assert!(!visible_areas(&m, &st, e("AA"))[hhh]);
    set_spy(&mut st, "AA", "HHH");
    // Two turns in which the spy does nothing: HHH is seen after each.
    let t1 = play(&m, &st, &[("AA", &["TAX"])]);
    let t2 = play(&m, &t1.state, &[]);
    for s in [&t1.state, &t2.state] {
        assert_eq!(spy_at(s, "AA").as_deref(), Some("HHH"));
        assert!(visible_areas(&m, s, e("AA"))[hhh]);
        assert!(visible_areas_of_all(&m, s)[0][hhh]);
    }
}

/// Decision 49 (9.4, 9.5, 9.7): KILL removes a spy, never a watcher; FIND and KILL are not
/// the spy's own actions and leave its WAIT in place.
#[test]
fn decision_49_kill_takes_spies_not_watchers_and_find_or_kill_keep_a_wait() {
    // BB has only a watcher in AA's DDD: KILL finds no spy and fails; the watcher stays.
    let (m, mut st) = basic();
    set_watcher(&m, &mut st, "DDD", "BB");
    let t = play(&m, &st, &[("AA", &["KILL DDD BB"])]);
    assert!(failure(&t, "AA", 0).contains("no spy of BB in DDD"));
    assert_eq!(watcher(&m, &t.state, "DDD").as_deref(), Some("BB"));
    // BB's spy and watcher both in DDD: the spy is killed, the watcher stays.
    set_spy(&mut st, "BB", "DDD");
    let t = play(&m, &st, &[("AA", &["KILL DDD BB"])]);
    done(&t, "AA", 0);
    assert_eq!(spy_at(&t.state, "BB"), None);
    assert_eq!(watcher(&m, &t.state, "DDD").as_deref(), Some("BB"));
    assert!(events_of(&t, |w| matches!(w, What::WatcherEliminated { .. })).is_empty());

    // AA's spy waits in DDD for BB's; AA then FINDs and KILLs (CC's spy in DDD): the spy is
    // still waiting, and BB's spy walking in from EEE in round 5 is caught.
    let (m, mut st) = basic();
    set_spy(&mut st, "AA", "DDD");
    set_spy(&mut st, "BB", "EEE");
    set_spy(&mut st, "CC", "DDD");
    let t = play(
        &m,
        &st,
        &[
            ("AA", &["WAIT - BB", "FIND - BB", "FIND DDD", "KILL DDD CC"]),
            ("BB", &["TAX", "TAX", "TAX", "TAX", "SPY - DDD"]),
        ],
    );
    for n in 0..4 {
        done(&t, "AA", n);
    }
    done(&t, "BB", 4);
    assert_eq!(spy_at(&t.state, "CC"), None);
    assert_eq!(spy_at(&t.state, "BB"), None);
    let aa = emp(&t.state, "AA").spy.clone().unwrap();
    assert_eq!((aa.area.as_str(), aa.waiting_for), ("DDD", Some(e("BB"))));
    let killed: Vec<(String, String)> = events_of(&t, |w| matches!(w, What::SpyKilled { .. }))
        .iter()
        .map(|ev| match &ev.what {
            What::SpyKilled { victim, by, .. } => (victim.to_string(), by.to_string()),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(
        killed,
        vec![("CC".into(), "AA".into()), ("BB".into(), "AA".into())]
    );
}
