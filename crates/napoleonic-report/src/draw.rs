//! The map of Napoleonic Europe, drawn on real coastlines by the project's map drawing
//! (`empires_maps::draw`).
//!
//! The drawing works on an `empires_rules::Map`, so the Napoleonic map is first turned into
//! a "drawing proxy": each location an area with a three-character code, land or sea,
//! its neighbours and its longitude and latitude, and no empires. Its layer (regions,
//! borders, labels: the slow part) is worked out once per map by [`MapDrawer::new`]; each
//! kingdom's overlay is then written from its report alone: provinces in their owners'
//! colours (independents grey), the kingdom's outline, the miniatures (blue tags for its own
//! troops, red for everyone else's, each with the count and a figure of the most valuable
//! type, as the original client showed them, digest 1.3), mountain barriers and reefs, the
//! title and a legend of kingdoms. [`Layers::assemble`] puts the two together.

use crate::model::{Force, Report};
use empires_maps::draw::colours;
use empires_maps::draw::layers::{Layers, Layout, placeholder};
use empires_maps::draw::style;
use empires_maps::draw::svg::{escape, num};
use empires_maps::draw::{Base, DrawOptions};
use empires_rules::map::{MapFile, MapFileArea, MapFileEmpire};
use empires_rules::{AreaCode, Terrain};
use napoleonic_rules::map::Map;
use napoleonic_rules::tables::TroopClass;
use napoleonic_rules::{KingdomCode, LocId};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The width the report's map is drawn at, in the drawing's own pixels.
pub const MAP_WIDTH: u32 = 1280;

/// Independent provinces: grey, as the brief of the original map had them.
pub const INDEPENDENT: &str = "#c9c5bd";
/// The base of a miniature: blue for the kingdom's own troops, red for everyone else's
/// (digest 1.3).
pub const OWN_BASE: &str = "#2451a6";
pub const FOREIGN_BASE: &str = "#b3261e";
/// Mountain barriers between provinces, reefs along coasts (digest 2.1).
pub const MOUNTAIN: &str = "#6b4423";
pub const REEF: &str = "#0f6f86";

/// The default options for a report's map.
pub fn options() -> DrawOptions {
    DrawOptions {
        width: MAP_WIDTH,
        title: None,
        graticule: true,
        zoom_label: None,
    }
}

/// Whether a code can be an area code of the drawing as it is: three letters or digits,
/// the first a letter.
fn drawable(code: &str) -> bool {
    let b = code.as_bytes();
    b.len() == 3 && b[0].is_ascii_uppercase() && b.iter().all(|c| c.is_ascii_alphanumeric())
}

/// Each location's code in the drawing, in the map's order (by number). A code that is
/// already three characters starting with a letter is kept; any other (two or four
/// characters, or starting with a digit) gets the first free code made from it: its first
/// three characters, or its first two and one more, or its first and two more. A code that
/// starts with a digit is read with a `P` (province) or `S` (sea) before it.
pub fn proxy_codes(map: &Map) -> Vec<String> {
    let mut taken: BTreeSet<String> = map
        .locations
        .iter()
        .filter(|l| drawable(&l.code))
        .map(|l| l.code.clone())
        .collect();
    const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    map.locations
        .iter()
        .map(|l| {
            if drawable(&l.code) {
                return l.code.clone();
            }
            let mut s: Vec<u8> = l
                .code
                .bytes()
                .filter(u8::is_ascii_alphanumeric)
                .map(|b| b.to_ascii_uppercase())
                .collect();
            if s.first().is_none_or(|b| !b.is_ascii_uppercase()) {
                s.insert(0, if l.is_sea() { b'S' } else { b'P' });
            }
            while s.len() < 3 {
                s.push(b'X');
            }
            let mut candidates: Vec<[u8; 3]> = vec![[s[0], s[1], s[2]]];
            candidates.extend(ALNUM.iter().map(|&c| [s[0], s[1], c]));
            for &a in ALNUM {
                candidates.extend(ALNUM.iter().map(|&b| [s[0], a, b]));
            }
            for &f in ALNUM.iter().take(26) {
                for &a in ALNUM {
                    candidates.extend(ALNUM.iter().map(|&b| [f, a, b]));
                }
            }
            let code = candidates
                .into_iter()
                .map(|c| String::from_utf8_lossy(&c).into_owned())
                .find(|c| !taken.contains(c))
                .unwrap_or_else(|| "ZZZ".to_string());
            taken.insert(code.clone());
            code
        })
        .collect()
}

/// The drawing proxy of a Napoleonic map: every location an area, in the map's order, with
/// its proxy code ([`proxy_codes`]), name, land or sea, neighbours and position. No
/// empires: the report's overlay colours the provinces itself.
pub fn proxy(map: &Map) -> Result<empires_rules::Map, String> {
    let file = proxy_file(map)?;
    empires_rules::Map::from_file(file, &map.name).map_err(|e| e.to_string())
}

/// Each kingdom of the map's colour, handed out by the project's map drawing so that
/// kingdoms starting side by side get colours far apart. The drawing knows empires only by
/// two-letter codes, so the kingdoms stand in as `AA`, `AB`, ... in the map's order, on a
/// copy of the proxy used for nothing else.
pub fn kingdom_colours(map: &Map) -> BTreeMap<KingdomCode, &'static str> {
    let fallback = || {
        map.kingdoms
            .iter()
            .enumerate()
            .map(|(i, k)| (k.code.clone(), style::empire(i)))
            .collect()
    };
    let Ok(mut file) = proxy_file(map) else {
        return fallback();
    };
    let codes = proxy_codes(map);
    let code_of = |id: LocId| {
        map.locations
            .iter()
            .position(|l| l.id == id && !l.is_sea())
            .and_then(|i| AreaCode::parse(&codes[i]).ok())
    };
    for (i, k) in map.kingdoms.iter().enumerate() {
        let letters = [b'A' + (i / 26 % 26) as u8, b'A' + (i % 26) as u8];
        let (Ok(code), Some(home)) = (
            empires_rules::EmpireCode::parse(&String::from_utf8_lossy(&letters)),
            code_of(k.capital),
        ) else {
            return fallback();
        };
        file.empires.push(MapFileEmpire {
            code,
            name: k.name.clone(),
            home,
            start: k.provinces.iter().filter_map(|p| code_of(*p)).collect(),
            extra_areas: None,
            supply_capacity: None,
        });
    }
    match empires_rules::Map::from_file(file, &map.name) {
        Ok(m) => map
            .kingdoms
            .iter()
            .zip(colours::empire_colours(&m))
            .map(|(k, c)| (k.code.clone(), c))
            .collect(),
        Err(_) => fallback(),
    }
}

fn proxy_file(map: &Map) -> Result<MapFile, String> {
    let codes = proxy_codes(map);
    let index: BTreeMap<LocId, usize> = map
        .locations
        .iter()
        .enumerate()
        .map(|(i, l)| (l.id, i))
        .collect();
    let code = |i: usize| {
        AreaCode::parse(&codes[i]).map_err(|e| format!("drawing code {}: {e}", codes[i]))
    };
    let mut areas = Vec::with_capacity(map.locations.len());
    for (i, l) in map.locations.iter().enumerate() {
        let mut adjacent = Vec::new();
        for e in &l.edges {
            if let Some(&j) = index.get(&e.to) {
                adjacent.push(code(j)?);
            }
        }
        areas.push(MapFileArea {
            code: code(i)?,
            name: l.name.clone(),
            terrain: if l.is_sea() {
                Terrain::Sea
            } else {
                Terrain::Plains
            },
            adjacent,
            population: None,
            position: Some(l.position),
            inside: None,
        });
    }
    Ok(MapFile {
        name: map.name.clone(),
        variant: None,
        areas,
        empires: Vec::new(),
    })
}

/// A map's drawing, worked out once, and each kingdom's report drawn on it.
pub struct MapDrawer {
    /// The proxy code of each location, by number.
    codes: BTreeMap<LocId, String>,
    /// The proxy's area index of each location, by number.
    index: BTreeMap<LocId, usize>,
    /// The barriers: pairs of area indexes (lower first), and whether both are land.
    barriers: BTreeMap<(u16, u16), bool>,
    /// The map's kingdoms' colours ([`kingdom_colours`]).
    pub colours: BTreeMap<KingdomCode, &'static str>,
    /// The map's own layer.
    pub layers: Layers,
    /// Positions off the coastlines, or missing (for the map's designer).
    pub notes: Vec<String>,
    /// Neighbours whose drawn regions do not touch (for the map's designer).
    pub borders: Vec<String>,
}

impl MapDrawer {
    /// Works out the map's layer: the slow part, once per map.
    pub fn new(map: &Map, opts: &DrawOptions) -> Result<MapDrawer, String> {
        let proxy = proxy(map)?;
        let base = Base::new(&proxy, opts)?;
        Ok(MapDrawer {
            notes: base.notes,
            borders: base.borders,
            ..MapDrawer::with_layers(map, base.layers)?
        })
    }

    /// A drawer on a layer worked out before for this map (kept with a game): the quick
    /// way, with no geometry to work out. Refuses a layer drawn for another number of
    /// locations.
    pub fn with_layers(map: &Map, layers: Layers) -> Result<MapDrawer, String> {
        if layers.layout.areas != map.locations.len() {
            return Err(format!(
                "the kept drawing has {} locations and the map {}",
                layers.layout.areas,
                map.locations.len()
            ));
        }
        let codes = proxy_codes(map);
        let index: BTreeMap<LocId, usize> = map
            .locations
            .iter()
            .enumerate()
            .map(|(i, l)| (l.id, i))
            .collect();
        let mut barriers = BTreeMap::new();
        for (i, l) in map.locations.iter().enumerate() {
            for e in l.edges.iter().filter(|e| e.barrier) {
                if let Some(&j) = index.get(&e.to) {
                    let both_land = !l.is_sea() && !map.locations[j].is_sea();
                    barriers.insert((i.min(j) as u16, i.max(j) as u16), both_land);
                }
            }
        }
        Ok(MapDrawer {
            codes: map
                .locations
                .iter()
                .zip(&codes)
                .map(|(l, c)| (l.id, c.clone()))
                .collect(),
            index,
            barriers,
            colours: kingdom_colours(map),
            layers,
            notes: Vec::new(),
            borders: Vec::new(),
        })
    }

    /// The code a location is drawn with.
    pub fn code(&self, id: LocId) -> Option<&str> {
        self.codes.get(&id).map(String::as_str)
    }

    /// The whole SVG of a kingdom's report: its overlay with the map's layer in it.
    pub fn svg(&self, map: &Map, report: &Report) -> String {
        self.layers.assemble(&self.overlay(map, report))
    }

    /// A close-up of the kingdom's drawing `svg` (as [`MapDrawer::svg`] gives it) for a
    /// letter read on a phone: its provinces and their neighbours, where on the whole map
    /// a kingdom is a few pixels across. `None` when the kingdom holds no province, or the
    /// close-up would show nearly the whole map anyway.
    pub fn close_up(&self, map: &Map, report: &Report, svg: &str) -> Option<String> {
        use empires_maps::draw::picture;
        use empires_rules::map::AreaId;
        let area = |id: LocId| {
            self.index
                .get(&id)
                .and_then(|&i| u16::try_from(i).ok())
                .map(AreaId)
        };
        let own: Vec<LocId> = report
            .owners
            .iter()
            .filter(|o| o.owner == report.kingdom)
            .map(|o| o.id)
            .collect();
        let around: Vec<AreaId> = own
            .iter()
            .filter_map(|id| map.get(*id))
            .flat_map(|l| l.edges.iter().map(|e| e.to))
            .filter_map(area)
            .collect();
        let own: Vec<AreaId> = own.into_iter().filter_map(area).collect();
        let lay = &self.layers.layout;
        // Central Europe is crowded: a kingdom there is framed in the inset that enlarges
        // it, where its provinces are labelled.
        let k = picture::frame_for(lay, &own);
        let c = picture::close_up_in(lay, k, &own, &around)?;
        (c.frame[2] < lay.frames.get(k)?.w * 0.9).then(|| picture::close_up(svg, &c))
    }

    /// The kingdom's overlay, with placeholders for the map's layer.
    pub fn overlay(&self, map: &Map, r: &Report) -> String {
        let lay = &self.layers.layout;
        let sz = lay.sizes;
        let colours = self.colours_of(r);
        let mut legend = String::new();
        let [lx, ltop, lw] = lay.legend;
        let legend_h = self.legend(map, r, &colours, lx, ltop, lw, &mut legend);
        let bottom = lay.inset_bottom.unwrap_or(0.0).max(ltop + legend_h);
        let height = (bottom + sz.margin).ceil();
        let mut o = String::with_capacity(64 * 1024);
        let _ = writeln!(
            o,
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Verdana, sans-serif">"#,
            w = num(lay.width),
            h = num(height)
        );
        let title = format!("{}, turn {}: {} ({})", r.game, r.turn, r.name, r.kingdom);
        let _ = writeln!(o, "<title>{}</title>", escape(&title));
        let _ = writeln!(o, "<defs>");
        for f in &lay.frames {
            let _ = writeln!(
                o,
                r#"<clipPath id="{}frame"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>"#,
                f.prefix,
                num(f.x),
                num(f.y),
                num(f.w),
                num(f.h)
            );
        }
        self.style_sheet(r, &colours, &mut o);
        o.push_str(ICONS);
        self.marks(r, &mut o);
        let _ = writeln!(o, "</defs>");
        let _ = writeln!(
            o,
            r#"<rect width="100%" height="100%" fill="{}"/>"#,
            style::PAGE
        );
        let main = &lay.frames[0];
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" font-size="{}" fill="{}">{}</text>"#,
            num(main.x),
            num(sz.margin + sz.title * 0.95),
            num(sz.title),
            style::INK,
            escape(&title)
        );
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" font-size="{}" fill="{}" text-anchor="end">Napoleonic Empires · what {} sees</text>"#,
            num(main.x + main.w),
            num(sz.margin + sz.title * 0.95),
            num(sz.text),
            style::MUTED_INK,
            escape(r.kingdom.as_str())
        );
        let _ = writeln!(o, "{}", placeholder(&format!("{}map", main.prefix)));
        self.barrier_lines(0, &mut o);
        if let (Some(b), Some(f)) = (lay.inset_box, lay.frames.get(1)) {
            let _ = writeln!(
                o,
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="1.5" stroke-dasharray="6 3"/>"#,
                num(b[0]),
                num(b[1]),
                num(b[2] - b[0]),
                num(b[3] - b[1]),
                style::FRAME
            );
            let _ = writeln!(
                o,
                r#"<text x="{}" y="{}" font-size="{}" fill="{}">Enlarged: the dashed box on the map</text>"#,
                num(f.x),
                num(f.y - sz.text * 0.5),
                num(sz.text),
                style::MUTED_INK
            );
            let _ = writeln!(o, "{}", placeholder(&format!("{}map", f.prefix)));
            self.barrier_lines(1, &mut o);
        }
        o.push_str(&legend);
        o.push_str("</svg>\n");
        o
    }

    /// `#CODE` for every frame that draws a location, each followed by a comma.
    fn select(&self, ids: &mut String, id: LocId, prefix: &str) {
        let lay = &self.layers.layout;
        let (Some(&i), Some(code)) = (self.index.get(&id), self.codes.get(&id)) else {
            return;
        };
        for (f, drawn) in lay.frames.iter().zip(&lay.drawn) {
            if drawn.get(i).copied().unwrap_or(false) {
                let _ = write!(ids, "#{}{prefix}{code},", f.prefix);
            }
        }
    }

    /// The provinces in their owners' colours (independents grey), the outline of the
    /// kingdom's own provinces, and how tags, codes and barriers look.
    fn style_sheet(&self, r: &Report, colours: &BTreeMap<KingdomCode, &str>, o: &mut String) {
        let lay = &self.layers.layout;
        let unit = lay.unit;
        let _ = write!(
            o,
            "<style>.ml{{fill:{INDEPENDENT}}}\
             .et{{font-size:{}px;fill:{};stroke:#fffdf6;stroke-width:{}px;stroke-linejoin:round;paint-order:stroke;text-anchor:start}}\
             .nb rect{{stroke:#fffdf6;stroke-width:0.6px}}.nb text{{fill:#fff}}\
             .mtn{{fill:none;stroke:{MOUNTAIN};stroke-width:3.4px;stroke-dasharray:5 2.5;stroke-linecap:butt}}\
             .reef{{fill:none;stroke:{REEF};stroke-width:2.6px;stroke-dasharray:1 3;stroke-linecap:round}}",
            num(unit * 0.8),
            style::MUTED_INK,
            num(unit * 0.26),
        );
        let mut by_owner: BTreeMap<&KingdomCode, String> = BTreeMap::new();
        for p in &r.owners {
            if colours.contains_key(&p.owner) {
                self.select(by_owner.entry(&p.owner).or_default(), p.id, "");
            }
        }
        for (k, mut ids) in by_owner {
            if ids.pop().is_some() {
                let _ = write!(o, "{ids}{{fill:{}}}", colours[k]);
            }
        }
        // The kingdom's outline: the borders between its provinces and the rest.
        let mine: BTreeSet<usize> = r
            .owners
            .iter()
            .filter(|p| p.owner == r.kingdom)
            .filter_map(|p| self.index.get(&p.id).copied())
            .collect();
        let own = |l: u16| mine.contains(&usize::from(l));
        let mut ids = String::new();
        for (f, edges) in lay.frames.iter().zip(&lay.edges) {
            for (i, &(l, rt)) in edges.iter().enumerate() {
                if own(l) != own(rt) {
                    let _ = write!(ids, "#{p}h{i},#{p}y{i},", p = f.prefix);
                }
            }
        }
        if ids.pop().is_some() {
            let _ = write!(o, "{ids}{{display:inline}}");
        }
        let _ = writeln!(o, "</style>");
    }

    /// The owners' codes beside their provinces' labels, and the miniatures: defined once
    /// here, placed by the layer at every label.
    fn marks(&self, r: &Report, o: &mut String) {
        let unit = self.layers.layout.unit;
        let owners: BTreeSet<&KingdomCode> = r
            .owners
            .iter()
            .map(|p| &p.owner)
            .filter(|k| !k.is_independent())
            .collect();
        for k in &owners {
            let _ = writeln!(
                o,
                r#"<text id="e-{k}" class="et" y="{}">{k}</text>"#,
                num(unit * 0.36)
            );
        }
        for p in &r.owners {
            if let Some(code) = self.codes.get(&p.id)
                && !p.owner.is_independent()
            {
                let _ = writeln!(o, r##"<use id="o-{code}" href="#e-{}"/>"##, p.owner);
            }
        }
        let mut tags: BTreeMap<LocId, Vec<Tag>> = BTreeMap::new();
        for (forces, own) in [(&r.own_forces, true), (&r.foreign_forces, false)] {
            for f in forces {
                tags.entry(f.location.id).or_default().push(Tag::of(f, own));
            }
        }
        for (id, t) in tags {
            if let Some(code) = self.codes.get(&id) {
                write_tags(unit, code, &t, o);
            }
        }
    }

    /// The barriers of a frame: mountains between provinces, reefs along coasts, drawn
    /// along the layer's traced borders.
    fn barrier_lines(&self, frame: usize, o: &mut String) {
        let lay: &Layout = &self.layers.layout;
        let (Some(f), Some(edges)) = (lay.frames.get(frame), lay.edges.get(frame)) else {
            return;
        };
        let mut lines = String::new();
        for (i, &(l, r)) in edges.iter().enumerate() {
            if let Some(&land) = self.barriers.get(&(l.min(r), l.max(r))) {
                let class = if land { "mtn" } else { "reef" };
                let _ = writeln!(
                    lines,
                    r##"<use href="#{}c{i}" class="{class}"/>"##,
                    f.prefix
                );
            }
        }
        if !lines.is_empty() {
            let _ = writeln!(o, r#"<g clip-path="url(#{}frame)">{lines}</g>"#, f.prefix);
        }
    }

    /// The legend at `(x, top)`, `width` wide: kingdoms with their colours and provinces,
    /// the miniatures, the figures and the barriers. Returns its height.
    #[allow(clippy::too_many_arguments)]
    fn legend(
        &self,
        map: &Map,
        r: &Report,
        colours: &BTreeMap<KingdomCode, &str>,
        x0: f64,
        top: f64,
        width: f64,
        o: &mut String,
    ) -> f64 {
        let t = self.layers.layout.sizes.text;
        let row = t * 1.65;
        let cols = ((width / (t * 19.0)).floor() as usize).max(1);
        let colw = width / cols as f64;
        let fitted = |s: &str| escape(&fit(s, colw - t * 2.6, t));
        let text = |s: &str| format!(r#"<text x="{}" y="0">{}</text>"#, num(t * 2.0), fitted(s));
        let swatch = |colour: &str, outline: bool| {
            let mut s = format!(
                r##"<rect x="0" y="{}" width="{}" height="{}" rx="2" fill="{colour}" stroke="#4a4036" stroke-width="0.6"/>"##,
                num(-t * 0.8),
                num(t * 1.5),
                num(t * 0.95)
            );
            if outline {
                let _ = write!(
                    s,
                    r#"<rect x="0" y="{}" width="{}" height="{}" rx="2" fill="none" stroke="{}" stroke-width="{}"/>"#,
                    num(-t * 0.8),
                    num(t * 1.5),
                    num(t * 0.95),
                    style::YOURS,
                    num(t * 0.2)
                );
            }
            s
        };
        let tag = |base: &str, icon: &str| {
            format!(
                r##"<rect x="0" y="{}" width="{}" height="{}" rx="{}" fill="{base}"/><use href="#{icon}" x="{}" y="{}" width="{k}" height="{k}" fill="#fff"/>"##,
                num(-t * 0.95),
                num(t * 1.5),
                num(t * 1.2),
                num(t * 0.3),
                num(t * 0.22),
                num(-t * 0.85),
                k = num(t)
            )
        };
        let line = |class: &str| {
            format!(
                r#"<path d="M0 {y}H{}" class="{class}"/>"#,
                num(t * 1.5),
                y = num(-t * 0.35)
            )
        };
        let mut entries: Vec<String> = Vec::new();
        let mut independents = None;
        for k in &r.kingdoms {
            if k.independent {
                independents = Some(k);
                continue;
            }
            if !k.alive && k.provinces == 0 {
                continue;
            }
            let you = if k.code == r.kingdom { "you, " } else { "" };
            let label = format!("{} {} ({you}{})", k.code, k.name, k.provinces);
            let colour = colours.get(&k.code).copied().unwrap_or(INDEPENDENT);
            entries.push(format!(
                "{}{}",
                swatch(colour, k.code == r.kingdom),
                text(&label)
            ));
        }
        let ind = independents.map_or(0, |k| k.provinces);
        entries.push(format!(
            "{}{}",
            swatch(INDEPENDENT, false),
            text(&format!("Independents ({ind})"))
        ));
        entries.push(format!(
            "{}{}",
            tag(OWN_BASE, "n-foot"),
            text("your troops")
        ));
        entries.push(format!(
            "{}{}",
            tag(FOREIGN_BASE, "n-foot"),
            text("foreign troops")
        ));
        for (icon, what) in [
            ("n-foot", "figure: infantry"),
            ("n-mounted", "figure: cavalry"),
            ("n-artillery", "figure: artillery"),
            ("n-ship", "figure: ships"),
            ("n-leader", "leaders only"),
        ] {
            entries.push(format!("{}{}", tag("#6b6255", icon), text(what)));
        }
        if self.barriers.values().any(|&land| land) {
            entries.push(format!("{}{}", line("mtn"), text("mountains: no march")));
        }
        if self.barriers.values().any(|&land| !land) {
            entries.push(format!("{}{}", line("reef"), text("reef: no landing")));
        }
        // Codes the drawing had to change (it takes three characters, a letter first).
        let mut renamed: Vec<String> = map
            .locations
            .iter()
            .filter_map(|l| {
                let c = self.codes.get(&l.id)?;
                (c != &l.code).then(|| format!("{c} is {}", l.code))
            })
            .collect();
        renamed.sort();
        for chunk in renamed.chunks(3) {
            entries.push(format!(
                r#"<text x="0" y="0">{}</text>"#,
                escape(&fit(&chunk.join(", "), colw - t, t))
            ));
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
            r#"<text x="{}" y="{}" fill="{}">Kingdoms (provinces owned); miniatures show the count and the most valuable type</text>"#,
            num(x0),
            num(top + t * 0.4),
            style::MUTED_INK
        );
        for (i, e) in entries.iter().enumerate() {
            let (c, rw) = (i / rows, i % rows);
            let x = x0 + c as f64 * colw;
            let y = top + t * 0.4 + row * (rw as f64 + 1.0);
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
}

impl MapDrawer {
    /// The colour of each kingdom of a report: the map's for its kingdoms, the palette's
    /// unused colours in code order for any other; the independents have none (grey).
    pub fn colours_of(&self, r: &Report) -> BTreeMap<KingdomCode, &'static str> {
        let used: BTreeSet<&str> = self.colours.values().copied().collect();
        let mut spare = style::EMPIRES
            .iter()
            .filter(|c| !used.contains(**c))
            .cycle();
        r.kingdoms
            .iter()
            .filter(|k| !k.independent)
            .map(|k| {
                let c = match self.colours.get(&k.code) {
                    Some(c) => *c,
                    None => spare.next().copied().unwrap_or(style::empire(0)),
                };
                (k.code.clone(), c)
            })
            .collect()
    }
}

/// A miniature: the base's colour, the figure and the count.
struct Tag {
    base: &'static str,
    icon: &'static str,
    count: String,
}

impl Tag {
    fn of(f: &Force, own: bool) -> Tag {
        Tag {
            base: if own { OWN_BASE } else { FOREIGN_BASE },
            icon: match f.top.as_ref().map(|t| t.class) {
                Some(TroopClass::Foot) => "n-foot",
                Some(TroopClass::Mounted) => "n-mounted",
                Some(TroopClass::Artillery) => "n-artillery",
                Some(TroopClass::Ship) => "n-ship",
                None => "n-leader",
            },
            count: f.count.to_string(),
        }
    }
}

/// The rough width of a text in DejaVu Sans, as the map drawing reckons it.
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

/// A location's miniatures side by side, centred under its label (the layer places the
/// group `forces-CODE` at each label, as it does the Empires force tags).
fn write_tags(unit: f64, code: &str, tags: &[Tag], o: &mut String) {
    let k = unit * 0.86;
    let pad = k * 0.22;
    let gap = k * 0.25;
    let h = k * 1.35;
    let top = unit * 0.75;
    let widths: Vec<f64> = tags
        .iter()
        .map(|t| pad + k + pad * 0.6 + text_width(&t.count, k) + pad)
        .collect();
    let total = widths.iter().sum::<f64>() + gap * (tags.len() as f64 - 1.0);
    let mut x = -total / 2.0;
    let _ = writeln!(
        o,
        r#"<g id="forces-{code}" class="nb" font-size="{}" text-anchor="start">"#,
        num(k)
    );
    for (t, w) in tags.iter().zip(&widths) {
        let _ = writeln!(
            o,
            r##"<rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="{}"/><use href="#{}" x="{}" y="{}" width="{k2}" height="{k2}" fill="#fff"/><text x="{}" y="{}">{}</text>"##,
            num(x),
            num(top),
            num(*w),
            num(h),
            num(k * 0.3),
            t.base,
            t.icon,
            num(x + pad),
            num(top + (h - k) / 2.0),
            num(x + pad + k + pad * 0.6),
            num(top + h / 2.0 + k * 0.36),
            t.count,
            k2 = num(k)
        );
        x += w + gap;
    }
    let _ = writeln!(o, "</g>");
}

/// The miniatures' figures, filled with the colour of the `use` that shows them.
const ICONS: &str = r##"<symbol id="n-foot" viewBox="0 0 10 10"><circle cx="4.2" cy="1.9" r="1.5"/><path d="M2.3 3.9H6.1L6.7 6.4H5.6L5.5 9.6H4.5L4.2 7.2L3.9 9.6H2.9L2.8 6.4H1.7Z"/><rect x="7.2" y="0.4" width="0.8" height="7.2"/></symbol>
<symbol id="n-mounted" viewBox="0 0 10 10"><path d="M2.4 9.6H8.4L8 8Q7.6 6.2 8.6 4.6Q9 2.2 6.4 1.1L5.6 0.3L5 1.1Q3.2 1.6 2.2 3.6L0.9 5.4L1.6 6.5L2.6 6.2L4.2 5.2Q5 5.8 4.4 6.8Q2.9 7.8 2.4 9.6Z"/></symbol>
<symbol id="n-artillery" viewBox="0 0 10 10"><path d="M0.5 4.6L8.6 1.4Q9.6 1.2 9.7 2.2L9.8 2.9L1.4 6.9Q0.6 7 0.4 6.1Z"/><path fill-rule="evenodd" d="M6.6 7.2A2.5 2.5 0 1 1 1.6 7.2A2.5 2.5 0 1 1 6.6 7.2ZM5.3 7.2A1.2 1.2 0 1 0 2.9 7.2A1.2 1.2 0 1 0 5.3 7.2Z"/></symbol>
<symbol id="n-ship" viewBox="0 0 10 10"><path d="M0.6 6.4H9.4L7.8 9.2H2.2Z"/><rect x="4.6" y="0.6" width="0.8" height="5.4"/><path d="M5.8 1.2L8.8 5.6H5.8Z"/><path d="M4.2 2L1.8 5.6H4.2Z"/></symbol>
<symbol id="n-leader" viewBox="0 0 10 10"><path d="M5 0.4L6.2 3.6L9.7 3.7L7 5.9L7.9 9.3L5 7.4L2.1 9.3L3 5.9L0.3 3.7L3.8 3.6Z"/></symbol>
"##;
