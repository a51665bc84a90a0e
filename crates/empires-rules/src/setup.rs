//! Starting a game on a map (12.6-12.9): initial areas, strengths, reserves and the random
//! distribution of the unowned areas, all drawn from the game's seeded generator.

use crate::codes::EmpireCode;
use crate::engine::settle_balances;
use crate::map::{AreaId, Map};
use crate::rng::GameRng;
use crate::state::{AreaState, EmpireState, GameState, NavalBase, STATE_FORMAT};
use crate::variant::{Options, Variant};
use std::collections::BTreeMap;

/// What a new game needs besides the map.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub name: String,
    pub variant: Variant,
    pub seed: u64,
    /// Players by empire; empires without a player are dummies (2.1).
    pub players: BTreeMap<EmpireCode, String>,
    pub options: Options,
}

impl NewGame {
    /// A game with no players: every empire is a dummy run by the computer (2.1), under the
    /// default options.
    pub fn without_players(name: &str, variant: Variant, seed: u64) -> NewGame {
        NewGame {
            name: name.to_string(),
            variant,
            seed,
            players: BTreeMap::new(),
            options: Options::default(),
        }
    }
}

/// Why a game could not be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("the map defines no empires (no [[empire]] entries)")]
    NoEmpires,
    /// The code given, and the map's empires, which a GM choosing one wants to see.
    #[error("player given for {0}, which is not an empire of this map; its empires are {1}")]
    UnknownEmpire(EmpireCode, String),
    #[error("the home area {home} of {empire} is already taken by another empire")]
    HomeTaken { empire: EmpireCode, home: String },
}

/// S.10 (decision 24): supply capacity of the European powers; 2 for everyone else.
pub fn default_supply_capacity(code: EmpireCode) -> u32 {
    match code.as_str() {
        "EN" => 12,
        "FR" => 8,
        "AU" | "RU" => 5,
        "PR" => 4,
        "PL" | "SP" | "SW" => 3,
        _ => 2,
    }
}

/// Creates turn 0 of a game: everything set up, ready for turn 1.
pub fn new_game(map: &Map, g: &NewGame) -> Result<GameState, SetupError> {
    if map.empires.is_empty() {
        return Err(SetupError::NoEmpires);
    }
    for code in g.players.keys() {
        if map.empire(*code).is_none() {
            let codes: Vec<&str> = map.empires.iter().map(|e| e.code.as_str()).collect();
            return Err(SetupError::UnknownEmpire(*code, codes.join(" ")));
        }
    }
    let mut rng = GameRng::from_game_seed(g.seed);
    let mut areas = GameState::blank_areas(map);
    let homes: Vec<AreaId> = map.empires.iter().map(|e| e.home).collect();
    let mut empires = Vec::new();
    for def in &map.empires {
        if areas[def.home.index()].owner.is_some() {
            return Err(SetupError::HomeTaken {
                empire: def.code,
                home: map.code(def.home).to_string(),
            });
        }
        let initial = initial_areas(map, g.variant, def, &areas, &homes, &mut rng);
        let mut emp = EmpireState::new(def.code, &def.name);
        emp.player = g.players.get(&def.code).cloned();
        // 12.8: treasury, reserves and air force (decision 39: Australian empires take the
        // Medieval line though they may buy aircraft).
        emp.treasury = 20;
        emp.navy_reserve = 3;
        if g.variant.starts_with_air() {
            emp.army_reserve = 5;
            emp.air_force = 5;
        } else {
            emp.army_reserve = 10;
        }
        if g.variant.has_supply() {
            emp.capital = Some(map.code(def.home));
            emp.supply_capacity = def
                .supply_capacity
                .unwrap_or_else(|| default_supply_capacity(def.code));
        }
        // 12.7: home 4 armies and 2 forts, the others 3 and 1; a coastal area trades an army
        // for a ship, kept in a naval base there.
        let mut first_base = None;
        for (i, &a) in initial.iter().enumerate() {
            let (armies, forts) = if i == 0 { (4, 2) } else { (3, 1) };
            let ad = map.area(a);
            let st = &mut areas[a.index()];
            st.owner = Some(def.code);
            st.population = rng.range(ad.population.0, ad.population.1);
            st.forts = forts;
            st.armies = armies;
            if ad.coastal {
                st.armies -= 1;
                let seas: Vec<AreaId> = ad
                    .neighbours
                    .iter()
                    .copied()
                    .filter(|n| map.area(*n).is_sea())
                    .collect();
                let entrance = seas[rng.index(seas.len())];
                st.base = Some(NavalBase {
                    entrance: map.code(entrance),
                    ships: 1,
                    laid_up: 0,
                    built: 0,
                });
                first_base.get_or_insert(a);
            }
        }
        // 12.7: another ship when the initial areas are separated by sea.
        if !connected_by_land(map, &initial) {
            match first_base {
                Some(b) => {
                    if let Some(base) = areas[b.index()].base.as_mut() {
                        base.ships += 1;
                    }
                }
                None => emp.navy_reserve += 1,
            }
        }
        empires.push(emp);
    }
    populate_unowned(map, &mut areas, &mut rng, |_| true);
    // 6.1: the first order of play is random.
    let mut order: Vec<EmpireCode> = empires.iter().map(|e| e.code).collect();
    rng.shuffle(&mut order);
    // 11.3: the first census falls on turn 3, 4 or 5.
    let next_census = rng.range(3, 5);
    let mut state = GameState {
        format: STATE_FORMAT,
        game: g.name.clone(),
        variant: g.variant,
        options: g.options.clone(),
        turn: 0,
        order_of_play: order,
        next_census,
        victory_warning: None,
        result: None,
        empires,
        areas,
        rng: rng.save(),
    };
    // 3.2: the first turn's balance is the income less supply costs, as at any turn's end.
    start_balances(map, &mut state);
    // A map of huge populations must not give a first balance no state can hold.
    state.saturate_counts();
    Ok(state)
}

/// 12.9: unowned land areas (those `pick` accepts) get a random population from the
/// area's range, and armies from none up to that population.
pub fn populate_unowned(
    map: &Map,
    areas: &mut [AreaState],
    rng: &mut GameRng,
    pick: impl Fn(AreaId) -> bool,
) {
    for (id, st) in map.ids().zip(areas.iter_mut()) {
        let a = map.area(id);
        if a.is_land() && st.owner.is_none() && pick(id) {
            st.population = rng.range(a.population.0, a.population.1);
            st.armies = rng.range(0, st.population);
        }
    }
}

/// Sets every empire's income, supply cost and BPs from the map as it stands.
pub fn start_balances(map: &Map, state: &mut GameState) {
    settle_balances(map, state);
}

/// 12.6: the home area first, then the areas the map names or, failing that, areas drawn
/// at random: two next to home (all variants; "up to two" in European Empires), and in
/// World Empires two more next to any of the first three.
fn initial_areas(
    map: &Map,
    variant: Variant,
    def: &crate::map::EmpireDef,
    areas: &[AreaState],
    homes: &[AreaId],
    rng: &mut GameRng,
) -> Vec<AreaId> {
    let mut chosen = vec![def.home];
    let free = |a: AreaId, chosen: &[AreaId]| {
        map.area(a).is_land()
            && areas[a.index()].owner.is_none()
            && !homes.contains(&a)
            && !chosen.contains(&a)
    };
    if !def.start.is_empty() {
        for &a in &def.start {
            if a != def.home && free(a, &chosen) {
                chosen.push(a);
            }
        }
        return chosen;
    }
    let (near_home, further) = match variant {
        Variant::World => (2, 2),
        _ => (2, 0),
    };
    let near_home = def.extra_areas.map_or(near_home, |n| n.min(near_home));
    let further = def
        .extra_areas
        .map_or(further, |n| n.saturating_sub(near_home).min(further));
    pick(map, rng, &mut chosen, near_home, 1, &free);
    pick(map, rng, &mut chosen, further, 3, &free);
    chosen
}

/// Adds up to `n` random free land areas adjacent to any of the first `around` chosen.
fn pick(
    map: &Map,
    rng: &mut GameRng,
    chosen: &mut Vec<AreaId>,
    n: u32,
    around: usize,
    free: &dyn Fn(AreaId, &[AreaId]) -> bool,
) {
    for _ in 0..n {
        let mut options: Vec<AreaId> = chosen
            .iter()
            .take(around)
            .flat_map(|&c| map.neighbours(c).iter().copied())
            .filter(|&a| free(a, chosen))
            .collect();
        options.sort();
        options.dedup();
        if options.is_empty() {
            return;
        }
        let a = options[rng.index(options.len())];
        chosen.push(a);
    }
}

/// Whether a set of land areas is connected through land borders among themselves.
fn connected_by_land(map: &Map, set: &[AreaId]) -> bool {
    let Some(&first) = set.first() else {
        return true;
    };
    let mut reached = vec![first];
    let mut i = 0;
    while i < reached.len() {
        let cur = reached[i];
        for &n in map.neighbours(cur) {
            if set.contains(&n) && !reached.contains(&n) {
                reached.push(n);
            }
        }
        i += 1;
    }
    reached.len() == set.len()
}
