//! What players do to their own account: change the password (every session ends; the caller
//! gets a new one),
//! export their data as JSON, and delete the account (its games stay, under an anonymised name).
//! Each asks for the password again: a session left open on a shared computer is not enough.

use serde::Deserialize;
use serde_json::{json, Value};

use crate::accounts::{self, Device, User};
use crate::error::ApiError;
use crate::Services;

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
async fn check(services: &Services, user: &User, password: &str) -> Result<(), ApiError> {
    if user.guest || user.bot {
        return Err(ApiError::Forbidden(
            "no_password",
            "guest and bot accounts have no password".into(),
        ));
    }
    if !accounts::password_is(&services.store, user, password).await? {
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
    services: &Services,
    user: &User,
    device: &Device,
    req: NewPassword,
) -> Result<Changed, ApiError> {
    check(services, user, &req.current).await?;
    accounts::check_password(&req.new, &user.username)?;
    let hash = accounts::hash_password(&req.new).await?;
    let token = crate::user::new_token();
    let digest = accounts::token_digest(&token);
    let new = crate::sessions::new_row(&digest, user, device);
    let ended = services
        .store
        .set_password(user.id, &hash, Some(&new))
        .await?;
    Ok(Changed { token, ended })
}

/// Everything the server keeps about `user` that is theirs to see, as one JSON document.
pub async fn export(services: &Services, user: &User) -> Result<Value, ApiError> {
    let store = &services.store;
    let games: Vec<Value> = store
        .games_of(user.id, 100_000)
        .await?
        .iter()
        .map(|g| {
            json!({
                "id": g.id,
                "color": if g.black_id == user.id { "black" } else { "white" },
                "terms": serde_json::from_str::<Value>(&g.terms).unwrap_or(Value::Null),
                "status": g.status.as_str(),
                "result": g.result,
                "created_at": g.created_at,
                "sgf": format!("/api/games/{}/sgf", g.id),
            })
        })
        .collect();
    Ok(json!({
        "account": user,
        "games": games,
        "ratings": store.rating_history(user.id, 100_000).await?,
        "moderation": crate::moderation::mine(store, user).await?,
    }))
}

/// Deletes `user`'s account: their live games are resigned and their quick-match request
/// withdrawn, then the account is renamed `deleted-ID` with no password, no sessions and no
/// open rooms. Returns the digests of the sessions ended, whose sockets the caller closes.
pub async fn delete(
    services: &Services,
    user: &User,
    req: Confirm,
) -> Result<Vec<String>, ApiError> {
    check(services, user, &req.password).await?;
    let sessions = services.store.sessions_of(user.id).await?;
    crate::moderation::end_play(services, user).await;
    let name = format!("deleted-{}", user.id);
    if !services.store.anonymise_user(user.id, &name).await? {
        return Err(ApiError::Internal(format!("{name} is taken")));
    }
    Ok(sessions)
}
