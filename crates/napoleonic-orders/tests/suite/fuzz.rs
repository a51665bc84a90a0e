//! Reading, checking and rendering never panic, whatever the text: random text, and text
//! made of the language's own words in random order.
use crate::common;
use common::*;
use napoleonic_orders::{check_sheet, parse, render};
use proptest::prelude::*;

fn survive(text: &str) {
    let (map, st) = game();
    let sheet = parse(&map, text);
    let d = check_sheet(&map, &st, &k("FRA"), &sheet);
    let lines = napoleonic_orders::diag::lines(text).count().max(1) as u32;
    for x in &d {
        assert!(x.line >= 1 && x.line <= lines, "{x:?} in {text:?}");
        assert!(x.column >= 1 && x.length >= 1, "{x:?} in {text:?}");
    }
    let _ = render("fuzz.txt", text, &d);
    // What was read is the orders for the engine: it serialises.
    let _ = serde_json::to_string(&sheet).unwrap();
}

#[test]
fn awkward_texts() {
    for text in [
        "",
        "\n\n\n",
        "\u{feff}",
        "\"",
        "A1 \"",
        "PROCLAMATION",
        "PROCLAMATION\n",
        "PROCLAMATION\nEND\nEND",
        "A1\n1:",
        "A1\n1:;;;",
        "A1\n:",
        "A1\n 1: TRANSFER , , TO",
        "A1\n 1: UNLOAD , AT",
        "A1\n 1: LOAD AFTER",
        "HQ\n SEND 99999999999999999999 GOLD TO BAV",
        "HQ\n SEND 0.001 GOLD TO BAV",
        "HQ\n GRANT PERMISSION IN IN IN",
        "G\nF\nA\nG0\nG65536\nA0\nF100",
        "GAME\nKINGDOM\nTURN",
        "GAME \"x\" KINGDOM FRA TURN 99999999999",
        "A1\n 255: HOLD\n 256: HOLD",
        "é\u{301}\u{200b}\t\r\u{2028}A1",
        "A1 “Armée”\n 1: MOVE “Burgundy”",
    ] {
        survive(text);
    }
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "GAME",
            "KINGDOM",
            "TURN",
            "HQ",
            "PROCLAMATION",
            "END",
            "A1",
            "A2",
            "A5",
            "F1",
            "F2",
            "G1",
            "G7",
            "GBRE",
            "BAV",
            "PRU",
            "FRA",
            "IND",
            "XX",
            "DECLARE",
            "WAR",
            "ON",
            "OFFER",
            "PEACE",
            "ALLIANCE",
            "CANCEL",
            "ACCEPT",
            "GIFTS",
            "NOTHING",
            "GRANT",
            "REVOKE",
            "PASSAGE",
            "PERMISSION",
            "IN",
            "TO",
            "FROM",
            "SEND",
            "GOLD",
            "AMBASSADOR",
            "ANNEX",
            "GIVE",
            "RETREAT",
            "FOLLOW",
            "NONE",
            "MARINES",
            "LEADER",
            "FORM",
            "ARMY",
            "FLEET",
            "TRANSFER",
            "RANKS",
            "DISBAND",
            "SALVAGE",
            "RECRUIT",
            "HIRE",
            "BUILD",
            "REPAIR",
            "RAZE",
            "FORTIFICATION",
            "HARBOUR",
            "MOVE",
            "HOLD",
            "PREPARE",
            "BOARD",
            "FOR",
            "LOAD",
            "AFTER",
            "UNLOAD",
            "AT",
            "DEFEND",
            "PILLAGE",
            "BUR",
            "ALS",
            "SWA",
            "BAD",
            "PAR",
            "PIC",
            "BRE",
            "ENC",
            "NTH",
            "KEN",
            "HOL",
            "LIN",
            "CUI",
            "ART",
            "WAR",
            "TRN",
            "1",
            "2",
            "3",
            "4",
            "0",
            "99",
            "1:",
            "2:",
            "3.",
            ";",
            ",",
            ":",
            "#",
            "\"",
            "\"Ney\"",
            "12.5",
            "-",
        ])
        .prop_map(str::to_string),
        "\\PC{0,6}",
        "[0-9]{1,25}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_is_read_without_panicking(text in "\\PC{0,300}") {
        survive(&text);
    }

    #[test]
    fn any_text_with_line_breaks_is_read_without_panicking(text in "(\\PC|\n|\r){0,300}") {
        survive(&text);
    }

    #[test]
    fn sheet_like_text_is_read_without_panicking(
        lines in prop::collection::vec(prop::collection::vec(word(), 0..8), 0..30)
    ) {
        let text: String = lines.iter().map(|l| l.join(" ") + "\n").collect();
        survive(&text);
    }
}

#[test]
fn the_largest_awkward_sheets_are_read_quickly() {
    let start = std::time::Instant::now();
    for unit in [
        "PROCLAMATION\n",
        "A1\n",
        "A1\n1: MOVE BUR; HOLD\n",
        "\"\n",
        "HQ\nSEND 1 GOLD TO BRI\n",
    ] {
        let text = unit.repeat(napoleonic_orders::parse::MAX_SHEET_BYTES / unit.len());
        survive(&text);
    }
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
}
