//! Scenario files: a GM's hand-written starting position on a map, in TOML. Any part of the
//! state may be given; what is left out takes its default (unlisted areas are empty and
//! unowned, or drawn at random as in 12.9 with `random_unowned = true`). See
//! `docs/formats.md`.

use crate::codes::{AreaCode, EmpireCode};
use crate::map::Map;
use crate::rng::GameRng;
use crate::setup::{default_supply_capacity, populate_unowned, start_balances};
use crate::state::{
    AreaState, DefenceMode, EmpireState, Fleet, GameState, NavalBase, STATE_FORMAT, Spy,
};
use crate::variant::{Options, Variant};
use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    #[serde(default)]
    pub game: String,
    /// The map file, relative to the scenario file.
    pub map: String,
    #[serde(default)]
    pub variant: Option<Variant>,
    #[serde(default)]
    pub seed: u64,
    /// The last turn played; the next `empires turn` plays turn + 1.
    #[serde(default)]
    pub turn: u32,
    #[serde(default)]
    pub next_census: Option<u32>,
    #[serde(default)]
    pub order_of_play: Vec<EmpireCode>,
    #[serde(default)]
    pub options: Options,
    /// Draw population and armies of unlisted land areas as at game start (12.9).
    #[serde(default)]
    pub random_unowned: bool,
    /// Set each empire's BPs to income less supply, unless the empire gives `bps`.
    #[serde(default = "yes")]
    pub compute_balances: bool,
    #[serde(rename = "empire", default)]
    pub empires: Vec<ScenarioEmpire>,
    #[serde(rename = "area", default)]
    pub areas: Vec<ScenarioArea>,
    #[serde(rename = "fleet", default)]
    pub fleets: Vec<ScenarioFleet>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioEmpire {
    pub code: EmpireCode,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub player: Option<String>,
    #[serde(default)]
    pub bps: Option<u32>,
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
    #[serde(default)]
    pub spy: Option<AreaCode>,
    #[serde(default)]
    pub spy_waiting_for: Option<EmpireCode>,
    #[serde(default)]
    pub capital: Option<AreaCode>,
    #[serde(default)]
    pub supply_capacity: Option<u32>,
    #[serde(default)]
    pub actions_per_turn: Option<u32>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioArea {
    pub code: AreaCode,
    #[serde(default)]
    pub owner: Option<EmpireCode>,
    #[serde(default)]
    pub population: u32,
    #[serde(default)]
    pub armies: u32,
    #[serde(default)]
    pub forts: u32,
    #[serde(default)]
    pub defence: DefenceMode,
    #[serde(default)]
    pub against: Option<AreaCode>,
    #[serde(default)]
    pub retreat_to: Option<AreaCode>,
    #[serde(default)]
    pub base: Option<NavalBase>,
    #[serde(default)]
    pub trains: u32,
    #[serde(default)]
    pub watcher: Option<EmpireCode>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFleet {
    pub area: AreaCode,
    pub owner: EmpireCode,
    pub ships: u32,
    #[serde(default)]
    pub armies: u32,
    /// Leave out for a fleet cut off from any base.
    #[serde(default)]
    pub base: Option<AreaCode>,
}

/// A scenario problem, naming the file and line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct ScenarioError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl Scenario {
    /// Reads the scenario text; `file` names it in messages.
    pub fn parse(text: &str, file: &str) -> Result<Scenario, ScenarioError> {
        toml::from_str(text).map_err(|e| ScenarioError {
            file: file.to_string(),
            line: e.span().map_or(0, |s| line_of(text, s.start)),
            message: e.message().to_string(),
        })
    }

    /// Builds the game state on its map; `text` is the scenario's own text, used to find
    /// the line of a faulty entry.
    pub fn build(&self, map: &Map, text: &str, file: &str) -> Result<GameState, ScenarioError> {
        let err = |table: &str, index: usize, message: String| ScenarioError {
            file: file.to_string(),
            line: table_line(text, table, index),
            message,
        };
        let variant = self.variant.or(map.variant).unwrap_or(Variant::World);
        let mut rng = GameRng::from_game_seed(self.seed);
        let mut areas = GameState::blank_areas(map);
        let mut empires = Vec::new();
        for (i, e) in self.empires.iter().enumerate() {
            if empires.iter().any(|x: &EmpireState| x.code == e.code) {
                return Err(err(
                    "empire",
                    i,
                    format!("empire {} is listed twice", e.code),
                ));
            }
            let name = if e.name.is_empty() {
                map.empire(e.code)
                    .map_or(e.code.to_string(), |d| d.name.clone())
            } else {
                e.name.clone()
            };
            // Decision 39: Medieval and European Empires have no air forces (1.7), so an air
            // force there could never fight and would only be charged supply.
            if e.air_force > 0 && !variant.has_air() {
                return Err(err(
                    "empire",
                    i,
                    format!(
                        "empire {} is given an air force of {}, but there are no air forces \
                         in {} Empires (1.7, decision 39)",
                        e.code,
                        e.air_force,
                        variant.title()
                    ),
                ));
            }
            let mut s = EmpireState::new(e.code, &name);
            s.player = e.player.clone();
            s.bps = e.bps.unwrap_or(0);
            s.treasury = e.treasury;
            s.vps = e.vps;
            s.army_reserve = e.army_reserve;
            s.navy_reserve = e.navy_reserve;
            s.air_force = e.air_force;
            s.spy = e.spy.map(|area| Spy {
                area,
                waiting_for: e.spy_waiting_for,
            });
            s.capital = e.capital;
            // S.10: supply capacity matters only in European Empires.
            s.supply_capacity = match e.supply_capacity {
                Some(c) => c,
                None if variant.has_supply() => default_supply_capacity(e.code),
                None => 0,
            };
            s.actions_per_turn = e.actions_per_turn;
            empires.push(s);
        }
        for (i, a) in self.areas.iter().enumerate() {
            let id = map
                .id(a.code)
                .ok_or_else(|| err("area", i, format!("area {} is not on the map", a.code)))?;
            let st = &mut areas[id.index()];
            *st = AreaState {
                code: a.code,
                owner: a.owner,
                population: a.population,
                armies: a.armies,
                forts: a.forts,
                defence: a.defence,
                defence_against: a.against,
                retreat_to: a.retreat_to,
                base: a.base.clone(),
                fleet: None,
                trains: a.trains,
                watcher: a.watcher,
            };
        }
        for (i, f) in self.fleets.iter().enumerate() {
            let id = map
                .id(f.area)
                .ok_or_else(|| err("fleet", i, format!("area {} is not on the map", f.area)))?;
            if areas[id.index()].fleet.is_some() {
                return Err(err(
                    "fleet",
                    i,
                    format!(
                        "{} already has a fleet; one empire's ships per sea area",
                        f.area
                    ),
                ));
            }
            if f.armies > f.ships {
                return Err(err(
                    "fleet",
                    i,
                    format!(
                        "{} armies need as many ships, but there are {}",
                        f.armies, f.ships
                    ),
                ));
            }
            areas[id.index()].fleet = Some(Fleet {
                owner: f.owner,
                ships: f.ships,
                armies: f.armies,
                base: f.base,
            });
        }
        if self.random_unowned {
            let unlisted = |id| !self.areas.iter().any(|a| map.id(a.code) == Some(id));
            populate_unowned(map, &mut areas, &mut rng, unlisted);
        }
        let order_of_play = if self.order_of_play.is_empty() {
            empires.iter().map(|e| e.code).collect()
        } else {
            self.order_of_play.clone()
        };
        let next_census = self
            .next_census
            .unwrap_or_else(|| self.turn + rng.range(3, 5));
        let mut state = GameState {
            format: STATE_FORMAT,
            game: if self.game.is_empty() {
                map.name.clone()
            } else {
                self.game.clone()
            },
            variant,
            options: self.options.clone(),
            turn: self.turn,
            order_of_play,
            next_census,
            victory_warning: None,
            result: None,
            empires,
            areas,
            rng: rng.save(),
        };
        state.validate(map).map_err(|m| ScenarioError {
            file: file.to_string(),
            line: locate(text, &m),
            message: m,
        })?;
        if self.compute_balances {
            let given: Vec<Option<u32>> = self.empires.iter().map(|e| e.bps).collect();
            start_balances(map, &mut state);
            for (e, b) in state.empires.iter_mut().zip(given) {
                if let Some(b) = b {
                    e.bps = b;
                }
            }
            state.saturate_counts();
        }
        Ok(state)
    }
}

/// The 1-based line holding byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The line of the `index`-th `[[table]]` header, or 0 when not found.
fn table_line(text: &str, table: &str, index: usize) -> usize {
    let header = format!("[[{table}]]");
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == header)
        .nth(index)
        .map_or(0, |(n, _)| n + 1)
}

/// The line of the entry a validation message names, e.g. `areas[3] (ABC)`: the line
/// where that code is given.
fn locate(text: &str, message: &str) -> usize {
    let code = message
        .split(['(', ')'])
        .nth(1)
        .filter(|c| c.len() == 3 || c.len() == 2);
    let by_code = code.and_then(|c| {
        text.lines()
            .position(|l| l.contains("code") && l.contains(&format!("\"{c}\"")))
            .or_else(|| text.lines().position(|l| l.contains(&format!("\"{c}\""))))
    });
    // Otherwise a top-level field such as `order_of_play`: the line that sets it.
    let field = message.split([':', '[', '.']).next().unwrap_or("").trim();
    let by_field = || {
        text.lines()
            .position(|l| l.trim_start().starts_with(field) && l.contains('='))
    };
    by_code.or_else(by_field).map_or(0, |n| n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_name_the_right_line() {
        let text = "map = \"m.toml\"\nturn = 1\n\n\nbogus = 3\n";
        let e = Scenario::parse(text, "s.toml").unwrap_err();
        assert_eq!(e.line, 5, "{e}");
        assert!(e.to_string().starts_with("s.toml:5:"), "{e}");
    }

    #[test]
    fn top_level_fields_are_located_by_their_key() {
        let text = "map = \"m\"\nseed = 1\norder_of_play = [\"ZZ\"]\n";
        assert_eq!(locate(text, "order_of_play[0]: unknown empire ZZ"), 3);
    }
}
