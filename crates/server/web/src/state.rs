//! What every handler shares: the use cases' services, and what only the web needs. The
//! bottom of this crate: the extractors and middleware below it take only their own part
//! (`State<Arc<Edges>>`, `FromRef`), so that nothing here imports a module that imports it.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::FromRef;
use tengen_app::bots::BotSpec;
use tengen_app::error::ApiError;
use tengen_app::services::Services;
use tengen_store::Store;

use crate::{edges, throttle};

/// What every handler shares: the use cases' services, and what only the web needs.
#[derive(Clone)]
pub struct AppState {
    /// The store, the live games, the bots, who is online, quick match and the reviews.
    pub services: Services,
    /// Failed logins and new accounts, per account and client address.
    pub throttle: Arc<throttle::Throttle>,
    /// Sessions just ended (their token digests): their WebSockets close.
    pub logouts: tokio::sync::broadcast::Sender<String>,
    /// Allowed origins, WebSockets per address, the body deadline.
    pub edges: Arc<edges::Edges>,
}

impl AppState {
    /// State over `store`, with `grace` for disconnected players and the built-in bots;
    /// restores every live game.
    pub async fn new(store: Store, grace: Duration) -> Result<AppState, ApiError> {
        AppState::with_bots(store, grace, Vec::new()).await
    }

    /// As [`AppState::new`], with GTP bots as well as the built-in ones.
    pub async fn with_bots(
        store: Store,
        grace: Duration,
        extra_bots: Vec<BotSpec>,
    ) -> Result<AppState, ApiError> {
        AppState::clustered(store, grace, extra_bots, None).await
    }

    /// As [`AppState::with_bots`], as a node of a cluster when `peers` is given (then only the
    /// live games no node owns are restored here; start [`cluster::start`] once serving).
    pub async fn clustered(
        store: Store,
        grace: Duration,
        extra_bots: Vec<BotSpec>,
        peers: Option<Arc<tengen_live::remote::Peers>>,
    ) -> Result<AppState, ApiError> {
        Ok(AppState {
            services: Services::start(store, grace, extra_bots, peers).await?,
            throttle: Default::default(),
            logouts: tokio::sync::broadcast::channel(256).0,
            edges: Default::default(),
        })
    }
}

impl FromRef<AppState> for Arc<throttle::Throttle> {
    fn from_ref(state: &AppState) -> Arc<throttle::Throttle> {
        Arc::clone(&state.throttle)
    }
}

impl FromRef<AppState> for Arc<edges::Edges> {
    fn from_ref(state: &AppState) -> Arc<edges::Edges> {
        Arc::clone(&state.edges)
    }
}
