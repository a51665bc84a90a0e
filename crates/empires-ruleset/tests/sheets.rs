//! One blank turnsheet for every door: the report's, the mail door's and the web editor's
//! sheet are the same text, headed with the name the host keeps the game by (not its
//! title), with the empire's own number of actions (2.6).

use empires_host::ruleset::{Game, GameText, Ruleset};
use empires_rules::EmpireCode;
use empires_rules::setup::NewGame;
use empires_ruleset::{Empires, EmpiresGame, Loaded};
use std::sync::Arc;

#[test]
fn every_way_to_a_blank_sheet_gives_one_text_with_the_empires_own_actions() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../maps/tutorial.toml"
    ))
    .unwrap();
    let map = empires_ruleset::gamedir::parse_map(&text, "tutorial.toml").unwrap();
    let setup = NewGame::without_players(
        "The Northern Wars",
        map.variant.unwrap_or(empires_rules::Variant::World),
        3,
    );
    let mut state = empires_ruleset::create::start(&map, "tutorial.toml", &setup).unwrap();
    let sc = EmpireCode::parse("SC").unwrap();
    // 2.6: an empire may have its own limit, below the game's.
    state
        .empires
        .iter_mut()
        .find(|e| e.code == sc)
        .unwrap()
        .actions_per_turn = Some(10);
    let json = empires_host::gamedir::to_pretty_json(&state, "state.json").unwrap();
    let loaded = Arc::new(Loaded {
        map_text: text.clone(),
        map_script: None,
        map,
        turn: 0,
        state,
        warnings: Vec::new(),
    });
    // The report's sheet and the mail door's attachment.
    let reported = loaded.blank_sheet("nw", sc);
    // The web editor's and the mail door's, from the game read once.
    let opened = EmpiresGame::new("nw", loaded.clone()).sheet("SC").unwrap();
    // `empires sheet --db`, from the game's texts.
    let texts = Empires
        .sheet(
            GameText {
                name: "nw",
                map: &text,
                state: &json,
                kept: None,
            },
            "SC",
        )
        .unwrap();
    assert_eq!(reported, opened);
    assert_eq!(reported, texts);
    assert!(reported.contains("GAME nw\n"), "{reported}");
    assert!(!reported.contains("Northern Wars"), "{reported}");
    assert!(
        reported.contains("\n10.\n") && !reported.contains("\n11.\n"),
        "{reported}"
    );
}
