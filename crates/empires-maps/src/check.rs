//! `empires map check`: everything a map designer wants caught before a game starts on a
//! map. Errors make a map unusable; warnings point at likely slips.

use empires_rules::map::{AreaId, EmpireDef, MapFile};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::words::count;
use empires_rules::{Map, Variant};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;

/// One finding, naming the areas or empires concerned.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub error: bool,
    pub message: String,
}

/// The result of checking a map.
#[derive(Debug, Clone, Default)]
pub struct MapReport {
    pub file: String,
    pub findings: Vec<Finding>,
    pub land: usize,
    pub sea: usize,
    pub empires: usize,
    pub variant: Option<Variant>,
}

impl MapReport {
    pub fn errors(&self) -> usize {
        self.findings.iter().filter(|f| f.error).count()
    }

    pub fn warnings(&self) -> usize {
        self.findings.len() - self.errors()
    }

    fn error(&mut self, m: String) {
        self.findings.push(Finding {
            error: true,
            message: m,
        });
    }

    fn warn(&mut self, m: String) {
        self.findings.push(Finding {
            error: false,
            message: m,
        });
    }
}

impl fmt::Display for MapReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for x in &self.findings {
            let kind = if x.error { "error" } else { "warning" };
            writeln!(f, "{}: {kind}: {}", self.file, x.message)?;
        }
        let variant = self.variant.map_or("no variant".to_string(), |v| {
            format!("{} Empires", v.title())
        });
        write!(
            f,
            "{}: {}, {}, {} ({variant}): {}, {}",
            self.file,
            count(self.land as u32, "land area"),
            count(self.sea as u32, "sea area"),
            count(self.empires as u32, "empire"),
            count(self.errors() as u32, "error"),
            count(self.warnings() as u32, "warning")
        )
    }
}

/// How many empires each standard variant has (12.1, 12.3, 12.4, 12.5).
fn usual_empires(v: Variant) -> usize {
    match v {
        Variant::World => 28,
        Variant::Medieval => 30,
        Variant::European => 24,
        Variant::Australian => 12,
    }
}

/// Checks a map file's text. `variant` overrides the map's own for the start-area checks.
pub fn check_map(text: &str, file: &str, variant: Option<Variant>) -> MapReport {
    let mut r = MapReport {
        file: file.to_string(),
        ..MapReport::default()
    };
    let map = match Map::from_toml(text, file) {
        Ok(m) => m,
        Err(e) => {
            // The loader's message already names the file.
            let msg = e.to_string();
            let msg = msg.strip_prefix(&format!("{file}: ")).unwrap_or(&msg);
            r.error(msg.to_string());
            return r;
        }
    };
    let raw: Option<MapFile> = toml::from_str(text).ok();
    r.variant = variant.or(map.variant);
    r.land = map.land_count();
    r.sea = map.areas().len() - r.land;
    r.empires = map.empires.len();
    if let Some(raw) = &raw {
        one_sided_borders(raw, &mut r);
    }
    reachability(&map, &mut r);
    areas(&map, &mut r);
    let v = r.variant.unwrap_or(Variant::World);
    if !map.empires.is_empty() && map.empires.len() != usual_empires(v) {
        r.warn(format!(
            "{}, where {} Empires usually has {} (section 12)",
            count(map.empires.len() as u32, "empire"),
            v.title(),
            usual_empires(v)
        ));
    }
    start_areas(&map, v, &mut r);
    enough_land(&map, v, &mut r);
    r.findings
        .sort_by(|a, b| b.error.cmp(&a.error).then(a.message.cmp(&b.message)));
    r
}

/// Borders listed on one side only: legal, but easy to get wrong.
fn one_sided_borders(raw: &MapFile, r: &mut MapReport) {
    let listed: BTreeSet<(String, String)> = raw
        .areas
        .iter()
        .flat_map(|a| {
            a.adjacent
                .iter()
                .map(move |n| (a.code.to_string(), n.to_string()))
        })
        .collect();
    for (a, b) in &listed {
        if !listed.contains(&(b.clone(), a.clone())) {
            r.warn(format!(
                "{a} lists {b} as a neighbour but {b} does not list {a}"
            ));
        }
    }
}

/// Every area reachable from every other by land and sea moves.
fn reachability(map: &Map, r: &mut MapReport) {
    let n = map.areas().len();
    if n == 0 {
        r.error("the map has no areas".into());
        return;
    }
    let mut seen = vec![false; n];
    let mut queue = VecDeque::from([AreaId(0)]);
    seen[0] = true;
    while let Some(a) = queue.pop_front() {
        for &b in map.neighbours(a) {
            if !seen[b.index()] {
                seen[b.index()] = true;
                queue.push_back(b);
            }
        }
    }
    let lost: Vec<String> = map
        .ids()
        .filter(|a| !seen[a.index()])
        .map(|a| map.code(a).to_string())
        .collect();
    if !lost.is_empty() {
        r.error(format!(
            "{} cannot be reached from {}: {}",
            if lost.len() == 1 {
                "this area"
            } else {
                "these areas"
            },
            map.code(AreaId(0)),
            lost.join(", ")
        ));
    }
}

/// Checks of single areas.
fn areas(map: &Map, r: &mut MapReport) {
    let mut names: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for id in map.ids() {
        let a = map.area(id);
        let code = a.code.to_string();
        if !code.chars().all(|c| c.is_ascii_uppercase()) {
            r.warn(format!(
                "{code}: codes of the standard maps are three letters"
            ));
        }
        if a.name == code {
            r.warn(format!("{code} has no name"));
        }
        names.entry(a.name.clone()).or_default().push(code.clone());
        if a.position.is_none() {
            r.warn(format!("{code} has no position, so it cannot be drawn"));
        }
        if a.neighbours.is_empty() {
            r.error(format!("{code} has no neighbours"));
        }
        if a.is_sea() {
            let seas = a
                .neighbours
                .iter()
                .filter(|n| map.area(**n).is_sea())
                .count();
            if seas == 0 {
                r.warn(format!(
                    "sea area {code} touches no other sea area: ships there are trapped"
                ));
            }
        } else {
            if a.population.1 == 0 {
                r.warn(format!(
                    "{code} never starts with population (range [0, 0])"
                ));
            }
            let lands = a
                .neighbours
                .iter()
                .filter(|n| map.area(**n).is_land())
                .count();
            if lands == 0 && !a.coastal {
                r.error(format!("land area {code} touches neither land nor sea"));
            }
        }
    }
    for (name, codes) in names {
        if codes.len() > 1 {
            r.warn(format!("{} share the name {name:?}", codes.join(" and ")));
        }
    }
}

/// 12.6: every home area can receive its initial areas, and no two empires share one.
fn start_areas(map: &Map, v: Variant, r: &mut MapReport) {
    let homes: BTreeSet<AreaId> = map.empires.iter().map(|e| e.home).collect();
    let mut taken: BTreeMap<AreaId, String> = BTreeMap::new();
    for e in &map.empires {
        if let Some(other) = taken.insert(e.home, e.code.to_string()) {
            r.error(format!(
                "{} and {other} both have home {}",
                e.code,
                map.code(e.home)
            ));
        }
    }
    for e in &map.empires {
        let (near, further) = match v {
            Variant::World => (2usize, 2usize),
            _ => (2, 0),
        };
        let wanted = e.extra_areas.map_or(near + further, |n| n as usize);
        if e.start.is_empty() {
            free_neighbours(map, e, &homes, wanted, near, r);
            continue;
        }
        if e.start.len() != wanted && !(v == Variant::European && e.start.len() < wanted) {
            r.error(format!(
                "{} starts with {} areas besides {}, but {} Empires gives {wanted} (12.6)",
                e.code,
                e.start.len(),
                map.code(e.home),
                v.title()
            ));
        }
        let mut chosen = vec![e.home];
        for (i, &a) in e.start.iter().enumerate() {
            let code = map.code(a);
            // World: the first two touch home, the rest any of the first three.
            let around = if i < near { 1 } else { 3 };
            if !chosen.iter().take(around).any(|&c| map.adjacent(c, a)) {
                r.error(format!(
                    "{}: start area {code} is not next to {} (12.6)",
                    e.code,
                    if around == 1 {
                        "the home area".to_string()
                    } else {
                        "the home area or its first two areas".to_string()
                    }
                ));
            }
            if homes.contains(&a) {
                r.error(format!(
                    "{}: start area {code} is another empire's home",
                    e.code
                ));
            }
            if let Some(other) = taken.insert(a, e.code.to_string())
                && other != e.code.as_str()
            {
                r.error(format!(
                    "{code} is a start area of both {other} and {}",
                    e.code
                ));
            }
            chosen.push(a);
        }
    }
}

/// With no `start` list, there must be enough free land next to home for the draw.
fn free_neighbours(
    map: &Map,
    e: &EmpireDef,
    homes: &BTreeSet<AreaId>,
    wanted: usize,
    near: usize,
    r: &mut MapReport,
) {
    let free = map
        .neighbours(e.home)
        .iter()
        .filter(|&&n| map.area(n).is_land() && !homes.contains(&n))
        .count();
    if free < near.min(wanted) {
        r.error(format!(
            "{}: home {} has only {free} free land neighbours for its {} initial areas (12.6)",
            e.code,
            map.code(e.home),
            near.min(wanted)
        ));
    }
}

/// How many starting draws [`enough_land`] tries.
const DRAWS: u64 = 32;

/// 12.6: enough free land for every empire's initial areas at once, not only around each
/// home by itself: empires drawing from the same land can leave a later one short. The
/// draws themselves are made as a game's setup makes them, with the seeds 1 to [`DRAWS`];
/// an empire left short in any is named. European Empires gives "up to two" areas, so
/// there a short draw is a warning; elsewhere it is an error.
fn enough_land(map: &Map, v: Variant, r: &mut MapReport) {
    if map.empires.is_empty() {
        return;
    }
    // An empire the map gives its initial areas gets those (checked by `start_areas`);
    // the others draw theirs.
    let wanted = |e: &EmpireDef| match (e.start.len(), e.extra_areas, v) {
        (n, _, _) if n > 0 => n,
        (_, Some(n), _) => n as usize,
        (_, None, Variant::World) => 4,
        (_, None, _) => 2,
    };
    let homes: BTreeSet<AreaId> = map.empires.iter().map(|e| e.home).collect();
    let free = map
        .ids()
        .filter(|&a| map.area(a).is_land() && !homes.contains(&a))
        .count();
    let need: usize = map.empires.iter().map(wanted).sum();
    if free < need {
        r.error(format!(
            "{free} land areas besides the homes, for the {need} initial areas of {} (12.6)",
            count(map.empires.len() as u32, "empire")
        ));
    }
    // Empires left short, with how many draws and the first seed that did it.
    let mut short: BTreeMap<usize, (u64, u64, usize)> = BTreeMap::new();
    for seed in 1..=DRAWS {
        let Ok(st) = new_game(map, &NewGame::without_players("check", v, seed)) else {
            return;
        };
        for (i, e) in map.empires.iter().enumerate() {
            let got = st.owned_by(e.code).count().saturating_sub(1);
            if got < wanted(e) {
                let s = short.entry(i).or_insert((0, seed, got));
                s.0 += 1;
            }
        }
    }
    for (i, (times, seed, got)) in short {
        let e = &map.empires[i];
        let msg = format!(
            "{} is left short of land in {times} of {DRAWS} starting draws (with seed {seed}: {} besides {} instead of {}); neighbouring empires take the free land first (12.6)",
            e.code,
            count(got as u32, "area"),
            map.code(e.home),
            wanted(e)
        );
        if v == Variant::European {
            r.warn(msg);
        } else {
            r.error(msg);
        }
    }
}
