//! Colours and sizes: a map to pin on the wall. Seas in soft blues, land tinted by terrain
//! (or by owner in a game), parchment for unowned land, thin dark borders.

use empires_rules::Terrain;

pub const PAGE: &str = "#f4efe2";
pub const INK: &str = "#2e2a24";
pub const MUTED_INK: &str = "#6b6255";
pub const SEA_INK: &str = "#1f4866";
pub const OFF_LAND: &str = "#e4e0d5";
pub const OFF_SEA: &str = "#dfe9ef";
pub const UNOWNED: &str = "#f2ead3";
pub const LAND_BORDER: &str = "#4a4036";
pub const SEA_BORDER: &str = "#6d98b8";
pub const COAST: &str = "#2f5572";
pub const OFF_COAST: &str = "#9aaab5";
pub const GRATICULE: &str = "#5b7d96";
pub const FRAME: &str = "#3b3329";
/// The outline of the viewer's own empire: the report's accent red, on a white halo.
pub const YOURS: &str = "#8a2b1d";
pub const YOURS_HALO: &str = "#fffdf6";

/// Shades of blue for sea areas; neighbouring seas get different ones.
pub const SEA: [&str; 4] = ["#b3d2e9", "#c6e0f0", "#a6c9e3", "#bcdbe8"];

/// Colours for empires: light enough for dark labels, clear of the blues of the sea and of
/// unowned parchment, and as far apart from each other as 30 such colours can be (the
/// closest pair about 9.5 in CIEDE2000). [`super::colours`] hands them out so that
/// neighbours differ most.
pub const EMPIRES: [&str; 30] = [
    "#e98d7c", "#6aedcd", "#8d8fdd", "#9e9947", "#f0cdea", "#fdd091", "#66a09d", "#d677a7",
    "#cae098", "#67ad6e", "#c18b4b", "#fccdbf", "#d09ae4", "#fda6b9", "#bfab8a", "#a3c7ab",
    "#b4b2d7", "#a98dab", "#2bba9c", "#98a27f", "#b48e7a", "#f9ad79", "#bf878e", "#7cccc7",
    "#d0be6c", "#9eb766", "#8de1a4", "#fdade6", "#d18358", "#73a085",
];

/// The colour of the empire at place `i` of the game or map.
pub fn empire(i: usize) -> &'static str {
    EMPIRES[i % EMPIRES.len()]
}

/// Land colours by terrain, in shades that neighbouring areas of one terrain alternate
/// between.
pub fn terrain(t: Terrain, shade: usize) -> &'static str {
    let shades: [&str; 3] = match t {
        Terrain::Lowlands => ["#cfe2b4", "#c6dcaa", "#d7e8bf"],
        Terrain::Plains => ["#e9e2ad", "#e2daa0", "#efe8ba"],
        Terrain::Uplands => ["#dccaa0", "#d4c095", "#e3d3ad"],
        Terrain::Mountains => ["#c4b39f", "#bbaa95", "#cdbdaa"],
        Terrain::Forest => ["#aed19c", "#a4c992", "#b8d8a7"],
        Terrain::Jungle => ["#92c497", "#88bc8d", "#9ccca1"],
        Terrain::Wetlands => ["#b9dbc9", "#afd3bf", "#c3e2d2"],
        Terrain::Desert => ["#f1ddaa", "#ead49c", "#f5e5b8"],
        Terrain::Tundra => ["#e1e6e4", "#d8dedc", "#e8ecea"],
        Terrain::Islands => ["#d4e6b3", "#cbe0a8", "#dcecbf"],
        Terrain::Sea => SEA_3,
    };
    shades[shade % 3]
}

const SEA_3: [&str; 3] = ["#b7d4e8", "#c3dcee", "#aacbe2"];

/// Sizes in output pixels, for a map `width` pixels wide.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sizes {
    pub label: f64,
    pub badge: f64,
    pub title: f64,
    pub text: f64,
    pub margin: f64,
}

impl Sizes {
    /// `spacing` is the typical distance between neighbouring positions in output pixels:
    /// crowded maps get smaller labels.
    pub fn new(width: f64, spacing: f64) -> Sizes {
        let k = width / 1600.0;
        let label = (spacing * 0.36).clamp(9.0 * k.max(0.6), 14.0 * k.max(0.6));
        Sizes {
            label,
            badge: label * 0.86,
            title: 26.0 * k.max(0.6),
            text: 13.0 * k.max(0.6),
            margin: 18.0 * k.max(0.5),
        }
    }
}
