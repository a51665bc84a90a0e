//! Placeholder.

use super::Turn;

pub fn run(_turn: &mut Turn) {}
