//! `/api/reviews`: review boards (the use cases are `tengen_app::review`'s).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use tengen_app::review::{self, AnalysisBody, CreateBody, Edit};

use super::json_body;
use super::records::sgf_file;
use crate::error::HttpError;
use crate::session::CurrentUser;
use crate::state::AppState;

/// `POST /api/reviews` `{"game": ID}` or `{"sgf": TEXT}`: a new review, led by its creator (201).
pub(super) async fn create(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<CreateBody>, JsonRejection>,
) -> Result<Response, HttpError> {
    let body = review::create(&state.services.reviews, &user, json_body(body)?).await?;
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

#[derive(Deserialize)]
pub(super) struct AfterQuery {
    #[serde(default)]
    after: Option<u64>,
}

/// `GET /api/reviews/{id}` (`?after=VERSION` waits up to 25 s for a newer version).
pub(super) async fn get(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(q): Query<AfterQuery>,
) -> Result<Json<review::ReviewView>, HttpError> {
    Ok(Json(
        review::get(&state.services.reviews, id, q.after).await?,
    ))
}

/// `GET /api/reviews/{id}/sgf`: the tree with its variations and comments.
pub(super) async fn sgf(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Response, HttpError> {
    let text = review::sgf(&state.services.reviews, id).await?;
    Ok(sgf_file(text, &format!("review-{id}.sgf")))
}

/// `POST /api/reviews/{id}/edits`: the owner moves, comments, navigates or deletes.
pub(super) async fn edit(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    body: Result<Json<Edit>, JsonRejection>,
) -> Result<Json<review::ReviewView>, HttpError> {
    Ok(Json(
        review::edit(&state.services.reviews, &user, id, json_body(body)?).await?,
    ))
}

/// `POST /api/reviews/{id}/analysis`: starts the engine's analysis of the main line (202).
pub(super) async fn analyse(
    State(state): State<AppState>,
    CurrentUser(_user): CurrentUser,
    Path(id): Path<i64>,
    body: Option<Json<AnalysisBody>>,
) -> Result<Response, HttpError> {
    let body = body.map(|Json(b)| b).unwrap_or_default();
    let v = review::analyse(&state.services.reviews, id, body).await?;
    Ok((StatusCode::ACCEPTED, Json(v)).into_response())
}

/// A review chat line.
#[derive(Deserialize)]
pub(super) struct ChatBody {
    text: String,
}

/// `POST /api/reviews/{id}/chat` `{"text"}`: a line beside the board, seen by all following.
pub(super) async fn chat(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    body: Result<Json<ChatBody>, JsonRejection>,
) -> Result<Json<review::chat::ChatLine>, HttpError> {
    let body: ChatBody = json_body(body)?;
    Ok(Json(
        review::chat::say(&state.services.reviews, &user, id, &body.text).await?,
    ))
}
