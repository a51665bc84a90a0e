//! The log-in rate limit. Each attempt reserves a try before its password is checked, on
//! the keys that limit it, and is refused with 429 when one of them has no try left in its
//! window ([`WINDOW`]), whatever password it carries:
//!
//! - from a browser that has logged in to that account before (it sends back the **device
//!   cookie** set at that log-in), only the device's own count: [`MAX_FAILURES_PER_DEVICE`].
//!   Failures from elsewhere never shut a player out of their own browser;
//! - from anywhere else, the account name's count ([`MAX_FAILURES`]) and the address's
//!   ([`MAX_FAILURES_PER_ADDRESS`], across names).
//!
//! A right password gives its try back; a wrong one keeps it counted. The counts are kept
//! in the database (`login_limits`, see [`empires_host::store::LoginLimits::reserve_login_try`]),
//! so several `serve` processes on one database count together, and a restart does not
//! start them again. What a key holds is bounded: a name longer than [`MAX_NAME`] is
//! refused before anything is kept, an address is an IP address (an IPv6 one by its /64),
//! a device is a SHA-256; a row is dropped once its window has passed.

use crate::failure::Failure;
use axum::http::StatusCode;
use empires_host::store::Millis;
use empires_host::store::Services;
use std::net::IpAddr;

/// Failed log-ins allowed for one account name within the window.
pub const MAX_FAILURES: u32 = 5;
/// Failed log-ins allowed from one address within the window, across names.
pub const MAX_FAILURES_PER_ADDRESS: u32 = 20;
/// Failed log-ins allowed from one known device within the window.
pub const MAX_FAILURES_PER_DEVICE: u32 = 5;
/// The window, in milliseconds: 15 minutes.
pub const WINDOW: Millis = 15 * 60 * 1000;
/// The longest account name, in characters ([`crate::pages::console::check_account_name`]);
/// a longer one is refused before it is looked up or counted.
pub const MAX_NAME: usize = 40;
/// The cookie that marks a browser which has logged in to an account before.
pub const DEVICE_COOKIE: &str = "empires_device";
/// How long a device is known after its last log-in: a year.
pub const DEVICE_LIFE: Millis = 365 * 24 * 3600 * 1000;
/// The devices kept per account: a browser that throws its cookies away makes a new one
/// at each log-in, and the oldest are forgotten.
pub const DEVICES_PER_ACCOUNT: i64 = 20;

/// A name as the log-in looks it up: without the spaces around it. The limit counts it
/// the same way (and without case), so `"alice "` and `" Alice"` share alice's count.
pub fn normalise_name(name: &str) -> &str {
    name.trim()
}

/// A name that may be an account's: refused, before anything is looked up or kept, when it
/// is longer than any account's can be.
pub fn check_login_name(name: &str) -> Result<(), Failure> {
    // Bytes first: a megabyte of text is refused without counting its characters.
    if name.len() > MAX_NAME * 4 || name.chars().count() > MAX_NAME {
        return Err(Failure::bad_request(format!(
            "an account name has at most {MAX_NAME} characters"
        )));
    }
    Ok(())
}

/// The count of a (normalised) name.
pub fn name_key(name: &str) -> String {
    format!("name:{}", name.to_lowercase())
}

/// The count of an address ([`address_of`]).
pub fn address_key(address: &str) -> String {
    format!("addr:{address}")
}

/// The count of a device, by its cookie's SHA-256.
pub fn device_key(device_sha256: &str) -> String {
    format!("device:{device_sha256}")
}

/// An address as the limit counts it: an IPv4 address as it is, an IPv6 one by its /64
/// (one subscriber's network: a client given a /64 has more addresses than could ever be
/// counted one by one), an IPv4-mapped IPv6 address as the IPv4 one.
pub fn address_of(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                let net = std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0);
                format!("{net}/64")
            }
        },
    }
}

/// Which counts limit an attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keys {
    /// From a browser known to have logged in to the account: its own count only.
    Device(String),
    /// From anywhere else: the name's and the address's.
    Name { name: String, address: String },
}

impl Keys {
    fn limits(&self) -> Vec<(String, i64)> {
        match self {
            Keys::Device(sha) => vec![(device_key(sha), MAX_FAILURES_PER_DEVICE.into())],
            Keys::Name { name, address } => vec![
                (name_key(name), MAX_FAILURES.into()),
                (address_key(address), MAX_FAILURES_PER_ADDRESS.into()),
            ],
        }
    }

    /// Reserves a try on every count, or refuses the attempt with 429. Counts whose
    /// window has passed are dropped first.
    pub async fn reserve(&self, store: &Services, now: Millis) -> Result<(), Failure> {
        store.accounts.prune_login_limits(now, WINDOW).await?;
        let limits = self.limits();
        let keys: Vec<(&str, i64)> = limits.iter().map(|(k, n)| (k.as_str(), *n)).collect();
        if store.accounts.reserve_login_try(&keys, now, WINDOW).await? {
            Ok(())
        } else {
            Err(Failure::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many failed log-ins: wait a quarter of an hour and try again",
            ))
        }
    }

    /// The password was right. A device's count starts again (it is the player's own); a
    /// name's and an address's only get this try back: clearing a name's count would hand
    /// whoever is guessing it a fresh allowance each time the player logs in.
    pub async fn succeeded(&self, store: &Services) -> Result<(), Failure> {
        match self {
            Keys::Device(sha) => store.accounts.clear_login_tries(&device_key(sha)).await?,
            Keys::Name { .. } => {
                let limits = self.limits();
                let keys: Vec<&str> = limits.iter().map(|(k, _)| k.as_str()).collect();
                store.accounts.release_login_try(&keys).await?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_counted_as_they_are_looked_up() {
        for padded in ["alice", " alice", "alice ", "\talice\n", " ALICE "] {
            assert_eq!(name_key(normalise_name(padded)), "name:alice", "{padded:?}");
        }
    }

    #[test]
    fn a_name_longer_than_an_account_name_is_refused() {
        assert!(check_login_name(&"a".repeat(MAX_NAME)).is_ok());
        assert!(check_login_name(&"é".repeat(MAX_NAME)).is_ok());
        assert!(check_login_name(&"a".repeat(MAX_NAME + 1)).is_err());
        assert!(check_login_name(&"a".repeat(1 << 20)).is_err());
    }

    #[test]
    fn an_ipv6_address_is_counted_by_its_64() {
        let a = address_of("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = address_of("2001:db8:1:2:bbbb::9".parse().unwrap());
        assert_eq!(a, b);
        assert_eq!(a, "2001:db8:1:2::/64");
        assert_ne!(a, address_of("2001:db8:1:3::1".parse().unwrap()));
        assert_eq!(address_of("::ffff:10.1.2.3".parse().unwrap()), "10.1.2.3");
        assert_eq!(address_of("10.1.2.3".parse().unwrap()), "10.1.2.3");
    }
}
