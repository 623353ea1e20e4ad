//! Who is asking: the session token of a request, the session (a player's or a bot's) and the
//! logged-in account (and whether it moderates); where a new session comes from. Shared by the
//! HTTP routes and the WebSocket upgrade, so that neither needs the other.

use axum::extract::FromRequestParts;
use axum::http::header::{AUTHORIZATION, COOKIE, USER_AGENT};
use axum::http::request::Parts;
use axum::http::HeaderMap;

use crate::error::{ApiError, HttpError};
use crate::state::AppState;
use crate::throttle::ClientAddr;
use tengen_app::accounts::User;
use tengen_app::sessions::{self, Device, Session};

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

/// Any open session, a bot's included: for what the bot protocol needs (who am I, the
/// WebSocket, logging out). Rejects the request with `unauthorized` otherwise.
pub struct SignedIn(pub Session);

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = HttpError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<SignedIn, HttpError> {
        let token = session_token(&parts.headers).ok_or(ApiError::Unauthorized)?;
        let session = sessions::by_token(&state.services.store, &token).await?;
        Ok(SignedIn(session.ok_or(ApiError::Unauthorized)?))
    }
}

/// A player's session (a bot's is refused with `bot_account`, unless the operator lets bots
/// act as players): what every player route takes, so that a new route is closed to bots
/// unless it asks for [`SignedIn`].
pub struct CurrentUser(pub User);

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = HttpError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<CurrentUser, HttpError> {
        let SignedIn(session) = SignedIn::from_request_parts(parts, state).await?;
        sessions::require_player(&session, state.services.bots_as_players)?;
        Ok(CurrentUser(session.user))
    }
}

/// A player's session with its token's digest (the routes that list or end sessions mark the
/// one asking).
pub struct PlayerSession(pub Session);

impl FromRequestParts<AppState> for PlayerSession {
    type Rejection = HttpError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<PlayerSession, HttpError> {
        let SignedIn(session) = SignedIn::from_request_parts(parts, state).await?;
        sessions::require_player(&session, state.services.bots_as_players)?;
        Ok(PlayerSession(session))
    }
}

/// Where a request comes from, for a session it opens: the User-Agent (cut short) and the
/// client's address.
pub struct DeviceOf(pub Device);

impl FromRequestParts<AppState> for DeviceOf {
    type Rejection = HttpError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<DeviceOf, HttpError> {
        let ClientAddr(ip) = ClientAddr::from_request_parts(parts, state).await?;
        let user_agent = parts
            .headers
            .get(USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .map(sessions::short_agent)
            .filter(|a| !a.is_empty());
        Ok(DeviceOf(Device {
            user_agent,
            address: ip.map(|ip| ip.to_string()),
        }))
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
