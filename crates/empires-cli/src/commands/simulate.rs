//! `empires simulate` and `empires balance`: whole games played by computer players.

use crate::commands::new::map_text;
use crate::error::{Error, Result};
use crate::gamedir;
use empires_ai::sim::play_game;
use empires_rules::state::GameState;
use empires_rules::{Map, Variant};
use std::fmt::{self, Write as _};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

/// Loads a map file or standard map, and the variant to play on it.
fn load(map: &Path, variant: Option<Variant>) -> Result<(Map, Variant)> {
    let (text, file) = map_text(map)?;
    let map = empires_ruleset::gamedir::parse_map(&text, &file)?;
    let variant = variant.or(map.variant).unwrap_or(Variant::World);
    Ok((map, variant))
}

/// The outcome of `empires simulate`.
pub struct SimulateReport {
    pub map: String,
    pub seed: u64,
    pub state: GameState,
    pub turns: u32,
    pub seconds: f64,
}

impl fmt::Display for SimulateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.state;
        writeln!(
            f,
            "{} ({} Empires), seed {}",
            self.map,
            s.variant.title(),
            self.seed
        )?;
        match &s.result {
            Some(c) => writeln!(
                f,
                "{} won a {:?} victory with {} VPs on turn {}",
                c.empire, c.condition, c.vps, c.turn
            )?,
            None => writeln!(f, "no winner after {} turns", self.turns)?,
        }
        let mut empires: Vec<_> = s.empires.iter().collect();
        empires.sort_by_key(|e| (std::cmp::Reverse(e.vps), e.code));
        writeln!(f, "empire  VPs  areas  income  status")?;
        for e in empires {
            let areas = s.owned_by(e.code).count();
            let status = e
                .eliminated
                .map_or("in play".to_string(), |t| format!("out on turn {t}"));
            writeln!(
                f,
                "{:<6} {:>4} {:>6} {:>7}  {status}",
                e.code.as_str(),
                e.vps,
                areas,
                e.income
            )?;
        }
        write!(
            f,
            "{} turns in {:.3} s: {:.0} turns a second",
            self.turns,
            self.seconds,
            f64::from(self.turns) / self.seconds.max(1e-9)
        )
    }
}

/// A progress bar on standard error, drawn only when it is a terminal.
struct Progress {
    shown: bool,
    max: u32,
}

impl Progress {
    fn new(max: u32) -> Progress {
        Progress {
            shown: std::io::stderr().is_terminal(),
            max,
        }
    }
    fn turn(&self, turn: u32, leader: i32) {
        if !self.shown {
            return;
        }
        let width = 40;
        let done = (turn as usize * width / self.max.max(1) as usize).min(width);
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r[{}{}] turn {turn}/{} leader {leader} VPs ",
            "#".repeat(done),
            ".".repeat(width - done),
            self.max
        );
        let _ = err.flush();
    }
    fn done(&self) {
        if self.shown {
            let _ = writeln!(std::io::stderr().lock());
        }
    }
}

/// `empires simulate`: one whole game of computer players, to victory or the turn limit.
pub fn simulate(
    map: &Path,
    seed: u64,
    variant: Option<Variant>,
    max_turns: u32,
) -> Result<SimulateReport> {
    let (map, variant) = load(map, variant)?;
    let progress = Progress::new(max_turns);
    let start = Instant::now();
    let result = play_game(&map, variant, seed, max_turns, |out| {
        let leader = out.state.empires.iter().map(|e| e.vps).max().unwrap_or(0);
        progress.turn(out.state.turn, leader);
    })
    .map_err(|e| Error::new(e.to_string()))?;
    progress.done();
    Ok(SimulateReport {
        map: map.name.clone(),
        seed,
        turns: result.turns,
        seconds: start.elapsed().as_secs_f64(),
        state: result.state,
    })
}

/// One starting position's record over many games.
#[derive(Debug, Clone, Default)]
pub struct Record {
    pub code: String,
    pub wins: u32,
    pub vps: i64,
    pub survived: u32,
}

/// The outcome of `empires balance`.
pub struct BalanceReport {
    pub map: String,
    pub games: u32,
    pub records: Vec<Record>,
    pub undecided: u32,
    pub seconds: f64,
    pub turns: u64,
    pub chart: Option<String>,
}

impl fmt::Display for BalanceReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}: {} games of computer players", self.map, self.games)?;
        writeln!(f, "empire  win rate  average VPs  survival")?;
        let n = f64::from(self.games.max(1));
        for r in &self.records {
            writeln!(
                f,
                "{:<6} {:>8.1}% {:>12.1} {:>8.1}%",
                r.code,
                100.0 * f64::from(r.wins) / n,
                r.vps as f64 / n,
                100.0 * f64::from(r.survived) / n
            )?;
        }
        writeln!(f, "games without a winner: {}", self.undecided)?;
        if let Some(c) = &self.chart {
            writeln!(f, "chart: {c}")?;
        }
        write!(
            f,
            "{} turns in {:.2} s on {} threads: {:.0} games a second",
            self.turns,
            self.seconds,
            threads(),
            f64::from(self.games) / self.seconds.max(1e-9)
        )
    }
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `empires balance`: many seeded games in parallel on every core, summed per empire.
pub fn balance(
    map: &Path,
    games: u32,
    variant: Option<Variant>,
    max_turns: u32,
    chart: Option<&Path>,
) -> Result<BalanceReport> {
    let (map, variant) = load(map, variant)?;
    let start = Instant::now();
    let workers = threads().min(games.max(1) as usize);
    let results: Vec<Result<Vec<(GameState, u32)>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let map = &map;
                scope.spawn(move || {
                    (0..games)
                        .filter(|g| *g as usize % workers == w)
                        .map(|g| {
                            play_game(map, variant, u64::from(g) + 1, max_turns, |_| {})
                                .map(|r| (r.state, r.turns))
                                .map_err(|e| Error::new(e.to_string()))
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Error::new("a simulation thread failed")))
            })
            .collect()
    });
    let mut records: Vec<Record> = map
        .empires
        .iter()
        .map(|e| Record {
            code: e.code.to_string(),
            ..Record::default()
        })
        .collect();
    let (mut undecided, mut turns) = (0, 0u64);
    for batch in results {
        for (state, t) in batch? {
            turns += u64::from(t);
            if state.result.is_none() {
                undecided += 1;
            }
            for (r, e) in records.iter_mut().zip(&state.empires) {
                r.vps += i64::from(e.vps);
                r.survived += u32::from(e.alive());
                r.wins += u32::from(state.result.as_ref().is_some_and(|c| c.empire == e.code));
            }
        }
    }
    let mut report = BalanceReport {
        map: map.name.clone(),
        games,
        records,
        undecided,
        seconds: start.elapsed().as_secs_f64(),
        turns,
        chart: None,
    };
    if let Some(path) = chart {
        let svg = chart_svg(&report);
        gamedir::write_synced(path, svg.as_bytes())?;
        let mut written = path.display().to_string();
        if let Ok(png) = empires_maps::draw::png(&svg) {
            let png_path = path.with_extension("png");
            gamedir::write_synced(&png_path, &png)?;
            written.push_str(&format!(" and {}", png_path.display()));
        }
        report.chart = Some(written);
    }
    Ok(report)
}

/// A bar chart of win rate and survival per starting empire.
fn chart_svg(r: &BalanceReport) -> String {
    let n = f64::from(r.games.max(1));
    let row = 22.0;
    let (left, width) = (60.0, 520.0);
    let height = 70.0 + row * r.records.len() as f64;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{height}\" viewBox=\"0 0 {w} {height}\" font-family=\"DejaVu Sans, sans-serif\" font-size=\"12\">\
         <rect width=\"100%\" height=\"100%\" fill=\"#fbfaf6\"/>\
         <text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{} - {} games</text>\
         <rect x=\"{left}\" y=\"34\" width=\"12\" height=\"10\" fill=\"#8a2b1d\"/><text x=\"{}\" y=\"43\">win rate</text>\
         <rect x=\"{}\" y=\"34\" width=\"12\" height=\"10\" fill=\"#9fb7c9\"/><text x=\"{}\" y=\"43\">survival</text>",
        r.map,
        r.games,
        left + 16.0,
        left + 100.0,
        left + 116.0,
        w = left + width + 60.0,
    );
    for (i, rec) in r.records.iter().enumerate() {
        let y = 56.0 + row * i as f64;
        let win = width * f64::from(rec.wins) / n;
        let live = width * f64::from(rec.survived) / n;
        let _ = write!(
            s,
            "<text x=\"10\" y=\"{}\">{}</text>\
             <rect x=\"{left}\" y=\"{y}\" width=\"{live:.1}\" height=\"16\" fill=\"#9fb7c9\"/>\
             <rect x=\"{left}\" y=\"{}\" width=\"{win:.1}\" height=\"8\" fill=\"#8a2b1d\"/>\
             <text x=\"{:.1}\" y=\"{}\">{:.0}%</text>",
            y + 12.0,
            rec.code,
            y + 4.0,
            left + live.max(win) + 4.0,
            y + 12.0,
            100.0 * f64::from(rec.wins) / n
        );
    }
    s.push_str("</svg>\n");
    s
}
