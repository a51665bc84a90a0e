//! Finding a turnsheet in the text of a message: its header names the game and the empire
//! (as on every turnsheet, `docs/orders.md`) and, in mail, carries the player's mail
//! password on a `PASSWORD` line, which is taken out before the sheet is kept.
//!
//! Mail programs add things around what the player wrote; the sheet ends at the first of:
//! - an `END` line, for players who want to say where their orders stop (except the `END`
//!   that closes a Napoleonic sheet's `PROCLAMATION`, which belongs to the sheet);
//! - a signature separator (`-- `);
//! - the line a reply puts above the message it quotes (`On … wrote:`, Outlook's
//!   `-----Original Message-----` or its line of underscores).
//!
//! and it starts at its header: a covering note written above the `GAME` line (and the
//! header lines just before it) is not part of the orders. Quoted lines (`> …`) are left
//! out wherever they are.

use empires_host::ruleset::read_header;

/// A turnsheet found in a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The sheet as it will be kept: the player's lines, without the password.
    pub text: String,
    /// The mail password from the header, if the sheet has a `PASSWORD` line.
    pub password: Option<String>,
    /// The header's `GAME`, `EMPIRE` (or `KINGDOM`) and `TURN`, as written.
    pub game: Option<String>,
    pub empire: Option<String>,
    pub turn: Option<String>,
}

/// Whether a line ends the sheet.
fn ends_sheet(line: &str) -> bool {
    let t = line.trim();
    line.trim_end_matches(['\r', '\n']) == "-- "
        || t == "--"
        || t.eq_ignore_ascii_case("END")
        || t.starts_with("-----Original Message-----")
        || (t.len() >= 20 && t.bytes().all(|b| b == b'_'))
        || (t.starts_with("On ") && t.ends_with("wrote:"))
        || (t.starts_with("Le ") && t.ends_with("a écrit :"))
        || (t.starts_with("Am ") && t.ends_with("schrieb:"))
}

/// The password on a `PASSWORD` line (`PASSWORD xyz` or `Password: xyz`), if it is one.
fn password_line(line: &str) -> Option<&str> {
    let t = line.trim();
    let word_end = t.find(|c: char| c.is_whitespace() || c == ':')?;
    if !t[..word_end].eq_ignore_ascii_case("PASSWORD") {
        return None;
    }
    let rest = t[word_end..].trim_start_matches(|c: char| c.is_whitespace() || c == ':');
    Some(rest.trim())
}

/// The first word of a line, as a header keyword would be written (`GAME x`, `Turn: 3`).
fn keyword(line: &str) -> &str {
    let t = line.trim_start().trim_start_matches('>').trim_start();
    let end = t
        .find(|c: char| c.is_whitespace() || c == ':')
        .unwrap_or(t.len());
    &t[..end]
}

/// Where the sheet starts: at its header, the run of header lines around the first `GAME`
/// line, so that a note above it ("Here are my orders") is not read as orders.
fn sheet_start(lines: &[&str]) -> usize {
    let is = |l: &str, words: &[&str]| {
        let k = keyword(l);
        !l.trim_start().starts_with('>') && words.iter().any(|w| k.eq_ignore_ascii_case(w))
    };
    let Some(game) = lines.iter().position(|l| is(l, &["GAME"])) else {
        return 0;
    };
    let mut start = game;
    while start > 0 && is(lines[start - 1], &["TURN", "EMPIRE", "PASSWORD"]) {
        start -= 1;
    }
    start
}

/// The turnsheet in `text`, if there is one: a `GAME` line is what makes a text a
/// turnsheet. `None` when no line names a game.
pub fn find(text: &str) -> Option<Found> {
    let mut kept = String::with_capacity(text.len());
    let mut password = None;
    let lines: Vec<&str> = text.lines().collect();
    let start = sheet_start(&lines);
    // Inside a PROCLAMATION, its END closes it and the sheet goes on.
    let mut proclamation = false;
    for (i, &line) in lines.iter().enumerate() {
        let closes_block = proclamation && line.trim().eq_ignore_ascii_case("END");
        if i >= start && !closes_block && ends_sheet(line) {
            break;
        }
        if i >= start {
            if keyword(line).eq_ignore_ascii_case("PROCLAMATION") {
                proclamation = true;
            } else if closes_block {
                proclamation = false;
            }
        }
        if line.trim_start().starts_with('>') {
            continue;
        }
        // The password counts wherever the player wrote it, in the note or in the header.
        if let Some(p) = password_line(line) {
            if password.is_none() {
                password = Some(p.to_string());
            }
            continue;
        }
        if i < start {
            continue;
        }
        // Mail may carry non-breaking spaces where the player typed spaces (HTML mail).
        kept.push_str(&line.replace('\u{a0}', " "));
        kept.push('\n');
    }
    // Whichever game the sheet is for: each ruleset reads its own header.
    let header = read_header(&kept);
    let game = header.game?;
    Some(Found {
        text: trim_blank_ends(&kept),
        password,
        game: Some(game),
        empire: header.seat,
        turn: header.turn,
    })
}

/// The text without blank lines at its start and end, ending with one newline.
fn trim_blank_ends(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| !l.trim().is_empty());
    let last = lines.iter().rposition(|l| !l.trim().is_empty());
    match (first, last) {
        (Some(a), Some(b)) => {
            let mut s = lines[a..=b].join("\n");
            s.push('\n');
            s
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_password_is_taken_out_and_the_header_read() {
        let f = find("GAME world1\nEMPIRE EN\nPASSWORD: sesame-42\nTURN 3\n1. TAX\n").unwrap();
        assert_eq!(f.password.as_deref(), Some("sesame-42"));
        assert_eq!(f.game.as_deref(), Some("world1"));
        assert_eq!(f.empire.as_deref(), Some("EN"));
        assert_eq!(f.turn.as_deref(), Some("3"));
        assert_eq!(f.text, "GAME world1\nEMPIRE EN\nTURN 3\n1. TAX\n");
        assert!(!f.text.contains("sesame"));
    }

    #[test]
    fn a_text_without_a_game_line_is_no_turnsheet() {
        assert_eq!(find("Hello GM,\nhere are my orders: TAX\n"), None);
    }

    #[test]
    fn quoted_lines_signatures_and_replies_are_left_out() {
        let text =
            "> GAME old\nGAME g\nEMPIRE FR\npassword x\n1. TAX\n-- \nAnne\nSent from my phone\n";
        let f = find(text).unwrap();
        assert_eq!(f.text, "GAME g\nEMPIRE FR\n1. TAX\n");
        let reply =
            "GAME g\n1. TAX\n\nOn Tue, 3 Mar 2026, Empires <gm@x> wrote:\n> report\n2. TAX\n";
        assert_eq!(find(reply).unwrap().text, "GAME g\n1. TAX\n");
        let end = "GAME g\n1. TAX\nend\nmy notes\n";
        assert_eq!(find(end).unwrap().text, "GAME g\n1. TAX\n");
        let outlook = "GAME g\n1. TAX\n________________________________\nFrom: x\n";
        assert_eq!(find(outlook).unwrap().text, "GAME g\n1. TAX\n");
    }

    #[test]
    fn a_note_above_the_sheet_is_not_read_as_orders() {
        let f = find("Hello GM,\nhere are my orders.\n\nGAME g\nEMPIRE FR\n1. TAX\n").unwrap();
        assert_eq!(f.text, "GAME g\nEMPIRE FR\n1. TAX\n");
        // Header lines written before GAME belong to the sheet.
        let f = find("Orders:\nEMPIRE FR\nPASSWORD pw\nGAME g\n1. TAX\n").unwrap();
        assert_eq!(f.text, "EMPIRE FR\nGAME g\n1. TAX\n");
        assert_eq!(f.password.as_deref(), Some("pw"));
        assert_eq!(f.empire.as_deref(), Some("FR"));
        // A password written in the note above the sheet still proves who sent it.
        let f = find("Password: pw\nthanks\nGAME g\n1. TAX\n").unwrap();
        assert_eq!(f.text, "GAME g\n1. TAX\n");
        assert_eq!(f.password.as_deref(), Some("pw"));
    }

    #[test]
    fn only_the_first_password_line_counts_and_none_is_kept() {
        let f = find("GAME g\nPASSWORD a\nPASSWORD b\n1. TAX\n").unwrap();
        assert_eq!(f.password.as_deref(), Some("a"));
        assert_eq!(f.text, "GAME g\n1. TAX\n");
    }

    #[test]
    fn a_napoleonic_sheet_names_its_game_and_kingdom_on_one_line() {
        // Read by every ruleset the program runs, as the program hands them to the host.
        empires_testkit::rulesets();
        let f =
            find("My orders.\nGAME \"europe\"  KINGDOM FRA  TURN 3\nPASSWORD pw\n[HQ]\nWAR PRU\n")
                .unwrap();
        assert_eq!(f.game.as_deref(), Some("europe"));
        assert_eq!(f.empire.as_deref(), Some("FRA"));
        assert_eq!(f.turn.as_deref(), Some("3"));
        assert_eq!(f.password.as_deref(), Some("pw"));
        assert_eq!(
            f.text,
            "GAME \"europe\"  KINGDOM FRA  TURN 3\n[HQ]\nWAR PRU\n"
        );
        // A proclamation's END closes the proclamation, not the sheet; a second END does.
        let f = find("GAME \"europe\" KINGDOM FRA\nPROCLAMATION\nPeace.\nEND\nA1\nEND\nnotes\n")
            .unwrap();
        assert_eq!(
            f.text,
            "GAME \"europe\" KINGDOM FRA\nPROCLAMATION\nPeace.\nEND\nA1\n"
        );
        // An Empires sheet is still read as one.
        let f = find("GAME world1\nEMPIRE EN\nTURN 3\n1. TAX\n").unwrap();
        assert_eq!(f.game.as_deref(), Some("world1"));
        assert_eq!(f.empire.as_deref(), Some("EN"));
    }

    #[test]
    fn non_breaking_spaces_read_as_spaces() {
        let f = find("GAME\u{a0}g\nEMPIRE\u{a0}EN\n1.\u{a0}TAX\n").unwrap();
        assert_eq!(f.game.as_deref(), Some("g"));
        assert_eq!(f.text, "GAME g\nEMPIRE EN\n1. TAX\n");
    }
}
