//! The standard map of Napoleonic Europe, shipped with the game.
