//! The review board over HTTP: a review of an uploaded record or a finished game, the owner's
//! moves, variations and comments, followers woken by a long poll, the SGF export, the engine's
//! analysis in the background, and all of it kept across a restart.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::json;
use tengen_core::game::Action;

mod common;
use common::TestServer;

const RECORD: &str = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee]C[tengen];W[cc];B[gg](;W[cg])(;W[gc]C[the other side]))";

#[tokio::test]
async fn a_shared_review_with_variations_comments_analysis_and_a_restart() {
    shared_review(&common::sqlite_url("reviews")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL on 127.0.0.1:5432 (database test); run by .ci/run"]
async fn a_shared_review_on_postgres() {
    if let Some(url) = common::postgres_url().await {
        shared_review(&url).await;
    }
}

async fn shared_review(url: &str) {
    let server = TestServer::start(url).await;
    let ann = server.register("ann", "5k").await;
    let bob = server.register("bob", "5k").await;
    let (st, r) = ann.post("/api/reviews", json!({"sgf": RECORD})).await;
    assert_eq!(st, StatusCode::CREATED, "{r}");
    let id = r["id"].as_i64().unwrap();
    assert_eq!(r["owner"], "ann");
    assert_eq!(r["main_line"], 5);
    assert_eq!(r["tree"]["props"]["SZ"], json!(["9"]));
    assert_eq!(
        r["tree"]["children"][0]["children"][0]["children"][0]["children"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // Bob follows: his long poll returns when Ann plays a new variation.
    let v0 = r["version"].as_u64().unwrap();
    let follower = {
        let app = server.app.clone();
        tokio::spawn(async move {
            let path = format!("/api/reviews/{id}?after={v0}");
            let (st, _, body) = common::http(&app, "GET", &path, None, None).await;
            (st, body)
        })
    };
    tokio::task::yield_now().await;
    let (st, r) = ann
        .post(
            &format!("/api/reviews/{id}/edits"),
            json!({"type": "play", "path": [0, 0, 0], "point": "B2"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{r}");
    assert_eq!(r["cursor"], json!([0, 0, 0, 2]), "a third answer to B[gg]");
    let (st, seen) = tokio::time::timeout(Duration::from_secs(10), follower)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(st, StatusCode::OK);
    assert!(seen["version"].as_u64().unwrap() > v0);
    assert_eq!(seen["cursor"], json!([0, 0, 0, 2]));
    // A comment on it; a move on an occupied point, and anything from Bob, change nothing.
    let edits = format!("/api/reviews/{id}/edits");
    let (st, _) = ann
        .post(
            &edits,
            json!({"type": "comment", "path": [0, 0, 0, 2], "text": "3-3 invasion"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK);
    let (st, e) = ann
        .post(
            &edits,
            json!({"type": "play", "path": [0, 0, 0, 2], "point": "E5"}),
        )
        .await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("illegal_move"))
    );
    let (st, e) = ann
        .post(
            &edits,
            json!({"type": "play", "path": [0, 0, 9], "point": "A1"}),
        )
        .await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("no_node"))
    );
    let (st, e) = bob
        .post(&edits, json!({"type": "navigate", "path": [0]}))
        .await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("not_owner"))
    );
    let (st, _) = ann
        .post(&edits, json!({"type": "navigate", "path": [0, 0]}))
        .await;
    assert_eq!(st, StatusCode::OK);
    // The export keeps every variation and comment.
    let (st, sgf) = server.get(&format!("/api/reviews/{id}/sgf")).await;
    assert_eq!(st, StatusCode::OK);
    let sgf = sgf.as_str().unwrap().replace('\n', "");
    assert!(
        sgf.contains("(;W[cg])(;W[gc]C[the other side])(;W[bh]C[3-3 invasion])"),
        "{sgf}"
    );
    assert!(sgf.contains("B[ee]C[tengen]"), "{sgf}");

    // The analysis, in the background, with its progress.
    let (st, r) = bob
        .post(
            &format!("/api/reviews/{id}/analysis"),
            json!({"playouts": 60}),
        )
        .await;
    assert_eq!(st, StatusCode::ACCEPTED, "{r}");
    let mut r = r;
    for _ in 0..40 {
        if r["analysis"]["state"] == "done" {
            break;
        }
        let v = r["version"].as_u64().unwrap();
        r = server.get(&format!("/api/reviews/{id}?after={v}")).await.1;
    }
    let a = &r["analysis"];
    assert_eq!(a["state"], "done", "{a}");
    assert_eq!(a["done"], 5);
    let positions = a["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 5);
    for p in positions {
        let w = p["black_winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w));
        assert!(!p["best"].as_array().unwrap().is_empty());
    }
    assert_eq!(positions[0]["to_move"], "black");

    // A restart keeps the tree, the cursor and the analysis.
    server.stop().await;
    let server = TestServer::start(url).await;
    let (_, again) = server.get(&format!("/api/reviews/{id}")).await;
    assert_eq!(again["tree"], r["tree"]);
    assert_eq!(again["cursor"], json!([0, 0]));
    assert_eq!(again["analysis"]["positions"], a["positions"]);
}

#[tokio::test]
async fn a_game_is_reviewed_once_it_is_over() {
    let server = TestServer::sqlite("reviews-game").await;
    let ann = server.register("ann", "5k").await;
    let bob = server.register("bob", "5k").await;
    let j = server
        .new_game(
            &ann,
            &bob,
            json!({"size": 9, "rules": "chinese", "parity": "odd"}),
            json!({"guess": "even"}),
        )
        .await;
    let game = j["game_id"].as_i64().unwrap();
    let (st, e) = bob.post("/api/reviews", json!({"game": game})).await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_live"))
    );
    // Ann (Black: Bob guessed wrong) plays one move and resigns.
    let h = server.state.games.get(game).await.unwrap().unwrap();
    h.act(
        ann.id(),
        "ann",
        Action::Move(tengen_rules::coord::gtp::parse_point(9, "E5").unwrap()),
        0,
    )
    .await
    .unwrap();
    h.act(ann.id(), "ann", Action::Resign, 0).await.unwrap();
    let (st, r) = bob.post("/api/reviews", json!({"game": game})).await;
    assert_eq!(st, StatusCode::CREATED, "{r}");
    assert_eq!(r["game"], game);
    assert_eq!(r["owner"], "bob");
    assert_eq!(r["tree"]["children"][0]["props"]["B"], json!(["ee"]));
    // Neither both nor neither.
    let (st, e) = bob.post("/api/reviews", json!({})).await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_review"))
    );
    let (st, e) = bob
        .post("/api/reviews", json!({"sgf": "(;GM[1]SZ[9];B[ee];W[ee])"}))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST, "{e}");
    let (st, _) = server.get("/api/reviews/999").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
}
