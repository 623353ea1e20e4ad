//! Learning to play without an account (issue 43): the lessons are listed and served, a try is
//! judged by the rules engine (right, wrong with why, refused by the rules), and a First
//! Capture game against the lessons' bot is answered move by move until a capture ends it.
//! Puzzles: the day's, the next at a rating, a try rated for an anonymous learner (the rating
//! in the request) and for a logged-in one (the account's, recorded, the puzzle's moved), and
//! the browser's progress merged into the account, on SQLite and on PostgreSQL.

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

/// A puzzle's id, a right first move and a wrong one (GTP).
fn a_puzzle() -> (String, String, String) {
    let p = &tengen_learn::puzzles().unwrap().puzzles[0];
    let size = p.step.start.size();
    let gtp = |a: &tengen_learn::Answer| tengen_rules::coord::gtp::format_move(size, a.mv);
    let right = p.step.answers.iter().find(|a| a.right).unwrap();
    let wrong = p.step.answers.iter().find(|a| !a.right).unwrap();
    (p.id.clone(), gtp(right), gtp(wrong))
}

#[tokio::test]
async fn puzzles_are_served_and_an_anonymous_try_is_rated_from_the_request() {
    let server = TestServer::sqlite("learn-puzzles").await;
    let (st, daily) = server.get("/api/learn/puzzles/daily").await;
    assert_eq!(st, StatusCode::OK, "{daily}");
    assert!(daily["step"]["board"].is_array() && daily["step"].get("answers").is_none());
    let (st, next) = server
        .get("/api/learn/puzzles/next?rating=600&kind=life")
        .await;
    assert_eq!(st, StatusCode::OK, "{next}");
    assert_eq!(next["kind"], "life");
    let (st, v) = server.get("/api/learn/puzzles/next?kind=ladder").await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"]["code"], "bad_kind");
    let (id, _, wrong) = a_puzzle();
    let rating = json!({ "rating": 900.0, "deviation": 200.0, "volatility": 0.06 });
    let path = format!("/api/learn/puzzles/{id}/try");
    let (st, v) = server
        .post(&path, json!({ "moves": [wrong], "rating": rating }))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["outcome"], "wrong");
    assert!(v["reply"].is_string(), "the refutation");
    assert!(v["rating"]["rating"].as_f64().unwrap() < 900.0);
    let (st, v) = server
        .post(&path, json!({ "moves": [wrong], "rating": { "rating": -5.0, "deviation": 1.0, "volatility": 0.1 } }))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"]["code"], "bad_rating");
}

/// The account's side: the browser's progress merged in, then a rated, recorded attempt.
async fn learning_is_kept_on_the_account(server: &TestServer) {
    let ann = server.register("ann", "20k").await;
    let browser = json!({
        "lessons": { "done": { "01-stones": [0, 1] }, "wins": { "5": 1 } },
        "rating": { "rating": 900.0, "deviation": 200.0, "volatility": 0.06 },
    });
    let (st, v) = ann.post("/api/me/learning", browser).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    assert_eq!(v["lessons"]["done"]["01-stones"], json!([0, 1]));
    // Another browser: its steps join the account's, its rating gives way to the account's.
    let other = json!({
        "lessons": { "done": { "01-stones": [2] }, "wins": { "5": 0, "7": 2 } },
        "rating": { "rating": 100.0, "deviation": 300.0, "volatility": 0.06 },
    });
    let (_, v) = ann.post("/api/me/learning", other).await;
    assert_eq!(v["lessons"]["done"]["01-stones"], json!([0, 1, 2]));
    assert_eq!(v["lessons"]["wins"], json!({ "5": 1, "7": 2 }));
    assert_eq!(v["rating"]["rating"], 900.0);

    let (id, right, wrong) = a_puzzle();
    let path = format!("/api/learn/puzzles/{id}/try");
    // The rating sent is ignored when logged in: the account's is used.
    let sent = json!({ "rating": 2500.0, "deviation": 50.0, "volatility": 0.06 });
    let (st, v) = ann
        .post(&path, json!({ "moves": [wrong], "rating": sent }))
        .await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let after = v["rating"]["rating"].as_f64().unwrap();
    assert!(after < 900.0, "{after}");
    // A retry of the same attempt (no rating sent) is judged, not rated.
    let (_, v) = ann.post(&path, json!({ "moves": [right] })).await;
    assert!(v["rating"].is_null());
    let (_, v) = ann.get("/api/me/learning").await;
    assert_eq!(
        (v["attempts"].as_i64(), v["solved"].as_i64()),
        (Some(1), Some(0))
    );
    assert_eq!(v["rating"]["rating"].as_f64(), Some(after));
    let moved = server.store().puzzle_rating(&id).await.unwrap().unwrap();
    assert!(moved.0 > 0.0, "the puzzle's rating is kept");
    // The data export gives the learning back: the progress, the rating, each attempt.
    let (st, export) = ann.get("/api/me/export").await;
    assert_eq!(st, StatusCode::OK, "{export}");
    let learning = &export["learning"];
    assert_eq!(learning["lessons"]["done"]["01-stones"], json!([0, 1, 2]));
    assert_eq!(learning["lessons"]["wins"], json!({ "5": 1, "7": 2 }));
    assert_eq!(learning["rating"]["rating"].as_f64(), Some(after));
    assert_eq!(
        learning["attempts"].as_array().unwrap().len(),
        1,
        "{learning}"
    );
    let attempt = &learning["attempts"][0];
    assert_eq!(attempt["puzzle"], id.as_str());
    assert_eq!(attempt["solved"], false);
    assert_eq!(attempt["rating"].as_f64(), Some(after));
    let mut done = serde_json::Map::new();
    done.insert("x".repeat(80), json!([0]));
    let too_much = json!({ "lessons": { "done": done } });
    let (st, v) = ann.post("/api/me/learning", too_much).await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"]["code"], "bad_progress");
    let (st, _) = server.get("/api/me/learning").await;
    assert_eq!(st, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_logged_in_learner_s_next_puzzle_follows_the_account_s_rating_not_the_one_sent() {
    let server = TestServer::sqlite("learn-next-account").await;
    let path = "/api/learn/puzzles/next?rating=300";
    let rating = |v: &Value| v["rating"].as_f64().unwrap();
    let (st, weak) = server.get(path).await;
    assert_eq!(st, StatusCode::OK, "{weak}");
    let bob = server.register("bob", "20k").await;
    // No rating on the account yet: a new learner's (20 kyu), not the 300 sent.
    let (_, new) = bob.get(path).await;
    assert!(rating(&new) > rating(&weak), "{new} {weak}");
    let strong = json!({ "rating": { "rating": 2300.0, "deviation": 60.0, "volatility": 0.06 } });
    let (st, v) = bob.post("/api/me/learning", strong).await;
    assert_eq!(st, StatusCode::OK, "{v}");
    let (st, next) = bob.get(path).await;
    assert_eq!(st, StatusCode::OK, "{next}");
    assert!(
        (rating(&next) - 2300.0).abs() < (rating(&next) - 300.0).abs(),
        "{next}"
    );
    // The visitor's browser-side rating still picks the visitor's puzzle.
    let (_, again) = server.get("/api/learn/puzzles/next?rating=2300").await;
    assert_eq!(again["id"], next["id"]);
}

#[tokio::test]
async fn learning_is_kept_on_the_account_on_sqlite() {
    let server = TestServer::sqlite("learn-account").await;
    learning_is_kept_on_the_account(&server).await;
}

#[tokio::test]
async fn learning_is_kept_on_the_account_on_postgres() {
    let Some(url) = common::postgres_url().await else {
        return;
    };
    let server = TestServer::start(&url).await;
    learning_is_kept_on_the_account(&server).await;
}

#[tokio::test]
async fn a_learner_gets_three_hints_a_game_against_the_weakest_bot_and_no_one_else_does() {
    let server = TestServer::sqlite("learn-hint").await;
    let ann = server.guest().await;
    let first_game = json!({ "size": 9, "rules": "japanese", "color": "black" });
    let (st, started) = ann
        .post("/api/bots/tengen-bot/play", first_game.clone())
        .await;
    assert_eq!(st, StatusCode::OK, "{started}");
    let path = format!("/api/games/{}/hint", started["game_id"]);
    let mut moves = Vec::new();
    for left in [2, 1, 0] {
        let (st, v) = ann.get(&path).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        assert_eq!(v["left"], left, "{v}");
        let mv = v["move"].as_str().unwrap().to_string();
        assert!(empty_points(&started["game"]["board"]).contains(&mv), "{v}");
        moves.push(mv);
    }
    // The same position, the same hint: the engine's search is seeded by the position.
    assert!(moves.iter().all(|m| *m == moves[0]), "{moves:?}");
    let (st, v) = ann.get(&path).await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["error"]["code"], "no_hints_left");
    // Someone watching, a visitor, a game against a stronger bot: no hint.
    let bob = server.guest().await;
    let (st, v) = bob.get(&path).await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(v["error"]["code"], "not_a_player");
    assert_eq!(server.get(&path).await.0, StatusCode::UNAUTHORIZED);
    let (_, stronger) = bob.post("/api/bots/tengen-3/play", first_game).await;
    let (st, v) = bob
        .get(&format!("/api/games/{}/hint", stronger["game_id"]))
        .await;
    assert_eq!(st, StatusCode::FORBIDDEN, "{v}");
    assert_eq!(v["error"]["code"], "hint_not_allowed");
}
