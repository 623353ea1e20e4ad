//! Who is asking: the session token of a request and the logged-in account (and whether it
//! moderates). Shared by the HTTP routes and the WebSocket upgrade, so that neither needs the
//! other.

use axum::extract::FromRequestParts;
use axum::http::header::{AUTHORIZATION, COOKIE};
use axum::http::request::Parts;
use axum::http::HeaderMap;

use crate::error::{ApiError, HttpError};
use crate::AppState;
use tengen_app::accounts::{self, User};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "tengen_session";

/// The session token of a request: `Authorization: Bearer TOKEN`, or the session cookie.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    if let Some(v) = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()) {
        if let Some(t) = v.strip_prefix("Bearer ") {
            return Some(t.trim().to_string());
        }
    }
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == SESSION_COOKIE)
        .map(|(_, v)| v.to_string())
}

/// The logged-in account; rejects the request with `unauthorized` otherwise.
pub struct CurrentUser(pub User);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = HttpError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<CurrentUser, HttpError> {
        let token = session_token(&parts.headers).ok_or(ApiError::Unauthorized)?;
        let user = accounts::by_token(&state.store, &token).await?;
        Ok(CurrentUser(user.ok_or(ApiError::Unauthorized)?))
    }
}

/// A logged-in moderator or admin; rejects anyone else with `not_moderator` (403), before the
/// request's body is read, so that every moderation route answers a player the same way.
pub struct Moderator(pub User);

impl FromRequestParts<AppState> for Moderator {
    type Rejection = HttpError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Moderator, HttpError> {
        let CurrentUser(user) = CurrentUser::from_request_parts(parts, state).await?;
        tengen_app::moderation::require_moderator(&user)?;
        Ok(Moderator(user))
    }
}
