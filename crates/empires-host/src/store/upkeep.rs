//! The host's own limits and the upkeep of its database, as the doors ask for them.

use super::sql::HostLimits;
use crate::error::Result;

/// The limits and upkeep of the host's database ([`super::sql::SqlStore`]); a door holds it as
/// `Arc<dyn Upkeep>` ([`super::Services`]).
#[async_trait::async_trait]
pub trait Upkeep: Send + Sync {
    /// The limits set on the host, each at its default where none is set.
    async fn host_limits(&self) -> Result<HostLimits>;

    /// Sets the host's limits; each must be at least 1.
    async fn set_host_limits(&self, limits: HostLimits) -> Result<()>;

    /// Keeps the database's own files in trim (an SQLite store's write-ahead log under its
    /// cap); says whether it had work to do.
    async fn keep_wal_small(&self) -> Result<bool>;

    /// Closes the database cleanly, leaving it whole in its file.
    async fn close(&self);
}
