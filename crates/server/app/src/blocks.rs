//! Players' blocks: a player blocks another and has nothing more to do with them: no game
//! between them (a room's join and quick match refuse it, either way round) and no chat line of
//! theirs in a game the blocker plays.

use serde::Serialize;
use tengen_store::Store;

use crate::accounts::{self, User};
use crate::error::ApiError;

/// `user` blocks the player called `name`.
pub async fn block(store: &Store, user: &User, name: &str) -> Result<(), ApiError> {
    let other = accounts::named(store, name).await?;
    if other.id == user.id {
        return Err(ApiError::Rejected(
            "block_self",
            "one cannot block oneself".into(),
        ));
    }
    Ok(store
        .block(user.id, other.id, crate::sanctions::now())
        .await?)
}

/// `user` lifts their block of `name` (`not_found` when there is none).
pub async fn unblock(store: &Store, user: &User, name: &str) -> Result<(), ApiError> {
    let other = accounts::named(store, name).await?;
    if store.unblock(user.id, other.id).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

/// The players a player blocks, by name.
#[derive(Debug, Serialize)]
pub struct Blocks {
    /// Their names.
    pub blocks: Vec<String>,
}

/// The players `user` blocks: `{"blocks": [NAME, ...]}`.
pub async fn list(store: &Store, user: &User) -> Result<Blocks, ApiError> {
    Ok(Blocks {
        blocks: store.blocked_by(user.id).await?,
    })
}

/// Refuses a game between `a` and `b` when either blocks the other (`blocked`, 403).
pub async fn check_may_meet(store: &Store, a: i64, b: i64) -> Result<(), ApiError> {
    if store.blocked_by_any(a, &[b]).await? || store.blocked_by_any(b, &[a]).await? {
        return Err(ApiError::Forbidden(
            "blocked",
            "one of you has blocked the other".into(),
        ));
    }
    Ok(())
}

/// Refuses `chatter`'s line in a game whose players (`players`) include one who blocked them
/// (`blocked`, 403).
pub async fn check_may_chat(store: &Store, chatter: i64, players: &[i64]) -> Result<(), ApiError> {
    if store.blocked_by_any(chatter, players).await? {
        return Err(ApiError::Forbidden(
            "blocked",
            "a player of this game has blocked you".into(),
        ));
    }
    Ok(())
}
