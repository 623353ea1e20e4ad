//! A player's own account: a new password ends every session (and closes its sockets), the
//! caller going on with a new one,
//! the data comes out as JSON, and a deleted account keeps its games under an anonymised name.
//! Each needs the password once more.

#![allow(clippy::unwrap_used)]

mod common;

use axum::http::StatusCode;
use common::{TestServer, PASSWORD};
use serde_json::json;

#[tokio::test]
async fn a_new_password_ends_the_other_sessions() {
    let server = TestServer::sqlite("own-password").await;
    let ann = server.register("ann", "2d").await;
    let login = json!({"username": "ann", "password": PASSWORD});
    let (_, other) = server.post("/api/accounts/login", login.clone()).await;
    let other = server.signed_in(&other);
    let mut other_socket = other.socket().await;
    let change = |current: &str| json!({"current": current, "new": "better-heron-77"});
    let (status, v) = ann.post("/api/me/password", change("wrong")).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("wrong_password"))
    );
    let (status, v) = ann
        .post("/api/me/password", json!({"current": PASSWORD, "new": "x"}))
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("weak_password"))
    );
    let (status, v) = ann.post("/api/me/password", change(PASSWORD)).await;
    assert_eq!(status, StatusCode::OK);
    // Every session ends, this one too; the caller goes on with the new one it was given.
    assert_eq!(ann.get("/api/me").await.0, StatusCode::UNAUTHORIZED);
    let ann = server.signed_in(&v);
    assert_eq!(ann.get("/api/me").await.0, StatusCode::OK);
    assert_eq!(other.get("/api/me").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(other_socket.close_code().await, Some(4001));
    assert_eq!(
        server.post("/api/accounts/login", login).await.0,
        StatusCode::UNAUTHORIZED
    );
    let new_login = json!({"username": "ann", "password": "better-heron-77"});
    assert_eq!(
        server.post("/api/accounts/login", new_login).await.0,
        StatusCode::OK
    );
    // A guest has no password to change.
    let guest = server.guest().await;
    let (status, v) = guest.post("/api/me/password", change("")).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("no_password"))
    );
}

#[tokio::test]
async fn the_data_comes_out_and_a_deleted_account_keeps_its_games_anonymised() {
    let server = TestServer::sqlite("own-delete").await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    let j = server
        .new_game(
            &ann,
            &bob,
            json!({"size": 9, "rules": "japanese", "parity": "odd"}),
            json!({"guess": "odd"}),
        )
        .await;
    let id = j["game_id"].as_i64().unwrap();
    let (status, data) = ann.get("/api/me/export").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(data["account"]["username"], "ann");
    assert_eq!(data["games"][0]["id"], id);
    assert_eq!(data["games"][0]["status"], "live");
    let (status, v) = ann
        .send("DELETE", "/api/me", Some(json!({"password": "nope"})))
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("wrong_password"))
    );
    let (status, _) = ann
        .send("DELETE", "/api/me", Some(json!({"password": PASSWORD})))
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    // Gone: the session, the login, the name; the game stays, resigned, under the new name.
    assert_eq!(ann.get("/api/me").await.0, StatusCode::UNAUTHORIZED);
    let login = json!({"username": "ann", "password": PASSWORD});
    assert_eq!(
        server.post("/api/accounts/login", login).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(server.get("/api/users/ann").await.0, StatusCode::NOT_FOUND);
    let g = server.game(id).await;
    assert_eq!(g["phase"], "finished", "{g}");
    let deleted = format!("deleted-{}", ann.id());
    let (status, games) = server.get(&format!("/api/users/{deleted}/games")).await;
    assert_eq!(status, StatusCode::OK, "{games}");
    let listed = games.to_string();
    assert!(
        listed.contains(&format!("\"{deleted}\"")) && listed.contains(&format!("\"id\":{id}")),
        "{listed}"
    );
    // The name is free again, and names like the anonymised ones are not given out.
    server.register("ann", "5k").await;
    let (status, v) = server
        .post(
            "/api/accounts/register",
            json!({"username": "deleted-9", "password": PASSWORD, "rank": "5k"}),
        )
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("invalid_username"))
    );
}
