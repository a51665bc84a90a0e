//! The per-phase dry run of a kingdom's orders (digest 1.2 item 6, the original client's
//! "scroll"): where each of its units will stand after the First Events and after every
//! movement phase, and which of its orders will fail, as if no other kingdom acted. It plays
//! the engine's own First Events and movement on a copy of the state, so what it says is
//! what the turn will do unless someone else's orders change it.

use napoleonic_rules::event::{Event, What, When};
use napoleonic_rules::turn::preview::preview;
use napoleonic_rules::{GameState, KingdomCode, KingdomOrders, LocId, Map, TurnError, UnitId};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One unit's path: where it stands when movement begins (index 0) and after each phase.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnitPath {
    pub unit: UnitId,
    pub positions: Vec<Option<LocId>>,
}

/// An order the dry run saw fail, with when and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// "first events" or "phase 2".
    pub when: String,
    pub unit: Option<UnitId>,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DryRun {
    pub phases: u8,
    pub units: Vec<UnitPath>,
    pub problems: Vec<Problem>,
}

/// Dry-runs `orders` for `kingdom`.
pub fn dry_run(
    map: &Map,
    state: &GameState,
    kingdom: &KingdomCode,
    orders: &KingdomOrders,
) -> Result<DryRun, TurnError> {
    let mut alone = BTreeMap::new();
    alone.insert(kingdom.clone(), orders.clone());
    let p = preview(map, state, &alone)?;
    let units = p
        .positions
        .iter()
        .filter(|((owner, _), _)| owner == kingdom)
        .map(|((_, id), positions)| UnitPath {
            unit: *id,
            positions: positions.clone(),
        })
        .collect();
    let problems = p
        .events
        .iter()
        .filter_map(|e| problem(map, kingdom, e))
        .collect();
    Ok(DryRun {
        phases: p.phases,
        units,
        problems,
    })
}

fn when_text(when: When) -> String {
    match when {
        When::First(_) => "first events".to_string(),
        When::Phase(n, _) => format!("phase {n}"),
        When::Final(_) => "final events".to_string(),
    }
}

fn name(map: &Map, id: LocId) -> String {
    map.get(id)
        .map_or_else(|| id.to_string(), |l| l.code.clone())
}

/// The events of the kingdom's own that a player would want to know before sending.
fn problem(map: &Map, kingdom: &KingdomCode, e: &Event) -> Option<Problem> {
    let when = when_text(e.when);
    match &e.what {
        What::OrderFailed {
            kingdom: k,
            unit,
            order,
            reason,
        } if k == kingdom => Some(Problem {
            when,
            unit: *unit,
            message: format!("{order}: {reason}"),
        }),
        What::Bounced {
            unit: (k, id),
            at,
            toward,
            reason,
        } if k == kingdom => Some(Problem {
            when,
            unit: Some(*id),
            message: format!(
                "stays in {} instead of entering {}: {reason}",
                name(map, *at),
                name(map, *toward)
            ),
        }),
        What::LandingFailed {
            fleet: (k, id),
            at,
            chance,
        } if k == kingdom => Some(Problem {
            when,
            unit: Some(*id),
            message: format!(
                "the landing in {} may fail: {chance}% chance of success",
                name(map, *at)
            ),
        }),
        _ => None,
    }
}

impl DryRun {
    /// The dry run as a table of positions and a list of problems, for a receipt or the
    /// command line.
    pub fn text(&self, map: &Map) -> String {
        let mut out = String::new();
        out.push_str("Dry run, as if no other kingdom acted:\n");
        let cols = usize::from(self.phases) + 1;
        let _ = write!(out, "{:<6}", "unit");
        for c in 0..cols {
            let head = if c == 0 {
                "start".to_string()
            } else {
                format!("ph {c}")
            };
            let _ = write!(out, " {head:<5}");
        }
        let trimmed = out.trim_end_matches(' ').len();
        out.truncate(trimmed);
        out.push('\n');
        for u in &self.units {
            let _ = write!(out, "{:<6}", u.unit.to_string());
            for c in 0..cols {
                let at = u
                    .positions
                    .get(c)
                    .copied()
                    .flatten()
                    .map_or_else(|| "-".to_string(), |l| name(map, l));
                let _ = write!(out, " {at:<5}");
            }
            let trimmed = out.trim_end_matches(' ').len();
            out.truncate(trimmed);
            out.push('\n');
        }
        if self.problems.is_empty() {
            out.push_str("No order fails.\n");
        } else {
            out.push_str("Orders that fail in the dry run:\n");
            for p in &self.problems {
                let unit = p.unit.map(|u| format!("{u}: ")).unwrap_or_default();
                let _ = writeln!(out, "  {}, {unit}{}", p.when, p.message);
            }
        }
        out
    }
}
