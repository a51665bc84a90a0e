//! The lock of a game directory (`.lock`): exclusive to play a turn, shared to look or send a
//! sheet, and waited for a bounded time.
//!
//! A turn must not be played while a command reads the game or writes a sheet into
//! `orders/`, and the other way round. Those commands last milliseconds, so a command that
//! finds the lock taken waits for it (30 seconds by default, `EMPIRES_LOCK_WAIT` seconds if
//! set) rather than failing at once; after that it names who holds it.

use crate::error::Error;
use std::fs::{File, TryLockError};
use std::path::Path;
use std::time::{Duration, Instant};

/// How long a command waits for a game's lock unless `EMPIRES_LOCK_WAIT` says otherwise.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(30);

/// The wait from `EMPIRES_LOCK_WAIT` (whole or fractional seconds), else [`DEFAULT_WAIT`].
pub fn wait_allowed() -> Duration {
    std::env::var("EMPIRES_LOCK_WAIT")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map_or(DEFAULT_WAIT, Duration::from_secs_f64)
}

/// How a lock is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Exclusive,
    Shared,
}

/// What came of waiting for a lock.
#[derive(Debug)]
pub enum Outcome {
    Taken,
    /// Still held by another command when the wait ran out.
    Busy,
    /// The system cannot lock this file (a read-only copy, a file system without locks).
    Failed(std::io::Error),
}

/// Takes `file`'s lock in `mode`, trying again for up to `wait` while another command holds
/// it: a few milliseconds between tries at first, up to a tenth of a second.
pub fn take(file: &File, mode: Mode, wait: Duration) -> Outcome {
    let start = Instant::now();
    let mut pause = Duration::from_millis(2);
    loop {
        let tried = match mode {
            Mode::Exclusive => file.try_lock(),
            Mode::Shared => file.try_lock_shared(),
        };
        match tried {
            Ok(()) => return Outcome::Taken,
            Err(TryLockError::Error(e)) => return Outcome::Failed(e),
            Err(TryLockError::WouldBlock) => {}
        }
        let spent = start.elapsed();
        if spent >= wait {
            return Outcome::Busy;
        }
        std::thread::sleep(pause.min(wait - spent));
        pause = (pause * 2).min(Duration::from_millis(100));
    }
}

/// The message for a game whose lock stayed taken: how long was waited and, where the
/// system tells, which processes hold it.
pub fn busy(root: &Path, lock: &Path, waited: Duration) -> Error {
    let holders = holders(lock);
    let who = if holders.is_empty() {
        "another empires command is working on this game".to_string()
    } else {
        format!("it is held by {}", holders.join(", "))
    };
    Error::conflict(format!(
        "{}: waited {:.0} s for the game's lock and {who}; try again when it ends (EMPIRES_LOCK_WAIT sets the wait in seconds)",
        root.display(),
        waited.as_secs_f64()
    ))
}

/// The processes holding a lock on `lock`, as "process 123 (empires turn)", read from
/// `/proc/locks`; empty where the system does not say.
pub fn holders(lock: &Path) -> Vec<String> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let (Ok(meta), Ok(table)) = (
            std::fs::metadata(lock),
            std::fs::read_to_string("/proc/locks"),
        ) else {
            return Vec::new();
        };
        let mut pids = holders_in(&table, meta.ino());
        pids.dedup();
        pids.into_iter()
            .filter(|pid| *pid != std::process::id())
            .map(|pid| match command_of(pid) {
                Some(cmd) => format!("process {pid} ({cmd})"),
                None => format!("process {pid}"),
            })
            .collect()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = lock;
        Vec::new()
    }
}

/// The process ids of the `/proc/locks` lines that lock inode `ino`, sorted. A line reads
/// `1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`; one waiting for a lock has `->` after
/// its number and holds nothing.
fn holders_in(table: &str, ino: u64) -> Vec<u32> {
    let mut pids: Vec<u32> = table
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.get(1) == Some(&"->") {
                return None;
            }
            let pid = fields.get(4)?.parse().ok()?;
            let node: u64 = fields.get(5)?.rsplit(':').next()?.parse().ok()?;
            (node == ino).then_some(pid)
        })
        .collect();
    pids.sort_unstable();
    pids
}

#[cfg(target_os = "linux")]
fn command_of(pid: u32) -> Option<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let words: Vec<String> = raw
        .split(|b| *b == 0)
        .filter(|w| !w.is_empty())
        .take(3)
        .map(|w| {
            let w = String::from_utf8_lossy(w);
            w.rsplit('/').next().unwrap_or(&w).to_string()
        })
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_table_names_only_holders_of_this_file() {
        let table = "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF\n\
                     1: -> FLOCK  ADVISORY  WRITE 99 08:01:5678 0 EOF\n\
                     2: FLOCK  ADVISORY  READ  777 08:01:5678 0 EOF\n\
                     3: POSIX  ADVISORY  WRITE 55 00:1a:42 0 EOF\n";
        assert_eq!(holders_in(table, 5678), vec![777, 1234]);
        assert_eq!(holders_in(table, 42), vec![55]);
        assert!(holders_in(table, 1).is_empty());
    }

    #[test]
    fn a_lock_is_waited_for_then_given_up() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(".lock");
        let holder = File::create(&path).unwrap();
        holder.lock_shared().unwrap();
        let other = File::open(&path).unwrap();
        // Shared with a shared holder at once; exclusive only when the holder lets go.
        assert!(matches!(
            take(&other, Mode::Shared, Duration::ZERO),
            Outcome::Taken
        ));
        other.unlock().unwrap();
        let start = Instant::now();
        assert!(matches!(
            take(&other, Mode::Exclusive, Duration::from_millis(150)),
            Outcome::Busy
        ));
        assert!(start.elapsed() >= Duration::from_millis(150));
        let released = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            drop(holder);
        });
        assert!(matches!(
            take(&other, Mode::Exclusive, Duration::from_secs(10)),
            Outcome::Taken
        ));
        released.join().unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_holder_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(".lock");
        let file = File::create(&path).unwrap();
        file.lock().unwrap();
        // This process holds it, and a process is never told it holds its own lock...
        assert!(holders(&path).is_empty());
        // ...but a child holding it is named.
        drop(file);
        let mut child = std::process::Command::new("flock")
            .arg(&path)
            .arg("sleep")
            .arg("5")
            .spawn();
        if let Ok(child) = child.as_mut() {
            let start = Instant::now();
            let mut named = Vec::new();
            while named.is_empty() && start.elapsed() < Duration::from_secs(4) {
                std::thread::sleep(Duration::from_millis(20));
                named = holders(&path);
            }
            let _ = child.kill();
            let _ = child.wait();
            assert!(named.iter().any(|h| h.contains("flock")), "{named:?}");
        }
    }
}
