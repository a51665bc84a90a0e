//! Every error code and every warning, with its exact message and position.
use crate::common;
use common::*;
use empires_orders::{Code, Severity, render};

#[test]
fn e001_unknown_action_with_suggestion() {
    let d = diagnose("ATACK DDD EEE 3");
    assert_eq!(d[0].code, Code::UnknownAction);
    assert_eq!(d[0].message, "`ATACK` is not an action");
    assert_eq!((d[0].line, d[0].column, d[0].length), (1, 1, 5));
    assert_eq!(d[0].suggestions, vec!["ATTACK"]);
}

#[test]
fn e002_too_many_boxes() {
    assert_eq!(
        only("MOVE DDD AAA BBB 3"),
        "E002 1:14 `BBB` is one box too many"
    );
}

#[test]
fn e003_not_a_code() {
    assert_eq!(
        only("GROW D?D"),
        "E003 1:6 `D?D` is not an area or empire code"
    );
}

#[test]
fn e004_bad_number() {
    assert_eq!(only("MOVE DDD AAA 3x"), "E004 1:14 `3x` is not a number");
    assert_eq!(
        only("MOVE DDD AAA AB-x2"),
        "E004 1:14 `AB-x2` is not a number"
    );
}

#[test]
fn e010_unknown_area_suggests_neighbours_first() {
    let d = diagnose("MOVE DDD AAB 2");
    assert_eq!(d[0].code, Code::UnknownArea);
    assert_eq!(d[0].message, "`AAB` is not an area on this map");
    assert_eq!(d[0].column, 10);
    // AAA is next to DDD, so it comes first.
    assert_eq!(d[0].suggestions[0], "AAA (AAA, next to DDD)");
}

#[test]
fn e011_unknown_empire() {
    let d = diagnose("GIFT - AB 3");
    assert_eq!(d[0].code, Code::UnknownEmpire);
    assert_eq!(d[0].message, "`AB` is not an empire in this game");
    assert_eq!(d[0].suggestions, vec!["AA (Alpha)", "BB (Beta)"]);
}

#[test]
fn e012_missing_box() {
    assert_eq!(
        only("MOVE DDD"),
        "E012 1:1 MOVE needs its WHERE-TO box filled in"
    );
    assert_eq!(
        only("FIND"),
        "E012 1:1 FIND needs an area or an empire (9.3)"
    );
}

#[test]
fn e014_number_formats() {
    assert_eq!(
        only("FORTIFY DDD"),
        "E014 1:1 FORTIFY needs a number; blank (all) is not allowed for it"
    );
    assert_eq!(
        only("GIFT - BB AB-2"),
        "E014 1:11 GIFT does not take ALL BUT"
    );
    assert_eq!(only("ARMY AB-1"), "E014 1:6 ARMY does not take ALL BUT");
}

#[test]
fn e015_not_in_this_variant() {
    // The test game is World Empires: no supply actions.
    assert_eq!(
        only("GATHER AAA - 2"),
        "E015 1:1 GATHER is a European Empires supply action, not used in World Empires"
    );
}

#[test]
fn e016_wrong_kind_of_area() {
    assert_eq!(
        only("GROW NSE"),
        "E016 1:6 NSE is a sea area, but GROW needs a land area here"
    );
    assert_eq!(
        only("BASE AAA DDD"),
        "E016 1:10 DDD is a land area, but BASE needs a sea area here"
    );
}

#[test]
fn e017_not_adjacent() {
    assert_eq!(only("MOVE BBB DDD 1"), "E017 1:10 DDD is not next to BBB");
    let d = diagnose("SPY AAA HHH");
    assert_eq!(d[0].code, Code::NotAdjacent);
    assert_eq!(d[0].suggestions, vec!["SKIP - HHH"]);
}

#[test]
fn e018_e019_header_for_another_turn_or_empire() {
    assert_eq!(
        only("TURN 2\nTAX"),
        "E018 1:6 this turnsheet is for turn 2, but the next turn is 3"
    );
    assert_eq!(
        only("EMPIRE BB\nTAX"),
        "E019 1:8 this turnsheet is for BB, not AA"
    );
    assert!(diagnose("TURN 3\nEMPIRE aa\nTAX").is_empty());
}

#[test]
fn w101_unused_boxes() {
    assert_eq!(
        only("TAX DDD"),
        "W101 1:5 TAX does not use this box; `DDD` will be ignored"
    );
    assert_eq!(
        only("GROW DDD - 4"),
        "W101 1:12 GROW takes no number; it will be ignored"
    );
}

#[test]
fn w102_move_into_an_area_not_owned() {
    let d = diagnose("MOVE DDD EEE 2");
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, Code::MoveIntoForeignArea);
    assert_eq!(
        d[0].message,
        "you do not own EEE: MOVE will fail there; ATTACK takes an area (7.1)"
    );
    assert_eq!(d[0].suggestions, vec!["ATTACK DDD EEE 2"]);
    // Not after an attack on it earlier in the turn.
    assert!(diagnose("ATTACK DDD EEE 3\nMOVE DDD EEE 2").is_empty());
}

#[test]
fn w103_attack_on_own_area() {
    assert_eq!(
        only("ATTACK AAA DDD 2"),
        "W103 1:12 you own DDD: ATTACK will fail there; MOVE takes armies into your own areas (7.1)"
    );
}

#[test]
fn w104_reserve_after_army() {
    assert_eq!(
        only("ARMY 2\nRESERVE DDD 2"),
        "W104 2:1 RESERVE after ARMY in the same turn will fail (5.5)"
    );
    assert_eq!(
        only("DISBAND BBB\nRESERVE DDD 2"),
        "W104 2:1 RESERVE after DISBAND in the same turn will fail (5.5)"
    );
}

#[test]
fn w105_fleet_after_build_in_the_same_base() {
    assert_eq!(
        only("BUILD AAA 1\nFLEET AAA 1"),
        "W105 2:1 FLEET in AAA after BUILD or RECOVER there this turn will fail (5.14)"
    );
    assert!(diagnose("FLEET AAA 1\nBUILD AAA 1").is_empty());
}

#[test]
fn w106_recover_after_navy() {
    assert_eq!(
        only("NAVY 1\nRECOVER AAA 1"),
        "W106 2:1 RECOVER after NAVY in the same turn will fail (5.13)"
    );
}

#[test]
fn w107_skip_between_adjacent_areas() {
    assert_eq!(
        only("SKIP AAA BBB"),
        "W107 1:1 BBB is next to AAA: SPY goes there by land at no cost (9.2)"
    );
}

#[test]
fn w108_recruiting_without_a_from_area() {
    assert_eq!(
        only("SPY - BBB"),
        "W108 1:1 you have no spy: give an area you own as \"where from\" to recruit one (9.2, 13.3)"
    );
    // Once recruited, later moves need no "from"; after WATCH a new one does.
    assert!(diagnose("SPY AAA BBB\nSPY - CCC").is_empty());
    assert_eq!(
        diagnose("SPY AAA BBB\nWATCH\nSPY - AAA")[0].code,
        Code::RecruitWithoutFrom
    );
}

#[test]
fn w109_more_actions_than_allowed() {
    let text = "TAX\n".repeat(17);
    assert_eq!(
        only(&text),
        "W109 17:1 action 17 is beyond the 16 actions a turn and will be ignored (2.6)"
    );
}

#[test]
fn w110_order_without_number_before_the_last_action() {
    assert_eq!(
        only("ORDER\nTAX"),
        "W110 1:1 ORDER with no number is ignored unless it is your last action (6.2)"
    );
    let mut last = "TAX\n".repeat(15);
    last.push_str("ORDER\n");
    assert!(diagnose(&last).is_empty());
}

#[test]
fn w111_once_a_turn() {
    assert_eq!(
        only("GROW DDD\nGROW DDD"),
        "W111 2:1 DDD can GROW only once a turn; this one will fail (5.9)"
    );
    assert_eq!(
        only("BUILD AAA 1\nBUILD AAA 1"),
        "W111 2:1 the base in AAA can BUILD only once a turn; this one will fail (5.10)"
    );
}

#[test]
fn w112_long_contact_lines() {
    assert_eq!(
        only("TAX\nPHONE 0123 456 789 0123 456 789 012"),
        "W112 2:7 a PHONE line over 28 characters will be cut short in the roundup"
    );
}

#[test]
fn warnings_are_warnings_and_errors_errors() {
    let d = diagnose("TAX DDD\nGROW XYZ");
    assert_eq!(d[0].severity, Severity::Warning);
    assert_eq!(d[1].severity, Severity::Error);
}

#[test]
fn text_and_json_forms() {
    let text = "TAX\nMOVE DDD AAB 2\n";
    let d = diagnose(text);
    let rendered = render("AA.txt", text, &d);
    assert_eq!(
        rendered,
        "AA.txt:2:10: error[E010]: `AAB` is not an area on this map\n \
         2 | MOVE DDD AAB 2\n   |          ^^^ expected a three-character area code\n    \
         = did you mean AAA (AAA, next to DDD), or BBB (BBB)?\n"
    );
    let json = serde_json::to_value(&d).unwrap();
    assert_eq!(json[0]["code"], "E010");
    assert_eq!(json[0]["severity"], "error");
    assert_eq!(json[0]["line"], 2);
    assert_eq!(json[0]["suggestions"][0], "AAA (AAA, next to DDD)");
}

#[test]
fn w113_land_attack_without_supply_trains_in_european_games() {
    use empires_orders::{Context, check, parse_sheet};
    let (map, mut st) = game();
    st.variant = empires_rules::Variant::European;
    let cx = Context {
        map: &map,
        state: &st,
        empire: empires_rules::EmpireCode::parse("AA").unwrap(),
    };
    let d = check(&parse_sheet("ATTACK DDD EEE 2"), &cx);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, Code::AttackWithoutTrains);
    assert_eq!(
        d[0].message,
        "there are no supply trains in DDD: a land attack needs one (S.6)"
    );
    // Not once trains were sent there earlier in the turn.
    assert!(check(&parse_sheet("WAGONS AAA DDD 1\nATTACK DDD EEE 2"), &cx).is_empty());
    // Never outside European Empires.
    assert!(diagnose("ATTACK DDD EEE 2").is_empty());
}
