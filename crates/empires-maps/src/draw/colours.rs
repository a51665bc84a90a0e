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

/// Steps between two empires' start areas within which they are likely to meet soon.
const NEAR: u32 = 3;

/// A colour difference beyond which two colours are plainly different; beyond it, the
/// assignment looks after the next pair instead.
const PLAIN: f64 = 40.0;

/// CIELAB of an sRGB colour written `#rrggbb` (D65 white).
pub fn lab(hex: &str) -> [f64; 3] {
    let h = hex.trim_start_matches('#');
    let channel = |i: usize| {
        let c =
            f64::from(u8::from_str_radix(h.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0)) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let (r, g, b) = (channel(0), channel(2), channel(4));
    let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / 0.950_47;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175_0 * b;
    let z = (0.019_333_9 * r + 0.119_192_0 * g + 0.950_304_1 * b) / 1.088_83;
    let f = |t: f64| {
        if t > 216.0 / 24389.0 {
            t.cbrt()
        } else {
            (24389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// The CIEDE2000 difference between two CIELAB colours (Sharma, Wu and Dalal, 2005).
pub fn ciede2000(a: [f64; 3], b: [f64; 3]) -> f64 {
    let [l1, a1, b1] = a;
    let [l2, a2, b2] = b;
    let p7 = |c: f64| c.powi(7);
    let c_mean = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
    let g = 0.5 * (1.0 - (p7(c_mean) / (p7(c_mean) + p7(25.0))).sqrt());
    let (a1, a2) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1, c2) = (a1.hypot(b1), a2.hypot(b2));
    let hue = |b: f64, a: f64| {
        if a == 0.0 && b == 0.0 {
            0.0
        } else {
            b.atan2(a).to_degrees().rem_euclid(360.0)
        }
    };
    let (h1, h2) = (hue(b1, a1), hue(b2, a2));
    let dl = l2 - l1;
    let dc = c2 - c1;
    let dh = if c1 * c2 == 0.0 {
        0.0
    } else if (h2 - h1).abs() <= 180.0 {
        h2 - h1
    } else if h2 - h1 > 180.0 {
        h2 - h1 - 360.0
    } else {
        h2 - h1 + 360.0
    };
    let dhh = 2.0 * (c1 * c2).sqrt() * (dh / 2.0).to_radians().sin();
    let l_mean = (l1 + l2) / 2.0;
    let c_mean = (c1 + c2) / 2.0;
    let h_mean = if c1 * c2 == 0.0 {
        h1 + h2
    } else if (h1 - h2).abs() <= 180.0 {
        (h1 + h2) / 2.0
    } else if h1 + h2 < 360.0 {
        (h1 + h2 + 360.0) / 2.0
    } else {
        (h1 + h2 - 360.0) / 2.0
    };
    let cos = |d: f64| d.to_radians().cos();
    let t =
        1.0 - 0.17 * cos(h_mean - 30.0) + 0.24 * cos(2.0 * h_mean) + 0.32 * cos(3.0 * h_mean + 6.0)
            - 0.20 * cos(4.0 * h_mean - 63.0);
    let d_theta = 30.0 * (-((h_mean - 275.0) / 25.0).powi(2)).exp();
    let rc = 2.0 * (p7(c_mean) / (p7(c_mean) + p7(25.0))).sqrt();
    let sl = 1.0 + 0.015 * (l_mean - 50.0).powi(2) / (20.0 + (l_mean - 50.0).powi(2)).sqrt();
    let sc = 1.0 + 0.045 * c_mean;
    let sh = 1.0 + 0.015 * c_mean * t;
    let rt = -(2.0 * d_theta).to_radians().sin() * rc;
    let (x, y, z) = (dl / sl, dc / sc, dhh / sh);
    (x * x + y * y + z * z + rt * y * z).sqrt()
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
