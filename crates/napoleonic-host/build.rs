//! Draws the standard map of Europe once, when the program is built: working out its
//! regions, borders and labels for the report pages takes seconds, and the standard map
//! never changes. `src/lib.rs` carries the result (`BUILT_EUROPE`).

use std::path::PathBuf;

// The very code the program draws with and encodes the drawing by.
#[allow(dead_code)]
#[path = "src/kept.rs"]
mod kept;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/kept.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let text = napoleonic_rules::standard::EUROPE_TOML;
    let map = napoleonic_rules::standard::europe();
    let europe =
        kept::draw(&map, text).unwrap_or_else(|e| panic!("the map of Europe's drawing: {e}"));
    std::fs::write(out.join("napoleonic.kept.json"), europe)
        .expect("cannot write napoleonic.kept.json in OUT_DIR");
}
