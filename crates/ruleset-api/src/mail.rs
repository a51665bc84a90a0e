//! A seat's report as a letter carries it: whole (a mail reader loads nothing beside it),
//! its map a picture where the game draws one, since mail readers show images, not
//! drawings or scripts.

use crate::{Error, Result};
use std::collections::HashMap;

/// The Content-ID the picture of a report mail is attached under; the page shows it by
/// `cid:` this.
pub const PICTURE_CID: &str = "map@empires";

/// The files of one played turn, read once for every seat's report, by their path in the
/// turn (`reports/FRA.txt`, `orders/gm.txt`).
pub struct TurnFiles<'a> {
    /// How messages name the turn ("the game alpha: turn 3").
    pub place: &'a str,
    pub files: &'a HashMap<String, Vec<u8>>,
    /// Whether the letter carries the whole map itself ([`MailReport::whole`]): not when it
    /// links to the report's page instead, and then the whole map is not drawn.
    pub whole_map: bool,
}

impl TurnFiles<'_> {
    /// The file at `path` as text; a missing or broken file is a corrupt turn.
    pub fn text(&self, path: &str) -> Result<String> {
        let bytes = self
            .files
            .get(path)
            .ok_or_else(|| Error::corrupt(format!("{}: {path} is missing", self.place)))?;
        String::from_utf8(bytes.clone())
            .map_err(|_| Error::corrupt(format!("{}: {path} is not valid UTF-8", self.place)))
    }
}

/// A seat's report of a turn, ready to mail.
#[derive(Debug, Clone, Default)]
pub struct MailReport {
    pub text: String,
    pub html: String,
    /// The seat's map as a PNG, shown in `html` by [`PICTURE_CID`]: where the game draws
    /// one, the part of the map the seat plays in, readable on a phone.
    pub picture: Option<Vec<u8>>,
    /// The whole map as a PNG, when [`MailReport::picture`] shows only a part of it and the
    /// letter carries it ([`TurnFiles::whole_map`]): the letter attaches it.
    pub whole: Option<Vec<u8>>,
    /// [`MailReport::picture`] is a part of the map: the letter attaches the whole map
    /// ([`MailReport::whole`]) or links to the report's page, where the host has an address.
    pub close_up: bool,
    /// The GM's messages of the turn, for the letter to open with when the report does not
    /// carry them itself.
    pub gm_messages: Option<String>,
}

/// `page` with its first inline drawing (`<svg>...</svg>`) swapped for the picture mailed
/// with it.
pub fn picture_in_page(page: &str) -> String {
    let Some(a) = page.find("<svg") else {
        return page.to_string();
    };
    let Some(end) = page[a..].find("</svg>").map(|i| a + i + "</svg>".len()) else {
        return page.to_string();
    };
    format!(
        "{}<img src=\"cid:{PICTURE_CID}\" alt=\"The map of what your realm knows\" style=\"max-width:100%;height:auto\">{}",
        &page[..a],
        &page[end..]
    )
}

/// A seat's report as the turn wrote it (`reports/SEAT.txt` and `.html`), for a game whose
/// report files are whole and draw no map.
pub fn as_written(files: &TurnFiles, seat: &str) -> Result<MailReport> {
    Ok(MailReport {
        text: files.text(&format!("reports/{seat}.txt"))?,
        html: files.text(&format!("reports/{seat}.html"))?,
        ..MailReport::default()
    })
}
