//! The region of each area: the land mask is rasterised from the coastlines, every land
//! pixel goes to the nearest land area reachable over land and every sea pixel to the
//! nearest sea area reachable by sea, as long as no two areas that are not neighbours on
//! the map come to touch. Pixels out of every area's reach stay off the map. Borders
//! between areas are given natural wiggles by measuring distances from slightly displaced
//! pixels (a smooth noise field), the same for every area so borders stay sharp.

use super::coast;
use super::projection::Projection;
use empires_rules::Map;
use std::collections::{BTreeMap, VecDeque};
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Transform};

/// Land not in any area.
pub const OFF_LAND: u16 = 0xFFF0;
/// Sea not in any area.
pub const OFF_SEA: u16 = 0xFFF1;
/// Beyond the edge of the globe (world maps).
pub const OUTSIDE: u16 = 0xFFF2;
/// Beyond the frame, for tracing.
pub const FRAME: u16 = 0xFFFF;
const UNSET: u16 = 0xFFFE;

const GLOBE: u8 = 0;
const SEA: u8 = 1;
const LAND: u8 = 2;

/// The pixels of every area.
pub struct Regions {
    pub w: usize,
    pub h: usize,
    /// Per pixel, row by row: the area index, or one of the special labels.
    pub labels: Vec<u16>,
    /// Each area's position in pixels, if it has one.
    pub anchors: Vec<Option<(f64, f64)>>,
    /// Each area's size in pixels.
    pub pixels: Vec<u32>,
    /// Typical distance between neighbouring positions, in pixels.
    pub spacing: f64,
    /// Positions a map designer may want to look at.
    pub notes: Vec<String>,
    /// Where the drawn borders differ from the map's.
    pub borders: Vec<String>,
}

impl Regions {
    pub fn at(&self, x: i64, y: i64) -> u16 {
        if x < 0 || y < 0 || x >= self.w as i64 || y >= self.h as i64 {
            FRAME
        } else {
            self.labels[y as usize * self.w + x as usize]
        }
    }
}

/// Fills rings (pixel coordinates) with the even-odd rule, without anti-aliasing.
fn rasterise(rings: &[Vec<(f64, f64)>], w: usize, h: usize) -> Vec<bool> {
    let mut pb = PathBuilder::new();
    for r in rings.iter().filter(|r| r.len() >= 3) {
        pb.move_to(r[0].0 as f32, r[0].1 as f32);
        for p in &r[1..] {
            pb.line_to(p.0 as f32, p.1 as f32);
        }
        pb.close();
    }
    let (Some(path), Some(mut pm)) = (pb.finish(), Pixmap::new(w as u32, h as u32)) else {
        return vec![false; w * h];
    };
    let mut paint = Paint::default();
    paint.set_color_rgba8(0, 0, 0, 255);
    paint.anti_alias = false;
    pm.fill_path(
        &path,
        &paint,
        FillRule::EvenOdd,
        Transform::identity(),
        None,
    );
    pm.pixels().iter().map(|p| p.alpha() >= 128).collect()
}

fn hash(ix: i64, iy: i64, seed: u32) -> f64 {
    let mut h = (ix as u32).wrapping_mul(0x8da6_b343)
        ^ (iy as u32).wrapping_mul(0xd816_3841)
        ^ seed.wrapping_mul(0xcb1a_b31f);
    h ^= h >> 13;
    h = h.wrapping_mul(0x5bd1_e995);
    h ^= h >> 15;
    f64::from(h) / f64::from(u32::MAX) * 2.0 - 1.0
}

/// Smooth value noise in [-1, 1] with features about one unit apart.
fn noise(x: f64, y: f64, seed: u32) -> f64 {
    let (fx, fy) = (x.floor(), y.floor());
    let (ix, iy) = (fx as i64, fy as i64);
    let s = |t: f64| t * t * (3.0 - 2.0 * t);
    let (tx, ty) = (s(x - fx), s(y - fy));
    let a = hash(ix, iy, seed) + tx * (hash(ix + 1, iy, seed) - hash(ix, iy, seed));
    let b = hash(ix, iy + 1, seed) + tx * (hash(ix + 1, iy + 1, seed) - hash(ix, iy + 1, seed));
    a + ty * (b - a)
}

/// The nearest pixel of a class within `r` of `(x, y)`.
fn nearest(class: &[u8], w: usize, h: usize, at: (f64, f64), r: f64, want: u8) -> Option<usize> {
    let (cx, cy) = (at.0.floor() as i64, at.1.floor() as i64);
    let ri = r.ceil() as i64;
    let mut best: Option<(f64, usize)> = None;
    for y in (cy - ri).max(0)..=(cy + ri).min(h as i64 - 1) {
        for x in (cx - ri).max(0)..=(cx + ri).min(w as i64 - 1) {
            let i = y as usize * w + x as usize;
            if class[i] != want {
                continue;
            }
            let d = ((x as f64 + 0.5 - at.0).powi(2) + (y as f64 + 0.5 - at.1).powi(2)).sqrt();
            if d <= r && best.is_none_or(|b| d < b.0) {
                best = Some((d, i));
            }
        }
    }
    best.map(|b| b.1)
}

/// The regions of a map's areas in a frame of the projection's size. `px` is the size of
/// one output pixel in frame pixels.
pub fn build(map: &Map, proj: &Projection, px: f64) -> Regions {
    let (w, h) = (proj.width as usize, proj.height as usize);
    let land = rasterise(&coast::projected(proj), w, h);
    let globe = rasterise(&[proj.outline()], w, h);
    let mut class: Vec<u8> = (0..w * h)
        .map(|i| match (globe[i], land[i]) {
            (false, _) => GLOBE,
            (true, false) => SEA,
            (true, true) => LAND,
        })
        .collect();
    let n = map.areas().len();
    let mut notes = Vec::new();
    let anchors: Vec<Option<(f64, f64)>> = map
        .areas()
        .iter()
        .map(|a| {
            a.position
                .map(|(lon, lat)| proj.project(proj.wrap(lon), lat))
        })
        .collect();
    let spacing = typical_spacing(&anchors).max(8.0 * px);

    // Seeds: land areas on land (a small island where the coastlines have none), sea areas
    // at sea.
    let mut seeds: Vec<Option<usize>> = vec![None; n];
    // Areas off the canvas (of an inset) are not drawn on it.
    let on_canvas =
        |at: (f64, f64)| at.0 >= 0.0 && at.1 >= 0.0 && at.0 < w as f64 && at.1 < h as f64;
    for (i, a) in map.areas().iter().enumerate() {
        let Some(at) = anchors[i] else {
            notes.push(format!(
                "{} ({}) has no position and is not drawn",
                a.code, a.name
            ));
            continue;
        };
        if a.is_sea() || !on_canvas(at) {
            continue;
        }
        if let Some(p) = nearest(&class, w, h, at, 5.0 * px, LAND) {
            seeds[i] = Some(p);
            continue;
        }
        let r = (4.0 * px).min(spacing * 0.3);
        let (cx, cy) = (at.0, at.1);
        for y in
            ((cy - r).floor().max(0.0) as usize)..=((cy + r).ceil().max(0.0) as usize).min(h - 1)
        {
            for x in ((cx - r).floor().max(0.0) as usize)
                ..=((cx + r).ceil().max(0.0) as usize).min(w - 1)
            {
                let d = ((x as f64 + 0.5 - cx).powi(2) + (y as f64 + 0.5 - cy).powi(2)).sqrt();
                if d <= r && class[y * w + x] != GLOBE {
                    class[y * w + x] = LAND;
                }
            }
        }
        seeds[i] = nearest(&class, w, h, at, r + 1.0, LAND);
        notes.push(format!(
            "{} ({}): no land at its position in the coastline data; drawn as a small island",
            a.code, a.name
        ));
    }
    for (i, a) in map.areas().iter().enumerate() {
        let Some(at) = anchors[i] else { continue };
        if !a.is_sea() || !on_canvas(at) {
            continue;
        }
        seeds[i] = nearest(&class, w, h, at, 3.0 * px, SEA);
        if seeds[i].is_none() {
            seeds[i] = nearest(&class, w, h, at, spacing.max(20.0 * px), SEA);
            notes.push(format!(
                "{} ({}): its position is on land; the sea area is drawn from the nearest sea",
                a.code, a.name
            ));
        }
    }

    // How far each area may reach: a land area a little beyond the midpoints to its
    // neighbours, a sea area a little beyond its farthest neighbour. Land beyond every
    // area's reach is off the map.
    let reach: Vec<f64> = (0..n)
        .map(|i| {
            let Some(a) = anchors[i] else { return 0.0 };
            let area = &map.areas()[i];
            let far = |land_only: bool| {
                area.neighbours
                    .iter()
                    .filter(|b| !land_only || map.area(**b).is_land())
                    .filter_map(|b| anchors[b.index()])
                    .map(|b| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt())
                    .fold(0.0, f64::max)
            };
            let r = if area.is_sea() {
                far(false) * 1.1
            } else {
                (far(true) * 0.9).max(far(false) * 0.6)
            };
            if r == 0.0 {
                spacing * 1.5
            } else {
                r.max(6.0 * px)
            }
        })
        .collect();

    // The displacement field that makes borders wiggle.
    let wave = spacing * 0.7;
    let amp = spacing * 0.12;
    let mut warp = vec![(0f32, 0f32); w * h];
    for y in 0..h {
        for x in 0..w {
            let (u, v) = (x as f64 / wave, y as f64 / wave);
            let dx = noise(u, v, 1) + 0.45 * noise(u * 2.7, v * 2.7, 3);
            let dy = noise(u, v, 2) + 0.45 * noise(u * 2.7, v * 2.7, 4);
            warp[y * w + x] = ((dx * amp) as f32, (dy * amp) as f32);
        }
    }

    // The land is grown once to see where each land area meets the coast; then the seas,
    // each keeping off a coast it does not border if another sea can take it; then the land
    // again, each land area giving up a stretch of coast on a sea it does not border to a
    // neighbour that does.
    let grown = Grow {
        spacing,
        class: &class,
        w,
        h,
        anchors: &anchors,
        reach: &reach,
        warp: &warp,
        px,
        map,
    };
    let of_kind = |kind: u8| -> Vec<Option<usize>> {
        seeds
            .iter()
            .zip(map.areas())
            .map(|(s, a)| s.filter(|_| a.is_sea() == (kind == SEA)))
            .collect()
    };
    let mut land = vec![UNSET; w * h];
    grown.run(&of_kind(LAND), &mut land, None);
    let mut labels = vec![UNSET; w * h];
    grown.run(&of_kind(SEA), &mut labels, Some(&land));
    drop(land);
    grown.run(&of_kind(LAND), &mut labels, None);
    fill_specks(&class, w, h, &mut labels, (6.0 * px * px) as usize, map);
    claim_islands(&class, w, h, &mut labels, map, &anchors, &reach);
    for (l, c) in labels.iter_mut().zip(&class) {
        if *l == UNSET {
            *l = match *c {
                LAND => OFF_LAND,
                SEA => OFF_SEA,
                _ => OUTSIDE,
            };
        }
    }
    let mut pixels = vec![0u32; n];
    for &l in &labels {
        if (l as usize) < n {
            pixels[l as usize] += 1;
        }
    }
    let mut r = Regions {
        w,
        h,
        labels,
        anchors,
        pixels,
        spacing,
        notes,
        borders: Vec::new(),
    };
    border_notes(map, &mut r, px);
    r
}

/// The median distance from each position to the nearest other one.
fn typical_spacing(anchors: &[Option<(f64, f64)>]) -> f64 {
    let pts: Vec<(f64, f64)> = anchors.iter().flatten().copied().collect();
    let mut near: Vec<f64> = pts
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            pts.iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, b)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt())
                .filter(|d| *d > 0.0)
                .min_by(f64::total_cmp)
        })
        .collect();
    if near.is_empty() {
        return 50.0;
    }
    near.sort_by(f64::total_cmp);
    near[near.len() / 2]
}

/// What area growth works on.
struct Grow<'a> {
    spacing: f64,
    class: &'a [u8],
    w: usize,
    h: usize,
    anchors: &'a [Option<(f64, f64)>],
    reach: &'a [f64],
    warp: &'a [(f32, f32)],
    px: f64,
    map: &'a Map,
}

impl Grow<'_> {
    /// Grows every area of `seeds` over pixels of its own kind (land or sea), nearest
    /// first, as far as its reach. An area never takes a pixel touching an area that is
    /// not its neighbour on the map, so that the drawing's borders follow the map's; such
    /// a pixel is left to the areas around it that border everything it touches, or to
    /// nobody. A first round also keeps areas off coasts (judged by the areas of the other
    /// kind in `label`, or in `hint` when given) whose area across is not a neighbour; a
    /// second round lets anyone that may take what is left.
    fn run(&self, seeds: &[Option<usize>], label: &mut Vec<u16>, hint: Option<&[u16]>) {
        let Grow {
            spacing: _,
            class,
            w,
            h,
            anchors,
            reach,
            warp,
            px,
            map,
        } = *self;
        let n = w * h;
        let areas = map.areas().len();
        let mut adjacent = vec![false; areas * areas];
        for id in map.ids() {
            adjacent[id.index() * areas + id.index()] = true;
            for b in map.neighbours(id) {
                adjacent[id.index() * areas + b.index()] = true;
            }
        }
        let kind: Vec<u8> = map
            .areas()
            .iter()
            .map(|a| if a.is_sea() { SEA } else { LAND })
            .collect();
        let mut g = Growth {
            label: std::mem::take(label),
            tent: vec![UNSET; n],
            refused: vec![UNSET; n],
            best: vec![f32::INFINITY; n],
            buckets: vec![Vec::new()],
            step: 0.5 * px as f32,
            cur: 0,
        };
        let mut seed_of = vec![UNSET; n];
        for (i, s) in seeds.iter().enumerate() {
            if let Some(p) = *s
                && g.tent[p] == UNSET
            {
                g.tent[p] = i as u16;
                g.best[p] = 0.0;
                seed_of[p] = i as u16;
                g.buckets[0].push((p as u32, i as u16));
            }
        }
        // Land pixels near the coast, with the sea area they face: a land area stays off a
        // coast on a sea it does not border, if a neighbour can take that coast instead.
        let band = (0.08 * self.spacing).max(2.0 * px) as u32;
        let coast = coasts(class, w, h, hint.unwrap_or(&g.label), band);
        let fits = |label: &[u16], q: usize, s: u16, soft: bool| {
            let c = coast[q];
            g4(q, w, h).all(|p| {
                let t = label[p];
                t == UNSET || adjacent[s as usize * areas + t as usize]
            }) && (!soft || c == UNSET || adjacent[s as usize * areas + c as usize])
        };
        let distance = |r: usize, s: u16| {
            let at = anchors[s as usize]?;
            let (wx, wy) = warp[r];
            let ex = (r % w) as f64 + 0.5 + f64::from(wx) - at.0;
            let ey = (r / w) as f64 + 0.5 + f64::from(wy) - at.1;
            let d = (ex * ex + ey * ey).sqrt();
            (d <= reach[s as usize]).then_some(d as f32)
        };
        for soft in [true, false] {
            if !soft {
                // Second round: what is left goes to whoever can take it.
                g.cur = 0;
                g.refused.fill(UNSET);
                for (q, &c) in class.iter().enumerate() {
                    if g.label[q] != UNSET || c == GLOBE {
                        continue;
                    }
                    for p in g8(q, w, h) {
                        let u = g.label[p];
                        if u != UNSET
                            && kind[u as usize] == c
                            && let Some(d) = distance(q, u)
                        {
                            g.offer(q, u, d);
                        }
                    }
                }
            }
            while g.cur < g.buckets.len() {
                while let Some((q, s)) = g.buckets[g.cur].pop() {
                    let q = q as usize;
                    if g.label[q] != UNSET || g.tent[q] != s {
                        continue;
                    }
                    if seed_of[q] != s && !fits(&g.label, q, s, soft) {
                        // Offer the pixel to the areas around it that border everything it
                        // touches.
                        g.refused[q] = s;
                        g.tent[q] = UNSET;
                        g.best[q] = f32::INFINITY;
                        let around: Vec<u16> = g8(q, w, h).map(|p| g.label[p]).collect();
                        for u in around {
                            if u != UNSET
                                && u != s
                                && kind[u as usize] == class[q]
                                && g.refused[q] != u
                                && fits(&g.label, q, u, soft)
                                && let Some(d) = distance(q, u)
                            {
                                g.offer(q, u, d);
                            }
                        }
                        continue;
                    }
                    g.label[q] = s;
                    let k = kind[s as usize];
                    // Diagonal steps only in the second round, to squeeze through what the
                    // first left.
                    let around: &mut dyn Iterator<Item = usize> = if soft {
                        &mut g4(q, w, h)
                    } else {
                        &mut g8(q, w, h)
                    };
                    for r in around {
                        if g.label[r] == UNSET
                            && class[r] == k
                            && g.refused[r] != s
                            && let Some(d) = distance(r, s)
                        {
                            g.offer(r, s, d);
                        }
                    }
                }
                g.cur += 1;
            }
        }
        *label = g.label;
    }
}

struct Growth {
    label: Vec<u16>,
    /// The area a pixel is promised to, at distance `best`.
    tent: Vec<u16>,
    /// The last area refused a pixel.
    refused: Vec<u16>,
    best: Vec<f32>,
    /// A bucket queue by distance.
    buckets: Vec<Vec<(u32, u16)>>,
    step: f32,
    cur: usize,
}

impl Growth {
    fn offer(&mut self, r: usize, s: u16, d: f32) {
        if d < self.best[r] {
            self.best[r] = d;
            self.tent[r] = s;
            let b = ((d / self.step) as usize).max(self.cur);
            if b >= self.buckets.len() {
                self.buckets.resize_with(b + 1, Vec::new);
            }
            self.buckets[b].push((r as u32, s));
        }
    }
}

/// The eight pixels around pixel `q`.
fn g8(q: usize, w: usize, h: usize) -> impl Iterator<Item = usize> {
    let (x, y) = ((q % w) as i64, (q / w) as i64);
    [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ]
    .into_iter()
    .map(move |(dx, dy)| (x + dx, y + dy))
    .filter(move |&(x, y)| x >= 0 && y >= 0 && x < w as i64 && y < h as i64)
    .map(move |(x, y)| y as usize * w + x as usize)
}

/// For pixels within `band` steps of a coast, the nearest area across it.
fn coasts(class: &[u8], w: usize, h: usize, label: &[u16], band: u32) -> Vec<u16> {
    let mut coast = vec![UNSET; w * h];
    let mut depth = vec![u32::MAX; w * h];
    let mut queue = VecDeque::new();
    for q in 0..w * h {
        if class[q] == GLOBE || label[q] == UNSET {
            continue;
        }
        for p in g4(q, w, h) {
            if class[p] != GLOBE && class[p] != class[q] && depth[p] == u32::MAX {
                depth[p] = 1;
                coast[p] = label[q];
                queue.push_back(p);
            }
        }
    }
    while let Some(q) = queue.pop_front() {
        if depth[q] >= band {
            continue;
        }
        for p in g4(q, w, h) {
            if class[p] == class[q] && depth[p] == u32::MAX {
                depth[p] = depth[q] + 1;
                coast[p] = coast[q];
                queue.push_back(p);
            }
        }
    }
    coast
}

/// The pixels left, right, above and below pixel `q`.
fn g4(q: usize, w: usize, h: usize) -> impl Iterator<Item = usize> {
    let (x, y) = (q % w, q / w);
    [
        (x > 0).then(|| q - 1),
        (x + 1 < w).then(|| q + 1),
        (y > 0).then(|| q - w),
        (y + 1 < h).then(|| q + w),
    ]
    .into_iter()
    .flatten()
}

/// Specks of a few pixels that no area could take go to the area around them that borders
/// every area they touch.
fn fill_specks(class: &[u8], w: usize, h: usize, labels: &mut [u16], max: usize, map: &Map) {
    let mut seen = vec![false; w * h];
    for start in 0..w * h {
        if seen[start] || labels[start] != UNSET || class[start] == GLOBE {
            continue;
        }
        let mut comp = vec![start];
        seen[start] = true;
        let mut i = 0;
        let mut around: BTreeMap<u16, usize> = BTreeMap::new();
        while i < comp.len() {
            let q = comp[i];
            i += 1;
            for p in g4(q, w, h) {
                if labels[p] == UNSET {
                    if !seen[p] && class[p] == class[start] {
                        seen[p] = true;
                        comp.push(p);
                    }
                } else {
                    *around.entry(labels[p]).or_default() += 1;
                }
            }
        }
        if comp.len() > max {
            continue;
        }
        let kind = |l: u16| {
            if map.areas()[l as usize].is_sea() {
                SEA
            } else {
                LAND
            }
        };
        let fits = |l: u16| {
            around.keys().all(|&t| {
                t == l || map.adjacent(empires_rules::map::AreaId(l), empires_rules::map::AreaId(t))
            })
        };
        let best = around
            .iter()
            .filter(|(l, _)| kind(**l) == class[start] && fits(**l))
            .max_by_key(|(l, c)| (**c, std::cmp::Reverse(**l)));
        if let Some((&l, _)) = best {
            for &q in &comp {
                labels[q] = l;
            }
        }
    }
}

/// Islands no area grew into go to the nearest land area near enough that borders every
/// sea area around them.
fn claim_islands(
    class: &[u8],
    w: usize,
    h: usize,
    labels: &mut [u16],
    map: &Map,
    anchors: &[Option<(f64, f64)>],
    reach: &[f64],
) {
    let mut seen = vec![false; w * h];
    let land_areas: Vec<(usize, (f64, f64))> = map
        .areas()
        .iter()
        .enumerate()
        .filter(|(_, a)| a.is_land())
        .filter_map(|(i, _)| anchors[i].map(|p| (i, p)))
        .collect();
    for start in 0..w * h {
        if seen[start] || class[start] != LAND || labels[start] != UNSET {
            continue;
        }
        let mut comp = Vec::new();
        let mut touches = false;
        let mut seas: Vec<u16> = Vec::new();
        let mut queue = VecDeque::from([start]);
        seen[start] = true;
        while let Some(q) = queue.pop_front() {
            comp.push(q);
            let (qx, qy) = ((q % w) as i64, (q / w) as i64);
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (x, y) = (qx + dx, qy + dy);
                if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
                    continue;
                }
                let r = y as usize * w + x as usize;
                if class[r] != LAND {
                    if labels[r] != UNSET && !seas.contains(&labels[r]) {
                        seas.push(labels[r]);
                    }
                    continue;
                }
                if labels[r] != UNSET {
                    touches = true;
                } else if !seen[r] {
                    seen[r] = true;
                    queue.push_back(r);
                }
            }
        }
        if touches {
            continue;
        }
        let (mut x0, mut x1, mut y0, mut y1) = (w, 0, h, 0);
        for &q in &comp {
            x0 = x0.min(q % w);
            x1 = x1.max(q % w);
            y0 = y0.min(q / w);
            y1 = y1.max(q / w);
        }
        let mut best: Option<(f64, usize)> = None;
        for &(i, (ax, ay)) in &land_areas {
            let id = empires_rules::map::AreaId(i as u16);
            if !seas
                .iter()
                .all(|&s| map.adjacent(id, empires_rules::map::AreaId(s)))
            {
                continue;
            }
            // A lower bound from the island's bounding box first.
            let bx = (x0 as f64 - ax).max(ax - (x1 + 1) as f64).max(0.0);
            let by = (y0 as f64 - ay).max(ay - (y1 + 1) as f64).max(0.0);
            let lower = (bx * bx + by * by).sqrt();
            if lower > reach[i] || best.is_some_and(|b| lower >= b.0) {
                continue;
            }
            let d = comp
                .iter()
                .map(|&q| {
                    let (x, y) = ((q % w) as f64 + 0.5, (q / w) as f64 + 0.5);
                    ((x - ax).powi(2) + (y - ay).powi(2)).sqrt()
                })
                .fold(f64::MAX, f64::min);
            if d <= reach[i] && best.is_none_or(|b| d < b.0) {
                best = Some((d, i));
            }
        }
        if let Some((_, i)) = best {
            for &q in &comp {
                labels[q] = i as u16;
            }
        }
    }
}

/// Notes where the drawing's borders differ from the map's: neighbours whose regions do
/// not touch, and regions that touch along a border but are not neighbours. Both usually
/// mean a position is off.
fn border_notes(map: &Map, r: &mut Regions, px: f64) {
    let n = map.areas().len();
    let mut touch: BTreeMap<(u16, u16), u32> = BTreeMap::new();
    for y in 0..r.h {
        for x in 0..r.w {
            let a = r.labels[y * r.w + x];
            for b in [r.at(x as i64 + 1, y as i64), r.at(x as i64, y as i64 + 1)] {
                if a != b && (a as usize) < n && (b as usize) < n {
                    *touch.entry((a.min(b), a.max(b))).or_default() += 1;
                }
            }
        }
    }
    for id in map.ids() {
        for &b in map.neighbours(id) {
            if id < b
                && r.anchors[id.index()].is_some()
                && r.anchors[b.index()].is_some()
                && !touch.contains_key(&(id.0, b.0))
            {
                r.borders.push(format!(
                    "{} and {} are neighbours on the map but their regions do not touch",
                    map.code(id),
                    map.code(b)
                ));
            }
        }
    }
    for (&(a, b), &len) in &touch {
        let (ia, ib) = (empires_rules::map::AreaId(a), empires_rules::map::AreaId(b));
        if !map.adjacent(ia, ib) && f64::from(len) >= 4.0 * px {
            r.borders.push(format!(
                "{} and {} share a border in the drawing but are not neighbours on the map",
                map.code(ia),
                map.code(ib)
            ));
        }
    }
}
