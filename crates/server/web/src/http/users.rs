//! `/api/users/{name}/...`: what a player page shows beside the account.

use axum::extract::{Path, Query, State};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tengen_app::accounts::{self, User};
use tengen_app::profile;

use crate::error::HttpError;
use crate::state::AppState;

#[derive(Deserialize)]
pub(super) struct HistoryQuery {
    #[serde(default)]
    limit: Option<i64>,
}

/// `GET /api/users/{name}/ratings`: the rating now and after each rated game, oldest first.
pub(super) async fn ratings(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<HistoryQuery>,
) -> Result<Json<profile::Ratings>, HttpError> {
    Ok(Json(
        profile::ratings(&state.services.store, &name, q.limit).await?,
    ))
}

/// `GET /api/users/{name}/record`: wins, losses and draws by board size and by ending.
pub(super) async fn record(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<profile::PlayerRecord>, HttpError> {
    Ok(Json(profile::record(&state.services.store, &name).await?))
}

/// `GET /api/users/{name}`: an account.
pub(super) async fn user(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<User>, HttpError> {
    Ok(accounts::named(&state.services.store, &name)
        .await
        .map(Json)?)
}

/// `GET /api/users/{name}/games`: the player's last 100 games, newest first.
pub(super) async fn user_games(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Value>, HttpError> {
    let u = accounts::named(&state.services.store, &name).await?;
    let games = tengen_app::games::of_player(&state.services.store, u.id).await?;
    Ok(Json(json!({ "user": u, "games": games })))
}
