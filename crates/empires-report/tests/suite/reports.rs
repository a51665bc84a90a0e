//! Reports of a fixed game: golden text and HTML, the JSON schema, and the layout rules of
//! the text form.
use crate::common;
use common::*;
use empires_report::{gm, html, report, schema, text};

#[test]
fn golden_text_report() {
    let (map, _, out) = turn_one();
    let r = report(&turn(&map, &out), code("EN"));
    insta::assert_snapshot!("en_turn_1_text", text::render(&r, 16));
}

#[test]
fn golden_html_report() {
    let (map, _, out) = turn_one();
    let r = report(&turn(&map, &out), code("WA"));
    insta::assert_snapshot!("wa_turn_1_html", html::render(&r, 16, None));
}

#[test]
fn golden_gm_summary() {
    let (map, _, out) = turn_one();
    insta::assert_snapshot!("gm_turn_1", gm::summary(&turn(&map, &out)));
}

#[test]
fn every_json_report_matches_the_schema() {
    let (map, _, out) = turn_one();
    let schema: serde_json::Value = serde_json::from_str(&schema()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    for e in &out.state.empires {
        let r = report(&turn(&map, &out), e.code);
        let json = serde_json::to_value(&r).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", e.code);
        // And it reads back as the same report.
        let back: empires_report::Report = serde_json::from_value(json).unwrap();
        assert_eq!(back, r);
    }
}

#[test]
fn the_published_schema_is_up_to_date() {
    let published = include_str!("../../../../docs/report.schema.json");
    assert_eq!(
        published,
        schema(),
        "run `cargo run -p empires-report --example schema > docs/report.schema.json`"
    );
}

#[test]
fn text_reports_are_78_columns_of_ascii() {
    let (map, _, out) = turn_one();
    for e in &out.state.empires {
        let t = text::render(&report(&turn(&map, &out), e.code), 16);
        for (i, line) in t.lines().enumerate() {
            assert!(
                line.len() <= 78,
                "{} line {}: {line:?} ({})",
                e.code,
                i + 1,
                line.len()
            );
            assert!(line.is_ascii(), "{} line {}: {line:?}", e.code, i + 1);
        }
        // The next turnsheet is attached, pre-filled.
        assert!(
            t.contains(&format!("TURN 2\nEMPIRE {}\n\n1.\n", e.code)),
            "{t}"
        );
        assert!(t.contains("16.\n\nMESSAGES"));
    }
}

#[test]
fn rule_10_1_own_actions_and_what_others_did_to_you() {
    let (map, _, out) = turn_one();
    let r = report(&turn(&map, &out), code("WA"));
    // Wales wrote 6 actions; the misspelt one failed with its reason.
    assert_eq!(r.actions.len(), 6);
    let bad = r
        .actions
        .iter()
        .find(|a| a.order.starts_with("MARCH"))
        .unwrap();
    assert_eq!(bad.status, "failed");
    assert!(bad.reason.as_deref().unwrap().contains("not understood"));
    // Every area listed is Wales's own.
    for a in &r.areas {
        assert_eq!(
            out.state.area(map.find(&a.code).unwrap()).owner,
            Some(code("WA"))
        );
    }
}

#[test]
fn rule_10_3_roundup_is_public_and_complete() {
    let (map, _, out) = turn_one();
    let a = report(&turn(&map, &out), code("EN"));
    let b = report(&turn(&map, &out), code("IR"));
    assert_eq!(a.roundup, b.roundup);
    assert_eq!(a.roundup.empires.len(), 4);
    assert_eq!(a.roundup.order_of_play.len(), 4);
    assert_eq!(a.actions_report, b.actions_report);
}

#[test]
fn names_are_shortened_at_word_boundaries() {
    use empires_report::text::abbreviate;
    assert_eq!(abbreviate("Yorkshire and Lancashire", 19), "Yorkshire");
    assert_eq!(
        abbreviate("Yorkshire and Lancashire", 30),
        "Yorkshire and Lancashire"
    );
    assert_eq!(abbreviate("Dyfed and Powys", 12), "Dyfed");
    assert_eq!(abbreviate("The Midlands", 12), "The Midlands");
    assert_eq!(abbreviate("Kamchatka-Peninsula", 8), "Kamchat.");
    assert_eq!(abbreviate("North West Territories", 16), "North West");
}

#[test]
fn the_text_report_lists_every_areas_neighbours_for_players_without_a_map() {
    let (map, _, out) = turn_one();
    let r = report(&turn(&map, &out), code("EN"));
    let t = text::render(&r, 16);
    // Every area owned or seen is listed with the codes next to it (4.1).
    for a in &r.areas {
        let next = map.neighbours(map.find(&a.code).unwrap());
        let line = format!(
            "{}: {}",
            a.code,
            next.iter()
                .map(|&n| map.code(n).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
        assert!(t.contains(&line), "{line} missing from\n{t}");
    }
    for s in &r.scouting {
        assert!(t.contains(&format!("{}: ", s.code)), "{}", s.code);
    }
    // No name is cut in the middle of a word.
    assert!(!t.contains("Lanca "), "{t}");
}
