//! The one way a game starts: whoever decided its terms and colours (a room, quick match, a bot
//! game), the game is checked against the players' limits, stored (claiming its room, if any, in
//! the same transaction) and handed to the live registry here.

use tengen_core::game::Terms;
use tengen_core::view::Snapshot;
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
/// `room_closed` when someone else took the room first. Each plays it at the rank of its
/// `User` (a bot's on this board, set by the caller).
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
    // Stored with the game, so that its record keeps the ranks of its day (and a bot's rank on
    // this board) after a restart and a promotion.
    let ranks = [black.rank.to_string(), white.rank.to_string()];
    let game_id = store
        .start_ranked_game(
            room_id,
            [black.id, white.id],
            &json,
            Some([&ranks[0], &ranks[1]]),
        )
        .await?
        .ok_or_else(|| ApiError::Conflict("room_closed", "someone else joined first".into()))?;
    let handle = games
        .start(game_id, terms, [black.player(), white.player()])
        .await?;
    Ok(Started { game_id, handle })
}

/// The state of a game just started, as its players first see it.
pub async fn snapshot(handle: &GameHandle) -> Result<Snapshot, ApiError> {
    handle
        .snapshot()
        .await
        .ok_or(ApiError::Internal("game did not start".into()))
}

/// A game as the lists show it (`GET /api/games`, a player's games).
#[derive(Debug, serde::Serialize)]
pub struct Listing {
    /// Its id.
    pub id: i64,
    /// Black's name (none for an account gone).
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Its terms (keys sorted, as `json!` wrote them).
    #[serde(serialize_with = "crate::wire::sorted")]
    pub terms: Terms,
    /// `live` or `finished`.
    pub status: &'static str,
    /// Its SGF result, once finished.
    pub result: Option<String>,
    /// Why it counts for nobody, if it does not.
    pub annulled: Option<String>,
    /// Seconds since the epoch.
    pub created_at: i64,
    /// Where its record is.
    pub sgf: String,
}

impl From<tengen_store::games::ListedGame> for Listing {
    fn from(g: tengen_store::games::ListedGame) -> Listing {
        let row = g.row;
        Listing {
            id: row.id,
            black: g.black,
            white: g.white,
            terms: row.terms,
            status: row.status.as_str(),
            result: row.result,
            annulled: row.annulled,
            created_at: row.created_at,
            sgf: format!("/api/games/{}/sgf", row.id),
        }
    }
}

/// The 200 newest games in `status`, with their players, in one query.
pub async fn list(
    store: &Store,
    status: tengen_store::games::GameStatus,
) -> Result<Vec<Listing>, ApiError> {
    let rows = store.listed_games(status, 200).await?;
    Ok(rows.into_iter().map(Listing::from).collect())
}

/// A player's 100 newest games, with both players, in one query.
pub async fn of_player(store: &Store, user_id: i64) -> Result<Vec<Listing>, ApiError> {
    let rows = store.listed_games_of(user_id, 100).await?;
    Ok(rows.into_iter().map(Listing::from).collect())
}
