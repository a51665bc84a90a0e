//! Every report of a turn, rendered for the turn's files (section 10).

use crate::error::{Error, Result};
use empires_maps::draw::{Base, DrawOptions};
use empires_report::{Turn, render_every};
use empires_rules::event::Event;
use empires_rules::{EmpireCode, GameState, Map};

/// The folder of a turn directory holding its reports.
pub const REPORTS_DIR: &str = "reports";

/// Width in pixels of the map in the HTML reports, which the page's layout is made for.
const REPORT_MAP_WIDTH: u32 = empires_report::html::MAP_WIDTH;

/// Every report of a turn, as (file name, contents): `CODE.json`, `CODE.txt` and
/// `CODE.html` for each empire, and the GM's `gm.txt`.
pub fn render_all(
    map: &Map,
    state: &GameState,
    events: &[Event],
    computer_written: &[EmpireCode],
    gm_messages: &[String],
) -> Result<Vec<(String, String)>> {
    let turn = Turn {
        map,
        state,
        events,
        computer_written,
        gm_messages,
    };
    // 10.5: each page carries the map as its empire knows it. The map's shapes are worked
    // out once for all the empires; a map without positions is left out.
    let opts = DrawOptions {
        width: REPORT_MAP_WIDTH,
        title: Some(format!("{}, turn {}", state.game, state.turn)),
        graticule: true,
        zoom_label: Some(empires_report::html::MAP_LABEL),
    };
    let base = Base::new(map, &opts).ok();
    let reports = render_every(&turn, |empire| {
        base.as_ref()
            .and_then(|b| b.svg(Some((state, Some(empire)))).ok())
    })
    .map_err(|e| Error::new(format!("cannot encode a report: {e}")))?;
    let mut files = Vec::with_capacity(3 * reports.empires.len() + 1);
    for r in reports.empires {
        files.push((format!("{}.json", r.empire), r.json));
        files.push((format!("{}.txt", r.empire), r.text));
        files.push((format!("{}.html", r.empire), r.html));
    }
    files.push(("gm.txt".to_string(), reports.gm));
    Ok(files)
}
