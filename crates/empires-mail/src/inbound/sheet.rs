//! Finding a turnsheet in the text of a message: its header names the game and the empire
//! (as on every turnsheet, `docs/orders.md`) and, in mail, carries the player's mail
//! password on a `PASSWORD` line, which is taken out before the sheet is kept.
//!
//! Mail programs add things around what the player wrote; the sheet ends at the first of:
//! - an `END` line, for players who want to say where their orders stop (except the `END`
//!   that closes a Napoleonic sheet's `PROCLAMATION`, which belongs to the sheet);
//! - a signature separator (`-- `);
//! - a closing line a phone or webmail program writes with no separator above it ("Sent
//!   from my iPhone", "Get Outlook for Android", "Von meinem iPhone gesendet");
//! - the line a reply puts above the message it quotes (`On … wrote:`, on one line or
//!   broken over two as Gmail on a phone does, Outlook's `-----Original Message-----`, its
//!   line of underscores, or its `From:` and `Sent:` block).
//!
//! and it starts at its header: a covering note written above the `GAME` line (and the
//! header lines just before it) is not part of the orders. Quoted lines (`> …`) are left
//! out wherever they are. What was left out is named in [`Found::left_out`], for the
//! receipt: a player whose signature cost an action slot would otherwise never know why.

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
    /// What of the message was not read as orders, in words for the receipt ("the closing
    /// line \"Sent from my iPhone\"", "2 quoted lines"). Empty when nothing was.
    pub left_out: Vec<String>,
}

/// How the closing lines phone and webmail programs add begin (compared in lower case):
/// "Sent from my iPhone", "Sent from my Galaxy", "Get Outlook for iOS", "Sent with Proton
/// Mail secure email", and the same in the languages players write most.
const CLOSINGS: &[&str] = &[
    "sent from my ",
    "sent from mail for windows",
    "sent from outlook",
    "sent from yahoo mail",
    "sent from aol",
    "sent from proton mail",
    "sent with proton mail",
    "sent via ",
    "get outlook for ",
    "von meinem ",
    "gesendet von meinem ",
    "envoyé de mon ",
    "envoyé depuis ",
    "enviado desde mi ",
    "enviado do meu ",
    "inviato da ",
    "verzonden met ",
    "verzonden vanaf mijn ",
    "skickat från min ",
];

/// The longest closing line: a longer line starting the same way is the player's own.
const CLOSING_MAX: usize = 80;

/// Whether a line is a phone's or a webmail's closing line.
fn is_closing(t: &str) -> bool {
    let lower = t.to_lowercase();
    t.chars().count() <= CLOSING_MAX && CLOSINGS.iter().any(|c| lower.starts_with(c))
}

/// How a reply's attribution line begins and ends ("On … wrote:"), by language.
const ATTRIBUTIONS: &[(&str, &str)] = &[
    ("On ", "wrote:"),
    ("Le ", "a écrit :"),
    ("Le ", "a écrit:"),
    ("Am ", "schrieb:"),
    ("El ", "escribió:"),
    ("Il ", "ha scritto:"),
    ("Op ", "geschreven:"),
];

/// The headers Outlook puts above the message it quotes, in pairs: a `From:` line followed,
/// within the next two lines, by a `Sent:` (or `Date:`) line.
const QUOTED_HEADERS: &[(&str, &[&str])] = &[
    ("From:", &["Sent:", "Date:"]),
    ("Von:", &["Gesendet:", "Datum:"]),
    ("De :", &["Envoyé :", "Date :"]),
    ("De:", &["Enviado:", "Fecha:", "Envoyé :"]),
];

/// Why the sheet ends at `lines[i]`, if it does: what is left out from there, for the
/// receipt.
fn ends_sheet(lines: &[&str], i: usize) -> Option<String> {
    let line = lines[i];
    let t = line.trim();
    let next = |k: usize| lines.get(i + k).map_or("", |l| l.trim());
    if line.trim_end_matches(['\r', '\n']) == "-- " || t == "--" {
        return Some("the signature below the \"-- \" line".into());
    }
    if t.eq_ignore_ascii_case("END") {
        return Some("what follows the END line".into());
    }
    if is_closing(t) {
        return Some(format!("the closing line \"{}\"", shown(t)));
    }
    if t.starts_with("-----Original Message-----")
        || (t.len() >= 20 && t.bytes().all(|b| b == b'_'))
    {
        return Some(format!("the quoted message below \"{}\"", shown(t)));
    }
    for (start, end) in ATTRIBUTIONS {
        if t.starts_with(start) {
            if t.ends_with(end) {
                return Some(format!("the quoted message below \"{}\"", shown(t)));
            }
            // Gmail on a phone breaks a long attribution before its last word.
            if !next(1).is_empty() && next(1).ends_with(end) && next(1).len() <= 40 {
                let both = format!("{t} {}", next(1));
                return Some(format!("the quoted message below \"{}\"", shown(&both)));
            }
        }
    }
    for (from, sent) in QUOTED_HEADERS {
        if t.starts_with(from)
            && [next(1), next(2)]
                .iter()
                .any(|l| sent.iter().any(|s| l.starts_with(s)))
        {
            return Some(format!("the quoted message below \"{}\"", shown(t)));
        }
    }
    None
}

/// A line as the receipt quotes it: at most 60 characters, cut after a word.
fn shown(t: &str) -> String {
    if t.chars().count() <= 60 {
        return t.to_string();
    }
    let mut cut = String::new();
    for word in t.split_whitespace() {
        if cut.chars().count() + 1 + word.chars().count() > 57 {
            break;
        }
        if !cut.is_empty() {
            cut.push(' ');
        }
        cut.push_str(word);
    }
    if cut.is_empty() {
        cut = t.chars().take(57).collect();
    }
    format!("{cut}...")
}

/// "1 line", "3 lines".
fn lines_of(n: usize) -> String {
    if n == 1 {
        "1 line".into()
    } else {
        format!("{n} lines")
    }
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
    let found = read(text);
    found.game.is_some().then_some(found)
}

/// The sheet in a reply to a seat's report mail, which needs no header: the game and the
/// seat are the report's (`game`, `seat`), and what the player wrote is the sheet, as far
/// as a reply's quote or a closing line. A header written all the same is read as ever.
/// `None` when the reply holds no line of orders.
pub fn in_reply(text: &str, game: &str, seat: &str) -> Option<Found> {
    let mut found = read(text);
    if found.text.trim().is_empty() {
        return None;
    }
    found.game.get_or_insert_with(|| game.to_string());
    found.empire.get_or_insert_with(|| seat.to_string());
    Some(found)
}

/// What of `text` is the sheet, its password and its header, and what was left out.
fn read(text: &str) -> Found {
    let mut kept = String::with_capacity(text.len());
    let mut password = None;
    let lines: Vec<&str> = text.lines().collect();
    let start = sheet_start(&lines);
    let mut left_out = Vec::new();
    let mut quoted = 0;
    let mut note = 0;
    // Inside a PROCLAMATION, its END closes it and the sheet goes on.
    let mut proclamation = false;
    for (i, &line) in lines.iter().enumerate() {
        let closes_block = proclamation && line.trim().eq_ignore_ascii_case("END");
        if i >= start
            && !closes_block
            && let Some(why) = ends_sheet(&lines, i)
        {
            // An END with nothing after it leaves nothing out.
            let is_end = line.trim().eq_ignore_ascii_case("END");
            if !is_end || lines[i + 1..].iter().any(|l| !l.trim().is_empty()) {
                left_out.push(why);
            }
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
            quoted += 1;
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
            note += usize::from(!line.trim().is_empty());
            continue;
        }
        // Mail may carry non-breaking spaces where the player typed spaces (HTML mail).
        kept.push_str(&line.replace('\u{a0}', " "));
        kept.push('\n');
    }
    // Whichever game the sheet is for: each ruleset reads its own header.
    let header = read_header(&kept);
    if note > 0 {
        left_out.insert(0, format!("{} of a note above the sheet", lines_of(note)));
    }
    if quoted > 0 {
        left_out.insert(
            usize::from(note > 0),
            format!("{} quoted (starting with \">\")", lines_of(quoted)),
        );
    }
    Found {
        text: trim_blank_ends(&kept),
        password,
        game: header.game,
        empire: header.seat,
        turn: header.turn,
        left_out,
    }
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
    fn closing_lines_of_phones_and_webmail_end_the_sheet_and_are_named() {
        for closing in [
            "Sent from my iPhone",
            "Sent from my Galaxy",
            "Get Outlook for Android<https://aka.ms/AAb9ysg>",
            "Sent from Yahoo Mail on Android",
            "Sent with Proton Mail secure email.",
            "Von meinem iPhone gesendet",
            "Envoyé de mon iPad",
        ] {
            let f = find(&format!("GAME g\n1. TAX\n\n{closing}\n")).unwrap();
            assert_eq!(f.text, "GAME g\n1. TAX\n", "{closing}");
            assert_eq!(f.left_out.len(), 1, "{closing}: {:?}", f.left_out);
            assert!(
                f.left_out[0].starts_with("the closing line"),
                "{:?}",
                f.left_out
            );
        }
        // An order a player wrote that happens to start the same way, but is long, stays.
        let long = "MESSAGES\nSent from my capital to every court of Europe, in friendship and with the hope of peace\n";
        let f = find(&format!("GAME g\n1. TAX\n{long}")).unwrap();
        assert!(f.text.contains("Sent from my capital"), "{}", f.text);
        assert!(f.left_out.is_empty(), "{:?}", f.left_out);
    }

    #[test]
    fn replies_quoted_below_end_the_sheet_whatever_their_attribution() {
        // Gmail on a phone breaks the attribution over two lines.
        let gmail = "GAME g\n1. TAX\n\nOn Tue, 3 Mar 2026, 09:12 Empires, <empires@localhost>\nwrote:\n\n> 2. TAX\n";
        let f = find(gmail).unwrap();
        assert_eq!(f.text, "GAME g\n1. TAX\n");
        assert_eq!(
            f.left_out,
            [
                "the quoted message below \"On Tue, 3 Mar 2026, 09:12 Empires, <empires@localhost>...\""
            ]
        );
        // Outlook's block of headers, with no line above it.
        let outlook = "GAME g\n1. TAX\nFrom: Empires <empires@localhost>\nSent: Monday, March 2, 2026\nTo: Alice\n\nGAME old\n2. TAX\n";
        let f = find(outlook).unwrap();
        assert_eq!(f.text, "GAME g\n1. TAX\n");
        assert_eq!(f.left_out.len(), 1);
        // A From: line that is not followed by a Sent: line is no reply's header.
        let f = find("GAME g\nMESSAGES\nFrom: the King\nGreetings.\n").unwrap();
        assert!(f.text.contains("From: the King"), "{}", f.text);
        // Quoted lines and a note above are counted.
        let f = find("Hi GM,\nmy orders.\nGAME g\n> old\n> older\n1. TAX\n").unwrap();
        assert_eq!(
            f.left_out,
            [
                "2 lines of a note above the sheet",
                "2 lines quoted (starting with \">\")"
            ]
        );
        // An END with nothing after it leaves nothing out.
        assert!(find("GAME g\n1. TAX\nEND\n\n").unwrap().left_out.is_empty());
        assert_eq!(
            find("GAME g\n1. TAX\nEND\nnotes\n").unwrap().left_out,
            ["what follows the END line"]
        );
    }

    #[test]
    fn a_reply_to_a_report_needs_no_header() {
        let reply = "PASSWORD pw\n1. TAX\n2. GROW LON\n\nSent from my iPhone\n\nOn Mon, 2 Mar 2026, Empires wrote:\n> GAME alpha\n";
        let f = in_reply(reply, "alpha", "EN").unwrap();
        assert_eq!(f.text, "1. TAX\n2. GROW LON\n");
        assert_eq!(f.password.as_deref(), Some("pw"));
        assert_eq!(
            (f.game.as_deref(), f.empire.as_deref()),
            (Some("alpha"), Some("EN"))
        );
        assert_eq!(f.left_out, ["the closing line \"Sent from my iPhone\""]);
        // A header written all the same is the one read.
        let f = in_reply("GAME beta\nEMPIRE SC\n1. TAX\n", "alpha", "EN").unwrap();
        assert_eq!(
            (f.game.as_deref(), f.empire.as_deref()),
            (Some("beta"), Some("SC"))
        );
        // Only a password, or only a quote: no sheet.
        assert_eq!(in_reply("PASSWORD pw\n\n> 1. TAX\n", "alpha", "EN"), None);
        assert_eq!(
            find("1. TAX\n"),
            None,
            "without a reply a sheet needs its GAME line"
        );
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
