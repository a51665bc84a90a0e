//! The text of `map.js`, the map's layer as report pages load it, and the head a turn reads
//! from it: what the layer was drawn from, and its layout.
//!
//! This file is also compiled into the crate's build script, which draws the standard maps
//! when the program is built ([`super::standard`]): it names its dependencies by their
//! crates' names only, never `crate::`.

use empires_maps::draw::{Base, DrawOptions, Layers, Layout};
use empires_rules::Map;
use serde::{Deserialize, Serialize};

/// Bumped whenever the layer's drawing changes, so that layers kept by games are redrawn.
pub const DRAWING_VERSION: u32 = 2;

const PREFIX: &str = "window.EmpiresMap=";
pub(crate) const SUFFIX: &str = ";\n";

/// Width in pixels of the map in the HTML reports, which the page's layout is made for.
const REPORT_MAP_WIDTH: u32 = empires_report::html::MAP_WIDTH;

/// The first line of `map.js`: what the layer was drawn from, and its layout, which is all
/// a turn needs; the layer's parts, which only browsers and whole pages need, follow on the
/// second line, so that a turn reads the first line alone.
#[derive(Serialize, Deserialize)]
pub struct Head {
    version: u32,
    map_key: String,
    /// The length of the parts' JSON: a file cut short or run on is caught by its length
    /// without reading the parts.
    parts_bytes: u64,
    pub layout: Layout,
}

/// Where the parts begin in `map.js`.
const PARTS: &str = ",\n\"parts\":";

/// How the report pages' maps are drawn.
pub fn report_options() -> DrawOptions {
    DrawOptions {
        width: REPORT_MAP_WIDTH,
        title: None,
        graticule: true,
        zoom_label: Some(empires_report::html::MAP_LABEL),
    }
}

/// Identifies a map's text: the 128-bit XXH3 of its bytes, in hex. It tells a derived copy
/// (the drawing in `map.js`, the ready-to-load `.map.json`) that it was made from the same
/// text, which needs no cryptographic strength: the GM holds both files.
pub fn map_key(map_text: &str) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(map_text.as_bytes()))
}

/// Works out a map's layer for the report pages: `None` for a map without positions, which
/// the reports go without.
pub fn draw(map: &Map) -> Option<Layers> {
    Base::new(map, &report_options()).ok().map(|b| b.layers)
}

/// The text of `map.js` for a layer drawn from `map_text`.
pub fn encode(layers: &Layers, map_text: &str) -> Result<String, serde_json::Error> {
    let parts = serde_json::to_string(&layers.parts)?;
    let head = Head {
        version: DRAWING_VERSION,
        map_key: map_key(map_text),
        parts_bytes: parts.len() as u64,
        layout: layers.layout.clone(),
    };
    let head = serde_json::to_string(&head)?;
    let head = head.strip_suffix('}').unwrap_or(&head);
    Ok(format!("{PREFIX}{head}{PARTS}{parts}}}{SUFFIX}"))
}

/// The head of a kept `map.js` `length` bytes long, from the whole script or its first line
/// alone, if it was drawn from `map_text` by this version of the drawing and the file is as
/// long as its head says.
pub fn head(script: &str, length: u64, map_text: &str) -> Option<Head> {
    let json = script.strip_prefix(PREFIX)?;
    // Compact JSON has no line breaks: the first is where the parts begin.
    let (text, _) = json.split_once(",\n")?;
    let head: Head = serde_json::from_str(&format!("{text}}}")).ok()?;
    let line = (PREFIX.len() + text.len() + 2) as u64;
    let whole = line + (PARTS.len() - 2) as u64 + head.parts_bytes + 1 + SUFFIX.len() as u64;
    (head.version == DRAWING_VERSION && whole == length && head.map_key == map_key(map_text))
        .then_some(head)
}

/// The head of a kept `map.js` and the text of its parts, if it was drawn from `map_text` by
/// this version of the drawing.
fn split<'s>(script: &'s str, map_text: &str) -> Option<(Head, &'s str)> {
    let json = script.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    let (_, parts) = json.split_once(PARTS)?;
    Some((
        head(script, script.len() as u64, map_text)?,
        parts.strip_suffix('}')?,
    ))
}

/// The layer in a kept `map.js`, if it was drawn from `map_text` by this version of the
/// drawing.
pub fn read(script: &str, map_text: &str) -> Option<Layers> {
    let (head, parts) = split(script, map_text)?;
    Some(Layers {
        layout: head.layout,
        parts: serde_json::from_str(parts).ok()?,
    })
}
