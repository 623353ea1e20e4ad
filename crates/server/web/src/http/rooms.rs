//! `/api/rooms`: open rooms, their terms, joining one (which starts its game).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tengen_app::rooms::{self, JoinTerms, RoomTerms};

use super::json_body;
use crate::error::HttpError;
use crate::session::CurrentUser;
use crate::state::AppState;

/// `GET /api/rooms`: the open rooms.
pub(super) async fn list_rooms(
    State(state): State<AppState>,
) -> Result<Json<rooms::Rooms>, HttpError> {
    Ok(Json(
        rooms::list(&state.services.store, &state.services.online).await?,
    ))
}

/// `POST /api/rooms`: opens a room with checked terms (201).
pub(super) async fn create_room(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<RoomTerms>, JsonRejection>,
) -> Result<Response, HttpError> {
    let room = rooms::open(&state.services.store, &user, json_body(body)?).await?;
    Ok((StatusCode::CREATED, Json(room)).into_response())
}

/// `GET /api/rooms/{id}`: a room (its owner's parity stays secret).
pub(super) async fn get_room(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<rooms::Room>, HttpError> {
    Ok(Json(rooms::get(&state.services.store, id).await?))
}

/// `DELETE /api/rooms/{id}`: the owner closes an open room.
pub(super) async fn cancel_room(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<StatusCode, HttpError> {
    rooms::close(&state.services.store, &user, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/rooms/{id}/join`: joins the room, which starts its game.
pub(super) async fn join_room(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    body: Option<Json<JoinTerms>>,
) -> Result<Json<rooms::Started>, HttpError> {
    let j = body.map(|Json(b)| b).unwrap_or_default();
    Ok(Json(
        rooms::join(
            &state.services.store,
            &state.services.games,
            &state.services.room_attendance,
            id,
            &user,
            j,
        )
        .await?,
    ))
}
