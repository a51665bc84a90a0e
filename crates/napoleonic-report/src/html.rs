//! The report as one self-contained HTML page: inline CSS, the map as inline SVG, no
//! scripts and nothing fetched. It reads on a 390-pixel phone (tables scroll sideways in
//! their boxes, the map scrolls in its own) and on a 1280-pixel screen, and prints.

use crate::model::{Amount, LocRef, MessageKind, Report, Seen, damage, step_name};
use napoleonic_rules::UnitKind;
use napoleonic_rules::state::{Relation, Status};
use std::fmt::Write;

/// Text with HTML's special characters escaped.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

// Class names stay clear of those the map's own style sheet uses (ml, ms, et, nb, mtn,
// reef, uh), for the map's SVG is inline and its styles apply to the whole page.
const STYLE: &str = r#"
:root{--ink:#2e2a24;--muted:#6b6255;--line:#ddd5c4;--accent:#8a2b1d;--bg:#f7f3ea;--card:#fffdf8;--own:#2451a6;--foreign:#b3261e}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
main{max-width:1240px;margin:0 auto;padding:12px}
header{border-bottom:3px double var(--ink);margin-bottom:8px}
header h1{font-size:1.35em;margin:.2em 0}
header p{margin:.1em 0;color:var(--muted)}
section{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:10px 0}
h2{font-size:1.05em;margin:.2em 0 .5em;text-transform:uppercase;letter-spacing:.04em;color:var(--accent)}
h3{font-size:.95em;margin:.7em 0 .2em}
table{border-collapse:collapse;width:100%;font-size:.92em}
th,td{text-align:left;padding:3px 6px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted)}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto}
.panel{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:6px 14px;margin:0;padding:0;list-style:none}
.panel li{border:1px solid var(--line);border-radius:4px;padding:6px 8px;background:#fff}
.panel .lbl{display:block;color:var(--muted);font-size:.85em}
.panel .val{display:block;font-size:1.5em;font-weight:700;font-variant-numeric:tabular-nums}
.panel .ex{display:block;color:var(--muted);font-size:.8em}
.panel li.short{border-color:var(--foreign);background:#fdeeee}
.panel li.short .val{color:var(--foreign)}
.note{color:var(--muted);font-size:.88em;margin:.4em 0}
.war{color:var(--foreign);font-weight:600}
.ally{color:#1e6b2e;font-weight:600}
.fail{color:var(--foreign);font-weight:600}
.warn{color:#9a5b00;font-weight:600}
.you{font-weight:700}
.chip{display:inline-block;min-width:2.4em;padding:0 .4em;border-radius:3px;color:#fff;font-weight:600;text-align:center;font-variant-numeric:tabular-nums}
.chip.own{background:var(--own)}
.chip.foreign{background:var(--foreign)}
.unitcard{border-top:1px solid var(--line);padding:6px 0}
.unitcard:first-of-type{border-top:none}
.unitcard h3{margin:.1em 0}
.unitcard p{margin:.2em 0}
ul.evs{margin:.2em 0 .6em;padding-left:1.2em}
ul.evs li{margin:.15em 0}
ul.evs li.sub{list-style:none;margin-left:1.2em}
ul.evs li.s-own::marker{color:var(--own)}
ul.evs li.s-nearby::marker{color:var(--foreign)}
div.battle{margin:.2em 0 .8em}
div.battle p{margin:.1em 0}
div.battle p.sub{margin-left:1.5em}
div.battle p.round{font-weight:bold;margin-top:.6em;border-top:1px solid var(--line);padding-top:.3em}
.tag{display:inline-block;font-size:.75em;color:var(--muted);border:1px solid var(--line);border-radius:3px;padding:0 .3em;margin-left:.3em}
blockquote{margin:.3em 0 .8em;padding:.2em .8em;border-left:3px solid var(--line);white-space:pre-wrap}
.mapview{overflow:auto;border:1px solid var(--line);background:#f4efe2}
.mapview svg{display:block;width:100%;height:auto;min-width:900px}
table.wide{min-width:620px}
@media (max-width:600px){main{padding:6px}section{padding:6px 8px}table{font-size:.86em}th,td{padding:2px 4px}.panel{grid-template-columns:1fr 1fr}.panel .val{font-size:1.25em}}
@media print{body{background:#fff}section{border:none;padding:0;break-inside:avoid}.mapview{overflow:visible;border:none}.mapview svg{min-width:0}}
"#;

/// The page: the report, with the map's SVG (from [`crate::draw::MapDrawer::svg`]) if
/// given.
pub fn html(r: &Report, map_svg: Option<&str>) -> String {
    let mut o = String::with_capacity(64 * 1024 + map_svg.map_or(0, str::len));
    let title = format!("{} ({}), turn {} - {}", r.name, r.kingdom, r.turn, r.game);
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n",
        esc(&title)
    );
    header(r, &mut o);
    headquarters(r, &mut o);
    messages(r, &mut o);
    if let Some(svg) = map_svg {
        o.push_str("<section class=\"mapsec\">\n<h2>Map</h2>\n<div class=\"mapview\">\n");
        o.push_str(svg.trim_end());
        o.push_str(
            "\n</div>\n<p class=\"note\">Provinces in their owners' colours, independents \
             grey, yours outlined. Blue tags are your troops, red tags everyone else's: the \
             count, and the figure of the most valuable type. On a narrow screen the map \
             scrolls sideways.</p>\n</section>\n",
        );
    }
    relations(r, &mut o);
    provinces(r, &mut o);
    units(r, &mut o);
    forces(r, &mut o);
    events(r, &mut o);
    battles(r, &mut o);
    proclamations(r, &mut o);
    owners(r, &mut o);
    o.push_str("</main>\n</body>\n</html>\n");
    o
}

fn status(s: Status) -> &'static str {
    match s {
        Status::Commoner => "Commoner",
        Status::Royalty => "Royalty",
    }
}

fn loc(l: &LocRef) -> String {
    format!(
        "{} <span class=\"tag\">{}</span>",
        esc(&l.name),
        esc(&l.code)
    )
}

fn header(r: &Report, o: &mut String) {
    let _ = write!(
        o,
        "<header>\n<h1>{} <span class=\"tag\">{}</span></h1>\n<p>{}: {}; \
         orders now for turn {}. Status: {}{}.</p>\n</header>\n",
        esc(&r.name),
        esc(r.kingdom.as_str()),
        esc(&r.game),
        crate::model::what_of(r),
        r.next_turn,
        status(r.status),
        if r.alive { "" } else { ", defeated" }
    );
}

fn headquarters(r: &Report, o: &mut String) {
    let h = &r.headquarters;
    o.push_str("<section class=\"hq\">\n<h2>Headquarters</h2>\n<ul class=\"panel\">\n");
    let (hq, garrison) = h.breakdown();
    let item = |o: &mut String, label: &str, a: &Amount, short: bool| {
        let mut exact = if a.exact == a.shown.to_string() {
            String::new()
        } else {
            format!("<span class=\"ex\">exactly {}</span>", esc(&a.exact))
        };
        let parts = match label {
            "HQ expenses" => &hq,
            "Garrison expenses" => &garrison,
            _ => "",
        };
        if !parts.is_empty() {
            let _ = write!(exact, "<span class=\"ex\">{}</span>", esc(parts));
        }
        let _ = writeln!(
            o,
            "<li{}><span class=\"lbl\">{}</span><span class=\"val\">{}</span>{exact}</li>",
            if short { " class=\"short\"" } else { "" },
            esc(label),
            a.shown
        );
    };
    item(o, "Treasury", &h.treasury, false);
    item(o, "Upkeep", &h.upkeep, false);
    item(o, "HQ expenses", &h.hq_expenses, false);
    item(o, "Garrison expenses", &h.garrison_expenses, false);
    let short = h.expected_surplus.is_negative();
    item(
        o,
        if short {
            "Expected shortfall"
        } else {
            "Expected surplus"
        },
        &h.expected_surplus,
        short,
    );
    item(
        o,
        "Expected revenue (next season)",
        &h.expected_revenue,
        false,
    );
    o.push_str("</ul>\n");
    let _ = writeln!(
        o,
        "<p class=\"note\">Whole gold, cut short as the old client showed it (keep 2 gold \
         spare). Annexed provinces: {} of {} allowed.{}</p>",
        r.annexed,
        r.annex_limit,
        if h.with_orders {
            ""
        } else {
            " No orders for the coming turn came with this report, so both expenses are zero."
        }
    );
    o.push_str("</section>\n");
}

fn messages(r: &Report, o: &mut String) {
    o.push_str("<section class=\"msgs\">\n<h2>Messages</h2>\n");
    if r.messages.is_empty() {
        o.push_str("<p class=\"note\">None.</p>\n");
    } else {
        o.push_str("<ul class=\"evs\">\n");
        for m in &r.messages {
            let (class, word) = match m.kind {
                MessageKind::Failure => ("fail", "Failed"),
                MessageKind::Warning => ("warn", "Warning"),
                MessageKind::Notice => ("", "Note"),
            };
            let _ = writeln!(
                o,
                "<li><span class=\"{class}\">{word}:</span> {}</li>",
                esc(&m.text)
            );
        }
        o.push_str("</ul>\n");
    }
    o.push_str("</section>\n");
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn relations(r: &Report, o: &mut String) {
    o.push_str("<section class=\"rel\">\n<h2>Relations</h2>\n");
    if r.relations.is_empty() {
        o.push_str("<p class=\"note\">No other kingdoms.</p>\n</section>\n");
        return;
    }
    o.push_str(
        "<div class=\"scroll\"><table class=\"wide\">\n<thead><tr><th>Kingdom</th><th>Relation</th>\
         <th>Passage you gave</th><th>Passage they gave</th><th>You accept gifts</th>\
         <th>They accept gifts</th></tr></thead>\n<tbody>\n",
    );
    for k in &r.relations {
        let (class, word) = match k.relation {
            Relation::Neutral => ("", "neutral"),
            Relation::Ally => ("ally", "ally"),
            Relation::War => ("war", "war"),
        };
        let mut perm = String::new();
        for (what, v) in [
            ("special permission you gave", &k.permission_to_them),
            ("special permission they gave", &k.permission_from_them),
        ] {
            if !v.is_empty() {
                let codes: Vec<&str> = v.iter().map(|l| l.code.as_str()).collect();
                let _ = write!(
                    perm,
                    "<br><small>{what}: {}</small>",
                    esc(&codes.join(", "))
                );
            }
        }
        let _ = writeln!(
            o,
            "<tr><td>{} <span class=\"tag\">{}</span>{}{perm}</td><td class=\"{class}\">{word}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&k.name),
            esc(k.kingdom.as_str()),
            if k.alive { "" } else { " (defeated)" },
            yes(k.passage_to_them),
            yes(k.passage_from_them),
            yes(k.we_accept_gifts),
            yes(k.they_accept_gifts)
        );
    }
    o.push_str(
        "</tbody></table></div>\n<p class=\"note\">The independents are at war with \
         every kingdom.</p>\n</section>\n",
    );
}

fn provinces(r: &Report, o: &mut String) {
    o.push_str("<section class=\"prov\">\n<h2>Provinces</h2>\n");
    if r.provinces.is_empty() {
        o.push_str("<p class=\"note\">None.</p>\n</section>\n");
        return;
    }
    o.push_str(
        "<div class=\"scroll\"><table class=\"wide\">\n<thead><tr><th>Province</th><th class=\"n\">Revenue</th>\
         <th class=\"n\">Now</th><th>Damage</th><th>Fortification</th><th>Harbour</th>\
         <th>City</th><th>Notes</th></tr></thead>\n<tbody>\n",
    );
    for p in &r.provinces {
        let fort = p.fortification.as_ref().map_or("-".to_string(), |f| {
            if f.damage > 0 {
                format!("{} {} (damage {})", f.level, esc(&f.name), f.damage)
            } else {
                format!("{} {}", f.level, esc(&f.name))
            }
        });
        let city = p.city.as_ref().map_or("-".to_string(), |c| {
            let b: Vec<&str> = c.builds.iter().map(|t| t.0.as_str()).collect();
            format!(
                "{}<br><small>builds {} (up to {} a turn)</small>",
                esc(&c.name),
                esc(&b.join(" ")),
                c.max_builds
            )
        });
        let mut notes: Vec<String> = Vec::new();
        if p.capital {
            notes.push("capital".into());
        }
        if p.starting {
            notes.push("starting".into());
        }
        if p.owner != r.kingdom {
            notes.push(format!(
                "held by {} for {} turn(s)",
                esc(p.owner.as_str()),
                p.decline
            ));
        } else if p.annexed_to != r.kingdom {
            notes.push(format!("not annexed ({})", esc(p.annexed_to.as_str())));
        }
        if !p.permissions.is_empty() {
            let w: Vec<&str> = p.permissions.iter().map(|k| k.as_str()).collect();
            notes.push(format!("permission: {}", esc(&w.join(", "))));
        }
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td>\
             <td>{fort}</td><td>{}</td><td>{city}</td><td>{}</td></tr>",
            loc(&p.location),
            esc(&p.revenue.exact),
            esc(&p.revenue_now.exact),
            damage(p.damage),
            yes(p.harbour),
            notes.join(", ")
        );
    }
    o.push_str("</tbody></table></div>\n</section>\n");
}

fn units(r: &Report, o: &mut String) {
    o.push_str("<section class=\"units\">\n<h2>Units</h2>\n");
    if r.units.is_empty() {
        o.push_str("<p class=\"note\">None.</p>\n");
    }
    for u in &r.units {
        let _ = write!(
            o,
            "<div class=\"unitcard\">\n<h3>{} {} <span class=\"tag\">in {}</span>{}</h3>\n",
            u.id,
            esc(&u.name),
            loc(&u.location),
            u.aboard.as_ref().map_or(String::new(), |f| format!(
                " <span class=\"tag\">aboard {}</span>",
                esc(f)
            ))
        );
        let mut facts = vec![format!("{} troops", u.troop_count)];
        if u.kind != UnitKind::Garrison {
            facts.push(format!("MP {}", u.mp));
            facts.push(format!("retreats at rank {}", u.retreat_level));
        }
        if let Some(f) = u.follow {
            facts.push(format!("follows {f}"));
        }
        if u.marines {
            facts.push("boards enemy ships".into());
        }
        if u.kind == UnitKind::Army {
            facts.push(if u.defend_forts {
                "defends fortifications".into()
            } else {
                "stays outside fortifications".into()
            });
        }
        facts.push(format!("upkeep {}", esc(&u.upkeep.exact)));
        facts.push(format!("total combat {}", u.total_combat));
        let _ = writeln!(o, "<p>{}</p>", facts.join(" · "));
        if !u.troops.is_empty() || !u.leaders.is_empty() {
            o.push_str(
                "<div class=\"scroll\"><table>\n<thead><tr><th>Rank</th><th>Troops</th>\
                 <th class=\"n\">Count</th><th>Wounded</th></tr></thead>\n<tbody>\n",
            );
            for t in &u.troops {
                let wounded = if t.wounded > 0 {
                    format!("{} (damage {})", t.wounded, esc(&t.damage))
                } else {
                    "-".into()
                };
                let _ = writeln!(
                    o,
                    "<tr><td>{}</td><td>{} <span class=\"tag\">{}</span></td><td class=\"n\">{}</td><td>{wounded}</td></tr>",
                    t.rank,
                    esc(&t.name),
                    esc(&t.code.0),
                    t.count
                );
            }
            for l in &u.leaders {
                let _ = writeln!(
                    o,
                    "<tr><td>5</td><td>Leader {}{}<br><small>HP {}, combat {}×{}, tactics: \
                     infantry {}, cavalry {}, siege {}, naval {}; upkeep {}</small></td>\
                     <td class=\"n\">1</td><td>{}</td></tr>",
                    esc(&l.name),
                    if l.unit_leader { " (unit leader)" } else { "" },
                    esc(&l.hp),
                    l.combat,
                    l.attacks,
                    l.infantry,
                    l.cavalry,
                    l.siege,
                    l.naval,
                    esc(&l.upkeep.exact),
                    if l.damage == "0" {
                        "-".to_string()
                    } else {
                        esc(&l.damage)
                    }
                );
            }
            o.push_str("</tbody></table></div>\n");
        }
        o.push_str("</div>\n");
    }
    o.push_str("</section>\n");
}

fn forces(r: &Report, o: &mut String) {
    o.push_str("<section class=\"forces\">\n<h2>Forces on the map</h2>\n");
    o.push_str(
        "<p class=\"note\">What everyone sees: the troops (and leaders) in each location and \
         the most valuable type there. The make-up of foreign forces is not known.</p>\n",
    );
    let mut rows: Vec<(&crate::model::Force, bool)> = r
        .own_forces
        .iter()
        .map(|f| (f, true))
        .chain(r.foreign_forces.iter().map(|f| (f, false)))
        .collect();
    rows.sort_by_key(|a| (a.0.location.id, !a.1));
    if rows.is_empty() {
        o.push_str("<p class=\"note\">None.</p>\n</section>\n");
        return;
    }
    o.push_str(
        "<div class=\"scroll\"><table>\n<thead><tr><th>Location</th><th class=\"n\">Troops</th>\
         <th>Most valuable</th><th>Kingdoms</th></tr></thead>\n<tbody>\n",
    );
    for (f, own) in rows {
        let k: Vec<&str> = f.kingdoms.iter().map(|k| k.as_str()).collect();
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td class=\"n\"><span class=\"chip {}\">{}</span></td><td>{}</td><td>{}</td></tr>",
            loc(&f.location),
            if own { "own" } else { "foreign" },
            f.count,
            f.top
                .as_ref()
                .map_or("leaders".to_string(), |t| esc(&t.name)),
            esc(&k.join(" "))
        );
    }
    o.push_str("</tbody></table></div>\n</section>\n");
}

fn events(r: &Report, o: &mut String) {
    o.push_str("<section class=\"events\">\n<h2>Events of the turn</h2>\n");
    if r.events.is_empty() {
        o.push_str("<p class=\"note\">Nothing you could see happened.</p>\n</section>\n");
        return;
    }
    let mut step: Option<&str> = None;
    for e in &r.events {
        if step != Some(e.step.as_str()) {
            if step.is_some() {
                o.push_str("</ul>\n");
            }
            step = Some(e.step.as_str());
            let _ = writeln!(o, "<h3>{}</h3>\n<ul class=\"evs\">", esc(&e.step));
        }
        let (class, tag) = match e.seen {
            Seen::Own => ("s-own", "yours"),
            Seen::Nearby => ("s-nearby", "nearby"),
            Seen::Diplomacy => ("s-dip", "diplomacy"),
            Seen::Public => ("s-pub", "known to all"),
        };
        let _ = writeln!(
            o,
            "<li class=\"{class}\">{} <span class=\"tag\">{tag}</span></li>",
            esc(&e.text)
        );
    }
    o.push_str("</ul>\n</section>\n");
}

fn battles(r: &Report, o: &mut String) {
    if r.battles.is_empty() {
        return;
    }
    o.push_str("<section class=\"battles\">\n<h2>Battle reports</h2>\n");
    for b in &r.battles {
        let (head, rest) = match b.lines.split_first() {
            Some((h, rest)) => (h.as_str(), rest),
            None => ("A battle", &b.lines[..]),
        };
        let _ = writeln!(
            o,
            "<h3>{} <span class=\"tag\">{}</span> <span class=\"tag\">{}</span></h3>",
            esc(head),
            esc(&step_name(b.when)),
            if b.took_part {
                "you fought"
            } else {
                "seen from nearby"
            }
        );
        if !rest.is_empty() {
            // The report reads as the old battle report did, line by line (4.8); each
            // round starts under a rule of its own so that a long battle can be followed.
            o.push_str("<div class=\"battle\">\n");
            for l in rest {
                let class = if l.starts_with(' ') {
                    " class=\"sub\""
                } else if l.starts_with("The events for Round") {
                    " class=\"round\""
                } else {
                    ""
                };
                let _ = writeln!(o, "<p{class}>{}</p>", esc(l.trim_start()));
            }
            o.push_str("</div>\n");
        }
    }
    o.push_str("</section>\n");
}

fn proclamations(r: &Report, o: &mut String) {
    if r.proclamations.is_empty() {
        return;
    }
    o.push_str("<section class=\"procs\">\n<h2>Proclamations</h2>\n");
    for p in &r.proclamations {
        let earned = p.income.as_ref().map_or(String::new(), |a| {
            format!(" <span class=\"tag\">earned {}</span>", esc(&a.exact))
        });
        let _ = writeln!(
            o,
            "<h3>{} <span class=\"tag\">{}</span>{earned}</h3>\n<blockquote>{}</blockquote>",
            esc(&p.name),
            esc(p.kingdom.as_str()),
            esc(&p.text)
        );
    }
    o.push_str("</section>\n");
}

fn owners(r: &Report, o: &mut String) {
    o.push_str("<section class=\"owners\">\n<h2>Who owns what</h2>\n<ul class=\"evs\">\n");
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
        let _ = writeln!(
            o,
            "<li{}>{} <span class=\"tag\">{}</span> ({}): {}</li>",
            if k.code == r.kingdom {
                " class=\"you\""
            } else {
                ""
            },
            esc(&k.name),
            esc(k.code.as_str()),
            k.provinces,
            esc(&codes.join(" "))
        );
    }
    o.push_str("</ul>\n</section>\n");
}
