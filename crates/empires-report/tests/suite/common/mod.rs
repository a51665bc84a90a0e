//! A fixed game on the tutorial map, one turn played with the example turnsheets.
#![allow(dead_code)]

use empires_rules::setup::{NewGame, new_game};
use empires_rules::{EmpireCode, Map, Options, TurnOutcome, Variant, adjudicate};
use std::collections::BTreeMap;

pub fn tutorial() -> Map {
    let text = include_str!("../../../../../maps/tutorial.toml");
    Map::from_toml(text, "tutorial.toml").unwrap()
}

pub fn code(s: &str) -> EmpireCode {
    EmpireCode::parse(s).unwrap()
}

/// Turn 1 of the tutorial game, seed 5, with the example orders.
pub fn turn_one() -> (Map, empires_rules::GameState, TurnOutcome) {
    let map = tutorial();
    let mut players = BTreeMap::new();
    players.insert(code("EN"), "Alice".to_string());
    players.insert(code("SC"), "Bob".to_string());
    let st = new_game(
        &map,
        &NewGame {
            name: "Tutorial".into(),
            variant: Variant::Medieval,
            seed: 5,
            players,
            options: Options::default(),
        },
    )
    .unwrap();
    let mut orders = BTreeMap::new();
    for (c, text) in [
        (
            "EN",
            include_str!("../../../../../maps/tutorial-orders/EN.txt"),
        ),
        (
            "SC",
            include_str!("../../../../../maps/tutorial-orders/SC.txt"),
        ),
        (
            "IR",
            include_str!("../../../../../maps/tutorial-orders/IR.txt"),
        ),
        (
            "WA",
            include_str!("../../../../../maps/tutorial-orders/WA.txt"),
        ),
    ] {
        orders.insert(code(c), empires_orders::parse_turnsheet(text));
    }
    let out = adjudicate(&map, &st, &orders).unwrap();
    (map, st, out)
}

/// The turn a report is rendered from, with no computer-written orders and no GM messages.
pub fn turn<'a>(map: &'a Map, out: &'a TurnOutcome) -> empires_report::Turn<'a> {
    empires_report::Turn {
        map,
        state: &out.state,
        events: &out.events,
        computer_written: &[],
        gm_messages: &[],
        sheet_game: None,
    }
}
