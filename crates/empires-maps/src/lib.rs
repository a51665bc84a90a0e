//! Maps around the rules engine: the four standard maps built into the program, the checks a
//! map designer wants before a game starts, and drawing maps and games.

pub mod check;
pub mod draw;
pub mod standard;
