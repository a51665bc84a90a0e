//! The map as a game directory keeps it ready to load: `.map.json`, the map file's fields
//! as compact JSON, which reads several times faster than the TOML a GM writes and edits.
//!
//! The map never changes during a game, yet every command that opens the game reads it:
//! parsing `map.toml` was a sixth of the work of a whole `empires turn` on the World map.
//! The copy is made at `empires new` and whenever it is missing or stale, and is trusted
//! only while it was made from the very text in `map.toml` (by [`map_key`]) by this version
//! of the program's map format; anything else about it (cut short, edited, from another
//! map) sends the load back to `map.toml`, so losing or spoiling it never loses anything.

use empires_rules::map::MapFile;
use serde::{Deserialize, Serialize};

/// The ready-to-load copy beside `map.toml`.
pub use empires_host::gamedir::READY_MAP_FILE as MAP_CACHE;

/// Bumped whenever the map file's fields change, so that older copies are made again.
const FORMAT: u32 = 1;

pub use crate::drawing::map_key;

/// The first line of [`MAP_CACHE`].
#[derive(Serialize, Deserialize)]
struct Head {
    format: u32,
    map_key: String,
}

/// The text of [`MAP_CACHE`] for a map file parsed from `map_text`.
pub fn encode(map_text: &str, file: &MapFile) -> Option<String> {
    let head = serde_json::to_string(&Head {
        format: FORMAT,
        map_key: map_key(map_text),
    })
    .ok()?;
    let body = serde_json::to_string(file).ok()?;
    Some(format!("{head}\n{body}\n"))
}

/// Keeps the ready-to-load copy of `map_text` in the game directory `dir`.
pub fn keep(dir: &std::path::Path, map_text: &str) -> crate::error::Result<()> {
    let path = dir.join(empires_host::gamedir::MAP_FILE);
    let file = crate::gamedir::parse_map_file(map_text, &path.display().to_string())?;
    match encode(map_text, &file) {
        Some(cache) => empires_host::files::write_unsynced(&dir.join(MAP_CACHE), cache.as_bytes()),
        None => Ok(()),
    }
}

/// The map file kept in `cache`, if it was made from `map_text` by this version.
pub fn decode(cache: &str, map_text: &str) -> Option<MapFile> {
    let (head, body) = cache.split_once('\n')?;
    let head: Head = serde_json::from_str(head).ok()?;
    if head.format != FORMAT || head.map_key != map_key(map_text) {
        return None;
    }
    serde_json::from_str(body).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_trusted_only_for_the_text_it_was_made_from() {
        let text = empires_maps::standard::find("tutorial")
            .expect("the tutorial map")
            .text;
        let file: MapFile = toml::from_str(text).unwrap();
        let cache = encode(text, &file).unwrap();
        let back = decode(&cache, text).expect("the copy of this text");
        assert_eq!(
            serde_json::to_string(&back).unwrap(),
            serde_json::to_string(&file).unwrap()
        );
        let edited = format!("{text}\n# a comment\n");
        assert!(decode(&cache, &edited).is_none(), "another text");
        assert!(
            decode(&cache[..cache.len() / 2], text).is_none(),
            "cut short"
        );
        assert!(decode(&cache.replacen("\"format\":1", "\"format\":0", 1), text).is_none());
        assert!(decode("", text).is_none());
    }
}
