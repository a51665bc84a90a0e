//! Every empire's report of a turn, in all three forms at once. The parts all reports share
//! are worked out once, and the empires' reports are rendered in parallel on every core:
//! a turn's reports are the bulk of the work of a turn.

use crate::build::{Turn, report_with, shared};
use crate::{gm, html, text};
use empires_rules::EmpireCode;
use rayon::prelude::*;

/// One empire's report in its three forms.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    pub empire: EmpireCode,
    /// Compact, ending in a newline: the JSON is for programs, and people have the text.
    pub json: String,
    pub text: String,
    pub html: String,
}

/// Every report of a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnReports {
    /// The empires' reports, in the order of the state's empires.
    pub empires: Vec<Rendered>,
    /// The GM's summary.
    pub gm: String,
}

/// Renders every report of the turn. `map_svg` draws an empire's map for its HTML page
/// (`None` leaves the map out); it is called from several threads at once. With `layer`,
/// what it draws is an overlay and the pages load the map's layer from there (see
/// [`html::PageMap`]); without, it is the whole drawing.
pub fn render_every<F>(
    t: &Turn,
    layer: Option<&str>,
    map_svg: F,
) -> Result<TurnReports, serde_json::Error>
where
    F: Fn(EmpireCode) -> Option<String> + Sync,
{
    let st = t.state;
    let sh = shared(t);
    let gm = gm::summary_with(t, &sh);
    let Some(first) = st.empires.first() else {
        return Ok(TurnReports {
            empires: Vec::new(),
            gm,
        });
    };
    // The shared sections read only the shared parts, so any empire's report gives them.
    let sample = report_with(t, &sh, first.code);
    let (text_shared, html_shared) = (
        text::shared_sections(&sample),
        html::shared_sections(&sample),
    );
    let empires = st
        .empires
        .par_iter()
        .map(|e| {
            let r = report_with(t, &sh, e.code);
            let actions = e.actions_per_turn.unwrap_or(st.options.actions_per_turn);
            let mut json = serde_json::to_string(&r)?;
            json.push('\n');
            let svg = map_svg(e.code);
            let map = svg.as_deref().map(|svg| match layer {
                Some(layer) => html::PageMap::Layered {
                    overlay: svg,
                    layer,
                },
                None => html::PageMap::Whole(svg),
            });
            Ok(Rendered {
                empire: e.code,
                json,
                text: text::render_with(&r, actions, &text_shared),
                html: html::render_with(&r, actions, map, &html_shared),
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(TurnReports { empires, gm })
}
