//! `empires simulate`, `empires balance` and `empires demo` through the real binary.

use crate::common;

use common::*;

#[test]
fn simulate_plays_a_whole_game() {
    let o = ok(&[
        "simulate", "--map", "tutorial", "--seed", "3", "--turns", "30",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("British Isles (Medieval Empires), seed 3"),
        "{out}"
    );
    assert!(
        out.contains("won a") || out.contains("no winner after 30 turns"),
        "{out}"
    );
    assert!(out.contains("turns a second"), "{out}");
    // The same seed gives the same game (all but the timing line).
    let again = stdout(&ok(&[
        "simulate", "--map", "tutorial", "--seed", "3", "--turns", "30",
    ]));
    let head = |s: &str| {
        s.lines()
            .take_while(|l| !l.contains("turns in"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(head(&again), head(&out));
}

#[test]
fn balance_reports_every_start_position_and_draws_a_chart() {
    let tmp = tempfile::tempdir().unwrap();
    let chart = tmp.path().join("balance.svg");
    let o = ok(&[
        "balance",
        "--map",
        "tutorial",
        "--games",
        "6",
        "--turns",
        "20",
        "--chart",
        s(&chart),
    ]);
    let out = stdout(&o);
    for code in ["EN", "SC", "IR", "WA"] {
        assert!(out.lines().any(|l| l.starts_with(code)), "{out}");
    }
    assert!(out.contains("6 games of computer players"), "{out}");
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("win rate"));
    assert!(chart.with_extension("png").exists());
}

#[test]
fn the_demo_leaves_a_game_with_reports_and_maps() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("demo");
    let o = ok(&["demo", s(&dir), "--turns", "2"]);
    let out = stdout(&o);
    assert!(out.contains("Have a look at:"), "{out}");
    assert!(dir.join("turns/0002/reports/FR.html").exists());
    assert!(dir.join("turns/0002/reports/gm.txt").exists());
    assert!(dir.join("maps/game-turn-2.png").exists());
    assert!(dir.join("maps/france-sees-turn-2.png").exists());
}
