//! Whole turns played from the scenario files in `tests/scenarios`: a scenario TOML (read
//! with `Scenario::parse` and `build`, its map `testland.toml` next to it) and its orders
//! (`<name>.orders.toml`: one array of turnsheet lines per empire).
use crate::common;
use common::*;
use empires_rules::event::{LandBattle, SeaFight, What};
use empires_rules::scenario::Scenario;
use empires_rules::state::GameState;
use empires_rules::{EmpireCode, Map, TurnOutcome, adjudicate};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios")
}

/// Loads `<name>.toml` and its map the way a GM's tool would.
fn load(name: &str) -> (Map, GameState) {
    let file = format!("{name}.toml");
    let text = std::fs::read_to_string(dir().join(&file)).unwrap();
    let sc = Scenario::parse(&text, &file).unwrap_or_else(|e| panic!("{e}"));
    let map_text = std::fs::read_to_string(dir().join(&sc.map)).unwrap();
    let m = Map::from_toml(&map_text, &sc.map).unwrap_or_else(|e| panic!("{e}"));
    let st = sc.build(&m, &text, &file).unwrap_or_else(|e| panic!("{e}"));
    (m, st)
}

/// Plays one turn with the orders of `<name>.orders.toml`.
fn play_file(name: &str) -> (Map, GameState, TurnOutcome) {
    let (m, st) = load(name);
    let text = std::fs::read_to_string(dir().join(format!("{name}.orders.toml"))).unwrap();
    let lines: BTreeMap<String, Vec<String>> = toml::from_str(&text).unwrap();
    let orders: BTreeMap<EmpireCode, _> = lines
        .iter()
        .map(|(c, l)| {
            let l: Vec<&str> = l.iter().map(String::as_str).collect();
            (e(c), sheet(&l))
        })
        .collect();
    let t = adjudicate(&m, &st, &orders).unwrap_or_else(|err| panic!("{err}"));
    (m, st, t)
}

fn battles(t: &TurnOutcome) -> Vec<LandBattle> {
    t.events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::LandBattle(b) => Some((**b).clone()),
            _ => None,
        })
        .collect()
}

fn vps(st: &GameState) -> (i32, i32, i32) {
    (emp(st, "AA").vps, emp(st, "BB").vps, emp(st, "CC").vps)
}

fn armies(m: &Map, st: &GameState, c: &str) -> u32 {
    area(m, st, c).armies
}

#[test]
fn the_test_map_file_is_the_shared_test_map() {
    let text = std::fs::read_to_string(dir().join("testland.toml")).unwrap();
    assert_eq!(text.trim(), MAP.trim());
}

#[test]
fn every_scenario_file_loads() {
    for name in ["border_war", "sea_landing", "census_turn"] {
        let (m, st) = load(name);
        st.validate(&m).unwrap();
        assert_eq!(st.empires.len(), 3, "{name}");
    }
    let (_, st) = load("border_war");
    assert_eq!(st.turn, 4);
    assert_eq!(st.game, "Border war");
    assert_eq!(st.variant, empires_rules::Variant::Medieval);
}

#[test]
fn border_war_attacks_a_retreat_and_a_capture() {
    let (m, st, t) = play_file("border_war");
    assert_eq!(t.state.turn, 5);
    for n in 0..2 {
        done(&t, "AA", n);
        done(&t, "BB", n);
    }
    let b = battles(&t);
    assert_eq!(b.len(), 3);

    // Round 1, AA: 9 armies from DDD against EEE (uplands: 4 armies, 1 fort, 3 pop,
    // retreat to FFF). Standing, the defence 4 + 1 + 1 = 6 would lose 3 + 1 = 4 armies to the
    // attacker's 2 and the area would fall, so the 4 armies retreat to FFF (8.7). Against no
    // armies: no attacker losses, collateral 1 population and 1 fort; 9 survivors beat 2
    // population: 4 go back, 5 move in. AA +1 +2; BB -(1 + 1 + 2).
    let w = &b[0];
    assert_eq!((w.area.as_str(), w.from.as_str()), ("EEE", "DDD"));
    assert_eq!(w.retreated_to.map(|c| c.to_string()), Some("FFF".into()));
    assert_eq!((w.attacker_lost, w.defender_lost), (0, 0));
    assert_eq!((w.population_lost, w.forts_lost), (1, 1));
    assert!(w.captured);
    assert_eq!((w.moved_in, w.returned), (5, 4));
    assert_eq!((w.attacker_vps, w.defender_vps), (3, -4));

    // Round 1, BB: 6 armies from FFF (3 + 4 retreated: the retreat does not make it sticky)
    // against CCC (mountains: 2 armies, no forts, 2 pop, DEFEND). Defence 2 + 0 + 2 = 4;
    // attacker loses 1; defender 2 + 0, less 1 for the mountains = 1. One army is left, so
    // the attack fails: 1 population lost; BB -(1 + 1), AA -1; 5 go back to FFF.
    let c = &b[1];
    assert_eq!((c.area.as_str(), c.from.as_str()), ("CCC", "FFF"));
    assert_eq!(c.defence_strength, 4);
    assert_eq!((c.attacker_lost, c.defender_lost), (1, 1));
    assert!(!c.captured);
    assert_eq!((c.returned, c.population_lost), (5, 1));
    assert_eq!((c.attacker_vps, c.defender_vps), (-2, -1));

    // Round 2, AA: 5 armies from EEE (captured by land in uplands, not sticky) against FFF
    // (wetlands: 6 armies, 2 pop, no retreat location). Defence 6 + 0 + 1 = 7: attacker loses
    // 2 + 0 = 2, defender 1 - 1 = 0. Fails: AA -2, BB -1; 3 go back.
    let f = &b[2];
    assert_eq!((f.area.as_str(), f.from.as_str()), ("FFF", "EEE"));
    assert_eq!(f.retreated_to, None);
    assert_eq!(f.defence_strength, 7);
    assert_eq!((f.attacker_lost, f.defender_lost), (2, 0));
    assert!(!f.captured);
    assert_eq!((f.attacker_vps, f.defender_vps), (-2, -1));

    // The map after the end of turn dispersals (6.5): EEE 3 armies over 2 pop loses 1; FFF
    // 6 armies over 1 pop loses 3.
    let s = &t.state;
    assert_eq!(area(&m, s, "EEE").owner, Some(e("AA")));
    assert_eq!(area(&m, s, "EEE").population, 2);
    assert_eq!(area(&m, s, "EEE").forts, 0);
    assert_eq!(
        area(&m, s, "EEE").retreat_to.map(|c| c.to_string()),
        Some("DDD".into())
    );
    assert_eq!(armies(&m, s, "EEE"), 2);
    assert_eq!(armies(&m, s, "DDD"), 12 - 9 + 4);
    assert_eq!(armies(&m, s, "FFF"), 3);
    assert_eq!(area(&m, s, "FFF").population, 1);
    assert_eq!(armies(&m, s, "CCC"), 1);
    assert_eq!(area(&m, s, "CCC").population, 1);
    assert_eq!(vps(&st), (5, 5, 0));
    // AA 5 + 3 - 1 - 2; BB 5 - 4 - 2 - 1.
    assert_eq!(vps(s), (5, -2, 0));

    // Leftovers: AA 20 - 9 - 5 = 6: 2 armies; BB 20 - 6 + 2 = 16: 5 armies and a 1-BP bid.
    // Reserves: AA 1 dispersed + 2; BB 3 dispersed + 5.
    assert_eq!(emp(s, "AA").army_reserve, 3);
    assert_eq!(emp(s, "BB").army_reserve, 8);
    let order: Vec<String> = s.order_of_play.iter().map(|c| c.to_string()).collect();
    assert_eq!(order, vec!["BB", "AA", "CC"]);
    // Income and supply: AA 4 + 3 + 1 + 5 + 2 = 15, supply DDD (7 + 2 - 5) / 2 = 2;
    // BB 1 + 4 + 2 = 7, supply FFF (3 - 1) / 2 = 1 + reserve 8 / 4 = 2.
    let eco = |c: &str| {
        let x = emp(s, c);
        (x.income, x.supply_cost, x.bps)
    };
    assert_eq!(eco("AA"), (15, 2, 13));
    assert_eq!(eco("BB"), (7, 3, 4));
    assert_eq!(eco("CC"), (4, 0, 4));
}

#[test]
fn sea_landing_convoy_sea_battle_and_capture_from_the_sea() {
    let (m, _, t) = play_file("sea_landing");
    done(&t, "AA", 0);
    done(&t, "AA", 1);
    // 7.5: GGG was captured from the sea, so it is sticky.
    let why = failure(&t, "AA", 2);
    assert!(why.contains("stuck"), "{why}");
    done(&t, "BB", 0);
    // BB no longer owns GGG in round 2.
    failure(&t, "BB", 1);

    // Round 1: 6 ships (carrying 6 armies) against BB's 2 in ESE (8.1): AA loses 2/3 = 0,
    // BB 6/3 + 4/3 = 3, all 2 of its ships. AA moves in.
    let sea: Vec<(SeaFight, bool)> = t
        .events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::SeaBattle {
                fight,
                attacker_won,
                ..
            } => Some((fight.clone(), *attacker_won)),
            _ => None,
        })
        .collect();
    assert_eq!(
        sea,
        vec![(
            SeaFight {
                attacker_ships: 6,
                defender_ships: 2,
                attacker_lost: 0,
                defender_lost: 2,
            },
            true
        )]
    );

    // Round 2: the 6 armies attack GGG (desert: 2 armies, 1 fort, 3 pop, 1 ship in its
    // base) from the sea. Sea phase: the base's ship is sunk. Land: defence 2 + 1 = 3;
    // attacker loses 1, defender 2 + 1 = 3, all 2. Collateral 1 pop, 1 fort. 5 survivors
    // beat 2 population: 2 go back aboard, 3 land. AA +3, BB -4.
    let b = battles(&t);
    assert_eq!(b.len(), 1);
    let g = &b[0];
    let s = g.sea.clone().unwrap();
    assert_eq!(
        (
            s.attacker_ships,
            s.defender_ships,
            s.attacker_lost,
            s.defender_lost
        ),
        (6, 1, 0, 1)
    );
    assert_eq!(g.defence_strength, 3);
    assert_eq!((g.attacker_lost, g.defender_lost), (1, 2));
    assert!(g.captured);
    assert_eq!((g.moved_in, g.returned), (3, 2));
    assert_eq!((g.attacker_vps, g.defender_vps), (3, -4));

    let st = &t.state;
    let ggg = area(&m, st, "GGG");
    assert_eq!(ggg.owner, Some(e("AA")));
    assert_eq!((ggg.population, ggg.forts), (2, 0));
    // Decision 16: the ships in the captured base are lost; the base passes to AA.
    let base = ggg.base.clone().unwrap();
    assert_eq!((base.ships, base.laid_up), (0, 0));
    // 6.5: 3 armies over 2 population: 1 dispersed.
    assert_eq!(ggg.armies, 2);
    let f = area(&m, st, "ESE").fleet.clone().unwrap();
    assert_eq!(f.owner, e("AA"));
    assert_eq!((f.ships, f.armies), (6, 2));
    assert_eq!(f.base.map(|b| b.to_string()), Some("DDD".into()));
    assert_eq!(armies(&m, st, "DDD"), 0);
    assert_eq!((emp(st, "AA").vps, emp(st, "BB").vps), (3, -4));
    // AA: 20 - 1 (convoy) - 6 (attack) = 13 left: 4 armies, 1 BP bid; 1 dispersed.
    assert_eq!(emp(st, "AA").army_reserve, 5);
    // AA income 3 + 4 + 2 = 9; supply: DDD (2 forts - 4) 0, GGG 0, the fleet in ESE (the
    // base's entrance, distance 0) (6 + 2) / 2 = 4, reserve 5 / 4 = 1.
    let aa = emp(st, "AA");
    assert_eq!((aa.income, aa.supply_cost, aa.bps), (9, 5, 4));
    // BB: EEE and HHH, income 5; reserve 22 / 3 = 7 armies: 7 / 4 = 1.
    let bb = emp(st, "BB");
    assert_eq!(bb.army_reserve, 7);
    assert_eq!((bb.income, bb.supply_cost, bb.bps), (5, 1, 4));
    // Both bid 1: AA stays ahead of BB.
    let order: Vec<String> = st.order_of_play.iter().map(|c| c.to_string()).collect();
    assert_eq!(order, vec!["AA", "BB", "CC"]);
}

#[test]
fn census_turn_growth_levy_spies_stash_order_and_census() {
    let (m, _, t) = play_file("census_turn");
    for n in 0..4 {
        done(&t, "AA", n);
    }
    for n in 0..3 {
        done(&t, "BB", n);
    }
    done(&t, "CC", 0);
    let st = &t.state;
    // AA: GROW AAA (plains: 3 + 1 = 4 BPs) -> 4 pop.
    assert_eq!(area(&m, st, "AAA").population, 4);
    // BB: LEVY GGG: half of 4 becomes armies.
    assert_eq!(
        (area(&m, st, "GGG").population, area(&m, st, "GGG").armies),
        (2, 3)
    );
    // BB recruits in GGG and skips to DDD across ESE (2 + 1 BPs), then sabotages an army
    // there (1 BP); AA recruits in DDD, spies into EEE (2 BPs) and sets a watch.
    assert_eq!(armies(&m, st, "DDD"), 2);
    assert_eq!(area(&m, st, "EEE").watcher, Some(e("AA")));
    assert!(emp(st, "AA").spy.is_none() && emp(st, "BB").spy.is_none());
    // AA stashes 2 treasury points for 6 BPs.
    assert_eq!(emp(st, "AA").treasury, 2);
    // Census: AA holds AAA, BBB and DDD with population (CCC is empty), BB EEE, GGG and
    // HHH, CC III and JJJ. A tie at the top is no win.
    assert_eq!(vps(st), (3, 3, 2));
    assert!(st.victory_warning.is_none());
    assert!((4..=6).contains(&st.next_census));
    // Leftovers: AA 20 - 4 - 2 - 6 = 8: 2 armies, bid 2; BB 20 - 3 - 1 = 16: 5 armies,
    // bid 1; CC bid 3 + 2 left over. Order: CC 5, AA 2, BB 1.
    assert_eq!(emp(st, "AA").army_reserve, 2);
    assert_eq!(emp(st, "BB").army_reserve, 5);
    let order: Vec<String> = st.order_of_play.iter().map(|c| c.to_string()).collect();
    assert_eq!(order, vec!["CC", "AA", "BB"]);
    // Income and supply: AA 4 + 2 + 0 + 5 = 11, nothing to pay; BB 3 + 0 + 2 + 2 = 7,
    // GGG (3 + 1 - 2) / 2 = 1 and reserve 5 / 4 = 1; CC 4.
    let eco = |c: &str| {
        let x = emp(st, c);
        (x.income, x.supply_cost, x.bps)
    };
    assert_eq!(eco("AA"), (11, 0, 11));
    assert_eq!(eco("BB"), (7, 2, 5));
    assert_eq!(eco("CC"), (4, 0, 4));
}

/// 8.5: "If either side inflicts more losses than the strength of the opposing ships then
/// the extra losses are carried over to the land phase."
#[test]
fn rule_8_5_extra_sea_phase_losses_carry_into_the_land_phase() {
    let (m, st) = scenario(
        r#"
variant = "medieval"
next_census = 9
order_of_play = ["AA", "BB", "CC"]
compute_balances = false
[[empire]]
code = "AA"
bps = 20
[[empire]]
code = "BB"
[[empire]]
code = "CC"
[[area]]
code = "DDD"
owner = "AA"
population = 3
base = { entrance = "ESE" }
[[area]]
code = "GGG"
owner = "BB"
population = 1
armies = 6
defence = "defend"
base = { entrance = "ESE", ships = 3 }
[[area]]
code = "JJJ"
owner = "CC"
population = 3
[[fleet]]
area = "ESE"
owner = "AA"
ships = 9
armies = 6
base = "DDD"
"#,
    );
    let t = play(&m, &st, &[("AA", &["ATTACK ESE GGG 6"])]);
    done(&t, "AA", 0);
    let b = &battles(&t)[0];
    // Sea phase: 9 ships against 3 inflict 9/3 + 6/3 = 5 losses: 3 ships sunk, 2 carried.
    let s = b.sea.clone().unwrap();
    assert_eq!((s.attacker_lost, s.defender_lost), (1, 3));
    // Land phase: 6 against 6 (desert, no forts): the defender loses 6/3 + 2 carried = 4.
    assert_eq!(b.defence_strength, 6);
    assert_eq!(b.attacker_lost, 2);
    assert_eq!(b.defender_lost, 4);
}

/// Decision 39: an air force given by a scenario in Medieval or European Empires could never
/// fight, so the game is refused when it is made, naming the line; Australian Empires flies.
#[test]
fn decision_39_a_scenario_may_not_give_air_forces_where_there_are_none() {
    let text = |variant: &str| {
        format!(
            "map = \"testland.toml\"\nvariant = \"{variant}\"\n\n[[empire]]\ncode = \"AA\"\n\n\
             [[empire]]\ncode = \"BB\"\nair_force = 3\n"
        )
    };
    let m = common::map();
    for airless in ["medieval", "european"] {
        let t = text(airless);
        let sc = Scenario::parse(&t, "s.toml").unwrap();
        let err = sc.build(&m, &t, "s.toml").unwrap_err();
        assert_eq!(err.line, 7, "{err}");
        assert!(err.message.contains("no air forces"), "{err}");
        assert!(err.message.contains("BB"), "{err}");
    }
    for airy in ["world", "australian"] {
        let t = text(airy);
        let sc = Scenario::parse(&t, "s.toml").unwrap();
        let st = sc.build(&m, &t, "s.toml").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(emp(&st, "BB").air_force, 3, "{airy}");
    }
}
