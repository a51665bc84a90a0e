//! A saved state that does not fit its map is refused with a message naming the field.
use crate::common;
use common::*;

fn check(edit: impl FnOnce(&mut empires_rules::GameState), expect: &str) {
    let (m, mut st) = basic();
    edit(&mut st);
    let err = st.validate(&m).unwrap_err();
    assert!(err.contains(expect), "{err}");
    // And adjudication refuses it rather than panicking.
    let t = empires_rules::adjudicate(&m, &st, &Default::default());
    assert!(t.is_err());
}

#[test]
fn fleets_carry_no_more_armies_than_ships() {
    check(
        |st| {
            st.areas[11].fleet = Some(empires_rules::state::Fleet {
                owner: e("AA"),
                ships: 1,
                armies: 2,
                base: Some("AAA".parse().unwrap()),
            })
        },
        "areas[11] (ESE).fleet.armies",
    );
}

#[test]
fn spies_are_on_land_and_wait_for_real_empires() {
    check(
        |st| {
            st.empires[0].spy = Some(empires_rules::state::Spy {
                area: "NSE".parse().unwrap(),
                waiting_for: None,
            })
        },
        "empires[0] (AA).spy.area",
    );
    check(
        |st| {
            st.empires[0].spy = Some(empires_rules::state::Spy {
                area: "AAA".parse().unwrap(),
                waiting_for: Some(e("ZZ")),
            })
        },
        "spy.waiting_for: unknown empire ZZ",
    );
}

#[test]
fn duplicate_empires_owners_and_the_rng_are_checked() {
    check(|st| st.empires[1].code = e("AA"), "listed twice");
    check(
        |st| st.areas[0].owner = Some(e("QQ")),
        "areas[0] (AAA).owner: unknown empire QQ",
    );
    check(|st| st.rng.seed = "xyz".into(), "rng.seed");
    check(
        |st| st.areas.pop().map(|_| ()).unwrap_or(()),
        "the state has 12 areas but the map has 13",
    );
}

#[test]
fn absurd_counts_are_refused_before_they_can_overflow() {
    check(|st| st.areas[0].armies = u32::MAX, "areas[0] (AAA).armies");
    check(
        |st| st.empires[2].treasury = 2_000_000,
        "empires[2] (CC).treasury",
    );
}
