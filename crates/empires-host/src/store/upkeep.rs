//! The host's own limits, as the doors ask for them.

use super::sql::HostLimits;
use crate::error::Result;

/// The limits kept by the host's database ([`super::sql::SqlStore`]); a door holds it as
/// `Arc<dyn Upkeep>` ([`super::Services`]).
#[async_trait::async_trait]
pub trait Upkeep: Send + Sync {
    /// The limits set on the host, each at its default where none is set.
    async fn host_limits(&self) -> Result<HostLimits>;

    /// Sets the host's limits; each must be at least 1.
    async fn set_host_limits(&self, limits: HostLimits) -> Result<()>;
}
