//! `empires map ...`: tools for map designers.

use crate::commands::new::map_text;
use crate::error::{Error, Result};
use crate::gamedir::{self, Game};
use empires_maps::check::{MapReport, check_map};
use empires_maps::draw::{self, DrawOptions};
use empires_rules::{EmpireCode, Variant};
use std::fmt;
use std::path::{Path, PathBuf};

/// `empires map check`: every problem of a map file or standard map.
pub fn check(map: &Path, variant: Option<Variant>) -> Result<MapReport> {
    let (text, file) = map_text(map)?;
    Ok(check_map(&text, &file, variant))
}

/// What to draw and where to write it (`empires map draw`).
#[derive(Debug, Clone, Default)]
pub struct DrawArgs {
    /// A map file or standard map name; `None` with a game.
    pub map: Option<PathBuf>,
    /// A game directory: its current turn is drawn on its map.
    pub game: Option<PathBuf>,
    /// Draw only what this empire knows of the game.
    pub empire: Option<EmpireCode>,
    /// The SVG file; by default named after the map or game, in the current directory.
    pub out: Option<PathBuf>,
    /// Also a PNG: `Some(None)` names it after the SVG.
    pub png: Option<Option<PathBuf>>,
    pub width: u32,
    /// List every drawn border that differs from the map's, not just how many.
    pub all_notes: bool,
}

/// The files `empires map draw` wrote, and notes for the map's designer.
#[derive(Debug, Clone)]
pub struct DrawReport {
    pub svg: PathBuf,
    pub png: Option<PathBuf>,
    /// Positions off the coastlines, and drawn borders that differ from the map's (all of
    /// them, or how many); only for maps, not games.
    pub notes: Vec<String>,
}

impl fmt::Display for DrawReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for n in &self.notes {
            writeln!(f, "note: {n}")?;
        }
        write!(f, "wrote {}", self.svg.display())?;
        if let Some(p) = &self.png {
            write!(f, "\nwrote {}", p.display())?;
        }
        Ok(())
    }
}

/// `empires map draw`: a map, a game, or one empire's view of a game, as SVG and PNG.
pub fn draw(args: &DrawArgs) -> Result<DrawReport> {
    let opts = DrawOptions {
        width: args.width,
        ..DrawOptions::default()
    };
    let (drawing, stem) = match (&args.game, &args.map) {
        (Some(dir), None) => {
            let game = Game::load(dir)?;
            let d = draw::draw(&game.map, Some((&game.state, args.empire)), &opts)
                .map_err(Error::new)?;
            let name = dir
                .canonicalize()
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_else(|| "game".to_string());
            let mut stem = format!("{name}-turn{}", game.state.turn);
            if let Some(e) = args.empire {
                stem = format!("{stem}-{e}");
            }
            (d, stem)
        }
        (None, Some(path)) => {
            if args.empire.is_some() {
                return Err(Error::new(
                    "--empire needs --game: it draws what an empire of a game knows",
                ));
            }
            let (text, file) = map_text(path)?;
            let map = gamedir::parse_map(&text, &file)?;
            let d = draw::draw(&map, None, &opts).map_err(Error::new)?;
            let stem = path
                .file_stem()
                .map_or("map".to_string(), |s| s.to_string_lossy().into_owned());
            (d, stem)
        }
        (Some(_), Some(_)) => {
            return Err(Error::new(
                "give a map or --game, not both: a game is drawn on its own map",
            ));
        }
        (None, None) => return Err(Error::new("give a map file, a standard map name or --game")),
    };
    let svg = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{stem}.svg")));
    std::fs::write(&svg, &drawing.svg).map_err(|e| Error::io("cannot write", &svg, e))?;
    let png = match &args.png {
        None => None,
        Some(p) => {
            let p = p.clone().unwrap_or_else(|| svg.with_extension("png"));
            let bytes = draw::png(&drawing.svg).map_err(Error::new)?;
            std::fs::write(&p, bytes).map_err(|e| Error::io("cannot write", &p, e))?;
            Some(p)
        }
    };
    Ok(DrawReport {
        svg,
        png,
        notes: if args.game.is_some() {
            Vec::new()
        } else {
            let mut notes = drawing.notes;
            match drawing.borders.len() {
                0 => {}
                _ if args.all_notes => notes.extend(drawing.borders),
                n => notes.push(format!(
                    "the drawing differs from the map's borders in {n} places (--notes lists them)"
                )),
            }
            notes
        },
    })
}
