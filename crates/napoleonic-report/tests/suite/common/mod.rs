//! A small game for the report tests: France and Prussia on a map of nine locations, with
//! two-character and four-character codes (which the drawing must rename), a mountain
//! barrier and a reef.
#![allow(dead_code)]

use napoleonic_rules::event::{Event, MoveStep, What, When};
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::{HqOrder, KingdomOrders, PhasePlan, Step, TroopCount, UnitOrders};
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::state::GameState;
use napoleonic_rules::{Fixed, KingdomCode, LocId, TroopCode, UnitId, play};
use std::collections::BTreeMap;

pub const MAP: &str = r#"
name = "Little Europe"

[[province]]
id = 1
code = "PAR"
name = "Paris"
position = [2.35, 48.85]
revenue = 20
adjacent = ["NOR", "FL", "RHI"]
fort = 2
city = { name = "Paris", builds = ["MIL", "LIN", "GRE", "LCV", "ART"], max_builds = 6 }

[[province]]
id = 2
code = "NOR"
name = "Normandy"
position = [0.2, 49.2]
revenue = 10
adjacent = ["PAR", "FL", "CHN"]
harbour = true
city = { name = "Rouen", builds = ["MIL", "LIN", "WAR", "TRN"], max_builds = 3 }

[[province]]
id = 3
code = "FL"
name = "Flanders"
position = [3.7, 51.0]
revenue = 12
adjacent = ["PAR", "NOR", "RHI", "CHN"]
barriers = ["NTH"]
garrison = [["MIL", 2]]

[[province]]
id = 4
code = "RHI"
name = "Rhineland"
position = [7.0, 50.4]
revenue = 12
adjacent = ["PAR", "FL", "HAN"]
barriers = ["SAX"]
garrison = [["LIN", 2]]

[[province]]
id = 5
code = "HAN"
name = "Hanover"
position = [9.7, 52.4]
revenue = 10
adjacent = ["RHI", "BRLN", "SAX", "NTH"]
garrison = [["MIL", 1]]

[[province]]
id = 6
code = "BRLN"
name = "Brandenburg"
position = [13.3, 52.5]
revenue = 20
adjacent = ["HAN", "SAX"]
fort = 1
city = { name = "Berlin", builds = ["MIL", "LIN", "CUI"], max_builds = 5 }

[[province]]
id = 7
code = "SAX"
name = "Saxony"
position = [13.2, 51.0]
revenue = 12
adjacent = ["HAN", "BRLN"]
barriers = ["RHI"]

[[sea]]
id = 20
code = "CHN"
name = "English Channel"
position = [-1.5, 50.2]
adjacent = ["NOR", "FL", "NTH"]

[[sea]]
id = 21
code = "NTH"
name = "North Sea"
position = [4.0, 54.5]
adjacent = ["CHN", "HAN"]
barriers = ["FL"]

[[kingdom]]
code = "FRA"
name = "France"
capital = "PAR"
provinces = ["PAR", "NOR"]
treasury = 100
army = [{ at = "PAR", troops = [["LIN", 6], ["GRE", 2], ["LCV", 2], ["ART", 1]], leaders = 1 }]
fleet = [{ at = "CHN", troops = [["WAR", 2], ["TRN", 1]] }]

[[kingdom]]
code = "PRU"
name = "Prussia"
capital = "BRLN"
provinces = ["BRLN", "SAX"]
treasury = 150
army = [
  { at = "BRLN", troops = [["LIN", 5], ["CUI", 2]], leaders = 1 },
  { at = "SAX", troops = [["MIL", 3]] },
]
"#;

pub fn k(code: &str) -> KingdomCode {
    KingdomCode::new(code).unwrap()
}

pub fn map() -> Map {
    Map::parse(MAP).unwrap_or_else(|e| panic!("test map: {e:?}"))
}

/// The larger test map of Europe (not the standard map).
pub fn europe_test_map() -> Map {
    Map::parse(include_str!("../../data/europe.toml")).unwrap_or_else(|e| panic!("{e:?}"))
}

pub fn start(map: &Map) -> GameState {
    let mut s = new_game(map, &NewGame::standard(7)).unwrap();
    // Marks that must never reach the other kingdom: a treasury with odd decimals, a unit
    // and a leader with telling names.
    s.kingdoms.get_mut(&k("PRU")).unwrap().treasury = Fixed::parse("987.65").unwrap();
    s.kingdoms.get_mut(&k("FRA")).unwrap().treasury = Fixed::parse("123.45").unwrap();
    let pru = k("PRU");
    let a1 = s.unit_mut(&pru, UnitId::army(1)).unwrap();
    a1.name = "Secret Guard of Berlin".into();
    a1.leaders[0].name = "General Hiddenmarck".into();
    let fra = k("FRA");
    s.unit_mut(&fra, UnitId::army(1)).unwrap().name = "Grande Armee".into();
    s
}

fn tc(code: &str, count: u32) -> TroopCount {
    TroopCount {
        code: TroopCode(code.into()),
        count,
    }
}

/// Orders for both kingdoms, some of which must fail: Prussia annexes a province it does
/// not own, marches where it cannot, recruits; France marches into Flanders and proclaims.
pub fn orders() -> BTreeMap<KingdomCode, KingdomOrders> {
    let mut pru_army = UnitOrders::new(UnitId::army(2));
    pru_army.plan.push(PhasePlan {
        phase: 1,
        step: Some(Step::Move(LocId(1))),
        ..PhasePlan::default()
    });
    let mut pru_garrison = UnitOrders::new(UnitId::garrison(LocId(6)));
    pru_garrison.recruit.push(tc("CUI", 1));
    let pru = KingdomOrders {
        hq: vec![
            HqOrder::Annex { province: LocId(1) },
            HqOrder::SendGold {
                to: k("FRA"),
                amount: Fixed::parse("41.41").unwrap(),
            },
        ],
        units: vec![pru_army, pru_garrison],
        proclamation: Some("Prussia keeps its word.".into()),
    };
    let mut fra_army = UnitOrders::new(UnitId::army(1));
    fra_army.plan.push(PhasePlan {
        phase: 1,
        step: Some(Step::Move(LocId(3))),
        ..PhasePlan::default()
    });
    let fra = KingdomOrders {
        hq: vec![],
        units: vec![fra_army],
        proclamation: Some("Vive l'Empereur!".into()),
    };
    BTreeMap::from([(k("FRA"), fra), (k("PRU"), pru)])
}

/// Events a complete engine emits, added to whatever the engine emitted: each kingdom's
/// private business, and things seen by all or by neighbours.
pub fn extra_events() -> Vec<Event> {
    let (fra, pru, ind) = (k("FRA"), k("PRU"), k("IND"));
    let e = |when, what| Event { when, what };
    vec![
        e(
            When::First(1),
            What::WarDeclared {
                by: pru.clone(),
                on: fra.clone(),
            },
        ),
        e(
            When::First(9),
            What::Transferred {
                from: (pru.clone(), UnitId::army(1)),
                to: (pru.clone(), UnitId::army(2)),
                troops: vec![tc("CUI", 1)],
                leaders: vec![],
            },
        ),
        e(
            When::Phase(1, MoveStep::March),
            What::OrderFailed {
                kingdom: pru.clone(),
                unit: Some(UnitId::army(2)),
                order: "march to PAR".into(),
                reason: "PRUSSIAN SECRET REASON".into(),
            },
        ),
        e(
            When::Phase(1, MoveStep::March),
            What::OrderFailed {
                kingdom: fra.clone(),
                unit: Some(UnitId::army(1)),
                order: "march to HAN".into(),
                reason: "Hanover is not next to Paris".into(),
            },
        ),
        e(
            When::Phase(1, MoveStep::March),
            What::Bounced {
                unit: (pru.clone(), UnitId::army(2)),
                at: LocId(7),
                toward: LocId(4),
                reason: "PRUSSIAN BOUNCE".into(),
            },
        ),
        e(
            When::Phase(1, MoveStep::March),
            What::Moved {
                unit: (pru.clone(), UnitId::army(1)),
                from: LocId(6),
                to: LocId(5),
                cost: 2,
            },
        ),
        e(
            When::Phase(2, MoveStep::March),
            What::Moved {
                unit: (pru.clone(), UnitId::army(1)),
                from: LocId(5),
                to: LocId(4),
                cost: 2,
            },
        ),
        e(
            When::Phase(2, MoveStep::Ownership),
            What::OwnershipChanged {
                province: LocId(4),
                from: ind.clone(),
                to: pru.clone(),
            },
        ),
        e(
            When::Phase(2, MoveStep::Pillage),
            What::Pillaged {
                province: LocId(4),
                unit: (pru.clone(), UnitId::army(1)),
                gold: Fixed::parse("3.33").unwrap(),
            },
        ),
        e(
            When::Final(3),
            What::UpkeepPaid {
                kingdom: pru.clone(),
                paid: Fixed::parse("7.77").unwrap(),
                unpaid: 0,
                lost: vec![],
            },
        ),
        e(
            When::Final(3),
            What::UpkeepPaid {
                kingdom: fra.clone(),
                paid: Fixed::parse("19.5").unwrap(),
                unpaid: 0,
                lost: vec![],
            },
        ),
        e(
            When::Final(4),
            What::TroopsBuilt {
                unit: (pru.clone(), UnitId::garrison(LocId(6))),
                troops: vec![tc("CUI", 1)],
                cost: Fixed::parse("66.66").unwrap(),
            },
        ),
        e(
            When::Final(9),
            What::Decay {
                kingdom: pru.clone(),
                amount: Fixed::parse("12.34").unwrap(),
            },
        ),
        e(
            When::Final(11),
            What::Revenue {
                kingdom: pru.clone(),
                amount: Fixed::parse("55.55").unwrap(),
                provinces: 2,
            },
        ),
        e(
            When::Final(13),
            What::Proclamation {
                kingdom: pru.clone(),
                text: "Prussia keeps its word.".into(),
                income: Fixed::parse("7.07").unwrap(),
            },
        ),
        e(
            When::Final(13),
            What::Proclamation {
                kingdom: fra.clone(),
                text: "Vive l'Empereur!".into(),
                income: Fixed::whole(7),
            },
        ),
    ]
}

/// The game after one turn: the engine's own events, then the extra ones.
pub fn played() -> (Map, GameState, Vec<Event>) {
    let map = map();
    let state = start(&map);
    let out = play(&map, &state, &orders()).expect("the turn plays");
    let mut events = out.events;
    events.extend(extra_events());
    (map, out.state, events)
}

/// Tags opened and closed in order, void elements and self-closed ones aside; `<script>`
/// and `<style>` bodies skipped.
pub fn balanced(html: &str) -> Result<usize, String> {
    const VOID: [&str; 6] = ["meta", "br", "hr", "img", "input", "link"];
    let mut stack: Vec<String> = Vec::new();
    let mut rest = html;
    let mut count = 0;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        if rest.starts_with("!--") {
            let end = rest.find("-->").ok_or("an open comment")?;
            rest = &rest[end + 3..];
            continue;
        }
        if rest.starts_with('!') {
            rest = &rest[rest.find('>').ok_or("open doctype")? + 1..];
            continue;
        }
        let end = rest.find('>').ok_or("a tag left open")?;
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let name = name.trim().to_ascii_lowercase();
            match stack.pop() {
                Some(open) if open == name => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '/')
            .collect::<String>()
            .to_ascii_lowercase();
        count += 1;
        if tag.ends_with('/') || VOID.contains(&name.as_str()) {
            continue;
        }
        if name == "style" || name == "script" {
            let close = format!("</{name}>");
            let end = rest.find(&close).ok_or(format!("{name} left open"))?;
            rest = &rest[end + close.len()..];
            continue;
        }
        stack.push(name);
    }
    if stack.is_empty() {
        Ok(count)
    } else {
        Err(format!("left open: {stack:?}"))
    }
}
