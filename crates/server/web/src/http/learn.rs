//! Learning to play, open to anyone (no session): the lessons, the teacher's verdict on a
//! try, the puzzles, and the bot's move in a First Capture game. Each request carries all it
//! needs, so any node answers; a logged-in learner's puzzle attempts and progress are kept on
//! the account (`/api/me/learning`).

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::Json;
use tengen_app::learn::{account, first_capture, hint as hints, lessons, puzzles, rules};

use super::json_body;
use crate::error::HttpError;
use crate::session::CurrentUser;
use crate::AppState;

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// `GET /api/learn/lessons`.
pub(super) async fn list() -> Result<Json<lessons::LessonList>, HttpError> {
    Ok(Json(lessons::list()?))
}

/// `GET /api/learn/lessons/{id}`.
pub(super) async fn lesson(Path(id): Path<String>) -> Result<Json<lessons::LessonView>, HttpError> {
    Ok(Json(lessons::lesson(&id)?))
}

/// `POST /api/learn/lessons/{id}/steps/{n}/try`.
pub(super) async fn try_step(
    Path((id, step)): Path<(String, usize)>,
    body: Result<Json<lessons::Try>, JsonRejection>,
) -> Result<Json<lessons::Judged>, HttpError> {
    Ok(Json(lessons::check(&id, step, &json_body(body)?)?))
}

/// `GET /api/learn/puzzles`: how many of each kind, and a new learner's rating.
pub(super) async fn puzzle_summary() -> Result<Json<puzzles::Summary>, HttpError> {
    Ok(Json(puzzles::summary()?))
}

/// `GET /api/learn/puzzles/next?rating=&seen=&kind=&turn=`: near the request's rating, or
/// the account's when a player is logged in.
pub(super) async fn next_puzzle(
    State(state): State<AppState>,
    user: Result<CurrentUser, HttpError>,
    Query(q): Query<puzzles::NextQuery>,
) -> Result<Json<puzzles::PuzzleView>, HttpError> {
    Ok(Json(match user {
        Ok(CurrentUser(u)) => account::next_puzzle(&state.services.store, &u, &q).await?,
        Err(_) => puzzles::next(&q)?,
    }))
}

/// `GET /api/learn/puzzles/daily`: today's puzzle (UTC).
pub(super) async fn daily_puzzle() -> Result<Json<puzzles::Daily>, HttpError> {
    Ok(Json(puzzles::daily(now() / 86_400)?))
}

/// `GET /api/learn/puzzles/{id}`.
pub(super) async fn puzzle(Path(id): Path<String>) -> Result<Json<puzzles::PuzzleView>, HttpError> {
    Ok(Json(puzzles::puzzle(&id)?))
}

/// `POST /api/learn/puzzles/{id}/try`: rated from the body's rating, or from the account's
/// when a player is logged in (and recorded there).
pub(super) async fn try_puzzle(
    State(state): State<AppState>,
    user: Result<CurrentUser, HttpError>,
    Path(id): Path<String>,
    body: Result<Json<puzzles::PuzzleTry>, JsonRejection>,
) -> Result<Json<puzzles::PuzzleVerdict>, HttpError> {
    let t = json_body(body)?;
    Ok(Json(match user {
        Ok(CurrentUser(u)) => {
            account::try_puzzle(&state.services.store, &u, &id, &t, now()).await?
        }
        Err(_) => puzzles::check(&id, &t)?,
    }))
}

/// `GET /api/me/learning`: the lesson progress and puzzle rating kept on the account.
pub(super) async fn learning(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
) -> Result<Json<account::Learning>, HttpError> {
    Ok(Json(account::learning(&state.services.store, &user).await?))
}

/// `POST /api/me/learning`: what the browser kept, merged into the account.
pub(super) async fn merge_learning(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<account::BrowserLearning>, JsonRejection>,
) -> Result<Json<account::Learning>, HttpError> {
    let browser = json_body(body)?;
    Ok(Json(
        account::merge(&state.services.store, &user, browser, now()).await?,
    ))
}

/// `POST /api/learn/first-capture`.
pub(super) async fn first_capture(
    State(state): State<AppState>,
    body: Result<Json<first_capture::Turn>, JsonRejection>,
) -> Result<Json<first_capture::Answered>, HttpError> {
    let turn = json_body(body)?;
    Ok(Json(
        first_capture::turn(&state.services.engines, turn).await?,
    ))
}

/// `GET /api/games/{id}/hint`: the engine's move for the learner in their first game against
/// the weakest bot, a few times a game.
pub(super) async fn hint(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Json<hints::Hint>, HttpError> {
    Ok(Json(
        hints::hint(&state.services.store, &state.services.engines, id, &user).await?,
    ))
}

/// `GET /api/rules`: the rule presets' parameters, for the rules page.
pub(super) async fn rules() -> Json<rules::Presets> {
    Json(rules::presets())
}
