//! `/api/moderation/...` for moderators and admins (anyone else gets `not_moderator`, 403,
//! before the body is read): actions on players, annulled games, the audit log and the reports'
//! queue; beside them `POST /api/reports` for every player and `GET /api/me/moderation`, what a
//! player is told about their own account.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use tengen_app::moderation::{self, ActionRequest};
use tengen_app::reports::{self, ReportRequest};

use super::json_body;
use crate::error::HttpError;
use crate::session::{CurrentUser, Moderator};
use crate::state::AppState;

/// `POST /api/moderation/actions`: warn, mute, suspend, ban or unban a player.
pub(super) async fn act(
    State(state): State<AppState>,
    Moderator(m): Moderator,
    body: Result<Json<ActionRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<moderation::Acted>), HttpError> {
    let req = json_body(body)?;
    let s = &state.services;
    Ok((
        StatusCode::CREATED,
        Json(moderation::act(&s.store, &s.games, &s.quick_match, &s.notices, &m, req).await?),
    ))
}

/// A reason or a note.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Reason {
    reason: String,
}

/// `POST /api/moderation/games/{id}/annul` `{"reason"}`: the game counts no more.
pub(super) async fn annul(
    State(state): State<AppState>,
    Moderator(m): Moderator,
    Path(id): Path<i64>,
    body: Result<Json<Reason>, JsonRejection>,
) -> Result<Json<moderation::Annulled>, HttpError> {
    let Reason { reason } = json_body(body)?;
    Ok(Json(
        moderation::annul(&state.services.store, &m, id, &reason).await?,
    ))
}

/// `POST /api/moderation/games/{id}/chat/{seq}/hide` `{"reason"}`: the watchers see the line go.
pub(super) async fn hide_chat(
    State(state): State<AppState>,
    Moderator(m): Moderator,
    Path((id, seq)): Path<(i64, u64)>,
    body: Result<Json<Reason>, JsonRejection>,
) -> Result<Json<moderation::Hidden>, HttpError> {
    let Reason { reason } = json_body(body)?;
    Ok(Json(
        moderation::hide_chat(
            &state.services.store,
            &state.services.games,
            &m,
            id,
            seq,
            &reason,
        )
        .await?,
    ))
}

/// `?limit=N`.
#[derive(Deserialize)]
pub(super) struct Limit {
    limit: Option<i64>,
}

/// `GET /api/moderation/log`: who did what to whom, when and why, newest first.
pub(super) async fn log(
    State(state): State<AppState>,
    Moderator(m): Moderator,
    Query(q): Query<Limit>,
) -> Result<Json<moderation::Log>, HttpError> {
    Ok(Json(
        moderation::log(&state.services.store, &m, q.limit).await?,
    ))
}

/// `?all=true`: resolved reports too.
#[derive(Deserialize)]
pub(super) struct All {
    #[serde(default)]
    all: bool,
}

/// `GET /api/moderation/reports`: the open reports with their context.
pub(super) async fn reports(
    State(state): State<AppState>,
    Moderator(m): Moderator,
    Query(q): Query<All>,
) -> Result<Json<reports::Queue>, HttpError> {
    Ok(Json(
        reports::queue(&state.services.store, &m, q.all).await?,
    ))
}

/// A moderator's note.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Note {
    note: String,
}

/// `POST /api/moderation/reports/{id}/resolve` `{"note"}`.
pub(super) async fn resolve(
    State(state): State<AppState>,
    Moderator(m): Moderator,
    Path(id): Path<i64>,
    body: Result<Json<Note>, JsonRejection>,
) -> Result<Json<reports::Resolved>, HttpError> {
    let Note { note } = json_body(body)?;
    Ok(Json(
        reports::resolve(&state.services.store, &m, id, &note).await?,
    ))
}

/// `POST /api/reports`: any player reports a player, a game or a chat line.
pub(super) async fn report(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<ReportRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<reports::Reported>), HttpError> {
    let req = json_body(body)?;
    Ok((
        StatusCode::CREATED,
        Json(reports::report(&state.services.store, &user, req).await?),
    ))
}

/// `GET /api/me/moderation`: the sanctions standing on the player, and moderators' actions on
/// their account.
pub(super) async fn mine(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<moderation::Mine>, HttpError> {
    Ok(Json(moderation::mine(&state.services.store, &user).await?))
}
