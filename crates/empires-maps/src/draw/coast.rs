//! The coastlines: Natural Earth land polygons at 1:50 million, embedded from
//! `data/land-50m.txt` (see `data/README.md` for their source and licence).

use super::projection::Projection;
use std::sync::OnceLock;

const DATA: &str = include_str!("../../data/land-50m.txt");

/// One polygon ring in degrees, with its longitude range.
pub struct Ring {
    pub points: Vec<(f64, f64)>,
    pub lon_min: f64,
    pub lon_max: f64,
}

/// Every ring of the data file, parsed once.
pub fn rings() -> &'static [Ring] {
    static RINGS: OnceLock<Vec<Ring>> = OnceLock::new();
    RINGS.get_or_init(|| parse(DATA))
}

/// Parses the data file: per line, a first point and then differences, in hundredths of a
/// degree. Malformed lines are skipped (the file is generated, and checked by a test).
fn parse(text: &str) -> Vec<Ring> {
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let nums: Result<Vec<i32>, _> = line.split_ascii_whitespace().map(str::parse).collect();
        let Ok(nums) = nums else { continue };
        if nums.len() < 6 || nums.len() % 2 != 0 {
            continue;
        }
        let (mut x, mut y) = (0, 0);
        let mut points = Vec::with_capacity(nums.len() / 2);
        for pair in nums.chunks_exact(2) {
            x += pair[0];
            y += pair[1];
            points.push((f64::from(x) / 100.0, f64::from(y) / 100.0));
        }
        let (lon_min, lon_max) = points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
            (lo.min(p.0), hi.max(p.0))
        });
        out.push(Ring {
            points,
            lon_min,
            lon_max,
        });
    }
    out
}

/// The land rings as pixel rings for a projection: each ring is taken as it is and a
/// turn east and west, clipped to the projection's longitudes `lon0 ± 180`.
pub fn projected(p: &Projection) -> Vec<Vec<(f64, f64)>> {
    let (west, east) = (p.lon0 - 180.0, p.lon0 + 180.0);
    let mut out = Vec::new();
    for ring in rings() {
        for shift in [-360.0, 0.0, 360.0] {
            let (lo, hi) = (ring.lon_min + shift, ring.lon_max + shift);
            if hi <= west || lo >= east {
                continue;
            }
            let mut pts: Vec<(f64, f64)> =
                ring.points.iter().map(|&(x, y)| (x + shift, y)).collect();
            if lo < west {
                pts = clip(&pts, west, true);
            }
            if hi > east {
                pts = clip(&pts, east, false);
            }
            if pts.len() >= 3 {
                out.push(pts.iter().map(|&(x, y)| p.project(x, y)).collect());
            }
        }
    }
    out
}

/// Sutherland-Hodgman: the part of a ring east of `lon` (or west of it).
fn clip(ring: &[(f64, f64)], lon: f64, keep_east: bool) -> Vec<(f64, f64)> {
    let inside = |p: (f64, f64)| if keep_east { p.0 >= lon } else { p.0 <= lon };
    let mut out = Vec::new();
    for (i, &b) in ring.iter().enumerate() {
        let a = ring[(i + ring.len() - 1) % ring.len()];
        let cross = || {
            let t = (lon - a.0) / (b.0 - a.0);
            (lon, a.1 + t * (b.1 - a.1))
        };
        match (inside(a), inside(b)) {
            (true, true) => out.push(b),
            (true, false) => out.push(cross()),
            (false, true) => {
                out.push(cross());
                out.push(b);
            }
            (false, false) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_parses_whole() {
        let lines = DATA
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(rings().len(), lines);
        assert!(rings().len() > 1000);
        for r in rings() {
            assert!(r.lon_min >= -360.0 && r.lon_max <= 360.0);
        }
    }

    #[test]
    fn clipping_keeps_one_side() {
        let square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)];
        let east = clip(&square, 4.0, true);
        assert!(east.iter().all(|p| p.0 >= 4.0));
        assert_eq!(east.len(), 4);
    }
}
