//! The one test harness of the server's integration tests:
//!
//! - [`db`]: fresh SQLite databases, PostgreSQL schemas and the NATS server;
//! - [`server`]: a [`TestServer`] (the app over a database, served on 127.0.0.1:0), its
//!   players ([`Client`]: HTTP with a session) and their WebSockets ([`Socket`]);
//! - [`store`]: accounts, games and moves written straight into a store;
//! - [`actor`]: a live game run by its actor with no server around it.

#![allow(dead_code, unused_imports, clippy::unwrap_used)]

pub mod actor;
pub mod db;
pub mod server;
pub mod store;

pub use actor::{
    actor_game, actor_game_against, ann_and_bob_players, player, terms, think, ActorGame,
};
pub use db::{nats_url, postgres_url, sqlite_url};
pub use server::{body_json, err, http, ok, Client, Socket, TestServer, PASSWORD};
pub use store::{ann_and_bob, bare_game, pass_append, stored_game, two_guests};
