//! Careful file access inside a game directory: reads that never follow a link, never block
//! on a pipe or device and never take more than a set number of bytes; writes that never
//! replace a file already there; and moves that never overwrite one.
//!
//! Players drop files into `orders/`, so anything found there may be a link, a pipe or a
//! file far larger than any turnsheet. The moderator must neither read nor write outside the
//! game through a link, nor hang or run out of memory on such a file.

use crate::error::{Error, Result};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

/// The largest `map.toml` a game directory may hold.
pub const MAX_MAP_BYTES: u64 = 16 << 20;
/// The largest `map.js` read: the drawn layer of a map of some thousands of areas.
pub const MAX_SCRIPT_BYTES: u64 = 256 << 20;
/// The largest `state.json`, `events.json` or report read back from a game directory.
pub const MAX_STATE_BYTES: u64 = 512 << 20;
/// The largest small file of a game directory: a hash, a turn's record.
pub const MAX_SMALL_BYTES: u64 = 1 << 20;

/// What kind of thing a directory entry is, without following a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Directory,
    Link,
    /// A pipe, socket or device.
    Special,
    Missing,
}

impl Kind {
    pub fn of(path: &Path) -> io::Result<Kind> {
        match fs::symlink_metadata(path) {
            Ok(m) => Ok(Kind::from_type(m.file_type())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Kind::Missing),
            Err(e) => Err(e),
        }
    }

    fn from_type(t: fs::FileType) -> Kind {
        if t.is_symlink() {
            Kind::Link
        } else if t.is_dir() {
            Kind::Directory
        } else if t.is_file() {
            Kind::File
        } else {
            Kind::Special
        }
    }

    /// "a directory", "a link", ...: for messages.
    pub fn described(self) -> &'static str {
        match self {
            Kind::File => "a file",
            Kind::Directory => "a directory",
            Kind::Link => "a link",
            Kind::Special => "a pipe, socket or device",
            Kind::Missing => "missing",
        }
    }
}

/// Opens a file for reading without following a link and without blocking on a pipe, and
/// insists it is a regular file.
pub fn open_in_game(path: &Path) -> Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| {
        // O_NOFOLLOW on a link fails with ELOOP: say what it is rather than "too many links".
        match Kind::of(path) {
            Ok(Kind::Link) => Error::new(format!(
                "{}: is a link; the game's files must be plain files inside its directory",
                path.display()
            )),
            _ => Error::io("cannot read", path, e),
        }
    })?;
    let kind = file
        .metadata()
        .map(|m| Kind::from_type(m.file_type()))
        .map_err(|e| Error::io("cannot read", path, e))?;
    if kind != Kind::File {
        return Err(Error::new(format!(
            "{}: is {}, not a file",
            path.display(),
            kind.described()
        )));
    }
    Ok(file)
}

/// Reads at most `limit` bytes of `reader`; `None` when there are more.
pub fn read_at_most(reader: impl Read, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    reader.take(limit + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// Reads a file of the game directory: a plain file, not through a link, at most `limit`
/// bytes.
pub fn read_in_game(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let file = open_in_game(path)?;
    read_at_most(file, limit)
        .map_err(|e| Error::io("cannot read", path, e))?
        .ok_or_else(|| {
            Error::new(format!(
                "{}: larger than the {limit} bytes allowed",
                path.display()
            ))
        })
}

/// Reads a UTF-8 text file of the game directory, as [`read_in_game`].
pub fn read_text_in_game(path: &Path, limit: u64) -> Result<String> {
    String::from_utf8(read_in_game(path, limit)?)
        .map_err(|_| Error::new(format!("{}: not valid UTF-8 text", path.display())))
}

/// Writes a new file and flushes it to disk. Fails if anything (a file, a link) is already
/// there, so nothing is ever written over or through.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    create_and_write(path, bytes, true)
}

/// [`write_new`] without waiting for the disk: for the many files of a turn, which
/// [`flush_tree`] then makes durable all at once.
pub fn write_new_unsynced(path: &Path, bytes: &[u8]) -> Result<()> {
    create_and_write(path, bytes, false)
}

fn create_and_write(path: &Path, bytes: &[u8], sync: bool) -> Result<()> {
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| Error::io("cannot create", path, e))?;
    f.write_all(bytes)
        .and_then(|()| if sync { f.sync_all() } else { Ok(()) })
        .map_err(|e| Error::io("cannot write", path, e))
}

/// Writes a file whole or not at all: into `<path>.part`, flushed, then renamed over
/// `path`. For files of the moderator's own, never a player's.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    replace_whole(path, bytes, true)
}

/// Writes a file the program can always make again (a ready-to-load copy) whole or not at
/// all, as [`write_atomic`] does but without waiting for the disk: after a power cut it may
/// be missing or stale, never half written.
pub fn write_unsynced(path: &Path, bytes: &[u8]) -> Result<()> {
    replace_whole(path, bytes, false)
}

fn replace_whole(path: &Path, bytes: &[u8], sync: bool) -> Result<()> {
    let mut part = path.as_os_str().to_owned();
    part.push(".part");
    let part = Path::new(&part);
    if Kind::of(part).map_err(|e| Error::io("cannot read", part, e))? != Kind::Missing {
        fs::remove_file(part).map_err(|e| Error::io("cannot remove", part, e))?;
    }
    create_and_write(part, bytes, sync)?;
    fs::rename(part, path).map_err(|e| Error::io("cannot rename", part, e))
}

/// Moves a file to `to`, failing rather than replacing anything there. On Linux one
/// `renameat2(RENAME_NOREPLACE)` does it at once: a file that arrives at `from` while it
/// moves (a player's newer sheet renamed over the old) stays where it arrived, never
/// removed in the old one's place. Elsewhere, or on a file system without it, a hard link
/// is made and the old name removed (a plain rename would replace a file that arrived at
/// `to` meanwhile); without hard links, a checked rename.
pub fn move_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    match rename_no_replace(from, to) {
        Ok(()) => return Ok(()),
        // Not supported here: the portable way below.
        Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) => {}
        // The same file under both names: a move interrupted between its link and its
        // removal, finished below.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && same_file(from, to) => {}
        Err(e) => return Err(e),
    }
    match fs::hard_link(from, to) {
        Ok(()) => fs::remove_file(from),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            if same_file(from, to) {
                // A move interrupted between the link and the removal.
                fs::remove_file(from)
            } else {
                Err(e)
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Err(e),
        Err(_) => {
            if Kind::of(to)? != Kind::Missing {
                return Err(io::Error::from(io::ErrorKind::AlreadyExists));
            }
            fs::rename(from, to)
        }
    }
}

#[cfg(target_os = "linux")]
fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        std::ffi::CString::new(p.as_os_str().as_bytes())
            .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
    };
    let (f, t) = (c(from)?, c(to)?);
    // SAFETY: both paths are NUL-terminated strings that outlive the call.
    let done = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            f.as_ptr(),
            libc::AT_FDCWD,
            t.as_ptr(),
            libc::RENAME_NOREPLACE,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Whether two paths name the same file (one file under two hard links).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::symlink_metadata(a), fs::symlink_metadata(b)) {
            (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        false
    }
}

/// Makes everything written under `dir` durable, before the rename that commits it.
///
/// A turn writes a hundred files or more, and flushing each one by itself cost a hundred
/// waits for the disk (a third of a second on a busy machine). On Linux one `syncfs` flushes
/// the whole file system holding `dir` at once, and reports any write that failed;
/// elsewhere, or should it fail, every file and folder under `dir` is flushed in turn.
pub fn flush_tree(dir: &Path) -> Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        if let Ok(d) = File::open(dir) {
            // SAFETY: `d` is an open file descriptor for the duration of the call.
            if unsafe { libc::syncfs(d.as_raw_fd()) } == 0 {
                return Ok(());
            }
        }
    }
    flush_each(dir)
}

/// Flushes every file and folder under `dir`, one by one, deepest first.
fn flush_each(dir: &Path) -> Result<()> {
    for entry in read_dir_sorted(dir)? {
        let path = entry.path();
        match Kind::of(&path).map_err(|e| Error::io("cannot read", &path, e))? {
            Kind::Directory => flush_each(&path)?,
            Kind::File => File::open(&path)
                .and_then(|f| f.sync_all())
                .map_err(|e| Error::io("cannot flush", &path, e))?,
            _ => {}
        }
    }
    sync_dir(dir);
    Ok(())
}

/// Flushes a directory's entries to disk where the system allows it.
pub fn sync_dir(path: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(path) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = path;
}

/// When `path` was last written, in milliseconds since 1970; 0 when the system cannot say.
pub fn written_at(path: &Path) -> i64 {
    fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A directory's entries, sorted by name, so that everything done over them is done in
/// the same order every time.
pub fn read_dir_sorted(dir: &Path) -> Result<Vec<fs::DirEntry>> {
    let rd = fs::read_dir(dir).map_err(|e| Error::io("cannot read", dir, e))?;
    let mut entries = Vec::new();
    for entry in rd {
        entries.push(entry.map_err(|e| Error::io("cannot read", dir, e))?);
    }
    entries.sort_by_key(|e| e.file_name());
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounded() {
        let bytes = [7u8; 10];
        assert_eq!(read_at_most(&bytes[..], 10).unwrap(), Some(bytes.to_vec()));
        assert_eq!(read_at_most(&bytes[..], 9).unwrap(), None);
        // An endless source stops at the limit.
        assert_eq!(read_at_most(io::repeat(0), 1000).unwrap(), None);
    }

    #[cfg(unix)]
    #[test]
    fn links_pipes_and_existing_files_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside.txt");
        fs::write(&outside, "secret").unwrap();
        let link = tmp.path().join("link.txt");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let err = read_in_game(&link, 100).unwrap_err();
        assert!(err.message().contains("is a link"), "{err}");
        assert!(write_new(&link, b"x").is_err());
        assert_eq!(fs::read_to_string(&outside).unwrap(), "secret");
        let err = read_in_game(Path::new("/dev/zero"), 100).unwrap_err();
        assert!(err.message().contains("not a file"), "{err}");

        let a = tmp.path().join("a");
        let b = tmp.path().join("b");
        fs::write(&a, "a").unwrap();
        fs::write(&b, "b").unwrap();
        assert!(move_no_replace(&a, &b).is_err());
        assert_eq!(fs::read_to_string(&b).unwrap(), "b");
        fs::remove_file(&b).unwrap();
        move_no_replace(&a, &b).unwrap();
        assert_eq!(fs::read_to_string(&b).unwrap(), "a");
        assert!(!a.exists());
    }
}
