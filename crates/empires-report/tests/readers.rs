//! Every event is worded for its reader (10.5): the empire that acted reads what it did, the
//! empire it was done to reads what was done to it, and an empire with no part in it reads
//! nothing of it in its own sections.
use empires_report::{Turn, report};
use empires_rules::scenario::Scenario;
use empires_rules::{EmpireCode, GameState, Map, TurnOutcome, adjudicate};
use std::collections::BTreeMap;

/// `AAA - DDD - EEE` in a row, `GGG` beyond; AA, BB and CC each hold a corner.
const MAP: &str = r#"
name = "Readers"
[[area]]
code = "AAA"
terrain = "plains"
adjacent = ["DDD"]
[[area]]
code = "DDD"
terrain = "plains"
adjacent = ["AAA", "EEE"]
[[area]]
code = "EEE"
terrain = "plains"
adjacent = ["DDD", "GGG"]
[[area]]
code = "GGG"
terrain = "plains"
adjacent = ["EEE"]
[[empire]]
code = "AA"
name = "Alpha"
home = "AAA"
[[empire]]
code = "BB"
name = "Beta"
home = "DDD"
[[empire]]
code = "CC"
name = "Gamma"
home = "GGG"
"#;

const START: &str = r#"
map = "readers.toml"
next_census = 9
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
bps = 20
[[empire]]
code = "BB"
bps = 20
[[empire]]
code = "CC"
bps = 20
[[area]]
code = "AAA"
owner = "AA"
population = 3
armies = 6
[[area]]
code = "DDD"
owner = "BB"
population = 3
armies = 3
[[area]]
code = "EEE"
owner = "BB"
population = 2
[[area]]
code = "GGG"
owner = "CC"
population = 3
armies = 1
"#;

fn game(spies: &[(&str, &str)]) -> (Map, GameState) {
    let map = Map::from_toml(MAP, "readers.toml").unwrap();
    let sc = Scenario::parse(START, "start.toml").unwrap();
    let mut st = sc.build(&map, START, "start.toml").unwrap();
    for (who, area) in spies {
        let i = st.empire_index(code(who)).unwrap();
        st.empires[i].spy = Some(empires_rules::state::Spy {
            area: area.parse().unwrap(),
            waiting_for: None,
        });
    }
    (map, st)
}

fn code(s: &str) -> EmpireCode {
    EmpireCode::parse(s).unwrap()
}

fn play(map: &Map, st: &GameState, orders: &[(&str, &str)]) -> TurnOutcome {
    let mut all = BTreeMap::new();
    for (who, text) in orders {
        all.insert(code(who), empires_orders::parse_turnsheet(text));
    }
    adjudicate(map, st, &all).unwrap()
}

/// What one empire's report says of the turn: its own actions' results, and what others
/// did to it.
fn read(map: &Map, out: &TurnOutcome, who: &str) -> (Vec<String>, Vec<String>) {
    let t = Turn {
        map,
        state: &out.state,
        events: &out.events,
        computer_written: &[],
        gm_messages: &[],
    };
    let r = report(&t, code(who));
    (
        r.actions.iter().map(|a| a.result.clone()).collect(),
        r.against_you.iter().map(|h| h.text.clone()).collect(),
    )
}

fn has(lines: &[String], part: &str) -> bool {
    lines.iter().any(|l| l.contains(part))
}

#[test]
fn sabotage_reads_as_done_by_the_actor_and_done_to_the_owner() {
    let (map, st) = game(&[("AA", "DDD")]);
    let out = play(&map, &st, &[("AA", "SABOTAGE")]);
    let (acted, _) = read(&map, &out, "AA");
    assert!(has(
        &acted,
        "sabotage destroyed 1 army in DDD; your spy was caught"
    ));
    let (_, done_to) = read(&map, &out, "BB");
    assert!(has(
        &done_to,
        "a spy of AA destroyed 1 of your armies in DDD"
    ));
    assert!(!has(&done_to, "your spy was caught"), "{done_to:?}");
    let (acted, done_to) = read(&map, &out, "CC");
    assert!(acted.is_empty());
    assert!(done_to.is_empty(), "{done_to:?}");
}

#[test]
fn a_spy_caught_with_nothing_to_sabotage_reads_right_for_both() {
    // Decision 30: EEE holds no armies; the spy is caught all the same.
    let (map, st) = game(&[("CC", "EEE")]);
    let out = play(&map, &st, &[("CC", "SABOTAGE")]);
    let (acted, _) = read(&map, &out, "CC");
    assert!(has(&acted, "your spy was caught all the same"));
    let (_, done_to) = read(&map, &out, "BB");
    assert!(
        has(&done_to, "a spy of CC was caught in EEE"),
        "{done_to:?}"
    );
    assert!(!has(&done_to, "your spy"), "{done_to:?}");
    assert!(read(&map, &out, "AA").1.is_empty());
}

#[test]
fn a_gift_reads_as_given_and_as_received() {
    let (map, st) = game(&[]);
    let out = play(&map, &st, &[("AA", "GIFT - BB 5")]);
    assert!(has(&read(&map, &out, "AA").0, "gave 5 BPs to BB"));
    let (_, done_to) = read(&map, &out, "BB");
    assert_eq!(done_to, vec!["AA gave you 5 BPs (3.9)".to_string()]);
    assert!(read(&map, &out, "CC").1.is_empty());
}

#[test]
fn a_spy_walking_into_a_wait_reads_right_for_the_victim_and_the_waiter() {
    // BB's spy waits in DDD (BB's own) for AA's, which comes in from AAA.
    let (map, st) = game(&[("AA", "AAA"), ("BB", "DDD")]);
    let out = play(&map, &st, &[("BB", "WAIT - AA"), ("AA", "TAX\nSPY - DDD")]);
    let (acted, done_to) = read(&map, &out, "AA");
    assert!(
        has(&acted, "where a spy of BB lay in wait and killed it"),
        "{acted:?}"
    );
    assert!(
        has(&done_to, "your spy was killed in DDD by BB"),
        "{done_to:?}"
    );
    let (_, told) = read(&map, &out, "BB");
    assert!(
        has(
            &told,
            "the spy of AA came into DDD, where your spy lay in wait"
        ),
        "{told:?}"
    );
    assert!(!has(&told, "your spy was killed"), "{told:?}");
    assert!(read(&map, &out, "CC").1.is_empty());
}

#[test]
fn a_battle_reads_for_the_defender_and_not_for_bystanders() {
    let (map, st) = game(&[]);
    let out = play(&map, &st, &[("AA", "ATTACK AAA DDD 5")]);
    let (acted, _) = read(&map, &out, "AA");
    assert!(has(&acted, "DDD from AAA with 5 armies"), "{acted:?}");
    let (_, done_to) = read(&map, &out, "BB");
    assert!(has(&done_to, "AA "), "{done_to:?}");
    assert!(read(&map, &out, "CC").1.is_empty());
}
