//! What an attacker tries first: guessing passwords, names that pass for others, professional
//! ranks, oversized bodies, framing the page, and a copy of the sessions table.

#![allow(clippy::unwrap_used)]

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use serde_json::json;
use sqlx::Row;
use tengen_server::{accounts, app, AppState};
use tengen_store::Store;
use tower::ServiceExt;

mod common;
use common::http as call;

async fn server(tag: &str) -> (axum::Router, Store) {
    let store = Store::open(&common::sqlite_url(tag)).await.unwrap();
    let state = AppState::new(store.clone(), std::time::Duration::from_secs(30))
        .await
        .unwrap();
    (app(state), store)
}

/// A login from `peer`, as the server sees a socket's peer address.
async fn login_from(
    app: &axum::Router,
    peer: &str,
    name: &str,
    password: &str,
) -> axum::response::Response {
    let mut req = Request::builder()
        .method("POST")
        .uri("/api/accounts/login")
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"username": name, "password": password}).to_string(),
        ))
        .unwrap();
    let addr: SocketAddr = format!("{peer}:40000").parse().unwrap();
    req.extensions_mut().insert(ConnectInfo(addr));
    app.clone().oneshot(req).await.unwrap()
}

async fn code(r: axum::response::Response) -> (StatusCode, String) {
    use http_body_util::BodyExt;
    let status = r.status();
    let bytes = r.into_body().collect().await.unwrap().to_bytes();
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    (
        status,
        v["error"]["code"].as_str().unwrap_or("").to_string(),
    )
}

#[tokio::test]
async fn guessing_a_password_is_slowed_then_refused_before_any_hash() {
    let (app, _) = server("guessing").await;
    let (s, _, _) = call(
        &app,
        "POST",
        "/api/accounts/register",
        Some(json!({"username": "ann", "password": "secret1", "rank": "3k"})),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    // Three free failures from one address, then each further attempt waits.
    for _ in 0..4 {
        let r = login_from(&app, "10.0.0.7", "ann", "wrong-password").await;
        assert_eq!(
            code(r).await,
            (StatusCode::UNAUTHORIZED, "bad_credentials".into())
        );
    }
    let r = login_from(&app, "10.0.0.7", "ann", "secret1").await;
    assert!(
        r.headers().get("retry-after").is_some(),
        "{:?}",
        r.headers()
    );
    assert_eq!(
        code(r).await,
        (StatusCode::TOO_MANY_REQUESTS, "too_many_attempts".into())
    );
    // The account is held too, from any address and in any case.
    let r = login_from(&app, "10.0.0.8", "ANN", "secret1").await;
    assert_eq!(code(r).await.0, StatusCode::TOO_MANY_REQUESTS);
    // Another account from another address is not affected.
    let (s, _, _) = call(
        &app,
        "POST",
        "/api/accounts/register",
        Some(json!({"username": "bob", "password": "secret2", "rank": "3k"})),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    let r = login_from(&app, "10.0.0.9", "bob", "secret2").await;
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn guests_are_limited_per_address() {
    let (app, _) = server("guests").await;
    let guest = |peer: &'static str| {
        let app = app.clone();
        async move {
            let mut req = Request::builder()
                .method("POST")
                .uri("/api/accounts/guest")
                .body(Body::empty())
                .unwrap();
            let addr: SocketAddr = format!("{peer}:1").parse().unwrap();
            req.extensions_mut().insert(ConnectInfo(addr));
            app.oneshot(req).await.unwrap().status()
        }
    };
    for _ in 0..tengen_server::throttle::CREATE_PER_WINDOW {
        assert_eq!(guest("10.1.0.1").await, StatusCode::CREATED);
    }
    assert_eq!(guest("10.1.0.1").await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(guest("10.1.0.2").await, StatusCode::CREATED);
}

#[tokio::test]
async fn names_rules_and_ranks() {
    let (app, store) = server("names").await;
    let register = |name: &str, rank: &str| {
        let app = app.clone();
        let body = json!({"username": name, "password": "secret1", "rank": rank});
        async move { call(&app, "POST", "/api/accounts/register", Some(body), None).await }
    };
    assert_eq!(register("alice", "2k").await.0, StatusCode::CREATED);
    // One name in any case.
    let (s, _, err) = register("ALICE", "2k").await;
    assert_eq!(
        (s, err["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("username_taken"))
    );
    // A refusal says the rule.
    let (_, _, err) = register("al", "2k").await;
    let message = err["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("3 to 20") && message.contains("letter"),
        "{message}"
    );
    // Professional ranks come from the operator only.
    let (s, _, err) = register("pro", "9p").await;
    assert_eq!(err["error"]["code"], "invalid_rank");
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(err["error"]["message"]
        .as_str()
        .unwrap()
        .contains("operator"));
    let (s, _, _) = call(&app, "GET", "/api/users/pro", None, None).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let u = accounts::set_rank(&store, "alice", "1p").await.unwrap();
    assert_eq!(u.rank, "1d [P]");
    assert!(matches!(
        accounts::set_rank(&store, "nobody", "1p").await,
        Err(tengen_server::error::ApiError::NotFound)
    ));
}

#[tokio::test]
async fn session_tokens_are_stored_as_digests() {
    let (app, store) = server("digests").await;
    let (_, _, body) = call(&app, "POST", "/api/accounts/guest", None, None).await;
    let token = body["token"].as_str().unwrap().to_string();
    let rows = sqlx::query("SELECT token FROM sessions")
        .fetch_all(store.pool())
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    let stored: String = rows[0].try_get("token").unwrap();
    assert_ne!(stored, token);
    assert_eq!(stored.len(), 64, "a SHA-256 digest in hex");
    // The token still opens the session; the stored digest does not.
    let (s, _, _) = call(&app, "GET", "/api/me", None, Some(&token)).await;
    assert_eq!(s, StatusCode::OK);
    let (s, _, _) = call(&app, "GET", "/api/me", None, Some(&stored)).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    // Logout ends it.
    call(&app, "POST", "/api/accounts/logout", None, Some(&token)).await;
    let (s, _, _) = call(&app, "GET", "/api/me", None, Some(&token)).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn oversized_bodies_get_413_and_every_response_has_security_headers() {
    let (app, _) = server("headers").await;
    let big = "x".repeat(200 * 1024);
    let (s, _, err) = call(
        &app,
        "POST",
        "/api/accounts/register",
        Some(json!({"username": big, "password": "secret1", "rank": "3k"})),
        None,
    )
    .await;
    assert_eq!(
        (s, err["error"]["code"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("payload_too_large"))
    );
    let req = Request::builder()
        .method("POST")
        .uri("/api/sgf/import")
        .body(Body::from(big.clone()))
        .unwrap();
    let r = app.clone().oneshot(req).await.unwrap();
    assert_eq!(
        code(r).await,
        (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large".into())
    );
    for path in ["/", "/api/openapi.json", "/api/nothing-here"] {
        let req = Request::builder().uri(path).body(Body::empty()).unwrap();
        let r = app.clone().oneshot(req).await.unwrap();
        let h = r.headers();
        let csp = h.get("content-security-policy").unwrap().to_str().unwrap();
        assert!(
            csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"),
            "{path}: {csp}"
        );
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(h.get("x-content-type-options").unwrap(), "nosniff");
        assert!(h.get("referrer-policy").is_some(), "{path}");
    }
}

#[tokio::test]
async fn a_slow_or_silent_connection_is_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let store = Store::open(&common::sqlite_url("slow")).await.unwrap();
    let state = AppState::new(store, std::time::Duration::from_secs(30))
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = tengen_server::listener::Limits {
        header: std::time::Duration::from_millis(300),
        idle: std::time::Duration::from_millis(600),
    };
    tokio::spawn(tengen_server::run_with(
        listener,
        state,
        std::future::pending(),
        limits,
    ));
    let closed_within = |mut s: tokio::net::TcpStream, limit: u64| async move {
        let mut buf = [0u8; 256];
        let r = tokio::time::timeout(std::time::Duration::from_millis(limit), async {
            loop {
                match s.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
            }
        })
        .await;
        r.is_ok()
    };
    // Half a request line, then nothing: closed at the header deadline.
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /healthz HT").await.unwrap();
    assert!(closed_within(s, 5_000).await, "the slow header was cut off");
    // A byte every 100 ms never finishes the header either.
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let start = std::time::Instant::now();
    let mut refused = false;
    for b in b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaa" {
        if s.write_all(&[*b]).await.is_err() {
            refused = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        refused || closed_within(s, 5_000).await,
        "a trickled header was cut off"
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
    // A whole request is answered, and the idle keep-alive connection is then closed.
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 512];
    let n = s.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    assert!(
        closed_within(s, 5_000).await,
        "the idle connection was closed"
    );
}

#[tokio::test]
async fn refusals_axum_answers_itself_come_in_the_json_error_format() {
    let (app, _) = server("json-errors").await;
    for (method, path, status, want) in [
        (
            "GET",
            "/api/games/not-a-number",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "GET",
            "/api/games?status=a&status=b",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "DELETE",
            "/api/me",
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
        ),
        ("GET", "/api/ws", StatusCode::BAD_REQUEST, "bad_request"),
    ] {
        let req = Request::builder()
            .method(method)
            .uri(path)
            .body(Body::empty())
            .unwrap();
        let r = app.clone().oneshot(req).await.unwrap();
        assert_eq!(
            r.headers().get("content-type").unwrap(),
            "application/json",
            "{method} {path}"
        );
        assert_eq!(code(r).await, (status, want.to_string()), "{method} {path}");
    }
}
