//! The map's drawing, worked out once per game and kept with it (section 10.5: each report
//! carries the map as its empire knows it).
//!
//! Working out a map's regions and borders is most of the cost of drawing it, and the map
//! never changes during a game. So the map's own layer ([`empires_maps::draw::Layers`]) is
//! worked out when the game is created and kept beside the map as `map.js`, a script that
//! report pages load; each turn then writes only each empire's small overlay. The file
//! records the key of the map text it was drawn from ([`map_key`]) and the drawing's
//! version: a layer that does not match is worked out again rather than trusted. A
//! long-running process keeps the layers it has read or worked out, by that key.
//!
//! The standard maps are drawn once for all, when the program is built ([`standard`]): a
//! game on one of them is given the built drawing, and nothing is worked out at all.

mod script;
mod standard;

pub use script::{DRAWING_VERSION, draw, map_key, read, report_options};
pub use standard::standard_script;

use crate::error::{Error, Result};
use empires_maps::draw::{Layers, Layout};
use empires_rules::Map;
use script::{SUFFIX, encode, head};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The file beside `map.toml` holding the map's layer.
pub const MAP_SCRIPT: &str = "map.js";

/// Where a turn's report pages find [`MAP_SCRIPT`]: reports are in
/// `turns/NNNN/reports/`, three folders below the game's.
pub const FROM_REPORTS: &str = "../../../map.js";

/// The text of [`MAP_SCRIPT`] for a layer drawn from `map_text`.
pub fn script(layers: &Layers, map_text: &str) -> Result<String> {
    encode(layers, map_text)
        .map_err(|e| Error::new(format!("cannot encode the map's drawing: {e}")))
}

/// The layers this process has worked out, by the hash of their map's text: a long-running
/// host works each map out once.
fn cache() -> &'static Mutex<HashMap<String, Arc<Layers>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Layers>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// What a turn needs of the map's drawing, the layout: read from the kept script if it fits
/// (the whole script or its first line alone will do, with the whole one's length), from
/// the drawing built into the program for a standard map, else as [`layers`] gives it. The
/// second value is the script to keep when the kept one was missing or stale.
pub fn layout(
    map: &Map,
    map_text: &str,
    kept: Option<(&str, u64)>,
) -> (Option<Arc<Layout>>, Option<Cow<'static, str>>) {
    if let Some(head) = kept.and_then(|(k, length)| head(k, length, map_text)) {
        return (Some(Arc::new(head.layout)), None);
    }
    if let Some(built) = standard_script(map_text)
        && let Some(head) = head(built, built.len() as u64, map_text)
    {
        return (Some(Arc::new(head.layout)), Some(Cow::Borrowed(built)));
    }
    let layers = layers(map, map_text, None);
    let fresh = layers.as_ref().and_then(|l| script(l, map_text).ok());
    (
        layers.map(|l| Arc::new(l.layout.clone())),
        fresh.map(Cow::Owned),
    )
}

/// The map's layer: the kept one if it fits, from this process's cache, from the drawing
/// built into the program for a standard map, or worked out afresh.
pub fn layers(map: &Map, map_text: &str, kept: Option<&str>) -> Option<Arc<Layers>> {
    let cache = cache();
    let hash = map_key(map_text);
    let remember = |l: Layers| {
        let l = Arc::new(l);
        if let Ok(mut c) = cache.lock() {
            c.entry(hash.clone()).or_insert_with(|| Arc::clone(&l));
        }
        l
    };
    if let Some(l) = kept.and_then(|k| read(k, map_text)) {
        return Some(remember(l));
    }
    let cached = cache.lock().ok().and_then(|c| c.get(&hash).cloned());
    cached
        .or_else(|| {
            standard_script(map_text)
                .and_then(|b| read(b, map_text))
                .map(&remember)
        })
        .or_else(|| draw(map).map(&remember))
}

/// The file beside a turn's reports holding the part of every empire's map overlay that
/// they all share (who owns what, the homes: [`empires_maps::draw::turn_part`]).
pub const TURN_SCRIPT: &str = "public.js";

const TURN_PREFIX: &str = "window.EmpiresTurn=";

/// The text of [`TURN_SCRIPT`] for a turn's shared part of the overlays.
pub fn turn_script(part: &str) -> Result<String> {
    let mut parts = serde_json::Map::new();
    parts.insert(
        empires_maps::draw::TURN_PART.to_string(),
        serde_json::Value::String(part.to_string()),
    );
    let json = serde_json::to_string(&serde_json::json!({ "parts": parts }))
        .map_err(|e| Error::new(format!("cannot encode the turn's map: {e}")))?;
    Ok(format!("{TURN_PREFIX}{json}{SUFFIX}"))
}

/// The shared part of the overlays in a turn's [`TURN_SCRIPT`], if it is one.
pub fn read_turn_script(script: &str) -> Option<String> {
    let json = script.strip_prefix(TURN_PREFIX)?.strip_suffix(SUFFIX)?;
    let value: serde_json::Value = serde_json::from_str(json).ok()?;
    value["parts"][empires_maps::draw::TURN_PART]
        .as_str()
        .map(str::to_string)
}

/// A report page made whole, for mail and archives: the map's layer, and the turn's shared
/// part of the overlay (`turn`, the text of the turn's [`TURN_SCRIPT`], when the page loads
/// one), put into their placeholders, and the page's loading of them taken out.
pub fn whole_page(page: &str, layers: &Layers, turn: Option<&str>) -> String {
    let loader = format!(r#"<script src="{FROM_REPORTS}"></script>"#);
    let mut page = page.replacen(&loader, "", 1);
    let turn_loader = format!(r#"<script src="{TURN_SCRIPT}"></script>"#);
    if page.contains(&turn_loader) {
        page = page.replacen(&turn_loader, "", 1);
        let part = turn.and_then(read_turn_script).unwrap_or_default();
        let empty = empires_maps::draw::layers::placeholder(empires_maps::draw::TURN_PART);
        let filled = format!(
            "<g data-part=\"{}\">{part}</g>",
            empires_maps::draw::TURN_PART
        );
        page = page.replacen(&empty, &filled, 1);
    }
    layers.assemble(&page)
}
