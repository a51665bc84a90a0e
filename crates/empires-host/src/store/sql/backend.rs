//! The two databases the store runs on, as one generic type: [`Sql<D>`] holds the queries
//! a turn's transaction runs, written once as ordinary functions over any backend that
//! speaks the types they bind and read, and [`Dialect`] what differs between SQLite and
//! PostgreSQL. The store calls them as [`Lite`] or [`Pg`], for the pool it has.

use std::marker::PhantomData;

/// The SQL a query appends to its read of a game's row to hold it until the commit, and
/// how a transaction that reads what it then writes begins: the only text the two
/// backends do not share.
pub trait Dialect: sqlx::Database {
    /// What a statement that keeps a sheet appends to its read of the game's row: on
    /// PostgreSQL, a shared lock on the row until the commit. A turn's claim writes that
    /// row first, so the two wait for each other: a sheet is either kept before the claim,
    /// and the turn reads it, or after the commit, and it reads the turn the commit left.
    /// Without it a sheet inserted between the turn's read of what is pending and its
    /// commit was receipted for the turn just played and never played. SQLite needs none:
    /// its one writer at a time already orders the two, and a write on a stale read fails
    /// rather than keeps.
    const SHARE_GAME: &'static str;

    /// How a transaction that reads what it then writes begins: on SQLite it takes the one
    /// writer's lock at once, waiting its turn, so that what it read is still so when it
    /// writes (a deferred one would be refused, "database is locked", if a turn was stored
    /// between its read and its write). PostgreSQL's row lock ([`Dialect::SHARE_GAME`])
    /// does that work there.
    const BEGIN_WRITE: &'static str;

    /// An empire's turnsheet, kept by one statement ([`keep_sheet!`]).
    const KEEP_SHEET: &'static str;

    /// The game, the seat and the sheet a new one replaces ([`read_for_sheet!`]).
    const READ_FOR_SHEET: &'static str;
}

/// An empire's turnsheet, kept by one statement that checks the game, the turn and the
/// seat as it inserts, marks it late when the turn's deadline has passed (2.4, decision
/// 22), and tells which sheet it replaces; `$share` is the backend's
/// [`Dialect::SHARE_GAME`].
macro_rules! keep_sheet {
    ($share:literal) => {
        concat!(
            "INSERT INTO submissions (game_id, empire, for_turn, body, sha256, received_at, door, status) \
             SELECT g.id, $2, g.turn + 1 + CASE WHEN EXISTS (SELECT 1 FROM schedules d WHERE d.game_id = g.id AND d.for_turn = g.turn + 1 \
             AND d.paused_at IS NULL AND d.deadline IS NOT NULL AND d.deadline + d.grace < $5) THEN 1 ELSE 0 END, $3, $4, $5, $6, \
             CASE WHEN $8 = 'late' OR EXISTS (SELECT 1 FROM schedules d WHERE d.game_id = g.id AND d.for_turn = g.turn + 1 \
             AND d.paused_at IS NULL AND d.deadline IS NOT NULL AND d.deadline + d.grace < $5) THEN 'late' ELSE $8 END FROM games g \
             WHERE g.name = $1 AND ($7 IS NULL OR g.turn + 1 = $7) AND g.finished_at IS NULL \
             AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.empire = $2)",
            $share,
            " RETURNING for_turn, (SELECT p.sha256 FROM submissions p WHERE p.game_id = submissions.game_id \
             AND p.empire = submissions.empire AND p.for_turn = submissions.for_turn \
             AND p.consumed_turn IS NULL AND p.id < submissions.id ORDER BY p.id DESC LIMIT 1), status"
        )
    };
}

/// The game, the empire's seat and the sheet a new one replaces, read (and on PostgreSQL
/// locked, as [`Dialect::SHARE_GAME`] says) by the transaction that keeps a sheet or a
/// GM's message.
macro_rules! read_for_sheet {
    ($share:literal) => {
        concat!(
            "SELECT g.id, g.turn, \
             (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.empire = $2), \
             (SELECT sha256 FROM submissions u WHERE u.game_id = g.id AND u.empire = $2 \
              AND u.for_turn = g.turn + 1 AND u.consumed_turn IS NULL ORDER BY u.id DESC LIMIT 1), \
             g.finished_at FROM games g WHERE g.name = $1",
            $share
        )
    };
}

impl Dialect for sqlx::Sqlite {
    const SHARE_GAME: &'static str = "";
    const BEGIN_WRITE: &'static str = "BEGIN IMMEDIATE";
    const KEEP_SHEET: &'static str = keep_sheet!("");
    const READ_FOR_SHEET: &'static str = read_for_sheet!("");
}

impl Dialect for sqlx::Postgres {
    const SHARE_GAME: &'static str = " FOR SHARE OF g";
    const BEGIN_WRITE: &'static str = "BEGIN";
    const KEEP_SHEET: &'static str = keep_sheet!(" FOR SHARE OF g");
    const READ_FOR_SHEET: &'static str = read_for_sheet!(" FOR SHARE OF g");
}

/// The queries of games and turns on backend `D`. Each impl block that adds to it states
/// the same bounds: what a query needs of the backend to bind and read the host's types.
pub struct Sql<D>(PhantomData<D>);

/// The queries on SQLite.
pub type Lite = Sql<sqlx::Sqlite>;

/// The queries on PostgreSQL.
pub type Pg = Sql<sqlx::Postgres>;

/// The text of one `INSERT ... VALUES` of `rows` rows of `columns` parameters each,
/// numbered `$1` on: one statement for many rows, as a turn's files are kept.
pub fn insert_values(head: &str, rows: usize, columns: usize) -> String {
    let mut sql = String::with_capacity(head.len() + rows * columns * 5);
    sql.push_str(head);
    sql.push_str(" VALUES ");
    for row in 0..rows {
        if row > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for column in 0..columns {
            if column > 0 {
                sql.push_str(", ");
            }
            sql.push('$');
            sql.push_str(&(row * columns + column + 1).to_string());
        }
        sql.push(')');
    }
    sql
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_rows_go_in_one_statement_numbered_from_one() {
        assert_eq!(
            insert_values("INSERT INTO t (a, b)", 2, 2),
            "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)"
        );
    }
}
