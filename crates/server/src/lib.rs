//! The Tengen server: accounts, ranks, rooms and games, durable, over HTTP and WebSocket.
//!
//! This crate is being built (issue 4). Today: the domain rules of seed 002, accounts with
//! sessions, persistence on SQLite or PostgreSQL, and the HTTP skeleton (`/healthz`, accounts).
//! Rooms, game actors, the WebSocket protocol and bots come next.
//!
//! [`app`] builds the router without a socket (for tests); [`run`] serves it on a listener until
//! the shutdown future completes.
//!
//! Layout:
//! - [`domain`]: ranks, promotion points, game types, colours, komi and handicap (seed 002).
//! - [`store`]: the database (SQLite or PostgreSQL) and its migrations.
//! - [`accounts`]: registration, login, sessions, guests.
//! - [`rooms`]: rooms, joining, game type, colours, komi and handicap.
//! - [`bots`]: the built-in bot and GTP bots, and the GTP controller.
//! - [`game`]: live games: the state machine of actions and events.
//! - [`http`]: the routes; [`session`]: who is asking (shared with the WebSocket upgrade).
//! - [`records`]: a game as an SGF record; reading an uploaded one, with the SGF crate's checks.
//! - [`ws`]: the WebSocket protocol.
//! - [`web`]: the embedded browser client; [`online`]: who is connected.
//! - [`error`]: the API's error type and its stable codes.

pub mod accounts;
pub mod bots;
pub mod cluster;
pub mod correspondence;
pub mod error;
pub mod estimate;
pub mod http;
pub mod listener;
pub mod online;
pub mod openapi;
pub mod profile;
pub mod quick_match;
pub mod records;
pub mod review;
pub mod rooms;
pub mod session;
pub mod throttle;
pub mod web;
pub mod ws;

use std::future::Future;

use axum::Router;
use tokio::net::TcpListener;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub store: tengen_store::Store,
    /// The live games.
    pub games: tengen_live::registry::Games,
    /// The bots one can play.
    pub bots: bots::Bots,
    /// Who is connected now.
    pub online: online::Online,
    /// Failed logins and new accounts, per account and client address.
    pub throttle: std::sync::Arc<throttle::Throttle>,
    /// Sessions just ended (their token digests): their WebSockets close.
    pub logouts: tokio::sync::broadcast::Sender<String>,
    /// Quick match's queue.
    pub quick_match: quick_match::QuickMatch,
    /// The review boards loaded on this node.
    pub reviews: review::Reviews,
}

impl AppState {
    /// State over `store`, with `grace` for disconnected players and the built-in bot;
    /// restores every live game.
    pub async fn new(
        store: tengen_store::Store,
        grace: std::time::Duration,
    ) -> Result<AppState, error::ApiError> {
        AppState::with_bots(store, grace, Vec::new()).await
    }

    /// As [`AppState::new`], with GTP bots as well as the built-in one.
    pub async fn with_bots(
        store: tengen_store::Store,
        grace: std::time::Duration,
        extra_bots: Vec<bots::BotSpec>,
    ) -> Result<AppState, error::ApiError> {
        AppState::clustered(store, grace, extra_bots, None).await
    }

    /// As [`AppState::with_bots`], as a node of a cluster when `peers` is given (then only the
    /// live games no node owns are restored here; start [`cluster::start`] once serving).
    pub async fn clustered(
        store: tengen_store::Store,
        grace: std::time::Duration,
        extra_bots: Vec<bots::BotSpec>,
        peers: Option<std::sync::Arc<tengen_live::remote::Peers>>,
    ) -> Result<AppState, error::ApiError> {
        let mut specs = bots::builtins();
        specs.extend(extra_bots);
        let bots = bots::Bots::register(&store, specs).await?;
        let quick_match = match &peers {
            Some(p) => quick_match::QuickMatch::clustered(store.clone(), p.bus.clone()),
            None => quick_match::QuickMatch::default(),
        };
        let games = match peers {
            Some(p) => tengen_live::registry::Games::clustered(store.clone(), grace, p),
            None => tengen_live::registry::Games::new(store.clone(), grace),
        };
        // Subscribed before the first takeover (restoring is one, in a cluster).
        let taken = games.taken();
        let restored = games.restore_all().await?;
        if restored > 0 {
            tracing::info!(restored, "live games restored from their logs");
        }
        let state = AppState {
            store,
            games,
            bots,
            online: online::Online::default(),
            throttle: Default::default(),
            logouts: tokio::sync::broadcast::channel(256).0,
            quick_match,
            reviews: Default::default(),
        };
        match taken.filter(|_| state.games.peers().is_some()) {
            Some(taken) => bots::drive_taken(state.clone(), taken),
            None => bots::resume_all(&state).await?,
        }
        Ok(state)
    }
}

/// The application, ready to serve.
pub fn app(state: AppState) -> Router {
    http::router(state)
}

/// Serves `state` on `listener` until `shutdown` completes, then lets open requests finish.
pub async fn run(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    run_with(listener, state, shutdown, listener::Limits::default()).await
}

/// As [`run`], with the connections' time limits given.
pub async fn run_with(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
    limits: listener::Limits,
) -> std::io::Result<()> {
    use axum::serve::ListenerExt;
    // Connections with time limits; the peer's address reaches the handlers, for the
    // throttle.
    let listener = listener::GuardedListener {
        tcp: listener,
        limits,
    };
    axum::serve(
        listener.tap_io(|_| {}),
        app(state).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await
}
