//! The Headquarters money panel (digest 1.3, 5.4, 7.12): exact figures (G42), shown
//! truncated (G41, T1), priced by the same checks as the Final Events.

use crate::finals_support::*;
use napoleonic_rules::hq::{MoneyPanel, ShownPanel, money_panel};

fn panel(map: &Map, s: &GameState, k: &str, o: &KingdomOrders) -> MoneyPanel {
    money_panel(map, s, &kc(k), o)
}

#[test]
fn t1_four_troops_of_upkeep_one_point_one_show_as_four() {
    let (map, mut s) = setup();
    unit_mut(&mut s, "FRA", a(1)).troops.clear();
    add(&mut s, "FRA", a(1), "GRE", 4);
    let p = panel(&map, &s, "FRA", &KingdomOrders::default());
    assert_eq!(p.upkeep, Fixed(440));
    assert_eq!(p.shown().upkeep, 4);
}

#[test]
fn the_panel_adds_up_every_expense_of_the_orders() {
    let (map, mut s) = setup();
    s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
    hand_over(&mut s, ALS, "FRA");
    add(&mut s, "FRA", g(PAR), "LIN", 3);
    let o = KingdomOrders {
        hq: vec![
            HqOrder::Annex { province: ALS },
            HqOrder::SendGold {
                to: kc("SAV"),
                amount: gold(50),
            },
        ],
        units: vec![
            order(g(PAR), |u| {
                u.recruit = vec![tc("LIN", 2)];
                u.hire_leader = true;
                u.build = Some(Structure::Fortification);
            }),
            order(g(BRI), |u| u.build = Some(Structure::Harbour)),
        ],
        proclamation: None,
    };
    let p = panel(&map, &s, "FRA", &o);
    assert_eq!(
        p,
        MoneyPanel {
            kingdom: kc("FRA"),
            treasury: gold(100),
            // A1's 4 LIN and the garrison's 3, at 0.8.
            upkeep: Fixed(560),
            hq_expenses: gold(70),
            annexations: gold(15),
            gold_sent: gold(50),
            send_fees: gold(5),
            garrison_expenses: gold(66),
            recruits: gold(12),
            leaders: gold(20),
            // Raising PAR's hillfort (14, G3) and BRI's harbour (20).
            construction: gold(34),
            surplus: -Fixed(4160),
            expected_revenue: gold(81),
        }
    );
    assert!(p.shortfall());
    assert_eq!(
        p.shown(),
        ShownPanel {
            treasury: 100,
            upkeep: 5,
            hq_expenses: 70,
            garrison_expenses: 66,
            surplus: -41,
            expected_revenue: 81,
        }
    );
}

#[test]
fn t60_troops_disbanded_or_salvaged_pay_no_upkeep_on_the_panel() {
    let (map, s) = setup();
    let o = units(vec![order(a(1), |u| {
        u.disband = vec![tc("LIN", 1)];
        u.salvage = vec![tc("LIN", 5), tc("GRE", 2)];
    })]);
    assert_eq!(panel(&map, &s, "FRA", &o).upkeep, Fixed::ZERO);
    let o = units(vec![order(a(1), |u| u.disband = vec![tc("LIN", 1)])]);
    assert_eq!(panel(&map, &s, "FRA", &o).upkeep, Fixed(240));
}

#[test]
fn orders_that_cannot_succeed_cost_nothing_on_the_panel() {
    let (map, mut s) = setup();
    for at in [ALS, LYO, COR, WUR] {
        hand_over(&mut s, at, "FRA");
    }
    let o = KingdomOrders {
        hq: vec![
            // A Commoner has room for four annexations: the fifth would fail.
            HqOrder::Annex { province: ALS },
            HqOrder::Annex { province: LYO },
            HqOrder::Annex { province: COR },
            HqOrder::Annex { province: WUR },
            HqOrder::Annex { province: PAR },
            HqOrder::Annex { province: BAD },
            HqOrder::Annex { province: ALS },
            HqOrder::SendGold {
                to: kc("FRA"),
                amount: gold(9),
            },
        ],
        units: vec![
            order(g(PAR), |u| {
                u.recruit = vec![tc("CUI", 2), tc("LIN", 5)];
                u.hire_leader = true;
                u.build = Some(Structure::Fortification);
            }),
            order(g(PIC), |u| u.build = Some(Structure::Harbour)),
        ],
        proclamation: None,
    };
    let p = panel(&map, &s, "FRA", &o);
    assert_eq!(p.annexations, gold(15 + 18 + 9 + 8));
    assert_eq!(p.gold_sent, Fixed::ZERO);
    // Three LIN at most in Paris; no CUI; no leader for a Commoner; no workers in Paris;
    // no harbour on a reef coast.
    assert_eq!(p.recruits, gold(18));
    assert_eq!(p.leaders, Fixed::ZERO);
    assert_eq!(p.construction, Fixed::ZERO);
}

#[test]
fn the_expected_revenue_counts_owned_annexed_provinces_at_their_damage() {
    let (map, mut s) = setup();
    s.provinces.get_mut(&PAR).unwrap().damage = 2;
    s.provinces.get_mut(&BUR).unwrap().annexed_to = KingdomCode::independents();
    let p = panel(&map, &s, "FRA", &KingdomOrders::default());
    assert_eq!(p.expected_revenue, gold(26 + 20 + 6 + 5));
    let ind = panel(&map, &s, "IND", &KingdomOrders::default());
    assert_eq!(ind.upkeep, Fixed::ZERO);
    // Burgundy is annexed to the independents but not theirs: no one earns from it.
    assert_eq!(ind.expected_revenue, gold(15));
}

#[test]
fn g42_the_panel_foretells_the_treasury_exactly_when_every_order_succeeds() {
    let (map, mut s) = setup();
    hand_over(&mut s, ALS, "FRA");
    add(&mut s, "FRA", g(PAR), "LIN", 3);
    set_treasury(&mut s, "FRA", Fixed(12345));
    let o = KingdomOrders {
        hq: vec![
            HqOrder::Annex { province: ALS },
            HqOrder::SendGold {
                to: kc("SAV"),
                amount: Fixed(1010),
            },
        ],
        units: vec![order(g(PAR), |u| {
            u.recruit = vec![tc("LIN", 2), tc("GRE", 1)];
            u.build = Some(Structure::Fortification);
        })],
        proclamation: None,
    };
    let p = panel(&map, &s, "FRA", &o);
    assert!(!p.shortfall());
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(
        failures(&events, "FRA").is_empty(),
        "{:?}",
        failures(&events, "FRA")
    );
    // What is left is decayed (L9), then the revenue comes in (L11).
    let decay = Fixed(p.surplus.0 * 7 / 100);
    assert_eq!(
        treasury(&after, "FRA"),
        p.surplus - decay + p.expected_revenue
    );
}

#[test]
fn the_panel_is_serialisable() {
    let (map, s) = setup();
    let p = panel(&map, &s, "FRA", &KingdomOrders::default());
    let text = serde_json::to_string(&p).unwrap();
    assert!(text.contains("\"expected_revenue\":8100"));
    let back: MoneyPanel = serde_json::from_str(&text).unwrap();
    assert_eq!(back, p);
}
