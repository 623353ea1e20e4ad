//! The Tengen server: accounts, ranks, rooms and games, durable, over HTTP and WebSocket.
//!
//! This crate is being built (issue 4). Today it holds the server's domain rules, pure and
//! tested; the HTTP and WebSocket APIs, the game actors and persistence come next.
//!
//! Layout:
//! - [`domain`]: ranks, promotion points, game types, colours, komi and handicap (seed 002).

pub mod domain;
