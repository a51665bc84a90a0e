//! The crate's integration tests, built as one test binary (one link instead of one per
//! file): each module is what was once a file of its own under `tests/`.

mod attack;
mod common;
mod corpus;
mod door;
mod napoleonic;
mod smtp;
