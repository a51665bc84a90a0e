//! The GM's summary of a turn: every empire's position, every event, the computer-written
//! turns and the warnings, in plain text.

use crate::build::{Shared, Turn, shared};
use crate::put::Put;
use crate::text::ascii;
use empires_rules::event::{Outcome, What};
use std::fmt::Write;

/// Renders the GM summary of a turn.
pub fn summary(t: &Turn) -> String {
    summary_with(t, &shared(t))
}

/// Renders the GM summary of a turn, with the parts shared with the players' reports
/// already worked out.
pub fn summary_with(t: &Turn, sh: &Shared) -> String {
    let st = t.state;
    let mut s = String::with_capacity(64 * 1024);
    let _ = writeln!(
        s,
        "GM SUMMARY: {} ({} Empires), turn {}",
        st.game,
        st.variant.title(),
        st.turn
    );
    let _ = writeln!(s, "{}", "=".repeat(78));
    let ru = &sh.roundup;
    if let Some(w) = &ru.warning {
        let _ = writeln!(
            s,
            "WARNING: {} meets the {} condition with {} VPs (turn {}).",
            w.empire, w.condition, w.vps, w.turn
        );
    }
    if let Some(g) = &ru.game_over {
        let _ = writeln!(
            s,
            "GAME OVER: {} wins a {} victory with {} VPs.",
            g.empire, g.condition, g.vps
        );
    }
    let _ = writeln!(
        s,
        "Next census: turn {}. Order of play: {}.",
        st.next_census,
        ru.order_of_play.join(" ")
    );
    if !t.computer_written.is_empty() {
        let codes: Vec<String> = t.computer_written.iter().map(|c| c.to_string()).collect();
        let _ = writeln!(s, "Computer-written turns: {}.", codes.join(" "));
    }
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "Emp Player           Areas Income Supply  BPs Treas  VPs ArmR NavR  Air Missed"
    );
    for e in &st.empires {
        let areas = st.owned_by(e.code).count();
        let player = match (e.eliminated, &e.player) {
            (Some(turn), _) => format!("out, turn {turn}"),
            (None, Some(p)) => p.clone(),
            (None, None) => "(dummy)".into(),
        };
        let _ = writeln!(
            s,
            "{:<3} {:<16} {:>5} {:>6} {:>6} {:>4} {:>5} {:>4} {:>4} {:>4} {:>4} {:>6}",
            e.code.as_str(),
            ascii(&player).chars().take(16).collect::<String>(),
            areas,
            e.income,
            e.supply_cost,
            e.bps,
            e.treasury,
            e.vps,
            e.army_reserve,
            e.navy_reserve,
            e.air_force,
            e.missed_turns
        );
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "EVENTS");
    for ev in t.events {
        let start = s.len();
        s.push_str("  ");
        let _ = match &ev.what {
            What::Action {
                empire,
                slot,
                order,
                outcome,
                result,
                ..
            } => {
                // Every action of the turn has a line: written piece by piece.
                s.put(empire.as_str())
                    .put(" ")
                    .right(*slot, 2)
                    .put(" ")
                    .put(order)
                    .put(": ");
                match outcome {
                    Outcome::Done => s.put(result),
                    Outcome::CutDown { reason } => {
                        s.put(result).put(" (cut down: ").put(reason).put(")")
                    }
                    Outcome::Failed { reason } => s.put("FAILED: ").put(reason),
                    Outcome::Ignored { reason } => s.put("ignored: ").put(reason),
                };
                Ok(())
            }
            What::Unowned { area, growth } => {
                let line = format!("unowned {area}: +1 {growth:?}").to_lowercase();
                write!(s, "{line}")
            }
            What::LandBattle(b) => write!(s, "{}", crate::describe::land_battle(b)),
            What::SeaBattle {
                area,
                attacker,
                defender,
                fight,
                ..
            } => write!(
                s,
                "sea battle in {area}: {attacker} v {defender}: {}",
                crate::describe::sea(fight)
            ),
            other => write!(s, "{}", crate::describe::other_event(other)),
        };
        if !s[start..].is_ascii() {
            let plain = ascii(&s[start..]).into_owned();
            s.truncate(start);
            s.push_str(&plain);
        }
        // Long lines are folded at word boundaries, continuing indented, to stay readable
        // in a 78-column mail reader.
        if s.len() - start > WIDTH {
            let line = s.split_off(start);
            fold(&mut s, &line);
        }
        s.push('\n');
    }
    let captures = sh.actions_report.iter().filter(|e| e.capture).count();
    let _ = writeln!(s);
    let _ = writeln!(s, "{} events, {} captures.", t.events.len(), captures);
    s
}

/// The widest line of the summary.
const WIDTH: usize = 78;

/// Writes `line` folded at spaces into lines of at most [`WIDTH`] characters where it can,
/// each continuation indented by six spaces.
fn fold(out: &mut String, line: &str) {
    let mut width = 0;
    for (i, word) in line.split(' ').enumerate() {
        if i > 0 {
            if width + 1 + word.len() > WIDTH && width > 6 {
                out.push_str("\n      ");
                width = 6;
            } else {
                out.push(' ');
                width += 1;
            }
        }
        out.push_str(word);
        width += word.len();
    }
}
