//! The Tengen server's live games: one actor per game in this process, the registry of live
//! games and their restoration from the log, and (in a cluster) games owned by another node,
//! reached over NATS. Above the store, below the use cases: nothing here knows HTTP, accounts
//! or the lobby.
//!
//! - [`registry`]: the live games by id; restores them on start; cluster takeover and upkeep.
//! - [`actor`]: a game's task: decide, store, then apply and broadcast; presence and clocks;
//!   [`actor::GameHandle`] reaches it here or on its owner.
//! - [`remote`]: a game owned by another node (forwarded requests, relayed events) and the
//!   messages between nodes.
//! - [`subjects`]: every NATS subject of a cluster, with its message and handler.
//! - [`types`]: what a game hands out, whoever runs it: records, watches, action errors, and the
//!   shared WebSocket frame of each event.
//! - [`error`]: why a game could not be had; [`metrics`]: actors, moves, broadcast latency,
//!   forwarded requests.

pub mod actor;
pub mod error;
pub mod metrics;
pub mod registry;
pub mod remote;
pub mod subjects;
pub mod types;

pub use error::LiveError;
