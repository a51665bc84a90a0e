//! Movement phases on land (digest 3.2, 3.3, 9.2): marching and its costs, bounces, holds,
//! follow, transfers in a phase, where battles would be, ownership, pillage, the phase loop,
//! the dry run, determinism and nonsense orders. Fleets are in `movement_fleets.rs`.

use crate::moves_support;

use moves_support::*;
use napoleonic_rules::battle::BattleKind;
use napoleonic_rules::event::{MoveStep, What, When};
use napoleonic_rules::ids::LocId;
use napoleonic_rules::orders::{Admin, HqOrder, Step};
use napoleonic_rules::turn::preview::{positions_by_phase, preview};
use napoleonic_rules::{Fixed, Gold};

// ---------------------------------------------------------------------------------------
// Move costs and the worked examples T20-T33.

#[test]
fn t20_the_royal_lions_move_at_three_once_the_infantry_leaves() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    s.settings.harbour_loss_percent = 0;
    place(&mut s, "FRA", "A1", PAR, &[("LCV", 2), ("LIN", 2)]);
    place(&mut s, "FRA", "A2", PAR, &[]);
    let mut o = Orders::new();
    o.unit("FRA", "A1")
        .transfers
        .push(xfer(None, "A2", &[("LIN", 2)], &[]));
    o.route("FRA", "A1", &[PIC, FLA, BRA]);
    let out = play(&map, &s, &o);
    // Own province for 1 (3 → 2), enemy province for 2 (2 → 0), then nothing more.
    assert_eq!(
        out.moved("FRA", "A1"),
        vec![(PAR, PIC, 1, 1), (PIC, FLA, 2, 2)]
    );
    assert_eq!(out.mp("FRA", "A1"), 0);
    assert_eq!(out.at("FRA", "A1"), FLA);
    assert!(out.failed_with(&["A1", "move to 5 Brabant", "costs 2", "0 left"]));
    assert_eq!(out.failures().len(), 1);
}

#[test]
fn t21_a_transfer_after_moving_hands_over_the_spent_move_points() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PAR, &[("LCV", 1), ("LIN", 2)]);
    place(&mut s, "FRA", "A2", PIC, &[("LIN", 1)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[NOR, PIC]);
    o.phase("FRA", "A1", 3)
        .transfers
        .push(xfer(None, "A2", &[("LIN", 2)], &[]));
    let out = play(&map, &s, &o);
    out.no_failures();
    assert_eq!(out.mp("FRA", "A1"), 1, "3 - 2");
    assert_eq!(
        out.mp("FRA", "A2"),
        0,
        "the infantry arrives with no MP left"
    );
    assert_eq!(out.unit("FRA", "A2").troops.len(), 3);
    assert_eq!(
        out.events_at(phase(3, MoveStep::Transfers)).len(),
        1,
        "the transfer happens at M1 of phase 3"
    );
}

#[test]
fn t22_t31_a_province_taken_in_phase_one_costs_two_for_everyone_afterwards() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    place(&mut s, "FRA", "A2", PAR, &[("LCV", 2)]);
    place(&mut s, "GBR", "A1", PIC, &[("LCV", 1)]);
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::GrantPassage { to: k("GBR") });
    o.route("FRA", "A1", &[BRA]);
    o.route("FRA", "A2", &[PIC, BRA]);
    o.route("GBR", "A1", &[0, BRA]);
    let out = play(&map, &s, &o);
    out.no_failures();
    assert!(
        out.events_at(phase(1, MoveStep::Ownership))
            .contains(&&What::OwnershipChanged {
                province: LocId(BRA),
                from: k("AUS"),
                to: k("FRA"),
            })
    );
    assert!(out.state.provinces[&LocId(BRA)].changed);
    assert_eq!(
        out.moved("FRA", "A2"),
        vec![(PAR, PIC, 1, 1), (PIC, BRA, 2, 2)]
    );
    // Passage rights from the new owner do not make it cheaper: it changed hands.
    assert_eq!(out.moved("GBR", "A1"), vec![(PIC, BRA, 2, 2)]);
    assert_eq!(out.mp("GBR", "A1"), 1, "3, a free hold, then 2");
}

#[test]
fn t23_a_hold_and_a_longer_road_arrive_together_for_one_battle() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    // One militia against four troops: France wins the battle the two armies fight together.
    place(&mut s, "AUS", "A1", BRA, &[("MIL", 1)]);
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    place(&mut s, "FRA", "A2", PAR, &[("LCV", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[0, BRA]);
    o.route("FRA", "A2", &[PIC, BRA]);
    let out = play(&map, &s, &o);
    out.no_failures();
    assert!(
        out.events_at(phase(1, MoveStep::March))
            .contains(&&What::Held {
                unit: (k("FRA"), u("A1")),
                at: LocId(PIC),
                cost: 0,
            })
    );
    assert_eq!(out.moved("FRA", "A1"), vec![(PIC, BRA, 2, 2)]);
    assert_eq!(
        out.moved("FRA", "A2"),
        vec![(PAR, PIC, 1, 1), (PIC, BRA, 2, 2)]
    );
    let battles = out.battles();
    assert_eq!(
        battles,
        vec![(2, BRA, vec!["AUS".to_string(), "FRA".to_string()])],
        "one battle, in phase 2"
    );
    let fought = out.fought();
    assert_eq!(fought.len(), 1);
    let units: Vec<_> = fought[0].1.units.iter().map(|x| x.unit.clone()).collect();
    assert_eq!(
        units,
        vec![
            (k("AUS"), u("A1")),
            (k("FRA"), u("A1")),
            (k("FRA"), u("A2"))
        ],
        "both armies fight the one battle"
    );
    assert!(out.state.provinces[&LocId(BRA)].battle);
    assert_eq!(out.owner(BRA), "FRA", "taken at M13 of phase 2");
    assert_eq!((out.mp("FRA", "A1"), out.mp("FRA", "A2")), (0, 0));
}

#[test]
fn t24_hold_hold_march_needs_three_move_points() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[0, 0, BRA]);
    let out = play(&map, &s, &o);
    let held: Vec<u8> = out
        .events
        .iter()
        .filter_map(|e| match &e.what {
            What::Held { cost, .. } => Some(*cost),
            _ => None,
        })
        .collect();
    assert_eq!(held, vec![0, 1]);
    assert!(out.failed_with(&[
        "move to 5 Brabant",
        "one move point is not enough to enter enemy land"
    ]));
    assert_eq!((out.at("FRA", "A1"), out.mp("FRA", "A1")), (PIC, 1));
}

#[test]
fn t25_going_back_into_a_province_taken_behind_you_costs_two() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    // Austria plays the Prussians of the example: X is Brabant, Y is Flanders.
    place(&mut s, "AUS", "A1", BRA, &[("LIN", 2)]);
    place(&mut s, "AUS", "A2", BRA, &[("CUI", 4)]);
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("AUS", "A1", &[FLA, BRA]);
    o.route("AUS", "A2", &[FLA, BRA]);
    o.route("FRA", "A1", &[BRA]);
    let out = play(&map, &s, &o);
    assert!(
        out.events_at(phase(1, MoveStep::Ownership))
            .contains(&&What::OwnershipChanged {
                province: LocId(BRA),
                from: k("AUS"),
                to: k("FRA"),
            }),
        "taken in phase 1 while Austria left"
    );
    assert!(out.failed_with(&["AUS A1", "one move point is not enough to enter enemy land"]));
    assert_eq!(out.at("AUS", "A1"), FLA);
    // Cavalry has 2 left after the first move: enough.
    assert_eq!(
        out.moved("AUS", "A2"),
        vec![(BRA, FLA, 1, 1), (FLA, BRA, 2, 2)]
    );
    assert_eq!(
        out.battles(),
        vec![(2, BRA, vec!["AUS".into(), "FRA".into()])]
    );
    assert_eq!(out.mp("AUS", "A2"), 0, "a battle in what was enemy land");
    assert_eq!(out.owner(BRA), "AUS", "the cavalry won it back");
}

#[test]
fn t26b_t56_holding_then_entering_a_province_the_enemy_just_took() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    s.settings.harbour_loss_percent = 0;
    s.provinces
        .get_mut(&LocId(FLA))
        .unwrap()
        .permissions
        .insert(k("GBR"));
    // Austria's infantry stands in rank 2 with retreat level 1: it fights one round and
    // goes back where it came from (T42).
    place(&mut s, "AUS", "A1", BRA, &[("LIN", 6)]);
    set_ranks(&mut s, "AUS", "A1", 2, 1);
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("AUS", "A1", &[0, FLA]);
    o.route("FRA", "A1", &[FLA]);
    let out = play(&map, &s, &o);
    out.no_failures();
    // T56: the undefended fortified city falls, its fortification untouched and now French.
    assert!(
        out.events_at(phase(1, MoveStep::Ownership))
            .contains(&&What::OwnershipChanged {
                province: LocId(FLA),
                from: k("AUS"),
                to: k("FRA"),
            })
    );
    assert!(
        out.battles().iter().all(|b| b.0 == 2),
        "no battle in phase 1"
    );
    let fla = &out.state.provinces[&LocId(FLA)];
    assert_eq!(fla.owner.as_str(), "FRA");
    assert_eq!((fla.fort_level, fla.fort_damage), (2, 0));
    assert_eq!(
        fla.annexed_to.as_str(),
        "AUS",
        "the annexation stays with the old annexer"
    );
    assert!(
        fla.permissions.is_empty(),
        "the old owner's permissions lapse"
    );
    assert!(fla.harbour);
    assert!(out.has("FRA", "G4") && !out.has("AUS", "G4"));
    // T26 (b): Austria's hold is free, the way back in costs 2, and a battle follows, in
    // which the new owner defends the fortification.
    assert_eq!(out.moved("AUS", "A1"), vec![(BRA, FLA, 2, 2)]);
    assert_eq!(
        out.battles(),
        vec![(2, FLA, vec!["AUS".into(), "FRA".into()])]
    );
    let (_, b) = out.fought()[0];
    let fra = b.unit(&(k("FRA"), u("A1"))).unwrap();
    assert!(fra.defends, "France owns the fortification now");
    assert!(!b.unit(&(k("AUS"), u("A1"))).unwrap().defends);
    assert_eq!(b.rounds[0].retreats[0].to, LocId(BRA));
    assert_eq!((out.at("AUS", "A1"), out.mp("AUS", "A1")), (BRA, 0));
}

#[test]
fn t26c_t28_a_battle_in_your_own_province_costs_you_nothing() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    // The invader, in rank 2 with retreat level 1, fights one round and leaves: the
    // defender, in its own province, keeps its move points.
    place(&mut s, "AUS", "A1", BRA, &[("LIN", 6)]);
    place(&mut s, "FRA", "A1", PIC, &[("LCV", 2)]);
    set_ranks(&mut s, "FRA", "A1", 2, 1);
    let mut o = Orders::new();
    o.route("AUS", "A1", &[0]);
    o.route("FRA", "A1", &[BRA]);
    let out = play(&map, &s, &o);
    assert_eq!(
        out.battles(),
        vec![(1, BRA, vec!["AUS".into(), "FRA".into()])]
    );
    assert_eq!(
        out.mp("AUS", "A1"),
        2,
        "own territory: the defender keeps its MP"
    );
    // The invader that beats a lone militia stays in enemy land with no MP left.
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "AUS", "A1", BRA, &[("MIL", 1)]);
    place(&mut s, "FRA", "A1", PIC, &[("LCV", 2)]);
    let out = play(&map, &s, &o);
    assert_eq!(
        out.battles(),
        vec![(1, BRA, vec!["AUS".into(), "FRA".into()])]
    );
    assert!(!out.has("AUS", "A1"));
    assert_eq!(
        (out.at("FRA", "A1"), out.mp("FRA", "A1")),
        (BRA, 0),
        "enemy territory: the invader stops (3 - 2 → 0)"
    );
}

#[test]
fn t27_a_four_point_unit_goes_on_after_an_empty_province_but_stops_after_a_fight() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    s.settings.harbour_loss_percent = 0;
    place(&mut s, "AUS", "G4", FLA, &[("MIL", 1)]);
    place(&mut s, "FRA", "A1", PIC, &[("COS", 2)]);
    place(&mut s, "FRA", "A2", PIC, &[("COS", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[BRA, LAK]);
    o.route("FRA", "A2", &[FLA, HOL]);
    let out = play(&map, &s, &o);
    assert_eq!(
        out.moved("FRA", "A1"),
        vec![(PIC, BRA, 2, 1), (BRA, LAK, 2, 2)]
    );
    assert_eq!(out.owner(BRA), "FRA");
    assert_eq!(out.owner(LAK), "FRA", "empty independent land falls too");
    assert_eq!(out.moved("FRA", "A2"), vec![(PIC, FLA, 2, 1)]);
    assert_eq!(out.battles()[0], (1, FLA, vec!["AUS".into(), "FRA".into()]));
    assert_eq!(out.mp("FRA", "A2"), 0);
    assert!(out.failed_with(&["FRA A2", "move to 8 Holland", "0 left"]));
}

#[test]
fn t29_friendly_then_enemy_is_too_far_for_infantry() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[PIC, BRA]);
    let out = play(&map, &s, &o);
    assert_eq!(out.moved("FRA", "A1"), vec![(PAR, PIC, 1, 1)]);
    assert!(out.failed_with(&["one move point is not enough to enter enemy land"]));
    assert_eq!(out.at("FRA", "A1"), PIC);
}

#[test]
fn t30_an_army_bounces_off_neutral_or_allied_land_without_permission() {
    let (map, mut s) = world();
    set_ally(&mut s, "FRA", "PRU");
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    place(&mut s, "FRA", "A2", BRA, &[("LIN", 2)]);
    place(&mut s, "FRA", "A3", BRA, &[("LIN", 2)]);
    s.provinces
        .get_mut(&LocId(ALS))
        .unwrap()
        .permissions
        .insert(k("FRA"));
    let mut o = Orders::new();
    o.route("FRA", "A1", &[BRA]);
    o.route("FRA", "A2", &[ALS]);
    o.route("FRA", "A3", &[LAK]);
    s.provinces
        .get_mut(&LocId(ALS))
        .unwrap()
        .permissions
        .clear();
    let out = play(&map, &s, &o);
    let bounced: Vec<(String, u16)> = out
        .events
        .iter()
        .filter_map(|e| match &e.what {
            What::Bounced { unit, toward, .. } => Some((unit.1.to_string(), toward.0)),
            _ => None,
        })
        .collect();
    assert_eq!(bounced, vec![("A1".into(), BRA), ("A2".into(), ALS)]);
    assert_eq!(
        (out.at("FRA", "A1"), out.mp("FRA", "A1")),
        (PIC, 2),
        "no cost"
    );
    assert_eq!(
        (out.at("FRA", "A2"), out.mp("FRA", "A2")),
        (BRA, 2),
        "an ally is no permission"
    );
    assert_eq!(
        out.moved("FRA", "A3"),
        vec![(BRA, LAK, 2, 1)],
        "independent land is invaded"
    );
}

#[test]
fn special_permission_lets_an_army_through_for_one() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.hq(
        "AUS",
        HqOrder::GrantPermission {
            province: LocId(BRA),
            to: k("FRA"),
        },
    );
    o.route("FRA", "A1", &[BRA, ALS]);
    let out = play(&map, &s, &o);
    assert_eq!(out.moved("FRA", "A1"), vec![(PIC, BRA, 1, 1)]);
    assert_eq!(out.owner(BRA), "AUS");
    assert_eq!(
        out.count(|w| matches!(w, What::Bounced { .. })),
        1,
        "Alsace is Prussian"
    );
}

#[test]
fn t77_passage_rights_granted_this_turn_work_in_phase_one() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.hq("AUS", HqOrder::GrantPassage { to: k("FRA") });
    o.route("FRA", "A1", &[BRA, FLA]);
    let out = play(&map, &s, &o);
    out.no_failures();
    assert_eq!(
        out.moved("FRA", "A1"),
        vec![(PIC, BRA, 1, 1), (BRA, FLA, 1, 2)]
    );
    assert!(out.battles().is_empty());
    assert_eq!(out.owner(FLA), "AUS");
}

#[test]
fn t32_armies_at_war_crossing_one_border_fight_there_and_the_winner_goes_on() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    place(&mut s, "AUS", "A1", BRA, &[("CUI", 4)]);
    place(&mut s, "FRA", "A2", NOR, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[BRA]);
    o.route("AUS", "A1", &[PIC]);
    o.route("FRA", "A2", &[PIC]);
    let out = play(&map, &s, &o);
    out.no_failures();
    let border = out.events_at(phase(1, MoveStep::BorderBattles));
    assert_eq!(
        border[0],
        &What::BorderBattleJoined {
            between: (LocId(PIC), LocId(BRA)),
            kingdoms: vec![k("AUS"), k("FRA")],
            units: vec![(k("AUS"), u("A1")), (k("FRA"), u("A1"))],
        }
    );
    let fought = out.fought();
    let (p, b) = fought[0];
    assert_eq!((p, b.kind), (1, BattleKind::Border));
    let units: Vec<_> = b.units.iter().map(|x| x.unit.clone()).collect();
    assert_eq!(
        units,
        vec![(k("AUS"), u("A1")), (k("FRA"), u("A1"))],
        "C→A is not in it"
    );
    assert!(b.fortification.is_none() && b.siege.is_empty());
    assert_eq!(b.winning_kingdoms(), vec![k("AUS")]);
    // The winner carries on into Picardy and joins the battle there with the army that
    // came from Normandy; France never crossed into Brabant.
    assert_eq!(out.moved("AUS", "A1"), vec![(BRA, PIC, 2, 1)]);
    assert_eq!(
        out.moved("FRA", "A2"),
        vec![(NOR, PIC, 1, 1)],
        "C→A marched at M9"
    );
    assert!(!out.has("FRA", "A1"));
    assert_eq!(
        out.battles(),
        vec![(1, PIC, vec!["AUS".into(), "FRA".into()])]
    );
    let (_, land) = fought[1];
    assert_eq!(land.kind, BattleKind::Land);
    assert!(land.unit(&(k("FRA"), u("A2"))).is_some());
    assert!(land.unit(&(k("AUS"), u("A1"))).is_some());
    assert_eq!(out.owner(BRA), "AUS");

    // Alone, the winner keeps the move points it had: the border battle costs nothing.
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "FRA", "A1", PIC, &[("MIL", 1)]);
    place(&mut s, "AUS", "A1", BRA, &[("CUI", 6)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[BRA]);
    o.route("AUS", "A1", &[PIC]);
    let out = play(&map, &s, &o);
    assert_eq!(out.fought().len(), 1);
    assert_eq!((out.at("AUS", "A1"), out.mp("AUS", "A1")), (PIC, 1));
    assert_eq!(out.owner(PIC), "AUS", "empty when the winner arrived");
}

#[test]
fn g38_kingdoms_not_at_war_pass_each_other_on_a_border() {
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
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    place(&mut s, "AUS", "A1", BRA, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[BRA]);
    o.route("AUS", "A1", &[PIC]);
    let out = play(&map, &s, &o);
    out.no_failures();
    assert_eq!((out.at("FRA", "A1"), out.at("AUS", "A1")), (BRA, PIC));
    assert!(out.battles().is_empty());
}

#[test]
fn t33_a_transfer_between_units_apart_does_not_happen() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 2)]);
    place(&mut s, "FRA", "A2", PIC, &[("LIN", 1)]);
    place(&mut s, "FRA", "A3", NOR, &[]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[NOR]);
    o.route("FRA", "A2", &[PAR]);
    o.phase("FRA", "A1", 2)
        .transfers
        .push(xfer(None, "A2", &[("LIN", 1)], &[]));
    o.phase("FRA", "A1", 2)
        .transfers
        .push(xfer(None, "A3", &[("LIN", 1)], &[]));
    let out = play(&map, &s, &o);
    assert!(out.failed_with(&["transfer 1 LIN to A2", "same place"]));
    assert_eq!(out.failures().len(), 1);
    assert_eq!(out.unit("FRA", "A2").troops.len(), 1);
    assert_eq!(
        out.unit("FRA", "A3").troops.len(),
        1,
        "A3 stood where A1 arrived"
    );
    assert_eq!(out.unit("FRA", "A1").troops.len(), 1);
}

#[test]
fn g30_a_failed_march_leaves_the_army_where_it_is_for_the_next_order() {
    let (map, mut s) = world();
    place(&mut s, "PRU", "A1", ALS, &[("LIN", 2)]);
    place(&mut s, "PRU", "A2", BAD, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("PRU", "A1", &[BAD, LAK, CHA]);
    o.route("PRU", "G7", &[LAK]);
    let out = play(&map, &s, &o);
    assert!(out.failed_with(&["PRU A1", "mountains"]));
    assert!(out.failed_with(&["PRU A1", "move to 9 Lakeland", "where the army stands"]));
    assert!(out.failed_with(&["PRU A1", "does not border"]));
    assert!(out.failed_with(&["PRU G7", "a garrison never moves"]));
    assert_eq!((out.at("PRU", "A1"), out.mp("PRU", "A1")), (ALS, 2));
}

#[test]
fn follow_moves_a_unit_with_its_leader_unit_when_it_can() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 2)]);
    place(&mut s, "FRA", "A2", PAR, &[("LIN", 1)]);
    place(&mut s, "FRA", "A3", PIC, &[("LIN", 1)]);
    place(&mut s, "FRA", "A4", BRA, &[("LIN", 1)]);
    place(&mut s, "FRA", "A5", PAR, &[("LIN", 1)]);
    place(&mut s, "FRA", "A6", PAR, &[("LIN", 1)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[NOR]);
    for (f, leader) in [
        ("A2", "A1"),
        ("A3", "A1"),
        ("A4", "A1"),
        ("A5", "A1"),
        ("A6", "A2"),
    ] {
        o.unit("FRA", f).admin.push(Admin::Follow {
            unit: Some(u(leader)),
        });
    }
    o.route("FRA", "A5", &[PIC]);
    let out = play(&map, &s, &o);
    assert_eq!(out.at("FRA", "A2"), NOR);
    assert_eq!(out.at("FRA", "A3"), NOR);
    assert_eq!(out.at("FRA", "A6"), NOR, "a follower of a follower");
    assert_eq!(out.at("FRA", "A5"), PIC, "its own order comes first");
    assert_eq!(out.at("FRA", "A4"), BRA);
    assert!(out.failed_with(&["FRA A4", "follow A1 to 2 Normandy", "does not border"]));
    assert_eq!(out.failures().len(), 1);
}

#[test]
fn m10_the_defend_option_changes_in_its_phase() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.phase("FRA", "A1", 2).defend = Some(false);
    o.phase("FRA", "G1", 1).defend = Some(false);
    let out = play(&map, &s, &o);
    assert!(!out.unit("FRA", "A1").defend_forts);
    assert_eq!(out.events_at(phase(2, MoveStep::DefendOption)).len(), 1);
    assert!(out.failed_with(&["G1", "always defends"]));
}

// ---------------------------------------------------------------------------------------
// Where battles would be (M12) and ownership (M13).

#[test]
fn independents_fight_intruders_but_not_those_with_special_permission() {
    let (map, mut s) = world();
    place(&mut s, "IND", "G8", HOL, &[("LIN", 2)]);
    place(&mut s, "IND", "G9", LAK, &[("LIN", 2)]);
    s.provinces
        .get_mut(&LocId(LAK))
        .unwrap()
        .permissions
        .insert(k("AUS"));
    place(&mut s, "FRA", "A1", FLA, &[("CUI", 4)]);
    place(&mut s, "AUS", "A1", BRA, &[("LIN", 2)]);
    s.kingdoms
        .get_mut(&k("AUS"))
        .unwrap()
        .passage_to
        .insert(k("FRA"));
    let mut o = Orders::new();
    o.route("FRA", "A1", &[HOL]);
    o.route("AUS", "A1", &[LAK]);
    let out = play(&map, &s, &o);
    out.no_failures();
    assert_eq!(
        out.battles(),
        vec![(1, HOL, vec!["FRA".into(), "IND".into()])]
    );
    assert_eq!(out.mp("FRA", "A1"), 0);
    assert_eq!(out.moved("AUS", "A1"), vec![(BRA, LAK, 1, 1)]);
    assert_eq!(
        out.unit("IND", "G9").troops.len(),
        2,
        "no fight in Lakeland"
    );
    assert_eq!(
        (out.owner(HOL), out.owner(LAK)),
        ("FRA".into(), "IND".into()),
        "Holland falls to the winner; Lakeland's guest takes nothing"
    );
}

#[test]
fn allies_of_the_owner_not_at_war_watch_and_allies_at_war_defend() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    set_ally(&mut s, "AUS", "GBR");
    set_ally(&mut s, "AUS", "PRU");
    set_war(&mut s, "FRA", "PRU");
    place(&mut s, "GBR", "A1", BRA, &[("LIN", 4)]);
    place(&mut s, "PRU", "A1", FLA, &[("LIN", 1)]);
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    place(&mut s, "FRA", "A2", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[BRA]);
    o.route("FRA", "A2", &[FLA]);
    let out = play(&map, &s, &o);
    assert_eq!(out.owner(BRA), "FRA", "Britain only watches (G38)");
    assert_eq!(
        out.owner(FLA),
        "AUS",
        "Prussia is at war with France and defends"
    );
    assert_eq!(out.battles()[0], (1, FLA, vec!["FRA".into(), "PRU".into()]));
    assert!(!out.state.provinces[&LocId(BRA)].battle);
}

#[test]
fn a_garrison_with_soldiers_defends_and_an_empty_one_does_not() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "AUS", "G4", FLA, &[("MIL", 1)]);
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[FLA]);
    let out = play(&map, &s, &o);
    assert_eq!(out.owner(FLA), "AUS");
    assert_eq!(out.battles()[0], (1, FLA, vec!["AUS".into(), "FRA".into()]));
}

#[test]
fn declaring_war_on_a_host_takes_the_land_you_stand_on_after_the_first_phase() {
    let (map, mut s) = world();
    s.kingdoms
        .get_mut(&k("AUS"))
        .unwrap()
        .passage_to
        .insert(k("FRA"));
    place(&mut s, "FRA", "A1", BRA, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::DeclareWar { to: k("AUS") });
    o.route("FRA", "A1", &[0]);
    let out = play(&map, &s, &o);
    assert!(
        out.events_at(phase(1, MoveStep::Ownership))
            .contains(&&What::OwnershipChanged {
                province: LocId(BRA),
                from: k("AUS"),
                to: k("FRA"),
            })
    );
}

#[test]
fn t54_the_ally_with_more_troops_takes_the_province() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    set_war(&mut s, "GBR", "AUS");
    set_ally(&mut s, "FRA", "GBR");
    // Denmark's 8 heavy cavalry against Norway's 9 men-at-arms: count, not quality.
    place(&mut s, "FRA", "A1", BRA, &[("CUI", 8)]);
    place(&mut s, "GBR", "A1", BRA, &[("GRE", 9)]);
    let out = play(&map, &s, &Orders::new());
    assert_eq!(out.owner(BRA), "GBR");
}

#[test]
fn g14_leaders_count_as_troops_and_a_tie_goes_to_the_higher_combat() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    set_war(&mut s, "GBR", "AUS");
    set_war(&mut s, "PRU", "AUS");
    place(&mut s, "FRA", "A1", BRA, &[("LIN", 2)]); // 2 troops, combat 120
    place(&mut s, "GBR", "A1", BRA, &[("CUI", 2)]); // 2 troops, combat 160
    place(&mut s, "PRU", "A1", FLA, &[("MIL", 2)]); // 2 troops + a leader
    add_leader(&mut s, "PRU", "A1", "Blücher");
    place(&mut s, "GBR", "A2", FLA, &[("CUI", 2)]);
    s.settings.harbour_loss_percent = 0;
    let out = play(&map, &s, &Orders::new());
    assert_eq!(out.owner(BRA), "GBR", "tie on count, higher total combat");
    assert_eq!(out.owner(FLA), "PRU", "the leader makes three");
}

#[test]
fn t55_a_lone_siege_machine_cannot_conquer() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "FRA", "A1", PIC, &[("ART", 1)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[BRA]);
    let out = play(&map, &s, &o);
    assert_eq!(out.at("FRA", "A1"), BRA);
    assert_eq!(out.owner(BRA), "AUS");
    assert_eq!(out.count(|w| matches!(w, What::OwnershipChanged { .. })), 0);
}

#[test]
fn g32_a_captured_province_may_lose_its_harbour() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    s.settings.harbour_loss_percent = 100;
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[FLA]);
    let out = play(&map, &s, &o);
    assert_eq!(out.owner(FLA), "FRA");
    assert!(!out.state.provinces[&LocId(FLA)].harbour);
    assert!(
        out.events_at(phase(1, MoveStep::Ownership))
            .contains(&&What::HarbourLost {
                province: LocId(FLA)
            })
    );
}

// ---------------------------------------------------------------------------------------
// Pillage (M14, G9).

#[test]
fn m14_pillage_pays_the_revenue_at_the_current_damage_once_a_province_a_turn() {
    let (map, mut s) = world();
    s.provinces.get_mut(&LocId(FLA)).unwrap().damage = 2;
    s.kingdoms
        .get_mut(&k("AUS"))
        .unwrap()
        .passage_to
        .insert(k("FRA"));
    place(&mut s, "FRA", "A1", FLA, &[("LIN", 2)]);
    place(&mut s, "FRA", "A2", FLA, &[("LIN", 2)]);
    place(&mut s, "FRA", "G1", PAR, &[("MIL", 1)]);
    let mut o = Orders::new();
    o.phase("FRA", "A1", 1).pillage = true;
    o.phase("FRA", "A2", 2).pillage = true;
    o.phase("FRA", "G1", 1).pillage = true;
    let out = play(&map, &s, &o);
    // Flanders: 8 at 65 % = 5.2; Paris, by the garrison (no MP needed): 10.
    assert_eq!(
        out.treasury("FRA"),
        Fixed::whole(100) + Fixed(520) + Fixed::whole(10)
    );
    assert!(out.state.provinces[&LocId(FLA)].pillaged);
    assert_eq!(out.mp("FRA", "A1"), 1, "pillage costs one move point (G8)");
    assert!(out.failed_with(&["FRA A2", "pillage", "already pillaged"]));
    assert_eq!(out.failures().len(), 1);
}

#[test]
fn t58_pillage_needs_the_minimum_total_combat_and_a_move_point() {
    let (map, mut s) = world();
    s.settings.pillage_combat = 40;
    place(&mut s, "FRA", "A1", NOR, &[("MIL", 1)]); // combat 40
    place(&mut s, "FRA", "A2", PIC, &[("ART", 4)]); // combat 32
    place(&mut s, "FRA", "A3", PAR, &[("LIN", 1)]);
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 1)]);
    let mut o = Orders::new();
    o.phase("FRA", "A1", 1).pillage = true;
    o.phase("FRA", "A2", 1).pillage = true;
    o.route("FRA", "A3", &[NOR, PAR, PIC]);
    o.phase("FRA", "A3", 3).pillage = true;
    o.phase("FRA", "F1", 1).pillage = true;
    let out = play(&map, &s, &o);
    assert_eq!(out.treasury("FRA"), Fixed::whole(106));
    assert!(out.failed_with(&["FRA A2", "total combat is 32, under the 40"]));
    assert!(out.failed_with(&["FRA F1", "fleets do not pillage"]));
    assert!(out.failed_with(&["FRA A3", "move to 3 Picardy", "0 left"]));
}

#[test]
fn t58_pillage_fails_at_a_total_combat_of_nine_and_succeeds_at_ten() {
    let (map, s) = world();
    assert_eq!(s.settings.pillage_combat, 10, "the rulebook's figure");
    // A lone leader: combat 9 × 1 attack, then 5 × 2.
    for (combat, attacks, paid) in [(9, 1, false), (5, 2, true)] {
        let mut s = s.clone();
        place(&mut s, "FRA", "A1", NOR, &[]);
        add_leader(&mut s, "FRA", "A1", "Murat");
        let l = &mut s.unit_mut(&k("FRA"), u("A1")).unwrap().leaders[0];
        l.combat = combat;
        l.attacks = attacks;
        let mut o = Orders::new();
        o.phase("FRA", "A1", 1).pillage = true;
        let out = play(&map, &s, &o);
        let gold = if paid { 6 } else { 0 };
        assert_eq!(
            out.treasury("FRA"),
            Fixed::whole(100 + gold),
            "combat {combat}"
        );
        assert_eq!(
            out.failed_with(&["pillage", &format!("total combat is {}", combat * attacks)]),
            !paid
        );
    }
}

#[test]
fn g9_g10_a_province_can_be_pillaged_every_turn_and_its_damage_rises_each_time() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", NOR, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.phase("FRA", "A1", 1).pillage = true;
    let mut gold = Vec::new();
    for _ in 0..3 {
        let out = napoleonic_rules::play(&map, &s, &o.0).unwrap();
        for e in &out.events {
            if let What::Pillaged { gold: g, .. } = &e.what {
                gold.push(*g);
            }
        }
        s = out.state;
    }
    // Normandy (6) at damage 0, 1 and 2: 6, 5.10 and 3.90 (G4); the damage rose at each
    // L1 (G10) and the pillage is allowed again every turn.
    assert_eq!(gold, vec![Fixed::whole(6), Fixed(510), Fixed(390)]);
    assert_eq!(s.provinces[&LocId(NOR)].damage, 3);
}

#[test]
fn passage_rights_go_one_way_and_troops_keep_their_place_when_they_are_revoked() {
    let (map, mut s) = world();
    // France had given Austria passage rights; an Austrian army stands in French Picardy.
    s.kingdoms
        .get_mut(&k("FRA"))
        .unwrap()
        .passage_to
        .insert(k("AUS"));
    place(&mut s, "AUS", "A1", PIC, &[("LIN", 2)]);
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::RevokePassage { to: k("AUS") });
    // The Austrians try deeper into France, then go home; France tries Austria's Brabant:
    // rights granted to Austria give France nothing there.
    o.route("AUS", "A1", &[NOR, BRA]);
    o.route("FRA", "A1", &[BRA]);
    let out = play(&map, &s, &o);
    assert!(!out.state.kingdoms[&k("FRA")].passage_to.contains(&k("AUS")));
    let bounced: Vec<(String, u16)> = out
        .events
        .iter()
        .filter_map(|e| match &e.what {
            What::Bounced { unit, toward, .. } => Some((unit.0.to_string(), toward.0)),
            _ => None,
        })
        .collect();
    assert_eq!(
        bounced,
        vec![("AUS".to_string(), NOR), ("FRA".to_string(), BRA)]
    );
    // The Austrians kept their place in Picardy and could still leave for home.
    assert_eq!(out.moved("AUS", "A1"), vec![(PIC, BRA, 1, 2)]);
    assert_eq!(out.at("FRA", "A1"), PIC);
    assert_eq!(out.owner(PIC), "FRA");
    assert!(out.fought().is_empty());
}

#[test]
fn pillage_needs_move_points_left() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 1)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[NOR, PAR]);
    o.phase("FRA", "A1", 2).pillage = true;
    let out = play(&map, &s, &o);
    assert!(out.failed_with(&["FRA A1", "pillage", "needs 1 move point and has 0"]));
    assert_eq!(out.treasury("FRA"), Fixed::whole(100));
}

// ---------------------------------------------------------------------------------------
// The loop (M15, G37), the dry run, determinism, nonsense.

#[test]
fn g37_phases_run_while_plans_last_then_once_more_under_the_cap() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PAR, &[("LCV", 1)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[NOR, PIC, PAR]);
    let p = preview(&map, &s, &o.0).unwrap();
    assert_eq!(p.phases, 4, "three planned and one extra");
    s.settings.max_phases = 2;
    let out = play(&map, &s, &o);
    assert_eq!(out.at("FRA", "A1"), PIC);
    assert!(out.failed_with(&["phase 3 orders", "only 2 phases"]));
    let empty = preview(&map, &s, &Orders::new().0).unwrap();
    assert_eq!(empty.phases, 1, "with no plans, the extra phase alone");
}

#[test]
fn the_dry_run_lists_every_units_place_after_each_phase() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PAR, &[("LCV", 1)]);
    let mut o = Orders::new();
    o.unit("FRA", "A1").form.push((u("A2"), String::new()));
    o.route("FRA", "A1", &[NOR, PIC]);
    o.route("FRA", "A2", &[0, PIC]);
    let before = s.clone();
    let pos = positions_by_phase(&map, &s, &o.0).unwrap();
    let l = |v: &[u16]| v.iter().map(|x| Some(LocId(*x))).collect::<Vec<_>>();
    assert_eq!(pos[&(k("FRA"), u("A1"))], l(&[PAR, NOR, PIC, PIC]));
    assert_eq!(pos[&(k("FRA"), u("A2"))], l(&[PAR, PAR, PIC, PIC]));
    assert_eq!(pos[&(k("FRA"), u("G1"))], l(&[PAR, PAR, PAR, PAR]));
    assert_eq!(s, before, "the game's state is untouched");
}

#[test]
fn the_same_inputs_give_the_same_bytes() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    set_war(&mut s, "GBR", "AUS");
    place(&mut s, "FRA", "A1", PIC, &[("LIN", 2), ("LCV", 1)]);
    place(&mut s, "GBR", "A1", PIC, &[("CUI", 3)]);
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 1)]);
    place(&mut s, "FRA", "A2", CHA, &[("MIL", 1), ("LIN", 2)]);
    board(&mut s, "FRA", "A2", "FRA", "F1");
    place(&mut s, "AUS", "F1", FLA, &[("TRN", 2)]);
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::GrantPassage { to: k("GBR") });
    o.route("FRA", "A1", &[BRA, LAK]);
    o.route("GBR", "A1", &[BRA]);
    o.phase("FRA", "F1", 1)
        .unload
        .push((None, u("A2"), LocId(FLA)));
    o.phase("FRA", "A1", 2).pillage = true;
    let run = || {
        let out = play(&map, &s, &o);
        (
            serde_json::to_string(&out.state).unwrap(),
            serde_json::to_string(&out.events).unwrap(),
        )
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b);
    assert!(a.1.contains("landing_failed") || a.1.contains("unloaded"));
}

#[test]
fn a_turn_of_nonsense_orders_completes_with_failures() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 2)]);
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "AUS", "A1", BRA, &[("LIN", 1)]);
    let mut o = Orders::new();
    o.route("FRA", "A9", &[NOR]);
    o.route("FRA", "A1", &[DEN, 999, PAR, CHA]);
    o.phase("FRA", "A1", 200).step = Some(Step::Move(LocId(NOR)));
    let f1 = o.phase("FRA", "F1", 1);
    f1.load.push((Some(k("AUS")), u("A1")));
    f1.load.push((Some(k("AUS")), u("A7")));
    f1.unload.push((None, u("A1"), LocId(NOR)));
    f1.step = Some(Step::Move(LocId(DEN)));
    f1.transfers
        .push(xfer(Some("GBR"), "A5", &[("TRN", 1)], &[]));
    f1.prepare_board = Some(k("XYZ"));
    f1.pillage = true;
    o.phase("FRA", "G1", 1).step = Some(Step::Move(LocId(NOR)));
    o.phase("FRA", "A1", 1).prepare_board = Some(k("XYZ"));
    o.phase("FRA", "A1", 1).load.push((None, u("A1")));
    o.phase("FRA", "A1", 1)
        .transfers
        .push(xfer(None, "A1", &[("LIN", 1)], &[]));
    o.hq("FRA", HqOrder::DeclareWar { to: k("FRA") });
    o.hq(
        "FRA",
        HqOrder::GrantPermission {
            province: LocId(CHA),
            to: k("AUS"),
        },
    );
    let out = play(&map, &s, &o);
    let f = out.failures();
    assert!(f.len() >= 14, "{f:#?}");
    assert_eq!(out.at("FRA", "A1"), PAR);
    assert_eq!(out.unit("FRA", "A1").troops.len(), 2);
    for words in [
        &["FRA A9", "no unit A9"][..],
        &["move to 10 Denmark", "does not border"],
        &["there is no location 999"],
        &["already in 1 Paris"],
        &["armies enter a sea only aboard a fleet"],
        &["phase 200 orders", "phases were played"],
        &["load AUS A1", "not prepared"],
        &["load AUS A7", "no unit AUS A7"],
        &["unload FRA A1", "not aboard"],
        &["sail to 10 Denmark", "does not border"],
        &["to GBR A5", "no unit GBR A5"],
        &["prepare to board XYZ", "no kingdom XYZ"],
        &["fleets do not pillage"],
        &["G1", "never moves"],
        &["load FRA A1", "only fleets load"],
        &["transfer to itself"],
        &["declare war on FRA", "itself"],
        &["50", "no province 50"],
    ] {
        assert!(out.failed_with(words), "{words:?} not in {f:#?}");
    }
    let _: Gold = out.treasury("FRA");
    assert!(out.events.iter().all(|e| !matches!(e.when, When::Final(_))));
}

#[test]
fn the_standard_map_plays_a_quiet_turn_without_events() {
    let map = napoleonic_rules::standard::europe();
    let s = napoleonic_rules::setup::new_game(&map, &napoleonic_rules::setup::NewGame::standard(7))
        .unwrap();
    let out = play(&map, &s, &Orders::new());
    assert!(out.events.is_empty(), "{:#?}", out.events);
    let first = play_first(&map, &s, &Orders::new());
    assert_eq!(out.state.units, first.state.units, "nobody moved");
}
