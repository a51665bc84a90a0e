//! What an empire can see of the game (10.1, 10.2): its own areas and forces, the land
//! areas next to its territory, what its spy and watchers look at, and the waters around
//! its fleets. The order checker forecasts a turn on this view, so that checking orders
//! never tells a player anything the game report would not.

use crate::codes::EmpireCode;
use crate::map::Map;
use crate::state::{AreaState, DefenceMode, GameState};

/// For every area of the map, whether `empire` sees what is in it.
pub fn visible_areas(map: &Map, st: &GameState, empire: EmpireCode) -> Vec<bool> {
    let mut seen = vec![false; st.areas.len()];
    let spy = st
        .empire(empire)
        .and_then(|e| e.spy.as_ref())
        .and_then(|s| map.id(s.area));
    for id in map.ids() {
        let a = st.area(id);
        let own_fleet = a.fleet.as_ref().is_some_and(|f| f.owner == empire);
        let watched = a.watcher == Some(empire) || spy == Some(id);
        if a.owner == Some(empire) || own_fleet {
            // 10.2: scouting reaches every area next to the empire's land and fleets.
            seen[id.index()] = true;
            for &n in map.neighbours(id) {
                seen[n.index()] = true;
            }
        } else if watched {
            seen[id.index()] = true;
        }
    }
    seen
}

/// What every empire sees, in the order of the state's empires: for each, what
/// [`visible_areas`] gives it. One pass over the map serves them all, where a turn's reports
/// would otherwise go over the whole map once for every empire.
pub fn visible_areas_of_all(map: &Map, st: &GameState) -> Vec<Vec<bool>> {
    let mut seen = vec![vec![false; st.areas.len()]; st.empires.len()];
    let mut mark = |empire: EmpireCode, id: crate::map::AreaId, around: bool| {
        if let Some(e) = st.empire_index(empire) {
            seen[e][id.index()] = true;
            if around {
                for &n in map.neighbours(id) {
                    seen[e][n.index()] = true;
                }
            }
        }
    };
    for id in map.ids() {
        let a = st.area(id);
        // 10.2: scouting reaches every area next to an empire's land and fleets.
        if let Some(owner) = a.owner {
            mark(owner, id, true);
        }
        if let Some(f) = &a.fleet {
            mark(f.owner, id, true);
        }
        if let Some(w) = a.watcher {
            mark(w, id, false);
        }
    }
    for e in &st.empires {
        if let Some(id) = e.spy.as_ref().and_then(|s| map.id(s.area)) {
            mark(e.code, id, false);
        }
    }
    seen
}

/// An area as `empire` knows it (10.3): only its own watcher and, in its own areas, its
/// defence orders; in an area it does not see (`seen` false), no population or forces.
#[inline]
pub fn mask_area(a: &mut AreaState, empire: EmpireCode, seen: bool) {
    if a.watcher != Some(empire) {
        a.watcher = None;
    }
    if a.owner != Some(empire) {
        a.defence = DefenceMode::default();
        a.defence_against = None;
        a.retreat_to = None;
    }
    if seen {
        return;
    }
    a.population = 0;
    a.armies = 0;
    a.forts = 0;
    a.trains = 0;
    a.fleet = None;
    if let Some(b) = a.base.as_mut() {
        b.ships = 0;
        b.laid_up = 0;
    }
}

/// The game as `empire` knows it at the start of a turn: hidden areas show nothing, other
/// empires' spies, watchers, balances, navies and air forces are unknown, and other
/// empires' defence orders are not known anywhere. Owners of areas, treasuries and army
/// reserves are public (10.3) and stay.
pub fn view_for(map: &Map, st: &GameState, empire: EmpireCode) -> GameState {
    let seen = visible_areas(map, st, empire);
    let mut view = st.clone();
    for (a, &seen) in view.areas.iter_mut().zip(&seen) {
        mask_area(a, empire, seen);
    }
    for e in view.empires.iter_mut().filter(|e| e.code != empire) {
        e.spy = None;
        e.bps = 0;
        e.navy_reserve = 0;
        e.air_force = 0;
    }
    view
}
