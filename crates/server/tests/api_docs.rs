//! The OpenAPI document lists every HTTP route, and room time settings outside seed 002's ranges
//! are refused.

#![allow(clippy::unwrap_used)]

use axum::http::StatusCode;
use serde_json::{json, Value};
use tengen_server::{app, AppState};
use tengen_store::Store;

mod common;

async fn state(tag: &str) -> AppState {
    let store = Store::open(&common::sqlite_url(&format!("docs-{tag}")))
        .await
        .unwrap();
    AppState::new(store, std::time::Duration::from_secs(30))
        .await
        .unwrap()
}

async fn call(
    state: &AppState,
    method: &str,
    path: &str,
    body: Option<Value>,
    token: Option<&str>,
) -> (StatusCode, Value) {
    let (status, _, value) = common::http(&app(state.clone()), method, path, body, token).await;
    (status, value)
}

#[tokio::test]
async fn the_openapi_document_lists_every_route() {
    let s = state("openapi").await;
    let (status, doc) = call(&s, "GET", "/api/openapi.json", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc["openapi"], "3.0.3");
    // Every route of the router, by the path template axum uses.
    let routes = [
        ("/healthz", "get"),
        ("/api/accounts/register", "post"),
        ("/api/accounts/login", "post"),
        ("/api/accounts/guest", "post"),
        ("/api/accounts/logout", "post"),
        ("/api/me", "get"),
        ("/api/session", "get"),
        ("/api/users/{name}", "get"),
        ("/api/users/{name}/games", "get"),
        ("/api/users/{name}/ratings", "get"),
        ("/api/users/{name}/record", "get"),
        ("/api/me/turns", "get"),
        ("/api/me/vacation", "post"),
        ("/api/me/vacation", "delete"),
        ("/api/reviews", "post"),
        ("/api/reviews/{id}", "get"),
        ("/api/reviews/{id}/sgf", "get"),
        ("/api/reviews/{id}/edits", "post"),
        ("/api/reviews/{id}/analysis", "post"),
        ("/api/match", "get"),
        ("/api/match", "post"),
        ("/api/match", "delete"),
        ("/api/online", "get"),
        ("/api/rooms", "get"),
        ("/api/rooms", "post"),
        ("/api/rooms/{id}", "get"),
        ("/api/rooms/{id}", "delete"),
        ("/api/rooms/{id}/join", "post"),
        ("/api/games", "get"),
        ("/api/games/{id}", "get"),
        ("/api/games/{id}/sgf", "get"),
        ("/api/sgf/import", "post"),
        ("/api/ws", "get"),
        ("/api/openapi.json", "get"),
        ("/api/bots", "get"),
        ("/api/bots/{name}/play", "post"),
        ("/api/games/{id}/estimate", "get"),
    ];
    for (path, method) in routes {
        assert!(
            doc["paths"][path][method].is_object(),
            "{method} {path} is not documented"
        );
        // And the route answers (not 404 or 405) at that method.
        let concrete = path.replace("{name}", "nobody").replace("{id}", "999");
        if path != "/api/ws" {
            let (st, _) = call(&s, &method.to_uppercase(), &concrete, None, None).await;
            assert!(
                st != StatusCode::METHOD_NOT_ALLOWED,
                "{method} {path}: {st}"
            );
        }
    }
    assert_eq!(doc["paths"].as_object().unwrap().len(), 32);
}

#[tokio::test]
async fn time_settings_outside_the_seed_ranges_are_refused() {
    let s = state("time").await;
    let (_, g) = call(&s, "POST", "/api/accounts/guest", None, None).await;
    let token = g["token"].as_str().unwrap().to_string();
    let bad = [
        json!({"system": "byoyomi", "main_ms": 721 * 60_000, "periods": 0, "period_ms": 30_000}),
        json!({"system": "byoyomi", "main_ms": 30 * 60_000, "periods": 7, "period_ms": 30_000}),
        json!({"system": "byoyomi", "main_ms": 30 * 60_000, "periods": 3, "period_ms": 61_000}),
        json!({"system": "canadian", "main_ms": 0, "stones": 0, "period_ms": 300_000}),
        json!({"system": "sundial"}),
    ];
    for t in bad {
        let (st, v) = call(
            &s,
            "POST",
            "/api/rooms",
            Some(json!({"size": 9, "rules": "japanese", "time": t})),
            Some(&token),
        )
        .await;
        assert_eq!(st, StatusCode::BAD_REQUEST, "{v}");
        assert!(
            matches!(
                v["error"]["code"].as_str(),
                Some("bad_time" | "bad_request")
            ),
            "{v}"
        );
    }
    let (st, room) = call(
        &s,
        "POST",
        "/api/rooms",
        Some(json!({"size": 9, "rules": "japanese"})),
        Some(&token),
    )
    .await;
    assert_eq!(st, StatusCode::CREATED);
    assert_eq!(
        room["time"],
        json!({"system": "byoyomi", "main_ms": 1_800_000, "periods": 0, "period_ms": 30_000}),
        "seed 002's default: 30 minutes"
    );
}
