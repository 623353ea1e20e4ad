//! `/api/users/{name}/...`: what a player page shows beside the account.

use axum::extract::{Path, Query, State};
use axum::Json;
use serde::Deserialize;
use serde_json::Value;
use tengen_app::profile;

use crate::error::HttpError;
use crate::AppState;

#[derive(Deserialize)]
pub(super) struct HistoryQuery {
    #[serde(default)]
    limit: Option<i64>,
}

/// `GET /api/users/{name}/ratings`: the rating now and after each rated game, oldest first.
pub(super) async fn ratings(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<HistoryQuery>,
) -> Result<Json<Value>, HttpError> {
    Ok(Json(profile::ratings(&state.store, &name, q.limit).await?))
}

/// `GET /api/users/{name}/record`: wins, losses and draws by board size and by ending.
pub(super) async fn record(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Value>, HttpError> {
    Ok(Json(profile::record(&state.store, &name).await?))
}
