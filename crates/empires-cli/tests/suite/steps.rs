//! A game played in steps through the `empires` commands: Relay
//! (`empires_testkit::relay`), created with `empires new --ruleset relay`, its sheets and the
//! GM's rulings kept by `empires submit`, its legs played by `empires turn`, read by `empires
//! report` and checked by `empires verify`, in a directory and in SQLite.

use empires_cli::commands::hosted::{self, GameAt};
use empires_host::turn::TurnOptions;
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn submit(at: &GameAt, dir: &Path, seat: Option<&str>, text: &str) -> String {
    let file = write(dir, "sheet.txt", text);
    let seat = seat.map(|s| s.parse().unwrap());
    hosted::submit(at, seat, &file, seat.is_none())
        .map(|r| r.to_string())
        .unwrap_or_else(|e| format!("refused: {e}"))
}

fn turn(at: &GameAt, yes: bool) -> Result<u32, String> {
    let (store, game) = hosted::open(at).unwrap();
    let options = TurnOptions {
        yes,
        ..TurnOptions::default()
    };
    hosted::block_on(store.play_turn(&game, options, 1_795_000_000_000))
        .map(|r| r.turn)
        .map_err(|e| e.to_string())
}

fn race(at: &GameAt, scratch: &Path) {
    let made = empires_cli::commands::new::other_ruleset(
        "relay",
        at,
        (None, None, None),
        (vec![], vec!["finish=14".into()]),
    );
    assert!(made.is_ok(), "{made:?}");
    // BLU's sheet for RED's leg is refused; without a step it is kept ahead.
    let refused = submit(at, scratch, Some("BLU"), "RUNNER BLU\nSTEP 1\nRUN 2\n");
    assert!(refused.contains("refused"), "{refused}");
    let ahead = submit(at, scratch, Some("BLU"), "RUNNER BLU\nRUN 2\n");
    assert!(
        ahead.contains("for turn 2 (game-turn 1, leg 2 of 2: BLU runs (sent ahead))"),
        "{ahead}"
    );
    let red = submit(
        at,
        scratch,
        Some("RED"),
        "RUNNER RED\nRUN 5\nASK a tailwind\n",
    );
    assert!(red.contains("kept RED's turnsheet for turn 1"), "{red}");
    assert_eq!(turn(at, true), Ok(1));
    // BLU's leg waits for the GM's rulings, BLU's sheet sent ahead notwithstanding.
    let waiting = turn(at, false).unwrap_err();
    assert!(waiting.contains("waits for the GM's rulings"), "{waiting}");
    let ruled = submit(at, scratch, None, "GRANT RED 2\n");
    assert!(
        ruled.contains("kept the GM's rulings for turn 2"),
        "{ruled}"
    );
    assert_eq!(turn(at, false), Ok(2));
    let report = hosted::report(at, "BLU".parse().unwrap(), Some(2), "txt").unwrap();
    assert!(
        report.contains("The GM rules: RED is granted 2."),
        "{report}"
    );
    assert!(report.contains("You have run 2 of 14"), "{report}");
    let verified = hosted::verify(at).unwrap();
    assert_eq!(verified.failures(), 0, "{verified}");
}

#[test]
fn a_race_is_played_by_the_commands_in_a_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let at = GameAt::new(&tmp.path().join("race"), None);
    race(&at, tmp.path());
}

#[test]
fn a_race_is_played_by_the_commands_in_sqlite() {
    let tmp = tempfile::tempdir().unwrap();
    let url = format!("sqlite:{}", tmp.path().join("host.db").display());
    let at = GameAt::new(Path::new("race"), Some(&url));
    race(&at, tmp.path());
}

#[test]
fn the_rulesets_are_listed_with_their_options_and_defaults() {
    let listed = empires_cli::commands::new::rulesets();
    assert!(listed.contains("relay (Relay)"), "{listed}");
    assert!(listed.contains("option finish (default 12)"), "{listed}");
    assert!(listed.contains("option actions (default 16)"), "{listed}");
    let tmp = tempfile::tempdir().unwrap();
    let at = GameAt::new(&tmp.path().join("race"), None);
    let bad = empires_cli::commands::new::other_ruleset(
        "relay",
        &at,
        (None, None, None),
        (vec![], vec!["laps".into()]),
    );
    let why = bad.unwrap_err().to_string();
    assert!(
        why.contains("expected ID=VALUE") && why.contains("finish (default 12)"),
        "{why}"
    );
}
