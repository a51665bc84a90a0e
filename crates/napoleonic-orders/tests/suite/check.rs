//! Checking orders against the game: every diagnostic of the checker, at the line and
//! column of the order it concerns, and the plans followed phase by phase on their own
//! terms (digest 3.3, worked examples T20-T78).
//!
//! The game (tests/common): France holds Paris (A1: 4 LIN, 2 CUI, 1 ART and a general;
//! G1), Burgundy (A2: 2 LIN), Picardy and Brest (F1: 1 WAR, 2 TRN; G7). It is at war with
//! Prussia, allied with Bavaria and neutral with Britain.
use crate::common;
use common::*;
use napoleonic_orders::{Code, Spans, check, check_sheet, parse};
use napoleonic_rules::ids::{LocId, UnitId};
use napoleonic_rules::orders::{HqOrder, KingdomOrders, PhasePlan, Step, UnitOrders};
use napoleonic_rules::state::Status;

fn with(change: impl FnOnce(&mut napoleonic_rules::GameState), text: &str) -> Vec<String> {
    let (map, mut st) = game();
    change(&mut st);
    diagnose_in(&map, &st, text).iter().map(short).collect()
}

fn hint(text: &str) -> String {
    diagnose(text)[0].hint.clone().unwrap_or_default()
}

// ----- The header -----

#[test]
fn e101_a_sheet_for_another_kingdom() {
    assert_eq!(
        only("GAME x KINGDOM BAV TURN 1"),
        "E101 1:16 this sheet is for BAV, not FRA"
    );
}

#[test]
fn e102_a_sheet_for_another_turn() {
    assert_eq!(
        only("GAME x KINGDOM FRA TURN 2"),
        "E102 1:25 this sheet is for turn 2, but the turn to be played is 1"
    );
}

// ----- Units -----

#[test]
fn e103_a_unit_the_kingdom_does_not_have() {
    assert_eq!(
        only("A3\n 1: MOVE BUR"),
        "E103 1:1 you have no army A3, and none is formed by this sheet"
    );
    assert_eq!(
        hint("A3\n 1: MOVE BUR"),
        "your armies: A1, A2; its orders are not checked further"
    );
    assert_eq!(
        hint("G2\n RECRUIT 1 LIN"),
        "your garrisons: G1 (PAR), G7 (BRE); its orders are not checked further"
    );
    assert_eq!(
        only("A1\n FOLLOW A9"),
        "E103 2:9 you have no army A9 for A1 to follow"
    );
    assert_eq!(
        only("A1\n TRANSFER 2 LIN TO BAV A7"),
        "E103 2:20 BAV has no army A7"
    );
    assert_eq!(only("F1\n 1: LOAD A8"), "E103 2:10 you have no army A8");
    // A unit formed by the sheet exists for the rest of it.
    assert!(diagnose("A1\n FORM ARMY A5\nA5\n 1: MOVE BUR").is_empty());
}

#[test]
fn e104_orders_that_do_not_fit_the_unit() {
    assert_eq!(
        only("G1\n 1: MOVE BUR"),
        "E104 2:5 G1 is a garrison, and garrisons never move (2.3)"
    );
    assert_eq!(
        only("A1\n RECRUIT 2 LIN"),
        "E104 2:10 A1 is an army: only garrisons recruit troops (L4)"
    );
    assert_eq!(
        only("A1\n HIRE LEADER"),
        "E104 2:2 A1 is an army: only garrisons hire leaders (L5)"
    );
    assert_eq!(
        only("F1\n 1: PILLAGE"),
        "E104 2:5 F1 is a fleet: fleets never pillage; armies and garrisons do (M14)"
    );
    assert_eq!(
        only("A1\n 1: LOAD A2"),
        "E104 2:10 A1 is an army: only fleets load armies (M3)"
    );
    assert_eq!(
        only("A1\n 1: UNLOAD A2 AT PIC"),
        "E104 2:12 A1 is an army: only fleets unload armies (M8)"
    );
    assert_eq!(
        only("F1\n 1: PREPARE TO BOARD FOR BRI"),
        "E104 2:5 F1 is a fleet: only armies prepare to board (M2)"
    );
    assert_eq!(
        only("G1\n 1: DEFEND ON"),
        "E104 2:5 G1 is a garrison: a garrison always defends its fortification (2.3); DEFEND is \
         for armies (M10)"
    );
    assert_eq!(
        only("G1\n RETREAT 3"),
        "E104 2:2 G1 is a garrison, and garrisons never retreat (2.3)"
    );
    assert_eq!(
        only("F1\n MARINES ON"),
        "E104 2:2 F1 is a fleet: only armies board enemy ships as marines (2.3)"
    );
    assert_eq!(
        only("A1\n FOLLOW F1"),
        "E104 2:9 A1 is an army and F1 a fleet: a unit can follow only one of its own kind"
    );
    assert_eq!(
        only("A1\n FORM FLEET F2"),
        "E104 2:13 A1 is an army and cannot form a fleet F2: armies form armies, fleets form \
         fleets, and garrisons either (F6, F7)"
    );
    assert_eq!(
        only("F1\n BUILD HARBOUR"),
        "E104 2:2 F1 is a fleet: fleets neither build nor raze; armies and garrisons do (L8, L10)"
    );
    let d = all("A1\n TRANSFER 2 LIN TO F1");
    assert_eq!(
        d[0],
        "E104 2:11 LIN cannot go to fleet F1: soldiers go to an army or a garrison"
    );
}

#[test]
fn e105_a_kingdom_not_in_the_game() {
    assert_eq!(
        only("HQ\n DECLARE WAR ON AUS"),
        "E105 2:17 AUS is not a kingdom in this game"
    );
    assert_eq!(hint("HQ\n DECLARE WAR ON PRO"), "did you mean PRU?");
    assert_eq!(
        only("A1\n 1: PREPARE TO BOARD FOR SPA"),
        "E105 2:26 SPA is not a kingdom in this game"
    );
}

#[test]
fn e106_a_troop_type_not_in_the_roster() {
    assert_eq!(
        only("A1\n DISBAND 1 LNI"),
        "E106 2:12 LNI is not a troop type of this game"
    );
    assert_eq!(hint("A1\n DISBAND 1 LNI"), "did you mean LIN?");
}

#[test]
fn e107_a_sea_for_a_province_or_the_other_way_round() {
    assert_eq!(
        only("A1\n 1: MOVE PIC\n 2: MOVE ENC"),
        "E107 3:10 ENC (English Channel) is a sea: armies march only into provinces"
    );
    assert_eq!(
        hint("A1\n 1: MOVE ENC"),
        "to cross the sea, have a fleet LOAD the army and UNLOAD it (M3, M8)"
    );
    assert_eq!(
        only("HQ\n GRANT PERMISSION IN ENC TO BAV"),
        "E107 2:22 ENC (English Channel) is a sea, and GRANT PERMISSION needs a province"
    );
    assert_eq!(
        only("F1\n 1: MOVE PAR"),
        "E107 2:10 F1 would be in the province BRE (Brest), and a fleet sails from a province \
         only to a sea (M4)"
    );
    assert_eq!(
        only("F1\n 1: MOVE ENC\n 2: UNLOAD A1 AT NTH"),
        "E107 3:18 NTH (North Sea) is a sea: armies are put ashore in a province"
    );
}

#[test]
fn e107_orders_built_by_hand_with_locations_off_the_map() {
    let (map, st) = game();
    let mut a1 = UnitOrders::new(UnitId::army(1));
    a1.plan.push(PhasePlan {
        phase: 1,
        step: Some(Step::Move(LocId(999))),
        ..PhasePlan::default()
    });
    let orders = KingdomOrders {
        hq: vec![HqOrder::Annex {
            province: LocId(998),
        }],
        units: vec![a1],
        proclamation: None,
    };
    let d: Vec<String> = check(&map, &st, &k("FRA"), &orders, &Spans::default())
        .iter()
        .map(short)
        .collect();
    // Without a sheet there are no places: line 0.
    assert_eq!(
        d,
        vec![
            "E107 0:0 there is no location 998 on this map",
            "E107 0:0 there is no location 999 on this map"
        ]
    );
}

#[test]
fn e108_a_movement_to_a_place_not_next_to_where_the_plan_puts_the_unit() {
    assert_eq!(
        only("A1\n 1: MOVE ALS"),
        "E108 2:10 ALS (Alsace) is not next to PAR (Paris), where A1 would be at phase 1"
    );
    assert_eq!(hint("A1\n 1: MOVE ALS"), "PAR's neighbours: BUR, PIC, BRE");
    // The plan is followed: in phase 2 A1 would be in Burgundy.
    assert_eq!(
        only("A1\n 1: MOVE BUR\n 2: MOVE PIC"),
        "E108 3:10 PIC (Picardy) is not next to BUR (Burgundy), where A1 would be at phase 2"
    );
    // Only the first broken step is an error: the plan goes on from where it meant to be.
    assert_eq!(
        all("A1\n 1: MOVE ALS\n 2: MOVE SWA"),
        vec!["E108 2:10 ALS (Alsace) is not next to PAR (Paris), where A1 would be at phase 1"]
    );
    assert_eq!(
        only("F1\n 1: MOVE ENC\n 2: UNLOAD A1 AT HOL"),
        "E108 3:18 F1 cannot put an army ashore in HOL in phase 2: a reef bars the coast \
         between ENC (English Channel) and HOL (Holland) (2.1)"
    );
}

#[test]
fn e109_more_troops_than_the_unit_will_hold() {
    assert_eq!(
        only("A1\n DISBAND 9 LIN"),
        "E109 2:10 A1 will hold 4 LIN at F11, and this disbands 9"
    );
    assert_eq!(
        hint("A1\n DISBAND 9 LIN"),
        "A1 will hold 1 ART, 2 CUI, 4 LIN then"
    );
    // What F9 gave away is gone by F11.
    assert_eq!(
        only("A1\n FORM ARMY A5\n TRANSFER 3 LIN TO A5\n SALVAGE 2 LIN"),
        "E109 4:10 A1 will hold 1 LIN at F11, and this salvages 2"
    );
    assert_eq!(
        only("A1\n RANKS LIN 2 2 1 0 0"),
        "E109 2:8 RANKS places 5 LIN, but A1 will hold 4 at F10"
    );
    assert_eq!(
        only("A1\n RANKS GRE 1 0 0 0 0"),
        "E109 2:8 A1 will hold no GRE at F10 to place in ranks"
    );
    assert_eq!(
        only("A1\n 1: MOVE BUR\n 2: TRANSFER 5 LIN TO A2"),
        "E109 3:14 A1 will hold 4 LIN at the start of phase 2, and this transfers 5"
    );
}

#[test]
fn e110_diplomacy_the_relation_does_not_allow() {
    assert_eq!(
        only("HQ\n DECLARE WAR ON PRU"),
        "E110 2:17 you are at war with PRU already"
    );
    assert_eq!(
        only("HQ\n DECLARE WAR ON IND"),
        "E110 2:17 the independents are at war with every kingdom already (1.1)"
    );
    assert_eq!(
        only("HQ\n OFFER PEACE TO BRI"),
        "E110 2:17 you are not at war with BRI: peace is offered only to an enemy (L15)"
    );
    assert_eq!(
        only("HQ\n OFFER ALLIANCE TO BAV"),
        "E110 2:20 BAV is your ally already"
    );
    assert_eq!(
        only("HQ\n CANCEL ALLIANCE WITH BRI"),
        "E110 2:23 BRI is not your ally: there is no alliance to cancel (L16)"
    );
    assert_eq!(
        only("HQ\n OFFER PEACE TO IND"),
        "E110 2:17 the independents never change their relations (1.1)"
    );
    assert_eq!(
        only("HQ\n SEND 10 GOLD TO IND"),
        "E110 2:18 the independents take no gifts"
    );
    assert_eq!(
        only("HQ\n SEND AMBASSADOR TO IND"),
        "E110 2:21 the independents have no ruler to send an ambassador to"
    );
    assert_eq!(
        only("HQ\n GRANT PASSAGE TO PRU"),
        "E110 2:19 PRU is an enemy: passage rights cannot be granted to a kingdom you are at war \
         with (2.8)"
    );
    assert_eq!(
        only("HQ\n GRANT PERMISSION IN BUR TO PRU"),
        "E110 2:29 PRU is an enemy: special permission cannot be granted to a kingdom you are at \
         war with (2.8)"
    );
}

#[test]
fn t73_war_cannot_be_declared_on_an_ally() {
    assert_eq!(
        only("HQ\n DECLARE WAR ON BAV"),
        "E110 2:17 BAV is your ally: war cannot be declared on an ally (F1)"
    );
    assert_eq!(
        hint("HQ\n DECLARE WAR ON BAV"),
        "cancel the alliance this turn (CANCEL ALLIANCE WITH BAV) and declare war next turn (7.11)"
    );
    // Cancelling the alliance is the way, and does not make a declaration valid this turn.
    assert_eq!(all("HQ\n CANCEL ALLIANCE WITH BAV").len(), 0);
}

#[test]
fn t74_an_alliance_is_not_offered_while_at_war() {
    assert_eq!(
        only("HQ\n OFFER ALLIANCE TO PRU"),
        "E110 2:20 you are at war with PRU: an alliance is offered only to a neutral kingdom (L17)"
    );
    assert_eq!(
        hint("HQ\n OFFER ALLIANCE TO PRU"),
        "make peace first (both OFFER PEACE); the alliance can be offered the turn after (7.11)"
    );
    assert!(diagnose("HQ\n OFFER PEACE TO PRU").is_empty());
}

#[test]
fn t76_a_declaration_of_war_comes_first_and_forbids_grants_to_the_enemy() {
    // F1 before F3: the sheet's own declaration counts for the orders after it.
    assert_eq!(
        all("HQ\n GRANT PASSAGE TO BRI\n DECLARE WAR ON BRI"),
        vec![
            "E110 2:19 BRI is an enemy: passage rights cannot be granted to a kingdom you are at \
             war with (2.8)"
        ]
    );
    assert_eq!(
        only("HQ\n DECLARE WAR ON BRI\n OFFER ALLIANCE TO BRI"),
        "E110 3:20 this sheet declares war on BRI: an alliance is offered only to a neutral \
         kingdom (L17)"
    );
    // Declaring war cancels passage rights already granted (F1).
    let d = with(
        |st| {
            st.kingdoms
                .get_mut(&k("FRA"))
                .unwrap()
                .passage_to
                .insert(k("BRI"));
        },
        "HQ\n DECLARE WAR ON BRI\n REVOKE PASSAGE FROM BRI",
    );
    assert_eq!(
        d,
        vec!["W103 3:22 declaring war on BRI cancels its passage rights already (F1)"]
    );
}

#[test]
fn e111_a_province_the_kingdom_does_not_own() {
    assert_eq!(
        only("HQ\n GRANT PERMISSION IN ALS TO BAV"),
        "E111 2:22 you do not own ALS (Alsace) (it belongs to the independents): GRANT PERMISSION \
         needs a province you own (F4)"
    );
    assert_eq!(
        only("HQ\n GIVE BAD TO BRI"),
        "E111 2:7 you do not own BAD (Baden) (it belongs to BAV): GIVE needs a province you own \
         (L12)"
    );
}

#[test]
fn t64_a_province_taken_this_turn_cannot_be_annexed_this_turn() {
    // Taken by the plan: not owned now.
    assert_eq!(
        all("HQ\n ANNEX SWA\nA2\n 1: MOVE SWA"),
        vec![
            "E111 2:8 you do not own SWA (Swabia) (it belongs to the independents): ANNEX needs a \
             province you own (L6)"
        ]
    );
    // Taken in the turn before the state was saved, but after the season began.
    let d = with(
        |st| {
            let p = st.provinces.get_mut(&LocId(5)).unwrap();
            p.owner = k("FRA");
            p.changed = true;
        },
        "HQ\n ANNEX SWA",
    );
    assert_eq!(
        d,
        vec![
            "E111 2:8 SWA changed hands this turn: a province is annexed only when you owned it \
             at the start of the season too (L6)"
        ]
    );
}

#[test]
fn e112_recruits_the_city_cannot_make() {
    assert_eq!(
        only("G1\n RECRUIT 2 MAR"),
        "E112 2:12 Paris does not build MAR (L4)"
    );
    assert_eq!(
        diagnose("G1\n RECRUIT 2 MAR")[0].expected.as_deref(),
        Some("one of LIN, CUI, GRE, ART")
    );
    assert_eq!(
        only("G1\n RECRUIT 3 LIN, 2 CUI"),
        "E112 2:17 Paris builds at most 4 troops a turn, and this sheet asks for 5 there (L4)"
    );
    // Ships need a harbour: Brest has one, and builds warships.
    assert!(diagnose("G7\n RECRUIT 1 WAR").is_empty());
    let d = with(
        |st| st.provinces.get_mut(&LocId(7)).unwrap().harbour = false,
        "G7\n RECRUIT 1 WAR",
    );
    assert_eq!(
        d,
        vec!["E112 2:12 WAR are ships, and BRE has no harbour to build them in (L4)"]
    );
    // A garrison without a city (formed in a fortified province, say).
    let mut map = map();
    let loc = map.locations.iter_mut().find(|l| l.code == "PAR").unwrap();
    loc.city = None;
    let st = game().1;
    let d: Vec<String> = diagnose_in(&map, &st, "G1\n RECRUIT 1 LIN")
        .iter()
        .map(short)
        .collect();
    assert_eq!(
        d,
        vec!["E112 2:10 PAR (Paris) has no city, and troops are recruited only in a city (L4)"]
    );
}

#[test]
fn t19_recruits_count_against_the_city_limit_over_the_whole_sheet() {
    assert!(diagnose("G1\n RECRUIT 2 LIN\n RECRUIT 2 CUI").is_empty());
    assert_eq!(
        only("G1\n RECRUIT 2 LIN\n RECRUIT 2 CUI\n RECRUIT 1 GRE"),
        "E112 4:10 Paris builds at most 4 troops a turn, and this sheet asks for 5 there (L4)"
    );
}

#[test]
fn e113_a_new_unit_needs_a_free_number() {
    assert_eq!(
        only("A1\n FORM ARMY A2"),
        "E113 2:12 A2 exists already: a new army needs a free number"
    );
    assert_eq!(hint("A1\n FORM ARMY A2"), "the lowest free number is A3");
    assert_eq!(
        only("A1\n FORM ARMY A5\nG1\n FORM ARMY A5"),
        "E113 4:12 A5 is formed twice by this sheet: a new army needs a free number"
    );
}

#[test]
fn e114_a_leader_the_unit_does_not_have() {
    assert_eq!(
        only("A1\n LEADER Ney"),
        "E114 2:9 A1 has no leader called \"Ney\""
    );
    assert_eq!(hint("A1\n LEADER Ney"), "A1's leaders: General 1 of France");
    assert!(diagnose("A1\n LEADER \"general 1 of france\"").is_empty());
    assert_eq!(
        only("A1\n FORM ARMY A5\n TRANSFER LEADER Ney TO A5"),
        "E114 3:11 A1 has no leader called \"Ney\" at F9"
    );
}

#[test]
fn e115_a_transfer_before_movement_needs_both_units_in_one_place() {
    assert_eq!(
        only("A1\n TRANSFER 2 LIN TO A2"),
        "E115 2:20 A1 is in PAR (Paris) and A2 in BUR (Burgundy): a transfer before movement \
         needs both in the same place (F9)"
    );
    assert_eq!(
        hint("A1\n TRANSFER 2 LIN TO A2"),
        "to transfer once they meet, write it in that phase, as 2: TRANSFER … TO A2"
    );
    // A garrison and an army in its province are together.
    assert!(diagnose("A1\n TRANSFER 2 LIN TO G1").is_empty());
}

#[test]
fn e116_what_the_kingdom_s_status_forbids() {
    assert_eq!(
        only("G1\n HIRE LEADER"),
        "E116 2:2 no leader will join a Commoner's cause: only Royalty hire leaders (2.10, L5)"
    );
    let d = with(
        |st| st.kingdoms.get_mut(&k("FRA")).unwrap().status = Status::Royalty,
        "G1\n HIRE LEADER",
    );
    assert!(d.is_empty(), "{d:?}");
}

#[test]
fn t67_a_commoner_annexes_at_most_four_provinces_beyond_the_starting_ones() {
    let setup = |st: &mut napoleonic_rules::GameState| {
        for id in [4u16, 5, 9, 10, 6] {
            let p = st.provinces.get_mut(&LocId(id)).unwrap();
            p.owner = k("FRA");
            p.owner_at_start = k("FRA");
        }
        // Two annexed already; the starting provinces never count.
        for id in [9u16, 10] {
            st.provinces.get_mut(&LocId(id)).unwrap().annexed_to = k("FRA");
        }
        st.kingdoms.get_mut(&k("FRA")).unwrap().treasury = napoleonic_rules::Fixed::whole(500);
    };
    assert!(with(setup, "HQ\n ANNEX ALS\n ANNEX SWA").is_empty());
    assert_eq!(
        with(setup, "HQ\n ANNEX ALS\n ANNEX SWA\n ANNEX BAD"),
        vec![
            "E116 4:8 you would have 5 annexed provinces beyond your starting ones, and a \
             Commoner may have 4 (2.10)"
        ]
    );
}

#[test]
fn e117_structures_that_cannot_be_built_or_razed_there() {
    assert_eq!(
        only("G1\n BUILD HARBOUR"),
        "E117 2:2 PAR has no coast free of reefs, and a harbour needs one (2.6)"
    );
    assert_eq!(
        only("G7\n BUILD HARBOUR"),
        "E117 2:2 BRE has a harbour already"
    );
    assert_eq!(
        only("A1\n RAZE HARBOUR"),
        "E117 2:2 PAR has no harbour to raze"
    );
    assert_eq!(
        only("A2\n RAZE FORTIFICATION"),
        "E117 2:2 BUR has no fortification to raze"
    );
    let d = with(
        |st| st.provinces.get_mut(&LocId(1)).unwrap().fort_level = 8,
        "G1\n BUILD FORTIFICATION",
    );
    assert_eq!(
        d,
        vec!["E117 2:2 the fortification of PAR is at level 8, the highest there is"]
    );
}

#[test]
fn e118_orders_aimed_at_oneself() {
    assert_eq!(
        only("HQ\n DECLARE WAR ON FRA"),
        "E118 2:17 DECLARE WAR names your own kingdom"
    );
    assert_eq!(
        only("A1\n TRANSFER 2 LIN TO A1"),
        "E118 2:20 A1 cannot transfer troops to itself"
    );
    assert_eq!(only("A1\n FOLLOW A1"), "E118 2:9 A1 cannot follow itself");
    assert_eq!(
        only("A1\n 1: PREPARE TO BOARD FOR FRA"),
        "E118 2:26 your own fleets load your armies without it: PREPARE TO BOARD is for a \
         foreign fleet (M2)"
    );
}

// ----- Warnings: the plan on its own terms -----

#[test]
fn w101_steps_that_fail_on_the_plan_s_own_terms() {
    assert_eq!(
        only("A2\n 1: MOVE ALS\n 2: MOVE BAD"),
        "W101 3:10 mountains bar the way from ALS to BAD (2.1): the move will fail"
    );
    assert_eq!(
        only("F1\n 1: MOVE ENC\n 2: MOVE HOL"),
        "W101 3:10 a reef bars the coast from ENC to HOL (2.1): the move will fail"
    );
    assert_eq!(
        only("F1\n 1: MOVE ENC\n 2: MOVE PIC"),
        "W101 3:10 PIC (Picardy) has no harbour for F1 to dock in (M4): the sail will fail"
    );
    assert_eq!(
        only("F1\n 1: MOVE ENC\n 2: MOVE KEN"),
        "W101 3:10 you have no permission to dock in KEN (Kent) (G7): the sail will fail"
    );
    assert_eq!(
        only("A1\n 1: HOLD\n 2: HOLD\n 3: HOLD\n 4: HOLD"),
        "W101 5:5 hold number 4 costs 1 move point (3.3), and A1 will have none left: it will fail"
    );
    assert_eq!(
        only("F1\n 1: LOAD A1"),
        "W101 2:10 by the plan, A1 will be in PAR (Paris) in phase 1, out of F1's reach: the \
         fleet is in the province BRE (Brest), and reaches only that province; the load will \
         fail (M3)"
    );
    assert_eq!(
        only("A2\n 1: MOVE SWA\n 2: PILLAGE"),
        "W101 3:5 A2 will have 0 move points left, and pillaging needs 1 (G8): it will fail"
    );
}

#[test]
fn t20_troops_left_behind_at_f9_leave_the_cavalry_its_three_move_points() {
    // A1 is cavalry (3 MP) and infantry (2 MP): 2 MP. Without the infantry, 3: its own
    // province for 1, then enemy land for 2, and no more.
    let text = "A1\n FORM ARMY A5\n TRANSFER 4 LIN, 1 ART TO A5\n 1: MOVE BUR\n 2: MOVE SWA\n 3: MOVE BRA\n";
    assert_eq!(
        all(text),
        vec![
            "W101 6:10 A1 will have 0 move points left, and entering BRA costs 2 (BRA is enemy \
             land) (3.3): the move will fail"
        ]
    );
    // With the infantry, the second step already fails.
    assert_eq!(
        all("A1\n 1: MOVE BUR\n 2: MOVE SWA"),
        vec![
            "W101 3:10 A1 will have 1 move point left, and entering SWA costs 2 (SWA is enemy \
             land) (3.3): the move will fail"
        ]
    );
}

#[test]
fn t21_transferred_troops_bring_their_spent_move_points() {
    // A1 marches twice through its own land (2 MP spent), then hands its infantry to A5
    // (formed in Paris, which never moved): the cavalry keep 1 MP, the infantry none.
    let text = "A1\n FORM ARMY A5\n 1: MOVE BUR\n 2: MOVE PAR\n 3: TRANSFER 4 LIN, 1 ART TO A5\n \
                4: MOVE PIC\nA5\n 4: MOVE BUR\n";
    assert_eq!(
        all(text),
        vec![
            "W101 8:10 A5 will have 0 move points left, and entering BUR costs 1 (3.3): the move \
             will fail"
        ]
    );
}

#[test]
fn t24_hold_hold_march_costs_three_and_a_two_point_army_fails() {
    assert_eq!(
        only("A2\n 1: HOLD\n 2: HOLD\n 3: MOVE SWA"),
        "W101 4:10 A2 will have 1 move point left, and entering SWA costs 2 (SWA is enemy land) \
         (3.3): the move will fail"
    );
}

#[test]
fn t29_infantry_cannot_enter_enemy_land_after_a_friendly_move() {
    assert_eq!(
        only("A1\n 1: MOVE BUR\n 2: MOVE ALS"),
        "W101 3:10 A1 will have 1 move point left, and entering ALS costs 2 (ALS is enemy land) \
         (3.3): the move will fail"
    );
}

#[test]
fn t30_an_army_bounces_off_land_it_has_no_permission_for_and_alliance_is_not_enough() {
    assert_eq!(
        only("A2\n 1: MOVE SWA\n 2: MOVE BAD"),
        "W101 3:10 you have no permission to enter BAD (Baden), held by BAV, which is not at war \
         with you: A2 will bounce (2.9, M9)"
    );
    assert_eq!(
        hint("A2\n 1: MOVE SWA\n 2: MOVE BAD"),
        "BAV can grant you passage rights or special permission, or you can declare war"
    );
    // G6: with passage rights it may enter, at 1 MP... but A2 spent both on Swabia.
    let d = with(
        |st| {
            st.kingdoms
                .get_mut(&k("BAV"))
                .unwrap()
                .passage_to
                .insert(k("FRA"));
        },
        "A2\n 1: MOVE SWA\n 2: MOVE BAD",
    );
    assert_eq!(
        d,
        vec![
            "W101 3:10 A2 will have 0 move points left, and entering BAD costs 1 (3.3): the move \
             will fail"
        ]
    );
}

#[test]
fn g30_after_a_failed_step_the_plan_goes_on_from_where_the_unit_really_is() {
    assert_eq!(
        all("A1\n 1: MOVE BUR\n 2: MOVE ALS\n 3: MOVE SWA"),
        vec![
            "W101 3:10 A1 will have 1 move point left, and entering ALS costs 2 (ALS is enemy \
             land) (3.3): the move will fail",
            // Swabia is next to Burgundy, where A1 really is: the step is judged from there.
            "W101 4:10 A1 will have 1 move point left, and entering SWA costs 2 (SWA is enemy \
             land) (3.3): the move will fail",
        ]
    );
    assert_eq!(
        all("A1\n 1: MOVE BUR\n 2: MOVE ALS\n 3: MOVE BAD")[1],
        "W101 4:10 after the step that fails on line 3, A1 will still be in BUR (Burgundy), which \
         BAD is not next to (G30)"
    );
}

#[test]
fn t31_a_province_taken_in_phase_1_costs_everyone_two_afterwards() {
    // A2 takes empty Swabia in phase 1 (2 MP); A1 follows in phase 2 with 1 MP left.
    assert_eq!(
        all("A2\n 1: MOVE SWA\nA1\n 1: MOVE BUR\n 2: MOVE SWA"),
        vec![
            "W101 5:10 A1 will have 1 move point left, and entering SWA costs 2 (SWA changes \
             hands this turn) (3.3): the move will fail"
        ]
    );
}

#[test]
fn t27_a_battle_in_enemy_land_leaves_no_move_points() {
    // Alsace has an independent garrison: the battle stops the cavalry.
    let text = "A1\n FORM ARMY A5\n TRANSFER 4 LIN, 1 ART TO A5\n 1: MOVE BUR\n 2: MOVE ALS\n 3: MOVE SWA\n";
    assert_eq!(
        all(text),
        vec![
            "W101 6:10 A1 will have 0 move points left, and entering SWA costs 2 (SWA is enemy \
             land) (3.3): the move will fail"
        ]
    );
}

#[test]
fn t52_a_warship_carries_two_infantry_and_half_again_more_is_refused() {
    // F2 is one warship (storage 4). G45: a load up to 6 goes aboard, 8 does not.
    let base = "F1\n FORM FLEET F2\n TRANSFER 1 WAR TO F2\nF2\n 1: LOAD A1\n";
    assert!(
        !diagnose(&format!(
            "{base}A1\n FORM ARMY A5\n TRANSFER 1 LIN, 2 CUI, 1 ART TO A5\n DISBAND 1 LIN\n"
        ))
        .is_empty()
    );
    let three = "A1\n FORM ARMY A5\n TRANSFER 1 LIN, 2 CUI, 1 ART TO A5\n";
    let d = with(
        |st| {
            // The army stands in Brest with the fleet.
            st.unit_mut(&k("FRA"), UnitId::army(1)).unwrap().location = LocId(7);
        },
        &format!("{base}{three}"),
    );
    // Three infantry (6) fit half again a warship's 4, and M7 then drowns the excess: the
    // sheet is warned.
    assert_eq!(
        d,
        vec![
            "W101 5:10 A1 weighs 6 and F2 has 4 storage free: it boards, but troops weighing \
             about 2 will be thrown overboard and lost (M7, G45)"
        ]
    );
    let d = with(
        |st| st.unit_mut(&k("FRA"), UnitId::army(1)).unwrap().location = LocId(7),
        &format!("{base}A1\n FORM ARMY A5\n TRANSFER 2 CUI, 1 ART TO A5\n"),
    );
    assert_eq!(
        d,
        vec!["W101 5:10 A1 weighs 8 and F2 has 4 storage free: the load will be refused (M3, G45)"]
    );
}

#[test]
fn a_fleet_carries_its_army_and_puts_it_ashore_by_the_plan() {
    // Load in Brest before sailing, sail to the Channel, land in Picardy.
    let text =
        "A2\n 1: MOVE PAR\n 2: MOVE BRE\nF1\n 3: LOAD A2\n 3: MOVE ENC\n 4: UNLOAD A2 AT PIC\n";
    assert!(diagnose(text).is_empty(), "{:?}", all(text));
    // Once ashore the army has no move points (M8).
    let d = all(&format!("{text}A2\n 5: MOVE PAR\n"));
    assert_eq!(
        d,
        vec![
            "W001 8:1 A2 already has a section, on line 1: the orders below are added to it",
            "W101 9:10 A2 will have 0 move points left, and entering PAR costs 1 (3.3): the move \
             will fail"
        ]
    );
    // An army aboard cannot march.
    let d = all("F1\n 1: LOAD A2\nA2\n 1: MOVE PAR\n 2: MOVE BRE\n");
    assert!(
        d.iter()
            .any(|x| x.starts_with("W101 2:10 by the plan, A2 will be in BUR")),
        "{d:?}"
    );
    // LOAD AFTER (M9b, G12) sees where the army marched that phase.
    let text =
        "A2\n 1: MOVE PAR\n 2: MOVE PIC\nF1\n 1: MOVE ENC\n 2: LOAD AFTER A2\n 3: MOVE NTH\n";
    assert!(diagnose(text).is_empty(), "{:?}", all(text));
    // Kent is neutral British land: landing there without permission fails.
    assert_eq!(
        all(&format!("{text} 4: UNLOAD A2 AT KEN\n")),
        vec![
            "W101 8:18 KEN (Kent) belongs to BRI, which is not at war with you, and you have no \
             permission there: the unload will fail (M8, 2.9)"
        ]
    );
    // An unload after a load that fails says why.
    let d = diagnose("A1\n 1: MOVE PIC\nF1\n 1: MOVE ENC\n 2: LOAD A1\n 3: UNLOAD A1 AT PIC\n");
    assert_eq!(
        d[1].hint.as_deref(),
        Some("the load on line 5 fails, so A1 is never aboard")
    );
}

#[test]
fn w102_not_enough_gold_on_the_plan_s_terms() {
    assert_eq!(
        only("HQ\n SEND 200 GOLD TO BRI"),
        "W102 2:2 SEND 200 GOLD costs 220 with the 10% fee (L2), and the treasury will hold 100 \
         then: it will fail"
    );
    // Upkeep is paid before recruits (L3, L4): 100 less 15.8 leaves 84.2, and 8
    // grenadiers would cost 96; the city builds 4 at most, so buy fewer but dearer.
    let d = with(
        |st| st.kingdoms.get_mut(&k("FRA")).unwrap().treasury = napoleonic_rules::Fixed::whole(50),
        "G1\n RECRUIT 4 GRE",
    );
    assert_eq!(
        d,
        vec![
            "W102 2:10 4 GRE cost 48, and the treasury will hold 34.2 then: only 2 will be built (L4)"
        ]
    );
}

#[test]
fn w103_orders_that_change_nothing() {
    assert_eq!(
        only("HQ\n ACCEPT GIFTS FROM BAV"),
        "W103 2:20 you accept gifts from BAV already: this changes nothing"
    );
    assert_eq!(
        only("HQ\n REVOKE PASSAGE FROM BAV"),
        "W103 2:22 BAV has no passage rights from you to revoke"
    );
    assert_eq!(
        only("HQ\n ANNEX BUR"),
        "W103 2:8 BUR is annexed to you already"
    );
    assert_eq!(
        only("G1\n 1: HOLD"),
        "W103 2:5 G1 is a garrison: it never moves, so HOLD changes nothing"
    );
    assert_eq!(
        only("A1\n REPAIR"),
        "W103 2:2 the fortification of PAR has no damage to repair"
    );
    // The sheet's own orders count in the order written (F3).
    assert_eq!(
        all("HQ\n GRANT PASSAGE TO BAV\n GRANT PASSAGE TO BAV"),
        vec![
            "W104 3:2 this repeats the order on line 2",
            "W103 3:19 BAV has passage rights from you already"
        ]
    );
}

#[test]
fn w104_orders_that_repeat_or_undo_an_earlier_one() {
    assert_eq!(
        only("HQ\n SEND AMBASSADOR TO BRI\n SEND AMBASSADOR TO BRI"),
        "W104 3:2 this repeats the order on line 2"
    );
    assert_eq!(
        only("HQ\n GRANT PASSAGE TO BAV\n REVOKE PASSAGE FROM BAV"),
        "W104 3:2 this contradicts the order on line 2: both are carried out, the later last"
    );
}

#[test]
fn w105_a_kingdom_that_refuses_gifts() {
    let d = with(
        |st| {
            st.kingdoms
                .get_mut(&k("BAV"))
                .unwrap()
                .refuses
                .insert(k("FRA"));
        },
        "HQ\n GIVE PIC TO BAV",
    );
    assert_eq!(
        d,
        vec![
            "W105 2:14 BAV refuses gifts from you: unless it accepts them again this turn (F2), \
             the province stays yours"
        ]
    );
}

#[test]
fn w106_t33_units_that_never_meet_make_no_transfer() {
    assert_eq!(
        only("A1\n 1: TRANSFER 2 LIN TO A2"),
        "W106 2:23 by the plan, A1 will be in PAR (Paris) and A2 in BUR (Burgundy) at the start \
         of phase 1: the transfer will not happen (M1)"
    );
    // They meet in Burgundy in phase 2.
    assert!(diagnose("A1\n 1: MOVE BUR\n 2: TRANSFER 2 LIN TO A2").is_empty());
}

#[test]
fn w107_t58_a_unit_too_weak_to_pillage_or_to_build() {
    // One artillery piece: total combat 8, under the 10 pillage needs.
    assert_eq!(
        all("A1\n FORM ARMY A5\n TRANSFER 1 ART TO A5\nA5\n 1: PILLAGE"),
        vec![
            "W107 5:5 A5's total combat will be 8, and pillaging needs 10 (M14, G9): it will fail"
        ]
    );
    assert!(diagnose("A2\n 1: PILLAGE").is_empty());
    assert_eq!(
        only("A2\n BUILD FORTIFICATION"),
        "W107 2:2 level 1 (Palisade) needs 3 soldiers as workers, and A2 will have 2 (L8)"
    );
}

#[test]
fn w108_a_phase_never_played() {
    assert_eq!(
        only("A1\n 31: HOLD"),
        "W108 2:2 phase 31 is never played: a turn has at most 30 phases (G37)"
    );
}

#[test]
fn w109_no_route_for_sent_gold() {
    // Swabia is independent, so no caravan reaches Baden; the Channel joins Brest and Kent.
    assert_eq!(
        only("HQ\n SEND 10 GOLD TO BAV"),
        "W109 2:18 no route of at most 7 locations leads from your garrisons to one of BAV's \
         through your lands, lands you may pass and seas without enemy fleets (L2): the gold \
         would not be sent"
    );
    assert!(diagnose("HQ\n SEND 10 GOLD TO BRI").is_empty());
}

#[test]
fn w110_ranks_that_place_only_some_troops() {
    assert_eq!(
        only("A1\n RANKS LIN 2 1 0 0 0"),
        "W110 2:8 RANKS places 3 of the 4 LIN A1 will hold at F10: the other 1 keep their ranks"
    );
}

#[test]
fn w111_t61_salvage_that_gives_no_gold() {
    assert_eq!(
        only("A1\n SALVAGE 1 LIN"),
        "W111 2:10 salvaged LIN give no gold: only ships and artillery do (F11); they are simply \
         disbanded"
    );
    assert!(diagnose("F1\n SALVAGE 1 TRN").is_empty());
    let d = with(
        |st| st.unit_mut(&k("FRA"), UnitId::fleet(1)).unwrap().location = LocId(50),
        "F1\n SALVAGE 1 TRN",
    );
    assert_eq!(
        d,
        vec!["W111 2:10 F1 is at sea: ships salvaged there give no gold, only in a province (F11)"]
    );
}

#[test]
fn w112_t78_giving_everything_away() {
    assert_eq!(
        only("HQ\n GIVE PAR TO BAV\n GIVE BUR TO BAV\n GIVE PIC TO BAV\n GIVE BRE TO BAV"),
        "W112 2:2 these orders give away every province you own: if they leave the kingdom with \
         no troops either, they are not carried out and the GM replaces its ruler (the palace \
         coup)"
    );
}

#[test]
fn a_sound_sheet_has_nothing_to_report() {
    let text = "GAME x KINGDOM FRA TURN 1\nHQ\n OFFER PEACE TO PRU\n GRANT PASSAGE TO BAV\n \
                SEND 10 GOLD TO BRI\nPROCLAMATION\nVive la France!\nEND\n\
                A1 \"Grande Armée\"\n RETREAT 3\n RANKS LIN 2 2 0 0 0\n 1: MOVE BUR\n 2: HOLD\n\
                A2\n 1: HOLD; PILLAGE\nF1\n 1: MOVE ENC\n 2: MOVE BRE\nG1\n RECRUIT 2 LIN\n";
    let (map, st) = game();
    let sheet = parse(&map, text);
    let d = check_sheet(&map, &st, &k("FRA"), &sheet);
    assert!(d.is_empty(), "{d:#?}");
    assert!(d.iter().all(|x| x.code != Code::TooMany));
}

#[test]
fn an_unknown_kingdom_is_one_diagnostic() {
    let (map, st) = game();
    let sheet = parse(&map, "HQ\n OFFER PEACE TO PRU\n");
    let d = check(&map, &st, &k("XX"), &sheet.orders, &sheet.spans);
    assert_eq!(d.len(), 1);
    assert_eq!(
        short(&d[0]),
        "E105 1:1 XX is not a kingdom still in this game"
    );
}
