//! The map file format: TOML, one `[[area]]` table per area and one `[[empire]]` table per
//! start position. See `docs/formats.md`.

use super::{Area, AreaId, EmpireDef, Map, sea::SeaDistances};
use crate::codes::{AreaCode, EmpireCode};
use crate::terrain::Terrain;
use crate::variant::Variant;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

/// A map file as written by a designer.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<Variant>,
    #[serde(rename = "area", default)]
    pub areas: Vec<MapFileArea>,
    #[serde(rename = "empire", default)]
    pub empires: Vec<MapFileEmpire>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFileArea {
    pub code: AreaCode,
    #[serde(default)]
    pub name: String,
    pub terrain: Terrain,
    #[serde(default)]
    pub adjacent: Vec<AreaCode>,
    /// Starting population range of an unowned land area (12.9): `[min, max]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub population: Option<[u32; 2]>,
    /// `[longitude, latitude]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<[f64; 2]>,
    /// 4.4: a small island lying inside this sea area, reached only through it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inside: Option<AreaCode>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapFileEmpire {
    pub code: EmpireCode,
    #[serde(default)]
    pub name: String,
    pub home: AreaCode,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start: Vec<AreaCode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_areas: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supply_capacity: Option<u32>,
}

/// Why a map could not be loaded. Messages name the file, and the line or the area.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    #[error("{file}: {message}")]
    Syntax { file: String, message: String },
    #[error("{file}: {message}")]
    Invalid { file: String, message: String },
}

/// Population range used when a land area gives none.
pub const DEFAULT_POPULATION: [u32; 2] = [1, 3];

impl Map {
    /// Parses and validates a map file's text; `file` names it in messages.
    pub fn from_toml(text: &str, file: &str) -> Result<Map, MapError> {
        let parsed: MapFile = toml::from_str(text).map_err(|e| MapError::Syntax {
            file: file.to_string(),
            message: e.to_string(),
        })?;
        Map::from_file(parsed, file)
    }

    /// Validates a parsed map file.
    pub fn from_file(f: MapFile, file: &str) -> Result<Map, MapError> {
        let invalid = |message: String| MapError::Invalid {
            file: file.to_string(),
            message,
        };
        if f.areas.len() >= u16::MAX as usize {
            return Err(invalid("too many areas".into()));
        }
        let mut index = HashMap::new();
        for (i, a) in f.areas.iter().enumerate() {
            if index.insert(a.code, AreaId(i as u16)).is_some() {
                return Err(invalid(format!("area code {} is used twice", a.code)));
            }
        }
        let mut neighbours: Vec<BTreeSet<AreaId>> = vec![BTreeSet::new(); f.areas.len()];
        for (i, a) in f.areas.iter().enumerate() {
            for n in &a.adjacent {
                let Some(&j) = index.get(n) else {
                    return Err(invalid(format!(
                        "area {} lists unknown neighbour {}",
                        a.code, n
                    )));
                };
                if j.index() == i {
                    return Err(invalid(format!(
                        "area {} lists itself as a neighbour",
                        a.code
                    )));
                }
                // Adjacency is symmetric: listing it on either side is enough.
                neighbours[i].insert(j);
                neighbours[j.index()].insert(AreaId(i as u16));
            }
        }
        let mut areas = Vec::with_capacity(f.areas.len());
        for (i, a) in f.areas.iter().enumerate() {
            let nb: Vec<AreaId> = neighbours[i].iter().copied().collect();
            let coastal =
                !a.terrain.is_sea() && nb.iter().any(|n| f.areas[n.index()].terrain.is_sea());
            let pop = a.population.unwrap_or(DEFAULT_POPULATION);
            if pop[0] > pop[1] {
                return Err(invalid(format!(
                    "area {}: population range [{}, {}] runs backwards",
                    a.code, pop[0], pop[1]
                )));
            }
            if pop[1] > crate::state::MAX_COUNT {
                return Err(invalid(format!(
                    "area {}: population {} is more than the largest count allowed ({})",
                    a.code,
                    pop[1],
                    crate::state::MAX_COUNT
                )));
            }
            areas.push(Area {
                code: a.code,
                name: if a.name.is_empty() {
                    a.code.to_string()
                } else {
                    a.name.clone()
                },
                terrain: a.terrain,
                neighbours: nb,
                population: if a.terrain.is_sea() {
                    (0, 0)
                } else {
                    (pop[0], pop[1])
                },
                position: a.position.map(|p| (p[0], p[1])),
                coastal,
                inside: None,
            });
        }
        // 4.4: an island inside a sea area touches that sea area and nothing else.
        for (i, a) in f.areas.iter().enumerate() {
            let Some(sea) = a.inside else { continue };
            let s = *index
                .get(&sea)
                .ok_or_else(|| invalid(format!("area {}: inside unknown area {sea}", a.code)))?;
            if a.terrain.is_sea() || !areas[s.index()].is_sea() {
                return Err(invalid(format!(
                    "area {}: only a land area can lie inside a sea area, and {sea} must be one",
                    a.code
                )));
            }
            if areas[i].neighbours != [s] {
                return Err(invalid(format!(
                    "area {} lies inside {sea}, so {sea} must be its only neighbour",
                    a.code
                )));
            }
            areas[i].inside = Some(s);
        }
        let mut empires: Vec<EmpireDef> = Vec::new();
        for e in &f.empires {
            if empires.iter().any(|d| d.code == e.code) {
                return Err(invalid(format!("empire code {} is used twice", e.code)));
            }
            let home = *index.get(&e.home).ok_or_else(|| {
                invalid(format!("empire {}: unknown home area {}", e.code, e.home))
            })?;
            if areas[home.index()].is_sea() {
                return Err(invalid(format!(
                    "empire {}: home area {} is a sea area",
                    e.code, e.home
                )));
            }
            let mut start = Vec::new();
            for s in &e.start {
                let id = *index.get(s).ok_or_else(|| {
                    invalid(format!("empire {}: unknown start area {}", e.code, s))
                })?;
                if areas[id.index()].is_sea() {
                    return Err(invalid(format!(
                        "empire {}: start area {} is a sea area",
                        e.code, s
                    )));
                }
                start.push(id);
            }
            empires.push(EmpireDef {
                code: e.code,
                name: if e.name.is_empty() {
                    e.code.to_string()
                } else {
                    e.name.clone()
                },
                home,
                start,
                extra_areas: e.extra_areas,
                supply_capacity: e.supply_capacity,
            });
        }
        let sea = SeaDistances::new(&areas);
        let mut index: Vec<(u32, AreaId)> = index
            .into_iter()
            .map(|(c, id)| (super::code_key(c), id))
            .collect();
        index.sort();
        Ok(Map {
            name: f.name,
            variant: f.variant,
            areas,
            index,
            empires,
            sea,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"
name = "small"
[[area]]
code = "AAA"
terrain = "plains"
adjacent = ["BBB", "SEA"]
[[area]]
code = "BBB"
terrain = "forest"
[[area]]
code = "SEA"
terrain = "sea"
adjacent = ["SEB"]
[[area]]
code = "SEB"
terrain = "sea"
adjacent = ["SEC"]
[[area]]
code = "SEC"
terrain = "sea"
adjacent = ["CCC"]
[[area]]
code = "CCC"
terrain = "islands"
"#;

    #[test]
    fn adjacency_is_made_symmetric_and_coasts_found() {
        let m = Map::from_toml(SMALL, "small.toml").unwrap();
        let a = m.find("aaa").unwrap();
        let b = m.find("BBB").unwrap();
        assert!(m.adjacent(a, b) && m.adjacent(b, a));
        assert!(m.area(a).coastal);
        assert!(!m.area(b).coastal);
    }

    #[test]
    fn sea_distances_follow_rule_4_5() {
        let m = Map::from_toml(SMALL, "small.toml").unwrap();
        let s = |c| m.find(c).unwrap();
        assert_eq!(m.sea_steps(s("SEA"), s("SEA")), Some(0));
        assert_eq!(m.sea_steps(s("SEA"), s("SEB")), Some(1));
        assert_eq!(m.sea_steps(s("SEA"), s("SEC")), Some(2));
        assert_eq!(m.sea_steps(s("AAA"), s("SEC")), None);
        // From AAA by sea to CCC crosses SEA, SEB and SEC.
        assert_eq!(m.sea_crossing(s("AAA"), s("CCC")), Some(3));
        assert_eq!(m.sea_crossing(s("AAA"), s("BBB")), None);
    }

    #[test]
    fn rule_4_4_islands_inside_a_sea_touch_only_that_sea() {
        let ok = SMALL.replace(
            "code = \"CCC\"\nterrain = \"islands\"",
            "code = \"CCC\"\nterrain = \"islands\"\ninside = \"SEC\"",
        );
        let m = Map::from_toml(&ok, "m.toml").unwrap();
        let c = m.find("CCC").unwrap();
        assert_eq!(m.area(c).inside, m.find("SEC"));
        let bad = ok.replace("inside = \"SEC\"", "inside = \"SEB\"");
        let e = Map::from_toml(&bad, "m.toml").unwrap_err().to_string();
        assert!(e.contains("SEB must be its only neighbour"), "{e}");
    }

    #[test]
    fn errors_name_the_file_and_the_problem() {
        let bad = SMALL.replace("adjacent = [\"SEB\"]", "adjacent = [\"XXX\"]");
        let e = Map::from_toml(&bad, "m.toml").unwrap_err().to_string();
        assert!(
            e.contains("m.toml") && e.contains("unknown neighbour XXX"),
            "{e}"
        );
        let bad = SMALL.replace("terrain = \"forest\"", "terrain = \"swamp\"");
        let e = Map::from_toml(&bad, "m.toml").unwrap_err().to_string();
        assert!(
            e.contains("m.toml") && e.contains("line 9") && e.contains("swamp"),
            "{e}"
        );
        let bad = SMALL.replace("code = \"BBB\"", "code = \"AAA\"");
        let e = Map::from_toml(&bad, "m.toml").unwrap_err().to_string();
        assert!(e.contains("used twice"), "{e}");
    }
}
