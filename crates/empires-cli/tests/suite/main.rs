//! The crate's integration tests, built as one test binary (one link instead of one per
//! file): each module is what was once a file of its own under `tests/`.

mod check;
mod cli;
mod common;
mod computer;
mod db_commands;
mod db_races_and_crashes;
mod draw;
mod gm_safety;
mod golden;
mod host_clock;
mod library;
mod mail_commands;
mod maps;
mod napoleonic;
mod races_and_crashes;
mod readme;
mod reports;
mod schedule_commands;
mod sheet_bytes;
mod steps;
mod turnsheet_round_trip;
mod turnsheets_kept;
mod tutorial_map;

/// The host names no game: like `empires` when it starts, this test program hands it the
/// rulesets it is built with before any test runs.
#[ctor::ctor]
fn install_rulesets() {
    empires_testkit::rulesets_and_relay();
}
