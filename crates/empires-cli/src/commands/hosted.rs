//! A game named by its directory, or by `--db <URL>` and its name in that database: the
//! commands that work on either open the game's store here and call the host's core.

use crate::error::{Error, Result};
use empires_host::gamefiles::GameFiles;
use empires_host::ruleset::{Game, Ruleset, Setup};
use empires_host::store::dir::DirStore;
use empires_host::store::sql::SqlStore;
use empires_host::store::{self, SeatCode, Store, Submission};
use empires_host::transfer::{self, Moved};
use empires_host::verify::{self, VerifyReport};
use empires_orders::text::MAX_SHEET_BYTES;
use empires_rules::{GameState, Map};
use std::fmt;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Where a game is kept.
#[derive(Debug, Clone)]
pub enum GameAt {
    Dir(PathBuf),
    Db { url: String, name: String },
}

impl GameAt {
    /// The game argument of a command: a directory, or with `--db` the game's name.
    pub fn new(game: &Path, db: Option<&str>) -> GameAt {
        match db {
            Some(url) => GameAt::Db {
                url: url.to_string(),
                name: game.to_string_lossy().into_owned(),
            },
            None => GameAt::Dir(game.to_path_buf()),
        }
    }

    /// The game's name as players read it: its name in the database, or its folder's.
    pub fn name(&self) -> String {
        match self {
            GameAt::Db { name, .. } => name.clone(),
            GameAt::Dir(p) => p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
        }
    }
}

/// The database commands run on one small runtime for the whole process.
pub fn block_on<F: Future>(f: F) -> F::Output {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime for database work")
        })
        .block_on(f)
}

/// Opens a database given by its URL.
/// A host's database, which must be there already: a mistyped SQLite path is an error,
/// not a new empty host.
pub fn open_db(url: &str) -> Result<SqlStore> {
    block_on(SqlStore::open_existing(url))
}

/// A host's database, made if it is not there yet: for the commands that start a host
/// (`new`, `import`, `accounts make-gm`).
pub fn create_db(url: &str) -> Result<SqlStore> {
    block_on(SqlStore::open(url))
}

/// The store a game is kept in, and the game's name there.
pub fn open(at: &GameAt) -> Result<(Box<dyn Store>, String)> {
    match at {
        GameAt::Dir(p) => Ok((Box::new(DirStore), p.display().to_string())),
        GameAt::Db { url, name } => Ok((Box::new(open_db(url)?), name.clone())),
    }
}

/// The game as its ruleset reads it, whichever the ruleset and wherever it is kept.
pub fn open_game(at: &GameAt) -> Result<Arc<dyn Game>> {
    let (store, key) = open(at)?;
    block_on(empires_host::submit::open(store.as_ref(), &key))
}

/// The ruleset a game is played under (`empires`, `napoleonic`), read without reading the
/// game: a directory's `game.toml` (none: Empires), a database's row.
pub fn ruleset_of(at: &GameAt) -> Result<String> {
    match at {
        GameAt::Dir(dir) => {
            Ok(empires_host::gamefiles::ruleset_of(dir).unwrap_or_else(|| "empires".into()))
        }
        GameAt::Db { url, name } => Ok(block_on(open_db(url)?.ruleset(name))?.id().to_string()),
    }
}

/// `empires new --ruleset`: a game of a ruleset other than Empires, in a directory or a
/// database; what to tell the GM.
pub fn create(ruleset: &'static dyn Ruleset, at: &GameAt, setup: &Setup) -> Result<String> {
    let title = ruleset.title();
    let (place, seats, then) = match at {
        GameAt::Dir(dir) => {
            let game = GameFiles::create(dir, ruleset, setup)?;
            let seats = game.seats()?;
            let then = "each seat's sheet is printed by `empires sheet DIR SEAT` and sent \
                        with `empires submit DIR SHEET --empire SEAT` (or put in orders/SEAT.txt)"
                .to_string();
            (dir.display().to_string(), seats, then)
        }
        GameAt::Db { url, name } => {
            let store = create_db(url)?;
            let started = ruleset.start(setup)?;
            block_on(store.create_game(name, ruleset, &started, super::now()?))?;
            let g = block_on(store.read_hosted(name))?;
            let then = format!(
                "players send sheets with `empires submit {name} SHEET --empire SEAT --db URL`, by mail or on the web"
            );
            (store.describe(name), ruleset.seats(g.text())?, then)
        }
    };
    let codes: Vec<String> = seats.into_iter().map(|s| s.code).collect();
    let name = match at {
        GameAt::Dir(_) => &setup.name,
        GameAt::Db { name, .. } => name,
    };
    Ok(format!(
        "created the {title} game \"{name}\" in {place}: {} seats ({}); {then}",
        codes.len(),
        codes.join(" ")
    ))
}

/// `empires report` for a game of a ruleset other than Empires: a seat's report of a turn
/// (the latest by default; 0 is the starting position, where the game wrote one) as the
/// turn wrote it, `ext` being `txt`, `json` or `html`.
pub fn report(at: &GameAt, seat: SeatCode, turn: Option<u32>, ext: &str) -> Result<String> {
    let file = format!("{seat}.{ext}");
    let none_yet = |e: Error| match (e.kind(), turn) {
        (empires_host::error::Kind::NotFound, None | Some(0)) => Error::new(format!(
            "no report of {seat} yet (the game writes none before its first turn): `empires sheet` prints a blank sheet"
        )),
        _ => e,
    };
    match at {
        GameAt::Dir(dir) => {
            let game = GameFiles::open(dir, None)?;
            let latest = game.current_turn()?;
            game.report(turn.unwrap_or(latest), &file).map_err(none_yet)
        }
        GameAt::Db { url, name } => {
            let store = open_db(url)?;
            let g = block_on(store.read_hosted(name))?;
            let path = format!("{}/{file}", empires_host::gamedir::REPORTS_DIR);
            let body = block_on(store.turn_file(name, turn.unwrap_or(g.turn), &path, None))
                .map_err(none_yet)?;
            Ok(String::from_utf8_lossy(&body).into_owned())
        }
    }
}

/// `empires report --format png` for a game of another ruleset: the seat's map of a played
/// turn, as its mailed report carries it ([`empires_host::ruleset::Game::mail_report`]),
/// written to `out` (default `SEAT-turnN.png`).
pub fn picture(
    at: &GameAt,
    seat: SeatCode,
    turn: Option<u32>,
    out: Option<PathBuf>,
) -> Result<PathBuf> {
    let (store, key) = open(at)?;
    let game = block_on(empires_host::submit::open(store.as_ref(), &key))?;
    let shown = turn.unwrap_or(game.turn());
    let files: std::collections::HashMap<String, Vec<u8>> =
        block_on(store.turn_files(&key, shown))?
            .into_iter()
            .collect();
    if shown == 0 && !files.contains_key(&format!("reports/{seat}.txt")) {
        return Err(Error::new(format!(
            "no report of {seat} yet (the game writes none before its first turn): `empires sheet` prints a blank sheet"
        )));
    }
    let place = format!("{}, turn {shown}", store.describe(&key));
    // The picture alone: the whole map, where it is apart, is not wanted here.
    let files = empires_host::ruleset::mail::TurnFiles {
        place: &place,
        files: &files,
        whole_map: false,
    };
    let png = game
        .mail_report(shown, &files, seat.as_str())?
        .picture
        .ok_or_else(|| Error::new(format!("a game of {} draws no map", game.ruleset().title())))?;
    let out = out.unwrap_or_else(|| PathBuf::from(format!("{seat}-turn{shown}.png")));
    std::fs::write(&out, png).map_err(|e| Error::io("cannot write", &out, e))?;
    Ok(out)
}

/// `empires sheet`: a seat's blank sheet for the next turn, as its report ends with it.
pub fn sheet(at: &GameAt, seat: SeatCode) -> Result<String> {
    open_game(at)?.sheet(seat.as_str())
}

/// `empires check` on a game of a ruleset other than Empires: its check and dry run, and
/// whether it found errors.
pub fn check(at: &GameAt, seat: SeatCode, file: &Path) -> Result<(String, bool)> {
    let text = crate::commands::check::read_turnsheet(file)?;
    let checked = open_game(at)?.check(seat.as_str(), &file.display().to_string(), &text)?;
    Ok((checked.text(), checked.errors > 0))
}

/// The game's map and current state, and what the reader should know about them.
pub fn load(at: &GameAt) -> Result<(Map, GameState, Vec<String>)> {
    let (store, game) = open(at)?;
    let l = block_on(empires_ruleset::ruleset::load(store.as_ref(), &game))?;
    Ok((l.map, l.state, l.warnings))
}

/// What `empires submit` kept.
pub struct SubmitReport {
    /// The diagnostics and forecast (or, in a game of another ruleset, its dry run).
    pub check: Option<String>,
    pub receipt: store::Receipt,
    pub game: String,
    pub empire: Option<SeatCode>,
    /// The step the sheet is for, in a game played in steps.
    pub step: Option<String>,
    /// The file kept was the GM's rulings.
    pub rulings: bool,
}

impl fmt::Display for SubmitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(check) = &self.check {
            writeln!(f, "{check}")?;
        }
        let who = match (self.empire, self.rulings) {
            (_, true) => "the GM's rulings".to_string(),
            (Some(e), false) => format!("{e}'s turnsheet"),
            (None, false) => "the GM's messages".to_string(),
        };
        let step = self
            .step
            .as_ref()
            .map_or(String::new(), |s| format!(" ({s})"));
        write!(
            f,
            "kept {who} for turn {}{step} of {}\nsha256: {}",
            self.receipt.for_turn, self.game, self.receipt.sha256
        )?;
        match &self.receipt.replaces {
            Some(h) if *h == self.receipt.sha256 => {
                write!(f, "\nthe same as the turnsheet sent before")
            }
            Some(h) => write!(f, "\nreplaces the turnsheet sent before (sha256 {h})"),
            None => Ok(()),
        }
    }
}

/// `empires submit`: checks a turnsheet as `empires check` does and keeps it for the next
/// turn, errors and all (the player is told; the turn reads it as it is). With no empire
/// the file is the GM's messages to every player (10.6), or with `rulings` the GM's rulings
/// for the next step, checked by the game's ruleset.
pub fn submit(
    at: &GameAt,
    empire: Option<SeatCode>,
    file: &Path,
    rulings: bool,
) -> Result<SubmitReport> {
    if rulings && empire.is_some() {
        return Err(Error::new(
            "the GM's rulings are the GM's, not a seat's: give --rulings without --empire",
        ));
    }
    let bytes = std::fs::File::open(file)
        .and_then(|f| empires_host::files::read_at_most(f, MAX_SHEET_BYTES as u64))
        .map_err(|e| Error::io("cannot read", file, e))?
        .ok_or_else(|| {
            Error::new(format!(
                "{}: more than the {MAX_SHEET_BYTES} bytes a turnsheet may hold",
                file.display()
            ))
        })?;
    let (store, game) = open(at)?;
    let submission = Submission {
        empire,
        body: bytes,
        door: "cli".into(),
        received_at: super::now()?,
        for_turn: None,
        late: false,
    };
    let shown = file.display().to_string();
    let accepted = if rulings {
        block_on(async {
            let opened = empires_host::submit::open(store.as_ref(), &game).await?;
            empires_host::submit::accept_rulings(
                store.as_ref(),
                &game,
                opened.as_ref(),
                &submission,
                &shown,
            )
            .await
        })?
    } else {
        block_on(empires_host::submit::accept(
            store.as_ref(),
            &game,
            &submission,
            &shown,
        ))?
    };
    Ok(SubmitReport {
        check: accepted.check_text(),
        step: accepted.step.clone(),
        receipt: accepted.receipt,
        game: store.describe(&game),
        empire,
        rulings,
    })
}

/// `empires verify`.
pub fn verify(at: &GameAt) -> Result<VerifyReport> {
    let (store, game) = open(at)?;
    block_on(verify::verify(store.as_ref(), &game))
}

/// `empires export`: a database game written as a game directory.
pub fn export(url: &str, game: &str, dir: &Path) -> Result<Moved> {
    let store = open_db(url)?;
    block_on(transfer::export(&store, game, dir))
}

/// `empires import`: a game directory loaded into a database, named `name` or after the
/// directory.
pub fn import(url: &str, dir: &Path, name: Option<&str>) -> Result<Moved> {
    let name = match name {
        Some(n) => n.to_string(),
        None => dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| {
                Error::new(format!(
                    "{}: give the game a name with --name",
                    dir.display()
                ))
            })?,
    };
    let store = create_db(url)?;
    block_on(transfer::import(&store, dir, &name, super::now()?))
}

/// `empires backup`: a consistent copy of an SQLite host, taken while it runs.
pub fn backup(url: &str, to: &Path) -> Result<String> {
    let store = open_db(url)?;
    block_on(store.backup(to))?;
    Ok(format!("backed up {} to {}", store.url(), to.display()))
}

/// `empires games`: the games a database keeps.
pub fn games(url: &str) -> Result<String> {
    let store = open_db(url)?;
    let games = block_on(store.games())?;
    if games.is_empty() {
        return Ok(format!("{} keeps no games yet", store.url()));
    }
    Ok(games
        .iter()
        .map(|(name, turn)| format!("{name}: after turn {turn}"))
        .collect::<Vec<_>>()
        .join("\n"))
}
