//! `/api/match`: quick match's requests.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tengen_app::quick_match::{self, MatchRequest};

use super::json_body;
use crate::error::HttpError;
use crate::session::CurrentUser;
use crate::state::AppState;

/// `POST /api/match`: the request; 200 with `matched` when it paired at once, 202 `waiting`.
pub(super) async fn post(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<MatchRequest>, JsonRejection>,
) -> Result<Response, HttpError> {
    let req = json_body(body)?;
    let v = quick_match::request(
        &state.services.bot_games(),
        &state.services.quick_match,
        &user,
        req,
    )
    .await?;
    let status = if matches!(v, quick_match::MatchState::Waiting { .. }) {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(v)).into_response())
}

/// `GET /api/match`: the player's request now (`waiting`, `matched`, `failed` or `idle`).
pub(super) async fn get(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<quick_match::MatchState>, HttpError> {
    Ok(Json(state.services.quick_match.status(user.id).await?))
}

/// `DELETE /api/match`: withdraws the waiting request (409 `no_match_request` if none).
pub(super) async fn delete(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<StatusCode, HttpError> {
    quick_match::cancel(&state.services.quick_match, &user).await?;
    Ok(StatusCode::NO_CONTENT)
}
