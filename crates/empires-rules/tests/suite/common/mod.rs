//! Shared helpers for the engine's tests: a small map with every terrain, scenarios written
//! inline, and orders written as turnsheet lines.
#![allow(dead_code)]

use empires_rules::event::{Event, Outcome, What};
use empires_rules::order::{Order, OrderLine, Quantity, Turnsheet, Verb};
use empires_rules::scenario::Scenario;
use empires_rules::{EmpireCode, GameState, Map, TurnOutcome, adjudicate};
use std::collections::BTreeMap;

/// ```text
///   AAA(plains) - BBB(forest) - CCC(mountains)
///    |    \          |             |
///   NSE   DDD(lowl)- EEE(uplands)- FFF(wetlands)
///    |  /  |         |             |
///   ESE ---+-------- GGG(desert) - HHH(jungle)
///    |
///   SSE - III(islands, inside SSE)      JJJ(tundra) next to HHH and SSE
/// ```
pub const MAP: &str = r#"
name = "Testland"
[[area]]
code = "AAA"
terrain = "plains"
adjacent = ["BBB", "DDD", "NSE"]
[[area]]
code = "BBB"
terrain = "forest"
adjacent = ["AAA", "CCC", "EEE"]
[[area]]
code = "CCC"
terrain = "mountains"
adjacent = ["BBB", "FFF"]
[[area]]
code = "DDD"
terrain = "lowlands"
adjacent = ["AAA", "EEE", "NSE", "ESE"]
[[area]]
code = "EEE"
terrain = "uplands"
adjacent = ["BBB", "DDD", "FFF", "GGG"]
[[area]]
code = "FFF"
terrain = "wetlands"
adjacent = ["CCC", "EEE", "HHH"]
[[area]]
code = "GGG"
terrain = "desert"
adjacent = ["EEE", "HHH", "ESE"]
[[area]]
code = "HHH"
terrain = "jungle"
adjacent = ["FFF", "GGG", "JJJ"]
[[area]]
code = "III"
terrain = "islands"
adjacent = ["SSE"]
[[area]]
code = "JJJ"
terrain = "tundra"
adjacent = ["HHH", "SSE"]
[[area]]
code = "NSE"
terrain = "sea"
adjacent = ["ESE"]
[[area]]
code = "ESE"
terrain = "sea"
adjacent = ["SSE"]
[[area]]
code = "SSE"
terrain = "sea"
[[empire]]
code = "AA"
name = "Alpha"
home = "AAA"
[[empire]]
code = "BB"
name = "Beta"
home = "GGG"
[[empire]]
code = "CC"
name = "Gamma"
home = "JJJ"
"#;

pub fn map() -> Map {
    Map::from_toml(MAP, "testland.toml").expect("test map is valid")
}

/// A state from scenario TOML (without the `map` line, which is added here).
pub fn scenario(body: &str) -> (Map, GameState) {
    let m = map();
    let text = format!("map = \"testland.toml\"\n{body}");
    let sc = Scenario::parse(&text, "test.toml").unwrap_or_else(|e| panic!("{e}"));
    let st = sc
        .build(&m, &text, "test.toml")
        .unwrap_or_else(|e| panic!("{e}"));
    (m, st)
}

/// Reads `VERB FROM TO NUMBER` with `-` for blanks; the number may be `AB-n`.
pub fn order(line: &str) -> Order {
    let w: Vec<&str> = line.split_whitespace().collect();
    let verb = Verb::parse(w[0]).unwrap_or_else(|| panic!("verb in {line}"));
    let field = |i: usize| w.get(i).filter(|s| **s != "-").map(|s| s.to_string());
    let number = match w.get(3).copied() {
        None | Some("-") => Quantity::All,
        Some(n) if n.to_ascii_uppercase().starts_with("AB-") => {
            Quantity::AllBut(n[3..].parse().expect("all-but number"))
        }
        Some(n) => Quantity::Exactly(n.parse().expect("number")),
    };
    Order {
        verb,
        from: field(1),
        to: field(2),
        number,
    }
}

pub fn sheet(lines: &[&str]) -> Turnsheet {
    Turnsheet {
        actions: lines
            .iter()
            .enumerate()
            .map(|(i, l)| OrderLine {
                line: i as u32 + 1,
                text: l.to_string(),
                order: Ok(order(l)),
                blank: false,
            })
            .collect(),
        ..Turnsheet::default()
    }
}

pub fn e(code: &str) -> EmpireCode {
    EmpireCode::parse(code).unwrap()
}

/// Plays one turn with the given orders per empire.
pub fn play(m: &Map, st: &GameState, orders: &[(&str, &[&str])]) -> TurnOutcome {
    let mut all = BTreeMap::new();
    for (code, lines) in orders {
        all.insert(e(code), sheet(lines));
    }
    adjudicate(m, st, &all).unwrap_or_else(|err| panic!("{err}"))
}

/// The outcomes of one empire's actions, in order.
pub fn outcomes(t: &TurnOutcome, empire: &str) -> Vec<Outcome> {
    t.events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::Action {
                empire: x, outcome, ..
            } if x.as_str() == empire => Some(outcome.clone()),
            _ => None,
        })
        .collect()
}

/// The BPs the n-th action (0-based) of an empire spent.
pub fn spent(t: &TurnOutcome, empire: &str, n: usize) -> u32 {
    t.events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::Action {
                empire: x, spent, ..
            } if x.as_str() == empire => Some(*spent),
            _ => None,
        })
        .nth(n)
        .unwrap_or_else(|| panic!("no action {n} of {empire}"))
}

/// The failure reason of the n-th action (0-based) of an empire; panics if it did not fail.
pub fn failure(t: &TurnOutcome, empire: &str, n: usize) -> String {
    match &outcomes(t, empire)[n] {
        Outcome::Failed { reason } => reason.clone(),
        other => panic!("action {n} of {empire} did not fail: {other:?}"),
    }
}

pub fn done(t: &TurnOutcome, empire: &str, n: usize) {
    let o = &outcomes(t, empire)[n];
    assert!(o.succeeded(), "action {n} of {empire}: {o:?}");
}

pub fn area<'a>(m: &Map, st: &'a GameState, code: &str) -> &'a empires_rules::state::AreaState {
    st.area(m.find(code).unwrap())
}

pub fn emp<'a>(st: &'a GameState, code: &str) -> &'a empires_rules::state::EmpireState {
    st.empire(e(code)).unwrap()
}

pub fn events_of<'a>(t: &'a TurnOutcome, f: impl Fn(&What) -> bool + 'a) -> Vec<&'a Event> {
    t.events.iter().filter(|ev| f(&ev.what)).collect()
}

/// Two empires with a few areas each and no unowned land areas taking random actions
/// (every land area is owned), so turns are fully predictable.
pub const BASIC: &str = r#"
next_census = 9
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
bps = 30
treasury = 10
army_reserve = 6
navy_reserve = 3
[[empire]]
code = "BB"
bps = 30
treasury = 10
army_reserve = 6
[[empire]]
code = "CC"
bps = 10
[[area]]
code = "AAA"
owner = "AA"
population = 4
armies = 6
forts = 1
base = { entrance = "NSE", ships = 4, laid_up = 2 }
[[area]]
code = "BBB"
owner = "AA"
population = 3
armies = 2
[[area]]
code = "CCC"
owner = "AA"
population = 2
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
forts = 1
[[area]]
code = "FFF"
owner = "BB"
population = 2
armies = 1
[[area]]
code = "GGG"
owner = "BB"
population = 4
armies = 4
base = { entrance = "ESE", ships = 2 }
[[area]]
code = "HHH"
owner = "CC"
population = 2
armies = 2
[[area]]
code = "III"
owner = "CC"
population = 1
[[area]]
code = "JJJ"
owner = "CC"
population = 3
armies = 1
"#;

pub fn basic() -> (Map, GameState) {
    scenario(BASIC)
}
