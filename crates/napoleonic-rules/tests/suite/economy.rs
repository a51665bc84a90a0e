//! The money of the Final Events (digest 3.4, 5): gold sent (L2), upkeep (L3), troops
//! built (L4), leaders hired (L5), annexation and its decline (L6, L7), construction (L8),
//! decay (L9), razing (L10), revenue (L11) and proclamations (L13), with the worked
//! examples T3, T16-T19, T59-T70 and T80.

use crate::finals_support::*;

// ---------------------------------------------------------------------------------------
// L9 decay, L11 revenue, T80.

#[test]
fn t16_decay_takes_seven_gold_of_a_hundred() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    let (after, events) = run(&map, &s, &Orders::new());
    assert!(finals_of(&events, 9).contains(&&What::Decay {
        kingdom: kc("FRA"),
        amount: gold(7),
    }));
    // 100 - 7, then the revenue of five provinces (40 + 20 + 10 + 6 + 5).
    assert_eq!(treasury(&after, "FRA"), gold(93 + 81));
}

#[test]
fn decay_is_exact_to_the_hundredth_and_truncates_the_rest() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    set_treasury(&mut s, "FRA", Fixed(9480));
    let (after, events) = run(&map, &s, &Orders::new());
    // 7 % of 94.80 is 6.636: 6.63 decays (G41), 88.17 stays.
    assert!(finals_of(&events, 9).contains(&&What::Decay {
        kingdom: kc("FRA"),
        amount: Fixed(663),
    }));
    assert_eq!(treasury(&after, "FRA"), Fixed(8817) + gold(81));
}

#[test]
fn an_empty_treasury_does_not_decay() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    set_treasury(&mut s, "FRA", Fixed::ZERO);
    let (after, events) = run(&map, &s, &Orders::new());
    assert!(
        !events
            .iter()
            .any(|e| matches!(&e.what, What::Decay { kingdom, .. } if kingdom.as_str() == "FRA"))
    );
    assert_eq!(treasury(&after, "FRA"), gold(81));
}

#[test]
fn t80_the_new_treasury_is_treasury_less_upkeep_times_093_plus_revenue() {
    for n in [0, 1, 37, 100, 250] {
        for proclaim in [false, true] {
            let (map, mut s) = setup();
            // The army's upkeep: 4 LIN of 0.8.
            let upkeep = Fixed(320);
            assert_eq!(unit(&s, "FRA", a(1)).upkeep(&s.tables), upkeep);
            let t = upkeep + gold(n);
            set_treasury(&mut s, "FRA", t);
            let o = KingdomOrders {
                proclamation: proclaim.then(|| "Vive l'Empereur!".to_string()),
                ..Default::default()
            };
            let (after, _) = run(&map, &s, &orders(vec![("FRA", o)]));
            let revenue = gold(81);
            let expected = (t - upkeep).percent(93) + revenue + gold(if proclaim { 7 } else { 0 });
            assert_eq!(treasury(&after, "FRA"), expected, "T = {t}");
        }
    }
}

#[test]
fn t3_a_province_of_forty_at_damage_two_yields_twenty_six() {
    let (map, mut s) = setup();
    s.provinces.get_mut(&PAR).unwrap().damage = 2;
    let (after, events) = run(&map, &s, &Orders::new());
    // 26 + 20 + 10 + 6 + 5
    assert_eq!(revenue_of(&events, "FRA"), Some((gold(67), 5)));
    // T72: the damage is mended after the revenue is counted.
    assert_eq!(after.provinces[&PAR].damage, 1);
}

#[test]
fn every_damage_level_has_its_revenue_share() {
    for (damage, pct) in [(0u8, 100), (1, 85), (2, 65), (3, 40)] {
        let (map, mut s) = setup();
        s.provinces.get_mut(&NOR).unwrap().damage = damage;
        let (_, events) = run(&map, &s, &Orders::new());
        let nor = gold(20).percent(pct);
        assert_eq!(revenue_of(&events, "FRA").unwrap().0, gold(61) + nor);
    }
}

#[test]
fn l11_a_province_owned_but_annexed_to_another_yields_nothing() {
    let (map, mut s) = setup();
    s.provinces.get_mut(&BUR).unwrap().annexed_to = KingdomCode::independents();
    let (_, events) = run(&map, &s, &Orders::new());
    assert_eq!(revenue_of(&events, "FRA"), Some((gold(71), 4)));
}

#[test]
fn the_independents_earn_revenue_and_pay_no_upkeep() {
    let (map, s) = setup();
    assert_eq!(treasury(&s, "IND"), Fixed::ZERO);
    let (after, events) = run(&map, &s, &Orders::new());
    assert_eq!(revenue_of(&events, "IND"), Some((gold(15), 1)));
    assert_eq!(treasury(&after, "IND"), gold(15));
    assert_eq!(unit(&after, "IND", g(ALS)).troops.len(), 2);
    assert!(
        !events.iter().any(
            |e| matches!(&e.what, What::UpkeepPaid { kingdom, .. } if kingdom.is_independent())
        )
    );
}

// ---------------------------------------------------------------------------------------
// L2 gold sent.

#[test]
fn t17_sending_fifty_costs_fifty_five_and_delivers_fifty() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    let o = hq(vec![HqOrder::SendGold {
        to: kc("SAV"),
        amount: gold(50),
    }]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert_eq!(
        finals_of(&events, 2),
        vec![&What::GoldSent {
            from: kc("FRA"),
            to: kc("SAV"),
            amount: gold(50),
            fee: gold(5),
        }]
    );
    assert_eq!(treasury(&after, "FRA"), gold(45).percent(93) + gold(81));
    assert_eq!(treasury(&after, "SAV"), gold(80).percent(93) + gold(18));
}

#[test]
fn l2_gold_is_sent_all_or_nothing() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    set_treasury(&mut s, "FRA", gold(54));
    let o = hq(vec![HqOrder::SendGold {
        to: kc("SAV"),
        amount: gold(50),
    }]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    let f = failures(&events, "FRA");
    assert_eq!(f.len(), 1);
    assert!(f[0].contains("make 55"), "{f:?}");
    assert_eq!(treasury(&after, "FRA"), gold(54).percent(93) + gold(81));
    assert_eq!(treasury(&after, "SAV"), gold(30).percent(93) + gold(18));
}

#[test]
fn l2_the_recipient_must_accept_gifts_from_the_sender() {
    let (map, mut s) = setup();
    s.kingdoms
        .get_mut(&kc("SAV"))
        .unwrap()
        .refuses
        .insert(kc("FRA"));
    let o = hq(vec![HqOrder::SendGold {
        to: kc("SAV"),
        amount: gold(10),
    }]);
    let (_, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(failures(&events, "FRA")[0].contains("SAV accepts nothing from FRA"));
    assert!(
        finals_of(&events, 2)
            .iter()
            .all(|w| !matches!(w, What::GoldSent { .. }))
    );
}

#[test]
fn g23_the_route_may_not_cross_land_without_permission() {
    let send = hq(vec![HqOrder::SendGold {
        to: kc("BAV"),
        amount: gold(10),
    }]);
    // Paris - Burgundy - Alsace (independent) - Baden.
    let (map, s) = setup();
    let (_, events) = run(&map, &s, &orders(vec![("FRA", send.clone())]));
    assert!(failures(&events, "FRA")[0].contains("no route"));
    // G35: special permission in Alsace opens the caravan's way.
    let (map, mut s) = setup();
    s.provinces
        .get_mut(&ALS)
        .unwrap()
        .permissions
        .insert(kc("FRA"));
    let (_, events) = run(&map, &s, &orders(vec![("FRA", send)]));
    assert!(failures(&events, "FRA").is_empty());
    assert_eq!(finals_of(&events, 2).len(), 1);
}

#[test]
fn g23_the_recipient_must_be_within_reach() {
    // Paris - Burgundy - Lyon is two steps.
    for (reach, ok) in [(1, false), (2, true)] {
        let (map, mut s) = setup();
        s.settings.send_gold_reach = reach;
        let o = hq(vec![HqOrder::SendGold {
            to: kc("SAV"),
            amount: gold(10),
        }]);
        let (_, events) = run(&map, &s, &orders(vec![("FRA", o)]));
        assert_eq!(failures(&events, "FRA").is_empty(), ok, "reach {reach}");
    }
}

#[test]
fn g23_a_sea_with_an_enemy_fleet_bars_the_route() {
    let send = || {
        hq(vec![HqOrder::SendGold {
            to: kc("ENG"),
            amount: gold(10),
        }])
    };
    // Normandy - Channel - Cornwall, with a Bavarian fleet in the Channel.
    for (at_war, ok) in [(false, true), (true, false)] {
        let (map, mut s) = setup();
        new_unit(&mut s, "BAV", UnitId::fleet(1), CHA);
        add(&mut s, "BAV", UnitId::fleet(1), "WAR", 1);
        if at_war {
            s.set_relation(&kc("FRA"), &kc("BAV"), Relation::War);
        }
        let (_, events) = run(&map, &s, &orders(vec![("FRA", send())]));
        assert_eq!(failures(&events, "FRA").is_empty(), ok, "at war: {at_war}");
    }
}

#[test]
fn l2_nonsense_sends_fail_with_a_reason() {
    let (map, s) = setup();
    let o = hq(vec![
        HqOrder::SendGold {
            to: kc("XYZ"),
            amount: gold(10),
        },
        HqOrder::SendGold {
            to: kc("SAV"),
            amount: Fixed::ZERO,
        },
        HqOrder::SendGold {
            to: kc("IND"),
            amount: gold(1),
        },
    ]);
    let (_, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    let f = failures(&events, "FRA");
    assert_eq!(f.len(), 3, "{f:?}");
    assert!(f[0].contains("no kingdom XYZ"));
    assert!(f[1].contains("more than 0"));
    assert!(f[2].contains("independents"));
}

/// L2: "the recipient garrison can be owned by ... the same kingdom". With one treasury a
/// kingdom (E11) the gold comes back, and only the fee is spent.
#[test]
fn l2_gold_may_be_sent_to_ones_own_garrison_for_the_fee() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    let o = hq(vec![HqOrder::SendGold {
        to: kc("FRA"),
        amount: gold(30),
    }]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(failures(&events, "FRA").is_empty(), "{events:?}");
    assert_eq!(
        finals_of(&events, 2),
        vec![&What::GoldSent {
            from: kc("FRA"),
            to: kc("FRA"),
            amount: gold(30),
            fee: gold(3),
        }]
    );
    // 100 less the 3 fee, then decay and revenue as in T17.
    assert_eq!(treasury(&after, "FRA"), gold(97).percent(93) + gold(81));
}

// ---------------------------------------------------------------------------------------
// L3 upkeep.

#[test]
fn g24_leaders_are_paid_first_then_troops_by_unit_then_rank() {
    let (map, mut s) = setup();
    s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
    s.settings.unpaid_loss_percent = 100;
    set_treasury(&mut s, "FRA", Fixed(250));
    let (lin, mil) = (troop(&s, "LIN", 2), troop(&s, "MIL", 1));
    let a1 = unit_mut(&mut s, "FRA", a(1));
    a1.troops = vec![lin, mil.clone()];
    a1.leaders = vec![leader("Ney", gold(2))];
    a1.unit_leader = Some(0);
    new_unit(&mut s, "FRA", a(2), PAR);
    unit_mut(&mut s, "FRA", a(2)).troops = vec![mil];
    let (after, events) = run(&map, &s, &Orders::new());
    // The leader's 2, then the rank-1 MIL of A1 (0.5); A1's rank-2 LIN and A2's MIL go unpaid.
    assert!(finals_of(&events, 3).contains(&&What::UpkeepPaid {
        kingdom: kc("FRA"),
        paid: Fixed(250),
        unpaid: 2,
        lost: vec![
            (a(1), TroopCode("LIN".into())),
            (a(2), TroopCode("MIL".into()))
        ],
    }));
    let a1 = unit(&after, "FRA", a(1));
    assert_eq!(a1.troops.len(), 1);
    assert_eq!(a1.troops[0].code.0, "MIL");
    assert_eq!(a1.leaders.len(), 1);
    assert!(unit(&after, "FRA", a(2)).troops.is_empty());
}

#[test]
fn g24_a_troop_is_paid_whole_or_not_at_all() {
    let (map, mut s) = setup();
    s.settings.unpaid_loss_percent = 100;
    set_treasury(&mut s, "FRA", gold(1));
    let t = vec![
        troop(&s, "LIN", 1),
        troop(&s, "LIN", 1),
        troop(&s, "MIL", 1),
    ];
    unit_mut(&mut s, "FRA", a(1)).troops = t;
    let (after, events) = run(&map, &s, &Orders::new());
    // One LIN (0.8) is paid; 0.2 is left, which pays neither the second LIN nor the MIL.
    assert!(finals_of(&events, 3).iter().any(|w| matches!(w,
        What::UpkeepPaid { paid, unpaid: 2, .. } if *paid == Fixed(80))));
    let left: Vec<&str> = unit(&after, "FRA", a(1))
        .troops
        .iter()
        .map(|t| t.code.0.as_str())
        .collect();
    assert_eq!(left, vec!["LIN"]);
    // 0.20 left, less 7 % (0.014, of which 0.01 is taken), plus the revenue.
    assert_eq!(treasury(&after, "FRA"), Fixed(19) + gold(81));
}

#[test]
fn l3_an_unpaid_leader_may_leave() {
    let (map, mut s) = setup();
    s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
    s.settings.unpaid_loss_percent = 100;
    set_treasury(&mut s, "FRA", gold(1));
    let mil = troop(&s, "MIL", 1);
    let a1 = unit_mut(&mut s, "FRA", a(1));
    a1.troops = vec![mil];
    a1.leaders = vec![leader("Murat", gold(2))];
    a1.unit_leader = Some(0);
    let (after, events) = run(&map, &s, &Orders::new());
    assert!(finals_of(&events, 3).iter().any(|w| matches!(w,
        What::LeaderLost { leader, .. } if leader == "Murat")));
    let a1 = unit(&after, "FRA", a(1));
    assert!(a1.leaders.is_empty());
    assert_eq!(a1.unit_leader, None);
    assert_eq!(
        a1.troops.len(),
        1,
        "the MIL was paid with the gold the leader left"
    );
}

#[test]
fn t59_each_unpaid_troop_is_lost_with_a_fifty_percent_chance() {
    let mut lost = 0usize;
    let mut unpaid_total = 0u32;
    for seed in 0..20 {
        let (map, mut s) = setup_seed(seed);
        set_treasury(&mut s, "FRA", Fixed::ZERO);
        unit_mut(&mut s, "FRA", a(1)).troops.clear();
        add(&mut s, "FRA", a(1), "MIL", 100);
        let (after, events) = finals_only(&map, &s, &Orders::new());
        for w in finals_of(&events, 3) {
            if let What::UpkeepPaid { unpaid, .. } = w {
                unpaid_total += unpaid;
            }
        }
        lost += 100 - unit(&after, "FRA", a(1)).troops.len();
    }
    assert_eq!(unpaid_total, 2000);
    // 1000 expected; 4 % either side is about 3.6 standard deviations.
    assert!((920..=1080).contains(&lost), "lost {lost} of 2000");
}

#[test]
fn t60_a_troop_disbanded_at_f11_costs_no_upkeep() {
    let (map, s) = setup();
    let o = units(vec![order(a(1), |u| u.disband = vec![tc("LIN", 1)])]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(finals_of(&events, 3).iter().any(|w| matches!(w,
        What::UpkeepPaid { paid, .. } if *paid == Fixed(240))));
    assert_eq!(unit(&after, "FRA", a(1)).troops.len(), 3);
}

// ---------------------------------------------------------------------------------------
// L4 troops built.

#[test]
fn l4_recruits_appear_in_the_garrison_in_rank_one_with_their_move_points() {
    let (map, s) = setup();
    let o = units(vec![order(g(PAR), |u| {
        u.recruit = vec![tc("LIN", 2), tc("GRE", 1)]
    })]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert_eq!(
        finals_of(&events, 4),
        vec![&What::TroopsBuilt {
            unit: (kc("FRA"), g(PAR)),
            troops: vec![tc("LIN", 2), tc("GRE", 1)],
            cost: gold(24),
        }]
    );
    let gar = unit(&after, "FRA", g(PAR));
    assert_eq!(gar.troops.len(), 3);
    assert!(gar.troops.iter().all(|t| t.rank == 1 && t.mp == 2));
    // 100 - 3.2 upkeep - 24 = 72.80; 7 % of it is 5.096, of which 5.09 decays.
    assert_eq!(treasury(&after, "FRA"), Fixed(7280) - Fixed(509) + gold(81));
}

#[test]
fn l4_only_types_on_the_city_list_are_built() {
    let (map, s) = setup();
    let o = units(vec![order(g(PAR), |u| {
        u.recruit = vec![tc("CUI", 1), tc("MIL", 1), tc("XXX", 1)]
    })]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    let f = failures(&events, "FRA");
    assert_eq!(f.len(), 2, "{f:?}");
    assert!(f[0].contains("Paris cannot build CUI"));
    assert!(f[1].contains("no troop type XXX"));
    assert_eq!(unit(&after, "FRA", g(PAR)).troops.len(), 1);
}

#[test]
fn t19_a_city_builds_at_most_its_limit_a_turn() {
    let (map, s) = setup();
    let o = units(vec![order(g(PAR), |u| {
        u.recruit = vec![tc("LIN", 2), tc("MIL", 2)]
    })]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(failures(&events, "FRA")[0].contains("at most 3 troops a turn: 1 of 2 MIL"));
    let gar = unit(&after, "FRA", g(PAR));
    assert_eq!(gar.count(&TroopCode("LIN".into())), 2);
    assert_eq!(gar.count(&TroopCode("MIL".into())), 1);
}

#[test]
fn l4_ships_need_a_harbour() {
    for harbour in [true, false] {
        let (map, mut s) = setup();
        s.provinces.get_mut(&NOR).unwrap().harbour = harbour;
        let o = units(vec![order(g(NOR), |u| u.recruit = vec![tc("WAR", 1)])]);
        let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
        assert_eq!(
            unit(&after, "FRA", g(NOR)).troops.len(),
            usize::from(harbour)
        );
        if !harbour {
            assert!(failures(&events, "FRA")[0].contains("harbour"));
        }
    }
}

#[test]
fn t63_no_recruits_in_a_city_held_by_someone_else() {
    let (map, mut s) = setup();
    let p = s.provinces.get_mut(&PAR).unwrap();
    p.owner = kc("BAV");
    p.changed = true;
    let o = units(vec![order(g(PAR), |u| u.recruit = vec![tc("LIN", 1)])]);
    let (after, events) = finals_only(&map, &s, &orders(vec![("FRA", o)]));
    assert!(failures(&events, "FRA")[0].contains("held by BAV"));
    assert!(unit(&after, "FRA", g(PAR)).troops.is_empty());
}

#[test]
fn t62_a_city_taken_and_retaken_in_the_turn_still_builds() {
    let (map, mut s) = setup();
    // Lost in phase 1, won back in phase 2: the owner is France again, changed this turn.
    s.provinces.get_mut(&PAR).unwrap().changed = true;
    let o = units(vec![order(g(PAR), |u| u.recruit = vec![tc("LIN", 1)])]);
    let (after, events) = finals_only(&map, &s, &orders(vec![("FRA", o)]));
    assert!(failures(&events, "FRA").is_empty());
    assert_eq!(unit(&after, "FRA", g(PAR)).troops.len(), 1);
}

#[test]
fn l4_only_a_garrison_with_a_city_recruits() {
    let (map, mut s) = setup();
    new_unit(&mut s, "FRA", g(BUR), BUR);
    let o = units(vec![
        order(a(1), |u| u.recruit = vec![tc("LIN", 1)]),
        order(g(BUR), |u| u.recruit = vec![tc("LIN", 1)]),
    ]);
    let (_, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    let f = failures(&events, "FRA");
    assert!(f[0].contains("only a garrison"), "{f:?}");
    assert!(f[1].contains("no city"), "{f:?}");
}

// ---------------------------------------------------------------------------------------
// L5 leaders hired.

#[test]
fn g27_royalty_hires_a_leader_for_twenty_gold() {
    let (map, mut s) = setup();
    s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
    let o = units(vec![order(g(PAR), |u| u.hire_leader = true)]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert_eq!(
        finals_of(&events, 5),
        vec![&What::LeaderHired {
            unit: (kc("FRA"), g(PAR)),
            leader: "General 1 of France".into(),
            cost: gold(20),
        }]
    );
    let gar = unit(&after, "FRA", g(PAR));
    assert_eq!(gar.leaders.len(), 1);
    assert_eq!(gar.unit_leader, Some(0));
    let l = &gar.leaders[0];
    assert!((20..=40).contains(&l.combat) && l.infantry <= 50 && l.cavalry <= 50);
    assert_eq!(after.kingdoms[&kc("FRA")].leaders_hired, 1);
}

#[test]
fn g27_a_hired_leader_takes_a_name_no_one_bears() {
    let (map, mut s) = setup();
    s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
    unit_mut(&mut s, "FRA", a(1))
        .leaders
        .push(leader("General 1 of France", gold(2)));
    let o = units(vec![order(g(PAR), |u| u.hire_leader = true)]);
    let (after, _) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert_eq!(
        unit(&after, "FRA", g(PAR)).leaders[0].name,
        "General 2 of France"
    );
    assert_eq!(after.kingdoms[&kc("FRA")].leaders_hired, 2);
}

#[test]
fn g27_no_leader_joins_a_commoner() {
    let (map, s) = setup();
    let o = units(vec![order(g(PAR), |u| u.hire_leader = true)]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(failures(&events, "FRA")[0].contains("Royalty"));
    assert!(unit(&after, "FRA", g(PAR)).leaders.is_empty());
}

#[test]
fn g27_about_one_leader_in_four_is_an_admiral() {
    let (mut hired, mut admirals) = (0, 0);
    for seed in 0..400 {
        let (map, mut s) = setup_seed(seed);
        s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
        let o = units(vec![
            order(g(PAR), |u| u.hire_leader = true),
            order(g(NOR), |u| u.hire_leader = true),
        ]);
        let (after, _) = finals_only(&map, &s, &orders(vec![("FRA", o)]));
        for at in [PAR, NOR] {
            for l in &unit(&after, "FRA", g(at)).leaders {
                hired += 1;
                admirals += usize::from(l.naval > 0);
            }
        }
    }
    assert_eq!(hired, 800);
    // 200 expected; 5 % either side is about 3.3 standard deviations.
    assert!(
        (160..=240).contains(&admirals),
        "{admirals} admirals of 800"
    );
}

// ---------------------------------------------------------------------------------------
// L6 annexation, L7 decline.

#[test]
fn t64_a_province_conquered_this_turn_cannot_be_annexed() {
    let (map, mut s) = setup();
    hand_over(&mut s, ALS, "FRA");
    let p = s.provinces.get_mut(&ALS).unwrap();
    p.owner_at_start = KingdomCode::independents();
    p.changed = true;
    let o = hq(vec![HqOrder::Annex { province: ALS }]);
    let (after, events) = finals_only(&map, &s, &orders(vec![("FRA", o)]));
    assert!(failures(&events, "FRA")[0].contains("not yours when the season began"));
    assert!(after.provinces[&ALS].annexed_to.is_independent());
}

#[test]
fn t65_annexed_next_turn_it_costs_its_revenue_and_pays_from_the_turn_after() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    hand_over(&mut s, ALS, "FRA");
    let o = orders(vec![("FRA", hq(vec![HqOrder::Annex { province: ALS }]))]);
    let (after, events) = run(&map, &s, &o);
    assert_eq!(
        finals_of(&events, 6),
        vec![&What::Annexed {
            kingdom: kc("FRA"),
            province: ALS,
            cost: gold(15),
        }]
    );
    // "You won't receive any revenue from the province this turn."
    assert_eq!(revenue_of(&events, "FRA"), Some((gold(81), 5)));
    assert_eq!(treasury(&after, "FRA"), gold(85).percent(93) + gold(81));
    assert_eq!(after.provinces[&ALS].annexed_to, kc("FRA"));
    assert_eq!(after.kingdoms[&kc("FRA")].annexed, vec![ALS]);
    let (_, events) = run(&map, &after, &Orders::new());
    assert_eq!(revenue_of(&events, "FRA"), Some((gold(96), 6)));
}

#[test]
fn t67_a_commoner_annexes_at_most_four_beyond_the_starting_provinces() {
    for (status, ok) in [(Status::Commoner, false), (Status::Royalty, true)] {
        let (map, mut s) = setup();
        disarm_france(&mut s);
        s.kingdoms.get_mut(&kc("FRA")).unwrap().status = status;
        for at in [BAD, WUR, LYO, COR] {
            hand_over(&mut s, at, "FRA");
            s.provinces.get_mut(&at).unwrap().annexed_to = kc("FRA");
            s.kingdoms.get_mut(&kc("FRA")).unwrap().annexed.push(at);
        }
        hand_over(&mut s, ALS, "FRA");
        // A starting province lost to the independents' annexation does not count.
        s.provinces.get_mut(&BUR).unwrap().annexed_to = KingdomCode::independents();
        let o = hq(vec![
            HqOrder::Annex { province: ALS },
            HqOrder::Annex { province: BUR },
        ]);
        let (after, events) = finals_only(&map, &s, &orders(vec![("FRA", o)]));
        assert_eq!(after.provinces[&BUR].annexed_to, kc("FRA"));
        assert_eq!(after.provinces[&ALS].annexed_to == kc("FRA"), ok);
        if !ok {
            assert!(failures(&events, "FRA")[0].contains("at most 4"));
        }
    }
}

#[test]
fn l6_annexation_needs_the_gold_and_a_province_not_annexed_yet() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    hand_over(&mut s, ALS, "FRA");
    set_treasury(&mut s, "FRA", gold(10));
    let o = hq(vec![
        HqOrder::Annex { province: ALS },
        HqOrder::Annex { province: PAR },
        HqOrder::Annex { province: BAD },
        HqOrder::Annex { province: CHA },
    ]);
    let (_, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    let f = failures(&events, "FRA");
    assert_eq!(f.len(), 4, "{f:?}");
    assert!(f[0].contains("costs 15"));
    assert!(f[1].contains("already"));
    assert!(f[2].contains("held by BAV"));
    assert!(f[3].contains("not a province"));
}

#[test]
fn t66_an_annexation_lapses_after_three_turns_in_other_hands() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    hand_over(&mut s, BUR, "SAV");
    let mut state = s;
    for turn in 1..=3 {
        let (after, events) = run(&map, &state, &Orders::new());
        // Neither the annexer (not the owner) nor the owner (not the annexer) earns.
        assert_eq!(revenue_of(&events, "FRA").unwrap().0, gold(71));
        assert_eq!(revenue_of(&events, "SAV").unwrap().0, gold(18));
        let lapsed = finals_of(&events, 7).contains(&&What::AnnexationLapsed {
            province: BUR,
            from: kc("FRA"),
        });
        assert_eq!(lapsed, turn == 3, "turn {turn}");
        state = after;
    }
    assert!(state.provinces[&BUR].annexed_to.is_independent());
    // Won back now, it must be annexed again.
    hand_over(&mut state, BUR, "FRA");
    let (_, events) = run(&map, &state, &Orders::new());
    assert_eq!(revenue_of(&events, "FRA").unwrap().0, gold(71));
}

#[test]
fn t66_retaken_within_the_window_it_pays_again_with_no_fee() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    hand_over(&mut s, BUR, "SAV");
    let (mid, _) = run(&map, &s, &Orders::new());
    let (mut mid, _) = run(&map, &mid, &Orders::new());
    assert_eq!(mid.provinces[&BUR].decline, 2);
    hand_over(&mut mid, BUR, "FRA");
    let (after, events) = run(&map, &mid, &Orders::new());
    assert_eq!(after.provinces[&BUR].decline, 0);
    assert_eq!(after.provinces[&BUR].annexed_to, kc("FRA"));
    assert_eq!(revenue_of(&events, "FRA").unwrap().0, gold(81));
    assert!(finals_of(&events, 6).is_empty());
}

// ---------------------------------------------------------------------------------------
// L8 construction, L10 razing.

#[test]
fn t68_a_damaged_fort_is_repaired_and_raised_in_one_turn() {
    let (map, mut s) = setup();
    s.provinces.get_mut(&PAR).unwrap().fort_damage = 1;
    add(&mut s, "FRA", g(PAR), "LIN", 3);
    let o = units(vec![order(g(PAR), |u| {
        u.build = Some(Structure::Fortification)
    })]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert_eq!(
        finals_of(&events, 8),
        vec![
            &What::FortRepaired {
                province: PAR,
                damage: 0,
            },
            &What::Built {
                unit: (kc("FRA"), g(PAR)),
                province: PAR,
                what: "fortification level 3 (Fort)".into(),
                // G3: raising the hillfort (level 2) costs its own 14.
                cost: gold(14),
            },
        ]
    );
    let p = &after.provinces[&PAR];
    assert_eq!((p.fort_level, p.fort_damage), (3, 0));
}

#[test]
fn t69_the_hillfort_at_defence_zero_is_back_to_two_then_four() {
    let (map, mut s) = setup();
    s.provinces.get_mut(&PAR).unwrap().fort_damage = 2;
    add(&mut s, "FRA", g(PAR), "LIN", 3);
    let o = orders(vec![(
        "FRA",
        units(vec![order(g(PAR), |u| {
            u.build = Some(Structure::Fortification)
        })]),
    )]);
    assert_eq!(s.provinces[&PAR].effective_fort(), 0);
    let (after, _) = run(&map, &s, &o);
    let p = &after.provinces[&PAR];
    assert_eq!((p.fort_level, p.fort_damage, p.effective_fort()), (3, 1, 2));
    let (after, _) = run(&map, &after, &o);
    let p = &after.provinces[&PAR];
    assert_eq!((p.fort_level, p.fort_damage, p.effective_fort()), (4, 0, 4));
}

#[test]
fn g3_raising_the_hillfort_costs_fourteen_and_an_army_spends_a_move_point() {
    let (map, mut s) = setup();
    s.provinces.get_mut(&BUR).unwrap().fort_level = 2;
    let o = units(vec![order(a(1), |u| {
        u.build = Some(Structure::Fortification)
    })]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    // The hillfort (level 2) is raised for its own price, 14, to a Fort.
    assert!(finals_of(&events, 8).contains(&&What::Built {
        unit: (kc("FRA"), a(1)),
        province: BUR,
        what: "fortification level 3 (Fort)".into(),
        cost: gold(14),
    }));
    assert_eq!(after.provinces[&BUR].fort_level, 3);
    // G8: 2 MP, less 1 for the work.
    assert!(unit(&after, "FRA", a(1)).troops.iter().all(|t| t.mp == 1));
}

#[test]
fn l8_building_needs_workers_gold_move_points_and_own_land() {
    let (map, mut s) = setup();
    add(&mut s, "FRA", g(PAR), "LIN", 2);
    for t in &mut unit_mut(&mut s, "FRA", a(1)).troops {
        t.mp = 0;
    }
    new_unit(&mut s, "FRA", a(2), ALS);
    add(&mut s, "FRA", a(2), "LIN", 3);
    new_unit(&mut s, "FRA", a(3), NOR);
    add(&mut s, "FRA", a(3), "LIN", 3);
    set_treasury(&mut s, "FRA", gold(10));
    let o = units(vec![
        order(a(1), |u| u.build = Some(Structure::Fortification)),
        order(a(2), |u| u.build = Some(Structure::Fortification)),
        order(a(3), |u| u.build = Some(Structure::Fortification)),
        order(g(PAR), |u| u.build = Some(Structure::Fortification)),
    ]);
    let (after, events) = finals_only(&map, &s, &orders(vec![("FRA", o)]));
    let f = failures(&events, "FRA");
    assert_eq!(f.len(), 4, "{f:?}");
    assert!(f[0].contains("move points"), "{f:?}");
    assert!(f[1].contains("held by IND"), "{f:?}");
    assert!(f[2].contains("costs 20 gold"), "{f:?}");
    assert!(f[3].contains("needs 3 workers"), "{f:?}");
    assert_eq!(after.provinces[&PAR].fort_level, 2);
}

#[test]
fn l8_a_fortification_rises_one_level_a_turn() {
    let (map, mut s) = setup();
    add(&mut s, "FRA", g(PAR), "LIN", 3);
    new_unit(&mut s, "FRA", a(2), PAR);
    add(&mut s, "FRA", a(2), "LIN", 3);
    let o = units(vec![
        order(a(2), |u| u.build = Some(Structure::Fortification)),
        order(g(PAR), |u| u.build = Some(Structure::Fortification)),
    ]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(failures(&events, "FRA")[0].contains("one level a turn"));
    assert_eq!(after.provinces[&PAR].fort_level, 3);
}

#[test]
fn g11_no_free_repair_after_a_battle_or_a_pillage() {
    for (battle, pillaged, repaired) in [
        (false, false, true),
        (true, false, false),
        (false, true, false),
    ] {
        let (map, mut s) = setup();
        let p = s.provinces.get_mut(&PAR).unwrap();
        p.fort_damage = 1;
        p.battle = battle;
        p.pillaged = pillaged;
        let (after, _) = finals_only(&map, &s, &Orders::new());
        assert_eq!(after.provinces[&PAR].fort_damage == 0, repaired);
    }
}

#[test]
fn l8_a_repair_order_mends_one_more_level_for_the_gold_of_that_level() {
    let (map, mut s) = setup();
    let p = s.provinces.get_mut(&PAR).unwrap();
    p.fort_level = 3;
    p.fort_damage = 2;
    p.battle = true;
    add(&mut s, "FRA", g(PAR), "LIN", 3);
    let o = units(vec![
        order(g(PAR), |u| u.repair = true),
        order(a(1), |u| u.repair = true),
    ]);
    let (after, events) = finals_only(&map, &s, &orders(vec![("FRA", o)]));
    // Level 2 is restored: the hillfort's 14 gold.
    assert!(finals_of(&events, 8).contains(&&What::Built {
        unit: (kc("FRA"), g(PAR)),
        province: PAR,
        what: "repair of fortification level 2 (Hillfort)".into(),
        cost: gold(14),
    }));
    assert_eq!(after.provinces[&PAR].fort_damage, 1);
    // Burgundy's fort has nothing to repair.
    assert!(failures(&events, "FRA")[0].contains("no damage to repair"));
}

#[test]
fn l8_a_harbour_needs_a_city_and_a_coast_without_reefs() {
    let (map, s) = setup();
    let o = units(vec![
        order(a(1), |u| u.build = Some(Structure::Harbour)),
        order(g(NOR), |u| u.build = Some(Structure::Harbour)),
        order(g(BRI), |u| u.build = Some(Structure::Harbour)),
        order(g(PIC), |u| u.build = Some(Structure::Harbour)),
    ]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    let f = failures(&events, "FRA");
    assert_eq!(f.len(), 3, "{f:?}");
    assert!(f[0].contains("no city"));
    assert!(f[1].contains("already"));
    assert!(f[2].contains("reefs"));
    assert!(finals_of(&events, 8).contains(&&What::Built {
        unit: (kc("FRA"), g(BRI)),
        province: BRI,
        what: "harbour".into(),
        cost: gold(20),
    }));
    assert!(after.provinces[&BRI].harbour);
}

#[test]
fn t70_razing_a_level_gives_four_gold_after_decay() {
    let (map, s) = setup();
    let o = units(vec![order(g(PAR), |u| {
        u.raze = Some(Structure::Fortification)
    })]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(finals_of(&events, 10).contains(&&What::Razed {
        unit: (kc("FRA"), g(PAR)),
        province: PAR,
        what: "fortification level 2 (Hillfort)".into(),
        salvage: gold(4),
    }));
    assert_eq!(after.provinces[&PAR].fort_level, 1);
    // (100 - 3.2) less 7 % = 90.03, then + 4 undecayed, then the revenue.
    assert_eq!(treasury(&after, "FRA"), Fixed(9003) + gold(4) + gold(81));
}

#[test]
fn l10_damage_never_exceeds_the_level_that_is_left() {
    let (map, mut s) = setup();
    let p = s.provinces.get_mut(&PAR).unwrap();
    p.fort_damage = 2;
    p.battle = true;
    let o = units(vec![order(g(PAR), |u| {
        u.raze = Some(Structure::Fortification)
    })]);
    let (after, _) = finals_only(&map, &s, &orders(vec![("FRA", o)]));
    let p = &after.provinces[&PAR];
    assert_eq!((p.fort_level, p.fort_damage), (1, 1));
}

#[test]
fn l10_a_harbour_razed_gives_its_salvage_and_nothing_is_razed_twice() {
    let (map, s) = setup();
    let o = units(vec![
        order(a(1), |u| u.raze = Some(Structure::Fortification)),
        order(g(NOR), |u| u.raze = Some(Structure::Harbour)),
    ]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(failures(&events, "FRA")[0].contains("no fortification"));
    assert!(!after.provinces[&NOR].harbour);
    assert!(finals_of(&events, 10).iter().any(|w| matches!(w,
        What::Razed { what, salvage, .. } if what == "harbour" && *salvage == gold(4))));
}

#[test]
fn g31_a_fleet_in_a_harbour_razed_is_homeless_and_leaves_at_the_next_turns_first_m5() {
    let (map, mut s) = setup();
    new_unit(&mut s, "FRA", UnitId::fleet(1), NOR);
    add(&mut s, "FRA", UnitId::fleet(1), "WAR", 1);
    let o = units(vec![order(g(NOR), |u| u.raze = Some(Structure::Harbour))]);
    let (after, _) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(!after.provinces[&NOR].harbour);
    assert_eq!(
        unit(&after, "FRA", UnitId::fleet(1)).location,
        NOR,
        "razed at L10"
    );
    let (next, events) = run(&map, &after, &Orders::new());
    assert!(events.iter().any(|e| e.when
        == When::Phase(1, napoleonic_rules::event::MoveStep::HomelessDepart)
        && matches!(&e.what, What::HomelessFled { to: Some(to), .. } if *to == CHA)));
    let f = unit(&next, "FRA", UnitId::fleet(1));
    assert_eq!((f.location, f.mp()), (CHA, 0));
}

#[test]
fn l8_every_fortification_level_costs_twenty_but_the_hillfort_fourteen() {
    // 7.7: "20 gold per level", the hillfort's own row 14 (G3); razing gives 4 a level.
    for (from, cost) in [(0u8, 20), (1, 20), (2, 14), (3, 20), (7, 20)] {
        let (map, mut s) = setup();
        s.provinces.get_mut(&BUR).unwrap().fort_level = from;
        let o = units(vec![order(a(1), |u| {
            u.build = Some(Structure::Fortification)
        })]);
        let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
        assert!(
            finals_of(&events, 8).iter().any(|w| matches!(w,
                What::Built { cost: c, .. } if *c == gold(cost))),
            "from level {from}"
        );
        assert_eq!(after.provinces[&BUR].fort_level, from + 1);
    }
    // The table stops at level 8.
    let (map, mut s) = setup();
    s.provinces.get_mut(&BUR).unwrap().fort_level = 8;
    let o = units(vec![order(a(1), |u| {
        u.build = Some(Structure::Fortification)
    })]);
    let (_, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(failures(&events, "FRA")[0].contains("highest level"));
}

// ---------------------------------------------------------------------------------------
// L13 proclamations.

#[test]
fn t18_a_proclamation_earns_seven_gold_and_is_published() {
    let (map, s) = setup();
    let o = KingdomOrders {
        proclamation: Some("  Long live the Emperor!  ".into()),
        ..Default::default()
    };
    let (_, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert_eq!(
        finals_of(&events, 13),
        vec![&What::Proclamation {
            kingdom: kc("FRA"),
            text: "Long live the Emperor!".into(),
            income: gold(7),
        }]
    );
}

#[test]
fn l13_an_empty_proclamation_is_published_and_earns_nothing() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    let o = KingdomOrders {
        proclamation: Some("   ".into()),
        ..Default::default()
    };
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert_eq!(
        finals_of(&events, 13),
        vec![&What::Proclamation {
            kingdom: kc("FRA"),
            text: String::new(),
            income: Fixed::ZERO,
        }]
    );
    assert_eq!(treasury(&after, "FRA"), gold(93 + 81));
}
