//! Taking messages from a Maildir, for a host whose mail server delivers there: every
//! message in `new/` is taken in, then moved to `cur/` marked seen. A message that could not
//! be dealt with (the database was out of reach) stays in `new/` for the next run.

use crate::inbound::Receiver;
use crate::inbound::message::MAX_MESSAGE_BYTES;
use empires_host::store::Millis;
use empires_host::{Error, Result};
use std::io::Read;
use std::path::{Path, PathBuf};

/// What a run over a Maildir did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fetched {
    pub messages: usize,
    pub accepted: usize,
    pub refused: usize,
    pub ignored: usize,
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
        let (raw, size) = read_message(&path)?;
        let outcome = receiver.receive(&raw, size, now).await?;
        done.messages += 1;
        match outcome.word() {
            "accepted" | "late" => done.accepted += 1,
            "refused" => done.refused += 1,
            _ => done.ignored += 1,
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
