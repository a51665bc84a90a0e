//! A game's deadlines as data: the GM sets a deadline for each turn (2.4), and a schedule
//! says when each one falls, so that the host's clock ([`crate::clock`]) runs the turn when it
//! comes and every player, in whatever time zone, reads the same deadline.
//!
//! This module is pure: no clock and no I/O. Every time is a [`Millis`] passed in, so the
//! same schedule and the same instant always give the same deadline, on every machine (the
//! zone database is built into the program, see the crate's `jiff` dependency).
//!
//! A schedule is kept as the text a GM types ([`Schedule::parse`]), and printed back in one
//! canonical form ([`fmt::Display`]) that parses to the same schedule:
//!
//! ```text
//! manual                                  turns are run by hand
//! tuesdays 17:00 America/Los_Angeles      weekly, on one or more days
//! mondays,thursdays 09:30 Europe/London
//! daily 17:00 UTC
//! every 48h                               counted from the previous deadline
//! after each play                         the next step's own allowance, from each play
//! after each play 24h early               24 hours from each play, or as soon as all sent
//! daily 17:00 UTC early grace 2h          options: run early, grace after the deadline
//! ```
//!
//! A deadline is a local time in a named zone, so it moves in UTC when the clocks change, and
//! twice a year a local time may not exist or exist twice. The rules, chosen so that a turn is
//! never due later than the GM said nor skipped:
//! - a time in a **gap** (clocks jump forward over it) falls at the first instant after the
//!   gap, the transition itself: `02:30` on the night New York jumps from 02:00 to 03:00 is
//!   the instant it jumps (03:00 EDT), not 03:30 as a "compatible" reading would have it;
//! - a time in a **fold** (clocks go back and it happens twice) is the earlier of the two.

use crate::store::Millis;
use jiff::Timestamp;
use jiff::civil::{Date, DateTime, Time, Weekday};
use jiff::tz::{AmbiguousOffset, Offset, TimeZone};
use std::fmt;

const SECOND: Millis = 1_000;
const MINUTE: Millis = 60 * SECOND;
const HOUR: Millis = 60 * MINUTE;
const DAY: Millis = 24 * HOUR;

/// The longest grace: a week. Longer is surely a slip of the keyboard, and a turn that waits
/// longer than its own interval for late orders is a different schedule.
pub const MAX_GRACE: Millis = 7 * DAY;
/// The most hours between deadlines: a year.
pub const MAX_HOURS: u32 = 8760;
/// The longest duration [`parse_duration`] reads: about ten years, far beyond any extension
/// or reminder, and far inside the range of dates that can be shown.
pub const MAX_DURATION: Millis = 3653 * DAY;

/// When the turns of a game are due.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Every {
    /// Turns are run by the GM by hand: no deadline.
    Manual,
    /// Every week on the given weekdays (one or more) at a local time in a named zone.
    /// [`Schedule::parse`] keeps the days sorted from Monday, each once.
    Weekly {
        days: Vec<Weekday>,
        at: Time,
        zone: String,
    },
    /// Every day at a local time in a named zone.
    Daily { at: Time, zone: String },
    /// Every N hours (1..=8760) counted from the previous deadline (or from the time the
    /// schedule was set, for the first), so that deadlines stay on one grid.
    Hours(u32),
    /// A time counted from each play (or from the time the schedule was set, for the
    /// first): the one given, or, for `None`, the allowance the game's next step suggests
    /// ([`crate::ruleset::Step::allowance`]), as a game played one seat at a time is.
    AfterPlay(Option<Millis>),
}

/// A game's deadline schedule (2.4): when orders are due and how the turn is run then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    pub every: Every,
    /// Run early once every living human player has sent orders (the host decides who counts).
    pub early: bool,
    /// Orders received within this many milliseconds after the deadline still count as on
    /// time; the turn runs at deadline + grace.
    pub grace: Millis,
}

/// What is wrong with a schedule or a duration as written. Each message names the offending
/// words and what was expected instead, for a GM to correct at once.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScheduleError {
    /// Nothing was written.
    Empty,
    /// Something else was expected here (`found` is `None` at the end of the text).
    Expected {
        expected: &'static str,
        found: Option<String>,
    },
    UnknownWeekday(String),
    BadTime(String),
    MissingZone,
    UnknownZone(String),
    /// An interval of `every` that is not a whole number of hours from 1 to 8760.
    Hours(String),
    /// A duration that cannot be read, and why.
    Duration {
        text: String,
        why: &'static str,
    },
    /// A grace longer than [`MAX_GRACE`].
    Grace(String),
    /// An option given twice.
    Repeated(&'static str),
    /// Words left over after a whole schedule.
    Trailing(String),
}

const START: &str = "`manual`, `daily`, `every`, `after each play` or weekdays such as `tuesdays`";
const AFTER_EVERY: &str = "`day`, a weekday or a number of hours such as `48h` after `every`";
const ZONES: &str = "zones are written like `Europe/London`, `America/Los_Angeles` or `UTC`";
const DURATIONS: &str = "expected a whole number and a unit, such as `2h`, `30m`, `90min` or `1d`";

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ScheduleError as E;
        match self {
            E::Empty => write!(
                f,
                "the schedule is empty: expected {START}, as in `tuesdays 17:00 America/Los_Angeles`, \
                 `daily 17:00 UTC`, `every 48h` or `manual`"
            ),
            E::Expected { expected, found } => match found {
                Some(found) => write!(f, "expected {expected}, found `{found}`"),
                None => write!(f, "expected {expected}, but the schedule ends there"),
            },
            E::UnknownWeekday(word) => write!(
                f,
                "`{word}` is not a day of the week: expected a weekday such as `tuesdays`, `tue` \
                 or `mon,thu`"
            ),
            E::BadTime(word) => write!(
                f,
                "`{word}` is not a time of day: expected a 24-hour time from 00:00 to 23:59, \
                 such as `17:00`"
            ),
            E::MissingZone => write!(f, "the time zone is missing after the time: {ZONES}"),
            E::UnknownZone(name) => write!(f, "unknown time zone `{name}`: {ZONES}"),
            E::Hours(text) => write!(
                f,
                "`every {text}`: expected a whole number of hours from 1 to {MAX_HOURS} (a year), \
                 such as `every 48h` or `every 2 days`"
            ),
            E::Duration { text, why } => {
                write!(f, "`{text}` is not a duration ({why}): {DURATIONS}")
            }
            E::Grace(text) => write!(f, "grace `{text}` is too long: expected at most 7 days"),
            E::Repeated(word) => write!(f, "`{word}` is given twice: give it once"),
            E::Trailing(word) => write!(
                f,
                "unexpected `{word}` after the schedule: expected only the options `early` and \
                 `grace` with a duration, such as `grace 2h`"
            ),
        }
    }
}

impl std::error::Error for ScheduleError {}

impl Schedule {
    /// Reads a schedule as a GM writes it (see the module's documentation). Words are
    /// case-insensitive; a zone's name is kept as the zone database spells it.
    pub fn parse(text: &str) -> Result<Schedule, ScheduleError> {
        let mut w = Words::new(text);
        let Some(first) = w.peek() else {
            return Err(ScheduleError::Empty);
        };
        let every = if w.eat("manual") {
            Every::Manual
        } else if w.is(0, "by") && w.is(1, "hand") {
            w.at += 2;
            Every::Manual
        } else if w.eat("daily") {
            daily(&mut w)?
        } else if w.eat("every") {
            after_every(&mut w)?
        } else if w.eat("after") {
            after_play(&mut w)?
        } else if weekday(first).is_some() {
            weekly(&mut w)?
        } else if meant_as_day(first, w.words.get(1).copied()) {
            return Err(ScheduleError::UnknownWeekday(first.to_string()));
        } else {
            return Err(expected(START, Some(first)));
        };
        let (mut early, mut grace) = (false, None);
        while let Some(word) = w.next() {
            if word == "," {
                continue;
            } else if word.eq_ignore_ascii_case("early") {
                if early {
                    return Err(ScheduleError::Repeated("early"));
                }
                early = true;
            } else if word.eq_ignore_ascii_case("grace") {
                if grace.is_some() {
                    return Err(ScheduleError::Repeated("grace"));
                }
                let (ms, text) = take_duration(&mut w)?;
                if ms > MAX_GRACE {
                    return Err(ScheduleError::Grace(text));
                }
                grace = Some(ms);
            } else {
                return Err(ScheduleError::Trailing(word.to_string()));
            }
        }
        Ok(Schedule {
            every,
            early,
            grace: grace.unwrap_or(0),
        })
    }

    /// The first deadline strictly after `after`: `None` for a manual schedule (and for the
    /// rare instant beyond the calendar's range). Strictly, so that the deadline just met
    /// gives the one after it. For [`Every::Hours`] it is exactly `after` plus the interval:
    /// callers pass the previous deadline, which keeps the deadlines on one grid.
    pub fn next_after(&self, after: Millis) -> Option<Millis> {
        self.next_after_play(after, None)
    }

    /// [`Schedule::next_after`], where a schedule counted from each play without a time of
    /// its own takes `allowance`, the next step's.
    pub fn next_after_play(&self, after: Millis, allowance: Option<Millis>) -> Option<Millis> {
        match &self.every {
            Every::Manual | Every::Hours(0) => None,
            Every::Hours(n) => after.checked_add(Millis::from(*n).checked_mul(HOUR)?),
            Every::AfterPlay(given) => after.checked_add(given.or(allowance)?),
            Every::Weekly { days, at, zone } => next_local(|d| days.contains(&d), *at, zone, after),
            Every::Daily { at, zone } => next_local(|_| true, *at, zone, after),
        }
    }

    /// When the turn of `deadline` is run: after the grace, during which orders still count as
    /// on time.
    pub fn run_at(&self, deadline: Millis) -> Millis {
        deadline.saturating_add(self.grace)
    }

    /// A deadline for people: the local time in the schedule's zone with its abbreviation, and
    /// the same instant in UTC, e.g. `Tuesday 2026-11-24 17:00 PST (01:00 UTC Wednesday
    /// 2026-11-25)`. Schedules without a zone give UTC alone: `2026-11-25 01:00 UTC`.
    pub fn describe(&self, deadline: Millis) -> String {
        let Ok(ts) = Timestamp::from_millisecond(deadline) else {
            return format!("{deadline} ms after 1970-01-01 00:00 UTC");
        };
        let utc = TimeZone::UTC.to_datetime(ts);
        let tz = match &self.every {
            Every::Weekly { zone, .. } | Every::Daily { zone, .. } => TimeZone::get(zone).ok(),
            Every::Manual | Every::Hours(_) | Every::AfterPlay(_) => None,
        };
        let Some(tz) = tz else {
            return format!("{} {} UTC", utc.date(), time_text(utc.time()));
        };
        let (local, info) = (tz.to_datetime(ts), tz.to_offset_info(ts));
        let (abbreviation, day) = (info.abbreviation(), title(local.weekday()));
        let here = format!(
            "{day} {} {} {abbreviation}",
            local.date(),
            time_text(local.time())
        );
        if info.offset() == Offset::UTC && abbreviation == "UTC" {
            return here;
        }
        let (time, day) = (time_text(utc.time()), title(utc.weekday()));
        format!("{here} ({time} UTC {day} {})", utc.date())
    }
}

/// The canonical form, which [`Schedule::parse`] reads back to the same schedule.
impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.every {
            Every::Manual => f.write_str("manual")?,
            Every::Weekly { days, at, zone } => {
                for (i, day) in days.iter().enumerate() {
                    let comma = if i == 0 { "" } else { "," };
                    write!(f, "{comma}{}s", name(*day))?;
                }
                write!(f, " {} {zone}", time_text(*at))?;
            }
            Every::Daily { at, zone } => write!(f, "daily {} {zone}", time_text(*at))?,
            Every::Hours(n) => write!(f, "every {n}h")?,
            Every::AfterPlay(None) => f.write_str("after each play")?,
            Every::AfterPlay(Some(ms)) => write!(f, "after each play {}", duration_text(*ms))?,
        }
        if self.early {
            f.write_str(" early")?;
        }
        if self.grace != 0 {
            write!(f, " grace {}", duration_text(self.grace))?;
        }
        Ok(())
    }
}

/// Kept as its text, the one stored form.
impl serde::Serialize for Schedule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Schedule {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Schedule::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Reads a duration: a whole number and a unit (`2h`, `30m`, `90min`, `1d`, `24 hours`,
/// `1w`, `45s`), or several (`1h30m`), up to [`MAX_DURATION`]. Used for grace, extensions
/// and reminder offsets alike, so that all are written the same way.
pub fn parse_duration(s: &str) -> Result<Millis, ScheduleError> {
    let text = s.trim();
    let bad = |why| ScheduleError::Duration {
        text: text.to_string(),
        why,
    };
    if text.is_empty() {
        return Err(bad("it is empty"));
    }
    if text.starts_with('-') {
        return Err(bad("a duration cannot be negative"));
    }
    let (mut total, mut rest): (Millis, &str) = (0, text);
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits == 0 {
            return Err(bad("a whole number must come first"));
        }
        let number: Millis = rest[..digits].parse().map_err(|_| bad("it is too long"))?;
        rest = rest[digits..].trim_start();
        let letters = rest
            .find(|c: char| !c.is_alphabetic())
            .unwrap_or(rest.len());
        if letters == 0 {
            return Err(bad("a unit must follow the number"));
        }
        let unit = unit_millis(&rest[..letters]).ok_or_else(|| bad("the unit is unknown"))?;
        total = number
            .checked_mul(unit)
            .and_then(|ms| total.checked_add(ms))
            .filter(|ms| *ms <= MAX_DURATION)
            .ok_or_else(|| bad("it is longer than ten years"))?;
        rest = rest[letters..].trim_start();
    }
    Ok(total)
}

/// A unit's length, by any of the names a GM may use.
fn unit_millis(unit: &str) -> Option<Millis> {
    Some(match unit.to_ascii_lowercase().as_str() {
        "ms" | "msec" | "millisecond" | "milliseconds" => 1,
        "s" | "sec" | "secs" | "second" | "seconds" => SECOND,
        "m" | "min" | "mins" | "minute" | "minutes" => MINUTE,
        "h" | "hr" | "hrs" | "hour" | "hours" => HOUR,
        "d" | "day" | "days" => DAY,
        "w" | "wk" | "week" | "weeks" => 7 * DAY,
        _ => return None,
    })
}

/// A duration as [`parse_duration`] reads it back: whole hours where it is (`24h`), hours
/// and minutes (`23h59m`), else minutes, seconds or milliseconds.
pub fn duration_text(ms: Millis) -> String {
    match ms {
        _ if ms % HOUR == 0 => format!("{}h", ms / HOUR),
        _ if ms % MINUTE == 0 && ms > HOUR => {
            format!("{}h{}m", ms / HOUR, (ms % HOUR) / MINUTE)
        }
        _ if ms % MINUTE == 0 => format!("{}m", ms / MINUTE),
        _ if ms % SECOND == 0 => format!("{}s", ms / SECOND),
        _ => format!("{ms}ms"),
    }
}

/// The words of a schedule: split at spaces, with each comma a word of its own.
struct Words<'a> {
    words: Vec<&'a str>,
    at: usize,
}

impl<'a> Words<'a> {
    fn new(text: &'a str) -> Words<'a> {
        let mut words = Vec::new();
        for mut word in text.split_whitespace() {
            while let Some(i) = word.find(',') {
                words.extend([&word[..i], ","].into_iter().filter(|w| !w.is_empty()));
                word = &word[i + 1..];
            }
            if !word.is_empty() {
                words.push(word);
            }
        }
        Words { words, at: 0 }
    }

    fn peek(&self) -> Option<&'a str> {
        self.words.get(self.at).copied()
    }

    fn next(&mut self) -> Option<&'a str> {
        let word = self.peek()?;
        self.at += 1;
        Some(word)
    }

    /// Whether the word `ahead` of the present one is `word`, in any case.
    fn is(&self, ahead: usize, word: &str) -> bool {
        self.words
            .get(self.at + ahead)
            .is_some_and(|w| w.eq_ignore_ascii_case(word))
    }

    /// Takes the present word if it is `word`.
    fn eat(&mut self, word: &str) -> bool {
        let is = self.is(0, word);
        self.at += usize::from(is);
        is
    }
}

fn expected(expected: &'static str, found: Option<&str>) -> ScheduleError {
    ScheduleError::Expected {
        expected,
        found: found.map(str::to_string),
    }
}

/// What follows `after`: `each play` (or `play`), and the time allowed, when it is not the
/// step's own.
fn after_play(w: &mut Words) -> Result<Every, ScheduleError> {
    w.eat("each");
    if !w.eat("play") {
        return Err(expected("`each play` after `after`", w.peek()));
    }
    match w.peek() {
        Some(word) if word.starts_with(|c: char| c.is_ascii_digit()) => {
            let (ms, text) = take_duration(w)?;
            if ms <= 0 {
                return Err(ScheduleError::Duration {
                    text,
                    why: "a play needs some time after it",
                });
            }
            Ok(Every::AfterPlay(Some(ms)))
        }
        _ => Ok(Every::AfterPlay(None)),
    }
}

/// What follows `every`: `day`, weekdays or an interval in whole hours.
fn after_every(w: &mut Words) -> Result<Every, ScheduleError> {
    let Some(word) = w.peek() else {
        return Err(expected(AFTER_EVERY, None));
    };
    if w.eat("day") {
        daily(w)
    } else if weekday(word).is_some() {
        weekly(w)
    } else if word.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
        let (ms, text) = take_duration(w)?;
        match ms / HOUR {
            n @ 1.. if ms % HOUR == 0 && n <= Millis::from(MAX_HOURS) => Ok(Every::Hours(n as u32)),
            _ => Err(ScheduleError::Hours(text)),
        }
    } else {
        Err(expected(AFTER_EVERY, Some(word)))
    }
}

/// A duration written as one word (`48h`) or two (`48 hours`), with the text as written.
fn take_duration(w: &mut Words) -> Result<(Millis, String), ScheduleError> {
    let Some(first) = w.next() else {
        return Err(expected("a duration such as `2h` or `30m`", None));
    };
    let text = match w.peek() {
        Some(unit) if !first.contains(char::is_alphabetic) && unit_millis(unit).is_some() => {
            w.at += 1;
            format!("{first} {unit}")
        }
        _ => first.to_string(),
    };
    Ok((parse_duration(&text)?, text))
}

fn daily(w: &mut Words) -> Result<Every, ScheduleError> {
    let at = time(w)?;
    Ok(Every::Daily { at, zone: zone(w)? })
}

/// Weekdays joined by commas, `and`, `&` or nothing, then the time and the zone.
fn weekly(w: &mut Words) -> Result<Every, ScheduleError> {
    let mut days = Vec::new();
    loop {
        let Some(word) = w.next() else {
            return Err(expected("a day of the week", None));
        };
        days.push(weekday(word).ok_or_else(|| ScheduleError::UnknownWeekday(word.to_string()))?);
        let mut joined = false;
        while w.peek().is_some_and(is_joiner) {
            w.at += 1;
            joined = true;
        }
        if !joined && w.peek().is_none_or(|next| weekday(next).is_none()) {
            break;
        }
    }
    days.sort_by_key(|day| day.to_monday_zero_offset());
    days.dedup();
    let at = time(w)?;
    Ok(Every::Weekly {
        days,
        at,
        zone: zone(w)?,
    })
}

/// Whether an unknown first word was meant as a weekday, however misspelt (`tusdays`, or
/// followed by a time or a list of days): for the error to say so.
fn meant_as_day(word: &str, next: Option<&str>) -> bool {
    let word = word.to_ascii_lowercase();
    word.trim_end_matches('s').ends_with("day")
        || next.is_some_and(|n| n.contains(':') || is_joiner(n))
}

/// A word that starts the options, where a zone was expected.
fn is_option(word: &str) -> bool {
    word == "," || word.eq_ignore_ascii_case("early") || word.eq_ignore_ascii_case("grace")
}

fn is_joiner(word: &str) -> bool {
    word == "," || word == "&" || word.eq_ignore_ascii_case("and")
}

/// `HH:MM` or `HH:MM:SS`, 24-hour.
fn time(w: &mut Words) -> Result<Time, ScheduleError> {
    let Some(word) = w.next() else {
        return Err(expected("a time of day such as `17:00`", None));
    };
    let bad = || ScheduleError::BadTime(word.to_string());
    let parts: Vec<&str> = word.split(':').collect();
    let ok = (2..=3).contains(&parts.len())
        && (1..=2).contains(&parts[0].len())
        && parts[1..].iter().all(|p| p.len() == 2)
        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit()));
    if !ok {
        return Err(bad());
    }
    let number = |i: usize| parts.get(i).map_or(Ok(0), |p| p.parse::<i8>());
    let (Ok(h), Ok(m), Ok(s)) = (number(0), number(1), number(2)) else {
        return Err(bad());
    };
    Time::new(h, m, s, 0).map_err(|_| bad())
}

/// A zone's name as the zone database spells it.
fn zone(w: &mut Words) -> Result<String, ScheduleError> {
    let name = match w.next() {
        Some(word) if !is_option(word) => word,
        _ => return Err(ScheduleError::MissingZone),
    };
    let unknown = || ScheduleError::UnknownZone(name.to_string());
    let tz = TimeZone::get(name).map_err(|_| unknown())?;
    match tz.iana_name().unwrap_or(name) {
        "Etc/Unknown" => Err(unknown()),
        canonical => Ok(canonical.to_string()),
    }
}

/// The names of the days of the week, from Monday.
const DAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// A weekday's name in lower case.
fn name(day: Weekday) -> &'static str {
    DAYS[day.to_monday_zero_offset() as usize]
}

/// A weekday's name as the start of a sentence would have it.
fn title(day: Weekday) -> String {
    let name = name(day);
    name[..1].to_ascii_uppercase() + &name[1..]
}

/// A weekday by its name, plural (`tuesdays`) or cut to three letters or more (`tue`,
/// `tues`, `thurs`), or `weds`.
fn weekday(word: &str) -> Option<Weekday> {
    let word = word.to_ascii_lowercase();
    if word == "weds" {
        return Some(Weekday::Wednesday);
    }
    let i = DAYS.iter().position(|name| {
        word.len() >= 3 && (name.starts_with(&word) || word.strip_suffix('s') == Some(name))
    })?;
    Weekday::from_monday_zero_offset(i as i8).ok()
}

fn time_text(t: Time) -> String {
    match t.second() {
        0 => format!("{:02}:{:02}", t.hour(), t.minute()),
        s => format!("{:02}:{:02}:{s:02}", t.hour(), t.minute()),
    }
}

/// The first deadline strictly after `after` on a day that is `on` at `at` local time in `zone`.
/// The candidates run from two days before the local date of `after` to nine days after it:
/// wide enough for any week, and for a zone that skips a whole day.
fn next_local(on: impl Fn(Weekday) -> bool, at: Time, zone: &str, after: Millis) -> Option<Millis> {
    let tz = TimeZone::get(zone).ok()?;
    let today = tz
        .to_datetime(Timestamp::from_millisecond(after).ok()?)
        .date();
    let mut date = today.yesterday().and_then(Date::yesterday).unwrap_or(today);
    let mut best: Option<Millis> = None;
    for _ in 0..12 {
        if on(date.weekday())
            && let Some(t) = resolve(&tz, date.to_datetime(at)).filter(|t| *t > after)
        {
            best = Some(best.map_or(t, |b| b.min(t)));
        }
        let Ok(tomorrow) = date.tomorrow() else { break };
        date = tomorrow;
    }
    best
}

/// The instant of a local time: in a gap, the transition that ends the gap (the first valid
/// instant after it); in a fold, the earlier of the two.
fn resolve(tz: &TimeZone, dt: DateTime) -> Option<Millis> {
    let ts = match tz.to_ambiguous_timestamp(dt).offset() {
        AmbiguousOffset::Unambiguous { offset } => offset.to_timestamp(dt).ok()?,
        // The offset before a fold is the larger one, so it gives the earlier instant.
        AmbiguousOffset::Fold { before, .. } => before.to_timestamp(dt).ok()?,
        // Read with the offset after the gap, the time falls before the transition; the
        // first transition after that instant is the one that made the gap.
        AmbiguousOffset::Gap { before, after } => {
            let early = after.to_timestamp(dt).ok()?;
            match tz.following(early).next() {
                Some(transition) => transition.timestamp(),
                None => before.to_timestamp(dt).ok()?,
            }
        }
    };
    Some(ts.as_millisecond())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(rfc3339: &str) -> Millis {
        rfc3339.parse::<Timestamp>().unwrap().as_millisecond()
    }

    fn utc(ms: Millis) -> String {
        Timestamp::from_millisecond(ms).unwrap().to_string()
    }

    fn parse(text: &str) -> Schedule {
        Schedule::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
    }

    /// (schedule, after, the next deadline), all worked out by hand.
    #[test]
    fn next_deadlines_across_clock_changes() {
        let la = "tuesdays 17:00 America/Los_Angeles";
        let london = "sundays 12:00 Europe/London";
        let sydney = "sundays 17:00 Australia/Sydney";
        let cases = [
            // Los Angeles: PST is UTC-8 until 2026-03-08, PDT UTC-7 until 2026-11-01.
            (la, "2026-03-01T00:00:00Z", "2026-03-04T01:00:00Z"),
            (la, "2026-03-04T01:00:00Z", "2026-03-11T00:00:00Z"),
            (la, "2026-10-21T00:00:00Z", "2026-10-28T00:00:00Z"),
            (la, "2026-10-28T00:00:00Z", "2026-11-04T01:00:00Z"),
            (la, "2026-11-20T00:00:00Z", "2026-11-25T01:00:00Z"),
            // Tuesday 16:30 local is already Wednesday in UTC: still that Tuesday's deadline.
            (la, "2026-11-25T00:30:00Z", "2026-11-25T01:00:00Z"),
            (la, "2026-11-25T01:00:00.001Z", "2026-12-02T01:00:00Z"),
            // London: GMT until 2026-03-29 01:00 UTC, BST until 2026-10-25 01:00 UTC.
            (london, "2026-03-21T00:00:00Z", "2026-03-22T12:00:00Z"),
            (london, "2026-03-22T12:00:00Z", "2026-03-29T11:00:00Z"),
            (london, "2026-10-18T11:00:00Z", "2026-10-25T12:00:00Z"),
            // Sydney: AEDT (+11) until 2026-04-05 03:00 local, AEST (+10) until 2026-10-04.
            (sydney, "2026-03-29T00:00:00Z", "2026-03-29T06:00:00Z"),
            (sydney, "2026-03-29T06:00:00Z", "2026-04-05T07:00:00Z"),
            (sydney, "2026-09-27T00:00:00Z", "2026-09-27T07:00:00Z"),
            (sydney, "2026-09-27T07:00:00Z", "2026-10-04T06:00:00Z"),
            // No daylight saving: Tokyo is always UTC+9.
            (
                "fridays 09:00 Asia/Tokyo",
                "2026-03-05T23:59:59.999Z",
                "2026-03-06T00:00:00Z",
            ),
            (
                "fridays 09:00 Asia/Tokyo",
                "2026-03-06T00:00:00Z",
                "2026-03-13T00:00:00Z",
            ),
            (
                "fridays 09:00 Asia/Tokyo",
                "2026-10-30T00:00:00Z",
                "2026-11-06T00:00:00Z",
            ),
        ];
        check(&cases);
    }

    /// Local times that do not exist (gap) or exist twice (fold).
    #[test]
    fn gaps_take_the_transition_and_folds_the_earlier_instant() {
        let cases = [
            // New York jumps 02:00 EST -> 03:00 EDT at 07:00 UTC: not 06:30 nor 07:30.
            (
                "sundays 02:30 America/New_York",
                "2026-03-07T00:00:00Z",
                "2026-03-08T07:00:00Z",
            ),
            (
                "sundays 02:30 America/New_York",
                "2026-03-08T06:59:59Z",
                "2026-03-08T07:00:00Z",
            ),
            (
                "sundays 02:30 America/New_York",
                "2026-03-08T07:00:00Z",
                "2026-03-15T06:30:00Z",
            ),
            // New York falls back 02:00 EDT -> 01:00 EST: 01:30 EDT, not 01:30 EST.
            (
                "sundays 01:30 America/New_York",
                "2026-10-31T00:00:00Z",
                "2026-11-01T05:30:00Z",
            ),
            (
                "sundays 01:30 America/New_York",
                "2026-11-01T05:30:00Z",
                "2026-11-08T06:30:00Z",
            ),
            // London jumps 01:00 GMT -> 02:00 BST at 01:00 UTC.
            (
                "sundays 01:30 Europe/London",
                "2026-03-28T00:00:00Z",
                "2026-03-29T01:00:00Z",
            ),
            (
                "sundays 01:30 Europe/London",
                "2026-03-29T01:00:00Z",
                "2026-04-05T00:30:00Z",
            ),
            // London falls back 02:00 BST -> 01:00 GMT: 01:30 BST; the second 01:30 is no
            // deadline, so after the first comes the next week's.
            (
                "sundays 01:30 Europe/London",
                "2026-10-24T00:00:00Z",
                "2026-10-25T00:30:00Z",
            ),
            (
                "sundays 01:30 Europe/London",
                "2026-10-25T00:30:00Z",
                "2026-11-01T01:30:00Z",
            ),
            // Sydney jumps 02:00 AEST -> 03:00 AEDT on 2026-10-04, falls back 03:00 AEDT ->
            // 02:00 AEST on 2026-04-05; both fall on the Saturday in UTC.
            (
                "sundays 02:30 Australia/Sydney",
                "2026-10-01T00:00:00Z",
                "2026-10-03T16:00:00Z",
            ),
            (
                "sundays 02:30 Australia/Sydney",
                "2026-04-01T00:00:00Z",
                "2026-04-04T15:30:00Z",
            ),
            (
                "daily 02:30 America/New_York",
                "2026-03-07T08:00:00Z",
                "2026-03-08T07:00:00Z",
            ),
            (
                "daily 02:30 America/New_York",
                "2026-03-08T07:00:00Z",
                "2026-03-09T06:30:00Z",
            ),
        ];
        check(&cases);
    }

    #[test]
    fn several_days_daily_and_hours() {
        let two = "mon,thu 09:30 Europe/London";
        let cases = [
            (two, "2026-03-24T00:00:00Z", "2026-03-26T09:30:00Z"),
            (two, "2026-03-26T09:30:00Z", "2026-03-30T08:30:00Z"),
            (two, "2026-03-30T08:30:00Z", "2026-04-02T08:30:00Z"),
            (
                "daily 17:00 Europe/Berlin",
                "2026-03-28T12:00:00Z",
                "2026-03-28T16:00:00Z",
            ),
            (
                "daily 17:00 Europe/Berlin",
                "2026-03-28T16:00:00Z",
                "2026-03-29T15:00:00Z",
            ),
            (
                "daily 17:00 UTC",
                "2026-11-24T16:59:00Z",
                "2026-11-24T17:00:00Z",
            ),
            (
                "daily 17:00 UTC",
                "2026-11-24T17:00:00Z",
                "2026-11-25T17:00:00Z",
            ),
            (
                "every 48h",
                "2026-03-07T12:34:56.789Z",
                "2026-03-09T12:34:56.789Z",
            ),
            ("every 1h", "2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z"),
            (
                "every 8760h",
                "2026-01-01T00:00:00Z",
                "2027-01-01T00:00:00Z",
            ),
        ];
        check(&cases);
    }

    fn check(cases: &[(&str, &str, &str)]) {
        for (spec, after, want) in cases {
            let got = parse(spec).next_after(ms(after)).map(utc);
            assert_eq!(got.as_deref(), Some(*want), "{spec} after {after}");
        }
    }

    #[test]
    fn manual_grace_and_out_of_range() {
        let manual = parse("manual grace 2h");
        assert_eq!(manual.next_after(0), None);
        assert_eq!(
            manual.run_at(ms("2026-11-25T01:00:00Z")),
            ms("2026-11-25T03:00:00Z")
        );
        let graced = parse("tuesdays 17:00 America/Los_Angeles grace 30m");
        let deadline = graced.next_after(ms("2026-11-20T00:00:00Z")).unwrap();
        assert_eq!(utc(graced.run_at(deadline)), "2026-11-25T01:30:00Z");
        assert_eq!(parse("daily 17:00 UTC").run_at(deadline), deadline);
        let hours = Schedule {
            every: Every::Hours(0),
            early: false,
            grace: Millis::MAX,
        };
        assert_eq!(hours.next_after(0), None);
        assert_eq!(hours.run_at(1), Millis::MAX);
        assert_eq!(parse("every 1h").next_after(Millis::MAX), None);
        assert_eq!(
            parse("every 1h").next_after(Millis::MIN),
            Some(Millis::MIN + HOUR)
        );
        for spec in ["daily 17:00 UTC", "mondays 00:00 Pacific/Kiritimati"] {
            let s = parse(spec);
            assert_eq!(s.next_after(Millis::MAX), None, "{spec}");
            assert_eq!(s.next_after(Millis::MIN), None, "{spec}");
        }
    }

    #[test]
    fn describes_deadlines_in_the_zone_and_in_utc() {
        let la = parse("tuesdays 17:00 America/Los_Angeles");
        let cases = [
            (
                &la,
                "2026-11-25T01:00:00Z",
                "Tuesday 2026-11-24 17:00 PST (01:00 UTC Wednesday 2026-11-25)",
            ),
            (
                &la,
                "2026-07-08T00:00:00Z",
                "Tuesday 2026-07-07 17:00 PDT (00:00 UTC Wednesday 2026-07-08)",
            ),
        ];
        for (s, at, want) in cases {
            assert_eq!(s.describe(ms(at)), want);
        }
        let london = parse("sundays 12:00 Europe/London");
        assert_eq!(
            london.describe(ms("2026-03-29T11:00:00Z")),
            "Sunday 2026-03-29 12:00 BST (11:00 UTC Sunday 2026-03-29)"
        );
        let utc_daily = parse("daily 17:00 UTC");
        assert_eq!(
            utc_daily.describe(ms("2026-11-24T17:00:00Z")),
            "Tuesday 2026-11-24 17:00 UTC"
        );
        let at = ms("2026-11-25T01:00:00Z");
        assert_eq!(parse("every 48h").describe(at), "2026-11-25 01:00 UTC");
        assert_eq!(parse("manual").describe(at), "2026-11-25 01:00 UTC");
        assert_eq!(
            parse("every 1h").describe(at + 5 * SECOND),
            "2026-11-25 01:00:05 UTC"
        );
        assert!(la.describe(Millis::MAX).contains(&Millis::MAX.to_string()));
    }

    #[test]
    fn parses_to_fields() {
        let at = |h, m| Time::new(h, m, 0, 0).unwrap();
        let cases = [
            ("manual", Every::Manual, false, 0),
            ("By Hand early", Every::Manual, true, 0),
            (
                "mondays and thursdays 09:30 Europe/London",
                Every::Weekly {
                    days: vec![Weekday::Monday, Weekday::Thursday],
                    at: at(9, 30),
                    zone: "Europe/London".into(),
                },
                false,
                0,
            ),
            (
                "every day 17:00 utc grace 2h",
                Every::Daily {
                    at: at(17, 0),
                    zone: "UTC".into(),
                },
                false,
                2 * HOUR,
            ),
            (
                "every 2 days early grace 90min",
                Every::Hours(48),
                true,
                90 * MINUTE,
            ),
        ];
        for (text, every, early, grace) in cases {
            assert_eq!(
                parse(text),
                Schedule {
                    every,
                    early,
                    grace
                },
                "{text}"
            );
        }
    }

    /// (as written, its canonical form).
    #[test]
    fn round_trips() {
        let cases = [
            ("manual", "manual"),
            ("By Hand", "manual"),
            ("MANUAL early", "manual early"),
            (
                "tuesdays 17:00 America/Los_Angeles",
                "tuesdays 17:00 America/Los_Angeles",
            ),
            (
                "Tuesday 17:00 america/los_angeles",
                "tuesdays 17:00 America/Los_Angeles",
            ),
            ("tue 5:00 UTC", "tuesdays 05:00 UTC"),
            ("tues 5:00 UTC", "tuesdays 05:00 UTC"),
            (
                "mon,thu 09:30 Europe/London",
                "mondays,thursdays 09:30 Europe/London",
            ),
            (
                "mon, thu 09:30 Europe/London",
                "mondays,thursdays 09:30 Europe/London",
            ),
            (
                "mondays and thursdays 09:30 Europe/London",
                "mondays,thursdays 09:30 Europe/London",
            ),
            (
                "thurs mon 09:30 Europe/London",
                "mondays,thursdays 09:30 Europe/London",
            ),
            ("sat & sun & sat 12:00 UTC", "saturdays,sundays 12:00 UTC"),
            (
                "weds,fri,Sunday 23:59 Asia/Tokyo",
                "wednesdays,fridays,sundays 23:59 Asia/Tokyo",
            ),
            ("every tuesday 17:00 UTC", "tuesdays 17:00 UTC"),
            ("daily 17:00 UTC", "daily 17:00 UTC"),
            ("every day 17:00 Europe/Berlin", "daily 17:00 Europe/Berlin"),
            ("DAILY 23:59:30 Asia/Tokyo", "daily 23:59:30 Asia/Tokyo"),
            ("every 48h", "every 48h"),
            ("every 48 hours", "every 48h"),
            ("Every 2 Days", "every 48h"),
            ("every 1 hour", "every 1h"),
            ("every 1w", "every 168h"),
            ("every 8760h", "every 8760h"),
            ("daily 17:00 UTC early", "daily 17:00 UTC early"),
            (
                "daily 17:00 UTC grace 90min early",
                "daily 17:00 UTC early grace 1h30m",
            ),
            ("every 24h grace 2 hours", "every 24h grace 2h"),
            ("every 24h grace 1d", "every 24h grace 24h"),
            ("every 24h grace 7d", "every 24h grace 168h"),
            ("every 24h grace 1h30m", "every 24h grace 1h30m"),
            ("every 24h grace 45s", "every 24h grace 45s"),
            ("every 24h grace 1500ms", "every 24h grace 1500ms"),
            (
                "tuesdays 17:00 UTC, early, grace 30m",
                "tuesdays 17:00 UTC early grace 30m",
            ),
            ("daily 17:00 UTC grace 0m", "daily 17:00 UTC"),
        ];
        for (text, canonical) in cases {
            let s = parse(text);
            assert_eq!(s.to_string(), canonical, "{text}");
            assert_eq!(parse(canonical), s, "{text}");
        }
        let s = parse("tuesdays 17:00 UTC early grace 30m");
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, "\"tuesdays 17:00 UTC early grace 30m\"");
        assert_eq!(serde_json::from_str::<Schedule>(&json).unwrap(), s);
        assert!(serde_json::from_str::<Schedule>("\"daily 25:00 UTC\"").is_err());
    }

    /// (as written, words the message must contain).
    #[test]
    fn bad_schedules_say_what_is_wrong() {
        let cases: &[(&str, &[&str])] = &[
            ("", &["empty"]),
            ("   ", &["empty"]),
            ("fortnightly", &["`fortnightly`", "manual"]),
            ("by", &["`by`", "manual"]),
            ("tusdays 17:00 UTC", &["`tusdays`", "day of the week"]),
            ("weekly 17:00 UTC", &["`weekly`", "day of the week"]),
            ("mon,thx 09:30 Europe/London", &["`thx`", "day of the week"]),
            (
                "mondays and 09:30 Europe/London",
                &["`09:30`", "day of the week"],
            ),
            ("mondays and", &["day of the week", "ends"]),
            ("tuesdays 25:00 UTC", &["`25:00`", "time of day"]),
            ("tuesdays 17:60 UTC", &["`17:60`", "time of day"]),
            ("tuesdays 17 UTC", &["`17`", "17:00"]),
            ("tuesdays 5pm UTC", &["`5pm`", "time of day"]),
            ("daily -1:00 UTC", &["`-1:00`", "time of day"]),
            ("tuesdays", &["time of day", "ends"]),
            ("tuesdays 17:00", &["time zone is missing", "Europe/London"]),
            ("daily 17:00 early", &["time zone is missing"]),
            (
                "tuesdays 17:00 Mars/Olympus_Mons",
                &["`Mars/Olympus_Mons`", "`Europe/London`", "`UTC`"],
            ),
            ("daily 17:00 PST", &["unknown time zone `PST`"]),
            ("daily 17:00 Etc/Unknown", &["`Etc/Unknown`"]),
            ("every", &["after `every`", "ends"]),
            ("every fortnight", &["`fortnight`", "after `every`"]),
            ("every 0h", &["`every 0h`", "1 to 8760"]),
            ("every 9000 hours", &["`every 9000 hours`", "1 to 8760"]),
            ("every 90m", &["`every 90m`", "whole number of hours"]),
            ("every -2h", &["`-2h`", "negative"]),
            ("every 48", &["`48`", "unit"]),
            ("every 48x", &["`48x`", "unit is unknown"]),
            ("daily 17:00 UTC grace -2h", &["`-2h`", "negative"]),
            ("daily 17:00 UTC grace 8d", &["`8d`", "7 days"]),
            (
                "daily 17:00 UTC grace 99999999999999999999h",
                &["`99999999999999999999h`", "too long"],
            ),
            ("daily 17:00 UTC grace", &["a duration", "ends"]),
            ("daily 17:00 UTC early early", &["`early` is given twice"]),
            (
                "daily 17:00 UTC grace 1h grace 2h",
                &["`grace` is given twice"],
            ),
            ("daily 17:00 UTC please", &["unexpected `please`", "grace"]),
            ("manual now", &["unexpected `now`"]),
            ("every 48h 17:00", &["unexpected `17:00`"]),
        ];
        for (text, words) in cases {
            let e = Schedule::parse(text).expect_err(text).to_string();
            for word in *words {
                assert!(
                    e.contains(word),
                    "{text:?} gave {e:?}, which lacks {word:?}"
                );
            }
        }
    }

    #[test]
    fn durations() {
        let good = [
            ("2h", 2 * HOUR),
            ("30m", 30 * MINUTE),
            ("90min", 90 * MINUTE),
            ("1d", DAY),
            ("24 hours", DAY),
            (" 2 Days ", 2 * DAY),
            ("1h30m", 90 * MINUTE),
            ("1h 30m", 90 * MINUTE),
            ("1w", 7 * DAY),
            ("45s", 45 * SECOND),
            ("1500ms", 1500),
            ("0m", 0),
            ("3653d", MAX_DURATION),
        ];
        for (text, want) in good {
            assert_eq!(parse_duration(text), Ok(want), "{text}");
        }
        let bad = [
            ("", "empty"),
            ("h", "number must come first"),
            ("2", "unit must follow"),
            ("-2h", "negative"),
            ("2x", "unit is unknown"),
            ("1.5h", "unit must follow"),
            ("3654d", "ten years"),
            ("99999999999999999999h", "too long"),
        ];
        for (text, why) in bad {
            let e = parse_duration(text).expect_err(text).to_string();
            assert!(
                e.contains(why) && e.contains(&format!("`{}`", text.trim())),
                "{text}: {e}"
            );
        }
    }

    /// Odd strings built from pieces of schedules and junk: none panics, and whatever parses
    /// prints back to itself and gives deadlines at any instant without panicking.
    #[test]
    fn never_panics() {
        let pieces = [
            "manual",
            "by",
            "hand",
            "daily",
            "every",
            "day",
            "days",
            "tue",
            "tuesdays",
            "mon",
            "and",
            "&",
            ",",
            "17:00",
            "25:00",
            "0:00",
            "23:59:59",
            "1:2",
            ":",
            "::",
            "UTC",
            "Europe/London",
            "america/new_york",
            "Etc/Unknown",
            "Pacific/Apia",
            "early",
            "grace",
            "2h",
            "48",
            "hours",
            "-1h",
            "0h",
            "8760h",
            "8761h",
            "1h30m",
            "7d",
            "99999999999999999999",
            "ms",
            "İ",
            "ſ",
            "é",
            "\u{0}",
            "\t",
            "",
            "h",
            "+5h",
            "d",
            "w",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut random = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let instants = [
            Millis::MIN,
            -1,
            0,
            ms("2026-03-08T07:00:00Z"),
            ms("2011-12-29T10:00:00Z"),
            Millis::MAX,
        ];
        let mut parsed = 0;
        for _ in 0..600 {
            let joins = [" ", ",", "", "  "];
            let text: String = (0..1 + random(6))
                .map(|_| {
                    format!(
                        "{}{}",
                        pieces[random(pieces.len())],
                        joins[random(joins.len())]
                    )
                })
                .collect();
            let _ = parse_duration(&text);
            if let Ok(s) = Schedule::parse(&text) {
                parsed += 1;
                assert_eq!(Schedule::parse(&s.to_string()).as_ref(), Ok(&s), "{text:?}");
                for at in instants {
                    if let Some(next) = s.next_after(at) {
                        assert!(next > at, "{text:?} after {at}");
                    }
                    let _ = (s.describe(at), s.run_at(at));
                }
            }
        }
        assert!(parsed > 0);
        // Samoa skipped 2011-12-30 altogether: the deadline that day falls at the jump.
        let apia = parse("fridays 17:00 Pacific/Apia");
        assert_eq!(
            apia.next_after(ms("2011-12-29T10:00:00Z"))
                .map(utc)
                .as_deref(),
            Some("2011-12-30T10:00:00Z")
        );
    }
}
