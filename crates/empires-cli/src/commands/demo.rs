//! `empires demo`: a European Empires game on the built-in defaults, played for a few turns
//! by computer players, leaving a game directory with reports and maps to look at.

use crate::commands::new::{self, MapStart, Source};
use crate::commands::turn;
use crate::error::Result;
use crate::gamedir::{self, Game};
use empires_maps::draw::{DrawOptions, draw, png};
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
            "  {d}/turns/{:04}/reports/FR.txt    the same, print-ready, with the next turnsheet",
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
        writeln!(
            f,
            "Play on: put turnsheets in {d}/orders/ (e.g. FR.txt), check them with"
        )?;
        writeln!(f, "  empires check {d} --empire FR {d}/orders/FR.txt")?;
        write!(
            f,
            "and run `empires turn {d}`; empires without orders are played by the computer."
        )
    }
}

/// Creates the demo game in `dir` and plays `turns` turns.
pub fn run(dir: &Path, turns: u32, seed: u64) -> Result<DemoReport> {
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
    for _ in 0..turns {
        let r = turn::run(dir)?;
        played = r.turn;
        lines.push(format!(
            "turn {}: {} events, {} failed actions",
            r.turn, r.events, r.failed
        ));
        if r.game_over.is_some() {
            break;
        }
    }
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
