//! Every report of a turn, rendered for the turn's files (section 10).

use crate::drawing::{self, FROM_REPORTS};
use crate::error::{Error, Result};
use empires_maps::draw::{Layout, overlay_apart, overlay_of_valid, turn_part};
use empires_report::{Turn, public, render_every};
use empires_rules::event::Event;
use empires_rules::{EmpireCode, GameState, Map};

/// The folder of a turn directory holding its reports.
pub const REPORTS_DIR: &str = "reports";

/// Every report of a turn, as (file name, contents): `CODE.json`, `CODE.txt` and
/// `CODE.html` for each empire, and the GM's `gm.txt`. `layout` is the layout of the map's
/// own layer, worked out once per game ([`crate::drawing`]); without it the pages go
/// without a map.
pub fn render_all(
    map: &Map,
    layout: Option<&Layout>,
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
    // 10.5: each page carries the map as its empire knows it: its overlay, over the map's
    // layer that every page of the game loads from the one copy.
    let title = format!("{}, turn {}", state.game, state.turn);
    // The state is checked against the map once here, not once for each empire's map.
    let layout = layout.filter(|_| state.validate(map).is_ok());
    // Who owns what is the same on every empire's map (10.5): drawn once for the turn, in
    // `public.js`, which every page loads.
    let turn_script = layout
        .and_then(|l| turn_part(l, map, state).ok())
        .map(|part| drawing::turn_script(&part))
        .transpose()?;
    let reports = render_every(
        &turn,
        layout.map(|_| FROM_REPORTS),
        turn_script.as_ref().map(|_| drawing::TURN_SCRIPT),
        |empire| {
            let l = layout?;
            match &turn_script {
                Some(_) => overlay_apart(l, map, state, empire, Some(&title)).ok(),
                None => overlay_of_valid(l, map, Some((state, Some(empire))), Some(&title)).ok(),
            }
        },
    )
    .map_err(|e| Error::new(format!("cannot encode a report: {e}")))?;
    let mut files = Vec::with_capacity(3 * reports.empires.len() + 5);
    if let Some(script) = turn_script {
        files.push((drawing::TURN_SCRIPT.to_string(), script));
    }
    for r in reports.empires {
        files.push((format!("{}.json", r.empire), r.json));
        files.push((format!("{}.txt", r.empire), r.text));
        files.push((format!("{}.html", r.empire), r.html));
    }
    // 10.3, 10.4, 10.6: the parts every empire's report shares, once for the turn.
    if let Some(p) = reports.public {
        files.push((public::file("json"), p.json));
        files.push((public::file("txt"), p.text));
        files.push((public::file("html"), p.html));
    }
    files.push(("gm.txt".to_string(), reports.gm));
    Ok(files)
}
