//! `empires napoleonic ...` as a GM uses it: a game of the second ruleset created, sheets
//! printed, checked with their dry run, played and reported, in a directory of its own.

use crate::common;

use common::{empires, ok, stderr, stdout};
use std::fs;

fn new_game(dir: &std::path::Path) {
    ok(&[
        "napoleonic",
        "new",
        dir.to_str().unwrap(),
        "--name",
        "Europe 1805",
        "--kingdom",
        "FRA",
        "--kingdom",
        "PRU",
    ]);
}

#[test]
fn a_game_is_created_checked_played_and_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nap");
    let d = dir.to_str().unwrap();
    new_game(&dir);
    assert!(dir.join("turns/0000/state.json").is_file());
    assert!(stdout(&ok(&["sheet", d, "FRA"])).contains("KINGDOM FRA"));
    assert!(
        !empires(&["sheet", d, "AUS"]).status.success(),
        "AUS is not in play"
    );

    // The printed sheet is a valid sheet with nothing on it.
    let sheet = stdout(&ok(&["napoleonic", "sheet", d, "FRA"]));
    assert!(
        sheet.starts_with("GAME \"Europe 1805\"  KINGDOM FRA  TURN 1"),
        "{sheet}"
    );
    let blank = tmp.path().join("blank.txt");
    fs::write(&blank, &sheet).unwrap();
    let checked = stdout(&ok(&[
        "napoleonic",
        "check",
        d,
        "FRA",
        blank.to_str().unwrap(),
    ]));
    assert!(checked.contains("no problems found"), "{checked}");

    // A mistake names its line and column, and the check fails.
    let bad = tmp.path().join("bad.txt");
    fs::write(
        &bad,
        "GAME \"Europe 1805\" KINGDOM FRA TURN 1\nA1\n  1: MOVE CHA\n  2: MOVE BUR\nG8\n  RECRUIT 2 XYZ\n",
    )
    .unwrap();
    let out = empires(&["napoleonic", "check", d, "FRA", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let text = stdout(&out);
    assert!(text.contains("bad.txt:6:13: error[E106]"), "{text}");
    // The dry run: A1 reaches Champagne in phase 1 and is stopped in phase 2 (T29).
    assert!(text.contains("A1     PAR   CHA   CHA"), "{text}");
    assert!(text.contains("phase 2, A1:"), "{text}");

    // Orders in, turn played, sheets moved into the turn.
    fs::write(
        dir.join("orders/FRA.txt"),
        "GAME \"Europe 1805\" KINGDOM FRA TURN 1\nHQ\n  DECLARE WAR ON PRU\nA1\n  1: MOVE CHA\nG8\n  RECRUIT 2 LIN\n",
    )
    .unwrap();
    // A sheet filed under another kingdom's name is not used.
    fs::write(
        dir.join("orders/PRU.txt"),
        "GAME \"Europe 1805\" KINGDOM FRA TURN 1\nA1\n  1: HOLD\n",
    )
    .unwrap();
    let played = stdout(&ok(&["napoleonic", "turn", d]));
    assert!(
        played.contains("turn 1 of \"Europe 1805\" adjudicated"),
        "{played}"
    );
    assert!(
        played.contains("orders from: FRA; no orders from: PRU"),
        "{played}"
    );
    assert!(played.contains("note: PRU.txt:"), "{played}");
    // A kingdom that sent nothing does nothing (1.2); the independents' routine wrote
    // their orders, which the GM can read.
    assert!(!played.contains("caretaker"), "{played}");
    assert!(!dir.join("turns/0001/computer/PRU.json").exists());
    assert!(dir.join("turns/0001/computer/IND.json").is_file());
    assert!(dir.join("turns/0001/orders/FRA.txt").is_file());
    assert!(!dir.join("orders/FRA.txt").exists());

    // The reports: France's text shows the war, the recruits and where A1 went; Prussia's
    // JSON holds nothing of France's treasury.
    let report = stdout(&ok(&["napoleonic", "report", d, "FRA"]));
    assert!(report.contains("HEADQUARTERS"), "{report}");
    assert!(
        report.contains("PRU Prussia") && report.contains("war"),
        "{report}"
    );
    assert!(
        report.contains("A1 France A1 - in Champagne (CHA)"),
        "{report}"
    );
    assert!(report.contains("2 LIN"), "{report}");
    let fra: serde_json::Value = serde_json::from_str(&stdout(&ok(&[
        "napoleonic",
        "report",
        d,
        "FRA",
        "--format",
        "json",
    ])))
    .unwrap();
    let pru = stdout(&ok(&["napoleonic", "report", d, "PRU", "--format", "json"]));
    let treasury = fra["headquarters"]["treasury"]["exact"].to_string();
    assert!(treasury.len() > 2, "{fra}");
    assert!(
        !pru.contains("France A1"),
        "Prussia sees no French unit's name"
    );
    let html = stdout(&ok(&["napoleonic", "report", d, "FRA", "--format", "html"]));
    assert!(html.contains("<svg") && html.contains("</html>"));
}

#[test]
fn a_changed_state_is_refused_and_nothing_is_played() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nap");
    let d = dir.to_str().unwrap();
    new_game(&dir);
    let state = dir.join("turns/0000/state.json");
    let text = fs::read_to_string(&state).unwrap();
    fs::write(
        &state,
        text.replacen("\"treasury\": ", "\"treasury\": 9", 1),
    )
    .unwrap();
    let out = empires(&["napoleonic", "turn", d]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("does not match its state.sha256"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("turns/0001").exists());
}

#[test]
fn a_new_game_refuses_an_unknown_kingdom_and_a_directory_in_use() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nap");
    let d = dir.to_str().unwrap();
    let out = empires(&["napoleonic", "new", d, "--kingdom", "XYZ"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no kingdom XYZ"), "{}", stderr(&out));
    new_game(&dir);
    let again = empires(&["napoleonic", "new", d]);
    assert!(!again.status.success());
    assert!(stderr(&again).contains("not empty"), "{}", stderr(&again));
    // Before the first turn the report is of the starting position.
    let report = stdout(&ok(&["napoleonic", "report", d, "FRA"]));
    assert!(report.contains("the starting position"), "{report}");
    // So says the common command.
    let common = stdout(&ok(&["report", d, "--empire", "FRA"]));
    assert_eq!(common, report);
    // Import takes a game of any ruleset.
    let url = format!("sqlite:{}", dir.with_extension("db").display());
    ok(&["import", d, "--db", &url]);
}

#[test]
fn a_simulated_game_is_the_same_for_the_same_seed() {
    let args = [
        "napoleonic",
        "simulate",
        "--seed",
        "3",
        "--turns",
        "3",
        "--style",
        "gbr=caretaker",
    ];
    let first = stdout(&ok(&args));
    assert!(
        first.contains("seed 3: 3 turns played (limit 3)"),
        "{first}"
    );
    // Great Britain is kept by the caretaker, everyone else conquers.
    let gbr = first
        .lines()
        .find(|l| l.starts_with("GBR "))
        .unwrap_or_else(|| panic!("{first}"));
    assert!(gbr.contains("caretaker"), "{gbr}");
    assert!(
        first
            .lines()
            .any(|l| l.starts_with("FRA ") && l.contains("conqueror")),
        "{first}"
    );
    assert_eq!(
        stdout(&ok(&args)),
        first,
        "the same seed plays the same game"
    );
    let other = stdout(&ok(&[
        "napoleonic",
        "simulate",
        "--seed",
        "4",
        "--turns",
        "3",
    ]));
    assert_ne!(other, first);

    // The whole result as JSON: every turn's figures.
    let json = stdout(&ok(&[
        "napoleonic",
        "simulate",
        "--seed",
        "3",
        "--turns",
        "2",
        "--json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["turns"], 2);
    assert_eq!(v["history"].as_array().map(Vec::len), Some(3));

    // Mistakes are said plainly: a style the command line refuses, a kingdom not on the map.
    let o = empires(&["napoleonic", "simulate", "--style", "FRA=pacifist"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("\"pacifist\": the styles are caretaker and conqueror"),
        "{}",
        stderr(&o)
    );
    let bad = common::fails(&["napoleonic", "simulate", "--kingdom", "XXX"]);
    assert!(bad.contains("XXX"), "{bad}");
}

#[test]
fn a_game_in_the_hosts_database_beside_an_empires_game() {
    let tmp = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", tmp.path().join("host.db").display());
    // An Empires game and a Napoleonic one in the same database.
    ok(&[
        "new",
        "alpha",
        "--db",
        &db,
        "--map",
        common::tutorial_map().to_str().unwrap(),
        "--seed",
        "3",
    ]);
    let made = stdout(&ok(&[
        "napoleonic",
        "new",
        "europe",
        "--db",
        &db,
        "--seed",
        "7",
        "--kingdom",
        "FRA",
        "--kingdom",
        "PRU",
    ]));
    assert!(made.contains("2 seats (FRA PRU)"), "{made}");
    let games = stdout(&ok(&["games", "--db", &db]));
    assert!(
        games.contains("alpha") && games.contains("europe"),
        "{games}"
    );

    // France's sheet, checked with its dry run, sent; Prussia sends nothing.
    let sheet = stdout(&ok(&["napoleonic", "sheet", "europe", "FRA", "--db", &db]));
    assert!(
        sheet.starts_with("GAME \"europe\"  KINGDOM FRA  TURN 1"),
        "{sheet}"
    );
    let file = tmp.path().join("fra.txt");
    fs::write(&file, &sheet).unwrap();
    let checked = stdout(&ok(&[
        "napoleonic",
        "check",
        "europe",
        "FRA",
        file.to_str().unwrap(),
        "--db",
        &db,
    ]));
    assert!(checked.contains("Dry run"), "{checked}");
    let sent = stdout(&ok(&[
        "submit",
        "europe",
        file.to_str().unwrap(),
        "--empire",
        "FRA",
        "--db",
        &db,
    ]));
    assert!(sent.contains("kept FRA's turnsheet for turn 1"), "{sent}");
    // Where the game stands, as for an Empires game: the seats and whose sheet is in.
    let status = stdout(&ok(&["status", "europe", "--db", &db]));
    assert!(
        status.starts_with("game: europe (Napoleonic Empires)\nno turn played yet; next turn 1\n"),
        "{status}"
    );
    let row = |code: &str| {
        status
            .lines()
            .find(|l| l.starts_with(code))
            .unwrap_or_else(|| panic!("{status}"))
            .to_string()
    };
    assert!(row("FRA").ends_with("sent"), "{status}");
    assert!(row("PRU").ends_with("none yet"), "{status}");
    // A kingdom not in the game is refused, and so is an empire's code.
    for bad in ["AUS", "EN"] {
        let e = stderr(&empires(&[
            "submit",
            "europe",
            file.to_str().unwrap(),
            "--empire",
            bad,
            "--db",
            &db,
        ]));
        assert!(e.contains(bad), "{bad}: {e}");
    }

    // The turn waits for Prussia's player... there is none: both seats are unheld, so
    // the caretaker keeps Prussia and the turn is played.
    let played = stdout(&ok(&["turn", "europe", "--db", &db]));
    assert!(played.contains("orders from: FRA"), "{played}");
    assert!(
        played.contains("written by the computer for: PRU"),
        "{played}"
    );
    let report = stdout(&ok(&["napoleonic", "report", "europe", "FRA", "--db", &db]));
    assert!(report.contains("France (FRA)"), "{report}");
    let verified = stdout(&ok(&["verify", "europe", "--db", &db]));
    assert!(
        verified.contains("turn 1: replayed, same state"),
        "{verified}"
    );
    // The Empires game beside it is untouched and plays as ever.
    let alpha = stdout(&ok(&["turn", "alpha", "--db", &db, "--yes"]));
    assert!(alpha.contains("turn 1 of"), "{alpha}");
}

/// A directory game's sheets are moved into the turn before it reads them: a sheet sent
/// while a turn is played is either played and kept with it, or waits in `orders/` for the
/// next, never removed.
#[test]
fn a_sheet_sent_while_a_turn_is_played_is_played_or_waits() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    new_game(&base);
    // France's first sheet waits; its second is sent while the turn is played.
    fs::write(
        base.join("orders/FRA.txt"),
        "GAME \"Europe 1805\" KINGDOM FRA TURN 1\nA1\n  1: MOVE CHA\n# first\n",
    )
    .unwrap();
    let (mut played, mut waiting) = (0, 0);
    for i in 0..30 {
        let dir = tmp.path().join(format!("g{i}"));
        common::copy_dir(&base, &dir);
        let text = format!("GAME \"Europe 1805\" KINGDOM FRA TURN 1\nA1\n  1: HOLD\n# try {i}\n");
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_empires"))
            .args(["napoleonic", "turn", dir.to_str().unwrap()])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(10 * (i % 10)));
        let part = dir.join("orders/FRA.part");
        fs::write(&part, &text).unwrap();
        fs::rename(&part, dir.join("orders/FRA.txt")).unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "try {i}: {}", stderr(&o));
        let kept = dir.join("turns/0001/orders/FRA.txt");
        // The second sheet is the one kept with the turn (it replaced the first before the
        // turn took it), or it waits for the next turn: it is never lost.
        // What was played shows in the report: the first sheet moves A1 into Champagne,
        // the second holds it in Paris.
        let report = stdout(&ok(&["napoleonic", "report", dir.to_str().unwrap(), "FRA"]));
        let moved = report.contains("A1 France A1 - in Champagne (CHA)");
        if fs::read_to_string(&kept).unwrap() == text {
            assert!(
                !moved,
                "try {i}: the sheet kept with the turn is not the one played"
            );
            played += 1;
            assert_eq!(fs::read_to_string(&kept).unwrap(), text, "try {i}");
            assert!(!dir.join("orders/FRA.txt").exists(), "try {i}");
        } else {
            assert!(moved, "try {i}: the first sheet was played");
            waiting += 1;
            assert_eq!(
                fs::read_to_string(dir.join("orders/FRA.txt")).unwrap(),
                text,
                "try {i}: still waiting, as sent"
            );
        }
        fs::remove_dir_all(&dir).unwrap();
    }
    eprintln!("30 sheets sent during a turn: {played} played, {waiting} waiting");
}

/// A turn interrupted after taking a sheet is rolled back by the next: the sheet is played,
/// or, when the kingdom has sent a newer one since, the newer is played and the older kept
/// with the turn.
#[test]
fn an_interrupted_turn_gives_its_sheets_back_and_the_newer_wins() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nap");
    new_game(&dir);
    let older = "GAME \"Europe 1805\" KINGDOM FRA TURN 1\nA1\n  1: HOLD\n# older\n";
    let newer = "GAME \"Europe 1805\" KINGDOM FRA TURN 1\nA1\n  1: HOLD\n# newer\n";
    let taken = dir.join("turns/0001.tmp/orders");
    fs::create_dir_all(&taken).unwrap();
    fs::write(taken.join("FRA.txt"), older).unwrap();
    fs::write(
        taken.join("PRU.txt"),
        "GAME \"Europe 1805\" KINGDOM PRU TURN 1\n",
    )
    .unwrap();
    fs::write(dir.join("turns/0001.tmp/state.json"), "{ \"half\": ").unwrap();
    fs::write(dir.join("orders/FRA.txt"), newer).unwrap();
    let out = ok(&["napoleonic", "turn", dir.to_str().unwrap()]);
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert!(said.contains("interrupted turn"), "{said}");
    assert!(stdout(&out).contains("orders from: FRA PRU"), "{said}");
    assert_eq!(
        fs::read_to_string(dir.join("turns/0001/orders/FRA.txt")).unwrap(),
        newer
    );
    assert_eq!(
        fs::read_to_string(dir.join("turns/0001/orders/superseded/FRA.txt")).unwrap(),
        older
    );
    assert!(dir.join("turns/0001/orders/PRU.txt").is_file());
    assert!(!dir.join("turns/0001.tmp").exists());
}

/// A Napoleonic game in a directory through the commands every game has: `submit` checks
/// and keeps a sheet, `status` says whose are in, `turn` plays, `undo` takes the turn back
/// with its sheets waiting again as sent.
#[test]
fn a_directory_game_takes_the_common_commands() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nap");
    let d = dir.to_str().unwrap();
    new_game(&dir);
    let sheet = tmp.path().join("fra.txt");
    fs::write(
        &sheet,
        "GAME \"Europe 1805\" KINGDOM FRA TURN 1\nA1\n  1: MOVE CHA\n",
    )
    .unwrap();
    let kept = stdout(&ok(&[
        "submit",
        d,
        sheet.to_str().unwrap(),
        "--empire",
        "FRA",
    ]));
    assert!(
        kept.contains("Dry run") || kept.contains("dry run"),
        "{kept}"
    );
    assert!(kept.contains("kept FRA's turnsheet for turn 1"), "{kept}");
    let refused = stderr(&empires(&[
        "submit",
        d,
        sheet.to_str().unwrap(),
        "--empire",
        "AUS",
    ]));
    assert!(refused.contains("no kingdom AUS in this game"), "{refused}");

    let status = stdout(&ok(&["status", d]));
    assert!(
        status.starts_with(
            "game: Europe 1805 (Napoleonic Empires)\nno turn played yet; next turn 1\n"
        ),
        "{status}"
    );
    assert!(
        status
            .lines()
            .any(|l| l.starts_with("FRA") && l.ends_with("sent")),
        "{status}"
    );
    assert!(
        status
            .lines()
            .any(|l| l.starts_with("PRU") && l.ends_with("none yet")),
        "{status}"
    );

    let played = stdout(&ok(&["turn", d]));
    assert!(
        played.contains("orders from: FRA; no orders from: PRU"),
        "{played}"
    );
    assert!(stdout(&ok(&["status", d])).contains("turn 1 played; next turn 2"));
    let sent = fs::read(&sheet).unwrap();
    assert_eq!(
        fs::read(dir.join("turns/0001/orders/FRA.txt")).unwrap(),
        sent
    );

    let undone = stdout(&ok(&["undo", d]));
    assert!(undone.contains("turn 1 undone"), "{undone}");
    assert!(!dir.join("turns/0001").exists());
    assert_eq!(fs::read(dir.join("orders/FRA.txt")).unwrap(), sent);
    assert!(stdout(&ok(&["status", d])).contains("no turn played yet; next turn 1"));
    // Played again, the same turn.
    ok(&["turn", d]);
    let again = stdout(&ok(&["napoleonic", "report", d, "FRA"]));
    assert!(
        again.contains("A1 France A1 - in Champagne (CHA)"),
        "{again}"
    );
    // verify plays the turn again from the sheet it took, undone and played again.
    let verified = stdout(&ok(&["verify", d]));
    assert!(verified.contains("1 turns checked, 0 differ"), "{verified}");
    // Nothing to undo at the start, and nothing while sheets wait.
    fs::write(
        dir.join("orders/PRU.txt"),
        "GAME \"Europe 1805\" KINGDOM PRU TURN 2\n",
    )
    .unwrap();
    let e = stderr(&empires(&["undo", d]));
    assert!(e.contains("holds sheets sent for the next turn"), "{e}");
}

/// The common commands take a game of any ruleset: `new --ruleset`, `sheet` and `check`
/// give a Napoleonic game in a directory and in a database what `empires napoleonic ...`
/// gives, and an Empires game its own.
#[test]
fn the_common_commands_create_print_and_check_a_game_of_any_ruleset() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nap");
    let d = dir.to_str().unwrap();
    let made = stdout(&ok(&[
        "new",
        d,
        "--ruleset",
        "napoleonic",
        "--seed",
        "5",
        "--name",
        "Europe 1805",
        "--seat",
        "fra",
        "--seat",
        "PRU",
    ]));
    assert!(
        made.contains("Napoleonic Empires game \"Europe 1805\""),
        "{made}"
    );
    assert!(made.contains("2 seats (FRA PRU)"), "{made}");
    let sheet = stdout(&ok(&["sheet", d, "FRA"]));
    assert_eq!(sheet, stdout(&ok(&["napoleonic", "sheet", d, "FRA"])));
    assert!(
        sheet.starts_with("GAME \"Europe 1805\"  KINGDOM FRA  TURN 1"),
        "{sheet}"
    );
    // A kingdom not in play, and a ruleset the program does not run, are refused by name.
    assert!(stderr(&empires(&["sheet", d, "AUS"])).contains("AUS"));
    let chess = empires(&[
        "new",
        tmp.path().join("c").to_str().unwrap(),
        "--ruleset",
        "chess",
    ]);
    assert!(
        stderr(&chess).contains("no ruleset \"chess\""),
        "{}",
        stderr(&chess)
    );
    // Empires' own options are refused for another ruleset.
    let mixed = empires(&[
        "new",
        tmp.path().join("m").to_str().unwrap(),
        "--ruleset",
        "napoleonic",
        "--variant",
        "world",
    ]);
    assert!(!mixed.status.success());
    assert!(
        stderr(&mixed).contains("Empires' options"),
        "{}",
        stderr(&mixed)
    );

    // `check` gives the ruleset's check and dry run, and fails on a mistake.
    let blank = tmp.path().join("blank.txt");
    fs::write(&blank, &sheet).unwrap();
    let clean = stdout(&ok(&[
        "check",
        d,
        "--empire",
        "FRA",
        blank.to_str().unwrap(),
    ]));
    assert!(clean.contains("no problems found"), "{clean}");
    let bad = tmp.path().join("bad.txt");
    fs::write(&bad, format!("{sheet}WAR XYZ\n")).unwrap();
    let out = empires(&["check", d, "--empire", "FRA", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stdout(&out).contains("error[E001]"), "{}", stdout(&out));

    // The same in a database.
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    ok(&[
        "new",
        "europe",
        "--db",
        &url,
        "--ruleset",
        "napoleonic",
        "--seed",
        "5",
    ]);
    let sheet = stdout(&ok(&["sheet", "europe", "PRU", "--db", &url]));
    assert!(
        sheet.starts_with("GAME \"europe\"  KINGDOM PRU  TURN 1"),
        "{sheet}"
    );
    let db_bad = empires(&[
        "check",
        "europe",
        "--empire",
        "FRA",
        bad.to_str().unwrap(),
        "--db",
        &url,
    ]);
    assert!(!db_bad.status.success());

    // An Empires game: its blank sheet, and a kingdom's code is no empire.
    let w = tmp.path().join("w");
    let w = w.to_str().unwrap();
    ok(&["new", w, "--map", "tutorial", "--seed", "1"]);
    let empire_sheet = stdout(&ok(&["sheet", w, "EN"]));
    assert!(
        empire_sheet.contains("TURNSHEET FOR TURN 1"),
        "{empire_sheet}"
    );
    assert!(
        empire_sheet.contains("GAME British Isles"),
        "{empire_sheet}"
    );
    let not_empire = empires(&["check", w, "--empire", "FRA", blank.to_str().unwrap()]);
    assert!(stderr(&not_empire).contains("FRA is not an empire's code"));
}

/// `empires verify` on a Napoleonic game in a directory plays every turn again from the
/// sheets it took: a state edited after its turn is caught, whether its hash was left as it
/// was or written again to match.
#[test]
fn a_directory_game_is_verified_and_a_changed_state_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nap");
    let d = dir.to_str().unwrap();
    france_and_prussia(d, "3");
    let sheet = tmp.path().join("FRA.txt");
    send_blank(&sheet, d, "FRA");
    ok(&["turn", d]);
    ok(&["turn", d]);
    let clean = stdout(&ok(&["verify", d]));
    assert!(clean.contains("2 turns checked, 0 differ"), "{clean}");

    // Turn 1's state given more gold, its hash written again to match.
    let state = dir.join("turns/0001/state.json");
    let text = fs::read_to_string(&state).unwrap();
    let changed = text.replacen("\"treasury\": ", "\"treasury\": 1", 1);
    assert_ne!(changed, text);
    fs::write(&state, &changed).unwrap();
    let hash = sha256_hex(changed.as_bytes());
    fs::write(dir.join("turns/0001/state.sha256"), format!("{hash}\n")).unwrap();
    let out = empires(&["verify", d]);
    assert!(!out.status.success());
    let found = stdout(&out);
    assert!(found.contains("turn 1: DIFFERS"), "{found}");
    assert!(found.contains("treasury"), "{found}");

    // Its hash left as it was: the state no longer matches it.
    fs::write(dir.join("turns/0001/state.sha256"), "0\n").unwrap();
    let found = stdout(&empires(&["verify", d]));
    assert!(found.contains("does not match state.sha256"), "{found}");
}

/// A Napoleonic directory game goes into PostgreSQL (and SQLite) and comes back out the
/// same, every turn's files byte for byte, with the sheet waiting for its next turn; the
/// database plays on from it like any game of its own.
#[test]
fn a_directory_game_is_exported_and_imported_byte_for_byte() {
    use empires_cli::commands::hosted::block_on;
    use empires_host::store::dir::files_under;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nap");
    let d = dir.to_str().unwrap();
    france_and_prussia(d, "5");
    let sheet = tmp.path().join("FRA.txt");
    send_blank(&sheet, d, "FRA");
    ok(&["turn", d]);
    ok(&["turn", d]);
    // A sheet waiting for turn 3 goes across too.
    send_blank(&sheet, d, "PRU");
    let turns = |root: &std::path::Path| files_under(&root.join("turns")).unwrap();
    let pending = |root: &std::path::Path| files_under(&root.join("orders")).unwrap();
    let sqlite = format!("sqlite:{}", tmp.path().join("host.db").display());
    let pg = block_on(empires_testkit::fresh_postgres("nap_transfer"));
    for url in std::iter::once(sqlite.clone()).chain(pg.clone()) {
        ok(&["import", d, "--db", &url, "--name", "moved"]);
        let back = tmp.path().join(format!("back-{}", url.len()));
        ok(&["export", "moved", back.to_str().unwrap(), "--db", &url]);
        assert_eq!(turns(&back), turns(&dir), "{url}");
        assert_eq!(pending(&back), pending(&dir), "{url}");
        let clean = stdout(&ok(&["verify", back.to_str().unwrap()]));
        assert!(
            clean.contains("2 turns checked, 0 differ"),
            "{url}: {clean}"
        );
        let played = stdout(&ok(&["turn", "moved", "--db", &url, "--yes"]));
        assert!(played.contains("orders from: PRU"), "{url}: {played}");
    }
    if let Some(url) = pg {
        block_on(empires_testkit::drop_postgres(&url));
    }
}

/// A directory written by an earlier version (turns numbered for the turn their state was
/// ready to play, a `sheets/` folder in each, no record) is brought into the one layout the
/// first time it is opened: it reads, verifies and plays on.
#[test]
fn a_directory_in_the_earlier_layout_is_upgraded_when_opened() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nap");
    let d = dir.to_str().unwrap();
    france_and_prussia(d, "3");
    ok(&["turn", d]);
    let kept = fs::read(dir.join("turns/0001/state.json")).unwrap();
    // As the earlier version left it.
    fs::rename(dir.join("turns/0001"), dir.join("turns/0002")).unwrap();
    fs::rename(dir.join("turns/0000"), dir.join("turns/0001")).unwrap();
    fs::remove_file(dir.join("turns/0002/turn.json")).unwrap();
    for t in ["0001", "0002"] {
        fs::create_dir(dir.join(format!("turns/{t}/sheets"))).unwrap();
        fs::write(
            dir.join(format!("turns/{t}/sheets/FRA.txt")),
            "a blank sheet\n",
        )
        .unwrap();
    }
    let status = stdout(&ok(&["status", d]));
    assert!(status.contains("turn 1 played; next turn 2"), "{status}");
    assert!(dir.join("turns/0000/state.json").is_file());
    assert_eq!(fs::read(dir.join("turns/0001/state.json")).unwrap(), kept);
    assert!(!dir.join("turns/0002").exists());
    assert!(!dir.join("turns/0001/sheets").exists());
    let clean = stdout(&ok(&["verify", d]));
    assert!(clean.contains("1 turns checked, 0 differ"), "{clean}");
    let played = stdout(&ok(&["turn", d]));
    assert!(played.contains("turn 2 of"), "{played}");
}

/// A Napoleonic game in the directory `d`, France and Prussia in play, made by the common
/// `new`.
fn france_and_prussia(d: &str, seed: &str) {
    ok(&[
        "new",
        d,
        "--ruleset",
        "napoleonic",
        "--seed",
        seed,
        "--seat",
        "FRA",
        "--seat",
        "PRU",
    ]);
}

/// `seat`'s blank sheet for the next turn of the directory game `d`, written to `sheet`
/// and sent as it is.
fn send_blank(sheet: &std::path::Path, d: &str, seat: &str) {
    fs::write(sheet, stdout(&ok(&["sheet", d, seat]))).unwrap();
    ok(&["submit", d, sheet.to_str().unwrap(), "--empire", seat]);
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `empires report` prints a kingdom's report of a played turn in every form, and draws its
/// map as a PNG, in a directory and in a database, as `empires napoleonic report` does.
#[test]
fn the_common_report_command_reads_a_game_of_any_ruleset() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nap");
    let d = dir.to_str().unwrap();
    ok(&[
        "new",
        d,
        "--ruleset",
        "napoleonic",
        "--seed",
        "2",
        "--seat",
        "FRA",
    ]);
    let early = stdout(&ok(&["report", d, "--empire", "FRA"]));
    assert!(early.contains("the starting position"), "{early}");
    ok(&["turn", d]);
    let text = stdout(&ok(&["report", d, "--empire", "FRA"]));
    assert!(text.contains("France (FRA)"), "{text}");
    assert_eq!(text, stdout(&ok(&["napoleonic", "report", d, "FRA"])));
    let json = stdout(&ok(&["report", d, "--empire", "FRA", "--format", "json"]));
    assert!(json.contains("\"kingdom\""), "{json}");
    let html = stdout(&ok(&["report", d, "--empire", "FRA", "--format", "html"]));
    assert!(html.contains("<svg"), "the page draws its map");
    let png = tmp.path().join("fra.png");
    ok(&[
        "report",
        d,
        "--empire",
        "FRA",
        "--format",
        "png",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(fs::read(&png).unwrap().starts_with(b"\x89PNG\r\n"));
    // A kingdom with no report is refused by name.
    assert!(!empires(&["report", d, "--empire", "AUS"]).status.success());

    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    ok(&[
        "new",
        "europe",
        "--db",
        &url,
        "--ruleset",
        "napoleonic",
        "--seed",
        "2",
    ]);
    ok(&["turn", "europe", "--db", &url, "--yes"]);
    let from_db = stdout(&ok(&["report", "europe", "--db", &url, "--empire", "PRU"]));
    assert!(from_db.contains("Prussia (PRU)"), "{from_db}");
}

/// The GM's rulings from the command line (N5): rulers start as Royalty where the GM says
/// (`--royalty`, or `--option royalty=` of the common `new`), a bad ruling is named with its
/// line, and a sheet of rulings sent with `submit --rulings` is played with the next turn:
/// Prussia made Royalty, France's proclamation earning nothing, the game won and ended.
#[test]
fn the_gm_rules_on_status_a_proclamation_and_the_winner() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nap");
    let d = dir.to_str().unwrap();
    ok(&[
        "napoleonic",
        "new",
        d,
        "--kingdom",
        "FRA",
        "--kingdom",
        "PRU",
        "--royalty",
        "FRA",
    ]);
    let status = |turn: &str, k: &str| {
        let s = fs::read_to_string(dir.join(format!("turns/{turn}/state.json"))).unwrap();
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        v["kingdoms"][k]["status"].as_str().unwrap().to_string()
    };
    assert_eq!(status("0000", "FRA"), "royalty");
    assert_eq!(status("0000", "PRU"), "commoner");
    let other = tmp.path().join("other");
    let o = other.to_str().unwrap();
    let bad = empires(&[
        "new",
        o,
        "--ruleset",
        "napoleonic",
        "--seat",
        "FRA",
        "--option",
        "royalty=PRU",
    ]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("PRU is to start as Royalty"),
        "{}",
        stderr(&bad)
    );

    let rulings = tmp.path().join("rulings.txt");
    fs::write(&rulings, "ROYALTY PRU\nKNIGHT FRA\n").unwrap();
    let out = empires(&["submit", d, rulings.to_str().unwrap(), "--rulings"]);
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert!(
        said.contains("line 2") && said.contains("not a ruling"),
        "{said}"
    );
    fs::write(
        &rulings,
        "ROYALTY PRU\nDENY PROCLAMATION FRA\nWINNER FRA: the GM ends the test\n",
    )
    .unwrap();
    ok(&["submit", d, rulings.to_str().unwrap(), "--rulings"]);
    let blank = stdout(&ok(&["sheet", d, "FRA"]));
    let sheet = tmp.path().join("FRA.txt");
    let with = blank.replacen("PROCLAMATION", "PROCLAMATION\nVive la France!", 1);
    assert_ne!(with, blank, "the sheet has a proclamation");
    fs::write(&sheet, with).unwrap();
    ok(&["submit", d, sheet.to_str().unwrap(), "--empire", "FRA"]);
    let played = stdout(&ok(&["turn", d, "--yes"]));
    assert!(played.contains("FRA"), "{played}");
    assert_eq!(status("0001", "PRU"), "royalty");
    let fra = stdout(&ok(&["report", d, "--empire", "FRA"]));
    assert!(fra.contains("found your proclamation unsuitable"), "{fra}");
    assert!(fra.contains("The GM declares the game won by you"), "{fra}");
    let pru = stdout(&ok(&["report", d, "--empire", "PRU"]));
    assert!(pru.contains("your ruler is Royalty"), "{pru}");
    assert!(!pru.contains("unsuitable"), "France's business: {pru}");
    // The game is over: no more sheets.
    let late = empires(&["submit", d, sheet.to_str().unwrap(), "--empire", "FRA"]);
    assert!(!late.status.success());
    assert!(stderr(&late).contains("over"), "{}", stderr(&late));
    assert!(
        fs::read_to_string(dir.join("turns/0001/orders/rulings.txt"))
            .unwrap()
            .contains("WINNER FRA")
    );
}
