//! The log-in rate limit: after [`MAX_FAILURES`] failed log-ins for one account name, or
//! [`MAX_FAILURES_PER_ADDRESS`] from one address, within [`WINDOW`], further attempts are
//! refused until the window has passed, whatever password they carry. Kept in memory: a
//! restart forgets it, which an attacker cannot cause from outside.

use empires_host::store::Millis;
use std::collections::HashMap;

/// Failed log-ins allowed for one account name within the window.
pub const MAX_FAILURES: u32 = 5;
/// Failed log-ins allowed from one address within the window, across names.
pub const MAX_FAILURES_PER_ADDRESS: u32 = 20;
/// The window, in milliseconds: 15 minutes.
pub const WINDOW: Millis = 15 * 60 * 1000;

/// Failed log-ins counted by key (an account name, an address): (count, window start).
#[derive(Debug, Default)]
pub struct Limiter {
    failures: HashMap<String, (u32, Millis)>,
}

impl Limiter {
    /// Whether a log-in for `name` from `address` may be tried now.
    pub fn allows(&mut self, name: &str, address: &str, now: Millis) -> bool {
        self.failures.retain(|_, (_, start)| now - *start < WINDOW);
        let count = |k: &str| self.failures.get(k).map_or(0, |(n, _)| *n);
        count(&name_key(name)) < MAX_FAILURES
            && count(&address_key(address)) < MAX_FAILURES_PER_ADDRESS
    }

    /// Counts a failed log-in.
    pub fn failed(&mut self, name: &str, address: &str, now: Millis) {
        for key in [name_key(name), address_key(address)] {
            let entry = self.failures.entry(key).or_insert((0, now));
            entry.0 += 1;
        }
    }

    /// A successful log-in clears its name's count (not its address's).
    pub fn succeeded(&mut self, name: &str) {
        self.failures.remove(&name_key(name));
    }
}

fn name_key(name: &str) -> String {
    format!("name:{}", name.to_lowercase())
}

fn address_key(address: &str) -> String {
    format!("addr:{address}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_shut_out_after_its_failures_until_the_window_passes() {
        let mut l = Limiter::default();
        for _ in 0..MAX_FAILURES {
            assert!(l.allows("alice", "1.2.3.4", 0));
            l.failed("alice", "1.2.3.4", 0);
        }
        assert!(
            !l.allows("alice", "5.6.7.8", 1000),
            "another address, same name"
        );
        assert!(
            !l.allows("ALICE", "1.2.3.4", 1000),
            "names are compared without case"
        );
        assert!(l.allows("bob", "5.6.7.8", 1000));
        assert!(l.allows("alice", "1.2.3.4", WINDOW));
    }

    #[test]
    fn an_address_is_shut_out_after_failures_across_names() {
        let mut l = Limiter::default();
        for i in 0..MAX_FAILURES_PER_ADDRESS {
            l.failed(&format!("name{i}"), "1.2.3.4", 0);
        }
        assert!(!l.allows("fresh", "1.2.3.4", 0));
        assert!(l.allows("fresh", "9.9.9.9", 0));
    }
}
