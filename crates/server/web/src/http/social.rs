//! `/api/messages` and `/api/me/friends`: private messages between players, and one's friends
//! with whether they are online.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use tengen_app::social;

use super::json_body;
use crate::error::HttpError;
use crate::session::CurrentUser;
use crate::state::AppState;

/// `POST /api/messages` `{"to", "text"}`: stored and told live to the recipient.
pub(super) async fn send(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<social::NewMessage>, JsonRejection>,
) -> Result<(StatusCode, Json<social::Message>), HttpError> {
    let req = json_body(body)?;
    let m = social::send(&state.services.store, &state.services.notices, &user, req).await?;
    Ok((StatusCode::CREATED, Json(m)))
}

/// `GET /api/messages`: one's conversations, newest first.
pub(super) async fn conversations(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<social::Conversations>, HttpError> {
    Ok(Json(
        social::conversations(&state.services.store, &user).await?,
    ))
}

/// `GET /api/messages/{name}`: the thread with one player, marked read.
pub(super) async fn thread(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(name): Path<String>,
) -> Result<Json<social::Thread>, HttpError> {
    Ok(Json(
        social::thread(&state.services.store, &user, &name).await?,
    ))
}

/// `GET /api/me/friends`: one's friends, each with `online`.
pub(super) async fn friends(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<social::Friends>, HttpError> {
    Ok(Json(
        social::friends(&state.services.store, &state.services.online, &user).await?,
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FriendBody {
    name: String,
}

/// `POST /api/me/friends` `{"name"}`.
pub(super) async fn add_friend(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<FriendBody>, JsonRejection>,
) -> Result<StatusCode, HttpError> {
    let b = json_body(body)?;
    social::add_friend(&state.services.store, &user, &b.name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/me/friends/{name}`.
pub(super) async fn remove_friend(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(name): Path<String>,
) -> Result<StatusCode, HttpError> {
    social::remove_friend(&state.services.store, &user, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}
