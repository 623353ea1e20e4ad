//! The HTTP JSON API: every route in one `Router` chain, the handlers beside it by resource
//! (`me`, `users`, `matches`, `reviews`, `estimate`; accounts, rooms and games here). A handler
//! extracts the request, calls one use case of `tengen-app` and writes its answer.

mod estimate;
mod matches;
mod me;
mod reviews;
mod users;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use axum::body::Bytes;
use axum::extract::Query;
use serde_json::{json, Value};
use tengen_rules::Preset;

use crate::error::{ApiError, HttpError};
pub use crate::session::{session_token, CurrentUser, SESSION_COOKIE};
use crate::throttle::{self, ClientAddr};
use crate::AppState;
use tengen_app::accounts::{self, User};
use tengen_app::rooms::{self, JoinTerms, RoomTerms};
use tengen_store::games::GameStatus;

/// Largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;

/// All routes.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/api/accounts/register", post(register))
        .route("/api/accounts/login", post(login))
        .route("/api/accounts/guest", post(guest))
        .route("/api/accounts/logout", post(logout))
        .route("/api/me", get(me))
        .route("/api/session", get(session))
        .route("/api/me/turns", get(me::turns))
        .route(
            "/api/me/vacation",
            post(me::start_vacation).delete(me::end_vacation),
        )
        .route("/api/users/{name}", get(user))
        .route("/api/users/{name}/games", get(user_games))
        .route("/api/users/{name}/ratings", get(users::ratings))
        .route("/api/users/{name}/record", get(users::record))
        .route("/api/rooms", get(list_rooms).post(create_room))
        .route("/api/rooms/{id}", get(get_room).delete(cancel_room))
        .route("/api/rooms/{id}/join", post(join_room))
        .route(
            "/api/match",
            get(matches::get)
                .post(matches::post)
                .delete(matches::delete),
        )
        .route("/api/reviews", post(reviews::create))
        .route("/api/reviews/{id}", get(reviews::get))
        .route("/api/reviews/{id}/sgf", get(reviews::sgf))
        .route("/api/reviews/{id}/edits", post(reviews::edit))
        .route("/api/reviews/{id}/analysis", post(reviews::analyse))
        .route("/api/games", get(list_games))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/sgf", get(game_sgf))
        .route("/api/games/{id}/estimate", get(estimate::estimate))
        .route("/api/sgf/import", post(import_sgf))
        .route("/api/ws", get(crate::ws::upgrade))
        .route(
            "/api/openapi.json",
            get(|| async { Json(crate::openapi::document()) }),
        )
        .route(
            "/api/bots",
            get(|State(state): State<AppState>| async move { Json(state.bots.describe()) }),
        )
        .route("/api/bots/{name}/play", post(play_bot))
        .route(
            "/api/online",
            get(|State(state): State<AppState>| async move {
                Json(json!({ "users": state.online.list() }))
            }),
        )
        .fallback(crate::web::file)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(json_errors))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(state)
}

async fn healthz(State(state): State<AppState>) -> Result<&'static str, HttpError> {
    state.store.ping().await?;
    Ok("ok")
}

fn json<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(b)| b).map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(MAX_BODY)
        } else {
            ApiError::BadRequest(e.body_text())
        }
    })
}

/// The Content-Security-Policy of every response: scripts, styles and connections from this
/// server only (no inline script or style), never framed.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
                   frame-ancestors 'none'";

/// Client errors that axum answers itself (a path or query that does not parse, a body that is
/// not JSON or does not fit the type, a wrong method) come as plain text: they are rewritten in
/// the API's JSON error format, with a stable code, so that every refusal reads the same. An
/// unprocessable body (422) is reported as the 400 `bad_request` it is.
async fn json_errors(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let r = next.run(req).await;
    let status = r.status();
    let is_json = r
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !status.is_client_error() || is_json || r.headers().contains_key("upgrade") {
        return r;
    }
    let (status, code) = match status {
        StatusCode::NOT_FOUND => (status, "not_found"),
        StatusCode::METHOD_NOT_ALLOWED => (status, "method_not_allowed"),
        StatusCode::PAYLOAD_TOO_LARGE => (status, "payload_too_large"),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => (status, "unsupported_media_type"),
        StatusCode::UNPROCESSABLE_ENTITY => (StatusCode::BAD_REQUEST, "bad_request"),
        s if s == StatusCode::UNAUTHORIZED || s == StatusCode::FORBIDDEN => return r,
        _ => (StatusCode::BAD_REQUEST, "bad_request"),
    };
    let message = axum::body::to_bytes(r.into_body(), 16 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = if message.is_empty() {
        status.canonical_reason().unwrap_or("refused").to_string()
    } else {
        message
    };
    (
        status,
        Json(json!({ "error": { "code": code, "message": message } })),
    )
        .into_response()
}

/// Security headers on every response, pages and API alike.
async fn security_headers(mut r: Response) -> Response {
    let h = r.headers_mut();
    for (name, value) in [
        ("content-security-policy", CSP),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
    ] {
        h.insert(name, HeaderValue::from_static(value));
    }
    r
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

/// The session cookie: HttpOnly and SameSite=Strict always, and Secure when the client reached
/// us over HTTPS (a reverse proxy says so with `X-Forwarded-Proto`). Plain HTTP on a local
/// address keeps working, where browsers would drop a Secure cookie.
fn with_session(status: StatusCode, user: User, token: String, headers: &HeaderMap) -> Response {
    let https = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"));
    let secure = if https { "; Secure" } else { "" };
    let cookie = format!(
        "{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000{secure}"
    );
    let mut r = (status, Json(SessionBody { user, token })).into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        r.headers_mut().insert(SET_COOKIE, v);
    }
    r
}

async fn register(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
    body: Result<Json<RegisterBody>, JsonRejection>,
) -> Result<Response, HttpError> {
    let b = json(body)?;
    if let Some(k) = addr.key() {
        state.throttle.create(&k)?;
    }
    let (user, token) = accounts::register(&state.store, &b.username, &b.password, &b.rank).await?;
    Ok(with_session(StatusCode::CREATED, user, token, &headers))
}

async fn login(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
    body: Result<Json<LoginBody>, JsonRejection>,
) -> Result<Response, HttpError> {
    let b = json(body)?;
    let keys: Vec<String> = std::iter::once(throttle::account_key(&b.username))
        .chain(addr.key())
        .collect();
    // Refused before any hash is computed.
    state.throttle.check(&keys)?;
    match accounts::login(&state.store, &b.username, &b.password).await {
        Ok((user, token)) => {
            state.throttle.succeeded(&keys[0]);
            Ok(with_session(StatusCode::OK, user, token, &headers))
        }
        Err(ApiError::BadCredentials) => {
            tracing::warn!(username = %b.username, client = ?addr.0, "failed login");
            state.throttle.failed(&keys);
            Err(ApiError::BadCredentials.into())
        }
        Err(e) => Err(e.into()),
    }
}

async fn guest(
    State(state): State<AppState>,
    addr: ClientAddr,
    headers: HeaderMap,
) -> Result<Response, HttpError> {
    if let Some(k) = addr.key() {
        state.throttle.create(&k)?;
    }
    let (user, token) = accounts::guest(&state.store).await?;
    Ok(with_session(StatusCode::CREATED, user, token, &headers))
}

async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, HttpError> {
    if let Some(token) = session_token(&headers) {
        accounts::logout(&state.store, &token).await?;
        // The session's WebSockets close too (nobody listening is fine).
        let _ = state.logouts.send(accounts::token_digest(&token));
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

/// Who is logged in, if anyone: `{"user": null}` rather than a 401, so that a page asking
/// before anyone logged in fails nothing (browsers log every 401 as an error).
async fn session(user: Result<CurrentUser, HttpError>) -> Result<Json<Value>, HttpError> {
    match user {
        Ok(CurrentUser(u)) => Ok(Json(json!({ "user": u }))),
        Err(HttpError(ApiError::Unauthorized)) => Ok(Json(json!({ "user": null }))),
        Err(e) => Err(e),
    }
}

async fn user(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<User>, HttpError> {
    Ok(accounts::named(&state.store, &name).await.map(Json)?)
}

async fn user_games(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Value>, HttpError> {
    let u = accounts::named(&state.store, &name).await?;
    let rows = state.store.games_of(u.id, 100).await?;
    Ok(Json(
        json!({ "user": u, "games": game_list(&state, &rows).await? }),
    ))
}

async fn game_list(
    state: &AppState,
    rows: &[tengen_store::games::GameRow],
) -> Result<Vec<Value>, HttpError> {
    let mut out = Vec::new();
    for g in rows {
        let name = |id: i64| async move {
            accounts::by_id(&state.store, id)
                .await
                .map(|u| u.map(|u| u.username))
        };
        let terms: Value = serde_json::from_str(&g.terms).unwrap_or(Value::Null);
        out.push(json!({
            "id": g.id,
            "black": name(g.black_id).await?,
            "white": name(g.white_id).await?,
            "terms": terms,
            "status": g.status.as_str(),
            "result": g.result,
            "created_at": g.created_at,
            "sgf": format!("/api/games/{}/sgf", g.id),
        }));
    }
    Ok(out)
}

async fn list_rooms(State(state): State<AppState>) -> Result<Json<Value>, HttpError> {
    let mut out = Vec::new();
    for r in state.store.open_rooms().await? {
        let owner = accounts::by_id(&state.store, r.owner_id)
            .await?
            .ok_or(ApiError::NotFound)?;
        let t: RoomTerms =
            serde_json::from_str(&r.terms).map_err(|e| ApiError::Internal(e.to_string()))?;
        out.push(rooms::public(r.id, &owner, &t, &r.status, r.game_id));
    }
    Ok(Json(json!({ "rooms": out })))
}

async fn create_room(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    body: Result<Json<RoomTerms>, JsonRejection>,
) -> Result<Response, HttpError> {
    let t = rooms::validate(json(body)?)?;
    // One player cannot fill the lobby.
    if state.store.open_rooms_of(user.id).await? >= rooms::MAX_OPEN_PER_USER {
        return Err(HttpError(ApiError::Limited(
            "too_many_rooms",
            format!(
                "at most {} open rooms a player: close one first",
                rooms::MAX_OPEN_PER_USER
            ),
        )));
    }
    let terms = serde_json::to_string(&t).map_err(|e| ApiError::Internal(e.to_string()))?;
    let id = state.store.create_room(user.id, &terms).await?;
    let mut room = rooms::public(id, &user, &t, "open", None);
    // The owner sees their own choice.
    room["parity"] = json!(t.parity);
    Ok((StatusCode::CREATED, Json(room)).into_response())
}

async fn get_room(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Value>, HttpError> {
    let r = state.store.room(id).await?.ok_or(ApiError::NotFound)?;
    let owner = accounts::by_id(&state.store, r.owner_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    let t: RoomTerms =
        serde_json::from_str(&r.terms).map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Json(rooms::public(r.id, &owner, &t, &r.status, r.game_id)))
}

async fn cancel_room(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
) -> Result<StatusCode, HttpError> {
    let r = state.store.room(id).await?.ok_or(ApiError::NotFound)?;
    if r.owner_id != user.id {
        return Err(HttpError(ApiError::Forbidden(
            "not_owner",
            "only the owner can close a room".into(),
        )));
    }
    if !state.store.cancel_room(id).await? {
        return Err(HttpError(ApiError::Conflict(
            "room_closed",
            "this room is no longer open".into(),
        )));
    }
    Ok(StatusCode::NO_CONTENT)
}

async fn join_room(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(id): Path<i64>,
    body: Option<Json<JoinTerms>>,
) -> Result<Json<Value>, HttpError> {
    let j = body.map(|Json(b)| b).unwrap_or_default();
    Ok(Json(rooms::join(&state, id, &user, j).await?))
}

#[derive(Deserialize)]
struct GamesQuery {
    #[serde(default)]
    status: Option<String>,
}

async fn list_games(
    State(state): State<AppState>,
    Query(q): Query<GamesQuery>,
) -> Result<Json<Value>, HttpError> {
    let status = match q.status.as_deref().map(str::parse::<GameStatus>) {
        None => GameStatus::Live,
        Some(Ok(s)) => s,
        Some(Err(_)) => {
            return Err(HttpError(ApiError::Rejected(
                "bad_status",
                "status is live or finished".into(),
            )))
        }
    };
    let rows = state.store.games_by_status(status, 200).await?;
    Ok(Json(json!({ "games": game_list(&state, &rows).await? })))
}

async fn get_game(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Json<Value>, HttpError> {
    let h = state.games.get(id).await?.ok_or(ApiError::NotFound)?;
    let unavailable = ApiError::Unavailable(
        "game_unavailable",
        "the game is moving between servers; try again in a second".into(),
    );
    Ok(h.snapshot().await.map(Json).ok_or(unavailable)?)
}

async fn game_sgf(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Response, HttpError> {
    let (text, _) = tengen_app::records::game_record(&state.store, id).await?;
    Ok(sgf_file(text, &format!("tengen-{id}.sgf")))
}

/// An SGF record as a download called `name`.
fn sgf_file(text: String, name: &str) -> Response {
    let mut r = text.into_response();
    r.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-go-sgf"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        r.headers_mut()
            .insert(axum::http::header::CONTENT_DISPOSITION, v);
    }
    r
}

async fn play_bot(
    State(state): State<AppState>,
    CurrentUser(user): CurrentUser,
    Path(name): Path<String>,
    body: Option<Json<tengen_app::bots::BotGame>>,
) -> Result<Json<Value>, HttpError> {
    let req = body.map(|Json(b)| b).unwrap_or_default();
    Ok(Json(
        tengen_app::bots::start_game(&state, &user, &name, req).await?,
    ))
}

/// The query of `POST /api/sgf/import`: rules to replay under instead of the record's `RU`.
#[derive(Debug, Default, Deserialize)]
struct ImportQuery {
    /// A preset name.
    #[serde(default)]
    rules: Option<String>,
}

/// `POST /api/sgf/import`: reads the record in the body (its first game); stores nothing.
async fn import_sgf(
    Query(q): Query<ImportQuery>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<Value>, HttpError> {
    let body = body.map_err(|e| {
        if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(MAX_BODY)
        } else {
            ApiError::BadRequest(e.body_text())
        }
    })?;
    let preset = match q.rules.as_deref() {
        None => None,
        Some(r) => Some(
            r.parse::<Preset>()
                .map_err(|e| ApiError::Rejected("bad_rules", e.to_string()))?,
        ),
    };
    Ok(tengen_app::records::read(&body, preset).map(Json)?)
}
