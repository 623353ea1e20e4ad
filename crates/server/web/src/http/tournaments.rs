//! `/api/tournaments`: events from registration to the final standings (the use cases are
//! `tengen_app::tournaments`'s).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use tengen_app::tournaments::{self, Challenge, Correction, EventTerms};

use super::json_body;
use crate::error::HttpError;
use crate::session::CurrentUser;
use crate::state::AppState;

#[derive(Deserialize)]
pub(super) struct ListQuery {
    #[serde(default)]
    status: Option<String>,
}

/// `GET /api/tournaments?status=open|running|finished`.
pub(super) async fn list(
    State(state): State<AppState>,
    Query(q): Query<ListQuery>,
) -> Result<Json<tournaments::Tournaments>, HttpError> {
    Ok(Json(
        tournaments::list(&state.services.store, q.status.as_deref()).await?,
    ))
}

/// `POST /api/tournaments`: a new event with its terms (201).
pub(super) async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<EventTerms>, JsonRejection>,
) -> Result<Response, HttpError> {
    let v = tournaments::create(
        &state.services.store,
        &state.services.tournaments,
        &user,
        json_body(body)?,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

/// `GET /api/tournaments/{id}`: terms, players, pairings and standings.
pub(super) async fn get(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<tournaments::Tournament>, HttpError> {
    Ok(Json(tournaments::get(&state.services.store, id).await?))
}

/// `POST /api/tournaments/{id}/register`.
pub(super) async fn register(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<tournaments::Registered>, HttpError> {
    Ok(Json(
        tournaments::register(&state.services.store, &user, id).await?,
    ))
}

/// `POST /api/tournaments/{id}/withdraw`.
pub(super) async fn withdraw(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<tournaments::Withdrawn>, HttpError> {
    Ok(Json(
        tournaments::withdraw(&state.services.store, &user, id).await?,
    ))
}

/// `POST /api/tournaments/{id}/start`: the organiser starts the event now.
pub(super) async fn start(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<tournaments::Tournament>, HttpError> {
    Ok(Json(
        tournaments::start(&state.services.store, &state.services.games, &user, id).await?,
    ))
}

/// `POST /api/tournaments/{id}/results`: the organiser corrects a result, with a reason.
pub(super) async fn correct(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    body: Result<Json<Correction>, JsonRejection>,
) -> Result<Json<tournaments::Corrected>, HttpError> {
    let v = tournaments::correct(&state.services.store, &user, id, json_body(body)?).await?;
    Ok(Json(v))
}

/// `POST /api/tournaments/{id}/challenge`: a ladder challenge; its game starts (201).
pub(super) async fn challenge(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    body: Result<Json<Challenge>, JsonRejection>,
) -> Result<Response, HttpError> {
    let v = tournaments::challenge(
        &state.services.store,
        &state.services.games,
        &user,
        id,
        json_body(body)?,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(v)).into_response())
}

/// `POST /api/tournaments/{id}/finish`: the organiser closes a ladder.
pub(super) async fn finish(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<tournaments::Finished>, HttpError> {
    Ok(Json(
        tournaments::finish(&state.services.store, &user, id).await?,
    ))
}

/// `GET /api/tournaments/{id}/h9`: the EGF h9 results file.
pub(super) async fn h9(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Response, HttpError> {
    let text = tournaments::h9_file(&state.services.store, id).await?;
    let mut r = text.into_response();
    r.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"tournament-{id}.h9\"")) {
        r.headers_mut()
            .insert(axum::http::header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}
