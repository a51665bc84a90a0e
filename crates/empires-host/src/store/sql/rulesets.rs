//! Games of a ruleset other than Empires (Napoleonic Empires) kept in a database, through
//! the [`Ruleset`] interface alone: the store keeps their map, state and reports as the
//! ruleset writes them and never reads them itself.
//!
//! Such a game lives in the same tables as an Empires game: its row names its ruleset; its
//! seats are the ruleset's (a kingdom's code where an Empires game has an empire's); its
//! sheets are submissions like any other; a turn is one transaction that claims the game,
//! plays the sheets pending through [`Ruleset::play`], stores the turn's files, marks the
//! sheets played and moves the deadline on. The turn's files are named as an Empires turn's
//! (`state.json`, `state.sha256`, `events.json`, `turn.json`, `orders/FRA.txt`,
//! `reports/FRA.html`), so each is read by the same [`Reader`] rule: a seat reads its own
//! reports and sheets, the GM everything, and what the computer wrote for the independents
//! (`computer/`) is the GM's.

use super::{Declared, Pool, SqlStore, db_error, not_found};
use crate::error::{Error, Result};
use crate::gamedir::{EVENTS_FILE, HASH_FILE, ORDERS_DIR, STATE_FILE, sha256_hex, to_pretty_json};
use crate::render::REPORTS_DIR;
use crate::ruleset::{self, GameText, HostedGame, Ruleset, Started};
use crate::staging::{RECORD_FILE, TurnRecord};
use crate::store::{Files, Millis};
use crate::turn::{TurnOptions, decode_sheet};

/// The ruleset of games that keep the Empires engine's own tables and pipeline.
pub const EMPIRES: &str = "empires";

/// Where a ruleset's turn keeps the orders the computer wrote (the GM's alone).
const COMPUTER_DIR: &str = "computer";

/// A turn of a ruleset game played and stored.
#[derive(Debug, Clone)]
pub struct RulesetTurn {
    pub game: String,
    /// The turn played.
    pub turn: u32,
    pub events: usize,
    pub failed: usize,
    /// The seats whose sheets were played.
    pub sheets_from: Vec<String>,
    /// The living seats with a player that sent nothing.
    pub missing: Vec<String>,
    /// The living seats no one plays, that the computer played.
    pub stand_ins: Vec<String>,
    pub hash: String,
    /// What the GM should know (sheets not used, a game won).
    pub notes: Vec<String>,
}

impl RulesetTurn {
    /// The turn as every door reports a turn played: the seats that sent sheets and the
    /// GM's notes among its warnings.
    pub fn into_report(self, where_: &str) -> crate::turn::TurnReport {
        let line = self.seats_line();
        crate::turn::TurnReport {
            seats_line: Some(line),
            written_to: format!("{where_}, turn {}", self.turn),
            game: self.game,
            turn: self.turn,
            events: self.events,
            failed: self.failed,
            ignored: 0,
            hash: self.hash,
            orders_from: Vec::new(),
            computer_written: Vec::new(),
            victory_warning: None,
            game_over: None,
            warnings: self.notes,
        }
    }

    /// "sheets from: FRA; sent nothing: AUS PRU".
    fn seats_line(&self) -> String {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(" ")
            }
        };
        format!(
            "sheets from: {}; sent nothing: {}; played by the computer (no player): {}",
            list(&self.sheets_from),
            list(&self.missing),
            list(&self.stand_ins)
        )
    }
}

impl std::fmt::Display for RulesetTurn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "turn {} of \"{}\" played: {} events, {} failed orders",
            self.turn, self.game, self.events, self.failed
        )?;
        writeln!(f, "{}", self.seats_line())?;
        write!(f, "state sha256: {}", self.hash)?;
        for n in &self.notes {
            write!(f, "\nnote: {n}")?;
        }
        Ok(())
    }
}

/// The files a ruleset's turn keeps, by path, sorted; `sent` are the sheets played, by file
/// name, as received.
fn turn_files(played: &ruleset::Turn, sent: &[(String, Vec<u8>)]) -> Result<(Files, Declared)> {
    let record = TurnRecord {
        sent: sent.iter().map(|(n, _)| n.clone()).collect(),
        computer: played
            .computer_orders
            .iter()
            .map(|(n, _)| n.clone())
            .collect(),
        ..TurnRecord::default()
    };
    let mut out: Files = vec![
        (STATE_FILE.into(), played.state.clone().into_bytes()),
        (
            HASH_FILE.into(),
            format!("{}\n", sha256_hex(played.state.as_bytes())).into_bytes(),
        ),
        (EVENTS_FILE.into(), played.events.clone().into_bytes()),
        (
            RECORD_FILE.into(),
            to_pretty_json(&record, RECORD_FILE)?.into_bytes(),
        ),
    ];
    for (name, body) in sent {
        out.push((format!("{ORDERS_DIR}/{name}"), body.clone()));
    }
    for (name, text) in &played.computer_orders {
        out.push((format!("{COMPUTER_DIR}/{name}"), text.clone().into_bytes()));
    }
    // Who reads a report is the ruleset's word, not its name's.
    let mut declared = Declared::new();
    for w in &played.reports {
        let path = format!("{REPORTS_DIR}/{}", w.name);
        declared.insert(path.clone(), w.readers.clone());
        out.push((path, w.text.clone().into_bytes()));
    }
    Ok((crate::store::sorted_unique(out)?, declared))
}

/// The queries of ruleset games, written once and compiled for each backend.
macro_rules! backend {
    ($m:ident, $pool:ty, $conn:ty) => {
        pub(super) mod $m {
            use super::*;
            use crate::store::sql::$m as ops;
            use crate::store::sql::deadlines::$m as deadlines;

            pub async fn create(
                p: &$pool,
                name: &str,
                ruleset: &dyn Ruleset,
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
                let mut tx = p.begin().await?;
                let (id,): (i64,) = sqlx::query_as(
                    "INSERT INTO games (name, title, map_toml, variant, seed, options, turn, created_at, ruleset, map_script) \
                     VALUES ($1, $2, $3, $4, '', '{}', $5, $6, $7, $8) RETURNING id",
                )
                .bind(name)
                .bind(name)
                .bind(started.map.as_bytes())
                .bind(ruleset.title())
                .bind(i64::from(played))
                .bind(now)
                .bind(ruleset.id())
                .bind(started.kept.as_deref().map(str::as_bytes))
                .fetch_one(&mut *tx)
                .await?;
                for seat in &seats {
                    sqlx::query(
                        "INSERT INTO seats (game_id, empire, status) VALUES ($1, $2, $3)",
                    )
                    .bind(id)
                    .bind(&seat.code)
                    .bind(if seat.alive { "playing" } else { "eliminated" })
                    .execute(&mut *tx)
                    .await?;
                }
                let files: Files = vec![
                    (STATE_FILE.into(), started.state.clone().into_bytes()),
                    (
                        HASH_FILE.into(),
                        format!("{}\n", sha256_hex(started.state.as_bytes())).into_bytes(),
                    ),
                ];
                let hash = sha256_hex(started.state.as_bytes());
                ops::insert_turn(&mut *tx, id, played, &hash, None, now, (&files, &Declared::new())).await?;
                ops::audit(&mut *tx, id, now, "create", &format!("{} game", ruleset.title())).await?;
                tx.commit().await
            }

            /// The game as texts, at the turn it stands.
            pub async fn read(
                c: &mut $conn,
                shown: &str,
                game: &str,
            ) -> Result<(i64, HostedGame)> {
                let fail = |what: &'static str| move |e: sqlx::Error| db_error(what, shown, e);
                let row: Option<(i64, i64, String, Vec<u8>, Option<Vec<u8>>)> = sqlx::query_as(
                    "SELECT id, turn, ruleset, map_toml, map_script FROM games WHERE name = $1",
                )
                .bind(game)
                .fetch_optional(&mut *c)
                .await
                .map_err(fail("cannot read the game"))?;
                let (id, turn, ruleset, map, kept) = row.ok_or_else(|| not_found(shown, game))?;
                let label = format!("{shown}, game \"{game}\"");
                let ruleset = ruleset::by_id(&ruleset)
                    .map_err(|e| Error::corrupt(format!("{label}: {e}")))?;
                let (_, state, hash) = ops::game_at(&mut *c, id, turn)
                    .await
                    .map_err(fail("cannot read the game"))?;
                let state_label = format!("{label}, turn {turn}, {STATE_FILE}");
                let state = state.ok_or_else(|| Error::corrupt(format!("{state_label}: missing")))?;
                let warnings = super::super::hash_problem(&state_label, &state, &hash)
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
                        // What was kept is only ever a shortcut: unreadable, it is made again.
                        kept: kept.and_then(|k| String::from_utf8(k).ok()),
                        warnings,
                    },
                ))
            }

            pub async fn play(
                p: &$pool,
                shown: &str,
                game: &str,
                options: TurnOptions,
                now: Millis,
            ) -> Result<RulesetTurn> {
                let fail = |what: &'static str| move |e: sqlx::Error| db_error(what, shown, e);
                let mut tx = p.begin().await.map_err(fail("cannot start the turn"))?;
                ops::claim(&mut tx, shown, game).await?;
                let (id, g) = read(&mut tx, shown, game).await?;
                let next = g.turn + 1;
                crate::turn::expect_turn(&options, next, game)?;
                if let (Some(problem), false) = (g.warnings.first(), options.accept_state) {
                    return Err(Error::corrupt(format!(
                        "{problem}; no turn is played on a state that cannot be verified"
                    )));
                }
                let pending = ops::pending(&mut tx, id, next)
                    .await
                    .map_err(fail("cannot read the sheets"))?;
                let seats = g.ruleset.seats(g.text())?;
                let mut sheets = Vec::new();
                let mut sent = Vec::new();
                let mut notes = Vec::new();
                let mut gm = None;
                for (seat, _, body) in &pending {
                    let name = match seat {
                        Some(s) => format!("{s}.txt"),
                        None => super::super::GM_FILE.to_string(),
                    };
                    sent.push((name.clone(), body.clone()));
                    // The GM's messages, kept with the turn and printed in every report.
                    let Some(seat) = seat else {
                        gm = Some(String::from_utf8_lossy(body).into_owned());
                        continue;
                    };
                    match decode_sheet(body) {
                        Ok(text) => sheets.push((seat.clone(), text)),
                        Err(e) => notes.push(format!("{name}: {e}; played as sending nothing")),
                    }
                }
                // Seats no account holds are the computer's to play (the ruleset's stand-in).
                let unheld: Vec<(String,)> = sqlx::query_as(
                    "SELECT empire FROM seats WHERE game_id = $1 AND account_id IS NULL",
                )
                .bind(id)
                .fetch_all(&mut *tx)
                .await
                .map_err(fail("cannot read the seats"))?;
                let unheld: Vec<String> = unheld.into_iter().map(|(s,)| s).collect();
                let silent = |s: &&crate::ruleset::Seat| s.alive && !sheets.iter().any(|(c, _)| c == &s.code);
                let stand_ins: Vec<String> = seats
                    .iter()
                    .filter(silent)
                    .filter(|s| unheld.contains(&s.code))
                    .map(|s| s.code.clone())
                    .collect();
                let missing: Vec<String> = seats
                    .iter()
                    .filter(silent)
                    .filter(|s| !unheld.contains(&s.code))
                    .map(|s| s.code.clone())
                    .collect();
                // As in an Empires game, a turn waits for every living seat with a player
                // unless the GM says to play it anyway (the clock always does, at the
                // deadline).
                if !options.yes && !missing.is_empty() {
                    return Err(Error::new(format!(
                        "no sheet yet from {}; play the turn anyway with --yes (they do nothing this turn)",
                        missing.join(" ")
                    )));
                }
                let orders = ruleset::Orders {
                    sheets: &sheets,
                    stand_ins: &stand_ins,
                    gm: gm.as_deref(),
                };
                let played = g.ruleset.play(g.text(), orders)?;
                notes.extend(played.notes.iter().cloned());
                let (files, declared) = turn_files(&played, &sent)?;
                let hash = sha256_hex(played.state.as_bytes());
                let after = GameText { state: &played.state, ..g.text() };
                let alive: Vec<(String, bool)> = g
                    .ruleset
                    .seats(after)?
                    .into_iter()
                    .map(|s| (s.code, s.alive))
                    .collect();
                let store = async {
                    ops::insert_turn(&mut tx, id, next, &hash, None, now, (&files, &declared)).await?;
                    for (seat, ids, _) in &pending {
                        let sql = if seat.is_some() {
                            "UPDATE submissions SET consumed_turn = $1 WHERE id = $2"
                        } else {
                            "UPDATE gm_messages SET consumed_turn = $1 WHERE id = $2"
                        };
                        for sid in ids {
                            sqlx::query(sql).bind(i64::from(next)).bind(*sid).execute(&mut *tx).await?;
                        }
                    }
                    sqlx::query("UPDATE games SET turn = $1 WHERE id = $2")
                        .bind(i64::from(next))
                        .bind(id)
                        .execute(&mut *tx)
                        .await?;
                    for (code, alive) in &alive {
                        if !alive {
                            sqlx::query("UPDATE seats SET status = 'eliminated' WHERE game_id = $1 AND empire = $2")
                                .bind(id)
                                .bind(code)
                                .execute(&mut *tx)
                                .await?;
                        }
                    }
                    if let Some(kept) = &played.kept {
                        ops::keep_script(&mut tx, id, kept).await?;
                    }
                    deadlines::advance_in(&mut tx, id, next, false, now).await?;
                    ops::audit(&mut tx, id, now, "turn", &format!("turn {next}")).await?;
                    tx.commit().await
                };
                store.await.map_err(fail("cannot keep the turn"))?;
                Ok(RulesetTurn {
                    game: game.to_string(),
                    turn: next,
                    events: played.events_count,
                    failed: played.failed,
                    sheets_from: sheets.into_iter().map(|(s, _)| s).collect(),
                    missing,
                    stand_ins,
                    hash,
                    notes,
                })
            }
        }
    };
}

backend!(lite, sqlx::SqlitePool, sqlx::SqliteConnection);
backend!(pg, sqlx::PgPool, sqlx::PgConnection);

impl SqlStore {
    /// The ruleset `game` is played under (`empires`, `napoleonic`).
    pub async fn ruleset(&self, game: &str) -> Result<&'static dyn Ruleset> {
        let row: Option<(String,)> = on_pool!(&self.pool, |p| {
            sqlx::query_as("SELECT ruleset FROM games WHERE name = $1")
                .bind(game)
                .fetch_optional(p)
                .await
        })
        .map_err(|e| self.err("cannot read the game", e))?;
        let (id,) = row.ok_or_else(|| not_found(&self.shown, game))?;
        ruleset::by_id(&id)
    }

    /// Whether `game` is played under a ruleset other than Empires, so that a door serves it
    /// through [`Ruleset`] and [`SqlStore::read_hosted`].
    pub async fn is_other_ruleset(&self, game: &str) -> Result<bool> {
        Ok(self.ruleset(game).await?.id() != EMPIRES)
    }

    /// Keeps a new game of any ruleset but Empires at its starting position, with its seats.
    pub async fn create_ruleset_game(
        &self,
        name: &str,
        ruleset: &'static dyn Ruleset,
        started: &Started,
        now: Millis,
    ) -> Result<()> {
        crate::create::check_game_name(name)?;
        let done = match &self.pool {
            Pool::Sqlite(p) => lite::create(p, name, ruleset, started, now).await,
            Pool::Postgres(p) => pg::create(p, name, ruleset, started, now).await,
        };
        done.map_err(|e| self.create_error(name, e))
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
                lite::read(&mut c, shown, game).await.map(|(_, g)| g)
            }
            Pool::Postgres(p) => {
                let mut c = p
                    .acquire()
                    .await
                    .map_err(|e| db_error("cannot reach the database", shown, e))?;
                pg::read(&mut c, shown, game).await.map(|(_, g)| g)
            }
        }
    }

    /// Plays the next turn of a game of a ruleset other than Empires, with the sheets
    /// pending, and keeps it in one transaction.
    pub async fn play_ruleset_turn(
        &self,
        game: &str,
        options: TurnOptions,
        now: Millis,
    ) -> Result<RulesetTurn> {
        match &self.pool {
            Pool::Sqlite(p) => lite::play(p, &self.shown, game, options, now).await,
            Pool::Postgres(p) => pg::play(p, &self.shown, game, options, now).await,
        }
    }
}
