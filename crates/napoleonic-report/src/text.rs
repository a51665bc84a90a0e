//! The report as plain text, 78 columns wide, printable as it is: the Headquarters panel,
//! relations, provinces, units, the forces on the map, who owns what, the turn's events,
//! battles, proclamations and messages. Every line is at most [`WIDTH`] characters; long
//! names are cut and long sentences wrapped.

use crate::model::{Amount, MessageKind, Report, Seen, damage};
use napoleonic_rules::state::{Relation, Status};
use std::fmt::Write;

/// The width of every line.
pub const WIDTH: usize = 78;

/// A space that [`wrap`] never breaks a line at ("6 LIN" stays together); printed as a
/// plain space.
pub const NBSP: char = '\u{a0}';

/// The report as text.
pub fn text(r: &Report) -> String {
    let mut o = Out::default();
    header(r, &mut o);
    headquarters(r, &mut o);
    relations(r, &mut o);
    provinces(r, &mut o);
    units(r, &mut o);
    forces(r, &mut o);
    owners(r, &mut o);
    events(r, &mut o);
    battles(r, &mut o);
    proclamations(r, &mut o);
    messages(r, &mut o);
    o.0
}

#[derive(Default)]
struct Out(String);

impl Out {
    /// One line, cut to the width if a caller got it wrong.
    fn line(&mut self, s: &str) {
        let s = cut(s.trim_end(), WIDTH).replace(NBSP, " ");
        self.0.push_str(&s);
        self.0.push('\n');
    }

    fn blank(&mut self) {
        self.0.push('\n');
    }

    /// A paragraph wrapped to the width: the first line after `first`, the rest after
    /// `rest` (indents).
    fn wrap(&mut self, first: &str, rest: &str, text: &str) {
        for l in wrap(text, first, rest, WIDTH) {
            self.line(&l);
        }
    }

    fn section(&mut self, title: &str) {
        self.blank();
        self.line(&title.to_uppercase());
        self.line(&"-".repeat(title.chars().count().min(WIDTH)));
    }
}

/// Text cut to `w` characters, ending in "~" when cut.
pub fn cut(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        return s.to_string();
    }
    let mut out: String = s.chars().take(w.saturating_sub(1)).collect();
    out.push('~');
    out
}

/// Text cut or padded to exactly `w` characters.
fn pad(s: &str, w: usize) -> String {
    let s = cut(s, w);
    let n = s.chars().count();
    format!("{s}{}", " ".repeat(w - n))
}

/// Right-aligned in `w` characters.
fn right(s: &str, w: usize) -> String {
    let s = cut(s, w);
    let n = s.chars().count();
    format!("{}{s}", " ".repeat(w - n))
}

/// Words wrapped into lines at most `width` wide, the first after `first`, the others
/// after `rest`; a word longer than a line is split. Words are parted by plain spaces,
/// tabs and newlines, never by [`NBSP`].
pub fn wrap(text: &str, first: &str, rest: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = first.to_string();
    let mut empty = true;
    let indent = |lines: &Vec<String>| if lines.is_empty() { first } else { rest };
    for word in text
        .split([' ', '\t', '\n', '\r'])
        .filter(|w| !w.is_empty())
    {
        let mut word: String = word.to_string();
        loop {
            let have = cur.chars().count();
            let need = word.chars().count() + usize::from(!empty);
            if have + need <= width {
                if !empty {
                    cur.push(' ');
                }
                cur.push_str(&word);
                empty = false;
                break;
            }
            if empty {
                // The word alone is too long for a line: split it.
                let room = width.saturating_sub(have).max(1);
                let head: String = word.chars().take(room).collect();
                let tail: String = word.chars().skip(room).collect();
                cur.push_str(&head);
                lines.push(std::mem::take(&mut cur));
                cur = indent(&lines).to_string();
                word = tail;
                if word.is_empty() {
                    break;
                }
                continue;
            }
            lines.push(std::mem::take(&mut cur));
            cur = indent(&lines).to_string();
            empty = true;
        }
    }
    if !empty || lines.is_empty() {
        lines.push(cur);
    }
    lines
}

fn status(s: Status) -> &'static str {
    match s {
        Status::Commoner => "Commoner",
        Status::Royalty => "Royalty",
    }
}

fn relation(r: Relation) -> &'static str {
    match r {
        Relation::Neutral => "neutral",
        Relation::Ally => "ally",
        Relation::War => "war",
    }
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn header(r: &Report, o: &mut Out) {
    o.line(&"=".repeat(WIDTH));
    o.wrap(
        "",
        "  ",
        &format!(
            "NAPOLEONIC EMPIRES - {}, {}",
            r.game,
            crate::model::what_of(r)
        ),
    );
    o.wrap(
        "",
        "  ",
        &format!(
            "{} ({}), {}{}; orders now for turn {}",
            r.name,
            r.kingdom,
            status(r.status),
            if r.alive { "" } else { ", defeated" },
            r.next_turn
        ),
    );
    o.line(&"=".repeat(WIDTH));
}

fn headquarters(r: &Report, o: &mut Out) {
    let h = &r.headquarters;
    o.section("Headquarters");
    let row = |o: &mut Out, label: &str, a: &Amount| {
        let exact = if a.exact == a.shown.to_string() {
            String::new()
        } else {
            format!("  (exactly {})", a.exact)
        };
        o.line(&format!(
            "  {} {}{exact}",
            pad(&format!("{label} "), 40).replace("  ", " ."),
            right(&a.shown.to_string(), 8)
        ));
    };
    row(o, "Treasury", &h.treasury);
    row(o, "Upkeep", &h.upkeep);
    row(o, "HQ expenses", &h.hq_expenses);
    row(o, "Garrison expenses", &h.garrison_expenses);
    let label = if h.expected_surplus.is_negative() {
        "Expected SHORTFALL"
    } else {
        "Expected surplus"
    };
    row(o, label, &h.expected_surplus);
    row(o, "Expected revenue (next season)", &h.expected_revenue);
    let (hq, garrison) = h.breakdown();
    if !hq.is_empty() {
        o.wrap("  ", "    ", &format!("HQ expenses: {hq}."));
    }
    if !garrison.is_empty() {
        o.wrap("  ", "    ", &format!("Garrison expenses: {garrison}."));
    }
    if !h.with_orders {
        o.wrap(
            "  ",
            "  ",
            "No orders for the coming turn were given with this report: the expenses \
             are those of no orders at all.",
        );
    }
    o.wrap(
        "  ",
        "  ",
        &format!(
            "Whole gold, cut short as the old client showed it; keep 2 gold spare. \
             Annexed provinces: {} of {} allowed.",
            r.annexed, r.annex_limit
        ),
    );
}

fn relations(r: &Report, o: &mut Out) {
    o.section("Relations");
    if r.relations.is_empty() {
        o.line("  No other kingdoms.");
        return;
    }
    o.line(&format!(
        "  {} {} {} {}",
        pad("Kingdom", 30),
        pad("Relation", 9),
        pad("Passage out/in", 15),
        "Gifts in/out"
    ));
    for k in &r.relations {
        let name = format!(
            "{} {}{}",
            k.kingdom,
            k.name,
            if k.alive { "" } else { " (defeated)" }
        );
        o.line(&format!(
            "  {} {} {} {}",
            pad(&name, 30),
            pad(relation(k.relation), 9),
            pad(
                &format!("{} / {}", yes(k.passage_to_them), yes(k.passage_from_them)),
                15
            ),
            format_args!("{} / {}", yes(k.we_accept_gifts), yes(k.they_accept_gifts))
        ));
        let perm = |v: &[crate::model::LocRef]| {
            v.iter()
                .map(|l| l.code.clone())
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !k.permission_to_them.is_empty() {
            o.wrap(
                "      ",
                "      ",
                &format!(
                    "Special permission you gave them: {}",
                    perm(&k.permission_to_them)
                ),
            );
        }
        if !k.permission_from_them.is_empty() {
            o.wrap(
                "      ",
                "      ",
                &format!(
                    "Special permission they gave you: {}",
                    perm(&k.permission_from_them)
                ),
            );
        }
    }
    o.wrap(
        "  ",
        "  ",
        "Passage out: rights you granted them; in: rights they granted you. Gifts in: \
         you accept theirs; out: they accept yours. Independents are at war with all.",
    );
}

fn provinces(r: &Report, o: &mut Out) {
    o.section("Provinces");
    if r.provinces.is_empty() {
        o.line("  None.");
        return;
    }
    o.line(&format!(
        "  {} {} {} {} {} {}",
        pad("Province", 24),
        right("Rev", 5),
        right("Now", 6),
        pad("Damage", 7),
        pad("Fortification", 20),
        "Harbour"
    ));
    for p in &r.provinces {
        let fort = p.fortification.as_ref().map_or("-".to_string(), |f| {
            if f.damage > 0 {
                format!("{} {} (dmg {})", f.level, f.name, f.damage)
            } else {
                format!("{} {}", f.level, f.name)
            }
        });
        o.line(&format!(
            "  {} {} {} {} {} {}",
            pad(&format!("{} {}", p.location.code, p.location.name), 24),
            right(&p.revenue.exact, 5),
            right(&p.revenue_now.exact, 6),
            pad(damage(p.damage), 7),
            pad(&fort, 20),
            if p.harbour { "yes" } else { "-" }
        ));
        let mut notes: Vec<String> = Vec::new();
        if p.capital {
            notes.push("capital".into());
        }
        if p.starting {
            notes.push("starting province".into());
        }
        if p.owner != r.kingdom {
            notes.push(format!(
                "held by {} for {} turn(s): retake it before the annexation lapses",
                p.owner, p.decline
            ));
        } else if p.annexed_to != r.kingdom {
            notes.push(format!("not annexed (annexed to {})", p.annexed_to));
        }
        if let Some(c) = &p.city {
            let builds: Vec<String> = c.builds.iter().map(|b| b.to_string()).collect();
            notes.push(format!(
                "city {}: builds {} (up to {} a turn)",
                c.name,
                if builds.is_empty() {
                    "nothing".to_string()
                } else {
                    builds.join(" ")
                },
                c.max_builds
            ));
        }
        if !p.permissions.is_empty() {
            let who: Vec<String> = p.permissions.iter().map(|k| k.to_string()).collect();
            notes.push(format!("special permission: {}", who.join(", ")));
        }
        if !notes.is_empty() {
            o.wrap("      ", "      ", &notes.join("; "));
        }
    }
}

fn units(r: &Report, o: &mut Out) {
    o.section("Units");
    if r.units.is_empty() {
        o.line("  None.");
        return;
    }
    for u in &r.units {
        let aboard = u
            .aboard
            .as_ref()
            .map_or(String::new(), |f| format!(", aboard {f}"));
        o.wrap(
            "  ",
            "      ",
            &format!(
                "{} {} - in {} ({}){aboard}",
                u.id, u.name, u.location.name, u.location.code
            ),
        );
        let mut facts = vec![format!("{} troops", u.troop_count)];
        if u.kind != napoleonic_rules::UnitKind::Garrison {
            facts.push(format!("MP {}", u.mp));
            facts.push(format!("retreats at rank {}", u.retreat_level));
        }
        if let Some(f) = u.follow {
            facts.push(format!("follows {f}"));
        }
        if u.marines {
            facts.push("boards enemy ships".into());
        }
        if u.kind == napoleonic_rules::UnitKind::Army {
            facts.push(if u.defend_forts {
                "defends fortifications".into()
            } else {
                "stays outside fortifications".into()
            });
        }
        facts.push(format!("upkeep {}", u.upkeep.exact));
        facts.push(format!("total combat {}", u.total_combat));
        o.wrap("      ", "      ", &facts.join(", "));
        let mut rank = 0;
        let mut parts: Vec<String> = Vec::new();
        let flush = |o: &mut Out, rank: u8, parts: &mut Vec<String>| {
            if !parts.is_empty() {
                o.wrap(
                    "      ",
                    "              ",
                    &format!("Rank {rank}: {}", parts.join(", ")),
                );
                parts.clear();
            }
        };
        for t in &u.troops {
            if t.rank != rank {
                flush(o, rank, &mut parts);
                rank = t.rank;
            }
            let mut s = format!("{}{NBSP}{}{NBSP}({})", t.count, t.code, t.name);
            if t.wounded > 0 {
                let _ = write!(s, " [{} wounded, damage {}]", t.wounded, t.damage);
            }
            parts.push(s);
        }
        flush(o, rank, &mut parts);
        for l in &u.leaders {
            let mut s = format!(
                "Leader {}{}: HP {}, combat {} x{}, tactics infantry {} cavalry {} \
                 siege {} naval {}, upkeep {}",
                l.name,
                if l.unit_leader { " (unit leader)" } else { "" },
                l.hp,
                l.combat,
                l.attacks,
                l.infantry,
                l.cavalry,
                l.siege,
                l.naval,
                l.upkeep.exact
            );
            if l.damage != "0" {
                let _ = write!(s, ", wounded {}", l.damage);
            }
            o.wrap("      ", "              ", &s);
        }
    }
}

fn forces(r: &Report, o: &mut Out) {
    o.section("Forces on the map");
    o.wrap(
        "  ",
        "  ",
        "Troops (and leaders) in each location, with the most valuable type there: \
         what the map's miniatures show to everyone.",
    );
    if r.own_forces.is_empty() && r.foreign_forces.is_empty() {
        o.line("  None.");
        return;
    }
    o.line(&format!(
        "  {} {} {} {} {}",
        pad("Location", 24),
        pad("Whose", 8),
        right("Count", 5),
        pad("Most valuable", 18),
        "Kingdoms"
    ));
    let mut rows: Vec<(&crate::model::Force, bool)> = r
        .own_forces
        .iter()
        .map(|f| (f, true))
        .chain(r.foreign_forces.iter().map(|f| (f, false)))
        .collect();
    rows.sort_by_key(|a| (a.0.location.id, !a.1));
    for (f, own) in rows {
        let kingdoms: Vec<String> = f.kingdoms.iter().map(|k| k.to_string()).collect();
        o.line(&format!(
            "  {} {} {} {} {}",
            pad(&format!("{} {}", f.location.code, f.location.name), 24),
            pad(if own { "yours" } else { "foreign" }, 8),
            right(&f.count.to_string(), 5),
            pad(f.top.as_ref().map_or("leaders", |t| t.name.as_str()), 18),
            cut(&kingdoms.join(" "), 18)
        ));
    }
}

fn owners(r: &Report, o: &mut Out) {
    o.section("Who owns what");
    for k in &r.kingdoms {
        let codes: Vec<&str> = r
            .owners
            .iter()
            .filter(|p| p.owner == k.code)
            .map(|p| p.code.as_str())
            .collect();
        if codes.is_empty() && !k.alive {
            continue;
        }
        let you = if k.code == r.kingdom { ", you" } else { "" };
        o.wrap(
            "  ",
            "      ",
            &format!(
                "{} {} ({}{you}): {}",
                k.code,
                k.name,
                k.provinces,
                if codes.is_empty() {
                    "-".to_string()
                } else {
                    codes.join(" ")
                }
            ),
        );
    }
}

fn events(r: &Report, o: &mut Out) {
    o.section("Events of the turn");
    if r.events.is_empty() {
        o.line("  Nothing you could see happened.");
        return;
    }
    let mut step = String::new();
    for e in &r.events {
        if e.step != step {
            step = e.step.clone();
            o.wrap("  ", "    ", &step);
        }
        let mark = match e.seen {
            Seen::Own => "*",
            Seen::Nearby => "+",
            Seen::Diplomacy => "=",
            Seen::Public => "-",
        };
        o.wrap(&format!("    {mark} "), "      ", &e.text);
    }
    o.wrap(
        "  ",
        "  ",
        "* yours   + nearby   = diplomacy   - known to all",
    );
}

fn battles(r: &Report, o: &mut Out) {
    if r.battles.is_empty() {
        return;
    }
    o.section("Battle reports");
    for b in &r.battles {
        let how = if b.took_part {
            "you fought"
        } else {
            "seen from nearby"
        };
        o.blank();
        o.wrap(
            "  ",
            "    ",
            &format!("{} ({how}):", crate::model::step_name(b.when)),
        );
        for l in &b.lines {
            let sub = l.len() - l.trim_start().len();
            let first = format!("    {}", " ".repeat(sub));
            let rest = format!("      {}", " ".repeat(sub));
            o.wrap(&first, &rest, l.trim_start());
        }
    }
}

fn proclamations(r: &Report, o: &mut Out) {
    if r.proclamations.is_empty() {
        return;
    }
    o.section("Proclamations");
    for p in &r.proclamations {
        let earned = p
            .income
            .as_ref()
            .map_or(String::new(), |a| format!(" (earned {})", a.exact));
        o.wrap("  ", "    ", &format!("{} {}{earned}:", p.kingdom, p.name));
        o.wrap("    ", "    ", &p.text);
    }
}

fn messages(r: &Report, o: &mut Out) {
    o.section("Messages");
    if r.messages.is_empty() {
        o.line("  None.");
    }
    for m in &r.messages {
        let mark = match m.kind {
            MessageKind::Failure => "FAILED",
            MessageKind::Warning => "WARNING",
            MessageKind::Notice => "NOTE",
        };
        o.wrap(&format!("  {mark}: "), "      ", &m.text);
    }
    o.blank();
    o.line(&"=".repeat(WIDTH));
}
