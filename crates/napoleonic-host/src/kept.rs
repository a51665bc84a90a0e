//! The map's drawing as a Napoleonic game keeps it (`kept.json`): the layer, and the
//! SHA-256 of the map text it was drawn from, so that a drawing of another map is never
//! used.
//!
//! This file is also compiled into the crate's build script, which draws the standard map
//! of Europe when the program is built: it names its dependencies by their crates' names
//! only, never `crate::`.

use napoleonic_report::draw::{MapDrawer, options};
use sha2::{Digest, Sha256};

#[derive(serde::Serialize, serde::Deserialize)]
pub struct KeptDrawing {
    pub map: String,
    pub layers: empires_maps::draw::Layers,
}

/// What a kept drawing names its map by: the SHA-256 of the map's text, in hex.
pub fn map_hash(map_text: &str) -> String {
    Sha256::digest(map_text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The text of `kept.json` for a map's drawer.
pub fn encode(map_text: &str, drawer: &MapDrawer) -> Result<String, serde_json::Error> {
    serde_json::to_string(&KeptDrawing {
        map: map_hash(map_text),
        layers: drawer.layers.clone(),
    })
}

/// Works out the drawing of a map, as `kept.json` keeps it.
pub fn draw(map: &napoleonic_rules::Map, map_text: &str) -> Result<String, String> {
    let drawer = MapDrawer::new(map, &options())?;
    encode(map_text, &drawer).map_err(|e| e.to_string())
}
