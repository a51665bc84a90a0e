//! Games kept in a database: SQLite (one file, the host's embedded default) or PostgreSQL
//! (for a host that outgrows one machine), chosen by the URL. The two share their SQL
//! text; each has its own schema migrations, embedded in the program and run when the
//! store is opened.
//!
//! A turn run is one transaction. Its first statement writes the game's row, which takes
//! the game's write lock (the database's on SQLite, the row's on PostgreSQL) until the
//! commit, so two processes never play the same turn: the second waits, then finds the
//! turn played and is told. A process killed in the middle holds nothing: its
//! transaction is rolled back and its lock released by the database at once.
//!
//! SQLite runs in WAL mode with `synchronous=NORMAL`: a committed turn survives the
//! process being killed; a power cut may lose the last transactions committed before it,
//! never leave half of one.

use super::{Files, Millis, Reader, Receipt, Store, Stranded, Submission, Undone};
use crate::error::{Error, Kind, Result};
use crate::gamedir::{STATE_FILE, sha256_hex};
use crate::seat::SeatCode;
use crate::store::prelude::*;
use crate::turn::{TurnOptions, TurnReport};
use async_trait::async_trait;
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use std::collections::BTreeMap;
use std::str::FromStr;
use std::time::Duration;

/// The GM's messages, as a game directory's `orders/` names them.
const GM_FILE: &str = crate::gamedir::GM_MESSAGES_FILE;

/// The version of the program that played a turn, recorded with it.
const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A database holding games.
#[derive(Clone)]
pub struct SqlStore {
    pool: Pool,
    /// The URL without its password, for messages.
    shown: String,
    /// The host's `sheets_kept` limit, read when the store is opened ([`limits`]).
    kept: std::sync::Arc<std::sync::atomic::AtomicU32>,
    /// Replacing sheets this process kept, by (game, seat, turn), since it last dropped
    /// superseded ones there ([`limits`]).
    replaced: std::sync::Arc<std::sync::Mutex<limits::Replaced>>,
    /// The SQLite database's file, whose write-ahead log is `<file>-wal`.
    sqlite_file: Option<std::path::PathBuf>,
}

/// What the write-ahead log of an SQLite store is truncated to after a checkpoint, and
/// the size past which the host checkpoints it ([`SqlStore::keep_wal_small`]): 64 MiB.
pub const WAL_CAP: u64 = 64 * 1024 * 1024;

#[derive(Clone)]
enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// The URL as it may be shown: without a password.
fn shown_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let userinfo = &url[s + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}{user}@{}", &url[..s + 3], &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

fn db_error(what: &str, shown: &str, e: sqlx::Error) -> Error {
    let kind = match &e {
        sqlx::Error::Io(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Tls(_) => Kind::Unavailable,
        sqlx::Error::ColumnDecode { .. } | sqlx::Error::Decode(_) => Kind::Corrupt,
        sqlx::Error::Database(d) if d.is_unique_violation() => Kind::Conflict,
        sqlx::Error::Database(d) => {
            let sqlite = d.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some();
            database_kind(sqlite, d.code().as_deref().unwrap_or(""))
        }
        _ => Kind::Other,
    };
    Error::of(kind, format!("{shown}: {what}: {e}"))
}

/// What an error the database itself reports (by its code: SQLite's extended result code,
/// PostgreSQL's SQLSTATE) means for the caller. The database busy, locked, out of room or
/// going down is an outage, [`Kind::Unavailable`]: the same work may succeed later, and a
/// door asks for it again (the mail door has a message delivered again) rather than telling
/// the player their sheet was refused. A damaged database file is [`Kind::Corrupt`].
fn database_kind(sqlite: bool, code: &str) -> Kind {
    if sqlite {
        // The primary result code is the low byte of the extended one.
        let primary = code.parse::<i32>().map_or(-1, |c| c & 0xff);
        match primary {
            // BUSY, LOCKED, NOMEM, READONLY, IOERR, FULL, CANTOPEN
            5 | 6 | 7 | 8 | 10 | 13 | 14 => Kind::Unavailable,
            // CORRUPT, NOTADB
            11 | 26 => Kind::Corrupt,
            _ => Kind::Other,
        }
    } else {
        match code {
            // serialization failure, deadlock, a hot standby that cannot write
            "40001" | "40P01" | "25006" => Kind::Unavailable,
            // data corrupted, index corrupted
            "XX001" | "XX002" => Kind::Corrupt,
            // connection exceptions, insufficient resources, operator intervention (the
            // server shutting down, a statement cancelled), system errors
            c if ["08", "53", "57", "58"]
                .iter()
                .any(|class| c.starts_with(class)) =>
            {
                Kind::Unavailable
            }
            _ => Kind::Other,
        }
    }
}

impl SqlStore {
    /// Opens (and on SQLite creates) the database at `url` (`sqlite:host.db`,
    /// `postgres://user@host/db`) and brings its schema up to date.
    /// Opens a database that is there already: an SQLite file that does not exist is
    /// refused, naming the path, rather than made empty (a mistyped path would otherwise
    /// show a host with no games). [`SqlStore::open`] makes one.
    pub async fn open_existing(url: &str) -> Result<SqlStore> {
        if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)
                .map_err(|e| db_error("not an SQLite URL", &shown_url(url), e))?;
            let file = options.get_filename();
            let in_memory = file.as_os_str() == ":memory:" || url.contains("mode=memory");
            if !in_memory && !file.exists() {
                return Err(Error::not_found(format!(
                    "there is no database at {}: check the path (`empires new NAME --db {url}`, `empires serve --db {url}` and `empires accounts make-gm` make a new one)",
                    file.display()
                )));
            }
        }
        SqlStore::open(url).await
    }

    pub async fn open(url: &str) -> Result<SqlStore> {
        let shown = shown_url(url);
        let fail = |what: &str, e: sqlx::Error| db_error(what, &shown, e);
        let mut sqlite_file = None;
        let pool = if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)
                .map_err(|e| fail("not an SQLite URL", e))?
                .create_if_missing(true)
                // A log that was checkpointed is cut back to this size, not kept at the
                // largest it ever grew to.
                .pragma("journal_size_limit", WAL_CAP.to_string())
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(30))
                .foreign_keys(true);
            // A connection to a local file does not go stale: testing each one before use
            // would cost a round trip to the driver's thread on every statement.
            let pool = SqlitePoolOptions::new()
                .max_connections(4)
                .test_before_acquire(false)
                .connect_with(options)
                .await
                .map_err(|e| fail("cannot open the database", e))?;
            sqlx::migrate!("migrations/sqlite")
                .run(&pool)
                .await
                .map_err(|e| schema_error(&shown, e))?;
            sqlite_file = Some(pool.connect_options().get_filename().to_path_buf());
            Pool::Sqlite(pool)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(4)
                .acquire_timeout(Duration::from_secs(10))
                .connect(url)
                .await
                .map_err(|e| fail("cannot connect to the database", e))?;
            sqlx::migrate!("migrations/postgres")
                .run(&pool)
                .await
                .map_err(|e| schema_error(&shown, e))?;
            Pool::Postgres(pool)
        } else {
            return Err(Error::new(format!(
                "{shown}: not a database URL; give sqlite:<file> or postgres://<user>@<host>/<database>"
            )));
        };
        let store = SqlStore {
            pool,
            shown,
            kept: Default::default(),
            replaced: Default::default(),
            sqlite_file,
        };
        let limits = store.host_limits().await?;
        store
            .kept
            .store(limits.sheets_kept, std::sync::atomic::Ordering::Relaxed);
        Ok(store)
    }

    /// The size of an SQLite store's write-ahead log, in bytes; `None` on PostgreSQL.
    pub fn wal_bytes(&self) -> Option<u64> {
        let file = self.sqlite_file.as_ref()?;
        let mut wal = file.as_os_str().to_owned();
        wal.push("-wal");
        Some(std::fs::metadata(wal).map_or(0, |m| m.len()))
    }

    /// Copies an SQLite store's write-ahead log into the database and empties it, waiting
    /// (up to the busy timeout) for the readers of older versions to finish: what keeps
    /// the log from growing without end while readers never stop. Nothing on PostgreSQL.
    pub async fn checkpoint(&self) -> Result<()> {
        if let Pool::Sqlite(p) = &self.pool {
            sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                .execute(p)
                .await
                .map_err(|e| self.err("cannot checkpoint the write-ahead log", e))?;
        }
        Ok(())
    }

    /// Checkpoints an SQLite store's write-ahead log once it has grown past half of
    /// [`WAL_CAP`], so that it stays under the cap. Whether it did.
    pub async fn keep_wal_small(&self) -> Result<bool> {
        match self.wal_bytes() {
            Some(n) if n > WAL_CAP / 2 => self.checkpoint().await.map(|()| true),
            _ => Ok(false),
        }
    }

    /// Closes the store at a clean stop: an SQLite store's write-ahead log is emptied into
    /// the database first, so that a stopped host leaves one file.
    pub async fn close(&self) {
        if let Err(e) = self.checkpoint().await {
            tracing::error!("{e}");
        }
        on_pool!(&self.pool, |p| p.close().await);
    }

    /// The URL, without its password.
    pub fn url(&self) -> &str {
        &self.shown
    }

    /// The games kept here, by name, with their current turn.
    pub async fn games(&self) -> Result<Vec<(String, u32)>> {
        let rows: Vec<(String, i64)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT name, turn FROM games ORDER BY name")
                .fetch_all(p)
                .await
        })
        .map_err(|e| self.err("cannot list the games", e))?;
        Ok(rows.into_iter().map(|(n, t)| (n, t as u32)).collect())
    }

    /// A consistent copy of an SQLite store, taken while it is in use, into a new file.
    pub async fn backup(&self, to: &std::path::Path) -> Result<()> {
        let Pool::Sqlite(p) = &self.pool else {
            return Err(Error::new(format!(
                "{}: a PostgreSQL database is backed up with pg_dump",
                self.shown
            )));
        };
        if to.exists() {
            return Err(Error::new(format!(
                "{} already exists; give a new file",
                to.display()
            )));
        }
        let path = to
            .to_str()
            .ok_or_else(|| Error::new(format!("{}: not a UTF-8 path", to.display())))?;
        sqlx::query("VACUUM INTO $1")
            .bind(path)
            .execute(p)
            .await
            .map_err(|e| self.err("cannot back up", e))?;
        Ok(())
    }

    /// Records a GM's action in the audit log, as its own transaction.
    pub async fn audit(
        &self,
        game: Option<&str>,
        at: Millis,
        action: &str,
        detail: &str,
    ) -> Result<()> {
        on_pool!(&self.pool, |p| {
            sqlx::query(
                "INSERT INTO audit_log (game_id, at, action, detail) \
                 VALUES ((SELECT id FROM games WHERE name = $1), $2, $3, $4)",
            )
            .bind(game)
            .bind(at)
            .bind(action)
            .bind(detail)
            .execute(p)
            .await
            .map(|_| ())
        })
        .map_err(|e| self.err("cannot write the audit log", e))?;
        Ok(())
    }

    /// The audit log of a game, oldest first: (time, action, detail).
    pub async fn audit_log(&self, game: &str) -> Result<Vec<(Millis, String, String)>> {
        on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT at, action, detail FROM audit_log \
                 WHERE game_id = (SELECT id FROM games WHERE name = $1) ORDER BY id",
            )
            .bind(game)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the audit log", e))
    }

    /// Every submission ever made to a game, oldest first: (empire, turn, sha256, door,
    /// status, consumed by turn).
    #[allow(clippy::type_complexity)]
    pub async fn submissions(
        &self,
        game: &str,
    ) -> Result<Vec<(String, u32, String, String, String, Option<u32>)>> {
        let rows: Vec<(String, i64, String, String, String, Option<i64>)> =
            on_pool!(&self.pool, |p| {
                sqlx::query_as(
                    "SELECT empire, for_turn, sha256, door, status, consumed_turn FROM submissions \
                 WHERE game_id = (SELECT id FROM games WHERE name = $1) ORDER BY id",
                )
                .bind(game)
                .fetch_all(p)
                .await
            })
            .map_err(|e| self.err("cannot read the submissions", e))?;
        Ok(rows
            .into_iter()
            .map(|(e, t, h, d, s, c)| (e, t as u32, h, d, s, c.map(|c| c as u32)))
            .collect())
    }

    fn err(&self, what: &str, e: sqlx::Error) -> Error {
        db_error(what, &self.shown, e)
    }

    /// What a read of a game's row appends to lock it against a turn's claim until the
    /// commit, in a transaction that keeps something for the turn it reads: see
    /// `SHARE_GAME`.
    fn share_game(&self) -> &'static str {
        match self.pool {
            Pool::Sqlite(_) => <sqlx::Sqlite as Dialect>::SHARE_GAME,
            Pool::Postgres(_) => <sqlx::Postgres as Dialect>::SHARE_GAME,
        }
    }

    /// How a transaction that reads what it then writes begins: see `BEGIN_WRITE`.
    fn begin_write(&self) -> &'static str {
        match self.pool {
            Pool::Sqlite(_) => <sqlx::Sqlite as Dialect>::BEGIN_WRITE,
            Pool::Postgres(_) => <sqlx::Postgres as Dialect>::BEGIN_WRITE,
        }
    }

    fn create_error(&self, name: &str, e: sqlx::Error) -> Error {
        let e = self.err("cannot keep the game", e);
        if e.kind() == Kind::Conflict {
            Error::conflict(format!(
                "{}: a game named \"{name}\" is already kept here",
                self.shown
            ))
        } else {
            e
        }
    }
}

/// Runs the same code on whichever pool the store has, with `ops` naming that backend's
/// module of queries: the SQL text is shared, the types are each backend's own.
mod backend;
use backend::{Dialect, Sql, insert_values};

macro_rules! on_pool {
    ($pool:expr, |$p:ident| $body:expr) => {
        match $pool {
            Pool::Sqlite($p) => $body,
            Pool::Postgres($p) => $body,
        }
    };
    ($pool:expr, |$p:ident, $ops:ident| $body:expr) => {
        match $pool {
            Pool::Sqlite($p) => {
                type $ops = $crate::store::sql::backend::Lite;
                $body
            }
            Pool::Postgres($p) => {
                type $ops = $crate::store::sql::backend::Pg;
                $body
            }
        }
    };
}
use on_pool;

mod accounts;
pub use accounts::{Account, GameEntry, LinkPurpose, Role, Seat, TokenEntry};

mod invitations;
pub use invitations::Invitation;

mod limits;
pub use limits::HostLimits;

mod addresses;

mod account_log;
pub use account_log::AccountLogLine;

mod ledger;
pub use ledger::{SeatBefore, ledger_entries_of_turn};

mod deadlines;
pub use deadlines::{CatchUp, Due, GameSchedule, ReminderDue, next_deadline, reminders_text};

mod games;
pub use games::GameRow;

mod login_limits;

mod mail;
pub use mail::{Direction, MailLogEntry, OutMail, OutboxEntry, Queued, ReportRecipient, Seen};

/// What is wrong with a stored state, given its bytes and the hash kept with its turn.
fn hash_problem(label: &str, state: &[u8], want: &str) -> Option<String> {
    (sha256_hex(state) != want.trim()).then(|| {
        format!("{label}: the state does not match the hash kept with its turn: it was changed after it was written")
    })
}

/// A submission checked for a turn that has been played since.
fn moved_on(shown: &str, game: &str, want: u32, next: u32) -> Error {
    Error::conflict(format!(
        "{shown}, game \"{game}\": the turnsheet was checked for turn {want}, but turn {} has been played since; check it again for turn {next}",
        next - 1
    ))
}

/// A sheet or a message for a game that is over: won, or ended by its GM.
fn game_over(shown: &str, game: &str, turn: i64) -> Error {
    Error::conflict(format!(
        "{shown}, game \"{game}\": the game is over, after turn {turn}; it takes no more turnsheets or messages"
    ))
}

fn schema_error(shown: &str, e: sqlx::migrate::MigrateError) -> Error {
    Error::of(
        Kind::Unavailable,
        format!("{shown}: cannot bring the schema up to date: {e}"),
    )
}

fn not_found(shown: &str, game: &str) -> Error {
    Error::not_found(format!("{shown}: no game named \"{game}\" is kept here"))
}

/// Turn files inserted by one statement: five parameters each, well inside both databases'
/// limits on a statement's parameters.
const FILES_PER_INSERT: usize = 200;

impl<D> Sql<D>
where
    D: Dialect,
    for<'c> &'c mut D::Connection: sqlx::Executor<'c, Database = D>,
    for<'q> D::Arguments<'q>: sqlx::IntoArguments<'q, D>,
    for<'q> i64: sqlx::Encode<'q, D> + sqlx::Decode<'q, D> + sqlx::Type<D>,
    for<'q> Option<i64>: sqlx::Encode<'q, D>,
    for<'q> &'q str: sqlx::Encode<'q, D> + sqlx::Type<D>,
    for<'q> Option<&'q str>: sqlx::Encode<'q, D>,
    for<'q> String: sqlx::Encode<'q, D> + sqlx::Decode<'q, D> + sqlx::Type<D>,
    for<'q> &'q [u8]: sqlx::Encode<'q, D> + sqlx::Type<D>,
    for<'q> Option<&'q [u8]>: sqlx::Encode<'q, D>,
    for<'q> Vec<u8>: sqlx::Decode<'q, D> + sqlx::Type<D>,
    usize: sqlx::ColumnIndex<D::Row>,
{
    /// An empire's turnsheet, kept by one statement ([`Dialect::KEEP_SHEET`]).
    pub const KEEP_SHEET: &'static str = D::KEEP_SHEET;
    /// The game, the seat and the sheet a new one replaces ([`Dialect::READ_FOR_SHEET`]).
    pub const READ_FOR_SHEET: &'static str = D::READ_FOR_SHEET;
    /// How a transaction that reads what it then writes begins ([`Dialect::BEGIN_WRITE`]).
    pub const BEGIN_WRITE: &'static str = D::BEGIN_WRITE;

    pub async fn insert_turn(
        c: &mut D::Connection,
        id: i64,
        turn: u32,
        hash: &str,
        rules_version: Option<&str>,
        at: Millis,
        (files, declared): (&[(String, Vec<u8>)], &Declared),
    ) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO turns (game_id, turn, state_sha256, rules_version, engine_version, played_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(i64::from(turn))
        .bind(hash)
        .bind(rules_version)
        .bind(ENGINE_VERSION)
        .bind(at)
        .execute(&mut *c)
        .await?;
        // Who may read each file is decided now, by the game's own seats.
        let seats: Vec<(String,)> = sqlx::query_as("SELECT empire FROM seats WHERE game_id = $1")
            .bind(id)
            .fetch_all(&mut *c)
            .await?;
        let seats: Vec<SeatCode> = seats.iter().filter_map(|(s,)| SeatCode::parse(s)).collect();
        // Many files to a statement: a turn has a hundred or more, and each statement
        // costs a round trip.
        let readers: Vec<_> = files
            .iter()
            .map(|(path, _)| reader_of(path, &seats, declared).as_text())
            .collect();
        let turn = i64::from(turn);
        for (chunk, readers) in files
            .chunks(FILES_PER_INSERT)
            .zip(readers.chunks(FILES_PER_INSERT))
        {
            let head = "INSERT INTO turn_files (game_id, turn, path, reader, body)";
            let sql = insert_values(head, chunk.len(), 5);
            let mut q = sqlx::query(&sql);
            for ((path, body), reader) in chunk.iter().zip(readers) {
                q = q
                    .bind(id)
                    .bind(turn)
                    .bind(path.as_str())
                    .bind(reader.as_str())
                    .bind(&body[..]);
            }
            q.execute(&mut *c).await?;
        }
        Ok(())
    }

    pub async fn insert_submission(
        c: &mut D::Connection,
        id: i64,
        empire: Option<&str>,
        for_turn: u32,
        body: &[u8],
        (door, at, late): (&str, Millis, bool),
    ) -> sqlx::Result<()> {
        match empire {
            Some(code) => {
                sqlx::query(
                    "INSERT INTO submissions (game_id, empire, for_turn, body, sha256, received_at, door, status) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(id)
                .bind(code)
                .bind(i64::from(for_turn))
                .bind(body)
                .bind(sha256_hex(body))
                .bind(at)
                .bind(door)
                .bind(if late { "late" } else { "accepted" })
                .execute(&mut *c)
                .await?;
            }
            None => {
                sqlx::query(
                    "INSERT INTO gm_messages (game_id, for_turn, body, written_at) VALUES ($1, $2, $3, $4)",
                )
                .bind(id)
                .bind(i64::from(for_turn))
                .bind(body)
                .bind(at)
                .execute(&mut *c)
                .await?;
            }
        }
        Ok(())
    }

    /// A line of a game's audit log, written for the account that asked for it
    /// (`by`), or for the host's own work.
    pub async fn audit_as(
        c: &mut D::Connection,
        id: i64,
        by: Option<i64>,
        at: Millis,
        action: &str,
        detail: &str,
    ) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO audit_log (game_id, account_id, at, action, detail) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(by)
        .bind(at)
        .bind(action)
        .bind(detail)
        .execute(&mut *c)
        .await
        .map(|_| ())
    }

    pub async fn audit(
        c: &mut D::Connection,
        id: i64,
        at: Millis,
        action: &str,
        detail: &str,
    ) -> sqlx::Result<()> {
        Self::audit_as(c, id, None, at, action, detail).await
    }

    /// Keeps the map's layer for the report pages with the game.
    pub async fn keep_script(c: &mut D::Connection, id: i64, script: &str) -> sqlx::Result<()> {
        sqlx::query("UPDATE games SET map_script = $1 WHERE id = $2")
            .bind(script.as_bytes())
            .bind(id)
            .execute(&mut *c)
            .await
            .map(|_| ())
    }

    /// Claims the game for a turn run, as the first statement of its transaction:
    /// the write holds the game until the commit. Returns the game's id and turn.
    pub async fn claim(c: &mut D::Connection, shown: &str, game: &str) -> Result<(i64, i64)> {
        let fail = |what: &'static str| move |e: sqlx::Error| db_error(what, shown, e);
        sqlx::query("UPDATE games SET claims = claims + 1 WHERE name = $1")
            .bind(game)
            .execute(&mut *c)
            .await
            .map_err(fail("cannot claim the turn"))?;
        Self::game_row(c, game)
            .await
            .map_err(fail("cannot read the game"))?
            .ok_or_else(|| not_found(shown, game))
    }

    /// The game's id and current turn.
    pub async fn game_row(c: &mut D::Connection, game: &str) -> sqlx::Result<Option<(i64, i64)>> {
        sqlx::query_as("SELECT id, turn FROM games WHERE name = $1")
            .bind(game)
            .fetch_optional(&mut *c)
            .await
    }

    /// The map's text, the state's bytes and the hash kept with its turn.
    pub async fn game_at(
        c: &mut D::Connection,
        id: i64,
        turn: i64,
    ) -> sqlx::Result<(Vec<u8>, Option<Vec<u8>>, String)> {
        let (map,): (Vec<u8>,) = sqlx::query_as("SELECT map_toml FROM games WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *c)
            .await?;
        let state: Option<(Vec<u8>,)> = sqlx::query_as(
            "SELECT body FROM turn_files WHERE game_id = $1 AND turn = $2 AND path = $3",
        )
        .bind(id)
        .bind(turn)
        .bind(STATE_FILE)
        .fetch_optional(&mut *c)
        .await?;
        let hash: Option<(String,)> =
            sqlx::query_as("SELECT state_sha256 FROM turns WHERE game_id = $1 AND turn = $2")
                .bind(id)
                .bind(turn)
                .fetch_optional(&mut *c)
                .await?;
        Ok((
            map,
            state.map(|s| s.0),
            hash.map(|h| h.0).unwrap_or_default(),
        ))
    }

    /// The latest submission of each empire for a turn, not yet played, and the GM's
    /// messages: (empire or `None` for the GM, ids, bytes). Late orders are played
    /// only when the empire sent nothing on time for the turn (2.4, decision 22):
    /// the on-time sheets are read after the late ones, so the latest of them wins.
    pub async fn pending(
        c: &mut D::Connection,
        id: i64,
        for_turn: u32,
    ) -> sqlx::Result<Vec<(Option<String>, Vec<i64>, Vec<u8>)>> {
        let rows: Vec<(i64, String, Vec<u8>)> = sqlx::query_as(
            "SELECT id, empire, body FROM submissions \
             WHERE game_id = $1 AND for_turn = $2 AND consumed_turn IS NULL \
             ORDER BY CASE WHEN status = 'late' THEN 0 ELSE 1 END, id",
        )
        .bind(id)
        .bind(i64::from(for_turn))
        .fetch_all(&mut *c)
        .await?;
        let mut latest: BTreeMap<String, (i64, Vec<u8>)> = BTreeMap::new();
        for (sid, empire, body) in rows {
            latest.insert(empire, (sid, body));
        }
        let mut out: Vec<(Option<String>, Vec<i64>, Vec<u8>)> = latest
            .into_iter()
            .map(|(e, (sid, body))| (Some(e), vec![sid], body))
            .collect();
        let gm: Vec<(i64, Vec<u8>)> = sqlx::query_as(
            "SELECT id, body FROM gm_messages \
             WHERE game_id = $1 AND for_turn = $2 AND consumed_turn IS NULL ORDER BY id",
        )
        .bind(id)
        .bind(i64::from(for_turn))
        .fetch_all(&mut *c)
        .await?;
        if !gm.is_empty() {
            let ids = gm.iter().map(|(i, _)| *i).collect();
            let mut body = Vec::new();
            for (i, (_, b)) in gm.iter().enumerate() {
                if i > 0 {
                    body.extend_from_slice(b"\n\n");
                }
                body.extend_from_slice(b);
            }
            out.push((None, ids, body));
        }
        Ok(out)
    }

    pub async fn turn_files(
        c: &mut D::Connection,
        id: i64,
        turn: u32,
    ) -> sqlx::Result<Vec<(String, String, Vec<u8>)>> {
        let mut rows: Vec<(String, String, Vec<u8>)> = sqlx::query_as(
            "SELECT path, reader, body FROM turn_files WHERE game_id = $1 AND turn = $2",
        )
        .bind(id)
        .bind(i64::from(turn))
        .fetch_all(&mut *c)
        .await?;
        // Sorted here, byte by byte: the databases' collations differ.
        rows.sort();
        Ok(rows)
    }

    pub async fn undo(p: &sqlx::Pool<D>, shown: &str, game: &str, now: Millis) -> Result<Undone> {
        let fail = |what: &'static str| move |e: sqlx::Error| db_error(what, shown, e);
        let mut tx = p.begin().await.map_err(fail("cannot start"))?;
        sqlx::query("UPDATE games SET claims = claims + 1 WHERE name = $1")
            .bind(game)
            .execute(&mut *tx)
            .await
            .map_err(fail("cannot claim the game"))?;
        let (id, turn) = Self::game_row(&mut tx, game)
            .await
            .map_err(fail("cannot read the game"))?
            .ok_or_else(|| not_found(shown, game))?;
        let label = format!("{shown}, game \"{game}\"");
        // A game may start after turn 0 (a scenario): its first turn kept is its start.
        let (first,): (Option<i64>,) =
            sqlx::query_as("SELECT MIN(turn) FROM turns WHERE game_id = $1")
                .bind(id)
                .fetch_one(&mut *tx)
                .await
                .map_err(fail("cannot read the game"))?;
        if turn <= first.unwrap_or(0) {
            return Err(Error::new(
                "there is no turn to undo: the game is at its starting position",
            ));
        }
        let waiting = Self::pending(&mut tx, id, turn as u32 + 1)
            .await
            .map_err(fail("cannot read the turnsheets"))?;
        // The GM's messages for the next turn (and the host's announcements of
        // schedule changes) stay with that turn: they never mix with the undone one's.
        if waiting.iter().any(|(empire, _, _)| empire.is_some()) {
            return Err(Error::conflict(format!(
                "{label}: turnsheets are waiting for turn {}; undoing turn {turn} would mix them with the ones sent for it",
                turn + 1
            )));
        }
        let work = async {
            sqlx::query("DELETE FROM turn_files WHERE game_id = $1 AND turn = $2")
                .bind(id)
                .bind(turn)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM turns WHERE game_id = $1 AND turn = $2")
                .bind(id)
                .bind(turn)
                .execute(&mut *tx)
                .await?;
            for table in ["submissions", "gm_messages"] {
                sqlx::query(&format!(
                    "UPDATE {table} SET consumed_turn = NULL WHERE game_id = $1 AND consumed_turn = $2"
                ))
                .bind(id)
                .bind(turn)
                .execute(&mut *tx)
                .await?;
            }
            // A game taken back from its last turn is not over any more.
            sqlx::query("UPDATE games SET turn = $1, finished_at = NULL WHERE id = $2")
                .bind(turn - 1)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            // The deadline waiting for the next turn now waits for the undone one,
            // which is played again when it comes.
            sqlx::query("UPDATE schedules SET for_turn = $1 WHERE game_id = $2 AND for_turn = $3")
                .bind(turn)
                .bind(id)
                .bind(turn + 1)
                .execute(&mut *tx)
                .await?;
            let back = Self::pending(&mut tx, id, turn as u32).await?;
            Self::audit(&mut tx, id, now, "undo", &format!("turn {turn}")).await?;
            Ok::<_, sqlx::Error>(back)
        };
        let back = work.await.map_err(fail("cannot undo the turn"))?;
        // The seats as they stood before the turn undone.
        let (_, before) = Self::read(&mut tx, shown, game).await?;
        let seats = before.ruleset.seats(before.text())?;
        let step = before.ruleset.step(before.text())?;
        Self::update_seats(&mut tx, id, &seats)
            .await
            .map_err(fail("cannot undo the turn"))?;
        Self::drop_seats(&mut tx, id, &seats)
            .await
            .map_err(fail("cannot undo the turn"))?;
        Self::mark_step(&mut tx, id, &step)
            .await
            .map_err(fail("cannot undo the turn"))?;
        tx.commit().await.map_err(fail("cannot undo the turn"))?;
        let mut names: Vec<String> = back
            .iter()
            .map(|(e, _, _)| {
                e.as_ref()
                    .map_or(GM_FILE.to_string(), |e| format!("{e}.txt"))
            })
            .collect();
        names.sort();
        Ok(Undone {
            turn: turn as u32,
            pending: names,
            warnings: Vec::new(),
        })
    }
}

#[async_trait]
impl Store for SqlStore {
    fn describe(&self, game: &str) -> String {
        format!("{}, game \"{game}\"", self.shown)
    }

    async fn create_game(
        &self,
        key: &str,
        ruleset: &'static dyn crate::ruleset::Ruleset,
        started: &crate::ruleset::Started,
        now: Millis,
    ) -> Result<()> {
        crate::create::check_game_name(key)?;
        let done = match &self.pool {
            Pool::Sqlite(p) => backend::Lite::create(p, key, ruleset, started, now).await,
            Pool::Postgres(p) => backend::Pg::create(p, key, ruleset, started, now).await,
        };
        done.map_err(|e| self.create_error(key, e))
    }

    async fn hosted(&self, game: &str) -> Result<crate::ruleset::HostedGame> {
        self.read_hosted(game).await
    }

    async fn ruleset(&self, game: &str) -> Result<&'static dyn crate::ruleset::Ruleset> {
        SqlStore::ruleset(self, game).await
    }

    async fn games(&self) -> Result<Vec<(String, u32)>> {
        SqlStore::games(self).await
    }

    async fn deadline_passed(&self, game: &str, at: Millis) -> Result<Option<Millis>> {
        let Some(s) = self.schedule_of(game).await? else {
            return Ok(None);
        };
        let (turn, _) = self.version(game).await?;
        Ok(match (s.deadline, s.paused_at) {
            (Some(d), None) if s.for_turn == turn + 1 && s.schedule.run_at(d) < at => Some(d),
            _ => None,
        })
    }

    async fn submit(&self, game: &str, submission: &Submission) -> Result<Receipt> {
        let shown = &self.shown;
        on_pool!(&self.pool, |p, Ops| {
            let fail = |what: &'static str| move |e: sqlx::Error| db_error(what, shown, e);
            // An empire's turnsheet, the commonest write a host makes, is kept by one
            // statement that checks the game, the turn and the seat as it inserts, and tells
            // which sheet the new one replaces: each statement is a round trip. When it keeps
            // nothing, the slower path below says why.
            if let Some(code) = submission.empire {
                let sha = sha256_hex(&submission.body);
                let kept: Option<(i64, Option<String>, String)> = sqlx::query_as(Ops::KEEP_SHEET)
                    .bind(game)
                    .bind(code.as_str())
                    .bind(&submission.body[..])
                    .bind(&sha)
                    .bind(submission.received_at)
                    .bind(&submission.door)
                    .bind(submission.for_turn.map(i64::from))
                    .bind(if submission.late { "late" } else { "accepted" })
                    .fetch_optional(p)
                    .await
                    .map_err(fail("cannot keep the turnsheet"))?;
                if let Some((for_turn, replaces, status)) = kept {
                    if replaces.is_some() {
                        self.drop_superseded(
                            game,
                            code.as_str(),
                            for_turn as u32,
                            &status,
                            submission.received_at,
                        )
                        .await?;
                    }
                    return Ok(Receipt {
                        for_turn: for_turn as u32,
                        sha256: sha,
                        replaces,
                    });
                }
            }
            let mut tx = p
                .begin_with(Ops::BEGIN_WRITE)
                .await
                .map_err(fail("cannot start"))?;
            let empire = submission.empire.map(|c| c.to_string());
            // The game, the empire's seat and the sheet a new one replaces, in one statement:
            // a submission is the commonest write a host makes.
            let row: Option<(i64, i64, Option<i32>, Option<String>, Option<Millis>)> =
                sqlx::query_as(Ops::READ_FOR_SHEET)
                    .bind(game)
                    .bind(empire.as_deref())
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(fail("cannot read the game"))?;
            let (id, turn, seat, replaces, finished) = row.ok_or_else(|| not_found(shown, game))?;
            if finished.is_some() {
                return Err(game_over(shown, game, turn));
            }
            let for_turn = turn as u32 + 1;
            if let Some(want) = submission.for_turn.filter(|t| *t != for_turn) {
                return Err(moved_on(shown, game, want, for_turn));
            }
            if let (Some(code), None) = (&empire, seat) {
                return Err(Error::not_found(format!(
                    "{shown}, game \"{game}\": there is no empire {code} in the game"
                )));
            }

            Ops::insert_submission(
                &mut tx,
                id,
                empire.as_deref(),
                for_turn,
                &submission.body,
                (&submission.door, submission.received_at, submission.late),
            )
            .await
            .map_err(fail("cannot keep the turnsheet"))?;
            tx.commit()
                .await
                .map_err(fail("cannot keep the turnsheet"))?;
            if let (Some(code), Some(_)) = (&empire, &replaces) {
                let status = if submission.late { "late" } else { "accepted" };
                self.drop_superseded(game, code, for_turn, status, submission.received_at)
                    .await?;
            }
            Ok(Receipt {
                for_turn,
                sha256: sha256_hex(&submission.body),
                replaces,
            })
        })
    }

    async fn keep_for(&self, game: &str, name: &str, submission: &Submission) -> Result<Receipt> {
        let shown = &self.shown;
        let sha = sha256_hex(&submission.body);
        on_pool!(&self.pool, |p, Ops| {
            let fail = |what: &'static str| move |e: sqlx::Error| db_error(what, shown, e);
            let mut tx = p
                .begin_with(Ops::BEGIN_WRITE)
                .await
                .map_err(fail("cannot start"))?;
            let row: Option<(i64, i64, Option<i32>, Option<String>, Option<Millis>)> =
                sqlx::query_as(Ops::READ_FOR_SHEET)
                    .bind(game)
                    .bind(name)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(fail("cannot read the game"))?;
            let (id, turn, seat, _, finished) = row.ok_or_else(|| not_found(shown, game))?;
            if finished.is_some() {
                return Err(game_over(shown, game, turn));
            }
            let next = turn as u32 + 1;
            let for_turn = submission.for_turn.unwrap_or(next);
            if for_turn < next {
                return Err(moved_on(shown, game, for_turn, next));
            }
            if seat.is_none() && name != crate::gamedir::RULINGS {
                return Err(Error::not_found(format!(
                    "{shown}, game \"{game}\": there is no seat {name} in the game"
                )));
            }
            let before: Option<(String,)> = sqlx::query_as(
                "SELECT sha256 FROM submissions WHERE game_id = $1 AND empire = $2 \
                 AND for_turn = $3 AND consumed_turn IS NULL ORDER BY id DESC LIMIT 1",
            )
            .bind(id)
            .bind(name)
            .bind(i64::from(for_turn))
            .fetch_optional(&mut *tx)
            .await
            .map_err(fail("cannot read the turnsheets"))?;
            Ops::insert_submission(
                &mut tx,
                id,
                Some(name),
                for_turn,
                &submission.body,
                (&submission.door, submission.received_at, false),
            )
            .await
            .map_err(fail("cannot keep the turnsheet"))?;
            // The GM's rulings are logged with the game. The web and the API log them with
            // the GM's account themselves; the command line has none to name.
            if name == crate::gamedir::RULINGS
                && !["web", "api"].contains(&submission.door.as_str())
            {
                let detail = format!("for turn {for_turn}, by {}", submission.door);
                Ops::audit(&mut tx, id, submission.received_at, "rulings", &detail)
                    .await
                    .map_err(fail("cannot keep the turnsheet"))?;
            }
            tx.commit()
                .await
                .map_err(fail("cannot keep the turnsheet"))?;
            if before.is_some() {
                self.drop_superseded(game, name, for_turn, "accepted", submission.received_at)
                    .await?;
            }
            Ok(Receipt {
                for_turn,
                sha256: sha,
                replaces: before.map(|(h,)| h),
            })
        })
    }

    async fn keep_standing(&self, game: &str, submission: &Submission) -> Result<Receipt> {
        let shown = &self.shown;
        let Some(seat) = submission.empire else {
            return Err(Error::new("the GM sends no standing sheet"));
        };
        let sha = sha256_hex(&submission.body);
        on_pool!(&self.pool, |p, Ops| {
            let fail = |what: &'static str| move |e: sqlx::Error| db_error(what, shown, e);
            let mut tx = p
                .begin_with(Ops::BEGIN_WRITE)
                .await
                .map_err(fail("cannot start"))?;
            let row: Option<(i64, i64, Option<i32>, Option<String>, Option<Millis>)> =
                sqlx::query_as(Ops::READ_FOR_SHEET)
                    .bind(game)
                    .bind(seat.as_str())
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(fail("cannot read the game"))?;
            let (id, turn, held, _, finished) = row.ok_or_else(|| not_found(shown, game))?;
            if finished.is_some() {
                return Err(game_over(shown, game, turn));
            }
            if held.is_none() {
                return Err(Error::not_found(format!(
                    "{shown}, game \"{game}\": there is no seat {seat} in the game"
                )));
            }
            let before: Option<(String,)> = sqlx::query_as(
                "SELECT sha256 FROM standing_sheets WHERE game_id = $1 AND seat = $2",
            )
            .bind(id)
            .bind(seat.as_str())
            .fetch_optional(&mut *tx)
            .await
            .map_err(fail("cannot read the standing sheets"))?;
            sqlx::query(
                "INSERT INTO standing_sheets (game_id, seat, body, sha256, received_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, seat) DO UPDATE \
                 SET body = excluded.body, sha256 = excluded.sha256, received_at = excluded.received_at",
            )
            .bind(id)
            .bind(seat.as_str())
            .bind(&submission.body[..])
            .bind(&sha)
            .bind(submission.received_at)
            .execute(&mut *tx)
            .await
            .map_err(fail("cannot keep the standing sheet"))?;
            let detail = format!("{seat}, sha256 {sha}");
            Ops::audit(
                &mut tx,
                id,
                submission.received_at,
                "standing sheet",
                &detail,
            )
            .await
            .map_err(fail("cannot keep the standing sheet"))?;
            tx.commit()
                .await
                .map_err(fail("cannot keep the standing sheet"))?;
            Ok(Receipt {
                for_turn: turn as u32 + 1,
                sha256: sha,
                replaces: before.map(|(h,)| h),
            })
        })
    }

    async fn standing(&self, game: &str) -> Result<Files> {
        let rows: Vec<(String, Vec<u8>)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT s.seat, s.body FROM standing_sheets s JOIN games g ON g.id = s.game_id \
                 WHERE g.name = $1",
            )
            .bind(game)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the standing sheets", e))?;
        let mut files: Files = rows
            .into_iter()
            .map(|(seat, body)| (format!("{}/{seat}.txt", crate::gamedir::STANDING_DIR), body))
            .collect();
        // Sorted here, byte by byte: the databases' collations differ.
        files.sort();
        Ok(files)
    }

    async fn ahead(&self, game: &str) -> Result<Files> {
        let rows: Vec<(String, i64, Vec<u8>)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT u.empire, u.for_turn, u.body FROM submissions u JOIN games g ON g.id = u.game_id \
                 WHERE g.name = $1 AND u.for_turn > g.turn + 1 AND u.consumed_turn IS NULL ORDER BY u.id",
            )
            .bind(game)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the sheets sent ahead", e))?;
        // The latest of each seat for each step is the one it will be played with.
        let mut latest = std::collections::BTreeMap::new();
        for (seat, turn, body) in rows {
            let path = format!(
                "{}/{}/{seat}.txt",
                crate::gamedir::AHEAD_DIR,
                crate::gamedir::turn_name(turn as u32)
            );
            latest.insert(path, body);
        }
        Ok(latest.into_iter().collect())
    }

    async fn stranded_receipts(&self, game: &str) -> Result<Vec<Stranded>> {
        // A sheet no turn played, for a turn that has been played, is stranded unless a
        // sheet the turn did play outranks it: on-time orders outrank late ones (2.4,
        // decision 22), and a later sheet an earlier one.
        let sheets: Vec<(String, i64, String, String, Millis)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT s.empire, s.for_turn, s.sha256, s.door, s.received_at \
                 FROM submissions s JOIN games g ON g.id = s.game_id \
                 WHERE g.name = $1 AND s.consumed_turn IS NULL AND s.for_turn <= g.turn \
                 AND NOT EXISTS (SELECT 1 FROM submissions c WHERE c.game_id = s.game_id \
                 AND c.empire = s.empire AND c.for_turn = s.for_turn AND c.consumed_turn IS NOT NULL \
                 AND ((c.status <> 'late' AND s.status = 'late') \
                 OR ((c.status = 'late') = (s.status = 'late') AND c.id > s.id))) \
                 ORDER BY s.id",
            )
            .bind(game)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the turnsheets", e))?;
        // A turn plays every GM's message kept for it.
        let messages: Vec<(i64, Vec<u8>, Millis)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT m.for_turn, m.body, m.written_at FROM gm_messages m JOIN games g ON g.id = m.game_id \
                 WHERE g.name = $1 AND m.consumed_turn IS NULL AND m.for_turn <= g.turn ORDER BY m.id",
            )
            .bind(game)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the GM's messages", e))?;
        let mut out: Vec<Stranded> = sheets
            .into_iter()
            .map(|(seat, for_turn, sha256, door, received_at)| Stranded {
                seat: Some(seat),
                for_turn: for_turn as u32,
                sha256,
                door,
                received_at,
            })
            .collect();
        out.extend(messages.into_iter().map(|(for_turn, body, at)| Stranded {
            seat: None,
            for_turn: for_turn as u32,
            sha256: sha256_hex(&body),
            door: "the GM".to_string(),
            received_at: at,
        }));
        Ok(out)
    }

    async fn pending(&self, game: &str) -> Result<Files> {
        on_pool!(&self.pool, |p, Ops| {
            let mut c = p
                .acquire()
                .await
                .map_err(|e| self.err("cannot reach the database", e))?;
            let (id, turn) = Ops::game_row(&mut c, game)
                .await
                .map_err(|e| self.err("cannot read the game", e))?
                .ok_or_else(|| not_found(&self.shown, game))?;
            let rows = Ops::pending(&mut c, id, turn as u32 + 1)
                .await
                .map_err(|e| self.err("cannot read the turnsheets", e))?;
            Ok(rows
                .into_iter()
                .map(|(e, _, body)| (e.map_or(GM_FILE.to_string(), |e| format!("{e}.txt")), body))
                .collect())
        })
    }

    async fn play_turn(&self, game: &str, options: TurnOptions, now: Millis) -> Result<TurnReport> {
        let played = self.play_game_turn(game, options, now).await;
        // Every turn a host plays is logged with its game and number.
        match &played {
            Ok(r) => tracing::info!(game, turn = r.turn, events = r.events, "turn played"),
            Err(e) => tracing::warn!(game, turn = ?options.expect, "turn not played: {e}"),
        }
        played
    }

    async fn undo(&self, game: &str, now: Millis) -> Result<Undone> {
        on_pool!(&self.pool, |p, Ops| Ops::undo(p, &self.shown, game, now)
            .await)
    }

    async fn end_game(&self, game: &str, now: Millis) -> Result<()> {
        let ended = on_pool!(&self.pool, |p| async {
            let mut tx = p.begin().await?;
            let n = sqlx::query(
                "UPDATE games SET finished_at = $1 WHERE name = $2 AND finished_at IS NULL",
            )
            .bind(now)
            .bind(game)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            // No deadline for a game that plays no more.
            sqlx::query(
                "UPDATE schedules SET deadline = NULL, changed_at = $1 \
                 WHERE game_id = (SELECT id FROM games WHERE name = $2)",
            )
            .bind(now)
            .bind(game)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok::<u64, sqlx::Error>(n)
        }
        .await)
        .map_err(|e| self.err("cannot end the game", e))?;
        if ended == 0 {
            return match self.ended_at(game).await? {
                Some(_) => Err(Error::conflict(format!(
                    "{}: the game is over already",
                    self.describe(game)
                ))),
                None => Err(Error::not_found(format!("no game named \"{game}\""))),
            };
        }
        self.audit(Some(game), now, "ended", "the game ended on its GM's word")
            .await
    }

    async fn ended_at(&self, game: &str) -> Result<Option<Millis>> {
        let row: Option<(Option<i64>,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT finished_at FROM games WHERE name = $1")
                .bind(game)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the game", e))?;
        Ok(row.and_then(|(at,)| at))
    }

    async fn turn_times(&self, game: &str, limit: i64) -> Result<Vec<(u32, Millis)>> {
        let rows: Vec<(i64, i64)> = on_pool!(&self.pool, |p| {
            sqlx::query_as(
                "SELECT t.turn, t.played_at FROM turns t JOIN games g ON g.id = t.game_id \
                 WHERE g.name = $1 ORDER BY t.turn DESC LIMIT $2",
            )
            .bind(game)
            .bind(limit)
            .fetch_all(p)
            .await
        })
        .map_err(|e| self.err("cannot read the turns", e))?;
        Ok(rows
            .into_iter()
            .filter_map(|(t, at)| Some((u32::try_from(t).ok()?, at)))
            .collect())
    }

    async fn turn_files(&self, game: &str, turn: u32) -> Result<Files> {
        let rows = self.turn_rows(game, turn).await?;
        Ok(rows
            .into_iter()
            .map(|(path, _, body)| (path, body))
            .collect())
    }

    async fn turn_file(
        &self,
        game: &str,
        turn: u32,
        path: &str,
        viewer: Option<SeatCode>,
    ) -> Result<Vec<u8>> {
        let rows = self.turn_rows(game, turn).await?;
        rows.into_iter()
            .find(|(p, reader, _)| p == path && reader_allows(reader, viewer))
            .map(|(_, _, body)| body)
            .ok_or_else(|| {
                Error::not_found(format!(
                    "{}: turn {turn} has no file {path}",
                    self.describe(game)
                ))
            })
    }
}

pub use crate::store::Declared;

/// Who may read the file at `path`: as declared when its ruleset declared it, else by the
/// host's naming of the files it writes ([`Reader::of_turn_file`]).
fn reader_of(path: &str, seats: &[SeatCode], declared: &Declared) -> Reader {
    match declared.get(path) {
        Some(r) => Reader::declared(r, seats),
        None => Reader::of_turn_file(path, seats),
    }
}

fn reader_allows(reader: &str, viewer: Option<SeatCode>) -> bool {
    Reader::from_text(reader).allows(viewer)
}

impl SqlStore {
    async fn turn_rows(&self, game: &str, turn: u32) -> Result<Vec<(String, String, Vec<u8>)>> {
        on_pool!(&self.pool, |p, Ops| {
            let mut c = p
                .acquire()
                .await
                .map_err(|e| self.err("cannot reach the database", e))?;
            let (id, current) = Ops::game_row(&mut c, game)
                .await
                .map_err(|e| self.err("cannot read the game", e))?
                .ok_or_else(|| not_found(&self.shown, game))?;
            if i64::from(turn) > current {
                return Err(Error::not_found(format!(
                    "{}: turn {turn} has not been played; the last turn played is {current}",
                    self.describe(game)
                )));
            }
            Ops::turn_files(&mut c, id, turn)
                .await
                .map_err(|e| self.err("cannot read the turn", e))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_busy_or_going_down_is_an_outage_and_bad_data_is_not() {
        // SQLite: BUSY, BUSY_SNAPSHOT (517), LOCKED, FULL, CANTOPEN, IOERR_WRITE (778).
        for code in ["5", "517", "6", "13", "14", "778"] {
            assert_eq!(database_kind(true, code), Kind::Unavailable, "{code}");
        }
        assert_eq!(database_kind(true, "11"), Kind::Corrupt);
        // CONSTRAINT_CHECK (275), TOOBIG (18), MISMATCH (20): the data, not the database.
        for code in ["275", "18", "20", ""] {
            assert_eq!(database_kind(true, code), Kind::Other, "{code}");
        }
        // PostgreSQL: cannot connect, too many connections, admin shutdown, deadlock.
        for code in ["08006", "53300", "57P01", "40P01", "40001"] {
            assert_eq!(database_kind(false, code), Kind::Unavailable, "{code}");
        }
        // A NUL byte in text (22021), a value too long (22001), a check constraint (23514).
        for code in ["22021", "22001", "23514"] {
            assert_eq!(database_kind(false, code), Kind::Other, "{code}");
        }
    }
}
