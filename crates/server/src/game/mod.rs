//! Live games: the state machine ([`state`]), one actor per game ([`actor`]), the registry of
//! live games and their restoration from the log ([`registry`]), games owned by another node
//! of a cluster ([`remote`]), what either hands out ([`types`]: players, records, watches,
//! errors), and the snapshot clients see ([`view`]).

pub mod actor;
pub mod registry;
pub mod remote;
pub mod types;
