//! Trust at the edges (issue 38): what an outside probe of the running server found, each
//! refused now: a WebSocket from another site's page, a body sent a byte at a time, thousands of
//! sockets from one address, guessable passwords, names that look like others, and a failed
//! login that logged the name as typed.

#![allow(clippy::unwrap_used)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Value};
use tengen_server::edges::Edges;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Error as WsError;

mod common;
use common::{Client, TestServer, PASSWORD};

/// A server over SQLite whose edges are `edges`.
async fn server_with(tag: &str, edges: Edges) -> TestServer {
    let mut state =
        common::server::app_state(&common::sqlite_url(tag), common::server::GRACE, Vec::new())
            .await;
    state.edges = Arc::new(edges);
    TestServer::serve(state).await
}

/// The WebSocket handshake as `who`, with `origin` if given: the socket when it opened, else
/// the refusal's status and code.
async fn ws_as(
    server: &TestServer,
    who: &Client,
    origin: Option<&str>,
) -> Result<common::server::Ws, (StatusCode, String)> {
    let mut req = format!("ws://{}/api/ws", server.addr)
        .into_client_request()
        .unwrap();
    let h = req.headers_mut();
    h.insert(
        "authorization",
        format!("Bearer {}", who.token).parse().unwrap(),
    );
    if let Some(o) = origin {
        h.insert("origin", o.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => Ok(ws),
        Err(WsError::Http(r)) => {
            let body: Value = serde_json::from_slice(r.body().as_deref().unwrap_or(b"{}")).unwrap();
            let code = body["error"]["code"].as_str().unwrap_or("").to_string();
            Err((StatusCode::from_u16(r.status().as_u16()).unwrap(), code))
        }
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn a_websocket_from_another_sites_page_is_refused() {
    let edges = Edges::new(
        vec!["https://go.example.org".into()],
        20,
        Duration::from_secs(20),
    );
    let server = server_with("trust-origin", edges).await;
    let ann = server.register("ann", "3k").await;
    let own = format!("http://{}", server.addr);
    // Bots and scripts send no Origin; the server's own pages and allowed sites pass.
    for origin in [None, Some(own.as_str()), Some("https://go.example.org")] {
        assert!(ws_as(&server, &ann, origin).await.is_ok(), "{origin:?}");
    }
    for origin in ["https://evil.example", "null", "http://127.0.0.1:1"] {
        assert_eq!(
            ws_as(&server, &ann, Some(origin)).await.err(),
            Some((StatusCode::FORBIDDEN, "bad_origin".into())),
            "{origin}"
        );
    }
}

#[tokio::test]
async fn one_address_holds_a_bounded_number_of_websockets() {
    let server = TestServer::sqlite("trust-sockets").await;
    let (ann, bob) = (
        server.register("ann", "3k").await,
        server.register("bob", "3k").await,
    );
    // Under two accounts, so that the per-account cap is not what refuses; held open, as tabs.
    let mut open = Vec::new();
    for i in 0..tengen_server::edges::SOCKETS_PER_ADDRESS {
        let who = if i % 2 == 0 { &ann } else { &bob };
        open.push(ws_as(&server, who, None).await.expect("under the cap"));
    }
    assert_eq!(
        ws_as(&server, &bob, None).await.err(),
        Some((
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_connections_from_address".into()
        ))
    );
}

/// What the server answers to a request whose header is whole but whose body stops after
/// `sent` of `length` bytes: everything it writes until it closes the connection.
async fn answer_to_a_stalled_body(server: &TestServer, sent: &str, length: usize) -> String {
    let mut tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /api/accounts/login HTTP/1.1\r\nHost: {}\r\ncontent-type: application/json\r\n\
         content-length: {length}\r\n\r\n{sent}",
        server.addr
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    // The server closes it; a bound so that a server that does not fails the test.
    tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut out))
        .await
        .expect("the connection was closed")
        .unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test]
async fn a_body_that_does_not_arrive_in_time_is_answered_408_and_closed() {
    let edges = Edges::new(Vec::new(), 20, Duration::from_millis(300));
    let server = server_with("trust-body", edges).await;
    let answer = answer_to_a_stalled_body(&server, "{\"user", 200).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("body_timeout"), "{answer}");
    // A body that arrives whole is read as ever.
    let (status, v) = server
        .post(
            "/api/accounts/login",
            json!({"username": "nobody", "password": "x"}),
        )
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad_credentials"))
    );
}

#[tokio::test]
async fn guessable_passwords_are_refused_at_registration_and_change() {
    let server = TestServer::sqlite("trust-passwords").await;
    for weak in ["123456", "      ", "password", "qwerty123", "annann1"] {
        let body = json!({"username": "ann", "password": weak, "rank": "3k"});
        let (status, v) = server.post("/api/accounts/register", body).await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("weak_password")),
            "{weak:?}"
        );
    }
    let ann = server.register("ann", "3k").await;
    let change = json!({"current": PASSWORD, "new": "qwerty123"});
    let (status, v) = ann.post("/api/me/password", change).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("weak_password"))
    );
}

/// Names beside `alice` and `bob` on the database at `url`: lookalikes refused, others not.
async fn confusables_on(url: &str) {
    let server = TestServer::start(url).await;
    server.register("alice", "3k").await;
    server.register("bob", "3k").await;
    for name in ["aIice", "a1ice", "AIice", "b0b", "BO8"] {
        let body = json!({"username": name, "password": PASSWORD, "rank": "3k"});
        let (status, v) = server.post("/api/accounts/register", body).await;
        let expected = if name == "BO8" {
            (StatusCode::CREATED, None)
        } else {
            (StatusCode::CONFLICT, Some("confusable_name"))
        };
        assert_eq!((status, v["error"]["code"].as_str()), expected, "{name}");
    }
    // Bidirectional controls, and any letter beyond ASCII, are no part of a name.
    for name in ["\u{202e}alice", "ali\u{2066}ce", "\u{430}lice"] {
        let body = json!({"username": name, "password": PASSWORD, "rank": "3k"});
        let (status, v) = server.post("/api/accounts/register", body).await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("invalid_username")),
            "{name:?}"
        );
    }
}

#[tokio::test]
async fn names_that_look_like_an_account_are_refused_sqlite() {
    confusables_on(&common::sqlite_url("trust-confusables")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL on 127.0.0.1:5432 (database test); run by .ci/run"]
async fn names_that_look_like_an_account_are_refused_postgres() {
    if let Some(url) = common::postgres_url().await {
        confusables_on(&url).await;
    }
}

/// The log lines written while the test runs, as text.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Log {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn a_failed_login_logs_no_typed_name_and_the_address_as_an_address() {
    let server = TestServer::sqlite("trust-log").await;
    let log = Log::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    // This test's thread only: the requests run on it (the router is called in process).
    let _guard = tracing::subscriber::set_default(subscriber);
    let typed = "hunter2-pasted-here";
    let mut req = axum::http::Request::builder()
        .method("POST")
        .uri("/api/accounts/login")
        .header("content-type", "application/json")
        .body(axum::body::Body::from(
            json!({"username": typed, "password": "x"}).to_string(),
        ))
        .unwrap();
    let peer: std::net::SocketAddr = "127.0.0.1:40000".parse().unwrap();
    req.extensions_mut()
        .insert(axum::extract::ConnectInfo(peer));
    assert_eq!(server.oneshot(req).await.status(), StatusCode::UNAUTHORIZED);
    let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("failed login"), "{text}");
    assert!(!text.contains("hunter2"), "{text}");
    assert!(text.contains("client=127.0.0.1"), "{text}");
    assert!(!text.contains("Some("), "{text}");
}

#[tokio::test]
async fn a_second_requests_header_sent_slowly_is_cut_off_too() {
    let state = common::server::app_state(
        &common::sqlite_url("trust-header"),
        common::server::GRACE,
        Vec::new(),
    )
    .await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = tengen_server::listener::Limits {
        header: Duration::from_millis(300),
        idle: Duration::from_secs(120),
    };
    tokio::spawn(tengen_server::run_with(
        listener,
        state,
        std::future::pending(),
        limits,
    ));
    let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
    // A first request, answered; the connection is kept alive.
    tcp.write_all(b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut got = Vec::new();
    while !got.ends_with(b"\r\n\r\nok") {
        let mut b = [0u8; 512];
        let n = tcp.read(&mut b).await.unwrap();
        assert!(n > 0, "{}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&b[..n]);
    }
    // The second's header never ends: the connection closes at the header deadline, not after
    // the two idle minutes that a byte every few seconds would renew.
    tcp.write_all(b"GET /livez HTTP/1.1\r\nHo").await.unwrap();
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut rest)).await;
    assert!(closed.is_ok(), "the connection stayed open");
}

/// The migration to names' keys on the database at `url`, made by a server from before it
/// with two lookalike names already registered: both keep their accounts, and a third
/// lookalike is refused.
async fn migration_on(url: &str) {
    let store = tengen_store::Store::open(url).await.unwrap();
    for sql in [
        // The database as it was before the step (the steps after it undone too: the learners,
        // their puzzle attempts and index, the puzzles' ratings, the games' stored ranks).
        "ALTER TABLE games DROP COLUMN white_rank",
        "ALTER TABLE games DROP COLUMN black_rank",
        "DROP TABLE puzzle_ratings",
        "DROP INDEX puzzle_attempts_user",
        "DROP TABLE puzzle_attempts",
        "DROP TABLE learners",
        "DROP INDEX users_name_key",
        "ALTER TABLE users DROP COLUMN name_key",
        "DELETE FROM schema_version WHERE version >= (SELECT MAX(version) - 6 FROM schema_version)",
        "INSERT INTO users (username, rank, points, guest, created_at) VALUES ('alice', '3k', 0, 0, 0)",
        "INSERT INTO users (username, rank, points, guest, created_at) VALUES ('aIice', '3k', 0, 0, 0)",
    ] {
        store.execute(sql).await.unwrap();
    }
    drop(store);
    let server = TestServer::start(url).await;
    for name in ["alice", "aIice"] {
        assert_eq!(
            server.get(&format!("/api/users/{name}")).await.0,
            StatusCode::OK
        );
    }
    let body = json!({"username": "a1ice", "password": PASSWORD, "rank": "3k"});
    let (status, v) = server.post("/api/accounts/register", body).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("confusable_name"))
    );
    server.register("carol", "3k").await;
}

#[tokio::test]
async fn the_migration_keys_the_names_already_there_sqlite() {
    migration_on(&common::sqlite_url("trust-migration")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL on 127.0.0.1:5432 (database test); run by .ci/run"]
async fn the_migration_keys_the_names_already_there_postgres() {
    if let Some(url) = common::postgres_url().await {
        migration_on(&url).await;
    }
}
