//! The Headquarters money panel (digest 1.3, 5.4, 7.12): exact figures (G42), shown
//! truncated (G41, T1), priced by the same checks as the Final Events.

#![allow(dead_code)]

use napoleonic_rules::event::{Event, What, When};
use napoleonic_rules::hq::{MoneyPanel, ShownPanel, money_panel};
use napoleonic_rules::orders::{HqOrder, KingdomOrders, Structure, TroopCount, UnitOrders};
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::state::{GameState, Leader, Status, Troop, Unit};
use napoleonic_rules::turn::{Turn, finals};
use napoleonic_rules::{Fixed, KingdomCode, LocId, Map, TroopCode, UnitId, play};
use std::collections::BTreeMap;

/// A small map: France (PAR, NOR, BUR, BRI, PIC) with an army of 4 LIN in BUR; Bavaria
/// (BAD, WUR); Savoy (LYO); England (COR) across the Channel; independent Alsace between
/// France and Bavaria. Every province starts annexed to its owner.
const MAP: &str = r#"
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

const PAR: LocId = LocId(1);
const NOR: LocId = LocId(2);
const BUR: LocId = LocId(3);
const ALS: LocId = LocId(4);
const BAD: LocId = LocId(5);
const WUR: LocId = LocId(6);
const BRI: LocId = LocId(7);
const PIC: LocId = LocId(8);
const LYO: LocId = LocId(9);
const COR: LocId = LocId(10);
const CHA: LocId = LocId(201);

type Orders = BTreeMap<KingdomCode, KingdomOrders>;

fn kc(s: &str) -> KingdomCode {
    KingdomCode::new(s).unwrap()
}

fn gold(n: i64) -> Fixed {
    Fixed::whole(n)
}

fn setup() -> (Map, GameState) {
    setup_seed(7)
}

fn setup_seed(seed: u64) -> (Map, GameState) {
    let map = Map::parse(MAP).unwrap();
    let state = new_game(&map, &NewGame::standard(seed)).unwrap();
    (map, state)
}

fn orders(list: Vec<(&str, KingdomOrders)>) -> Orders {
    list.into_iter().map(|(k, o)| (kc(k), o)).collect()
}

fn hq(list: Vec<HqOrder>) -> KingdomOrders {
    KingdomOrders {
        hq: list,
        ..Default::default()
    }
}

fn units(list: Vec<UnitOrders>) -> KingdomOrders {
    KingdomOrders {
        units: list,
        ..Default::default()
    }
}

fn order(id: UnitId, f: impl FnOnce(&mut UnitOrders)) -> UnitOrders {
    let mut u = UnitOrders::new(id);
    f(&mut u);
    u
}

fn tc(code: &str, count: u32) -> TroopCount {
    TroopCount {
        code: TroopCode(code.to_string()),
        count,
    }
}

fn troop(state: &GameState, code: &str, rank: u8) -> Troop {
    let code = TroopCode(code.to_string());
    let mp = state.tables.troop(&code).unwrap().mp;
    Troop {
        code,
        rank,
        mp,
        damage: Fixed::ZERO,
    }
}

fn leader(name: &str, upkeep: Fixed) -> Leader {
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

fn a(n: u16) -> UnitId {
    UnitId::army(n)
}

fn g(at: LocId) -> UnitId {
    UnitId::garrison(at)
}

fn unit<'s>(state: &'s GameState, k: &str, id: UnitId) -> &'s Unit {
    state.unit(&kc(k), id).unwrap()
}

fn unit_mut<'s>(state: &'s mut GameState, k: &str, id: UnitId) -> &'s mut Unit {
    state.unit_mut(&kc(k), id).unwrap()
}

/// Adds `n` troops of a type, rank 1, to a unit.
fn add(state: &mut GameState, k: &str, id: UnitId, code: &str, n: usize) {
    let t = troop(state, code, 1);
    unit_mut(state, k, id)
        .troops
        .extend(std::iter::repeat_n(t, n));
}

/// A new empty unit of a kingdom.
fn new_unit(state: &mut GameState, k: &str, id: UnitId, at: LocId) {
    assert!(state.insert_unit(Unit::new(kc(k), id, format!("{k} {id}"), at)));
}

fn treasury(state: &GameState, k: &str) -> Fixed {
    state.kingdoms[&kc(k)].treasury
}

fn set_treasury(state: &mut GameState, k: &str, t: Fixed) {
    state.kingdoms.get_mut(&kc(k)).unwrap().treasury = t;
}

/// France without its army: no upkeep at all.
fn disarm_france(state: &mut GameState) {
    let fra = kc("FRA");
    state.units.retain(|u| !(u.owner == fra && u.id == a(1)));
}

/// Hands a province to a kingdom as if it had held it since the turn began: owner, owner
/// at the start, and the garrison (an empty one for the new owner where there was one).
fn hand_over(state: &mut GameState, at: LocId, to: &str) {
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
fn run(map: &Map, state: &GameState, orders: &Orders) -> (GameState, Vec<Event>) {
    let out = play(map, state, orders).unwrap();
    (out.state, out.events)
}

/// The Final Events alone, on a state whose per-turn marks (battle, pillage, change of
/// owner, owner at the start) were set by hand.
fn finals_only(map: &Map, state: &GameState, orders: &Orders) -> (GameState, Vec<Event>) {
    let mut t = Turn::new(map, state, orders).unwrap();
    finals::run(&mut t);
    (t.state, t.events)
}

/// Every failed order of a kingdom as "order: reason".
fn failures(events: &[Event], k: &str) -> Vec<String> {
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

fn finals_of(events: &[Event], step: u8) -> Vec<&What> {
    events
        .iter()
        .filter(|e| e.when == When::Final(step))
        .map(|e| &e.what)
        .collect()
}

fn revenue_of(events: &[Event], k: &str) -> Option<(Fixed, u32)> {
    events.iter().find_map(|e| match &e.what {
        What::Revenue {
            kingdom,
            amount,
            provinces,
        } if kingdom.as_str() == k => Some((*amount, *provinces)),
        _ => None,
    })
}

fn panel(map: &Map, s: &GameState, k: &str, o: &KingdomOrders) -> MoneyPanel {
    money_panel(map, s, &kc(k), o)
}

#[test]
fn t1_four_troops_of_upkeep_one_point_one_show_as_four() {
    let (map, mut s) = setup();
    unit_mut(&mut s, "FRA", a(1)).troops.clear();
    add(&mut s, "FRA", a(1), "GRE", 4);
    let p = panel(&map, &s, "FRA", &KingdomOrders::default());
    assert_eq!(p.upkeep, Fixed(440));
    assert_eq!(p.shown().upkeep, 4);
}

#[test]
fn the_panel_adds_up_every_expense_of_the_orders() {
    let (map, mut s) = setup();
    s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
    hand_over(&mut s, ALS, "FRA");
    add(&mut s, "FRA", g(PAR), "LIN", 3);
    let o = KingdomOrders {
        hq: vec![
            HqOrder::Annex { province: ALS },
            HqOrder::SendGold {
                to: kc("SAV"),
                amount: gold(50),
            },
        ],
        units: vec![
            order(g(PAR), |u| {
                u.recruit = vec![tc("LIN", 2)];
                u.hire_leader = true;
                u.build = Some(Structure::Fortification);
            }),
            order(g(BRI), |u| u.build = Some(Structure::Harbour)),
        ],
        proclamation: None,
    };
    let p = panel(&map, &s, "FRA", &o);
    assert_eq!(
        p,
        MoneyPanel {
            kingdom: kc("FRA"),
            treasury: gold(100),
            // A1's 4 LIN and the garrison's 3, at 0.8.
            upkeep: Fixed(560),
            hq_expenses: gold(70),
            annexations: gold(15),
            gold_sent: gold(50),
            send_fees: gold(5),
            garrison_expenses: gold(66),
            recruits: gold(12),
            leaders: gold(20),
            // Raising PAR's hillfort (14, G3) and BRI's harbour (20).
            construction: gold(34),
            surplus: -Fixed(4160),
            expected_revenue: gold(81),
        }
    );
    assert!(p.shortfall());
    assert_eq!(
        p.shown(),
        ShownPanel {
            treasury: 100,
            upkeep: 5,
            hq_expenses: 70,
            garrison_expenses: 66,
            surplus: -41,
            expected_revenue: 81,
        }
    );
}

#[test]
fn t60_troops_disbanded_or_salvaged_pay_no_upkeep_on_the_panel() {
    let (map, s) = setup();
    let o = units(vec![order(a(1), |u| {
        u.disband = vec![tc("LIN", 1)];
        u.salvage = vec![tc("LIN", 5), tc("GRE", 2)];
    })]);
    assert_eq!(panel(&map, &s, "FRA", &o).upkeep, Fixed::ZERO);
    let o = units(vec![order(a(1), |u| u.disband = vec![tc("LIN", 1)])]);
    assert_eq!(panel(&map, &s, "FRA", &o).upkeep, Fixed(240));
}

#[test]
fn orders_that_cannot_succeed_cost_nothing_on_the_panel() {
    let (map, mut s) = setup();
    for at in [ALS, LYO, COR, WUR] {
        hand_over(&mut s, at, "FRA");
    }
    let o = KingdomOrders {
        hq: vec![
            // A Commoner has room for four annexations: the fifth would fail.
            HqOrder::Annex { province: ALS },
            HqOrder::Annex { province: LYO },
            HqOrder::Annex { province: COR },
            HqOrder::Annex { province: WUR },
            HqOrder::Annex { province: PAR },
            HqOrder::Annex { province: BAD },
            HqOrder::Annex { province: ALS },
            HqOrder::SendGold {
                to: kc("FRA"),
                amount: gold(9),
            },
        ],
        units: vec![
            order(g(PAR), |u| {
                u.recruit = vec![tc("CUI", 2), tc("LIN", 5)];
                u.hire_leader = true;
                u.build = Some(Structure::Fortification);
            }),
            order(g(PIC), |u| u.build = Some(Structure::Harbour)),
        ],
        proclamation: None,
    };
    let p = panel(&map, &s, "FRA", &o);
    assert_eq!(p.annexations, gold(15 + 18 + 9 + 8));
    assert_eq!(p.gold_sent, Fixed::ZERO);
    // Three LIN at most in Paris; no CUI; no leader for a Commoner; no workers in Paris;
    // no harbour on a reef coast.
    assert_eq!(p.recruits, gold(18));
    assert_eq!(p.leaders, Fixed::ZERO);
    assert_eq!(p.construction, Fixed::ZERO);
}

#[test]
fn the_expected_revenue_counts_owned_annexed_provinces_at_their_damage() {
    let (map, mut s) = setup();
    s.provinces.get_mut(&PAR).unwrap().damage = 2;
    s.provinces.get_mut(&BUR).unwrap().annexed_to = KingdomCode::independents();
    let p = panel(&map, &s, "FRA", &KingdomOrders::default());
    assert_eq!(p.expected_revenue, gold(26 + 20 + 6 + 5));
    let ind = panel(&map, &s, "IND", &KingdomOrders::default());
    assert_eq!(ind.upkeep, Fixed::ZERO);
    // Burgundy is annexed to the independents but not theirs: no one earns from it.
    assert_eq!(ind.expected_revenue, gold(15));
}

#[test]
fn g42_the_panel_foretells_the_treasury_exactly_when_every_order_succeeds() {
    let (map, mut s) = setup();
    hand_over(&mut s, ALS, "FRA");
    add(&mut s, "FRA", g(PAR), "LIN", 3);
    set_treasury(&mut s, "FRA", Fixed(12345));
    let o = KingdomOrders {
        hq: vec![
            HqOrder::Annex { province: ALS },
            HqOrder::SendGold {
                to: kc("SAV"),
                amount: Fixed(1010),
            },
        ],
        units: vec![order(g(PAR), |u| {
            u.recruit = vec![tc("LIN", 2), tc("GRE", 1)];
            u.build = Some(Structure::Fortification);
        })],
        proclamation: None,
    };
    let p = panel(&map, &s, "FRA", &o);
    assert!(!p.shortfall());
    let (after, events) = run(&map, &s, &orders(vec![("FRA", o)]));
    assert!(
        failures(&events, "FRA").is_empty(),
        "{:?}",
        failures(&events, "FRA")
    );
    // What is left is decayed (L9), then the revenue comes in (L11).
    let decay = Fixed(p.surplus.0 * 7 / 100);
    assert_eq!(
        treasury(&after, "FRA"),
        p.surplus - decay + p.expected_revenue
    );
}

#[test]
fn the_panel_is_serialisable() {
    let (map, s) = setup();
    let p = panel(&map, &s, "FRA", &KingdomOrders::default());
    let text = serde_json::to_string(&p).unwrap();
    assert!(text.contains("\"expected_revenue\":8100"));
    let back: MoneyPanel = serde_json::from_str(&text).unwrap();
    assert_eq!(back, p);
}
