//! Napoleonic Empires reports: what one kingdom learns after a turn, as the original client
//! showed it (digest 1.3): the Headquarters money panel, relations, provinces, units, the map
//! with troop miniatures, the turn's events, battle reports, proclamations and messages.
//!
//! [`model::report`] builds the canonical report (JSON, versioned); [`text`] prints it in 80
//! columns; [`html`] makes a self-contained page; [`draw`] draws the map of Europe on real
//! coastlines with the project's map drawing. Every rendering is made from the report alone
//! (and the map), so nothing reaches a page that the report does not hold.
//!
//! What a kingdom may see (decision G34): every location's troop count and most valuable
//! troop type, and who owns every province; the full make-up of its own units only; the
//! events it took part in or that happened in or next to its places; never another
//! kingdom's treasury, orders, failed orders or transfers.

pub mod battle;
pub mod draw;
pub mod html;
pub mod model;
pub mod text;

pub use model::{Report, SCHEMA_VERSION, report};
