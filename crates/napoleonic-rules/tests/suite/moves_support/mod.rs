//! Shared helpers for the First Events and movement tests: a small map written inline, units
//! placed by hand, orders built in a few words, and a turn played up to the end of movement
//! (the Final Events are left out so that these tests see movement alone).
#![allow(dead_code)]

use napoleonic_rules::battle::BattleReport;
use napoleonic_rules::event::{Event, MoveStep, What, When};
use napoleonic_rules::ids::{KingdomCode, LocId, TroopCode, UnitId};
use napoleonic_rules::map::Map;
use napoleonic_rules::orders::{
    HqOrder, KingdomOrders, PhasePlan, Step, Transfer, TroopCount, UnitOrders,
};
use napoleonic_rules::setup::{NewGame, new_game};
use napoleonic_rules::state::{GameState, Leader, Relation, Troop, Unit};
use napoleonic_rules::turn::{Turn, first, movement};
use napoleonic_rules::{Fixed, Gold};
use std::collections::BTreeMap;

/// ```text
///            50 CHA (sea) ------------------- 51 NSE (sea)
///          /    |       \        \              |    \\ (reef)   \
///   1 PAR --- 2 NOR      4 FLA    8 HOL --------+     8 HOL      10 DEN
///     \       /         /  |        |
///      3 PIC ----------'   |        4 FLA
///        \                 |
///         5 BRA -----------'
///        /    \
///   6 ALS      9 LAK (landlocked city)
///     ||         |
///   7 BAD -------'          (|| : mountains between ALS and BAD)
/// ```
/// FRA owns PAR, NOR, PIC; AUS owns FLA (fort 2, city, harbour) and BRA; PRU owns ALS and
/// BAD (city); GBR owns DEN. HOL (city, harbour) and LAK (city) are independent.
pub const MAP: &str = r#"
name = "Testland"

[[province]]
id = 1
code = "PAR"
name = "Paris"
position = [2.3, 48.8]
revenue = 10
adjacent = ["NOR", "PIC", "CHA"]
harbour = true
city = { name = "Paris", builds = ["LIN", "WAR", "TRN"], max_builds = 10 }

[[province]]
id = 2
code = "NOR"
name = "Normandy"
position = [0.0, 49.0]
revenue = 6
adjacent = ["PAR", "PIC", "CHA"]

[[province]]
id = 3
code = "PIC"
name = "Picardy"
position = [2.0, 50.0]
revenue = 4
adjacent = ["PAR", "NOR", "FLA", "BRA"]

[[province]]
id = 4
code = "FLA"
name = "Flanders"
position = [3.0, 51.0]
revenue = 8
adjacent = ["PIC", "BRA", "HOL", "CHA"]
harbour = true
fort = 2
city = { name = "Ghent", builds = ["LIN"], max_builds = 5 }

[[province]]
id = 5
code = "BRA"
name = "Brabant"
position = [4.5, 50.8]
revenue = 5
adjacent = ["PIC", "FLA", "ALS", "LAK"]

[[province]]
id = 6
code = "ALS"
name = "Alsace"
position = [7.5, 48.5]
revenue = 5
adjacent = ["BRA"]
barriers = ["BAD"]

[[province]]
id = 7
code = "BAD"
name = "Baden"
position = [8.5, 48.5]
revenue = 5
adjacent = ["LAK"]
barriers = ["ALS"]
city = { name = "Karlsruhe", builds = ["LIN"], max_builds = 5 }

[[province]]
id = 8
code = "HOL"
name = "Holland"
position = [5.0, 52.3]
revenue = 7
adjacent = ["FLA", "CHA"]
barriers = ["NSE"]
harbour = true
city = { name = "Amsterdam", builds = ["LIN"], max_builds = 5 }

[[province]]
id = 9
code = "LAK"
name = "Lakeland"
position = [6.0, 50.0]
revenue = 6
adjacent = ["BRA", "BAD"]
city = { name = "Lakeside", builds = ["TRN"], max_builds = 5 }

[[province]]
id = 10
code = "DEN"
name = "Denmark"
position = [10.0, 56.0]
revenue = 6
adjacent = ["NSE"]
harbour = true
city = { name = "Copenhagen", builds = ["WAR"], max_builds = 5 }

[[sea]]
id = 50
code = "CHA"
name = "Channel"
position = [1.0, 50.5]
adjacent = ["PAR", "NOR", "FLA", "HOL", "NSE"]

[[sea]]
id = 51
code = "NSE"
name = "North Sea"
position = [4.0, 55.0]
adjacent = ["CHA", "DEN"]
barriers = ["HOL"]

[[kingdom]]
code = "FRA"
name = "France"
capital = "PAR"
provinces = ["PAR", "NOR", "PIC"]
treasury = 100

[[kingdom]]
code = "AUS"
name = "Austria"
capital = "FLA"
provinces = ["FLA", "BRA"]
treasury = 100

[[kingdom]]
code = "PRU"
name = "Prussia"
capital = "BAD"
provinces = ["ALS", "BAD"]
treasury = 100

[[kingdom]]
code = "GBR"
name = "Britain"
capital = "DEN"
provinces = ["DEN"]
treasury = 100
"#;

pub const PAR: u16 = 1;
pub const NOR: u16 = 2;
pub const PIC: u16 = 3;
pub const FLA: u16 = 4;
pub const BRA: u16 = 5;
pub const ALS: u16 = 6;
pub const BAD: u16 = 7;
pub const HOL: u16 = 8;
pub const LAK: u16 = 9;
pub const DEN: u16 = 10;
pub const CHA: u16 = 50;
pub const NSE: u16 = 51;

pub fn k(code: &str) -> KingdomCode {
    KingdomCode::new(code).unwrap()
}

pub fn u(id: &str) -> UnitId {
    id.parse().unwrap()
}

pub fn tc(code: &str) -> TroopCode {
    TroopCode(code.to_string())
}

pub fn counts(list: &[(&str, u32)]) -> Vec<TroopCount> {
    list.iter()
        .map(|(c, n)| TroopCount {
            code: tc(c),
            count: *n,
        })
        .collect()
}

/// The map and a fresh state on it (no units but the garrisons setup makes).
pub fn world() -> (Map, GameState) {
    world_from(MAP)
}

pub fn world_from(text: &str) -> (Map, GameState) {
    let map = Map::parse(text).unwrap_or_else(|e| panic!("{e:?}"));
    let state = new_game(&map, &NewGame::standard(42)).unwrap();
    (map, state)
}

pub fn set_war(state: &mut GameState, a: &str, b: &str) {
    state.set_relation(&k(a), &k(b), Relation::War);
}

pub fn set_ally(state: &mut GameState, a: &str, b: &str) {
    state.set_relation(&k(a), &k(b), Relation::Ally);
}

/// Puts a unit (army, fleet or garrison) with troops at full MP, replacing one with that id.
pub fn place(state: &mut GameState, owner: &str, id: &str, at: u16, troops: &[(&str, u32)]) {
    let owner = k(owner);
    let id = u(id);
    if let Some(i) = state.unit_index(&owner, id) {
        state.units.remove(i);
    }
    let mut unit = Unit::new(owner.clone(), id, format!("{owner} {id}"), LocId(at));
    for (code, n) in troops {
        let mp = state.tables.troop(&tc(code)).unwrap().mp;
        for _ in 0..*n {
            unit.troops.push(Troop {
                code: tc(code),
                rank: 1,
                mp,
                damage: Fixed::ZERO,
            });
        }
    }
    assert!(state.insert_unit(unit));
}

pub fn add_leader(state: &mut GameState, owner: &str, id: &str, name: &str) {
    let unit = state.unit_mut(&k(owner), u(id)).unwrap();
    unit.leaders.push(Leader {
        name: name.to_string(),
        hp: Fixed::whole(2),
        combat: 30,
        attacks: 2,
        infantry: 20,
        cavalry: 20,
        siege: 10,
        naval: 0,
        upkeep: Fixed::whole(2),
        damage: Fixed::ZERO,
    });
    if unit.unit_leader.is_none() {
        unit.unit_leader = Some(0);
    }
}

/// Puts every troop of a unit in one rank and sets its retreat level (F10, 4.2).
pub fn set_ranks(state: &mut GameState, owner: &str, id: &str, rank: u8, retreat_level: u8) {
    let unit = state.unit_mut(&k(owner), u(id)).unwrap();
    for t in &mut unit.troops {
        t.rank = rank;
    }
    unit.retreat_level = retreat_level;
}

/// Puts an army aboard a fleet (both must exist), where the fleet is.
pub fn board(state: &mut GameState, owner: &str, army: &str, fleet_owner: &str, fleet: &str) {
    let at = state.unit(&k(fleet_owner), u(fleet)).unwrap().location;
    let a = state.unit_mut(&k(owner), u(army)).unwrap();
    a.aboard = Some((k(fleet_owner), u(fleet)));
    a.location = at;
}

/// Orders under construction.
#[derive(Default, Clone)]
pub struct Orders(pub BTreeMap<KingdomCode, KingdomOrders>);

impl Orders {
    pub fn new() -> Orders {
        Orders::default()
    }

    pub fn hq(&mut self, kingdom: &str, o: HqOrder) -> &mut Self {
        self.0.entry(k(kingdom)).or_default().hq.push(o);
        self
    }

    pub fn unit(&mut self, kingdom: &str, id: &str) -> &mut UnitOrders {
        let ko = self.0.entry(k(kingdom)).or_default();
        let id = u(id);
        if let Some(i) = ko.units.iter().position(|x| x.unit == id) {
            &mut ko.units[i]
        } else {
            ko.units.push(UnitOrders::new(id));
            ko.units.last_mut().unwrap()
        }
    }

    pub fn phase(&mut self, kingdom: &str, id: &str, p: u8) -> &mut PhasePlan {
        let uo = self.unit(kingdom, id);
        if let Some(i) = uo.plan.iter().position(|x| x.phase == p) {
            &mut uo.plan[i]
        } else {
            uo.plan.push(PhasePlan {
                phase: p,
                ..PhasePlan::default()
            });
            uo.plan.last_mut().unwrap()
        }
    }

    /// Moves in phases 1, 2, 3, ...: a location number, or 0 for Hold Position.
    pub fn route(&mut self, kingdom: &str, id: &str, steps: &[u16]) -> &mut Self {
        for (i, s) in steps.iter().enumerate() {
            let step = if *s == 0 {
                Step::Hold
            } else {
                Step::Move(LocId(*s))
            };
            self.phase(kingdom, id, i as u8 + 1).step = Some(step);
        }
        self
    }
}

/// A transfer to a unit (of `to_kingdom`, or the giver's own).
pub fn xfer(
    to_kingdom: Option<&str>,
    to: &str,
    troops: &[(&str, u32)],
    leaders: &[&str],
) -> Transfer {
    Transfer {
        troops: counts(troops),
        leaders: leaders.iter().map(|s| s.to_string()).collect(),
        to_kingdom: to_kingdom.map(k),
        to: u(to),
    }
}

/// The turn after the First Events and the movement phases.
pub struct Played {
    pub state: GameState,
    pub events: Vec<Event>,
}

pub fn play(map: &Map, state: &GameState, orders: &Orders) -> Played {
    let mut t = Turn::new(map, state, &orders.0).unwrap();
    first::run(&mut t);
    movement::run(&mut t);
    Played {
        state: t.state,
        events: t.events,
    }
}

/// Only the First Events.
pub fn play_first(map: &Map, state: &GameState, orders: &Orders) -> Played {
    let mut t = Turn::new(map, state, &orders.0).unwrap();
    first::run(&mut t);
    Played {
        state: t.state,
        events: t.events,
    }
}

impl Played {
    pub fn unit(&self, owner: &str, id: &str) -> &Unit {
        self.state
            .unit(&k(owner), u(id))
            .unwrap_or_else(|| panic!("no unit {owner} {id}"))
    }

    pub fn has(&self, owner: &str, id: &str) -> bool {
        self.state.unit(&k(owner), u(id)).is_some()
    }

    pub fn at(&self, owner: &str, id: &str) -> u16 {
        self.unit(owner, id).location.0
    }

    pub fn mp(&self, owner: &str, id: &str) -> u8 {
        self.unit(owner, id).mp()
    }

    pub fn owner(&self, at: u16) -> String {
        self.state.provinces[&LocId(at)].owner.to_string()
    }

    pub fn treasury(&self, kingdom: &str) -> Gold {
        self.state.kingdoms[&k(kingdom)].treasury
    }

    /// Reasons of every failed order, as "KINGDOM UNIT: order: reason".
    pub fn failures(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match &e.what {
                What::OrderFailed {
                    kingdom,
                    unit,
                    order,
                    reason,
                } => Some(format!(
                    "{kingdom} {}: {order}: {reason}",
                    unit.map_or_else(|| "HQ".to_string(), |u| u.to_string())
                )),
                _ => None,
            })
            .collect()
    }

    /// Whether some failure mentions all of these words.
    pub fn failed_with(&self, words: &[&str]) -> bool {
        self.failures()
            .iter()
            .any(|f| words.iter().all(|w| f.contains(w)))
    }

    pub fn no_failures(&self) {
        assert!(self.failures().is_empty(), "{:#?}", self.failures());
    }

    pub fn events_at(&self, when: When) -> Vec<&What> {
        self.events
            .iter()
            .filter(|e| e.when == when)
            .map(|e| &e.what)
            .collect()
    }

    /// A unit's moves: (from, to, cost, phase).
    pub fn moved(&self, owner: &str, id: &str) -> Vec<(u16, u16, u8, u8)> {
        self.events
            .iter()
            .filter_map(|e| match (&e.when, &e.what) {
                (
                    When::Phase(p, _),
                    What::Moved {
                        unit,
                        from,
                        to,
                        cost,
                    },
                ) if unit.0 == k(owner) && unit.1 == u(id) => Some((from.0, to.0, *cost, *p)),
                _ => None,
            })
            .collect()
    }

    pub fn battles(&self) -> Vec<(u8, u16, Vec<String>)> {
        self.events
            .iter()
            .filter_map(|e| match (&e.when, &e.what) {
                (When::Phase(p, _), What::BattleJoined { at, kingdoms }) => {
                    Some((*p, at.0, kingdoms.iter().map(|k| k.to_string()).collect()))
                }
                _ => None,
            })
            .collect()
    }

    /// The battles fought (M6, M11, M12), with their phase, in the order fought.
    pub fn fought(&self) -> Vec<(u8, &BattleReport)> {
        self.events
            .iter()
            .filter_map(|e| match (&e.when, &e.what) {
                (When::Phase(p, _), What::Battle(b)) => Some((*p, &**b)),
                _ => None,
            })
            .collect()
    }

    pub fn count(&self, pred: impl Fn(&What) -> bool) -> usize {
        self.events.iter().filter(|e| pred(&e.what)).count()
    }
}

pub fn phase(p: u8, s: MoveStep) -> When {
    When::Phase(p, s)
}
