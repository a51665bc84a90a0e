//! `empires map draw`: maps and games drawn as standalone SVG, and rendered to PNG.
//!
//! The land comes from Natural Earth coastlines ([`coast`]); each area's region grows from
//! its position over land or sea ([`regions`]); the regions' borders are traced and
//! simplified ([`trace`]) and written as SVG paths with the area codes as ids ([`svg`]).
//! The same input always gives the same bytes.

pub mod coast;
pub mod colours;
pub mod layers;
pub mod overlay;
pub mod picture;
pub mod png;
pub mod projection;
pub mod regions;
pub mod style;
pub mod svg;
pub mod taken;
pub mod trace;

pub use layers::{Layers, Layout};
pub use overlay::{TURN_PART, overlay, overlay_apart, overlay_of_valid, turn_part};
pub use png::{png, png_small};

use empires_rules::{EmpireCode, GameState, Map};
use projection::Projection;
use regions::{OFF_LAND, OFF_SEA};
use style::Sizes;

/// How to draw.
#[derive(Debug, Clone)]
pub struct DrawOptions {
    /// Width of the picture in pixels; the height follows from the map's shape.
    pub width: u32,
    /// A title instead of the map's or game's name.
    pub title: Option<String>,
    /// Lines of longitude and latitude.
    pub graticule: bool,
    /// For a drawing on a page that zooms (the HTML report): the size of the area codes, in
    /// the drawing's own pixels, when the whole drawing is shown. Codes that do not fit at
    /// that size are left for the closer zooms, each drawn as its own set of labels (see
    /// [`ZOOMS`]). `None` draws one set of labels sized to the map, for a picture seen as it is.
    pub zoom_label: Option<f64>,
}

/// The zooms a zooming page gets labels for, as magnifications of the whole drawing; the
/// labels of zoom `z` are `1/z` of the whole drawing's, so they read the same size.
pub const ZOOMS: [f64; 3] = [1.0, 2.0, 4.0];

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            width: 1600,
            title: None,
            graticule: true,
            zoom_label: None,
        }
    }
}

/// A drawing, and notes for the map's designer.
#[derive(Debug, Clone)]
pub struct Drawing {
    pub svg: String,
    /// Positions off the coastlines, or missing.
    pub notes: Vec<String>,
    /// Where the drawn borders differ from the map's: neighbours whose regions do not
    /// touch (or regions that touch without being neighbours). Usually a position a little
    /// off, or a sea area's position far from a coast it borders.
    pub borders: Vec<String>,
}

/// Frame pixels per output pixel: regions are worked out at twice the resolution they are
/// drawn at, for smoother borders; small drawings (previews, tests) at their own.
fn supersample(width: f64) -> f64 {
    if width >= 1000.0 { 2.0 } else { 1.0 }
}

/// A map's drawing without a game on it: the map's own layer, worked out once and reused
/// for every game drawn on the map (each empire's view of a turn, say).
pub struct Base<'m> {
    map: &'m Map,
    title: Option<String>,
    /// The map's own layer and its layout.
    pub layers: Layers,
    /// Positions off the coastlines, or missing.
    pub notes: Vec<String>,
    /// Where the drawn borders differ from the map's adjacency.
    pub borders: Vec<String>,
}

/// A map's frames, worked out: the slow part of drawing.
pub(crate) struct Frames {
    main: svg::Panel,
    inset: Option<svg::Panel>,
    inset_box: Option<[f64; 4]>,
    ss: f64,
    width: f64,
    sizes: Sizes,
    graticule: bool,
    zoom_label: Option<f64>,
}

impl Frames {
    pub(crate) fn new(map: &Map, opts: &DrawOptions) -> Result<Frames, String> {
        let width = f64::from(opts.width.clamp(200, 10_000));
        let positions: Vec<(f64, f64)> = map.areas().iter().filter_map(|a| a.position).collect();
        if positions.is_empty() {
            return Err(format!(
                "{}: no area has a position to draw it at",
                map.name
            ));
        }
        let margin = Sizes::new(width, 40.0).margin;
        let ss = supersample(width);
        let frame = ((width - 2.0 * margin) * ss).round() as u32;
        let proj = Projection::fit(&positions, frame);
        let main = panel(map, proj, 0, width);
        let (inset, inset_box) = match crowded(&main, ss) {
            Some((ids, bbox)) => match inset_panel(map, &main, &ids, width) {
                Some(p) => (Some(p), Some(bbox)),
                None => (None, None),
            },
            None => (None, None),
        };
        let zoom_label = opts.zoom_label.filter(|l| l.is_finite() && *l > 0.0);
        let mut sizes = Sizes::new(width, 40.0);
        if let Some(l) = zoom_label {
            // The legend reads like the labels.
            sizes.text = sizes.text.max(l);
        }
        Ok(Frames {
            main,
            inset,
            inset_box,
            ss,
            width,
            sizes,
            graticule: opts.graticule,
            zoom_label,
        })
    }

    pub(crate) fn scene<'a>(&'a self, map: &'a Map) -> svg::Scene<'a> {
        svg::Scene {
            map,
            main: &self.main,
            inset: self.inset.as_ref(),
            inset_box: self.inset_box,
            ss: self.ss,
            width: self.width,
            sizes: self.sizes,
            graticule: self.graticule,
            zoom_label: self.zoom_label,
        }
    }
}

impl<'m> Base<'m> {
    /// Works out the geometry of a map and its own layer: the slow part of drawing.
    pub fn new(map: &'m Map, opts: &DrawOptions) -> Result<Base<'m>, String> {
        let frames = Frames::new(map, opts)?;
        let layers = Layers::new(&frames.scene(map), &colours::empire_colours(map));
        Ok(Base {
            map,
            title: opts.title.clone(),
            layers,
            notes: frames.main.regions.notes.clone(),
            borders: frames.main.regions.borders.clone(),
        })
    }

    /// A drawing of `map` on layers worked out before (kept with a game, say).
    pub fn from_layers(map: &'m Map, layers: Layers, title: Option<String>) -> Base<'m> {
        Base {
            map,
            title,
            layers,
            notes: Vec::new(),
            borders: Vec::new(),
        }
    }

    /// The SVG of the map alone (`None`), of a game on it, or of what one empire knows of a
    /// game (`Some((state, Some(empire)))`): the quick part of drawing.
    pub fn svg(&self, game: Option<(&GameState, Option<EmpireCode>)>) -> Result<String, String> {
        let o = overlay(&self.layers.layout, self.map, game, self.title.as_deref())?;
        Ok(self.layers.assemble(&o))
    }
}

/// Draws a map, or a game on it (`game`), or what one empire knows of a game
/// (`game` with `Some(empire)`).
pub fn draw(
    map: &Map,
    game: Option<(&GameState, Option<EmpireCode>)>,
    opts: &DrawOptions,
) -> Result<Drawing, String> {
    let base = Base::new(map, opts)?;
    Ok(Drawing {
        svg: base.svg(game)?,
        notes: base.notes,
        borders: base.borders,
    })
}

/// The regions of every area on a projection's canvas, `pad` pixels wider than the frame
/// on every side, traced.
fn panel(map: &Map, proj: Projection, pad: u32, width: f64) -> svg::Panel {
    let proj = proj.padded(pad);
    let ss = supersample(width);
    let regions = regions::build(map, &proj, ss);
    let n = map.areas().len() as u16;
    let traced = trace::trace(
        &regions,
        |l| l < n || l == OFF_LAND || l == OFF_SEA,
        0.9 * ss,
    );
    let sizes = Sizes::new(width, regions.spacing / ss);
    svg::Panel {
        regions,
        traced,
        proj,
        pad: f64::from(pad),
        sizes,
    }
}

fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// The largest crowd of areas whose labels are too close together on the main map, and
/// its box in frame pixels; `None` when labels have room.
fn crowded(main: &svg::Panel, ss: f64) -> Option<(Vec<usize>, [f64; 4])> {
    let label = main.sizes.label * ss;
    let pts: Vec<(usize, (f64, f64))> = main
        .regions
        .anchors
        .iter()
        .enumerate()
        .filter_map(|(i, a)| a.map(|a| (i, a)))
        .collect();
    let tight: Vec<(f64, f64)> = pts
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            pts.iter()
                .enumerate()
                .any(|(j, q)| j != *i && distance(p.1, q.1) < 2.2 * label)
        })
        .map(|(_, p)| p.1)
        .collect();
    // Groups of tight labels near each other.
    fn root(g: &mut [usize], i: usize) -> usize {
        let mut r = i;
        while g[r] != r {
            r = g[r];
        }
        g[i] = r;
        r
    }
    let mut group: Vec<usize> = (0..tight.len()).collect();
    for a in 0..tight.len() {
        for b in a + 1..tight.len() {
            if distance(tight[a], tight[b]) < 5.0 * label {
                let (ra, rb) = (root(&mut group, a), root(&mut group, b));
                group[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut count = vec![0usize; tight.len()];
    for i in 0..tight.len() {
        count[root(&mut group, i)] += 1;
    }
    let (best, &n) = count
        .iter()
        .enumerate()
        .max_by_key(|(i, c)| (**c, std::cmp::Reverse(*i)))?;
    if n < 12 {
        return None;
    }
    let mut b = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for (i, &p) in tight.iter().enumerate() {
        if root(&mut group, i) == best {
            b = [b[0].min(p.0), b[1].min(p.1), b[2].max(p.0), b[3].max(p.1)];
        }
    }
    let m = label * 1.5;
    let b = [
        (b[0] - m).max(0.0),
        (b[1] - m).max(0.0),
        (b[2] + m).min(f64::from(main.proj.width)),
        (b[3] + m).min(f64::from(main.proj.height)),
    ];
    // Every area inside the box belongs to the crowd.
    let ids = pts
        .iter()
        .filter(|(_, p)| p.0 >= b[0] && p.0 <= b[2] && p.1 >= b[1] && p.1 <= b[3])
        .map(|(i, _)| *i)
        .collect();
    Some((ids, b))
}

/// An enlarged view of the crowded areas, half the main map wide, if that enlarges them
/// enough to be worth it.
fn inset_panel(map: &Map, main: &svg::Panel, ids: &[usize], width: f64) -> Option<svg::Panel> {
    let positions: Vec<(f64, f64)> = ids
        .iter()
        .filter_map(|&i| map.areas()[i].position)
        .collect();
    let inset_w = (f64::from(main.proj.width) * 0.5).round() as u32;
    let proj = Projection::fit(&positions, inset_w);
    if proj.pixels_per_degree() < 1.6 * main.proj.pixels_per_degree() {
        return None;
    }
    let pad = (f64::from(proj.width) * 0.15) as u32;
    Some(panel(map, proj, pad, width))
}

/// The SVG of a map or game; see [`draw`].
pub fn svg(
    map: &Map,
    game: Option<(&GameState, Option<EmpireCode>)>,
    opts: &DrawOptions,
) -> Result<String, String> {
    draw(map, game, opts).map(|d| d.svg)
}
