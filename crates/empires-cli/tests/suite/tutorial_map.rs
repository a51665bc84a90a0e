//! The example files in `maps/`: the tutorial map is a sound, believable map, the scenario
//! builds on it, and the example turnsheets read as intended.

use crate::common;

use common::*;
use empires_rules::map::MapFile;
use empires_rules::scenario::Scenario;
use empires_rules::{AreaCode, Map};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;

fn map_text() -> String {
    fs::read_to_string(tutorial_map()).unwrap()
}

#[test]
fn the_tutorial_map_loads_and_has_the_expected_shape() {
    let map = Map::from_toml(&map_text(), "tutorial.toml").unwrap();
    let land = map.areas().iter().filter(|a| a.is_land()).count();
    let sea = map.areas().iter().filter(|a| a.is_sea()).count();
    assert_eq!((land, sea), (25, 6));
    let codes: Vec<&str> = map.empires.iter().map(|e| e.code.as_str()).collect();
    assert_eq!(codes, ["EN", "SC", "IR", "WA"]);
    assert!(map.areas().iter().all(|a| a.position.is_some()));
    // The Midlands are the only inland English area.
    let inland: Vec<&str> = map
        .areas()
        .iter()
        .filter(|a| a.is_land() && !a.coastal)
        .map(|a| a.code.as_str())
        .collect();
    assert_eq!(inland, ["MID"]);
}

#[test]
fn every_border_is_listed_on_both_sides() {
    let file: MapFile = toml::from_str(&map_text()).unwrap();
    let listed: BTreeMap<AreaCode, BTreeSet<AreaCode>> = file
        .areas
        .iter()
        .map(|a| (a.code, a.adjacent.iter().copied().collect()))
        .collect();
    for (a, ns) in &listed {
        for n in ns {
            assert!(
                listed[n].contains(a),
                "{a} lists {n} but {n} does not list {a}"
            );
        }
    }
}

#[test]
fn every_area_can_be_reached() {
    let map = Map::from_toml(&map_text(), "tutorial.toml").unwrap();
    // Land and sea together: one connected map.
    let start = map.find("LON").unwrap();
    let mut seen = vec![start];
    let mut queue = VecDeque::from([start]);
    while let Some(a) = queue.pop_front() {
        for &n in map.neighbours(a) {
            if !seen.contains(&n) {
                seen.push(n);
                queue.push_back(n);
            }
        }
    }
    assert_eq!(seen.len(), map.areas().len());
    // The seas form one body of water.
    let seas: Vec<_> = map.ids().filter(|&i| map.area(i).is_sea()).collect();
    for &a in &seas {
        for &b in &seas {
            assert!(map.sea_steps(a, b).is_some());
        }
    }
    // Every land area touches another land area or the sea.
    for id in map.ids() {
        assert!(!map.neighbours(id).is_empty(), "{}", map.code(id));
    }
}

#[test]
fn the_tutorial_scenario_builds() {
    let path = repo().join("maps/tutorial-scenario.toml");
    let text = fs::read_to_string(&path).unwrap();
    let scenario = Scenario::parse(&text, "tutorial-scenario.toml").unwrap();
    assert_eq!(scenario.map, "tutorial.toml");
    let map = Map::from_toml(&map_text(), "tutorial.toml").unwrap();
    let state = scenario
        .build(&map, &text, "tutorial-scenario.toml")
        .unwrap();
    assert_eq!(state.turn, 3);
    assert_eq!(state.empires.len(), 4);
    let area = |c: &str| &state.areas[map.find(c).unwrap().index()];
    assert!(area("LON").base.is_some());
    assert!(area("ENC").fleet.is_some());
    assert_eq!(
        area("LON").watcher.map(|w| w.to_string()).as_deref(),
        Some("SC")
    );
    assert!(state.empires.iter().any(|e| e.spy.is_some()));
    assert_eq!(state.empires[2].bps, 9, "Ireland's balance is given");
}

#[test]
fn the_example_orders_read_as_written() {
    for code in ["EN", "SC", "IR", "WA"] {
        let text = fs::read_to_string(tutorial_orders().join(format!("{code}.txt"))).unwrap();
        let sheet = empires_orders::parse_turnsheet(&text);
        assert!(sheet.actions.len() >= 5, "{code}");
        for line in &sheet.actions {
            // The Welsh sheet has one deliberate mistake, to show how it is reported.
            if line.text.starts_with("MARCH") {
                assert_eq!(code, "WA");
                assert!(line.order.is_err());
            } else {
                assert!(
                    line.order.is_ok(),
                    "{code} line {}: {:?}",
                    line.line,
                    line.order
                );
            }
        }
    }
}
