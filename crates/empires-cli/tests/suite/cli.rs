//! The real `empires` binary on the tutorial map: creating games, playing turns, status,
//! determinism, recovery and error messages.

use crate::common;

use common::*;
use serde_json::Value;
use std::fs;
use std::path::Path;

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn events(dir: &Path, turn: &str) -> Vec<Value> {
    let v: Value = serde_json::from_str(&read(&dir.join("turns").join(turn).join("events.json")))
        .expect("events.json is JSON");
    v.as_array().expect("events.json is an array").clone()
}

fn sha256_of(p: &Path) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(fs::read(p).unwrap());
    d.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn new_turn_turn_on_the_tutorial_map() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    let o = ok(&[
        "new",
        s(&game),
        "--map",
        s(&tutorial_map()),
        "--seed",
        "1",
        "--player",
        "EN=Alice",
        "--player",
        "sc=Bob",
        "--name",
        "Tutorial",
    ]);
    assert!(
        stdout(&o).contains("created game \"Tutorial\""),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        names(&game),
        [
            ".lock",
            ".map.json",
            "game.toml",
            "map.js",
            "map.toml",
            "orders",
            "turns"
        ]
    );
    // The game says its ruleset and the name its sheets carry.
    let said = read(&game.join("game.toml"));
    assert!(
        said.contains("ruleset = \"empires\"") && said.contains("Tutorial"),
        "{said}"
    );
    assert_eq!(names(&game.join("turns")), ["0000"]);
    assert_eq!(
        names(&game.join("turns/0000")),
        ["reports", "state.json", "state.sha256"]
    );
    // The map is copied byte for byte, so the game stands on its own.
    assert_eq!(read(&game.join("map.toml")), read(&tutorial_map()));
    let state: Value = serde_json::from_str(&read(&game.join("turns/0000/state.json"))).unwrap();
    assert_eq!(state["turn"], 0);
    assert_eq!(state["variant"], "medieval");
    assert_eq!(state["empires"][0]["player"], "Alice");
    assert_eq!(state["empires"][1]["player"], "Bob");
    assert!(state["empires"][2].get("player").is_none(), "IR is a dummy");

    // Turn 1 with the example orders.
    copy_tutorial_orders(&game);
    let o = ok(&["status", s(&game)]);
    assert!(stdout(&o).contains("next turn 1"), "{}", stdout(&o));
    let sent = stdout(&o).lines().filter(|l| l.ends_with(" sent")).count();
    assert_eq!(sent, 4, "{}", stdout(&o));
    let o = ok(&["turn", s(&game)]);
    let out = stdout(&o);
    assert!(out.contains("turn 1 of \"Tutorial\" adjudicated"), "{out}");
    // The Welsh sheet has one line that cannot be read (and an attack that must fail).
    assert!(out.contains("failed actions"), "{out}");
    let t1 = game.join("turns/0001");
    assert_eq!(
        names(&t1),
        [
            "events.json",
            "orders",
            "reports",
            "state.json",
            "state.sha256",
            "turn.json"
        ]
    );
    assert_eq!(
        names(&t1.join("orders")),
        ["EN.txt", "IR.txt", "SC.txt", "WA.txt"]
    );
    assert_eq!(
        read(&t1.join("orders/EN.txt")),
        read(&tutorial_orders().join("EN.txt"))
    );
    assert!(names(&game.join("orders")).is_empty(), "a fresh orders/");
    let hash = read(&t1.join("state.sha256"));
    assert_eq!(hash, format!("{}\n", sha256_of(&t1.join("state.json"))));
    assert!(
        out.contains(hash.trim()),
        "the summary shows the hash: {out}"
    );
    assert!(read(&t1.join("state.json")).ends_with("}\n"));
    assert!(read(&t1.join("events.json")).ends_with("]\n"));
    let ev = events(&game, "0001");
    let actions = ev.iter().filter(|e| e["what"]["type"] == "action").count();
    assert!(actions >= 20, "{actions} actions");
    assert!(out.contains(&format!("{} events", ev.len())), "{out}");

    // Turn 2 without orders: everyone misses the turn, the computer writes every turnsheet
    // (rule 2.5) and keeps them with the turn.
    let o = ok(&["turn", s(&game), "--yes"]);
    assert!(
        stdout(&o).contains("written by the computer for: EN IR SC WA"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        names(&game.join("turns/0002/orders")),
        ["EN.txt", "IR.txt", "SC.txt", "WA.txt"]
    );
    let state: Value = serde_json::from_str(&read(&game.join("turns/0002/state.json"))).unwrap();
    assert_eq!(state["turn"], 2);
    assert_eq!(state["empires"][0]["missed_turns"], 1);

    let o = ok(&["status", s(&game)]);
    let out = stdout(&o);
    assert!(out.contains("turn 2 played; next turn 3"), "{out}");
    assert!(out.contains("order of play:"), "{out}");
    for code in ["EN England", "SC Scotland", "IR Ireland", "WA Wales"] {
        assert!(out.contains(code), "{out}");
    }
    assert!(out.contains("Alice") && out.contains("(dummy)"), "{out}");
}

#[test]
fn the_same_game_and_orders_give_the_same_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    new_tutorial(&a);
    // A second game made the same way is identical...
    let c = tmp.path().join("c");
    new_tutorial(&c);
    assert_eq!(
        fs::read(a.join("turns/0000/state.json")).unwrap(),
        fs::read(c.join("turns/0000/state.json")).unwrap()
    );
    // ...and a copy of a game plays the same turn to the byte.
    copy_dir(&a, &b);
    copy_tutorial_orders(&a);
    copy_tutorial_orders(&b);
    let out_a = stdout(&ok(&["turn", s(&a)]));
    let out_b = stdout(&ok(&["turn", s(&b)]));
    for f in ["state.json", "events.json", "state.sha256"] {
        let fa = fs::read(a.join("turns/0001").join(f)).unwrap();
        let fb = fs::read(b.join("turns/0001").join(f)).unwrap();
        assert!(fa == fb, "turns/0001/{f} differs");
    }
    let hash_line = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("state sha256"))
            .map(str::to_string)
    };
    assert_eq!(hash_line(&out_a), hash_line(&out_b));
    // A different seed gives a different game.
    let d = tmp.path().join("d");
    ok(&["new", s(&d), "--map", s(&tutorial_map()), "--seed", "2"]);
    assert_ne!(
        fs::read(a.join("turns/0000/state.json")).unwrap(),
        fs::read(d.join("turns/0000/state.json")).unwrap()
    );
}

#[test]
fn new_refuses_a_directory_that_is_not_empty() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    fs::create_dir(&game).unwrap();
    fs::write(game.join("precious.txt"), "keep me").unwrap();
    let err = fails(&["new", s(&game), "--map", s(&tutorial_map()), "--seed", "1"]);
    assert!(err.contains("not empty"), "{err}");
    assert_eq!(names(&game), ["precious.txt"]);
    // An existing empty directory is fine.
    let empty = tmp.path().join("empty");
    fs::create_dir(&empty).unwrap();
    new_tutorial(&empty);
    // So is creating over an existing game: refused.
    let err = fails(&["new", s(&empty), "--map", s(&tutorial_map()), "--seed", "3"]);
    assert!(err.contains("not empty"), "{err}");
}

#[test]
fn new_checks_its_arguments() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    let map = tutorial_map();
    let err = fails(&[
        "new",
        s(&game),
        "--map",
        s(&map),
        "--seed",
        "1",
        "--player",
        "FR=Jean",
    ]);
    assert!(
        err.contains("FR") && err.contains("not an empire of this map"),
        "{err}"
    );
    assert!(!game.exists(), "nothing is left behind");
    let err = fails(&[
        "new",
        s(&game),
        "--map",
        s(&map),
        "--seed",
        "1",
        "--player",
        "EN=A",
        "--player",
        "en=B",
    ]);
    assert!(err.contains("EN") && err.contains("twice"), "{err}");
    // Usage mistakes are clap's: exit code 2 with a usage message, never a panic.
    for args in [
        vec!["new", s(&game), "--map", s(&map)],
        vec!["new", s(&game), "--seed", "1"],
        vec!["new", s(&game), "--map", s(&map), "--seed", "x"],
        vec![
            "new",
            s(&game),
            "--map",
            s(&map),
            "--seed",
            "1",
            "--variant",
            "roman",
        ],
        vec![
            "new",
            s(&game),
            "--map",
            s(&map),
            "--seed",
            "1",
            "--player",
            "England",
        ],
        vec!["new", s(&game), "--scenario", "x.toml", "--seed", "1"],
    ] {
        let o = empires(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
    assert!(!game.exists());
    let err = fails(&[
        "new",
        s(&game),
        "--map",
        s(&tmp.path().join("nope.toml")),
        "--seed",
        "1",
    ]);
    assert!(err.contains("nope.toml"), "{err}");
}

#[test]
fn options_reach_the_state() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    ok(&[
        "new",
        s(&game),
        "--map",
        s(&tutorial_map()),
        "--seed",
        "9",
        "--variant",
        "world",
        "--actions-per-turn",
        "3",
    ]);
    let state: Value = serde_json::from_str(&read(&game.join("turns/0000/state.json"))).unwrap();
    assert_eq!(state["variant"], "world");
    assert_eq!(state["options"]["actions_per_turn"], 3);
    assert_eq!(state["game"], "British Isles");
    assert_eq!(
        state["empires"][0]["air_force"], 5,
        "World Empires has air forces"
    );
}

#[test]
fn a_scenario_game_starts_after_its_turn() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    let scenario = repo().join("maps/tutorial-scenario.toml");
    let o = ok(&["new", s(&game), "--scenario", s(&scenario)]);
    assert!(stdout(&o).contains("The Northern Wars"), "{}", stdout(&o));
    assert_eq!(names(&game.join("turns")), ["0003"]);
    assert_eq!(read(&game.join("map.toml")), read(&tutorial_map()));
    let out = stdout(&ok(&["status", s(&game)]));
    assert!(out.contains("turn 3 played; next turn 4"), "{out}");
    assert!(out.contains("Gwynedd and Deheubarth"), "{out}");
    let out = stdout(&ok(&["turn", s(&game), "--yes"]));
    assert!(out.contains("turn 4 of \"The Northern Wars\""), "{out}");
    assert_eq!(names(&game.join("turns")), ["0003", "0004"]);
}

#[test]
fn a_bad_scenario_names_the_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    fs::copy(tutorial_map(), tmp.path().join("tutorial.toml")).unwrap();
    let scenario = tmp.path().join("bad.toml");
    // A value of the wrong type on line 5.
    fs::write(
        &scenario,
        "map = \"tutorial.toml\"\n\n[[empire]]\ncode = \"EN\"\ntreasury = \"lots\"\n",
    )
    .unwrap();
    let game = tmp.path().join("game");
    let err = fails(&["new", s(&game), "--scenario", s(&scenario)]);
    assert!(err.contains("bad.toml:5:"), "{err}");
    assert!(
        err.contains("lots") || err.contains("invalid type"),
        "{err}"
    );
    // An unknown field.
    fs::write(
        &scenario,
        "map = \"tutorial.toml\"\n\n[[empire]]\ncode = \"EN\"\nmoney = 5\n",
    )
    .unwrap();
    let err = fails(&["new", s(&game), "--scenario", s(&scenario)]);
    assert!(err.contains("bad.toml:") && err.contains("money"), "{err}");
    assert!(!game.exists());
    // An area that is not on the map: the line of its [[area]] table.
    fs::write(
        &scenario,
        "map = \"tutorial.toml\"\n[[empire]]\ncode = \"EN\"\n\n[[area]]\ncode = \"LON\"\nowner = \"EN\"\n\n[[area]]\ncode = \"PAR\"\n",
    )
    .unwrap();
    let err = fails(&["new", s(&game), "--scenario", s(&scenario)]);
    assert!(err.contains("bad.toml:9:") && err.contains("PAR"), "{err}");
    // A map that is missing, relative to the scenario.
    fs::write(&scenario, "map = \"elsewhere.toml\"\n").unwrap();
    let err = fails(&["new", s(&game), "--scenario", s(&scenario)]);
    assert!(err.contains("elsewhere.toml"), "{err}");
    assert!(!game.exists());
}

#[test]
fn a_bad_map_names_the_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let map = tmp.path().join("map.toml");
    let text = read(&tutorial_map()).replacen("terrain = \"wetlands\"", "terrain = \"swamp\"", 1);
    let line = text.lines().position(|l| l.contains("swamp")).unwrap() + 1;
    fs::write(&map, text).unwrap();
    let err = fails(&[
        "new",
        s(&tmp.path().join("g")),
        "--map",
        s(&map),
        "--seed",
        "1",
    ]);
    assert!(
        err.contains("map.toml") && err.contains(&format!("line {line}")),
        "{err}"
    );
    assert!(err.contains("swamp"), "{err}");
}

#[test]
fn a_corrupt_state_file_is_reported_with_file_line_and_field() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    new_tutorial(&game);
    let state_path = game.join("turns/0000/state.json");
    let good = read(&state_path);

    // Not JSON at all: cut off in the middle.
    fs::write(&state_path, &good[..good.len() / 2]).unwrap();
    for cmd in ["status", "turn"] {
        let err = fails(&[cmd, s(&game)]);
        assert!(err.contains("turns/0000/state.json"), "{err}");
        assert!(err.contains("line "), "{err}");
    }

    // A field of the wrong type.
    let bad = good.replacen("\"treasury\": 20", "\"treasury\": \"twenty\"", 1);
    let line = bad.lines().position(|l| l.contains("twenty")).unwrap() + 1;
    fs::write(&state_path, &bad).unwrap();
    let err = fails(&["status", s(&game)]);
    assert!(err.contains("state.json"), "{err}");
    assert!(err.contains(&format!("line {line}")), "{err}");
    assert!(err.contains("empires[0].treasury"), "{err}");
    assert!(err.contains("invalid type"), "{err}");

    // A field the format does not have.
    fs::write(
        &state_path,
        good.replacen("\"turn\": 0", "\"turn\": 0, \"colour\": 1", 1),
    )
    .unwrap();
    let err = fails(&["status", s(&game)]);
    assert!(err.contains("colour"), "{err}");

    // Valid JSON that does not fit the map: the consistency check names the field.
    fs::write(
        &state_path,
        good.replacen("\"owner\": \"EN\"", "\"owner\": \"FR\"", 1),
    )
    .unwrap();
    let err = fails(&["turn", s(&game)]);
    assert!(
        err.contains("state.json") && err.contains(".owner") && err.contains("FR"),
        "{err}"
    );

    // Nothing was written by the failed turns.
    assert_eq!(names(&game.join("turns")), ["0000"]);
    fs::write(&state_path, &good).unwrap();
    ok(&["turn", s(&game)]);
}

#[test]
fn a_hand_edited_state_gives_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    new_tutorial(&game);
    let state_path = game.join("turns/0000/state.json");
    let edited = read(&state_path).replacen("\"treasury\": 20", "\"treasury\": 25", 1);
    fs::write(&state_path, edited).unwrap();
    let o = ok(&["status", s(&game)]);
    assert!(
        stderr(&o).contains("warning: ") && stderr(&o).contains("state.sha256"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn files_in_orders_that_are_not_turnsheets_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    new_tutorial(&game);
    let orders = game.join("orders");
    fs::write(orders.join("fr.txt"), "TAX\n").unwrap();
    fs::write(orders.join("notes.md"), "my plans\n").unwrap();
    fs::write(orders.join("en.TXT"), "TAX\n").unwrap();
    let o = ok(&["status", s(&game)]);
    let err = stderr(&o);
    assert!(
        err.contains("warning: ") && err.contains("fr.txt") && err.contains("FR is not an empire"),
        "{err}"
    );
    assert!(err.contains("notes.md"), "{err}");
    assert!(
        stdout(&o)
            .lines()
            .any(|l| l.starts_with("EN ") && l.ends_with(" sent")),
        "en.TXT counts as England's"
    );
    let o = ok(&["turn", s(&game)]);
    assert!(stderr(&o).contains("fr.txt"), "{}", stderr(&o));
    assert!(stdout(&o).contains("orders from: EN;"), "{}", stdout(&o));
    let ev = events(&game, "0001");
    assert!(
        ev.iter()
            .any(|e| e["what"]["type"] == "action" && e["what"]["empire"] == "EN")
    );
    assert!(!ev.iter().any(|e| e["what"]["empire"] == "FR"));
    // Two sheets for one empire is an error, not a guess.
    fs::write(orders.join("SC.txt"), "TAX\n").unwrap();
    fs::write(orders.join("sc.txt"), "LEVY EDI\n").unwrap();
    let err = fails(&["turn", s(&game)]);
    assert!(err.contains("both orders for SC"), "{err}");
    assert_eq!(names(&game.join("turns")), ["0000", "0001"]);
}

#[test]
fn an_unreadable_order_line_fails_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    new_tutorial(&game);
    fs::write(
        game.join("orders/EN.txt"),
        "TAX\nMARCH LON KEN 3   # no such action\nGROW LON\n",
    )
    .unwrap();
    let o = ok(&["turn", s(&game)]);
    assert!(
        stdout(&o).contains("1 failed action") && !stdout(&o).contains("1 failed actions"),
        "{}",
        stdout(&o)
    );
    let ev = events(&game, "0001");
    let en: Vec<&Value> = ev
        .iter()
        .filter(|e| e["what"]["type"] == "action" && e["what"]["empire"] == "EN")
        .collect();
    assert_eq!(en.len(), 3, "{en:?}");
    let bad = en[1]["what"].clone();
    assert_eq!(bad["status"], "failed");
    assert_eq!(bad["line"], 2);
    assert!(
        bad["reason"]
            .as_str()
            .unwrap()
            .contains("`MARCH` is not an action"),
        "{bad}"
    );
    assert_eq!(en[0]["what"]["status"], "done");
    assert_ne!(
        en[2]["what"]["status"], "failed",
        "the turn went on: {}",
        en[2]
    );
}

#[test]
fn an_interrupted_turn_is_rolled_back_by_the_next_turn() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    new_tutorial(&game);
    // What a crash after taking the orders but before the commit leaves behind.
    let tmp_turn = game.join("turns/0001.tmp");
    fs::create_dir_all(tmp_turn.join("orders")).unwrap();
    fs::write(tmp_turn.join("state.json"), "{ \"half\": ").unwrap();
    fs::write(tmp_turn.join("orders/EN.txt"), "TAX\n").unwrap();
    fs::remove_dir(game.join("orders")).unwrap();

    // A command that only looks reports it and changes nothing.
    let o = ok(&["status", s(&game)]);
    assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
    assert!(tmp_turn.exists(), "left for the next turn to roll back");
    assert!(
        stdout(&o).contains("no turn played yet; next turn 1"),
        "{}",
        stdout(&o)
    );

    // `turn` rolls it back, then plays with the sheet that was sent.
    let o = ok(&["turn", s(&game)]);
    assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
    assert!(stdout(&o).contains("orders from: EN;"), "{}", stdout(&o));
    assert!(!tmp_turn.exists());
    // EN's own turnsheet, and those the computer wrote for the others (2.5).
    assert_eq!(
        names(&game.join("turns/0001/orders")),
        ["EN.txt", "IR.txt", "SC.txt", "WA.txt"]
    );
    assert_eq!(read(&game.join("turns/0001/orders/EN.txt")), "TAX\n");
    assert!(read(&game.join("turns/0001/orders/SC.txt")).starts_with("# written by the computer"));

    // A crash before any sheet was taken: the tmp directory just goes away.
    let tmp2 = game.join("turns/0002.tmp");
    fs::create_dir_all(&tmp2).unwrap();
    fs::write(game.join("orders/SC.txt"), "TAX\n").unwrap();
    ok(&["turn", s(&game)]);
    assert!(!tmp2.exists());
    assert_eq!(read(&game.join("turns/0002/orders/SC.txt")), "TAX\n");

    // A missing orders/ is simply recreated.
    fs::remove_dir(game.join("orders")).unwrap();
    ok(&["turn", s(&game)]);
    assert!(game.join("orders").is_dir());
}

#[test]
fn recovery_never_throws_away_orders() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    new_tutorial(&game);
    let tmp_turn = game.join("turns/0001.tmp");
    fs::create_dir_all(tmp_turn.join("orders")).unwrap();
    fs::write(tmp_turn.join("orders/EN.txt"), "TAX\n").unwrap();
    fs::write(game.join("orders/EN.txt"), "LEVY LON\n").unwrap();
    // The newer sheet is played; the older is kept with the turn, not thrown away.
    let o = ok(&["turn", s(&game), "--yes"]);
    assert!(stderr(&o).contains("0001.tmp"), "{}", stderr(&o));
    assert_eq!(read(&game.join("turns/0001/orders/EN.txt")), "LEVY LON\n");
    assert_eq!(
        read(&game.join("turns/0001/orders/superseded/EN.txt")),
        "TAX\n"
    );
}

#[test]
fn commands_on_something_that_is_not_a_game() {
    let tmp = tempfile::tempdir().unwrap();
    let err = fails(&["status", s(&tmp.path().join("nowhere"))]);
    assert!(err.contains("nowhere"), "{err}");
    let err = fails(&["turn", s(tmp.path())]);
    assert!(err.contains("not a game directory"), "{err}");
    // A map.toml that no longer parses.
    let game = tmp.path().join("game");
    new_tutorial(&game);
    fs::write(game.join("map.toml"), "name = \n").unwrap();
    let err = fails(&["turn", s(&game)]);
    assert!(err.contains("map.toml") && err.contains("line 1"), "{err}");
}
