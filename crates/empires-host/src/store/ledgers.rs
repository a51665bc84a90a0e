//! Every player's ledger of turn credits and prize discounts (2.10, 11.7), as the doors ask
//! for it: which games' turns are paid for, the entries the GM makes, and the reports held
//! until a player has paid.

use super::Millis;
use crate::error::Result;
use crate::ledger::{DiscountTable, Entry, Ledger};

/// The ledgers kept by the host's database ([`super::sql::SqlStore`]); a door holds it as
/// `Arc<dyn Ledgers>` ([`super::Services`]).
#[async_trait::async_trait]
pub trait Ledgers: Send + Sync {
    /// The GM's table of prize discounts (11.7 unless set).
    async fn discount_table(&self) -> Result<DiscountTable>;

    /// Sets the GM's table of prize discounts; it applies to every result recorded.
    async fn set_discount_table(&self, table: &DiscountTable) -> Result<()>;

    /// Whether `game`'s turns are paid for (2.10).
    async fn paid_turns(&self, game: &str) -> Result<bool>;

    /// Makes `game`'s turns paid for, or free, from its next turn on.
    async fn set_paid_turns(&self, game: &str, paid: bool, now: Millis) -> Result<()>;

    /// An account's ledger entries, oldest first.
    async fn ledger_entries(&self, account: i64) -> Result<Vec<(Millis, Entry)>>;

    /// Where an account stands: its ledger replayed under the GM's discount table.
    async fn ledger(&self, account: i64) -> Result<Ledger>;

    /// Enters a GM's entry (a payment, a carry, an adjustment) in an account's ledger,
    /// refused with the ledger's own reason when it does not apply (carrying more discount
    /// than is held, a payment of nothing). Returns the ledger as it now stands.
    async fn enter(&self, account: i64, entry: &Entry, now: Millis) -> Result<Ledger>;

    /// Whether the report of `turn` for the seat's present player is held back because the
    /// turn is not paid for (2.10): `Some(why)` if so. Free games, dummies and turns never
    /// charged to the player are not held.
    async fn report_held(
        &self,
        game: &str,
        empire: crate::seat::SeatCode,
        turn: u32,
    ) -> Result<Option<String>>;
}
