//! Checking a turnsheet for a door (`empires check`, `empires submit`, the web form): every
//! mistake with its line, column and code, and the forecast of the turn as if no other
//! empire acted, on what the empire can see of the game.

use crate::error::{Error, Result};
use empires_orders::{Code, Context, Diagnostic, check, parse_sheet, render};
use empires_rules::engine::{Forecast, forecast};
use empires_rules::event::Outcome;
use empires_rules::supply;
use empires_rules::{EmpireCode, GameState, Map};
use serde::Serialize;
use std::fmt;

/// How the report is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Plain text, for people and email.
    Text,
    /// JSON, for the web form.
    Json,
}

/// What `empires check` found.
#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    pub file: String,
    pub empire: EmpireCode,
    pub errors: usize,
    pub warnings: usize,
    pub diagnostics: Vec<Diagnostic>,
    pub forecast: Forecast,
    /// European Empires: supply capacity and each owned area's trains and supply source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supply: Option<Supply>,
    #[serde(skip)]
    pub source: String,
    #[serde(skip)]
    pub format: Format,
}

/// The supply position of a European empire at the start of the turn (S.4, S.10).
#[derive(Debug, Clone, Serialize)]
pub struct Supply {
    pub capacity: u32,
    pub capital: Option<String>,
    pub areas: Vec<SupplyArea>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SupplyArea {
    pub area: String,
    pub trains: u32,
    /// The supply centre the area draws on, if its line reaches one.
    pub source: Option<String>,
}

fn supply_of(map: &Map, st: &GameState, empire: EmpireCode) -> Option<Supply> {
    if !st.variant.has_supply() {
        return None;
    }
    let e = st.empire(empire)?;
    let areas = st
        .owned_by(empire)
        .map(|a| SupplyArea {
            area: map.code(a).to_string(),
            trains: st.area(a).trains,
            source: supply::source(map, st, a).map(|s| map.code(s).to_string()),
        })
        .collect();
    Some(Supply {
        capacity: e.supply_capacity,
        capital: e.capital.map(|c| c.to_string()),
        areas,
    })
}

impl CheckReport {
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }
}

/// Checks the turnsheet `source` (named `file` in messages) for `empire` on `state`.
pub fn check_text(
    map: &Map,
    state: &GameState,
    empire: EmpireCode,
    source: String,
    file: &str,
    format: Format,
) -> Result<CheckReport> {
    let sheet = parse_sheet(&source);
    let cx = Context { map, state, empire };
    let diagnostics = check(&sheet, &cx);
    let forecast =
        forecast(map, state, empire, &sheet.turnsheet()).map_err(|e| Error::new(e.to_string()))?;
    let mut diagnostics = diagnostics;
    diagnostics.extend(forecast_warnings(&source, &diagnostics, &forecast));
    diagnostics.sort_by_key(|d| (d.line, d.column));
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let supply = supply_of(map, state, empire);
    Ok(CheckReport {
        supply,
        file: file.to_string(),
        empire,
        errors,
        warnings: diagnostics.len() - errors,
        diagnostics,
        forecast,
        source,
        format,
    })
}

/// Actions the forecast already knows will fail (an area not owned, more armies than are
/// there) are counted with the warnings, at their line, unless a diagnostic there already
/// says what is wrong.
fn forecast_warnings(source: &str, found: &[Diagnostic], fc: &Forecast) -> Vec<Diagnostic> {
    fc.steps
        .iter()
        .filter_map(|s| {
            let Outcome::Failed { reason } = &s.outcome else {
                return None;
            };
            if found.iter().any(|d| d.line == s.line) {
                return None;
            }
            let text = empires_orders::sheet::lines(source).nth(s.line.checked_sub(1)? as usize)?;
            let column = text.chars().take_while(|c| c.is_whitespace()).count() as u32 + 1;
            Some(Diagnostic::new(
                Code::ForecastFails,
                s.line,
                column,
                empires_orders::sheet::strip_comment(text).trim(),
                format!("on what you can see, this action will fail: {reason}"),
            ))
        })
        .collect()
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.format == Format::Json {
            let json = serde_json::to_string_pretty(self).map_err(|_| fmt::Error)?;
            return write!(f, "{json}");
        }
        write!(f, "{}", render(&self.file, &self.source, &self.diagnostics))?;
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        writeln!(
            f,
            "{}, {}",
            plural(self.errors, "error"),
            plural(self.warnings, "warning")
        )?;
        writeln!(f)?;
        if let Some(s) = &self.supply {
            write_supply(f, s)?;
        }
        write_forecast(f, &self.forecast)
    }
}

fn write_supply(f: &mut fmt::Formatter<'_>, s: &Supply) -> fmt::Result {
    writeln!(
        f,
        "Supply: capacity {}, capital {}",
        s.capacity,
        s.capital.as_deref().unwrap_or("none")
    )?;
    for a in &s.areas {
        writeln!(
            f,
            "  {}  {:>2} trains  supplied from {}",
            a.area,
            a.trains,
            a.source.as_deref().unwrap_or("nowhere: the line is broken")
        )?;
    }
    writeln!(f)
}

/// What a forecast step comes to, in the words every door shows: the result when done, and
/// why when it is cut down, fails or is ignored.
pub(crate) fn outcome_text(s: &empires_rules::engine::ForecastStep) -> String {
    match &s.outcome {
        Outcome::Done => s.result.clone(),
        Outcome::CutDown { reason } => format!("CUT DOWN: {} ({reason})", s.result),
        Outcome::Failed { reason } => format!("FAILS: {reason}"),
        Outcome::Ignored { reason } => format!("IGNORED: {reason}"),
    }
}

fn write_forecast(f: &mut fmt::Formatter<'_>, fc: &Forecast) -> fmt::Result {
    writeln!(
        f,
        "Forecast of turn {} for {}, as if no other empire acted:",
        fc.turn, fc.empire
    )?;
    writeln!(
        f,
        "start: {} BPs, treasury {}",
        fc.start_bps, fc.start_treasury
    )?;
    writeln!(f, "  #  line  action                 BPs  treasury  result")?;
    for s in &fc.steps {
        let result = outcome_text(s);
        writeln!(
            f,
            " {:>2}  {:>4}  {:<20} {:>5}  {:>8}  {result}",
            s.slot,
            s.line,
            truncate(&s.order, 20),
            s.bps,
            s.treasury
        )?;
        if let Some(c) = &s.caveat {
            writeln!(f, "{:38}note: {c}", "")?;
        }
    }
    if fc.cash_returned > 0 {
        writeln!(
            f,
            "end: {} unused BPs go back to the treasury (3.6)",
            fc.cash_returned
        )?;
    }
    let n = |k: u32, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    let trains = if fc.leftover_trains > 0 {
        format!(
            "{} in the capital (S.12) and ",
            n(fc.leftover_trains, "supply train", "supply trains")
        )
    } else {
        String::new()
    };
    writeln!(
        f,
        "expected surplus: {} left over, building {trains}{} and bidding {} for the order of play (3.7); treasury {}",
        n(fc.leftover_bps, "BP", "BPs"),
        n(fc.leftover_armies, "reserve army", "reserve armies"),
        n(fc.leftover_order_bid, "BP", "BPs"),
        fc.end_treasury
    )?;
    for d in &fc.dispersals {
        writeln!(
            f,
            "end: dispersal in {}: {}",
            d.area,
            empires_report::describe::dispersal(d.armies, d.ships, d.present, d.hold, d.trains)
        )?;
    }
    writeln!(f, "not foreseen:")?;
    for u in &fc.unknowns {
        writeln!(f, "  - {u}")?;
    }
    Ok(())
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let cut: String = s.chars().take(n - 1).collect();
        format!("{cut}…")
    }
}
