//! How a turn takes the turnsheets waiting in `orders/`, keeps them with the turn, and
//! gives them back if the turn is not played.
//!
//! At the start of a turn each turnsheet is moved, one by one, from `orders/` into the
//! turn being written, `turns/NNNN.tmp/orders/`; the turn then reads them there. So the turn
//! plays exactly the sheets it keeps, and a sheet that arrives while it runs lands in an
//! `orders/` the turn no longer looks at: it waits for the next turn. Nothing is ever
//! written into `orders/`, and nothing is ever written over a file a player sent.
//!
//! Before the computer writes any turnsheet of its own into the turn, the turn's record,
//! `turn.json`, lists the files the players sent. Rolling back an interrupted turn moves
//! exactly those back to `orders/`; without a record the computer has written nothing yet,
//! and every file there is a player's.
//!
//! A sheet may arrive in `orders/` while a turn that took the seat's earlier sheet is
//! interrupted. Rolling back, the newer sheet wins, as it would have had the turn not been
//! interrupted (the latest sheet of a seat is the one played), and the older is held in
//! `turns/superseded/` until the next turn keeps it in its `orders/superseded/`, listed in
//! its record: nothing a player sent is lost, and no person has to choose. The GM's
//! messages add up instead, as they do when sent twice for one turn.

use crate::error::{Error, Result};
use crate::files::{self, Kind};
use crate::gamedir::{GM_MESSAGES_FILE, GameDir, ORDERS_DIR};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The record of how a turn was played, kept as `turns/NNNN/turn.json`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnRecord {
    /// The files of the turn's `orders/` that the players (and the GM, `gm.txt`) sent.
    pub sent: Vec<String>,
    /// The turnsheets of the turn's `orders/` that the computer wrote (2.5).
    #[serde(default)]
    pub computer: Vec<String>,
    /// Sent turnsheets that could not be read, kept in the turn's `orders/unreadable/`;
    /// their empires were played as having sent no orders.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
    /// Why the state the turn was played on could not be verified against its hash, when the
    /// GM had the turn played all the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_accepted: Option<String>,
    /// Sheets sent for an interrupted turn and replaced by later ones from the same seat
    /// before this turn was played, kept in the turn's `orders/superseded/`; not played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub superseded: Vec<String>,
    /// The version of the rules the turn was played under ([`crate::turn::RULES_VERSION`]);
    /// missing from turns played before versions were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_version: Option<String>,
    /// When each sheet played arrived, by seat, in milliseconds since 1970, as the ruleset
    /// was told ([`crate::ruleset::Orders::arrived`]): a replay is told the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrived: Vec<(String, i64)>,
    /// Why the step needed the GM's rulings, when it was played without them: the GM's
    /// silence, recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gm_silent: Option<String>,
}

/// The file of a turn directory holding its [`TurnRecord`].
pub const RECORD_FILE: &str = "turn.json";
/// The folder of a turn's `orders/` keeping the turnsheets that could not be read.
pub const UNREADABLE_DIR: &str = "unreadable";
/// The folder of a turn's `orders/` keeping sheets replaced after an interrupted turn; also
/// the folder of `turns/` holding them until the next turn is played.
pub const SUPERSEDED_DIR: &str = "superseded";

/// What is waiting in `orders/`, by file name, without reading any of it.
#[derive(Debug, Clone, Default)]
pub struct Waiting {
    /// Each seat's sheet, by the seat's code as the game spells it.
    pub sheets: BTreeMap<String, String>,
    /// `gm.txt`, as it is spelt.
    pub gm: Option<String>,
    /// Files that are not turnsheets, links, pipes, directories: left alone.
    pub warnings: Vec<String>,
}

impl Waiting {
    fn names(&self) -> impl Iterator<Item = &String> {
        self.sheets.values().chain(&self.gm)
    }
}

/// The turnsheets a turn has taken, now in `turns/NNNN.tmp/orders/`.
#[derive(Debug)]
pub struct Taken {
    pub tmp: PathBuf,
    pub waiting: Waiting,
    /// The superseded sheets held since an interrupted turn, now in the turn's
    /// `orders/superseded/`.
    pub superseded: Vec<String>,
}

impl Taken {
    /// The folder holding the taken turnsheets.
    pub fn orders(&self) -> PathBuf {
        self.tmp.join(ORDERS_DIR)
    }
}

impl GameDir {
    /// The turnsheets waiting in `orders/`: one plain file per seat of the game (`codes`),
    /// named `<CODE>.txt` in any case, and the GM's `gm.txt`. Anything else, and anything
    /// that is not a plain file (a link, a pipe, a directory), is reported and left alone.
    pub fn waiting(&self, codes: &[String]) -> Result<Waiting> {
        let dir = self.orders_dir();
        let mut found = Waiting::default();
        if Kind::of(&dir).map_err(|e| Error::io("cannot read", &dir, e))? != Kind::Directory {
            return Ok(found);
        }
        for entry in files::read_dir_sorted(&dir)? {
            let path = entry.path();
            let shown = path.display();
            let kind = Kind::of(&path).map_err(|e| Error::io("cannot read", &path, e))?;
            if kind != Kind::File {
                if kind != Kind::Missing {
                    found.warnings.push(format!(
                        "{shown}: {}, not a turnsheet; ignored and left alone",
                        kind.described()
                    ));
                }
                continue;
            }
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                found
                    .warnings
                    .push(format!("{shown}: not a turnsheet's name; ignored"));
                continue;
            };
            if name.eq_ignore_ascii_case(GM_MESSAGES_FILE) {
                if let Some(other) = &found.gm {
                    return Err(Error::new(format!(
                        "{} and {shown} are both the GM's messages; remove one",
                        dir.join(other).display()
                    )));
                }
                found.gm = Some(name);
                continue;
            }
            // The GM's rulings wait beside the sheets, under a name no seat has.
            if name.eq_ignore_ascii_case(crate::gamedir::RULINGS_FILE) {
                found
                    .sheets
                    .insert(crate::gamedir::RULINGS.to_string(), name);
                continue;
            }
            let stem = name
                .rsplit_once('.')
                .filter(|(_, ext)| ext.eq_ignore_ascii_case("txt"))
                .map(|(stem, _)| stem)
                .filter(|stem| crate::seat::SeatCode::parse(stem).is_some());
            let Some(stem) = stem else {
                found.warnings.push(format!(
                    "{shown}: not a turnsheet (turnsheets are named <CODE>.txt, e.g. {}.txt); ignored",
                    codes.first().map_or("EN", String::as_str)
                ));
                continue;
            };
            let Some(code) = codes.iter().find(|c| c.eq_ignore_ascii_case(stem)).cloned() else {
                found.warnings.push(format!(
                    "{shown}: {} is not an empire or seat of this game (the seats are {}); ignored",
                    stem.to_ascii_uppercase(),
                    codes.join(", ")
                ));
                continue;
            };
            if let Some(other) = found.sheets.get(&code) {
                return Err(Error::new(format!(
                    "{} and {shown} are both orders for {code}; remove one",
                    dir.join(other).display()
                )));
            }
            found.sheets.insert(code, name);
        }
        Ok(found)
    }

    /// Starts turn `turn`: creates `turns/NNNN.tmp/orders/` and moves every waiting
    /// turnsheet into it. On failure everything taken is put back.
    pub fn take_orders(&self, turn: u32, codes: &[String]) -> Result<Taken> {
        self.bring_ahead(turn)?;
        let mut waiting = self.waiting(codes)?;
        let tmp = self.tmp_dir(turn);
        let to = tmp.join(ORDERS_DIR);
        fs::create_dir(&tmp).map_err(|e| Error::io("cannot create", &tmp, e))?;
        fs::create_dir(&to).map_err(|e| Error::io("cannot create", &to, e))?;
        let from = self.orders_dir();
        let mut gone = Vec::new();
        let names: Vec<String> = waiting.names().cloned().collect();
        for name in names {
            let (src, dst) = (from.join(&name), to.join(&name));
            match fs::rename(&src, &dst) {
                Ok(()) => {}
                // Taken away since it was listed: it was never there for this turn.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    gone.push(name);
                    continue;
                }
                Err(e) => {
                    let err = Error::io("cannot move", &src, e);
                    return Err(self.undo(err));
                }
            }
            // Replaced by something else between the look and the move: put it back.
            if Kind::of(&dst).ok() != Some(Kind::File) {
                if let Err(e) = files::move_no_replace(&dst, &src) {
                    return Err(self.undo(Error::io("cannot move back", &dst, e)));
                }
                waiting
                    .warnings
                    .push(format!("{}: not a plain file; ignored", src.display()));
                gone.push(name);
            }
        }
        waiting.sheets.retain(|_, n| !gone.contains(n));
        waiting.gm = waiting.gm.filter(|n| !gone.contains(n));
        let superseded = match self.take_superseded(&to) {
            Ok(names) => names,
            Err(e) => return Err(self.undo(e)),
        };
        // No flush here: a move leaves a sheet in exactly one of the two folders, flushed or
        // not, and a rollback puts back whatever it finds where the record says it went
        // (a sheet still in `orders/` is simply already back).
        Ok(Taken {
            tmp,
            waiting,
            superseded,
        })
    }

    /// Moves the sheets sent ahead for turn `turn` (`ahead/NNNN/`) into `orders/`, where
    /// they wait as if sent now. A seat that sent another sheet since (its step had come)
    /// keeps the newer one; the one sent ahead is kept with the turn as superseded. Each
    /// move is one rename, so a crash leaves every sheet in one place or the other, and
    /// the next try brings the rest.
    fn bring_ahead(&self, turn: u32) -> Result<()> {
        let from = self
            .root()
            .join(crate::gamedir::AHEAD_DIR)
            .join(crate::gamedir::turn_name(turn));
        if Kind::of(&from).map_err(|e| Error::io("cannot read", &from, e))? != Kind::Directory {
            return Ok(());
        }
        let to = self.orders_dir();
        fs::create_dir_all(&to).map_err(|e| Error::io("cannot create", &to, e))?;
        for entry in files::read_dir_sorted(&from)? {
            let name = entry.file_name();
            let waiting = files::read_dir_sorted(&to)?
                .iter()
                .any(|e| e.file_name().eq_ignore_ascii_case(&name));
            let dest = if waiting {
                let held = self.held_dir();
                fs::create_dir_all(&held).map_err(|e| Error::io("cannot create", &held, e))?;
                held.join(&name)
            } else {
                to.join(&name)
            };
            files::move_no_replace(&entry.path(), &dest)
                .map_err(|e| Error::io("cannot move", &entry.path(), e))?;
        }
        // Empty now; one left behind by a crash is tried again next time.
        let _ = fs::remove_dir(&from);
        Ok(())
    }

    /// `turns/superseded/`: sheets replaced after an interrupted turn, until the next turn
    /// keeps them.
    pub fn held_dir(&self) -> PathBuf {
        self.turns_dir().join(SUPERSEDED_DIR)
    }

    /// Moves the held superseded sheets into the turn's `orders/superseded/`.
    fn take_superseded(&self, orders: &Path) -> Result<Vec<String>> {
        let held = self.held_dir();
        if Kind::of(&held).map_err(|e| Error::io("cannot read", &held, e))? != Kind::Directory {
            return Ok(Vec::new());
        }
        let mut names = Vec::new();
        for entry in files::read_dir_sorted(&held)? {
            let from = entry.path();
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            if Kind::of(&from).ok() != Some(Kind::File) {
                continue;
            }
            let aside = orders.join(SUPERSEDED_DIR);
            if names.is_empty() {
                fs::create_dir(&aside).map_err(|e| Error::io("cannot create", &aside, e))?;
            }
            files::move_no_replace(&from, &aside.join(&name))
                .map_err(|e| Error::io("cannot move", &from, e))?;
            names.push(name);
        }
        Ok(names)
    }

    /// Puts an unreadable turnsheet aside within the turn, in `orders/unreadable/`, so that
    /// it is kept with the turn while the computer writes its empire's orders.
    pub fn set_aside(&self, taken: &Taken, name: &str) -> Result<()> {
        let aside = taken.orders().join(UNREADABLE_DIR);
        if Kind::of(&aside).map_err(|e| Error::io("cannot read", &aside, e))? == Kind::Missing {
            fs::create_dir(&aside).map_err(|e| Error::io("cannot create", &aside, e))?;
        }
        let from = taken.orders().join(name);
        files::move_no_replace(&from, &aside.join(name))
            .map_err(|e| Error::io("cannot move", &from, e))
    }

    /// Rolls back after `err`, adding to it if even that fails: the next command's recovery
    /// then tries again.
    pub fn undo(&self, err: Error) -> Error {
        match self.recover() {
            Ok(_) => err,
            Err(again) => Error::new(format!("{err}; and rolling back failed too: {again}")),
        }
    }
}

/// What rolling back an interrupted turn gave back.
#[derive(Debug, Default)]
pub struct Restored {
    /// The sheets back in `orders/`.
    pub back: Vec<String>,
    /// Sheets sent for the interrupted turn whose seat has sent a newer one since: held in
    /// `turns/superseded/` (under the name given here) for the next turn to keep.
    pub superseded: Vec<String>,
    /// GM's messages sent for the interrupted turn, put before those sent since.
    pub joined: Vec<String>,
}

/// Moves the turnsheets the players sent for an interrupted turn, `tmp`, back to `orders`,
/// and the superseded sheets it took back to `held`. Where a seat has sent a newer sheet
/// since, that one stays and the older is held as superseded.
pub fn restore(tmp: &Path, orders: &Path, held: &Path) -> Result<Restored> {
    let taken = tmp.join(ORDERS_DIR);
    let aside = taken.join(UNREADABLE_DIR);
    let kept = taken.join(SUPERSEDED_DIR);
    let record_path = tmp.join(RECORD_FILE);
    let mut back: Vec<PathBuf> = Vec::new();
    let mut held_back: Vec<PathBuf> = Vec::new();
    if Kind::of(&record_path).map_err(|e| Error::io("cannot read", &record_path, e))? == Kind::File
    {
        let text = files::read_text_in_game(&record_path, files::MAX_SMALL_BYTES)?;
        let record: TurnRecord = serde_json::from_str(&text).map_err(|e| {
            Error::new(format!(
                "{}: {e}; it tells the players' turnsheets from the computer's, so the \
                 interrupted turn is not rolled back without it",
                record_path.display()
            ))
        })?;
        for name in &record.sent {
            back.push(taken.join(plain_name(name, &record_path)?));
        }
        for name in &record.unreadable {
            back.push(aside.join(plain_name(name, &record_path)?));
        }
        for name in &record.superseded {
            held_back.push(kept.join(plain_name(name, &record_path)?));
        }
    } else {
        // No record: the computer has written nothing yet, so all there is was sent. (A
        // turn interrupted by an older version of this program moved the whole `orders/`
        // here, subdirectories included: they go back too.)
        for dir in [&taken, &aside, &kept] {
            if Kind::of(dir).ok() != Some(Kind::Directory) {
                continue;
            }
            for entry in files::read_dir_sorted(dir)? {
                let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
                let ours = dir == &taken
                    && (entry.file_name() == UNREADABLE_DIR || entry.file_name() == SUPERSEDED_DIR);
                if dir == &kept {
                    held_back.push(entry.path());
                } else if !is_dir || (dir == &taken && !ours) {
                    back.push(entry.path());
                }
            }
        }
    }
    let mut restored = Restored::default();
    for from in held_back {
        if let Some(name) = hold(&from, held)? {
            restored.superseded.push(name);
        }
    }
    for from in back {
        let Some(name) = from.file_name() else {
            continue;
        };
        let name = name.to_string_lossy().into_owned();
        let to = orders.join(&name);
        let moved = if Kind::of(&from).ok() == Some(Kind::Directory) {
            match Kind::of(&to) {
                Ok(Kind::Missing) => fs::rename(&from, &to),
                Ok(_) => Err(std::io::ErrorKind::AlreadyExists.into()),
                Err(e) => Err(e),
            }
        } else {
            files::move_no_replace(&from, &to)
        };
        match moved {
            Ok(()) => restored.back.push(name),
            // Already moved back by an earlier, interrupted recovery.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                if name.eq_ignore_ascii_case(GM_MESSAGES_FILE)
                    && Kind::of(&from).ok() == Some(Kind::File)
                {
                    join_gm_messages(&from, &to)?;
                    restored.joined.push(name);
                } else if Kind::of(&from).ok() == Some(Kind::File) {
                    // 2.4: the latest sheet of a seat is the one played; the older is kept.
                    if let Some(held_as) = hold(&from, held)? {
                        restored.superseded.push(held_as);
                    }
                } else {
                    return Err(Error::new(format!(
                        "{} was sent for an interrupted turn, and {} has arrived since; move \
                         one of them away and run the command again",
                        from.display(),
                        to.display()
                    )));
                }
            }
            Err(e) => return Err(Error::io("cannot move back", &from, e)),
        }
    }
    Ok(restored)
}

/// Moves a superseded sheet into `held` under a name not yet taken there (`EN.txt`, then
/// `EN-2.txt`...); its name there, or `None` when it had already been moved.
fn hold(from: &Path, held: &Path) -> Result<Option<String>> {
    let Some(name) = from.file_name().and_then(|n| n.to_str()) else {
        return Ok(None);
    };
    match Kind::of(from).map_err(|e| Error::io("cannot read", from, e))? {
        Kind::File => {}
        Kind::Missing => return Ok(None),
        other => {
            return Err(Error::new(format!(
                "{}: is {}, not a superseded turnsheet",
                from.display(),
                other.described()
            )));
        }
    }
    if Kind::of(held).map_err(|e| Error::io("cannot read", held, e))? == Kind::Missing {
        fs::create_dir(held).map_err(|e| Error::io("cannot create", held, e))?;
    }
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    for n in 1u32.. {
        let candidate = match (n, ext) {
            (1, _) => name.to_string(),
            (_, "") => format!("{stem}-{n}"),
            _ => format!("{stem}-{n}.{ext}"),
        };
        match files::move_no_replace(from, &held.join(&candidate)) {
            Ok(()) => return Ok(Some(candidate)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(Error::io("cannot move", from, e)),
        }
    }
    Ok(None)
}

/// The GM's messages sent for an interrupted turn, `older`, put before those sent since,
/// `newer`, in one `gm.txt`: they add up, as when the GM sends twice for one turn.
fn join_gm_messages(older: &Path, newer: &Path) -> Result<()> {
    let old = files::read_in_game(older, files::MAX_STATE_BYTES)?;
    let new = files::read_in_game(newer, files::MAX_STATE_BYTES)?;
    files::write_atomic(newer, &[&old[..], b"\n\n", &new[..]].concat())?;
    fs::remove_file(older).map_err(|e| Error::io("cannot remove", older, e))
}

/// A file name from a turn's record, refusing anything that would reach another folder.
fn plain_name<'a>(name: &'a str, record: &Path) -> Result<&'a str> {
    if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
        return Err(Error::new(format!(
            "{}: `{name}` is not a turnsheet's file name",
            record.display()
        )));
    }
    Ok(name)
}
