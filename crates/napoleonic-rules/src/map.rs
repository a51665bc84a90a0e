//! The map as data (digest 2.1): provinces and seas with numbered ids and short codes,
//! borders that are passable or barred (mountains between provinces, reefs on a coast),
//! each province's revenue, city, build list, harbour and starting fortification, and the
//! kingdoms' starting lands and forces. Loaded from TOML and checked once; shared read-only.

use crate::fixed::Gold;
use crate::ids::{KingdomCode, LocId, TroopCode};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LocKind {
    Province,
    Sea,
}

/// A border to a neighbouring location. `barrier` is a mountain range between two
/// provinces, or a reef between a sea and a province: armies never march across the first,
/// fleets never load, unload or dock across the second. Seas never bar each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edge {
    pub to: LocId,
    pub barrier: bool,
}

/// A population centre: where troops are recruited, what it can recruit, and how many a
/// turn ("equal to the maximum resource value for the city").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct City {
    pub name: String,
    pub builds: Vec<TroopCode>,
    pub max_builds: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Location {
    pub id: LocId,
    pub code: String,
    pub name: String,
    pub kind: LocKind,
    /// Longitude and latitude, for drawing.
    pub position: [f64; 2],
    /// Sorted by neighbour.
    pub edges: Vec<Edge>,
    /// Provinces: the maximum revenue, which is also the cost of annexing it.
    pub revenue: Gold,
    pub city: Option<City>,
    pub harbour: bool,
    /// The fortification level at the start of the game.
    pub fortification: u8,
    /// Troops the independents keep here at the start when no kingdom starts with it.
    pub garrison: Vec<(TroopCode, u32)>,
}

impl Location {
    pub fn is_sea(&self) -> bool {
        self.kind == LocKind::Sea
    }

    pub fn edge(&self, to: LocId) -> Option<Edge> {
        self.edges
            .binary_search_by_key(&to, |e| e.to)
            .ok()
            .map(|i| self.edges[i])
    }
}

/// A force a kingdom starts with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartForce {
    pub at: LocId,
    pub troops: Vec<(TroopCode, u32)>,
    pub leaders: u32,
}

/// A kingdom's starting position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KingdomStart {
    pub code: KingdomCode,
    pub name: String,
    pub capital: LocId,
    pub provinces: Vec<LocId>,
    pub treasury: Gold,
    pub armies: Vec<StartForce>,
    pub fleets: Vec<StartForce>,
}

/// A loaded, checked map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Map {
    pub name: String,
    /// Sorted by id.
    pub locations: Vec<Location>,
    pub kingdoms: Vec<KingdomStart>,
}

impl Map {
    pub fn get(&self, id: LocId) -> Option<&Location> {
        self.locations
            .binary_search_by_key(&id, |l| l.id)
            .ok()
            .map(|i| &self.locations[i])
    }

    /// The location with this id. Ids in a game's state all come from its map, so a
    /// missing one is a broken invariant, reported rather than guessed at.
    pub fn loc(&self, id: LocId) -> &Location {
        self.get(id)
            .unwrap_or_else(|| panic!("location {id} is not on the map"))
    }

    /// A location by its code or its number, as players write them.
    pub fn find(&self, text: &str) -> Option<&Location> {
        let t = text.trim();
        if let Ok(n) = t.parse::<u16>() {
            return self.get(LocId(n));
        }
        self.locations
            .iter()
            .find(|l| l.code.eq_ignore_ascii_case(t))
    }

    pub fn provinces(&self) -> impl Iterator<Item = &Location> {
        self.locations.iter().filter(|l| !l.is_sea())
    }

    pub fn seas(&self) -> impl Iterator<Item = &Location> {
        self.locations.iter().filter(|l| l.is_sea())
    }

    pub fn kingdom(&self, code: &KingdomCode) -> Option<&KingdomStart> {
        self.kingdoms.iter().find(|k| &k.code == code)
    }

    /// Whether a province touches a sea over a coast without a reef (a harbour is useful
    /// only there, digest 2.6).
    pub fn has_open_coast(&self, id: LocId) -> bool {
        self.loc(id)
            .edges
            .iter()
            .any(|e| !e.barrier && self.loc(e.to).is_sea())
    }

    /// Reads and checks a map written in the TOML map format (`docs/napoleonic/maps.md`).
    pub fn parse(text: &str) -> Result<Map, Vec<String>> {
        let de = toml::Deserializer::parse(text).map_err(|e| vec![e.to_string()])?;
        let file: file::MapFile = serde_path_to_error::deserialize(de)
            .map_err(|e| vec![format!("{}: {}", e.path(), e.inner())])?;
        file::build(file)
    }
}

/// The file format, and turning it into a checked [`Map`].
mod file {
    use super::*;
    use crate::fixed::Fixed;

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct MapFile {
        name: String,
        #[serde(default)]
        province: Vec<ProvinceEntry>,
        #[serde(default)]
        sea: Vec<SeaEntry>,
        #[serde(default)]
        kingdom: Vec<KingdomEntry>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct ProvinceEntry {
        id: u16,
        code: String,
        name: String,
        position: [f64; 2],
        revenue: u32,
        #[serde(default)]
        adjacent: Vec<String>,
        #[serde(default)]
        barriers: Vec<String>,
        city: Option<City>,
        #[serde(default)]
        harbour: bool,
        #[serde(default)]
        fort: u8,
        #[serde(default)]
        garrison: Vec<(String, u32)>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct SeaEntry {
        id: u16,
        code: String,
        name: String,
        position: [f64; 2],
        #[serde(default)]
        adjacent: Vec<String>,
        #[serde(default)]
        barriers: Vec<String>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct KingdomEntry {
        code: String,
        name: String,
        capital: String,
        provinces: Vec<String>,
        #[serde(default)]
        treasury: u32,
        #[serde(default)]
        army: Vec<ForceEntry>,
        #[serde(default)]
        fleet: Vec<ForceEntry>,
    }

    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct ForceEntry {
        at: String,
        troops: Vec<(String, u32)>,
        #[serde(default)]
        leaders: u32,
    }

    pub fn build(file: MapFile) -> Result<Map, Vec<String>> {
        let mut errors = Vec::new();
        let mut codes: BTreeMap<String, LocId> = BTreeMap::new();
        let mut ids = BTreeSet::new();
        let mut note = |id: u16, code: &str, errors: &mut Vec<String>| {
            if !ids.insert(id) || id == 0 {
                errors.push(format!("location number {id} is used twice (or is 0)"));
            }
            if code.len() < 2
                || code.len() > 4
                || !code
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            {
                errors.push(format!(
                    "location {id}: a code is 2 to 4 capitals, not {code:?}"
                ));
            }
            if codes.insert(code.to_string(), LocId(id)).is_some() {
                errors.push(format!("location code {code} is used twice"));
            }
        };
        for p in &file.province {
            note(p.id, &p.code, &mut errors);
        }
        for s in &file.sea {
            note(s.id, &s.code, &mut errors);
        }
        let resolve = |who: &str, code: &str, errors: &mut Vec<String>| -> Option<LocId> {
            let id = codes.get(code).copied();
            if id.is_none() {
                errors.push(format!("{who}: no location has the code {code:?}"));
            }
            id
        };
        let edges_of = |who: &str,
                        adjacent: &[String],
                        barriers: &[String],
                        errors: &mut Vec<String>|
         -> Vec<Edge> {
            let mut edges: Vec<Edge> = Vec::new();
            for (list, barrier) in [(adjacent, false), (barriers, true)] {
                for c in list {
                    if let Some(to) = resolve(who, c, errors) {
                        if edges.iter().any(|e| e.to == to) {
                            errors.push(format!("{who}: {c} is listed twice as a neighbour"));
                        } else {
                            edges.push(Edge { to, barrier });
                        }
                    }
                }
            }
            edges.sort_by_key(|e| e.to);
            edges
        };
        let mut locations = Vec::new();
        for p in file.province {
            let who = format!("province {} ({})", p.code, p.id);
            let edges = edges_of(&who, &p.adjacent, &p.barriers, &mut errors);
            let garrison = p
                .garrison
                .into_iter()
                .map(|(c, n)| (TroopCode(c), n))
                .collect();
            locations.push(Location {
                id: LocId(p.id),
                code: p.code,
                name: p.name,
                kind: LocKind::Province,
                position: p.position,
                edges,
                revenue: Fixed::whole(i64::from(p.revenue)),
                city: p.city,
                harbour: p.harbour,
                fortification: p.fort,
                garrison,
            });
        }
        for s in file.sea {
            let who = format!("sea {} ({})", s.code, s.id);
            let edges = edges_of(&who, &s.adjacent, &s.barriers, &mut errors);
            locations.push(Location {
                id: LocId(s.id),
                code: s.code,
                name: s.name,
                kind: LocKind::Sea,
                position: s.position,
                edges,
                revenue: Gold::ZERO,
                city: None,
                harbour: false,
                fortification: 0,
                garrison: Vec::new(),
            });
        }
        locations.sort_by_key(|l| l.id);
        let mut kingdoms = Vec::new();
        for k in file.kingdom {
            let code = match KingdomCode::new(&k.code) {
                Ok(c) if !c.is_independent() => c,
                Ok(_) => {
                    errors.push("IND is the independents' code, not a kingdom's".to_string());
                    continue;
                }
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            let who = format!("kingdom {code}");
            let capital = resolve(&who, &k.capital, &mut errors).unwrap_or(LocId(0));
            let provinces: Vec<LocId> = k
                .provinces
                .iter()
                .filter_map(|c| resolve(&who, c, &mut errors))
                .collect();
            let forces = |list: Vec<ForceEntry>, errors: &mut Vec<String>| -> Vec<StartForce> {
                list.into_iter()
                    .filter_map(|f| {
                        Some(StartForce {
                            at: resolve(&who, &f.at, errors)?,
                            troops: f
                                .troops
                                .into_iter()
                                .map(|(c, n)| (TroopCode(c), n))
                                .collect(),
                            leaders: f.leaders,
                        })
                    })
                    .collect()
            };
            let armies = forces(k.army, &mut errors);
            let fleets = forces(k.fleet, &mut errors);
            kingdoms.push(KingdomStart {
                code,
                name: k.name,
                capital,
                provinces,
                treasury: Fixed::whole(i64::from(k.treasury)),
                armies,
                fleets,
            });
        }
        let map = Map {
            name: file.name,
            locations,
            kingdoms,
        };
        errors.extend(crate::mapcheck::problems(&map));
        if errors.is_empty() {
            Ok(map)
        } else {
            Err(errors)
        }
    }
}
