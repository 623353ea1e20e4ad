//! The HTTP JSON API: every route in one `Router` chain.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::header::{AUTHORIZATION, COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::accounts::{self, User};
use crate::error::ApiError;
use crate::AppState;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "tengen_session";

/// Largest request body accepted.
const MAX_BODY: usize = 64 * 1024;

/// All routes.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/api/accounts/register", post(register))
        .route("/api/accounts/login", post(login))
        .route("/api/accounts/guest", post(guest))
        .route("/api/accounts/logout", post(logout))
        .route("/api/me", get(me))
        .route("/api/users/{name}", get(user))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

async fn healthz(State(state): State<AppState>) -> Result<&'static str, ApiError> {
    state.store.ping().await?;
    Ok("ok")
}

fn json<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(b)| b)
        .map_err(|e| ApiError::BadRequest(e.body_text()))
}

#[derive(Deserialize)]
struct RegisterBody {
    username: String,
    password: String,
    rank: String,
}

#[derive(Deserialize)]
struct LoginBody {
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

fn with_session(status: StatusCode, user: User, token: String) -> Response {
    let cookie =
        format!("{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000");
    let mut r = (status, Json(SessionBody { user, token })).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        r.headers_mut().insert(SET_COOKIE, v);
    }
    r
}

async fn register(
    State(state): State<AppState>,
    body: Result<Json<RegisterBody>, JsonRejection>,
) -> Result<Response, ApiError> {
    let b = json(body)?;
    let (user, token) = accounts::register(&state.store, &b.username, &b.password, &b.rank).await?;
    Ok(with_session(StatusCode::CREATED, user, token))
}

async fn login(
    State(state): State<AppState>,
    body: Result<Json<LoginBody>, JsonRejection>,
) -> Result<Response, ApiError> {
    let b = json(body)?;
    let (user, token) = accounts::login(&state.store, &b.username, &b.password).await?;
    Ok(with_session(StatusCode::OK, user, token))
}

async fn guest(State(state): State<AppState>) -> Result<Response, ApiError> {
    let (user, token) = accounts::guest(&state.store).await?;
    Ok(with_session(StatusCode::CREATED, user, token))
}

async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(token) = session_token(&headers) {
        accounts::logout(&state.store, &token).await?;
    }
    let mut r = StatusCode::NO_CONTENT.into_response();
    r.headers_mut().insert(
        SET_COOKIE,
        HeaderValue::from_static("tengen_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"),
    );
    Ok(r)
}

async fn me(CurrentUser(user): CurrentUser) -> Json<User> {
    Json(user)
}

async fn user(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<User>, ApiError> {
    accounts::by_name(&state.store, &name)
        .await?
        .map(Json)
        .ok_or(ApiError::NotFound)
}

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
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<CurrentUser, ApiError> {
        let token = session_token(&parts.headers).ok_or(ApiError::Unauthorized)?;
        accounts::by_token(&state.store, &token)
            .await?
            .map(CurrentUser)
            .ok_or(ApiError::Unauthorized)
    }
}
