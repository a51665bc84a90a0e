//! The printed order sheet of a kingdom: its header filled in, a short reminder of the
//! orders, the kingdom's standing, and an empty section for the headquarters and for every
//! unit, each with a commented summary of the unit (where it is, its troops by type, its
//! move points). Plain text of at most 78 columns, which reads back with no errors.

use napoleonic_rules::Map;
use napoleonic_rules::ids::{KingdomCode, LocId, TroopCode, UnitKind};
use napoleonic_rules::state::{GameState, Relation, Status, Unit};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The widest line of a printed sheet.
pub const WIDTH: usize = 78;

const REMINDER: &str = "\
# Orders go under the headings below, one a line or several with ';' between.
# Upper or lower case. '#' starts a comment. k: a kingdom, p: a province.
# HQ      DECLARE WAR ON k | OFFER PEACE TO k | OFFER ALLIANCE TO k
#         CANCEL ALLIANCE WITH k | ACCEPT GIFTS FROM k | ACCEPT NOTHING FROM k
#         GRANT PASSAGE TO k | REVOKE PASSAGE FROM k | SEND AMBASSADOR TO k
#         GRANT PERMISSION IN p TO k | REVOKE PERMISSION IN p FROM k
#         SEND 50 GOLD TO k | ANNEX p | GIVE p TO k
# A unit  RETREAT 3 | FOLLOW A2 | FOLLOW NONE | MARINES ON | LEADER \"name\"
#         FORM ARMY A5 \"name\" | FORM FLEET F3 | TRANSFER 4 LIN, 1 ART TO A5
#         RANKS LIN 2 2 0 0 0 | DISBAND 2 MIL | SALVAGE 1 ART | HIRE LEADER
#         RECRUIT 4 LIN, 2 CUI | BUILD FORTIFICATION | BUILD HARBOUR | REPAIR
#         RAZE FORTIFICATION | RAZE HARBOUR | A1 \"new name\" renames it
# Phases  1: MOVE BUR; PILLAGE   2: HOLD   3: TRANSFER 2 LIN TO A2
#         PREPARE TO BOARD FOR k | LOAD A1 | LOAD AFTER A1 | UNLOAD A1 AT p
#         DEFEND ON | DEFEND OFF
";

/// The order sheet of `kingdom` for the turn about to be played, in the game called
/// `game`.
pub fn order_sheet(game: &str, map: &Map, state: &GameState, kingdom: &KingdomCode) -> String {
    let mut out = String::new();
    let game: String = game
        .chars()
        .map(|c| match c {
            '"' | '\u{201C}' | '\u{201D}' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    // The GAME line fits the sheet's width.
    let game: String = game.chars().take(WIDTH - 7).collect();
    let game = game.trim();
    let name_part = if game.is_empty() {
        String::new()
    } else {
        format!("GAME \"{game}\"  ")
    };
    let head = format!("{name_part}KINGDOM {kingdom}  TURN {}", state.turn);
    if head.chars().count() <= WIDTH {
        let _ = writeln!(out, "{head}");
    } else {
        let _ = writeln!(out, "{}", name_part.trim_end());
        let _ = writeln!(out, "KINGDOM {kingdom}  TURN {}", state.turn);
    }
    let rule = format!("# {}", "=".repeat(WIDTH - 2));
    let _ = writeln!(out, "{rule}");
    let Some(k) = state.kingdoms.get(kingdom) else {
        comment(
            &mut out,
            &format!("{kingdom} is not a kingdom of this game."),
        );
        return out;
    };
    comment(
        &mut out,
        &format!(
            "Orders of {} ({kingdom}) for turn {}. Treasury {} gold; upkeep {} a turn. {}.",
            clean(&k.name),
            state.turn,
            k.treasury,
            state
                .units
                .iter()
                .filter(|u| &u.owner == kingdom)
                .map(|u| u.upkeep(&state.tables))
                .sum::<napoleonic_rules::Gold>(),
            match k.status {
                Status::Commoner => "Commoner",
                Status::Royalty => "Royalty",
            }
        ),
    );
    let mut by_relation: BTreeMap<u8, Vec<String>> = BTreeMap::new();
    for other in state.kingdoms.values() {
        if &other.code == kingdom || other.independent || !other.alive {
            continue;
        }
        let r = state.relation(kingdom, &other.code);
        by_relation
            .entry(match r {
                Relation::War => 0,
                Relation::Ally => 1,
                Relation::Neutral => 2,
            })
            .or_default()
            .push(other.code.to_string());
    }
    let list = |v: Option<&Vec<String>>| {
        v.filter(|v| !v.is_empty())
            .map_or_else(|| "none".to_string(), |v| v.join(", "))
    };
    comment(
        &mut out,
        &format!(
            "At war with {}. Allied with {}. Neutral with {}. The independents are at war \
             with everyone.",
            list(by_relation.get(&0)),
            list(by_relation.get(&1)),
            list(by_relation.get(&2))
        ),
    );
    let passage: Vec<String> = k.passage_to.iter().map(|c| c.to_string()).collect();
    let refused: Vec<String> = k.refuses.iter().map(|c| c.to_string()).collect();
    comment(
        &mut out,
        &format!(
            "Passage rights granted to {}. Gifts refused from {}.",
            list(Some(&passage)),
            list(Some(&refused))
        ),
    );
    let provinces: Vec<String> = state
        .owned_by(kingdom)
        .map(|id| {
            let code = map
                .get(id)
                .map_or_else(|| id.to_string(), |l| l.code.clone());
            let p = &state.provinces[&id];
            let mut s = format!("{id} {code}");
            if &p.annexed_to != kingdom {
                let cost = map.get(id).map(|l| l.revenue).unwrap_or_default();
                let _ = write!(s, " (not annexed; annexing costs {cost})");
            }
            if !p.permissions.is_empty() {
                let who: Vec<String> = p.permissions.iter().map(|c| c.to_string()).collect();
                let _ = write!(s, " (permission: {})", who.join(", "));
            }
            s
        })
        .collect();
    comment(&mut out, &format!("Provinces: {}.", list(Some(&provinces))));
    let _ = writeln!(out, "{rule}");
    out.push_str(REMINDER);
    let _ = writeln!(out, "{rule}");
    let _ = writeln!(out);
    let _ = writeln!(out, "HQ");
    let _ = writeln!(out);
    let _ = writeln!(out, "PROCLAMATION");
    let _ = writeln!(out, "END");
    for u in state.units.iter().filter(|u| &u.owner == kingdom) {
        let _ = writeln!(out);
        let _ = writeln!(out, "# {}", "-".repeat(WIDTH - 2));
        unit(&mut out, map, state, u);
        let _ = writeln!(out, "{}", u.id);
    }
    out
}

fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect()
}

/// Keeps two words on one line of a comment ("3 LIN", "9 NOR").
const TIE: char = '\u{a0}';

fn tie(a: impl std::fmt::Display, b: impl std::fmt::Display) -> String {
    format!("{a}{TIE}{b}")
}

/// Writes `text` as comment lines of at most [`WIDTH`] columns, breaking at spaces but not
/// at ties.
fn comment(out: &mut String, text: &str) {
    let mut line = String::from("#");
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let word = word.replace(TIE, " ");
        if line.chars().count() + 1 + word.chars().count() > WIDTH && line.len() > 3 {
            let _ = writeln!(out, "{line}");
            line = String::from("#  ");
        }
        line.push(' ');
        line.push_str(&word);
        if line.chars().count() > WIDTH {
            // A single word longer than a line is cut rather than break the width.
            line = line.chars().take(WIDTH).collect();
        }
    }
    if line.len() > 1 {
        let _ = writeln!(out, "{line}");
    }
}

fn place(map: &Map, id: LocId) -> String {
    map.get(id).map_or_else(
        || format!("location {id}"),
        |l| format!("{id} {} ({})", l.code, clean(&l.name)),
    )
}

fn unit(out: &mut String, map: &Map, state: &GameState, u: &Unit) {
    let mut counts: BTreeMap<&TroopCode, u32> = BTreeMap::new();
    for t in &u.troops {
        *counts.entry(&t.code).or_insert(0) += 1;
    }
    let troops = if counts.is_empty() {
        "No troops".to_string()
    } else {
        counts
            .iter()
            .map(|(c, n)| tie(n, c))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let kind = match u.id.kind {
        UnitKind::Army => "Army",
        UnitKind::Fleet => "Fleet",
        UnitKind::Garrison => "Garrison",
    };
    let mut text = format!(
        "{kind} {} \"{}\", in {}",
        u.id,
        clean(&u.name).replace('"', "'"),
        place(map, u.location)
    );
    if let Some((k, f)) = &u.aboard {
        let _ = write!(text, ", aboard {k} {f}");
    }
    let _ = write!(text, ". {troops}.");
    if !u.leaders.is_empty() {
        let names: Vec<String> = u
            .leaders
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let name = clean(&l.name);
                if u.unit_leader == Some(i) {
                    format!("\"{name}\" (unit leader)")
                } else {
                    format!("\"{name}\"")
                }
            })
            .collect();
        let _ = write!(text, " Leaders: {}.", names.join(", "));
    }
    match u.id.kind {
        UnitKind::Garrison => {
            if let Some(l) = map.get(u.location) {
                match &l.city {
                    Some(c) => {
                        let builds: Vec<&str> = c.builds.iter().map(|b| b.0.as_str()).collect();
                        let _ = write!(
                            text,
                            " City {}: recruits {}, at most {} a turn.",
                            clean(&c.name),
                            if builds.is_empty() {
                                "nothing".to_string()
                            } else {
                                builds.join(", ")
                            },
                            c.max_builds
                        );
                    }
                    None => text.push_str(" No city: it recruits nothing."),
                }
            }
        }
        _ => {
            let mp = u
                .troops
                .iter()
                .filter_map(|t| state.tables.troop(&t.code).map(|x| x.mp))
                .min()
                .unwrap_or(4);
            let _ = write!(
                text,
                " {mp} move point{}. Retreats at rank {}.",
                if mp == 1 { "" } else { "s" },
                u.retreat_level
            );
            if u.id.kind == UnitKind::Army {
                let _ = write!(
                    text,
                    " Defends fortifications {}; marines {}.",
                    if u.defend_forts { "on" } else { "off" },
                    if u.marines { "on" } else { "off" }
                );
            }
            if let Some(f) = u.follow {
                let _ = write!(text, " Follows {f}.");
            }
        }
    }
    if let Some(p) = state.provinces.get(&u.location)
        && (p.fort_level > 0 || p.harbour)
    {
        let mut s = String::new();
        if p.fort_level > 0 {
            let _ = write!(s, " Fortification level {}", p.fort_level);
            if p.fort_damage > 0 {
                let _ = write!(s, ", damaged {}", p.fort_damage);
            }
            s.push('.');
        }
        if p.harbour {
            s.push_str(" Harbour.");
        }
        text.push_str(&s);
    }
    if u.id.kind != UnitKind::Garrison
        && let Some(l) = map.get(u.location)
    {
        let n: Vec<String> = l
            .edges
            .iter()
            .map(|e| {
                let code = map
                    .get(e.to)
                    .map_or_else(|| e.to.to_string(), |x| x.code.clone());
                let sea = map.get(e.to).is_some_and(|x| x.is_sea());
                match (e.barrier, sea) {
                    (true, true) => format!("{} (sea, reef)", tie(e.to, code)),
                    (true, false) => format!("{} (mountains)", tie(e.to, code)),
                    (false, true) => format!("{} (sea)", tie(e.to, code)),
                    (false, false) => tie(e.to, code),
                }
            })
            .collect();
        if !n.is_empty() {
            let _ = write!(text, " Next to: {}.", n.join(", "));
        }
    }
    comment(out, &text);
}
