//! A game of any ruleset kept in a database, through the [`Ruleset`] interface alone: the
//! store keeps its map, state and reports as the ruleset writes them and never reads them
//! itself.
//!
//! A game's row names its ruleset; its seats are the ruleset's (an empire's code, a
//! kingdom's); its sheets are submissions. A turn is one transaction that claims the game,
//! gathers the sheets pending, has [`crate::pipeline::play`] play them, and keeps the
//! turn's files, marks the sheets played, brings the seats and the players' ledgers up to
//! date and moves the deadline on. The turn's files are named as a game directory names
//! them (`state.json`, `state.sha256`, `events.json`, `turn.json`, `orders/FRA.txt`,
//! `reports/FRA.html`), so that a game moves between stores unchanged.

use super::backend::{Dialect, Lite, Pg, Sql};
use super::deadlines::{CatchUp, next_deadline};
use super::ledger::{SeatBefore, fee_entries, ledger_entries_of_turn};
use super::{Declared, Pool, SqlStore, db_error, not_found};
use crate::error::{Error, Result};
use crate::gamedir::REPORTS_DIR;
use crate::gamedir::{HASH_FILE, ORDERS_DIR, STATE_FILE, sha256_hex};
use crate::pipeline::{self, PlayedTurn, Taken};
use crate::ruleset::{self, GameText, HostedGame, Ruleset, Seat, Started};
use crate::ruleset::{Finished, Step};
use crate::schedule::Schedule;
use crate::staging::{RECORD_FILE, TurnRecord};
use crate::store::{Files, Millis};
use crate::turn::{TurnOptions, TurnReport};

/// A game's row and seats, as created or imported.
pub struct GameRow<'a> {
    pub name: &'a str,
    pub ruleset: &'static dyn Ruleset,
    pub title: &'a str,
    pub variant: &'a str,
    pub map: &'a str,
    pub kept: Option<&'a str>,
    /// Turns played so far.
    pub turn: u32,
    pub seats: &'a [Seat],
    pub created_at: Millis,
    /// The standing sheets in force, as (seat, bytes): a game brought in keeps them.
    pub standing: &'a [(String, Vec<u8>)],
    /// The game's next step, as its ruleset reads it from the last state.
    pub step: &'a Step,
    /// The sheets sent ahead for later steps, as `ahead/NNNN/SEAT.txt` files.
    pub ahead: &'a [(String, Vec<u8>)],
}

/// The files of a starting position: the state, its hash, and its reports with their
/// readers.
fn start_files(started: &Started) -> (Files, Declared) {
    let mut files: Files = vec![
        (STATE_FILE.into(), started.state.clone().into_bytes()),
        (
            HASH_FILE.into(),
            format!("{}\n", sha256_hex(started.state.as_bytes())).into_bytes(),
        ),
    ];
    let mut declared = Declared::new();
    for w in &started.reports {
        let path = format!("{REPORTS_DIR}/{}", w.name);
        declared.insert(path.clone(), w.readers.clone());
        files.push((path, w.text.clone().into_bytes()));
    }
    files.sort();
    (files, declared)
}

/// The seat a pending file is for: `EN.txt` is EN's; `None` for the GM's `gm.txt`, or a
/// file named for no seat of the game.
fn pending_seat(file: &str, seats: &[Seat]) -> Option<Option<String>> {
    if file.eq_ignore_ascii_case(crate::gamedir::GM_MESSAGES_FILE) {
        return Some(None);
    }
    let stem = file.strip_suffix(".txt")?;
    seats
        .iter()
        .find(|s| s.code.eq_ignore_ascii_case(stem))
        .map(|s| Some(s.code.clone()))
}

/// The step and seat of a sheet sent ahead, from its file `ahead/NNNN/SEAT.txt`.
fn ahead_file(path: &str) -> Option<(u32, &str)> {
    let rest = path.strip_prefix(&format!("{}/", crate::gamedir::AHEAD_DIR))?;
    let (turn, file) = rest.split_once('/')?;
    let seat = file.strip_suffix(".txt").filter(|s| !s.contains('/'))?;
    Some((crate::gamedir::parse_turn_name(turn)?, seat))
}

/// The queries of games, written once and compiled for each backend.
/// A game's row as [`Sql::read`] reads it: id, turn, ruleset, map, and what was kept.
type GameRecord = (i64, i64, String, Vec<u8>, Option<Vec<u8>>);

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
    /// The game's row and its seats, each with the account of the player the game
    /// names (made if new).
    pub async fn insert_game(c: &mut D::Connection, g: &GameRow<'_>) -> sqlx::Result<i64> {
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO games (name, title, map_toml, variant, seed, options, turn, created_at, ruleset, map_script) \
             VALUES ($1, $2, $3, $4, '', '{}', $5, $6, $7, $8) RETURNING id",
        )
        .bind(g.name)
        .bind(g.title)
        .bind(g.map.as_bytes())
        .bind(g.variant)
        .bind(i64::from(g.turn))
        .bind(g.created_at)
        .bind(g.ruleset.id())
        .bind(own_kept(g.ruleset, g.map, g.kept).map(str::as_bytes))
        .fetch_one(&mut *c)
        .await?;
        for seat in g.seats {
            let account: Option<i64> = match &seat.player {
                Some(player) => {
                    sqlx::query(
                        "INSERT INTO accounts (name, email, role, created_at) \
                         VALUES ($1, $2, 'player', $3) ON CONFLICT (name) DO NOTHING",
                    )
                    .bind(&player.name)
                    .bind(player.email.as_deref())
                    .bind(g.created_at)
                    .execute(&mut *c)
                    .await?;
                    let (a,): (i64,) = sqlx::query_as("SELECT id FROM accounts WHERE name = $1")
                        .bind(&player.name)
                        .fetch_one(&mut *c)
                        .await?;
                    Some(a)
                }
                None => None,
            };
            sqlx::query(
                "INSERT INTO seats (game_id, empire, account_id, player, status, missed_turns) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(id)
            .bind(&seat.code)
            .bind(account)
            .bind(seat.player.as_ref().map(|p| p.name.as_str()))
            .bind(seat.standing.as_str())
            .bind(i64::from(seat.standing.missed()))
            .execute(&mut *c)
            .await?;
        }
        Ok(id)
    }

    /// The seats follow the game as a turn left it: who is playing, missing turns,
    /// dropped out, out of the game.
    pub async fn update_seats(c: &mut D::Connection, id: i64, seats: &[Seat]) -> sqlx::Result<()> {
        for seat in seats {
            sqlx::query(
                "UPDATE seats SET status = $1, missed_turns = $2 WHERE game_id = $3 AND empire = $4",
            )
            .bind(seat.standing.as_str())
            .bind(i64::from(seat.standing.missed()))
            .bind(id)
            .bind(&seat.code)
            .execute(&mut *c)
            .await?;
        }
        Ok(())
    }

    /// Seats a turn brought into the game (a country split in two), each held by the
    /// account that held the seat it split from, until the GM gives it to another.
    pub async fn add_seats(
        c: &mut D::Connection,
        id: i64,
        before: &[SeatBefore],
        after: &[Seat],
    ) -> sqlx::Result<()> {
        let had = |code: &str| before.iter().find(|(e, _, _)| e == code);
        for seat in after.iter().filter(|s| had(&s.code).is_none()) {
            let account = seat.split_from.as_deref().and_then(had).and_then(|b| b.1);
            sqlx::query(
                "INSERT INTO seats (game_id, empire, account_id, player, status, missed_turns) \
                 VALUES ($1, $2, $3, NULL, $4, $5)",
            )
            .bind(id)
            .bind(&seat.code)
            .bind(account)
            .bind(seat.standing.as_str())
            .bind(i64::from(seat.standing.missed()))
            .execute(&mut *c)
            .await?;
        }
        Ok(())
    }

    /// Takes out the seats the game no longer has (a split undone).
    pub async fn drop_seats(c: &mut D::Connection, id: i64, seats: &[Seat]) -> sqlx::Result<()> {
        let rows: Vec<(String,)> = sqlx::query_as("SELECT empire FROM seats WHERE game_id = $1")
            .bind(id)
            .fetch_all(&mut *c)
            .await?;
        for (code,) in rows {
            if !seats.iter().any(|s| s.code == code) {
                sqlx::query("DELETE FROM seats WHERE game_id = $1 AND empire = $2")
                    .bind(id)
                    .bind(&code)
                    .execute(&mut *c)
                    .await?;
            }
        }
        Ok(())
    }

    /// Records what game `id`'s next step waits for: the seats it expects (every seat when
    /// it names none), the GM's rulings when it needs them, and its allowance.
    pub async fn mark_step(c: &mut D::Connection, id: i64, step: &Step) -> sqlx::Result<()> {
        sqlx::query(
            "UPDATE games SET step_label = $1, step_needs_gm = $2, step_allowance = $3 WHERE id = $4",
        )
        .bind(step.label.as_str())
        .bind(step.needs_gm.as_deref())
        .bind(step.allowance)
        .bind(id)
        .execute(&mut *c)
        .await?;
        let expected = step.expected.as_deref();
        sqlx::query("UPDATE seats SET expected = $1 WHERE game_id = $2")
            .bind(i64::from(expected.is_none()))
            .bind(id)
            .execute(&mut *c)
            .await?;
        for seat in expected.unwrap_or_default() {
            sqlx::query("UPDATE seats SET expected = 1 WHERE game_id = $1 AND empire = $2")
                .bind(id)
                .bind(seat.as_str())
                .execute(&mut *c)
                .await?;
        }
        Ok(())
    }

    pub async fn create(
        p: &sqlx::Pool<D>,
        name: &str,
        ruleset: &'static dyn Ruleset,
        started: &Started,
        now: Millis,
    ) -> sqlx::Result<()> {
        let text = GameText {
            name,
            map: &started.map,
            state: &started.state,
            kept: started.kept.as_deref(),
        };
        let bad = |e: Error| sqlx::Error::Protocol(e.to_string());
        let seats = ruleset.seats(text).map_err(bad)?;
        let played = ruleset.next_turn(text).map_err(bad)?.saturating_sub(1);
        let step = ruleset.step(text).map_err(bad)?;
        let row = GameRow {
            name,
            ruleset,
            title: started.title.as_deref().unwrap_or(name),
            variant: started.variant.as_deref().unwrap_or(ruleset.title()),
            map: &started.map,
            kept: started.kept.as_deref(),
            turn: played,
            seats: &seats,
            created_at: now,
            standing: &[],
            step: &step,
            ahead: &[],
        };
        let mut tx = p.begin().await?;
        let id = Self::insert_game(&mut tx, &row).await?;
        Self::mark_step(&mut tx, id, &step).await?;
        let (files, declared) = start_files(started);
        let hash = sha256_hex(started.state.as_bytes());
        Self::insert_turn(&mut tx, id, played, &hash, None, now, (&files, &declared)).await?;
        let detail = format!("{} game from turn {played}", ruleset.title());
        Self::audit(&mut tx, id, now, "create", &detail).await?;
        tx.commit().await
    }

    /// A whole game brought in from elsewhere: its row, every turn's files and what
    /// is pending, in one transaction.
    pub async fn import(
        p: &sqlx::Pool<D>,
        row: &GameRow<'_>,
        turns: &[(u32, Files)],
        pending: &[(String, Vec<u8>)],
    ) -> sqlx::Result<()> {
        let mut tx = p.begin().await?;
        let id = Self::insert_game(&mut tx, row).await?;
        Self::mark_step(&mut tx, id, row.step).await?;
        for (seat, body) in row.standing {
            sqlx::query(
                "INSERT INTO standing_sheets (game_id, seat, body, sha256, received_at) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(id)
            .bind(seat.as_str())
            .bind(&body[..])
            .bind(sha256_hex(body))
            .bind(row.created_at)
            .execute(&mut *tx)
            .await?;
        }
        for (turn, files) in turns {
            let hash = files
                .iter()
                .find(|(p, _)| p == HASH_FILE)
                .map(|(_, b)| String::from_utf8_lossy(b).trim().to_string())
                .unwrap_or_default();
            let version = files
                .iter()
                .find(|(p, _)| p == RECORD_FILE)
                .and_then(|(_, b)| serde_json::from_slice::<TurnRecord>(b).ok())
                .and_then(|r| r.rules_version);
            let files = (&files[..], &Declared::new());
            Self::insert_turn(
                &mut tx,
                id,
                *turn,
                &hash,
                version.as_deref(),
                row.created_at,
                files,
            )
            .await?;
        }
        for (file, body) in pending {
            let Some(seat) = pending_seat(file, row.seats) else {
                continue;
            };
            let kept = ("import", row.created_at, false);
            Self::insert_submission(&mut tx, id, seat.as_deref(), row.turn + 1, body, kept).await?;
        }
        // Each sheet sent ahead waits for its own step again.
        for (path, body) in row.ahead {
            let Some((turn, seat)) = ahead_file(path) else {
                continue;
            };
            let kept = ("import", row.created_at, false);
            Self::insert_submission(&mut tx, id, Some(seat), turn, body, kept).await?;
        }
        let detail = format!("{} turns", turns.len());
        Self::audit(&mut tx, id, row.created_at, "import", &detail).await?;
        tx.commit().await
    }

    /// The game as texts, at the turn it stands.
    pub async fn read(c: &mut D::Connection, shown: &str, game: &str) -> Result<(i64, HostedGame)> {
        let fail = |what: &'static str| move |e: sqlx::Error| db_error(what, shown, e);
        let row: Option<GameRecord> = sqlx::query_as(
            "SELECT id, turn, ruleset, map_toml, map_script FROM games WHERE name = $1",
        )
        .bind(game)
        .fetch_optional(&mut *c)
        .await
        .map_err(fail("cannot read the game"))?;
        let (id, turn, ruleset, map, kept) = row.ok_or_else(|| not_found(shown, game))?;
        let map_text = String::from_utf8_lossy(&map).into_owned();
        let label = format!("{shown}, game \"{game}\"");
        let ruleset =
            ruleset::by_id(&ruleset).map_err(|e| Error::corrupt(format!("{label}: {e}")))?;
        let (_, state, hash) = Self::game_at(&mut *c, id, turn)
            .await
            .map_err(fail("cannot read the game"))?;
        let state_label = format!("{label}, turn {turn}, {STATE_FILE}");
        let state = state.ok_or_else(|| Error::corrupt(format!("{state_label}: missing")))?;
        let warnings = super::hash_problem(&state_label, &state, &hash)
            .into_iter()
            .collect();
        let text = |b: Vec<u8>, what: &str| {
            String::from_utf8(b)
                .map_err(|_| Error::corrupt(format!("{label}, {what}: not valid UTF-8 text")))
        };
        Ok((
            id,
            HostedGame {
                name: game.to_string(),
                ruleset,
                turn: turn as u32,
                map: text(map, "map")?,
                state: text(state, STATE_FILE)?,
                // What was kept is only ever a shortcut: unreadable, it is made again. A
                // standard map's is built into the program and not kept per game.
                kept: kept
                    .and_then(|k| String::from_utf8(k).ok())
                    .or_else(|| ruleset.built_kept(&map_text).map(str::to_string)),
                ready_map: None,
                warnings,
            },
        ))
    }

    /// Plays the next turn with the sheets pending and keeps it, in one transaction
    /// that claims the game first: of several processes playing the same turn at
    /// once, exactly one does, and the others are told.
    pub async fn play(
        p: &sqlx::Pool<D>,
        shown: &str,
        game: &str,
        options: TurnOptions,
        now: Millis,
    ) -> Result<TurnReport> {
        let fail = |what: &'static str| move |e: sqlx::Error| db_error(what, shown, e);
        let mut tx = p.begin().await.map_err(fail("cannot start the turn"))?;
        Self::claim(&mut tx, shown, game).await?;
        let (id, g) = Self::read(&mut tx, shown, game).await?;
        let next = g.turn + 1;
        crate::turn::expect_turn(&options, next, game)?;
        let mut state_accepted = None;
        if let Some(problem) = g.warnings.first() {
            if !options.accept_state {
                return Err(Error::corrupt(format!(
                    "{problem}; no turn is played on a state that cannot be verified. If \
                     the state is as the GM wants it, run `empires turn --accept-state`, \
                     which records this with the turn"
                )));
            }
            state_accepted = Some(problem.clone());
        }
        let pending = Self::pending(&mut tx, id, next)
            .await
            .map_err(fail("cannot read the turnsheets"))?;
        let held: Vec<(String,)> = sqlx::query_as(
            "SELECT empire FROM seats WHERE game_id = $1 AND account_id IS NOT NULL",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await
        .map_err(fail("cannot read the seats"))?;
        let standing: Vec<(String, Vec<u8>)> = sqlx::query_as(
            "SELECT seat, body FROM standing_sheets WHERE game_id = $1 ORDER BY seat",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await
        .map_err(fail("cannot read the standing sheets"))?;
        let label = format!("{shown}, game \"{game}\"");
        // When each sheet arrived, for a game that rules on it.
        let mut arrived = Vec::new();
        if g.ruleset.arrival_times() {
            for (seat, ids, _) in &pending {
                let (Some(seat), Some(sid)) = (seat, ids.last()) else {
                    continue;
                };
                let (at,): (i64,) =
                    sqlx::query_as("SELECT received_at FROM submissions WHERE id = $1")
                        .bind(*sid)
                        .fetch_one(&mut *tx)
                        .await
                        .map_err(fail("cannot read the turnsheets"))?;
                arrived.push((seat.clone(), at));
            }
        }
        let taken = Taken {
            sent: pending
                .iter()
                .map(|(s, _, b)| (s.clone(), b.clone()))
                .collect(),
            held: Some(held.into_iter().map(|(s,)| s).collect()),
            superseded: Vec::new(),
            state_accepted,
            label: format!("{label}, {ORDERS_DIR}"),
            standing,
            arrived,
        };
        let ruleset = g.ruleset;
        let played = pipeline::play(ruleset.open(g)?.as_ref(), taken, options)?;
        let ids: Vec<(bool, i64)> = pending
            .iter()
            .flat_map(|(s, ids, _)| ids.iter().map(move |i| (s.is_some(), *i)))
            .collect();
        let store = async {
            Self::commit_in(&mut tx, id, ruleset, &played, &ids, (now, options.by)).await?;
            tx.commit().await
        };
        store.await.map_err(fail("cannot keep the turn"))?;
        let mut report = played.report;
        report.written_to = format!("{label}, turn {next}");
        Ok(report)
    }

    /// Stores a played turn in the transaction that claimed it: its files, the
    /// sheets it played (`ids`: whether a seat's sheet, else a GM's message, and its
    /// id), the game's turn and seats, the players' ledgers, the next deadline and
    /// the audit log.
    pub async fn commit_in(
        tx: &mut D::Connection,
        id: i64,
        ruleset: &'static dyn Ruleset,
        played: &PlayedTurn,
        ids: &[(bool, i64)],
        (now, by): (Millis, Option<i64>),
    ) -> sqlx::Result<()> {
        let next = played.turn;
        let version = played.record.rules_version.as_deref();
        // The seats as they stood, for the ledger; a seat the turn brought in is in the game
        // before its files are kept, so that it reads its own.
        let before = Self::seats_before(&mut *tx, id).await?;
        Self::add_seats(&mut *tx, id, &before, &played.after).await?;
        Self::insert_turn(
            &mut *tx,
            id,
            next,
            &played.hash,
            version,
            now,
            (&played.files, &played.declared),
        )
        .await?;
        for (seat, sid) in ids {
            let sql = if *seat {
                "UPDATE submissions SET consumed_turn = $1 WHERE id = $2"
            } else {
                "UPDATE gm_messages SET consumed_turn = $1 WHERE id = $2"
            };
            sqlx::query(sql)
                .bind(i64::from(next))
                .bind(*sid)
                .execute(&mut *tx)
                .await?;
        }
        // A finished game is over: it takes no more sheets.
        let over = played.finished.is_some().then_some(now);
        sqlx::query("UPDATE games SET turn = $1, finished_at = $2 WHERE id = $3")
            .bind(i64::from(next))
            .bind(over)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        // The seats as the turn left them, by the ruleset.
        Self::update_seats(&mut *tx, id, &played.after).await?;
        let next_step = match &played.next {
            Some(step) => step.clone(),
            None => Step::turn(played.turn + 1),
        };
        Self::mark_step(&mut *tx, id, &next_step).await?;
        // Charges, dropouts and results in the players' ledgers (2.10, 11.7). A game played
        // in steps is charged once a game-turn, at the step that begins it.
        let finished = played.finished.as_ref();
        Self::record_turn(
            &mut *tx,
            (id, next),
            ruleset.paid_turns() && played.step.begins_game_turn,
            (&before, &played.after),
            (finished, &played.fees),
            now,
        )
        .await?;
        // A standard map's drawing is handed out by `read`, so a turn finds nothing to
        // keep for it.
        if let Some(kept) = &played.kept {
            Self::keep_script(&mut *tx, id, kept).await?;
        }
        // The next deadline, in the same transaction: a turn and its deadline never
        // drift apart, whichever door played the turn.
        Self::advance_in(
            &mut *tx,
            id,
            (next, next_step.allowance),
            over.is_some(),
            now,
        )
        .await?;
        // The one line the audit log keeps of a turn, whichever door played it.
        let mut detail = format!("turn {next}: {}", played.report.counts());
        if let Some(why) = &played.record.state_accepted {
            detail.push_str(&format!("; played on a state accepted as it is: {why}"));
        }
        if !played.record.unreadable.is_empty() {
            detail.push_str(&format!(
                "; played as sending no orders: {}",
                played.record.unreadable.join(" ")
            ));
        }
        Self::audit_as(&mut *tx, id, by, now, "turn", &detail).await
    }

    /// Stores `played`, a turn computed elsewhere from the game as it stands, in a
    /// transaction of its own: what committing a turn costs, measured apart.
    pub async fn commit_played(
        p: &sqlx::Pool<D>,
        shown: &str,
        game: &str,
        played: &PlayedTurn,
        now: Millis,
    ) -> Result<()> {
        let fail = |what: &'static str| move |e: sqlx::Error| db_error(what, shown, e);
        let mut tx = p.begin().await.map_err(fail("cannot start the turn"))?;
        Self::claim(&mut tx, shown, game).await?;
        let (id, g) = Self::read(&mut tx, shown, game).await?;
        if g.turn + 1 != played.turn {
            return Err(Error::conflict(format!(
                "{shown}, game \"{game}\": turn {} cannot be stored after turn {}",
                played.turn, g.turn
            )));
        }
        Self::commit_in(&mut tx, id, g.ruleset, played, &[], (now, None))
            .await
            .map_err(fail("cannot keep the turn"))?;
        tx.commit().await.map_err(fail("cannot keep the turn"))
    }

    /// The seats of game `id` as they stand, before the turn changes them.
    pub async fn seats_before(c: &mut D::Connection, id: i64) -> sqlx::Result<Vec<SeatBefore>> {
        sqlx::query_as(
            "SELECT empire, account_id, status FROM seats WHERE game_id = $1 ORDER BY empire",
        )
        .bind(id)
        .fetch_all(&mut *c)
        .await
    }

    /// Writes the ledger entries of turn `turn`, stored in this transaction, of a
    /// game whose ruleset lets its turns be paid for (`paid_turns`) or not.
    pub async fn record_turn(
        c: &mut D::Connection,
        (id, turn): (i64, u32),
        paid_turns: bool,
        (before, after): (&[SeatBefore], &[Seat]),
        (finished, fees): (Option<&Finished>, &[ruleset_api::Fee]),
        now: Millis,
    ) -> sqlx::Result<()> {
        let (name, paid): (String, i64) =
            sqlx::query_as("SELECT name, paid_turns FROM games WHERE id = $1")
                .bind(id)
                .fetch_one(&mut *c)
                .await?;
        // A fee (Napoleonic Empires' Royalty) is charged in any game the GM marked paid,
        // though the ruleset's turns themselves may be free.
        let marked = paid != 0;
        let paid = paid_turns && marked;
        let mut entries = ledger_entries_of_turn((&name, turn), paid, before, after, finished);
        entries.extend(fee_entries(&name, marked, before, fees));
        for (account, entry) in entries {
            sqlx::query("INSERT INTO ledger (account_id, at, entry) VALUES ($1, $2, $3)")
                .bind(account)
                .bind(now)
                .bind(serde_json::to_string(&entry).unwrap_or_default())
                .execute(&mut *c)
                .await?;
        }
        Ok(())
    }

    /// Moves the schedule of game `id` on after turn `played`, in the transaction
    /// that stores the turn. A game that is over keeps no deadline.
    pub async fn advance_in(
        c: &mut D::Connection,
        id: i64,
        (played, allowance): (u32, Option<i64>),
        over: bool,
        now: Millis,
    ) -> sqlx::Result<()> {
        let row: Option<(String, String, i64, Option<i64>)> = sqlx::query_as(
            "SELECT spec, catch_up, for_turn, deadline FROM schedules WHERE game_id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *c)
        .await?;
        let Some((spec, catch_up, for_turn, deadline)) = row else {
            return Ok(());
        };
        let schedule = Schedule::parse(&spec)
            .map_err(|e| sqlx::Error::Protocol(format!("the kept schedule \"{spec}\": {e}")))?;
        let catch_up = CatchUp::parse(&catch_up).unwrap_or(CatchUp::Each);
        // The deadline met is the one kept for this turn; one kept for another turn
        // (the GM played ahead by hand) is counted from the present.
        let met = deadline.filter(|_| for_turn == i64::from(played));
        let next = if over {
            None
        } else {
            next_deadline(&schedule, catch_up, met, (now, allowance))
        };
        sqlx::query(
            "UPDATE schedules SET for_turn = $1, deadline = $2, changed_at = $3 WHERE game_id = $4",
        )
        .bind(i64::from(played) + 1)
        .bind(next)
        .bind(now)
        .bind(id)
        .execute(&mut *c)
        .await?;
        Ok(())
    }
}

impl SqlStore {
    /// The ruleset `game` is played under (`empires`, `napoleonic`).
    pub async fn ruleset(&self, game: &str) -> Result<&'static dyn Ruleset> {
        let row: Option<(String,)> = super::on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT ruleset FROM games WHERE name = $1")
                .bind(game)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the game", e))?;
        let (id,) = row.ok_or_else(|| not_found(&self.shown, game))?;
        ruleset::by_id(&id)
    }

    /// A whole game brought in from elsewhere (`empires import`): its row and seats,
    /// every turn's files and what is pending, in one transaction.
    pub async fn import_game(
        &self,
        row: &GameRow<'_>,
        turns: &[(u32, Files)],
        pending: &[(String, Vec<u8>)],
    ) -> Result<()> {
        crate::create::check_game_name(row.name)?;
        let done = match &self.pool {
            Pool::Sqlite(p) => Lite::import(p, row, turns, pending).await,
            Pool::Postgres(p) => Pg::import(p, row, turns, pending).await,
        };
        done.map_err(|e| self.create_error(row.name, e))
    }

    /// A game of any ruleset, as texts, at the turn it stands.
    pub async fn read_hosted(&self, game: &str) -> Result<HostedGame> {
        let shown = &self.shown;
        match &self.pool {
            Pool::Sqlite(p) => {
                let mut c = p
                    .acquire()
                    .await
                    .map_err(|e| db_error("cannot reach the database", shown, e))?;
                Lite::read(&mut c, shown, game).await.map(|(_, g)| g)
            }
            Pool::Postgres(p) => {
                let mut c = p
                    .acquire()
                    .await
                    .map_err(|e| db_error("cannot reach the database", shown, e))?;
                Pg::read(&mut c, shown, game).await.map(|(_, g)| g)
            }
        }
    }

    /// Plays the next turn of a game with the sheets pending, and keeps it in one
    /// transaction ([`crate::store::Store::play_turn`]).
    pub async fn play_game_turn(
        &self,
        game: &str,
        options: TurnOptions,
        now: Millis,
    ) -> Result<TurnReport> {
        match &self.pool {
            Pool::Sqlite(p) => Lite::play(p, &self.shown, game, options, now).await,
            Pool::Postgres(p) => Pg::play(p, &self.shown, game, options, now).await,
        }
    }

    /// Stores a turn played elsewhere ([`crate::pipeline::play`]) on the game as it stands,
    /// in one transaction. A host that plays turns by [`crate::store::Store::play_turn`]
    /// never needs it; it measures what committing costs.
    pub async fn commit_played(&self, game: &str, played: &PlayedTurn, now: Millis) -> Result<()> {
        match &self.pool {
            Pool::Sqlite(p) => Lite::commit_played(p, &self.shown, game, played, now).await,
            Pool::Postgres(p) => Pg::commit_played(p, &self.shown, game, played, now).await,
        }
    }
}

/// What a database keeps of a game's derived data: none where it is the program's built-in
/// copy for a standard map (a World game's drawing is 0.9 MB), which [`Sql::read`] hands
/// out in its place.
fn own_kept<'a>(ruleset: &dyn Ruleset, map: &str, kept: Option<&'a str>) -> Option<&'a str> {
    kept.filter(|k| ruleset.built_kept(map) != Some(*k))
}
