//! The map: areas, terrain, adjacency and the empires' home areas (section 4, section 12).
//!
//! A [`Map`] is loaded once, validated, and then shared read-only by every turn. Areas are
//! addressed internally by [`AreaId`] (their position in the file); the game state refers to
//! them by [`AreaCode`].

mod file;
pub mod generate;
mod sea;

pub use file::{MapError, MapFile, MapFileArea, MapFileEmpire};

use crate::codes::{AreaCode, EmpireCode};
use crate::terrain::Terrain;
use crate::variant::Variant;

/// Index of an area in its map.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AreaId(pub u16);

impl AreaId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One area of the map.
#[derive(Debug, Clone)]
pub struct Area {
    pub code: AreaCode,
    pub name: String,
    pub terrain: Terrain,
    /// Every area that touches this one, land or sea, sorted by id.
    pub neighbours: Vec<AreaId>,
    /// Land areas: the range the starting population of an unowned area is drawn from (12.9).
    pub population: (u32, u32),
    /// Longitude and latitude, for drawing only.
    pub position: Option<(f64, f64)>,
    /// Land areas touching at least one sea area.
    pub coastal: bool,
    /// 4.4: the sea area a small island lies inside, if it is not on a sea's edge.
    pub inside: Option<AreaId>,
}

impl Area {
    pub fn is_sea(&self) -> bool {
        self.terrain.is_sea()
    }
    pub fn is_land(&self) -> bool {
        !self.is_sea()
    }
}

/// A start position: the empire and where it begins (12.1-12.6).
#[derive(Debug, Clone)]
pub struct EmpireDef {
    pub code: EmpireCode,
    pub name: String,
    pub home: AreaId,
    /// Initial areas named by the map designer; when empty they are drawn at game start.
    pub start: Vec<AreaId>,
    /// How many initial areas besides the home area (12.6); `None` means the variant's rule.
    pub extra_areas: Option<u32>,
    /// European Empires supply capacity (S.10); `None` means the decision's table.
    pub supply_capacity: Option<u32>,
}

/// A validated map.
#[derive(Debug, Clone)]
pub struct Map {
    pub name: String,
    pub variant: Option<Variant>,
    areas: Vec<Area>,
    /// Every area's code (as a number, see [`code_key`]) and index, sorted: codes are looked
    /// up everywhere, and a binary search over a few hundred numbers beats hashing them.
    index: Vec<(u32, AreaId)>,
    pub empires: Vec<EmpireDef>,
    sea: sea::SeaDistances,
}

/// An area code as a number that sorts as the code does.
pub(crate) fn code_key(code: AreaCode) -> u32 {
    code.as_str()
        .bytes()
        .fold(0, |key, b| (key << 8) | u32::from(b))
}

impl Map {
    pub fn areas(&self) -> &[Area] {
        &self.areas
    }

    pub fn ids(&self) -> impl Iterator<Item = AreaId> + '_ {
        (0..self.areas.len()).map(|i| AreaId(i as u16))
    }

    pub fn area(&self, id: AreaId) -> &Area {
        &self.areas[id.index()]
    }

    pub fn id(&self, code: AreaCode) -> Option<AreaId> {
        let i = self
            .index
            .binary_search_by_key(&code_key(code), |&(c, _)| c)
            .ok()?;
        Some(self.index[i].1)
    }

    pub fn code(&self, id: AreaId) -> AreaCode {
        self.areas[id.index()].code
    }

    /// Looks up a code written by a player, in any case.
    pub fn find(&self, text: &str) -> Option<AreaId> {
        AreaCode::parse(text).ok().and_then(|c| self.id(c))
    }

    pub fn adjacent(&self, a: AreaId, b: AreaId) -> bool {
        self.areas[a.index()].neighbours.binary_search(&b).is_ok()
    }

    pub fn neighbours(&self, a: AreaId) -> &[AreaId] {
        &self.areas[a.index()].neighbours
    }

    pub fn land_count(&self) -> usize {
        self.areas.iter().filter(|a| a.is_land()).count()
    }

    /// 4.5: the number of sea areas strictly between two sea areas, counted along the
    /// shortest sea route, i.e. the number of steps from one to the other; `None` when no
    /// route by sea exists or either area is land.
    pub fn sea_steps(&self, from: AreaId, to: AreaId) -> Option<u32> {
        self.sea.steps(from, to)
    }

    /// 9.2 SKIP: the fewest sea areas crossed going from one land area to another by sea.
    pub fn sea_crossing(&self, from: AreaId, to: AreaId) -> Option<u32> {
        let mut best: Option<u32> = None;
        for &s in self.neighbours(from) {
            if !self.area(s).is_sea() {
                continue;
            }
            for &t in self.neighbours(to) {
                if !self.area(t).is_sea() {
                    continue;
                }
                if let Some(d) = self.sea_steps(s, t) {
                    let crossed = d + 1;
                    best = Some(best.map_or(crossed, |b: u32| b.min(crossed)));
                }
            }
        }
        best
    }

    pub fn empire(&self, code: EmpireCode) -> Option<&EmpireDef> {
        self.empires.iter().find(|e| e.code == code)
    }
}
