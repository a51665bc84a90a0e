//! An empire's report of a turn made whole, for everywhere a report leaves the game: mail,
//! `empires report`, an archive. A turn keeps once what every empire's report shares (the
//! roundup and the public actions in `reports/public.*`, the map's layer in `map.js` and
//! the turn's part of it in `reports/public.js`); a report made whole carries all of it.

use crate::drawing::{TURN_SCRIPT, whole_page};
use crate::error::{Error, Result};
use empires_host::gamedir::REPORTS_DIR;
use empires_maps::draw::Layers;
use empires_report::public;
use empires_rules::EmpireCode;

/// The report of `empire` in the form `ext` (`txt`, `html`, `json`), from a turn's files
/// as `read` gives them by path within the turn (`reports/EN.txt`). An HTML page gets the
/// map's layer put in when `layers` is given. `place` names the turn in messages.
pub fn whole_report(
    read: &dyn Fn(&str) -> Result<String>,
    empire: EmpireCode,
    ext: &str,
    layers: Option<&Layers>,
    place: &str,
) -> Result<String> {
    let own = read(&format!("{REPORTS_DIR}/{empire}.{ext}"))?;
    let page = if public::needs_parts(ext, &own) {
        let shared = read(&format!("{REPORTS_DIR}/{}", public::file(ext)))?;
        public::whole(ext, &own, Some(&shared))
            .map_err(|e| Error::corrupt(format!("{place}: {e}")))?
    } else {
        own
    };
    if ext != "html" {
        return Ok(page);
    }
    let turn_script = if page.contains(&format!("<script src=\"{TURN_SCRIPT}\"></script>")) {
        Some(read(&format!("{REPORTS_DIR}/{TURN_SCRIPT}"))?)
    } else {
        None
    };
    Ok(match layers {
        Some(l) => whole_page(&page, l, turn_script.as_deref()),
        None => page,
    })
}
