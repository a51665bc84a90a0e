//! The print-ready text report: 80 columns of plain ASCII, laid out like a classic
//! play-by-mail report, with the next turnsheet attached at the end.

use crate::model::*;
use std::fmt::Write;

const WIDTH: usize = 80;

/// Plain ASCII: accented letters lose their accents, anything else becomes `?`.
pub fn ascii(s: &str) -> String {
    if s.is_ascii() {
        return s.to_string();
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
    out
}

/// Wraps `text` to `width`: the first line starts with `head` (kept exactly, spacing and
/// all), the others are indented by `indent` spaces.
fn wrap(head: &str, text: &str, width: usize, indent: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = head.to_string();
    let mut fresh = true;
    for word in text.split_whitespace() {
        if !fresh && line.len() + 1 + word.len() > width {
            lines.push(std::mem::replace(&mut line, " ".repeat(indent)));
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line.push_str(word);
        fresh = false;
    }
    lines.push(line);
    lines
}

struct Out(String);

impl Out {
    /// A paragraph, keeping its leading spaces; continuation lines indented 4 more.
    fn line(&mut self, s: &str) {
        let s = ascii(s);
        let lead = s.len() - s.trim_start().len();
        self.hang(&s[..lead], s.trim_start(), lead + 4);
    }
    /// `head` as written, then `text` wrapped with a hanging indent.
    fn hang(&mut self, head: &str, text: &str, indent: usize) {
        for l in wrap(&ascii(head), &ascii(text), WIDTH, indent) {
            let _ = writeln!(self.0, "{}", l.trim_end());
        }
    }
    fn raw(&mut self, s: &str) {
        let _ = writeln!(self.0, "{}", ascii(s).trim_end());
    }
    fn blank(&mut self) {
        self.0.push('\n');
    }
    fn heading(&mut self, s: &str) {
        self.blank();
        self.raw(s);
        self.raw(&"-".repeat(s.len()));
    }
}

/// "1 army", "2 armies".
fn n(k: u32, one: &str, many: &str) -> String {
    format!("{k} {}", if k == 1 { one } else { many })
}

fn opt(o: &Option<String>) -> &str {
    o.as_deref().unwrap_or("-")
}

/// Renders a report as text. `actions_per_turn` numbers the blank turnsheet.
pub fn render(r: &Report, actions_per_turn: u32) -> String {
    render_with(r, actions_per_turn, &shared_sections(r))
}

/// The roundup, actions report and messages: the same text in every report of a turn.
pub fn shared_sections(r: &Report) -> String {
    let mut o = Out(String::with_capacity(16 * 1024));
    roundup(&mut o, r);
    actions_report(&mut o, r);
    messages(&mut o, r);
    o.0
}

/// Renders a report with its shared sections already rendered by [`shared_sections`].
pub fn render_with(r: &Report, actions_per_turn: u32, shared: &str) -> String {
    let mut o = Out(String::with_capacity(8 * 1024 + shared.len()));
    let rule = "=".repeat(WIDTH);
    o.raw(&rule);
    let title = format!("Turn {} report", r.turn);
    o.raw(&format!(
        " EMPIRES{}{title}",
        " ".repeat(WIDTH - 9 - title.len())
    ));
    o.raw(&format!(" Game: {} ({} Empires)", r.game, r.variant));
    let who = format!(" Empire: {} {}", r.empire.code, r.empire.name);
    let player = format!(
        "Player: {}",
        r.empire.player.as_deref().unwrap_or("(computer)")
    );
    let pad = WIDTH.saturating_sub(who.len() + player.len() + 1).max(1);
    o.raw(&format!("{who}{}{player}", " ".repeat(pad)));
    o.raw(&rule);
    if let Some(t) = r.empire.eliminated {
        o.line(&format!(
            "*** {} was eliminated on turn {t}. ***",
            r.empire.name
        ));
    }
    if r.computer_written {
        o.line("Your orders for this turn were written by the computer (rule 2.5).");
    }
    actions(&mut o, r);
    against(&mut o, r);
    economy(&mut o, r);
    areas(&mut o, r);
    fleets_and_spies(&mut o, r);
    scouting(&mut o, r);
    o.0.push_str(shared);
    turnsheet(&mut o, r, actions_per_turn);
    o.0
}

fn actions(o: &mut Out, r: &Report) {
    o.heading(&format!("YOUR ACTIONS, TURN {}", r.turn));
    if r.actions.is_empty() {
        o.line("  No actions.");
    }
    for a in &r.actions {
        let status = match a.status.as_str() {
            "done" => "ok",
            "cut_down" => "CUT",
            "failed" => "FAILED",
            _ => "IGNORED",
        };
        let mut text = a.result.clone();
        if let Some(reason) = &a.reason {
            if text.is_empty() {
                text = reason.clone();
            } else {
                text = format!("{text} ({reason})");
            }
        }
        let spent = if a.spent > 0 {
            format!(" [{}]", n(a.spent, "BP", "BPs"))
        } else {
            String::new()
        };
        let head = format!("{:>3} {:<22} {:<7} ", a.slot, a.order, status);
        o.hang(&head, &format!("{text}{spent}"), 35);
    }
}

fn against(o: &mut Out, r: &Report) {
    if r.against_you.is_empty() {
        return;
    }
    o.heading("*** DONE TO YOU ***");
    for h in &r.against_you {
        let when = if h.round == 0 {
            "end".to_string()
        } else {
            format!("round {}", h.round)
        };
        o.hang("  ", &format!("** {when}: {} **", h.text), 5);
    }
}

fn economy(o: &mut Out, r: &Report) {
    let e = &r.economy;
    o.heading("ECONOMY");
    o.raw(&format!(
        "  Income {:>6}    Supply costs {:>5}    BPs for turn {:<3} {:>5}",
        e.income, e.supply_cost, r.next_turn, e.bps
    ));
    o.raw(&format!(
        "  Treasury {:>4}    Victory points {:>3}    Army reserve {:>9}",
        e.treasury, e.vps, e.army_reserve
    ));
    let air = e.air_force.map_or("-".to_string(), |a| a.to_string());
    o.raw(&format!(
        "  Navy reserve {:>2}    Air force {:>8}",
        e.navy_reserve, air
    ));
    if let Some(s) = &r.supply {
        o.raw(&format!(
            "  Supply capacity {}    Capital {}",
            s.capacity,
            opt(&s.capital)
        ));
    }
    let mut unspent = Vec::new();
    if e.cash_returned > 0 {
        unspent.push(format!(
            "{} went back to the treasury",
            n(e.cash_returned, "BP", "BPs")
        ));
    }
    if e.leftover_trains > 0 {
        unspent.push(format!(
            "{} built in the capital",
            n(e.leftover_trains, "supply train", "supply trains")
        ));
    }
    if e.leftover_armies > 0 {
        unspent.push(format!(
            "{} built for the reserve",
            n(e.leftover_armies, "army", "armies")
        ));
    }
    if e.order_bid > 0 {
        unspent.push(format!(
            "{} bid for the order of play",
            n(e.order_bid, "BP", "BPs")
        ));
    }
    if !unspent.is_empty() {
        o.line(&format!("  Unspent BPs: {}.", unspent.join("; ")));
    }
    if !e.supply_by_area.is_empty() {
        let parts: Vec<String> = e
            .supply_by_area
            .iter()
            .map(|c| format!("{} {}", c.area, c.cost))
            .collect();
        o.hang(
            "  ",
            &format!(
                "Supply costs by area: {}; reserves {}.",
                parts.join(", "),
                e.reserves_supply
            ),
            4,
        );
    }
    for d in &e.dispersals {
        o.line(&format!(
            "  ** DISPERSAL in {}: {}{} returned to the reserve **",
            d.area,
            n(d.armies, "army", "armies"),
            if d.ships > 0 {
                format!(" and {}", n(d.ships, "ship", "ships"))
            } else {
                String::new()
            }
        ));
    }
    if let Some(v) = e.census_vps {
        o.line(&format!(
            "  CENSUS: you scored {v} VPs for your populated areas."
        ));
    }
}

fn areas(o: &mut Out, r: &Report) {
    o.heading("AREAS OWNED");
    let euro = r.supply.is_some();
    // European reports add two columns and give up some of the name.
    let name_width = if euro { 12 } else { 19 };
    o.raw(&format!(
        "  Code {:<w$} Terrain    Pop Arm Frt Defence   Rtr Cost Base{}",
        "Name",
        if euro { "       Trn Src" } else { "" },
        w = name_width
    ));
    for a in &r.areas {
        let defence = match &a.against {
            Some(t) => format!("{} {t}", &a.defence[..3]),
            None => a.defence.clone(),
        };
        let base = a.base.as_ref().map_or("-".to_string(), |b| {
            format!("{} {}/{}", b.entrance, b.ships, b.laid_up)
        });
        let mut line = format!(
            "  {:<4} {:<w$} {:<10}{:>4}{:>4}{:>4} {:<9} {:<3}{:>5} {:<10}",
            a.code,
            truncate(&ascii(&a.name), name_width),
            a.terrain,
            a.population,
            a.armies,
            a.forts,
            defence,
            opt(&a.retreat_to),
            a.supply_cost,
            base,
            w = name_width
        );
        if euro {
            line.push_str(&format!(
                " {:>3} {}",
                a.trains.unwrap_or(0),
                a.supply_source.as_deref().unwrap_or("-")
            ));
        }
        o.raw(&line);
    }
    let owned = r.areas.iter().filter(|a| a.population > 0).count();
    o.raw(&format!(
        "  {} areas, {owned} with population.",
        r.areas.len()
    ));
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

fn fleets_and_spies(o: &mut Out, r: &Report) {
    if !r.fleets.is_empty() {
        o.heading("FLEETS AT SEA");
        o.raw("  Area Ships Armies Base Distance");
        for f in &r.fleets {
            o.raw(&format!(
                "  {:<4}{:>6}{:>7} {:<4} {}",
                f.area,
                f.ships,
                f.armies,
                opt(&f.base),
                f.distance
                    .map_or("no route to base".to_string(), |d| d.to_string())
            ));
        }
    }
    if r.spy.is_some() || !r.watchers.is_empty() {
        o.heading("SPIES");
        if let Some(s) = &r.spy {
            o.line(&format!("  Your spy is in {s}."));
        }
        if !r.watchers.is_empty() {
            o.line(&format!("  Your watchers: {}.", r.watchers.join(", ")));
        }
    }
}

fn scouting(o: &mut Out, r: &Report) {
    if r.scouting.is_empty() {
        return;
    }
    o.heading("SCOUTING (as at the end of the turn)");
    o.raw("  Code Name             Owner  Pop Arm Frt Ships             Seen by");
    for s in &r.scouting {
        let ships = match (&s.fleet, s.base_ships) {
            (Some(f), _) => format!("{} {}s {}a", f.owner, f.ships, f.armies),
            (None, Some(b)) => format!("base {b}"),
            (None, None) => "-".to_string(),
        };
        let sea = s.terrain == "sea";
        let (pop, arm, frt) = if sea {
            ("-".to_string(), "-".to_string(), "-".to_string())
        } else {
            (
                s.population.to_string(),
                s.armies.to_string(),
                s.forts.to_string(),
            )
        };
        // Seen by: B border, F fleet, S spy, W watcher, A one of your actions.
        let seen: String = s
            .seen_by
            .iter()
            .filter_map(|w| w.chars().next())
            .map(|c| c.to_ascii_uppercase())
            .collect();
        o.raw(&format!(
            "  {:<4} {:<16} {:<5}{:>4}{:>4}{:>4} {:<17} {}",
            s.code,
            truncate(&ascii(&s.name), 16),
            opt(&s.owner),
            pop,
            arm,
            frt,
            ships,
            seen
        ));
    }
    o.raw("  Seen by: B border, F fleet, S spy, W watcher, A one of your actions.");
}

fn roundup(o: &mut Out, r: &Report) {
    let ru = &r.roundup;
    o.heading("ROUNDUP");
    o.hang(
        "  ",
        &format!(
            "Order of play for turn {}: {}",
            r.next_turn,
            ru.order_of_play.join(" ")
        ),
        4,
    );
    o.line(&format!("  The leader has {} VPs.", ru.leader_score));
    if let Some(w) = &ru.warning {
        o.line(&format!(
            "  !!! WARNING: {} has met the {} victory condition ({} VPs). The game may end at the next census. !!!",
            w.empire, w.condition, w.vps
        ));
    }
    if let Some(g) = &ru.game_over {
        o.line(&format!(
            "  *** GAME OVER: {} wins a {} victory with {} VPs on turn {}. ***",
            g.empire, g.condition, g.vps, g.turn
        ));
    }
    o.blank();
    o.raw("  Code Empire               Player           Areas  Treasury  Reserve");
    for e in &ru.empires {
        let player = match (e.eliminated, &e.player) {
            (Some(t), _) => format!("(out, turn {t})"),
            (None, Some(p)) => p.clone(),
            (None, None) => "(dummy)".to_string(),
        };
        o.raw(&format!(
            "  {:<4} {:<20} {:<16}{:>6}{:>10}{:>9}",
            e.code,
            truncate(&ascii(&e.name), 20),
            truncate(&ascii(&player), 16),
            e.areas.len(),
            e.treasury,
            e.army_reserve
        ));
    }
    o.blank();
    for e in ru.empires.iter().filter(|e| !e.areas.is_empty()) {
        o.hang(&format!("  {}: ", e.code), &e.areas.join(" "), 6);
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
            o.line(&c);
        }
    }
}

fn actions_report(o: &mut Out, r: &Report) {
    o.heading("ACTIONS REPORT");
    if r.actions_report.is_empty() {
        o.line("  A quiet turn.");
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
        o.hang(&format!("  {when}  "), &text, 8);
    }
}

fn messages(o: &mut Out, r: &Report) {
    if r.messages.is_empty() {
        return;
    }
    o.heading("MESSAGES");
    for m in r.messages.iter() {
        o.hang(&format!("  From {}: ", m.from), &m.text, 6);
    }
}

fn turnsheet(o: &mut Out, r: &Report, actions: u32) {
    o.blank();
    o.raw(&"=".repeat(WIDTH));
    o.raw(&format!(
        " TURNSHEET FOR TURN {}    (one action per line: VERB WHERE WHERE-TO NUMBER)",
        r.next_turn
    ));
    o.raw(&"=".repeat(WIDTH));
    o.raw(&format!("GAME {}", r.game));
    o.raw(&format!("TURN {}", r.next_turn));
    o.raw(&format!("EMPIRE {}", r.empire.code));
    o.blank();
    for i in 1..=actions {
        o.raw(&format!("{i}."));
    }
    o.blank();
    o.raw("MESSAGES");
}
