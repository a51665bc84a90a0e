//! A player's turnsheet is never lost, overwritten, played as someone else's or read
//! through a link: the game directory under races, failures, links and hostile input.

use crate::common;

use common::*;
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn read(p: &Path) -> String {
    fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn json(p: &Path) -> Value {
    serde_json::from_str(&read(p)).unwrap()
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the empires binary runs")
}

/// Waits for `path` to exist while `child` runs; false if the child ended first.
fn wait_for(path: &Path, child: &mut Child) -> bool {
    loop {
        if path.exists() {
            return true;
        }
        if child.try_wait().unwrap().is_some() {
            return path.exists();
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Waits for a command, killing it (and failing the test) if it hangs: a pipe in `orders/`
/// once blocked the moderator for good.
fn finish(mut child: Child, what: &str) -> std::process::Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("{what} hung");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

/// A World game with one player, France, as a GM would start one.
fn new_world(dir: &Path) {
    ok(&[
        "new",
        s(dir),
        "--map",
        "world",
        "--seed",
        "3",
        "--player",
        "FR=F",
    ]);
}

/// Writes a turnsheet the way mail delivery should: under another name, then renamed into
/// place, so that a turn never finds it half written.
fn deliver(game: &Path, name: &str, text: &str) {
    let orders = game.join("orders");
    fs::create_dir_all(&orders).unwrap();
    let part = orders.join(format!("{name}.part"));
    fs::write(&part, text).unwrap();
    fs::rename(&part, orders.join(name)).unwrap();
}

#[test]
fn a_sheet_arriving_during_a_turn_waits_for_the_next() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_world(&game);
    let mut child = spawn(&["turn", s(&game), "--yes"]);
    // The turn has started once it has a directory of its own.
    assert!(wait_for(&game.join("turns/0001.tmp"), &mut child));
    deliver(&game, "FR.txt", "TAX\n# sent late\n");
    let o = finish(child, "turn");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("orders from: none"), "{}", stdout(&o));
    // Not played, not lost: still waiting, as sent.
    assert_eq!(read(&game.join("orders/FR.txt")), "TAX\n# sent late\n");
    let archived = read(&game.join("turns/0001/orders/FR.txt"));
    assert!(
        archived.starts_with("# written by the computer"),
        "{archived}"
    );
    let record = json(&game.join("turns/0001/turn.json"));
    assert!(record["sent"].as_array().unwrap().is_empty(), "{record}");
    // The next turn plays it.
    let o = ok(&["turn", s(&game)]);
    assert!(stdout(&o).contains("orders from: FR;"), "{}", stdout(&o));
    assert_eq!(
        read(&game.join("turns/0002/orders/FR.txt")),
        "TAX\n# sent late\n"
    );
}

#[test]
fn a_sheet_replaced_during_a_turn_is_the_one_played_and_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_world(&game);
    deliver(&game, "FR.txt", "TAX\n");
    let mut child = spawn(&["turn", s(&game)]);
    // Replaced once the turn has taken it.
    assert!(wait_for(
        &game.join("turns/0001.tmp/orders/FR.txt"),
        &mut child
    ));
    deliver(&game, "FR.txt", "# second thoughts\nTAX\n");
    let o = finish(child, "turn");
    assert!(o.status.success(), "{}", stderr(&o));
    // The turn kept the sheet it played; the new one waits.
    assert_eq!(read(&game.join("turns/0001/orders/FR.txt")), "TAX\n");
    let events = read(&game.join("turns/0001/events.json"));
    let fr_tax_line_1 = json(&game.join("turns/0001/events.json"))
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["what"]["empire"] == "FR" && e["what"]["line"] == 1);
    assert!(
        fr_tax_line_1,
        "FR's TAX on line 1 was played: {}",
        &events[..200]
    );
    assert_eq!(
        read(&game.join("orders/FR.txt")),
        "# second thoughts\nTAX\n"
    );
}

/// What a turn interrupted after the computer wrote its turnsheets leaves behind.
fn interrupted_after_computer_sheets(game: &Path) {
    let tmp_turn = game.join("turns/0001.tmp");
    fs::create_dir_all(tmp_turn.join("orders")).unwrap();
    fs::write(tmp_turn.join("orders/EN.txt"), "TAX\n").unwrap();
    for c in ["IR", "SC", "WA"] {
        fs::write(
            tmp_turn.join(format!("orders/{c}.txt")),
            "# written by the computer (rule 2.5)\nTAX\n",
        )
        .unwrap();
    }
    fs::write(
        tmp_turn.join("turn.json"),
        r#"{ "sent": ["EN.txt"], "computer": ["IR.txt", "SC.txt", "WA.txt"] }"#,
    )
    .unwrap();
    fs::write(tmp_turn.join("state.json"), "{ \"half\": ").unwrap();
}

#[test]
fn a_sheet_sent_after_a_killed_turn_wins_and_the_older_is_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    // Turn 1 was killed after taking EN's sheet and the GM's messages...
    interrupted_after_computer_sheets(&game);
    let taken = game.join("turns/0001.tmp");
    fs::write(taken.join("orders/gm.txt"), "Sent first.\n").unwrap();
    fs::write(
        taken.join("turn.json"),
        r#"{ "sent": ["EN.txt", "gm.txt"], "computer": ["IR.txt", "SC.txt", "WA.txt"] }"#,
    )
    .unwrap();
    // ...and EN and the GM have sent again since.
    deliver(&game, "EN.txt", "# second thoughts\nTAX\nTAX\n");
    deliver(&game, "gm.txt", "Sent second.\n");

    // No person has to choose: the newer sheet is played, the older kept with the turn.
    let o = ok(&["turn", s(&game)]);
    let err = stderr(&o);
    assert!(err.contains("replaced since by newer ones"), "{err}");
    assert!(stdout(&o).contains("orders from: EN;"), "{}", stdout(&o));
    assert_eq!(
        read(&game.join("turns/0001/orders/EN.txt")),
        "# second thoughts\nTAX\nTAX\n"
    );
    assert_eq!(
        read(&game.join("turns/0001/orders/superseded/EN.txt")),
        "TAX\n"
    );
    let record = json(&game.join("turns/0001/turn.json"));
    assert_eq!(
        record["superseded"],
        serde_json::json!(["EN.txt"]),
        "{record}"
    );
    assert_eq!(record["sent"], serde_json::json!(["EN.txt", "gm.txt"]));
    // The GM's messages add up, the older first.
    assert_eq!(
        read(&game.join("turns/0001/orders/gm.txt")),
        "Sent first.\n\n\nSent second.\n"
    );
    let told = fs::read_dir(game.join("turns/0001/reports"))
        .unwrap()
        .map(|e| fs::read_to_string(e.unwrap().path()).unwrap_or_default())
        .any(|r| r.contains("Sent first.") && r.contains("Sent second."));
    assert!(told, "both of the GM's messages are in the reports");
    // EN's newer sheet was played: two TAX actions, from lines 2 and 3.
    let en_lines: Vec<u64> = json(&game.join("turns/0001/events.json"))
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["what"]["empire"] == "EN")
        .filter_map(|e| e["what"]["line"].as_u64())
        .collect();
    assert!(
        en_lines.contains(&2) && en_lines.contains(&3),
        "{en_lines:?}"
    );
    // Nothing is left held, and the game checks out.
    assert!(
        !game.join("turns/superseded").exists() || names(&game.join("turns/superseded")).is_empty()
    );
    ok(&["verify", s(&game)]);

    // Undone, the turn gives back its sheets and holds the superseded one again; played
    // again, it keeps it again.
    ok(&["undo", s(&game)]);
    assert_eq!(names(&game.join("turns/superseded")), ["EN.txt"]);
    ok(&["turn", s(&game)]);
    assert_eq!(
        read(&game.join("turns/0001/orders/superseded/EN.txt")),
        "TAX\n"
    );
}

#[test]
fn two_interrupted_turns_keep_every_superseded_sheet() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    for (i, newer) in ["TAX\n# second\n", "TAX\n# third\n"].iter().enumerate() {
        let taken = game.join("turns/0001.tmp/orders");
        fs::create_dir_all(&taken).unwrap();
        // The sheet the interrupted turn took is whatever EN sent before.
        let older = if i == 0 {
            "TAX\n# first\n".to_string()
        } else {
            read(&game.join("orders/EN.txt"))
        };
        fs::write(taken.join("EN.txt"), older).unwrap();
        let _ = fs::remove_file(game.join("orders/EN.txt"));
        deliver(&game, "EN.txt", newer);
        // Only rolled back here (a shared look does not roll back; `turn` would play).
        let o = Command::new(env!("CARGO_BIN_EXE_empires"))
            .args(["undo", s(&game)])
            .output()
            .unwrap();
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    }
    assert_eq!(
        names(&game.join("turns/superseded")),
        ["EN-2.txt", "EN.txt"]
    );
    ok(&["turn", s(&game)]);
    assert_eq!(
        read(&game.join("turns/0001/orders/EN.txt")),
        "TAX\n# third\n"
    );
    assert_eq!(
        names(&game.join("turns/0001/orders/superseded")),
        ["EN-2.txt", "EN.txt"]
    );
    assert_eq!(
        read(&game.join("turns/0001/orders/superseded/EN.txt")),
        "TAX\n# first\n"
    );
    assert_eq!(
        read(&game.join("turns/0001/orders/superseded/EN-2.txt")),
        "TAX\n# second\n"
    );
}

#[test]
fn a_turn_waits_for_a_command_that_holds_the_game() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    deliver(&game, "EN.txt", "TAX\n");
    // A submitter holds the game for a moment; the turn waits for it instead of failing.
    let lock = fs::File::open(game.join(".lock")).unwrap();
    lock.lock_shared().unwrap();
    let child = spawn(&["turn", s(&game), "--yes"]);
    std::thread::sleep(Duration::from_millis(300));
    drop(lock);
    let o = finish(child, "turn");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(game.join("turns/0001/orders/EN.txt").exists());

    // Held for longer than the wait allowed: the message says by whom.
    let mut holder = Command::new("flock")
        .arg(game.join(".lock"))
        .args(["sleep", "30"])
        .spawn()
        .expect("flock runs");
    std::thread::sleep(Duration::from_millis(200));
    let o = Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(["turn", s(&game), "--yes"])
        .env("EMPIRES_LOCK_WAIT", "0.5")
        .output()
        .unwrap();
    let _ = holder.kill();
    let _ = holder.wait();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("held by process {}", holder.id())) && err.contains("flock"),
        "{err}"
    );
}

#[test]
fn a_rolled_back_turn_gives_back_only_what_the_players_sent() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    interrupted_after_computer_sheets(&game);
    let o = ok(&["turn", s(&game)]);
    // Only EN sent orders; the others are the computer's again, and missed the turn.
    assert!(
        stdout(&o).contains("orders from: EN; written by the computer for: IR SC WA"),
        "{}",
        stdout(&o)
    );
    let state = json(&game.join("turns/0001/state.json"));
    let missed: Vec<u64> = state["empires"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["missed_turns"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(missed, [0, 1, 1, 1], "EN IR SC WA");

    // A turn that fails (its directory is in the way) gives back the sent sheet only.
    fs::write(game.join("orders/SC.txt"), "TAX\n").unwrap();
    fs::write(game.join("turns/0002"), "in the way").unwrap();
    let err = fails(&["turn", s(&game)]);
    assert!(err.contains("0002"), "{err}");
    assert_eq!(names(&game.join("orders")), ["SC.txt"]);
    assert_eq!(read(&game.join("orders/SC.txt")), "TAX\n");
    assert!(!game.join("turns/0002.tmp").exists());
}

#[test]
fn a_turn_interrupted_by_an_older_version_gives_everything_back() {
    // Older versions moved the whole of orders/, subdirectories and all, into the turn.
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    let taken = game.join("turns/0001.tmp/orders");
    fs::create_dir_all(taken.join("drafts")).unwrap();
    fs::write(taken.join("drafts/EN.txt"), "GROW LON\n").unwrap();
    fs::write(taken.join("EN.txt"), "TAX\n").unwrap();
    fs::remove_dir(game.join("orders")).unwrap();
    let o = ok(&["turn", s(&game)]);
    assert!(stdout(&o).contains("orders from: EN;"), "{}", stdout(&o));
    assert_eq!(read(&game.join("orders/drafts/EN.txt")), "GROW LON\n");
}

#[test]
fn a_directory_in_orders_is_warned_about_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    fs::create_dir(game.join("orders/SC.txt")).unwrap();
    fs::write(game.join("orders/EN.txt"), "TAX\n").unwrap();
    let o = ok(&["turn", s(&game)]);
    assert!(stderr(&o).contains("SC.txt: a directory"), "{}", stderr(&o));
    assert!(stdout(&o).contains("orders from: EN;"), "{}", stdout(&o));
    assert!(game.join("orders/SC.txt").is_dir());
    assert_eq!(read(&game.join("turns/0001/orders/EN.txt")), "TAX\n");
}

#[cfg(unix)]
#[test]
fn links_and_special_files_in_orders_are_never_followed() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    let secret = tmp.path().join("secret.txt");
    fs::write(&secret, "MESSAGE the password is swordfish\n").unwrap();
    symlink(&secret, game.join("orders/EN.txt")).unwrap();
    symlink("/dev/zero", game.join("orders/SC.txt")).unwrap();
    let fifo = game.join("orders/WA.txt");
    let made = Command::new("mkfifo").arg(&fifo).status();
    let has_fifo = made.is_ok_and(|s| s.success());

    let o = finish(spawn(&["status", s(&game)]), "status");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("EN.txt: a link"), "{}", stderr(&o));
    assert!(!stdout(&o).contains("waiting"), "{}", stdout(&o));

    let o = finish(spawn(&["turn", s(&game)]), "turn");
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("EN.txt: a link") && err.contains("SC.txt: a link"),
        "{err}"
    );
    if has_fifo {
        assert!(err.contains("WA.txt: a pipe"), "{err}");
    }
    assert!(stdout(&o).contains("orders from: none"), "{}", stdout(&o));
    let turn = game.join("turns/0001");
    assert!(!read(&turn.join("events.json")).contains("swordfish"));
    assert!(!read(&turn.join("reports/gm.txt")).contains("swordfish"));
    // Left where they were; the file outside untouched.
    assert!(
        fs::symlink_metadata(game.join("orders/EN.txt"))
            .unwrap()
            .is_symlink()
    );
    assert_eq!(read(&secret), "MESSAGE the password is swordfish\n");

    // orders/ itself a link: the turn refuses rather than write or read through it.
    let elsewhere = tmp.path().join("elsewhere");
    fs::create_dir(&elsewhere).unwrap();
    fs::write(elsewhere.join("EN.txt"), "TAX\n").unwrap();
    fs::remove_dir_all(game.join("orders")).unwrap();
    symlink(&elsewhere, game.join("orders")).unwrap();
    let err = fails(&["turn", s(&game)]);
    assert!(err.contains("orders") && err.contains("a link"), "{err}");
    assert_eq!(names(&elsewhere), ["EN.txt"]);
    assert!(!game.join("turns/0002").exists());

    // A link in place of the lock file is not followed either.
    fs::remove_file(game.join("orders")).unwrap();
    fs::remove_file(game.join(".lock")).unwrap();
    symlink(tmp.path().join("made-outside"), game.join(".lock")).unwrap();
    fails(&["turn", s(&game)]);
    assert!(!tmp.path().join("made-outside").exists());
}

#[test]
fn values_accepted_at_the_start_can_still_be_read_after_turns() {
    let tmp = tempfile::tempdir().unwrap();
    let map = tmp.path().join("tutorial.toml");
    fs::copy(tutorial_map(), &map).unwrap();
    let scenario = tmp.path().join("big.toml");
    fs::write(
        &scenario,
        "map = \"tutorial.toml\"\n[[empire]]\ncode = \"EN\"\narmy_reserve = 1000000\n\
         treasury = 1000000\n[[area]]\ncode = \"LON\"\nowner = \"EN\"\npopulation = 1000000\n\
         armies = 1000000\n",
    )
    .unwrap();
    let game = tmp.path().join("g");
    ok(&["new", s(&game), "--scenario", s(&scenario)]);
    ok(&["turn", s(&game)]);
    ok(&["turn", s(&game)]);
    ok(&["status", s(&game)]);

    let big = tmp.path().join("big-map.toml");
    fs::write(
        &big,
        read(&map).replace("population = [6, 8]", "population = [1000000, 1000000]"),
    )
    .unwrap();
    let game2 = tmp.path().join("g2");
    ok(&["new", s(&game2), "--map", s(&big), "--seed", "1"]);
    ok(&["turn", s(&game2)]);
    ok(&["turn", s(&game2)]);
    ok(&["status", s(&game2)]);

    // Past the limits: refused at once, naming the limit, and nothing made.
    fs::write(
        &big,
        read(&map).replace("population = [6, 8]", "population = [1, 1000001]"),
    )
    .unwrap();
    let o = empires(&["map", "check", s(&big)]);
    assert!(!o.status.success());
    assert!(
        stdout(&o).contains("largest count allowed"),
        "{}",
        stdout(&o)
    );
    let game3 = tmp.path().join("g3");
    let err = fails(&["new", s(&game3), "--map", s(&big), "--seed", "1"]);
    assert!(err.contains("largest count allowed"), "{err}");
    let o = empires(&[
        "new",
        s(&game3),
        "--map",
        s(&map),
        "--seed",
        "1",
        "--actions-per-turn",
        "4294967295",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("1..=100"), "{}", stderr(&o));
    assert!(!game3.exists());
    // No half-made game is left beside it either.
    let left: Vec<String> = names(tmp.path())
        .into_iter()
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn line_ends_and_encodings_read_alike_in_check_and_turn() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    let text = "TAX\rLEVY LON\rRESERVE LON - 2\r";
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "TAX\r\nLEVY EDI\r\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    for (code, bytes, actions) in [("EN", text.as_bytes().to_vec(), 3), ("SC", utf16, 2)] {
        let sheet = tmp.path().join(format!("{code}.txt"));
        fs::write(&sheet, &bytes).unwrap();
        let o = ok(&[
            "check",
            s(&game),
            "--empire",
            code,
            s(&sheet),
            "--format",
            "json",
        ]);
        let report: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(
            report["forecast"]["steps"].as_array().unwrap().len(),
            actions
        );
        fs::write(game.join(format!("orders/{code}.txt")), &bytes).unwrap();
    }
    ok(&["turn", s(&game)]);
    let events = json(&game.join("turns/0001/events.json"));
    let played = |code: &str| {
        events
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["what"]["type"] == "action" && e["what"]["empire"] == code)
            .map(|e| e["what"]["line"].as_u64().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(played("EN"), [1, 2, 3]);
    assert_eq!(played("SC"), [1, 2]);
}

#[test]
fn an_unreadable_sheet_stops_the_turn_unless_the_gm_says_otherwise() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    let bad = b"TAX\nLEVY L\xD6N\n";
    let sheet = tmp.path().join("EN.txt");
    fs::write(&sheet, bad).unwrap();
    let err = fails(&["check", s(&game), "--empire", "EN", s(&sheet)]);
    assert!(err.contains("line 2") && err.contains("UTF-8"), "{err}");

    fs::write(game.join("orders/EN.txt"), bad).unwrap();
    fs::write(game.join("orders/SC.txt"), "TAX\n").unwrap();
    let err = fails(&["turn", s(&game)]);
    assert!(
        err.contains("EN.txt") && err.contains("--unreadable-as-missed"),
        "{err}"
    );
    // Nothing played, nothing lost.
    assert_eq!(names(&game.join("turns")), ["0000"]);
    assert_eq!(names(&game.join("orders")), ["EN.txt", "SC.txt"]);
    assert_eq!(fs::read(game.join("orders/EN.txt")).unwrap(), bad);

    let o = ok(&["turn", s(&game), "--unreadable-as-missed"]);
    assert!(
        stdout(&o).contains("orders from: SC; written by the computer for: EN IR WA"),
        "{}",
        stdout(&o)
    );
    let t1 = game.join("turns/0001");
    assert_eq!(fs::read(t1.join("orders/unreadable/EN.txt")).unwrap(), bad);
    assert!(read(&t1.join("orders/EN.txt")).starts_with("# written by the computer"));
    let record = json(&t1.join("turn.json"));
    assert_eq!(record["sent"], serde_json::json!(["SC.txt"]));
    assert_eq!(record["unreadable"], serde_json::json!(["EN.txt"]));
    assert!(names(&game.join("orders")).is_empty());
}

#[test]
fn oversized_sheets_and_lines_are_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    // A sheet over the limit: refused by both, at once, naming the limit.
    let huge = tmp.path().join("EN.txt");
    fs::write(&huge, "TAX\n".repeat(20_000)).unwrap();
    let err = fails(&["check", s(&game), "--empire", "EN", s(&huge)]);
    assert!(err.contains("65536 bytes"), "{err}");
    fs::copy(&huge, game.join("orders/EN.txt")).unwrap();
    let err = fails(&["turn", s(&game)]);
    assert!(
        err.contains("EN.txt") && err.contains("65536 bytes"),
        "{err}"
    );
    fs::remove_file(game.join("orders/EN.txt")).unwrap();

    // A long PHONE line and message are cut, not kept whole in every later state.
    let sheet = format!(
        "TAX\nPHONE {}\nMESSAGE {}\n",
        "1".repeat(30_000),
        "x".repeat(30_000)
    );
    fs::write(game.join("orders/EN.txt"), &sheet).unwrap();
    ok(&["turn", s(&game)]);
    let state = json(&game.join("turns/0001/state.json"));
    assert_eq!(state["empires"][0]["phone"].as_str().unwrap().len(), 100);
    let events = read(&game.join("turns/0001/events.json"));
    assert!(!events.contains(&"x".repeat(1001)));
    assert!(events.contains(&"x".repeat(1000)));
}

#[test]
fn a_turn_is_not_played_on_a_state_that_cannot_be_verified() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    let hash = game.join("turns/0000/state.sha256");
    fs::write(&hash, format!("{}\n", "0".repeat(64))).unwrap();
    let err = fails(&["turn", s(&game)]);
    assert!(
        err.contains("does not match") && err.contains("--accept-state"),
        "{err}"
    );
    fs::remove_file(&hash).unwrap();
    let err = fails(&["turn", s(&game)]);
    assert!(
        err.contains("missing") && err.contains("--accept-state"),
        "{err}"
    );
    // Commands that only look still work, with a warning.
    let o = ok(&["status", s(&game)]);
    assert!(stderr(&o).contains("missing"), "{}", stderr(&o));
    assert_eq!(names(&game.join("turns")), ["0000"]);

    let o = ok(&["turn", s(&game), "--accept-state"]);
    assert!(stderr(&o).contains("--accept-state"), "{}", stderr(&o));
    let record = json(&game.join("turns/0001/turn.json"));
    assert!(
        record["state_accepted"]
            .as_str()
            .unwrap()
            .contains("missing"),
        "{record}"
    );
    // The next turn is verified again.
    ok(&["turn", s(&game)]);
}

/// Every file under `dir` with its bytes, sorted by path.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p.clone());
                out.push((p.display().to_string(), Vec::new()));
            } else {
                out.push((p.display().to_string(), fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn commands_that_only_look_share_the_lock_and_change_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("g");
    new_tutorial(&game);
    ok(&["turn", s(&game)]);
    // An interrupted turn, which only `turn` may roll back.
    let tmp_turn = game.join("turns/0002.tmp");
    fs::create_dir_all(tmp_turn.join("orders")).unwrap();
    fs::write(tmp_turn.join("orders/EN.txt"), "TAX\n").unwrap();
    let sheet = tmp.path().join("EN.txt");
    fs::write(&sheet, "TAX\n").unwrap();
    let before = tree(&game);

    // Another reader holds the lock: readers share it.
    let lock = fs::File::open(game.join(".lock")).unwrap();
    lock.lock_shared().unwrap();
    let o = ok(&["status", s(&game)]);
    assert!(
        stderr(&o).contains("0002.tmp is an interrupted turn"),
        "{}",
        stderr(&o)
    );
    ok(&["check", s(&game), "--empire", "EN", s(&sheet)]);
    ok(&["report", s(&game), "--empire", "EN"]);
    // But no turn is played meanwhile: it waits for the lock, then gives up.
    let o = Command::new(env!("CARGO_BIN_EXE_empires"))
        .args(["turn", s(&game)])
        .env("EMPIRES_LOCK_WAIT", "0.3")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("waited 0 s for the game's lock"),
        "{}",
        stderr(&o)
    );
    drop(lock);
    assert_eq!(tree(&game), before, "nothing was written");

    // A copy without a lock file, and without orders/, is still read.
    fs::remove_file(game.join(".lock")).unwrap();
    fs::remove_dir(game.join("orders")).unwrap();
    let before = tree(&game);
    ok(&["status", s(&game)]);
    ok(&["check", s(&game), "--empire", "EN", s(&sheet)]);
    ok(&["report", s(&game), "--empire", "EN"]);
    assert_eq!(tree(&game), before, "nothing was written");
}
