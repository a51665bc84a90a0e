//! The First Events (digest 3.1): the start-of-turn reset, F1-F4 diplomacy, F6-F7 new
//! units, F8 administration, F9 transfers, F10 ranks, F11 disbanding and salvage, and the
//! palace coup.

use crate::moves_support;

use moves_support::*;
use napoleonic_rules::event::{What, When};
use napoleonic_rules::ids::{LocId, UnitKind};
use napoleonic_rules::orders::{Admin, HqOrder, RankOrder};
use napoleonic_rules::state::Relation;
use napoleonic_rules::{Fixed, Gold};

#[test]
fn the_start_of_the_turn_clears_last_turns_marks() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 2), ("LCV", 1)]);
    {
        let a = s.unit_mut(&k("FRA"), u("A1")).unwrap();
        for t in &mut a.troops {
            t.mp = 0;
        }
        a.holds = 3;
        a.retreated = true;
        a.prepared_for = Some(k("AUS"));
    }
    {
        let p = s.provinces.get_mut(&LocId(NOR)).unwrap();
        p.owner_at_start = k("AUS");
        p.changed = true;
        p.battle = true;
        p.pillaged = true;
        p.annexed_this_turn = true;
    }
    let out = play_first(&map, &s, &Orders::new());
    let a = out.unit("FRA", "A1");
    let mps: Vec<u8> = a.troops.iter().map(|t| t.mp).collect();
    assert_eq!(
        mps,
        vec![2, 2, 3],
        "every troop back to its type's MP (3.3)"
    );
    assert_eq!(
        (a.holds, a.retreated, a.prepared_for.clone()),
        (0, false, None)
    );
    let p = &out.state.provinces[&LocId(NOR)];
    assert_eq!(p.owner_at_start, k("FRA"));
    assert!(!p.changed && !p.battle && !p.pillaged && !p.annexed_this_turn);
    out.no_failures();
}

#[test]
fn t76_war_on_a_neutral_cancels_passage_and_permissions_both_ways() {
    let (map, mut s) = world();
    s.kingdoms
        .get_mut(&k("FRA"))
        .unwrap()
        .passage_to
        .insert(k("AUS"));
    s.kingdoms
        .get_mut(&k("AUS"))
        .unwrap()
        .passage_to
        .insert(k("FRA"));
    s.provinces
        .get_mut(&LocId(NOR))
        .unwrap()
        .permissions
        .insert(k("AUS"));
    s.provinces
        .get_mut(&LocId(BRA))
        .unwrap()
        .permissions
        .insert(k("FRA"));
    s.provinces
        .get_mut(&LocId(PIC))
        .unwrap()
        .permissions
        .insert(k("GBR"));
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::DeclareWar { to: k("AUS") })
        // F3 comes after F1: no rights can be granted to an enemy.
        .hq("FRA", HqOrder::GrantPassage { to: k("AUS") });
    let out = play_first(&map, &s, &o);
    assert_eq!(out.state.relation(&k("FRA"), &k("AUS")), Relation::War);
    assert!(out.state.kingdoms[&k("FRA")].passage_to.is_empty());
    assert!(out.state.kingdoms[&k("AUS")].passage_to.is_empty());
    assert!(out.state.provinces[&LocId(NOR)].permissions.is_empty());
    assert!(out.state.provinces[&LocId(BRA)].permissions.is_empty());
    assert!(
        out.state.provinces[&LocId(PIC)]
            .permissions
            .contains(&k("GBR")),
        "a third kingdom keeps its permission"
    );
    assert_eq!(
        out.events_at(When::First(1)),
        vec![&What::WarDeclared {
            by: k("FRA"),
            on: k("AUS")
        }]
    );
    assert!(out.failed_with(&["grant passage", "enemy"]));
}

#[test]
fn t73_war_cannot_be_declared_on_an_ally() {
    let (map, mut s) = world();
    set_ally(&mut s, "FRA", "AUS");
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::DeclareWar { to: k("AUS") });
    let out = play_first(&map, &s, &o);
    assert_eq!(out.state.relation(&k("FRA"), &k("AUS")), Relation::Ally);
    assert!(out.failed_with(&["declare war on AUS", "ally"]));
    assert_eq!(out.count(|w| matches!(w, What::WarDeclared { .. })), 0);
}

#[test]
fn two_kingdoms_declaring_on_each_other_both_succeed_and_war_on_an_enemy_fails() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::DeclareWar { to: k("AUS") })
        .hq("AUS", HqOrder::DeclareWar { to: k("FRA") })
        .hq("FRA", HqOrder::DeclareWar { to: k("GBR") })
        .hq("FRA", HqOrder::DeclareWar { to: k("XYZ") });
    let out = play_first(&map, &s, &o);
    assert_eq!(out.count(|w| matches!(w, What::WarDeclared { .. })), 2);
    assert!(out.failed_with(&["GBR", "already at war"]));
    assert!(out.failed_with(&["XYZ", "no kingdom XYZ"]));
    assert_eq!(out.failures().len(), 2);
}

#[test]
fn f2_acceptance_refuses_and_accepts_gifts() {
    let (map, mut s) = world();
    s.kingdoms
        .get_mut(&k("GBR"))
        .unwrap()
        .refuses
        .insert(k("FRA"));
    let mut o = Orders::new();
    o.hq(
        "AUS",
        HqOrder::Acceptance {
            from: k("FRA"),
            accept: false,
        },
    )
    .hq(
        "GBR",
        HqOrder::Acceptance {
            from: k("FRA"),
            accept: true,
        },
    );
    let out = play_first(&map, &s, &o);
    assert!(out.state.kingdoms[&k("AUS")].refuses.contains(&k("FRA")));
    assert!(out.state.kingdoms[&k("GBR")].refuses.is_empty());
    assert_eq!(out.events_at(When::First(2)).len(), 2);
    out.no_failures();
}

#[test]
fn f3_passage_rights_go_to_non_enemies_once_and_can_be_revoked() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "PRU");
    s.kingdoms
        .get_mut(&k("FRA"))
        .unwrap()
        .passage_to
        .insert(k("GBR"));
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::GrantPassage { to: k("AUS") })
        .hq("FRA", HqOrder::GrantPassage { to: k("AUS") })
        .hq("FRA", HqOrder::GrantPassage { to: k("PRU") })
        .hq("FRA", HqOrder::RevokePassage { to: k("GBR") })
        .hq("FRA", HqOrder::RevokePassage { to: k("GBR") });
    let out = play_first(&map, &s, &o);
    let fra = &out.state.kingdoms[&k("FRA")];
    assert!(fra.passage_to.contains(&k("AUS")));
    assert!(!fra.passage_to.contains(&k("GBR")) && !fra.passage_to.contains(&k("PRU")));
    assert!(out.failed_with(&["AUS", "already has passage rights"]));
    assert!(out.failed_with(&["PRU", "enemy"]));
    assert!(out.failed_with(&["GBR", "no passage rights to revoke"]));
    assert_eq!(out.events_at(When::First(3)).len(), 5);
}

#[test]
fn f4_special_permission_is_for_an_own_province_and_a_non_enemy() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "PRU");
    let mut o = Orders::new();
    let grant = |p: u16, to: &str| HqOrder::GrantPermission {
        province: LocId(p),
        to: k(to),
    };
    o.hq("FRA", grant(NOR, "AUS"))
        .hq("FRA", grant(FLA, "AUS"))
        .hq("FRA", grant(PIC, "PRU"))
        .hq(
            "FRA",
            HqOrder::RevokePermission {
                province: LocId(PAR),
                to: k("GBR"),
            },
        );
    let out = play_first(&map, &s, &o);
    assert!(
        out.state.provinces[&LocId(NOR)]
            .permissions
            .contains(&k("AUS"))
    );
    assert!(out.state.provinces[&LocId(FLA)].permissions.is_empty());
    assert!(out.state.provinces[&LocId(PIC)].permissions.is_empty());
    assert!(out.failed_with(&["4", "belongs to AUS"]));
    assert!(out.failed_with(&["PRU", "enemy"]));
    assert!(out.failed_with(&["GBR", "no permission there to revoke"]));
    assert_eq!(out.failures().len(), 3);
}

#[test]
fn f6_new_armies_stand_with_their_creator_and_take_a_free_number() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", NOR, &[("LIN", 2)]);
    place(&mut s, "FRA", "A2", PIC, &[("LIN", 1)]);
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "FRA", "A3", CHA, &[("LIN", 1)]);
    board(&mut s, "FRA", "A3", "FRA", "F1");
    let mut o = Orders::new();
    o.unit("FRA", "A1").form.push((u("A5"), "Guard".into()));
    o.unit("FRA", "A1").form.push((u("A2"), String::new()));
    o.unit("FRA", "G1").form.push((u("A6"), String::new()));
    o.unit("FRA", "F1").form.push((u("A7"), String::new()));
    o.unit("FRA", "A3").form.push((u("A8"), String::new()));
    o.unit("FRA", "A1").form.push((u("G3"), String::new()));
    let out = play_first(&map, &s, &o);
    assert_eq!(out.at("FRA", "A5"), NOR);
    assert_eq!(out.unit("FRA", "A5").name, "Guard");
    assert_eq!(out.at("FRA", "A6"), PAR, "a garrison forms armies too");
    assert_eq!(out.unit("FRA", "A6").name, "France A6");
    assert!(!out.has("FRA", "A7"), "a fleet does not form armies");
    // The FAQ's split of a cargo: the new army is aboard the same fleet.
    assert_eq!(out.unit("FRA", "A8").aboard, Some((k("FRA"), u("F1"))));
    assert_eq!(out.at("FRA", "A8"), CHA);
    assert!(out.failed_with(&["form A2", "already exists"]));
    assert!(out.failed_with(&["form A7", "only an army or a garrison"]));
    assert!(out.failed_with(&["form G3", "garrison cannot be formed"]));
    assert_eq!(
        out.events_at(When::First(6))
            .iter()
            .filter(|w| matches!(w, What::UnitFormed { .. }))
            .count(),
        3
    );
}

#[test]
fn f6_stops_at_ninety_nine_armies() {
    let (map, mut s) = world();
    for n in 1..=99 {
        place(&mut s, "FRA", &format!("A{n}"), PIC, &[]);
    }
    let mut o = Orders::new();
    o.unit("FRA", "G1").form.push((u("A50"), String::new()));
    let out = play_first(&map, &s, &o);
    assert!(out.failed_with(&["form A50", "already exists"]));
    assert_eq!(
        out.state
            .units
            .iter()
            .filter(|x| x.owner == k("FRA") && x.kind() == UnitKind::Army)
            .count(),
        99
    );
}

#[test]
fn f7_new_fleets_are_formed_by_fleets_and_garrisons_only() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 1)]);
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 1)]);
    let mut o = Orders::new();
    o.unit("FRA", "F1").form.push((u("F2"), String::new()));
    o.unit("FRA", "G1").form.push((u("F3"), String::new()));
    o.unit("FRA", "A1").form.push((u("F4"), String::new()));
    let out = play_first(&map, &s, &o);
    assert_eq!(out.at("FRA", "F2"), CHA);
    assert_eq!(out.at("FRA", "F3"), PAR);
    assert!(!out.has("FRA", "F4"));
    assert!(out.failed_with(&["form F4", "only a fleet or a garrison"]));
    assert_eq!(out.events_at(When::First(7)).len(), 3);
}

#[test]
fn f8_administrative_orders_cost_nothing_and_are_checked() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    place(&mut s, "FRA", "A2", PIC, &[("LIN", 1)]);
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 1)]);
    add_leader(&mut s, "FRA", "A1", "Ney");
    add_leader(&mut s, "FRA", "A1", "Murat");
    let mut o = Orders::new();
    let a1 = o.unit("FRA", "A1");
    a1.admin.push(Admin::RetreatLevel { rank: 3 });
    a1.admin.push(Admin::Follow {
        unit: Some(u("A2")),
    });
    a1.admin.push(Admin::Marines { board: true });
    a1.admin.push(Admin::Leader {
        name: "murat".into(),
    });
    a1.admin.push(Admin::Rename {
        name: "Grande Armée".into(),
    });
    a1.admin.push(Admin::RetreatLevel { rank: 7 });
    a1.admin.push(Admin::Leader {
        name: "Davout".into(),
    });
    let a2 = o.unit("FRA", "A2");
    a2.admin.push(Admin::Follow {
        unit: Some(u("F1")),
    });
    a2.admin.push(Admin::Follow {
        unit: Some(u("A2")),
    });
    o.unit("FRA", "F1")
        .admin
        .push(Admin::Marines { board: true });
    o.unit("FRA", "G1").admin.push(Admin::Follow {
        unit: Some(u("A1")),
    });
    let out = play_first(&map, &s, &o);
    let a = out.unit("FRA", "A1");
    assert_eq!(a.retreat_level, 3);
    assert_eq!(a.follow, Some(u("A2")));
    assert!(a.marines);
    assert_eq!(a.unit_leader, Some(1));
    assert_eq!(a.name, "Grande Armée");
    assert_eq!(a.mp(), 2, "administration costs no MP");
    assert_eq!(out.unit("FRA", "A2").follow, None);
    assert!(out.failed_with(&["retreat level 7", "1 to 5"]));
    assert!(out.failed_with(&["Davout", "no leader"]));
    assert!(out.failed_with(&["A2", "follow F1", "army follows an army"]));
    assert!(out.failed_with(&["follow A2", "itself"]));
    assert!(out.failed_with(&["F1", "marines", "armies"]));
    assert!(out.failed_with(&["G1", "never moves"]));
    assert_eq!(out.failures().len(), 6);
}

#[test]
fn t20_f9_transfer_keeps_mp_and_rank_and_lifts_the_givers_mp() {
    let (map, mut s) = world();
    // "The Royal Lions": cavalry and infantry together move at 2.
    place(&mut s, "FRA", "A1", PIC, &[("LCV", 2), ("LIN", 2)]);
    place(&mut s, "FRA", "A2", PIC, &[]);
    s.unit_mut(&k("FRA"), u("A1")).unwrap().troops[2].rank = 4;
    let mut o = Orders::new();
    o.unit("FRA", "A1")
        .transfers
        .push(xfer(None, "A2", &[("LIN", 2)], &[]));
    let out = play_first(&map, &s, &o);
    assert_eq!(out.mp("FRA", "A1"), 3, "only cavalry left: 3 MP");
    let a2 = out.unit("FRA", "A2");
    assert_eq!(a2.troops.len(), 2);
    assert_eq!(a2.troops[0].rank, 4, "a transferred troop keeps its rank");
    assert_eq!(a2.mp(), 2);
    assert!(matches!(
        out.events_at(When::First(9))[..],
        [What::Transferred { .. }]
    ));
}

#[test]
fn g40_transfers_follow_the_unit_kinds_and_the_recipients_acceptance() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 3)]);
    place(&mut s, "FRA", "F1", PAR, &[("WAR", 2), ("TRN", 1)]);
    place(&mut s, "FRA", "A2", NOR, &[]);
    place(&mut s, "GBR", "A1", PAR, &[]);
    place(&mut s, "AUS", "A1", PAR, &[]);
    add_leader(&mut s, "FRA", "A1", "Ney");
    s.kingdoms
        .get_mut(&k("AUS"))
        .unwrap()
        .refuses
        .insert(k("FRA"));
    let mut o = Orders::new();
    let a1 = o.unit("FRA", "A1");
    a1.transfers.push(xfer(None, "F1", &[("LIN", 1)], &[])); // soldiers to a fleet
    a1.transfers.push(xfer(None, "A2", &[("LIN", 1)], &[])); // elsewhere
    a1.transfers
        .push(xfer(Some("AUS"), "A1", &[("LIN", 1)], &[])); // refused
    a1.transfers
        .push(xfer(Some("GBR"), "A1", &[("LIN", 1)], &[])); // foreign, accepted
    a1.transfers.push(xfer(None, "F1", &[], &["Ney"])); // leaders to any unit
    a1.transfers.push(xfer(None, "G1", &[("LIN", 5)], &[])); // more than it has
    let f1 = o.unit("FRA", "F1");
    f1.transfers.push(xfer(None, "G1", &[("WAR", 1)], &[])); // city and harbour: fine
    f1.transfers.push(xfer(None, "A1", &[("TRN", 1)], &[])); // ships to an army
    let out = play_first(&map, &s, &o);
    assert_eq!(out.unit("FRA", "A1").count(&tc("LIN")), 2);
    assert_eq!(out.unit("GBR", "A1").count(&tc("LIN")), 1);
    assert_eq!(out.unit("FRA", "F1").leaders.len(), 1);
    assert_eq!(out.unit("FRA", "F1").unit_leader, Some(0));
    assert_eq!(out.unit("FRA", "A1").unit_leader, None);
    assert_eq!(out.unit("FRA", "G1").count(&tc("WAR")), 1);
    assert!(out.failed_with(&["to F1", "soldiers go only to an army or a garrison"]));
    assert!(out.failed_with(&["to A2", "same place"]));
    assert!(out.failed_with(&["to AUS A1", "accepts nothing from FRA"]));
    assert!(out.failed_with(&["5 LIN", "holds 2 LIN, not 5"]));
    assert!(out.failed_with(&["1 TRN", "ships go only to a fleet"]));
    assert_eq!(out.failures().len(), 5);
}

#[test]
fn ships_go_to_a_garrison_only_with_a_city_and_a_harbour() {
    let (map, mut s) = world();
    // Lakeland has a city and a harbour; Brabant (with a garrison placed by hand) has neither.
    place(&mut s, "AUS", "G5", BRA, &[]);
    place(&mut s, "AUS", "F1", BRA, &[("WAR", 1)]);
    let mut o = Orders::new();
    o.unit("AUS", "F1")
        .transfers
        .push(xfer(None, "G5", &[("WAR", 1)], &[]));
    let out = play_first(&map, &s, &o);
    assert!(
        out.failed_with(&["ships go only to a fleet or to a garrison with a city and a harbour"])
    );
    assert_eq!(out.unit("AUS", "F1").troops.len(), 1);
}

#[test]
fn f10_ranks_must_add_up_to_the_troops_held() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 3), ("LCV", 2)]);
    let mut o = Orders::new();
    let a1 = o.unit("FRA", "A1");
    a1.ranks.push(RankOrder {
        code: tc("LIN"),
        ranks: [1, 0, 2, 0, 0],
    });
    a1.ranks.push(RankOrder {
        code: tc("LCV"),
        ranks: [1, 0, 0, 0, 0],
    });
    a1.ranks.push(RankOrder {
        code: tc("GRE"),
        ranks: [0, 0, 0, 0, 0],
    });
    let out = play_first(&map, &s, &o);
    let ranks: Vec<(String, u8)> = out
        .unit("FRA", "A1")
        .troops
        .iter()
        .map(|t| (t.code.0.clone(), t.rank))
        .collect();
    assert_eq!(
        ranks,
        vec![
            ("LIN".into(), 1),
            ("LIN".into(), 3),
            ("LIN".into(), 3),
            ("LCV".into(), 1),
            ("LCV".into(), 1)
        ]
    );
    assert!(out.failed_with(&["ranks of LCV", "add up to 1", "holds 2"]));
    assert!(out.failed_with(&["ranks of GRE", "holds no GRE"]));
    assert_eq!(out.events_at(When::First(10)).len(), 3);
}

#[test]
fn t60_t61_disband_removes_and_salvage_pays_only_ashore() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", PAR, &[("WAR", 2)]);
    place(&mut s, "FRA", "F2", CHA, &[("WAR", 2)]);
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2), ("ART", 1)]);
    let mut o = Orders::new();
    o.unit("FRA", "F1").salvage = counts(&[("WAR", 1)]);
    o.unit("FRA", "F2").salvage = counts(&[("WAR", 1)]);
    o.unit("FRA", "A1").salvage = counts(&[("ART", 1), ("LIN", 1)]);
    o.unit("FRA", "A1").disband = counts(&[("LIN", 3)]);
    let out = play_first(&map, &s, &o);
    assert_eq!(out.unit("FRA", "F1").troops.len(), 1);
    assert_eq!(out.unit("FRA", "F2").troops.len(), 1);
    assert_eq!(out.unit("FRA", "A1").troops.len(), 1);
    // A warship in a province gives 10 (a third of 30), at sea nothing; artillery 5, line 0.
    assert_eq!(out.treasury("FRA"), Fixed::whole(100 + 10 + 5));
    let salvages: Vec<Gold> = out
        .events
        .iter()
        .filter_map(|e| match &e.what {
            What::Disbanded { salvage, .. } => Some(*salvage),
            _ => None,
        })
        .collect();
    assert_eq!(
        salvages,
        vec![Fixed::whole(5), Fixed::whole(10), Fixed::ZERO]
    );
    // Disbands come before salvage within a unit.
    assert!(out.failed_with(&["disband 3 LIN", "holds 2 LIN, not 3"]));
}

/// F11, T61: the rulebook asks a province only of salvaged *ships*; artillery salvaged by an
/// army aboard a fleet at sea still pays its third, while the fleet's warship pays nothing.
#[test]
fn f11_siege_machines_salvaged_at_sea_pay_ships_do_not() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 2)]);
    place(&mut s, "FRA", "A1", CHA, &[("ART", 2)]);
    board(&mut s, "FRA", "A1", "FRA", "F1");
    let mut o = Orders::new();
    o.unit("FRA", "F1").salvage = counts(&[("TRN", 1)]);
    o.unit("FRA", "A1").salvage = counts(&[("ART", 1)]);
    let out = play_first(&map, &s, &o);
    assert_eq!(out.unit("FRA", "A1").troops.len(), 1);
    assert_eq!(out.unit("FRA", "F1").troops.len(), 1);
    // Artillery: a third of 15 is 5, aboard at sea as ashore; the transport nothing.
    assert_eq!(out.treasury("FRA"), Fixed::whole(100 + 5));
}

#[test]
fn t78_a_ruler_giving_everything_away_is_dethroned_and_keeps_his_troops() {
    let (map, mut s) = world();
    place(&mut s, "GBR", "A1", DEN, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.hq(
        "GBR",
        HqOrder::GiveProvince {
            province: LocId(DEN),
            to: k("FRA"),
        },
    );
    o.unit("GBR", "A1").disband = counts(&[("LIN", 2)]);
    // France gives one province of three and disbands all: no coup.
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 1)]);
    o.hq(
        "FRA",
        HqOrder::GiveProvince {
            province: LocId(NOR),
            to: k("AUS"),
        },
    );
    o.unit("FRA", "A1").disband = counts(&[("LIN", 1)]);
    let mut t = napoleonic_rules::turn::Turn::new(&map, &s, &o.0).unwrap();
    napoleonic_rules::turn::first::run(&mut t);
    assert!(t.dethroned.contains(&k("GBR")));
    assert!(!t.dethroned.contains(&k("FRA")));
    assert_eq!(t.state.unit(&k("GBR"), u("A1")).unwrap().troops.len(), 2);
    assert!(t.state.unit(&k("FRA"), u("A1")).unwrap().troops.is_empty());
    assert!(
        t.events
            .iter()
            .any(|e| e.what == What::PalaceCoup { kingdom: k("GBR") })
    );
}

#[test]
fn orders_for_units_that_do_not_exist_are_reported_once() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 1)]);
    let mut o = Orders::new();
    o.route("FRA", "A9", &[NOR]);
    o.unit("FRA", "A1")
        .admin
        .push(Admin::RetreatLevel { rank: 2 });
    // A second set of orders for A1 is ignored.
    o.0.get_mut(&k("FRA"))
        .unwrap()
        .units
        .push(napoleonic_rules::orders::UnitOrders::new(u("A1")));
    let out = play(&map, &s, &o);
    assert!(out.failed_with(&["A9", "no unit A9"]));
    assert!(out.failed_with(&["A1", "orders twice"]));
    assert_eq!(out.failures().len(), 2, "{:#?}", out.failures());
    assert_eq!(out.unit("FRA", "A1").retreat_level, 2);
}
