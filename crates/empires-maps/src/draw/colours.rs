//! Empire colours that neighbours can tell apart.
//!
//! Colours are handed out per map, not by an empire's place in the list: empires whose start
//! areas touch get colours far apart in CIEDE2000, the colour difference that follows what
//! the eye sees, and empires a few areas apart (who soon meet) get colours far apart too where
//! the palette allows. The assignment depends on the map alone, so an empire keeps its colour
//! for the whole game.

use super::style;
use empires_rules::Map;
use empires_rules::map::AreaId;
use palette::color_difference::Ciede2000;
use palette::white_point::D65;
use palette::{FromColor, Lab, Srgb};

/// Steps between two empires' start areas within which they are likely to meet soon.
const NEAR: u32 = 3;

/// A colour difference beyond which two colours are plainly different; beyond it, the
/// assignment looks after the next pair instead.
const PLAIN: f64 = 40.0;

/// CIELAB of an sRGB colour written `#rrggbb` (D65 white); black for anything else.
pub fn lab(hex: &str) -> [f64; 3] {
    let srgb: Srgb<u8> = hex.parse().unwrap_or_default();
    let l: Lab<D65, f64> = Lab::from_color(srgb.into_format::<f64>().into_linear());
    [l.l, l.a, l.b]
}

/// The CIEDE2000 difference between two CIELAB colours (Sharma, Wu and Dalal, 2005).
pub fn ciede2000(a: [f64; 3], b: [f64; 3]) -> f64 {
    let lab = |[l, a, b]: [f64; 3]| Lab::<D65, f64>::new(l, a, b);
    lab(a).difference(lab(b))
}

/// The CIEDE2000 difference between two colours written `#rrggbb`.
pub fn difference(a: &str, b: &str) -> f64 {
    ciede2000(lab(a), lab(b))
}

/// The areas each empire of the map starts with: its home and start areas, or its home and
/// the land next to it where the map draws them at random.
fn starts(map: &Map) -> Vec<Vec<AreaId>> {
    map.empires
        .iter()
        .map(|e| {
            let mut areas = vec![e.home];
            if e.start.is_empty() {
                areas.extend(
                    map.neighbours(e.home)
                        .iter()
                        .filter(|&&b| map.area(b).is_land()),
                );
            } else {
                areas.extend(e.start.iter().copied());
            }
            areas
        })
        .collect()
}

/// How many moves apart each pair of empires' start areas are, by land and sea, capped at
/// `NEAR + 1`: 1 where their areas touch.
pub fn empire_distances(map: &Map) -> Vec<Vec<u32>> {
    let starts = starts(map);
    let n = map.areas().len();
    let owner: Vec<Option<usize>> = {
        let mut o = vec![None; n];
        for (i, areas) in starts.iter().enumerate() {
            for a in areas {
                o[a.index()].get_or_insert(i);
            }
        }
        o
    };
    let far = NEAR + 1;
    let mut out = vec![vec![far; starts.len()]; starts.len()];
    for (i, areas) in starts.iter().enumerate() {
        // Breadth first from the empire's areas, up to NEAR moves.
        let mut dist = vec![u32::MAX; n];
        let mut frontier: Vec<AreaId> = areas.clone();
        for a in areas {
            dist[a.index()] = 0;
        }
        for step in 1..=NEAR {
            let mut next = Vec::new();
            for a in frontier {
                for &b in map.neighbours(a) {
                    if dist[b.index()] == u32::MAX {
                        dist[b.index()] = step;
                        next.push(b);
                    }
                }
            }
            frontier = next;
        }
        for (a, d) in dist.iter().enumerate() {
            if let Some(j) = owner[a]
                && j != i
                && *d < out[i][j]
            {
                out[i][j] = *d;
                out[j][i] = *d;
            }
        }
        out[i][i] = 0;
    }
    out
}

/// A colour for each of the map's empires, in the map's order.
///
/// Empires are coloured most constrained first (the most neighbours, then the most near
/// ones); each takes the unused colour farthest from its neighbours', then from its near
/// empires'. Ties go to the palette's order, so the result is the same every time.
pub fn empire_colours(map: &Map) -> Vec<&'static str> {
    let n = map.empires.len();
    let dist = empire_distances(map);
    let palette = &style::EMPIRES;
    let labs: Vec<[f64; 3]> = palette.iter().map(|c| lab(c)).collect();
    let mut colour: Vec<Option<usize>> = vec![None; n];
    let count = |i: usize, max: u32| (0..n).filter(|&j| j != i && dist[i][j] <= max).count();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse((count(i, 1), count(i, NEAR))), i));
    for i in order {
        let used: Vec<usize> = colour.iter().flatten().copied().collect();
        let free: Vec<usize> = (0..palette.len()).filter(|c| !used.contains(c)).collect();
        let candidates = if free.is_empty() {
            (0..palette.len()).collect()
        } else {
            free
        };
        // The smallest difference to the coloured empires within `max` moves, capped.
        let nearest = |c: usize, max: u32| {
            (0..n)
                .filter(|&j| j != i && dist[i][j] <= max)
                .filter_map(|j| colour[j])
                .map(|k| ciede2000(labs[c], labs[k]))
                .fold(PLAIN, f64::min)
        };
        let score = |c: usize| {
            // Whole units, so that tiny differences leave the choice to the palette order.
            (
                nearest(c, 1).floor() as i64,
                nearest(c, 2).floor() as i64,
                nearest(c, NEAR).floor() as i64,
            )
        };
        let best = candidates
            .iter()
            .copied()
            .max_by_key(|&c| (score(c), std::cmp::Reverse(c)))
            .unwrap_or(0);
        colour[i] = Some(best);
    }
    colour
        .into_iter()
        .map(|c| palette[c.unwrap_or(0)])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs from Sharma, Wu and Dalal's test data for CIEDE2000.
    #[test]
    fn ciede2000_matches_the_published_test_data() {
        let cases = [
            ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
            ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
            ([50.0, 2.5, 0.0], [50.0, 3.2592, 0.335], 1.0000),
            (
                [60.2574, -34.0099, 36.2677],
                [60.4626, -34.1751, 39.4387],
                1.2644,
            ),
            (
                [22.7233, 20.0904, -46.694],
                [23.0331, 14.973, -42.5619],
                2.0373,
            ),
            ([2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082),
        ];
        for (a, b, want) in cases {
            let got = ciede2000(a, b);
            assert!((got - want).abs() < 1e-4, "{a:?} {b:?}: {got} not {want}");
        }
    }

    #[test]
    fn lab_of_white_black_and_red() {
        let close = |a: [f64; 3], b: [f64; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 0.05);
        assert!(
            close(lab("#ffffff"), [100.0, 0.0, 0.0]),
            "{:?}",
            lab("#ffffff")
        );
        assert!(close(lab("#000000"), [0.0, 0.0, 0.0]));
        assert!(
            close(lab("#ff0000"), [53.24, 80.09, 67.20]),
            "{:?}",
            lab("#ff0000")
        );
    }
}
