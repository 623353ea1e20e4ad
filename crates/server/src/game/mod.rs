//! Live games: the state machine ([`state`]).

pub mod state;

#[cfg(test)]
mod tests;
