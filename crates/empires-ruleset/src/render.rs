//! Every report of a turn, rendered for the turn's files (section 10).

use crate::drawing::{self, FROM_REPORTS};
use crate::error::Result;
use empires_maps::draw::{Layout, overlay_apart, overlay_of_valid, turn_part};
use empires_report::{Turn, public, render_each};
use empires_rules::event::Event;
use empires_rules::{EmpireCode, GameState, Map};

/// The folder of a turn directory holding its reports.
pub const REPORTS_DIR: &str = "reports";

/// What a turn's reports are handed to, file by file, as (file name, contents).
pub type Sink<'a> = dyn FnMut(String, String) -> Result<()> + Send + 'a;

/// Every report of a turn, as (file name, contents); see [`render_into`].
pub fn render_all(
    map: &Map,
    layout: Option<&Layout>,
    state: &GameState,
    events: &[Event],
    computer_written: &[EmpireCode],
    gm_messages: &[String],
    sheet_game: Option<&str>,
) -> Result<Vec<(String, String)>> {
    let mut files = Vec::with_capacity(3 * state.empires.len() + 5);
    render_into(
        map,
        layout,
        state,
        events,
        computer_written,
        gm_messages,
        sheet_game,
        &mut |name, text| {
            files.push((name, text));
            Ok(())
        },
    )?;
    Ok(files)
}

/// Every report of a turn, handed to `sink` as each is rendered, so that they are never
/// all held in memory at once: `CODE.json`, `CODE.txt` and `CODE.html` for each empire
/// (in the order of the state's empires), then the parts they all share (`public.js`,
/// `public.json`, `public.txt`, `public.html`) and the GM's `gm.txt`. `layout` is the
/// layout of the map's own layer, worked out once per game ([`crate::drawing`]); without
/// it the pages go without a map. `sheet_game` is the name the blank turnsheets give on
/// their `GAME` line when the host keeps the game under another name than its title.
#[allow(clippy::too_many_arguments)]
pub fn render_into(
    map: &Map,
    layout: Option<&Layout>,
    state: &GameState,
    events: &[Event],
    computer_written: &[EmpireCode],
    gm_messages: &[String],
    sheet_game: Option<&str>,
    sink: &mut Sink,
) -> Result<()> {
    let turn = Turn {
        map,
        state,
        events,
        computer_written,
        gm_messages,
        sheet_game,
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
    let common = render_each(
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
        |r| {
            sink(format!("{}.json", r.empire), r.json)?;
            sink(format!("{}.txt", r.empire), r.text)?;
            sink(format!("{}.html", r.empire), r.html)
        },
    )?;
    if let Some(script) = turn_script {
        sink(drawing::TURN_SCRIPT.to_string(), script)?;
    }
    // 10.3, 10.4, 10.6: the parts every empire's report shares, once for the turn.
    if let Some(p) = common.public {
        sink(public::file("json"), p.json)?;
        sink(public::file("txt"), p.text)?;
        sink(public::file("html"), p.html)?;
    }
    sink("gm.txt".to_string(), common.gm)
}
