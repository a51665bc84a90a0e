//! Checking a turnsheet against the game as the empire knows it: codes that exist, boxes
//! that fit each action (13.4), number formats (6.3), adjacency, and orders that are legal
//! but probably wrong.

use crate::diag::{Code, Diagnostic};
use crate::sheet::{Label, ParsedAction, ParsedSheet, Token};
use crate::spec::{Field, Number, Place, in_variant, shape, spec};
use crate::suggest;
use empires_rules::EmpireCode;
use empires_rules::map::{AreaId, Map};
use empires_rules::order::{Quantity, Verb};
use empires_rules::state::GameState;
use std::collections::BTreeSet;

/// Dark Age precedent: the roundup prints PHONE and EMAIL lines of at most these lengths.
const PHONE_MAX: usize = 28;
const EMAIL_MAX: usize = 34;

/// The game a turnsheet is checked against.
pub struct Context<'a> {
    pub map: &'a Map,
    pub state: &'a GameState,
    pub empire: EmpireCode,
}

impl Context<'_> {
    fn limit(&self) -> u32 {
        self.state
            .empire(self.empire)
            .and_then(|e| e.actions_per_turn)
            .unwrap_or(self.state.options.actions_per_turn)
    }

    fn owns(&self, a: AreaId) -> bool {
        self.state.area(a).owner == Some(self.empire)
    }
}

/// What earlier lines of the sheet have done, for the warnings that depend on order.
#[derive(Default)]
struct SoFar {
    reserve_locked: Option<&'static str>,
    recover_locked: Option<&'static str>,
    fleet_locked: BTreeSet<AreaId>,
    grown: BTreeSet<AreaId>,
    built: BTreeSet<AreaId>,
    attacked: BTreeSet<AreaId>,
    /// Areas that may have received supply trains earlier in the turn.
    supplied: BTreeSet<AreaId>,
    has_spy: bool,
    spy_at: Option<AreaId>,
}

/// Checks a parsed sheet; returns every diagnostic, reading ones included, in line order.
pub fn check(sheet: &ParsedSheet, cx: &Context) -> Vec<Diagnostic> {
    let mut out = sheet.diagnostics.clone();
    header(sheet, cx, &mut out);
    let spy = cx.state.empire(cx.empire).and_then(|e| e.spy.as_ref());
    let mut so_far = SoFar {
        has_spy: spy.is_some(),
        spy_at: spy.and_then(|s| cx.map.id(s.area)),
        ..SoFar::default()
    };
    let limit = cx.limit();
    let mut labels = Labels::default();
    for (i, a) in sheet.actions.iter().enumerate() {
        let slot = i as u32 + 1;
        if let Some(l) = &a.label {
            labels.check(a, l, slot, limit, &mut out);
        }
        if a.blank {
            continue;
        }
        if slot > limit {
            out.push(
                Diagnostic::new(
                    Code::TooManyActions,
                    a.line,
                    a.verb_token.column,
                    &a.text,
                    format!("action {slot} is beyond the {limit} actions a turn and will be ignored (2.6)"),
                )
                .expected(format!("at most {limit} actions")),
            );
        }
        if let Some(verb) = a.verb {
            action(a, verb, slot == limit, cx, &mut so_far, &mut out);
        }
    }
    for (contact, max, what) in [
        (&sheet.phone, PHONE_MAX, "PHONE"),
        (&sheet.email, EMAIL_MAX, "EMAIL"),
    ] {
        if let Some(c) = contact.as_ref().filter(|c| c.value.chars().count() > max) {
            out.push(
                Diagnostic::new(
                    Code::LongContact,
                    c.line,
                    c.column,
                    &c.value,
                    format!("a {what} line over {max} characters will be cut short in the roundup"),
                )
                .expected(format!("at most {max} characters")),
            );
        }
    }
    out.sort_by_key(|d| (d.line, d.column, d.code));
    out
}

/// 2.6: an action's number is a label; its place on the sheet decides its round. A label
/// that says otherwise, repeats, or goes beyond the actions a turn is probably a slip.
#[derive(Default)]
struct Labels {
    seen: BTreeSet<u32>,
    /// The last label out of place: how far off it was, and its warning in the list. The
    /// lines after it that are off by as much (one stray line shifts them all) are told in
    /// that one warning rather than each in its own.
    shifted: Option<(i64, usize, u32)>,
}

impl Labels {
    fn check(
        &mut self,
        a: &ParsedAction,
        l: &Label,
        slot: u32,
        limit: u32,
        out: &mut Vec<Diagnostic>,
    ) {
        let diag = |msg: String, expected: String| {
            Diagnostic::new(Code::NumberLabel, a.line, l.column, &l.text, msg).expected(expected)
        };
        let off = i64::from(slot) - i64::from(l.number);
        if off != 0
            && let Some((run, at, more)) = self.shifted.as_mut()
            && *run == off
        {
            *more += 1;
            let d = &mut out[*at];
            let first = d.message.split(';').next().unwrap_or_default().to_string();
            let rounds = match off.abs() {
                1 => "one round".to_string(),
                n => format!("{n} rounds"),
            };
            d.message = format!(
                "{first}; so are the {more} numbered lines after it, each played {rounds} {} than its number says (2.6)",
                if off > 0 { "later" } else { "earlier" }
            );
            self.seen.insert(l.number);
            return;
        }
        self.shifted = None;
        self.label(diag, l, slot, limit, off, out);
    }

    fn label(
        &mut self,
        diag: impl Fn(String, String) -> Diagnostic,
        l: &Label,
        slot: u32,
        limit: u32,
        off: i64,
        out: &mut Vec<Diagnostic>,
    ) {
        let seen = &mut self.seen;
        if !seen.insert(l.number) {
            out.push(diag(
                format!("action number {} is written twice", l.number),
                "each action numbered once".into(),
            ));
        } else if l.number > limit {
            out.push(diag(
                format!(
                    "action number {} is beyond the {limit} actions a turn (2.6)",
                    l.number
                ),
                format!("numbers 1 to {limit}"),
            ));
        } else if l.number != slot {
            self.shifted = Some((off, out.len(), 0));
            out.push(diag(
            format!(
                "this line is numbered {} but is action {slot} on the sheet; it is played in round {slot} (2.6)",
                l.number
            ),
            format!("{slot}, or no number"),
        ));
        }
    }
}

/// 2.7: the turn number on a turnsheet is the next turn; and the sheet is the empire's own.
fn header(sheet: &ParsedSheet, cx: &Context, out: &mut Vec<Diagnostic>) {
    let next = cx.state.turn + 1;
    if let Some(t) = &sheet.turn
        && t.value.trim().parse::<u32>().ok() != Some(next)
    {
        out.push(
            Diagnostic::new(
                Code::WrongTurn,
                t.line,
                t.column,
                &t.value,
                format!(
                    "this turnsheet is for turn {}, but the next turn is {next}",
                    t.value
                ),
            )
            .expected(format!("TURN {next}")),
        );
    }
    if let Some(e) = &sheet.empire
        && !e.value.trim().eq_ignore_ascii_case(cx.empire.as_str())
    {
        out.push(
            Diagnostic::new(
                Code::WrongEmpire,
                e.line,
                e.column,
                &e.value,
                format!("this turnsheet is for {}, not {}", e.value, cx.empire),
            )
            .expected(format!("EMPIRE {}", cx.empire)),
        );
    }
}

/// A box's meaning once checked.
enum Resolved {
    Blank,
    Area(AreaId),
    Empire,
    Bad,
}

fn area_of(r: &Resolved) -> Option<AreaId> {
    match r {
        Resolved::Area(a) => Some(*a),
        _ => None,
    }
}

fn action(
    a: &ParsedAction,
    verb: Verb,
    last: bool,
    cx: &Context,
    so_far: &mut SoFar,
    out: &mut Vec<Diagnostic>,
) {
    let sp = spec(verb);
    let at =
        |code: Code, t: &Token, msg: String| Diagnostic::new(code, a.line, t.column, &t.text, msg);
    if let Err(why) = in_variant(verb, cx.state.variant) {
        out.push(at(Code::NotInVariant, &a.verb_token, why));
        return;
    }
    // The other box's area guides suggestions for a misspelt one.
    let hint_from = a.to.as_ref().and_then(|t| cx.map.find(&t.text));
    let hint_to = a.from.as_ref().and_then(|t| cx.map.find(&t.text));
    let from = field(a, verb, sp.from, &a.from, "WHERE", hint_from, cx, out);
    let to = field(a, verb, sp.to, &a.to, "WHERE-TO", hint_to, cx, out);
    if verb == Verb::Find {
        match (&from, &to) {
            (Resolved::Blank, Resolved::Blank) => out.push(
                at(
                    Code::MissingBox,
                    &a.verb_token,
                    "FIND needs an area or an empire (9.3)".into(),
                )
                .expected("`FIND WHERE` or `FIND - EMPIRE`"),
            ),
            (Resolved::Area(_), Resolved::Empire) => {
                let t = a.to.as_ref().unwrap_or(&a.verb_token);
                out.push(
                    at(
                        Code::TooManyBoxes,
                        t,
                        "FIND takes an area or an empire, not both (9.3)".into(),
                    )
                    .expected("`FIND WHERE` or `FIND - EMPIRE`"),
                )
            }
            _ => {}
        }
    }
    number(a, verb, sp.number, last, out);
    let (f, t) = (area_of(&from), area_of(&to));
    adjacency(a, verb, f, t, cx, so_far, out);
    warnings(a, verb, f, t, cx, so_far, out);
}

/// Checks one place or empire box against what the action expects.
#[allow(clippy::too_many_arguments)]
fn field(
    a: &ParsedAction,
    verb: Verb,
    expect: Field,
    token: &Option<Token>,
    name: &str,
    near: Option<AreaId>,
    cx: &Context,
    out: &mut Vec<Diagnostic>,
) -> Resolved {
    let Some(t) = token else {
        let required = matches!(
            expect,
            Field::Area { required: true, .. } | Field::Empire { required: true }
        );
        if required {
            out.push(
                Diagnostic::new(
                    Code::MissingBox,
                    a.line,
                    a.verb_token.column,
                    &a.verb_token.text,
                    format!("{verb} needs its {name} box filled in"),
                )
                .expected(format!("`{}`", shape(verb))),
            );
        }
        return Resolved::Blank;
    };
    let diag = |code: Code, msg: String| Diagnostic::new(code, a.line, t.column, &t.text, msg);
    if !t.text.chars().all(|c| c.is_ascii_alphanumeric()) {
        // Already reported while reading the line.
        return Resolved::Bad;
    }
    match expect {
        Field::Unused => {
            out.push(
                diag(
                    Code::UnusedBox,
                    format!("{verb} does not use this box; `{}` will be ignored", t.text),
                )
                .expected(format!("`{}`", shape(verb))),
            );
            Resolved::Blank
        }
        Field::Empire { .. } => match EmpireCode::parse(&t.text)
            .ok()
            .filter(|c| cx.state.empire(*c).is_some())
        {
            Some(_) => Resolved::Empire,
            None => {
                out.push(
                    diag(
                        Code::UnknownEmpire,
                        format!("`{}` is not an empire in this game", t.text),
                    )
                    .expected("a two-letter empire code")
                    .suggest(suggest::empires(cx.state, &t.text)),
                );
                Resolved::Bad
            }
        },
        Field::Area { place, .. } => {
            let Some(id) = cx.map.find(&t.text) else {
                out.push(
                    diag(
                        Code::UnknownArea,
                        format!("`{}` is not an area on this map", t.text),
                    )
                    .expected("a three-character area code")
                    .suggest(suggest::areas(cx.map, &t.text, near, |a| cx.owns(a))),
                );
                return Resolved::Bad;
            };
            let sea = cx.map.area(id).is_sea();
            let wrong = match place {
                Place::Land if sea => Some("a land area"),
                Place::Sea if !sea => Some("a sea area"),
                _ => None,
            };
            if let Some(want) = wrong {
                out.push(
                    diag(
                        Code::WrongKindOfArea,
                        format!(
                            "{} is {}, but {verb} needs {want} here",
                            cx.map.code(id),
                            if sea { "a sea area" } else { "a land area" }
                        ),
                    )
                    .expected(want.to_string()),
                );
                return Resolved::Bad;
            }
            Resolved::Area(id)
        }
    }
}

/// Checks the number box against the formats the action takes (6.3).
fn number(a: &ParsedAction, verb: Verb, expect: Number, last: bool, out: &mut Vec<Diagnostic>) {
    let at = |code: Code, msg: String| match &a.number_token {
        Some(t) => Diagnostic::new(code, a.line, t.column, &t.text, msg),
        None => Diagnostic::new(code, a.line, a.verb_token.column, &a.verb_token.text, msg),
    };
    let written = a.number_token.as_ref().is_some_and(|t| t.text != "-");
    match (expect, a.number) {
        (Number::Unused, _) if written => out.push(
            at(
                Code::UnusedBox,
                format!("{verb} takes no number; it will be ignored"),
            )
            .expected(format!("`{}`", shape(verb))),
        ),
        (Number::Definite, Quantity::All) => out.push(
            at(
                Code::NumberNotAllowed,
                format!("{verb} needs a number; blank (all) is not allowed for it"),
            )
            .expected("a number"),
        ),
        (Number::Definite | Number::DefiniteOrAll | Number::Order, Quantity::AllBut(_)) => out
            .push(
                at(
                    Code::NumberNotAllowed,
                    format!("{verb} does not take ALL BUT"),
                )
                .expected(if expect == Number::Definite {
                    "a number"
                } else {
                    "a number, or blank for all"
                }),
            ),
        (Number::Order, Quantity::All) if !last => out.push(
            at(
                Code::OrderIgnored,
                "ORDER with no number is ignored unless it is your last action (6.2)".into(),
            )
            .expected("a number of BPs"),
        ),
        _ => {}
    }
}

/// Areas that must touch, and SPY/SKIP against where the spy is.
fn adjacency(
    a: &ParsedAction,
    verb: Verb,
    from: Option<AreaId>,
    to: Option<AreaId>,
    cx: &Context,
    so_far: &SoFar,
    out: &mut Vec<Diagnostic>,
) {
    let needs_adjacent = matches!(
        verb,
        Verb::Move
            | Verb::Attack
            | Verb::Entrench
            | Verb::Ambush
            | Verb::Retreat
            | Verb::Base
            | Verb::Wagons
            | Verb::Unload
    ) || (matches!(verb, Verb::Seamove | Verb::Convoy)
        && from.is_some_and(|f| cx.map.area(f).is_sea())
        && to.is_some_and(|t| cx.map.area(t).is_sea()));
    let spy_move = matches!(verb, Verb::Spy | Verb::Skip);
    let start = if spy_move {
        from.or(so_far.spy_at)
    } else {
        from
    };
    let (Some(f), Some(t)) = (start, to) else {
        return;
    };
    let Some(tok) = a.to.as_ref() else { return };
    let adjacent = cx.map.adjacent(f, t);
    if needs_adjacent && !adjacent {
        out.push(
            Diagnostic::new(
                Code::NotAdjacent,
                a.line,
                tok.column,
                &tok.text,
                format!("{} is not next to {}", cx.map.code(t), cx.map.code(f)),
            )
            .expected(format!("an area next to {}", cx.map.code(f)))
            .suggest(
                cx.map
                    .neighbours(f)
                    .iter()
                    .filter(|n| suggest::distance(&tok.text, cx.map.code(**n).as_str()) <= 2)
                    .take(3)
                    .map(|n| format!("{} ({})", cx.map.code(*n), cx.map.area(*n).name))
                    .collect(),
            ),
        );
    }
    if verb == Verb::Spy && !adjacent && f != t {
        out.push(
            Diagnostic::new(
                Code::NotAdjacent,
                a.line,
                tok.column,
                &tok.text,
                format!(
                    "{} is not next to {}: a spy goes there by sea with SKIP (9.2)",
                    cx.map.code(t),
                    cx.map.code(f)
                ),
            )
            .expected(format!("an area next to {}, or SKIP", cx.map.code(f)))
            .suggest(vec![format!("SKIP - {}", cx.map.code(t))]),
        );
    }
    if verb == Verb::Skip && adjacent {
        out.push(
            Diagnostic::new(
                Code::SkipAdjacent,
                a.line,
                a.verb_token.column,
                &a.verb_token.text,
                format!(
                    "{} is next to {}: SPY goes there by land at no cost (9.2)",
                    cx.map.code(t),
                    cx.map.code(f)
                ),
            )
            .expected("SPY for a move to an adjacent area"),
        );
    }
}

/// Orders that are legal but probably not what the player wants.
fn warnings(
    a: &ParsedAction,
    verb: Verb,
    from: Option<AreaId>,
    to: Option<AreaId>,
    cx: &Context,
    so_far: &mut SoFar,
    out: &mut Vec<Diagnostic>,
) {
    let warn =
        |code: Code, t: &Token, msg: String| Diagnostic::new(code, a.line, t.column, &t.text, msg);
    let vt = &a.verb_token;
    if verb == Verb::Move
        && let Some(t) = to
    {
        // Armies moving in bring trains along (S.7).
        so_far.supplied.insert(t);
    }
    match verb {
        Verb::Move => {
            if let (Some(t), Some(tok)) = (to, &a.to)
                && cx.map.area(t).is_land()
                && !cx.owns(t)
                && !so_far.attacked.contains(&t)
            {
                out.push(
                    warn(
                        Code::MoveIntoForeignArea,
                        tok,
                        format!(
                            "you do not own {}: MOVE will fail there; ATTACK takes an area (7.1)",
                            cx.map.code(t)
                        ),
                    )
                    .expected("an area you own")
                    .suggest(vec![format!(
                        "ATTACK {}",
                        a.text
                            .split_whitespace()
                            .skip(1)
                            .collect::<Vec<_>>()
                            .join(" ")
                    )]),
                );
            }
        }
        Verb::Gather | Verb::Send | Verb::Wagons | Verb::Unload => {
            if let Some(a) = if verb == Verb::Gather { from } else { to } {
                so_far.supplied.insert(a);
            }
        }
        Verb::Attack => {
            if let Some(f) = from
                && cx.state.variant.has_supply()
                && cx.map.area(f).is_land()
                && cx.state.area(f).trains == 0
                && !so_far.supplied.contains(&f)
                && let Some(tok) = &a.from
            {
                out.push(
                    warn(
                        Code::AttackWithoutTrains,
                        tok,
                        format!(
                            "there are no supply trains in {}: a land attack needs one (S.6)",
                            cx.map.code(f)
                        ),
                    )
                    .expected("GATHER, SEND, WAGONS or UNLOAD trains there first"),
                );
            }
            if let Some(t) = to {
                so_far.attacked.insert(t);
                if cx.owns(t)
                    && let Some(tok) = &a.to
                {
                    out.push(
                        warn(Code::AttackOwnArea, tok, format!("you own {}: ATTACK will fail there; MOVE takes armies into your own areas (7.1)", cx.map.code(t)))
                            .expected("an area you do not own"),
                    );
                }
            }
        }
        Verb::Army | Verb::Disband => so_far.reserve_locked = Some(verb.name()),
        Verb::Reserve => {
            if let Some(v) = so_far.reserve_locked {
                out.push(
                    warn(
                        Code::ReserveAfterArmy,
                        vt,
                        format!("RESERVE after {v} in the same turn will fail (5.5)"),
                    )
                    .expected("RESERVE actions before any ARMY or DISBAND"),
                );
            }
        }
        Verb::Navy | Verb::Close => so_far.recover_locked = Some(verb.name()),
        Verb::Build | Verb::Recover => {
            if verb == Verb::Recover
                && let Some(v) = so_far.recover_locked
            {
                out.push(
                    warn(
                        Code::RecoverAfterNavy,
                        vt,
                        format!("RECOVER after {v} in the same turn will fail (5.13)"),
                    )
                    .expected("RECOVER actions before any NAVY or CLOSE"),
                );
            }
            if let Some(b) = from {
                if verb == Verb::Build && !so_far.built.insert(b) {
                    out.push(warn(
                        Code::OncePerTurn,
                        vt,
                        format!(
                            "the base in {} can BUILD only once a turn; this one will fail (5.10)",
                            cx.map.code(b)
                        ),
                    ));
                }
                so_far.fleet_locked.insert(b);
            }
        }
        Verb::Fleet => {
            if let Some(b) = from.filter(|b| so_far.fleet_locked.contains(b)) {
                out.push(
                    warn(
                        Code::FleetAfterBuild,
                        vt,
                        format!(
                            "FLEET in {} after BUILD or RECOVER there this turn will fail (5.14)",
                            cx.map.code(b)
                        ),
                    )
                    .expected("FLEET before BUILD and RECOVER in the same base"),
                );
            }
        }
        Verb::Grow => {
            if let Some(g) = from.filter(|g| !so_far.grown.insert(*g)) {
                out.push(warn(
                    Code::OncePerTurn,
                    vt,
                    format!(
                        "{} can GROW only once a turn; this one will fail (5.9)",
                        cx.map.code(g)
                    ),
                ));
            }
        }
        Verb::Spy | Verb::Skip => {
            if !so_far.has_spy && a.from.is_none() {
                out.push(
                    warn(Code::RecruitWithoutFrom, vt, "you have no spy: give an area you own as \"where from\" to recruit one (9.2, 13.3)".to_string())
                        .expected(format!("`{verb} WHERE WHERE-TO`")),
                );
            }
            if so_far.has_spy || a.from.is_some() {
                so_far.has_spy = true;
                so_far.spy_at = to;
            }
        }
        Verb::Watch | Verb::Sabotage => {
            so_far.has_spy = false;
            so_far.spy_at = None;
        }
        _ => {}
    }
}
