//! The game directory as a store: the format a GM can read, archive and diff. It keeps the
//! latest turnsheet of each empire in `orders/` rather than every one ever sent, and its
//! lock is a file; see [`crate::gamedir`] and [`crate::staging`].

use super::{Files, Millis, Reader, Receipt, SeatCode, Store, Submission, Undone};
use crate::error::{Error, Result};
use crate::files::{self, Kind};
use crate::gamedir::GameDir;
use crate::gamefiles::GameFiles;
use crate::turn::{TurnOptions, TurnReport};
use async_trait::async_trait;
use std::path::{Path, PathBuf};

/// Games kept as directories; a game is named by its directory's path.
#[derive(Debug, Clone, Copy, Default)]
pub struct DirStore;

fn path(game: &str) -> PathBuf {
    PathBuf::from(game)
}

/// Every file under `dir`, by path relative to it with `/` between names, sorted.
pub fn files_under(dir: &Path) -> Result<Files> {
    let mut out = Vec::new();
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((d, prefix)) = stack.pop() {
        for entry in files::read_dir_sorted(&d)? {
            let p = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = format!("{prefix}{name}");
            match Kind::of(&p).map_err(|e| Error::io("cannot read", &p, e))? {
                Kind::Directory => stack.push((p, format!("{rel}/"))),
                Kind::File => out.push((rel, files::read_in_game(&p, files::MAX_STATE_BYTES)?)),
                _ => {}
            }
        }
    }
    out.sort();
    Ok(out)
}

#[async_trait]
impl Store for DirStore {
    fn describe(&self, game: &str) -> String {
        game.to_string()
    }

    fn sheet_game(&self, _key: &str) -> Option<String> {
        None
    }

    async fn create_game(
        &self,
        key: &str,
        ruleset: &'static dyn crate::ruleset::Ruleset,
        started: &crate::ruleset::Started,
        _now: Millis,
    ) -> Result<()> {
        // A directory's sheets carry the game's own title.
        let name = started.title.as_deref().unwrap_or(key);
        GameFiles::create_started(&path(key), ruleset, name, started).map(|_| ())
    }

    async fn hosted(&self, game: &str) -> Result<crate::ruleset::HostedGame> {
        crate::gamefiles::GameFiles::open(&path(game), None)?.hosted()
    }

    async fn submit(&self, game: &str, submission: &Submission) -> Result<Receipt> {
        if submission.late {
            return Err(Error::new(format!(
                "{game}: a game directory keeps no late orders (2.4); only a host's database does"
            )));
        }
        let seat = submission.empire.map(|s| s.to_string());
        GameFiles::open(&path(game), None)?.submit(
            seat.as_deref(),
            &submission.body,
            submission.for_turn,
        )
    }

    async fn keep_standing(&self, game: &str, submission: &Submission) -> Result<Receipt> {
        let Some(seat) = submission.empire else {
            return Err(Error::new("the GM sends no standing sheet"));
        };
        GameFiles::open(&path(game), None)?.keep_standing(seat.as_str(), &submission.body)
    }

    async fn keep_for(&self, game: &str, name: &str, submission: &Submission) -> Result<Receipt> {
        GameFiles::open(&path(game), None)?.keep_for(name, &submission.body, submission.for_turn)
    }

    async fn ahead(&self, game: &str) -> Result<Files> {
        let dir = path(game).join(crate::gamedir::AHEAD_DIR);
        if crate::files::Kind::of(&dir).map_err(|e| Error::io("cannot read", &dir, e))?
            != crate::files::Kind::Directory
        {
            return Ok(Vec::new());
        }
        let mut files: Files = files_under(&dir)?
            .into_iter()
            .map(|(p, b)| (format!("{}/{p}", crate::gamedir::AHEAD_DIR), b))
            .collect();
        files.sort();
        Ok(files)
    }

    async fn standing(&self, game: &str) -> Result<Files> {
        GameFiles::open(&path(game), None)?.standing_files()
    }

    async fn pending(&self, game: &str) -> Result<Files> {
        GameFiles::open(&path(game), None)?.pending()
    }

    async fn play_turn(
        &self,
        game: &str,
        options: TurnOptions,
        _now: Millis,
    ) -> Result<TurnReport> {
        crate::turn::run_with(&path(game), options)
    }

    async fn undo(&self, game: &str, _now: Millis) -> Result<Undone> {
        let (turn, pending) = GameFiles::open(&path(game), None)?.undo()?;
        Ok(Undone {
            turn,
            pending,
            warnings: Vec::new(),
        })
    }

    async fn turn_files(&self, game: &str, turn: u32) -> Result<Files> {
        let g = GameFiles::open(&path(game), None)?;
        let current = g.current_turn()?;
        if turn > current {
            return Err(Error::not_found(format!(
                "turn {turn} has not been played; the last turn played is {current}"
            )));
        }
        files_under(&GameDir::at(g.root()).turn_dir(turn))
    }

    async fn turn_file(
        &self,
        game: &str,
        turn: u32,
        file: &str,
        viewer: Option<SeatCode>,
    ) -> Result<Vec<u8>> {
        let dir = GameDir::at(path(game));
        let missing = || {
            Error::not_found(format!(
                "{}: turn {turn} has no file {file}",
                dir.root().display()
            ))
        };
        if file.split('/').any(|p| p == ".." || p.is_empty()) {
            return Err(missing());
        }
        let g = GameFiles::open(dir.root(), None)?;
        let seats: Vec<SeatCode> = g
            .seats()?
            .iter()
            .filter_map(|s| SeatCode::parse(&s.code))
            .collect();
        let current = g.current_turn()?;
        if !Reader::of_turn_file(file, &seats).allows(viewer) {
            return Err(missing());
        }
        if turn > current {
            return Err(Error::not_found(format!(
                "turn {turn} has not been played; the last turn played is {current}"
            )));
        }
        let p = dir.turn_dir(turn).join(file);
        if Kind::of(&p).map_err(|e| Error::io("cannot read", &p, e))? != Kind::File {
            return Err(missing());
        }
        files::read_in_game(&p, files::MAX_STATE_BYTES)
    }
}
