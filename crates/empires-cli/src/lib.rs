//! The `empires` command: creating game directories and adjudicating turns with the rules
//! engine. The binary in `main.rs` only parses arguments and calls [`commands`]; everything
//! else is here so that tests can call it directly.
//!
//! The game directory layout and every file format are described in `docs/formats.md`.

pub mod commands;

// The game directory and the turn pipeline live in the host's core, shared with the other
// doors; the command re-exports them under the names its callers know.
pub use empires_host::{error, files, gamedir, staging};

pub use error::{Error, Result};
