//! Draws the standard maps once, when the program is built: working out a map's regions,
//! borders and labels for the report pages is the slow part of drawing it, and a standard
//! map never changes. `src/drawing/standard.rs` carries the results.

use std::path::PathBuf;

// The very code the program draws with and encodes the drawing by.
#[allow(dead_code)]
#[path = "src/drawing/script.rs"]
mod script;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/drawing/script.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // One thread per map: the World map alone takes a quarter of a second.
    let drawn: Vec<(&str, Option<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = empires_maps::standard::MAPS
            .iter()
            .map(|m| {
                s.spawn(move || {
                    let map = empires_rules::Map::from_toml(m.text, m.file)
                        .unwrap_or_else(|e| panic!("standard map {}: {e}", m.file));
                    let layers = script::draw(&map);
                    let text = layers.map(|l| {
                        script::encode(&l, m.text)
                            .unwrap_or_else(|e| panic!("drawing of {}: {e}", m.file))
                    });
                    (m.name, text)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a standard map's drawing"))
            .collect()
    });
    let mut list = String::from("&[\n");
    for (name, text) in drawn {
        let Some(text) = text else { continue };
        let file = format!("{name}.map.js");
        std::fs::write(out.join(&file), text)
            .unwrap_or_else(|e| panic!("cannot write {file} in OUT_DIR: {e}"));
        list.push_str(&format!(
            "    ({name:?}, include_str!(concat!(env!(\"OUT_DIR\"), \"/{file}\"))),\n"
        ));
    }
    list.push(']');
    std::fs::write(out.join("standard_drawings.rs"), list)
        .expect("cannot write standard_drawings.rs in OUT_DIR");
}
