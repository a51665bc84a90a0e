//! The Headquarters view's money panel (digest 1.3, 5.4, 7.12).
