//! The game directory as a store: the format a GM can read, archive and diff. It keeps the
//! latest turnsheet of each empire in `orders/` rather than every one ever sent, and its
//! lock is a file; see [`crate::gamedir`] and [`crate::staging`].

use super::{Files, Loaded, Millis, NewGame, Reader, Receipt, SeatCode, Store, Submission, Undone};
use crate::error::{Error, Result};
use crate::files::{self, Kind};
use crate::gamedir::{GM_MESSAGES_FILE, Game, GameDir, sha256_hex};
use crate::turn::{TurnOptions, TurnReport};
use async_trait::async_trait;
use std::path::{Path, PathBuf};

/// Games kept as directories; a game is named by its directory's path.
#[derive(Debug, Clone, Copy, Default)]
pub struct DirStore;

fn path(game: &str) -> PathBuf {
    PathBuf::from(game)
}

/// Why a directory game of another ruleset gives no turn files: its turns are kept in
/// [`crate::gamefiles`]' own layout, which `verify`, `export` and `import` do not read yet.
fn not_in_turn_files(game: &str, g: &crate::gamefiles::GameFiles) -> Error {
    Error::new(format!(
        "{game}: a directory game of {} keeps its turns in a layout of its own, which `verify`, `export` and `import` do not read yet; its reports are read with `empires {} report`",
        g.ruleset.title(),
        g.ruleset.id()
    ))
}

/// The directory `game` when it holds a game of a ruleset other than Empires, kept through
/// [`crate::gamefiles`].
fn other_ruleset(game: &str) -> Result<Option<crate::gamefiles::GameFiles>> {
    match crate::gamefiles::ruleset_of(&path(game)) {
        Some(id) if id != "empires" => {
            crate::gamefiles::GameFiles::open(&path(game), None).map(Some)
        }
        _ => Ok(None),
    }
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

    async fn create(&self, game: &NewGame<'_>) -> Result<()> {
        crate::create::create_dir(&path(game.name), game.map_text, game.map, game.state).map(|_| ())
    }

    async fn load(&self, game: &str) -> Result<Loaded> {
        let g = Game::load(&path(game))?;
        Ok(Loaded {
            map_script: g.dir.kept_script(),
            map_text: g.map_text,
            map: g.map,
            turn: g.turn,
            state: g.state,
            warnings: g.warnings,
        })
    }

    async fn hosted_game(&self, game: &str) -> Result<Option<crate::ruleset::HostedGame>> {
        other_ruleset(game)?.map(|g| g.hosted()).transpose()
    }

    async fn submit(&self, game: &str, submission: &Submission) -> Result<Receipt> {
        if let Some(g) = other_ruleset(game)? {
            let Some(seat) = submission.empire else {
                return Err(Error::new(format!(
                    "{game}: a directory game of {} takes no messages from the GM yet",
                    g.ruleset.title()
                )));
            };
            return g.submit(seat.as_str(), &submission.body, submission.for_turn);
        }
        if submission.late {
            return Err(Error::new(format!(
                "{game}: a game directory keeps no late orders (2.4); only a host's database does"
            )));
        }
        let g = Game::load(&path(game))?;
        // A won game (11.7) is over: it takes no more sheets.
        if g.state.result.is_some() {
            return Err(Error::conflict(format!(
                "{game}: the game is over, won at turn {}; it takes no more turnsheets or messages",
                g.turn
            )));
        }
        if let Some(want) = submission.for_turn.filter(|t| *t != g.turn + 1) {
            return Err(Error::conflict(format!(
                "{game}: the turnsheet was checked for turn {want}, but the next turn is {}; check it again",
                g.turn + 1
            )));
        }
        let name = match submission.empire {
            Some(seat) => {
                let code = crate::gamedir::seat_empire(&g.state, seat)?;
                format!("{code}.txt")
            }
            None => GM_MESSAGES_FILE.to_string(),
        };
        let target = g.dir.orders_dir().join(&name);
        let before = match Kind::of(&target).map_err(|e| Error::io("cannot read", &target, e))? {
            Kind::File => Some(files::read_in_game(&target, files::MAX_STATE_BYTES)?),
            _ => None,
        };
        // The GM's messages add up, as in a database; a turnsheet replaces the one before.
        let body = match (&before, submission.empire) {
            (Some(old), None) => [&old[..], b"\n\n", &submission.body].concat(),
            _ => submission.body.clone(),
        };
        files::write_atomic(&target, &body)?;
        Ok(Receipt {
            for_turn: g.turn + 1,
            sha256: sha256_hex(&submission.body),
            replaces: before
                .filter(|_| submission.empire.is_some())
                .map(|b| sha256_hex(&b)),
        })
    }

    async fn pending(&self, game: &str) -> Result<Files> {
        if let Some(g) = other_ruleset(game)? {
            return g.pending();
        }
        let g = Game::load(&path(game))?;
        let waiting = g.dir.waiting(&g.state)?;
        let mut out = Vec::new();
        for name in waiting.sheets.values().chain(&waiting.gm) {
            let p = g.dir.orders_dir().join(name);
            out.push((
                name.clone(),
                files::read_in_game(&p, files::MAX_STATE_BYTES)?,
            ));
        }
        out.sort();
        Ok(out)
    }

    async fn play_turn(
        &self,
        game: &str,
        options: TurnOptions,
        _now: Millis,
    ) -> Result<TurnReport> {
        if let Some(g) = other_ruleset(game)? {
            let next = g.hosted()?.turn + 1;
            crate::turn::expect_turn(&options, next, &g.name)?;
            let played = g.play()?;
            let list = |v: &[String]| {
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.join(" ")
                }
            };
            let hash = files::read_text_in_game(
                &played.written_to.join(crate::gamedir::HASH_FILE),
                files::MAX_SMALL_BYTES,
            )?;
            return Ok(TurnReport {
                game: g.name.clone(),
                turn: next,
                written_to: played.written_to.display().to_string(),
                events: played.events,
                failed: played.failed,
                ignored: 0,
                hash: hash.trim().to_string(),
                orders_from: Vec::new(),
                computer_written: Vec::new(),
                seats_line: Some(format!(
                    "sheets from: {}; sent nothing: {}",
                    list(&played.orders_from),
                    list(&played.no_orders)
                )),
                victory_warning: None,
                game_over: None,
                warnings: played.notes,
            });
        }
        crate::turn::run_with(&path(game), options)
    }

    async fn undo(&self, game: &str, _now: Millis) -> Result<Undone> {
        if let Some(g) = other_ruleset(game)? {
            let (turn, pending) = g.undo()?;
            return Ok(Undone {
                turn,
                pending,
                warnings: Vec::new(),
            });
        }
        let r = crate::undo::run(&path(game))?;
        Ok(Undone {
            turn: r.undone,
            pending: r.pending,
            warnings: r.warnings,
        })
    }

    async fn turn_files(&self, game: &str, turn: u32) -> Result<Files> {
        if let Some(g) = other_ruleset(game)? {
            return Err(not_in_turn_files(game, &g));
        }
        let g = Game::load(&path(game))?;
        if turn > g.turn {
            return Err(Error::not_found(format!(
                "turn {turn} has not been played; the last turn played is {}",
                g.turn
            )));
        }
        files_under(&g.dir.turn_dir(turn))
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
        if let Some(g) = other_ruleset(game)? {
            return Err(not_in_turn_files(game, &g));
        }
        let g = Game::load(dir.root())?;
        let seats: Vec<SeatCode> = g.state.empires.iter().map(|e| e.code.into()).collect();
        if !Reader::of_turn_file(file, &seats).allows(viewer) {
            return Err(missing());
        }
        if turn > g.turn {
            return Err(Error::not_found(format!(
                "turn {turn} has not been played; the last turn played is {}",
                g.turn
            )));
        }
        let p = g.dir.turn_dir(turn).join(file);
        if Kind::of(&p).map_err(|e| Error::io("cannot read", &p, e))? != Kind::File {
            return Err(missing());
        }
        files::read_in_game(&p, files::MAX_STATE_BYTES)
    }
}
