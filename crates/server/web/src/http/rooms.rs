//! `/api/rooms`: open rooms, their terms, joining one (which starts its game).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use tengen_app::accounts;
use tengen_app::rooms::{self, JoinTerms, RoomTerms};

use super::json_body;
use crate::error::{ApiError, HttpError};
use crate::session::CurrentUser;
use crate::AppState;

/// `GET /api/rooms`: the open rooms.
pub(super) async fn list_rooms(State(state): State<AppState>) -> Result<Json<Value>, HttpError> {
    Ok(Json(json!({ "rooms": rooms::list(&state).await? })))
}

/// `POST /api/rooms`: opens a room with checked terms (201); a player has a few open at most.
pub(super) async fn create_room(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<RoomTerms>, JsonRejection>,
) -> Result<Response, HttpError> {
    let t = rooms::validate(json_body(body)?)?;
    // One player cannot fill the lobby.
    if state.store.open_rooms_of(user.id).await? >= rooms::MAX_OPEN_PER_USER {
        return Err(HttpError(ApiError::Limited(
            "too_many_rooms",
            format!(
                "at most {} open rooms a player: close one first",
                rooms::MAX_OPEN_PER_USER
            ),
        )));
    }
    let terms = serde_json::to_string(&t).map_err(|e| ApiError::Internal(e.to_string()))?;
    tengen_app::sanctions::check_may_play(&state.store, user.id).await?;
    let id = state.store.create_room(user.id, &terms).await?;
    let mut room = rooms::public(id, &user, &t, "open", None);
    // The owner sees their own choice.
    room["parity"] = json!(t.parity);
    Ok((StatusCode::CREATED, Json(room)).into_response())
}

/// `GET /api/rooms/{id}`: a room (its owner's parity stays secret).
pub(super) async fn get_room(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Value>, HttpError> {
    let r = state.store.room(id).await?.ok_or(ApiError::NotFound)?;
    let owner = accounts::by_id(&state.store, r.owner_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let t: RoomTerms =
        serde_json::from_str(&r.terms).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Json(rooms::public(r.id, &owner, &t, &r.status, r.game_id)))
}

/// `DELETE /api/rooms/{id}`: the owner closes an open room.
pub(super) async fn cancel_room(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<StatusCode, HttpError> {
    let r = state.store.room(id).await?.ok_or(ApiError::NotFound)?;
    if r.owner_id != user.id {
        return Err(HttpError(ApiError::Forbidden(
            "not_owner",
            "only the owner can close a room".into(),
        )));
    }
    if !state.store.cancel_room(id).await? {
        return Err(HttpError(ApiError::Conflict(
            "room_closed",
            "this room is no longer open".into(),
        )));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/rooms/{id}/join`: joins the room, which starts its game.
pub(super) async fn join_room(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    body: Option<Json<JoinTerms>>,
) -> Result<Json<Value>, HttpError> {
    let j = body.map(|Json(b)| b).unwrap_or_default();
    Ok(Json(rooms::join(&state, id, &user, j).await?))
}
