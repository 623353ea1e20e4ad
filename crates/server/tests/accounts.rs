//! Accounts over HTTP, against SQLite and (ignored unless PostgreSQL runs on 127.0.0.1:5432)
//! PostgreSQL.

#![allow(clippy::unwrap_used)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;
use tengen_server::{app, AppState};
use tengen_store::Store;
use tower::ServiceExt;

mod common;
use common::http as call;

async fn sqlite() -> Store {
    let tag = format!("accounts-{:?}", std::thread::current().id());
    Store::open(&common::sqlite_url(&tag)).await.unwrap()
}

async fn postgres() -> Option<Store> {
    let url = std::env::var("TENGEN_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
    // A schema of its own per run, so runs do not see each other's rows.
    let schema = format!("t{}_{}", std::process::id(), rand_suffix());
    let admin = match Store::open_raw(&url).await {
        Ok(a) => a,
        Err(e) => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("PostgreSQL is required in CI: {e}");
            }
            eprintln!("skipping: no PostgreSQL at {url}: {e}");
            return None;
        }
    };
    admin
        .execute(&format!("CREATE SCHEMA {schema}"))
        .await
        .unwrap();
    let sep = if url.contains('?') { '&' } else { '?' };
    Some(
        Store::open(&format!("{url}{sep}options=-csearch_path%3D{schema}"))
            .await
            .unwrap(),
    )
}

fn rand_suffix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64
}

async fn account_flows(store: Store) {
    let app = app(AppState::new(store, std::time::Duration::from_secs(30))
        .await
        .unwrap());
    let (s, _, body) = call(&app, "GET", "/healthz", None, None).await;
    assert_eq!((s, body), (StatusCode::OK, json!("ok")));

    let (s, cookie, body) = call(
        &app,
        "POST",
        "/api/accounts/register",
        Some(json!({"username": "ann", "password": "secret1", "rank": "3k"})),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{body}");
    assert_eq!(body["user"]["rank"], "3k");
    assert_eq!(body["user"]["points"], 50);
    let cookie = cookie.unwrap();
    assert!(cookie.starts_with("tengen_session=") && cookie.contains("HttpOnly"));
    let token = body["token"].as_str().unwrap().to_string();

    let (s, _, me) = call(&app, "GET", "/api/me", None, Some(&token)).await;
    assert_eq!((s, me["username"].as_str()), (StatusCode::OK, Some("ann")));

    // Every error has a stable code and changes nothing.
    let cases = [
        (
            json!({"username": "ann", "password": "secret1", "rank": "3k"}),
            StatusCode::CONFLICT,
            "username_taken",
        ),
        (
            json!({"username": "b", "password": "secret1", "rank": "3k"}),
            StatusCode::BAD_REQUEST,
            "invalid_username",
        ),
        (
            json!({"username": "guest-1", "password": "secret1", "rank": "3k"}),
            StatusCode::BAD_REQUEST,
            "invalid_username",
        ),
        (
            json!({"username": "bob", "password": "short", "rank": "3k"}),
            StatusCode::BAD_REQUEST,
            "weak_password",
        ),
        (
            json!({"username": "bob", "password": "secret1", "rank": "40k"}),
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
        let (s, _, err) = call(&app, "POST", "/api/accounts/register", Some(body), None).await;
        assert_eq!(
            (s, err["error"]["code"].as_str()),
            (status, Some(code)),
            "{err}"
        );
    }
    let (s, _, _) = call(&app, "GET", "/api/users/bob", None, None).await;
    assert_eq!(
        s,
        StatusCode::NOT_FOUND,
        "refused registrations created nothing"
    );

    let (s, _, err) = call(
        &app,
        "POST",
        "/api/accounts/login",
        Some(json!({"username": "ann", "password": "wrong!"})),
        None,
    )
    .await;
    assert_eq!(
        (s, err["error"]["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad_credentials"))
    );
    let (s, _, ok) = call(
        &app,
        "POST",
        "/api/accounts/login",
        Some(json!({"username": "ann", "password": "secret1"})),
        None,
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let second = ok["token"].as_str().unwrap().to_string();

    let (s, _, _) = call(&app, "POST", "/api/accounts/logout", None, Some(&token)).await;
    assert_eq!(s, StatusCode::NO_CONTENT);
    let (s, _, err) = call(&app, "GET", "/api/me", None, Some(&token)).await;
    assert_eq!(
        (s, err["error"]["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("unauthorized"))
    );
    let (s, _, _) = call(&app, "GET", "/api/me", None, Some(&second)).await;
    assert_eq!(s, StatusCode::OK, "other sessions survive a logout");

    let (s, _, g) = call(&app, "POST", "/api/accounts/guest", None, None).await;
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
    account_flows(sqlite().await).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL on 127.0.0.1:5432 (database test); run by .ci/run"]
async fn accounts_on_postgres() {
    if let Some(store) = postgres().await {
        account_flows(store).await;
    }
}

#[tokio::test]
async fn a_restarted_store_keeps_its_accounts() {
    let url = common::sqlite_url("accounts-restart");
    let token = {
        let app = app(AppState::new(
            Store::open(&url).await.unwrap(),
            std::time::Duration::from_secs(30),
        )
        .await
        .unwrap());
        let (_, _, body) = call(
            &app,
            "POST",
            "/api/accounts/register",
            Some(json!({"username": "cyd", "password": "secret1", "rank": "1d"})),
            None,
        )
        .await;
        body["token"].as_str().unwrap().to_string()
    };
    let app = app(AppState::new(
        Store::open(&url).await.unwrap(),
        std::time::Duration::from_secs(30),
    )
    .await
    .unwrap());
    let (s, _, me) = call(&app, "GET", "/api/me", None, Some(&token)).await;
    assert_eq!((s, me["rank"].as_str()), (StatusCode::OK, Some("1d")));
}

#[tokio::test]
async fn the_session_cookie_is_secure_behind_https() {
    let app = app(
        AppState::new(sqlite().await, std::time::Duration::from_secs(30))
            .await
            .unwrap(),
    );
    let req = Request::builder()
        .method("POST")
        .uri("/api/accounts/guest")
        .header("x-forwarded-proto", "https")
        .body(Body::empty())
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
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
    let (_, plain, _) = call(&app, "POST", "/api/accounts/guest", None, None).await;
    assert!(
        !plain.unwrap().contains("Secure"),
        "plain local HTTP keeps working"
    );
}
