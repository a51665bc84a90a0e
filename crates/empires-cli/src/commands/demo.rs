//! `empires demo`: a European Empires game on the built-in defaults, played for a few turns
//! by computer players, leaving a game directory with reports and maps to look at.

use crate::commands::new::{self, MapStart, Source};
use crate::commands::turn;
use crate::error::Result;
use crate::gamedir;
use empires_maps::draw::{DrawOptions, draw, png};
use empires_rules::words::count;
use empires_ruleset::gamedir::Game;
use std::fmt;
use std::path::{Path, PathBuf};

/// What the demo made.
pub struct DemoReport {
    pub dir: PathBuf,
    pub turns: u32,
    pub lines: Vec<String>,
    pub maps: Vec<PathBuf>,
}

impl fmt::Display for DemoReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for l in &self.lines {
            writeln!(f, "{l}")?;
        }
        let d = self.dir.display();
        writeln!(f)?;
        writeln!(f, "The game is in {d}. Have a look at:")?;
        writeln!(
            f,
            "  {d}/turns/{:04}/reports/FR.html   France's report of the last turn, in a browser",
            self.turns
        )?;
        writeln!(
            f,
            "  {d}/turns/{:04}/reports/FR.txt    the same as text, with the next turnsheet",
            self.turns
        )?;
        writeln!(
            f,
            "  {d}/turns/{:04}/reports/public.*  the roundup and actions report, the same for all",
            self.turns
        )?;
        writeln!(
            f,
            "  {d}/turns/{:04}/reports/gm.txt    the GM's summary",
            self.turns
        )?;
        for m in &self.maps {
            writeln!(f, "  {}", m.display())?;
        }
        // The command as it can be run from here: `empires` is on the PATH only once
        // installed (`cargo install --path crates/empires-cli`).
        let exe = std::env::current_exe()
            .ok()
            .filter(|p| p.exists())
            .map_or("empires".to_string(), |p| p.display().to_string());
        writeln!(
            f,
            "Play on: put turnsheets in {d}/orders/ (e.g. FR.txt), check them with"
        )?;
        writeln!(f, "  {exe} check {d} --empire FR {d}/orders/FR.txt")?;
        writeln!(
            f,
            "and run `{exe} turn {d}`; empires without orders are played by the computer."
        )?;
        write!(
            f,
            "(`cargo install --path crates/empires-cli` puts `empires` on your PATH.)"
        )
    }
}

/// Creates the demo game in `dir` and plays `turns` turns.
pub fn run(dir: &Path, turns: u32, seed: u64) -> Result<DemoReport> {
    run_showing(dir, turns, seed, |_| {})
}

/// As [`run`], telling `progress` of each step as it is done: a demo takes a while.
pub fn run_showing(
    dir: &Path,
    turns: u32,
    seed: u64,
    mut progress: impl FnMut(&str),
) -> Result<DemoReport> {
    new::run(
        dir,
        &Source::Map(MapStart {
            map: PathBuf::from("european"),
            seed,
            variant: None,
            players: Vec::new(),
            name: Some("European Empires demo".into()),
            actions_per_turn: None,
            dropout_after: None,
            victory_from_turn: None,
        }),
    )?;
    let mut lines = vec![format!(
        "created a European Empires game in {} (seed {seed}); the computer plays all 24 empires",
        dir.display()
    )];
    let mut played = 0;
    for i in 0..turns {
        progress(&format!("playing turn {} of {turns}...", i + 1));
        let r = turn::run(dir)?;
        played = r.turn;
        lines.push(format!(
            "turn {}: {}, {}",
            r.turn,
            count(r.events as u32, "event"),
            count(r.failed as u32, "failed action")
        ));
        if r.finished {
            break;
        }
    }
    progress("drawing the maps...");
    let game = Game::load(dir)?;
    let maps_dir = dir.join("maps");
    std::fs::create_dir_all(&maps_dir)
        .map_err(|e| crate::error::Error::io("cannot create", &maps_dir, e))?;
    let mut maps = Vec::new();
    let opts = DrawOptions::default();
    for (viewer, name) in [
        (None, "game".to_string()),
        (
            Some(empires_rules::EmpireCode::parse("FR").expect("code")),
            "france-sees".to_string(),
        ),
    ] {
        let drawing = draw(&game.map, Some((&game.state, viewer)), &opts)
            .map_err(crate::error::Error::new)?;
        let svg_path = maps_dir.join(format!("{name}-turn-{played}.svg"));
        gamedir::write_synced(&svg_path, drawing.svg.as_bytes())?;
        if let Ok(bytes) = png(&drawing.svg) {
            let png_path = svg_path.with_extension("png");
            gamedir::write_synced(&png_path, &bytes)?;
            maps.push(png_path);
        } else {
            maps.push(svg_path);
        }
    }
    Ok(DemoReport {
        dir: dir.to_path_buf(),
        turns: played,
        lines,
        maps,
    })
}
