//! `/api/me/...`: what the logged-in player needs beside the board: the games waiting for their
//! move, vacations from their correspondence games, the players they block; and their own
//! account: a new password, an export of their data, the account's deletion.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use serde::Deserialize;
use serde_json::Value;
use tengen_app::{correspondence, own_account};

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

/// The session digest of a request (it exists: the request passed `CurrentUser`).
fn session_of(headers: &axum::http::HeaderMap) -> String {
    crate::session::session_token(headers)
        .map(|t| tengen_app::accounts::token_digest(&t))
        .unwrap_or_default()
}

/// `POST /api/me/password` `{"current", "new"}`: every other session ends (their sockets close).
pub(super) async fn change_password(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    headers: axum::http::HeaderMap,
    body: Result<Json<own_account::NewPassword>, JsonRejection>,
) -> Result<axum::http::StatusCode, HttpError> {
    let req = json_body(body)?;
    let ended = own_account::change_password(&state, &user, &session_of(&headers), req).await?;
    for digest in ended {
        let _ = state.logouts.send(digest);
    }
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// `GET /api/me/export`: everything kept about the player, as JSON.
pub(super) async fn export(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Value>, HttpError> {
    Ok(Json(own_account::export(&state, &user).await?))
}

/// `DELETE /api/me` `{"password"}`: the account goes; its games stay under `deleted-ID`.
pub(super) async fn delete_account(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<own_account::Confirm>, JsonRejection>,
) -> Result<axum::http::StatusCode, HttpError> {
    let req = json_body(body)?;
    for digest in own_account::delete(&state, &user, req).await? {
        let _ = state.logouts.send(digest);
    }
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// `GET /api/me/blocks`: the players one blocks.
pub(super) async fn blocks(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<Value>, HttpError> {
    Ok(Json(tengen_app::blocks::list(&state.store, &user).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BlockBody {
    user: String,
}

/// `POST /api/me/blocks` `{"user"}`: no games and no chat with that player any more.
pub(super) async fn block(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<BlockBody>, JsonRejection>,
) -> Result<axum::http::StatusCode, HttpError> {
    let b = json_body(body)?;
    tengen_app::blocks::block(&state.store, &user, &b.user).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// `DELETE /api/me/blocks/{name}`: the block is lifted.
pub(super) async fn unblock(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> Result<axum::http::StatusCode, HttpError> {
    tengen_app::blocks::unblock(&state.store, &user, &name).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}
