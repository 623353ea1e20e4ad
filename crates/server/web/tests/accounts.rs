//! Accounts over HTTP, against SQLite and (ignored unless PostgreSQL runs on 127.0.0.1:5432)
//! PostgreSQL.

#![allow(clippy::unwrap_used)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;

mod common;
use common::{http, TestServer, PASSWORD};

async fn account_flows(server: TestServer) {
    let (s, body) = server.get("/healthz").await;
    assert_eq!((s, body), (StatusCode::OK, json!("ok")));

    // The cookie too: by hand.
    let (s, cookie, body) = http(
        &server.app,
        "POST",
        "/api/accounts/register",
        Some(json!({"username": "ann", "password": PASSWORD, "rank": "3k"})),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{body}");
    assert_eq!(body["user"]["rank"], "3k");
    assert_eq!(body["user"]["points"], 50);
    let cookie = cookie.unwrap();
    assert!(cookie.starts_with("tengen_session=") && cookie.contains("HttpOnly"));
    let ann = server.signed_in(&body);

    let (s, me) = ann.get("/api/me").await;
    assert_eq!((s, me["username"].as_str()), (StatusCode::OK, Some("ann")));

    // Every error has a stable code and changes nothing.
    let cases = [
        (
            json!({"username": "ann", "password": PASSWORD, "rank": "3k"}),
            StatusCode::CONFLICT,
            "username_taken",
        ),
        (
            json!({"username": "b", "password": PASSWORD, "rank": "3k"}),
            StatusCode::BAD_REQUEST,
            "invalid_username",
        ),
        (
            json!({"username": "guest-1", "password": PASSWORD, "rank": "3k"}),
            StatusCode::BAD_REQUEST,
            "invalid_username",
        ),
        (
            json!({"username": "bob", "password": "short", "rank": "3k"}),
            StatusCode::BAD_REQUEST,
            "weak_password",
        ),
        (
            json!({"username": "bob", "password": PASSWORD, "rank": "40k"}),
            StatusCode::BAD_REQUEST,
            "invalid_rank",
        ),
        (
            json!({"username": "bob"}),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
    ];
    for (body, status, code) in cases {
        let (s, err) = server.post("/api/accounts/register", body).await;
        assert_eq!(
            (s, err["error"]["code"].as_str()),
            (status, Some(code)),
            "{err}"
        );
    }
    let (s, _) = server.get("/api/users/bob").await;
    assert_eq!(
        s,
        StatusCode::NOT_FOUND,
        "refused registrations created nothing"
    );

    let (s, err) = server
        .post(
            "/api/accounts/login",
            json!({"username": "ann", "password": "wrong!"}),
        )
        .await;
    assert_eq!(
        (s, err["error"]["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad_credentials"))
    );
    let (s, ok) = server
        .post(
            "/api/accounts/login",
            json!({"username": "ann", "password": PASSWORD}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let second = server.signed_in(&ok);

    let (s, _) = ann.post_empty("/api/accounts/logout").await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, err) = ann.get("/api/me").await;
    assert_eq!(
        (s, err["error"]["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("unauthorized"))
    );
    let (s, _) = second.get("/api/me").await;
    assert_eq!(s, StatusCode::OK, "other sessions survive a logout");

    let (s, g) = server.send("POST", "/api/accounts/guest", None).await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(
        (g["user"]["rank"].as_str(), g["user"]["guest"].as_bool()),
        (Some("18k"), Some(true))
    );
    assert!(g["user"]["username"]
        .as_str()
        .unwrap()
        .starts_with("guest-"));
}

#[tokio::test]
async fn accounts_on_sqlite() {
    account_flows(TestServer::sqlite("accounts").await).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL on 127.0.0.1:5432 (database test); run by .ci/run"]
async fn accounts_on_postgres() {
    if let Some(url) = common::postgres_url().await {
        account_flows(TestServer::start(&url).await).await;
    }
}

#[tokio::test]
async fn a_restarted_store_keeps_its_accounts() {
    let url = common::sqlite_url("accounts-restart");
    let token = {
        let server = TestServer::start(&url).await;
        server.register("cyd", "1d").await.token
    };
    let server = TestServer::start(&url).await;
    let (s, me) = server.client(&token).get("/api/me").await;
    assert_eq!((s, me["rank"].as_str()), (StatusCode::OK, Some("1d")));
}

#[tokio::test]
async fn the_session_cookie_is_secure_behind_https() {
    let server = TestServer::sqlite("accounts-cookie").await;
    let req = Request::builder()
        .method("POST")
        .uri("/api/accounts/guest")
        .header("x-forwarded-proto", "https")
        .body(Body::empty())
        .unwrap();
    let resp = server.oneshot(req).await;
    let cookie = resp
        .headers()
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        cookie.contains("; Secure")
            && cookie.contains("HttpOnly")
            && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let (_, plain, _) = http(&server.app, "POST", "/api/accounts/guest", None, None).await;
    assert!(
        !plain.unwrap().contains("Secure"),
        "plain local HTTP keeps working"
    );
}
