//! Learning to play without an account (issue 43): the lessons are listed and served, a try is
//! judged by the rules engine (right, wrong with why, refused by the rules), and a First
//! Capture game against the lessons' bot is answered move by move until a capture ends it.

#![allow(clippy::unwrap_used)]

use axum::http::StatusCode;
use serde_json::{json, Value};

mod common;
use common::TestServer;

#[tokio::test]
async fn the_lessons_are_served_to_anyone_with_every_language() {
    let server = TestServer::sqlite("learn-list").await;
    let (st, list) = server.get("/api/learn/lessons").await;
    assert_eq!(st, StatusCode::OK, "{list}");
    let first = &list["lessons"][0];
    assert_eq!(first["id"], "01-stones");
    for lang in ["en", "ko", "ja", "zh"] {
        assert!(
            first["title"][lang].as_str().is_some_and(|s| !s.is_empty()),
            "{lang}"
        );
    }
    let (st, lesson) = server.get("/api/learn/lessons/02-capture").await;
    assert_eq!(st, StatusCode::OK);
    let step = &lesson["steps"][0];
    assert_eq!(step["goal"], "capture");
    assert_eq!(step["board"][2], ".XOX.");
    assert!(
        step.get("answers").is_none(),
        "the answers stay on the server"
    );
    let (st, _) = server.get("/api/learn/lessons/99-nothing").await;
    assert_eq!(st, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn a_try_is_judged_right_wrong_with_why_or_refused_by_the_rules() {
    let server = TestServer::sqlite("learn-try").await;
    let path = "/api/learn/lessons/02-capture/steps/0/try";
    let (_, v) = server.post(path, json!({ "moves": ["C2"] })).await;
    assert_eq!(v["outcome"], "solved", "{v}");
    assert_eq!(v["board"][2], ".X.X.");
    let (_, v) = server.post(path, json!({ "moves": ["A1"] })).await;
    assert_eq!(v["outcome"], "wrong");
    assert_eq!(v["miss"], json!({ "code": "no_capture", "liberties": 1 }));
    let (_, v) = server.post(path, json!({ "moves": ["C3"] })).await;
    assert_eq!(v["outcome"], "illegal");
    assert_eq!(v["refused"], "occupied");
    let (st, v) = server.post(path, json!({ "moves": ["Z9"] })).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"]["code"], "bad_try");
}

#[tokio::test]
async fn a_first_capture_game_goes_on_until_the_first_capture() {
    let server = TestServer::sqlite("learn-first-capture").await;
    // Black walks a stone next to White's each move, capturing when White is in atari; the
    // game must end (a capture wins) well before the board fills.
    let mut moves: Vec<String> = vec!["C3".into()];
    let mut winner = Value::Null;
    for _ in 0..30 {
        let (st, v) = server
            .post(
                "/api/learn/first-capture",
                json!({ "size": 5, "moves": moves, "level": 0 }),
            )
            .await;
        assert_eq!(st, StatusCode::OK, "{v}");
        if !v["winner"].is_null() {
            winner = v["winner"].clone();
            break;
        }
        moves.push(v["reply"].as_str().unwrap().to_string());
        let next = empty_points(&v["board"]).into_iter().next().unwrap();
        moves.push(next);
    }
    assert!(winner == "black" || winner == "white", "{winner}");
    let (st, v) = server
        .post(
            "/api/learn/first-capture",
            json!({ "size": 5, "moves": ["C3", "C3"] }),
        )
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"]["code"], "bad_try");
}

/// The empty points of a board's rows, as GTP vertices.
fn empty_points(rows: &Value) -> Vec<String> {
    let rows = rows.as_array().unwrap();
    let n = rows.len();
    let mut out = Vec::new();
    for (y, r) in rows.iter().enumerate() {
        for (x, c) in r.as_str().unwrap().chars().enumerate() {
            if c == '.' {
                out.push(format!("{}{}", "ABCDEFGHJ".as_bytes()[x] as char, n - y));
            }
        }
    }
    out
}
