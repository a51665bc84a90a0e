//! Times as the host shows them to people, worked out by `jiff` (a schedule's own time zone
//! is [`crate::schedule`]'s): one place, so that a page, a mail and a log agree.

use crate::store::Millis;

/// A time to the minute in UTC, as pages show it: `2026-11-25 14:03 UTC`.
pub fn utc_minute(at: Millis) -> String {
    shown(at, "%Y-%m-%d %H:%M UTC")
}

/// A time to the second in UTC, as mail and logs write it: `2026-11-25 14:03:09 UTC`.
pub fn utc_second(at: Millis) -> String {
    shown(at, "%Y-%m-%d %H:%M:%S UTC")
}

fn shown(at: Millis, format: &str) -> String {
    match jiff::Timestamp::from_millisecond(at) {
        Ok(t) => t.strftime(format).to_string(),
        // Beyond the years jiff counts (±9999): said as what it is.
        Err(_) => format!("{at} ms after 1970 (out of the calendar's range)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_the_calendar_says() {
        assert_eq!(utc_minute(0), "1970-01-01 00:00 UTC");
        // 2026-11-27 08:16:27.5 UTC.
        assert_eq!(utc_second(1_795_767_387_500), "2026-11-27 08:16:27 UTC");
        assert_eq!(utc_minute(1_795_767_387_500), "2026-11-27 08:16 UTC");
        // A leap day, and a time before 1970.
        assert_eq!(utc_minute(951_782_400_000), "2000-02-29 00:00 UTC");
        assert_eq!(utc_second(-1_000), "1969-12-31 23:59:59 UTC");
        assert!(utc_second(i64::MAX).contains("out of the calendar's range"));
    }
}
