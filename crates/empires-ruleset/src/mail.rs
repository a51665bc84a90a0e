//! An empire's report as a letter carries it: the report made whole from its own part and
//! the part every empire's report shares ([`crate::whole`]), and its map drawn as a PNG on
//! the game's kept layer, since mail readers show neither drawings nor scripts.

use crate::Loaded;
use crate::gamedir::parse_state;
use crate::whole::whole_report;
use empires_host::error::{Error, Result};
use empires_host::gamedir::{GM_MESSAGES_FILE, ORDERS_DIR, STATE_FILE};
use empires_maps::draw::Layers;
use empires_rules::{EmpireCode, GameState};
use ruleset_api::mail::{MailReport, PICTURE_CID, TurnFiles};
use std::borrow::Cow;

/// `empire`'s report of turn `turn` of the game `loaded` (its map's layer `layers`).
pub fn mail_report(
    loaded: &Loaded,
    layers: Option<&Layers>,
    turn: u32,
    files: &TurnFiles,
    empire: EmpireCode,
) -> Result<MailReport> {
    let read = |path: &str| files.text(path);
    let text = whole_report(&read, empire, "txt", None, files.place)?;
    let page = whole_report(&read, empire, "html", None, files.place)?;
    let (html, (picture, whole, close_up)) = match layers {
        // With a picture of the map, the page shows it rather than carrying the drawing.
        Some(l) => {
            let state: Cow<GameState> = if turn == loaded.turn {
                Cow::Borrowed(&loaded.state)
            } else {
                Cow::Owned(parse_state(
                    &files.text(STATE_FILE)?,
                    files.place,
                    &loaded.map,
                )?)
            };
            let (close, whole, close_up) = map_pngs(loaded, &state, l, (empire, files.whole_map))?;
            (
                with_map_picture(&page, close_up),
                (Some(close), whole, close_up),
            )
        }
        None => (page, (None, None, false)),
    };
    let gm_messages = files
        .files
        .get(&format!("{ORDERS_DIR}/{GM_MESSAGES_FILE}"))
        .map(|b| String::from_utf8_lossy(b).trim().to_string())
        .filter(|s| !s.is_empty());
    Ok(MailReport {
        text,
        html,
        picture,
        whole,
        close_up,
        gm_messages,
    })
}

/// A report page whose map section shows the PNG sent with it (by its Content-ID) in place
/// of the drawing and the scripts that draw it; `close_up` when the picture is a part of the
/// map (the letter says where the whole one is).
fn with_map_picture(page: &str, close_up: bool) -> String {
    const START: &str = "<section class=\"map\" id=\"map\">";
    let Some(a) = page.find(START) else {
        return page.to_string();
    };
    let rest = &page[a + START.len()..];
    let end = ["<section", "</main>"]
        .iter()
        .filter_map(|m| rest.find(m))
        .min()
        .map_or(page.len(), |i| a + START.len() + i);
    let (alt, note) = if close_up {
        (
            "The map around your empire",
            "<p>Your empire and its neighbours.</p>",
        )
    } else {
        ("The map of what your empire knows", "")
    };
    format!(
        "{}{START}<h2>Map</h2>{note}<img src=\"cid:{PICTURE_CID}\" alt=\"{alt}\" style=\"max-width:100%;height:auto\"></section>{}",
        &page[..a],
        &page[end..]
    )
}

/// The map of what `empire` knows, drawn on the game's kept layer: the part of it where
/// the empire's areas and their neighbours lie, with the labels that read there on a phone,
/// and, when `whole_map` (the letter carries it), the whole map with the whole map's
/// labels. Both PNGs, and whether the first is a close-up (not when it would show all of
/// the map, or the empire has no area: then it is the whole map).
fn map_pngs(
    loaded: &Loaded,
    state: &GameState,
    layers: &Layers,
    (empire, whole_map): (EmpireCode, bool),
) -> Result<(Vec<u8>, Option<Vec<u8>>, bool)> {
    use empires_maps::draw::picture;
    let overlay = empires_maps::draw::overlay(
        &layers.layout,
        &loaded.map,
        Some((state, Some(empire))),
        None,
    )
    .map_err(Error::new)?;
    let svg = layers.assemble(&overlay);
    let own: Vec<_> = state.owned_by(empire).collect();
    let neighbours: Vec<_> = own
        .iter()
        .flat_map(|a| loaded.map.neighbours(*a).iter().copied())
        .collect();
    let png = |svg: &str| empires_maps::draw::png_small(svg).map_err(Error::new);
    let whole = || png(&picture::with_labels_of(&svg, 1));
    match picture::close_up_of(&layers.layout, &own, &neighbours) {
        // A close-up of nearly all the main map would be the whole map again.
        Some(c) if c.frame[2] < layers.layout.frames[0].w * 0.9 => {
            let whole = if whole_map { Some(whole()?) } else { None };
            Ok((png(&picture::close_up(&svg, &c))?, whole, true))
        }
        _ => Ok((whole()?, None, false)),
    }
}
