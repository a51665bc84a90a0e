//! The crate's integration tests, built as one test binary (one link instead of one per
//! file): each module is what was once a file of its own under `tests/`.

mod access;
mod browser;
mod common;
mod feeds;
mod limits;
mod login_limit;
mod mail;
mod napoleonic;
mod play;
mod receipts;
mod request_log;
mod seats;
mod steps;
mod takeover;

/// The host names no game: like `empires` when it starts, this test program hands it the
/// rulesets it is built with before any test runs, and Relay, the game its tests of the
/// step model play.
#[ctor::ctor]
fn install_rulesets() {
    empires_testkit::rulesets_and_relay();
}
