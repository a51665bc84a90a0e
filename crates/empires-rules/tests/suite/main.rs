//! The crate's integration tests, built as one test binary (one link instead of one per
//! file): each module is what was once a file of its own under `tests/`.

mod battles;
mod build;
mod common;
mod economy;
mod end_of_turn;
mod forecast;
mod movement;
mod naval;
mod properties;
mod scenario_files;
mod setup;
mod spies;
mod supply;
mod supply_campaign;
mod validation;
