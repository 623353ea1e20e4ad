//! `/api/match`: quick match's requests.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;
use tengen_app::quick_match::{self, MatchRequest};

use super::json_body;
use crate::error::HttpError;
use crate::session::CurrentUser;
use crate::AppState;

/// `POST /api/match`: the request; 200 with `matched` when it paired at once, 202 `waiting`.
pub(super) async fn post(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<MatchRequest>, JsonRejection>,
) -> Result<Response, HttpError> {
    let req = json_body(body)?;
    let v = quick_match::request(&state, &user, req).await?;
    let status = if v["state"] == "waiting" {
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
) -> Result<Json<Value>, HttpError> {
    Ok(Json(state.quick_match.status(user.id).await?))
}

/// `DELETE /api/match`: withdraws the waiting request (409 `no_match_request` if none).
pub(super) async fn delete(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<StatusCode, HttpError> {
    quick_match::cancel(&state, &user).await?;
    Ok(StatusCode::NO_CONTENT)
}
