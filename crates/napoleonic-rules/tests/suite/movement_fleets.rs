//! Fleets in the movement phases (digest 3.2 M2-M8, M9b): preparing to board, loading,
//! sailing and docking, homeless fleets, where sea battles would be, the storage check,
//! unloading and amphibious landings, and ships taken at a conquest (T52, T57).

use crate::moves_support;

use moves_support::*;
use napoleonic_rules::battle::BattleKind;
use napoleonic_rules::event::{MoveStep, What};
use napoleonic_rules::ids::LocId;
use napoleonic_rules::orders::{Admin, HqOrder, Step};

fn load(o: &mut Orders, kingdom: &str, fleet: &str, p: u8, army_kingdom: Option<&str>, army: &str) {
    o.phase(kingdom, fleet, p)
        .load
        .push((army_kingdom.map(k), u(army)));
}

fn unload(o: &mut Orders, kingdom: &str, fleet: &str, p: u8, army: &str, at: u16) {
    o.phase(kingdom, fleet, p)
        .unload
        .push((None, u(army), LocId(at)));
}

fn aboard(out: &Played, owner: &str, army: &str) -> Option<String> {
    out.unit(owner, army)
        .aboard
        .as_ref()
        .map(|(k, f)| format!("{k} {f}"))
}

#[test]
fn t52_a_warship_carries_two_infantry_and_loading_stops_the_army() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 1)]);
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 2)]);
    let mut o = Orders::new();
    load(&mut o, "FRA", "F1", 1, None, "A1");
    let out = play(&map, &s, &o);
    out.no_failures();
    assert_eq!(aboard(&out, "FRA", "A1").as_deref(), Some("FRA F1"));
    assert_eq!(out.at("FRA", "A1"), CHA);
    assert_eq!(out.mp("FRA", "A1"), 0, "a loaded army has no MP left");
    assert_eq!(out.mp("FRA", "F1"), 3, "the fleet may still sail");
    assert_eq!(out.count(|w| matches!(w, What::Overboard { .. })), 0);
    assert!(
        out.events_at(phase(1, MoveStep::Load))
            .contains(&&What::Loaded {
                fleet: (k("FRA"), u("F1")),
                army: (k("FRA"), u("A1")),
                at: LocId(CHA),
            })
    );
}

#[test]
fn g45_half_as_much_again_may_board_and_m7_throws_the_excess_overboard() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 1)]);
    place(&mut s, "FRA", "F2", NSE, &[("WAR", 1)]);
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 3)]); // weight 6 = 1.5 × 4
    place(&mut s, "FRA", "A2", DEN, &[("LIN", 4)]); // weight 8
    let mut o = Orders::new();
    load(&mut o, "FRA", "F1", 1, None, "A1");
    load(&mut o, "FRA", "F2", 1, None, "A2");
    let out = play(&map, &s, &o);
    assert!(out.failed_with(&["load FRA A2", "weighs 8", "4 storage free"]));
    assert_eq!(aboard(&out, "FRA", "A1").as_deref(), Some("FRA F1"));
    assert_eq!(out.unit("FRA", "A1").troops.len(), 2);
    assert_eq!(
        out.events_at(phase(1, MoveStep::StorageChecked)),
        vec![&What::Overboard {
            fleet: (k("FRA"), u("F1")),
            troops: counts(&[("LIN", 1)]),
        }],
        "no other French fleet in the Channel to take it"
    );
}

#[test]
fn g45_the_strict_limit_refuses_more_than_the_free_storage() {
    let (map, mut s) = world();
    s.settings.strict_load_limit = true;
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 1)]);
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 3)]);
    let mut o = Orders::new();
    load(&mut o, "FRA", "F1", 1, None, "A1");
    let out = play(&map, &s, &o);
    assert!(out.failed_with(&["load FRA A1", "weighs 6"]));
    assert_eq!(out.unit("FRA", "A1").aboard, None);
}

#[test]
fn m7_soldiers_thrown_from_a_fleet_that_lost_ships_go_to_a_sister_fleet() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 2)]);
    place(&mut s, "FRA", "F2", CHA, &[("WAR", 1)]);
    place(&mut s, "FRA", "A1", CHA, &[("LIN", 4)]);
    board(&mut s, "FRA", "A1", "FRA", "F1");
    let mut o = Orders::new();
    o.unit("FRA", "F1")
        .transfers
        .push(xfer(None, "F2", &[("WAR", 1)], &[]));
    let out = play(&map, &s, &o);
    out.no_failures();
    assert_eq!(out.unit("FRA", "A1").troops.len(), 2);
    assert_eq!(aboard(&out, "FRA", "A2").as_deref(), Some("FRA F2"));
    assert_eq!(out.unit("FRA", "A2").troops.len(), 2);
    let m7 = out.events_at(phase(1, MoveStep::StorageChecked));
    assert!(matches!(m7[0], What::UnitFormed { unit, .. } if unit.1 == u("A2")));
    assert_eq!(
        m7.iter()
            .filter(|w| matches!(w, What::Transferred { .. }))
            .count(),
        2
    );
    assert_eq!(out.count(|w| matches!(w, What::Overboard { .. })), 0);
}

#[test]
fn m2_m3_a_foreign_fleet_loads_only_an_army_prepared_for_its_kingdom() {
    let (map, mut s) = world();
    place(&mut s, "GBR", "F1", CHA, &[("TRN", 2)]);
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 1)]);
    place(&mut s, "FRA", "A2", PAR, &[("LIN", 1)]);
    place(&mut s, "FRA", "A3", PAR, &[("LIN", 1)]);
    let mut o = Orders::new();
    o.phase("FRA", "A1", 1).prepare_board = Some(k("GBR"));
    load(&mut o, "GBR", "F1", 1, Some("FRA"), "A1");
    load(&mut o, "GBR", "F1", 1, Some("FRA"), "A2");
    o.route("FRA", "A3", &[NOR, PAR]);
    o.phase("FRA", "A3", 3).prepare_board = Some(k("GBR"));
    let out = play(&map, &s, &o);
    assert!(
        out.events_at(phase(1, MoveStep::PrepareToBoard))
            .contains(&&What::BoardingPrepared {
                unit: (k("FRA"), u("A1")),
                for_kingdom: k("GBR"),
            })
    );
    assert_eq!(aboard(&out, "FRA", "A1").as_deref(), Some("GBR F1"));
    assert!(out.failed_with(&["GBR F1", "load FRA A2", "has not prepared to board GBR"]));
    assert!(out.failed_with(&["FRA A3", "prepare to board", "needs 1 move point and has 0"]));
    assert_eq!(out.failures().len(), 2);
}

#[test]
fn a_reef_bars_loading_sailing_and_unloading_on_that_coast() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", NSE, &[("WAR", 1)]);
    place(&mut s, "FRA", "F2", CHA, &[("WAR", 1)]);
    place(&mut s, "FRA", "F3", NSE, &[("WAR", 1)]);
    place(&mut s, "FRA", "A1", HOL, &[("LIN", 1)]);
    place(&mut s, "FRA", "A2", NSE, &[("LIN", 1)]);
    board(&mut s, "FRA", "A2", "FRA", "F3");
    let mut o = Orders::new();
    load(&mut o, "FRA", "F1", 1, None, "A1");
    o.route("FRA", "F1", &[HOL]);
    load(&mut o, "FRA", "F2", 2, None, "A1");
    unload(&mut o, "FRA", "F3", 1, "A2", HOL);
    unload(&mut o, "FRA", "F3", 2, "A2", PAR);
    let out = play(&map, &s, &o);
    assert!(out.failed_with(&["FRA F1", "load FRA A1", "reef"]));
    assert!(out.failed_with(&["FRA F1", "sail to 8 Holland", "reef"]));
    assert!(out.failed_with(&["FRA F3", "unload FRA A2 in 8 Holland", "reef"]));
    assert!(out.failed_with(&["FRA F3", "in 1 Paris", "not on the coast"]));
    assert_eq!(out.failures().len(), 4);
    assert_eq!(
        aboard(&out, "FRA", "A1").as_deref(),
        Some("FRA F2"),
        "no reef on the Channel side"
    );
}

#[test]
fn g7_fleets_sail_one_location_a_phase_and_dock_only_where_allowed() {
    let (map, mut s) = world();
    for f in ["F1", "F2", "F3", "F4", "F6", "F7"] {
        place(&mut s, "FRA", f, CHA, &[("WAR", 1)]);
    }
    place(&mut s, "FRA", "F5", PAR, &[("WAR", 1)]);
    place(&mut s, "FRA", "F8", CHA, &[]);
    place(&mut s, "FRA", "A1", CHA, &[("LIN", 1)]);
    board(&mut s, "FRA", "A1", "FRA", "F7");
    let mut o = Orders::new();
    o.route("FRA", "F1", &[PAR]);
    o.route("FRA", "F2", &[NOR]);
    o.route("FRA", "F3", &[FLA]);
    o.route("FRA", "F4", &[HOL]);
    o.route("FRA", "F5", &[NOR]);
    o.route("FRA", "F6", &[0, 0]);
    o.route("FRA", "F7", &[NSE, DEN]);
    o.route("FRA", "F8", &[NSE]);
    let out = play(&map, &s, &o);
    assert_eq!(out.moved("FRA", "F1"), vec![(CHA, PAR, 1, 1)]);
    assert_eq!(out.mp("FRA", "F1"), 2);
    assert!(out.failed_with(&["FRA F2", "no harbour"]));
    assert_eq!(
        out.count(|w| matches!(w, What::Bounced { unit, .. } if unit.1 == u("F3"))),
        1,
        "neutral Austria gave no permission to dock"
    );
    assert!(out.failed_with(&["FRA F4", "belongs to IND, an enemy"]));
    assert!(out.failed_with(&["FRA F5", "between seas, or between a sea and a coast"]));
    assert_eq!(out.mp("FRA", "F6"), 2, "a free hold, then one for 1");
    assert_eq!(out.at("FRA", "A1"), NSE, "the army aboard sails along");
    assert_eq!(
        out.count(|w| matches!(w, What::Bounced { unit, toward, .. }
            if unit.1 == u("F7") && *toward == LocId(DEN))),
        1,
        "neutral Britain gave no permission to dock"
    );
    assert!(out.failed_with(&["FRA F8", "without ships"]));
}

#[test]
fn passage_rights_let_a_fleet_dock_in_a_foreign_harbour() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 1)]);
    let mut o = Orders::new();
    o.hq("AUS", HqOrder::GrantPassage { to: k("FRA") });
    o.route("FRA", "F1", &[FLA]);
    let out = play(&map, &s, &o);
    out.no_failures();
    assert_eq!(out.at("FRA", "F1"), FLA);
}

#[test]
fn follow_works_for_fleets_too() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 1)]);
    place(&mut s, "FRA", "F2", CHA, &[("TRN", 1)]);
    let mut o = Orders::new();
    o.route("FRA", "F1", &[NSE]);
    o.unit("FRA", "F2").admin.push(Admin::Follow {
        unit: Some(u("F1")),
    });
    let out = play(&map, &s, &o);
    assert_eq!(out.moved("FRA", "F2"), vec![(CHA, NSE, 1, 1)]);
}

#[test]
fn g31_war_leaves_a_docked_fleet_homeless_and_it_flees_at_the_first_m5() {
    let (map, mut s) = world();
    s.kingdoms
        .get_mut(&k("AUS"))
        .unwrap()
        .passage_to
        .insert(k("FRA"));
    place(&mut s, "FRA", "F1", FLA, &[("WAR", 1)]);
    place(&mut s, "FRA", "A1", FLA, &[("LIN", 1)]);
    board(&mut s, "FRA", "A1", "FRA", "F1");
    let mut o = Orders::new();
    o.hq("FRA", HqOrder::DeclareWar { to: k("AUS") });
    o.phase("FRA", "F1", 2).step = Some(Step::Move(LocId(NSE)));
    let out = play(&map, &s, &o);
    assert_eq!(
        out.events_at(phase(1, MoveStep::HomelessDepart)),
        vec![&What::HomelessFled {
            fleet: (k("FRA"), u("F1")),
            from: LocId(FLA),
            to: Some(LocId(CHA)),
        }]
    );
    assert_eq!((out.at("FRA", "F1"), out.mp("FRA", "F1")), (CHA, 0));
    assert_eq!(out.at("FRA", "A1"), CHA);
    assert!(out.failed_with(&["FRA F1", "homeless", "cancelled"]));
}

#[test]
fn g31_t57_a_conquest_makes_fleets_homeless_and_garrison_ships_flee_next_phase() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    s.settings.harbour_loss_percent = 0;
    place(&mut s, "FRA", "F1", PAR, &[("WAR", 1)]);
    place(&mut s, "FRA", "G1", PAR, &[("WAR", 2)]); // ships alone do not defend
    place(&mut s, "AUS", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("AUS", "A1", &[PAR]);
    let out = play(&map, &s, &o);
    assert_eq!(out.owner(PAR), "AUS");
    assert!(out.has("AUS", "G1") && !out.has("FRA", "G1"));
    assert_eq!(
        out.unit("FRA", "F2").troops.len(),
        2,
        "the garrison's ships form a fleet"
    );
    assert!(out.events_at(phase(1, MoveStep::HomelessDepart)).is_empty());
    let fled: Vec<_> = out.events_at(phase(2, MoveStep::HomelessDepart));
    assert_eq!(fled.len(), 2, "they flee in the next phase");
    for f in ["F1", "F2"] {
        assert_eq!((out.at("FRA", f), out.mp("FRA", f)), (CHA, 0));
    }
}

#[test]
fn m5_a_homeless_fleet_with_no_sea_scuttles_and_its_leaders_form_an_army() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", LAK, &[("WAR", 1)]);
    add_leader(&mut s, "FRA", "F1", "Nelson");
    place(&mut s, "FRA", "A1", LAK, &[("LIN", 1)]);
    board(&mut s, "FRA", "A1", "FRA", "F1");
    let mut o = Orders::new();
    o.route("FRA", "F1", &[0, 0]);
    let out = play(&map, &s, &o);
    assert!(!out.has("FRA", "F1"));
    assert!(
        out.events_at(phase(1, MoveStep::HomelessDepart))
            .contains(&&What::FleetLost {
                fleet: (k("FRA"), u("F1")),
                at: LocId(LAK),
                captured: vec![],
                captured_by: None,
                scuttled: counts(&[("WAR", 1)]),
                leaders_to: Some((k("FRA"), u("A2"))),
            })
    );
    assert_eq!(out.unit("FRA", "A2").leaders[0].name, "Nelson");
    assert_eq!(
        (out.at("FRA", "A1"), out.unit("FRA", "A1").aboard.clone()),
        (LAK, None)
    );
    assert!(out.failed_with(&["FRA F1", "no longer exists"]));
}

#[test]
fn t57_ships_that_cannot_flee_a_conquest_are_captured_or_scuttled() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    s.settings.max_phases = 1;
    s.provinces.get_mut(&LocId(LAK)).unwrap().owner = k("AUS");
    let i = s.unit_index(&k("IND"), u("G9")).unwrap();
    s.units.remove(i);
    place(&mut s, "AUS", "G9", LAK, &[("TRN", 20)]);
    place(&mut s, "FRA", "A1", BAD, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[LAK]);
    let out = play(&map, &s, &o);
    assert_eq!(out.owner(LAK), "FRA");
    let lost = out
        .events
        .iter()
        .find_map(|e| match &e.what {
            What::FleetLost {
                captured,
                captured_by,
                scuttled,
                ..
            } => Some((captured.clone(), captured_by.clone(), scuttled.clone())),
            _ => None,
        })
        .expect("the trapped ships are dealt with at the conquest");
    let n = |v: &[napoleonic_rules::orders::TroopCount]| v.iter().map(|c| c.count).sum::<u32>();
    assert_eq!(n(&lost.0) + n(&lost.2), 20);
    assert!(n(&lost.0) > 0, "20 transports at 20 %: some are taken");
    assert_eq!(lost.1, Some((k("FRA"), u("F1"))));
    assert_eq!(out.unit("FRA", "F1").troops.len() as u32, n(&lost.0));
    assert_eq!(out.mp("FRA", "F1"), 0);
    assert!(
        !out.state
            .units
            .iter()
            .any(|x| x.owner == k("AUS") && x.location == LocId(LAK))
    );
}

#[test]
fn m6_fleets_at_war_in_one_sea_fight_and_g16_decides_the_move_points() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    // Three warships against one transport: Britain wins.
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "GBR", "F1", NSE, &[("WAR", 3)]);
    let mut o = Orders::new();
    o.route("GBR", "F1", &[CHA]);
    let out = play(&map, &s, &o);
    assert_eq!(out.battles()[0], (1, CHA, vec!["FRA".into(), "GBR".into()]));
    let (p, b) = out.fought()[0];
    assert_eq!((p, b.kind, b.at), (1, BattleKind::Sea, LocId(CHA)));
    assert_eq!(b.winning_kingdoms(), vec![k("GBR")]);
    assert!(!out.has("FRA", "F1"), "a fleet without ships is gone");
    assert_eq!(out.mp("GBR", "F1"), 2, "G16: no move cost by default");
    s.settings.sea_battle_stops_fleet = true;
    let out = play(&map, &s, &o);
    assert_eq!(
        out.mp("GBR", "F1"),
        0,
        "G16: the FAQ's reading stops the fleet"
    );
}

#[test]
fn fleets_at_war_swapping_seas_fight_on_the_border_and_the_winner_sails_on() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "GBR");
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "GBR", "F1", NSE, &[("WAR", 3)]);
    let mut o = Orders::new();
    o.route("FRA", "F1", &[NSE]);
    o.route("GBR", "F1", &[CHA]);
    let out = play(&map, &s, &o);
    let m6 = out.events_at(phase(1, MoveStep::SeaBattles));
    assert_eq!(
        m6[0],
        &What::BorderBattleJoined {
            between: (LocId(CHA), LocId(NSE)),
            kingdoms: vec![k("FRA"), k("GBR")],
            units: vec![(k("FRA"), u("F1")), (k("GBR"), u("F1"))],
        }
    );
    let (_, b) = out.fought()[0];
    assert_eq!(b.kind, BattleKind::SeaBorder);
    assert_eq!(out.moved("GBR", "F1"), vec![(NSE, CHA, 1, 1)]);
    assert_eq!((out.at("GBR", "F1"), out.mp("GBR", "F1")), (CHA, 2));
    assert!(!out.has("FRA", "F1"));
}

#[test]
fn m8_armies_land_on_own_or_permitted_coasts_and_not_on_neutral_ones() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "FRA", "F2", CHA, &[("TRN", 1)]);
    place(&mut s, "FRA", "A1", CHA, &[("LIN", 1)]);
    place(&mut s, "FRA", "A2", CHA, &[("LIN", 1)]);
    board(&mut s, "FRA", "A1", "FRA", "F1");
    board(&mut s, "FRA", "A2", "FRA", "F2");
    let mut o = Orders::new();
    unload(&mut o, "FRA", "F1", 1, "A1", NOR);
    unload(&mut o, "FRA", "F2", 1, "A2", FLA);
    let out = play(&map, &s, &o);
    assert!(
        out.events_at(phase(1, MoveStep::Unload))
            .contains(&&What::Unloaded {
                fleet: (k("FRA"), u("F1")),
                army: (k("FRA"), u("A1")),
                at: LocId(NOR),
                amphibious: false,
            })
    );
    assert_eq!(
        (
            out.at("FRA", "A1"),
            out.mp("FRA", "A1"),
            out.mp("FRA", "F1")
        ),
        (NOR, 0, 0)
    );
    assert!(out.failed_with(&["FRA F2", "unload FRA A2 in 4 Flanders", "no permission"]));
    assert_eq!(aboard(&out, "FRA", "A2").as_deref(), Some("FRA F2"));
    assert_eq!(out.mp("FRA", "F2"), 3);
}

#[test]
fn t15_g33_an_amphibious_landing_of_combat_100_or_more_always_succeeds() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    s.settings.harbour_loss_percent = 0;
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "FRA", "A1", CHA, &[("LIN", 2)]); // 2 × 2 × 30 = 120
    board(&mut s, "FRA", "A1", "FRA", "F1");
    let mut o = Orders::new();
    unload(&mut o, "FRA", "F1", 1, "A1", FLA);
    let out = play(&map, &s, &o);
    assert!(
        out.events_at(phase(1, MoveStep::Unload))
            .contains(&&What::Unloaded {
                fleet: (k("FRA"), u("F1")),
                army: (k("FRA"), u("A1")),
                at: LocId(FLA),
                amphibious: true,
            })
    );
    assert_eq!(out.owner(FLA), "FRA", "and the empty province falls at M13");
}

#[test]
fn t14_g33_armies_landing_together_roll_once_on_their_summed_combat() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "FRA", "A1", CHA, &[("MIL", 1)]); // 40
    place(&mut s, "FRA", "A2", CHA, &[("MIL", 1)]); // 40
    board(&mut s, "FRA", "A1", "FRA", "F1");
    board(&mut s, "FRA", "A2", "FRA", "F1");
    let mut o = Orders::new();
    unload(&mut o, "FRA", "F1", 1, "A1", HOL);
    unload(&mut o, "FRA", "F1", 1, "A2", HOL);
    for seed in 0..20 {
        let mut s2 = s.clone();
        s2.rng = empires_dice::GameRng::from_game_seed(seed).save();
        let out = play(&map, &s2, &o);
        let failed = out
            .events_at(phase(1, MoveStep::Unload))
            .contains(&&What::LandingFailed {
                fleet: (k("FRA"), u("F1")),
                at: LocId(HOL),
                chance: 80,
            });
        let landed = out.count(|w| {
            matches!(
                w,
                What::Unloaded {
                    amphibious: true,
                    ..
                }
            )
        });
        assert!(
            failed != (landed == 2),
            "seed {seed}: one roll decides for both"
        );
        assert!(landed == 0 || landed == 2);
        let ashore = if failed { None } else { Some(HOL) };
        for a in ["A1", "A2"] {
            assert_eq!(out.unit("FRA", a).aboard.is_none(), ashore.is_some());
        }
    }
}

/// G33 as corrected (Ch5: "all soldiers in all armies being unloaded"): armies landing on
/// one province in one phase roll together whichever fleets carry them. Two fleets of 60
/// each make 120, a sure landing; one fleet alone has 60 in 100.
#[test]
fn g33_armies_from_several_fleets_landing_on_one_province_add_up() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    s.settings.harbour_loss_percent = 0;
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "FRA", "F2", CHA, &[("TRN", 1)]);
    place(&mut s, "FRA", "A1", CHA, &[("LIN", 1)]); // 2 × 30 = 60
    place(&mut s, "FRA", "A2", CHA, &[("LIN", 1)]); // 60
    board(&mut s, "FRA", "A1", "FRA", "F1");
    board(&mut s, "FRA", "A2", "FRA", "F2");
    let mut both = Orders::new();
    unload(&mut both, "FRA", "F1", 1, "A1", FLA);
    unload(&mut both, "FRA", "F2", 1, "A2", FLA);
    let mut alone = Orders::new();
    unload(&mut alone, "FRA", "F1", 1, "A1", FLA);
    let mut failures_alone = 0;
    for seed in 0..12 {
        let mut s2 = s.clone();
        s2.rng = empires_dice::GameRng::from_game_seed(seed).save();
        let out = play(&map, &s2, &both);
        out.no_failures();
        assert!(
            out.count(|w| matches!(w, What::LandingFailed { .. })) == 0,
            "seed {seed}: 120 always lands"
        );
        for a in ["A1", "A2"] {
            assert!(out.unit("FRA", a).aboard.is_none(), "seed {seed}: {a}");
            assert_eq!(out.at("FRA", a), FLA);
        }
        let out = play(&map, &s2, &alone);
        let failed = out
            .events_at(phase(1, MoveStep::Unload))
            .contains(&&What::LandingFailed {
                fleet: (k("FRA"), u("F1")),
                at: LocId(FLA),
                chance: 60,
            });
        failures_alone += usize::from(failed);
    }
    // One fleet alone rolls on its own 60: over twelve seeds some landings fail.
    assert!(failures_alone > 0, "60 in 100 failed in none of 12 seeds");
}

#[test]
fn a_landing_with_no_soldiers_has_no_chance() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", CHA, &[("TRN", 1)]);
    place(&mut s, "FRA", "A1", CHA, &[]);
    add_leader(&mut s, "FRA", "A1", "Ney");
    board(&mut s, "FRA", "A1", "FRA", "F1");
    let mut o = Orders::new();
    unload(&mut o, "FRA", "F1", 1, "A1", HOL);
    let out = play(&map, &s, &o);
    assert_eq!(
        out.events_at(phase(1, MoveStep::Unload)),
        vec![&What::LandingFailed {
            fleet: (k("FRA"), u("F1")),
            at: LocId(HOL),
            chance: 0,
        }]
    );
    assert_eq!(aboard(&out, "FRA", "A1").as_deref(), Some("FRA F1"));
}

#[test]
fn g12_a_fleet_loads_again_after_the_march_and_sails_on() {
    let (map, mut s) = world();
    place(&mut s, "FRA", "F1", PAR, &[("WAR", 1)]);
    place(&mut s, "FRA", "A1", NOR, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("FRA", "A1", &[PAR]);
    o.phase("FRA", "F1", 1).load_after.push((None, u("A1")));
    o.phase("FRA", "F1", 2).step = Some(Step::Move(LocId(CHA)));
    let out = play(&map, &s, &o);
    out.no_failures();
    assert_eq!(out.events_at(phase(1, MoveStep::LoadAgain)).len(), 1);
    assert_eq!((out.at("FRA", "A1"), out.mp("FRA", "A1")), (CHA, 0));
}

#[test]
fn armies_aboard_a_docked_fleet_defend_its_province() {
    let (map, mut s) = world();
    set_war(&mut s, "FRA", "AUS");
    place(&mut s, "FRA", "F1", PAR, &[("WAR", 3)]);
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 6)]);
    board(&mut s, "FRA", "A1", "FRA", "F1");
    place(&mut s, "AUS", "A1", PIC, &[("LIN", 2)]);
    let mut o = Orders::new();
    o.route("AUS", "A1", &[PAR]);
    let out = play(&map, &s, &o);
    assert_eq!(out.battles()[0], (1, PAR, vec!["AUS".into(), "FRA".into()]));
    let (_, b) = out.fought()[0];
    assert!(
        b.unit(&(k("FRA"), u("A1"))).is_some(),
        "the army aboard fights"
    );
    assert!(
        b.unit(&(k("FRA"), u("F1"))).is_none(),
        "fleets never fight on land"
    );
    assert_eq!(out.owner(PAR), "FRA");
}
