//! The Tengen server's core, pure like `tengen-rules`: no I/O, no async, no clock read, no
//! database and no HTTP. Everything above it (store, live games, use cases, the web) decides with
//! these types and rules; they can be tested without a server.
//!
//! - [`domain`]: seed 002's ranks, promotion points, game types, colours, komi and handicap, and
//!   the time systems; Glicko-2 beside them.
//! - [`game`]: a live game as a state machine (`decide` an action into events, `apply` an event),
//!   its [`game::Terms`]; [`view`]: the snapshot clients see; [`player`]: a player as a game knows
//!   them.
//! - [`rating`]: which games move ratings, and the head start a game gives Black.
//! - [`review_tree`]: a review board's tree of SGF nodes, addressed by paths.
//! - [`metrics`]: counters, gauges and histograms, written as Prometheus text.
//! - [`moderation`]: roles, moderators' actions and the sanctions a player stands under.
//! - [`names`]: the key under which names that look alike are one name.

pub mod domain;
pub mod game;
pub mod metrics;
pub mod moderation;
pub mod names;
pub mod player;
pub mod rating;
pub mod review_tree;
pub mod room;
pub mod view;
