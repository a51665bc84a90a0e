//! European Empires supply lines (seed 003, S.2 and S.4): which areas are supply centres,
//! and where each land area draws its supply from along its chain of retreat locations.
//! Pure functions over the state, shared by the engine, the checker and the reports.

use crate::codes::EmpireCode;
use crate::map::{AreaId, Map};
use crate::state::GameState;

/// S.2: an empire's supply centres are its capital and its naval bases.
pub fn is_centre(map: &Map, st: &GameState, empire: EmpireCode, a: AreaId) -> bool {
    let area = st.area(a);
    if area.owner != Some(empire) {
        return false;
    }
    let capital = st.empire(empire).and_then(|e| e.capital);
    capital == Some(map.code(a)) || area.base.is_some()
}

/// The next link of a supply line: the area's retreat location, if it is a neighbouring
/// land area owned by the same empire (S.4: lines run through areas you control).
fn next_link(map: &Map, st: &GameState, empire: EmpireCode, a: AreaId) -> Option<AreaId> {
    let r = map.id(st.area(a).retreat_to?)?;
    (map.adjacent(a, r) && map.area(r).is_land() && st.area(r).owner == Some(empire)).then_some(r)
}

/// S.4: where land area `a` draws its supply from: the first supply centre on the chain of
/// retreat locations starting at `a` (the area itself if it is a centre). `None` when the
/// chain is broken, loops, or `a` is not owned.
pub fn source(map: &Map, st: &GameState, a: AreaId) -> Option<AreaId> {
    let empire = st.area(a).owner?;
    let mut at = a;
    for _ in 0..st.areas.len() {
        if is_centre(map, st, empire, at) {
            return Some(at);
        }
        at = next_link(map, st, empire, at)?;
    }
    None
}

/// S.13.2: the supply centres a land area can be supplied from with SEND: its own source,
/// then the source of that centre's own line, and so on (lines chain together).
pub fn centres_supplying(map: &Map, st: &GameState, a: AreaId) -> Vec<AreaId> {
    let mut chain = Vec::new();
    let Some(empire) = st.area(a).owner else {
        return chain;
    };
    let mut current = source(map, st, a);
    while let Some(c) = current {
        if chain.contains(&c) {
            break;
        }
        chain.push(c);
        // The centre's own line starts from its retreat location.
        current = next_link(map, st, empire, c).and_then(|n| source(map, st, n));
    }
    chain
}

/// S.11 (decision 14, option `blockade_means_not_owned`): whether the naval base in `a` is
/// blockaded: its entrance holds another empire's ships, or, under the option, not the
/// owner's own ships.
pub fn blockaded(map: &Map, st: &GameState, a: AreaId) -> bool {
    let area = st.area(a);
    let (Some(owner), Some(base)) = (area.owner, &area.base) else {
        return false;
    };
    let fleet = map
        .id(base.entrance)
        .and_then(|s| st.area(s).fleet.as_ref());
    match fleet {
        Some(f) => f.owner != owner,
        None => st.options.blockade_means_not_owned,
    }
}
