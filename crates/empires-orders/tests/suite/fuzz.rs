//! The reader and checker never panic and never hang, whatever they are given: random
//! input from a generator biased towards turnsheet-like text, and a corpus of awkward cases
//! kept as regression tests.
use crate::common;
use common::*;
use empires_orders::{parse_sheet, render};
use proptest::prelude::*;

/// Reads, checks and renders a text, and checks every diagnostic points inside it.
fn survive(text: &str) {
    let sheet = parse_sheet(text);
    let diags = diagnose(text);
    let lines = text.lines().count() as u32;
    for d in &diags {
        assert!(d.line >= 1 && d.line <= lines.max(1), "{d:?}");
        assert!(d.column >= 1 && d.length >= 1, "{d:?}");
    }
    let _ = render("fuzz.txt", text, &diags);
    let _ = sheet.turnsheet();
}

#[test]
fn corpus_of_awkward_turnsheets() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        survive(&String::from_utf8_lossy(&bytes));
        n += 1;
    }
    assert!(n >= 10);
}

#[test]
fn corpus_cases_read_as_expected() {
    let d = diagnose("\u{feff}TAX\r\nGROW DDD\r\n");
    assert!(d.is_empty(), "{d:?}");
    let d = diagnose("MOVE DDD AAA 99999999999999999999");
    assert_eq!(d[0].message, "`99999999999999999999` is not a number");
    let d = diagnose("WAIT AB 3");
    assert_eq!(d[0].code.as_str(), "E011");
}

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "MOVE", "ATTACK", "TAX", "GROW", "SPY", "SKIP", "FIND", "GIFT", "ORDER", "ARMY", "AAA",
            "DDD", "EEE", "NSE", "AA", "BB", "-", "AB-2", "AB", "ALL", "BUT", "3", "#", ";", "//",
            "MESSAGES", "PHONE", "TURN", "EMPIRE", ",", "1.", "\t",
        ])
        .prop_map(str::to_string),
        "\\PC{0,6}",
        "[0-9]{1,25}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_text_is_read_without_panicking(text in "\\PC{0,200}") {
        survive(&text);
    }

    #[test]
    fn turnsheet_like_text_is_read_without_panicking(
        lines in prop::collection::vec(prop::collection::vec(word(), 0..7), 0..24)
    ) {
        let text: String = lines.iter().map(|l| l.join(" ") + "\n").collect();
        survive(&text);
    }
}
