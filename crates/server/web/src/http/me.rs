//! `/api/me/...`: what the logged-in player needs beside the board: the games waiting for their
//! move, and vacations from their correspondence games.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::Value;
use tengen_app::correspondence;

use super::json_body;
use crate::error::HttpError;
use crate::session::CurrentUser;
use crate::AppState;

/// `GET /api/me/turns`: the player's live games where it is their move, the most urgent first.
pub(super) async fn turns(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Value>, HttpError> {
    Ok(Json(correspondence::turns(&state, &user).await?))
}

#[derive(Deserialize)]
pub(super) struct VacationBody {
    days: u64,
}

/// `POST /api/me/vacation` `{"days": N}`: stops the player's correspondence clocks for N days.
pub(super) async fn start_vacation(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<VacationBody>, JsonRejection>,
) -> Result<Json<Value>, HttpError> {
    let days = json_body(body)?.days;
    Ok(Json(
        correspondence::start_vacation(&state, &user, days).await?,
    ))
}

/// `DELETE /api/me/vacation`: ends the vacation early.
pub(super) async fn end_vacation(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Value>, HttpError> {
    Ok(Json(correspondence::end_vacation(&state, &user).await?))
}
