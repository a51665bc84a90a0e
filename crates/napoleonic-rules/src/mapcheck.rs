//! What a map must satisfy before a game can be played on it (digest 2.1, 2.6, 8.1
//! "No map data"). Each problem is a sentence naming the location and what is wrong.

use crate::map::Map;

/// Every problem found, in a stable order; empty for a sound map.
pub fn problems(map: &Map) -> Vec<String> {
    let mut out = Vec::new();
    borders(map, &mut out);
    out
}

/// Borders are listed on both sides, alike on both, and seas never bar each other.
fn borders(map: &Map, out: &mut Vec<String>) {
    for l in &map.locations {
        for e in &l.edges {
            if e.to == l.id {
                out.push(format!("{} ({}) borders itself", l.code, l.id));
                continue;
            }
            let Some(other) = map.get(e.to) else {
                continue;
            };
            match other.edge(l.id) {
                None => out.push(format!(
                    "{} lists {} as a neighbour but {} does not list {}",
                    l.code, other.code, other.code, l.code
                )),
                Some(back) if back.barrier != e.barrier && l.id < other.id => out.push(format!(
                    "the border {}-{} is a barrier on one side only",
                    l.code, other.code
                )),
                _ => {}
            }
            if e.barrier && l.is_sea() && other.is_sea() && l.id < other.id {
                out.push(format!(
                    "the border {}-{} joins two seas and cannot be a barrier",
                    l.code, other.code
                ));
            }
        }
    }
}
