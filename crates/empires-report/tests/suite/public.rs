//! The parts every report of a turn shares (10.3, 10.4, 10.6) are kept once, in the turn's
//! `public` files; a kept report made whole again is byte for byte the report rendered
//! with them, and a kept report does not grow with the number of empires.
use crate::common;
use common::*;
use empires_report::{html, public, render_every, report, text};
use empires_rules::map::generate::grid;
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{Map, Variant};

#[test]
fn a_kept_report_made_whole_is_the_report_rendered_whole() {
    let (map, _, out) = turn_one();
    let t = turn(&map, &out);
    let every = render_every(&t, None, None, |_| None).unwrap();
    let files = every.public.clone().expect("the shared parts");
    // The kept forms leave the shared parts out and point to them.
    for kept in &every.empires {
        let r = report(&t, kept.empire);
        let whole_json = serde_json::to_string(&r).unwrap() + "\n";
        assert!(!kept.json.contains("\"roundup\""), "{}", kept.empire);
        assert!(kept.json.contains("\"shared_in\":\"public.json\""));
        assert!(!kept.text.contains("ACTIONS REPORT\n"));
        assert!(kept.html.contains("href=\"public.html\""));
        assert_eq!(
            public::whole("json", &kept.json, Some(&files.json)).unwrap(),
            whole_json,
            "{} json",
            kept.empire
        );
        assert_eq!(
            public::whole("txt", &kept.text, Some(&files.text)).unwrap(),
            text::render(&r, 16),
            "{} text",
            kept.empire
        );
        assert_eq!(
            public::whole("html", &kept.html, Some(&files.html)).unwrap(),
            html::render(&r, 16, None),
            "{} html",
            kept.empire
        );
        // A kept JSON report read back with public.json is the whole report.
        let back: empires_report::Report = serde_json::from_str(&kept.json).unwrap();
        assert_eq!(back.shared_in.as_deref(), Some("public.json"));
        assert_eq!(public::fill(back, Some(&files.json)).unwrap(), r);
    }
    // The turn's page of shared parts stands on its own.
    assert!(files.html.starts_with("<!DOCTYPE html>"));
    assert!(files.html.contains("Actions report"));
    assert!(files.text.contains("ROUNDUP"));
}

#[test]
fn a_whole_report_is_whole_as_it_is_and_a_missing_or_wrong_public_file_is_named() {
    let (map, _, out) = turn_one();
    let t = turn(&map, &out);
    let r = report(&t, code("EN"));
    let whole = text::render(&r, 16);
    assert_eq!(public::whole("txt", &whole, None).unwrap(), whole);
    let every = render_every(&t, None, None, |_| None).unwrap();
    let kept = &every.empires[0];
    for (ext, own) in [
        ("json", &kept.json),
        ("txt", &kept.text),
        ("html", &kept.html),
    ] {
        let missing = public::whole(ext, own, None).unwrap_err();
        assert!(
            missing.contains(&format!("public.{ext} is missing")),
            "{missing}"
        );
    }
    let wrong = public::whole("html", &kept.html, Some("<html>nothing</html>")).unwrap_err();
    assert!(wrong.contains("public.html does not hold"), "{wrong}");
    let wrong = public::whole("json", &kept.json, Some("[1,2]")).unwrap_err();
    assert!(wrong.contains("public.json does not hold"), "{wrong}");
    assert!(
        public::fill(
            serde_json::from_str(&kept.json).unwrap(),
            Some("{\"roundup\":3}")
        )
        .is_err()
    );
}

/// The mean size of an empire's kept reports (all three forms) on a grid with `empires`.
fn mean_kept_bytes(empires: usize) -> usize {
    let map = Map::from_file(grid(40, 40, empires), "grid").unwrap();
    let st = new_game(&map, &NewGame::without_players("g", Variant::World, 5)).unwrap();
    let out = empires_rules::adjudicate(&map, &st, &Default::default()).unwrap();
    let t = turn(&map, &out);
    let every = render_every(&t, None, None, |_| None).unwrap();
    let total: usize = every
        .empires
        .iter()
        .map(|r| r.json.len() + r.text.len() + r.html.len())
        .sum();
    total / every.empires.len()
}

#[test]
fn a_kept_report_does_not_grow_with_the_number_of_empires() {
    let (few, many) = (mean_kept_bytes(10), mean_kept_bytes(80));
    // Eight times the empires: each report knows about as much (its own areas, its
    // neighbours), so it stays about the same size; whole, with the roundup and the
    // actions report, it would be several times bigger.
    assert!(
        (many as f64) < 1.3 * few as f64,
        "{few} bytes a report with 10 empires, {many} with 80"
    );
}
