//! The test map of the rules engine's tests, with a small position on it.
#![allow(dead_code)]

use empires_orders::{Context, Diagnostic, check, parse_sheet};
use empires_rules::scenario::Scenario;
use empires_rules::{EmpireCode, GameState, Map};

const MAP: &str = include_str!("../../../../empires-rules/tests/scenarios/testland.toml");

const POSITION: &str = r#"
map = "testland.toml"
turn = 2
next_census = 9
order_of_play = ["AA", "BB"]
[[empire]]
code = "AA"
name = "Alpha"
bps = 20
[[empire]]
code = "BB"
name = "Beta"
bps = 20
[[area]]
code = "AAA"
owner = "AA"
population = 4
armies = 6
base = { entrance = "NSE", ships = 2 }
[[area]]
code = "BBB"
owner = "AA"
population = 3
armies = 2
[[area]]
code = "DDD"
owner = "AA"
population = 5
armies = 3
[[area]]
code = "EEE"
owner = "BB"
population = 3
armies = 3
"#;

pub fn game() -> (Map, GameState) {
    let map = Map::from_toml(MAP, "testland.toml").expect("map");
    let sc = Scenario::parse(POSITION, "position.toml").expect("scenario");
    let st = sc.build(&map, POSITION, "position.toml").expect("state");
    (map, st)
}

/// Every diagnostic for a turnsheet written by AA.
pub fn diagnose(text: &str) -> Vec<Diagnostic> {
    let (map, st) = game();
    let cx = Context {
        map: &map,
        state: &st,
        empire: EmpireCode::parse("AA").unwrap(),
    };
    check(&parse_sheet(text), &cx)
}

/// The one diagnostic a turnsheet gives, as `CODE line:col message`.
pub fn only(text: &str) -> String {
    let d = diagnose(text);
    assert_eq!(d.len(), 1, "{text}: {d:#?}");
    let d = &d[0];
    format!("{} {}:{} {}", d.code.as_str(), d.line, d.column, d.message)
}
