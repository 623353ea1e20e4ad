//! The OpenAPI document lists every HTTP route, and room time settings outside seed 002's ranges
//! are refused.

#![allow(clippy::unwrap_used)]

use axum::http::StatusCode;
use serde_json::json;

mod common;
use common::TestServer;

#[tokio::test]
async fn the_openapi_document_lists_every_route() {
    let server = TestServer::sqlite("docs-openapi").await;
    let (status, doc) = server.get("/api/openapi.json").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(doc["openapi"], "3.0.3");
    // Every route of the router, by the path template axum uses.
    let routes = [
        ("/healthz", "get"),
        ("/livez", "get"),
        ("/readyz", "get"),
        ("/metrics", "get"),
        ("/api/accounts/register", "post"),
        ("/api/accounts/login", "post"),
        ("/api/accounts/guest", "post"),
        ("/api/accounts/logout", "post"),
        ("/api/me", "get"),
        ("/api/me/moderation", "get"),
        ("/api/me", "delete"),
        ("/api/me/password", "post"),
        ("/api/me/export", "get"),
        ("/api/me/blocks", "get"),
        ("/api/me/blocks", "post"),
        ("/api/me/blocks/{name}", "delete"),
        ("/api/me/friends", "get"),
        ("/api/me/friends", "post"),
        ("/api/me/friends/{name}", "delete"),
        ("/api/messages", "get"),
        ("/api/messages", "post"),
        ("/api/messages/{name}", "get"),
        ("/api/reports", "post"),
        ("/api/moderation/actions", "post"),
        ("/api/moderation/games/{id}/annul", "post"),
        ("/api/moderation/games/{id}/chat/{seq}/hide", "post"),
        ("/api/moderation/log", "get"),
        ("/api/moderation/reports", "get"),
        ("/api/moderation/reports/{id}/resolve", "post"),
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
        ("/api/reviews/{id}/chat", "post"),
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
        ("/api/learn/lessons", "get"),
        ("/api/learn/lessons/{id}", "get"),
        ("/api/learn/lessons/{id}/steps/{step}/try", "post"),
        ("/api/learn/puzzles", "get"),
        ("/api/learn/puzzles/next", "get"),
        ("/api/learn/puzzles/daily", "get"),
        ("/api/learn/puzzles/{id}", "get"),
        ("/api/learn/puzzles/{id}/try", "post"),
        ("/api/me/learning", "get"),
        ("/api/me/learning", "post"),
        ("/api/learn/first-capture", "post"),
        ("/api/rules", "get"),
        ("/api/games/{id}/estimate", "get"),
        ("/api/games/{id}/hint", "get"),
        ("/api/tournaments", "get"),
        ("/api/tournaments", "post"),
        ("/api/tournaments/{id}", "get"),
        ("/api/tournaments/{id}/register", "post"),
        ("/api/tournaments/{id}/withdraw", "post"),
        ("/api/tournaments/{id}/start", "post"),
        ("/api/tournaments/{id}/results", "post"),
        ("/api/tournaments/{id}/h9", "get"),
        ("/api/tournaments/{id}/challenge", "post"),
        ("/api/tournaments/{id}/finish", "post"),
        ("/api/me/sessions", "get"),
        ("/api/me/sessions", "delete"),
        ("/api/me/sessions/{id}", "delete"),
    ];
    for (path, method) in routes {
        assert!(
            doc["paths"][path][method].is_object(),
            "{method} {path} is not documented"
        );
        // And the route answers (not 404 or 405) at that method.
        let concrete = path
            .replace("{name}", "nobody")
            .replace("{id}", "999")
            .replace("{seq}", "1");
        if path != "/api/ws" {
            let (st, _) = server.send(&method.to_uppercase(), &concrete, None).await;
            assert!(
                st != StatusCode::METHOD_NOT_ALLOWED,
                "{method} {path}: {st}"
            );
        }
    }
    // No path documented that the router lacks.
    let paths: std::collections::HashSet<&str> = routes.iter().map(|(p, _)| *p).collect();
    assert_eq!(doc["paths"].as_object().unwrap().len(), paths.len());
}

#[tokio::test]
async fn time_settings_outside_the_seed_ranges_are_refused() {
    let server = TestServer::sqlite("docs-time").await;
    let guest = server.guest().await;
    let bad = [
        json!({"system": "byoyomi", "main_ms": 721 * 60_000, "periods": 0, "period_ms": 30_000}),
        json!({"system": "byoyomi", "main_ms": 30 * 60_000, "periods": 7, "period_ms": 30_000}),
        json!({"system": "byoyomi", "main_ms": 30 * 60_000, "periods": 3, "period_ms": 61_000}),
        json!({"system": "canadian", "main_ms": 0, "stones": 0, "period_ms": 300_000}),
        json!({"system": "sundial"}),
    ];
    for t in bad {
        let (st, v) = guest
            .post(
                "/api/rooms",
                json!({"size": 9, "rules": "japanese", "time": t}),
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
    let (st, room) = guest
        .post("/api/rooms", json!({"size": 9, "rules": "japanese"}))
        .await;
    assert_eq!(st, StatusCode::CREATED);
    assert_eq!(
        room["time"],
        json!({"system": "byoyomi", "main_ms": 1_800_000, "periods": 0, "period_ms": 30_000}),
        "seed 002's default: 30 minutes"
    );
}
