//! The per-phase dry run on the standard map: where each unit stands phase by phase, and
//! which orders fail, as the turn itself would play them.

use napoleonic_orders::dryrun::dry_run;
use napoleonic_orders::parse;
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::standard::europe;
use napoleonic_rules::{KingdomCode, LocId, UnitId};

fn code(map: &napoleonic_rules::Map, at: Option<LocId>) -> String {
    at.and_then(|l| map.get(l))
        .map_or("-".into(), |l| l.code.clone())
}

#[test]
fn t29_the_dry_run_shows_each_phase_and_the_march_that_fails() {
    let map = europe();
    let state = new_game(&map, &NewGame::standard(1)).unwrap();
    let fra = KingdomCode::new("FRA").unwrap();
    // A1 (infantry, 2 MP) in Paris: into its own Champagne for 1, then independent Burgundy
    // for 2, with 1 left: the second march fails and A1 stays in Champagne (T29, G30).
    let sheet = parse(
        &map,
        "GAME g KINGDOM FRA TURN 1\nA1\n  1: MOVE CHA\n  2: MOVE BUR\n",
    );
    assert_eq!(sheet.errors(), 0, "{:?}", sheet.diagnostics);
    let run = dry_run(&map, &state, &fra, &sheet.orders).unwrap();
    let a1 = run
        .units
        .iter()
        .find(|u| u.unit == UnitId::army(1))
        .unwrap();
    let path: Vec<String> = a1.positions.iter().map(|p| code(&map, *p)).collect();
    assert_eq!(&path[..3], ["PAR", "CHA", "CHA"]);
    assert_eq!(run.problems.len(), 1, "{:?}", run.problems);
    let p = &run.problems[0];
    assert_eq!(
        (p.when.as_str(), p.unit),
        ("phase 2", Some(UnitId::army(1)))
    );
    assert!(p.message.contains("move point"), "{}", p.message);
    let text = run.text(&map);
    assert!(text.contains("A1     PAR   CHA   CHA"), "{text}");
    assert!(text.contains("phase 2, A1:"), "{text}");
}

#[test]
fn the_dry_run_knows_nothing_of_other_kingdoms_orders_and_changes_no_state() {
    let map = europe();
    let state = new_game(&map, &NewGame::standard(1)).unwrap();
    let fra = KingdomCode::new("FRA").unwrap();
    let sheet = parse(&map, "GAME g KINGDOM FRA TURN 1\nA1\n  1: MOVE CHA\n");
    let before = state.clone();
    let run = dry_run(&map, &state, &fra, &sheet.orders).unwrap();
    assert_eq!(state, before);
    // Exactly the kingdom's own units are listed.
    let own = state.units.iter().filter(|u| u.owner == fra).count();
    assert_eq!(run.units.len(), own);
    assert!(run.units.iter().all(|u| state.unit(&fra, u.unit).is_some()));
    assert!(run.problems.is_empty());
    assert!(run.text(&map).contains("No order fails."));
}
