//! `empires check`: diagnostics and the forecast, through the real binary.

use crate::common;

use common::*;
use serde_json::Value;
use std::fs;

fn game(tmp: &tempfile::TempDir) -> std::path::PathBuf {
    let dir = tmp.path().join("game");
    ok(&["new", s(&dir), "--map", s(&tutorial_map()), "--seed", "3"]);
    dir
}

#[test]
fn clean_orders_pass_with_a_forecast() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = game(&tmp);
    let orders = tmp.path().join("EN.txt");
    fs::write(&orders, "TURN 1\nEMPIRE EN\nTAX\nGROW LON\n").unwrap();
    let o = ok(&["check", s(&dir), "--empire", "EN", s(&orders)]);
    let out = stdout(&o);
    assert!(out.contains("0 errors, 0 warnings"), "{out}");
    assert!(
        out.contains("Forecast of turn 1 for EN, as if no other empire acted:"),
        "{out}"
    );
    assert!(out.contains("taxed 2 BPs"), "{out}");
    assert!(out.contains("expected surplus:"), "{out}");
}

#[test]
fn errors_exit_non_zero_with_compiler_style_messages() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = game(&tmp);
    let orders = tmp.path().join("EN.txt");
    fs::write(&orders, "TAX\nATACK LON KEN 3\n").unwrap();
    let o = empires(&["check", s(&dir), "--empire", "EN", s(&orders)]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("EN.txt:2:1: error[E001]: `ATACK` is not an action"),
        "{out}"
    );
    assert!(out.contains("did you mean ATTACK?"), "{out}");
    assert!(out.contains("1 error, 0 warnings"), "{out}");
    // The forecast still shows the rest of the turn.
    assert!(out.contains("FAILS: not understood"), "{out}");
}

#[test]
fn json_for_the_web() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = game(&tmp);
    let orders = tmp.path().join("EN.txt");
    fs::write(&orders, "TAX\nMOVE LON XYZ 1\nCASH 5\n").unwrap();
    let o = empires(&[
        "check",
        s(&dir),
        "--empire",
        "EN",
        s(&orders),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["errors"], 1);
    assert_eq!(v["diagnostics"][0]["code"], "E010");
    assert_eq!(v["diagnostics"][0]["line"], 2);
    let steps = v["forecast"]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    assert_eq!(steps[1]["status"], "failed");
    // CASH 5: the treasury drops by 5 in the forecast, and the unused BPs come back.
    let t0 = v["forecast"]["start_treasury"].as_u64().unwrap();
    assert_eq!(steps[2]["treasury"].as_u64().unwrap(), t0 - 5);
    assert_eq!(v["forecast"]["cash_returned"], 5);
}

#[test]
fn unknown_empire_and_missing_file_are_clean_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = game(&tmp);
    let e = fails(&[
        "check",
        s(&dir),
        "--empire",
        "ZZ",
        s(&tmp.path().join("x.txt")),
    ]);
    assert!(e.contains("ZZ is not an empire"), "{e}");
    let e = fails(&[
        "check",
        s(&dir),
        "--empire",
        "EN",
        s(&tmp.path().join("none.txt")),
    ]);
    assert!(e.contains("none.txt"), "{e}");
}

#[test]
fn checking_changes_nothing_in_the_game() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = game(&tmp);
    let before = fs::read(dir.join("turns/0000/state.json")).unwrap();
    let orders = tmp.path().join("EN.txt");
    fs::write(&orders, "ATTACK LON KEN\n").unwrap();
    empires(&["check", s(&dir), "--empire", "EN", s(&orders)]);
    assert_eq!(fs::read(dir.join("turns/0000/state.json")).unwrap(), before);
    assert!(!dir.join("turns/0001").exists());
}

#[test]
fn an_action_the_forecast_knows_will_fail_counts_as_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = game(&tmp);
    let orders = tmp.path().join("EN.txt");
    // GROW in an area EN does not own: legal to write, certain to fail.
    fs::write(&orders, "TAX\nGROW EDI\n").unwrap();
    let o = ok(&["check", s(&dir), "--empire", "EN", s(&orders)]);
    let out = stdout(&o);
    assert!(out.contains("0 errors, 1 warning"), "{out}");
    assert!(
        out.contains("EN.txt:2:1: warning[W114]: on what you can see, this action will fail"),
        "{out}"
    );
    // And the end of the turn: what cannot be foreseen is said.
    assert!(out.contains("not foreseen:"), "{out}");
}

/// A player's own copy of the checker: the same turnsheet checked against the game
/// directory and against the player's report alone gives the same messages and forecast.
#[test]
fn checking_from_the_players_own_report_says_the_same() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    ok(&[
        "new",
        s(&dir),
        "--map",
        "tutorial",
        "--seed",
        "3",
        "--player",
        "EN=Ann",
    ]);
    for f in fs::read_dir(tutorial_orders()).unwrap() {
        let f = f.unwrap().path();
        fs::copy(&f, dir.join("orders").join(f.file_name().unwrap())).unwrap();
    }
    ok(&["turn", s(&dir)]);
    // Realistic turnsheets for turn 2: the computer's, for every empire, taken from a turn
    // played and then taken back.
    ok(&["turn", s(&dir), "--yes"]);
    let sheets = tmp.path().join("sheets");
    fs::create_dir(&sheets).unwrap();
    for f in fs::read_dir(dir.join("turns/0002/orders")).unwrap() {
        let f = f.unwrap().path();
        fs::copy(&f, sheets.join(f.file_name().unwrap())).unwrap();
    }
    ok(&["undo", s(&dir)]);
    let mut compared = 0;
    for code in ["EN", "SC", "IR", "WA"] {
        let report = tmp.path().join(format!("{code}.json"));
        fs::write(
            &report,
            stdout(&ok(&[
                "report",
                s(&dir),
                "--empire",
                code,
                "--format",
                "json",
            ])),
        )
        .unwrap();
        let mut mine = vec![sheets.join(format!("{code}.txt"))];
        // And the example sheets, which hold mistakes of every kind, as if this empire's.
        mine.extend(
            fs::read_dir(tutorial_orders())
                .unwrap()
                .map(|f| f.unwrap().path()),
        );
        for sheet in mine {
            let by_game = empires(&["check", s(&dir), "--empire", code, s(&sheet)]);
            let by_report = empires(&["check", "--report", s(&report), s(&sheet)]);
            assert_eq!(by_game.status.code(), by_report.status.code());
            assert_eq!(
                stdout(&by_report),
                stdout(&by_game),
                "{code} {}",
                sheet.display()
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 4 * 5);
    // The report as the turn keeps it, its shared parts in the public.json beside it, says
    // the same; without that file the message says where the whole report is.
    let kept = dir.join("turns/0001/reports/EN.json");
    let sheet = sheets.join("EN.txt");
    assert!(
        fs::read_to_string(&kept)
            .unwrap()
            .contains("\"shared_in\":\"public.json\"")
    );
    assert_eq!(
        stdout(&empires(&["check", "--report", s(&kept), s(&sheet)])),
        stdout(&empires(&[
            "check",
            "--report",
            s(&tmp.path().join("EN.json")),
            s(&sheet)
        ]))
    );
    let alone = tmp.path().join("alone");
    fs::create_dir(&alone).unwrap();
    fs::copy(&kept, alone.join("EN.json")).unwrap();
    let err = fails(&["check", "--report", s(&alone.join("EN.json")), s(&sheet)]);
    assert!(
        err.contains("public.json") && err.contains("empires report --format json"),
        "{err}"
    );
    // A report of a game on a map that is not standard needs the map.
    let err = fails(&[
        "check",
        "--report",
        s(&tmp.path().join("EN.json")),
        "--map",
        "nowhere.toml",
        s(&sheets.join("EN.txt")),
    ]);
    assert!(err.contains("nowhere.toml"), "{err}");
}

/// The same on a European game, with supply trains, capitals and supply lines (seed 003).
#[test]
fn checking_from_the_report_says_the_same_in_european_empires() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    ok(&["new", s(&dir), "--map", "european", "--seed", "11"]);
    ok(&["turn", s(&dir)]);
    ok(&["turn", s(&dir)]);
    let sheets = tmp.path().join("sheets");
    fs::create_dir(&sheets).unwrap();
    for f in fs::read_dir(dir.join("turns/0002/orders")).unwrap() {
        let f = f.unwrap().path();
        fs::copy(&f, sheets.join(f.file_name().unwrap())).unwrap();
    }
    ok(&["undo", s(&dir)]);
    for code in ["FR", "EN", "PR", "RU", "SP", "AU"] {
        let report = tmp.path().join(format!("{code}.json"));
        fs::write(
            &report,
            stdout(&ok(&[
                "report",
                s(&dir),
                "--empire",
                code,
                "--format",
                "json",
            ])),
        )
        .unwrap();
        let sheet = sheets.join(format!("{code}.txt"));
        let by_game = stdout(&empires(&["check", s(&dir), "--empire", code, s(&sheet)]));
        let by_report = stdout(&empires(&["check", "--report", s(&report), s(&sheet)]));
        assert!(by_game.contains("Supply: capacity"), "{by_game}");
        assert_eq!(by_report, by_game, "{code}");
    }
}
