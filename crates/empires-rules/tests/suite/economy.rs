//! Economy actions: STASH, CASH, TAX, GIFT, ORDER (3.5-3.9, 6.2) and the round-robin order
//! of processing (1.6, 6.1).
use crate::common;
use common::*;
use empires_rules::event::{Outcome, What};

#[test]
fn rule_3_5_stash_costs_three_bps_a_point_and_is_cut_to_what_can_be_paid() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["STASH - - 4", "STASH - - 50"])]);
    done(&t, "AA", 0);
    // 30 - 12 = 18 left, enough for 6 more points.
    assert!(matches!(&outcomes(&t, "AA")[1], Outcome::CutDown { .. }));
    let aa = emp(&t.state, "AA");
    assert_eq!(aa.treasury, 10 + 4 + 6);
}

#[test]
fn rule_3_5_stash_needs_a_definite_number() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["STASH", "STASH - - AB-2"])]);
    assert!(failure(&t, "AA", 0).contains("needs a number"));
    assert!(failure(&t, "AA", 1).contains("ALL BUT is not allowed"));
}

#[test]
fn rule_3_6_cashed_points_are_spendable_and_unused_ones_return() {
    let (m, mut st) = basic();
    st.empires[0].bps = 0;
    // Cash 10, spend 4 on forts, the 6 unspent go back to the treasury.
    let t = play(&m, &st, &[("AA", &["CASH - - 10", "FORTIFY DDD - 4"])]);
    done(&t, "AA", 1);
    let aa = emp(&t.state, "AA");
    assert_eq!(aa.treasury, 6);
    assert!(!events_of(&t, |w| matches!(w, What::CashReturned { bps: 6, .. })).is_empty());
    // Nothing was left over to build armies with.
    assert!(
        events_of(
            &t,
            |w| matches!(w, What::Leftover { empire, .. } if empire.as_str() == "AA")
        )
        .is_empty()
    );
}

#[test]
fn rule_3_6_cash_is_cut_to_the_treasury() {
    let (m, st) = basic();
    let t = play(&m, &st, &[("AA", &["CASH - - 25"])]);
    assert!(matches!(&outcomes(&t, "AA")[0], Outcome::CutDown { reason } if reason.contains("10")));
}

#[test]
fn rule_3_8_tax_adds_two_bps() {
    let (m, mut st) = basic();
    st.empires[2].bps = 0;
    // CC has nothing; two TAXes give 4 BPs, enough for an ORDER bid of 4.
    let t = play(&m, &st, &[("CC", &["TAX", "TAX", "ORDER - - 9"])]);
    assert!(matches!(&outcomes(&t, "CC")[2], Outcome::CutDown { .. }));
    assert_eq!(t.state.order_of_play[0], e("CC"));
}

#[test]
fn rule_3_9_gift_reaches_the_other_empire_in_the_same_turn() {
    let (m, mut st) = basic();
    st.empires[1].bps = 0;
    // AA acts before BB in each round, so BB can spend the gift in round 2.
    let t = play(
        &m,
        &st,
        &[
            ("AA", &["GIFT - BB 9"]),
            ("BB", &["TAX", "FORTIFY EEE - 3"]),
        ],
    );
    done(&t, "AA", 0);
    done(&t, "BB", 1);
    assert_eq!(area(&m, &t.state, "EEE").forts, 4);
    let gift = &t
        .events
        .iter()
        .find(|ev| matches!(&ev.what, What::Action { order, .. } if order.starts_with("GIFT")))
        .unwrap();
    assert!(gift.concerns.contains(&e("BB")));
}

#[test]
fn rule_3_9_gift_takes_no_all_formats_and_no_self() {
    let (m, st) = basic();
    let t = play(
        &m,
        &st,
        &[(
            "AA",
            &["GIFT - BB", "GIFT - BB AB-1", "GIFT - AA 3", "GIFT - ZZ 3"],
        )],
    );
    assert!(failure(&t, "AA", 0).contains("needs a number"));
    assert!(failure(&t, "AA", 1).contains("ALL BUT"));
    assert!(failure(&t, "AA", 2).contains("yourself"));
    assert!(failure(&t, "AA", 3).contains("ZZ is not an empire"));
}

#[test]
fn rule_6_2_order_without_number_is_ignored_except_as_the_last_action() {
    let (m, mut st) = basic();
    st.options.actions_per_turn = 3;
    let t = play(&m, &st, &[("CC", &["ORDER", "TAX", "ORDER"])]);
    assert!(matches!(&outcomes(&t, "CC")[0], Outcome::Ignored { .. }));
    done(&t, "CC", 2);
    // The last ORDER took every BP: 10 + 2.
    let spent: u32 = t
        .events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::Action { empire, spent, .. } if empire.as_str() == "CC" => Some(*spent),
            _ => None,
        })
        .sum();
    assert_eq!(spent, 12);
    assert_eq!(t.state.order_of_play[0], e("CC"));
}

#[test]
fn rule_6_2_next_order_of_play_is_by_bid_keeping_ties_in_order() {
    let (m, mut st) = basic();
    for emp in &mut st.empires {
        emp.bps = 9;
    }
    // Every empire ends with a bid: AA 3, BB 5, CC 3 (leftovers are multiples of 3).
    let t = play(
        &m,
        &st,
        &[
            ("AA", &["ORDER - - 3", "ARMY - - 2"]),
            ("BB", &["ORDER - - 5", "ARMY - - 1", "ORDER - - 1"]),
            ("CC", &["ORDER - - 3", "ARMY - - 2"]),
        ],
    );
    // BB bid 6, AA and CC 3 each and keep their relative order.
    let order: Vec<&str> = t.state.order_of_play.iter().map(|c| c.as_str()).collect();
    assert_eq!(order, ["BB", "AA", "CC"]);
}

#[test]
fn rule_1_6_actions_are_processed_round_by_round_in_order_of_play() {
    let (m, mut st) = basic();
    st.order_of_play = vec![e("BB"), e("AA"), e("CC")];
    st.empires[0].bps = 0;
    st.empires[1].bps = 0;
    // Round 1: BB gives AA 6 BPs before AA's first action, which spends them.
    let t = play(
        &m,
        &st,
        &[("AA", &["FORTIFY DDD - 5"]), ("BB", &["GIFT - AA 6"])],
    );
    let aa = outcomes(&t, "AA");
    // BB had no BPs, so its gift failed; AA then had none either.
    assert!(matches!(aa[0], Outcome::Failed { .. }));
    let mut st2 = st.clone();
    st2.empires[1].bps = 6;
    let t = play(
        &m,
        &st2,
        &[("AA", &["FORTIFY DDD - 5"]), ("BB", &["GIFT - AA 6"])],
    );
    done(&t, "AA", 0);
    assert_eq!(area(&m, &t.state, "DDD").forts, 5);
}

#[test]
fn rule_2_6_actions_beyond_the_limit_are_ignored() {
    let (m, mut st) = basic();
    st.empires[2].actions_per_turn = Some(2);
    let t = play(&m, &st, &[("CC", &["TAX", "TAX", "TAX"])]);
    assert!(
        matches!(&outcomes(&t, "CC")[2], Outcome::Ignored { reason } if reason.contains("2 actions"))
    );
}

#[test]
fn unreadable_lines_fail_alone() {
    let (m, st) = basic();
    let mut sheet = sheet(&["TAX", "TAX"]);
    sheet.actions[0].order = Err("unknown action `MARCH`".into());
    let mut orders = std::collections::BTreeMap::new();
    orders.insert(e("AA"), sheet);
    let t = empires_rules::adjudicate(&m, &st, &orders).unwrap();
    assert!(failure(&t, "AA", 0).contains("not understood"));
    done(&t, "AA", 1);
}

#[test]
fn unknown_area_codes_fail_alone_with_a_reason() {
    let (m, st) = basic();
    let t = play(
        &m,
        &st,
        &[("AA", &["GROW XYZ", "FORTIFY EEE - 1", "GROW SSE", "TAX"])],
    );
    assert!(failure(&t, "AA", 0).contains("XYZ is not an area"));
    assert!(failure(&t, "AA", 1).contains("do not own EEE"));
    assert!(failure(&t, "AA", 2).contains("sea area"));
    done(&t, "AA", 3);
}
