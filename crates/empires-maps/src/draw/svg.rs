//! Writing the drawing as SVG: off-map land and sea, the areas (paths with the area codes
//! as ids), hatching over what a viewer cannot see, graticule, borders, labels, home
//! markers, forces, title and legend.

use super::projection::Projection;
use super::regions::{FRAME, OFF_LAND, OFF_SEA, OUTSIDE, Regions};
use super::style::{self, Sizes};
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

pub struct Scene<'a> {
    pub map: &'a Map,
    pub regions: &'a Regions,
    pub traced: &'a Traced,
    pub proj: &'a Projection,
    /// Frame pixels per output pixel.
    pub ss: f64,
    pub width: f64,
    pub sizes: Sizes,
    pub game: Option<Game>,
    pub title: Option<String>,
    pub graticule: bool,
}

/// A number with at most one decimal, without a trailing ".0".
pub fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
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

struct Layout {
    fx: f64,
    fy: f64,
    fw: f64,
    fh: f64,
}

impl Scene<'_> {
    fn layout(&self) -> Layout {
        let s = self.sizes;
        Layout {
            fx: s.margin,
            fy: s.margin + s.title * 1.9,
            fw: f64::from(self.proj.width) / self.ss,
            fh: f64::from(self.proj.height) / self.ss,
        }
    }

    /// Output coordinates of a frame pixel position.
    fn out(&self, l: &Layout, p: (f64, f64)) -> (f64, f64) {
        (l.fx + p.0 / self.ss, l.fy + p.1 / self.ss)
    }

    fn path_of_rings(&self, l: &Layout, rings: &[Vec<(f64, f64)>], d: &mut String) {
        for ring in rings {
            for (i, &p) in ring.iter().enumerate() {
                let (x, y) = self.out(l, p);
                let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { " " }, num(x), num(y));
            }
            d.push('Z');
        }
    }

    fn region_path(&self, l: &Layout, label: u16) -> String {
        let mut d = String::new();
        if let Some(rings) = self.traced.rings.get(&label) {
            let pts: Vec<Vec<(f64, f64)>> =
                rings.iter().map(|r| self.traced.ring_points(r)).collect();
            self.path_of_rings(l, &pts, &mut d);
        }
        d
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

pub fn write(s: &Scene) -> String {
    let map = s.map;
    let l = s.layout();
    let sz = s.sizes;
    let n = map.areas().len();
    let mut legend = String::new();
    let legend_h = write_legend(s, &l, &mut legend);
    let height = l.fy + l.fh + legend_h + sz.margin;
    let mut o = String::with_capacity(1 << 20);
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Verdana, sans-serif">"#,
        w = num(s.width),
        h = num(height.ceil())
    );
    let (title, subtitle) = titles(s);
    let _ = writeln!(o, "<title>{}</title>", escape(&title));
    let _ = writeln!(o, "<defs>");
    let _ = writeln!(
        o,
        r#"<clipPath id="frame"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>"#,
        num(l.fx),
        num(l.fy),
        num(l.fw),
        num(l.fh)
    );
    let _ = writeln!(
        o,
        r##"<pattern id="hidden" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(45)"><rect width="7" height="7" fill="#4a4440" fill-opacity="0.16"/><rect width="2.2" height="7" fill="#4a4440" fill-opacity="0.32"/></pattern>"##
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
        num(l.fx),
        num(sz.margin + sz.title * 0.95),
        num(sz.title),
        style::INK,
        escape(&title)
    );
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" font-size="{}" fill="{}" text-anchor="end">{}</text>"#,
        num(l.fx + l.fw),
        num(sz.margin + sz.title * 0.95),
        num(sz.text),
        style::MUTED_INK,
        escape(&subtitle)
    );

    // Fills.
    let _ = writeln!(o, r#"<g clip-path="url(#frame)">"#);
    let _ = writeln!(
        o,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
        num(l.fx),
        num(l.fy),
        num(l.fw),
        num(l.fh),
        if s.proj.is_world() {
            style::PAGE
        } else {
            style::OFF_SEA
        }
    );
    for (label, colour, id) in [
        (OFF_SEA, style::OFF_SEA, "off-map-sea"),
        (OFF_LAND, style::OFF_LAND, "off-map-land"),
    ] {
        let d = s.region_path(&l, label);
        if !d.is_empty() {
            let _ = writeln!(
                o,
                r#"<path id="{id}" d="{d}" fill="{colour}" fill-rule="evenodd"/>"#
            );
        }
    }
    let shade = shades(map);
    let _ = writeln!(o, r#"<g id="areas" fill-rule="evenodd">"#);
    for id in map.ids() {
        let a = map.area(id);
        let colour = area_colour(s, id, &shade);
        let d = s.region_path(&l, id.0);
        let _ = writeln!(
            o,
            r#"<path id="{}" d="{d}" fill="{colour}"><title>{} {}</title></path>"#,
            a.code,
            a.code,
            escape(&a.name)
        );
    }
    let _ = writeln!(o, "</g>");
    if let Some(Game {
        visible: Some(vis), ..
    }) = &s.game
    {
        let mut d = String::new();
        for id in map.ids().filter(|i| !vis[i.index()]) {
            d.push_str(&s.region_path(&l, id.0));
        }
        if !d.is_empty() {
            let _ = writeln!(
                o,
                r#"<path id="unseen" d="{d}" fill="url(#hidden)" fill-rule="evenodd"/>"#
            );
        }
    }
    if s.graticule {
        let d = graticule(s, &l);
        if !d.is_empty() {
            let _ = writeln!(
                o,
                r#"<path id="graticule" d="{d}" fill="none" stroke="{}" stroke-opacity="0.22" stroke-width="0.6"/>"#,
                style::GRATICULE
            );
        }
    }
    borders(s, &l, &mut o);
    let _ = writeln!(o, "</g>");
    let _ = writeln!(
        o,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="1.2"/>"#,
        num(l.fx),
        num(l.fy),
        num(l.fw),
        num(l.fh),
        style::FRAME
    );

    // Labels, home markers and forces.
    let mut forces = String::new();
    let _ = writeln!(
        o,
        r#"<g id="labels" font-size="{}" text-anchor="middle" stroke-width="{}" stroke-linejoin="round" paint-order="stroke">"#,
        num(sz.label),
        num(sz.label * 0.26)
    );
    for id in map.ids() {
        let a = map.area(id);
        let Some(p) = s.regions.anchors[id.index()] else {
            continue;
        };
        let (x, mut y) = s.out(&l, p);
        // A small island keeps its label beside it, so that it stays visible.
        let px = f64::from(s.regions.pixels[id.index()]) / (s.ss * s.ss);
        let lw = text_width(a.code.as_str(), sz.label);
        if a.is_land() && px < lw * sz.label * 0.8 {
            y += (px / std::f64::consts::PI).sqrt() + sz.label * 0.75;
        }
        let (fill, halo) = if a.is_sea() {
            (style::SEA_INK, "#eef5fa")
        } else {
            (style::INK, "#fffdf6")
        };
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" fill="{fill}" stroke="{halo}">{}</text>"#,
            num(x),
            num(y + sz.label * 0.36),
            a.code
        );
        if let Some(e) = map.empires.iter().find(|e| e.home == id) {
            let shown = match &s.game {
                Some(g) => g.state.empire(e.code).is_some(),
                None => true,
            };
            if shown {
                let k = sz.label * 0.95;
                let _ = writeln!(
                    o,
                    r##"<use href="#i-home" xlink:href="#i-home" x="{}" y="{}" width="{k2}" height="{k2}" fill="{}" stroke="none"/>"##,
                    num(x - lw / 2.0 - k - 1.0),
                    num(y - k / 2.0),
                    style::empire(s.empire_index(e.code)),
                    k2 = num(k)
                );
            }
        }
        if let Some(g) = &s.game {
            let badges = badges(s, g, id);
            if !badges.is_empty() {
                write_badges(
                    s,
                    &mut forces,
                    a.code.as_str(),
                    &badges,
                    x,
                    y + sz.label * 1.05,
                );
            }
        }
    }
    let _ = writeln!(o, "</g>");
    if !forces.is_empty() {
        let _ = writeln!(
            o,
            r#"<g id="forces" font-size="{}" text-anchor="start">"#,
            num(sz.badge)
        );
        o.push_str(&forces);
        let _ = writeln!(o, "</g>");
    }
    let _ = n;
    o.push_str(&legend);
    o.push_str("</svg>\n");
    o
}

fn titles(s: &Scene) -> (String, String) {
    let map = s.map;
    let variant =
        |v: Option<empires_rules::Variant>| v.map_or(String::new(), |v| format!("{v} Empires · "));
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
            (title, format!("{}{}", variant(Some(st.variant)), map.name))
        }
    }
}

fn area_colour(s: &Scene, id: AreaId, shade: &[usize]) -> &'static str {
    let a = s.map.area(id);
    if a.is_sea() {
        return style::SEA[shade[id.index()] % style::SEA.len()];
    }
    match &s.game {
        None => style::terrain(a.terrain, shade[id.index()]),
        Some(g) => match g.state.area(id).owner {
            Some(e) => style::empire(s.empire_index(e)),
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
        let colour = style::empire(s.empire_index(f.owner));
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

fn write_badges(s: &Scene, o: &mut String, code: &str, badges: &[Badge], cx: f64, top: f64) {
    let k = s.sizes.badge;
    let pad = k * 0.22;
    let widths: Vec<f64> = badges
        .iter()
        .map(|b| pad + k + pad * 0.6 + text_width(&b.count, k) + pad)
        .collect();
    let gap = k * 0.25;
    let total: f64 = widths.iter().sum::<f64>() + gap * (badges.len() as f64 - 1.0);
    let mut x = cx - total / 2.0;
    let h = k * 1.35;
    let _ = writeln!(o, r#"<g id="forces-{code}">"#);
    for (b, w) in badges.iter().zip(&widths) {
        let _ = writeln!(
            o,
            r##"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{}" stroke="#2e2a24" stroke-width="0.7"/><use href="#{icon}" xlink:href="#{icon}" x="{}" y="{}" width="{k2}" height="{k2}"/><text x="{}" y="{}" fill="#2e2a24">{}</text>"##,
            num(x),
            num(top),
            num(*w),
            num(h),
            num(k * 0.3),
            b.fill,
            num(x + pad),
            num(top + (h - k) / 2.0),
            num(x + pad + k + pad * 0.6),
            num(top + h / 2.0 + k * 0.36),
            b.count,
            icon = b.icon,
            k2 = num(k)
        );
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

fn borders(s: &Scene, l: &Layout, o: &mut String) {
    let n = s.map.areas().len();
    let mut paths: Vec<(Line, String)> = Vec::new();
    for ch in &s.traced.chains {
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
        let d = &mut paths[i].1;
        for (j, &p) in ch.points.iter().enumerate() {
            let (x, y) = s.out(l, p);
            let _ = write!(d, "{}{} {}", if j == 0 { "M" } else { " " }, num(x), num(y));
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
            r#"<path id="{id}" d="{d}" fill="none" stroke="{colour}" stroke-width="{width}" stroke-linejoin="round" stroke-linecap="round"{extra}/>"#
        );
    }
}

/// Lines of longitude and latitude across the frame.
fn graticule(s: &Scene, l: &Layout) -> String {
    let p = s.proj;
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
            let (x, y) = s.out(l, q);
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
fn write_legend(s: &Scene, l: &Layout, o: &mut String) -> f64 {
    let sz = s.sizes;
    let t = sz.text;
    let row = t * 1.65;
    let top = l.fy + l.fh + t * 1.2;
    let cols = ((l.fw / (t * 21.0)).floor() as usize).max(1);
    let colw = l.fw / cols as f64;
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
    let star = |i: usize| {
        format!(
            r##"<use href="#i-home" xlink:href="#i-home" x="{}" y="{}" width="{k}" height="{k}" fill="{}"/>"##,
            num(t * 0.2),
            num(-t * 0.95),
            style::empire(i),
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
            for (i, e) in s.map.empires.iter().enumerate() {
                let label = format!("{} {} ({})", e.code, e.name, s.map.code(e.home));
                entries.push(format!("{}{}", star(i), text(t * 2.0, &label)));
            }
        }
        Some(g) => {
            heading = match g.viewer {
                Some(e) => format!("Empires (areas owned), and what {e} cannot see"),
                None => "Empires (areas owned)".to_string(),
            };
            for (i, e) in g.state.empires.iter().enumerate() {
                let owned = g.state.owned_by(e.code).count();
                let who = match (&e.player, e.eliminated) {
                    (_, Some(turn)) => format!(", out on turn {turn}"),
                    (Some(p), None) => format!(", {p}"),
                    (None, None) => String::new(),
                };
                let label = format!("{} {}{who} ({owned})", e.code, e.name);
                entries.push(format!(
                    "{}{}",
                    swatch(style::empire(i)),
                    text(t * 2.0, &label)
                ));
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
            entries.push(format!("{}{}", star(0), text(t * 2.0, "home area")));
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
        num(l.fx),
        num(top + t * 0.4),
        style::MUTED_INK,
        escape(&heading)
    );
    for (i, e) in entries.iter().enumerate() {
        let (c, r) = (i / rows, i % rows);
        let x = l.fx + c as f64 * colw;
        let y = top + t * 0.4 + row * (r as f64 + 1.0);
        let _ = writeln!(
            o,
            r#"<g transform="translate({},{})">{e}</g>"#,
            num(x),
            num(y)
        );
    }
    let _ = writeln!(o, "</g>");
    t * 1.2 + t * 0.4 + row * (rows as f64 + 0.4)
}
