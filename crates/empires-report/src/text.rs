//! The print-ready text report: 78 columns of plain ASCII (what a mail program shows
//! without wrapping it, RFC 5322's advice), laid out like a classic play-by-mail report,
//! with the next turnsheet attached at the end.

use crate::describe;
use crate::model::*;
use crate::put::Put;
use empires_rules::words::count;
use std::borrow::Cow;
use std::fmt::{self, Write};

const WIDTH: usize = 78;

/// Plain ASCII: accented letters lose their accents, anything else becomes `?`.
pub fn ascii(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
            continue;
        }
        out.push_str(match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
            'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' | 'Ā' => "A",
            'æ' => "ae",
            'Æ' => "AE",
            'ç' | 'ć' | 'č' => "c",
            'Ç' | 'Ć' | 'Č' => "C",
            'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ę' | 'ě' => "e",
            'È' | 'É' | 'Ê' | 'Ë' | 'Ē' => "E",
            'ì' | 'í' | 'î' | 'ï' | 'ı' => "i",
            'Ì' | 'Í' | 'Î' | 'Ï' | 'İ' => "I",
            'ñ' | 'ń' => "n",
            'Ñ' => "N",
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ő' => "o",
            'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' => "O",
            'œ' => "oe",
            'ß' => "ss",
            'ş' | 'ś' | 'š' => "s",
            'Ş' | 'Ś' | 'Š' => "S",
            'ù' | 'ú' | 'û' | 'ü' | 'ů' | 'ű' => "u",
            'Ù' | 'Ú' | 'Û' | 'Ü' => "U",
            'ý' | 'ÿ' => "y",
            'ž' | 'ź' | 'ż' => "z",
            'Ž' | 'Ź' | 'Ż' => "Z",
            'ł' => "l",
            'Ł' => "L",
            'ğ' => "g",
            '–' | '—' => "-",
            '‘' | '’' => "'",
            '“' | '”' => "\"",
            '…' => "...",
            _ => "?",
        });
    }
    Cow::Owned(out)
}

/// The words of ASCII text, between blanks (vertical tab included, as `split_whitespace`
/// has it). Reading bytes rather than characters matters: every line of every report is
/// wrapped.
fn words(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let blank = |i: usize| bytes[i].is_ascii_whitespace() || bytes[i] == 0x0b;
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && blank(at) {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && !blank(at) {
            at += 1;
        }
        // Blanks are ASCII, so these are character boundaries whatever the text.
        (start < at).then(|| &text[start..at])
    })
}

/// The report as it is written: every line plain ASCII with no trailing spaces, long lines
/// wrapped with a hanging indent. Lines are written straight into one buffer, since a turn's
/// reports are many and each is long.
struct Out {
    buf: String,
    /// Room for formatting a paragraph before it is wrapped.
    scratch: String,
}

impl Out {
    fn with_capacity(n: usize) -> Self {
        Out {
            buf: String::with_capacity(n),
            scratch: String::new(),
        }
    }

    /// Makes what was written from `start` on plain ASCII.
    fn asciify(&mut self, start: usize) {
        if !self.buf[start..].is_ascii() {
            let plain = ascii(&self.buf[start..]).into_owned();
            self.buf.truncate(start);
            self.buf.push_str(&plain);
        }
    }

    /// Ends the line begun at `start`, dropping its trailing spaces.
    fn end_line(&mut self, start: usize) {
        let keep = start + self.buf[start..].trim_end().len();
        self.buf.truncate(keep);
        self.buf.push('\n');
    }

    /// One line as formatted.
    fn raw(&mut self, args: fmt::Arguments) {
        let start = self.buf.len();
        let _ = self.buf.write_fmt(args);
        self.asciify(start);
        self.end_line(start);
    }

    /// A paragraph, keeping its leading spaces; continuation lines indented 4 more.
    fn line(&mut self, args: fmt::Arguments) {
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        let _ = text.write_fmt(args);
        if !text.is_ascii() {
            text = ascii(&text).into_owned();
        }
        let lead = text.len() - text.trim_start().len();
        self.words(format_args!("{}", &text[..lead]), &text[lead..], lead + 4);
        self.scratch = text;
    }

    /// `head` as written, then `text` wrapped with a hanging indent.
    fn hang(&mut self, head: fmt::Arguments, text: fmt::Arguments, indent: usize) {
        let mut words = std::mem::take(&mut self.scratch);
        words.clear();
        let _ = words.write_fmt(text);
        self.words(head, &words, indent);
        self.scratch = words;
    }

    /// Writes `head`, then the words of `text` wrapped with a hanging indent.
    fn words(&mut self, head: fmt::Arguments, text: &str, indent: usize) {
        let start = self.buf.len();
        let _ = self.buf.write_fmt(head);
        self.wrap_from(start, text, indent);
    }

    /// Follows the head written from `start` on with the words of `text`, starting a new
    /// line indented by `indent` spaces whenever the next word would pass the width.
    fn wrap_from(&mut self, mut start: usize, text: &str, indent: usize) {
        self.asciify(start);
        let text = ascii(text);
        let mut fresh = true;
        for word in words(&text) {
            if !fresh && self.buf.len() - start + 1 + word.len() > WIDTH {
                self.end_line(start);
                start = self.buf.len();
                self.buf.spaces(indent);
                fresh = true;
            }
            if !fresh {
                self.buf.push(' ');
            }
            self.buf.push_str(word);
            fresh = false;
        }
        self.end_line(start);
    }

    /// Ends a line written straight into the buffer from `start` on.
    fn finish(&mut self, start: usize) {
        self.asciify(start);
        self.end_line(start);
    }

    fn blank(&mut self) {
        self.buf.push('\n');
    }

    fn heading(&mut self, s: &str) {
        self.blank();
        self.raw(format_args!("{s}"));
        self.rule('-', s.len());
    }

    /// A rule of `n` copies of `c` (`=` or `-`), at most the width of the page.
    fn rule(&mut self, c: char, n: usize) {
        const EQUALS: &str =
            "================================================================================";
        const DASHES: &str =
            "--------------------------------------------------------------------------------";
        let line = if c == '=' { EQUALS } else { DASHES };
        self.buf.push_str(&line[..n.min(line.len())]);
        self.buf.push('\n');
    }
}

/// "1 army", "2 armies".
struct N(u32, &'static str, &'static str);

impl fmt::Display for N {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let N(k, one, many) = *self;
        write!(f, "{k} {}", if k == 1 { one } else { many })
    }
}

fn opt(o: &Option<String>) -> &str {
    o.as_deref().unwrap_or("-")
}

/// The blank turnsheet a report ends with (2.6): the name its `GAME` line gives, which is
/// the host's name for the game (it may differ from the title the report shows, and a door
/// finds the game by it), and the number of actions the empire may write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blank<'a> {
    pub game: &'a str,
    pub actions: u32,
}

impl<'a> Blank<'a> {
    /// The sheet for a game known by its title.
    pub fn titled(r: &'a Report, actions: u32) -> Blank<'a> {
        Blank {
            game: &r.game,
            actions,
        }
    }
}

/// Renders a report as text. `actions_per_turn` numbers the blank turnsheet.
pub fn render(r: &Report, actions_per_turn: u32) -> String {
    render_with(r, Blank::titled(r, actions_per_turn), &shared_sections(r))
}

/// The roundup, actions report and messages: the same text in every report of a turn.
pub fn shared_sections(r: &Report) -> String {
    let mut o = Out::with_capacity(16 * 1024);
    roundup(&mut o, r);
    actions_report(&mut o, r);
    messages(&mut o, r);
    o.buf
}

/// What an empire's kept report holds in place of the shared sections, which the turn's
/// `public.txt` holds once for every empire ([`crate::public`]).
pub fn shared_pointer() -> String {
    let mut o = Out::with_capacity(256);
    o.heading("ROUNDUP, ACTIONS REPORT AND MESSAGES");
    o.line(format_args!(
        "  The same for every empire: see {} beside this report.",
        crate::public::file("txt")
    ));
    o.buf
}

/// Renders a report with its shared sections already rendered by [`shared_sections`].
pub fn render_with(r: &Report, blank: Blank, shared: &str) -> String {
    let mut o = Out::with_capacity(8 * 1024 + shared.len());
    o.rule('=', WIDTH);
    let start = o.buf.len();
    let title_len = "Turn  report".len() + digits(r.turn);
    o.buf
        .put(" EMPIRES")
        .spaces(WIDTH - 9 - title_len)
        .put("Turn ")
        .num(r.turn)
        .put(" report");
    o.finish(start);
    let start = o.buf.len();
    o.buf
        .put(" Game: ")
        .put(&r.game)
        .put(" (")
        .put(describe::variant(&r.variant))
        .put(" Empires)");
    o.finish(start);
    let player = r.empire.player.as_deref().unwrap_or("(computer)");
    let who_len = " Empire:  ".len() + r.empire.code.len() + r.empire.name.len();
    let pad = WIDTH
        .saturating_sub(who_len + "Player: ".len() + player.len() + 1)
        .max(1);
    let start = o.buf.len();
    o.buf
        .put(" Empire: ")
        .put(&r.empire.code)
        .put(" ")
        .put(&r.empire.name)
        .spaces(pad)
        .put("Player: ")
        .put(player);
    o.finish(start);
    o.rule('=', WIDTH);
    if let Some(t) = r.empire.eliminated {
        o.line(format_args!(
            "*** {} was eliminated on turn {t}. ***",
            r.empire.name
        ));
    }
    if r.computer_written {
        o.line(format_args!(
            "Your orders for this turn were written by the computer (rule 2.5)."
        ));
    }
    actions(&mut o, r);
    against(&mut o, r);
    economy(&mut o, r);
    areas(&mut o, r);
    fleets_and_spies(&mut o, r);
    scouting(&mut o, r);
    o.buf.push_str(shared);
    if r.plays_on() {
        turnsheet(&mut o, r, blank);
    }
    o.buf
}

fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

fn actions(o: &mut Out, r: &Report) {
    o.heading(&format!("YOUR ACTIONS, TURN {}", r.turn));
    if r.actions.is_empty() {
        o.line(format_args!("  No actions."));
    }
    for a in &r.actions {
        let status = match a.status.as_str() {
            // Carried out, but it went against the empire (an attack repulsed).
            "done" if a.setback => "LOST",
            "done" => "ok",
            "cut_down" => "CUT",
            "failed" => "FAILED",
            _ => "IGNORED",
        };
        let start = o.buf.len();
        o.buf
            .right(a.slot, 3)
            .put(" ")
            .left(&a.order, 22)
            .put(" ")
            .left(status, 7)
            .put(" ");
        let mut text = std::mem::take(&mut o.scratch);
        text.clear();
        text.put(&a.result);
        match &a.reason {
            Some(reason) if a.result.is_empty() => text.put(reason),
            Some(reason) => text.put(" (").put(reason).put(")"),
            None => &mut text,
        };
        if a.spent > 0 {
            let bps = if a.spent == 1 { " BP]" } else { " BPs]" };
            text.put(" [").num(a.spent).put(bps);
        }
        o.wrap_from(start, &text, 35);
        o.scratch = text;
    }
}

/// Writes what is there, or nothing.
struct Maybe<T>(Option<T>);

impl<T: fmt::Display> fmt::Display for Maybe<T> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match &self.0 {
            Some(x) => x.fmt(f),
            None => Ok(()),
        }
    }
}

fn against(o: &mut Out, r: &Report) {
    if r.against_you.is_empty() {
        return;
    }
    o.heading("*** DONE TO YOU ***");
    for h in &r.against_you {
        let (when, round) = if h.round == 0 {
            ("end", None)
        } else {
            ("round ", Some(h.round))
        };
        o.hang(
            format_args!("  "),
            format_args!("** {when}{}: {} **", Maybe(round), h.text),
            5,
        );
    }
}

fn economy(o: &mut Out, r: &Report) {
    let e = &r.economy;
    o.heading("ECONOMY");
    let start = o.buf.len();
    o.buf.put("  Income ").right(e.income, 6);
    o.buf.put("    Supply costs ").right(e.supply_cost, 5);
    let turn = o.buf.put("    BPs for turn ").len();
    o.buf
        .num(r.next_turn)
        .pad_from(turn, 3)
        .put(" ")
        .right(e.bps, 5);
    o.finish(start);
    let start = o.buf.len();
    o.buf.put("  Treasury ").right(e.treasury, 4);
    o.buf.put("    Victory points ").right(e.vps, 3);
    o.buf.put("    Army reserve ").right(e.army_reserve, 9);
    o.finish(start);
    let start = o.buf.len();
    o.buf.put("  Navy reserve ").right(e.navy_reserve, 2);
    o.buf.put("    Air force ");
    match e.air_force {
        Some(air) => o.buf.right(air, 8),
        None => o.buf.left("", 7).put("-"),
    };
    o.finish(start);
    if let Some(s) = &r.supply {
        o.raw(format_args!(
            "  Supply capacity {}    Capital {}",
            s.capacity,
            opt(&s.capital)
        ));
    }
    let unspent = [
        (e.cash_returned, "BP", "BPs", "went back to the treasury"),
        (
            e.leftover_trains,
            "supply train",
            "supply trains",
            "built in the capital",
        ),
        (e.leftover_armies, "army", "armies", "built for the reserve"),
        (e.order_bid, "BP", "BPs", "bid for the order of play"),
    ];
    if unspent.iter().any(|u| u.0 > 0) {
        let mut text = String::from("  Unspent BPs: ");
        let mut first = true;
        for (k, one, many, what) in unspent.into_iter().filter(|u| u.0 > 0) {
            if !first {
                text.push_str("; ");
            }
            first = false;
            let _ = write!(text, "{} {what}", N(k, one, many));
        }
        o.line(format_args!("{text}."));
    }
    if !e.supply_by_area.is_empty() {
        let mut text = String::from("Supply costs by area: ");
        for (i, c) in e.supply_by_area.iter().enumerate() {
            let sep = if i > 0 { ", " } else { "" };
            let _ = write!(text, "{sep}{} {}", c.area, c.cost);
        }
        o.hang(
            format_args!("  "),
            format_args!("{text}; reserves {}.", e.reserves_supply),
            4,
        );
    }
    for d in &e.dispersals {
        let (and, ships) = if d.ships > 0 {
            (" and ", Some(N(d.ships, "ship", "ships")))
        } else {
            ("", None)
        };
        o.hang(
            format_args!("  "),
            format_args!(
                "** DISPERSAL in {}: {}{and}{} returned to the reserve: {} **",
                d.area,
                N(d.armies, "army", "armies"),
                Maybe(ships),
                d.reason
            ),
            5,
        );
    }
    if let Some(v) = e.census_vps {
        o.line(format_args!(
            "  CENSUS: you scored {} for your populated areas.",
            count(v, "VP")
        ));
    }
    vp_changes(o, r);
}

/// Where the turn's VPs came from, from the total before the turn to the total after.
fn vp_changes(o: &mut Out, r: &Report) {
    let e = &r.economy;
    if e.vp_changes.is_empty() {
        return;
    }
    let before = e.vps - e.vp_changes.iter().map(|c| c.vps).sum::<i32>();
    let mut text = format!("Victory points: {before} before this turn");
    for c in &e.vp_changes {
        let _ = write!(text, "; {:+} {}", c.vps, c.why);
    }
    let _ = write!(text, "; {} now.", e.vps);
    o.hang(format_args!("  "), format_args!("{text}"), 4);
}

fn areas(o: &mut Out, r: &Report) {
    o.heading("AREAS OWNED");
    let euro = r.supply.is_some();
    // European reports add two columns and give up some of the name.
    let name_width = if euro { 10 } else { 17 };
    o.raw(format_args!(
        "  Code {:<w$} Terrain    Pop Arm Frt Defence   Rtr Cost Base{}",
        "Name",
        if euro { "       Trn Src" } else { "" },
        w = name_width
    ));
    for a in &r.areas {
        let start = o.buf.len();
        o.buf
            .put("  ")
            .left(&a.code, 4)
            .put(" ")
            .left(&abbreviate(&ascii(&a.name), name_width), name_width)
            .put(" ")
            .left(&a.terrain, 10)
            .right(a.population, 4)
            .right(a.armies, 4)
            .right(a.forts, 4)
            .put(" ");
        let defence = o.buf.len();
        match &a.against {
            Some(t) => o.buf.put(&a.defence[..3]).put(" ").put(t),
            None => o.buf.put(&a.defence),
        };
        o.buf
            .pad_from(defence, 9)
            .put(" ")
            .left(opt(&a.retreat_to), 3)
            .right(a.supply_cost, 5)
            .put(" ");
        let base = o.buf.len();
        match &a.base {
            Some(b) => o
                .buf
                .put(&b.entrance)
                .put(" ")
                .num(b.ships)
                .put("/")
                .num(b.laid_up),
            None => o.buf.put("-"),
        };
        o.buf.pad_from(base, 10);
        if euro {
            o.buf
                .put(" ")
                .right(a.trains.unwrap_or(0), 3)
                .put(" ")
                .put(a.supply_source.as_deref().unwrap_or("-"));
        }
        o.finish(start);
    }
    let owned = r.areas.iter().filter(|a| a.population > 0).count();
    o.raw(format_args!(
        "  {} areas, {owned} with population.",
        r.areas.len()
    ));
    neighbour_lines(
        o,
        r.areas
            .iter()
            .map(|a| (a.code.as_str(), a.neighbours.as_slice())),
    );
}

/// The first `n` characters of `s`.
fn truncate(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}

/// A name cut to `n` characters at a word boundary, never mid-word: "Yorkshire and
/// Lancashire" in 19 is "Yorkshire". A joining word left at the end goes too. Only a first
/// word longer than `n` is cut, and then marked with a full stop.
pub fn abbreviate(s: &str, n: usize) -> Cow<'_, str> {
    if s.chars().count() <= n {
        return Cow::Borrowed(s);
    }
    const JOINERS: [&str; 8] = ["and", "of", "the", "&", "-", "de", "la", "upon"];
    let mut words: Vec<&str> = Vec::new();
    let mut len = 0;
    for w in s.split_whitespace() {
        let extra = w.chars().count() + usize::from(!words.is_empty());
        if len + extra > n {
            break;
        }
        len += extra;
        words.push(w);
    }
    while words
        .last()
        .is_some_and(|w| JOINERS.contains(&w.to_ascii_lowercase().as_str()))
    {
        words.pop();
    }
    if words.is_empty() {
        let first = s.split_whitespace().next().unwrap_or("");
        let cut = truncate(first, n.saturating_sub(1));
        return Cow::Owned(format!("{cut}."));
    }
    Cow::Owned(words.join(" ").trim_end_matches([',', ';']).to_string())
}

/// An "area: neighbours" list for players without a map (4.1).
fn neighbour_lines<'a>(o: &mut Out, areas: impl Iterator<Item = (&'a str, &'a [String])>) {
    o.raw(format_args!("  Next to:"));
    for (code, next) in areas {
        o.hang(
            format_args!("    "),
            format_args!("{code}: {}", next.join(" ")),
            9,
        );
    }
}

fn fleets_and_spies(o: &mut Out, r: &Report) {
    if !r.fleets.is_empty() {
        o.heading("FLEETS AT SEA");
        o.raw(format_args!("  Area Ships Armies Base Distance"));
        for f in &r.fleets {
            let (d, none) = match f.distance {
                Some(d) => (Some(d), ""),
                None => (None, "no route to base"),
            };
            o.raw(format_args!(
                "  {:<4}{:>6}{:>7} {:<4} {}{none}",
                f.area,
                f.ships,
                f.armies,
                opt(&f.base),
                Maybe(d)
            ));
        }
    }
    if r.spy.is_some() || !r.watchers.is_empty() {
        o.heading("SPIES");
        if let Some(s) = &r.spy {
            o.line(format_args!("  Your spy is in {s}."));
        }
        if !r.watchers.is_empty() {
            o.line(format_args!("  Your watchers: {}.", r.watchers.join(", ")));
        }
    }
}

fn scouting(o: &mut Out, r: &Report) {
    if r.scouting.is_empty() {
        return;
    }
    o.heading("SCOUTING (as at the end of the turn)");
    o.raw(format_args!(
        "  Code Name             Owner  Pop Arm Frt Ships             Seen by"
    ));
    for s in &r.scouting {
        let start = o.buf.len();
        o.buf
            .put("  ")
            .left(&s.code, 4)
            .put(" ")
            .left(&abbreviate(&ascii(&s.name), 16), 16)
            .put(" ")
            .left(opt(&s.owner), 5);
        if s.terrain == "sea" {
            o.buf.put("   -   -   - ");
        } else {
            o.buf
                .right(s.population, 4)
                .right(s.armies, 4)
                .right(s.forts, 4)
                .put(" ");
        }
        let ships = o.buf.len();
        match (&s.fleet, s.base_ships) {
            (Some(f), _) => o
                .buf
                .put(&f.owner)
                .put(" ")
                .num(f.ships)
                .put("s ")
                .num(f.armies)
                .put("a"),
            (None, Some(b)) => o.buf.put("base ").num(b),
            (None, None) => o.buf.put("-"),
        };
        o.buf.pad_from(ships, 17);
        // Seen by: B border, F fleet, S spy, W watcher, A one of your actions.
        o.buf.push(' ');
        for w in &s.seen_by {
            if let Some(c) = w.chars().next() {
                o.buf.push(c.to_ascii_uppercase());
            }
        }
        o.finish(start);
    }
    o.raw(format_args!(
        "  Seen by: B border, F fleet, S spy, W watcher, A one of your actions."
    ));
    neighbour_lines(
        o,
        r.scouting
            .iter()
            .map(|s| (s.code.as_str(), s.neighbours.as_slice())),
    );
}

fn roundup(o: &mut Out, r: &Report) {
    let ru = &r.roundup;
    o.heading("ROUNDUP");
    o.hang(
        format_args!("  "),
        format_args!(
            "Order of play for turn {}: {}",
            r.next_turn,
            ru.order_of_play.join(" ")
        ),
        4,
    );
    o.line(format_args!(
        "  The leader has {}.",
        count(ru.leader_score, "VP")
    ));
    if let Some(w) = &ru.warning {
        o.hang(
            format_args!("  "),
            format_args!("!!! WARNING: {} !!!", describe::victory_warning(w)),
            6,
        );
    }
    if let Some(g) = &ru.game_over {
        o.line(format_args!(
            "  *** GAME OVER: {} wins a {} victory with {} on turn {}. ***",
            g.empire,
            g.condition,
            count(g.vps, "VP"),
            g.turn
        ));
    }
    o.blank();
    o.raw(format_args!(
        "  Code Empire               Player           Areas  Treasury  Reserve"
    ));
    for e in &ru.empires {
        let player = match (e.eliminated, &e.player) {
            (Some(t), _) => format!("(out, turn {t})"),
            (None, Some(p)) => p.clone(),
            (None, None) => "(dummy)".to_string(),
        };
        o.raw(format_args!(
            "  {:<4} {:<20} {:<16}{:>6}{:>10}{:>9}",
            e.code,
            abbreviate(&ascii(&e.name), 20),
            truncate(&ascii(&player), 16),
            e.areas.len(),
            e.treasury,
            e.army_reserve
        ));
    }
    o.blank();
    for e in ru.empires.iter().filter(|e| !e.areas.is_empty()) {
        o.hang(
            format_args!("  {}: ", e.code),
            format_args!("{}", e.areas.join(" ")),
            6,
        );
    }
    let contacts: Vec<String> = ru
        .empires
        .iter()
        .filter_map(|e| {
            let parts: Vec<String> = [("phone", &e.phone), ("email", &e.email)]
                .into_iter()
                .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k} {v}")))
                .collect();
            (!parts.is_empty()).then(|| format!("  {}: {}", e.code, parts.join(", ")))
        })
        .collect();
    if !contacts.is_empty() {
        o.blank();
        for c in contacts {
            o.line(format_args!("{c}"));
        }
    }
}

fn actions_report(o: &mut Out, r: &Report) {
    o.heading("ACTIONS REPORT");
    if r.actions_report.is_empty() {
        o.line(format_args!("  A quiet turn."));
    }
    for e in r.actions_report.iter() {
        let when = if e.round == 0 {
            "end".to_string()
        } else {
            format!("{:>2}", e.round)
        };
        let mut text = e.text.clone();
        if e.capture {
            text = format!("** {} **", text.to_uppercase());
        }
        if e.major {
            text = format!("__{text}__ (major battle)");
        }
        o.hang(format_args!("  {when}  "), format_args!("{text}"), 8);
    }
}

fn messages(o: &mut Out, r: &Report) {
    if r.messages.is_empty() {
        return;
    }
    o.heading("MESSAGES");
    for m in r.messages.iter() {
        o.hang(
            format_args!("  From {}: ", m.from),
            format_args!("{}", m.text),
            6,
        );
    }
}

fn turnsheet(o: &mut Out, r: &Report, blank: Blank) {
    sheet_lines(
        o,
        blank.game,
        r.next_turn,
        r.empire.code.as_str(),
        blank.actions,
    );
}

/// A blank turnsheet for `empire`'s orders of `turn`: the one printed at the end of its
/// report, for a door that hands out a sheet by itself.
pub fn blank_sheet(game: &str, turn: u32, empire: &str, actions: u32) -> String {
    let mut o = Out::with_capacity(1024);
    sheet_lines(&mut o, game, turn, empire, actions);
    o.buf
}

fn sheet_lines(o: &mut Out, game: &str, turn: u32, empire: &str, actions: u32) {
    o.blank();
    o.rule('=', WIDTH);
    o.raw(format_args!(
        " TURNSHEET FOR TURN {turn}    (one action per line: VERB WHERE WHERE-TO NUMBER)"
    ));
    o.rule('=', WIDTH);
    o.raw(format_args!("GAME {game}"));
    o.raw(format_args!("TURN {turn}"));
    o.raw(format_args!("EMPIRE {empire}"));
    o.blank();
    for i in 1..=actions {
        o.buf.num(i).put(".\n");
    }
    o.blank();
    o.raw(format_args!("MESSAGES"));
}
