//! Taking messages from a Maildir, for a host whose mail server delivers there: every
//! message in `new/` is taken in, then moved to `cur/` marked seen, whatever became of it
//! (a sheet the host refuses is answered with the reason, and the next message read). An
//! outage (the database out of reach) ends the run: that message and the ones after it stay
//! in `new/` for the next run. A file that cannot be read is left in `new/` and the run goes
//! on.

use crate::inbound::message::MAX_MESSAGE_BYTES;
use crate::inbound::{Outcome, Receiver};
use empires_host::store::Millis;
use empires_host::{Error, Result};
use std::io::Read;
use std::path::{Path, PathBuf};

/// What a run over a Maildir did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fetched {
    pub messages: usize,
    pub accepted: usize,
    /// Requests for a report again, answered with the report.
    pub resent: usize,
    pub refused: usize,
    pub ignored: usize,
    /// Messages the host failed on (not an outage), and files that could not be read.
    pub failed: usize,
    /// What went wrong with those, one line each.
    pub problems: Vec<String>,
}

/// The messages waiting in `dir/new`, oldest first (Maildir names begin with the time of
/// delivery).
fn waiting(dir: &Path) -> Result<Vec<PathBuf>> {
    let new = dir.join("new");
    let entries =
        std::fs::read_dir(&new).map_err(|e| Error::io("cannot read the Maildir", &new, e))?;
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// Reads a message file: all of it, or only its head when it is too large to take in.
pub fn read_message(path: &Path) -> Result<(Vec<u8>, usize)> {
    let mut f = std::fs::File::open(path).map_err(|e| Error::io("cannot open", path, e))?;
    let size = f
        .metadata()
        .map_err(|e| Error::io("cannot read", path, e))?
        .len() as usize;
    let mut raw = Vec::with_capacity(size.min(MAX_MESSAGE_BYTES + 1));
    (&mut f)
        .take((MAX_MESSAGE_BYTES + 1) as u64)
        .read_to_end(&mut raw)
        .map_err(|e| Error::io("cannot read", path, e))?;
    Ok((raw, size))
}

/// Takes in every message waiting in the Maildir `dir`.
pub async fn fetch(receiver: &mut Receiver<'_>, dir: &Path, now: Millis) -> Result<Fetched> {
    let mut done = Fetched::default();
    let cur = dir.join("cur");
    std::fs::create_dir_all(&cur).map_err(|e| Error::io("cannot create", &cur, e))?;
    for path in waiting(dir)? {
        let (raw, size) = match read_message(&path) {
            Ok(m) => m,
            Err(e) => {
                // Left where it is for the GM; the messages after it are read.
                done.failed += 1;
                done.problems.push(e.to_string());
                continue;
            }
        };
        // An error is an outage: the messages after this one would meet it too.
        let outcome = receiver.receive(&raw, size, now).await?;
        done.messages += 1;
        match &outcome {
            Outcome::Accepted { .. } | Outcome::Late { .. } => done.accepted += 1,
            Outcome::Resent { .. } => done.resent += 1,
            Outcome::Refused(_) | Outcome::Unanswered(_) => done.refused += 1,
            Outcome::Ignored(_) | Outcome::Duplicate => done.ignored += 1,
            Outcome::Failed(why) => {
                done.failed += 1;
                done.problems.push(format!("{}: {why}", path.display()));
            }
        }
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let base = name.split(":2,").next().unwrap_or(&name);
        let to = cur.join(format!("{base}:2,S"));
        std::fs::rename(&path, &to)
            .map_err(|e| Error::io("cannot move the message to cur/", &path, e))?;
    }
    Ok(done)
}
