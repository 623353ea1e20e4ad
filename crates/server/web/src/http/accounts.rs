//! `/api/accounts/...`, `/api/me` and `/api/session`: registering, logging in and out, guests,
//! and who is asking. A session's token comes back in the body and as a cookie.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tengen_app::accounts::{self, User};

use super::json_body;
use crate::error::{ApiError, HttpError};
use crate::session::{session_token, DeviceOf, SignedIn, SESSION_COOKIE};
use crate::state::AppState;
use crate::throttle::{self, ClientAddr};

#[derive(Deserialize)]
pub(super) struct RegisterBody {
    username: String,
    password: String,
    rank: String,
}

#[derive(Deserialize)]
pub(super) struct LoginBody {
    username: String,
    password: String,
}

/// The answer to register, login and guest: the account and the session token (also set as a
/// cookie).
#[derive(Serialize)]
struct SessionBody {
    user: User,
    token: String,
}

/// The session cookie: HttpOnly and SameSite=Strict always, and Secure when the client reached
/// us over HTTPS (a reverse proxy says so with `X-Forwarded-Proto`). Plain HTTP on a local
/// address keeps working, where browsers would drop a Secure cookie.
pub(super) fn with_session(
    status: StatusCode,
    user: User,
    token: String,
    headers: &HeaderMap,
) -> Response {
    let https = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"));
    let secure = if https { "; Secure" } else { "" };
    // The cookie lives as long as the session could; the server ends it sooner when idle.
    let max_age = tengen_app::sessions::LIFETIME;
    let cookie = format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}"
    );
    let mut r = (status, Json(SessionBody { user, token })).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        r.headers_mut().insert(SET_COOKIE, v);
    }
    r
}

/// `POST /api/accounts/register` `{"username", "password", "rank"}`: a new account and its session (201).
pub(super) async fn register(
    State(state): State<AppState>,
    addr: ClientAddr,
    DeviceOf(device): DeviceOf,
    headers: HeaderMap,
    body: Result<Json<RegisterBody>, JsonRejection>,
) -> Result<Response, HttpError> {
    let b = json_body(body)?;
    if let Some(k) = addr.key() {
        state.throttle.create(&k)?;
    }
    let (user, token) = accounts::register(
        &state.services.store,
        &b.username,
        &b.password,
        &b.rank,
        &device,
    )
    .await?;
    Ok(with_session(StatusCode::CREATED, user, token, &headers))
}

/// `POST /api/accounts/login`: a session for a name and password; failures are throttled per account and address.
pub(super) async fn login(
    State(state): State<AppState>,
    addr: ClientAddr,
    DeviceOf(device): DeviceOf,
    headers: HeaderMap,
    body: Result<Json<LoginBody>, JsonRejection>,
) -> Result<Response, HttpError> {
    let b = json_body(body)?;
    let keys: Vec<String> = std::iter::once(throttle::account_key(&b.username))
        .chain(addr.key())
        .collect();
    // Refused before any hash is computed.
    state.throttle.check(&keys)?;
    match accounts::login(&state.services.store, &b.username, &b.password, &device).await {
        Ok((user, token)) => {
            state.throttle.succeeded(&keys[0]);
            Ok(with_session(StatusCode::OK, user, token, &headers))
        }
        Err(ApiError::BadCredentials) => {
            // Never the name as typed: a password pasted into the name field would be kept.
            let name = throttle::log_name(&b.username);
            tracing::warn!(%name, client = %addr, "failed login");
            state.throttle.failed(&keys);
            Err(ApiError::BadCredentials.into())
        }
        Err(e) => Err(e.into()),
    }
}

/// `POST /api/accounts/guest`: a guest account at 18 kyu and its session (201).
pub(super) async fn guest(
    State(state): State<AppState>,
    addr: ClientAddr,
    DeviceOf(device): DeviceOf,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    if let Some(k) = addr.key() {
        state.throttle.create(&k)?;
    }
    let (user, token) = accounts::guest(&state.services.store, &device).await?;
    Ok(with_session(StatusCode::CREATED, user, token, &headers))
}

/// `POST /api/accounts/logout`: ends the session (its WebSockets close too) and clears the cookie.
pub(super) async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    if let Some(token) = session_token(&headers) {
        accounts::logout(&state.services.store, &token).await?;
        // The session's WebSockets close too (nobody listening is fine).
        let _ = state.logouts.send(accounts::token_digest(&token));
    }
    Ok(logged_out())
}

/// 204 with the session cookie cleared.
pub(super) fn logged_out() -> Response {
    let mut r = StatusCode::NO_CONTENT.into_response();
    r.headers_mut().insert(
        SET_COOKIE,
        HeaderValue::from_static("tengen_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"),
    );
    r
}

/// `GET /api/me`: the logged-in account (a bot's too: its engine asks who it is).
pub(super) async fn me(SignedIn(session): SignedIn) -> Json<User> {
    Json(session.user)
}

/// Who is logged in, if anyone: `{"user": null}` rather than a 401, so that a page asking
/// before anyone logged in fails nothing (browsers log every 401 as an error).
pub(super) async fn session(user: Result<SignedIn, HttpError>) -> Result<Json<Value>, HttpError> {
    match user {
        Ok(SignedIn(s)) => Ok(Json(json!({ "user": s.user }))),
        Err(HttpError(ApiError::Unauthorized)) => Ok(Json(json!({ "user": null }))),
        Err(e) => Err(e),
    }
}
