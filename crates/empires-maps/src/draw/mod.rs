//! `empires map draw`: maps and games drawn as standalone SVG, and rendered to PNG.
//!
//! The land comes from Natural Earth coastlines ([`coast`]); each area's region grows from
//! its position over land or sea ([`regions`]); the regions' borders are traced and
//! simplified ([`trace`]) and written as SVG paths with the area codes as ids ([`svg`]).
//! The same input always gives the same bytes.

pub mod coast;
pub mod png;
pub mod projection;
pub mod regions;
pub mod style;
pub mod svg;
pub mod trace;

pub use png::png;

use empires_rules::knowledge::{view_for, visible_areas};
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
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            width: 1600,
            title: None,
            graticule: true,
        }
    }
}

/// A drawing, and notes for the map's designer: positions off the coastlines and borders
/// that differ from the map's.
#[derive(Debug, Clone)]
pub struct Drawing {
    pub svg: String,
    pub notes: Vec<String>,
}

/// Frame pixels per output pixel: regions are worked out at twice the resolution they are
/// drawn at, for smoother borders.
const SUPERSAMPLE: f64 = 2.0;

/// Draws a map, or a game on it (`game`), or what one empire knows of a game
/// (`game` with `Some(empire)`).
pub fn draw(
    map: &Map,
    game: Option<(&GameState, Option<EmpireCode>)>,
    opts: &DrawOptions,
) -> Result<Drawing, String> {
    let width = f64::from(opts.width.clamp(200, 10_000));
    let positions: Vec<(f64, f64)> = map.areas().iter().filter_map(|a| a.position).collect();
    if positions.is_empty() {
        return Err(format!(
            "{}: no area has a position to draw it at",
            map.name
        ));
    }
    let game = match game {
        None => None,
        Some((st, viewer)) => {
            st.validate(map)
                .map_err(|e| format!("the game does not fit the map {}: {e}", map.name))?;
            let (state, visible) = match viewer {
                None => (st.clone(), None),
                Some(e) => {
                    if st.empire(e).is_none() {
                        return Err(format!("there is no empire {e} in the game"));
                    }
                    (view_for(map, st, e), Some(visible_areas(map, st, e)))
                }
            };
            Some(svg::Game {
                state,
                visible,
                viewer,
            })
        }
    };
    let margin = Sizes::new(width, 40.0).margin;
    let frame = ((width - 2.0 * margin) * SUPERSAMPLE).round() as u32;
    let proj = Projection::fit(&positions, frame);
    let regions = regions::build(map, &proj, SUPERSAMPLE);
    let n = map.areas().len() as u16;
    let traced = trace::trace(
        &regions,
        |l| l < n || l == OFF_LAND || l == OFF_SEA,
        0.9 * SUPERSAMPLE,
    );
    let sizes = Sizes::new(width, regions.spacing / SUPERSAMPLE);
    let scene = svg::Scene {
        map,
        regions: &regions,
        traced: &traced,
        proj: &proj,
        ss: SUPERSAMPLE,
        width,
        sizes,
        game,
        title: opts.title.clone(),
        graticule: opts.graticule,
    };
    Ok(Drawing {
        svg: svg::write(&scene),
        notes: regions.notes.clone(),
    })
}

/// The SVG of a map or game; see [`draw`].
pub fn svg(
    map: &Map,
    game: Option<(&GameState, Option<EmpireCode>)>,
    opts: &DrawOptions,
) -> Result<String, String> {
    draw(map, game, opts).map(|d| d.svg)
}
