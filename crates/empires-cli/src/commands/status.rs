//! `empires status`: where a game stands and whose orders are in.

use crate::error::Result;
use empires_host::store::prelude::*;
use empires_rules::GameState;
use empires_ruleset::gamedir::Game;
use empires_ruleset::turn::claim_text;
use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

/// The state of a game directory.
#[derive(Debug, Clone)]
pub struct StatusReport {
    pub state: GameState,
    /// The empires whose turnsheet is waiting in `orders/`.
    pub waiting: BTreeSet<empires_rules::EmpireCode>,
    pub warnings: Vec<String>,
}

/// Where a game stands: "turn 3 played; next turn 4", or, before the first turn, "no turn
/// played yet; next turn 1".
fn played_line(turn: u32) -> String {
    match turn {
        0 => "no turn played yet; next turn 1".to_string(),
        t => format!("turn {t} played; next turn {}", t + 1),
    }
}

impl fmt::Display for StatusReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.state;
        writeln!(f, "game: {} ({} Empires)", s.game, s.variant.title())?;
        match &s.result {
            Some(c) => writeln!(f, "turn {} played; game over: {}", s.turn, claim_text(c))?,
            None => writeln!(f, "{}", played_line(s.turn))?,
        }
        let order: Vec<String> = s.order_of_play.iter().map(|c| c.to_string()).collect();
        writeln!(f, "order of play: {}", order.join(" "))?;
        if let Some(c) = &s.victory_warning {
            writeln!(f, "victory warning: {}", claim_text(c))?;
        }
        let rows: Vec<[String; 8]> = s
            .empires
            .iter()
            .map(|e| {
                let areas = s.owned_by(e.code).count();
                let orders = match e.eliminated {
                    Some(t) => format!("eliminated turn {t}"),
                    None if self.waiting.contains(&e.code) => "sent".to_string(),
                    None if e.player.is_some() => "none yet".to_string(),
                    None => "computer".to_string(),
                };
                [
                    format!("{} {}", e.code, e.name),
                    e.player.clone().unwrap_or_else(|| "(dummy)".to_string()),
                    standing(e, s.options.dropout_after),
                    e.bps.to_string(),
                    e.treasury.to_string(),
                    e.vps.to_string(),
                    areas.to_string(),
                    orders,
                ]
            })
            .collect();
        let header = [
            "empire", "player", "standing", "BPs", "treasury", "VPs", "areas", "orders",
        ]
        .map(String::from);
        let mut width = [0usize; 8];
        for row in std::iter::once(&header).chain(&rows) {
            for (w, cell) in width.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let mut lines = Vec::new();
        for row in std::iter::once(&header).chain(&rows) {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                let pad = width[i] - cell.chars().count();
                if i > 0 {
                    line.push_str("  ");
                }
                // Names left-aligned, numbers right-aligned.
                if (3..=6).contains(&i) {
                    line.push_str(&" ".repeat(pad));
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.push_str(&" ".repeat(pad));
                }
            }
            lines.push(line.trim_end().to_string());
        }
        write!(f, "{}", lines.join("\n"))
    }
}

/// How an empire stands with its player (2.1, 2.5, decision 21): a dummy run by the
/// computer, playing, having missed turns, or dropped out after `dropout_after` in a row.
fn standing(e: &empires_rules::state::EmpireState, dropout_after: u32) -> String {
    match (&e.player, e.missed_turns) {
        _ if e.eliminated.is_some() => "out".into(),
        (None, _) => "dummy".into(),
        (Some(_), 0) => "playing".into(),
        (Some(_), n) if n >= dropout_after => format!("dropped out ({n} missed)"),
        (Some(_), 1) => "missed 1 turn".into(),
        (Some(_), n) => format!("missed {n} turns"),
    }
}

/// Reads the game in `dir` and the turnsheets waiting for its next turn.
pub fn run(dir: &Path) -> Result<StatusReport> {
    let game = Game::load(dir)?;
    let mut warnings = game.warnings.clone();
    let waiting = game.dir.waiting(&game.seat_codes())?;
    warnings.extend(waiting.warnings);
    Ok(StatusReport {
        waiting: waiting
            .sheets
            .keys()
            .filter_map(|c| empires_rules::EmpireCode::parse(c).ok())
            .collect(),
        state: game.state,
        warnings,
    })
}

/// Where a game of any ruleset stands.
pub enum Status {
    Empires(StatusReport),
    /// A game of another ruleset, kept in a database.
    Other(OtherStatus),
}

impl Status {
    pub fn warnings(&self) -> &[String] {
        match self {
            Status::Empires(r) => &r.warnings,
            Status::Other(r) => &r.warnings,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Empires(r) => r.fmt(f),
            Status::Other(r) => r.fmt(f),
        }
    }
}

/// A game of a ruleset other than Empires, as its seats and the sheets sent say it stands:
/// what every ruleset can tell through [`empires_host::ruleset::Ruleset`].
pub struct OtherStatus {
    pub game: String,
    pub ruleset: &'static str,
    pub turn: u32,
    /// Each seat: code, name, player, standing, orders.
    pub seats: Vec<[String; 5]>,
    pub warnings: Vec<String>,
}

impl fmt::Display for OtherStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "game: {} ({})", self.game, self.ruleset)?;
        writeln!(f, "{}", played_line(self.turn))?;
        let header = ["seat", "name", "player", "standing", "orders"].map(String::from);
        let mut width = [0usize; 5];
        for row in std::iter::once(&header).chain(&self.seats) {
            for (w, cell) in width.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        let lines: Vec<String> = std::iter::once(&header)
            .chain(&self.seats)
            .map(|row| {
                let cells: Vec<String> = row
                    .iter()
                    .zip(width)
                    .map(|(c, w)| format!("{c}{}", " ".repeat(w - c.chars().count())))
                    .collect();
                cells.join("  ").trim_end().to_string()
            })
            .collect();
        write!(f, "{}", lines.join("\n"))
    }
}

/// The status of a game of a ruleset other than Empires, if `game` is one: kept in a database (whose
/// seats say who plays them) or in a directory (which keeps no players).
fn other_status(at: &crate::commands::hosted::GameAt) -> Result<Option<OtherStatus>> {
    use crate::commands::hosted::{self, GameAt};
    let (store, game) = hosted::open(at)?;
    let hosted_game = hosted::block_on(store.hosted(&game))?;
    // An Empires game has its own, fuller status (the empires' BPs, treasuries, VPs).
    if hosted_game.ruleset.id() == empires_host::ruleset::Ruleset::id(&empires_ruleset::Empires) {
        return Ok(None);
    }
    let held = match at {
        GameAt::Db { url, name } => hosted::block_on(hosted::open_db(url)?.seats(name))?,
        GameAt::Dir(_) => Vec::new(),
    };
    let pending = hosted::block_on(store.pending(&game))?;
    let sent = |code: &str| {
        pending
            .iter()
            .any(|(name, _)| name.strip_suffix(".txt") == Some(code))
    };
    let seats = hosted_game
        .ruleset
        .seats(hosted_game.text())?
        .into_iter()
        .map(|seat| {
            let row = held.iter().find(|h| h.empire.as_str() == seat.code);
            let player = match (at, row.and_then(|h| h.account.as_ref())) {
                (_, Some((_, name))) => name.clone(),
                // A directory game keeps no accounts: the GM plays by the sheets sent.
                (GameAt::Dir(_), None) => "-".to_string(),
                (GameAt::Db { .. }, None) => "(computer)".to_string(),
            };
            let standing = match row {
                _ if !seat.alive => "out".to_string(),
                Some(h) if h.account.is_none() => "no player".to_string(),
                Some(h) if h.missed_turns > 0 => {
                    format!("{} ({} missed)", h.status, h.missed_turns)
                }
                Some(h) => h.status.clone(),
                None => "in play".to_string(),
            };
            let orders = if !seat.alive {
                String::new()
            } else if sent(&seat.code) {
                "sent".to_string()
            } else {
                "none yet".to_string()
            };
            [seat.code, seat.name, player, standing, orders]
        })
        .collect();
    Ok(Some(OtherStatus {
        game: hosted_game.name.clone(),
        ruleset: hosted_game.ruleset.title(),
        turn: hosted_game.turn,
        seats,
        warnings: hosted_game.warnings.clone(),
    }))
}

/// The status of a game wherever it is kept.
pub fn run_at(at: &crate::commands::hosted::GameAt) -> Result<Status> {
    if let Some(other) = other_status(at)? {
        return Ok(Status::Other(other));
    }
    run_empires_at(at).map(Status::Empires)
}

/// The status of an Empires game wherever it is kept.
fn run_empires_at(at: &crate::commands::hosted::GameAt) -> Result<StatusReport> {
    use crate::commands::hosted::{self, GameAt};
    if let GameAt::Dir(dir) = at {
        return run(dir);
    }
    let (store, game) = hosted::open(at)?;
    let loaded = hosted::block_on(empires_ruleset::ruleset::load(store.as_ref(), &game))?;
    let pending = hosted::block_on(store.pending(&game))?;
    let waiting = pending
        .iter()
        .filter_map(|(name, _)| name.strip_suffix(".txt"))
        .filter_map(|stem| empires_rules::EmpireCode::parse(stem).ok())
        .filter(|c| loaded.state.empire(*c).is_some())
        .collect();
    Ok(StatusReport {
        waiting,
        state: loaded.state,
        warnings: loaded.warnings,
    })
}
