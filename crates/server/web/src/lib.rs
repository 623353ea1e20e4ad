//! The Tengen server's web layer, the top floor: HTTP routes, the WebSocket protocol, the
//! node's loops in a cluster, and the embedded browser client. Each route extracts what it needs
//! (the session, the body), calls one use case of `tengen-app` and writes its answer; nothing
//! below this crate knows HTTP.
//!
//! The floors, each importing only the ones below it (`ARCHITECTURE.md` draws them):
//! web (this crate) -> `tengen-app` (use cases) -> `tengen-live` (running games) ->
//! `tengen-store` (SQL) -> `tengen-core` (pure rules of the server) -> the engine's crates.
//!
//! [`app`] builds the router without a socket (for tests); [`run`] serves it on a listener until
//! the shutdown future completes.
//!
//! - [`http`]: the routes, a file per resource; [`error`]: the API's errors as responses.
//! - [`session`]: who is asking (shared with the WebSocket upgrade); [`throttle`]: failed logins
//!   and new accounts per account and address; [`listener`]: connections with time limits;
//!   [`edges`]: WebSocket origins, sockets per address and request bodies' deadline.
//! - [`state`]: [`AppState`], what every handler shares (the bottom of this crate, as this
//!   file is its top).
//! - [`ws`]: the WebSocket protocol; [`cluster`]: a cluster node's loops and answers.
//! - [`web`]: the embedded browser client; [`openapi`]: the API's description; [`metrics`]:
//!   `GET /metrics` for Prometheus; [`panics`]: a request that panics answers 500 `internal`.

pub mod cluster;
pub mod edges;
pub mod error;
pub mod http;
pub mod listener;
pub mod metrics;
pub mod openapi;
pub mod panics;
pub mod session;
pub mod state;
pub mod throttle;
pub mod web;
pub mod ws;
pub mod ws_msg;

use std::future::Future;
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;

pub use state::AppState;

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
    let sweeper = tokio::spawn(sweep_sessions(state.clone()));
    let served = axum::serve(
        listener.tap_io(|_| {}),
        app(state).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await;
    sweeper.abort();
    served
}

/// How often lapsed sessions are swept out (a session is also ended when next used after it
/// lapsed, so this only keeps forgotten rows from piling up).
const SWEEP_EVERY: Duration = Duration::from_secs(3600);

/// Ends the lapsed sessions every [`SWEEP_EVERY`] (on every node: each sweep deletes what the
/// others left), and closes their sockets.
async fn sweep_sessions(state: AppState) {
    let mut every = tokio::time::interval(SWEEP_EVERY);
    loop {
        every.tick().await;
        match tengen_app::sessions::sweep(&state.services.store).await {
            Ok(ended) => {
                for digest in ended {
                    let _ = state.logouts.send(digest);
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot sweep lapsed sessions"),
        }
    }
}
