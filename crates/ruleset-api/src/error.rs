//! The one error type of the host: a message for a person, printed by the command as
//! `error: ...`, and a kind a door can act on (the web answers 404 for [`Kind::NotFound`],
//! 409 for [`Kind::Conflict`]...).

use std::fmt;
use std::path::Path;

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kind {
    /// Anything else: bad input, a rule that refuses, a file that cannot be written.
    #[default]
    Other,
    /// No such game, turn, report or account.
    NotFound,
    /// Someone else got there first: the turn was played, or is being played, by another
    /// process; the name is taken.
    Conflict,
    /// The database cannot be reached or refused the work; trying again later may succeed.
    Unavailable,
    /// What is stored does not read back: a corrupt row or file, a state that does not fit
    /// its map.
    Corrupt,
}

/// A failure that stops a command. The message is one line and names the file involved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: Kind,
    message: String,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(message: impl Into<String>) -> Error {
        Error::of(Kind::Other, message)
    }

    pub fn of(kind: Kind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
        }
    }

    pub fn not_found(message: impl Into<String>) -> Error {
        Error::of(Kind::NotFound, message)
    }

    pub fn conflict(message: impl Into<String>) -> Error {
        Error::of(Kind::Conflict, message)
    }

    pub fn corrupt(message: impl Into<String>) -> Error {
        Error::of(Kind::Corrupt, message)
    }

    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// An I/O failure on a file or directory: "what path: reason".
    pub fn io(what: &str, path: &Path, err: std::io::Error) -> Error {
        Error::new(format!("{what} {}: {err}", path.display()))
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Keep the message on one line whatever the underlying error printed.
        let mut first = true;
        for part in self
            .message
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
        {
            if !first {
                f.write_str(" ")?;
            }
            f.write_str(part)?;
            first = false;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// A report that cannot be encoded: rendering a turn's reports stops with it.
impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Error {
        Error::new(format!("cannot encode a report: {e}"))
    }
}
