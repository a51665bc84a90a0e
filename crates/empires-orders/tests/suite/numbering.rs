//! Numbered turnsheets (2.6): the number before an action is a label, read apart from the
//! action on every path; a numbered line left blank is an unused action that keeps its
//! round; the sheet's own furniture, as the reports print it, is skipped.
use crate::common;
use common::*;
use empires_orders::{Code, parse_sheet};

#[test]
fn a_number_before_the_verb_changes_no_diagnostic() {
    for label in ["", "4. ", "4) ", "4: ", "4 "] {
        let d = diagnose(&format!("{label}ATACK DDD EEE 3"));
        assert_eq!(
            d.len(),
            1 + usize::from(!label.is_empty()),
            "{label}: {d:#?}"
        );
        let e = d.iter().find(|d| d.code == Code::UnknownAction).unwrap();
        assert_eq!(e.message, "`ATACK` is not an action", "{label}");
        assert_eq!(e.suggestions, vec!["ATTACK"], "{label}");
        assert!(
            d.iter().all(|d| d.code != Code::TooManyBoxes),
            "{label}: {d:#?}"
        );
    }
}

#[test]
fn suggestions_are_the_same_with_or_without_a_number() {
    for label in ["", "1. ", "1) "] {
        let d = diagnose(&format!("{label}MOVE DDD EEE 2"));
        let w = d
            .iter()
            .find(|d| d.code == Code::MoveIntoForeignArea)
            .unwrap();
        assert_eq!(w.suggestions, vec!["ATTACK DDD EEE 2"], "{label}");
    }
}

#[test]
fn blank_numbered_lines_are_unused_actions_that_keep_their_rounds() {
    let sheet = parse_sheet("1. TAX\n2.\n3) GROW DDD\n4:\n5.\n");
    let rounds: Vec<(bool, String)> = sheet
        .actions
        .iter()
        .map(|a| (a.blank, a.text.clone()))
        .collect();
    assert_eq!(
        rounds,
        vec![
            (false, "TAX".into()),
            (true, "".into()),
            (false, "GROW DDD".into()),
            (true, "".into()),
            (true, "".into())
        ]
    );
    // No diagnostic: the gaps are allowed (2.6).
    assert!(diagnose("1. TAX\n2.\n3) GROW DDD\n4:\n5.\n").is_empty());
    // The engine plays GROW in round 3.
    let t = sheet.turnsheet();
    assert!(t.actions[1].blank);
    assert_eq!(
        t.actions[2].order.as_ref().unwrap().to_string(),
        "GROW DDD - -"
    );
}

#[test]
fn the_printed_sheets_furniture_is_skipped() {
    let printed = "\
================================================================================
 TURNSHEET FOR TURN 3    (one action per line: VERB WHERE WHERE-TO NUMBER)
================================================================================
GAME Testland
TURN 3
EMPIRE AA

1. TAX
2.
3.

MESSAGES
";
    let sheet = parse_sheet(printed);
    assert_eq!(sheet.actions.len(), 3);
    assert_eq!(sheet.actions[0].text, "TAX");
    assert!(diagnose(printed).is_empty(), "{:#?}", diagnose(printed));
}

#[test]
fn w118_a_number_out_of_place_repeated_or_beyond_the_limit() {
    assert_eq!(
        only("1. TAX\n3. TAX"),
        "W118 2:1 this line is numbered 3 but is action 2 on the sheet; it is played in round 2 (2.6)"
    );
    assert_eq!(
        only("1. TAX\n1. TAX"),
        "W118 2:1 action number 1 is written twice"
    );
    let mut sheet = String::new();
    for i in 1..=16 {
        sheet.push_str(&format!("{i}.\n"));
    }
    sheet.push_str("17. TAX\n");
    let d = diagnose(&sheet);
    assert!(d.iter().any(|d| d.code == Code::NumberLabel
        && d.message == "action number 17 is beyond the 16 actions a turn (2.6)"));
    // Blank numbered lines beyond the limit are not actions to warn about.
    assert!(diagnose("1.\n2.\n").is_empty());
}

#[test]
fn one_stray_line_shifting_every_number_is_one_warning() {
    let d = diagnose("TAX\n1. TAX\n2.\n3. TAX\n");
    let w: Vec<_> = d.iter().filter(|d| d.code == Code::NumberLabel).collect();
    assert_eq!(w.len(), 1, "{d:#?}");
    assert_eq!(
        w[0].message,
        "this line is numbered 1 but is action 2 on the sheet; so are the 2 numbered lines after it, each played one round later than its number says (2.6)"
    );
    // A different slip further down is told on its own.
    let d = diagnose("TAX\n1. TAX\n2.\n7. TAX\n");
    assert_eq!(
        d.iter().filter(|d| d.code == Code::NumberLabel).count(),
        2,
        "{d:#?}"
    );
}
