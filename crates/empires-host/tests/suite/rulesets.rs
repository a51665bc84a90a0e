//! The host runs every ruleset through one interface: the same game directory code creates,
//! checks, plays and reports a game of Empires and a game of Napoleonic Empires, without
//! knowing which it holds.

use empires_host::gamefiles::GameFiles;
use empires_host::ruleset::{self, Ruleset, Setup};
use std::fs;
use std::path::Path;

/// Every ruleset the program is built with, handed to the host as the program does.
fn all() -> impl Iterator<Item = &'static dyn ruleset::Ruleset> {
    empires_testkit::rulesets();
    ruleset::all().iter().copied()
}

fn by_id(id: &str) -> empires_host::Result<&'static dyn ruleset::Ruleset> {
    empires_testkit::rulesets();
    ruleset::by_id(id)
}

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A small game of each ruleset: the tutorial map for Empires, two kingdoms of Europe, the
/// two runners of Relay (the test game of the step model).
fn setup(r: &dyn Ruleset) -> Setup {
    match r.id() {
        "empires" => Setup {
            name: "Tutorial".into(),
            seed: 7,
            map: Some(fs::read_to_string(repo().join("maps/tutorial.toml")).unwrap()),
            seats: vec!["EN".into(), "SC".into()],
            ..Default::default()
        },
        "relay" => Setup {
            name: "Race".into(),
            seed: 7,
            seats: vec!["RED".into(), "BLU".into()],
            ..Default::default()
        },
        _ => Setup {
            name: "Europe".into(),
            seed: 7,
            map: None,
            seats: vec!["FRA".into(), "PRU".into()],
            ..Default::default()
        },
    }
}

#[test]
fn every_ruleset_is_created_checked_played_and_reported_the_same_way() {
    for r in all() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("game");
        let game = GameFiles::create(&dir, r, &setup(r)).unwrap();
        let seats = game.seats().unwrap();
        assert!(seats.len() >= 2, "{}: {seats:?}", r.id());
        let seat = &setup(r).seats[0];
        assert!(
            seats.iter().any(|s| &s.code == seat && s.alive),
            "{}",
            r.id()
        );

        // The printed sheet reads back without an error.
        let sheet = game.sheet(seat).unwrap();
        let checked = game.check(seat, "sheet.txt", &sheet).unwrap();
        assert_eq!(checked.errors, 0, "{}: {}", r.id(), checked.text());
        // A sheet with a mistake: the message names the file and a line.
        let bad = match r.id() {
            // An Empires sheet's first numbered line holds an unknown action.
            "empires" => sheet.replacen("\n1.\n", "\n1. NONSENSE HERE\n", 1),
            _ => format!("{sheet}\nNONSENSE HERE\n"),
        };
        assert_ne!(bad, sheet);
        let checked = game.check(seat, "sheet.txt", &bad).unwrap();
        assert!(
            checked.errors + checked.warnings > 0,
            "{}: {}",
            r.id(),
            checked.text()
        );
        assert!(
            checked.text().contains("sheet.txt:"),
            "{}: {}",
            r.id(),
            checked.text()
        );

        // One seat sends its sheet; the turn is played and written whole.
        fs::write(dir.join(format!("orders/{seat}.txt")), &sheet).unwrap();
        let first = game.current_turn().unwrap();
        let played = game.play(yes()).unwrap();
        assert_eq!(played.turn, first + 1, "{}", r.id());
        assert_eq!(played.orders_from, vec![seat.clone()], "{}", r.id());
        let next = game.current_turn().unwrap();
        assert_eq!(next, first + 1, "{}", r.id());
        let turn_dir = dir.join(format!("turns/{next:04}"));
        for f in ["state.json", "state.sha256", "events.json"] {
            assert!(turn_dir.join(f).is_file(), "{}: {f}", r.id());
        }
        assert!(turn_dir.join(format!("orders/{seat}.txt")).is_file());
        assert!(!dir.join(format!("orders/{seat}.txt")).exists());
        assert!(turn_dir.join("turn.json").is_file());
        // Every living seat has its report, in text at least.
        for s in seats.iter().filter(|s| s.alive) {
            let report = game.report(next, &format!("{}.txt", s.code)).unwrap();
            assert!(!report.is_empty(), "{}: {}", r.id(), s.code);
        }
        // The state verifies, and the next turn plays on it.
        game.state(next).unwrap();
        game.play(yes()).unwrap();
        assert_eq!(game.current_turn().unwrap(), next + 1);
    }
}

#[test]
fn the_same_game_and_sheets_give_the_same_bytes_in_every_ruleset() {
    for r in all() {
        let states: Vec<String> = (0..2)
            .map(|_| {
                let tmp = tempfile::tempdir().unwrap();
                let dir = tmp.path().join("game");
                let game = GameFiles::create(&dir, r, &setup(r)).unwrap();
                game.play(yes()).unwrap();
                game.state(game.current_turn().unwrap()).unwrap()
            })
            .collect();
        assert_eq!(states[0], states[1], "{}", r.id());
    }
}

#[test]
fn a_game_is_opened_only_as_its_own_ruleset_and_reports_stay_inside_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("game");
    let nap = by_id("napoleonic").unwrap();
    let game = GameFiles::create(&dir, nap, &setup(nap)).unwrap();
    let err = GameFiles::open(&dir, Some("empires")).err().unwrap();
    assert!(
        err.to_string().contains("is a game of Napoleonic Empires"),
        "{err}"
    );
    assert!(GameFiles::open(&dir, Some("napoleonic")).is_ok());
    assert!(by_id("chess").is_err());
    game.play(yes()).unwrap();
    for name in ["../game.toml", "/etc/passwd", "..", ".hidden"] {
        assert!(game.report(1, name).is_err(), "{name}");
    }
    // A seat that is not in the game is named in the turn's notes, and its sheet not used.
    fs::write(
        dir.join("orders/AUS.txt"),
        "GAME Europe KINGDOM AUS TURN 2\n",
    )
    .unwrap();
    let played = game.play(yes()).unwrap();
    assert!(played.orders_from.is_empty());
    assert!(
        played.warnings.iter().any(|n| n.contains("AUS.txt")),
        "{:?}",
        played.warnings
    );
}

/// A hosted Napoleonic turn: a kingdom that sent nothing does nothing (digest 1.2), the
/// independents' routine writes their orders (G36), kept for the GM, and the GM is told
/// when the game is won (G5).
#[test]
fn a_napoleonic_turn_plays_the_independents_and_says_when_the_game_is_won() {
    use empires_host::ruleset::GameText;
    let nap = by_id("napoleonic").unwrap();
    let started = nap.create(&setup(nap)).unwrap();
    fn text<'a>(started: &'a ruleset::Started, state: &'a str) -> GameText<'a> {
        GameText {
            name: "Europe",
            map: &started.map,
            state,
            kept: started.kept.as_deref(),
        }
    }
    let won = |notes: &[String]| notes.iter().any(|n| n.starts_with("the game is won by"));

    let played = nap
        .play(text(&started, &started.state), Default::default())
        .unwrap();
    let files: Vec<&str> = played
        .computer_orders
        .iter()
        .map(|(f, _)| f.as_str())
        .collect();
    assert_eq!(files, ["IND.json"], "only the independents are played");
    assert!(!won(&played.notes), "{:?}", played.notes);

    // With a threshold of 1 % of the provinces, either kingdom alone has won.
    let mut state: serde_json::Value = serde_json::from_str(&started.state).unwrap();
    state["settings"]["victory_province_percent"] = 1.into();
    let low = serde_json::to_string(&state).unwrap();
    let played = nap.play(text(&started, &low), Default::default()).unwrap();
    assert!(won(&played.notes), "{:?}", played.notes);
}

/// A directory game is played when its GM says: whoever has sent nothing.
fn yes() -> empires_host::turn::TurnOptions {
    empires_host::turn::TurnOptions {
        yes: true,
        ..Default::default()
    }
}
