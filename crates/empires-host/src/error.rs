//! The one error type of the command: a message for the user, printed as `error: ...`.

use std::fmt;
use std::path::Path;

/// A failure that stops a command. The message is one line and names the file involved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: String,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
        }
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
