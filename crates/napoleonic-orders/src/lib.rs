//! The written orders of Napoleonic Empires.
