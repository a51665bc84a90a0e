//! Moving armies: MOVE (7.3), formats (6.3), getting stuck (7.5), defence modes (7.6-7.10)
//! and retreat locations (7.11).
use crate::common;
use common::*;
use empires_rules::state::DefenceMode;

#[test]
fn rule_7_3_move_between_own_areas_costs_one_bp() {
    let (m, mut st) = basic();
    st.empires[0].bps = 1;
    let t = play(&m, &st, &[("AA", &["MOVE AAA DDD 4", "MOVE DDD AAA 1"])]);
    done(&t, "AA", 0);
    assert!(failure(&t, "AA", 1).contains("costs 1 BP and you have 0"));
}

#[test]
fn rule_7_1_move_into_an_area_not_owned_fails() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["MOVE DDD EEE 1", "MOVE AAA CCC 1"])]);
    assert!(failure(&t, "AA", 0).contains("use ATTACK"));
    assert!(failure(&t, "AA", 1).contains("not next to"));
}

#[test]
fn rule_6_3_a_definite_number_larger_than_what_is_there_fails() {
    let (m, st) = basic();
    let t = play(
        &m,
        &st,
        &[(
            "AA",
            &["MOVE DDD AAA 4", "MOVE DDD AAA AB-1", "MOVE AAA DDD AB-9"],
        )],
    );
    assert!(failure(&t, "AA", 0).contains("4 armies ordered but only 3"));
    done(&t, "AA", 1);
    assert!(failure(&t, "AA", 2).contains("no armies to move"));
    // AB-1 left one army in DDD (before end-of-turn dispersal, which leaves it alone).
    assert_eq!(area(&m, &t.state, "DDD").armies, 1);
}

#[test]
fn rule_6_3_blank_means_all() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["MOVE DDD AAA"])]);
    done(&t, "AA", 0);
    assert_eq!(area(&m, &t.state, "DDD").armies, 0);
}

#[test]
fn rule_7_5_difficult_terrain_makes_the_area_sticky() {
    let (m, st) = basic();
    // BBB is forest: armies moving in are stuck, and so are those already there.
    let t = play(&m, &st, &[("AA", &["MOVE AAA BBB 2", "MOVE BBB CCC 1"])]);
    done(&t, "AA", 0);
    assert!(failure(&t, "AA", 1).contains("stuck"));
    // DDD is lowlands: movement continues.
    let t = play(&m, &st, &[("AA", &["MOVE AAA DDD 2", "MOVE DDD AAA 1"])]);
    done(&t, "AA", 1);
}

#[test]
fn rule_7_11_moving_resets_the_retreat_location_to_where_the_army_came_from() {
    let (m, mut st) = basic();
    let d = m.find("DDD").unwrap().index();
    st.areas[d].retreat_to = Some("EEE".parse().unwrap());
    let t = play(&m, &st, &[("AA", &["MOVE AAA DDD 1"])]);
    assert_eq!(
        area(&m, &t.state, "DDD").retreat_to.unwrap().to_string(),
        "AAA"
    );
}

#[test]
fn rules_7_7_to_7_10_defence_modes() {
    let (m, st) = basic();
    let t = play(
        &m,
        &st,
        &[(
            "AA",
            &[
                "ENTRENCH DDD EEE",
                "AMBUSH BBB EEE",
                "RETREAT AAA DDD",
                "DEFEND CCC",
                "RETREAT AAA EEE",
                "ENTRENCH DDD",
                "RETREAT BBB NSE",
            ],
        )],
    );
    let d = area(&m, &t.state, "DDD");
    assert_eq!(
        (d.defence, d.defence_against.unwrap().to_string()),
        (DefenceMode::Entrench, "EEE".into())
    );
    let b = area(&m, &t.state, "BBB");
    assert_eq!(b.defence, DefenceMode::Ambush);
    let a = area(&m, &t.state, "AAA");
    assert_eq!(
        (a.defence, a.retreat_to.unwrap().to_string()),
        (DefenceMode::Retreat, "DDD".into())
    );
    assert_eq!(area(&m, &t.state, "CCC").defence, DefenceMode::Defend);
    // 7.10: a retreat location that is not adjacent fails.
    assert!(failure(&t, "AA", 4).contains("not next to"));
    assert!(failure(&t, "AA", 5).contains("needs the area"));
    assert!(failure(&t, "AA", 6).contains("not next to"));
}

#[test]
fn rule_7_10_retreat_without_location_keeps_the_old_one() {
    let (m, mut st) = basic();
    let a = m.find("AAA").unwrap().index();
    st.areas[a].retreat_to = Some("BBB".parse().unwrap());
    st.areas[a].defence = DefenceMode::Defend;
    let t = play(&m, &st, &[("AA", &["RETREAT AAA"])]);
    let a = area(&m, &t.state, "AAA");
    assert_eq!(
        (a.defence, a.retreat_to.unwrap().to_string()),
        (DefenceMode::Retreat, "BBB".into())
    );
}

#[test]
fn rule_7_6_retreat_to_an_area_not_owned_stands_and_fights() {
    let (m, mut st) = basic();
    let e_ = m.find("EEE").unwrap().index();
    // EEE retreats to DDD, which AA owns: the defenders must stand.
    st.areas[e_].retreat_to = Some("DDD".parse().unwrap());
    st.areas[e_].forts = 0;
    let d = m.find("AAA").unwrap().index();
    st.areas[d].armies = 0;
    let dd = m.find("DDD").unwrap().index();
    st.areas[dd].armies = 12;
    let t = play(&m, &st, &[("AA", &["ATTACK DDD EEE 12"])]);
    let b = t
        .events
        .iter()
        .find_map(|ev| match &ev.what {
            empires_rules::event::What::LandBattle(b) => Some(b.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(b.retreated_to, None);
    assert_eq!(b.defender_lost, 3);
}

/// 2.6: an action slot left blank takes its round and does nothing; the actions after it
/// keep their rounds.
#[test]
fn rule_2_6_a_blank_slot_keeps_the_rounds_after_it() {
    let (m, st) = basic();
    let mut s = sheet(&["TAX - - -", "TAX - - -", "MOVE AAA DDD 1"]);
    s.actions[1].blank = true;
    let mut all = std::collections::BTreeMap::new();
    all.insert(e("AA"), s);
    let t = empires_rules::adjudicate(&m, &st, &all).unwrap();
    let slots: Vec<u32> = t
        .events
        .iter()
        .filter_map(|ev| match &ev.what {
            empires_rules::event::What::Action { empire, slot, .. } if empire.as_str() == "AA" => {
                Some(*slot)
            }
            _ => None,
        })
        .collect();
    assert_eq!(slots, vec![1, 3]);
}
