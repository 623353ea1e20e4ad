//! What players do to their own account: change the password (every session ends; the caller
//! gets a new one),
//! export their data as JSON, and delete the account (its games stay, under an anonymised name).
//! Each asks for the password again: a session left open on a shared computer is not enough.

use serde::{Deserialize, Serialize};

use crate::accounts::{self, Device, User};
use crate::error::ApiError;
use crate::quick_match::QuickMatch;
use tengen_live::registry::Games;
use tengen_store::Store;

/// `POST /api/me/password`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPassword {
    /// The password now.
    pub current: String,
    /// The one wanted.
    pub new: String,
}

/// `DELETE /api/me`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Confirm {
    /// The password, once more.
    pub password: String,
}

/// Refuses guests (they have no password) and a wrong password (`wrong_password`, 403).
async fn check(store: &Store, user: &User, password: &str) -> Result<(), ApiError> {
    if user.guest || user.bot {
        return Err(ApiError::Forbidden(
            "no_password",
            "guest and bot accounts have no password".into(),
        ));
    }
    if !accounts::password_is(store, user, password).await? {
        return Err(ApiError::Forbidden(
            "wrong_password",
            "that is not your password".into(),
        ));
    }
    Ok(())
}

/// A password changed: the caller's new session token, and the digests of every session
/// ended (the caller's old one among them), whose sockets the caller closes.
#[derive(Clone, Debug)]
pub struct Changed {
    /// The token of the session opened for the caller.
    pub token: String,
    /// The sessions ended.
    pub ended: Vec<String>,
}

/// Changes `user`'s password: every session of theirs ends, the one asking included (a
/// token that someone may have copied must not outlive the password), and the caller gets a
/// new session from `device`, in one transaction.
pub async fn change_password(
    store: &Store,
    user: &User,
    device: &Device,
    req: NewPassword,
) -> Result<Changed, ApiError> {
    check(store, user, &req.current).await?;
    accounts::check_password(&req.new, &user.username)?;
    let hash = accounts::hash_password(&req.new).await?;
    let token = crate::user::new_token();
    let digest = accounts::token_digest(&token);
    let new = crate::sessions::new_row(&digest, user, device);
    let ended = store.set_password(user.id, &hash, Some(&new)).await?;
    Ok(Changed { token, ended })
}

/// Everything the server keeps about `user` that is theirs to see, as one JSON document.
pub async fn export(store: &Store, user: &User) -> Result<Export, ApiError> {
    let games = store
        .games_of(user.id, 100_000)
        .await?
        .into_iter()
        .map(|g| ExportedGame {
            color: if g.black_id == user.id {
                "black"
            } else {
                "white"
            },
            created_at: g.created_at,
            id: g.id,
            result: g.result,
            sgf: format!("/api/games/{}/sgf", g.id),
            status: g.status.as_str(),
            // The terms the server keeps, as the store read them.
            terms: g.terms,
        })
        .collect();
    Ok(Export {
        account: user.clone(),
        games,
        learning: crate::learn::account::export(store, user).await?,
        moderation: crate::moderation::mine(store, user).await?,
        ratings: store.rating_history(user.id, 100_000).await?,
    })
}

// The answers' fields are in alphabetical order, as the `json!` objects they replace wrote
// them: the wire stays byte for byte the same (see `crate::wire`).

/// Everything the server keeps about a player that is theirs to see.
#[derive(Debug, Serialize)]
pub struct Export {
    /// The account.
    #[serde(serialize_with = "crate::wire::sorted")]
    pub account: User,
    /// Their games, newest first.
    pub games: Vec<ExportedGame>,
    /// Their lesson progress, puzzle rating and puzzle attempts.
    pub learning: crate::learn::account::ExportedLearning,
    /// The moderators' actions on the account.
    pub moderation: crate::moderation::Mine,
    /// The rating after each rated game.
    pub ratings: Vec<tengen_store::ratings::RatingPoint>,
}

/// A game in a player's export.
#[derive(Debug, Serialize)]
pub struct ExportedGame {
    /// The player's colour.
    pub color: &'static str,
    /// When it started, seconds since 1970.
    pub created_at: i64,
    /// Its id.
    pub id: i64,
    /// Its result, once over.
    pub result: Option<String>,
    /// Where its record is.
    pub sgf: String,
    /// `live`, `finished`...
    pub status: &'static str,
    /// Its terms (keys sorted, as `json!` wrote them).
    #[serde(serialize_with = "crate::wire::sorted")]
    pub terms: tengen_core::game::Terms,
}

/// Deletes `user`'s account: their live games are resigned and their quick-match request
/// withdrawn, then the account is renamed `deleted-ID` with no password, no sessions and no
/// open rooms. Returns the digests of the sessions ended, whose sockets the caller closes.
pub async fn delete(
    store: &Store,
    games: &Games,
    quick_match: &QuickMatch,
    user: &User,
    req: Confirm,
) -> Result<Vec<String>, ApiError> {
    check(store, user, &req.password).await?;
    let sessions = store.sessions_of(user.id).await?;
    crate::moderation::end_play(store, games, quick_match, user).await;
    let name = format!("deleted-{}", user.id);
    if !store.anonymise_user(user.id, &name).await? {
        return Err(ApiError::Internal(format!("{name} is taken")));
    }
    Ok(sessions)
}
