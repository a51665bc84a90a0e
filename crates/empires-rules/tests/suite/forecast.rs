//! The forecast of one empire's turn as if nobody else acted, and the view of the game it
//! is made on (what the empire may know, 10.1, 10.2).
use crate::common;
use common::*;
use empires_rules::engine::forecast;
use empires_rules::event::Outcome;
use empires_rules::knowledge::{view_for, visible_areas};
use empires_rules::state::{DefenceMode, Spy};

#[test]
fn each_step_shows_the_balance_and_treasury_after_it() {
    let (m, st) = basic();
    let f = forecast(
        &m,
        &st,
        e("AA"),
        &sheet(&["CASH - - 5", "FORTIFY DDD - 4", "STASH - - 100", "TAX"]),
    )
    .unwrap();
    assert_eq!((f.start_bps, f.start_treasury), (30, 10));
    let bal: Vec<(u32, u32)> = f.steps.iter().map(|s| (s.bps, s.treasury)).collect();
    // 30 + 5 cashed; 4 forts; then STASH is cut to 31 / 3 = 10 points; then +2.
    assert_eq!(bal, vec![(35, 5), (31, 5), (1, 15), (3, 15)]);
    assert!(matches!(f.steps[2].outcome, Outcome::CutDown { .. }));
    // 3 BPs unused: all return to the treasury since 5 were cashed.
    assert_eq!(
        (f.cash_returned, f.leftover_bps, f.end_treasury),
        (3, 0, 18)
    );
}

#[test]
fn leftover_bps_become_armies_and_an_order_bid() {
    let (m, st) = basic();
    let f = forecast(&m, &st, e("AA"), &sheet(&["GROW CCC"])).unwrap();
    // GROW in mountains at population 2 costs 5: 25 left = 8 armies and a bid of 1.
    assert_eq!(
        (f.leftover_bps, f.leftover_armies, f.leftover_order_bid),
        (25, 8, 1)
    );
}

#[test]
fn failures_and_reasons_are_forecast() {
    let (m, st) = basic();
    let f = forecast(
        &m,
        &st,
        e("AA"),
        &sheet(&["ARMY - - 1", "RESERVE DDD - 1", "MOVE DDD EEE 1"]),
    )
    .unwrap();
    assert!(matches!(&f.steps[1].outcome, Outcome::Failed { reason } if reason.contains("5.5")));
    assert!(matches!(&f.steps[2].outcome, Outcome::Failed { reason } if reason.contains("ATTACK")));
}

#[test]
fn the_forecast_leaves_the_game_untouched_and_is_repeatable() {
    let (m, st) = basic();
    let before = st.clone();
    let s = sheet(&["ATTACK DDD EEE 3", "TAX"]);
    let a = forecast(&m, &st, e("AA"), &s).unwrap();
    let b = forecast(&m, &st, e("AA"), &s).unwrap();
    assert_eq!(a, b);
    assert_eq!(st, before);
    assert!(a.steps[0].caveat.is_some());
}

#[test]
fn the_forecast_knows_nothing_of_other_spies() {
    let (m, mut st) = basic();
    st.empires[1].spy = Some(Spy {
        area: "DDD".parse().unwrap(),
        waiting_for: None,
    });
    // The spy of BB really is in DDD, but AA's forecast must not say so.
    let f = forecast(&m, &st, e("AA"), &sheet(&["FIND DDD", "KILL DDD BB"])).unwrap();
    assert!(f.steps[0].result.contains("no other spy"));
    assert!(matches!(f.steps[1].outcome, Outcome::Failed { .. }));
    assert!(f.steps.iter().all(|s| s.caveat.is_some()));
}

#[test]
fn rule_10_2_the_view_hides_what_is_out_of_sight() {
    let (m, mut st) = basic();
    let g = m.find("GGG").unwrap().index();
    st.areas[g].defence = DefenceMode::Ambush;
    st.areas[g].defence_against = Some("EEE".parse().unwrap());
    let seen = visible_areas(&m, &st, e("CC"));
    // CC owns HHH, III, JJJ: it sees them, their neighbours FFF, GGG, SSE, but not AAA.
    for (code, visible) in [
        ("HHH", true),
        ("FFF", true),
        ("GGG", true),
        ("SSE", true),
        ("AAA", false),
        ("DDD", false),
    ] {
        assert_eq!(seen[m.find(code).unwrap().index()], visible, "{code}");
    }
    let v = view_for(&m, &st, e("CC"));
    let a = m.find("AAA").unwrap().index();
    assert_eq!((v.areas[a].armies, v.areas[a].population), (0, 0));
    assert_eq!(v.areas[a].base.as_ref().unwrap().ships, 0);
    // Owners are public; other empires' defence orders and balances are not.
    assert_eq!(v.areas[a].owner, Some(e("AA")));
    assert_eq!(v.areas[g].defence, DefenceMode::Retreat);
    assert_eq!(v.areas[g].armies, 4);
    assert_eq!(v.empires[0].bps, 0);
    assert_eq!(v.empires[0].treasury, 10);
}

#[test]
fn rule_6_4_no_random_actions_in_a_forecast() {
    let (m, mut st) = basic();
    let b = m.find("BBB").unwrap().index();
    st.areas[b].owner = None;
    let f = forecast(&m, &st, e("AA"), &sheet(&["ATTACK AAA BBB 6"])).unwrap();
    // BBB (2 armies, forest) is forecast exactly as it stands now.
    assert!(
        f.steps[0].result.contains("captured BBB"),
        "{}",
        f.steps[0].result
    );
}

#[test]
fn decision_30_the_forecast_charges_a_sabotage_with_nothing_to_destroy() {
    let (m, mut st) = basic();
    // BB's spy sits in CCC, which AA owns and which holds no armies.
    st.empires[1].spy = Some(Spy {
        area: "CCC".parse().unwrap(),
        waiting_for: None,
    });
    let f = forecast(&m, &st, e("BB"), &sheet(&["SABOTAGE"])).unwrap();
    assert!(f.steps[0].outcome.succeeded());
    assert_eq!(f.steps[0].spent, 1);
    assert!(
        f.steps[0].result.contains("caught"),
        "{}",
        f.steps[0].result
    );
}

#[test]
fn rule_6_5_the_forecast_shows_the_empires_own_dispersals_and_what_it_cannot_know() {
    let (m, st) = basic();
    // AAA: 6 armies, population 4, a fort: 6 > 5, so 6 / 5 = 1 would disperse; levying
    // more in DDD (population 5, 3 armies) pushes it over too.
    let f = forecast(&m, &st, e("AA"), &sheet(&["RESERVE DDD - 3"])).unwrap();
    let got: Vec<(String, u32)> = f
        .dispersals
        .iter()
        .map(|d| (d.area.clone(), d.armies))
        .collect();
    assert_eq!(got, vec![("AAA".to_string(), 1), ("DDD".to_string(), 1)]);
    assert_eq!((f.dispersals[0].present, f.dispersals[0].hold), (6, 5));
    // Nobody else's dispersals, even where the empire can see.
    assert!(f.unknowns.iter().any(|u| u.contains("census")));
    assert!(f.unknowns.iter().any(|u| u.contains("6.4")));
    // The real turn disperses the same.
    let t = play(&m, &st, &[("AA", &["RESERVE DDD - 3"])]);
    let mut real: Vec<(String, u32)> = t
        .events
        .iter()
        .filter_map(|ev| match &ev.what {
            empires_rules::event::What::Dispersal {
                empire: Some(x),
                area,
                armies,
                ..
            } if x.as_str() == "AA" => Some((area.to_string(), *armies)),
            _ => None,
        })
        .collect();
    real.sort();
    assert_eq!(real, got);
}
