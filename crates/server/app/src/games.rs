//! The one way a game starts: whoever decided its terms and colours (a room, quick match, a bot
//! game), the game is checked against the players' limits, stored (claiming its room, if any, in
//! the same transaction) and handed to the live registry here.

use tengen_core::game::Terms;
use tengen_live::actor::GameHandle;

use crate::accounts::User;
use crate::error::ApiError;
use tengen_live::registry::Games;
use tengen_store::Store;

/// A game just started.
pub struct Started {
    /// Its id.
    pub game_id: i64,
    /// Its live game.
    pub handle: GameHandle,
}

/// Starts a game between `black` and `white` under `terms`, in room `room_id` (0: none);
/// `room_closed` when someone else took the room first.
pub async fn start(
    store: &Store,
    games: &Games,
    room_id: i64,
    black: &User,
    white: &User,
    terms: Terms,
) -> Result<Started, ApiError> {
    if terms.time.is_correspondence() {
        for u in [black, white] {
            crate::correspondence::check_cap(store, u).await?;
        }
    }
    let json = serde_json::to_string(&terms).map_err(|e| ApiError::Internal(e.to_string()))?;
    let game_id = store
        .start_game(room_id, black.id, white.id, &json)
        .await?
        .ok_or_else(|| ApiError::Conflict("room_closed", "someone else joined first".into()))?;
    let handle = games
        .start(game_id, terms, [black.player(), white.player()])
        .await?;
    Ok(Started { game_id, handle })
}

/// The state of a game just started, as its players first see it.
pub async fn snapshot(handle: &GameHandle) -> Result<serde_json::Value, ApiError> {
    handle
        .snapshot()
        .await
        .ok_or(ApiError::Internal("game did not start".into()))
}
