//! Players' blocks: once one blocks the other, no room join and no quick match pairs the two
//! (either way round), and the blocked player's chat lines are refused in the blocker's games;
//! lifted, all of it works again.

#![allow(clippy::unwrap_used)]

mod common;

use axum::http::StatusCode;
use common::{err, ok, TestServer};
use serde_json::json;

#[tokio::test]
async fn a_block_keeps_two_players_apart_until_it_is_lifted() {
    keep_apart(&common::sqlite_url("blocks")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL on 127.0.0.1:5432 (database test); run by .ci/run"]
async fn a_block_keeps_two_players_apart_until_it_is_lifted_on_postgres() {
    if let Some(url) = common::postgres_url().await {
        keep_apart(&url).await;
    }
}

async fn keep_apart(url: &str) {
    let server = TestServer::start(url).await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    let carol = server.register("carol", "2d").await;
    // A game between Ann and Carol, which Bob watches and chats in.
    let j = server
        .new_game(
            &ann,
            &carol,
            json!({"size": 9, "rules": "japanese", "parity": "odd"}),
            json!({"guess": "odd"}),
        )
        .await;
    let game = j["game_id"].as_i64().unwrap();
    let mut bob_socket = bob.socket().await;
    bob_socket.watch(game).await;
    ok(&bob_socket.chat(game, "hello").await);

    let (status, v) = ann.post("/api/me/blocks", json!({"user": "bob"})).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
    assert_eq!(ann.get("/api/me/blocks").await.1["blocks"], json!(["bob"]));
    let (_, v) = ann.post("/api/me/blocks", json!({"user": "ann"})).await;
    assert_eq!(v["error"]["code"], "block_self");
    // No chat from Bob in Ann's game.
    err(&bob_socket.chat(game, "still here").await, "blocked");
    // No room joined, either way round.
    let room = |c: &common::Client| {
        let c = c.clone();
        async move {
            let (_, r) = c
                .post(
                    "/api/rooms",
                    json!({"size": 9, "rules": "japanese", "parity": "odd"}),
                )
                .await;
            r["id"].as_i64().unwrap()
        }
    };
    let bobs = room(&bob).await;
    let (status, v) = ann
        .post(&format!("/api/rooms/{bobs}/join"), json!({"guess": "odd"}))
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("blocked"))
    );
    bob.delete(&format!("/api/rooms/{bobs}")).await;
    let anns = room(&ann).await;
    let (_, v) = bob
        .post(&format!("/api/rooms/{anns}/join"), json!({"guess": "odd"}))
        .await;
    assert_eq!(v["error"]["code"], "blocked");
    ann.delete(&format!("/api/rooms/{anns}")).await;
    // Quick match does not pair them (Ann is in a live game: a correspondence request).
    let ask = json!({"sizes": [9], "speed": "correspondence"});
    let (status, v) = ann.post("/api/match", ask.clone()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let (_, v) = bob.post("/api/match", ask.clone()).await;
    assert_eq!(v["state"], "waiting", "not paired with Ann: {v}");
    bob.delete("/api/match").await;
    // Lifted: Bob's next request pairs with Ann's, and he may chat.
    let (status, _) = ann.delete("/api/me/blocks/bob").await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(
        ann.delete("/api/me/blocks/bob").await.0,
        StatusCode::NOT_FOUND
    );
    let (_, v) = bob.post("/api/match", ask).await;
    assert_eq!(v["state"], "matched", "{v}");
    ok(&bob_socket.chat(game, "thanks").await);
}
