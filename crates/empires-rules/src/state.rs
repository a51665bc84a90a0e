//! The saved state of a game between turns: who owns what, where every force stands, each
//! empire's balances, and the random generator. Plain serde types, read by reports, computer
//! players and the host.

use crate::codes::{AreaCode, EmpireCode};
use crate::map::{AreaId, Map};
use crate::rng::RngState;
use crate::variant::{Options, Variant};
use serde::{Deserialize, Serialize};

/// Version of the state format written by this engine.
pub const STATE_FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameState {
    pub format: u32,
    pub game: String,
    pub variant: Variant,
    #[serde(default)]
    pub options: Options,
    /// The last turn adjudicated; 0 before the first turn.
    pub turn: u32,
    /// The order of play of the next turn (6.1).
    pub order_of_play: Vec<EmpireCode>,
    /// The next census turn (11.3); never shown to players.
    pub next_census: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub victory_warning: Option<VictoryClaim>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<VictoryClaim>,
    pub empires: Vec<EmpireState>,
    /// One entry per map area, in map order.
    pub areas: Vec<AreaState>,
    pub rng: RngState,
}

/// The three ways to win (11.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VictoryCondition {
    Runaway,
    Knockout,
    Points,
}

/// A victory condition met by an empire on a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VictoryClaim {
    pub turn: u32,
    pub empire: EmpireCode,
    pub condition: VictoryCondition,
    pub vps: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmpireState {
    pub code: EmpireCode,
    pub name: String,
    /// The player's name; `None` for a dummy run by the computer (2.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// BPs available to spend in the coming turn (3.1-3.3).
    #[serde(default)]
    pub bps: u32,
    #[serde(default)]
    pub treasury: u32,
    #[serde(default)]
    pub vps: i32,
    #[serde(default)]
    pub army_reserve: u32,
    #[serde(default)]
    pub navy_reserve: u32,
    #[serde(default)]
    pub air_force: u32,
    /// Income and supply cost of the last end of turn, for the report (3.2, 3.3).
    #[serde(default)]
    pub income: u32,
    #[serde(default)]
    pub supply_cost: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spy: Option<Spy>,
    /// Actions per turn for this empire, overriding the game's option (2.6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions_per_turn: Option<u32>,
    /// European Empires: the capital (S.3) and supply capacity (S.10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capital: Option<AreaCode>,
    #[serde(default)]
    pub supply_capacity: u32,
    /// Turns in a row without orders (2.5).
    #[serde(default)]
    pub missed_turns: u32,
    /// The turn this empire was eliminated (11.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eliminated: Option<u32>,
    /// PHONE and EMAIL lines for the roundup (2.9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

impl EmpireState {
    pub fn new(code: EmpireCode, name: &str) -> EmpireState {
        EmpireState {
            code,
            name: name.to_string(),
            player: None,
            bps: 0,
            treasury: 0,
            vps: 0,
            army_reserve: 0,
            navy_reserve: 0,
            air_force: 0,
            income: 0,
            supply_cost: 0,
            spy: None,
            actions_per_turn: None,
            capital: None,
            supply_capacity: 0,
            missed_turns: 0,
            eliminated: None,
            phone: None,
            email: None,
        }
    }

    pub fn alive(&self) -> bool {
        self.eliminated.is_none()
    }
}

/// An empire's one spy (9.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spy {
    pub area: AreaCode,
    /// Set by WAIT: the empire whose spy this one lies in wait for (9.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting_for: Option<EmpireCode>,
}

/// Defence mode of a land area (7.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DefenceMode {
    Defend,
    Entrench,
    Ambush,
    #[default]
    Retreat,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaState {
    pub code: AreaCode,
    /// Land areas only: the owning empire, or none for unowned (neutral) areas.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<EmpireCode>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub population: u32,
    /// Land areas only: the armies on the ground, belonging to the owner.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub armies: u32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub forts: u32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub defence: DefenceMode,
    /// The area an ENTRENCH or AMBUSH is set against (7.8, 7.9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence_against: Option<AreaCode>,
    /// Where armies retreat to, and (European) where supply lines lead back (7.10, S.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat_to: Option<AreaCode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<NavalBase>,
    /// Sea areas only: the ships there, all of one empire (decision 14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fleet: Option<Fleet>,
    /// European Empires: supply trains standing in this land area (S.1).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub trains: u32,
    /// The empire whose watcher is in this area, if any (9.7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub watcher: Option<EmpireCode>,
}

/// A naval base in a coastal land area (4.11). It belongs to the area's owner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavalBase {
    /// The one sea area ships enter and leave by.
    pub entrance: AreaCode,
    /// Ships in commission.
    #[serde(default)]
    pub ships: u32,
    #[serde(default)]
    pub laid_up: u32,
    /// The turn the base was built; it can be used from the next turn on (5.16).
    #[serde(default)]
    pub built: u32,
}

/// Ships of one empire in a sea area, with the armies they carry (7.2, 7.12).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fleet {
    pub owner: EmpireCode,
    pub ships: u32,
    #[serde(default)]
    pub armies: u32,
    /// The naval base these ships belong to (7.12); `None` once that base was captured,
    /// closed or disowned: such a fleet has no route to base for good (decision 16).
    #[serde(default)]
    pub base: Option<AreaCode>,
}

/// The largest count a saved state may hold. Far beyond any real game, it keeps every sum
/// the rules make (a turn's income, a battle's strengths) clear of overflow.
pub const MAX_COUNT: u32 = 1_000_000;

/// The most actions an empire may be allowed a turn (2.6): far beyond the 16 of the rules,
/// it keeps what a turn reads and writes for every empire within bounds.
pub const MAX_ACTIONS_PER_TURN: u32 = 100;

fn too_big(n: u32, field: impl FnOnce() -> String) -> Result<(), String> {
    if n > MAX_COUNT {
        Err(format!(
            "{}: {n} is more than the largest count allowed ({MAX_COUNT})",
            field()
        ))
    } else {
        Ok(())
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

impl GameState {
    /// One empty, unowned record per map area, in map order.
    pub fn blank_areas(map: &Map) -> Vec<AreaState> {
        map.areas()
            .iter()
            .map(|a| AreaState {
                code: a.code,
                ..AreaState::default()
            })
            .collect()
    }

    pub fn empire(&self, code: EmpireCode) -> Option<&EmpireState> {
        self.empires.iter().find(|e| e.code == code)
    }

    pub fn empire_index(&self, code: EmpireCode) -> Option<usize> {
        self.empires.iter().position(|e| e.code == code)
    }

    pub fn area(&self, id: AreaId) -> &AreaState {
        &self.areas[id.index()]
    }

    pub fn area_mut(&mut self, id: AreaId) -> &mut AreaState {
        &mut self.areas[id.index()]
    }

    /// The land areas an empire owns.
    pub fn owned_by(&self, code: EmpireCode) -> impl Iterator<Item = AreaId> + '_ {
        self.areas
            .iter()
            .enumerate()
            .filter(move |(_, a)| a.owner == Some(code))
            .map(|(i, _)| AreaId(i as u16))
    }

    /// Holds every count [`GameState::validate`] bounds at [`MAX_COUNT`], so that no turn
    /// leaves a state that cannot be read back: a count that would pass the largest allowed
    /// stays at it.
    pub fn saturate_counts(&mut self) {
        let cap = |n: &mut u32| *n = (*n).min(MAX_COUNT);
        for e in &mut self.empires {
            for n in [
                &mut e.bps,
                &mut e.treasury,
                &mut e.army_reserve,
                &mut e.navy_reserve,
                &mut e.air_force,
            ] {
                cap(n);
            }
        }
        for a in &mut self.areas {
            for n in [
                &mut a.population,
                &mut a.armies,
                &mut a.forts,
                &mut a.trains,
            ] {
                cap(n);
            }
            if let Some(b) = &mut a.base {
                cap(&mut b.ships);
                cap(&mut b.laid_up);
            }
            if let Some(f) = &mut a.fleet {
                cap(&mut f.ships);
                cap(&mut f.armies);
            }
        }
    }

    /// Checks that the state fits the map: one entry per area in map order, every code known,
    /// owners are empires of the game, fleets only at sea. Messages name the area and field.
    pub fn validate(&self, map: &Map) -> Result<(), String> {
        let actions = |n: u32, field: &dyn Fn() -> String| {
            if (1..=MAX_ACTIONS_PER_TURN).contains(&n) {
                Ok(())
            } else {
                Err(format!(
                    "{}: {n} actions a turn; allowed are 1 to {MAX_ACTIONS_PER_TURN}",
                    field()
                ))
            }
        };
        actions(self.options.actions_per_turn, &|| {
            "options.actions_per_turn".to_string()
        })?;
        for (i, e) in self.empires.iter().enumerate() {
            if let Some(n) = e.actions_per_turn {
                actions(n, &|| format!("empires[{i}] ({}).actions_per_turn", e.code))?;
            }
            if self.empires[..i].iter().any(|x| x.code == e.code) {
                return Err(format!("empires[{i}] ({}): empire listed twice", e.code));
            }
            for (field, n) in [
                ("bps", e.bps),
                ("treasury", e.treasury),
                ("army_reserve", e.army_reserve),
                ("navy_reserve", e.navy_reserve),
                ("air_force", e.air_force),
            ] {
                too_big(n, || format!("empires[{i}] ({}).{field}", e.code))?;
            }
        }
        for (i, a) in self.areas.iter().enumerate() {
            let f = a.fleet.as_ref();
            let b = a.base.as_ref();
            for (field, n) in [
                ("population", a.population),
                ("armies", a.armies),
                ("forts", a.forts),
                ("trains", a.trains),
                ("base.ships", b.map_or(0, |b| b.ships)),
                ("base.laid_up", b.map_or(0, |b| b.laid_up)),
                ("fleet.ships", f.map_or(0, |f| f.ships)),
                ("fleet.armies", f.map_or(0, |f| f.armies)),
            ] {
                too_big(n, || format!("areas[{i}] ({}).{field}", a.code))?;
            }
        }
        if self.areas.len() != map.areas().len() {
            return Err(format!(
                "areas: the state has {} areas but the map has {}",
                self.areas.len(),
                map.areas().len()
            ));
        }
        let known = |e: &EmpireCode| self.empire(*e).is_some();
        let area_ok = |c: &AreaCode| map.id(*c).is_some();
        for (i, (a, def)) in self.areas.iter().zip(map.areas()).enumerate() {
            let at = || format!("areas[{i}] ({})", a.code);
            if a.code != def.code {
                return Err(format!("{}: expected area {} in map order", at(), def.code));
            }
            if let Some(o) = &a.owner {
                if def.is_sea() {
                    return Err(format!("{}.owner: sea areas are not owned", at()));
                }
                if !known(o) {
                    return Err(format!("{}.owner: unknown empire {o}", at()));
                }
            }
            if def.is_sea() && (a.population > 0 || a.armies > 0 || a.forts > 0 || a.trains > 0) {
                return Err(format!(
                    "{}: sea areas hold no population, armies on land, forts or trains",
                    at()
                ));
            }
            for (field, c) in [
                ("defence_against", &a.defence_against),
                ("retreat_to", &a.retreat_to),
            ] {
                if let Some(c) = c
                    && !area_ok(c)
                {
                    return Err(format!("{}.{field}: unknown area {c}", at()));
                }
            }
            if let Some(b) = &a.base {
                if def.is_sea() {
                    return Err(format!("{}.base: naval bases are built on land", at()));
                }
                let ok = map.id(b.entrance).is_some_and(|e| {
                    map.area(e).is_sea() && map.adjacent(e, map.id(a.code).unwrap_or(e))
                });
                if !ok {
                    return Err(format!(
                        "{}.base.entrance: {} is not a sea area next to {}",
                        at(),
                        b.entrance,
                        a.code
                    ));
                }
            }
            if let Some(f) = &a.fleet {
                if !def.is_sea() {
                    return Err(format!(
                        "{}.fleet: fleets are at sea; ships on land are in a base",
                        at()
                    ));
                }
                if !known(&f.owner) {
                    return Err(format!("{}.fleet.owner: unknown empire {}", at(), f.owner));
                }
                if let Some(b) = &f.base
                    && !area_ok(b)
                {
                    return Err(format!("{}.fleet.base: unknown area {b}", at()));
                }
                // 8.1: armies at sea need ships to carry them.
                if f.armies > f.ships {
                    return Err(format!(
                        "{}.fleet.armies: {} armies but only {} ships to carry them",
                        at(),
                        f.armies,
                        f.ships
                    ));
                }
            }
            if let Some(w) = &a.watcher
                && !known(w)
            {
                return Err(format!("{}.watcher: unknown empire {w}", at()));
            }
        }
        for (i, e) in self.empires.iter().enumerate() {
            if let Some(s) = &e.spy {
                // 9.2: spies work in land areas.
                if !map.id(s.area).is_some_and(|a| map.area(a).is_land()) {
                    return Err(format!(
                        "empires[{i}] ({}).spy.area: {} is not a land area of the map",
                        e.code, s.area
                    ));
                }
                if let Some(w) = &s.waiting_for
                    && !known(w)
                {
                    return Err(format!(
                        "empires[{i}] ({}).spy.waiting_for: unknown empire {w}",
                        e.code
                    ));
                }
            }
            if let Some(c) = &e.capital
                && !area_ok(c)
            {
                return Err(format!(
                    "empires[{i}] ({}).capital: unknown area {c}",
                    e.code
                ));
            }
        }
        crate::rng::GameRng::restore(&self.rng).map_err(|m| format!("rng.seed: {m}"))?;
        for (i, c) in self.order_of_play.iter().enumerate() {
            if !known(c) {
                return Err(format!("order_of_play[{i}]: unknown empire {c}"));
            }
        }
        for e in &self.empires {
            if !self.order_of_play.contains(&e.code) {
                return Err(format!("order_of_play: empire {} is missing", e.code));
            }
        }
        Ok(())
    }
}
