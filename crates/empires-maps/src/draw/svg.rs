//! Writing the drawing as SVG: off-map land and sea, the areas (paths with the area codes
//! as ids), hatching over what a viewer cannot see, graticule, borders, labels, home
//! markers, forces, title and legend.

use super::projection::Projection;
use super::regions::{FRAME, OFF_LAND, OFF_SEA, OUTSIDE, Regions};
use super::style::{self, Sizes};
use super::taken::Taken;
use super::trace::Traced;
use empires_rules::Map;
use empires_rules::map::AreaId;
use std::fmt::Write;

/// One map frame: the main map, or the enlarged inset of a crowded part of it.
pub struct Panel {
    pub regions: Regions,
    pub traced: Traced,
    pub proj: Projection,
    /// Frame pixels of canvas beyond the visible frame on every side.
    pub pad: f64,
    /// Label and badge sizes in this frame.
    pub sizes: Sizes,
}

/// A map's frames placed on the page: what the map's own layer is drawn from.
pub struct Scene<'a> {
    pub map: &'a Map,
    pub main: &'a Panel,
    pub inset: Option<&'a Panel>,
    /// The part of the main map the inset enlarges, in its frame pixels.
    pub inset_box: Option<[f64; 4]>,
    /// Frame pixels per output pixel.
    pub ss: f64,
    pub width: f64,
    /// Sizes of the page: title, legend, margins.
    pub sizes: Sizes,
    pub graticule: bool,
    /// Labels for a page that zooms: the codes' size in the whole drawing (see
    /// [`super::DrawOptions::zoom_label`]).
    pub zoom_label: Option<f64>,
}

/// A number with at most one decimal, without a trailing ".0".
pub fn num(v: f64) -> String {
    let mut s = String::with_capacity(8);
    tenths(&mut s, (v * 10.0).round() as i64);
    s
}

/// Writes a number given in tenths, with at most one decimal and no trailing ".0"; integer
/// arithmetic, for it is written some thousands of times per drawing.
pub(super) fn tenths(d: &mut String, t: i64) {
    let mut digits = itoa::Buffer::new();
    if t % 10 == 0 {
        d.push_str(digits.format(t / 10));
    } else {
        if t < 0 {
            d.push('-');
        }
        d.push_str(digits.format(t.unsigned_abs() / 10));
        d.push('.');
        d.push(char::from(b'0' + (t.unsigned_abs() % 10) as u8));
    }
}

/// Writes path data compactly: the first point of each run absolute (`M`), the rest as
/// relative steps (`l`), each number rounded to a tenth; about half the size of absolute
/// coordinates, which matters with a map in every player's report.
pub(super) struct PathData<'s> {
    d: &'s mut String,
    /// The last point written, in tenths of a pixel.
    at: Option<(i64, i64)>,
    /// In a run of relative steps, so `l` need not be repeated.
    relative: bool,
}

impl<'s> PathData<'s> {
    pub(super) fn new(d: &'s mut String) -> PathData<'s> {
        PathData {
            d,
            at: None,
            relative: false,
        }
    }

    fn tenths(v: f64) -> i64 {
        (v * 10.0).round() as i64
    }

    fn number(d: &mut String, t: i64) {
        // A minus sign separates numbers by itself.
        if t >= 0 && !d.ends_with(['M', 'l']) {
            d.push(' ');
        }
        tenths(d, t);
    }

    /// Starts a new run at `(x, y)`.
    pub(super) fn move_to(&mut self, x: f64, y: f64) {
        let p = (Self::tenths(x), Self::tenths(y));
        self.d.push('M');
        Self::number(self.d, p.0);
        Self::number(self.d, p.1);
        self.at = Some(p);
        self.relative = false;
    }

    /// Continues the run to `(x, y)`.
    pub(super) fn line_to(&mut self, x: f64, y: f64) {
        let p = (Self::tenths(x), Self::tenths(y));
        let Some(from) = self.at else {
            return self.move_to(x, y);
        };
        if p == from {
            return;
        }
        if !self.relative {
            self.d.push('l');
            self.relative = true;
        }
        Self::number(self.d, p.0 - from.0);
        Self::number(self.d, p.1 - from.1);
        self.at = Some(p);
    }

    pub(super) fn close(&mut self) {
        self.d.push('Z');
        self.relative = false;
    }
}

/// Writes `pieces` with the numbers `values` between them (as [`num`] writes them), without
/// the formatting machinery: labels and force tags are written thousands of times a turn.
pub(super) fn interleave(o: &mut String, pieces: &[&str], values: &[f64]) {
    for (i, p) in pieces.iter().enumerate() {
        o.push_str(p);
        if let Some(v) = values.get(i) {
            tenths(o, (v * 10.0).round() as i64);
        }
    }
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The rough width of a text in DejaVu Sans.
pub(super) fn text_width(s: &str, size: f64) -> f64 {
    s.chars()
        .map(|c| match c {
            'i' | 'l' | 'j' | '.' | ',' | '\'' | ' ' | '(' | ')' | '|' => 0.32,
            'A'..='Z' | '0'..='9' | 'm' | 'w' => 0.7,
            _ => 0.58,
        })
        .sum::<f64>()
        * size
}

/// Text cut to fit a width, with an ellipsis.
pub(super) fn fit(s: &str, width: f64, size: f64) -> String {
    if text_width(s, size) <= width {
        return s.to_string();
    }
    let mut out = String::new();
    for c in s.chars() {
        if text_width(&format!("{out}{c}…"), size) > width {
            break;
        }
        out.push(c);
    }
    format!("{}…", out.trim_end())
}

/// A panel placed on the page.
pub(super) struct Frame<'a> {
    pub(super) p: &'a Panel,
    pub(super) ss: f64,
    pub(super) fx: f64,
    pub(super) fy: f64,
    pub(super) fw: f64,
    pub(super) fh: f64,
    /// Prefix of the ids of the elements drawn in this frame.
    pub(super) prefix: &'static str,
}

impl<'a> Frame<'a> {
    pub(super) fn new(p: &'a Panel, ss: f64, fx: f64, fy: f64, prefix: &'static str) -> Frame<'a> {
        Frame {
            p,
            ss,
            fx,
            fy,
            fw: (f64::from(p.proj.width) - 2.0 * p.pad) / ss,
            fh: (f64::from(p.proj.height) - 2.0 * p.pad) / ss,
            prefix,
        }
    }

    /// Output coordinates of a canvas pixel position.
    pub(super) fn out(&self, p: (f64, f64)) -> (f64, f64) {
        (
            self.fx + (p.0 - self.p.pad) / self.ss,
            self.fy + (p.1 - self.p.pad) / self.ss,
        )
    }

    /// The canvas pixel under an output position.
    pub(super) fn pixel(&self, x: f64, y: f64) -> (i64, i64) {
        (
            ((x - self.fx) * self.ss + self.p.pad).floor() as i64,
            ((y - self.fy) * self.ss + self.p.pad).floor() as i64,
        )
    }

    pub(super) fn region_path(&self, label: u16) -> String {
        let mut d = String::new();
        let traced = &self.p.traced;
        if let Some(rings) = traced.rings.get(&label) {
            let mut w = PathData::new(&mut d);
            for ring in rings {
                for (i, &p) in traced.ring_points(ring).iter().enumerate() {
                    let (x, y) = self.out(p);
                    if i == 0 {
                        w.move_to(x, y);
                    } else {
                        w.line_to(x, y);
                    }
                }
                w.close();
            }
        }
        d
    }
}

impl Scene<'_> {
    /// Whether an area is drawn in the inset's box on the main map: it is labelled in the
    /// inset only.
    pub(super) fn in_inset_box(&self, id: AreaId) -> bool {
        match (
            &self.inset,
            self.inset_box,
            self.main.regions.anchors[id.index()],
        ) {
            (Some(_), Some(b), Some(p)) => p.0 >= b[0] && p.0 <= b[2] && p.1 >= b[1] && p.1 <= b[3],
            _ => false,
        }
    }

    pub(super) fn is_sea(&self, label: u16) -> Option<bool> {
        let n = self.map.areas().len();
        match label {
            OFF_SEA => Some(true),
            OFF_LAND => Some(false),
            l if (l as usize) < n => Some(self.map.areas()[l as usize].is_sea()),
            _ => None,
        }
    }
}

/// Shades for neighbouring areas of one colour: a greedy colouring of the map.
pub(super) fn shades(map: &Map) -> Vec<usize> {
    let mut shade = vec![usize::MAX; map.areas().len()];
    for id in map.ids() {
        let a = map.area(id);
        let used: Vec<usize> = map
            .neighbours(id)
            .iter()
            .filter(|b| {
                let b = map.area(**b);
                b.is_sea() == a.is_sea() && (a.is_sea() || b.terrain == a.terrain)
            })
            .map(|b| shade[b.index()])
            .collect();
        let k = if a.is_sea() { style::SEA.len() } else { 3 };
        shade[id.index()] = (0..k).find(|s| !used.contains(s)).unwrap_or(id.index() % k);
    }
    shade
}

pub(super) const ICONS: &str = r##"<symbol id="i-army" viewBox="0 0 10 10"><path d="M2 2L8 8M8 2L2 8M1.2 6.3L3.7 8.8M6.3 8.8L8.8 6.3" stroke="#2e2a24" stroke-width="1.5" stroke-linecap="round" fill="none"/></symbol>
<symbol id="i-fort" viewBox="0 0 10 10"><path d="M1.5 9V3.2H3V1.5H4.3V3.2H5.7V1.5H7V3.2H8.5V9Z" fill="#2e2a24"/></symbol>
<symbol id="i-base" viewBox="0 0 10 10"><g fill="none" stroke="#2e2a24" stroke-width="1.1" stroke-linecap="round"><circle cx="5" cy="2" r="1"/><path d="M5 3V9M3 4.5H7M1.6 6.2Q2 9 5 9Q8 9 8.4 6.2"/></g></symbol>
<symbol id="i-ship" viewBox="0 0 10 10"><path d="M1 6.4H9L7.6 8.9H2.4Z" fill="#2e2a24"/><path d="M5 0.8V6M5.6 1.4L8.4 5.6H5.6Z" fill="#2e2a24" stroke="#2e2a24" stroke-width="0.6" stroke-linejoin="round"/></symbol>
<symbol id="i-train" viewBox="0 0 10 10"><path d="M1.5 2.5H8.5V6.8H1.5Z" fill="#2e2a24"/><circle cx="3" cy="8" r="1.1" fill="#2e2a24"/><circle cx="7" cy="8" r="1.1" fill="#2e2a24"/></symbol>
<symbol id="i-home" viewBox="0 0 10 10"><path d="M5 0.4L6.2 3.6L9.7 3.7L7 5.9L7.9 9.3L5 7.4L2.1 9.3L3 5.9L0.3 3.7L3.8 3.6Z" stroke="#2e2a24" stroke-width="0.7" stroke-linejoin="round"/></symbol>
"##;

/// Where the main map and the inset are drawn on the page.
pub(super) fn frames<'s>(s: &Scene<'s>) -> (Frame<'s>, Option<Frame<'s>>) {
    let sz = s.sizes;
    let main = Frame::new(s.main, s.ss, sz.margin, sz.margin + sz.title * 1.9, "");
    let below = main.fy + main.fh + sz.text * 1.2;
    let inset = s
        .inset
        .map(|p| Frame::new(p, s.ss, sz.margin, below + sz.text * 1.6, "inset-"));
    (main, inset)
}

/// The owner's code after an area's code: its size and the gap before it, as parts of the
/// label's size.
pub(super) const OWNER_SIZE: f64 = 0.8;
pub(super) const OWNER_GAP: f64 = 0.25;

/// The room a label keeps below it for the area's force tags: one tag with a two-digit
/// count. Labels are placed once per map, before any game is on it, so each keeps room for
/// the tags most areas carry; a longer row of tags may reach a neighbour's label.
const KEPT_TAG: &str = "88";

/// An area's label, with room for its owner's code, its home marker and its force tags.
pub(super) struct Mark {
    pub id: AreaId,
    pub at: (f64, f64),
    /// The width of the area's code.
    pub text_w: f64,
    /// Whether the area is some empire's home, marked with a star before the code.
    pub home: bool,
    /// Whether the area is land, which an owner's code follows.
    pub land: bool,
}

impl Mark {
    /// The box the mark covers when its label is centred at `(x, y)`.
    pub(super) fn bounds(&self, sz: &Sizes, x: f64, y: f64) -> [f64; 4] {
        let star = if self.home { sz.label } else { 0.0 };
        let owner = if self.land {
            sz.label * OWNER_GAP + text_width("MM", sz.label * OWNER_SIZE)
        } else {
            0.0
        };
        let tag = tag_width(sz, KEPT_TAG);
        [
            (x - self.text_w / 2.0 - star).min(x - tag / 2.0),
            y - sz.label * 0.55,
            (x + self.text_w / 2.0 + owner).max(x + tag / 2.0),
            y + sz.label * 0.75 + sz.badge * 1.4,
        ]
    }
}

/// The width of one force tag with `count` on it.
pub(super) fn tag_width(sz: &Sizes, count: &str) -> f64 {
    let k = sz.badge;
    let pad = k * 0.22;
    pad + k + pad * 0.6 + text_width(count, k) + pad
}

/// Where each area's label goes: at its position, or nudged a little where labels would
/// overlap, preferring spots inside the area. Small areas are placed first. `strict` leaves
/// out the label of an area that would overlap another (the closer zooms show it).
/// `boxed` leaves the areas in the inset's box on the main map to the inset.
pub(super) fn place_labels(
    s: &Scene,
    f: &Frame,
    sz: &Sizes,
    strict: bool,
    boxed: bool,
) -> Vec<Mark> {
    let map = s.map;
    let sz = *sz;
    let regions = &f.p.regions;
    let mut marks: Vec<Mark> = Vec::new();
    let mut homes = vec![false; map.areas().len()];
    for e in &map.empires {
        homes[e.home.index()] = true;
    }
    for id in map.ids() {
        let a = map.area(id);
        let Some(p) = regions.anchors[id.index()] else {
            continue;
        };
        if boxed && f.prefix.is_empty() && s.in_inset_box(id) {
            continue;
        }
        let (x, mut y) = f.out(p);
        if x < f.fx - sz.label * 2.0
            || y < f.fy - sz.label
            || x > f.fx + f.fw + sz.label * 2.0
            || y > f.fy + f.fh + sz.label
        {
            continue;
        }
        // A small island keeps its label beside it, so that it stays visible.
        let px = f64::from(regions.pixels[id.index()]) / (f.ss * f.ss);
        let text_w = text_width(a.code.as_str(), sz.label);
        if a.is_land() && px < text_w * sz.label * 0.8 {
            y += (px / std::f64::consts::PI).sqrt() + sz.label * 0.75;
        }
        marks.push(Mark {
            id,
            at: (x, y),
            text_w,
            home: homes[id.index()],
            land: a.is_land(),
        });
    }
    // Small areas first; the keys worked out once, for they are compared many times.
    let mut keys: Vec<(u32, usize)> = marks
        .iter()
        .enumerate()
        .map(|(i, m)| (regions.pixels[m.id.index()], i))
        .collect();
    keys.sort_unstable();
    let order: Vec<usize> = keys.into_iter().map(|(_, i)| i).collect();
    let mut placed = Taken::new([f.fx, f.fy, f.fx + f.fw, f.fy + f.fh], sz.label * 4.0);
    let steps = [
        (0.0, 0.0),
        (0.0, -1.0),
        (0.0, 1.0),
        (0.6, 0.0),
        (-0.6, 0.0),
        (0.5, -1.0),
        (-0.5, -1.0),
        (0.5, 1.0),
        (-0.5, 1.0),
        (0.0, -2.0),
        (0.0, 2.0),
        (1.1, 0.0),
        (-1.1, 0.0),
    ];
    // The best spot for a mark: its score and where.
    let spot = |m: &Mark, placed: &mut Taken| {
        let (x0, y0) = m.at;
        let b0 = m.bounds(&sz, x0, y0);
        let (bw, bh) = (b0[2] - b0[0], b0[3] - b0[1]);
        let mut best = (f64::MAX, (x0, y0));
        for (k, &(dx, dy)) in steps.iter().enumerate() {
            let (x, y) = (x0 + dx * bw, y0 + dy * bh * 0.8);
            let b = m.bounds(&sz, x, y);
            let covered = placed.covered(&b);
            let (px, py) = f.pixel(x, y);
            let outside = if regions.at(px, py) == m.id.0 || k == 0 {
                0.0
            } else {
                bw * bh * 0.3
            };
            let score = covered + outside + k as f64 * bw * bh * 0.02;
            if score < best.0 {
                best = (score, (x, y));
            }
            if covered == 0.0 && outside == 0.0 {
                break;
            }
        }
        best
    };
    // Strictly placed, the first spot clear of the others and on the area itself (or where
    // its position puts it), moving only a little: far moves seldom stay on the area.
    let clear_spot = |m: &Mark, placed: &Taken| {
        let (x0, y0) = m.at;
        let b0 = m.bounds(&sz, x0, y0);
        let (bw, bh) = (b0[2] - b0[0], b0[3] - b0[1]);
        steps[..5].iter().enumerate().find_map(|(k, &(dx, dy))| {
            let (x, y) = (x0 + dx * bw, y0 + dy * bh * 0.8);
            let (px, py) = f.pixel(x, y);
            let inside = k == 0 || regions.at(px, py) == m.id.0;
            (inside && !placed.any(&m.bounds(&sz, x, y))).then_some((x, y))
        })
    };
    let mut keep = vec![true; marks.len()];
    for i in order {
        let at = if strict {
            match clear_spot(&marks[i], &placed) {
                Some(at) => at,
                None => {
                    keep[i] = false;
                    continue;
                }
            }
        } else {
            spot(&marks[i], &mut placed).1
        };
        let (x, y) = at;
        placed.push(marks[i].bounds(&sz, x, y));
        marks[i].at = (x, y);
    }
    let mut k = keep.into_iter();
    marks.retain(|_| k.next().unwrap_or(true));
    marks
}

/// Kinds of border line, drawn in this order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Line {
    OffCoast,
    OffSea,
    Sea,
    Land,
    Globe,
    Coast,
}

pub(super) fn borders(s: &Scene, f: &Frame, o: &mut String) {
    let n = s.map.areas().len();
    let mut paths: Vec<(Line, String)> = Vec::new();
    for ch in &f.p.traced.chains {
        let (a, b) = (ch.left.min(ch.right), ch.left.max(ch.right));
        let area = |x: u16| (x as usize) < n;
        let kind = match (s.is_sea(a), s.is_sea(b)) {
            _ if b == FRAME && a != OUTSIDE => continue,
            _ if a == OUTSIDE || b == OUTSIDE => Line::Globe,
            (Some(x), Some(y)) if x != y => {
                if area(a) || area(b) {
                    Line::Coast
                } else {
                    Line::OffCoast
                }
            }
            (Some(true), Some(true)) => {
                if area(a) && area(b) {
                    Line::Sea
                } else {
                    Line::OffSea
                }
            }
            (Some(false), Some(false)) => Line::Land,
            _ => continue,
        };
        let i = match paths.iter().position(|p| p.0 == kind) {
            Some(i) => i,
            None => {
                paths.push((kind, String::new()));
                paths.len() - 1
            }
        };
        let mut w = PathData::new(&mut paths[i].1);
        for (j, &p) in ch.points.iter().enumerate() {
            let (x, y) = f.out(p);
            if j == 0 {
                w.move_to(x, y);
            } else {
                w.line_to(x, y);
            }
        }
    }
    paths.sort_by_key(|p| p.0);
    for (kind, d) in paths {
        let (id, colour, width, extra) = match kind {
            Line::OffCoast => ("off-map-coast", style::OFF_COAST, 0.6, ""),
            Line::OffSea => (
                "sea-edges",
                style::SEA_BORDER,
                0.5,
                r#" stroke-dasharray="1 2""#,
            ),
            Line::Sea => (
                "sea-borders",
                style::SEA_BORDER,
                0.9,
                r#" stroke-dasharray="5 3""#,
            ),
            Line::Land => ("land-borders", style::LAND_BORDER, 0.75, ""),
            Line::Globe => ("globe", style::FRAME, 1.0, ""),
            Line::Coast => ("coasts", style::COAST, 1.25, ""),
        };
        let _ = writeln!(
            o,
            r#"<path id="{}{id}" d="{d}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linejoin="round" stroke-linecap="round"{extra}/>"#,
            f.prefix
        );
    }
}

/// Lines of longitude and latitude across the frame.
pub(super) fn graticule(s: &Scene, f: &Frame) -> String {
    let p = &f.p.proj;
    let pos: Vec<(f64, f64)> = s
        .map
        .areas()
        .iter()
        .filter_map(|a| a.position)
        .map(|(lon, lat)| (p.wrap(lon), lat))
        .collect();
    let (mut lo_lon, mut hi_lon, mut lo_lat, mut hi_lat) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in &pos {
        lo_lon = lo_lon.min(x);
        hi_lon = hi_lon.max(x);
        lo_lat = lo_lat.min(y);
        hi_lat = hi_lat.max(y);
    }
    let span = (hi_lat - lo_lat).max((hi_lon - lo_lon) * 0.6);
    let step = [1.0, 2.0, 5.0, 10.0, 15.0, 30.0]
        .into_iter()
        .find(|st| span / st <= 7.0)
        .unwrap_or(30.0);
    let (lon_a, lon_b, lat_a, lat_b) = if p.is_world() {
        (p.lon0 - 180.0, p.lon0 + 180.0, -90.0, 90.0)
    } else {
        (
            lo_lon - 40.0,
            hi_lon + 40.0,
            (lo_lat - 30.0).max(-90.0),
            (hi_lat + 30.0).min(90.0),
        )
    };
    let (fw, fh) = (f64::from(p.width), f64::from(p.height));
    let inside = |q: (f64, f64)| q.0 >= -2.0 && q.1 >= -2.0 && q.0 <= fw + 2.0 && q.1 <= fh + 2.0;
    let mut d = String::new();
    let mut line = |pts: Vec<(f64, f64)>| {
        let mut pen = false;
        for (i, &q) in pts.iter().enumerate() {
            let near = inside(q)
                || (i > 0 && inside(pts[i - 1]))
                || (i + 1 < pts.len() && inside(pts[i + 1]));
            if !near {
                pen = false;
                continue;
            }
            let (x, y) = f.out(q);
            let _ = write!(d, "{}{} {}", if pen { " " } else { "M" }, num(x), num(y));
            pen = true;
        }
    };
    let fine = step / 8.0;
    let mut lon = (lon_a / step).ceil() * step;
    while lon <= lon_b + 1e-9 {
        let top = if p.is_world() { 90.0 } else { lat_b };
        let pts = (0..=((top - lat_a) / fine).round() as i64)
            .map(|i| p.project(lon, lat_a + i as f64 * fine))
            .collect();
        line(pts);
        lon += step;
    }
    let mut lat = (lat_a / step).ceil() * step;
    while lat <= lat_b + 1e-9 {
        if lat.abs() < 90.0 {
            let pts = (0..=((lon_b - lon_a) / fine).round() as i64)
                .map(|i| p.project(lon_a + i as f64 * fine, lat))
                .collect();
            line(pts);
        }
        lat += step;
    }
    d
}

/// The legend below the frame; returns its height.
/// The legend at `(x, top)`, `width` wide; returns its height.
#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Rounding to a tenth and printing through floating-point formatting: what `num` does
    /// with integers only.
    fn by_float(v: f64) -> String {
        let r = (v * 10.0).round() / 10.0;
        if r == r.trunc() {
            format!("{}", r as i64)
        } else {
            format!("{r:.1}")
        }
    }

    proptest! {
        #[test]
        fn numbers_are_written_as_floating_point_would(v in -1.0e7..1.0e7f64) {
            prop_assert_eq!(num(v), by_float(v));
        }
    }

    /// On a zooming page, the labels of every zoom but the closest are clear of each other
    /// and of the room each keeps for its owner's code and force tag: none hides another.
    #[test]
    fn labels_do_not_overlap_short_of_the_closest_zoom() {
        use super::super::{DrawOptions, Frames, ZOOMS};
        for name in ["world", "european"] {
            let map = crate::standard::load(name).unwrap().unwrap();
            let opts = DrawOptions {
                width: 960,
                zoom_label: Some(12.5),
                ..DrawOptions::default()
            };
            let frames = Frames::new(&map, &opts).unwrap();
            let scene = frames.scene(&map);
            let (main, inset) = frames_of(&scene);
            for f in std::iter::once(&main).chain(&inset) {
                for z in &ZOOMS[..ZOOMS.len() - 1] {
                    let mut sz = f.p.sizes;
                    sz.label = 12.5 / z;
                    sz.badge = sz.label * 0.86;
                    let marks = place_labels(&scene, f, &sz, true, *z == 1.0);
                    assert!(marks.len() > 10, "{name} at {z}: {} labels", marks.len());
                    let boxes: Vec<_> = marks
                        .iter()
                        .map(|m| m.bounds(&sz, m.at.0, m.at.1))
                        .collect();
                    for (i, a) in boxes.iter().enumerate() {
                        for (j, b) in boxes.iter().enumerate().skip(i + 1) {
                            assert!(
                                super::super::taken::overlap(a, b) < 1e-6,
                                "{name} at {z}: {} and {}",
                                map.area(marks[i].id).code,
                                map.area(marks[j].id).code
                            );
                        }
                    }
                }
            }
        }
    }

    fn frames_of<'s>(s: &Scene<'s>) -> (Frame<'s>, Option<Frame<'s>>) {
        frames(s)
    }

    #[test]
    fn numbers_keep_one_decimal_and_drop_a_trailing_zero() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.04), "12");
        assert_eq!(num(12.06), "12.1");
        assert_eq!(num(-0.5), "-0.5");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(-3.25), "-3.3");
    }
}
