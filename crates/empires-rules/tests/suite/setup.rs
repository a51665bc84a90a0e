//! Starting a game (12.6-12.9, 11.3, 6.1) with `setup::new_game`, on the test map and on a
//! bigger grid map built here, for every variant.
use crate::common;
use common::*;
use empires_rules::map::AreaId;
use empires_rules::setup::{NewGame, SetupError, new_game};
use empires_rules::state::GameState;
use empires_rules::{EmpireCode, Map, Options, Variant};
use std::collections::{BTreeMap, BTreeSet};

const VARIANTS: [Variant; 4] = [
    Variant::World,
    Variant::Medieval,
    Variant::European,
    Variant::Australian,
];

fn game(variant: Variant, seed: u64) -> NewGame {
    NewGame {
        name: "test".into(),
        variant,
        seed,
        players: BTreeMap::new(),
        options: Options::default(),
    }
}

fn start(m: &Map, variant: Variant, seed: u64) -> GameState {
    new_game(m, &game(variant, seed)).unwrap_or_else(|e| panic!("{e}"))
}

/// Rows A-H, columns 0-7 of land (`A0L` .. `H7L`), four neighbours each; a column of sea
/// areas `W0S` .. `W7S` along the west edge, each touching the land of its row and the seas
/// above and below. Four empires far apart (more than four steps), so their initial areas
/// never compete: EN in the coastal corner A0L, FR at D4L, XX at G1L and YY at H6L.
fn grid_toml(extra: &str) -> String {
    let terrains = [
        "plains",
        "lowlands",
        "forest",
        "uplands",
        "mountains",
        "wetlands",
        "desert",
        "jungle",
        "tundra",
        "islands",
    ];
    let rows = ["A", "B", "C", "D", "E", "F", "G", "H"];
    let land = |r: usize, c: usize| format!("{}{}L", rows[r], c);
    let mut s = String::from("name = \"Grid\"\n");
    for r in 0..8 {
        for c in 0..8 {
            let mut adj = Vec::new();
            if c + 1 < 8 {
                adj.push(land(r, c + 1));
            }
            if r + 1 < 8 {
                adj.push(land(r + 1, c));
            }
            if c == 0 {
                adj.push(format!("W{r}S"));
            }
            let lo = 1 + (r + c) % 3;
            let hi = lo + (r * c) % 4;
            s.push_str(&format!(
                "[[area]]\ncode = \"{}\"\nterrain = \"{}\"\npopulation = [{lo}, {hi}]\nadjacent = [{}]\n",
                land(r, c),
                terrains[(r * 3 + c) % terrains.len()],
                adj.iter()
                    .map(|a| format!("\"{a}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    for r in 0..8 {
        let adj = if r + 1 < 8 {
            format!("[\"W{}S\"]", r + 1)
        } else {
            "[]".to_string()
        };
        s.push_str(&format!(
            "[[area]]\ncode = \"W{r}S\"\nterrain = \"sea\"\nadjacent = {adj}\n"
        ));
    }
    s.push_str(
        r#"[[empire]]
code = "EN"
name = "England"
home = "A0L"
[[empire]]
code = "FR"
name = "France"
home = "D4L"
[[empire]]
code = "XX"
name = "Ex"
home = "G1L"
"#,
    );
    s.push_str(extra);
    s.push_str(
        r#"[[empire]]
code = "YY"
name = "Why"
home = "H6L"
"#,
    );
    s
}

fn grid() -> Map {
    Map::from_toml(&grid_toml(""), "grid.toml").unwrap_or_else(|e| panic!("{e}"))
}

fn owned(m: &Map, st: &GameState, code: EmpireCode) -> Vec<AreaId> {
    m.ids()
        .filter(|&id| st.area(id).owner == Some(code))
        .collect()
}

/// 12.6: the shape of an empire's initial areas for the variant.
fn check_shape(m: &Map, variant: Variant, home: AreaId, areas: &[AreaId]) {
    assert!(areas.contains(&home));
    let others: Vec<AreaId> = areas.iter().copied().filter(|&a| a != home).collect();
    match variant {
        Variant::World => {
            // Two next to home, and two more next to any of those first three.
            assert_eq!(others.len(), 4, "{:?}", codes(m, areas));
            let ok = others.iter().enumerate().any(|(i, &a1)| {
                others.iter().skip(i + 1).any(|&a2| {
                    let first = [home, a1, a2];
                    m.adjacent(home, a1)
                        && m.adjacent(home, a2)
                        && others
                            .iter()
                            .filter(|a| !first.contains(a))
                            .all(|&a| first.iter().any(|&f| m.adjacent(f, a)))
                })
            });
            assert!(ok, "World initial areas {:?}", codes(m, areas));
        }
        _ => {
            // Home and two areas next to it.
            assert_eq!(others.len(), 2, "{:?}", codes(m, areas));
            assert!(others.iter().all(|&a| m.adjacent(home, a)));
        }
    }
}

fn codes(m: &Map, areas: &[AreaId]) -> Vec<String> {
    areas.iter().map(|&a| m.code(a).to_string()).collect()
}

/// 12.7: 4 armies and 2 forts at home, 3 and 1 elsewhere; a coastal area has one army
/// less and a naval base with one ship. No extra ship here: the areas touch by land.
fn check_strengths(m: &Map, st: &GameState, home: AreaId, areas: &[AreaId]) {
    for &a in areas {
        let def = m.area(a);
        let s = st.area(a);
        let (armies, forts) = if a == home { (4, 2) } else { (3, 1) };
        assert_eq!(s.forts, forts, "{}", def.code);
        if def.coastal {
            assert_eq!(s.armies, armies - 1, "{}", def.code);
            let b = s
                .base
                .as_ref()
                .unwrap_or_else(|| panic!("base in {}", def.code));
            assert_eq!((b.ships, b.laid_up), (1, 0), "{}", def.code);
            let entrance = m.id(b.entrance).unwrap();
            assert!(m.area(entrance).is_sea() && m.adjacent(a, entrance));
        } else {
            assert_eq!(s.armies, armies, "{}", def.code);
            assert!(s.base.is_none(), "{}", def.code);
        }
    }
}

/// 12.8: treasury and reserves; European capital and supply capacity (S.3, S.10).
fn check_reserves(st: &GameState, variant: Variant) {
    for e in &st.empires {
        assert_eq!(e.treasury, 20, "{}", e.code);
        assert_eq!(e.navy_reserve, 3, "{}", e.code);
        assert_eq!(e.vps, 0);
        assert!(e.spy.is_none());
        assert!(e.alive());
        // Decision 39: Australian empires fly but start on Medieval's line of 12.8.
        if variant == Variant::World {
            assert_eq!((e.army_reserve, e.air_force), (5, 5), "{}", e.code);
        } else {
            assert_eq!((e.army_reserve, e.air_force), (10, 0), "{}", e.code);
        }
    }
}

/// 3.2, 3.3: the first balance is income less supply, as at every turn's end.
fn check_balances(m: &Map, st: &GameState) {
    for e in &st.empires {
        let income: u32 = st
            .areas
            .iter()
            .filter(|a| a.owner == Some(e.code))
            .map(|a| a.population)
            .sum();
        let supply = empires_rules::engine::supply_cost(m, st, e.code);
        assert_eq!(e.income, income, "{}", e.code);
        assert_eq!(e.supply_cost, supply, "{}", e.code);
        assert_eq!(e.bps, income.saturating_sub(supply), "{}", e.code);
    }
}

/// 12.9: unowned land areas get a population drawn from the area's range.
fn check_unowned(m: &Map, st: &GameState) {
    for id in m.ids() {
        let def = m.area(id);
        let s = st.area(id);
        if def.is_sea() {
            assert!(s.owner.is_none() && s.population == 0 && s.armies == 0 && s.forts == 0);
            assert!(s.fleet.is_none() && s.base.is_none());
        } else if s.owner.is_none() {
            let (lo, hi) = def.population;
            assert!(
                (lo..=hi).contains(&s.population),
                "{}: population {} outside [{lo}, {hi}]",
                def.code,
                s.population
            );
            assert!(s.base.is_none() && s.forts == 0, "{}", def.code);
        }
    }
}

fn check_common(m: &Map, st: &GameState, variant: Variant) {
    assert_eq!(st.turn, 0);
    assert_eq!(st.variant, variant);
    assert!(
        (3..=5).contains(&st.next_census),
        "11.3: {}",
        st.next_census
    );
    assert!(st.result.is_none() && st.victory_warning.is_none());
    // 6.1: the order of play holds every empire once.
    let order: BTreeSet<EmpireCode> = st.order_of_play.iter().copied().collect();
    let all: BTreeSet<EmpireCode> = st.empires.iter().map(|e| e.code).collect();
    assert_eq!(order, all);
    assert_eq!(st.order_of_play.len(), st.empires.len());
    st.validate(m).unwrap();
    check_reserves(st, variant);
    check_balances(m, st);
    check_unowned(m, st);
}

#[test]
fn rules_12_6_to_12_9_on_a_grid_map_for_every_variant() {
    let m = grid();
    for variant in VARIANTS {
        for seed in 0..6 {
            let st = start(&m, variant, seed);
            check_common(&m, &st, variant);
            for def in &m.empires {
                let areas = owned(&m, &st, def.code);
                check_shape(&m, variant, def.home, &areas);
                check_strengths(&m, &st, def.home, &areas);
            }
        }
    }
}

#[test]
fn rule_12_7_interior_home_has_four_armies_and_two_forts_and_no_base() {
    let m = grid();
    let st = start(&m, Variant::Medieval, 3);
    let home = area(&m, &st, "D4L");
    assert_eq!(home.owner, Some(e("FR")));
    assert_eq!((home.armies, home.forts), (4, 2));
    assert!(home.base.is_none());
    // England's home is on the coast: 3 armies, 2 forts and a base on W0S with one ship.
    let en = area(&m, &st, "A0L");
    assert_eq!((en.armies, en.forts), (3, 2));
    let b = en.base.clone().unwrap();
    assert_eq!((b.entrance.as_str(), b.ships, b.laid_up), ("W0S", 1, 0));
}

#[test]
fn rule_12_8_european_capital_and_supply_capacity() {
    let m = grid();
    let st = start(&m, Variant::European, 1);
    let cap = |c: &str| {
        let x = emp(&st, c);
        (x.capital.map(|a| a.to_string()), x.supply_capacity)
    };
    // Decision 24: England 12, France 8, everyone else 2; the capital is the home area.
    assert_eq!(cap("EN"), (Some("A0L".into()), 12));
    assert_eq!(cap("FR"), (Some("D4L".into()), 8));
    assert_eq!(cap("XX"), (Some("G1L".into()), 2));
    assert_eq!(cap("YY"), (Some("H6L".into()), 2));
    for variant in [Variant::World, Variant::Medieval, Variant::Australian] {
        let st = start(&m, variant, 1);
        for x in &st.empires {
            assert_eq!((x.capital, x.supply_capacity), (None, 0), "{variant}");
        }
    }
}

#[test]
fn rule_12_6_european_minor_countries_may_control_fewer() {
    let text = grid_toml("extra_areas = 1\n");
    let m = Map::from_toml(&text, "grid.toml").unwrap();
    let st = start(&m, Variant::European, 4);
    let xx = owned(&m, &st, e("XX"));
    assert_eq!(xx.len(), 2, "{:?}", codes(&m, &xx));
    let home = m.find("G1L").unwrap();
    assert!(xx.contains(&home));
    assert!(xx.iter().all(|&a| a == home || m.adjacent(home, a)));
    assert_eq!(owned(&m, &st, e("FR")).len(), 3);
}

#[test]
fn rules_12_6_to_12_8_on_the_test_map_for_every_variant() {
    let m = map();
    for variant in VARIANTS {
        for seed in 0..4 {
            let st = start(&m, variant, seed);
            check_common(&m, &st, variant);
            for def in &m.empires {
                let areas = owned(&m, &st, def.code);
                // Every home is owned by its empire; there may be too little room for all
                // the other initial areas on so small a map.
                assert_eq!(st.area(def.home).owner, Some(def.code));
                let max = if variant == Variant::World { 5 } else { 3 };
                assert!(areas.len() <= max, "{variant}: {:?}", codes(&m, &areas));
                for &a in &areas {
                    if a != def.home {
                        let near = areas.iter().any(|&b| b != a && m.adjacent(a, b));
                        assert!(near, "{variant}: {} is cut off", m.code(a));
                    }
                }
                check_strengths(&m, &st, def.home, &areas);
            }
            if variant != Variant::World {
                // AA (home AAA) takes both its land neighbours, which no one else can reach.
                let aa: Vec<String> = codes(&m, &owned(&m, &st, e("AA")));
                assert_eq!(aa, vec!["AAA", "BBB", "DDD"], "{variant}");
                let aaa = area(&m, &st, "AAA");
                assert_eq!((aaa.armies, aaa.forts), (3, 2));
                assert_eq!(aaa.base.as_ref().unwrap().entrance.as_str(), "NSE");
                let bbb = area(&m, &st, "BBB");
                assert_eq!((bbb.armies, bbb.forts), (3, 1));
                assert!(bbb.base.is_none());
                let ddd = area(&m, &st, "DDD");
                assert_eq!((ddd.armies, ddd.forts), (2, 1));
                assert_eq!(ddd.base.as_ref().unwrap().ships, 1);
            }
        }
    }
}

/// A home on the coast, an inland neighbour, an island across the sea and an inland area
/// next to the neighbour.
const ISLES: &str = r#"
name = "Isles"
[[area]]
code = "HOM"
terrain = "plains"
adjacent = ["NXT", "SEA"]
[[area]]
code = "NXT"
terrain = "lowlands"
adjacent = ["OTH"]
[[area]]
code = "OTH"
terrain = "uplands"
[[area]]
code = "ISL"
terrain = "islands"
adjacent = ["SEA"]
[[area]]
code = "SEA"
terrain = "sea"
[[empire]]
code = "AA"
home = "HOM"
"#;

fn ships_of(st: &GameState, code: EmpireCode) -> u32 {
    st.areas
        .iter()
        .filter(|a| a.owner == Some(code))
        .filter_map(|a| a.base.as_ref())
        .map(|b| b.ships + b.laid_up)
        .sum()
}

#[test]
fn rule_12_7_an_extra_ship_when_the_initial_areas_are_separated_by_sea() {
    let m = Map::from_toml(
        &format!("{ISLES}start = [\"NXT\", \"ISL\"]\n"),
        "isles.toml",
    )
    .unwrap();
    for variant in VARIANTS {
        let st = start(&m, variant, 5);
        assert_eq!(
            codes(&m, &owned(&m, &st, e("AA"))),
            vec!["HOM", "NXT", "ISL"]
        );
        // Two coastal areas (one ship each) plus one for the sea between them.
        assert_eq!(ships_of(&st, e("AA")), 3, "{variant}");
        let isl = area(&m, &st, "ISL");
        assert_eq!((isl.armies, isl.forts), (2, 1));
        assert_eq!(emp(&st, "AA").navy_reserve, 3);
    }
}

#[test]
fn rule_12_7_no_extra_ship_when_the_initial_areas_touch_by_land() {
    let m = Map::from_toml(
        &format!("{ISLES}start = [\"NXT\", \"OTH\"]\n"),
        "isles.toml",
    )
    .unwrap();
    let st = start(&m, Variant::Medieval, 5);
    assert_eq!(
        codes(&m, &owned(&m, &st, e("AA"))),
        vec!["HOM", "NXT", "OTH"]
    );
    assert_eq!(ships_of(&st, e("AA")), 1);
    assert_eq!(emp(&st, "AA").navy_reserve, 3);
}

#[test]
fn rule_11_3_first_census_on_turn_three_four_or_five() {
    let m = grid();
    let seen: BTreeSet<u32> = (0..40)
        .map(|seed| start(&m, Variant::World, seed).next_census)
        .collect();
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![3, 4, 5]);
}

#[test]
fn rule_6_1_the_first_order_of_play_is_random() {
    let m = grid();
    let orders: BTreeSet<Vec<EmpireCode>> = (0..30)
        .map(|seed| start(&m, Variant::Medieval, seed).order_of_play)
        .collect();
    assert!(orders.len() > 3, "{orders:?}");
}

#[test]
fn rule_12_9_unowned_areas_are_random() {
    let m = grid();
    let a = start(&m, Variant::Medieval, 1);
    let b = start(&m, Variant::Medieval, 2);
    let unowned = |st: &GameState| -> Vec<(u32, u32)> {
        st.areas
            .iter()
            .filter(|x| x.owner.is_none())
            .map(|x| (x.population, x.armies))
            .collect()
    };
    assert_ne!(unowned(&a), unowned(&b));
    // Some unowned areas start with armies.
    assert!(a.areas.iter().any(|x| x.owner.is_none() && x.armies > 0));
}

#[test]
fn decision_4_same_seed_same_game_different_seed_different_game() {
    for m in [grid(), map()] {
        for variant in VARIANTS {
            let a = start(&m, variant, 77);
            let b = start(&m, variant, 77);
            assert_eq!(a, b);
            assert_eq!(
                serde_json::to_string(&a).unwrap(),
                serde_json::to_string(&b).unwrap()
            );
            let c = start(&m, variant, 78);
            assert_ne!(a, c, "{variant}");
        }
    }
}

#[test]
fn rule_2_1_players_and_dummies() {
    let m = grid();
    let mut g = game(Variant::World, 1);
    g.players.insert(e("FR"), "Marianne".into());
    let st = new_game(&m, &g).unwrap();
    assert_eq!(emp(&st, "FR").player.as_deref(), Some("Marianne"));
    assert_eq!(emp(&st, "EN").player, None);
    g.players.insert(e("ZZ"), "Nobody".into());
    let err = new_game(&m, &g).unwrap_err();
    assert!(matches!(&err, SetupError::UnknownEmpire(c, _) if *c == e("ZZ")));
    // The message names the empires there are.
    let codes: Vec<&str> = m.empires.iter().map(|x| x.code.as_str()).collect();
    assert!(
        err.to_string()
            .ends_with(&format!("its empires are {}", codes.join(" ")))
    );
}

#[test]
fn a_new_game_plays_its_first_turn() {
    let m = grid();
    for variant in VARIANTS {
        let st = start(&m, variant, 9);
        let t = play(&m, &st, &[]);
        assert_eq!(t.state.turn, 1);
    }
}
