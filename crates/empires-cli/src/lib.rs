//! The `empires` command: creating game directories and adjudicating turns with the rules
//! engine. The binary in `main.rs` only parses arguments and calls [`commands`]; everything
//! else is here so that tests can call it directly.
//!
//! The game directory layout and every file format are described in `docs/formats.md`.

pub mod commands;
pub mod error;
pub mod files;
pub mod gamedir;
pub mod staging;

pub use error::{Error, Result};
