//! What one viewer sees of a game on a map, drawn over the map's own layer
//! ([`super::layers`]): the owners' colours, the hatching over what the viewer cannot see,
//! the outline of the viewer's empire, force tags, owners' codes and home markers, the title
//! and the legend. It is small, and quick to write: the shapes are the layer's.

use super::ZOOMS;
use super::layers::{Layout, placeholder};
use super::style::{self, Sizes};
use super::svg::{OWNER_SIZE, escape, fit, interleave, num, text_width};
use empires_rules::knowledge::{view_for, visible_areas};
use empires_rules::map::AreaId;
use empires_rules::{EmpireCode, GameState, Map, Terrain};
use std::fmt::Write;

/// A game to draw: the state as the viewer knows it, and which areas the viewer sees.
pub struct Game {
    pub state: GameState,
    pub visible: Option<Vec<bool>>,
    pub viewer: Option<EmpireCode>,
}

/// A force marker: an icon and a count on a small tag.
struct Badge {
    icon: &'static str,
    count: String,
    fill: String,
}

/// One viewer's drawing of a game, or of the map alone.
struct View<'a> {
    map: &'a Map,
    layout: &'a Layout,
    game: Option<Game>,
    title: Option<&'a str>,
    sizes: Sizes,
    /// Each empire's place in the game (or the map, without a game) and colour, by
    /// [`slot`]: looked up for every area, so once per drawing rather than by searching.
    places: Vec<Option<(usize, &'a str)>>,
    /// The part every viewer of the turn shares ([`turn_part`]) is left to a placeholder.
    apart: bool,
}

/// Where an empire is kept in [`View::places`]: codes are two capital letters.
fn slot(e: EmpireCode) -> usize {
    let b = e.as_str().as_bytes();
    let letter = |i: usize| usize::from(b.get(i).map_or(0, |c| c.saturating_sub(b'A')).min(25));
    letter(0) * 26 + letter(1)
}

impl<'a> View<'a> {
    fn places(map: &Map, layout: &'a Layout, game: Option<&Game>) -> Vec<Option<(usize, &'a str)>> {
        let mut places = vec![None; 26 * 26];
        // Each empire's place on the map, by slot: looked up once per empire of the game
        // rather than by searching the map's empires for each.
        let mut on_map = vec![None; 26 * 26];
        for (m, d) in map.empires.iter().enumerate().rev() {
            on_map[slot(d.code)] = Some(m);
        }
        let colour = |e: EmpireCode, i: usize| -> &'a str {
            let found = on_map[slot(e)]
                .filter(|&m| map.empires[m].code == e)
                .or_else(|| map.empires.iter().position(|d| d.code == e));
            match found {
                Some(m) => layout
                    .colours
                    .get(m)
                    .map_or(style::empire(m), String::as_str),
                None => style::empire(i),
            }
        };
        match game {
            Some(g) => {
                for (i, e) in g.state.empires.iter().enumerate() {
                    places[slot(e.code)] = Some((i, colour(e.code, i)));
                }
            }
            None => {
                for (i, e) in map.empires.iter().enumerate() {
                    places[slot(e.code)] = Some((i, colour(e.code, i)));
                }
            }
        }
        places
    }

    /// An empire's colour: the map's choice for it, or by its place in the game for an
    /// empire the map does not list.
    fn colour(&self, e: EmpireCode) -> &'a str {
        self.places[slot(e)].map_or(style::empire(0), |(_, c)| c)
    }

    /// An empire's place in the game.
    fn index(&self, e: EmpireCode) -> Option<usize> {
        self.places[slot(e)].map(|(i, _)| i)
    }
}

/// The overlay of a map (`None`), of a game on it, or of what one empire knows of a game
/// (`Some((state, Some(empire)))`), laid out by `layout`; `title` in place of the game's or
/// map's name. [`super::layers::Layers::assemble`] puts the map's layer into it.
pub fn overlay(
    layout: &Layout,
    map: &Map,
    game: Option<(&GameState, Option<EmpireCode>)>,
    title: Option<&str>,
) -> Result<String, String> {
    if let Some((st, _)) = game {
        st.validate(map)
            .map_err(|e| format!("the game does not fit the map {}: {e}", map.name))?;
    }
    overlay_of_valid(layout, map, game, title)
}

/// [`overlay`] of a game already known to fit the map (by [`GameState::validate`]): for
/// every empire's overlay of one turn, checked once.
pub fn overlay_of_valid(
    layout: &Layout,
    map: &Map,
    game: Option<(&GameState, Option<EmpireCode>)>,
    title: Option<&str>,
) -> Result<String, String> {
    overlay_with(layout, map, game, title, false)
}

/// The name of the placeholder an overlay made by [`overlay_apart`] leaves for the
/// [`turn_part`].
pub const TURN_PART: &str = "turn";

/// [`overlay_of_valid`] of what one empire knows of a game, without the part every viewer
/// of the turn shares: who owns what (10.5: owners are public), the empires' codes and the
/// homes. That part is left to the placeholder [`TURN_PART`], which [`turn_part`] fills
/// for every empire's overlay of the turn at once, so that an overlay grows with what its
/// empire sees rather than with the number of empires.
pub fn overlay_apart(
    layout: &Layout,
    map: &Map,
    state: &GameState,
    viewer: EmpireCode,
    title: Option<&str>,
) -> Result<String, String> {
    overlay_with(layout, map, Some((state, Some(viewer))), title, true)
}

/// What [`overlay_apart`] leaves out, the same for every viewer of the turn: the owners'
/// colours, the empires' codes used beside the areas they own, and the home markers. It
/// belongs inside an overlay's `defs`, in place of the [`TURN_PART`] placeholder.
pub fn turn_part(layout: &Layout, map: &Map, state: &GameState) -> Result<String, String> {
    check_layout(layout, map)?;
    let game = Game {
        state: state.clone(),
        visible: None,
        viewer: None,
    };
    let v = View {
        places: View::places(map, layout, Some(&game)),
        map,
        layout,
        game: Some(game),
        title: None,
        sizes: layout.sizes,
        apart: false,
    };
    let mut o = String::with_capacity(8 * 1024);
    o.push_str("<style>");
    owner_rules(&v, &mut o);
    o.push_str("</style>\n");
    public_marks(&v, &mut o);
    Ok(o)
}

fn check_layout(layout: &Layout, map: &Map) -> Result<(), String> {
    if layout.areas != map.areas().len() || layout.frames.is_empty() {
        return Err(format!(
            "the drawing's layout is for a map of {} areas, not {} ({})",
            layout.areas,
            map.areas().len(),
            map.name
        ));
    }
    Ok(())
}

fn overlay_with(
    layout: &Layout,
    map: &Map,
    game: Option<(&GameState, Option<EmpireCode>)>,
    title: Option<&str>,
    apart: bool,
) -> Result<String, String> {
    check_layout(layout, map)?;
    let game = match game {
        None => None,
        Some((st, viewer)) => {
            let (state, visible) = match viewer {
                None => (st.clone(), None),
                Some(e) => {
                    if st.empire(e).is_none() {
                        return Err(format!("there is no empire {e} in the game"));
                    }
                    (view_for(map, st, e), Some(visible_areas(map, st, e)))
                }
            };
            Some(Game {
                state,
                visible,
                viewer,
            })
        }
    };
    let places = View::places(map, layout, game.as_ref());
    let v = View {
        places,
        map,
        layout,
        game,
        title,
        sizes: layout.sizes,
        apart,
    };
    Ok(write(&v))
}

fn write(s: &View) -> String {
    let lay = s.layout;
    let sz = s.sizes;
    let mut legend = String::new();
    let [lx, ltop, lw] = lay.legend;
    let legend_h = write_legend(s, lx, ltop, lw, &mut legend);
    let bottom = lay.inset_bottom.unwrap_or(0.0).max(ltop + legend_h);
    let height = bottom + sz.margin;
    let mut o = String::with_capacity(16 * 1024);
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Verdana, sans-serif"{}>"#,
        zoom_data(s),
        w = num(lay.width),
        h = num(height.ceil())
    );
    let (title, subtitle) = titles(s);
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
    style_sheet(s, &mut o);
    marks(s, &mut o);
    let _ = writeln!(o, "</defs>");
    let main = &lay.frames[0];
    let _ = writeln!(
        o,
        r#"<rect width="100%" height="100%" fill="{}"/>"#,
        style::PAGE
    );
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
        r#"<text x="{}" y="{}" font-size="{}" fill="{}" text-anchor="end">{}</text>"#,
        num(main.x + main.w),
        num(sz.margin + sz.title * 0.95),
        num(sz.text),
        style::MUTED_INK,
        escape(&subtitle)
    );
    let _ = writeln!(o, "{}", placeholder(&format!("{}map", main.prefix)));
    if let (Some(b), Some(f)) = (lay.inset_box, lay.frames.get(1)) {
        let _ = writeln!(
            o,
            r#"<rect id="inset-area" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="1.5" stroke-dasharray="6 3"/>"#,
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
    }
    o.push_str(&legend);
    o.push_str("</svg>\n");
    o
}

/// The style sheet that colours the layer's areas by owner, shows the hatching over what the
/// viewer cannot see and the outline of the viewer's empire. Selectors are grouped by what
/// they set, so each area costs its id and a comma; written piece by piece, for there is
/// one per report.
fn style_sheet(s: &View, o: &mut String) {
    let Some(g) = &s.game else { return };
    let lay = s.layout;
    let map = s.map;
    let _ = write!(
        o,
        "<style>.ml{{fill:{}}}.fb rect{{stroke:{};stroke-width:0.7px}}.fb text{{fill:{}}}",
        style::UNOWNED,
        style::INK,
        style::INK
    );
    if !s.apart {
        owner_rules(s, o);
    }
    let select = |ids: &mut String, id: AreaId, prefix: &str| select(lay, map, ids, id, prefix);
    if let Some(vis) = &g.visible {
        let seen = vis.iter().filter(|v| **v).count();
        // Whichever list is shorter: the seen areas, hidden again after every hatching is
        // shown (by a rule less specific than an id), or the unseen.
        let hide_seen = seen < vis.len() - seen;
        let mut ids = String::new();
        for id in map.ids().filter(|i| vis[i.index()] == hide_seen) {
            select(&mut ids, id, "u-");
        }
        if hide_seen {
            o.push_str(".uh use{display:inline}");
            rule(o, &mut ids, "display:none");
        } else {
            rule(o, &mut ids, "display:inline");
        }
    }
    if let Some(e) = g.viewer {
        let n = map.areas().len();
        let own = |l: u16| usize::from(l) < n && g.state.area(AreaId(l)).owner == Some(e);
        let mut ids = String::new();
        let mut digits = itoa::Buffer::new();
        for (f, edges) in lay.frames.iter().zip(&lay.edges) {
            for (i, &(l, r)) in edges.iter().enumerate() {
                if own(l) != own(r) {
                    for kind in ["h", "y"] {
                        ids.push('#');
                        ids.push_str(&f.prefix);
                        ids.push_str(kind);
                        ids.push_str(digits.format(i));
                        ids.push(',');
                    }
                }
            }
        }
        rule(o, &mut ids, "display:inline");
    }
    let _ = writeln!(o, "</style>");
}

/// Adds `#<frame prefix><prefix><area code>,` to `ids` for each frame that draws `id`.
fn select(lay: &Layout, map: &Map, ids: &mut String, id: AreaId, prefix: &str) {
    for (f, drawn) in lay.frames.iter().zip(&lay.drawn) {
        if drawn[id.index()] {
            ids.push('#');
            ids.push_str(&f.prefix);
            ids.push_str(prefix);
            ids.push_str(map.area(id).code.as_str());
            ids.push(',');
        }
    }
}

/// Writes the rule `ids{what}`, the last comma of `ids` dropped, if there are any.
fn rule(o: &mut String, ids: &mut String, what: &str) {
    if ids.pop().is_some() {
        o.push_str(ids);
        o.push('{');
        o.push_str(what);
        o.push('}');
    }
}

/// The style of the owners' codes and the owners' colours, one rule per empire: the same
/// for every viewer of a turn (10.5).
fn owner_rules(s: &View, o: &mut String) {
    let Some(g) = &s.game else { return };
    let (lay, map) = (s.layout, s.map);
    let unit = lay.unit;
    let _ = write!(
        o,
        ".et{{font-size:{}px;fill:{};stroke:#fffdf6;stroke-width:{}px;stroke-linejoin:round;paint-order:stroke;text-anchor:start}}",
        num(unit * OWNER_SIZE),
        style::MUTED_INK,
        num(unit * 0.26),
    );
    let mut by_owner = vec![String::new(); g.state.empires.len()];
    for id in map.ids().filter(|i| map.area(*i).is_land()) {
        if let Some(i) = g.state.area(id).owner.and_then(|e| s.index(e)) {
            select(lay, map, &mut by_owner[i], id, "");
        }
    }
    for (e, mut ids) in g.state.empires.iter().zip(by_owner) {
        let fill = format!("fill:{}", s.colour(e.code));
        rule(o, &mut ids, &fill);
    }
}

/// The empires' codes, each written once and used beside every area it owns (how they look
/// is the style sheet's `.et`), and the home markers: the same for every viewer of a turn.
fn public_marks(s: &View, o: &mut String) {
    let map = s.map;
    let unit = s.layout.unit;
    if let Some(g) = &s.game {
        for e in &g.state.empires {
            let _ = writeln!(
                o,
                r##"<text id="e-{e}" class="et" y="{}">{e}</text>"##,
                num(unit * 0.36),
                e = e.code
            );
        }
    }
    let mut homes: Vec<Option<usize>> = vec![None; map.areas().len()];
    for (i, e) in map.empires.iter().enumerate().rev() {
        homes[e.home.index()] = Some(i);
    }
    let k = unit * 0.95;
    for id in map.ids() {
        let a = map.area(id);
        if let Some(g) = &s.game
            && a.is_land()
            && let Some(e) = g.state.area(id).owner
        {
            let _ = writeln!(o, r##"<use id="o-{}" href="#e-{e}"/>"##, a.code);
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
        match home {
            // In a game every home has the layer's one white star (`#hm`).
            Some(_) if s.game.is_some() => {
                let _ = writeln!(o, r##"<use id="h-{}" href="#hm"/>"##, a.code);
            }
            Some(colour) => {
                let _ = writeln!(
                    o,
                    r##"<use id="h-{}" href="#i-home" x="{}" y="{}" width="{k2}" height="{k2}" fill="{colour}" stroke="none"/>"##,
                    a.code,
                    num(-k - 1.0),
                    num(-k / 2.0),
                    k2 = num(k)
                );
            }
            None => {}
        }
    }
}

/// The owners' codes, home markers and force tags, at the layout's unit size, centred on
/// the label's place: the layer puts each where the area's label is, at each zoom.
fn marks(s: &View, o: &mut String) {
    let map = s.map;
    let unit = s.layout.unit;
    let sz = Sizes {
        label: unit,
        badge: unit * 0.86,
        ..s.sizes
    };
    if s.apart {
        let _ = writeln!(o, "{}", placeholder(TURN_PART));
    } else {
        public_marks(s, o);
    }
    // The force tags: what this viewer sees.
    if let Some(g) = &s.game {
        for id in map.ids() {
            let b = badges(s, g, id);
            if !b.is_empty() {
                write_badges(&sz, o, map.area(id).code.as_str(), &b, 0.0, unit * 0.75);
            }
        }
    }
}

/// For a page that zooms: the size of the area codes at the whole drawing and the zooms
/// labelled (`data-label`, `data-zooms`), and the box around the viewer's areas
/// (`data-focus`: x, y, width, height), in the drawing's pixels, where the page starts when
/// it opens zoomed in. The box is in the inset when most of the areas are labelled there.
fn zoom_data(s: &View) -> String {
    let lay = s.layout;
    let Some(l) = lay.zoom_label else {
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
    let in_inset = owned.iter().filter(|id| lay.boxed[id.index()]).count();
    let anchors = match lay.anchors.get(1) {
        Some(a) if 2 * in_inset > owned.len() => a,
        _ => &lay.anchors[0],
    };
    let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for id in owned {
        if let Some((x, y)) = anchors[id.index()] {
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

fn titles(s: &View) -> (String, String) {
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
            s.title.map_or_else(|| map.name.clone(), str::to_string),
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
                .map_or_else(|| format!("{}, turn {}", st.game, st.turn), str::to_string);
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

/// The forces in an area the viewer sees.
fn badges(s: &View, g: &Game, id: AreaId) -> Vec<Badge> {
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
            fill: plain.to_string(),
        });
    }
    if a.forts > 0 {
        out.push(Badge {
            icon: "i-fort",
            count: a.forts.to_string(),
            fill: plain.to_string(),
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
            fill: plain.to_string(),
        });
    }
    if a.trains > 0 {
        out.push(Badge {
            icon: "i-train",
            count: a.trains.to_string(),
            fill: plain.to_string(),
        });
    }
    if let Some(f) = &a.fleet {
        let colour = s.colour(f.owner).to_string();
        out.push(Badge {
            icon: "i-ship",
            count: f.ships.to_string(),
            fill: colour.clone(),
        });
        if f.armies > 0 {
            out.push(Badge {
                icon: "i-army",
                count: f.armies.to_string(),
                fill: colour.clone(),
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

fn write_badges(sz: &Sizes, o: &mut String, code: &str, badges: &[Badge], cx: f64, top: f64) {
    let k = sz.badge;
    let pad = k * 0.22;
    let widths = badge_widths(sz, badges);
    let gap = k * 0.25;
    let total = badges_width(sz, badges);
    let mut x = cx - total / 2.0;
    let h = k * 1.35;
    let _ = writeln!(
        o,
        r#"<g id="forces-{code}" class="fb" font-size="{}" text-anchor="start">"#,
        num(k)
    );
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
        o.push_str(&b.fill);
        o.push_str("\"/><use href=\"#");
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
                "\">",
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

/// The legend at `(x, top)`, `width` wide; returns its height.
fn write_legend(s: &View, x0: f64, top: f64, width: f64, o: &mut String) -> f64 {
    let sz = s.sizes;
    let t = sz.text;
    let row = t * 1.65;
    let cols = ((width / (t * 17.0)).floor() as usize).max(1);
    let colw = width / cols as f64;
    let mut entries: Vec<String> = Vec::new();
    // The swatch's shape is the layer's (`#sw`); each entry gives its colour.
    let swatch = |colour: &str| format!(r##"<use href="#sw" fill="{colour}"/>"##);
    let icon = |id: &str| {
        format!(
            r##"<use href="#{id}" x="{}" y="{}" width="{k}" height="{k}"/>"##,
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
            r##"<use href="#i-home" x="{}" y="{}" width="{k}" height="{k}" fill="{colour}"/>"##,
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
            // Each empire's areas, counted in one pass over the map.
            let mut owned = vec![0usize; g.state.empires.len()];
            for a in &g.state.areas {
                if let Some(i) = a.owner.and_then(|e| s.index(e)) {
                    owned[i] += 1;
                }
            }
            // A viewer's legend names the empires it sees (10.2): its own, and those owning
            // an area in its sight. Every area carries its owner's code, and the roundup
            // names every empire, so the legend grows with what the viewer knows rather
            // than with the number of empires in the game. The GM's names them all.
            let mut seen = vec![g.viewer.is_none(); g.state.empires.len()];
            if let Some(vis) = &g.visible {
                for (a, _) in g.state.areas.iter().zip(vis).filter(|(_, v)| **v) {
                    if let Some(i) = a.owner.and_then(|e| s.index(e)) {
                        seen[i] = true;
                    }
                }
            }
            let left_out = g
                .state
                .empires
                .iter()
                .filter(|e| Some(e.code) != g.viewer && !seen[s.index(e.code).unwrap_or(0)])
                .count();
            // The viewer's own empire first, outlined as on the map.
            let viewer_first =
                g.state
                    .empires
                    .iter()
                    .filter(|e| Some(e.code) == g.viewer)
                    .chain(g.state.empires.iter().filter(|e| {
                        Some(e.code) != g.viewer && seen[s.index(e.code).unwrap_or(0)]
                    }));
            for e in viewer_first {
                let owned = owned[s.index(e.code).unwrap_or(0)];
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
            if left_out > 0 {
                let others = format!(
                    "{left_out} other {} (roundup)",
                    if left_out == 1 { "empire" } else { "empires" }
                );
                entries.push(text(t * 2.0, &others));
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
