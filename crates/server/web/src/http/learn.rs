//! Learning to play, open to anyone (no session): the lessons, the teacher's verdict on a
//! try, and the bot's move in a First Capture game. Each request carries all it needs, so none
//! is stored and any node answers.

use axum::extract::rejection::JsonRejection;
use axum::extract::Path;
use axum::Json;
use serde_json::Value;
use tengen_app::learn::{first_capture, lessons, rules};

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
