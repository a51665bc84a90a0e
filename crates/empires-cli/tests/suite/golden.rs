//! Golden turns: a World, a European and a Napoleonic game played ten turns through the
//! command line on a directory, on SQLite and (with `DATABASE_URL`) on PostgreSQL, every
//! file of every turn compared by SHA-256 with the list kept in `tests/golden/`. The host
//! may be rebuilt inside; what a game's turns hold must not change by accident.
//!
//! A change to what turns hold that is meant is made by running the test with
//! `EMPIRES_BLESS=1`, which writes the lists again, and listing the change and its reason
//! in [`INTENDED`], so that the history of the lists says why each line moved.

use crate::common::{self, ok, s};
use empires_cli::commands::hosted::block_on;
use empires_host::gamedir::sha256_hex;
use empires_host::store::Store;
use empires_host::store::sql::SqlStore;
use empires_testkit::{drop_postgres, fresh_postgres};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Changes made on purpose to what turns hold since the lists were first written, newest
/// last: (what, why).
pub const INTENDED: &[(&str, &str)] = &[
    (
        "the blank turnsheet at the end of each report of a game kept in a database (its text \
     and HTML pages) gives the game's name in the database on its GAME line, not its title",
        "the mail door finds a game by that line: a sheet mailed back from the report was \
     refused whenever the two differed; the mail attachment and the web editor hand out the \
     same text",
    ),
    (
        "a Napoleonic game kept in a directory keeps its turns as every game and store does: \
         turns/NNNN named for the turns played (the starting position is 0000, not 0001), \
         each with its turn.json record, and no copy of every seat's blank sheet (sheets/)",
        "one directory layout for every ruleset, the one a database keeps a turn's files in, \
         so that verify, export and import read any game's turns; a blank sheet is made \
         again by `empires sheet`",
    ),
    (
        "every text report (Empires and Napoleonic) and every Napoleonic order sheet is 78 \
         columns wide, not 80: the Empires table of areas gives names two characters fewer",
        "a mail program shows 78 columns without wrapping them (RFC 5322's advice): at 80, \
         a report mailed as text broke its tables on a phone or in a reader that wraps",
    ),
    (
        "a Napoleonic game's starting position (turn 0000) holds each kingdom's report, in \
         its three forms, as an Empires game's does; the turns played are unchanged",
        "a player sees the map of Europe and their kingdom before turn 1, on the web and in \
         the first report mail, which comes with the blank order sheet",
    ),
    (
        "every Empires turn's turn.json records rules version 2, not 1; nothing else moves \
         in the World, Medieval or European lists",
        "decision 39 lets Australian Empires fly, which changes Australian turns where AIR is \
         ordered: `verify` of a turn played before tells the two apart by the version",
    ),
];

const TURNS: u32 = 10;

#[derive(Clone, Copy)]
enum Game {
    World,
    European,
    Napoleonic,
}

impl Game {
    fn name(self) -> &'static str {
        match self {
            Game::World => "world",
            Game::European => "european",
            Game::Napoleonic => "napoleonic",
        }
    }

    /// `empires new` for the game at `target` (a directory, or a name with `--db`).
    fn create(self, target: &str, db: Option<&str>) {
        let mut args: Vec<&str> = match self {
            Game::World => vec![
                "new", target, "--map", "world", "--seed", "11", "--player", "GB=alice",
                "--player", "FR=bob",
            ],
            Game::European => vec![
                "new", target, "--map", "european", "--seed", "12", "--player", "EN=alice",
                "--player", "FR=bob",
            ],
            Game::Napoleonic => vec![
                "napoleonic",
                "new",
                target,
                "--seed",
                "13",
                "--name",
                "golden",
            ],
        };
        if let Some(url) = db {
            if matches!(self, Game::Napoleonic) {
                // A database game is named by its target; `--name` is for directories.
                args.truncate(args.len() - 2);
            }
            args.extend(["--db", url]);
        }
        ok(&args);
    }

    /// A sheet a player sends for turn 1, and the seat it is for; Napoleonic games are
    /// played by the computer throughout.
    fn first_sheet(self) -> Option<(&'static str, &'static str)> {
        match self {
            Game::World => Some(("GB", "TAX\nTAX\nMESSAGE Hello from London\n")),
            Game::European => Some(("EN", "TAX\nTAX\n")),
            Game::Napoleonic => None,
        }
    }

    fn play(self, target: &str, db: Option<&str>) {
        let mut args = match (self, db) {
            (Game::Napoleonic, None) => vec!["napoleonic", "turn", target],
            (Game::Napoleonic, Some(_)) => vec!["turn", target],
            _ => vec!["turn", target, "--yes"],
        };
        if let Some(url) = db {
            args.extend(["--db", url]);
        }
        ok(&args);
    }
}

/// Every file of every turn, one line each: `NNNN/path sha256`.
type Listing = String;

fn line(out: &mut Listing, turn: &str, path: &str, bytes: &[u8]) {
    let _ = writeln!(out, "{turn}/{path} {}", sha256_hex(bytes));
}

fn listing_of_dir(game: &Path) -> Listing {
    let mut files = Vec::new();
    let turns = game.join("turns");
    let mut stack = vec![turns.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(&turns)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    files.sort();
    let mut out = Listing::new();
    for (rel, bytes) in files {
        let (turn, path) = rel.split_once('/').unwrap_or(("", &rel));
        line(&mut out, turn, path, &bytes);
    }
    out
}

fn listing_of_db(url: &str, game: &str) -> Listing {
    block_on(async {
        let store = SqlStore::open(url).await.unwrap();
        let mut out = Listing::new();
        for t in 0..=TURNS + 1 {
            let Ok(files) = store.turn_files(game, t).await else {
                continue;
            };
            for (path, bytes) in files {
                line(&mut out, &format!("{t:04}"), &path, &bytes);
            }
        }
        out
    })
}

fn play_through(game: Game, target: &str, db: Option<&str>, tmp: &Path) {
    game.create(target, db);
    if let Some((seat, text)) = game.first_sheet() {
        let sheet = tmp.join(format!("{}-{seat}.txt", game.name()));
        std::fs::write(&sheet, text).unwrap();
        let mut args = vec!["submit", target, s(&sheet), "--empire", seat];
        if let Some(url) = db {
            args.extend(["--db", url]);
        }
        ok(&args);
    }
    for _ in 0..TURNS {
        game.play(target, db);
    }
}

fn golden_path(game: Game, store: &str) -> PathBuf {
    common::repo()
        .join("crates/empires-cli/tests/golden")
        .join(format!("{}-{store}.txt", game.name()))
}

/// Compares `got` with the kept list, or writes it with `EMPIRES_BLESS=1`.
fn compare(game: Game, store: &str, what: &str, got: &Listing) {
    let path = golden_path(game, store);
    if std::env::var("EMPIRES_BLESS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; write it with EMPIRES_BLESS=1", path.display()));
    if &want == got {
        return;
    }
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let gone: Vec<&&str> = w.iter().filter(|l| !g.contains(l)).take(15).collect();
    let new: Vec<&&str> = g.iter().filter(|l| !w.contains(l)).take(15).collect();
    panic!(
        "{what}: the turns differ from {} ({} files kept, {} now).\nonly kept:\n{}\nonly now:\n{}\n\
         If the change is meant, run with EMPIRES_BLESS=1 and list it in golden::INTENDED \
         (which lists {} so far).",
        path.display(),
        w.len(),
        g.len(),
        gone.iter()
            .map(|l| format!("  {l}"))
            .collect::<Vec<_>>()
            .join("\n"),
        new.iter()
            .map(|l| format!("  {l}"))
            .collect::<Vec<_>>()
            .join("\n"),
        INTENDED.len(),
    );
}

fn golden(game: Game) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(game.name());
    play_through(game, s(&dir), None, tmp.path());
    compare(game, "dir", "a directory", &listing_of_dir(&dir));

    let sqlite = format!("sqlite:{}", tmp.path().join("host.db").display());
    play_through(game, "golden", Some(&sqlite), tmp.path());
    let kept = listing_of_db(&sqlite, "golden");
    compare(game, "db", "SQLite", &kept);

    let tag = format!("golden_{}", game.name());
    if let Some(url) = block_on(fresh_postgres(&tag)) {
        play_through(game, "golden", Some(&url), tmp.path());
        let on_pg = listing_of_db(&url, "golden");
        block_on(drop_postgres(&url));
        assert!(on_pg == kept, "PostgreSQL and SQLite keep different turns");
    }
}

#[test]
fn a_world_game_plays_the_turns_it_always_played() {
    golden(Game::World);
}

#[test]
fn a_european_game_plays_the_turns_it_always_played() {
    golden(Game::European);
}

#[test]
fn a_napoleonic_game_plays_the_turns_it_always_played() {
    golden(Game::Napoleonic);
}
