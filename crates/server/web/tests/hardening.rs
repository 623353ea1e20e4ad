//! What an attacker tries first: guessing passwords, names that pass for others, professional
//! ranks, oversized bodies, framing the page, and a copy of the sessions table.

#![allow(clippy::unwrap_used)]

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use serde_json::json;
use sqlx::Row;
use tengen_app::accounts;

mod common;
use common::TestServer;

/// A request from `peer`, as the server sees a socket's peer address.
fn from_peer(mut req: Request<Body>, peer: &str, port: u16) -> Request<Body> {
    let addr: SocketAddr = format!("{peer}:{port}").parse().unwrap();
    req.extensions_mut().insert(ConnectInfo(addr));
    req
}

/// A login from `peer`.
async fn login_from(
    server: &TestServer,
    peer: &str,
    name: &str,
    password: &str,
) -> axum::response::Response {
    let req = Request::builder()
        .method("POST")
        .uri("/api/accounts/login")
        .header("content-type", "application/json")
        .body(Body::from(
            json!({"username": name, "password": password}).to_string(),
        ))
        .unwrap();
    server.oneshot(from_peer(req, peer, 40000)).await
}

/// The status of `r` and the code of its JSON error (empty when there is none).
async fn code(r: axum::response::Response) -> (StatusCode, String) {
    let status = r.status();
    let v = common::body_json(r).await;
    (
        status,
        v["error"]["code"].as_str().unwrap_or("").to_string(),
    )
}

#[tokio::test]
async fn guessing_a_password_is_slowed_then_refused_before_any_hash() {
    let server = TestServer::sqlite("guessing").await;
    server.register("ann", "3k").await;
    // Three free failures from one address, then each further attempt waits.
    for _ in 0..4 {
        let r = login_from(&server, "10.0.0.7", "ann", "wrong-password").await;
        assert_eq!(
            code(r).await,
            (StatusCode::UNAUTHORIZED, "bad_credentials".into())
        );
    }
    let r = login_from(&server, "10.0.0.7", "ann", common::PASSWORD).await;
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
    let r = login_from(&server, "10.0.0.8", "ANN", common::PASSWORD).await;
    assert_eq!(code(r).await.0, StatusCode::TOO_MANY_REQUESTS);
    // Another account from another address is not affected.
    server.register("bob", "3k").await;
    let r = login_from(&server, "10.0.0.9", "bob", common::PASSWORD).await;
    assert_eq!(r.status(), StatusCode::OK);
}

#[tokio::test]
async fn guests_are_limited_per_address() {
    let server = TestServer::sqlite("guests").await;
    let guest = |peer: &'static str| {
        let req = Request::builder()
            .method("POST")
            .uri("/api/accounts/guest")
            .body(Body::empty())
            .unwrap();
        let server = &server;
        async move { server.oneshot(from_peer(req, peer, 1)).await.status() }
    };
    for _ in 0..tengen_server::throttle::CREATE_PER_WINDOW {
        assert_eq!(guest("10.1.0.1").await, StatusCode::CREATED);
    }
    assert_eq!(guest("10.1.0.1").await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(guest("10.1.0.2").await, StatusCode::CREATED);
}

#[tokio::test]
async fn names_rules_and_ranks() {
    let server = TestServer::sqlite("names").await;
    let register = |name: &str, rank: &str| {
        let body = json!({"username": name, "password": common::PASSWORD, "rank": rank});
        server.post("/api/accounts/register", body)
    };
    assert_eq!(register("alice", "2k").await.0, StatusCode::CREATED);
    // One name in any case.
    let (s, err) = register("ALICE", "2k").await;
    assert_eq!(
        (s, err["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("username_taken"))
    );
    // A refusal says the rule.
    let (_, err) = register("al", "2k").await;
    let message = err["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("3 to 20") && message.contains("letter"),
        "{message}"
    );
    // Professional ranks come from the operator only.
    let (s, err) = register("pro", "9p").await;
    assert_eq!(err["error"]["code"], "invalid_rank");
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(err["error"]["message"]
        .as_str()
        .unwrap()
        .contains("operator"));
    let (s, _) = server.get("/api/users/pro").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let u = accounts::set_rank(server.store(), "alice", "1p")
        .await
        .unwrap();
    assert_eq!(u.rank.to_string(), "1d [P]");
    assert!(matches!(
        accounts::set_rank(server.store(), "nobody", "1p").await,
        Err(tengen_server::error::ApiError::NotFound)
    ));
}

#[tokio::test]
async fn session_tokens_are_stored_as_digests() {
    let server = TestServer::sqlite("digests").await;
    let guest = server.guest().await;
    let token = guest.token.clone();
    let rows = sqlx::query("SELECT token FROM sessions")
        .fetch_all(server.store().pool())
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    let stored: String = rows[0].try_get("token").unwrap();
    assert_ne!(stored, token);
    assert_eq!(stored.len(), 64, "a SHA-256 digest in hex");
    // The token still opens the session; the stored digest does not.
    let (s, _) = guest.get("/api/me").await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = server.client(&stored).get("/api/me").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    // Logout ends it.
    guest.post_empty("/api/accounts/logout").await;
    let (s, _) = guest.get("/api/me").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn oversized_bodies_get_413_and_every_response_has_security_headers() {
    let server = TestServer::sqlite("headers").await;
    let big = "x".repeat(200 * 1024);
    let (s, err) = server
        .post(
            "/api/accounts/register",
            json!({"username": big, "password": common::PASSWORD, "rank": "3k"}),
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
    let r = server.oneshot(req).await;
    assert_eq!(
        code(r).await,
        (StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large".into())
    );
    for path in ["/", "/api/openapi.json", "/api/nothing-here"] {
        let req = Request::builder().uri(path).body(Body::empty()).unwrap();
        let r = server.oneshot(req).await;
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
    let state = common::server::app_state(
        &common::sqlite_url("slow"),
        common::server::GRACE,
        Vec::new(),
    )
    .await;
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
    let server = TestServer::sqlite("json-errors").await;
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
            "PUT",
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
        let r = server.oneshot(req).await;
        assert_eq!(
            r.headers().get("content-type").unwrap(),
            "application/json",
            "{method} {path}"
        );
        assert_eq!(code(r).await, (status, want.to_string()), "{method} {path}");
    }
}
