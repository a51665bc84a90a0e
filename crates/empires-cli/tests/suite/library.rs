//! The library functions behind the commands, called directly.

use crate::common;

use common::*;
use empires_cli::commands::{new, status, turn};
use empires_cli::gamedir::GameDir;
use empires_host::gamedir::{sha256_hex, to_pretty_json};
use empires_rules::Map;
use empires_ruleset::gamedir::{self, TurnFiles};
use std::fs;

fn tutorial() -> Map {
    let text = fs::read_to_string(tutorial_map()).unwrap();
    gamedir::parse_map(&text, "tutorial.toml").unwrap()
}

fn map_start(seed: u64) -> new::Source {
    new::Source::Map(new::MapStart {
        map: tutorial_map(),
        seed,
        variant: None,
        players: vec![],
        name: None,
        actions_per_turn: None,
        dropout_after: None,
        victory_from_turn: None,
    })
}

#[test]
fn commands_can_be_called_as_functions() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    let made = new::run(&dir, &map_start(5)).unwrap();
    assert_eq!(made.state.turn, 0);
    assert!(made.to_string().contains("created game"));
    let report = turn::run(&dir).unwrap();
    assert_eq!(report.turn, 1);
    assert_eq!(report.failed, 0);
    assert_eq!(report.computer_written.len(), 4);
    assert!(!report.finished);
    let st = status::run(&dir).unwrap();
    assert_eq!(st.state.turn, 1);
    assert!(st.waiting.is_empty());
    assert!(st.warnings.is_empty(), "{:?}", st.warnings);
}

#[test]
fn state_errors_name_file_line_and_field() {
    let map = tutorial();
    let dir = tempfile::tempdir().unwrap();
    new::run(&dir.path().join("g"), &map_start(1)).unwrap();
    let good = fs::read_to_string(dir.path().join("g/turns/0000/state.json")).unwrap();
    let state = gamedir::parse_state(&good, "s.json", &map).unwrap();

    let bad = good.replacen("\"armies\": 3", "\"armies\": -3", 1);
    let line = bad.lines().position(|l| l.contains("-3")).unwrap() + 1;
    let e = gamedir::parse_state(&bad, "s.json", &map)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!("s.json: line {line}, column ")),
        "{e}"
    );
    assert!(e.contains("field `areas[0].armies`"), "{e}");

    let e = gamedir::parse_state("{}", "s.json", &map)
        .unwrap_err()
        .to_string();
    assert!(e.contains("missing field `format`"), "{e}");

    let e = gamedir::parse_state(&format!("{good} x"), "s.json", &map)
        .unwrap_err()
        .to_string();
    assert!(e.contains("trailing characters"), "{e}");

    let mut other = state.clone();
    other.format = 99;
    let text = to_pretty_json(&other, "state").unwrap();
    let e = gamedir::parse_state(&text, "s.json", &map)
        .unwrap_err()
        .to_string();
    assert!(e.contains("field `format`") && e.contains("99"), "{e}");

    let mut other = state.clone();
    other.order_of_play.pop();
    let text = to_pretty_json(&other, "state").unwrap();
    let e = gamedir::parse_state(&text, "s.json", &map)
        .unwrap_err()
        .to_string();
    assert!(e.contains("s.json: field `order_of_play`"), "{e}");
}

#[test]
fn encoding_is_stable() {
    let map = tutorial();
    let dir = tempfile::tempdir().unwrap();
    new::run(&dir.path().join("g"), &map_start(1)).unwrap();
    let text = fs::read_to_string(dir.path().join("g/turns/0000/state.json")).unwrap();
    let state = gamedir::parse_state(&text, "s.json", &map).unwrap();
    // Reading and writing back gives the same bytes.
    let files = TurnFiles::new(&state, None).unwrap();
    assert_eq!(files.state, text);
    assert_eq!(files.hash, sha256_hex(text.as_bytes()));
    let hash = fs::read_to_string(dir.path().join("g/turns/0000/state.sha256")).unwrap();
    assert_eq!(hash, format!("{}\n", files.hash));
}

#[test]
fn a_failed_write_leaves_the_directory_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("g");
    new::run(&root, &map_start(1)).unwrap();
    let game = GameDir::at(&root);
    fs::write(game.orders_dir().join("EN.txt"), "TAX\n").unwrap();
    // Turn 1 already exists (as a plain file in the way): the commit must fail and put the
    // player's turnsheet back, and only it (not the computer's for the others).
    fs::write(game.turn_dir(1), "in the way").unwrap();
    assert!(turn::run(&root).is_err());
    assert_eq!(names(&game.orders_dir()), ["EN.txt"]);
    assert!(!game.tmp_dir(1).exists());
    fs::remove_file(game.turn_dir(1)).unwrap();
    // And the write itself works.
    turn::run(&root).unwrap();
    let kept = names(&game.turn_dir(1).join("orders"));
    assert!(kept.contains(&"EN.txt".to_string()), "{kept:?}");
    assert!(kept.contains(&"SC.txt".to_string()), "{kept:?}");
    assert!(names(&game.orders_dir()).is_empty());
    assert_eq!(game.current_turn().unwrap(), 1);
}

#[test]
fn two_commands_never_work_on_one_game_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("g");
    new::run(&dir, &map_start(5)).unwrap();
    let open = gamedir::Game::load(&dir).unwrap();
    let err = turn::run(&dir).unwrap_err();
    assert!(err.to_string().contains("another empires command"), "{err}");
    drop(open);
    assert_eq!(turn::run(&dir).unwrap().turn, 1);
}
