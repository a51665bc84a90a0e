//! The mail door of the game host: play by email.
//!
//! - [`inbound`]: a turnsheet comes in by email, is proven to be the player's (their
//!   address on record and their mail password), checked and kept exactly as the web door
//!   keeps one, and answered with a receipt at the player's address on record.
//! - [`reports`]: after each turn, each player who asked gets their report by email.
//! - [`send`]: mail waits in an outbox kept with the games and is handed to an SMTP server,
//!   tried again when delivery fails, and reported to the GM when it is given up.
//! - [`maildir`]: a host can take its mail from a Maildir instead of a delivery pipe.

pub mod compose;
pub mod config;
pub mod inbound;
pub mod maildir;
pub mod password;
pub mod reports;
pub mod send;

pub use config::{MailConfig, SmtpConfig};
pub use inbound::{Outcome, Receiver};
