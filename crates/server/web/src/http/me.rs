//! `/api/me/...`: what the logged-in player needs beside the board: the games waiting for their
//! move, vacations from their correspondence games, the players they block; and their own
//! account: a new password, their sessions (listed, ended one by one or all at once), an export
//! of their data, the account's deletion.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use tengen_app::{correspondence, own_account, sessions};

use super::json_body;
use crate::error::HttpError;
use crate::session::{CurrentUser, DeviceOf, PlayerSession};
use crate::state::AppState;

/// `GET /api/me/turns`: the player's live games where it is their move, the most urgent first.
pub(super) async fn turns(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<correspondence::Turns>, HttpError> {
    Ok(Json(
        correspondence::turns(&state.services.store, &state.services.games, &user).await?,
    ))
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
) -> Result<Json<correspondence::Vacation>, HttpError> {
    let days = json_body(body)?.days;
    Ok(Json(
        correspondence::start_vacation(&state.services.store, &state.services.games, &user, days)
            .await?,
    ))
}

/// `DELETE /api/me/vacation`: ends the vacation early.
pub(super) async fn end_vacation(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<correspondence::Vacation>, HttpError> {
    Ok(Json(
        correspondence::end_vacation(&state.services.store, &state.services.games, &user).await?,
    ))
}

/// `POST /api/me/password` `{"current", "new"}`: every session ends, this one included (their
/// sockets close), and the caller gets a new one: its token in the body and the cookie.
pub(super) async fn change_password(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    DeviceOf(device): DeviceOf,
    headers: axum::http::HeaderMap,
    body: Result<Json<own_account::NewPassword>, JsonRejection>,
) -> Result<Response, HttpError> {
    let req = json_body(body)?;
    let changed = own_account::change_password(&state.services.store, &user, &device, req).await?;
    close_sockets(&state, changed.ended);
    Ok(super::accounts::with_session(
        StatusCode::OK,
        user,
        changed.token,
        &headers,
    ))
}

/// The sockets of sessions just ended close (nobody listening is fine).
fn close_sockets(state: &AppState, digests: Vec<String>) {
    for digest in digests {
        let _ = state.logouts.send(digest);
    }
}

/// `GET /api/me/sessions`: one's open sessions, the one asking marked `current`.
pub(super) async fn sessions(
    State(state): State<AppState>,
    PlayerSession(session): PlayerSession,
) -> Result<Json<sessions::Sessions>, HttpError> {
    Ok(Json(
        sessions::list(&state.services.store, &session.user, &session.digest).await?,
    ))
}

/// `DELETE /api/me/sessions/{id}`: ends one of one's sessions (its sockets close).
pub(super) async fn end_session(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<String>,
) -> Result<StatusCode, HttpError> {
    let digest = sessions::end(&state.services.store, &user, &id).await?;
    close_sockets(&state, vec![digest]);
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/me/sessions`: logs out everywhere, this session included; the cookie goes.
pub(super) async fn end_all_sessions(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Response, HttpError> {
    close_sockets(
        &state,
        sessions::end_all(&state.services.store, &user).await?,
    );
    Ok(super::accounts::logged_out())
}

/// `GET /api/me/export`: everything kept about the player, as JSON.
pub(super) async fn export(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<own_account::Export>, HttpError> {
    Ok(Json(
        own_account::export(&state.services.store, &user).await?,
    ))
}

/// `DELETE /api/me` `{"password"}`: the account goes; its games stay under `deleted-ID`.
pub(super) async fn delete_account(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<own_account::Confirm>, JsonRejection>,
) -> Result<axum::http::StatusCode, HttpError> {
    let req = json_body(body)?;
    let s = &state.services;
    close_sockets(
        &state,
        own_account::delete(&s.store, &s.games, &s.quick_match, &user, req).await?,
    );
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// `GET /api/me/blocks`: the players one blocks.
pub(super) async fn blocks(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<tengen_app::blocks::Blocks>, HttpError> {
    Ok(Json(
        tengen_app::blocks::list(&state.services.store, &user).await?,
    ))
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
    tengen_app::blocks::block(&state.services.store, &user, &b.user).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// `DELETE /api/me/blocks/{name}`: the block is lifted.
pub(super) async fn unblock(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> Result<axum::http::StatusCode, HttpError> {
    tengen_app::blocks::unblock(&state.services.store, &user, &name).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}
