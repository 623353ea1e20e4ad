//! Live games: the state machine ([`state`]), one actor per game ([`actor`]), the registry of
//! live games and their restoration from the log ([`registry`]), and the snapshot clients see
//! ([`view`]).

pub mod actor;
pub mod registry;
pub mod state;
pub mod view;

#[cfg(test)]
mod tests;
