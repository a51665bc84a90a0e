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
    let (html, picture) = match layers {
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
            let png = map_png(loaded, &state, l, empire)?;
            (with_map_picture(&page), Some(png))
        }
        None => (page, None),
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
        gm_messages,
    })
}

/// A report page whose map section shows the PNG sent with it (by its Content-ID) in place
/// of the drawing and the scripts that draw it.
fn with_map_picture(page: &str) -> String {
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
    format!(
        "{}{START}<h2>Map</h2><img src=\"cid:{PICTURE_CID}\" alt=\"The map of what your empire knows\" style=\"max-width:100%;height:auto\"></section>{}",
        &page[..a],
        &page[end..]
    )
}

/// The map of what `empire` knows, drawn on the game's kept layer and made a PNG.
fn map_png(
    loaded: &Loaded,
    state: &GameState,
    layers: &Layers,
    empire: EmpireCode,
) -> Result<Vec<u8>> {
    let overlay = empires_maps::draw::overlay(
        &layers.layout,
        &loaded.map,
        Some((state, Some(empire))),
        None,
    )
    .map_err(Error::new)?;
    empires_maps::draw::png_small(&layers.assemble(&overlay)).map_err(Error::new)
}
