//! `empires ledger ...`: turn credits and prize discounts (2.10, 11.7) from the command
//! line. The GM enters payments, carries discounts between games, corrects by hand, and
//! says which games' turns are paid for; the host charges turns and records results itself.

use crate::commands::hosted::block_on;
use crate::error::{Error, Result};
use empires_host::ledger::Entry;
use empires_host::store::prelude::*;
use empires_host::store::sql::SqlStore;
use std::fmt::Write as _;

/// What `empires ledger` does.
#[derive(Debug, clap::Subcommand)]
pub enum LedgerCommand {
    /// A player's ledger: every entry, and where they stand in each game.
    Show {
        player: String,
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// Enter a payment: TURNS credits bought in GAME. Ten or more at once also credit the
    /// player's discount held in that game (2.10).
    Buy {
        player: String,
        game: String,
        turns: u32,
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// Carry discount earned in one game to another (2.10: it is not carried by itself).
    Carry {
        player: String,
        from: String,
        to: String,
        discount: u32,
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// Correct a player's credits in a game by hand (a refund, a gift), with the reason.
    Adjust {
        player: String,
        game: String,
        #[arg(allow_hyphen_values = true)]
        turns: i64,
        #[arg(long)]
        reason: String,
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// A resignation the GM treats as dropping out: every discount is forfeited (11.7).
    Forfeit {
        player: String,
        game: String,
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// Show the host's table of prize discounts (11.7 unless set), or set it from a JSON
    /// file such as {"by_category": {"runaway-win": 3, "points-win": 2}, "cap": 10}.
    Discounts {
        #[arg(long, value_name = "FILE.json")]
        set: Option<std::path::PathBuf>,
        #[arg(long, value_name = "URL")]
        db: String,
    },
    /// Make a game's turns paid for (`on`: each turn charges every player a credit, and an
    /// unpaid report waits for payment) or free (`off`, the default).
    Paid {
        game: String,
        #[arg(value_parser = ["on", "off"])]
        on: String,
        #[arg(long, value_name = "URL")]
        db: String,
    },
}

async fn account(store: &SqlStore, name: &str) -> Result<i64> {
    Ok(store
        .account_by_name(name)
        .await?
        .ok_or_else(|| Error::new(format!("no account named \"{name}\"")))?
        .id)
}

use super::now;

/// Runs one `empires ledger` command; returns what to print.
pub fn run(command: LedgerCommand) -> Result<String> {
    block_on(async {
        let (db, player, entry) = match command {
            LedgerCommand::Show { player, db } => {
                let store = SqlStore::open_existing(&db).await?;
                return show(&store, &player).await;
            }
            LedgerCommand::Discounts { set, db } => {
                let store = SqlStore::open_existing(&db).await?;
                if let Some(file) = set {
                    let text = std::fs::read_to_string(&file)
                        .map_err(|e| Error::io("cannot read", &file, e))?;
                    let table: empires_host::ledger::DiscountTable = serde_json::from_str(&text)
                        .map_err(|e| Error::new(format!("{}: {e}", file.display())))?;
                    store.set_discount_table(&table).await?;
                    store
                        .audit(
                            None,
                            now()?,
                            "ledger",
                            &format!("discount table set: {text}"),
                        )
                        .await?;
                }
                let table = store.discount_table().await?;
                let mut out = format!("prize discounts (at most {} in all):\n", table.cap);
                for (category, turns) in &table.by_category {
                    let _ = writeln!(out, "  {category}: {turns}");
                }
                return Ok(out);
            }
            LedgerCommand::Paid { game, on, db } => {
                let store = SqlStore::open_existing(&db).await?;
                store.set_paid_turns(&game, on == "on", now()?).await?;
                return Ok(if on == "on" {
                    format!("{game}: turns are paid for from the next turn on (2.10)")
                } else {
                    format!("{game}: turns are free")
                });
            }
            LedgerCommand::Buy {
                player,
                game,
                turns,
                db,
            } => (db, player, Entry::Bought { game, turns }),
            LedgerCommand::Carry {
                player,
                from,
                to,
                discount,
                db,
            } => (db, player, Entry::Carried { from, to, discount }),
            LedgerCommand::Adjust {
                player,
                game,
                turns,
                reason,
                db,
            } => (
                db,
                player,
                Entry::Adjusted {
                    game,
                    turns,
                    reason,
                },
            ),
            LedgerCommand::Forfeit { player, game, db } => (db, player, Entry::DroppedOut { game }),
        };
        let store = SqlStore::open_existing(&db).await?;
        let id = account(&store, &player).await?;
        store.enter(id, &entry, now()?).await?;
        show(&store, &player).await
    })
}

async fn show(store: &SqlStore, player: &str) -> Result<String> {
    let id = account(store, player).await?;
    let ledger = store.ledger(id).await?;
    let mut out = format!(
        "{player}: discount {} in all (at most {})\n",
        ledger.total_discount(),
        store.discount_table().await?.cap
    );
    for (game, _) in ledger.games() {
        let _ = writeln!(out, "  {game}: {}", ledger.summary_line(game));
    }
    let _ = writeln!(out, "entries:");
    for (at, entry) in store.ledger_entries(id).await? {
        let _ = writeln!(
            out,
            "  {}  {}",
            empires_mail::inbound::when(at),
            serde_json::to_string(&entry).unwrap_or_default()
        );
    }
    Ok(out)
}
