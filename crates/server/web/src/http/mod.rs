//! The HTTP JSON API: every route in one `Router` chain, the handlers beside it in a file per
//! resource (accounts, me, users, rooms, games, matches, reviews, records, estimate,
//! moderation, social, learn). A handler
//! extracts the request, calls one use case of `tengen-app` and writes its answer.

mod accounts;
mod estimate;
mod games;
mod learn;
mod matches;
mod me;
mod moderation;
mod records;
mod reviews;
mod rooms;
mod social;
mod tournaments;
mod users;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

use crate::error::{ApiError, HttpError};
use crate::state::AppState;

pub use crate::edges::MAX_BODY;

/// All routes.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/livez", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(crate::metrics::get))
        .route("/api/accounts/register", post(accounts::register))
        .route("/api/accounts/login", post(accounts::login))
        .route("/api/accounts/guest", post(accounts::guest))
        .route("/api/accounts/logout", post(accounts::logout))
        .route("/api/me", get(accounts::me).delete(me::delete_account))
        .route("/api/me/password", post(me::change_password))
        .route(
            "/api/me/sessions",
            get(me::sessions).delete(me::end_all_sessions),
        )
        .route(
            "/api/me/sessions/{id}",
            axum::routing::delete(me::end_session),
        )
        .route("/api/me/export", get(me::export))
        .route("/api/me/blocks", get(me::blocks).post(me::block))
        .route("/api/me/blocks/{name}", axum::routing::delete(me::unblock))
        .route(
            "/api/me/friends",
            get(social::friends).post(social::add_friend),
        )
        .route(
            "/api/me/friends/{name}",
            axum::routing::delete(social::remove_friend),
        )
        .route(
            "/api/messages",
            get(social::conversations).post(social::send),
        )
        .route("/api/messages/{name}", get(social::thread))
        .route("/api/session", get(accounts::session))
        .route("/api/me/turns", get(me::turns))
        .route(
            "/api/me/vacation",
            post(me::start_vacation).delete(me::end_vacation),
        )
        .route("/api/me/moderation", get(moderation::mine))
        .route("/api/reports", post(moderation::report))
        .route("/api/moderation/actions", post(moderation::act))
        .route("/api/moderation/games/{id}/annul", post(moderation::annul))
        .route(
            "/api/moderation/games/{id}/chat/{seq}/hide",
            post(moderation::hide_chat),
        )
        .route("/api/moderation/log", get(moderation::log))
        .route("/api/moderation/reports", get(moderation::reports))
        .route(
            "/api/moderation/reports/{id}/resolve",
            post(moderation::resolve),
        )
        .route("/api/users/{name}", get(users::user))
        .route("/api/users/{name}/games", get(users::user_games))
        .route("/api/users/{name}/ratings", get(users::ratings))
        .route("/api/users/{name}/record", get(users::record))
        .route(
            "/api/rooms",
            get(rooms::list_rooms).post(rooms::create_room),
        )
        .route(
            "/api/rooms/{id}",
            get(rooms::get_room).delete(rooms::cancel_room),
        )
        .route("/api/rooms/{id}/join", post(rooms::join_room))
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
        .route("/api/reviews/{id}/chat", post(reviews::chat))
        .route(
            "/api/tournaments",
            get(tournaments::list).post(tournaments::create),
        )
        .route("/api/tournaments/{id}", get(tournaments::get))
        .route(
            "/api/tournaments/{id}/register",
            post(tournaments::register),
        )
        .route(
            "/api/tournaments/{id}/withdraw",
            post(tournaments::withdraw),
        )
        .route("/api/tournaments/{id}/start", post(tournaments::start))
        .route("/api/tournaments/{id}/results", post(tournaments::correct))
        .route("/api/tournaments/{id}/h9", get(tournaments::h9))
        .route(
            "/api/tournaments/{id}/challenge",
            post(tournaments::challenge),
        )
        .route("/api/tournaments/{id}/finish", post(tournaments::finish))
        .route("/api/games", get(games::list_games))
        .route("/api/games/{id}", get(games::get_game))
        .route("/api/games/{id}/sgf", get(games::game_sgf))
        .route("/api/games/{id}/estimate", get(estimate::estimate))
        .route("/api/sgf/import", post(records::import_sgf))
        .route("/api/ws", get(crate::ws::upgrade))
        .route(
            "/api/openapi.json",
            get(|| async { Json(crate::openapi::document()) }),
        )
        .route(
            "/api/bots",
            get(|State(state): State<AppState>| async move {
                Json(state.services.bots.describe(&state.services.online))
            }),
        )
        .route("/api/bots/{name}/play", post(games::play_bot))
        .route("/api/learn/lessons", get(learn::list))
        .route("/api/learn/lessons/{id}", get(learn::lesson))
        .route(
            "/api/learn/lessons/{id}/steps/{step}/try",
            post(learn::try_step),
        )
        .route(
            "/api/me/learning",
            get(learn::learning).post(learn::merge_learning),
        )
        .route("/api/learn/puzzles", get(learn::puzzle_summary))
        .route("/api/learn/puzzles/next", get(learn::next_puzzle))
        .route("/api/learn/puzzles/daily", get(learn::daily_puzzle))
        .route("/api/learn/puzzles/{id}", get(learn::puzzle))
        .route("/api/learn/puzzles/{id}/try", post(learn::try_puzzle))
        .route("/api/learn/first-capture", post(learn::first_capture))
        .route("/api/games/{id}/hint", get(learn::hint))
        .route("/api/rules", get(learn::rules))
        .route(
            "/api/online",
            get(|State(state): State<AppState>| async move {
                Json(json!({ "users": state.services.online.list() }))
            }),
        )
        .fallback(crate::web::file)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::edges::body_deadline,
        ))
        .layer(axum::middleware::from_fn(json_errors))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            storage_health,
        ))
        .layer(axum::middleware::from_fn(crate::panics::catch_panics))
        .layer(axum::middleware::map_response(security_headers))
        .layer(axum::middleware::map_response(
            crate::metrics::count_responses,
        ))
        .with_state(state)
}

async fn healthz(State(state): State<AppState>) -> Result<&'static str, HttpError> {
    state.services.store.ping().await?;
    Ok("ok")
}

/// Ready to serve: the database answers, and takes writes (a load balancer sends this node
/// nothing while it does not, and `/livez` says whether the process itself is alive). While
/// writes fail (a full disk), each call tries a small write: the node is ready again, without
/// a restart, as soon as there is room.
async fn readyz(State(state): State<AppState>) -> Result<&'static str, HttpError> {
    match tokio::time::timeout(READY_WITHIN, state.services.store.ping()).await {
        Ok(Ok(())) => writes_ready(&state).await.map(|()| "ready"),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "not ready: the database does not answer");
            Err(not_ready())
        }
        Err(_) => {
            tracing::warn!("not ready: the database did not answer in time");
            Err(not_ready())
        }
    }
}

/// `/readyz`'s second half: while writes fail, whether a small one succeeds now.
async fn writes_ready(state: &AppState) -> Result<(), HttpError> {
    let health = state.services.store.health();
    let Some(reason) = health.failing() else {
        return Ok(());
    };
    match tokio::time::timeout(READY_WITHIN, state.services.store.probe_write()).await {
        Ok(Ok(())) => {
            health.succeeded();
            Ok(())
        }
        Ok(Err(e)) => {
            health.failed("readiness probe", &e);
            Err(HttpError(ApiError::Unavailable(
                "storage_unavailable",
                format!("writes fail: {e}"),
            )))
        }
        Err(_) => Err(HttpError(ApiError::Unavailable(
            "storage_unavailable",
            format!("writes fail: {reason}"),
        ))),
    }
}

/// Tells the store's health what each request's writes did: a failed write (`503
/// storage_unavailable`) is recorded, and logged a line an interval with its repeats rather
/// than a line a request; a write answered with success means writes succeed again.
async fn storage_health(
    State(state): State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    use axum::http::Method;
    let writes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let r = next.run(req).await;
    if let Some(crate::error::StorageFailed(detail)) = r.extensions().get() {
        state.services.store.health().failed("request", detail);
    } else if writes && r.status().is_success() {
        state.services.store.health().succeeded();
    }
    r
}

/// How long the readiness check waits for the database.
const READY_WITHIN: std::time::Duration = std::time::Duration::from_secs(2);

fn not_ready() -> HttpError {
    HttpError(ApiError::Unavailable(
        "database_unavailable",
        "the database does not answer".into(),
    ))
}

fn json_body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
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
