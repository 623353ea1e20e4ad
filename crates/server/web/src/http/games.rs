//! `/api/games` and `/api/bots/{name}/play`: the game list, a game's state and record, and a new
//! game against a bot.

use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tengen_store::games::GameStatus;

use super::records::sgf_file;
use crate::error::{ApiError, HttpError};
use crate::session::CurrentUser;
use crate::state::AppState;

#[derive(Deserialize)]
pub(super) struct GamesQuery {
    #[serde(default)]
    status: Option<String>,
}

/// `GET /api/games?status=live|finished` (live by default): the 200 newest games in that state.
pub(super) async fn list_games(
    State(state): State<AppState>,
    Query(q): Query<GamesQuery>,
) -> Result<Json<Value>, HttpError> {
    let status = match q.status.as_deref().map(str::parse::<GameStatus>) {
        None => GameStatus::Live,
        Some(Ok(s)) => s,
        Some(Err(_)) => {
            return Err(HttpError(ApiError::Rejected(
                "bad_status",
                "status is live or finished".into(),
            )))
        }
    };
    let games = tengen_app::games::list(&state.services.store, status).await?;
    Ok(Json(json!({ "games": games })))
}

/// `GET /api/games/{id}`: the game's state now (a finished one served from its log).
pub(super) async fn get_game(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<tengen_core::view::Snapshot>, HttpError> {
    let h = state
        .services
        .games
        .get(id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let unavailable = ApiError::Unavailable(
        "game_unavailable",
        "the game is moving between servers; try again in a second".into(),
    );
    Ok(h.snapshot().await.map(Json).ok_or(unavailable)?)
}

/// `GET /api/games/{id}/sgf`: the game's record, as a download.
pub(super) async fn game_sgf(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Response, HttpError> {
    let (text, _) = tengen_app::records::game_record(&state.services.store, id).await?;
    Ok(sgf_file(text, &format!("tengen-{id}.sgf")))
}

/// `POST /api/bots/{name}/play`: a new game against the bot `name`.
pub(super) async fn play_bot(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(name): Path<String>,
    body: Option<Json<tengen_app::bots::BotGame>>,
) -> Result<Json<tengen_app::bots::BotGameStarted>, HttpError> {
    let req = body.map(|Json(b)| b).unwrap_or_default();
    Ok(Json(
        tengen_app::bots::start_game(&state.services.bot_games(), &user, &name, req).await?,
    ))
}
