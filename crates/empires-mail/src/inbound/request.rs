//! What a player may ask of the host by mail besides sending a sheet: their report again,
//! and which report a reply answers when its mail program kept no `In-Reply-To`.
//!
//! A message whose subject, or whose first line above any quote, is a request for a report
//! ("REPORT", "send my report again", "REPORT alpha") asks for the report of the turn now
//! current of the sender's seats to be mailed again: of the game it names, or of the game
//! whose report it answers, or of the one game the sender plays.

use super::message::Incoming;

/// The words a request for a report may be wrapped in, beside `REPORT` itself.
const POLITE: &[&str] = &[
    "A", "AGAIN", "ANOTHER", "COPY", "CURRENT", "LAST", "LATEST", "ME", "MY", "OF", "PLEASE",
    "RESEND", "SEND", "THE",
];

/// The words that name the thing asked for.
const REPORT: &[&str] = &["REPORT", "REPORTS", "RESEND"];

/// `Some(game)` when `line` asks for a report: `REPORT` (or `RESEND`) among words of
/// [`POLITE`], and at most one word besides, the game's name as written (`None` where no
/// game is named).
pub fn report_asked(line: &str) -> Option<Option<String>> {
    let words: Vec<&str> = line
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | ',' | '!' | '?' | ':' | ';')))
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() > 8 {
        return None;
    }
    let upper = |w: &str| w.to_ascii_uppercase();
    if !words.iter().any(|w| REPORT.contains(&upper(w).as_str())) {
        return None;
    }
    let mut others = words
        .iter()
        .filter(|w| !REPORT.contains(&upper(w).as_str()) && !POLITE.contains(&upper(w).as_str()));
    let game = others.next().map(|w| w.to_string());
    if others.next().is_some() {
        return None;
    }
    Some(game)
}

/// A subject without the `Re:`, `Fwd:` (and their translations) that replies and forwards
/// put before it.
pub fn bare_subject(subject: &str) -> &str {
    const PREFIXES: &[&str] = &["re:", "aw:", "sv:", "fw:", "fwd:", "tr:", "wg:", "rv:"];
    let mut s = subject.trim();
    loop {
        let lower = s.to_ascii_lowercase();
        match PREFIXES.iter().find(|p| lower.starts_with(*p)) {
            Some(p) => s = s[p.len()..].trim_start(),
            None => return s,
        }
    }
}

/// Whether `inc` asks for a report, and of which game if it names one: its subject, or the
/// first line of its own text (above any quote) of any text it holds.
pub fn asked(inc: &Incoming) -> Option<Option<String>> {
    if let Some(g) = report_asked(bare_subject(&inc.subject)) {
        return Some(g);
    }
    inc.candidates.iter().find_map(|c| {
        let first = c.text.lines().map(str::trim).find(|l| !l.is_empty())?;
        if first.starts_with('>') {
            return None;
        }
        report_asked(first)
    })
}

/// The seat's name and the game of a report mail's subject (`England: report of turn 3,
/// alpha`), as a reply keeps it: a reply whose mail program dropped `In-Reply-To` is tied
/// to its report by it.
pub fn report_subject(subject: &str) -> Option<(String, String)> {
    let s = bare_subject(subject);
    let (name, rest) = s.split_once(": report of turn ")?;
    let (turn, game) = rest.split_once(", ")?;
    turn.trim().parse::<u32>().ok()?;
    let game = game.trim();
    (!game.is_empty() && !game.contains(char::is_whitespace))
        .then(|| (name.trim().to_string(), game.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_for_a_report_is_read_in_the_words_players_use() {
        assert_eq!(report_asked("REPORT"), Some(None));
        assert_eq!(report_asked("send my report again, please"), Some(None));
        assert_eq!(report_asked("Resend"), Some(None));
        assert_eq!(report_asked("report alpha"), Some(Some("alpha".into())));
        assert_eq!(
            report_asked("Please send the latest report of alpha."),
            Some(Some("alpha".into()))
        );
        // Orders, a report's subject and chatter are not requests.
        assert_eq!(report_asked("1. TAX"), None);
        assert_eq!(report_asked("England: report of turn 3, alpha"), None);
        assert_eq!(report_asked("I liked your report very much"), None);
        assert_eq!(report_asked("send it again"), None);
    }

    #[test]
    fn replies_and_forwards_keep_the_subject_of_the_report() {
        assert_eq!(bare_subject("Re: RE: Fwd: report"), "report");
        assert_eq!(bare_subject("AW: Hallo"), "Hallo");
        assert_eq!(
            report_subject("Re: England: report of turn 3, alpha"),
            Some(("England".into(), "alpha".into()))
        );
        assert_eq!(
            report_subject("RE: Kingdom of Naples: report of turn 12, nap-1"),
            Some(("Kingdom of Naples".into(), "nap-1".into()))
        );
        assert_eq!(report_subject("Re: England: report of turn x, alpha"), None);
        assert_eq!(report_subject("Re: hello"), None);
    }
}
