//! The Tengen server's use cases, by domain: accounts, rooms, quick match, bots, correspondence,
//! profiles, review boards, records and estimates. No HTTP here: the web layer above extracts
//! a request, calls one function of this crate and writes its answer; the errors carry stable
//! codes ([`error::ApiError`]) that the web layer maps to statuses.
//!
//! [`services::Services`] holds what the use cases share (the store, the live games, the bots,
//! who is online, quick match's queue, the review boards, the way to a player's connections);
//! the web layer holds it and hands each use case only the parts it needs. No use case takes
//! the whole of it, so no module here imports `services`, which stands above them all.
//!
//! - [`accounts`]: registration, login, guests; [`user`]: an account as the API shows it and the
//!   session tokens; [`sessions`]: sessions that end, their kinds
//!   and the player's list of them; [`online`]: who is connected;
//!   [`own_account`]: a player's password, data export and account deletion; [`blocks`]:
//!   players' blocks; [`social`]: private messages and friends; [`lobby_chat`]: the lobby's
//!   chat.
//! - [`games`]: the one way a game starts; [`game_chat`]: who may say a line in a game; [`rooms`]: rooms, joining, game type, colours,
//!   komi and handicap.
//! - [`quick_match`]: the queue of match requests (in memory, or shared by a cluster).
//! - [`bots`]: the built-in bots and GTP bots, and the driver that plays their moves.
//! - [`correspondence`]: the your-move list and vacations; [`profile`]: ratings and records.
//! - [`tournaments`]: events from registration to the final standings.
//! - [`review`]: review boards; [`records`]: games as SGF; [`estimate`]: the score estimate.
//! - [`notices`]: messages to one player on all their connections (pairings, private
//!   messages, your-turn notices, moderators' notices, remote bots' offers).
//! - [`metrics`]: bots and engines, and the process's whole exposition.
//! - [`moderation`]: roles, moderators' actions and the audit log; [`reports`]: players' reports and the moderators' queue; [`sanctions`]: the
//!   checks of a player's sanctions (log in, chat, new games).

pub mod accounts;
pub mod blocks;
pub mod bots;
pub mod correspondence;
pub mod engines;
pub mod error;
pub mod estimate;
pub mod game_chat;
pub mod games;
pub mod learn;
pub mod lobby_chat;
pub mod metrics;
pub mod moderation;
pub mod notices;
pub mod online;
pub mod own_account;
pub mod profile;
pub mod quick_match;
pub mod records;
pub mod reports;
pub mod review;
pub mod rooms;
pub mod sanctions;
pub mod services;
pub mod sessions;
pub mod social;
pub mod tournaments;
pub mod user;
pub mod wire;
