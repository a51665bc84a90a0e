//! Where games are kept, behind one interface: a game directory of plain files
//! ([`dir::DirStore`]), an SQLite file (the host's embedded default) or a PostgreSQL
//! database ([`sql::SqlStore`]). Every store plays a turn through the same pipeline
//! ([`crate::turn::play_sheets`]) and commits it as one unit: the state, the events, the
//! reports and the turnsheets it consumed, or nothing.
//!
//! A turn is stored as the files a game directory holds for it (`state.json`,
//! `events.json`, `state.sha256`, `turn.json`, `orders/`, `reports/`), byte for byte, so
//! that a game moves between stores unchanged (`empires export`, `empires import`) and
//! every store replays the same way (`empires verify`).

pub mod dir;
pub mod sql;

pub mod accounts;
mod ledgers;
mod mailroom;
mod schedules;
mod upkeep;
pub use accounts::{AccountLog, AccountRecords, Accounts, Addresses, Invitations, LoginLimits};
pub use ledgers::Ledgers;
pub use mailroom::Mailroom;
pub use schedules::Schedules;
pub use upkeep::Upkeep;

/// What the doors read and write through those traits.
pub use sql::{
    Account, AccountLogLine, CatchUp, Direction, Due, GameEntry, GameSchedule, HostLimits,
    Invitation, LinkPurpose, MailLogEntry, OutMail, OutboxEntry, Queued, ReminderDue,
    ReportRecipient, Role, Seen, TokenEntry, reminders_text,
};

/// Every trait of the store, to bring their methods into scope at once.
pub mod prelude {
    pub use super::{
        AccountLog, AccountRecords, Accounts, Addresses, Invitations, Ledgers, LoginLimits,
        Mailroom, Schedules, Store, Upkeep,
    };
}

use crate::error::{Error, Result};
use crate::gamedir::ORDERS_DIR;
use crate::gamedir::REPORTS_DIR;
pub use crate::ruleset::Readers;
pub use crate::seat::SeatCode;
use crate::turn::{TurnOptions, TurnReport};
use async_trait::async_trait;
use std::sync::Arc;

/// What a door holds of the host's storage: its games, on any [`Store`], and, kept in the
/// host's database, its accounts, mail, schedules, ledgers and limits, each behind a small
/// trait of its own, so that a door names what it uses and never the database.
#[derive(Clone)]
pub struct Services {
    pub games: Arc<dyn Store>,
    pub accounts: Arc<dyn Accounts>,
    pub mail: Arc<dyn Mailroom>,
    pub schedules: Arc<dyn Schedules>,
    pub ledgers: Arc<dyn Ledgers>,
    pub limits: Arc<dyn Upkeep>,
}

impl Services {
    /// Opens the database at `url` ([`sql::SqlStore::open`]) for everything.
    pub async fn open(url: &str) -> Result<Services> {
        Ok(Services::of(sql::SqlStore::open(url).await?))
    }

    /// Opens a database that is there already ([`sql::SqlStore::open_existing`]).
    pub async fn open_existing(url: &str) -> Result<Services> {
        Ok(Services::of(sql::SqlStore::open_existing(url).await?))
    }

    /// Everything kept in one database.
    pub fn of(store: sql::SqlStore) -> Services {
        let store = Arc::new(store);
        Services {
            games: store.clone(),
            accounts: store.clone(),
            mail: store.clone(),
            schedules: store.clone(),
            ledgers: store.clone(),
            limits: store,
        }
    }
}

/// The files of a turn (or what is pending): (path, bytes), sorted by path.
pub type Files = Vec<(String, Vec<u8>)>;

/// Milliseconds since 1970 (UTC): the host's clock, given to every call that records a
/// time, so that tests can set it.
pub type Millis = i64;

/// Who may read a file of a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reader {
    /// The GM alone: the true state, the events, the GM's summary and messages.
    Gm,
    /// One seat — an empire, a kingdom — and the GM: its reports and its turnsheets.
    Seat(SeatCode),
    /// Several seats and the GM: a report a ruleset writes for allies.
    Seats(Vec<SeatCode>),
    /// Everyone in the game: what holds nothing secret, like a map's outlines.
    All,
}

/// The name, before its first dot, of the parts every report of a turn shares.
const PUBLIC_STEM: &str = "public";

impl Reader {
    /// Who may read the file at `path` of a turn of a game whose seats are `seats`, decided
    /// when the turn is kept: a seat's own reports (`reports/EN.html`) and sheets
    /// (`orders/FRA.txt`, and its sheets kept aside in `orders/unreadable/` or
    /// `orders/superseded/`) and standing sheets (`standing/GRN.txt`), named for one of the
    /// game's seats; the parts every report shares (`reports/public.*`) everyone; anything
    /// else the GM alone, so that a file the
    /// host does not know, or one named like a seat that is not in the game, is never shown
    /// to a player.
    pub fn of_turn_file(path: &str, seats: &[SeatCode]) -> Reader {
        let name = path.rsplit('/').next().unwrap_or(path);
        let stem = name.split('.').next().unwrap_or(name);
        let in_reports = path
            .strip_prefix(&format!("{REPORTS_DIR}/"))
            .is_some_and(|rest| !rest.contains('/'));
        let in_orders = path.starts_with(&format!("{ORDERS_DIR}/"));
        let in_standing = path
            .strip_prefix(&format!("{}/", crate::gamedir::STANDING_DIR))
            .is_some_and(|rest| !rest.contains('/'));
        if in_reports && stem == PUBLIC_STEM {
            return Reader::All;
        }
        if !(in_reports || in_orders || in_standing) {
            return Reader::Gm;
        }
        match seats.iter().find(|s| s.as_str() == stem) {
            Some(seat) => Reader::Seat(*seat),
            None => Reader::Gm,
        }
    }

    /// Who may read a file, as the ruleset that wrote it declared ([`Readers`]), among the
    /// game's `seats`: a seat named that is not in the game reads nothing.
    pub fn declared(readers: &Readers, seats: &[SeatCode]) -> Reader {
        let codes = match readers {
            Readers::Gm => return Reader::Gm,
            Readers::Everyone => return Reader::All,
            Readers::Seats(codes) => codes,
        };
        let mut known: Vec<SeatCode> = seats
            .iter()
            .filter(|s| codes.iter().any(|c| c == s.as_str()))
            .copied()
            .collect();
        match known.len() {
            0 => Reader::Gm,
            1 => Reader::Seat(known.remove(0)),
            _ => Reader::Seats(known),
        }
    }

    /// As stored: `gm`, `all`, a seat's code, or several codes with a space between.
    pub fn as_text(&self) -> String {
        match self {
            Reader::Gm => "gm".into(),
            Reader::All => "all".into(),
            Reader::Seat(c) => c.to_string(),
            Reader::Seats(cs) => cs.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(" "),
        }
    }

    /// Reads a reader back as stored; an unknown one is the GM's alone.
    pub fn from_text(text: &str) -> Reader {
        match text {
            "all" => Reader::All,
            "gm" => Reader::Gm,
            codes if codes.contains(' ') => {
                let parsed: Option<Vec<SeatCode>> = codes.split(' ').map(SeatCode::parse).collect();
                parsed.map_or(Reader::Gm, Reader::Seats)
            }
            code => SeatCode::parse(code).map_or(Reader::Gm, Reader::Seat),
        }
    }

    /// Whether `viewer` (a seat, or the GM when `None`) may read a file for this reader.
    pub fn allows(&self, viewer: Option<SeatCode>) -> bool {
        match (self, viewer) {
            (_, None) | (Reader::All, _) => true,
            (Reader::Seat(c), Some(v)) => *c == v,
            (Reader::Seats(cs), Some(v)) => cs.contains(&v),
            (Reader::Gm, Some(_)) => false,
        }
    }
}

/// A turnsheet (or the GM's messages) as a door received it.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The seat that sent it; `None` for the GM's messages to every player (10.6).
    pub empire: Option<SeatCode>,
    /// The bytes as received; kept as they are.
    pub body: Vec<u8>,
    /// Which door it came through: `cli`, `web`, `mail`, `import`.
    pub door: String,
    pub received_at: Millis,
    /// The turn the sender's checks were made for: refused if the game has moved on since,
    /// so that a sheet is never kept for a turn it was not checked against. `None` takes
    /// whichever turn is next.
    pub for_turn: Option<u32>,
    /// Late orders (2.4, decision 22): written for a turn already played, kept for the next
    /// turn and played only if the empire sends nothing newer for it.
    pub late: bool,
}

/// What a store kept of a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    /// The turn it is for.
    pub for_turn: u32,
    /// Lower-case hex SHA-256 of the bytes kept.
    pub sha256: String,
    /// The hash of the submission it replaces, if the empire had sent one for that turn.
    pub replaces: Option<String>,
}

/// A sheet (or a GM's message) a store gave a receipt for that was neither played in the
/// turn the receipt named nor is still pending for it: what a store must never hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stranded {
    /// The seat that sent it; `None` for a GM's message.
    pub seat: Option<String>,
    pub for_turn: u32,
    pub sha256: String,
    pub door: String,
    pub received_at: Millis,
}

impl std::fmt::Display for Stranded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let who = match &self.seat {
            Some(s) => format!("{s}'s sheet"),
            None => "a GM's message".to_string(),
        };
        write!(
            f,
            "{who} received through {} for turn {} (SHA-256 {}) was never played",
            self.door, self.for_turn, self.sha256
        )
    }
}

/// What `undo` took back.
#[derive(Debug, Clone)]
pub struct Undone {
    pub turn: u32,
    /// The turnsheets (and GM messages) pending again, by file name.
    pub pending: Vec<String>,
    pub warnings: Vec<String>,
}

/// A place games are kept. Every method is one unit of work: it happens whole or not at all.
#[async_trait]
pub trait Store: Send + Sync {
    /// How to name `game` of this store in a message: a directory, or a game in a database.
    fn describe(&self, game: &str) -> String;

    /// The name a sheet's `GAME` line gives the game kept under `key`: in a database the
    /// name it is kept by; `None` where the game's own name (its state's) is used, as in a
    /// directory, whose key is a path.
    fn sheet_game(&self, key: &str) -> Option<String> {
        Some(key.to_string())
    }

    /// Keeps the new game `started`, of `ruleset`, under `key`, at its starting position
    /// with the starting position's reports (and, in a database, an account for each
    /// player the game names).
    async fn create_game(
        &self,
        key: &str,
        ruleset: &'static dyn crate::ruleset::Ruleset,
        started: &crate::ruleset::Started,
        now: Millis,
    ) -> Result<()>;

    /// The game as texts, whichever its ruleset, at the turn it stands.
    async fn hosted(&self, game: &str) -> Result<crate::ruleset::HostedGame>;

    /// The games kept here, each with its current turn, by name. A game directory is a
    /// store of one game, named by its path, and lists none.
    async fn games(&self) -> Result<Vec<(String, u32)>> {
        Ok(Vec::new())
    }

    /// The ruleset `game` is played under.
    async fn ruleset(&self, game: &str) -> Result<&'static dyn crate::ruleset::Ruleset> {
        Ok(self.hosted(game).await?.ruleset)
    }

    /// The deadline (with its grace) of the turn waiting, if it had passed at `at` while
    /// the turn still waits to be played; `None` with no deadline, or none passed.
    async fn deadline_passed(&self, game: &str, at: Millis) -> Result<Option<Millis>> {
        let _ = (game, at);
        Ok(None)
    }

    /// Keeps a turnsheet (or the GM's messages) for the next turn; the latest one an empire
    /// sends for a turn is the one played.
    async fn submit(&self, game: &str, submission: &Submission) -> Result<Receipt>;

    /// Keeps a seat's standing sheet, in force from the next play until the seat sends
    /// another: what a seat its step does not expect, but allows a standing sheet, sends
    /// ([`crate::ruleset::Step::standing`]).
    async fn keep_standing(&self, game: &str, submission: &Submission) -> Result<Receipt>;
    /// Keeps `submission` under `name` for the turn `submission.for_turn` (the next when
    /// `None`, or a later one): the GM's rulings ([`crate::gamedir::RULINGS`]) for the next
    /// step, or a seat's sheet sent ahead for its own next step. The latest kept under a name
    /// for a turn is the one played; one for a turn already played is refused.
    async fn keep_for(&self, game: &str, name: &str, submission: &Submission) -> Result<Receipt>;

    /// The standing sheets in force, as their files (`standing/SEAT.txt`), sorted.
    async fn standing(&self, game: &str) -> Result<Files>;
    /// The sheets sent ahead, each seat's latest for each later step, as the files a
    /// directory keeps them in: `ahead/NNNN/SEAT.txt`, sorted.
    async fn ahead(&self, game: &str) -> Result<Files>;

    /// Every receipt the store gave that its turns broke: a sheet kept for a turn that has
    /// been played without it, though no later sheet of its seat replaced it. Empty on a
    /// sound store. A game directory keeps no receipts apart from its files, so it finds
    /// none.
    async fn stranded_receipts(&self, game: &str) -> Result<Vec<Stranded>> {
        let _ = game;
        Ok(Vec::new())
    }

    /// The files pending for the next turn, as a game directory's `orders/` names them
    /// (`EN.txt`, `gm.txt`), with their bytes.
    async fn pending(&self, game: &str) -> Result<Files>;

    /// Plays the next turn and keeps it, all in one commit; exactly one of several processes
    /// playing the same turn at once does, the others are told.
    async fn play_turn(&self, game: &str, options: TurnOptions, now: Millis) -> Result<TurnReport>;

    /// Takes back the last turn: what was sent for it is pending again.
    async fn undo(&self, game: &str, now: Millis) -> Result<Undone>;

    /// Every file of a turn, by path within the turn (`state.json`, `reports/EN.html`),
    /// sorted by path.
    async fn turn_files(&self, game: &str, turn: u32) -> Result<Files>;

    /// Ends `game` on its GM's word, before or apart from its rules: it takes no more sheets
    /// or messages, the clock plays no more turns and its deadline is cleared. Its turns
    /// and reports stay as they are; `undo` of its last turn opens it again.
    async fn end_game(&self, game: &str, _now: Millis) -> Result<()> {
        Err(crate::error::Error::new(format!(
            "{}: a game kept in a directory is ended by its GM by no longer playing it",
            self.describe(game)
        )))
    }

    /// When `game` ended, by its rules or by its GM, if it has.
    async fn ended_at(&self, _game: &str) -> Result<Option<Millis>> {
        Ok(None)
    }

    /// When each turn of `game` was played, newest first, at most `limit` (0 and the
    /// starting position included); none where the store keeps no times.
    async fn turn_times(&self, _game: &str, _limit: i64) -> Result<Vec<(u32, Millis)>> {
        Ok(Vec::new())
    }

    /// One file of a turn, for `viewer` (an empire, or the GM when `None`): refused, as if
    /// it were not there, when the viewer may not read it.
    async fn turn_file(
        &self,
        game: &str,
        turn: u32,
        path: &str,
        viewer: Option<SeatCode>,
    ) -> Result<Vec<u8>>;
}

/// The readers a ruleset declared for some of a turn's files, by path.
pub type Declared = std::collections::BTreeMap<String, Readers>;

/// A turn's files sorted by path, refused if two have the same path.
pub fn sorted_unique(mut files: Files) -> Result<Files> {
    files.sort();
    match files.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        Some(pair) => Err(Error::new(format!(
            "a turn would hold two files named {}",
            pair[0].0
        ))),
        None => Ok(files),
    }
}

/// Opens the store a door names: a `sqlite:` or `postgres://` URL.
pub async fn open_url(url: &str) -> Result<sql::SqlStore> {
    sql::SqlStore::open(url).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(c: &str) -> SeatCode {
        SeatCode::parse(c).unwrap()
    }

    #[test]
    fn each_file_has_its_reader() {
        let seats = [code("EN"), code("FR"), code("FRA"), code("IND")];
        let of = |path: &str| Reader::of_turn_file(path, &seats);
        assert_eq!(of("reports/EN.html"), Reader::Seat(code("EN")));
        assert_eq!(of("reports/EN.map.js"), Reader::Seat(code("EN")));
        assert_eq!(of("orders/FR.txt"), Reader::Seat(code("FR")));
        assert_eq!(of("orders/unreadable/FR.txt"), Reader::Seat(code("FR")));
        assert_eq!(of("orders/superseded/FR.txt"), Reader::Seat(code("FR")));
        assert_eq!(of("reports/gm.txt"), Reader::Gm);
        assert_eq!(of("orders/gm.txt"), Reader::Gm);
        assert_eq!(of("state.json"), Reader::Gm);
        assert_eq!(of("events.json"), Reader::Gm);
        assert_eq!(of("turn.json"), Reader::Gm);
        assert_eq!(of("reports/public.html"), Reader::All);
        assert_eq!(of("reports/public.js"), Reader::All);
        assert_eq!(of("reports/FRA.html"), Reader::Seat(code("FRA")));
        assert_eq!(of("orders/FRA.txt"), Reader::Seat(code("FRA")));
        assert_eq!(of("computer/IND.json"), Reader::Gm);
        assert_eq!(of("orders/notes.txt"), Reader::Gm);
        // A turn's copy of a standing sheet is its seat's, a game moved in or not; the GM's
        // rulings are the GM's.
        assert_eq!(of("standing/FR.txt"), Reader::Seat(code("FR")));
        assert_eq!(of("standing/old/FR.txt"), Reader::Gm);
        assert_eq!(of("orders/rulings.txt"), Reader::Gm);
        // What the host does not know is the GM's alone: a report named like a seat that
        // is not in the game, a shared-looking file it never writes, a nested report.
        assert_eq!(of("reports/SC.html"), Reader::Gm);
        assert_eq!(of("reports/outlines.js"), Reader::Gm);
        assert_eq!(of("reports/ABCDE.html"), Reader::Gm);
        assert_eq!(of("reports/x/public.html"), Reader::Gm);
        assert_eq!(of("reports/en.html"), Reader::Gm);
    }

    #[test]
    fn a_reader_lets_in_only_its_own() {
        let en = Reader::Seat(code("EN"));
        assert!(en.allows(Some(code("EN"))));
        assert!(!en.allows(Some(code("FR"))));
        assert!(en.allows(None));
        assert!(!Reader::Gm.allows(Some(code("EN"))));
        assert!(Reader::All.allows(Some(code("FR"))));
        let fra = Reader::Seat(code("FRA"));
        assert!(!fra.allows(Some(code("FR"))));
        assert!(fra.allows(Some(code("fra"))));
    }

    /// What a ruleset declares is kept as declared, among the game's seats only, and reads
    /// back as it was stored.
    #[test]
    fn a_declared_reader_is_kept_among_the_games_seats() {
        let seats = [code("FRA"), code("PRU"), code("AUS")];
        let of = |r: Readers| Reader::declared(&r, &seats);
        let list = |cs: &[&str]| Readers::Seats(cs.iter().map(|c| c.to_string()).collect());
        assert_eq!(of(Readers::Gm), Reader::Gm);
        assert_eq!(of(Readers::Everyone), Reader::All);
        assert_eq!(of(list(&["PRU"])), Reader::Seat(code("PRU")));
        // A seat not in the game reads nothing: alone it leaves the GM's file.
        assert_eq!(of(list(&["RUS"])), Reader::Gm);
        assert_eq!(of(list(&["rus", "PRU"])), Reader::Seat(code("PRU")));
        let allies = of(list(&["FRA", "PRU", "XYZ"]));
        assert_eq!(allies, Reader::Seats(vec![code("FRA"), code("PRU")]));
        assert!(allies.allows(Some(code("FRA"))) && allies.allows(Some(code("PRU"))));
        assert!(!allies.allows(Some(code("AUS"))));
        assert!(allies.allows(None));
        for r in [allies, Reader::Gm, Reader::All, Reader::Seat(code("AUS"))] {
            assert_eq!(Reader::from_text(&r.as_text()), r);
        }
        // A stored list with anything that is no seat's code is the GM's.
        assert_eq!(Reader::from_text("FRA ?"), Reader::Gm);
    }
}
