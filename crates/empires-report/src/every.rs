//! Every empire's report of a turn, in all three forms at once. The parts all reports share
//! are worked out once and written once ([`crate::public`]), and the empires' reports are
//! rendered in parallel on every core, a few at a time, each handed on as soon as it is
//! done: a turn's reports are the bulk of the work of a turn, and need never all be held in
//! memory at once.

use crate::build::{Turn, report_with, shared};
use crate::{gm, html, public, text};
use empires_rules::EmpireCode;
use rayon::prelude::*;

/// One empire's report in its three forms, as kept: the shared parts are in the turn's
/// [`public::Files`], and [`public::whole`] puts them back.
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
    /// The parts every empire's report shares, once.
    pub public: Option<public::Files>,
    /// The GM's summary.
    pub gm: String,
}

/// What [`render_each`] gives besides the empires' reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Common {
    /// The parts every empire's report shares; `None` in a game without empires.
    pub public: Option<public::Files>,
    /// The GM's summary.
    pub gm: String,
}

/// Renders every report of the turn and keeps them all; see [`render_each`].
pub fn render_every<F>(
    t: &Turn,
    layer: Option<&str>,
    turn_part: Option<&str>,
    map_svg: F,
) -> Result<TurnReports, serde_json::Error>
where
    F: Fn(EmpireCode) -> Option<String> + Sync,
{
    let mut empires = Vec::with_capacity(t.state.empires.len());
    let common = render_each(t, layer, turn_part, map_svg, |r| {
        empires.push(r);
        Ok::<_, serde_json::Error>(())
    })?;
    Ok(TurnReports {
        empires,
        public: common.public,
        gm: common.gm,
    })
}

/// How many reports are rendered at once for each core before they are handed on.
const BATCH_PER_THREAD: usize = 4;

/// Renders every report of the turn, handing each empire's to `sink` in the order of the
/// state's empires as soon as its batch is done. `map_svg` draws an empire's map for its
/// HTML page (`None` leaves the map out); it is called from several threads at once. With
/// `layer`, what it draws is an overlay and the pages load the map's layer from there (see
/// [`html::PageMap`]); without, it is the whole drawing. With `turn_part` too, the part of
/// the overlays every empire shares is loaded from there.
pub fn render_each<F, S, E>(
    t: &Turn,
    layer: Option<&str>,
    turn_part: Option<&str>,
    map_svg: F,
    mut sink: S,
) -> Result<Common, E>
where
    F: Fn(EmpireCode) -> Option<String> + Sync,
    S: FnMut(Rendered) -> Result<(), E> + Send,
    E: From<serde_json::Error> + Send,
{
    let st = t.state;
    let sh = shared(t);
    let gm = gm::summary_with(t, &sh);
    let Some(first) = st.empires.first() else {
        return Ok(Common { public: None, gm });
    };
    // The shared sections read only the shared parts, so any empire's report gives them.
    let files = public::render(&report_with(t, &sh, first.code))?;
    let text_pointer = text::shared_pointer();
    let batch = BATCH_PER_THREAD * rayon::current_num_threads().max(1);
    // One batch is handed on while the next is rendered, so that writing the reports (the
    // system's work, on one core) overlaps rendering them (on the others).
    let mut done: Vec<Rendered> = Vec::new();
    for empires in st.empires.chunks(batch) {
        let handed = std::mem::take(&mut done);
        let (rendered, handed) = rayon::join(
            || render_batch(t, &sh, empires, layer, turn_part, &map_svg, &text_pointer),
            || handed.into_iter().try_for_each(&mut sink),
        );
        handed?;
        done = rendered?;
    }
    done.into_iter().try_for_each(&mut sink)?;
    Ok(Common {
        public: Some(files),
        gm,
    })
}

/// The reports of `empires`, rendered side by side.
fn render_batch<F, E>(
    t: &Turn,
    sh: &crate::build::Shared,
    empires: &[empires_rules::state::EmpireState],
    layer: Option<&str>,
    turn_part: Option<&str>,
    map_svg: &F,
    text_pointer: &str,
) -> Result<Vec<Rendered>, E>
where
    F: Fn(EmpireCode) -> Option<String> + Sync,
    E: From<serde_json::Error> + Send,
{
    let st = t.state;
    empires
        .par_iter()
        .map(|e| {
            let r = report_with(t, sh, e.code);
            let actions = e.actions_per_turn.unwrap_or(st.options.actions_per_turn);
            let svg = map_svg(e.code);
            let map = svg.as_deref().map(|svg| match layer {
                Some(layer) => html::PageMap::Layered {
                    overlay: svg,
                    layer,
                    turn: turn_part,
                },
                None => html::PageMap::Whole(svg),
            });
            let blank = text::Blank {
                game: t.sheet_game.unwrap_or(&st.game),
                actions,
            };
            let text = text::render_with(&r, blank, text_pointer);
            let html = html::render_with(&r, blank, map, html::SHARED_POINTER);
            let mut json = serde_json::to_string(&public::without_parts(r))?;
            json.push('\n');
            Ok(Rendered {
                empire: e.code,
                json,
                text,
                html,
            })
        })
        .collect::<Result<Vec<_>, E>>()
}
