//! How many sheets one account may send: at most `per_minute` in any minute, counted for
//! the account whatever door or token it sends through (a program's tokens share their
//! owner's allowance). One more is refused with 429 and the seconds to wait, so that no one
//! player fills the host's disk or keeps it from the others. Counted in memory: a restart
//! forgives, which costs the host at most one minute's allowance again.

use empires_host::store::Millis;
use std::collections::{HashMap, VecDeque};

/// A minute, in milliseconds.
const MINUTE: Millis = 60 * 1000;

/// The times of each account's sheets within the last minute.
#[derive(Debug, Default)]
pub struct SheetLimiter {
    sent: HashMap<i64, VecDeque<Millis>>,
}

impl SheetLimiter {
    /// Counts a sheet `account` sends at `now`, or refuses it with the seconds until one more
    /// would be taken.
    pub fn take(&mut self, account: i64, now: Millis, per_minute: u32) -> Result<(), u64> {
        let times = self.sent.entry(account).or_default();
        while times.front().is_some_and(|t| now - t >= MINUTE) {
            times.pop_front();
        }
        if times.len() >= per_minute as usize {
            let first = times.front().copied().unwrap_or(now);
            let wait = (first + MINUTE - now).max(1000);
            return Err(((wait + 999) / 1000) as u64);
        }
        times.push_back(now);
        // Accounts quiet for a minute are forgotten, so that what is kept stays small.
        if self.sent.len() > 10_000 {
            self.sent
                .retain(|_, t| t.back().is_some_and(|last| now - last < MINUTE));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_holds_for_a_minute_then_frees_one_sheet_at_a_time() {
        let mut l = SheetLimiter::default();
        for i in 0..3 {
            assert!(l.take(1, i * 1000, 3).is_ok());
        }
        assert_eq!(l.take(1, 10_000, 3), Err(50));
        assert!(l.take(2, 10_000, 3).is_ok(), "another account has its own");
        assert!(
            l.take(1, 60_000, 3).is_ok(),
            "the first sheet has left the minute"
        );
        assert_eq!(l.take(1, 60_500, 3), Err(1));
    }
}
