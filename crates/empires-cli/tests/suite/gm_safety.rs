//! A GM with a safety net: `turn` will not write players' turns for them unasked, a turn can
//! be taken back with exactly the players' turnsheets pending again, `status` says who is
//! in, out or a dummy.

use crate::common;

use common::*;
use std::fs;

/// The tutorial game with two players, EN and SC, and two dummies; `extra` options for `new`.
fn game_with(tmp: &tempfile::TempDir, extra: &[&str]) -> std::path::PathBuf {
    let dir = tmp.path().join("game");
    let map = tutorial_map();
    let mut args = vec![
        "new",
        s(&dir),
        "--map",
        s(&map),
        "--seed",
        "3",
        "--player",
        "EN=Ann",
        "--player",
        "SC=Bo",
    ];
    args.extend_from_slice(extra);
    ok(&args);
    dir
}

fn game(tmp: &tempfile::TempDir) -> std::path::PathBuf {
    game_with(tmp, &[])
}

#[test]
fn turn_lists_the_players_without_orders_and_waits_for_yes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = game(&tmp);
    fs::write(dir.join("orders/EN.txt"), "TAX\n").unwrap();
    let err = fails(&["turn", s(&dir)]);
    assert!(err.contains("no orders yet from SC (Bo)"), "{err}");
    assert!(err.contains("--yes"), "{err}");
    assert!(!dir.join("turns/0001").exists(), "nothing was played");
    assert_eq!(
        fs::read_to_string(dir.join("orders/EN.txt")).unwrap(),
        "TAX\n"
    );
    // Dummies (IR, WA) never hold a turn up; with --yes the computer covers SC.
    let out = stdout(&ok(&["turn", s(&dir), "--yes"]));
    assert!(
        out.contains("written by the computer for: IR SC WA"),
        "{out}"
    );
}

#[test]
fn undo_puts_back_exactly_what_the_players_sent() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = game(&tmp);
    fs::write(dir.join("orders/EN.txt"), "TAX\n# England\n").unwrap();
    fs::write(dir.join("orders/SC.txt"), "TAX\n# Scotland\n").unwrap();
    fs::write(dir.join("orders/gm.txt"), "Welcome.\n").unwrap();
    ok(&["turn", s(&dir)]);
    let first = fs::read(dir.join("turns/0001/state.json")).unwrap();
    assert!(
        dir.join("turns/0001/orders/IR.txt").exists(),
        "the computer wrote IR's"
    );

    // A sheet already sent for the next turn: undo would mix the two, so it refuses.
    fs::write(dir.join("orders/EN.txt"), "GROW LON\n").unwrap();
    let err = fails(&["undo", s(&dir)]);
    assert!(err.contains("EN.txt"), "{err}");
    assert!(dir.join("turns/0001").exists());
    fs::remove_file(dir.join("orders/EN.txt")).unwrap();

    let out = stdout(&ok(&["undo", s(&dir)]));
    assert!(out.contains("turn 1 undone"), "{out}");
    assert!(!dir.join("turns/0001").exists());
    let mut pending: Vec<String> = fs::read_dir(dir.join("orders"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pending.sort();
    // The players' and the GM's, as sent; not the computer's.
    assert_eq!(pending, vec!["EN.txt", "SC.txt", "gm.txt"]);
    assert_eq!(
        fs::read_to_string(dir.join("orders/EN.txt")).unwrap(),
        "TAX\n# England\n"
    );
    let status = stdout(&ok(&["status", s(&dir)]));
    assert!(status.contains("next turn 1"), "{status}");

    // Played again, the turn is the same to the byte.
    ok(&["turn", s(&dir)]);
    assert_eq!(fs::read(dir.join("turns/0001/state.json")).unwrap(), first);

    // Nothing before the start.
    ok(&["undo", s(&dir)]);
    for f in ["EN.txt", "SC.txt", "gm.txt"] {
        fs::remove_file(dir.join("orders").join(f)).unwrap();
    }
    let err = fails(&["undo", s(&dir)]);
    assert!(err.contains("starting position"), "{err}");
}

#[test]
fn status_says_who_has_sent_orders_who_is_a_dummy_and_who_dropped_out() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = game_with(&tmp, &["--dropout-after", "2", "--victory-from-turn", "6"]);
    let state: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("turns/0000/state.json")).unwrap())
            .unwrap();
    assert_eq!(state["options"]["dropout_after"], 2);
    assert_eq!(state["options"]["victory_from_turn"], 6);
    let row = |out: &str, code: &str| {
        out.lines()
            .find(|l| l.starts_with(code))
            .unwrap_or_else(|| panic!("{code} in {out}"))
            .to_string()
    };
    fs::write(dir.join("orders/EN.txt"), "TAX\n").unwrap();
    let out = stdout(&ok(&["status", s(&dir)]));
    assert!(row(&out, "EN").ends_with("sent"), "{out}");
    assert!(row(&out, "SC").ends_with("none yet"), "{out}");
    assert!(row(&out, "IR").contains("dummy"), "{out}");
    // SC misses two turns in a row: with --dropout-after 2 it has dropped out (2.5).
    ok(&["turn", s(&dir), "--yes"]);
    let out = stdout(&ok(&["status", s(&dir)]));
    assert!(row(&out, "SC").contains("missed 1 turn"), "{out}");
    assert!(row(&out, "EN").contains("playing"), "{out}");
    ok(&["turn", s(&dir), "--yes"]);
    let out = stdout(&ok(&["status", s(&dir)]));
    assert!(row(&out, "SC").contains("dropped out (2 missed)"), "{out}");
}

#[test]
fn a_maps_empires_and_areas_are_listed_and_wrong_codes_name_the_right_ones() {
    let out = stdout(&ok(&["map", "show", "tutorial"]));
    assert!(
        out.starts_with("British Isles (Medieval Empires): 25 land areas, 6 sea areas, 4 empires"),
        "{out}"
    );
    assert!(out.contains("  EN  England"), "{out}");
    assert!(
        out.contains("  LON  London                   lowlands   KEN WSX MID NFK SNS"),
        "{out}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let dir = game(&tmp);
    let err = fails(&["report", s(&dir), "--empire", "FR"]);
    assert!(
        err.contains("FR is not an empire of this game; its empires are EN SC IR WA"),
        "{err}"
    );
    let sheet = tmp.path().join("x.txt");
    fs::write(&sheet, "TAX\n").unwrap();
    let err = fails(&["check", s(&dir), "--empire", "FR", s(&sheet)]);
    assert!(err.contains("its empires are EN SC IR WA"), "{err}");
}

#[test]
fn a_printable_map_of_any_empire_and_turn_on_request() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = game(&tmp);
    ok(&["turn", s(&dir), "--yes"]);
    let png = tmp.path().join("en0.png");
    let out = stdout(&ok(&[
        "report",
        s(&dir),
        "--empire",
        "EN",
        "--turn",
        "0",
        "--format",
        "png",
        "--out",
        s(&png),
    ]));
    assert!(out.contains("wrote"), "{out}");
    let bytes = fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // Drawn from the empire's knowledge of that turn: the same request, the same bytes.
    let again = tmp.path().join("again.png");
    ok(&[
        "report",
        s(&dir),
        "--empire",
        "EN",
        "--turn",
        "0",
        "--format",
        "png",
        "--out",
        s(&again),
    ]);
    assert_eq!(fs::read(&again).unwrap(), bytes);
    let err = fails(&[
        "report",
        s(&dir),
        "--empire",
        "EN",
        "--turn",
        "5",
        "--format",
        "png",
    ]);
    assert!(err.contains("turn 5 has not been played"), "{err}");
}
