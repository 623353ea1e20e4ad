//! Learning to play, open to anyone (no session): the lessons, the teacher's verdict on a
//! try, and the bot's move in a First Capture game. Each request carries all it needs, so none
//! is stored and any node answers.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query};
use axum::Json;
use serde_json::Value;
use tengen_app::learn::{first_capture, lessons, puzzles, rules};

use super::json_body;
use crate::error::HttpError;

/// `GET /api/learn/lessons`.
pub(super) async fn list() -> Result<Json<Value>, HttpError> {
    Ok(Json(lessons::list()?))
}

/// `GET /api/learn/lessons/{id}`.
pub(super) async fn lesson(Path(id): Path<String>) -> Result<Json<Value>, HttpError> {
    Ok(Json(lessons::lesson(&id)?))
}

/// `POST /api/learn/lessons/{id}/steps/{n}/try`.
pub(super) async fn try_step(
    Path((id, step)): Path<(String, usize)>,
    body: Result<Json<lessons::Try>, JsonRejection>,
) -> Result<Json<Value>, HttpError> {
    Ok(Json(lessons::check(&id, step, &json_body(body)?)?))
}

/// `GET /api/learn/puzzles`: how many of each kind, and a new learner's rating.
pub(super) async fn puzzle_summary() -> Result<Json<Value>, HttpError> {
    Ok(Json(puzzles::summary()?))
}

/// `GET /api/learn/puzzles/next?rating=&seen=&kind=&turn=`.
pub(super) async fn next_puzzle(
    Query(q): Query<puzzles::NextQuery>,
) -> Result<Json<Value>, HttpError> {
    Ok(Json(puzzles::next(&q)?))
}

/// `GET /api/learn/puzzles/daily`: today's puzzle (UTC).
pub(super) async fn daily_puzzle() -> Result<Json<Value>, HttpError> {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    Ok(Json(puzzles::daily((secs / 86_400) as i64)?))
}

/// `GET /api/learn/puzzles/{id}`.
pub(super) async fn puzzle(Path(id): Path<String>) -> Result<Json<Value>, HttpError> {
    Ok(Json(puzzles::puzzle(&id)?))
}

/// `POST /api/learn/puzzles/{id}/try`.
pub(super) async fn try_puzzle(
    Path(id): Path<String>,
    body: Result<Json<puzzles::PuzzleTry>, JsonRejection>,
) -> Result<Json<Value>, HttpError> {
    Ok(Json(puzzles::check(&id, &json_body(body)?)?))
}

/// `POST /api/learn/first-capture`.
pub(super) async fn first_capture(
    body: Result<Json<first_capture::Turn>, JsonRejection>,
) -> Result<Json<Value>, HttpError> {
    Ok(Json(first_capture::turn(json_body(body)?).await?))
}

/// `GET /api/rules`: the rule presets' parameters, for the rules page.
pub(super) async fn rules() -> Json<Value> {
    Json(rules::presets())
}
