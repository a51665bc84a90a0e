//! Generated maps for benchmarks and tests, until the standard maps exist: a grid of land
//! areas with a ring of sea areas around it, and empires spread evenly over the land.

use super::{MapFile, MapFileArea, MapFileEmpire};
use crate::codes::{AreaCode, EmpireCode};
use crate::terrain::Terrain;

/// A `width` x `height` grid of land areas, each touching its four neighbours, surrounded by
/// sea areas (one per edge cell, linked in a ring), with `empires` home areas spread over
/// the grid.
pub fn grid(width: usize, height: usize, empires: usize) -> MapFile {
    let land_terrain = [
        Terrain::Plains,
        Terrain::Lowlands,
        Terrain::Forest,
        Terrain::Uplands,
        Terrain::Mountains,
        Terrain::Wetlands,
        Terrain::Desert,
        Terrain::Lowlands,
    ];
    let land = |x: usize, y: usize| code('L', y * width + x);
    let mut areas = Vec::new();
    // The sea ring: cells of the border, clockwise.
    let mut ring: Vec<(usize, usize)> = Vec::new();
    ring.extend((0..width).map(|x| (x, 0)));
    ring.extend((1..height).map(|y| (width - 1, y)));
    ring.extend((0..width - 1).rev().map(|x| (x, height - 1)));
    ring.extend((1..height - 1).rev().map(|y| (0, y)));
    for y in 0..height {
        for x in 0..width {
            let mut adjacent = Vec::new();
            if x + 1 < width {
                adjacent.push(land(x + 1, y));
            }
            if y + 1 < height {
                adjacent.push(land(x, y + 1));
            }
            areas.push(MapFileArea {
                code: land(x, y),
                name: format!("Land {x},{y}"),
                terrain: land_terrain[(x * 7 + y * 3) % land_terrain.len()],
                adjacent,
                population: Some([1, 4]),
                position: Some(place(x, y, width, height)),
                inside: None,
            });
        }
    }
    for (i, &(x, y)) in ring.iter().enumerate() {
        let next = code('S', (i + 1) % ring.len());
        areas.push(MapFileArea {
            code: code('S', i),
            name: format!("Sea {i}"),
            terrain: Terrain::Sea,
            adjacent: vec![land(x, y), next],
            population: None,
            position: Some(place(x, y, width, height)),
            inside: None,
        });
    }
    // Homes on a coarse lattice so that empires start apart.
    let cols = (empires as f64).sqrt().ceil() as usize;
    let rows = empires.div_ceil(cols);
    let mut list = Vec::new();
    for i in 0..empires {
        let (cx, cy) = (i % cols, i / cols);
        let x = (2 * cx + 1) * width / (2 * cols);
        let y = (2 * cy + 1) * height / (2 * rows);
        let a = (b'A' + (i / 26) as u8) as char;
        let b = (b'A' + (i % 26) as u8) as char;
        list.push(MapFileEmpire {
            code: EmpireCode::parse(&format!("{a}{b}")).expect("two letters"),
            name: format!("Empire {a}{b}"),
            home: land(x, y),
            start: Vec::new(),
            extra_areas: None,
            supply_capacity: None,
        });
    }
    MapFile {
        name: format!("Grid {width}x{height}"),
        variant: None,
        areas,
        empires: list,
    }
}

/// Where a cell is drawn: a grid of one degree a cell while it fits, squeezed to the
/// globe's longitudes and latitudes beyond.
fn place(x: usize, y: usize, width: usize, height: usize) -> [f64; 2] {
    let step_x = (300.0 / width as f64).min(1.0);
    let step_y = (140.0 / height as f64).min(1.0);
    [x as f64 * step_x, 70.0 - y as f64 * step_y]
}

/// Codes like `L07` or `SA3`: a letter and two base-36 digits. Past the 1,296 codes a
/// letter gives, land goes on with the letters `A` to `R` (but `L`) and sea with `T` to
/// `Z`, so a grid can have some 23,000 land areas.
fn code(prefix: char, n: usize) -> AreaCode {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let more: &[u8] = if prefix == 'S' {
        b"STUVWXYZ"
    } else {
        b"LABCDEFGHIJKMNOPQR"
    };
    let letter = more[(n / 1296).min(more.len() - 1)] as char;
    let hi = DIGITS[(n / 36) % 36] as char;
    let lo = DIGITS[n % 36] as char;
    AreaCode::parse(&format!("{letter}{hi}{lo}")).expect("well-formed code")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;

    #[test]
    fn grid_maps_load_and_every_cell_is_linked() {
        let m = Map::from_file(grid(16, 14, 28), "grid").unwrap();
        assert_eq!(m.land_count(), 16 * 14);
        assert_eq!(m.empires.len(), 28);
        let corner = m.find("L00").unwrap();
        // Two land neighbours and its sea cell.
        assert_eq!(m.neighbours(corner).len(), 3);
        assert!(m.area(corner).coastal);
    }

    #[test]
    fn a_grid_of_ten_thousand_areas_has_a_code_for_each() {
        let m = Map::from_file(grid(100, 100, 500), "grid").unwrap();
        assert_eq!(m.land_count(), 10_000);
        assert_eq!(m.empires.len(), 500);
    }
}
