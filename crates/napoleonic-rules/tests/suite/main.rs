//! The crate's integration tests, built as one test binary (one link instead of one per
//! file): each module is what was once a file of its own under `tests/`.

mod battle_odds;
mod battle_support;
mod battles;
mod economy;
mod finals;
mod finals_support;
mod first_events;
mod hq;
mod map;
mod movement;
mod movement_fleets;
mod movement_properties;
mod moves_support;
mod rulings;
mod sea_battles;
