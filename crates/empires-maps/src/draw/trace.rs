//! Boundary tracing: the borders between regions of a label grid become chains of pixel
//! corners running from one junction (where three regions meet) to the next. Each chain is
//! simplified once (Douglas-Peucker) and shared by the regions on both sides, so that
//! neighbouring regions keep meeting without gaps or overlaps after simplification.

use super::regions::Regions;
use std::collections::{BTreeMap, HashMap};

/// A border between two regions, with `left` on its left going from start to end (y down,
/// so "left" is counter-clockwise for a region drawn on screen).
pub struct Chain {
    pub points: Vec<(f64, f64)>,
    pub left: u16,
    pub right: u16,
    start: usize,
    end: usize,
}

/// A closed ring: chains in order, each forwards (`true`) or backwards.
pub type Ring = Vec<(u32, bool)>;

pub struct Traced {
    pub chains: Vec<Chain>,
    /// The rings of each region, its outer boundaries and holes alike.
    pub rings: BTreeMap<u16, Vec<Ring>>,
}

impl Traced {
    /// The points of a ring, closing point left out.
    pub fn ring_points(&self, ring: &Ring) -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        for &(i, fwd) in ring {
            let pts = &self.chains[i as usize].points;
            if fwd {
                out.extend_from_slice(&pts[..pts.len() - 1]);
            } else {
                out.extend(pts[1..].iter().rev());
            }
        }
        out
    }
}

const STEP: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

struct Grid<'a> {
    r: &'a Regions,
    cw: usize,
}

impl Grid<'_> {
    fn xy(&self, c: usize) -> (i64, i64) {
        ((c % self.cw) as i64, (c / self.cw) as i64)
    }

    /// The regions left and right of the edge leaving corner `c` in direction `d`.
    fn sides(&self, c: usize, d: usize) -> (u16, u16) {
        let (x, y) = self.xy(c);
        let r = self.r;
        match d {
            0 => (r.at(x, y - 1), r.at(x, y)),
            1 => (r.at(x, y), r.at(x - 1, y)),
            2 => (r.at(x - 1, y), r.at(x - 1, y - 1)),
            _ => (r.at(x - 1, y - 1), r.at(x, y - 1)),
        }
    }

    fn border(&self, c: usize, d: usize) -> bool {
        let (x, y) = self.xy(c);
        let (nx, ny) = (x + STEP[d].0, y + STEP[d].1);
        if nx < 0 || ny < 0 || nx as usize >= self.cw || ny as usize > self.r.h {
            return false;
        }
        let (l, r) = self.sides(c, d);
        l != r
    }

    fn next(&self, c: usize, d: usize) -> usize {
        let (x, y) = self.xy(c);
        (y + STEP[d].1) as usize * self.cw + (x + STEP[d].0) as usize
    }

    fn degree(&self, c: usize) -> usize {
        (0..4).filter(|&d| self.border(c, d)).count()
    }

    /// Index of the edge leaving `c` in direction `d`, counted once for both ends.
    fn edge(&self, c: usize, d: usize) -> usize {
        match d {
            0 => c * 2,
            1 => c * 2 + 1,
            2 => (c - 1) * 2,
            _ => (c - self.cw) * 2 + 1,
        }
    }
}

/// Traces every border of the grid and the rings of every region in `wanted`, simplified
/// with tolerance `eps` pixels.
pub fn trace(r: &Regions, wanted: impl Fn(u16) -> bool, eps: f64) -> Traced {
    let cw = r.w + 1;
    let g = Grid { r, cw };
    let corners = cw * (r.h + 1);
    let mut node = vec![false; corners];
    for (c, n) in node.iter_mut().enumerate() {
        *n = g.degree(c) >= 3;
    }
    let mut visited = vec![false; corners * 2];
    let mut chains: Vec<Chain> = Vec::new();
    let mut starts: HashMap<(usize, usize), (u32, bool)> = HashMap::new();

    for c in 0..corners {
        if node[c] {
            for d in 0..4 {
                if g.border(c, d) && !visited[g.edge(c, d)] {
                    walk(&g, c, d, &node, &mut visited, &mut starts, &mut chains, eps);
                }
            }
        }
    }
    // Borders with no junction on them are closed loops: start them anywhere.
    for c in 0..corners {
        for d in 0..2 {
            if g.border(c, d) && !visited[g.edge(c, d)] {
                node[c] = true;
                walk(&g, c, d, &node, &mut visited, &mut starts, &mut chains, eps);
            }
        }
    }

    // Directed chains with each wanted region on their left.
    let mut by_region: BTreeMap<u16, Vec<(u32, bool)>> = BTreeMap::new();
    for (i, ch) in chains.iter().enumerate() {
        if wanted(ch.left) {
            by_region.entry(ch.left).or_default().push((i as u32, true));
        }
        if wanted(ch.right) {
            by_region
                .entry(ch.right)
                .or_default()
                .push((i as u32, false));
        }
    }
    let mut rings: BTreeMap<u16, Vec<Ring>> = BTreeMap::new();
    let mut used: HashMap<(u32, bool), bool> = HashMap::new();
    for (&label, list) in &by_region {
        for &first in list {
            if used.contains_key(&first) {
                continue;
            }
            let ends = |(i, fwd): (u32, bool)| {
                let ch = &chains[i as usize];
                if fwd {
                    (ch.start, ch.end)
                } else {
                    (ch.end, ch.start)
                }
            };
            let origin = ends(first).0;
            let mut ring = Vec::new();
            let mut cur = first;
            loop {
                used.insert(cur, true);
                ring.push(cur);
                let at = ends(cur).1;
                if at == origin {
                    break;
                }
                let next = (0..4)
                    .filter(|&d| g.border(at, d) && g.sides(at, d).0 == label)
                    .filter_map(|d| starts.get(&(at, d)).copied())
                    .find(|k| !used.contains_key(k));
                match next {
                    Some(k) => cur = k,
                    None => break,
                }
            }
            rings.entry(label).or_default().push(ring);
        }
    }
    Traced { chains, rings }
}

/// Follows a border from junction `c0` in direction `d0` to the next junction.
#[allow(clippy::too_many_arguments)]
fn walk(
    g: &Grid,
    c0: usize,
    d0: usize,
    node: &[bool],
    visited: &mut [bool],
    starts: &mut HashMap<(usize, usize), (u32, bool)>,
    chains: &mut Vec<Chain>,
    eps: f64,
) {
    let (left, right) = g.sides(c0, d0);
    let mut pts = vec![g.xy(c0)];
    let (mut c, mut d) = (c0, d0);
    loop {
        visited[g.edge(c, d)] = true;
        c = g.next(c, d);
        pts.push(g.xy(c));
        if node[c] {
            break;
        }
        let back = (d + 2) % 4;
        match (0..4).find(|&e| e != back && g.border(c, e)) {
            Some(e) => d = e,
            None => break,
        }
    }
    let i = chains.len() as u32;
    starts.insert((c0, d0), (i, true));
    starts.insert((c, (d + 2) % 4), (i, false));
    chains.push(Chain {
        points: simplify(&pts, eps),
        left,
        right,
        start: c0,
        end: c,
    });
}

/// Drops corners on straight runs, then simplifies with Douglas-Peucker, keeping the end
/// points. A closed chain keeps at least a triangle.
fn simplify(pts: &[(i64, i64)], eps: f64) -> Vec<(f64, f64)> {
    let mut run: Vec<(f64, f64)> = Vec::with_capacity(pts.len());
    for (i, &p) in pts.iter().enumerate() {
        if i > 0 && i + 1 < pts.len() {
            let (a, b) = (pts[i - 1], pts[i + 1]);
            if (p.0 - a.0) * (b.1 - p.1) == (p.1 - a.1) * (b.0 - p.0) {
                continue;
            }
        }
        run.push((p.0 as f64, p.1 as f64));
    }
    let closed = pts.len() > 2 && pts[0] == pts[pts.len() - 1];
    if closed {
        // Split at the corner farthest from the start and simplify both halves.
        let o = run[0];
        let far = (1..run.len() - 1)
            .max_by(|&i, &j| {
                dist2(run[i], o)
                    .total_cmp(&dist2(run[j], o))
                    .then(j.cmp(&i))
            })
            .unwrap_or(1);
        let mut a = douglas_peucker(&run[..=far], eps);
        let b = douglas_peucker(&run[far..], eps);
        a.extend_from_slice(&b[1..]);
        if a.len() < 4 && run.len() >= 4 {
            // Keep a triangle: add the corner farthest from the line start-far.
            let extra = (1..run.len() - 1).filter(|&i| i != far).max_by(|&i, &j| {
                seg_dist(run[i], o, run[far])
                    .total_cmp(&seg_dist(run[j], o, run[far]))
                    .then(j.cmp(&i))
            });
            if let Some(e) = extra {
                let mut v = vec![o];
                if e < far {
                    v.extend([run[e], run[far]]);
                } else {
                    v.extend([run[far], run[e]]);
                }
                v.push(o);
                return v;
            }
        }
        return a;
    }
    douglas_peucker(&run, eps)
}

fn dist2(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)
}

/// Distance from `p` to the segment `a`-`b`.
fn seg_dist(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let l2 = dist2(a, b);
    if l2 == 0.0 {
        return dist2(p, a).sqrt();
    }
    let t = (((p.0 - a.0) * (b.0 - a.0) + (p.1 - a.1) * (b.1 - a.1)) / l2).clamp(0.0, 1.0);
    dist2(p, (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))).sqrt()
}

fn douglas_peucker(pts: &[(f64, f64)], eps: f64) -> Vec<(f64, f64)> {
    if pts.len() <= 2 {
        return pts.to_vec();
    }
    let mut keep = vec![false; pts.len()];
    keep[0] = true;
    keep[pts.len() - 1] = true;
    let mut stack = vec![(0, pts.len() - 1)];
    while let Some((a, b)) = stack.pop() {
        let mut far = (0.0, 0);
        for i in a + 1..b {
            let d = seg_dist(pts[i], pts[a], pts[b]);
            if d > far.0 {
                far = (d, i);
            }
        }
        if far.0 > eps {
            keep[far.1] = true;
            stack.push((a, far.1));
            stack.push((far.1, b));
        }
    }
    pts.iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(p, _)| *p)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn regions(w: usize, h: usize, labels: Vec<u16>) -> Regions {
        Regions {
            w,
            h,
            labels,
            anchors: vec![],
            pixels: vec![],
            spacing: 1.0,
            notes: vec![],
            borders: vec![],
        }
    }

    /// Twice the signed area of a ring.
    fn area(pts: &[(f64, f64)]) -> f64 {
        (0..pts.len())
            .map(|i| {
                let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum()
    }

    #[test]
    fn rings_cover_each_region() {
        // 0 0 1
        // 0 2 1
        // 0 0 1
        let r = regions(3, 3, vec![0, 0, 1, 0, 2, 1, 0, 0, 1]);
        let t = trace(&r, |l| l < 3, 0.0);
        let total = |l: u16| -> f64 {
            t.rings[&l]
                .iter()
                .map(|ring| area(&t.ring_points(ring)))
                .sum::<f64>()
                .abs()
                / 2.0
        };
        assert_eq!(total(0), 5.0);
        assert_eq!(total(1), 3.0);
        assert_eq!(total(2), 1.0);
    }

    #[test]
    fn a_region_with_a_hole() {
        let mut labels = vec![0u16; 25];
        labels[12] = 1;
        let r = regions(5, 5, labels);
        let t = trace(&r, |l| l < 2, 0.0);
        assert_eq!(t.rings[&0].len(), 2);
        let net: f64 = t.rings[&0].iter().map(|g| area(&t.ring_points(g))).sum();
        assert_eq!(net.abs() / 2.0, 24.0);
    }
}
