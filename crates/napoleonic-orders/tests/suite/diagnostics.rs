//! Every mistake in reading a sheet gives a diagnostic at the right line and column, with
//! a message saying what was found and what was expected, and the rest is still read.
use crate::common;
use common::*;
use napoleonic_orders::diag::MAX_DIAGNOSTICS;
use napoleonic_orders::parse::{MAX_LINE_CHARS, MAX_SHEET_BYTES};
use napoleonic_orders::{Code, Severity, render};

fn hint(text: &str) -> Option<String> {
    diagnose(text)[0].hint.clone()
}

fn expected(text: &str) -> Option<String> {
    diagnose(text)[0].expected.clone()
}

#[test]
fn e001_a_word_that_is_not_an_order_with_the_nearest_offered() {
    assert_eq!(
        only("HQ\n  DECLRE WAR ON PRU"),
        "E001 2:3 `DECLRE` is not an order"
    );
    assert_eq!(
        hint("HQ\n  DECLRE WAR ON PRU").unwrap(),
        "did you mean DECLARE?"
    );
    assert_eq!(hint("A1\n  1: PILAGE").unwrap(), "did you mean PILLAGE?");
    assert_eq!(only("XYZ"), "E001 1:1 `XYZ` is not an order");
    // A G and letters that are no location's code: it is not a garrison either.
    assert_eq!(
        hint("GXYZ").unwrap(),
        "a garrison is G and its province's number or code, and no location has the code XYZ"
    );
    // A word that does not fit where it stands.
    assert_eq!(
        only("A1\n MARINES MAYBE"),
        "E001 2:10 `MAYBE` does not fit here: MARINES goes on with `ON` or `OFF`"
    );
    assert_eq!(
        only("A1\n BUILD CASTLE"),
        "E001 2:8 `CASTLE` does not fit here: BUILD goes on with `FORTIFICATION`, `FORT`, \
         `HARBOUR` or `HARBOR`"
    );
    assert_eq!(
        only("HQ\n OFFER TRUCE TO PRU"),
        "E001 2:8 `TRUCE` does not fit here: OFFER goes on with `PEACE` or `ALLIANCE`"
    );
}

#[test]
fn e002_an_order_that_stops_short_points_where_more_was_expected() {
    assert_eq!(
        only("HQ\n  DECLARE WAR ON"),
        "E002 2:17 DECLARE WAR stops short: it needs a kingdom's code, such as PRU"
    );
    assert_eq!(
        only("A1\n 1: UNLOAD A1"),
        "E002 2:14 UNLOAD stops short: it needs AT and the province, as AT BRI"
    );
    assert_eq!(
        only("HQ\n GRANT PERMISSION IN BUR"),
        "E002 2:25 GRANT PERMISSION stops short: it needs a kingdom's code, such as PRU"
    );
    assert_eq!(
        only("A1\n RANKS LIN 2 2"),
        "E002 2:15 RANKS stops short: it needs a count"
    );
    assert_eq!(
        expected("A1\n RANKS LIN 2 2").unwrap(),
        "five counts, for ranks 1 to 5, as LIN 2 2 0 0 0"
    );
    assert_eq!(
        only("A1\n TRANSFER 4 LIN A2"),
        "E002 2:17 TRANSFER needs TO before the receiving unit A2"
    );
    assert_eq!(
        hint("A1\n FORM ARMY").unwrap(),
        "give the new unit its number, as FORM ARMY A5 \"Reserve\""
    );
}

#[test]
fn e003_words_left_over() {
    assert_eq!(
        only("HQ\n  DECLARE WAR ON PRU NOW"),
        "E003 2:22 `NOW` is more than DECLARE WAR takes"
    );
    assert_eq!(
        only("A1\n  1: MOVE BUR ALS"),
        "E003 2:15 `ALS` is more than MOVE takes"
    );
    assert_eq!(
        hint("A1\n  1: MOVE BUR ALS").unwrap(),
        "a unit makes one movement a phase: write the next one in phase 2"
    );
    assert_eq!(
        only("A1 Grande Armee"),
        "E003 1:4 `Grande Armee` is more than a unit's heading takes"
    );
    assert_eq!(
        hint("A1 Grande Armee").unwrap(),
        "a new name goes in quotes, as A1 \"Grande Armée\"; orders go on the lines below the heading"
    );
}

#[test]
fn e004_numbers_out_of_shape_or_range() {
    assert_eq!(
        only("HQ\n  SEND 5x GOLD TO BAV"),
        "E004 2:8 `5x` is not an amount of gold to send"
    );
    assert_eq!(
        only("HQ\n  SEND 0 GOLD TO BAV"),
        "E004 2:8 `0` is not an amount of gold to send"
    );
    assert_eq!(
        only("A1\n RETREAT 6"),
        "E004 2:10 `6` is not a retreat level"
    );
    assert_eq!(expected("A1\n RETREAT 6").unwrap(), "a rank from 1 to 5");
    assert_eq!(
        only("A1\n TRANSFER LIN 4 TO A2"),
        "E004 2:11 `LIN` is not a count"
    );
    assert_eq!(
        hint("A1\n TRANSFER LIN 4 TO A2").unwrap(),
        "write the count before the troop type: 4 LIN"
    );
    assert_eq!(
        only("G1\n RECRUIT 99999999999999999999 LIN"),
        "E004 2:10 99999999999999999999 is out of range for a count"
    );
    assert_eq!(only("GAME x TURN -1"), "E004 1:13 `-1` is not a count");
}

#[test]
fn e005_a_line_too_long_is_not_read_and_the_next_is() {
    let long = format!("HQ\n{}\nANNEX XYZ\n", "x".repeat(MAX_LINE_CHARS + 1));
    let d = diagnose(&long);
    assert_eq!(
        short(&d[0]),
        "E005 2:1 line 2 has 501 characters, more than the 500 a line may have: it is not read"
    );
    assert_eq!(short(&d[1]), "E008 3:7 `XYZ` is not a location on this map");
}

#[test]
fn e006_a_sheet_too_large_is_refused_whole() {
    let big = "# x\n".repeat(MAX_SHEET_BYTES / 4 + 1);
    let sheet = read(&big);
    assert_eq!(sheet.diagnostics.len(), 1);
    assert_eq!(
        short(&sheet.diagnostics[0]),
        "E006 1:1 the sheet is 65540 bytes, more than the 65536 a sheet may hold: nothing in it \
         is read"
    );
}

#[test]
fn e007_codes_of_the_wrong_shape() {
    assert_eq!(
        only("HQ\n  DECLARE WAR ON PRUSSIA"),
        "E007 2:18 `PRUSSIA` is not a kingdom code"
    );
    assert_eq!(
        expected("HQ\n  DECLARE WAR ON PRUSSIA").unwrap(),
        "a kingdom's code, such as PRU"
    );
    assert_eq!(
        only("A100\n 1: MOVE BUR"),
        "E007 1:1 `A100` is not a unit: army numbers run from 1 to 99, not 100"
    );
    assert_eq!(
        hint("A100\n 1: MOVE BUR").unwrap(),
        "the orders under this heading are not read, up to the next heading"
    );
    assert_eq!(
        only("A1\n FORM ARMY F3"),
        "E007 2:12 FORM makes a new army or fleet, and F3 is not one"
    );
    assert_eq!(only("A1\n FOLLOW PRU"), "E007 2:9 `PRU` is not a unit");
    assert_eq!(
        only("A1\n DISBAND 2 L1N"),
        "E007 2:12 `L1N` is not a troop type"
    );
}

#[test]
fn e008_a_location_not_on_the_map_with_the_nearest_offered() {
    assert_eq!(
        only("HQ\n  ANNEX BURG"),
        "E008 2:9 `BURG` is not a location on this map"
    );
    assert_eq!(
        hint("HQ\n  ANNEX BURG").unwrap(),
        "did you mean BUR (Burgundy, 2)?"
    );
    // A name is understood whole, and a part of one is offered.
    assert_eq!(
        hint("HQ\n  ANNEX Burgund").unwrap(),
        "did you mean BUR (Burgundy, 2)?"
    );
    assert_eq!(
        only("A1\n  1: MOVE 99"),
        "E008 2:11 there is no location 99 on this map"
    );
}

#[test]
fn e009_orders_in_the_wrong_section() {
    assert_eq!(
        only("HQ\n  MOVE BUR"),
        "E009 2:3 MOVE is an order for a unit, not for the headquarters"
    );
    assert_eq!(
        only("A1\n  DECLARE WAR ON PRU"),
        "E009 2:3 DECLARE is an order of the headquarters, not of a unit"
    );
    assert_eq!(
        hint("A1\n  DECLARE WAR ON PRU").unwrap(),
        "write it under the HQ heading"
    );
    assert_eq!(
        only("A1\n  MOVE BUR"),
        "E009 2:3 MOVE is done in a phase of movement: it needs the phase's number"
    );
    assert_eq!(
        hint("A1\n  MOVE BUR").unwrap(),
        "write it after the phase's number, as `1: MOVE …`"
    );
    assert_eq!(
        only("A1\n  1: RETREAT 3"),
        "E009 2:6 RETREAT is given once a turn, not in a phase"
    );
    assert_eq!(
        only("DECLARE WAR ON PRU"),
        "E009 1:1 `DECLARE` comes before any heading"
    );
    assert_eq!(
        only("1: MOVE BUR"),
        "E009 1:1 a phase line belongs under a unit's heading"
    );
    assert_eq!(
        only("END"),
        "E009 1:1 END closes a PROCLAMATION, and none is open here"
    );
}

#[test]
fn e010_phases_out_of_range() {
    assert_eq!(
        only("A1\n  0: MOVE BUR"),
        "E010 2:3 there is no phase 0: phases are numbered from 1"
    );
    assert_eq!(
        hint("A1\n  0: MOVE BUR").unwrap(),
        "a LOAD in phase 1 already happens before phase 1's movement (M3), which is what the \
         rulebook calls phase 0"
    );
    assert_eq!(
        only("A1\n  100: MOVE BUR"),
        "E010 2:3 phase 100 is out of range"
    );
}

#[test]
fn e011_one_movement_a_phase() {
    assert_eq!(
        only("A1\n  1: MOVE BUR; HOLD"),
        "E011 2:16 a second movement in phase 1: the unit already moves or holds on line 2"
    );
    assert_eq!(
        only("A1\n  1: MOVE BUR\n  1: MOVE PIC"),
        "E011 3:6 a second movement in phase 1: the unit already moves or holds on line 2"
    );
}

#[test]
fn e012_quotations_and_proclamations_left_open() {
    assert_eq!(
        only("A1 \"Grande"),
        "E012 1:4 this quotation is never closed: it runs to the end of the line"
    );
    // The proclamation is taken to stop where a section begins, and that section is read.
    let text = "PROCLAMATION\nVive!\nA1\n 1: MOVE BUR";
    assert_eq!(
        only(text),
        "E012 1:1 this PROCLAMATION is never closed by an END line"
    );
    assert_eq!(
        hint(text).unwrap(),
        "the text was taken to stop before line 3, which starts a section; put END on a line of \
         its own after the text"
    );
    let sheet = read(text);
    assert_eq!(sheet.orders.proclamation.as_deref(), Some("Vive!"));
    assert_eq!(sheet.orders.units.len(), 1);
}

#[test]
fn e013_orders_given_twice() {
    assert_eq!(
        only("A1\n RETREAT 3\n RETREAT 4"),
        "E013 3:2 RETREAT for A1 is already given on line 2: the first one is kept"
    );
    assert_eq!(
        only("A1\n BUILD FORTIFICATION\n BUILD HARBOUR"),
        "E013 3:2 BUILD for A1 is already given on line 2: the first one is kept"
    );
    assert_eq!(
        only("A1\n 1: PILLAGE; PILLAGE"),
        "E013 2:14 PILLAGE is already given for phase 1 on line 2"
    );
    assert_eq!(
        only("PROCLAMATION Vive!\nPROCLAMATION Encore!"),
        "E013 2:1 a second PROCLAMATION: a kingdom makes one a turn (2.11), and the one on line \
         1 is kept"
    );
}

#[test]
fn w001_a_unit_written_twice() {
    assert_eq!(
        all("A1\n 1: MOVE BUR\nA1\n 2: HOLD"),
        vec!["W001 3:1 A1 already has a section, on line 1: the orders below are added to it"]
    );
}

#[test]
fn w002_a_phase_written_out_of_the_order_it_happens_in() {
    assert_eq!(
        only("A1\n 1: PILLAGE; MOVE BUR"),
        "W002 2:14 MOVE is written after PILLAGE but happens before it: step M9 comes before M14"
    );
    let load = diagnose("F1\n 1: MOVE ENC; LOAD A1");
    assert_eq!(
        short(&load[0]),
        "W002 2:15 LOAD is written after MOVE but happens before it: step M3 comes before M4"
    );
    assert_eq!(
        load[0].hint.as_deref(),
        Some("to load after the movement, write LOAD AFTER and the army (M9b, G12)")
    );
    // Across lines of one phase too.
    assert_eq!(
        only("A1\n 1: MOVE BUR\n 1: TRANSFER 1 LIN TO G1"),
        "W002 3:5 TRANSFER is written after MOVE but happens before it: step M1 comes before M9"
    );
}

#[test]
fn w003_names_and_proclamations_cut_to_their_limits() {
    assert_eq!(
        only("A1 \"A name far far too long for any army of the Emperor at all\""),
        "W003 1:4 a name of more than 40 characters is cut to \"A name far far too long for any \
         army of \""
    );
    let text = format!("PROCLAMATION\n{}\nEND\n", "Vive l'Empereur! ".repeat(130));
    let sheet = read(&text);
    assert_eq!(
        short(&sheet.diagnostics[0]),
        "W003 1:1 the proclamation has 2209 characters: only the first 2000 are kept"
    );
    assert_eq!(sheet.orders.proclamation.unwrap().chars().count(), 2000);
}

#[test]
fn w004_too_many_problems_end_the_list() {
    let text = "XYZ\n".repeat(150);
    let d = diagnose(&text);
    assert_eq!(d.len(), MAX_DIAGNOSTICS + 1);
    assert_eq!(
        short(&d[MAX_DIAGNOSTICS]),
        "W004 101:1 more than 100 problems: the rest are not reported; fix these and check again"
    );
}

#[test]
fn w005_header_lines_out_of_place_or_repeated() {
    assert_eq!(
        only("A1\nGAME x"),
        "W005 2:1 the header belongs at the top of the sheet, before HQ and the units"
    );
    let d = all("GAME x KINGDOM FRA KINGDOM FRA");
    assert_eq!(
        d,
        vec!["W005 1:20 KINGDOM is given twice (first on line 1): the later one counts"]
    );
}

#[test]
fn w006_a_phase_with_nothing_after_its_number() {
    assert_eq!(
        only("A1\n 2:"),
        "W006 2:2 phase 2 has nothing after its number"
    );
}

#[test]
fn reading_goes_on_after_an_error() {
    let text = "HQ\n DECLRE WAR ON PRU\n OFFER PEACE TO PRU\nA1\n 1: MOVE BRG\n 2: MOVE BUR\n";
    let sheet = read(text);
    assert_eq!(sheet.errors(), 2);
    assert_eq!(sheet.orders.hq.len(), 1);
    assert_eq!(sheet.orders.units[0].plan.len(), 1);
    assert_eq!(sheet.orders.units[0].plan[0].phase, 2);
}

#[test]
fn every_diagnostic_is_rendered_with_its_line_marked() {
    let text = "HQ\n  ANNEX BURG\nA1\n  1: PILLAGE; MOVE BUR\n";
    let out = render("FRA.txt", text, &diagnose(text));
    assert_eq!(
        out,
        "FRA.txt:2:9: error[E008]: `BURG` is not a location on this map\n \
         2 |   ANNEX BURG\n   |         ^^^^ expected a location's code or number, such as BUR \
         or 12\n    = hint: did you mean BUR (Burgundy, 2)?\n\
         FRA.txt:4:15: warning[W002]: MOVE is written after PILLAGE but happens before it: step \
         M9 comes before M14\n 4 |   1: PILLAGE; MOVE BUR\n   |               ^^^^\n    = hint: \
         a phase's orders always happen in the order of its steps (3.2)\n1 error, 1 warning\n"
    );
    assert!(
        diagnose(text)
            .iter()
            .any(|d| d.severity == Severity::Warning)
    );
}

#[test]
fn every_code_has_a_test_in_this_crate() {
    // Codes are stable: the web form and the mail gateway rely on them.
    let tests = [include_str!("diagnostics.rs"), include_str!("check.rs")].concat();
    for c in Code::ALL {
        let name = c.as_str().to_lowercase();
        assert!(
            tests.contains(&format!("fn {name}_")),
            "no test named after {c}"
        );
    }
}
