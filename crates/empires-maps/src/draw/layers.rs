//! The map's own layer: everything of a drawing that no game changes (the regions, borders,
//! graticule and area codes), written once per map, and the layout that each viewer's
//! [`super::overlay`] is placed by.
//!
//! A drawing is an overlay (what one viewer sees of one game: colours, fog, forces, owners,
//! title and legend) with empty placeholders, `<g data-part="NAME"></g>`, where the map's
//! own layer goes. [`Layers::assemble`] fills them in for a drawing in one piece; a report
//! page fills them in the browser from the game's one copy of the layer (`map.js`), so that
//! each report carries only what differs. The layer's elements refer to the overlay's by id
//! (`forces-CODE`, `o-CODE`, `h-CODE`) and the overlay's style sheet shows and colours the
//! layer's (`#CODE`, `#u-CODE`, `#h12`, `#y12`); a reference to an element the overlay does
//! not have draws nothing.

use super::ZOOMS;
use super::regions::{OFF_LAND, OFF_SEA};
use super::style::{self, Sizes};
use super::svg::{self, Frame, Scene, interleave, num, place_labels, shades};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Where a frame sits on the page, in output pixels, and the prefix of its elements' ids.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrameBox {
    pub prefix: String,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// What an overlay needs to know of the map's drawing: sizes and places, no shapes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// How many areas the map has: a layout for another map is refused.
    pub areas: usize,
    pub width: f64,
    pub sizes: Sizes,
    /// The main frame, then the inset if any.
    pub frames: Vec<FrameBox>,
    /// The main map's box that the inset enlarges, in output pixels.
    pub inset_box: Option<[f64; 4]>,
    /// The areas labelled in the inset only.
    pub boxed: Vec<bool>,
    /// Each frame's areas drawn in it.
    pub drawn: Vec<Vec<bool>>,
    /// Each area's position in each frame, in output pixels.
    pub anchors: Vec<Vec<Option<(f64, f64)>>>,
    /// Each frame's borders that may edge an empire, as the regions on their two sides; the
    /// `n`th is drawn as `#hN` (halo) and `#yN` (line).
    pub edges: Vec<Vec<(u16, u16)>>,
    /// The codes' size at the whole drawing, for a page that zooms.
    pub zoom_label: Option<f64>,
    /// The label size the overlay's owner codes, home markers and force tags are drawn at;
    /// the layer scales them to each set of labels.
    pub unit: f64,
    /// Each of the map's empires' colour, in the map's order.
    pub colours: Vec<String>,
    /// The legend's left edge, top and width.
    pub legend: [f64; 3],
    /// The bottom of the inset, which the page reaches at least.
    pub inset_bottom: Option<f64>,
}

/// The map's own layer, by placeholder name, with its layout.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layers {
    pub layout: Layout,
    pub parts: BTreeMap<String, String>,
}

/// The placeholder of a part in an overlay.
pub fn placeholder(name: &str) -> String {
    format!("<g data-part=\"{name}\"></g>")
}

impl Layers {
    /// Works out the layer of a scene: the regions' paths, borders and labels.
    pub(super) fn new(s: &Scene, colours: &[&'static str]) -> Layers {
        let (main, inset) = svg::frames(s);
        let sz = s.sizes;
        let below = main.fy + main.fh + sz.text * 1.2;
        let legend = match &inset {
            Some(f) => [
                f.fx + f.fw + sz.margin * 1.5,
                below,
                main.fw - f.fw - sz.margin * 1.5,
            ],
            None => [main.fx, below, main.fw],
        };
        let unit = s.zoom_label.unwrap_or(s.main.sizes.label);
        let n = s.map.areas().len();
        let mut layout = Layout {
            areas: n,
            width: s.width,
            sizes: sz,
            frames: Vec::new(),
            inset_box: None,
            boxed: s.map.ids().map(|id| s.in_inset_box(id)).collect(),
            drawn: Vec::new(),
            anchors: Vec::new(),
            edges: Vec::new(),
            zoom_label: s.zoom_label,
            unit,
            colours: colours.iter().map(|c| c.to_string()).collect(),
            legend,
            inset_bottom: inset.as_ref().map(|f| f.fy + f.fh),
        };
        if let (Some(b), Some(_)) = (s.inset_box, &inset) {
            let (x0, y0) = main.out((b[0], b[1]));
            let (x1, y1) = main.out((b[2], b[3]));
            layout.inset_box = Some([x0, y0, x1, y1]);
        }
        let mut parts = BTreeMap::new();
        for f in std::iter::once(&main).chain(&inset) {
            let mut o = String::with_capacity(1 << 19);
            let (drawn, edges) = draw_frame(s, f, unit, &mut o);
            layout.frames.push(FrameBox {
                prefix: f.prefix.to_string(),
                x: f.fx,
                y: f.fy,
                w: f.fw,
                h: f.fh,
            });
            layout.anchors.push(
                f.p.regions
                    .anchors
                    .iter()
                    .take(n)
                    .map(|a| a.map(|p| f.out(p)))
                    .collect(),
            );
            layout.drawn.push(drawn);
            layout.edges.push(edges);
            parts.insert(format!("{}map", f.prefix), o);
        }
        Layers { layout, parts }
    }

    /// A drawing in one piece: the overlay with the layer in its placeholders.
    pub fn assemble(&self, overlay: &str) -> String {
        let mut out = String::with_capacity(
            overlay.len() + self.parts.values().map(String::len).sum::<usize>(),
        );
        let mut rest = overlay;
        while let Some(at) = rest.find("<g data-part=\"") {
            let after = &rest[at + 14..];
            let Some(q) = after.find('"') else { break };
            let name = &after[..q];
            let empty = placeholder(name);
            if !rest[at..].starts_with(&empty) {
                out.push_str(&rest[..at + 14]);
                rest = after;
                continue;
            }
            out.push_str(&rest[..at]);
            let _ = write!(out, "<g data-part=\"{name}\">");
            out.push_str(self.parts.get(name).map_or("", String::as_str));
            out.push_str("</g>");
            rest = &rest[at + empty.len()..];
        }
        out.push_str(rest);
        out
    }
}

/// One frame of the layer: backgrounds, the areas (shapes in `defs`, drawn by `use` with the
/// area codes as ids, coloured by terrain until an overlay colours them by owner), the
/// hatching of unseen areas (hidden until an overlay shows it), graticule, borders, the
/// edges an empire's outline is drawn along (hidden), the frame, and the labels. Returns
/// which areas are drawn and the edges.
fn draw_frame(s: &Scene, f: &Frame, unit: f64, o: &mut String) -> (Vec<bool>, Vec<(u16, u16)>) {
    let map = s.map;
    let n = map.areas().len();
    let pre = f.prefix;
    if pre.is_empty() {
        shared_defs(s, unit, o);
    }
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
        let d = f.region_path(label);
        if !d.is_empty() {
            let _ = writeln!(
                o,
                r#"<path id="{pre}{id}" d="{d}" fill="{colour}" fill-rule="evenodd"/>"#
            );
        }
    }
    let shade = shades(map);
    let mut drawn = vec![false; n];
    let _ = writeln!(o, "<defs>");
    for id in map.ids() {
        let d = f.region_path(id.0);
        // The inset leaves out the areas outside it; the main map draws every area.
        if d.is_empty() && !pre.is_empty() {
            continue;
        }
        drawn[id.index()] = true;
        let _ = writeln!(o, r#"<path id="{pre}d-{}" d="{d}"/>"#, map.area(id).code);
    }
    let _ = writeln!(o, "</defs>");
    let _ = writeln!(o, r#"<g id="{pre}areas" fill-rule="evenodd">"#);
    for id in map.ids().filter(|i| drawn[i.index()]) {
        let a = map.area(id);
        let (class, colour) = if a.is_sea() {
            ("ms", style::SEA[shade[id.index()] % style::SEA.len()])
        } else {
            ("ml", style::terrain(a.terrain, shade[id.index()]))
        };
        let _ = writeln!(
            o,
            r##"<use href="#{pre}d-{c}" id="{pre}{c}" class="{class}" fill="{colour}"><title>{c} {}</title></use>"##,
            svg::escape(&a.name),
            c = a.code
        );
    }
    let _ = writeln!(o, "</g>");
    let _ = writeln!(
        o,
        r#"<g id="{pre}unseen" class="uh" fill="url(#hidden)" fill-rule="evenodd">"#
    );
    for id in map.ids().filter(|i| drawn[i.index()]) {
        let _ = writeln!(
            o,
            r##"<use href="#{pre}d-{c}" id="{pre}u-{c}" display="none"/>"##,
            c = map.area(id).code
        );
    }
    let _ = writeln!(o, "</g>");
    if s.graticule {
        let d = svg::graticule(s, f);
        if !d.is_empty() {
            let _ = writeln!(
                o,
                r#"<path id="{pre}graticule" d="{d}" fill="none" stroke="{}" stroke-opacity="0.22" stroke-width="0.6"/>"#,
                style::GRATICULE
            );
        }
    }
    svg::borders(s, f, o);
    // The borders an empire's outline may follow: those with land on at least one side.
    let land = |l: u16| usize::from(l) < n && map.areas()[usize::from(l)].is_land();
    let mut edges = Vec::new();
    let mut paths = String::new();
    for ch in &f.p.traced.chains {
        if !(land(ch.left) || land(ch.right)) || ch.left == ch.right {
            continue;
        }
        let _ = write!(paths, r#"<path id="{pre}c{}" d=""#, edges.len());
        let mut w = svg::PathData::new(&mut paths);
        for (j, &p) in ch.points.iter().enumerate() {
            let (x, y) = f.out(p);
            if j == 0 {
                w.move_to(x, y);
            } else {
                w.line_to(x, y);
            }
        }
        paths.push_str("\"/>\n");
        edges.push((ch.left, ch.right));
    }
    let _ = writeln!(o, "<defs>\n{paths}</defs>");
    for (kind, colour, width) in [("h", style::YOURS_HALO, 4.2), ("y", style::YOURS, 2.2)] {
        let _ = writeln!(
            o,
            r#"<g fill="none" stroke="{colour}" stroke-width="{width}" stroke-linejoin="round" stroke-linecap="round">"#
        );
        for i in 0..edges.len() {
            let _ = writeln!(
                o,
                r##"<use href="#{pre}c{i}" id="{pre}{kind}{i}" display="none"/>"##
            );
        }
        let _ = writeln!(o, "</g>");
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
    // Labels, placed clear of each other where there is room: one set for a picture seen as
    // it is, or one per zoom for a page that zooms.
    match s.zoom_label {
        None => draw_labels(s, f, &f.p.sizes, unit, None, o),
        Some(l) => {
            for (k, z) in ZOOMS.iter().enumerate() {
                let mut sz = f.p.sizes;
                sz.label = l / z;
                sz.badge = sz.label * 0.86;
                draw_labels(s, f, &sz, unit, Some((k + 1, k + 1 == ZOOMS.len())), o);
            }
        }
    }
    (drawn, edges)
}

/// What every overlay uses, kept in the layer once: the hatching's pattern, the icons, the
/// legend's swatch (`#sw`) and the home marker of a game (`#hm`).
fn shared_defs(s: &Scene, unit: f64, o: &mut String) {
    let t = s.sizes.text;
    let k = unit * 0.95;
    let _ = writeln!(
        o,
        r##"<defs><pattern id="hidden" patternUnits="userSpaceOnUse" width="7" height="7" patternTransform="rotate(45)"><rect width="7" height="7" fill="#4a4440" fill-opacity="0.12"/><rect width="2" height="7" fill="#4a4440" fill-opacity="0.28"/></pattern>"##
    );
    o.push_str(svg::ICONS);
    let _ = writeln!(
        o,
        r##"<rect id="sw" x="0" y="{}" width="{}" height="{}" rx="2" stroke="#4a4036" stroke-width="0.6"/>"##,
        num(-t * 0.8),
        num(t * 1.5),
        num(t * 0.95)
    );
    let _ = writeln!(
        o,
        r##"<use id="hm" href="#i-home" x="{}" y="{}" width="{k2}" height="{k2}" fill="#fffdf6" stroke="none"/></defs>"##,
        num(-k - 1.0),
        num(-k / 2.0),
        k2 = num(k)
    );
}

/// One set of labels sized `sz`, with a place for each area's force tags, owner's code and
/// home marker, which the overlay draws at the size `unit` and the layer scales. `level` is
/// the zoom's number and whether it is the closest: the closest labels every area and
/// carries the ids; the others leave out the codes that would overlap, which the closer
/// zooms show.
fn draw_labels(
    s: &Scene,
    f: &Frame,
    sz: &Sizes,
    unit: f64,
    level: Option<(usize, bool)>,
    o: &mut String,
) {
    let map = s.map;
    let pre = f.prefix;
    let (strict, ids) = match level {
        Some((_, closest)) => (!closest, closest),
        None => (false, true),
    };
    if let Some((k, _)) = level {
        let _ = writeln!(o, r#"<g class="lod{k}">"#);
    }
    // Zoomed in, the main map labels the inset's box too: that is where the reader looks.
    let boxed = !matches!(level, Some((k, _)) if k > 1);
    let marks = place_labels(s, f, sz, strict, boxed);
    let scale = sz.label / unit;
    let place = |o: &mut String, x: f64, y: f64| {
        interleave(o, &["translate(", " ", ")"], &[x, y]);
        if (scale - 1.0).abs() > 1e-9 {
            // Scales to three decimals: a tenth is too coarse for them.
            let t = (scale * 1000.0).round() as i64;
            let _ = write!(o, " scale({}.{:03})", t / 1000, t % 1000);
        }
    };
    let id = |what: &str| {
        if ids {
            format!(r#" id="{pre}{what}""#)
        } else {
            String::new()
        }
    };
    // Forces first, so that the labels lie on top of them.
    let _ = writeln!(o, r#"<g{} clip-path="url(#{pre}frame)">"#, id("forces"));
    for m in &marks {
        let code = map.area(m.id).code;
        let _ = write!(o, r##"<use href="#forces-{code}" transform=""##);
        place(o, m.at.0, m.at.1);
        o.push_str("\"/>\n");
    }
    let _ = writeln!(o, "</g>");
    let _ = writeln!(
        o,
        r#"<g{} font-size="{}" text-anchor="middle" stroke-width="{}" stroke-linejoin="round" paint-order="stroke" clip-path="url(#{pre}frame)">"#,
        id("labels"),
        num(sz.label),
        num(sz.label * 0.26)
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
        o.push_str("</text>\n");
        if m.land {
            let _ = write!(o, r##"<use href="#o-{}" transform=""##, a.code);
            place(o, x + m.text_w / 2.0 + sz.label * svg::OWNER_GAP, y);
            o.push_str("\"/>\n");
        }
        if m.home {
            let _ = write!(o, r##"<use href="#h-{}" transform=""##, a.code);
            place(o, x - m.text_w / 2.0, y);
            o.push_str("\"/>\n");
        }
    }
    let _ = writeln!(o, "</g>");
    if level.is_some() {
        let _ = writeln!(o, "</g>");
    }
}
