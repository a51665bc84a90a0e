//! The Final Events as a whole (digest 3.4): their order, province damage (L1, L14),
//! gifts (L12), relations (L15-L17), kingdom limits (L18) and defeat (L19), with the
//! worked examples T71-T79.

use crate::finals_support::*;

fn rose(events: &[Event], at: LocId) -> bool {
    finals_of(events, 1)
        .iter()
        .any(|w| matches!(w, What::DamageRose { province, .. } if *province == at))
}

// ---------------------------------------------------------------------------------------
// The order of the steps.

#[test]
fn the_final_events_come_in_the_rulebooks_order() {
    let (map, mut s) = setup();
    s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
    s.provinces.get_mut(&BUR).unwrap().pillaged = true;
    s.provinces.get_mut(&NOR).unwrap().damage = 1;
    s.set_relation(&kc("BAV"), &kc("SAV"), Relation::War);
    s.set_relation(&kc("FRA"), &kc("ENG"), Relation::Ally);
    hand_over(&mut s, ALS, "FRA");
    add(&mut s, "FRA", g(PAR), "LIN", 3);
    let fra = KingdomOrders {
        hq: vec![
            HqOrder::SendGold {
                to: kc("SAV"),
                amount: gold(5),
            },
            HqOrder::Annex { province: ALS },
            HqOrder::GiveProvince {
                province: PIC,
                to: kc("ENG"),
            },
            HqOrder::CancelAlliance { to: kc("ENG") },
            HqOrder::OfferAlliance { to: kc("SAV") },
        ],
        units: vec![
            order(g(PAR), |u| {
                u.recruit = vec![tc("LIN", 1)];
                u.hire_leader = true;
                u.build = Some(Structure::Fortification);
            }),
            order(g(NOR), |u| u.raze = Some(Structure::Harbour)),
        ],
        proclamation: Some("Peace and glory".into()),
    };
    let o = orders(vec![
        ("FRA", fra),
        ("BAV", hq(vec![HqOrder::OfferPeace { to: kc("SAV") }])),
        (
            "SAV",
            hq(vec![
                HqOrder::OfferPeace { to: kc("BAV") },
                HqOrder::OfferAlliance { to: kc("FRA") },
            ]),
        ),
    ]);
    let (_, events) = finals_only(&map, &s, &o);
    let steps: Vec<u8> = events
        .iter()
        .filter_map(|e| match e.when {
            When::Final(n) => Some(n),
            _ => None,
        })
        .collect();
    assert!(steps.is_sorted(), "{steps:?}");
    let mut seen = steps.clone();
    seen.dedup();
    assert_eq!(
        seen,
        vec![1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]
    );
    assert!(
        failures(&events, "FRA").is_empty(),
        "{:?}",
        failures(&events, "FRA")
    );
}

#[test]
fn upkeep_comes_before_building_and_salvage_and_revenue_after_decay() {
    let (map, mut s) = setup();
    set_treasury(&mut s, "FRA", gold(20));
    let o = KingdomOrders {
        units: vec![order(g(PAR), |u| {
            u.recruit = vec![tc("LIN", 3)];
            u.raze = Some(Structure::Fortification);
        })],
        proclamation: Some("Long live the Emperor!".into()),
        ..Default::default()
    };
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    // L3 first: 20 - 3.2 = 16.8 pays for two LIN (12), not three (18).
    assert_eq!(unit(&after, "FRA", g(PAR)).troops.len(), 2);
    assert!(failures(&events, "FRA")[0].contains("2 of 3 are built"));
    // 4.80 left; L9 takes 0.33 of it; then the razing's 4 (L10), the revenue (L11) and
    // the proclamation (L13), none of them decayed.
    assert_eq!(
        treasury(&after, "FRA"),
        Fixed(480) - Fixed(33) + gold(4) + gold(81) + gold(7)
    );
}

#[test]
fn gold_received_at_l2_pays_the_upkeep_of_l3() {
    let (map, mut s) = setup();
    set_treasury(&mut s, "FRA", Fixed::ZERO);
    s.settings.unpaid_loss_percent = 100;
    // Savoy's caravan crosses Burgundy with France's passage rights.
    s.kingdoms
        .get_mut(&kc("FRA"))
        .unwrap()
        .passage_to
        .insert(kc("SAV"));
    let o = hq(vec![HqOrder::SendGold {
        to: kc("FRA"),
        amount: gold(4),
    }]);
    let (after, events) = finals_only(&map, &s, &orders(vec![("SAV", o)]));
    assert!(
        failures(&events, "SAV").is_empty(),
        "{:?}",
        failures(&events, "SAV")
    );
    assert_eq!(unit(&after, "FRA", a(1)).troops.len(), 4);
}

#[test]
fn damage_rises_before_revenue_and_is_mended_after_it() {
    let (map, mut s) = setup();
    s.provinces.get_mut(&PAR).unwrap().pillaged = true;
    s.provinces.get_mut(&NOR).unwrap().damage = 1;
    let (after, events) = finals_only(&map, &s, &Orders::new());
    // Paris at damage 1 (85 % of 40 = 34), Normandy still at damage 1 (17).
    assert_eq!(
        revenue_of(&events, "FRA").unwrap().0,
        gold(34 + 17 + 10 + 6 + 5)
    );
    assert_eq!(after.provinces[&PAR].damage, 1);
    assert_eq!(after.provinces[&NOR].damage, 0);
}

#[test]
fn a_turn_is_reproducible() {
    let (map, mut s) = setup();
    s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
    set_treasury(&mut s, "FRA", gold(1));
    add(&mut s, "FRA", a(1), "MIL", 20);
    let o = orders(vec![(
        "FRA",
        units(vec![order(g(PAR), |u| u.hire_leader = true)]),
    )]);
    let one = play(&map, &s, &o).unwrap();
    let two = play(&map, &s, &o).unwrap();
    assert_eq!(
        serde_json::to_string(&one.state).unwrap(),
        serde_json::to_string(&two.state).unwrap()
    );
    assert_eq!(
        serde_json::to_string(&one.events).unwrap(),
        serde_json::to_string(&two.events).unwrap()
    );
}

#[test]
fn nonsense_orders_fail_and_the_turn_goes_on() {
    let (map, s) = setup();
    let o = KingdomOrders {
        hq: vec![
            HqOrder::Annex {
                province: LocId(999),
            },
            HqOrder::GiveProvince {
                province: LocId(999),
                to: kc("BAV"),
            },
            HqOrder::OfferPeace { to: kc("ZZZ") },
            HqOrder::OfferAlliance { to: kc("FRA") },
        ],
        units: vec![
            order(g(LocId(999)), |u| u.recruit = vec![tc("LIN", 1)]),
            order(a(50), |u| u.build = Some(Structure::Fortification)),
            order(UnitId::fleet(3), |u| u.raze = Some(Structure::Harbour)),
            order(g(BAD), |u| u.hire_leader = true),
            order(a(1), |u| u.repair = true),
        ],
        proclamation: None,
    };
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    let at_the_end: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e.when, When::Final(_)) && matches!(e.what, What::OrderFailed { .. }))
        .collect();
    assert_eq!(at_the_end.len(), 9, "{at_the_end:?}");
    assert_eq!(after.turn, 2);
}

// ---------------------------------------------------------------------------------------
// L1, L14 damage.

#[test]
fn g10_damage_rises_after_a_battle_a_pillage_or_a_change_of_owner() {
    for mark in ["battle", "pillaged", "changed", "none"] {
        let (map, mut s) = setup();
        let p = s.provinces.get_mut(&BUR).unwrap();
        match mark {
            "battle" => p.battle = true,
            "pillaged" => p.pillaged = true,
            "changed" => p.changed = true,
            _ => {}
        }
        let (after, events) = finals_only(&map, &s, &Orders::new());
        let troubled = mark != "none";
        assert_eq!(rose(&events, BUR), troubled, "{mark}");
        assert_eq!(after.provinces[&BUR].damage, u8::from(troubled), "{mark}");
    }
}

#[test]
fn t71_a_battle_and_a_pillage_add_one_level_only_and_never_past_three() {
    for (before, expected) in [(1u8, 2u8), (3, 3)] {
        let (map, mut s) = setup();
        let p = s.provinces.get_mut(&BUR).unwrap();
        p.damage = before;
        p.battle = true;
        p.pillaged = true;
        let (after, events) = finals_only(&map, &s, &Orders::new());
        // G10: a troubled province is not mended at L14 either, even at 3.
        assert_eq!(after.provinces[&BUR].damage, expected);
        assert_eq!(rose(&events, BUR), before < 3);
        assert!(finals_of(&events, 14).is_empty());
    }
}

#[test]
fn t72_revenue_counts_the_damage_before_it_is_repaired() {
    let (map, mut s) = setup();
    s.provinces.get_mut(&PAR).unwrap().damage = 2;
    let (after, events) = run(&map, &s, &Orders::new());
    assert_eq!(
        revenue_of(&events, "FRA").unwrap().0,
        gold(26 + 20 + 10 + 6 + 5)
    );
    assert_eq!(
        finals_of(&events, 14),
        vec![&What::DamageRepaired {
            province: PAR,
            level: 1,
        }]
    );
    assert_eq!(after.provinces[&PAR].damage, 1);
}

// ---------------------------------------------------------------------------------------
// L12 gifts.

#[test]
fn l12_a_gift_takes_the_fort_and_harbour_not_the_annexation_and_g29_empties_the_garrison() {
    let (map, mut s) = setup();
    s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
    let p = s.provinces.get_mut(&NOR).unwrap();
    p.fort_level = 1;
    p.permissions.insert(kc("ENG"));
    add(&mut s, "FRA", g(NOR), "LIN", 2);
    add(&mut s, "FRA", g(NOR), "WAR", 1);
    unit_mut(&mut s, "FRA", g(NOR))
        .leaders
        .push(leader("Villeneuve", gold(2)));
    let o = hq(vec![HqOrder::GiveProvince {
        province: NOR,
        to: kc("BAV"),
    }]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    let p = &after.provinces[&NOR];
    assert_eq!(p.owner, kc("BAV"));
    // Ch4 "Provinces Gifted": a change of owner does not change the annexation.
    assert_eq!(p.annexed_to, kc("FRA"));
    assert_eq!((p.fort_level, p.harbour), (1, true));
    assert!(p.permissions.is_empty());
    assert!(after.kingdoms[&kc("BAV")].annexed.is_empty());
    // The soldiers and the leader in a new army, the ship in a new fleet, both French.
    let army = unit(&after, "FRA", a(2));
    assert_eq!((army.location, army.troops.len()), (NOR, 2));
    assert_eq!(army.leaders[0].name, "Villeneuve");
    let fleet = unit(&after, "FRA", UnitId::fleet(1));
    assert_eq!((fleet.location, fleet.troops.len()), (NOR, 1));
    assert!(after.unit(&kc("FRA"), g(NOR)).is_none());
    assert!(unit(&after, "BAV", g(NOR)).troops.is_empty());
    assert!(finals_of(&events, 12).contains(&&What::ProvinceGiven {
        province: NOR,
        from: kc("FRA"),
        to: kc("BAV"),
    }));
    // The giver had Normandy's revenue this turn (L11 comes before L12).
    assert_eq!(revenue_of(&events, "FRA").unwrap().0, gold(81));
    assert_eq!(revenue_of(&events, "BAV").unwrap().0, gold(20));
}

/// Ch4 "Provinces Gifted", L6, L7, L11: a given province earns for no one until the
/// recipient pays to annex it; unclaimed, its annexation lapses to the independents.
#[test]
fn l12_a_given_province_pays_no_one_until_the_recipient_annexes_it() {
    let (map, s) = setup();
    let give = hq(vec![HqOrder::GiveProvince {
        province: NOR,
        to: kc("BAV"),
    }]);
    let (given, _) = run(&map, &s, &orders(vec![("FRA", give)]));
    // The next turn: Normandy's 20 is earned by neither kingdom.
    let (idle, events) = run(&map, &given, &orders(vec![]));
    assert_eq!(revenue_of(&events, "FRA").unwrap().0, gold(61));
    assert_eq!(revenue_of(&events, "BAV").unwrap().0, gold(20));
    assert_eq!(idle.provinces[&NOR].decline, 1);
    // Bavaria annexes it, paying its revenue of 20; it pays from the turn after.
    let annex = hq(vec![HqOrder::Annex { province: NOR }]);
    let (annexed, events) = run(&map, &given, &orders(vec![("BAV", annex)]));
    assert!(failures(&events, "BAV").is_empty(), "{events:?}");
    assert!(finals_of(&events, 6).contains(&&What::Annexed {
        kingdom: kc("BAV"),
        province: NOR,
        cost: gold(20),
    }));
    assert_eq!(annexed.provinces[&NOR].annexed_to, kc("BAV"));
    assert_eq!(revenue_of(&events, "BAV").unwrap().0, gold(20));
    let (_, events) = run(&map, &annexed, &orders(vec![]));
    assert_eq!(revenue_of(&events, "BAV").unwrap().0, gold(40));
    assert_eq!(revenue_of(&events, "FRA").unwrap().0, gold(61));
    // Never annexed, the annexation declines and lapses after three turns (L7, G25).
    let mut st = idle;
    for _ in 0..2 {
        st = run(&map, &st, &orders(vec![])).0;
    }
    let p = &st.provinces[&NOR];
    assert!(p.annexed_to.is_independent(), "{p:?}");
    assert!(!st.kingdoms[&kc("FRA")].annexed.contains(&NOR));
}

/// The FAQ: a province ceded to the independents becomes theirs, and no troops are made for
/// them; the giver's garrison leaves as its own army (G29).
#[test]
fn l12_a_province_may_be_ceded_to_the_independents() {
    let (map, mut s) = setup();
    add(&mut s, "FRA", g(NOR), "LIN", 2);
    let cede = hq(vec![HqOrder::GiveProvince {
        province: NOR,
        to: KingdomCode::independents(),
    }]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", cede)]));
    assert!(failures(&events, "FRA").is_empty(), "{events:?}");
    let p = &after.provinces[&NOR];
    assert!(p.owner.is_independent());
    assert_eq!(p.annexed_to, kc("FRA"));
    let theirs: Vec<&Unit> = after
        .units
        .iter()
        .filter(|u| u.owner.is_independent() && u.location == NOR)
        .collect();
    assert!(theirs.iter().all(|u| u.troops.is_empty()), "{theirs:?}");
    let army = unit(&after, "FRA", a(2));
    assert_eq!((army.location, army.troops.len()), (NOR, 2));
}

#[test]
fn g29_past_ninety_nine_armies_the_garrison_soldiers_are_disbanded() {
    let (map, mut s) = setup();
    for n in 2..=99 {
        new_unit(&mut s, "FRA", a(n), PAR);
    }
    add(&mut s, "FRA", g(NOR), "LIN", 2);
    let o = hq(vec![HqOrder::GiveProvince {
        province: NOR,
        to: kc("BAV"),
    }]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(finals_of(&events, 12).contains(&&What::Disbanded {
        unit: (kc("FRA"), g(NOR)),
        troops: vec![tc("LIN", 2)],
        salvage: Fixed::ZERO,
    }));
    assert_eq!(after.provinces[&NOR].owner, kc("BAV"));
    assert!(after.unit(&kc("FRA"), g(NOR)).is_none());
}

#[test]
fn l12_a_gift_needs_the_province_and_a_willing_recipient() {
    let (map, mut s) = setup();
    s.kingdoms
        .get_mut(&kc("SAV"))
        .unwrap()
        .refuses
        .insert(kc("FRA"));
    let o = hq(vec![
        HqOrder::GiveProvince {
            province: BUR,
            to: kc("SAV"),
        },
        HqOrder::GiveProvince {
            province: BAD,
            to: kc("SAV"),
        },
        HqOrder::GiveProvince {
            province: BUR,
            to: kc("IND"),
        },
        HqOrder::GiveProvince {
            province: BUR,
            to: kc("FRA"),
        },
    ]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    let f = failures(&events, "FRA");
    assert_eq!(f.len(), 3, "{f:?}");
    assert!(f[0].contains("SAV accepts nothing from FRA"));
    assert!(f[1].contains("held by BAV"));
    // Ceding Burgundy to the independents is carried out (the FAQ), so it is no longer
    // France's to give to itself.
    assert!(f[2].contains("held by IND"), "{f:?}");
    assert_eq!(after.provinces[&BUR].owner, kc("IND"));
}

#[test]
fn t78_a_dethroned_rulers_gifts_are_not_carried_out() {
    let (map, s) = setup();
    let o = orders(vec![(
        "FRA",
        hq(vec![HqOrder::GiveProvince {
            province: BUR,
            to: kc("SAV"),
        }]),
    )]);
    let mut t = Turn::new(&map, &s, &o).unwrap();
    t.dethroned.insert(kc("FRA"));
    finals::run(&mut t);
    assert!(failures(&t.events, "FRA")[0].contains("palace coup"));
    assert_eq!(t.state.provinces[&BUR].owner, kc("FRA"));
}

// ---------------------------------------------------------------------------------------
// L15-L17 relations.

fn relation(s: &GameState, a: &str, b: &str) -> Relation {
    s.relation(&kc(a), &kc(b))
}

#[test]
fn l15_peace_needs_both_offers_and_t75_one_alone_leaves_them_at_war() {
    for both in [true, false] {
        let (map, mut s) = setup();
        s.set_relation(&kc("FRA"), &kc("BAV"), Relation::War);
        let mut list = vec![("FRA", hq(vec![HqOrder::OfferPeace { to: kc("BAV") }]))];
        if both {
            list.push(("BAV", hq(vec![HqOrder::OfferPeace { to: kc("FRA") }])));
        }
        let (after, events) = run(&map, &s, &orders(list));
        if both {
            assert_eq!(relation(&after, "FRA", "BAV"), Relation::Neutral);
            assert_eq!(
                finals_of(&events, 15),
                vec![&What::RelationChanged {
                    a: kc("BAV"),
                    b: kc("FRA"),
                    relation: Relation::Neutral,
                }]
            );
        } else {
            assert_eq!(relation(&after, "FRA", "BAV"), Relation::War);
            assert!(failures(&events, "FRA")[0].contains("did not offer peace"));
        }
    }
}

#[test]
fn l15_peace_is_offered_only_to_an_enemy() {
    let (map, s) = setup();
    let o = hq(vec![
        HqOrder::OfferPeace { to: kc("BAV") },
        HqOrder::OfferPeace { to: kc("IND") },
    ]);
    let (_, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    let f = failures(&events, "FRA");
    assert!(f[0].contains("not at war"));
    assert!(f[1].contains("independents never change"));
}

#[test]
fn t73_either_ally_cancels_the_alliance_alone() {
    for both in [false, true] {
        let (map, mut s) = setup();
        s.set_relation(&kc("FRA"), &kc("BAV"), Relation::Ally);
        let mut list = vec![("FRA", hq(vec![HqOrder::CancelAlliance { to: kc("BAV") }]))];
        if both {
            list.push(("BAV", hq(vec![HqOrder::CancelAlliance { to: kc("FRA") }])));
        }
        let (after, events) = run(&map, &s, &orders(list));
        assert_eq!(relation(&after, "FRA", "BAV"), Relation::Neutral);
        assert_eq!(finals_of(&events, 16).len(), 1);
    }
}

#[test]
fn l16_only_an_ally_can_be_dropped() {
    let (map, s) = setup();
    let o = hq(vec![HqOrder::CancelAlliance { to: kc("BAV") }]);
    let (_, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(failures(&events, "FRA")[0].contains("not allied"));
}

#[test]
fn l17_an_alliance_needs_both_offers() {
    let (map, s) = setup();
    let one = orders(vec![(
        "FRA",
        hq(vec![HqOrder::OfferAlliance { to: kc("BAV") }]),
    )]);
    let (after, events) = run(&map, &s, &one);
    assert_eq!(relation(&after, "FRA", "BAV"), Relation::Neutral);
    assert!(failures(&events, "FRA")[0].contains("did not offer an alliance"));
    let both = orders(vec![
        ("FRA", hq(vec![HqOrder::OfferAlliance { to: kc("BAV") }])),
        ("BAV", hq(vec![HqOrder::OfferAlliance { to: kc("FRA") }])),
    ]);
    let (after, events) = run(&map, &s, &both);
    assert_eq!(relation(&after, "FRA", "BAV"), Relation::Ally);
    assert_eq!(finals_of(&events, 17).len(), 1);
}

#[test]
fn t74_from_war_to_alliance_takes_two_turns() {
    let (map, mut s) = setup();
    s.set_relation(&kc("FRA"), &kc("BAV"), Relation::War);
    let both = |list: Vec<fn(KingdomCode) -> HqOrder>| {
        orders(vec![
            ("FRA", hq(list.iter().map(|f| f(kc("BAV"))).collect())),
            ("BAV", hq(list.iter().map(|f| f(kc("FRA"))).collect())),
        ])
    };
    let peace: fn(KingdomCode) -> HqOrder = |to| HqOrder::OfferPeace { to };
    let alliance: fn(KingdomCode) -> HqOrder = |to| HqOrder::OfferAlliance { to };
    // Turn N: peace and an alliance offered together; the alliance offer is invalid.
    let (after, events) = run(&map, &s, &both(vec![peace, alliance]));
    assert_eq!(relation(&after, "FRA", "BAV"), Relation::Neutral);
    assert!(failures(&events, "FRA")[0].contains("at war"));
    // Turn N+1: allied.
    let (after, _) = run(&map, &after, &both(vec![alliance]));
    assert_eq!(relation(&after, "FRA", "BAV"), Relation::Ally);
}

#[test]
fn f2_acceptance_changed_this_turn_rules_this_turns_transfers_gold_and_gifts() {
    // 7.11: acceptance changes at F2, before the transfers of F9, the gold of L2 and the
    // gifts of L12.
    for accept in [false, true] {
        let (map, mut s) = setup();
        new_unit(&mut s, "SAV", a(1), BUR);
        add(&mut s, "SAV", a(1), "MIL", 1);
        if accept {
            s.kingdoms
                .get_mut(&kc("SAV"))
                .unwrap()
                .refuses
                .insert(kc("FRA"));
        }
        let sav = hq(vec![HqOrder::Acceptance {
            from: kc("FRA"),
            accept,
        }]);
        let mut fra = hq(vec![
            HqOrder::SendGold {
                to: kc("SAV"),
                amount: gold(10),
            },
            HqOrder::GiveProvince {
                province: BUR,
                to: kc("SAV"),
            },
        ]);
        fra.units = vec![order(a(1), |u| {
            u.transfers = vec![napoleonic_rules::orders::Transfer {
                troops: vec![tc("LIN", 1)],
                leaders: Vec::new(),
                to_kingdom: Some(kc("SAV")),
                to: a(1),
            }]
        })];
        let (after, events) = run(&map, &s, &orders(vec![("FRA", fra), ("SAV", sav)]));
        let refused = failures(&events, "FRA")
            .iter()
            .filter(|f| f.contains("SAV accepts nothing from FRA"))
            .count();
        assert_eq!(refused, if accept { 0 } else { 3 }, "accept {accept}");
        assert_eq!(
            unit(&after, "SAV", a(1)).troops.len(),
            1 + usize::from(accept)
        );
        assert_eq!(after.provinces[&BUR].owner == kc("SAV"), accept);
        assert_eq!(
            events
                .iter()
                .any(|e| matches!(e.what, What::GoldSent { .. })),
            accept
        );
    }
}

#[test]
fn l15_peace_made_this_turn_comes_after_this_turns_battles() {
    let (map, mut s) = setup();
    s.set_relation(&kc("FRA"), &kc("BAV"), Relation::War);
    new_unit(&mut s, "BAV", a(1), BUR);
    add(&mut s, "BAV", a(1), "MIL", 2);
    let o = orders(vec![
        ("FRA", hq(vec![HqOrder::OfferPeace { to: kc("BAV") }])),
        ("BAV", hq(vec![HqOrder::OfferPeace { to: kc("FRA") }])),
    ]);
    let (after, events) = run(&map, &s, &o);
    let fought = events
        .iter()
        .filter(|e| matches!(e.what, What::Battle(_)))
        .count();
    assert_eq!(fought, 1, "the Bavarians in Burgundy are fought at M12");
    assert_eq!(relation(&after, "FRA", "BAV"), Relation::Neutral);
    assert!(!finals_of(&events, 15).is_empty());
}

#[test]
fn t73_from_ally_to_war_takes_two_turns() {
    let (map, mut s) = setup();
    s.set_relation(&kc("FRA"), &kc("BAV"), Relation::Ally);
    new_unit(&mut s, "BAV", a(1), BUR);
    add(&mut s, "BAV", a(1), "MIL", 2);
    // Turn N: war on an ally is refused; the alliance is cancelled at L16.
    let n = hq(vec![
        HqOrder::DeclareWar { to: kc("BAV") },
        HqOrder::CancelAlliance { to: kc("BAV") },
    ]);
    let (after, events) = run(&map, &s, &orders(vec![("FRA", n)]));
    assert!(failures(&events, "FRA")[0].contains("ally"));
    assert!(!events.iter().any(|e| matches!(e.what, What::Battle(_))));
    assert_eq!(relation(&after, "FRA", "BAV"), Relation::Neutral);
    // Turn N+1: war at F1, and the Bavarians in Burgundy are fought the same turn.
    let n1 = hq(vec![HqOrder::DeclareWar { to: kc("BAV") }]);
    let (after, events) = run(&map, &after, &orders(vec![("FRA", n1)]));
    assert_eq!(relation(&after, "FRA", "BAV"), Relation::War);
    assert!(events.iter().any(|e| matches!(e.what, What::Battle(_))));
}

// ---------------------------------------------------------------------------------------
// L18 limits, L19 defeat.

#[test]
fn g28_annexations_over_the_limit_revert_latest_first() {
    let (map, mut s) = setup();
    disarm_france(&mut s);
    // Annexed in this order; Lyon is the latest.
    for at in [COR, ALS, BAD, WUR, LYO] {
        hand_over(&mut s, at, "FRA");
        s.provinces.get_mut(&at).unwrap().annexed_to = kc("FRA");
        s.kingdoms.get_mut(&kc("FRA")).unwrap().annexed.push(at);
    }
    let (after, events) = finals_only(&map, &s, &Orders::new());
    assert!(after.provinces[&LYO].annexed_to.is_independent());
    for at in [COR, ALS, BAD, WUR] {
        assert_eq!(after.provinces[&at].annexed_to, kc("FRA"));
    }
    assert_eq!(after.kingdoms[&kc("FRA")].annexed, vec![COR, ALS, BAD, WUR]);
    assert_eq!(finals_of(&events, 18).len(), 1);
    // Royalty may hold them all.
    s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
    let (after, _) = finals_only(&map, &s, &Orders::new());
    assert_eq!(after.provinces[&LYO].annexed_to, kc("FRA"));
}

#[test]
fn g28_a_commoners_leaders_desert() {
    for status in [Status::Commoner, Status::Royalty] {
        let (map, mut s) = setup();
        s.kingdoms.get_mut(&kc("FRA")).unwrap().status = status;
        let a1 = unit_mut(&mut s, "FRA", a(1));
        a1.leaders.push(leader("Ney", gold(2)));
        a1.unit_leader = Some(0);
        let (after, events) = run(&map, &s, &Orders::new());
        let kept = unit(&after, "FRA", a(1)).leaders.len();
        assert_eq!(kept, usize::from(status == Status::Royalty));
        assert_eq!(finals_of(&events, 18).len(), 1 - kept);
    }
}

#[test]
fn t79_a_kingdom_without_provinces_or_troops_is_removed() {
    let (map, mut s) = setup();
    hand_over(&mut s, LYO, "FRA");
    new_unit(&mut s, "SAV", a(1), BUR);
    unit_mut(&mut s, "SAV", a(1))
        .leaders
        .push(leader("Eugene", gold(2)));
    // England loses Cornwall but keeps a ship at sea; Bavaria keeps land but no troops.
    hand_over(&mut s, COR, "FRA");
    new_unit(&mut s, "ENG", UnitId::fleet(1), CHA);
    add(&mut s, "ENG", UnitId::fleet(1), "TRN", 1);
    let (after, events) = finals_only(&map, &s, &Orders::new());
    assert_eq!(
        finals_of(&events, 19),
        vec![&What::KingdomDefeated { kingdom: kc("SAV") }]
    );
    assert!(!after.kingdoms[&kc("SAV")].alive);
    assert!(after.units.iter().all(|u| u.owner != kc("SAV")));
    assert!(after.kingdoms[&kc("ENG")].alive);
    assert!(after.kingdoms[&kc("BAV")].alive);
}

#[test]
fn section_6_a_kingdom_that_sends_no_orders_is_not_eliminated() {
    // Missing turns are "a domain in a state of civil unrest", not a defeat: Savoy sends
    // nothing for four turns and keeps its land and its place in the game.
    let (map, mut s) = setup();
    for _ in 0..4 {
        let (after, events) = run(&map, &s, &Orders::new());
        assert!(finals_of(&events, 19).is_empty());
        s = after;
    }
    assert!(s.kingdoms[&kc("SAV")].alive);
    assert_eq!(s.provinces[&LYO].owner, kc("SAV"));
}

#[test]
fn a_defeated_kingdoms_orders_are_not_read_again() {
    let (map, mut s) = setup();
    s.kingdoms.get_mut(&kc("SAV")).unwrap().alive = false;
    let o = hq(vec![HqOrder::SendGold {
        to: kc("FRA"),
        amount: gold(1),
    }]);
    let (after, events) = finals_only(&map, &s, &orders(vec![("SAV", o)]));
    assert!(
        events
            .iter()
            .all(|e| !matches!(&e.what, What::GoldSent { .. }))
    );
    // Nor does a fallen kingdom earn or decay.
    assert_eq!(treasury(&after, "SAV"), gold(30));
}

/// Send Ambassador (N10): recorded at L20 for the host to pass the sender's address on;
/// once a court, and never to the independents, who have no ruler.
#[test]
fn n10_an_ambassador_is_recorded_once_a_court() {
    let (map, s) = setup();
    let o = hq(vec![
        HqOrder::SendAmbassador { to: kc("BAV") },
        HqOrder::SendAmbassador { to: kc("BAV") },
        HqOrder::SendAmbassador { to: kc("IND") },
    ]);
    let (_, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    let sent: Vec<&What> = finals_of(&events, 20)
        .into_iter()
        .filter(|w| matches!(w, What::AmbassadorSent { .. }))
        .collect();
    assert_eq!(
        sent,
        vec![&What::AmbassadorSent {
            from: kc("FRA"),
            to: kc("BAV")
        }]
    );
    let f = failures(&events, "FRA");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("no ruler"), "{f:?}");
}
