//! Who may say a line in a game's chat: not a muted, suspended or banned player (read afresh,
//! so that a mute set since the socket opened holds at once); not one blocked by either of the
//! game's players; and a bot's session only in its own games, where it says its manners.

use tengen_store::Store;

use crate::error::ApiError;

/// Refuses `user`'s chat line in `game` unless they may say it; `bot_only` for a bot account's
/// session.
pub async fn check_may_chat(
    store: &Store,
    user: i64,
    bot_only: bool,
    game: i64,
) -> Result<(), ApiError> {
    crate::sanctions::check_may_chat(store, user).await?;
    let players = store.game(game).await?.map(|g| [g.black_id, g.white_id]);
    if bot_only && !players.is_some_and(|p| p.contains(&user)) {
        return Err(crate::sessions::bot_refusal());
    }
    if let Some(players) = players {
        crate::blocks::check_may_chat(store, user, &players).await?;
    }
    Ok(())
}
