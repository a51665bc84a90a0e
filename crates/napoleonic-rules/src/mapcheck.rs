//! What a map must satisfy before a game can be played on it (digest 2.1, 2.6, 8.1
//! "No map data"). Each problem is a sentence naming the location and what is wrong.
//!
//! [`problems`] needs the map alone and runs whenever a map is loaded. [`roster_problems`]
//! also needs the game's tables (which troop codes exist, which of them are ships, how many
//! fortification levels there are), so it runs where a map meets its tables.

use crate::fixed::Gold;
use crate::ids::{LocId, TroopCode};
use crate::map::{KingdomStart, Location, Map, StartForce};
use crate::tables::{Tables, TroopClass};
use std::collections::{BTreeMap, BTreeSet};

/// Every problem found, in a stable order; empty for a sound map.
pub fn problems(map: &Map) -> Vec<String> {
    let mut out = Vec::new();
    borders(map, &mut out);
    positions(map, &mut out);
    revenues(map, &mut out);
    reachable(map, &mut out);
    harbours(map, &mut out);
    cities(map, &mut out);
    garrisons(map, &mut out);
    kingdoms(map, &mut out);
    out
}

/// Every troop code the map uses (build lists, garrisons, starting forces) is in the
/// roster, each kind of troop is where it can be, and starting fortifications are levels
/// the table has. Empty when the map and the tables fit together.
pub fn roster_problems(map: &Map, tables: &Tables) -> Vec<String> {
    let mut out = Vec::new();
    let class = |code: &TroopCode| tables.troop(code).map(|t| t.class);
    let unknown = |who: &str, code: &TroopCode, out: &mut Vec<String>| {
        out.push(format!(
            "{who} lists {code}, which is not a troop type in the roster"
        ));
    };
    for l in &map.locations {
        if let Some(city) = &l.city {
            let who = format!("the city of {} in {}", city.name, name(l));
            let mut ships = Vec::new();
            for code in &city.builds {
                match class(code) {
                    None => unknown(&who, code, &mut out),
                    Some(TroopClass::Ship) => ships.push(code.0.as_str()),
                    Some(_) => {}
                }
            }
            // 5.6, 2.6: ships are built only in a harbour, and a harbour needs a coast
            // free of reefs; one may be built later, so the coast is what counts.
            if !ships.is_empty() && !open_coast(map, l) {
                out.push(format!(
                    "{who} builds ships ({}) but {} has no coast free of reefs for a harbour",
                    ships.join(", "),
                    l.code
                ));
            }
        }
        let who = format!("the garrison of {}", name(l));
        let mut ships = Vec::new();
        for (code, _) in &l.garrison {
            match class(code) {
                None => unknown(&who, code, &mut out),
                Some(TroopClass::Ship) => ships.push(code.0.as_str()),
                Some(_) => {}
            }
        }
        // 2.3: a garrison holds ships only in a province with a city and a harbour.
        let can_keep_ships = l.city.is_some() && l.harbour;
        if !ships.is_empty() && !can_keep_ships {
            out.push(format!(
                "{who} has ships ({}) but {} has no city with a harbour to keep them",
                ships.join(", "),
                l.code
            ));
        }
        if l.fortification > 0 && tables.fort(l.fortification).is_none() {
            out.push(format!(
                "{} starts with fortification level {}, but the table has {} levels",
                name(l),
                l.fortification,
                tables.fortifications.len()
            ));
        }
    }
    for k in &map.kingdoms {
        for (force, fleet) in forces(k) {
            let who = force_name(map, k, force, fleet);
            for (code, _) in &force.troops {
                match class(code) {
                    None => unknown(&who, code, &mut out),
                    // 2.3: armies hold soldiers, fleets hold ships.
                    Some(TroopClass::Ship) if !fleet => out.push(format!(
                        "{who} lists {code}, a ship: armies hold soldiers, and ships sail in fleets"
                    )),
                    Some(c) if fleet && c != TroopClass::Ship => out.push(format!(
                        "{who} lists {code}, a soldier: fleets hold ships, and soldiers travel aboard in armies"
                    )),
                    Some(_) => {}
                }
            }
        }
    }
    out
}

/// "PAR (1)", how a problem names a location.
fn name(l: &Location) -> String {
    format!("{} ({})", l.code, l.id)
}

/// A location by id for a message, whether or not it is on the map.
fn named(map: &Map, id: LocId) -> String {
    map.get(id)
        .map(name)
        .unwrap_or_else(|| format!("location {id}"))
}

fn forces(k: &KingdomStart) -> impl Iterator<Item = (&StartForce, bool)> {
    k.armies
        .iter()
        .map(|f| (f, false))
        .chain(k.fleets.iter().map(|f| (f, true)))
}

fn force_name(map: &Map, k: &KingdomStart, f: &StartForce, fleet: bool) -> String {
    format!(
        "kingdom {}'s {} at {}",
        k.code,
        if fleet { "fleet" } else { "army" },
        named(map, f.at)
    )
}

/// Whether a location touches a sea over a border without a reef (2.6). Unlike
/// [`Map::has_open_coast`] it never looks up a missing neighbour.
fn open_coast(map: &Map, l: &Location) -> bool {
    l.edges
        .iter()
        .any(|e| !e.barrier && map.get(e.to).is_some_and(Location::is_sea))
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
                out.push(format!(
                    "{} borders location {}, which is not on the map",
                    name(l),
                    e.to
                ));
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

/// Positions are for drawing: a longitude from -180 to 180 and a latitude from -90 to 90.
fn positions(map: &Map, out: &mut Vec<String>) {
    for l in &map.locations {
        let [lon, lat] = l.position;
        if !((-180.0..=180.0).contains(&lon) && (-90.0..=90.0).contains(&lat)) {
            out.push(format!(
                "{} has the position [{lon}, {lat}], which is not a longitude (-180 to 180) and a latitude (-90 to 90)",
                name(l)
            ));
        }
    }
}

/// 2.1: every province has a maximum revenue (it is also the cost of annexing it, 5.5);
/// seas yield nothing.
fn revenues(map: &Map, out: &mut Vec<String>) {
    for l in &map.locations {
        if l.is_sea() && l.revenue != Gold::ZERO {
            out.push(format!(
                "the sea {} has a revenue of {}, but seas yield none",
                name(l),
                l.revenue
            ));
        } else if !l.is_sea() && l.revenue <= Gold::ZERO {
            out.push(format!(
                "the province {} has no revenue: a province's revenue must be above 0",
                name(l)
            ));
        }
    }
}

/// Every location has a neighbour; every location can be reached from every other across
/// borders of any kind; and every province can be reached by an army, marching across
/// open borders or carried by a fleet and landed across a coast without a reef (2.1).
fn reachable(map: &Map, out: &mut Vec<String>) {
    let all: Vec<LocId> = map
        .locations
        .iter()
        .filter(|l| {
            if l.edges.is_empty() {
                out.push(format!("{} has no neighbours", name(l)));
                false
            } else {
                true
            }
        })
        .map(|l| l.id)
        .collect();
    // Any border at all.
    let groups = components(map, &all, |_| true);
    let Some(main) = largest(&groups) else {
        return;
    };
    for g in groups.iter().filter(|g| *g != main) {
        out.push(format!(
            "{} cannot be reached from {} across any border",
            list(map, g),
            named(map, main[0])
        ));
    }
    // Armies: open borders only. Seas join each other freely, so a fleet can carry an
    // army anywhere along the coasts it can load and land on, which a reef bars (M3, M8, G7).
    let groups = components(map, main, |barrier| !barrier);
    let Some(army) = largest(&groups) else {
        return;
    };
    for g in groups.iter().filter(|g| *g != army) {
        let provinces: Vec<LocId> = g
            .iter()
            .copied()
            .filter(|id| map.get(*id).is_some_and(|l| !l.is_sea()))
            .collect();
        if !provinces.is_empty() {
            out.push(format!(
                "no army can reach {} from {}: every way in crosses a mountain or a reef",
                list(map, &provinces),
                named(map, army[0])
            ));
        }
    }
}

/// The connected groups among `within`, using the borders `usable` accepts (given whether
/// the border is a barrier); each group sorted, the groups in order of their first id.
fn components(map: &Map, within: &[LocId], usable: impl Fn(bool) -> bool) -> Vec<Vec<LocId>> {
    let inside: BTreeSet<LocId> = within.iter().copied().collect();
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for &start in &inside {
        if !seen.insert(start) {
            continue;
        }
        let mut group = vec![start];
        let mut next = vec![start];
        while let Some(id) = next.pop() {
            let Some(l) = map.get(id) else { continue };
            for e in &l.edges {
                if usable(e.barrier) && inside.contains(&e.to) && seen.insert(e.to) {
                    group.push(e.to);
                    next.push(e.to);
                }
            }
        }
        group.sort();
        out.push(group);
    }
    out
}

/// The biggest group; among equals, the first.
fn largest(groups: &[Vec<LocId>]) -> Option<&Vec<LocId>> {
    groups.iter().rev().max_by_key(|g| g.len())
}

/// "WAL (4), SCO (6)", at most eight named.
fn list(map: &Map, ids: &[LocId]) -> String {
    let mut names: Vec<String> = ids.iter().take(8).map(|id| named(map, *id)).collect();
    if ids.len() > 8 {
        names.push(format!("{} more", ids.len() - 8));
    }
    names.join(", ")
}

/// 2.6: a harbour needs a city and a coast joined to a sea without a reef.
fn harbours(map: &Map, out: &mut Vec<String>) {
    for l in map.locations.iter().filter(|l| l.harbour) {
        if l.city.is_none() {
            out.push(format!("{} has a harbour but no city", name(l)));
        }
        if !l.is_sea() && !open_coast(map, l) {
            out.push(format!(
                "{} has a harbour but no coast free of reefs",
                name(l)
            ));
        }
    }
}

/// 5.6: a city recruits at most its maximum a turn, from its build list.
fn cities(map: &Map, out: &mut Vec<String>) {
    for l in &map.locations {
        let Some(city) = &l.city else { continue };
        let who = format!("the city of {} in {}", city.name, name(l));
        if city.name.trim().is_empty() {
            out.push(format!("the city in {} has no name", name(l)));
        }
        if l.is_sea() {
            out.push(format!("{who} stands in a sea"));
        }
        if city.max_builds == 0 {
            out.push(format!(
                "{who} may build 0 troops a turn: max_builds must be above 0"
            ));
        }
        if city.builds.is_empty() {
            out.push(format!("{who} has nothing in its build list"));
        }
        let mut seen = BTreeSet::new();
        for code in &city.builds {
            if !seen.insert(code) {
                out.push(format!("{who} lists {code} twice in its build list"));
            }
        }
    }
}

/// Independents' garrisons hold at least one of each troop they list, and stand in
/// provinces.
fn garrisons(map: &Map, out: &mut Vec<String>) {
    for l in map.locations.iter().filter(|l| !l.garrison.is_empty()) {
        if l.is_sea() {
            out.push(format!("the sea {} cannot have a garrison", name(l)));
        }
        for (code, n) in &l.garrison {
            if *n == 0 {
                out.push(format!("the garrison of {} lists 0 {code}", name(l)));
            }
        }
    }
}

/// 1.1, 2.2: each kingdom starts with provinces of its own, no province belongs to two,
/// its capital is one of them and has a city; its armies stand on its land and its fleets
/// in its harbours or in a sea next to its land.
fn kingdoms(map: &Map, out: &mut Vec<String>) {
    let mut codes = BTreeSet::new();
    let mut owners: BTreeMap<LocId, Vec<String>> = BTreeMap::new();
    for k in &map.kingdoms {
        if !codes.insert(&k.code) {
            out.push(format!("kingdom {} is listed twice", k.code));
        }
        if k.provinces.is_empty() {
            out.push(format!("kingdom {} starts with no provinces", k.code));
        }
        let mut own = BTreeSet::new();
        for &p in &k.provinces {
            if !own.insert(p) {
                out.push(format!(
                    "kingdom {} lists {} twice among its provinces",
                    k.code,
                    named(map, p)
                ));
                continue;
            }
            match map.get(p) {
                Some(l) if l.is_sea() => out.push(format!(
                    "kingdom {} lists the sea {} among its provinces",
                    k.code,
                    name(l)
                )),
                Some(_) => owners.entry(p).or_default().push(k.code.to_string()),
                None => out.push(format!(
                    "kingdom {} lists {}, which is not on the map, among its provinces",
                    k.code,
                    named(map, p)
                )),
            }
        }
        if k.provinces.is_empty() {
            // Already said: with no provinces, nothing can be its capital.
        } else if !own.contains(&k.capital) {
            out.push(format!(
                "kingdom {}'s capital {} is not one of its provinces",
                k.code,
                named(map, k.capital)
            ));
        } else if map
            .get(k.capital)
            .is_some_and(|l| !l.is_sea() && l.city.is_none())
        {
            out.push(format!(
                "kingdom {}'s capital {} has no city",
                k.code,
                named(map, k.capital)
            ));
        }
        let is_own_province =
            |id: LocId| own.contains(&id) && map.get(id).is_some_and(|l| !l.is_sea());
        for (force, fleet) in forces(k) {
            let who = force_name(map, k, force, fleet);
            if force.troops.is_empty() {
                out.push(format!("{who} has no troops"));
            }
            for (code, n) in &force.troops {
                if *n == 0 {
                    out.push(format!("{who} lists 0 {code}"));
                }
            }
            let Some(at) = map.get(force.at) else {
                out.push(format!("{who} is not on the map"));
                continue;
            };
            if !fleet {
                if !is_own_province(at.id) {
                    out.push(format!(
                        "{who} does not stand on one of the kingdom's provinces"
                    ));
                }
            } else {
                let docked = is_own_province(at.id) && at.harbour;
                let offshore = at.is_sea() && at.edges.iter().any(|e| is_own_province(e.to));
                if !docked && !offshore {
                    out.push(format!(
                        "{who} is neither in one of the kingdom's harbours nor in a sea next to one of its provinces"
                    ));
                }
            }
        }
    }
    for (p, who) in owners.iter().filter(|(_, who)| who.len() > 1) {
        out.push(format!(
            "{} is a starting province of more than one kingdom ({})",
            named(map, *p),
            who.join(", ")
        ));
    }
}
