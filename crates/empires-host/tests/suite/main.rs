//! The crate's integration tests, built as one test binary (one link instead of one per
//! file): each module is what was once a file of its own under `tests/`.

mod deadlines;
mod drawing;
mod ledger;
mod receipts;
mod ruleset_games;
mod rulesets;
mod stores;
mod verify_games;
