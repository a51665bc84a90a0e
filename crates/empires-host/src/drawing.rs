//! The map's drawing, worked out once per game and kept with it (section 10.5: each report
//! carries the map as its empire knows it).
//!
//! Working out a map's regions and borders is most of the cost of drawing it, and the map
//! never changes during a game. So the map's own layer ([`empires_maps::draw::Layers`]) is
//! worked out when the game is created and kept beside the map as `map.js`, a script that
//! report pages load; each turn then writes only each empire's small overlay. The file
//! records the key of the map text it was drawn from ([`crate::mapcache::map_key`]) and the drawing's version: a
//! layer that does not match is worked out again rather than trusted. A long-running
//! process keeps the layers it has read or worked out, by that hash.

use crate::error::{Error, Result};
use empires_maps::draw::{Base, DrawOptions, Layers, Layout};
use empires_rules::Map;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The file beside `map.toml` holding the map's layer.
pub const MAP_SCRIPT: &str = "map.js";

/// Where a turn's report pages find [`MAP_SCRIPT`]: reports are in
/// `turns/NNNN/reports/`, three folders below the game's.
pub const FROM_REPORTS: &str = "../../../map.js";

/// Bumped whenever the layer's drawing changes, so that layers kept by games are redrawn.
pub const DRAWING_VERSION: u32 = 2;

const PREFIX: &str = "window.EmpiresMap=";
const SUFFIX: &str = ";\n";

/// Width in pixels of the map in the HTML reports, which the page's layout is made for.
const REPORT_MAP_WIDTH: u32 = empires_report::html::MAP_WIDTH;

/// The first line of [`MAP_SCRIPT`]: what the layer was drawn from, and its layout, which
/// is all a turn needs; the layer's parts, which only browsers and whole pages need, follow
/// on the second line, so that a turn reads the first line alone.
#[derive(Serialize, Deserialize)]
struct Head {
    version: u32,
    map_key: String,
    /// The length of the parts' JSON: a file cut short or run on is caught by its length
    /// without reading the parts.
    parts_bytes: u64,
    layout: Layout,
}

/// Where the parts begin in [`MAP_SCRIPT`].
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

/// What identifies a map's text ([`crate::mapcache::map_key`]).
pub fn map_hash(map_text: &str) -> String {
    crate::mapcache::map_key(map_text)
}

/// Works out a map's layer for the report pages: `None` for a map without positions, which
/// the reports go without.
pub fn draw(map: &Map) -> Option<Layers> {
    Base::new(map, &report_options()).ok().map(|b| b.layers)
}

/// The text of [`MAP_SCRIPT`] for a layer drawn from `map_text`.
pub fn script(layers: &Layers, map_text: &str) -> Result<String> {
    let fail = |e: serde_json::Error| Error::new(format!("cannot encode the map's drawing: {e}"));
    let parts = serde_json::to_string(&layers.parts).map_err(fail)?;
    let head = Head {
        version: DRAWING_VERSION,
        map_key: map_hash(map_text),
        parts_bytes: parts.len() as u64,
        layout: layers.layout.clone(),
    };
    let head = serde_json::to_string(&head).map_err(fail)?;
    let head = head.strip_suffix('}').unwrap_or(&head);
    Ok(format!("{PREFIX}{head}{PARTS}{parts}}}{SUFFIX}"))
}

/// The head of a kept [`MAP_SCRIPT`] `length` bytes long, from the whole script or its
/// first line alone, if it was drawn from `map_text` by this version of the drawing and
/// the file is as long as its head says.
fn head(script: &str, length: u64, map_text: &str) -> Option<Head> {
    let json = script.strip_prefix(PREFIX)?;
    // Compact JSON has no line breaks: the first is where the parts begin.
    let (text, _) = json.split_once(",\n")?;
    let head: Head = serde_json::from_str(&format!("{text}}}")).ok()?;
    let line = (PREFIX.len() + text.len() + 2) as u64;
    let whole = line + (PARTS.len() - 2) as u64 + head.parts_bytes + 1 + SUFFIX.len() as u64;
    (head.version == DRAWING_VERSION && whole == length && head.map_key == map_hash(map_text))
        .then_some(head)
}

/// The head of a kept [`MAP_SCRIPT`] and the text of its parts, if it was drawn from
/// `map_text` by this version of the drawing.
fn split<'s>(script: &'s str, map_text: &str) -> Option<(Head, &'s str)> {
    let json = script.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    let (_, parts) = json.split_once(PARTS)?;
    Some((
        head(script, script.len() as u64, map_text)?,
        parts.strip_suffix('}')?,
    ))
}

/// The layer in a kept [`MAP_SCRIPT`], if it was drawn from `map_text` by this version of
/// the drawing.
pub fn read(script: &str, map_text: &str) -> Option<Layers> {
    let (head, parts) = split(script, map_text)?;
    Some(Layers {
        layout: head.layout,
        parts: serde_json::from_str(parts).ok()?,
    })
}

/// The layers this process has worked out, by the hash of their map's text: a long-running
/// host works each map out once.
fn cache() -> &'static Mutex<HashMap<String, Arc<Layers>>> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Layers>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// What a turn needs of the map's drawing, the layout: read from the kept script if it fits
/// (the whole script or its first line alone will do, with the whole one's length), else as
/// [`layers`] gives it. The second value is the script to keep when the kept one was
/// missing or stale.
pub fn layout(
    map: &Map,
    map_text: &str,
    kept: Option<(&str, u64)>,
) -> (Option<Arc<Layout>>, Option<String>) {
    if let Some(head) = kept.and_then(|(k, length)| head(k, length, map_text)) {
        return (Some(Arc::new(head.layout)), None);
    }
    let (layers, fresh) = layers(map, map_text, None);
    (layers.map(|l| Arc::new(l.layout.clone())), fresh)
}

/// The map's layer: the kept one if it fits, from this process's cache, or worked out
/// afresh. The second value is the script to keep when the kept one was missing or stale.
pub fn layers(
    map: &Map,
    map_text: &str,
    kept: Option<&str>,
) -> (Option<Arc<Layers>>, Option<String>) {
    let cache = cache();
    let hash = map_hash(map_text);
    if let Some(k) = kept
        && let Some(l) = read(k, map_text)
    {
        let l = Arc::new(l);
        if let Ok(mut c) = cache.lock() {
            c.entry(hash).or_insert_with(|| Arc::clone(&l));
        }
        return (Some(l), None);
    }
    let cached = cache.lock().ok().and_then(|c| c.get(&hash).cloned());
    let layers = cached.or_else(|| {
        let l = Arc::new(draw(map)?);
        if let Ok(mut c) = cache.lock() {
            c.insert(hash, Arc::clone(&l));
        }
        Some(l)
    });
    let fresh = layers.as_ref().and_then(|l| script(l, map_text).ok());
    (layers, fresh)
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
