//! Property tests: random positions on the test map and random turnsheets, including
//! nonsense, checked against invariants that every adjudicated turn must keep.
//!
//! - adjudication never panics and always gives a state that fits the map;
//! - sea areas hold no owner, population, armies, forts or bases (4.1, decision 14); a fleet
//!   has at least one ship and no more armies than ships (7.3, 8.1, decision 15); land
//!   areas hold no fleets;
//! - every owner, fleet owner and watcher is a surviving empire of the game (11.1);
//! - each surviving empire's balance is its income less its supply cost (3.2, 3.3);
//! - the turn number goes up by one and the order of play holds every empire once (6.1);
//! - the same input gives the same output, state and events (decision 4);
//! - an empire that gave no orders never gains armies except by leftover BPs (3.7), never
//!   gains ships or air strength, and its treasury does not move (3.4-3.6);
//! - an action that fails changes nothing (decision 9).
use crate::common;
use common::*;
use empires_rules::engine::supply_cost;
use empires_rules::event::What;
use empires_rules::knowledge::{visible_areas, visible_areas_of_all};
use empires_rules::order::{Order, OrderLine, Quantity, Turnsheet, Verb};
use empires_rules::state::{
    DefenceMode, Fleet, GameState, NavalBase, Spy, VictoryClaim, VictoryCondition,
};
use empires_rules::variant::SeaSupply;
use empires_rules::{AreaCode, EmpireCode, Map, TurnError, TurnOutcome, Variant, adjudicate};
use proptest::prelude::*;
use std::collections::BTreeMap;

const AREAS: [&str; 13] = [
    "AAA", "BBB", "CCC", "DDD", "EEE", "FFF", "GGG", "HHH", "III", "JJJ", "NSE", "ESE", "SSE",
];
const EMPIRES: [&str; 3] = ["AA", "BB", "CC"];

fn code(i: usize) -> AreaCode {
    AreaCode::parse(AREAS[i]).unwrap()
}

fn empire(i: usize) -> EmpireCode {
    e(EMPIRES[i])
}

// ----- generators -----

/// What goes in a box of an action: mostly real codes, sometimes nonsense.
fn field() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        3 => Just(None),
        6 => prop::sample::select(AREAS.to_vec()).prop_map(|s| Some(s.to_string())),
        3 => prop::sample::select(EMPIRES.to_vec()).prop_map(|s| Some(s.to_string())),
        1 => prop::sample::select(vec!["", "ZZ", "zz9", "ABCD", "12", "aaa", "bb", "-", "X", "ééé"])
            .prop_map(|s| Some(s.to_string())),
    ]
}

fn quantity() -> impl Strategy<Value = Quantity> {
    prop_oneof![
        2 => Just(Quantity::All),
        1 => (0u32..5).prop_map(Quantity::AllBut),
        5 => (0u32..15).prop_map(Quantity::Exactly),
        1 => any::<u32>().prop_map(Quantity::Exactly),
        1 => any::<u32>().prop_map(Quantity::AllBut),
    ]
}

type Line = (Verb, Option<String>, Option<String>, Quantity, bool);

/// Any verb with any boxes: mostly nonsense that must fail cleanly.
fn random_line() -> impl Strategy<Value = Line> {
    (
        prop::sample::select(Verb::ALL.to_vec()),
        field(),
        field(),
        quantity(),
        prop::bool::weighted(0.05),
    )
}

/// A verb that takes two areas, with two areas next to each other: moves, attacks, sea
/// moves and convoys, defence modes, spy moves and bases that often succeed.
fn plausible_line() -> impl Strategy<Value = Line> {
    let m = map();
    let pairs: Vec<(String, String)> = m
        .ids()
        .flat_map(|a| {
            m.neighbours(a)
                .iter()
                .map(|&b| (m.code(a).to_string(), m.code(b).to_string()))
                .collect::<Vec<_>>()
        })
        .collect();
    let verbs = vec![
        Verb::Attack,
        Verb::Attack,
        Verb::Attack,
        Verb::Move,
        Verb::Move,
        Verb::Seamove,
        Verb::Convoy,
        Verb::Convoy,
        Verb::Ambush,
        Verb::Entrench,
        Verb::Retreat,
        Verb::Spy,
        Verb::Skip,
        Verb::Base,
        Verb::Reserve,
        Verb::Levy,
        Verb::Fleet,
    ];
    (
        prop::sample::select(verbs),
        prop::sample::select(pairs),
        quantity(),
    )
        .prop_map(|(verb, (from, to), number)| (verb, Some(from), Some(to), number, false))
}

fn order_line() -> impl Strategy<Value = Line> {
    prop_oneof![1 => random_line(), 1 => plausible_line()]
}

fn turnsheet() -> impl Strategy<Value = Option<Turnsheet>> {
    prop::option::weighted(
        0.7,
        (prop::collection::vec(order_line(), 0..20), any::<bool>()).prop_map(
            |(lines, computer)| Turnsheet {
                actions: lines
                    .into_iter()
                    .enumerate()
                    .map(|(i, (verb, from, to, number, garbled))| {
                        let order = Order {
                            verb,
                            from,
                            to,
                            number,
                        };
                        OrderLine {
                            line: i as u32 + 1,
                            text: order.to_string(),
                            order: if garbled {
                                Err("could not read this line".into())
                            } else {
                                Ok(order)
                            },
                            blank: false,
                        }
                    })
                    .collect(),
                computer,
                ..Turnsheet::default()
            },
        ),
    )
}

fn orders() -> impl Strategy<Value = BTreeMap<EmpireCode, Turnsheet>> {
    prop::collection::vec(turnsheet(), 3).prop_map(|sheets| {
        sheets
            .into_iter()
            .enumerate()
            .filter_map(|(i, s)| s.map(|s| (empire(i), s)))
            .collect()
    })
}

#[derive(Debug, Clone)]
struct LandGen {
    owner: Option<usize>,
    population: u32,
    armies: u32,
    forts: u32,
    base: Option<(u32, u32)>,
    defence: u8,
    against: Option<usize>,
    retreat_to: Option<usize>,
    watcher: Option<usize>,
}

fn land() -> impl Strategy<Value = LandGen> {
    (
        prop::option::weighted(0.8, 0usize..3),
        0u32..7,
        0u32..10,
        0u32..4,
        prop::option::of((0u32..5, 0u32..4)),
        0u8..4,
        prop::option::of(0usize..13),
        prop::option::of(0usize..13),
        prop::option::weighted(0.1, 0usize..3),
    )
        .prop_map(
            |(owner, population, armies, forts, base, defence, against, retreat_to, watcher)| {
                LandGen {
                    owner,
                    population,
                    armies,
                    forts,
                    base,
                    defence,
                    against,
                    retreat_to,
                    watcher,
                }
            },
        )
}

#[derive(Debug, Clone)]
struct EmpireGen {
    bps: u32,
    treasury: u32,
    vps: i32,
    army_reserve: u32,
    navy_reserve: u32,
    air_force: u32,
    spy: Option<(usize, Option<usize>)>,
}

fn empire_gen() -> impl Strategy<Value = EmpireGen> {
    (
        0u32..40,
        0u32..20,
        -5i32..20,
        0u32..10,
        0u32..6,
        0u32..8,
        prop::option::of((0usize..10, prop::option::weighted(0.3, 0usize..3))),
    )
        .prop_map(
            |(bps, treasury, vps, army_reserve, navy_reserve, air_force, spy)| EmpireGen {
                bps,
                treasury,
                vps,
                army_reserve,
                navy_reserve,
                air_force,
                spy,
            },
        )
}

/// A fleet: owner, ships, armies (cut to the ships) and base, if any.
type FleetGen = (usize, u32, u32, Option<usize>);

#[derive(Debug, Clone)]
struct World {
    seed: u64,
    lands: Vec<LandGen>,
    fleets: Vec<Option<FleetGen>>,
    empires: Vec<EmpireGen>,
    order: Vec<usize>,
    world: bool,
    distance_only: bool,
    turn: u32,
    census_in: u32,
    warning: Option<(usize, u8)>,
}

fn world() -> impl Strategy<Value = World> {
    (
        any::<u64>(),
        prop::collection::vec(land(), 10),
        prop::collection::vec(
            prop::option::weighted(
                0.5,
                (
                    0usize..3,
                    1u32..6,
                    0u32..6,
                    prop::option::weighted(0.9, 0usize..13),
                ),
            ),
            3,
        ),
        prop::collection::vec(empire_gen(), 3),
        Just(vec![0usize, 1, 2]).prop_shuffle(),
        any::<bool>(),
        any::<bool>(),
        0u32..6,
        0u32..4,
        prop::option::weighted(0.2, (0usize..3, 0u8..3)),
    )
        .prop_map(
            |(
                seed,
                lands,
                fleets,
                empires,
                order,
                world,
                distance_only,
                turn,
                census_in,
                warning,
            )| World {
                seed,
                lands,
                fleets,
                empires,
                order,
                world,
                distance_only,
                turn,
                census_in,
                warning,
            },
        )
}

fn build(w: &World) -> (Map, GameState) {
    let (m, mut st) = scenario(&format!(
        "seed = {}\ncompute_balances = false\n{}",
        w.seed,
        EMPIRES
            .iter()
            .map(|c| format!("[[empire]]\ncode = \"{c}\"\n"))
            .collect::<String>()
    ));
    st.variant = if w.world {
        Variant::World
    } else {
        Variant::Medieval
    };
    st.options.sea_supply = if w.distance_only {
        SeaSupply::DistanceOnly
    } else {
        SeaSupply::DistancePlusHalf
    };
    st.turn = w.turn;
    st.next_census = w.turn + w.census_in;
    st.order_of_play = w.order.iter().map(|&i| empire(i)).collect();
    st.victory_warning = w.warning.map(|(i, c)| VictoryClaim {
        turn: w.turn,
        empire: empire(i),
        condition: [
            VictoryCondition::Runaway,
            VictoryCondition::Knockout,
            VictoryCondition::Points,
        ][c as usize],
        vps: 1,
    });
    for (i, l) in w.lands.iter().enumerate() {
        let id = m.find(AREAS[i]).unwrap();
        let entrance = m
            .neighbours(id)
            .iter()
            .copied()
            .find(|&n| m.area(n).is_sea());
        let a = st.area_mut(id);
        a.owner = l.owner.map(empire);
        a.population = l.population;
        a.armies = l.armies;
        a.forts = l.forts;
        a.base = match (l.base, entrance) {
            (Some((ships, laid_up)), Some(s)) => Some(NavalBase {
                entrance: m.code(s),
                ships,
                laid_up,
                built: 0,
            }),
            _ => None,
        };
        a.defence = [
            DefenceMode::Defend,
            DefenceMode::Entrench,
            DefenceMode::Ambush,
            DefenceMode::Retreat,
        ][l.defence as usize];
        a.defence_against = l.against.map(code);
        a.retreat_to = l.retreat_to.map(code);
        a.watcher = l.watcher.map(empire);
    }
    for (i, f) in w.fleets.iter().enumerate() {
        let id = m.find(AREAS[10 + i]).unwrap();
        st.area_mut(id).fleet = f.map(|(owner, ships, armies, base)| Fleet {
            owner: empire(owner),
            ships,
            armies: armies.min(ships),
            base: base.map(code),
        });
    }
    for (i, g) in w.empires.iter().enumerate() {
        let x = &mut st.empires[i];
        x.bps = g.bps;
        x.treasury = g.treasury;
        x.vps = g.vps;
        x.army_reserve = g.army_reserve;
        x.navy_reserve = g.navy_reserve;
        x.air_force = if w.world { g.air_force } else { 0 };
        x.spy = g.spy.map(|(a, wait)| Spy {
            area: code(a),
            waiting_for: wait.map(empire).filter(|&c| c != x.code),
        });
    }
    st.validate(&m).expect("generated state fits the map");
    (m, st)
}

// ----- invariants -----

/// Armies of an empire on land, at sea and in reserve.
fn armies_of(st: &GameState, c: EmpireCode) -> u64 {
    let land: u64 = st
        .areas
        .iter()
        .filter(|a| a.owner == Some(c))
        .map(|a| a.armies as u64)
        .sum();
    let sea: u64 = st
        .areas
        .iter()
        .filter_map(|a| a.fleet.as_ref())
        .filter(|f| f.owner == c)
        .map(|f| f.armies as u64)
        .sum();
    land + sea + st.empire(c).unwrap().army_reserve as u64
}

/// Ships of an empire in its bases, at sea and in reserve.
fn ships_of(st: &GameState, c: EmpireCode) -> u64 {
    let bases: u64 = st
        .areas
        .iter()
        .filter(|a| a.owner == Some(c))
        .filter_map(|a| a.base.as_ref())
        .map(|b| (b.ships + b.laid_up) as u64)
        .sum();
    let sea: u64 = st
        .areas
        .iter()
        .filter_map(|a| a.fleet.as_ref())
        .filter(|f| f.owner == c)
        .map(|f| f.ships as u64)
        .sum();
    bases + sea + st.empire(c).unwrap().navy_reserve as u64
}

fn leftover_armies(t: &TurnOutcome, c: EmpireCode) -> u64 {
    t.events
        .iter()
        .filter_map(|ev| match &ev.what {
            What::Leftover { empire, armies, .. } if *empire == c => Some(*armies as u64),
            _ => None,
        })
        .sum()
}

fn check_state(m: &Map, before: &GameState, t: &TurnOutcome) -> Result<(), TestCaseError> {
    let st = &t.state;
    prop_assert_eq!(st.turn, before.turn + 1);
    prop_assert!(st.validate(m).is_ok(), "{:?}", st.validate(m));
    let alive = |c: &EmpireCode| st.empire(*c).is_some_and(|x| x.alive());
    for (def, a) in m.areas().iter().zip(&st.areas) {
        if def.is_sea() {
            prop_assert!(a.owner.is_none(), "{} owned", def.code);
            prop_assert_eq!(a.population, 0);
            prop_assert_eq!(a.armies, 0);
            prop_assert_eq!(a.forts, 0);
            prop_assert!(a.base.is_none());
            if let Some(f) = &a.fleet {
                prop_assert!(f.ships >= 1, "{}: empty fleet {:?}", def.code, f);
                prop_assert!(
                    f.armies <= f.ships,
                    "{}: {} armies on {} ships",
                    def.code,
                    f.armies,
                    f.ships
                );
                prop_assert!(alive(&f.owner), "{}: fleet of {}", def.code, f.owner);
            }
        } else {
            prop_assert!(a.fleet.is_none(), "{}: fleet on land", def.code);
            if let Some(o) = &a.owner {
                prop_assert!(alive(o), "{} owned by {}", def.code, o);
            }
        }
        if let Some(w) = &a.watcher {
            prop_assert!(alive(w), "{}: watcher of {}", def.code, w);
        }
    }
    for x in &st.empires {
        if let Some(s) = &x.spy {
            prop_assert!(x.alive());
            prop_assert!(m.area(m.id(s.area).unwrap()).is_land(), "spy at sea");
        }
        if !x.alive() {
            continue;
        }
        let income: u32 = st
            .areas
            .iter()
            .filter(|a| a.owner == Some(x.code))
            .map(|a| a.population)
            .sum();
        let supply = supply_cost(m, st, x.code);
        prop_assert_eq!(x.income, income, "income of {}", x.code);
        prop_assert_eq!(x.supply_cost, supply, "supply of {}", x.code);
        prop_assert_eq!(x.bps, income.saturating_sub(supply), "BPs of {}", x.code);
    }
    let mut order = st.order_of_play.clone();
    order.sort();
    let mut all: Vec<EmpireCode> = st.empires.iter().map(|x| x.code).collect();
    all.sort();
    prop_assert_eq!(order, all);
    Ok(())
}

fn check_idle(
    before: &GameState,
    orders: &BTreeMap<EmpireCode, Turnsheet>,
    t: &TurnOutcome,
) -> Result<(), TestCaseError> {
    for x in &before.empires {
        let c = x.code;
        if orders.get(&c).is_some_and(|s| !s.actions.is_empty()) {
            continue;
        }
        let after = t.state.empire(c).unwrap();
        let gained = leftover_armies(t, c);
        prop_assert!(
            armies_of(&t.state, c) <= armies_of(before, c) + gained,
            "{} gave no orders but went from {} armies to {} (leftovers {})",
            c,
            armies_of(before, c),
            armies_of(&t.state, c),
            gained
        );
        prop_assert!(
            ships_of(&t.state, c) <= ships_of(before, c),
            "{} gave no orders but went from {} ships to {}",
            c,
            ships_of(before, c),
            ships_of(&t.state, c)
        );
        prop_assert!(after.air_force <= x.air_force);
        prop_assert_eq!(after.treasury, x.treasury, "treasury of idle {}", c);
    }
    Ok(())
}

fn json(t: &TurnOutcome) -> (String, String) {
    (
        serde_json::to_string(&t.state).unwrap(),
        serde_json::to_string(&t.events).unwrap(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Never panics; every invariant holds after the turn.
    #[test]
    fn adjudication_keeps_the_invariants(w in world(), o in orders()) {
        let (m, st) = build(&w);
        let t = adjudicate(&m, &st, &o).expect("a valid state always adjudicates");
        check_state(&m, &st, &t)?;
    }

    /// Decision 4: the same input gives the same state and events, bit for bit.
    #[test]
    fn adjudication_is_deterministic(w in world(), o in orders()) {
        let (m, st) = build(&w);
        let a = adjudicate(&m, &st, &o).unwrap();
        let b = adjudicate(&m, &st, &o).unwrap();
        prop_assert_eq!(json(&a), json(&b));
        // Saving and reloading the state changes nothing either.
        let text = serde_json::to_string(&st).unwrap();
        let reloaded: GameState = serde_json::from_str(&text).unwrap();
        let c = adjudicate(&m, &reloaded, &o).unwrap();
        prop_assert_eq!(json(&a), json(&c));
    }

    /// 10.2: what every empire sees, worked out for all at once, is what each sees alone.
    #[test]
    fn everyones_sight_is_each_empires_sight(w in world(), o in orders()) {
        let (m, st) = build(&w);
        let t = adjudicate(&m, &st, &o).unwrap();
        for position in [&st, &t.state] {
            let all = visible_areas_of_all(&m, position);
            prop_assert_eq!(all.len(), position.empires.len());
            for (seen, e) in all.iter().zip(&position.empires) {
                prop_assert_eq!(seen, &visible_areas(&m, position, e.code), "{}", e.code);
            }
        }
    }

    /// Decision 9: an action that fails (or is ignored) changes nothing: the turn ends as
    /// if the empire had sent an empty turnsheet.
    #[test]
    fn a_failed_action_changes_nothing(w in world(), who in 0usize..3, line in order_line()) {
        let (m, st) = build(&w);
        let (verb, from, to, number, garbled) = line;
        let order = Order { verb, from, to, number };
        let sheet = Turnsheet {
            actions: vec![OrderLine {
                line: 1,
                text: order.to_string(),
                order: if garbled { Err("unreadable".into()) } else { Ok(order) },
                blank: false,
            }],
            ..Turnsheet::default()
        };
        let mut one = BTreeMap::new();
        one.insert(empire(who), sheet);
        let t = adjudicate(&m, &st, &one).unwrap();
        let failed = t.events.iter().any(|ev| matches!(&ev.what,
            What::Action { outcome, .. } if !outcome.succeeded()));
        if failed {
            let mut none = BTreeMap::new();
            none.insert(empire(who), Turnsheet::default());
            let u = adjudicate(&m, &st, &none).unwrap();
            prop_assert_eq!(
                serde_json::to_string(&t.state).unwrap(),
                serde_json::to_string(&u.state).unwrap()
            );
        }
    }

    /// An empire that gave no orders gains armies only from its own leftover BPs.
    #[test]
    fn idle_empires_gain_nothing_but_leftovers(w in world(), o in orders()) {
        let (m, st) = build(&w);
        let t = adjudicate(&m, &st, &o).unwrap();
        check_idle(&st, &o, &t)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Several turns in a row, each with new random orders.
    #[test]
    fn several_turns_keep_the_invariants(
        w in world(),
        turns in prop::collection::vec(orders(), 4),
    ) {
        let (m, mut st) = build(&w);
        for o in &turns {
            match adjudicate(&m, &st, o) {
                Ok(t) => {
                    check_state(&m, &st, &t)?;
                    check_idle(&st, o, &t)?;
                    st = t.state;
                }
                Err(TurnError::GameOver(who, turn)) => {
                    // 11.6: only a finished game refuses a turn.
                    let r = st.result.clone().expect("refused a game that is not over");
                    prop_assert_eq!((r.empire, r.turn), (who, turn));
                    break;
                }
                Err(other) => prop_assert!(false, "{}", other),
            }
        }
    }
}
