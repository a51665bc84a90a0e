//! The standard map of Europe, and every check a map must pass (digest 2.1, 2.6, 8.1 "No
//! map data"): each check has a small map that breaks exactly it.

use napoleonic_rules::fixed::Fixed;
use napoleonic_rules::ids::{KingdomCode, TroopCode};
use napoleonic_rules::map::Map;
use napoleonic_rules::mapcheck::{problems, roster_problems};
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::standard;
use napoleonic_rules::tables::{Tables, TroopClass};

// --- The standard map -------------------------------------------------------------------

#[test]
fn the_standard_map_loads() {
    let map = Map::parse(standard::EUROPE_TOML).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(map, standard::europe());
    assert_eq!(map.name, "Napoleonic Europe");
    assert_eq!(map.provinces().count(), 146);
    assert_eq!(map.seas().count(), 30);
    assert!(map.provinces().all(|p| (1..=200).contains(&p.id.0)));
    assert!(map.seas().all(|s| s.id.0 >= 201));
    assert_eq!(
        standard::find(" Europe ").map(|m| m.name),
        Some(map.name.clone())
    );
    assert!(standard::find("atlantis").is_none());
}

#[test]
fn the_standard_map_has_at_least_twenty_kingdoms() {
    let map = standard::europe();
    assert!(map.kingdoms.len() >= 20, "{} kingdoms", map.kingdoms.len());
}

#[test]
fn the_standard_map_uses_only_troops_of_the_roster() {
    assert_eq!(
        roster_problems(&standard::europe(), &Tables::standard()),
        Vec::<String>::new()
    );
}

#[test]
fn the_kingdoms_start_in_roughly_equal_standing() {
    // 1.1: "a roughly equal standing"; 2.10: Commoners get no leaders.
    let map = standard::europe();
    let tables = Tables::standard();
    let revenue = |k: &napoleonic_rules::map::KingdomStart| -> Fixed {
        k.provinces.iter().map(|p| map.loc(*p).revenue).sum()
    };
    let totals: Vec<Fixed> = map.kingdoms.iter().map(revenue).collect();
    let (min, max) = (*totals.iter().min().unwrap(), *totals.iter().max().unwrap());
    assert!(
        max.0 <= 2 * min.0,
        "starting revenue runs from {min} to {max}"
    );
    for k in &map.kingdoms {
        assert!(
            (2..=4).contains(&k.provinces.len()),
            "{} starts with {} provinces",
            k.code,
            k.provinces.len()
        );
        assert!(
            (Fixed::whole(60)..=Fixed::whole(100)).contains(&k.treasury),
            "{} treasury {}",
            k.code,
            k.treasury
        );
        assert!((1..=2).contains(&k.armies.len()), "{} armies", k.code);
        for a in &k.armies {
            let n: u32 = a.troops.iter().map(|(_, n)| n).sum();
            assert!((6..=12).contains(&n), "{} army of {n}", k.code);
        }
        let coast = k
            .provinces
            .iter()
            .any(|p| map.loc(*p).harbour && map.loc(*p).city.is_some());
        assert_eq!(
            !k.fleets.is_empty(),
            coast,
            "{}: a fleet when it has a harbour",
            k.code
        );
        for f in k.armies.iter().chain(&k.fleets) {
            assert_eq!(f.leaders, 0, "{}: Commoners get no leaders", k.code);
        }
        let soldiers: u32 = k
            .armies
            .iter()
            .flat_map(|a| &a.troops)
            .filter(|(c, _)| tables.troop(c).unwrap().class != TroopClass::Ship)
            .map(|(_, n)| n)
            .sum();
        assert!(
            (14..=17).contains(&soldiers),
            "{}: {soldiers} soldiers",
            k.code
        );
    }
}

#[test]
fn the_standard_map_keeps_every_province_in_reach_by_land_where_it_has_land_neighbours() {
    // The barriers are authored so that no province is walled in on every land side.
    let map = standard::europe();
    for p in map.provinces() {
        let land: Vec<_> = p.edges.iter().filter(|e| !map.loc(e.to).is_sea()).collect();
        if !land.is_empty() {
            assert!(
                land.iter().any(|e| !e.barrier),
                "{} is walled in by mountains",
                p.code
            );
        }
    }
    let barriers = map
        .locations
        .iter()
        .flat_map(|l| l.edges.iter().filter(|e| e.barrier))
        .count();
    assert!(barriers >= 2 * 15, "mountains and reefs are there");
}

#[test]
fn the_standard_map_starts_a_game() {
    let map = standard::europe();
    let state = new_game(&map, &NewGame::standard(7)).unwrap();
    assert_eq!(state.kingdoms.len(), map.kingdoms.len() + 1);
    assert_eq!(state.provinces.len(), 146);
    let ind = KingdomCode::independents();
    let started: usize = map.kingdoms.iter().map(|k| k.provinces.len()).sum();
    assert_eq!(state.owned_by(&ind).count(), 146 - started);
    // Moscow recruits cossacks whoever owns it (2.1).
    let moscow = map.find("MOS").unwrap().city.as_ref().unwrap();
    assert!(moscow.builds.contains(&TroopCode("COS".into())));
    // A kingdom's independent neighbour is defended.
    let london = map.find("LON").unwrap().id;
    let fra = KingdomCode::new("FRA").unwrap();
    assert_eq!(state.provinces[&map.find("PAR").unwrap().id].owner, fra);
    assert!(state.provinces[&london].owner != ind);
    let wales = map.find("WAL").unwrap();
    assert_eq!(state.provinces[&wales.id].owner, ind);
    assert!(
        state
            .units
            .iter()
            .any(|u| u.owner == ind && u.location == wales.id && !u.troops.is_empty())
    );
}

// --- Every check, broken one at a time ----------------------------------------------------

/// A sound little map: three provinces in a row, two seas, one kingdom.
const GOOD: &str = r#"
name = "Test"

[[province]]
id = 1
code = "AAA"
name = "Alpha"
position = [0.0, 50.0]
revenue = 10
adjacent = ["BBB", "SEA"]
city = { name = "Alphaville", builds = ["MIL", "LIN", "WAR"], max_builds = 3 }
harbour = true

[[province]]
id = 2
code = "BBB"
name = "Beta"
position = [1.0, 50.0]
revenue = 8
adjacent = ["AAA", "CCC", "SEA"]
garrison = [["MIL", 2]]

[[province]]
id = 3
code = "CCC"
name = "Gamma"
position = [2.0, 50.0]
revenue = 6
adjacent = ["BBB", "SEB"]
city = { name = "Gammaton", builds = ["MIL"], max_builds = 2 }
garrison = [["MIL", 1]]

[[sea]]
id = 201
code = "SEA"
name = "The Sea"
position = [0.5, 49.0]
adjacent = ["AAA", "BBB", "SEB"]

[[sea]]
id = 202
code = "SEB"
name = "The Other Sea"
position = [2.5, 49.0]
adjacent = ["SEA", "CCC"]

[[kingdom]]
code = "KAA"
name = "Kingdom A"
capital = "AAA"
provinces = ["AAA"]
treasury = 50

[[kingdom.army]]
at = "AAA"
troops = [["LIN", 3]]

[[kingdom.fleet]]
at = "SEA"
troops = [["WAR", 1]]
"#;

/// The base map with each `(from, to)` replaced once (each `from` must occur).
fn edit(changes: &[(&str, &str)]) -> String {
    let mut text = GOOD.to_string();
    for (from, to) in changes {
        assert!(text.contains(from), "{from:?} is not in the test map");
        text = text.replacen(from, to, 1);
    }
    text
}

/// The one problem a broken map has.
fn only_problem(text: &str) -> String {
    let errors = Map::parse(text).expect_err("the map should be refused");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    errors.into_iter().next().unwrap()
}

fn only_roster_problem(text: &str) -> String {
    let map = Map::parse(text).unwrap_or_else(|e| panic!("{e:#?}"));
    let errors = roster_problems(&map, &Tables::standard());
    assert_eq!(errors.len(), 1, "{errors:#?}");
    errors.into_iter().next().unwrap()
}

#[test]
fn the_base_test_map_is_sound() {
    let map = Map::parse(GOOD).unwrap_or_else(|e| panic!("{e:#?}"));
    assert!(problems(&map).is_empty());
    assert!(roster_problems(&map, &Tables::standard()).is_empty());
    new_game(&map, &NewGame::standard(1)).unwrap();
}

#[test]
fn a_border_listed_on_one_side_only_is_refused() {
    let text = edit(&[(
        r#"adjacent = ["AAA", "CCC", "SEA"]"#,
        r#"adjacent = ["AAA", "CCC"]"#,
    )]);
    assert_eq!(
        only_problem(&text),
        "SEA lists BBB as a neighbour but BBB does not list SEA"
    );
}

#[test]
fn a_location_bordering_itself_is_refused() {
    let text = edit(&[(
        r#"adjacent = ["BBB", "SEA"]"#,
        r#"adjacent = ["AAA", "BBB", "SEA"]"#,
    )]);
    assert_eq!(only_problem(&text), "AAA (1) borders itself");
}

#[test]
fn a_barrier_on_one_side_only_is_refused() {
    let text = edit(&[(
        r#"adjacent = ["BBB", "SEA"]"#,
        r#"adjacent = ["SEA"]
barriers = ["BBB"]"#,
    )]);
    assert_eq!(
        only_problem(&text),
        "the border AAA-BBB is a barrier on one side only"
    );
}

#[test]
fn seas_never_bar_each_other() {
    let text = edit(&[
        (
            r#"adjacent = ["AAA", "BBB", "SEB"]"#,
            r#"adjacent = ["AAA", "BBB"]
barriers = ["SEB"]"#,
        ),
        (
            r#"adjacent = ["SEA", "CCC"]"#,
            r#"adjacent = ["CCC"]
barriers = ["SEA"]"#,
        ),
    ]);
    assert_eq!(
        only_problem(&text),
        "the border SEA-SEB joins two seas and cannot be a barrier"
    );
}

#[test]
fn a_position_off_the_globe_is_refused() {
    let text = edit(&[("position = [1.0, 50.0]", "position = [50.0, 100.0]")]);
    assert_eq!(
        only_problem(&text),
        "BBB (2) has the position [50, 100], which is not a longitude (-180 to 180) and a latitude (-90 to 90)"
    );
}

#[test]
fn a_province_needs_revenue() {
    let text = edit(&[("revenue = 8", "revenue = 0")]);
    assert_eq!(
        only_problem(&text),
        "the province BBB (2) has no revenue: a province's revenue must be above 0"
    );
}

#[test]
fn a_sea_yields_no_revenue() {
    // The file format has no revenue for seas; a map built in code might.
    let mut map = Map::parse(GOOD).unwrap();
    let sea = map.locations.iter_mut().find(|l| l.code == "SEB").unwrap();
    sea.revenue = Fixed::whole(3);
    assert_eq!(
        problems(&map),
        vec!["the sea SEB (202) has a revenue of 3, but seas yield none"]
    );
}

const LONELY: &str = r#"
[[province]]
id = 4
code = "DDD"
name = "Delta"
position = [5.0, 55.0]
revenue = 5
"#;

#[test]
fn a_location_needs_a_neighbour() {
    let text = edit(&[("[[sea]]", &format!("{LONELY}\n[[sea]]"))]);
    assert_eq!(only_problem(&text), "DDD (4) has no neighbours");
}

#[test]
fn every_location_is_reachable_from_every_other() {
    let pair = r#"
[[province]]
id = 4
code = "DDD"
name = "Delta"
position = [5.0, 55.0]
revenue = 5
adjacent = ["EEE"]

[[province]]
id = 5
code = "EEE"
name = "Epsilon"
position = [6.0, 55.0]
revenue = 5
adjacent = ["DDD"]
"#;
    let text = edit(&[("[[sea]]", &format!("{pair}\n[[sea]]"))]);
    assert_eq!(
        only_problem(&text),
        "DDD (4), EEE (5) cannot be reached from AAA (1) across any border"
    );
}

#[test]
fn every_province_is_reachable_by_an_army() {
    // Gamma behind mountains on its land side and a reef on its coast.
    let text = edit(&[
        (
            r#"adjacent = ["AAA", "CCC", "SEA"]"#,
            r#"adjacent = ["AAA", "SEA"]
barriers = ["CCC"]"#,
        ),
        (
            r#"adjacent = ["BBB", "SEB"]"#,
            r#"barriers = ["BBB", "SEB"]"#,
        ),
        (
            r#"adjacent = ["SEA", "CCC"]"#,
            r#"adjacent = ["SEA"]
barriers = ["CCC"]"#,
        ),
    ]);
    assert_eq!(
        only_problem(&text),
        "no army can reach CCC (3) from AAA (1): every way in crosses a mountain or a reef"
    );
    // Mountains alone do not wall it in: a fleet can land an army on its open coast.
    let text = edit(&[
        (
            r#"adjacent = ["AAA", "CCC", "SEA"]"#,
            r#"adjacent = ["AAA", "SEA"]
barriers = ["CCC"]"#,
        ),
        (
            r#"adjacent = ["BBB", "SEB"]"#,
            r#"adjacent = ["SEB"]
barriers = ["BBB"]"#,
        ),
    ]);
    Map::parse(&text).unwrap();
}

#[test]
fn a_harbour_needs_a_city() {
    let text = edit(&[(r#"garrison = [["MIL", 2]]"#, "harbour = true")]);
    assert_eq!(only_problem(&text), "BBB (2) has a harbour but no city");
}

#[test]
fn a_harbour_needs_a_coast_without_reefs() {
    let text = edit(&[
        (
            r#"adjacent = ["BBB", "SEB"]"#,
            r#"adjacent = ["BBB"]
barriers = ["SEB"]
harbour = true"#,
        ),
        (
            r#"adjacent = ["SEA", "CCC"]"#,
            r#"adjacent = ["SEA"]
barriers = ["CCC"]"#,
        ),
    ]);
    assert_eq!(
        only_problem(&text),
        "CCC (3) has a harbour but no coast free of reefs"
    );
}

#[test]
fn a_city_builds_at_least_one_a_turn() {
    let text = edit(&[("max_builds = 2", "max_builds = 0")]);
    assert_eq!(
        only_problem(&text),
        "the city of Gammaton in CCC (3) may build 0 troops a turn: max_builds must be above 0"
    );
}

#[test]
fn a_city_has_something_to_build() {
    let text = edit(&[(r#"builds = ["MIL"]"#, "builds = []")]);
    assert_eq!(
        only_problem(&text),
        "the city of Gammaton in CCC (3) has nothing in its build list"
    );
}

#[test]
fn a_build_list_names_each_troop_once() {
    let text = edit(&[(r#"builds = ["MIL"]"#, r#"builds = ["MIL", "MIL"]"#)]);
    assert_eq!(
        only_problem(&text),
        "the city of Gammaton in CCC (3) lists MIL twice in its build list"
    );
}

#[test]
fn a_city_has_a_name() {
    let text = edit(&[(r#"name = "Gammaton""#, r#"name = " ""#)]);
    assert_eq!(only_problem(&text), "the city in CCC (3) has no name");
}

#[test]
fn a_garrison_lists_no_empty_entries() {
    let text = edit(&[(r#"garrison = [["MIL", 2]]"#, r#"garrison = [["MIL", 0]]"#)]);
    assert_eq!(only_problem(&text), "the garrison of BBB (2) lists 0 MIL");
}

const SECOND: &str = r#"
[[kingdom]]
code = "KBB"
name = "Kingdom B"
capital = "CCC"
provinces = ["CCC"]
"#;

#[test]
fn a_kingdom_is_listed_once() {
    let text = format!("{GOOD}{}", SECOND.replace("KBB", "KAA"));
    assert_eq!(only_problem(&text), "kingdom KAA is listed twice");
    let text = format!("{GOOD}{SECOND}");
    Map::parse(&text).unwrap();
}

#[test]
fn a_kingdom_starts_with_provinces() {
    let text = format!(
        "{GOOD}{}",
        SECOND.replace(r#"provinces = ["CCC"]"#, "provinces = []")
    );
    assert_eq!(only_problem(&text), "kingdom KBB starts with no provinces");
}

#[test]
fn a_kingdom_starts_with_provinces_not_seas() {
    let text = edit(&[(r#"provinces = ["AAA"]"#, r#"provinces = ["AAA", "SEB"]"#)]);
    assert_eq!(
        only_problem(&text),
        "kingdom KAA lists the sea SEB (202) among its provinces"
    );
}

#[test]
fn a_kingdom_lists_each_province_once() {
    let text = edit(&[(r#"provinces = ["AAA"]"#, r#"provinces = ["AAA", "AAA"]"#)]);
    assert_eq!(
        only_problem(&text),
        "kingdom KAA lists AAA (1) twice among its provinces"
    );
}

#[test]
fn a_province_starts_with_one_kingdom_only() {
    let text = format!(
        "{GOOD}{}",
        SECOND.replace(r#"provinces = ["CCC"]"#, r#"provinces = ["CCC", "AAA"]"#)
    );
    assert_eq!(
        only_problem(&text),
        "AAA (1) is a starting province of more than one kingdom (KAA, KBB)"
    );
}

#[test]
fn a_kingdoms_capital_is_one_of_its_provinces() {
    let text = edit(&[(r#"capital = "AAA""#, r#"capital = "BBB""#)]);
    assert_eq!(
        only_problem(&text),
        "kingdom KAA's capital BBB (2) is not one of its provinces"
    );
}

#[test]
fn a_kingdoms_capital_has_a_city() {
    let text = edit(&[
        (r#"capital = "AAA""#, r#"capital = "BBB""#),
        (r#"provinces = ["AAA"]"#, r#"provinces = ["AAA", "BBB"]"#),
    ]);
    assert_eq!(
        only_problem(&text),
        "kingdom KAA's capital BBB (2) has no city"
    );
}

#[test]
fn a_starting_army_stands_on_its_kingdoms_land() {
    let text = edit(&[(r#"at = "AAA""#, r#"at = "BBB""#)]);
    assert_eq!(
        only_problem(&text),
        "kingdom KAA's army at BBB (2) does not stand on one of the kingdom's provinces"
    );
}

#[test]
fn a_starting_fleet_is_in_a_harbour_of_its_kingdom_or_a_sea_beside_it() {
    let far = edit(&[(r#"at = "SEA""#, r#"at = "SEB""#)]);
    assert_eq!(
        only_problem(&far),
        "kingdom KAA's fleet at SEB (202) is neither in one of the kingdom's harbours nor in a sea next to one of its provinces"
    );
    let ashore = edit(&[(r#"at = "SEA""#, r#"at = "BBB""#)]);
    assert_eq!(
        only_problem(&ashore),
        "kingdom KAA's fleet at BBB (2) is neither in one of the kingdom's harbours nor in a sea next to one of its provinces"
    );
    let docked = edit(&[(r#"at = "SEA""#, r#"at = "AAA""#)]);
    Map::parse(&docked).unwrap();
}

#[test]
fn a_starting_force_has_troops() {
    let text = edit(&[(r#"troops = [["LIN", 3]]"#, "troops = []")]);
    assert_eq!(
        only_problem(&text),
        "kingdom KAA's army at AAA (1) has no troops"
    );
    let text = edit(&[(r#"troops = [["LIN", 3]]"#, r#"troops = [["LIN", 0]]"#)]);
    assert_eq!(
        only_problem(&text),
        "kingdom KAA's army at AAA (1) lists 0 LIN"
    );
}

// --- The map against the roster -----------------------------------------------------------

#[test]
fn a_build_list_names_troops_of_the_roster() {
    let text = edit(&[(r#"builds = ["MIL"]"#, r#"builds = ["MIL", "HUS"]"#)]);
    assert_eq!(
        only_roster_problem(&text),
        "the city of Gammaton in CCC (3) lists HUS, which is not a troop type in the roster"
    );
}

#[test]
fn a_garrison_names_troops_of_the_roster() {
    let text = edit(&[(r#"garrison = [["MIL", 2]]"#, r#"garrison = [["VOL", 2]]"#)]);
    assert_eq!(
        only_roster_problem(&text),
        "the garrison of BBB (2) lists VOL, which is not a troop type in the roster"
    );
}

#[test]
fn a_starting_force_names_troops_of_the_roster() {
    let text = edit(&[(
        r#"troops = [["LIN", 3]]"#,
        r#"troops = [["LIN", 3], ["GUA", 1]]"#,
    )]);
    assert_eq!(
        only_roster_problem(&text),
        "kingdom KAA's army at AAA (1) lists GUA, which is not a troop type in the roster"
    );
    // new_game refuses it too.
    let map = Map::parse(&text).unwrap();
    assert!(new_game(&map, &NewGame::standard(1)).is_err());
}

#[test]
fn ships_are_built_only_where_a_harbour_can_be() {
    let text = edit(&[
        (r#"builds = ["MIL"]"#, r#"builds = ["MIL", "WAR", "TRN"]"#),
        (
            r#"adjacent = ["BBB", "SEB"]"#,
            r#"adjacent = ["BBB"]
barriers = ["SEB"]"#,
        ),
        (
            r#"adjacent = ["SEA", "CCC"]"#,
            r#"adjacent = ["SEA"]
barriers = ["CCC"]"#,
        ),
    ]);
    assert_eq!(
        only_roster_problem(&text),
        "the city of Gammaton in CCC (3) builds ships (WAR, TRN) but CCC has no coast free of reefs for a harbour"
    );
    // A city on an open coast may list ships before it has a harbour: one can be built.
    let text = edit(&[(r#"builds = ["MIL"]"#, r#"builds = ["MIL", "WAR"]"#)]);
    assert!(roster_problems(&Map::parse(&text).unwrap(), &Tables::standard()).is_empty());
}

#[test]
fn a_garrison_keeps_ships_only_in_a_city_with_a_harbour() {
    let text = edit(&[(
        r#"garrison = [["MIL", 2]]"#,
        r#"garrison = [["MIL", 2], ["WAR", 1]]"#,
    )]);
    assert_eq!(
        only_roster_problem(&text),
        "the garrison of BBB (2) has ships (WAR) but BBB has no city with a harbour to keep them"
    );
}

#[test]
fn armies_start_with_soldiers_and_fleets_with_ships() {
    let text = edit(&[(
        r#"troops = [["LIN", 3]]"#,
        r#"troops = [["LIN", 3], ["TRN", 1]]"#,
    )]);
    assert_eq!(
        only_roster_problem(&text),
        "kingdom KAA's army at AAA (1) lists TRN, a ship: armies hold soldiers, and ships sail in fleets"
    );
    let text = edit(&[(
        r#"troops = [["WAR", 1]]"#,
        r#"troops = [["WAR", 1], ["MAR", 2]]"#,
    )]);
    assert_eq!(
        only_roster_problem(&text),
        "kingdom KAA's fleet at SEA (201) lists MAR, a soldier: fleets hold ships, and soldiers travel aboard in armies"
    );
}

#[test]
fn a_starting_fortification_is_a_level_of_the_table() {
    let text = edit(&[(r#"garrison = [["MIL", 2]]"#, "fort = 9")]);
    assert_eq!(
        only_roster_problem(&text),
        "BBB (2) starts with fortification level 9, but the table has 8 levels"
    );
    let text = edit(&[(r#"garrison = [["MIL", 2]]"#, "fort = 8")]);
    assert!(roster_problems(&Map::parse(&text).unwrap(), &Tables::standard()).is_empty());
}

#[test]
fn problems_come_back_all_at_once_in_a_stable_order() {
    let text = edit(&[
        ("revenue = 8", "revenue = 0"),
        ("max_builds = 2", "max_builds = 0"),
    ]);
    let errors = Map::parse(&text).unwrap_err();
    assert_eq!(
        errors,
        vec![
            "the province BBB (2) has no revenue: a province's revenue must be above 0",
            "the city of Gammaton in CCC (3) may build 0 troops a turn: max_builds must be above 0",
        ]
    );
}
