//! `GET /api/games/{id}/estimate`: the estimator's view of a game's position.

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use tengen_app::{accounts, estimate};

use crate::error::HttpError;
use crate::session::session_token;
use crate::state::AppState;

/// Anyone may ask; the game's players only as its terms allow (the use case decides).
pub(super) async fn estimate(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> Result<Json<estimate::Estimate>, HttpError> {
    let user = match session_token(&headers) {
        Some(t) => accounts::by_token(&state.services.store, &t).await?,
        None => None,
    };
    Ok(Json(
        estimate::estimate(&state.services.store, &state.services.engines, id, user).await?,
    ))
}
