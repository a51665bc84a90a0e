//! The standard maps' drawings, worked out when the program is built (by the crate's build
//! script, with the same code as [`super::draw`]) and carried in it: a game on a standard
//! map is given its drawing at once, rather than spend a quarter of a second drawing it for
//! every new game (the World map's regions, borders and labels).

/// Each standard map's name and its `map.js`, as the build script wrote them.
const BUILT: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/standard_drawings.rs"));

/// The built `map.js` of the standard map whose text is `map_text`, if it is one: a map
/// changed in any way, even by a comment, is not, and is drawn for its game.
pub fn standard_script(map_text: &str) -> Option<&'static str> {
    let map = empires_maps::standard::MAPS
        .iter()
        .find(|m| m.text == map_text)?;
    BUILT
        .iter()
        .find(|(name, _)| *name == map.name)
        .map(|(_, script)| *script)
}
