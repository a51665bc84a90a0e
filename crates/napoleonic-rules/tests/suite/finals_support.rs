//! What the Final Events' tests share: a small map (France, Bavaria, Savoy, England and
//! independent Alsace), its game, and helpers to write orders, shape the state and read
//! the events. Not every file uses every helper.

#![allow(dead_code)]

pub use napoleonic_rules::event::{Event, What, When};
pub use napoleonic_rules::orders::{HqOrder, KingdomOrders, Structure, TroopCount, UnitOrders};
pub use napoleonic_rules::setup::{NewGame, new_game};
pub use napoleonic_rules::state::{GameState, Leader, Relation, Status, Troop, Unit};
pub use napoleonic_rules::turn::{Turn, finals};
pub use napoleonic_rules::{Fixed, KingdomCode, LocId, Map, TroopCode, UnitId, play};
pub use std::collections::BTreeMap;

/// A small map: France (PAR, NOR, BUR, BRI, PIC) with an army of 4 LIN in BUR; Bavaria
/// (BAD, WUR); Savoy (LYO); England (COR) across the Channel; independent Alsace between
/// France and Bavaria. Every province starts annexed to its owner.
pub const MAP: &str = r#"
name = "Finals test"

[[province]]
id = 1
code = "PAR"
name = "Paris"
position = [2.3, 48.8]
revenue = 40
adjacent = ["NOR", "BUR", "PIC"]
city = { name = "Paris", builds = ["MIL", "LIN", "GRE", "ART"], max_builds = 3 }
fort = 2

[[province]]
id = 2
code = "NOR"
name = "Normandy"
position = [0.5, 49.3]
revenue = 20
adjacent = ["PAR", "BUR", "CHA"]
city = { name = "Rouen", builds = ["MIL", "WAR", "TRN"], max_builds = 2 }
harbour = true

[[province]]
id = 3
code = "BUR"
name = "Burgundy"
position = [4.8, 47.3]
revenue = 10
adjacent = ["PAR", "NOR", "ALS", "LYO"]

[[province]]
id = 4
code = "ALS"
name = "Alsace"
position = [7.7, 48.5]
revenue = 15
adjacent = ["BUR", "BAD"]
city = { name = "Strasbourg", builds = ["MIL"], max_builds = 2 }
garrison = [["MIL", 2]]

[[province]]
id = 5
code = "BAD"
name = "Baden"
position = [8.4, 49.0]
revenue = 12
adjacent = ["ALS", "WUR"]
city = { name = "Karlsruhe", builds = ["MIL", "LIN"], max_builds = 2 }

[[province]]
id = 6
code = "WUR"
name = "Wurttemberg"
position = [9.2, 48.8]
revenue = 8
adjacent = ["BAD"]

[[province]]
id = 7
code = "BRI"
name = "Brittany"
position = [-3.0, 48.0]
revenue = 6
adjacent = ["CHA"]
city = { name = "Rennes", builds = ["MIL"], max_builds = 1 }

[[province]]
id = 8
code = "PIC"
name = "Picardy"
position = [2.3, 50.0]
revenue = 5
adjacent = ["PAR"]
barriers = ["CHA"]
city = { name = "Amiens", builds = ["MIL"], max_builds = 1 }

[[province]]
id = 9
code = "LYO"
name = "Lyon"
position = [4.8, 45.8]
revenue = 18
adjacent = ["BUR"]
city = { name = "Lyon", builds = ["MIL"], max_builds = 1 }

[[province]]
id = 10
code = "COR"
name = "Cornwall"
position = [-5.0, 50.3]
revenue = 9
adjacent = ["CHA"]
city = { name = "Truro", builds = ["MIL"], max_builds = 1 }

[[sea]]
id = 201
code = "CHA"
name = "Channel"
position = [-1.0, 50.0]
adjacent = ["NOR", "BRI", "COR"]
barriers = ["PIC"]

[[kingdom]]
code = "FRA"
name = "France"
capital = "PAR"
provinces = ["PAR", "NOR", "BUR", "BRI", "PIC"]
treasury = 100
army = [{ at = "BUR", troops = [["LIN", 4]] }]

[[kingdom]]
code = "BAV"
name = "Bavaria"
capital = "BAD"
provinces = ["BAD", "WUR"]
treasury = 50

[[kingdom]]
code = "SAV"
name = "Savoy"
capital = "LYO"
provinces = ["LYO"]
treasury = 30

[[kingdom]]
code = "ENG"
name = "England"
capital = "COR"
provinces = ["COR"]
treasury = 40
"#;

pub const PAR: LocId = LocId(1);
pub const NOR: LocId = LocId(2);
pub const BUR: LocId = LocId(3);
pub const ALS: LocId = LocId(4);
pub const BAD: LocId = LocId(5);
pub const WUR: LocId = LocId(6);
pub const BRI: LocId = LocId(7);
pub const PIC: LocId = LocId(8);
pub const LYO: LocId = LocId(9);
pub const COR: LocId = LocId(10);
pub const CHA: LocId = LocId(201);

pub type Orders = BTreeMap<KingdomCode, KingdomOrders>;

pub fn kc(s: &str) -> KingdomCode {
    KingdomCode::new(s).unwrap()
}

pub fn gold(n: i64) -> Fixed {
    Fixed::whole(n)
}

pub fn setup() -> (Map, GameState) {
    setup_seed(7)
}

pub fn setup_seed(seed: u64) -> (Map, GameState) {
    let map = Map::parse(MAP).unwrap();
    let state = new_game(&map, &NewGame::standard(seed)).unwrap();
    (map, state)
}

pub fn orders(list: Vec<(&str, KingdomOrders)>) -> Orders {
    list.into_iter().map(|(k, o)| (kc(k), o)).collect()
}

pub fn hq(list: Vec<HqOrder>) -> KingdomOrders {
    KingdomOrders {
        hq: list,
        ..Default::default()
    }
}

pub fn units(list: Vec<UnitOrders>) -> KingdomOrders {
    KingdomOrders {
        units: list,
        ..Default::default()
    }
}

pub fn order(id: UnitId, f: impl FnOnce(&mut UnitOrders)) -> UnitOrders {
    let mut u = UnitOrders::new(id);
    f(&mut u);
    u
}

pub fn tc(code: &str, count: u32) -> TroopCount {
    TroopCount {
        code: TroopCode(code.to_string()),
        count,
    }
}

pub fn troop(state: &GameState, code: &str, rank: u8) -> Troop {
    let code = TroopCode(code.to_string());
    let mp = state.tables.troop(&code).unwrap().mp;
    Troop {
        code,
        rank,
        mp,
        damage: Fixed::ZERO,
    }
}

pub fn leader(name: &str, upkeep: Fixed) -> Leader {
    Leader {
        name: name.to_string(),
        hp: gold(2),
        combat: 30,
        attacks: 2,
        infantry: 20,
        cavalry: 20,
        siege: 10,
        naval: 0,
        upkeep,
        damage: Fixed::ZERO,
    }
}

pub fn a(n: u16) -> UnitId {
    UnitId::army(n)
}

pub fn g(at: LocId) -> UnitId {
    UnitId::garrison(at)
}

pub fn unit<'s>(state: &'s GameState, k: &str, id: UnitId) -> &'s Unit {
    state.unit(&kc(k), id).unwrap()
}

pub fn unit_mut<'s>(state: &'s mut GameState, k: &str, id: UnitId) -> &'s mut Unit {
    state.unit_mut(&kc(k), id).unwrap()
}

/// Adds `n` troops of a type, rank 1, to a unit.
pub fn add(state: &mut GameState, k: &str, id: UnitId, code: &str, n: usize) {
    let t = troop(state, code, 1);
    unit_mut(state, k, id)
        .troops
        .extend(std::iter::repeat_n(t, n));
}

/// A new empty unit of a kingdom.
pub fn new_unit(state: &mut GameState, k: &str, id: UnitId, at: LocId) {
    assert!(state.insert_unit(Unit::new(kc(k), id, format!("{k} {id}"), at)));
}

pub fn treasury(state: &GameState, k: &str) -> Fixed {
    state.kingdoms[&kc(k)].treasury
}

pub fn set_treasury(state: &mut GameState, k: &str, t: Fixed) {
    state.kingdoms.get_mut(&kc(k)).unwrap().treasury = t;
}

/// France without its army: no upkeep at all.
pub fn disarm_france(state: &mut GameState) {
    let fra = kc("FRA");
    state.units.retain(|u| !(u.owner == fra && u.id == a(1)));
}

/// Hands a province to a kingdom as if it had held it since the turn began: owner, owner
/// at the start, and the garrison (an empty one for the new owner where there was one).
pub fn hand_over(state: &mut GameState, at: LocId, to: &str) {
    let to = kc(to);
    let had = state
        .units
        .iter()
        .any(|u| u.location == at && u.id == g(at));
    state.units.retain(|u| u.id != g(at));
    let p = state.provinces.get_mut(&at).unwrap();
    p.owner = to.clone();
    p.owner_at_start = to.clone();
    if had {
        state.insert_unit(Unit::new(to, g(at), "Garrison".into(), at));
    }
}

/// A whole turn through the engine's entry point.
pub fn run(map: &Map, state: &GameState, orders: &Orders) -> (GameState, Vec<Event>) {
    let out = play(map, state, orders).unwrap();
    (out.state, out.events)
}

/// The Final Events alone, on a state whose per-turn marks (battle, pillage, change of
/// owner, owner at the start) were set by hand.
pub fn finals_only(map: &Map, state: &GameState, orders: &Orders) -> (GameState, Vec<Event>) {
    let mut t = Turn::new(map, state, orders).unwrap();
    finals::run(&mut t);
    (t.state, t.events)
}

/// Every failed order of a kingdom as "order: reason".
pub fn failures(events: &[Event], k: &str) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.what {
            What::OrderFailed {
                kingdom,
                order,
                reason,
                ..
            } if kingdom.as_str() == k => Some(format!("{order}: {reason}")),
            _ => None,
        })
        .collect()
}

pub fn finals_of(events: &[Event], step: u8) -> Vec<&What> {
    events
        .iter()
        .filter(|e| e.when == When::Final(step))
        .map(|e| &e.what)
        .collect()
}

pub fn revenue_of(events: &[Event], k: &str) -> Option<(Fixed, u32)> {
    events.iter().find_map(|e| match &e.what {
        What::Revenue {
            kingdom,
            amount,
            provinces,
        } if kingdom.as_str() == k => Some((*amount, *provinces)),
        _ => None,
    })
}
