//! `empires map ...`: tools for map designers.

use crate::commands::new::map_text;
use crate::error::Result;
use empires_maps::check::{MapReport, check_map};
use empires_rules::Variant;
use std::path::Path;

/// `empires map check`: every problem of a map file or standard map.
pub fn check(map: &Path, variant: Option<Variant>) -> Result<MapReport> {
    let (text, file) = map_text(map)?;
    Ok(check_map(&text, &file, variant))
}
