//! `empires map ...`: tools for map designers.

use crate::commands::new::map_text;
use crate::error::{Error, Result};
use crate::gamedir;
use empires_maps::check::{MapReport, check_map};
use empires_maps::draw::{self, DrawOptions};
use empires_rules::{EmpireCode, Variant};
use empires_ruleset::gamedir::{EmpiresDir, Game};
use std::fmt;
use std::path::{Path, PathBuf};

/// `empires map check`: every problem of a map file or standard map.
pub fn check(map: &Path, variant: Option<Variant>) -> Result<MapReport> {
    let (text, file) = map_text(map)?;
    Ok(check_map(&text, &file, variant))
}

/// The state of a game after `turn` (the current one by default).
fn state_of_turn(game: &Game, turn: Option<u32>) -> Result<empires_rules::GameState> {
    match turn {
        None => Ok(game.state.clone()),
        Some(t) if t > game.turn => Err(Error::new(format!(
            "turn {t} has not been played; the last turn played is {}",
            game.turn
        ))),
        Some(t) => game.dir.load_state(t, &game.map),
    }
}

pub use empires_ruleset::gamedir::known_empire;

/// A printable map of what `empire` knew after `turn`, as PNG, for postal players (10.5):
/// drawn only when asked for. Written to `out`, or `<CODE>-turn<N>.png` here.
pub fn empire_png(
    dir: &Path,
    empire: EmpireCode,
    turn: Option<u32>,
    out: Option<PathBuf>,
) -> Result<PathBuf> {
    let game = Game::load(dir)?;
    let state = state_of_turn(&game, turn)?;
    draw_png(&game.map, &state, empire, out)
}

/// The printable map of what `empire` knew after `turn` of a game wherever it is kept.
pub fn empire_png_at(
    at: &crate::commands::hosted::GameAt,
    empire: EmpireCode,
    turn: Option<u32>,
    out: Option<PathBuf>,
) -> Result<PathBuf> {
    use crate::commands::hosted::{self, GameAt};
    if let GameAt::Dir(dir) = at {
        return empire_png(dir, empire, turn, out);
    }
    let (store, game) = hosted::open(at)?;
    let loaded = hosted::block_on(empires_ruleset::ruleset::load(store.as_ref(), &game))?;
    let state = match turn {
        None => loaded.state,
        Some(t) => {
            let bytes = hosted::block_on(store.turn_file(&game, t, gamedir::STATE_FILE, None))?;
            let label = format!(
                "{}, turn {t}, {}",
                store.describe(&game),
                gamedir::STATE_FILE
            );
            empires_ruleset::gamedir::parse_state(
                &String::from_utf8_lossy(&bytes),
                &label,
                &loaded.map,
            )?
        }
    };
    draw_png(&loaded.map, &state, empire, out)
}

fn draw_png(
    map: &empires_rules::Map,
    state: &empires_rules::GameState,
    empire: EmpireCode,
    out: Option<PathBuf>,
) -> Result<PathBuf> {
    known_empire(state, empire)?;
    let opts = DrawOptions {
        width: 1600,
        title: Some(format!("{}, turn {}: {}", state.game, state.turn, empire)),
        graticule: true,
        // A printed picture: one set of labels.
        zoom_label: None,
    };
    let d = draw::draw(map, Some((state, Some(empire))), &opts).map_err(Error::new)?;
    let bytes = draw::png(&d.svg).map_err(Error::new)?;
    let path = out.unwrap_or_else(|| PathBuf::from(format!("{empire}-turn{}.png", state.turn)));
    std::fs::write(&path, bytes).map_err(|e| Error::io("cannot write", &path, e))?;
    Ok(path)
}

/// `empires map show`: a map's empires and areas, with every area's neighbours, for a GM
/// choosing players' empires and for players without a picture of the map.
pub struct MapListing(empires_rules::Map);

pub fn show(map: &Path) -> Result<MapListing> {
    let (text, file) = map_text(map)?;
    Ok(MapListing(empires_ruleset::gamedir::parse_map(
        &text, &file,
    )?))
}

impl fmt::Display for MapListing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use empires_rules::words::count;
        let m = &self.0;
        let land = m.land_count();
        writeln!(
            f,
            "{}{}: {}, {}, {}",
            m.name,
            m.variant
                .map_or(String::new(), |v| format!(" ({} Empires)", v.title())),
            count(land as u32, "land area"),
            count((m.areas().len() - land) as u32, "sea area"),
            count(m.empires.len() as u32, "empire")
        )?;
        writeln!(f, "\nEMPIRES (code, name, home area)")?;
        for e in &m.empires {
            writeln!(f, "  {}  {:<24} {}", e.code, e.name, m.code(e.home))?;
        }
        writeln!(f, "\nAREAS (code, name, terrain, next to)")?;
        for id in m.ids() {
            let a = m.area(id);
            let next: Vec<String> = m
                .neighbours(id)
                .iter()
                .map(|&n| m.code(n).to_string())
                .collect();
            writeln!(
                f,
                "  {}  {:<24} {:<10} {}",
                a.code,
                a.name,
                a.terrain.name(),
                next.join(" ")
            )?;
        }
        Ok(())
    }
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
    /// With a game: the turn to draw, by default the current one.
    pub turn: Option<u32>,
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
            let state = state_of_turn(&game, args.turn)?;
            if let Some(e) = args.empire {
                known_empire(&state, e)?;
            }
            let d =
                draw::draw(&game.map, Some((&state, args.empire)), &opts).map_err(Error::new)?;
            let name = dir
                .canonicalize()
                .ok()
                .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_else(|| "game".to_string());
            let mut stem = format!("{name}-turn{}", state.turn);
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
            let map = empires_ruleset::gamedir::parse_map(&text, &file)?;
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
