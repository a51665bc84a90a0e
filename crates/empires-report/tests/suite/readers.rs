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
    let r = full(map, out, who);
    (
        r.actions.iter().map(|a| a.result.clone()).collect(),
        r.against_you.iter().map(|h| h.text.clone()).collect(),
    )
}

/// One empire's whole report of the turn.
fn full(map: &Map, out: &TurnOutcome, who: &str) -> empires_report::Report {
    let t = Turn {
        map,
        state: &out.state,
        events: &out.events,
        computer_written: &[],
        gm_messages: &[],
        sheet_game: None,
    };
    report(&t, code(who))
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

#[test]
fn a_repulsed_attack_is_a_setback_for_the_attacker_and_good_news_for_the_defender() {
    // 2 armies against 3 on plains: 2 v 3, the attack fails.
    let (map, st) = game(&[]);
    let out = play(&map, &st, &[("AA", "ATTACK AAA DDD 2")]);
    let aa = full(&map, &out, "AA");
    assert_eq!(aa.actions[0].status, "done");
    assert!(aa.actions[0].setback);
    assert!(
        aa.actions[0]
            .result
            .contains("3 defending armies still stood")
    );
    let html = empires_report::html::render(&aa, 16, None);
    assert!(
        html.contains("<td class=\"bad\">attacked DDD"),
        "a setback is not green"
    );
    let text = empires_report::text::render(&aa, 16);
    assert!(text.contains("LOST    attacked DDD"), "{text}");
    let bb = full(&map, &out, "BB");
    assert_eq!(bb.against_you[0].tone, "good");
    assert!(
        bb.against_you[0]
            .text
            .starts_with("AA attacked your DDD from AAA with 2 armies against your 3")
    );
    assert!(bb.against_you[0].text.contains("the area held"));
    // The actions report is shared; each page colours the reader's side of a battle.
    let html = empires_report::html::render(&bb, 16, None);
    assert!(html.contains("li[data-won=\"BB\"]>span{color:#1e6b2e}"));
    assert!(html.contains("<li data-won=\"BB\" data-lost=\"AA\">"));
}

#[test]
fn a_capture_is_bad_news_for_the_defender_with_the_reason() {
    let (map, st) = game(&[]);
    let out = play(&map, &st, &[("AA", "ATTACK AAA DDD 6")]);
    let aa = full(&map, &out, "AA");
    assert!(!aa.actions[0].setback);
    assert!(
        aa.actions[0].result.contains("outnumbered the population"),
        "{}",
        aa.actions[0].result
    );
    let bb = full(&map, &out, "BB");
    assert_eq!(bb.against_you[0].tone, "bad");
    assert!(bb.against_you[0].text.contains("the area fell"));
}

#[test]
fn the_vp_breakdown_adds_up_to_the_change() {
    // 11.4, 11.5 (decision 13): both sides' battle VPs, with reasons.
    let (map, st) = game(&[]);
    let out = play(&map, &st, &[("AA", "ATTACK AAA DDD 6")]);
    for who in ["AA", "BB"] {
        let r = full(&map, &out, who);
        let before = st.empire(code(who)).unwrap().vps;
        let sum: i32 = r.economy.vp_changes.iter().map(|c| c.vps).sum();
        assert_eq!(before + sum, r.economy.vps, "{who}");
        assert!(!r.economy.vp_changes.is_empty(), "{who}");
    }
    let aa = full(&map, &out, "AA");
    assert!(aa.economy.vp_changes[0].why.starts_with("captured DDD"));
    let text = empires_report::text::render(&aa, 16);
    assert!(
        text.contains("Victory points: 0 before this turn"),
        "{text}"
    );
}

#[test]
fn a_dispersal_gives_its_rule_and_numbers() {
    // AAA: 6 armies, population 3, no forts: 6 / 3 = 2 disperse (6.5).
    let (map, st) = game(&[]);
    let out = play(&map, &st, &[]);
    let aa = full(&map, &out, "AA");
    let d = &aa.economy.dispersals[0];
    assert_eq!((d.area.as_str(), d.armies), ("AAA", 2));
    assert_eq!(
        d.reason,
        "6 armies against population + forts of 3: 6 / 3 = 2; 2 went back to the reserve (6.5)"
    );
}

#[test]
fn no_turnsheet_for_an_empire_with_no_next_turn() {
    let (map, st) = game(&[]);
    let out = play(&map, &st, &[]);
    let mut r = full(&map, &out, "AA");
    assert!(r.plays_on());
    assert!(empires_report::text::render(&r, 16).contains("TURNSHEET"));
    assert!(empires_report::html::render(&r, 16, None).contains("Turnsheet for turn"));
    // Out of the game: nothing to write orders for.
    r.empire.eliminated = Some(1);
    assert!(!r.plays_on());
    assert!(!empires_report::text::render(&r, 16).contains("TURNSHEET"));
    assert!(!empires_report::html::render(&r, 16, None).contains("Turnsheet for turn"));
}
