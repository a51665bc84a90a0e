//! Writing the drawing as SVG: off-map land and sea, the areas (paths with the area codes
//! as ids), hatching over what a viewer cannot see, graticule, borders, labels, home
//! markers, forces, title and legend.

use super::ZOOMS;
use super::projection::Projection;
use super::regions::{FRAME, OFF_LAND, OFF_SEA, OUTSIDE, Regions};
use super::style::{self, Sizes};
use super::taken::Taken;
use super::trace::Traced;
use empires_rules::map::AreaId;
use empires_rules::{EmpireCode, GameState, Map, Terrain};
use std::fmt::Write;

/// A game to draw: the state as the viewer knows it, and which areas the viewer sees.
pub struct Game {
    pub state: GameState,
    pub visible: Option<Vec<bool>>,
    pub viewer: Option<EmpireCode>,
}

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
    pub game: Option<Game>,
    pub title: Option<String>,
    pub graticule: bool,
    /// Labels for a page that zooms: the codes' size in the whole drawing (see
    /// [`super::DrawOptions::zoom_label`]).
    pub zoom_label: Option<f64>,
    /// Each of the map's empires' colour, in the map's order.
    pub colours: &'a [&'static str],
    /// The outlines of the main frame and of the inset, worked out beforehand by
    /// [`outlines`]; worked out while drawing where missing.
    pub outlines: &'a [Outlines],
}

/// The parts of a frame's drawing that no game changes, written once per map and copied into
/// every drawing of it: they are most of a drawing's bytes and nearly all of its work.
pub struct Outlines {
    /// Path data of each area's region, by area index, then of the off-map sea and land.
    regions: Vec<String>,
    /// Each area's path element but for its colour: what comes before it and after it.
    /// `None` for an area outside an inset, which is left out of it.
    areas: Vec<Option<(String, String)>>,
    /// The shade of each area's colour, told apart from its neighbours'.
    shade: Vec<usize>,
    /// The border lines, as finished elements.
    borders: String,
    /// The graticule's path data; empty when it is not drawn.
    graticule: String,
}

impl Outlines {
    fn new(s: &Scene, f: &Frame) -> Outlines {
        let n = s.map.areas().len() as u16;
        let regions: Vec<String> = (0..n)
            .chain([OFF_SEA, OFF_LAND])
            .map(|label| f.region_path(label))
            .collect();
        let pre = f.prefix;
        let areas = s
            .map
            .ids()
            .map(|id| {
                let a = s.map.area(id);
                let d = &regions[id.index()];
                (!d.is_empty() || pre.is_empty()).then(|| {
                    (
                        format!(r#"<path id="{pre}{}" d="{d}" fill=""#, a.code),
                        format!("\"><title>{} {}</title></path>\n", a.code, escape(&a.name)),
                    )
                })
            })
            .collect();
        let mut borders_out = String::new();
        borders(s, f, &mut borders_out);
        Outlines {
            regions,
            areas,
            shade: shades(s.map),
            borders: borders_out,
            graticule: if s.graticule {
                graticule(s, f)
            } else {
                String::new()
            },
        }
    }

    /// The path data of a region: an area's by its index, or the off-map sea or land.
    fn region(&self, label: u16) -> &str {
        let n = self.regions.len() - 2;
        let i = match label {
            OFF_SEA => n,
            OFF_LAND => n + 1,
            l => usize::from(l),
        };
        self.regions.get(i).map_or("", String::as_str)
    }
}

/// The outlines of a scene's frames (the main map, then the inset if any), for drawing the
/// map many times over.
pub fn outlines(s: &Scene) -> Vec<Outlines> {
    let (main, inset) = frames(s);
    std::iter::once(&main)
        .chain(&inset)
        .map(|f| Outlines::new(s, f))
        .collect()
}

/// A number with at most one decimal, without a trailing ".0".
pub fn num(v: f64) -> String {
    let mut s = String::with_capacity(8);
    tenths(&mut s, (v * 10.0).round() as i64);
    s
}

/// Writes a number given in tenths, with at most one decimal and no trailing ".0"; integer
/// arithmetic, for it is written some thousands of times per drawing.
fn tenths(d: &mut String, t: i64) {
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
struct PathData<'s> {
    d: &'s mut String,
    /// The last point written, in tenths of a pixel.
    at: Option<(i64, i64)>,
    /// In a run of relative steps, so `l` need not be repeated.
    relative: bool,
}

impl<'s> PathData<'s> {
    fn new(d: &'s mut String) -> PathData<'s> {
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
    fn move_to(&mut self, x: f64, y: f64) {
        let p = (Self::tenths(x), Self::tenths(y));
        self.d.push('M');
        Self::number(self.d, p.0);
        Self::number(self.d, p.1);
        self.at = Some(p);
        self.relative = false;
    }

    /// Continues the run to `(x, y)`.
    fn line_to(&mut self, x: f64, y: f64) {
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

    fn close(&mut self) {
        self.d.push('Z');
        self.relative = false;
    }
}

/// Writes `pieces` with the numbers `values` between them (as [`num`] writes them), without
/// the formatting machinery: labels and force tags are written thousands of times a turn.
fn interleave(o: &mut String, pieces: &[&str], values: &[f64]) {
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
fn text_width(s: &str, size: f64) -> f64 {
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
fn fit(s: &str, width: f64, size: f64) -> String {
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
struct Frame<'a> {
    p: &'a Panel,
    ss: f64,
    fx: f64,
    fy: f64,
    fw: f64,
    fh: f64,
    /// Prefix of the ids of the elements drawn in this frame.
    prefix: &'static str,
}

impl<'a> Frame<'a> {
    fn new(p: &'a Panel, ss: f64, fx: f64, fy: f64, prefix: &'static str) -> Frame<'a> {
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
    fn out(&self, p: (f64, f64)) -> (f64, f64) {
        (
            self.fx + (p.0 - self.p.pad) / self.ss,
            self.fy + (p.1 - self.p.pad) / self.ss,
        )
    }

    /// The canvas pixel under an output position.
    fn pixel(&self, x: f64, y: f64) -> (i64, i64) {
        (
            ((x - self.fx) * self.ss + self.p.pad).floor() as i64,
            ((y - self.fy) * self.ss + self.p.pad).floor() as i64,
        )
    }

    fn region_path(&self, label: u16) -> String {
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
    /// An empire's colour: the map's choice for it, or by its place in the game for an
    /// empire the map does not list.
    fn colour(&self, e: EmpireCode) -> &'static str {
        match self.map.empires.iter().position(|d| d.code == e) {
            Some(i) => self.colours.get(i).copied().unwrap_or(style::empire(i)),
            None => style::empire(self.empire_index(e)),
        }
    }

    fn empire_index(&self, e: EmpireCode) -> usize {
        match &self.game {
            Some(g) => g.state.empire_index(e).unwrap_or(0),
            None => self
                .map
                .empires
                .iter()
                .position(|d| d.code == e)
                .unwrap_or(0),
        }
    }

    /// Whether an area is drawn in the inset's box on the main map: it is labelled in the
    /// inset only.
    fn in_inset_box(&self, id: AreaId) -> bool {
        match (
            &self.inset,
            self.inset_box,
            self.main.regions.anchors[id.index()],
        ) {
            (Some(_), Some(b), Some(p)) => p.0 >= b[0] && p.0 <= b[2] && p.1 >= b[1] && p.1 <= b[3],
            _ => false,
        }
    }

    fn is_sea(&self, label: u16) -> Option<bool> {
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
fn shades(map: &Map) -> Vec<usize> {
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

const ICONS: &str = r##"<symbol id="i-army" viewBox="0 0 10 10"><path d="M2 2L8 8M8 2L2 8M1.2 6.3L3.7 8.8M6.3 8.8L8.8 6.3" stroke="#2e2a24" stroke-width="1.5" stroke-linecap="round" fill="none"/></symbol>
<symbol id="i-fort" viewBox="0 0 10 10"><path d="M1.5 9V3.2H3V1.5H4.3V3.2H5.7V1.5H7V3.2H8.5V9Z" fill="#2e2a24"/></symbol>
<symbol id="i-base" viewBox="0 0 10 10"><g fill="none" stroke="#2e2a24" stroke-width="1.1" stroke-linecap="round"><circle cx="5" cy="2" r="1"/><path d="M5 3V9M3 4.5H7M1.6 6.2Q2 9 5 9Q8 9 8.4 6.2"/></g></symbol>
<symbol id="i-ship" viewBox="0 0 10 10"><path d="M1 6.4H9L7.6 8.9H2.4Z" fill="#2e2a24"/><path d="M5 0.8V6M5.6 1.4L8.4 5.6H5.6Z" fill="#2e2a24" stroke="#2e2a24" stroke-width="0.6" stroke-linejoin="round"/></symbol>
<symbol id="i-train" viewBox="0 0 10 10"><path d="M1.5 2.5H8.5V6.8H1.5Z" fill="#2e2a24"/><circle cx="3" cy="8" r="1.1" fill="#2e2a24"/><circle cx="7" cy="8" r="1.1" fill="#2e2a24"/></symbol>
<symbol id="i-home" viewBox="0 0 10 10"><path d="M5 0.4L6.2 3.6L9.7 3.7L7 5.9L7.9 9.3L5 7.4L2.1 9.3L3 5.9L0.3 3.7L3.8 3.6Z" stroke="#2e2a24" stroke-width="0.7" stroke-linejoin="round"/></symbol>
"##;

/// A force marker: an icon and a count on a small tag.
struct Badge {
    icon: &'static str,
    count: String,
    fill: &'static str,
}

/// Where the main map and the inset are drawn on the page.
fn frames<'s>(s: &Scene<'s>) -> (Frame<'s>, Option<Frame<'s>>) {
    let sz = s.sizes;
    let main = Frame::new(s.main, s.ss, sz.margin, sz.margin + sz.title * 1.9, "");
    let below = main.fy + main.fh + sz.text * 1.2;
    let inset = s
        .inset
        .map(|p| Frame::new(p, s.ss, sz.margin, below + sz.text * 1.6, "inset-"));
    (main, inset)
}

pub fn write(s: &Scene) -> String {
    let sz = s.sizes;
    let (main, inset) = frames(s);
    let below = main.fy + main.fh + sz.text * 1.2;
    let worked_out;
    let outlines = if s.outlines.len() == 1 + usize::from(inset.is_some()) {
        s.outlines
    } else {
        worked_out = outlines(s);
        &worked_out
    };
    let (legend_x, legend_w) = match &inset {
        Some(f) => (
            f.fx + f.fw + sz.margin * 1.5,
            main.fw - f.fw - sz.margin * 1.5,
        ),
        None => (main.fx, main.fw),
    };
    let mut legend = String::new();
    let legend_h = write_legend(s, legend_x, below, legend_w, &mut legend);
    let bottom = match &inset {
        Some(f) => (f.fy + f.fh).max(below + legend_h),
        None => below + legend_h,
    };
    let height = bottom + sz.margin;
    let mut o = String::with_capacity(1 << 20);
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Verdana, sans-serif"{}>"#,
        zoom_data(s, &main, inset.as_ref()),
        w = num(s.width),
        h = num(height.ceil())
    );
    let (title, subtitle) = titles(s);
    let _ = writeln!(o, "<title>{}</title>", escape(&title));
    let _ = writeln!(o, "<defs>");
    for f in std::iter::once(&main).chain(&inset) {
        let _ = writeln!(
            o,
            r#"<clipPath id="{}frame"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>"#,
            f.prefix,
            num(f.fx),
            num(f.fy),
            num(f.fw),
            num(f.fh)
        );
    }
    let _ = writeln!(
        o,
        r##"<pattern id="hidden" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(45)"><rect width="7" height="7" fill="#4a4440" fill-opacity="0.12"/><rect width="2" height="7" fill="#4a4440" fill-opacity="0.28"/></pattern>"##
    );
    o.push_str(ICONS);
    let _ = writeln!(o, "</defs>");
    let _ = writeln!(
        o,
        r#"<rect width="100%" height="100%" fill="{}"/>"#,
        style::PAGE
    );
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" font-size="{}" fill="{}">{}</text>"#,
        num(main.fx),
        num(sz.margin + sz.title * 0.95),
        num(sz.title),
        style::INK,
        escape(&title)
    );
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" font-size="{}" fill="{}" text-anchor="end">{}</text>"#,
        num(main.fx + main.fw),
        num(sz.margin + sz.title * 0.95),
        num(sz.text),
        style::MUTED_INK,
        escape(&subtitle)
    );
    draw_frame(s, &main, &outlines[0], &mut o);
    if let (Some(b), Some(_)) = (s.inset_box, &inset) {
        let (x0, y0) = main.out((b[0], b[1]));
        let (x1, y1) = main.out((b[2], b[3]));
        let _ = writeln!(
            o,
            r#"<rect id="inset-area" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="1.5" stroke-dasharray="6 3"/>"#,
            num(x0),
            num(y0),
            num(x1 - x0),
            num(y1 - y0),
            style::FRAME
        );
    }
    if let Some(f) = &inset {
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" font-size="{}" fill="{}">Enlarged: the dashed box on the map</text>"#,
            num(f.fx),
            num(f.fy - sz.text * 0.5),
            num(sz.text),
            style::MUTED_INK
        );
        draw_frame(s, f, &outlines[1], &mut o);
    }
    o.push_str(&legend);
    o.push_str("</svg>\n");
    o
}

/// For a page that zooms: the size of the area codes at the whole drawing and the zooms
/// labelled (`data-label`, `data-zooms`), and the box around the viewer's areas
/// (`data-focus`: x, y, width, height), in the drawing's pixels, where the page starts when
/// it opens zoomed in. The box is in the inset when most of the areas are labelled there.
fn zoom_data(s: &Scene, main: &Frame, inset: Option<&Frame>) -> String {
    let Some(l) = s.zoom_label else {
        return String::new();
    };
    let zooms: Vec<String> = ZOOMS.iter().map(|z| num(*z)).collect();
    let mut out = format!(
        r#" data-label="{}" data-zooms="{}""#,
        num(l),
        zooms.join(" ")
    );
    let Some(Game {
        state,
        viewer: Some(e),
        ..
    }) = &s.game
    else {
        return out;
    };
    let owned: Vec<AreaId> = state.owned_by(*e).collect();
    let in_inset = owned.iter().filter(|&&id| s.in_inset_box(id)).count();
    let f = match inset {
        Some(i) if 2 * in_inset > owned.len() => i,
        _ => main,
    };
    let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for id in owned {
        if let Some(p) = f.p.regions.anchors[id.index()] {
            let (x, y) = f.out(p);
            b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
        }
    }
    if b[0] <= b[2] {
        let _ = write!(
            out,
            r#" data-focus="{} {} {} {}""#,
            num(b[0]),
            num(b[1]),
            num(b[2] - b[0]),
            num(b[3] - b[1])
        );
    }
    out
}

/// One frame: fills, hatching, graticule, borders, then labels, markers and forces.
fn draw_frame(s: &Scene, f: &Frame, lines: &Outlines, o: &mut String) {
    let map = s.map;
    let pre = f.prefix;
    let _ = writeln!(o, r#"<g clip-path="url(#{pre}frame)">"#);
    let _ = writeln!(
        o,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
        num(f.fx),
        num(f.fy),
        num(f.fw),
        num(f.fh),
        if f.p.proj.is_world() {
            style::PAGE
        } else {
            style::OFF_SEA
        }
    );
    for (label, colour, id) in [
        (OFF_SEA, style::OFF_SEA, "off-map-sea"),
        (OFF_LAND, style::OFF_LAND, "off-map-land"),
    ] {
        let d = lines.region(label);
        if !d.is_empty() {
            let _ = writeln!(
                o,
                r#"<path id="{pre}{id}" d="{d}" fill="{colour}" fill-rule="evenodd"/>"#
            );
        }
    }
    let owners = owner_colours(s);
    let _ = writeln!(o, r#"<g id="{pre}areas" fill-rule="evenodd">"#);
    for (id, element) in map.ids().zip(&lines.areas) {
        if let Some((head, tail)) = element {
            o.push_str(head);
            o.push_str(area_colour(s, id, &lines.shade, &owners));
            o.push_str(tail);
        }
    }
    let _ = writeln!(o, "</g>");
    if let Some(Game {
        visible: Some(vis), ..
    }) = &s.game
    {
        let mut d = String::new();
        for id in map.ids().filter(|i| !vis[i.index()]) {
            d.push_str(lines.region(id.0));
        }
        if !d.is_empty() {
            let _ = writeln!(
                o,
                r#"<path id="{pre}unseen" d="{d}" fill="url(#hidden)" fill-rule="evenodd"/>"#
            );
        }
    }
    if s.graticule {
        let d = &lines.graticule;
        if !d.is_empty() {
            let _ = writeln!(
                o,
                r#"<path id="{pre}graticule" d="{d}" fill="none" stroke="{}" stroke-opacity="0.22" stroke-width="0.6"/>"#,
                style::GRATICULE
            );
        }
    }
    o.push_str(&lines.borders);
    let d = yours(s, f);
    if !d.is_empty() {
        let _ = writeln!(
            o,
            r#"<path id="{pre}yours" d="{d}" fill="none" stroke="{}" stroke-width="4.2" stroke-linejoin="round" stroke-linecap="round"/><path d="{d}" fill="none" stroke="{}" stroke-width="2.2" stroke-linejoin="round" stroke-linecap="round"/>"#,
            style::YOURS_HALO,
            style::YOURS
        );
    }
    let _ = writeln!(o, "</g>");
    let _ = writeln!(
        o,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="1.2"/>"#,
        num(f.fx),
        num(f.fy),
        num(f.fw),
        num(f.fh),
        style::FRAME
    );

    // Labels, home markers and forces, placed clear of each other where there is room: one
    // set for a picture seen as it is, or one per zoom for a page that zooms.
    match s.zoom_label {
        None => draw_labels(s, f, &f.p.sizes, None, o),
        Some(l) => {
            for (k, z) in ZOOMS.iter().enumerate() {
                let mut sz = f.p.sizes;
                sz.label = l / z;
                sz.badge = sz.label * 0.86;
                draw_labels(s, f, &sz, Some((k + 1, k + 1 == ZOOMS.len())), o);
            }
        }
    }
}

/// The outer edge of the viewer's areas in a frame, as path data.
fn yours(s: &Scene, f: &Frame) -> String {
    let mut d = String::new();
    let Some(Game {
        state,
        viewer: Some(e),
        ..
    }) = &s.game
    else {
        return d;
    };
    let n = s.map.areas().len();
    let own = |l: u16| usize::from(l) < n && state.area(AreaId(l)).owner == Some(*e);
    let mut w = PathData::new(&mut d);
    for ch in &f.p.traced.chains {
        if own(ch.left) == own(ch.right) {
            continue;
        }
        for (j, &p) in ch.points.iter().enumerate() {
            let (x, y) = f.out(p);
            if j == 0 {
                w.move_to(x, y);
            } else {
                w.line_to(x, y);
            }
        }
    }
    d
}

/// One set of labels with their home markers and forces, sized `sz`. `level` is the zoom's
/// number and whether it is the closest: the closest labels every area, and its elements
/// carry the ids; the others leave out the codes that would overlap, which the closer zooms
/// show.
fn draw_labels(s: &Scene, f: &Frame, sz: &Sizes, level: Option<(usize, bool)>, o: &mut String) {
    let map = s.map;
    let pre = f.prefix;
    let (closest, ids) = match level {
        Some((_, closest)) => (closest, closest),
        None => (true, true),
    };
    if let Some((k, _)) = level {
        let _ = writeln!(o, r#"<g class="lod{k}">"#);
    }
    // Zoomed in, the main map labels the inset's box too: that is where the reader looks.
    let boxed = !matches!(level, Some((k, _)) if k > 1);
    let marks = place_labels(s, f, sz, !closest, boxed);
    // Forces first, so that the labels lie on top of them.
    let mut forces = String::new();
    for m in &marks {
        if !m.badges.is_empty() {
            // The ids go with the one drawing of each area's forces that counts.
            let id = (ids && pre.is_empty() != s.in_inset_box(m.id))
                .then(|| map.area(m.id).code.as_str());
            write_badges(
                sz,
                &mut forces,
                id,
                &m.badges,
                m.at.0,
                m.at.1 + sz.label * 0.75,
            );
        }
    }
    let id = |what: &str| {
        if ids {
            format!(r#" id="{pre}{what}""#)
        } else {
            String::new()
        }
    };
    if !forces.is_empty() {
        let _ = writeln!(
            o,
            r#"<g{} font-size="{}" text-anchor="start" clip-path="url(#{pre}frame)">"#,
            id("forces"),
            num(sz.badge)
        );
        o.push_str(&forces);
        let _ = writeln!(o, "</g>");
    }
    let _ = writeln!(
        o,
        r#"<g{} font-size="{}" text-anchor="middle" stroke-width="{}" stroke-linejoin="round" paint-order="stroke" clip-path="url(#{pre}frame)">"#,
        id("labels"),
        num(sz.label),
        num(sz.label * 0.26)
    );
    let owner_tspan = format!(
        r#"<tspan dx="{}" font-size="{}" fill="{}">"#,
        num(sz.label * OWNER_GAP),
        num(sz.label * OWNER_SIZE),
        style::MUTED_INK
    );
    for m in &marks {
        let a = map.area(m.id);
        let (x, y) = m.at;
        let (fill, halo) = if a.is_sea() {
            (style::SEA_INK, "#eef5fa")
        } else {
            (style::INK, "#fffdf6")
        };
        interleave(
            o,
            &["<text x=\"", "\" y=\"", "\" fill=\""],
            &[x, y + sz.label * 0.36],
        );
        o.push_str(fill);
        o.push_str("\" stroke=\"");
        o.push_str(halo);
        o.push_str("\">");
        o.push_str(a.code.as_str());
        // The owner's code, so that owners are told apart without their colours.
        if let Some(e) = m.owner {
            o.push_str(&owner_tspan);
            o.push_str(e.as_str());
            o.push_str("</tspan>");
        }
        o.push_str("</text>\n");
        if let Some(colour) = m.home {
            let k = sz.label * 0.95;
            let _ = writeln!(
                o,
                r##"<use href="#i-home" xlink:href="#i-home" x="{}" y="{}" width="{k2}" height="{k2}" fill="{colour}" stroke="none"/>"##,
                num(x - m.text_w / 2.0 - k - 1.0),
                num(y - k / 2.0),
                k2 = num(k)
            );
        }
    }
    let _ = writeln!(o, "</g>");
    if level.is_some() {
        let _ = writeln!(o, "</g>");
    }
}

/// The owner's code after an area's code: its size and the gap before it, as parts of the
/// label's size.
const OWNER_SIZE: f64 = 0.8;
const OWNER_GAP: f64 = 0.25;

/// An area's label with its home marker and force badges.
struct Mark {
    id: AreaId,
    at: (f64, f64),
    text_w: f64,
    home: Option<&'static str>,
    /// The owner of a land area in a game, written after its code.
    owner: Option<EmpireCode>,
    badges: Vec<Badge>,
}

impl Mark {
    /// The box the mark covers when its label is centred at `(x, y)`.
    fn bounds(&self, sz: &Sizes, x: f64, y: f64) -> [f64; 4] {
        let star = if self.home.is_some() { sz.label } else { 0.0 };
        let mut b = [
            x - self.text_w / 2.0 - star,
            y - sz.label * 0.55,
            x + self.text_w / 2.0,
            y + sz.label * 0.5,
        ];
        if !self.badges.is_empty() {
            let w = badges_width(sz, &self.badges);
            b[0] = b[0].min(x - w / 2.0);
            b[2] = b[2].max(x + w / 2.0);
            b[3] = y + sz.label * 0.75 + sz.badge * 1.4;
        }
        b
    }
}

/// Where each area's label goes: at its position, or nudged a little where labels would
/// overlap, preferring spots inside the area. Small areas are placed first. `strict` leaves
/// out the forces, then the whole label, of an area whose label would overlap another.
/// `boxed` leaves the areas in the inset's box on the main map to the inset.
fn place_labels(s: &Scene, f: &Frame, sz: &Sizes, strict: bool, boxed: bool) -> Vec<Mark> {
    let map = s.map;
    let sz = *sz;
    let regions = &f.p.regions;
    let mut marks: Vec<Mark> = Vec::new();
    // The empire whose home each area is, looked up once rather than for every area.
    let mut homes: Vec<Option<usize>> = vec![None; map.areas().len()];
    for (i, e) in map.empires.iter().enumerate().rev() {
        homes[e.home.index()] = Some(i);
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
        let owner = match &s.game {
            Some(g) if a.is_land() => g.state.area(id).owner,
            _ => None,
        };
        let text_w = text_width(a.code.as_str(), sz.label)
            + owner.map_or(0.0, |e| {
                sz.label * OWNER_GAP + text_width(e.as_str(), sz.label * OWNER_SIZE)
            });
        if a.is_land() && px < text_w * sz.label * 0.8 {
            y += (px / std::f64::consts::PI).sqrt() + sz.label * 0.75;
        }
        let home = homes[id.index()]
            .map(|i| &map.empires[i])
            .filter(|e| match &s.game {
                Some(g) => g.state.empire(e.code).is_some(),
                None => true,
            })
            .map(|e| match &s.game {
                Some(_) => "#fffdf6",
                None => s.colour(e.code),
            });
        let badges = match &s.game {
            Some(g) => badges(s, g, id),
            None => Vec::new(),
        };
        marks.push(Mark {
            id,
            at: (x, y),
            text_w,
            home,
            owner,
            badges,
        });
    }
    // The viewer's own areas first, so that they keep their labels where others crowd them;
    // the keys worked out once, as one number each, for they are compared many times.
    let viewer = s.game.as_ref().and_then(|g| g.viewer);
    let mut keys: Vec<(u64, usize)> = marks
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let others = u64::from(viewer.is_none() || m.owner != viewer);
            (others << 40 | u64::from(regions.pixels[m.id.index()]), i)
        })
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
            // Without its forces, then not at all: the closer zooms show them.
            match clear_spot(&marks[i], &placed) {
                Some(at) => at,
                None if marks[i].badges.is_empty() => {
                    keep[i] = false;
                    continue;
                }
                None => {
                    let had = std::mem::take(&mut marks[i].badges);
                    match clear_spot(&marks[i], &placed) {
                        Some(at) => at,
                        None => {
                            marks[i].badges = had;
                            keep[i] = false;
                            continue;
                        }
                    }
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

fn titles(s: &Scene) -> (String, String) {
    let map = s.map;
    let variant = |v: Option<empires_rules::Variant>| {
        v.map_or(String::new(), |v| {
            let v = v.to_string();
            let mut c = v.chars();
            let first: String = c
                .next()
                .map(|f| f.to_uppercase().collect())
                .unwrap_or_default();
            format!("{first}{} Empires · ", c.as_str())
        })
    };
    match &s.game {
        None => (
            s.title.clone().unwrap_or_else(|| map.name.clone()),
            format!(
                "{}{} land areas, {} sea areas, {} empires",
                variant(map.variant),
                map.land_count(),
                map.areas().len() - map.land_count(),
                map.empires.len()
            ),
        ),
        Some(g) => {
            let st = &g.state;
            let mut title = s
                .title
                .clone()
                .unwrap_or_else(|| format!("{}, turn {}", st.game, st.turn));
            if let Some(e) = g.viewer
                && s.title.is_none()
            {
                let name = st.empire(e).map_or(String::new(), |x| x.name.clone());
                let _ = write!(title, ", as {name} ({e}) sees it");
            }
            (title, {
                // "World Empires · World Empires" says it once.
                let v = variant(Some(st.variant));
                if v.trim_end_matches(" · ") == map.name {
                    map.name.clone()
                } else {
                    format!("{v}{}", map.name)
                }
            })
        }
    }
}

/// Where an empire's colour is kept in [`owner_colours`]: codes are two capital letters.
fn code_slot(e: EmpireCode) -> usize {
    let b = e.as_str().as_bytes();
    let letter = |i: usize| usize::from(b.get(i).map_or(0, |c| c.saturating_sub(b'A')).min(25));
    letter(0) * 26 + letter(1)
}

/// The colour of each of the game's empires, by [`code_slot`]: looked up once per drawing
/// rather than for every area.
fn owner_colours(s: &Scene) -> Vec<&'static str> {
    let mut out = vec![style::UNOWNED; 26 * 26];
    if let Some(g) = &s.game {
        for e in &g.state.empires {
            out[code_slot(e.code)] = s.colour(e.code);
        }
    }
    out
}

fn area_colour(s: &Scene, id: AreaId, shade: &[usize], owners: &[&'static str]) -> &'static str {
    let a = s.map.area(id);
    if a.is_sea() {
        return style::SEA[shade[id.index()] % style::SEA.len()];
    }
    match &s.game {
        None => style::terrain(a.terrain, shade[id.index()]),
        Some(g) => match g.state.area(id).owner {
            Some(e) => owners.get(code_slot(e)).copied().unwrap_or(style::UNOWNED),
            None => style::UNOWNED,
        },
    }
}

/// The forces in an area the viewer sees.
fn badges(s: &Scene, g: &Game, id: AreaId) -> Vec<Badge> {
    if g.visible.as_ref().is_some_and(|v| !v[id.index()]) {
        return Vec::new();
    }
    let a = g.state.area(id);
    let mut out = Vec::new();
    let plain = "#fffdf6";
    if a.armies > 0 {
        out.push(Badge {
            icon: "i-army",
            count: a.armies.to_string(),
            fill: plain,
        });
    }
    if a.forts > 0 {
        out.push(Badge {
            icon: "i-fort",
            count: a.forts.to_string(),
            fill: plain,
        });
    }
    if let Some(b) = &a.base {
        let count = if b.laid_up > 0 {
            format!("{}+{}", b.ships, b.laid_up)
        } else {
            b.ships.to_string()
        };
        out.push(Badge {
            icon: "i-base",
            count,
            fill: plain,
        });
    }
    if a.trains > 0 {
        out.push(Badge {
            icon: "i-train",
            count: a.trains.to_string(),
            fill: plain,
        });
    }
    if let Some(f) = &a.fleet {
        let colour = s.colour(f.owner);
        out.push(Badge {
            icon: "i-ship",
            count: f.ships.to_string(),
            fill: colour,
        });
        if f.armies > 0 {
            out.push(Badge {
                icon: "i-army",
                count: f.armies.to_string(),
                fill: colour,
            });
        }
    }
    out
}

fn badge_widths(sz: &Sizes, badges: &[Badge]) -> Vec<f64> {
    let k = sz.badge;
    let pad = k * 0.22;
    badges
        .iter()
        .map(|b| pad + k + pad * 0.6 + text_width(&b.count, k) + pad)
        .collect()
}

fn badges_width(sz: &Sizes, badges: &[Badge]) -> f64 {
    let gap = sz.badge * 0.25;
    badge_widths(sz, badges).iter().sum::<f64>() + gap * (badges.len() as f64 - 1.0)
}

fn write_badges(
    sz: &Sizes,
    o: &mut String,
    code: Option<&str>,
    badges: &[Badge],
    cx: f64,
    top: f64,
) {
    let k = sz.badge;
    let pad = k * 0.22;
    let widths = badge_widths(sz, badges);
    let gap = k * 0.25;
    let total = badges_width(sz, badges);
    let mut x = cx - total / 2.0;
    let h = k * 1.35;
    match code {
        Some(code) => {
            let _ = writeln!(o, r#"<g id="forces-{code}">"#);
        }
        None => o.push_str("<g>\n"),
    }
    for (b, w) in badges.iter().zip(&widths) {
        interleave(
            o,
            &[
                "<rect x=\"",
                "\" y=\"",
                "\" width=\"",
                "\" height=\"",
                "\" rx=\"",
                "\" fill=\"",
            ],
            &[x, top, *w, h, k * 0.3],
        );
        o.push_str(b.fill);
        o.push_str("\" stroke=\"#2e2a24\" stroke-width=\"0.7\"/><use href=\"#");
        o.push_str(b.icon);
        o.push_str("\" xlink:href=\"#");
        o.push_str(b.icon);
        interleave(
            o,
            &[
                "\" x=\"",
                "\" y=\"",
                "\" width=\"",
                "\" height=\"",
                "\"/><text x=\"",
                "\" y=\"",
                "\" fill=\"#2e2a24\">",
            ],
            &[
                x + pad,
                top + (h - k) / 2.0,
                k,
                k,
                x + pad + k + pad * 0.6,
                top + h / 2.0 + k * 0.36,
            ],
        );
        o.push_str(&b.count);
        o.push_str("</text>\n");
        x += w + gap;
    }
    let _ = writeln!(o, "</g>");
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

fn borders(s: &Scene, f: &Frame, o: &mut String) {
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
fn graticule(s: &Scene, f: &Frame) -> String {
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
fn write_legend(s: &Scene, x0: f64, top: f64, width: f64, o: &mut String) -> f64 {
    let sz = s.sizes;
    let t = sz.text;
    let row = t * 1.65;
    let cols = ((width / (t * 17.0)).floor() as usize).max(1);
    let colw = width / cols as f64;
    let mut entries: Vec<String> = Vec::new();
    let swatch = |colour: &str| {
        format!(
            r##"<rect x="0" y="{}" width="{}" height="{}" rx="2" fill="{colour}" stroke="#4a4036" stroke-width="0.6"/>"##,
            num(-t * 0.8),
            num(t * 1.5),
            num(t * 0.95)
        )
    };
    let icon = |id: &str| {
        format!(
            r##"<use href="#{id}" xlink:href="#{id}" x="{}" y="{}" width="{k}" height="{k}"/>"##,
            num(t * 0.2),
            num(-t * 0.9),
            k = num(t * 1.05)
        )
    };
    let text = |x: f64, s: &str| {
        format!(
            r#"<text x="{}" y="0">{}</text>"#,
            num(x),
            escape(&fit(s, colw - t * 2.6, t))
        )
    };
    let star = |colour: &str| {
        format!(
            r##"<use href="#i-home" xlink:href="#i-home" x="{}" y="{}" width="{k}" height="{k}" fill="{colour}"/>"##,
            num(t * 0.2),
            num(-t * 0.95),
            k = num(t * 1.1)
        )
    };
    let heading;
    match &s.game {
        None => {
            heading = "Terrain and start positions".to_string();
            let mut used: Vec<Terrain> = s.map.areas().iter().map(|a| a.terrain).collect();
            used.sort();
            used.dedup();
            for t2 in used {
                let colour = if t2.is_sea() {
                    style::SEA[0]
                } else {
                    style::terrain(t2, 0)
                };
                entries.push(format!("{}{}", swatch(colour), text(t * 2.0, t2.name())));
            }
            for e in &s.map.empires {
                let label = format!("{} {} ({})", e.code, e.name, s.map.code(e.home));
                entries.push(format!(
                    "{}{}",
                    star(s.colour(e.code)),
                    text(t * 2.0, &label)
                ));
            }
        }
        Some(g) => {
            heading = match g.viewer {
                Some(e) => format!("Empires (areas owned), and what {e} cannot see"),
                None => "Empires (areas owned)".to_string(),
            };
            // The viewer's own empire first, outlined as on the map.
            let viewer_first = g
                .state
                .empires
                .iter()
                .filter(|e| Some(e.code) == g.viewer)
                .chain(g.state.empires.iter().filter(|e| Some(e.code) != g.viewer));
            for e in viewer_first {
                let owned = g.state.owned_by(e.code).count();
                let who = match (&e.player, e.eliminated) {
                    (_, Some(turn)) => format!(", out on turn {turn}"),
                    (Some(p), None) => format!(", {p}"),
                    (None, None) => String::new(),
                };
                let mut label = format!("{} {}{who} ({owned})", e.code, e.name);
                let mut mark = swatch(s.colour(e.code));
                if Some(e.code) == g.viewer {
                    label = format!("{} {} (you, {owned})", e.code, e.name);
                    mark.push_str(&format!(
                        r#"<rect x="0" y="{}" width="{}" height="{}" rx="2" fill="none" stroke="{}" stroke-width="{}"/>"#,
                        num(-t * 0.8),
                        num(t * 1.5),
                        num(t * 0.95),
                        style::YOURS,
                        num(t * 0.2)
                    ));
                }
                entries.push(format!("{mark}{}", text(t * 2.0, &label)));
            }
            entries.push(format!(
                "{}{}",
                swatch(style::UNOWNED),
                text(t * 2.0, "unowned")
            ));
            if g.viewer.is_some() {
                entries.push(format!(
                    r#"{}{}"#,
                    swatch("url(#hidden)"),
                    text(t * 2.0, "not seen this turn")
                ));
            }
            for (id, what) in [
                ("i-army", "armies"),
                ("i-fort", "forts"),
                ("i-base", "naval base, ships"),
                ("i-ship", "fleet at sea, ships"),
            ] {
                entries.push(format!("{}{}", icon(id), text(t * 2.0, what)));
            }
            if g.state.areas.iter().any(|a| a.trains > 0) {
                entries.push(format!(
                    "{}{}",
                    icon("i-train"),
                    text(t * 2.0, "supply trains")
                ));
            }
            entries.push(format!(
                r##"<use href="#i-home" xlink:href="#i-home" x="{}" y="{}" width="{k}" height="{k}" fill="#fffdf6"/>{}"##,
                num(t * 0.2),
                num(-t * 0.95),
                text(t * 2.0, "home area"),
                k = num(t * 1.1)
            ));
        }
    }
    let rows = entries.len().div_ceil(cols);
    let _ = writeln!(
        o,
        r#"<g id="legend" font-size="{}" fill="{}">"#,
        num(t),
        style::INK
    );
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" fill="{}">{}</text>"#,
        num(x0),
        num(top + t * 0.4),
        style::MUTED_INK,
        escape(&heading)
    );
    for (i, e) in entries.iter().enumerate() {
        let (c, r) = (i / rows, i % rows);
        let x = x0 + c as f64 * colw;
        let y = top + t * 0.4 + row * (r as f64 + 1.0);
        let _ = writeln!(
            o,
            r#"<g transform="translate({},{})">{e}</g>"#,
            num(x),
            num(y)
        );
    }
    let _ = writeln!(o, "</g>");
    t * 0.4 + row * (rows as f64 + 0.4)
}

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
    /// and of each other's force tags: none hides another.
    #[test]
    fn labels_and_force_tags_do_not_overlap_short_of_the_closest_zoom() {
        use super::super::{Base, DrawOptions};
        use empires_rules::knowledge::{view_for, visible_areas};
        use empires_rules::setup::{NewGame, new_game};
        for name in ["world", "european"] {
            let map = crate::standard::load(name).unwrap().unwrap();
            let st = new_game(
                &map,
                &NewGame {
                    name: "Test".into(),
                    variant: map.variant.unwrap(),
                    seed: 3,
                    players: Default::default(),
                    options: Default::default(),
                },
            )
            .unwrap();
            let opts = DrawOptions {
                width: 960,
                zoom_label: Some(12.5),
                ..DrawOptions::default()
            };
            let base = Base::new(&map, &opts).unwrap();
            let e = st.empires[0].code;
            let scene = base.scene(Some(Game {
                state: view_for(&map, &st, e),
                visible: Some(visible_areas(&map, &st, e)),
                viewer: Some(e),
            }));
            let (main, inset) = frames(&scene);
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
