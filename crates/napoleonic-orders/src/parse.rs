//! Reading an order sheet into [`KingdomOrders`], with a diagnostic for everything that
//! cannot be read. The reader needs the map, to turn location codes into numbers, and
//! nothing of the game's state: whether a unit exists or a kingdom is at war is the
//! checker's business ([`crate::check`]).
//!
//! A sheet is a header (`GAME … KINGDOM … TURN …`), then sections: `HQ` with the
//! headquarters orders, `PROCLAMATION` … `END`, and one section per unit headed by its id
//! (`A1`, `F2`, `G12`). Under a unit, a line is either a one-off order (`RETREAT 3`) or a
//! phase line (`2: MOVE ALS; PILLAGE`). `;` separates orders on a line, `#` starts a
//! comment. Keywords are read in any case. See `docs/napoleonic/orders.md`.

use crate::diag::{Code, Diagnostic, Diags, Span, lines};
use crate::lexer::{self, Kind, Token};
use crate::spans::{OrderSpan, PhaseSpans, Spans, UnitSpans};
use crate::suggest;
use napoleonic_rules::Map;
use napoleonic_rules::fixed::{Fixed, Gold};
use napoleonic_rules::ids::{KingdomCode, LocId, TroopCode, UnitId, UnitKind};
use napoleonic_rules::orders::{
    Admin, HqOrder, KingdomOrders, PhasePlan, RankOrder, Step, Structure, Transfer, TroopCount,
    UnitOrders,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The largest sheet read, in bytes. A full turn of orders for a large kingdom fits in a
/// few kilobytes; the limit keeps a mistaken or hostile file from taking the moderator's
/// time and memory.
pub const MAX_SHEET_BYTES: usize = 64 * 1024;
/// The longest line read, in characters; a longer one is not read.
pub const MAX_LINE_CHARS: usize = 500;
/// The longest proclamation kept, in characters.
pub const MAX_PROCLAMATION_CHARS: usize = 2000;
/// The longest unit or leader name kept, in characters.
pub const MAX_NAME_CHARS: usize = 40;
/// The highest phase number written. The game plays at most `max_phases` (G37, 30 by
/// default); the checker warns past that.
pub const MAX_PHASE: u8 = 99;
/// The largest troop count in one order.
pub const MAX_COUNT: u32 = 9999;
/// The most gold sent in one order.
pub const MAX_GOLD: i64 = 1_000_000;

/// A value and where it was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Located<T> {
    pub value: T,
    pub span: Span,
}

/// The sheet's header: which game, kingdom and turn it is for. Each part is optional; the
/// checker compares those given with the game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub game: Option<Located<String>>,
    pub kingdom: Option<Located<KingdomCode>>,
    pub turn: Option<Located<u32>>,
}

/// A sheet as read: the orders for the engine, where each was written, and the problems
/// found while reading.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParsedSheet {
    pub header: Header,
    pub orders: KingdomOrders,
    pub spans: Spans,
    pub diagnostics: Vec<Diagnostic>,
}

impl ParsedSheet {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

const HQ_WORDS: &[&str] = &[
    "DECLARE", "OFFER", "CANCEL", "ACCEPT", "REFUSE", "GRANT", "REVOKE", "SEND", "ANNEX", "GIVE",
];
const UNIT_WORDS: &[&str] = &[
    "RETREAT", "FOLLOW", "MARINES", "LEADER", "FORM", "TRANSFER", "RANKS", "DISBAND", "SCUTTLE",
    "SALVAGE", "RECRUIT", "HIRE", "BUILD", "REPAIR", "RAZE",
];
const PHASE_WORDS: &[&str] = &[
    "MOVE", "SAIL", "MARCH", "HOLD", "TRANSFER", "PREPARE", "LOAD", "UNLOAD", "DEFEND", "PILLAGE",
];
const SECTION_WORDS: &[&str] = &["GAME", "KINGDOM", "TURN", "HQ", "PROCLAMATION", "END"];
/// Little words that may stand before a kingdom or a place, and are read past.
const LINKS: &[&str] = &["TO", "FROM", "WITH", "ON", "IN", "FOR", "AT"];

fn is_keyword(word: &str) -> bool {
    let up = word.to_ascii_uppercase();
    let w = up.as_str();
    HQ_WORDS.contains(&w)
        || UNIT_WORDS.contains(&w)
        || PHASE_WORDS.contains(&w)
        || SECTION_WORDS.contains(&w)
        || ["GIFTS", "GOLD", "RANK"].contains(&w)
}

const LOCATION: &str = "a location's code or number, such as BUR or 12";
const KINGDOM: &str = "a kingdom's code, such as PRU";
const UNIT: &str = "a unit: A and a number for an army (A1), F for a fleet (F2), G and a \
                    province's number or code for a garrison (G12)";

/// Reads a sheet. Never panics: whatever cannot be read becomes a diagnostic and the rest
/// of the sheet is still read.
pub fn parse(map: &Map, text: &str) -> ParsedSheet {
    let mut p = Parser {
        map,
        d: Diags::default(),
        header: Header::default(),
        orders: KingdomOrders::default(),
        spans: Spans::default(),
        section: Section::None,
        started: false,
        units: BTreeMap::new(),
        once: BTreeMap::new(),
        steps: BTreeMap::new(),
    };
    if text.len() > MAX_SHEET_BYTES {
        p.d.push(
            Diagnostic::new(
                Code::SheetTooLarge,
                Span::new(1, 1, 1),
                "",
                format!(
                    "the sheet is {} bytes, more than the {MAX_SHEET_BYTES} a sheet may hold: \
                     nothing in it is read",
                    text.len()
                ),
            )
            .expected(format!("at most {MAX_SHEET_BYTES} bytes")),
        );
    } else {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        p.sheet(text);
    }
    // A phase whose orders could not be read is left out of the plan.
    for (u, us) in p.orders.units.iter_mut().zip(p.spans.units.iter_mut()) {
        let keep: Vec<bool> = u.plan.iter().map(|x| !is_empty_phase(x)).collect();
        let mut k = keep.iter();
        u.plan.retain(|_| *k.next().unwrap_or(&true));
        let mut k = keep.iter();
        us.phases.retain(|_| *k.next().unwrap_or(&true));
    }
    let mut diagnostics = p.d.into_vec();
    crate::diag::sort(&mut diagnostics);
    ParsedSheet {
        header: p.header,
        orders: p.orders,
        spans: p.spans,
        diagnostics,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Hq,
    Unit(usize),
    /// Under a heading that could not be read: its orders are skipped.
    Lost,
}

struct Parser<'m> {
    map: &'m Map,
    d: Diags,
    header: Header,
    orders: KingdomOrders,
    spans: Spans,
    section: Section,
    /// A section has begun: header lines after this are out of place.
    started: bool,
    /// Each unit's place in the orders.
    units: BTreeMap<UnitId, usize>,
    /// Orders a unit may have once, by unit and kind, and where the first was written.
    once: BTreeMap<(usize, &'static str), Span>,
    /// For each unit and phase, the latest step written so far: its rank, word and place.
    steps: BTreeMap<(usize, u8), (u16, &'static str, &'static str)>,
}

/// A cursor over the tokens of one order.
struct Cur<'t, 'a> {
    t: &'t [Token<'a>],
    i: usize,
}

impl<'t, 'a> Cur<'t, 'a> {
    fn new(t: &'t [Token<'a>]) -> Self {
        Cur { t, i: 0 }
    }
    fn peek(&self) -> Option<Token<'a>> {
        self.t.get(self.i).copied()
    }
    fn peek_at(&self, k: usize) -> Option<Token<'a>> {
        self.t.get(self.i + k).copied()
    }
    fn next(&mut self) -> Option<Token<'a>> {
        let t = self.peek();
        if t.is_some() {
            self.i += 1;
        }
        t
    }
    fn eat(&mut self, kw: &str) -> Option<Token<'a>> {
        match self.peek() {
            Some(t) if t.is(kw) => self.next(),
            _ => None,
        }
    }
    fn eat_any(&mut self, kws: &[&str]) -> Option<Token<'a>> {
        match self.peek() {
            Some(t) if kws.iter().any(|k| t.is(k)) => self.next(),
            _ => None,
        }
    }
    /// A linking word (TO, FROM, ...) when something follows it.
    fn link(&mut self) -> Option<Token<'a>> {
        if self.peek_at(1).is_some() {
            self.eat_any(LINKS)
        } else {
            None
        }
    }
    fn skip_commas(&mut self) {
        while self.peek().is_some_and(|t| t.kind == Kind::Comma) {
            self.i += 1;
        }
    }
    fn done(&self) -> bool {
        self.i >= self.t.len()
    }
    /// Just past the last token: where something missing was expected.
    fn end(&self) -> Span {
        match self.t.last() {
            Some(l) => Span::new(l.span.line, l.span.column + l.span.length, 1),
            None => Span::new(0, 0, 1),
        }
    }
    /// The tokens left, as one span and their text.
    fn rest(&self) -> (Span, String) {
        let rest = &self.t[self.i.min(self.t.len())..];
        match (rest.first(), rest.last()) {
            (Some(a), Some(b)) => (
                a.span.to(b.span),
                rest.iter().map(|t| t.shown()).collect::<Vec<_>>().join(" "),
            ),
            _ => (self.end(), String::new()),
        }
    }
}

type R<T> = Result<T, Diagnostic>;

fn missing(cur: &Cur, order: &str, what: &str) -> Diagnostic {
    Diagnostic::new(
        Code::Missing,
        cur.end(),
        "",
        format!("{order} stops short: it needs {what}"),
    )
    .expected(what.to_string())
}

/// Fails when words are left over.
fn finish(cur: &Cur, order: &str) -> R<()> {
    if cur.done() {
        return Ok(());
    }
    let (span, text) = cur.rest();
    Err(Diagnostic::new(
        Code::Extra,
        span,
        &text,
        format!("`{text}` is more than {order} takes"),
    )
    .expected(format!(
        "the end of the {order} order, or `;` and another order"
    )))
}

fn expect_word(cur: &mut Cur, kws: &[&str], order: &str) -> R<(String, Span)> {
    let what = match kws {
        [one] => format!("`{one}`"),
        _ => {
            let (last, first) = kws.split_last().unwrap_or((&"", &[]));
            format!(
                "{} or `{last}`",
                first
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    };
    match cur.next() {
        Some(t) if kws.iter().any(|k| t.is(k)) => Ok((t.upper(), t.span)),
        Some(t) => Err(Diagnostic::new(
            Code::UnknownWord,
            t.span,
            t.text,
            format!(
                "`{}` does not fit here: {order} goes on with {what}",
                t.shown()
            ),
        )
        .expected(what)
        .maybe_hint(suggest::did_you_mean(&suggest::closest(
            t.text,
            kws.iter().copied(),
        )))),
        None => Err(missing(cur, order, &what)),
    }
}

fn whole(p: &[Token]) -> Span {
    match (p.first(), p.last()) {
        (Some(a), Some(b)) => a.span.to(b.span),
        _ => Span::new(0, 0, 1),
    }
}

/// A linking word with nothing after it: what should follow it is missing.
fn dangling(cur: &Cur) -> bool {
    cur.peek_at(1).is_none() && cur.peek().is_some_and(|t| LINKS.iter().any(|l| t.is(l)))
}

fn kingdom(cur: &mut Cur, order: &str) -> R<(KingdomCode, Span)> {
    if dangling(cur) {
        cur.next();
        return Err(missing(cur, order, KINGDOM));
    }
    let Some(t) = cur.next() else {
        return Err(missing(cur, order, KINGDOM));
    };
    if t.is_word()
        && let Ok(k) = KingdomCode::new(&t.upper())
    {
        return Ok((k, t.span));
    }
    Err(Diagnostic::new(
        Code::BadCode,
        t.span,
        t.text,
        format!("`{}` is not a kingdom code", t.shown()),
    )
    .expected(KINGDOM))
}

fn count(cur: &mut Cur, order: &str, min: u32) -> R<(u32, Span)> {
    let Some(t) = cur.next() else {
        return Err(missing(cur, order, "a count"));
    };
    match t.text.parse::<u64>() {
        Ok(n) if t.is_word() && n >= u64::from(min) && n <= u64::from(MAX_COUNT) => {
            Ok((n as u32, t.span))
        }
        _ if t.is_word() && t.text.chars().all(|c| c.is_ascii_digit()) => Err(Diagnostic::new(
            Code::BadNumber,
            t.span,
            t.text,
            format!("{} is out of range for a count", t.text),
        )
        .expected(format!("a count from {min} to {MAX_COUNT}"))),
        _ => {
            let looks_like_troop = t.is_word() && t.text.chars().all(|c| c.is_ascii_alphabetic());
            Err(Diagnostic::new(
                Code::BadNumber,
                t.span,
                t.text,
                format!("`{}` is not a count", t.shown()),
            )
            .expected(format!("a count from {min} to {MAX_COUNT}"))
            .maybe_hint(looks_like_troop.then(|| {
                format!(
                    "write the count before the troop type: 4 {}",
                    t.text.to_uppercase()
                )
            })))
        }
    }
}

fn troop_code(cur: &mut Cur, order: &str) -> R<(TroopCode, Span)> {
    let Some(t) = cur.next() else {
        return Err(missing(cur, order, "a troop type, such as LIN"));
    };
    let ok = t.is_word()
        && (2..=4).contains(&t.text.len())
        && t.text.chars().all(|c| c.is_ascii_alphabetic());
    if ok {
        return Ok((TroopCode(t.upper()), t.span));
    }
    Err(Diagnostic::new(
        Code::BadCode,
        t.span,
        t.text,
        format!("`{}` is not a troop type", t.shown()),
    )
    .expected("a troop type's code of two to four letters, such as LIN or CUI"))
}

/// A name: a quoted one, or (`rest`) the words to the end of the order.
fn name(cur: &mut Cur, order: &str, rest: bool) -> R<(String, Span)> {
    match cur.peek() {
        Some(t) if t.kind == Kind::Quoted => {
            cur.next();
            Ok((t.text.trim().to_string(), t.span))
        }
        Some(t) if t.is_word() => {
            if rest {
                let first = t.span;
                let mut last = t.span;
                let mut words = Vec::new();
                while let Some(w) = cur.peek() {
                    if w.kind == Kind::Comma {
                        break;
                    }
                    words.push(w.text.to_string());
                    last = w.span;
                    cur.next();
                }
                Ok((words.join(" "), first.to(last)))
            } else {
                cur.next();
                Ok((t.text.to_string(), t.span))
            }
        }
        _ => Err(missing(cur, order, "a name, in quotes if it has spaces")),
    }
}

/// The troops of a TRANSFER, DISBAND, SALVAGE or RECRUIT: `4 LIN, 2 CUI`, and for transfers
/// `LEADER "Ney"`. Stops at `stop` or the end.
type TroopList = (Vec<TroopCount>, Vec<String>, Vec<OrderSpan>);

fn troop_list(cur: &mut Cur, order: &str, leaders: bool, stop: Option<&str>) -> R<TroopList> {
    let mut troops = Vec::new();
    let mut names = Vec::new();
    let mut spans = Vec::new();
    loop {
        cur.skip_commas();
        match cur.peek() {
            None => break,
            Some(t) if stop.is_some_and(|s| t.is(s)) => break,
            Some(t) if t.is("LEADER") && leaders => {
                cur.next();
                let (n, at) = name(cur, order, false)?;
                names.push(n);
                spans.push(OrderSpan::with(t.span.to(at), vec![at]));
            }
            Some(t) if stop.is_some() && looks_like_unit(t.text) => {
                return Err(Diagnostic::new(
                    Code::Missing,
                    t.span,
                    t.text,
                    format!("{order} needs TO before the receiving unit {}", t.text),
                )
                .expected(format!("TO {}", t.text.to_uppercase())));
            }
            Some(_) => {
                let (n, at_n) = count(cur, order, 1)?;
                let (code, at_c) = troop_code(cur, order)?;
                troops.push(TroopCount { code, count: n });
                spans.push(OrderSpan::with(at_n.to(at_c), vec![at_n, at_c]));
            }
        }
    }
    if troops.is_empty() && names.is_empty() {
        let what = if leaders {
            "troops, such as 4 LIN, 2 CUI, or LEADER \"Ney\""
        } else {
            "troops, such as 4 LIN, 2 CUI"
        };
        return Err(missing(cur, order, what));
    }
    Ok((troops, names, spans))
}

/// A1, F2, G12: a letter of a unit and digits.
fn looks_like_unit(word: &str) -> bool {
    let mut cs = word.chars();
    matches!(cs.next(), Some('A' | 'F' | 'G' | 'a' | 'f' | 'g'))
        && cs.next().is_some_and(|c| c.is_ascii_digit())
}

fn on_off(cur: &mut Cur, order: &str) -> R<(bool, Span)> {
    let (w, at) = expect_word(cur, &["ON", "OFF"], order)?;
    Ok((w == "ON", at))
}

fn structure(cur: &mut Cur, order: &str) -> R<(Structure, Span)> {
    let (w, at) = expect_word(cur, &["FORTIFICATION", "FORT", "HARBOUR", "HARBOR"], order)?;
    Ok((
        if w.starts_with("FORT") {
            Structure::Fortification
        } else {
            Structure::Harbour
        },
        at,
    ))
}

/// Cuts a name to its limit, with a warning.
fn limit_name(d: &mut Diags, name: String, at: Span) -> String {
    if name.chars().count() <= MAX_NAME_CHARS {
        return name;
    }
    let cut: String = name.chars().take(MAX_NAME_CHARS).collect();
    d.push(
        Diagnostic::new(
            Code::Cut,
            at,
            &name,
            format!("a name of more than {MAX_NAME_CHARS} characters is cut to \"{cut}\""),
        )
        .expected(format!("at most {MAX_NAME_CHARS} characters")),
    );
    cut
}

/// The step a phase item happens in, as a rank for ordering and the step's name.
fn step_rank(kind: UnitKind, item: &'static str) -> (u16, &'static str) {
    match item {
        "TRANSFER" => (10, "M1"),
        "PREPARE" => (20, "M2"),
        "LOAD" => (30, "M3"),
        "MOVE" | "HOLD" if kind == UnitKind::Fleet => (40, "M4"),
        "UNLOAD" => (80, "M8"),
        "MOVE" | "HOLD" => (90, "M9"),
        "LOAD AFTER" => (95, "M9b"),
        "DEFEND" => (100, "M10"),
        _ => (140, "M14"),
    }
}

impl<'m> Parser<'m> {
    fn sheet(&mut self, text: &str) {
        let all: Vec<&str> = lines(text).collect();
        // For each line, the next line that closes a proclamation: found once, so that a
        // sheet of unclosed proclamations is still read in linear time.
        let mut ends = vec![all.len(); all.len() + 1];
        for j in (0..all.len()).rev() {
            ends[j] = if is_end(all[j]) { j } else { ends[j + 1] };
        }
        let mut i = 0;
        while i < all.len() {
            let n = i as u32 + 1;
            let line = all[i];
            let chars = line.chars().count();
            if chars > MAX_LINE_CHARS {
                let shown: String = line.trim_start().chars().take(20).collect();
                self.d.push(
                    Diagnostic::new(
                        Code::LineTooLong,
                        Span::new(n, 1, 1),
                        &shown,
                        format!(
                            "line {n} has {chars} characters, more than the {MAX_LINE_CHARS} a \
                             line may have: it is not read"
                        ),
                    )
                    .expected(format!("at most {MAX_LINE_CHARS} characters")),
                );
                i += 1;
                continue;
            }
            let (toks, open) = lexer::tokens(n, line);
            let Some(first) = toks.first().copied() else {
                i += 1;
                continue;
            };
            if first.is("PROCLAMATION") {
                i = self.proclamation(&all, &ends, i, first);
                continue;
            }
            if let Some(d) = open {
                self.d.push(d);
            }
            self.line(&toks);
            i += 1;
        }
    }

    fn line(&mut self, toks: &[Token]) {
        let first = toks[0];
        let up = first.upper();
        match up.as_str() {
            "GAME" | "KINGDOM" | "TURN" if first.is_word() => return self.header_line(toks),
            "HQ" if first.is_word() => {
                self.started = true;
                self.section = Section::Hq;
                let cur = Cur { t: toks, i: 1 };
                if let Err(d) = finish(&cur, "the HQ heading") {
                    self.d
                        .push(d.hint("write each HQ order on a line of its own below HQ"));
                }
                return;
            }
            "END" if first.is_word() => {
                self.d.push(
                    Diagnostic::new(
                        Code::Misplaced,
                        first.span,
                        first.text,
                        "END closes a PROCLAMATION, and none is open here",
                    )
                    .expected("an order, or a heading: HQ, PROCLAMATION or a unit such as A1"),
                );
                return;
            }
            _ => {}
        }
        if first.is_word() {
            if let Some(unit) = self.unit_shape(first.text) {
                match unit {
                    Ok(id) => self.unit_heading(id, toks),
                    Err(mut d) => {
                        d.line = first.span.line;
                        d.column = first.span.column;
                        d.length = first.span.length;
                        self.d.push(d.hint(
                            "the orders under this heading are not read, up to the next heading",
                        ));
                        // The orders below belong to a unit that cannot be read: they are
                        // skipped, rather than given to the unit before.
                        self.section = Section::Lost;
                        self.started = true;
                    }
                }
                return;
            }
            if let Some((phase, used)) = phase_label(toks) {
                return self.phase_line(toks, phase, used);
            }
        }
        match self.section {
            Section::Lost => {}
            Section::None => {
                let word = first.upper();
                let known = is_keyword(&word);
                let d = if known {
                    Diagnostic::new(
                        Code::Misplaced,
                        first.span,
                        first.text,
                        format!("`{}` comes before any heading", first.shown()),
                    )
                    .expected("a heading first: HQ, or a unit such as A1")
                } else {
                    self.unknown(first, &[SECTION_WORDS, HQ_WORDS, UNIT_WORDS].concat())
                };
                self.d.push(d);
            }
            Section::Hq => {
                for p in lexer::pieces(toks) {
                    self.hq_order(p);
                }
            }
            Section::Unit(u) => {
                for p in lexer::pieces(toks) {
                    self.unit_order(u, p);
                }
            }
        }
    }

    fn unknown(&self, t: Token, words: &[&str]) -> Diagnostic {
        let mut hint = suggest::did_you_mean(&suggest::closest(t.text, words.iter().copied()));
        if hint.is_none() && t.kind == Kind::Quoted {
            hint = Some("a name in quotes goes after a unit's id, as A1 \"Grande Armée\"".into());
        }
        if hint.is_none() {
            let up = t.upper();
            if let Some(code) = up.strip_prefix('G')
                && !code.is_empty()
                && self.map.find(code).is_none()
            {
                hint = Some(format!(
                    "a garrison is G and its province's number or code, and no location \
                         has the code {code}"
                ));
            }
        }
        Diagnostic::new(
            Code::UnknownWord,
            t.span,
            t.text,
            format!("`{}` is not an order", t.shown()),
        )
        .expected("an order, such as those listed in the sheet's reminder")
        .maybe_hint(hint)
    }

    /// Whether a word is a unit id: `A7`, `F2`, `G12` or `G` and a location code. `None`
    /// when it does not look like one at all; an error when it looks like one but is not
    /// (`A0`, `A100`, `F2x`).
    fn unit_shape(&self, word: &str) -> Option<R<UnitId>> {
        let up = word.to_uppercase();
        let mut cs = up.chars();
        let k = cs.next()?;
        let rest = cs.as_str();
        if !matches!(k, 'A' | 'F' | 'G') || rest.is_empty() {
            return None;
        }
        let at = |d: String| Diagnostic::new(Code::BadCode, Span::default(), word, d);
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            if !rest.chars().all(|c| c.is_ascii_digit()) {
                return Some(Err(at(format!("`{word}` is not a unit")).expected(UNIT)));
            }
            return Some(
                up.parse::<UnitId>()
                    .map_err(|e| at(format!("`{word}` is not a unit: {e}")).expected(UNIT)),
            );
        }
        if k == 'G' && !is_keyword(&up) && (2..=4).contains(&rest.len()) {
            return self.map.find(rest).map(|l| Ok(UnitId::garrison(l.id)));
        }
        None
    }

    /// A unit id at the cursor, with its span.
    fn unit(&self, cur: &mut Cur, order: &str) -> R<(UnitId, Span)> {
        let Some(t) = cur.next() else {
            return Err(missing(cur, order, UNIT));
        };
        if t.is_word() {
            match self.unit_shape(t.text) {
                Some(Ok(id)) => return Ok((id, t.span)),
                Some(Err(mut d)) => {
                    d.line = t.span.line;
                    d.column = t.span.column;
                    d.length = t.span.length;
                    return Err(d);
                }
                None => {}
            }
        }
        Err(Diagnostic::new(
            Code::BadCode,
            t.span,
            t.text,
            format!("`{}` is not a unit", t.shown()),
        )
        .expected(UNIT))
    }

    /// A unit, perhaps of another kingdom: `A2` or `BAV A2`.
    fn unit_of(&self, cur: &mut Cur, order: &str) -> R<(Option<KingdomCode>, UnitId, Span)> {
        if let (Some(a), Some(b)) = (cur.peek(), cur.peek_at(1)) {
            let a_is_kingdom = a.is_word()
                && (2..=4).contains(&a.text.len())
                && a.text.chars().all(|c| c.is_ascii_alphabetic());
            if a_is_kingdom && b.is_word() && self.unit_shape(b.text).is_some() {
                let (k, ka) = kingdom(cur, order)?;
                let (u, ua) = self.unit(cur, order)?;
                return Ok((Some(k), u, ka.to(ua)));
            }
        }
        let (u, ua) = self.unit(cur, order)?;
        Ok((None, u, ua))
    }

    /// A location by code, number or name.
    fn location(&self, cur: &mut Cur, order: &str) -> R<(LocId, Span)> {
        if dangling(cur) {
            cur.next();
            return Err(missing(cur, order, LOCATION));
        }
        let Some(t) = cur.next() else {
            return Err(missing(cur, order, LOCATION));
        };
        if t.kind == Kind::Word || t.kind == Kind::Quoted {
            if let Ok(n) = t.text.parse::<u64>() {
                return match u16::try_from(n).ok().and_then(|n| self.map.get(LocId(n))) {
                    Some(l) => Ok((l.id, t.span)),
                    None => Err(Diagnostic::new(
                        Code::UnknownLocation,
                        t.span,
                        t.text,
                        format!("there is no location {} on this map", t.text),
                    )
                    .expected(LOCATION)),
                };
            }
            if let Some(l) = self.map.find(t.text) {
                return Ok((l.id, t.span));
            }
            if let Some(l) = self
                .map
                .locations
                .iter()
                .find(|l| l.name.eq_ignore_ascii_case(t.text.trim()))
            {
                return Ok((l.id, t.span));
            }
        }
        let options = suggest::locations(self.map, t.text, None);
        Err(Diagnostic::new(
            Code::UnknownLocation,
            t.span,
            t.text,
            format!("`{}` is not a location on this map", t.shown()),
        )
        .expected(LOCATION)
        .maybe_hint(suggest::did_you_mean(&options)))
    }

    fn header_line(&mut self, toks: &[Token]) {
        if self.started {
            self.d.push(
                Diagnostic::new(
                    Code::Header,
                    toks[0].span,
                    toks[0].text,
                    "the header belongs at the top of the sheet, before HQ and the units",
                )
                .expected("an order or a heading"),
            );
        }
        let mut cur = Cur::new(toks);
        while let Some(t) = cur.next() {
            let key = t.upper();
            let result: R<()> = match key.as_str() {
                "GAME" if t.is_word() => {
                    let value = match cur.peek() {
                        Some(q) if q.kind == Kind::Quoted => {
                            cur.next();
                            Ok((q.text.trim().to_string(), q.span))
                        }
                        _ => {
                            let mut words = Vec::new();
                            let mut span: Option<Span> = None;
                            while let Some(w) = cur.peek() {
                                if w.is("KINGDOM") || w.is("TURN") {
                                    break;
                                }
                                words.push(w.text);
                                span = Some(span.map_or(w.span, |s| s.to(w.span)));
                                cur.next();
                            }
                            match span {
                                Some(s) => Ok((words.join(" "), s)),
                                None => Err(missing(&cur, "GAME", "the game's name")),
                            }
                        }
                    };
                    value.map(|(v, span)| {
                        let old = self.header.game.replace(Located { value: v, span });
                        self.twice_in_header(old.map(|o| o.span), "GAME", t);
                    })
                }
                "KINGDOM" if t.is_word() => kingdom(&mut cur, "KINGDOM").map(|(k, span)| {
                    let old = self.header.kingdom.replace(Located { value: k, span });
                    self.twice_in_header(old.map(|o| o.span), "KINGDOM", t);
                }),
                "TURN" if t.is_word() => count(&mut cur, "TURN", 1).map(|(n, span)| {
                    let old = self.header.turn.replace(Located { value: n, span });
                    self.twice_in_header(old.map(|o| o.span), "TURN", t);
                }),
                _ => Err(Diagnostic::new(
                    Code::UnknownWord,
                    t.span,
                    t.text,
                    format!("`{}` is not part of a header", t.shown()),
                )
                .expected("GAME, KINGDOM or TURN and its value")
                .hint("the header reads GAME <name> KINGDOM <code> TURN <number>")),
            };
            if let Err(d) = result {
                self.d.push(d);
                return;
            }
        }
    }

    fn twice_in_header(&mut self, old: Option<Span>, key: &str, t: Token) {
        if let Some(old) = old {
            self.d.push(
                Diagnostic::new(
                    Code::Header,
                    t.span,
                    t.text,
                    format!(
                        "{key} is given twice (first on line {}): the later one counts",
                        old.line
                    ),
                )
                .expected(format!("one {key} in the header")),
            );
        }
    }

    fn proclamation(&mut self, all: &[&str], ends: &[usize], i: usize, kw: Token) -> usize {
        self.started = true;
        let line = all[i];
        let offset =
            (kw.text.as_ptr() as usize).saturating_sub(line.as_ptr() as usize) + kw.text.len();
        let rest = line.get(offset..).unwrap_or("").trim();
        let (text, next) = if !rest.is_empty() && !rest.starts_with('#') {
            let t = rest
                .strip_prefix(['"', '\u{201C}'])
                .and_then(|r| r.strip_suffix(['"', '\u{201D}']))
                .unwrap_or(rest);
            (t.trim().to_string(), i + 1)
        } else {
            match ends.get(i + 1).copied().filter(|&e| e < all.len()) {
                Some(end) => (join(&all[i + 1..end]), end + 1),
                None => {
                    let stop = (i + 1..all.len())
                        .find(|&j| self.starts_section(j as u32 + 1, all[j]))
                        .unwrap_or(all.len());
                    let hint = if stop < all.len() {
                        format!(
                            "the text was taken to stop before line {}, which starts a section; \
                             put END on a line of its own after the text",
                            stop + 1
                        )
                    } else {
                        "put END on a line of its own after the text".to_string()
                    };
                    self.d.push(
                        Diagnostic::new(
                            Code::Unclosed,
                            kw.span,
                            kw.text,
                            "this PROCLAMATION is never closed by an END line",
                        )
                        .expected("a line with END after the proclamation's text")
                        .hint(hint),
                    );
                    (join(&all[i + 1..stop]), stop)
                }
            }
        };
        if let Some(first) = self.spans.proclamation {
            self.d.push(
                Diagnostic::new(
                    Code::Twice,
                    kw.span,
                    kw.text,
                    format!(
                        "a second PROCLAMATION: a kingdom makes one a turn (2.11), and the one \
                         on line {} is kept",
                        first.line
                    ),
                )
                .expected("one PROCLAMATION")
                .hint("put all the text in one PROCLAMATION … END block"),
            );
            return next;
        }
        let chars = text.chars().count();
        let text = if chars > MAX_PROCLAMATION_CHARS {
            self.d.push(
                Diagnostic::new(
                    Code::Cut,
                    kw.span,
                    kw.text,
                    format!(
                        "the proclamation has {chars} characters: only the first \
                         {MAX_PROCLAMATION_CHARS} are kept"
                    ),
                )
                .expected(format!("at most {MAX_PROCLAMATION_CHARS} characters")),
            );
            text.chars().take(MAX_PROCLAMATION_CHARS).collect()
        } else {
            text
        };
        self.spans.proclamation = Some(kw.span);
        if !text.is_empty() {
            self.orders.proclamation = Some(text);
        }
        next
    }

    /// Whether a line begins a section or the header: used to end a proclamation left
    /// open.
    fn starts_section(&self, n: u32, line: &str) -> bool {
        let (toks, _) = lexer::tokens(n, line);
        let Some(first) = toks.first() else {
            return false;
        };
        if !first.is_word() {
            return false;
        }
        ["HQ", "GAME", "KINGDOM", "TURN", "PROCLAMATION"]
            .iter()
            .any(|k| first.is(k))
            || matches!(self.unit_shape(first.text), Some(Ok(_)))
    }

    fn unit_heading(&mut self, id: UnitId, toks: &[Token]) {
        self.started = true;
        let head = toks[0].span;
        let u = match self.units.get(&id) {
            Some(&u) => {
                let first = self.spans.units[u].header;
                self.d.push(
                    Diagnostic::new(
                        Code::UnitRepeated,
                        head,
                        toks[0].text,
                        format!(
                            "{id} already has a section, on line {}: the orders below are added \
                             to it",
                            first.line
                        ),
                    )
                    .expected("one section per unit"),
                );
                u
            }
            None => {
                let u = self.orders.units.len();
                self.orders.units.push(UnitOrders::new(id));
                self.spans.units.push(UnitSpans {
                    header: head,
                    ..UnitSpans::default()
                });
                self.units.insert(id, u);
                u
            }
        };
        self.section = Section::Unit(u);
        let mut cur = Cur { t: toks, i: 1 };
        if let Some(q) = cur.peek().filter(|t| t.kind == Kind::Quoted) {
            cur.next();
            let n = q.text.trim().to_string();
            if n.is_empty() {
                self.d.push(
                    Diagnostic::new(
                        Code::Missing,
                        q.span,
                        "\"\"",
                        "a unit's new name cannot be empty",
                    )
                    .expected("a name between the quotes, or no quotes at all"),
                );
            } else if self.first_time(u, "NAME", q.span) {
                let n = limit_name(&mut self.d, n, q.span);
                self.orders.units[u].admin.push(Admin::Rename { name: n });
                self.spans.units[u]
                    .admin
                    .push(OrderSpan::with(q.span, vec![q.span]));
            }
        }
        if let Err(d) = finish(&cur, "a unit's heading") {
            let hint = if cur.peek().is_some_and(|t| t.is_word()) && cur.i == 1 {
                format!(
                    "a new name goes in quotes, as {id} \"Grande Armée\"; orders go on the lines \
                     below the heading"
                )
            } else {
                "orders go on the lines below the heading".to_string()
            };
            self.d.push(d.hint(hint));
        }
    }

    /// Whether this is the first order of a kind a unit may give once; if not, the error.
    fn first_time(&mut self, u: usize, what: &'static str, at: Span) -> bool {
        if let Some(first) = self.once.get(&(u, what)) {
            let id = self.orders.units[u].unit;
            let line = first.line;
            self.d.push(
                Diagnostic::new(
                    Code::Twice,
                    at,
                    what,
                    format!(
                        "{what} for {id} is already given on line {line}: the first one is kept"
                    ),
                )
                .expected(format!("one {what} order for {id} a turn")),
            );
            return false;
        }
        self.once.insert((u, what), at);
        true
    }

    fn hq_order(&mut self, p: &[Token]) {
        let first = p[0];
        let at = whole(p);
        let word = first.upper();
        let mut cur = Cur { t: p, i: 1 };
        let order = word.as_str();
        if !first.is_word() {
            let d = self.unknown(first, HQ_WORDS);
            return self.d.push(d);
        }
        let result: R<(HqOrder, Vec<Span>)> = (|| match order {
            "DECLARE" => {
                expect_word(&mut cur, &["WAR"], "DECLARE")?;
                cur.link();
                let (to, a) = kingdom(&mut cur, "DECLARE WAR")?;
                finish(&cur, "DECLARE WAR")?;
                Ok((HqOrder::DeclareWar { to }, vec![a]))
            }
            "OFFER" => {
                let (what, _) = expect_word(&mut cur, &["PEACE", "ALLIANCE"], "OFFER")?;
                cur.link();
                let name = format!("OFFER {what}");
                let (to, a) = kingdom(&mut cur, &name)?;
                finish(&cur, &name)?;
                Ok((
                    if what == "PEACE" {
                        HqOrder::OfferPeace { to }
                    } else {
                        HqOrder::OfferAlliance { to }
                    },
                    vec![a],
                ))
            }
            "CANCEL" => {
                expect_word(&mut cur, &["ALLIANCE"], "CANCEL")?;
                cur.link();
                let (to, a) = kingdom(&mut cur, "CANCEL ALLIANCE")?;
                finish(&cur, "CANCEL ALLIANCE")?;
                Ok((HqOrder::CancelAlliance { to }, vec![a]))
            }
            "ACCEPT" | "REFUSE" => {
                let accept = if order == "ACCEPT" {
                    let (w, _) = expect_word(&mut cur, &["GIFTS", "NOTHING"], "ACCEPT")?;
                    w == "GIFTS"
                } else {
                    cur.eat("GIFTS");
                    false
                };
                cur.link();
                let (from, a) = kingdom(&mut cur, order)?;
                finish(&cur, order)?;
                Ok((HqOrder::Acceptance { from, accept }, vec![a]))
            }
            "GRANT" | "REVOKE" => {
                let (what, _) = expect_word(&mut cur, &["PASSAGE", "PERMISSION"], order)?;
                let name = format!("{order} {what}");
                if what == "PASSAGE" {
                    cur.eat("RIGHTS");
                    cur.link();
                    let (to, a) = kingdom(&mut cur, &name)?;
                    finish(&cur, &name)?;
                    return Ok((
                        if order == "GRANT" {
                            HqOrder::GrantPassage { to }
                        } else {
                            HqOrder::RevokePassage { to }
                        },
                        vec![a],
                    ));
                }
                // IN marks the province and TO or FROM the kingdom, in either order;
                // without them, the province comes first.
                let mut province = None;
                let mut to = None;
                for _ in 0..2 {
                    let link = cur.link();
                    let for_kingdom = match link {
                        Some(l) if l.is("IN") || l.is("AT") => false,
                        Some(_) => true,
                        None => province.is_some(),
                    };
                    if for_kingdom && to.is_none() {
                        to = Some(kingdom(&mut cur, &name)?);
                    } else if province.is_none() {
                        province = Some(self.location(&mut cur, &name)?);
                    } else {
                        to = Some(kingdom(&mut cur, &name)?);
                    }
                }
                finish(&cur, &name)?;
                let (Some((province, pa)), Some((to, ka))) = (province, to) else {
                    return Err(missing(&cur, &name, "a province and a kingdom"));
                };
                Ok((
                    if order == "GRANT" {
                        HqOrder::GrantPermission { province, to }
                    } else {
                        HqOrder::RevokePermission { province, to }
                    },
                    vec![pa, ka],
                ))
            }
            "SEND" => {
                if cur.eat("AMBASSADOR").is_some() {
                    cur.link();
                    let (to, a) = kingdom(&mut cur, "SEND AMBASSADOR")?;
                    finish(&cur, "SEND AMBASSADOR")?;
                    return Ok((HqOrder::SendAmbassador { to }, vec![a]));
                }
                let Some(t) = cur.next() else {
                    return Err(missing(&cur, "SEND", "an amount of gold, or AMBASSADOR"));
                };
                let amount: Option<Gold> = Fixed::parse(t.text).filter(|_| t.is_word());
                let amount = match amount {
                    Some(g) if g > Fixed::ZERO && g <= Fixed::whole(MAX_GOLD) => g,
                    _ => {
                        return Err(Diagnostic::new(
                            Code::BadNumber,
                            t.span,
                            t.text,
                            format!("`{}` is not an amount of gold to send", t.shown()),
                        )
                        .expected(format!(
                            "an amount above 0 and at most {MAX_GOLD}, with at most two \
                             decimals, or AMBASSADOR"
                        )));
                    }
                };
                cur.eat("GOLD");
                cur.link();
                let (to, a) = kingdom(&mut cur, "SEND GOLD")?;
                finish(&cur, "SEND GOLD")?;
                Ok((HqOrder::SendGold { to, amount }, vec![a, t.span]))
            }
            "ANNEX" => {
                cur.eat("PROVINCE");
                let (province, a) = self.location(&mut cur, "ANNEX")?;
                finish(&cur, "ANNEX")?;
                Ok((HqOrder::Annex { province }, vec![a]))
            }
            "GIVE" => {
                cur.eat("PROVINCE");
                let (province, pa) = self.location(&mut cur, "GIVE")?;
                cur.link();
                let (to, ka) = kingdom(&mut cur, "GIVE")?;
                finish(&cur, "GIVE")?;
                Ok((HqOrder::GiveProvince { province, to }, vec![pa, ka]))
            }
            _ => Err(self.misplaced_or_unknown(first, Section::Hq)),
        })();
        match result {
            Ok((o, args)) => {
                self.orders.hq.push(o);
                self.spans.hq.push(OrderSpan::with(at, args));
            }
            Err(d) => self.d.push(d),
        }
    }

    fn misplaced_or_unknown(&self, t: Token, here: Section) -> Diagnostic {
        let up = t.upper();
        let w = up.as_str();
        let misplaced = |msg: String, hint: &str| {
            Diagnostic::new(Code::Misplaced, t.span, t.text, msg).hint(hint.to_string())
        };
        match here {
            Section::Hq if UNIT_WORDS.contains(&w) || PHASE_WORDS.contains(&w) => misplaced(
                format!("{w} is an order for a unit, not for the headquarters"),
                "write it under the unit's heading (A1, F2, G12), after a line with the unit's id",
            ),
            Section::Unit(_) if HQ_WORDS.contains(&w) => misplaced(
                format!("{w} is an order of the headquarters, not of a unit"),
                "write it under the HQ heading",
            ),
            Section::Unit(_) if PHASE_WORDS.contains(&w) => misplaced(
                format!("{w} is done in a phase of movement: it needs the phase's number"),
                &format!("write it after the phase's number, as `1: {w} …`"),
            ),
            _ => {
                let words: Vec<&str> = match here {
                    Section::Hq => HQ_WORDS.to_vec(),
                    _ => [UNIT_WORDS, PHASE_WORDS].concat(),
                };
                self.unknown(t, &words)
            }
        }
    }

    fn unit_order(&mut self, u: usize, p: &[Token]) {
        let first = p[0];
        let at = whole(p);
        let word = first.upper();
        let mut cur = Cur { t: p, i: 1 };
        if !first.is_word() {
            let d = self.unknown(first, UNIT_WORDS);
            return self.d.push(d);
        }
        let r: R<()> = (|| {
            match word.as_str() {
                "RETREAT" => {
                    cur.eat_any(&["LEVEL", "AT", "RANK"]);
                    let t = cur
                        .next()
                        .ok_or_else(|| missing(&cur, "RETREAT", "a rank from 1 to 5"))?;
                    let rank = match t.text.parse::<u8>() {
                        Ok(n @ 1..=5) if t.is_word() => n,
                        _ => {
                            return Err(Diagnostic::new(
                                Code::BadNumber,
                                t.span,
                                t.text,
                                format!("`{}` is not a retreat level", t.shown()),
                            )
                            .expected("a rank from 1 to 5")
                            .hint("the unit retreats once its losses reach this rank (4.2)"));
                        }
                    };
                    finish(&cur, "RETREAT")?;
                    self.admin(u, "RETREAT", Admin::RetreatLevel { rank }, at, t.span);
                }
                "FOLLOW" => {
                    let (unit, a) = if let Some(t) = cur.eat_any(&["NONE", "NOBODY", "OFF"]) {
                        (None, t.span)
                    } else {
                        let (x, a) = self.unit(&mut cur, "FOLLOW")?;
                        (Some(x), a)
                    };
                    finish(&cur, "FOLLOW")?;
                    self.admin(u, "FOLLOW", Admin::Follow { unit }, at, a);
                }
                "MARINES" => {
                    let (board, a) = on_off(&mut cur, "MARINES")?;
                    finish(&cur, "MARINES")?;
                    self.admin(u, "MARINES", Admin::Marines { board }, at, a);
                }
                "LEADER" => {
                    let (n, a) = name(&mut cur, "LEADER", true)?;
                    finish(&cur, "LEADER")?;
                    self.admin(u, "LEADER", Admin::Leader { name: n }, at, a);
                }
                "FORM" => {
                    let kind = cur.eat_any(&["ARMY", "FLEET"]);
                    let (new, a) = match self.unit(&mut cur, "FORM") {
                        Ok(x) => x,
                        Err(d) if d.code == Code::Missing => {
                            let what = match kind {
                                Some(k) if k.is("FLEET") => "FORM FLEET F3",
                                _ => "FORM ARMY A5",
                            };
                            return Err(d.hint(format!(
                                "give the new unit its number, as {what} \"Reserve\""
                            )));
                        }
                        Err(d) => return Err(d),
                    };
                    let wanted = kind.map(|k| {
                        if k.is("ARMY") {
                            UnitKind::Army
                        } else {
                            UnitKind::Fleet
                        }
                    });
                    if new.kind == UnitKind::Garrison || wanted.is_some_and(|w| w != new.kind) {
                        let what = match wanted {
                            Some(UnitKind::Fleet) => "a fleet's number (F and a number)",
                            Some(_) => "an army's number (A and a number)",
                            None => "an army's or a fleet's number (A5, F3)",
                        };
                        return Err(Diagnostic::new(
                            Code::BadCode,
                            a,
                            &new.to_string(),
                            format!("FORM makes a new army or fleet, and {new} is not one"),
                        )
                        .expected(what));
                    }
                    let n = match cur.peek() {
                        Some(q) if q.kind == Kind::Quoted => {
                            cur.next();
                            limit_name(&mut self.d, q.text.trim().to_string(), q.span)
                        }
                        _ => String::new(),
                    };
                    if let Err(d) = finish(&cur, "FORM") {
                        return Err(d.hint("the new unit's name goes in quotes"));
                    }
                    self.orders.units[u].form.push((new, n));
                    self.spans.units[u].form.push(OrderSpan::with(at, vec![a]));
                }
                "TRANSFER" => {
                    let (t, s) = self.transfer(&mut cur, at)?;
                    self.orders.units[u].transfers.push(t);
                    self.spans.units[u].transfers.push(s);
                }
                "RANKS" | "RANK" => {
                    loop {
                        cur.skip_commas();
                        if cur.done() {
                            break;
                        }
                        let (code, ca) = troop_code(&mut cur, "RANKS")?;
                        let mut ranks = [0u32; 5];
                        let mut args = vec![ca];
                        for r in &mut ranks {
                            let (n, na) = count(&mut cur, "RANKS", 0).map_err(|d| {
                                if d.code == Code::Missing {
                                    d.expected("five counts, for ranks 1 to 5, as LIN 2 2 0 0 0")
                                } else {
                                    d
                                }
                            })?;
                            *r = n;
                            args.push(na);
                        }
                        let span = ca.to(*args.last().unwrap_or(&ca));
                        self.orders.units[u].ranks.push(RankOrder { code, ranks });
                        self.spans.units[u].ranks.push(OrderSpan::with(span, args));
                    }
                    if self.spans.units[u].ranks.is_empty() {
                        return Err(missing(
                            &cur,
                            "RANKS",
                            "a troop type and five counts, as LIN 2 2 0 0 0",
                        ));
                    }
                }
                "DISBAND" | "SCUTTLE" | "SALVAGE" | "RECRUIT" => {
                    let (troops, _, spans) = troop_list(&mut cur, &word, false, None)?;
                    let (list, list_spans) = match word.as_str() {
                        "SALVAGE" => (
                            &mut self.orders.units[u].salvage,
                            &mut self.spans.units[u].salvage,
                        ),
                        "RECRUIT" => (
                            &mut self.orders.units[u].recruit,
                            &mut self.spans.units[u].recruit,
                        ),
                        _ => (
                            &mut self.orders.units[u].disband,
                            &mut self.spans.units[u].disband,
                        ),
                    };
                    list.extend(troops);
                    list_spans.extend(spans);
                }
                "HIRE" => {
                    cur.eat("LEADER");
                    finish(&cur, "HIRE LEADER")?;
                    if self.first_time(u, "HIRE", at) {
                        self.orders.units[u].hire_leader = true;
                        self.spans.units[u].hire_leader = Some(OrderSpan::new(at));
                    }
                }
                "BUILD" | "RAZE" => {
                    let (s, a) = structure(&mut cur, &word)?;
                    finish(&cur, &word)?;
                    let key = if word == "BUILD" { "BUILD" } else { "RAZE" };
                    if self.first_time(u, key, at) {
                        let span = Some(OrderSpan::with(at, vec![a]));
                        if key == "BUILD" {
                            self.orders.units[u].build = Some(s);
                            self.spans.units[u].build = span;
                        } else {
                            self.orders.units[u].raze = Some(s);
                            self.spans.units[u].raze = span;
                        }
                    }
                }
                "REPAIR" => {
                    cur.eat_any(&["FORTIFICATION", "FORT"]);
                    finish(&cur, "REPAIR")?;
                    if self.first_time(u, "REPAIR", at) {
                        self.orders.units[u].repair = true;
                        self.spans.units[u].repair = Some(OrderSpan::new(at));
                    }
                }
                _ => return Err(self.misplaced_or_unknown(first, Section::Unit(u))),
            }
            Ok(())
        })();
        if let Err(d) = r {
            self.d.push(d);
        }
    }

    fn admin(&mut self, u: usize, key: &'static str, a: Admin, at: Span, arg: Span) {
        if self.first_time(u, key, at) {
            self.orders.units[u].admin.push(a);
            self.spans.units[u]
                .admin
                .push(OrderSpan::with(at, vec![arg]));
        }
    }

    /// `TRANSFER 4 LIN, 1 ART, LEADER "Ney" TO [BAV] A5`.
    fn transfer(&self, cur: &mut Cur, at: Span) -> R<(Transfer, OrderSpan)> {
        let (troops, leaders, parts) = troop_list(cur, "TRANSFER", true, Some("TO"))?;
        if cur.eat("TO").is_none() {
            return Err(missing(
                cur,
                "TRANSFER",
                "TO and the receiving unit, as TO A5",
            ));
        }
        let (to_kingdom, to, ta) = self.unit_of(cur, "TRANSFER")?;
        finish(cur, "TRANSFER")?;
        let mut args = vec![ta];
        args.extend(parts.iter().map(|p| p.at));
        Ok((
            Transfer {
                troops,
                leaders,
                to_kingdom,
                to,
            },
            OrderSpan::with(at, args),
        ))
    }

    fn phase_line(&mut self, toks: &[Token], phase: R<u8>, used: usize) {
        let label = toks[0].span.to(toks[used - 1].span);
        let Section::Unit(u) = self.section else {
            if self.section == Section::Lost {
                return;
            }
            return self.d.push(
                Diagnostic::new(
                    Code::Misplaced,
                    label,
                    toks[0].text,
                    "a phase line belongs under a unit's heading",
                )
                .expected("a unit's heading first, such as A1"),
            );
        };
        let phase = match phase {
            Ok(p) => p,
            Err(mut d) => {
                d.line = label.line;
                d.column = label.column;
                d.length = label.length;
                return self.d.push(d);
            }
        };
        let items = lexer::pieces(&toks[used..]);
        if items.is_empty() {
            self.d.push(
                Diagnostic::new(
                    Code::EmptyPhase,
                    label,
                    toks[0].text,
                    format!("phase {phase} has nothing after its number"),
                )
                .expected("an order after the number, as 1: MOVE BUR"),
            );
        }
        let slot = self.phase_slot(u, phase, label);
        for p in items {
            self.phase_item(u, slot, phase, p);
        }
    }

    fn phase_slot(&mut self, u: usize, phase: u8, label: Span) -> usize {
        let plan = &mut self.orders.units[u].plan;
        match plan.binary_search_by_key(&phase, |p| p.phase) {
            Ok(i) => i,
            Err(i) => {
                plan.insert(
                    i,
                    PhasePlan {
                        phase,
                        ..PhasePlan::default()
                    },
                );
                self.spans.units[u].phases.insert(
                    i,
                    PhaseSpans {
                        label,
                        ..PhaseSpans::default()
                    },
                );
                i
            }
        }
    }

    fn phase_item(&mut self, u: usize, slot: usize, phase: u8, p: &[Token]) {
        let first = p[0];
        let at = whole(p);
        let word = first.upper();
        let kind = self.orders.units[u].unit.kind;
        let mut cur = Cur { t: p, i: 1 };
        if !first.is_word() {
            let d = self.unknown(first, PHASE_WORDS);
            return self.d.push(d);
        }
        let r: R<&'static str> = (|| match word.as_str() {
            "MOVE" | "SAIL" | "MARCH" => {
                cur.link();
                let (to, a) = self.location(&mut cur, &word)?;
                if let Err(d) = finish(&cur, &word) {
                    return Err(d.hint(format!(
                        "a unit makes one movement a phase: write the next one in phase {}",
                        phase.saturating_add(1)
                    )));
                }
                self.step(u, slot, phase, Step::Move(to), OrderSpan::with(at, vec![a]))?;
                Ok("MOVE")
            }
            "HOLD" => {
                cur.eat("POSITION");
                finish(&cur, "HOLD")?;
                self.step(u, slot, phase, Step::Hold, OrderSpan::new(at))?;
                Ok("HOLD")
            }
            "TRANSFER" => {
                let (t, s) = self.transfer(&mut cur, at)?;
                self.orders.units[u].plan[slot].transfers.push(t);
                self.spans.units[u].phases[slot].transfers.push(s);
                Ok("TRANSFER")
            }
            "PREPARE" => {
                cur.eat("TO");
                expect_word(&mut cur, &["BOARD"], "PREPARE TO BOARD")?;
                cur.link();
                let (k, a) = kingdom(&mut cur, "PREPARE TO BOARD")?;
                finish(&cur, "PREPARE TO BOARD")?;
                self.once_in_phase(u, slot, "PREPARE TO BOARD", at, |s| &s.prepare_board)?;
                self.orders.units[u].plan[slot].prepare_board = Some(k);
                self.spans.units[u].phases[slot].prepare_board = Some(OrderSpan::with(at, vec![a]));
                Ok("PREPARE")
            }
            "LOAD" => {
                let after = cur.eat("AFTER").is_some();
                let order = if after { "LOAD AFTER" } else { "LOAD" };
                let mut got = Vec::new();
                loop {
                    cur.skip_commas();
                    if cur.done() {
                        break;
                    }
                    let (k, id, a) = self.unit_of(&mut cur, order)?;
                    got.push((k, id, a));
                }
                if got.is_empty() {
                    return Err(missing(&cur, order, "the army to load, as A1 or BAV A1"));
                }
                for (k, id, a) in got {
                    let s = OrderSpan::with(a, vec![a]);
                    if after {
                        self.orders.units[u].plan[slot].load_after.push((k, id));
                        self.spans.units[u].phases[slot].load_after.push(s);
                    } else {
                        self.orders.units[u].plan[slot].load.push((k, id));
                        self.spans.units[u].phases[slot].load.push(s);
                    }
                }
                Ok(if after { "LOAD AFTER" } else { "LOAD" })
            }
            "UNLOAD" => {
                let mut got = Vec::new();
                loop {
                    cur.skip_commas();
                    if cur.done() || cur.peek().is_some_and(|t| LINKS.iter().any(|l| t.is(l))) {
                        break;
                    }
                    got.push(self.unit_of(&mut cur, "UNLOAD")?);
                }
                if got.is_empty() {
                    return Err(missing(&cur, "UNLOAD", "the army to unload, as A1 AT BRI"));
                }
                if cur.eat_any(LINKS).is_none() {
                    return Err(missing(&cur, "UNLOAD", "AT and the province, as AT BRI"));
                }
                let (to, pa) = self.location(&mut cur, "UNLOAD")?;
                finish(&cur, "UNLOAD")?;
                for (k, id, a) in got {
                    self.orders.units[u].plan[slot].unload.push((k, id, to));
                    self.spans.units[u].phases[slot]
                        .unload
                        .push(OrderSpan::with(a.to(pa), vec![a, pa]));
                }
                Ok("UNLOAD")
            }
            "DEFEND" => {
                cur.eat_any(&["FORTIFICATIONS", "FORTIFICATION", "FORT"]);
                let (on, a) = on_off(&mut cur, "DEFEND")?;
                finish(&cur, "DEFEND")?;
                self.once_in_phase(u, slot, "DEFEND", at, |s| &s.defend)?;
                self.orders.units[u].plan[slot].defend = Some(on);
                self.spans.units[u].phases[slot].defend = Some(OrderSpan::with(at, vec![a]));
                Ok("DEFEND")
            }
            "PILLAGE" => {
                finish(&cur, "PILLAGE")?;
                self.once_in_phase(u, slot, "PILLAGE", at, |s| &s.pillage)?;
                self.orders.units[u].plan[slot].pillage = true;
                self.spans.units[u].phases[slot].pillage = Some(OrderSpan::new(at));
                Ok("PILLAGE")
            }
            w if UNIT_WORDS.contains(&w) => Err(Diagnostic::new(
                Code::Misplaced,
                first.span,
                first.text,
                format!("{w} is given once a turn, not in a phase"),
            )
            .hint(format!(
                "write it on a line of its own under the unit, without a phase number: {w} …"
            ))),
            _ => Err(self.misplaced_or_unknown(first, Section::Unit(u))),
        })();
        match r {
            Ok(item) => self.step_order(u, kind, phase, item, first),
            Err(d) => self.d.push(d),
        }
    }

    fn step(&mut self, u: usize, slot: usize, phase: u8, step: Step, s: OrderSpan) -> R<()> {
        if let Some(first) = &self.spans.units[u].phases[slot].step {
            return Err(Diagnostic::new(
                Code::TwoMovements,
                s.at,
                "",
                format!(
                    "a second movement in phase {phase}: the unit already moves or holds on line {}",
                    first.at.line
                ),
            )
            .expected("one MOVE or HOLD a phase")
            .hint(format!("write the next movement in phase {}", phase.saturating_add(1))));
        }
        self.orders.units[u].plan[slot].step = Some(step);
        self.spans.units[u].phases[slot].step = Some(s);
        Ok(())
    }

    fn once_in_phase(
        &self,
        u: usize,
        slot: usize,
        what: &str,
        at: Span,
        get: impl Fn(&PhaseSpans) -> &Option<OrderSpan>,
    ) -> R<()> {
        let spans = &self.spans.units[u].phases[slot];
        match get(spans) {
            Some(first) => Err(Diagnostic::new(
                Code::Twice,
                at,
                what,
                format!(
                    "{what} is already given for phase {} on line {}",
                    self.orders.units[u].plan[slot].phase, first.at.line
                ),
            )
            .expected(format!("one {what} a phase"))),
            None => Ok(()),
        }
    }

    /// Warns when a phase's orders are written out of the order they happen in (3.2).
    fn step_order(&mut self, u: usize, kind: UnitKind, phase: u8, item: &'static str, t: Token) {
        let (rank, step) = step_rank(kind, item);
        let before = self.steps.get(&(u, phase)).copied();
        match before {
            Some((r, w, s)) if r > rank => {
                let hint = match item {
                    "LOAD" => {
                        "to load after the movement, write LOAD AFTER and the army (M9b, G12)"
                            .to_string()
                    }
                    "TRANSFER" => format!(
                        "transfers happen at the start of a phase; to transfer after moving, \
                         write it in phase {}",
                        phase.saturating_add(1)
                    ),
                    "MOVE" | "HOLD" if w == "UNLOAD" => {
                        "a fleet sails before it unloads; to unload where it is now, unload in an \
                         earlier phase"
                            .to_string()
                    }
                    _ => {
                        "a phase's orders always happen in the order of its steps (3.2)".to_string()
                    }
                };
                self.d.push(
                    Diagnostic::new(
                        Code::StepOrder,
                        t.span,
                        t.text,
                        format!(
                            "{item} is written after {w} but happens before it: step {step} \
                             comes before {s}"
                        ),
                    )
                    .hint(hint),
                );
            }
            Some((r, _, _)) if r >= rank => {}
            _ => {
                self.steps.insert((u, phase), (rank, item, step));
            }
        }
    }
}

/// A phase label at the start of a line: `2:`, `2.`, `2)` or a bare `2`, and how many
/// tokens it takes.
fn phase_label(toks: &[Token]) -> Option<(R<u8>, usize)> {
    let first = toks.first()?;
    let digits = first.text.trim_end_matches(['.', ')']);
    if !first.is_word() || digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let used = if toks.get(1).is_some_and(|t| t.kind == Kind::Colon) {
        2
    } else {
        1
    };
    let bad = |msg: String| {
        Diagnostic::new(Code::BadPhase, first.span, first.text, msg)
            .expected(format!("a phase from 1 to {MAX_PHASE}"))
    };
    let r = match digits.parse::<u64>() {
        Ok(0) => Err(
            bad("there is no phase 0: phases are numbered from 1".into()).hint(
                "a LOAD in phase 1 already happens before phase 1's movement (M3), which is what \
             the rulebook calls phase 0",
            ),
        ),
        Ok(n) if n <= u64::from(MAX_PHASE) => Ok(n as u8),
        _ => Err(bad(format!("phase {digits} is out of range"))),
    };
    Some((r, used))
}

/// A line that closes a proclamation: END, or END PROCLAMATION, and perhaps a comment.
fn is_end(line: &str) -> bool {
    let mut words = lexer::without_comment(line).split_whitespace();
    matches!(words.next(), Some(w) if w.eq_ignore_ascii_case("END"))
        && match words.next() {
            None => true,
            Some(w) => w.eq_ignore_ascii_case("PROCLAMATION") && words.next().is_none(),
        }
}

fn is_empty_phase(p: &PhasePlan) -> bool {
    *p == PhasePlan {
        phase: p.phase,
        ..PhasePlan::default()
    }
}

fn join(lines: &[&str]) -> String {
    let kept: Vec<&str> = lines.iter().map(|l| l.trim()).collect();
    kept.join("\n").trim().to_string()
}
