//! The review board over HTTP: a review of an uploaded record or a finished game, the owner's
//! moves, variations and comments, followers woken by a long poll, the SGF export, the engine's
//! analysis in the background, and all of it kept across a restart.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Value};
use tengen_core::game::Action;

mod common;
use common::TestServer;

const RECORD: &str = "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee]C[tengen];W[cc];B[gg](;W[cg])(;W[gc]C[the other side]))";

/// The node at `path` (child indices from the root) of a review's flat list of nodes.
fn node<'a>(review: &'a Value, path: &[usize]) -> &'a Value {
    let nodes = &review["nodes"];
    let mut at = 0;
    for &c in path {
        at = nodes[at]["children"][c].as_u64().unwrap() as usize;
    }
    &nodes[at]
}

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
    assert_eq!(node(&r, &[])["props"]["SZ"], json!(["9"]));
    assert_eq!(
        node(&r, &[0, 0, 0])["children"].as_array().unwrap().len(),
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
            json!({"visits": 16}),
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
    // The network's: win rate, lead, candidates with their variations, ownership.
    assert_eq!(a["engine"], "net");
    for p in positions {
        let w = p["black_winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w));
        assert!(p["black_lead"].is_number(), "{p}");
        assert_eq!(p["visits"], 16);
        let best = p["best"].as_array().unwrap();
        assert!(!best.is_empty());
        for b in best {
            assert_eq!(b["pv"][0], b["move"], "{b}");
            assert!(b["black_winrate"].is_number() && b["black_lead"].is_number());
        }
        assert_eq!(p["ownership"].as_str().unwrap().len(), 81);
    }
    assert_eq!(positions[0]["to_move"], "black");
    // Coordinates as players write them: E5, not SGF's `ee`.
    assert!(
        positions[0]["best"][0]["move"]
            .as_str()
            .unwrap()
            .chars()
            .next()
            .unwrap()
            .is_ascii_uppercase(),
        "{}",
        positions[0]
    );
    let (st, e) = bob
        .post(&format!("/api/reviews/{id}/analysis"), json!({"visits": 0}))
        .await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_visits"))
    );

    // A restart keeps the tree, the cursor and the analysis.
    server.stop().await;
    let server = TestServer::start(url).await;
    let (_, again) = server.get(&format!("/api/reviews/{id}")).await;
    assert_eq!(again["nodes"], r["nodes"]);
    assert_eq!(again["cursor"], json!([0, 0]));
    assert_eq!(again["analysis"]["positions"], a["positions"]);
}

#[tokio::test]
async fn a_game_is_reviewed_once_it_is_over() {
    let server = TestServer::sqlite("reviews-game").await;
    let (ann, bob, game) = server.ann_and_bob_game().await;
    let (st, e) = bob.post("/api/reviews", json!({"game": game})).await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_live"))
    );
    // Ann (Black: Bob guessed wrong) plays one move and resigns.
    let h = server
        .state
        .services
        .games
        .get(game)
        .await
        .unwrap()
        .unwrap();
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
    assert_eq!(node(&r, &[0])["props"]["B"], json!(["ee"]));
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

#[tokio::test]
async fn the_owner_marks_the_board_and_followers_see_the_marks() {
    let server = TestServer::sqlite("reviews-marks").await;
    let ann = server.register("ann", "5k").await;
    let bob = server.register("bob", "5k").await;
    let (_, r) = ann.post("/api/reviews", json!({"sgf": RECORD})).await;
    let id = r["id"].as_i64().unwrap();
    let edits = format!("/api/reviews/{id}/edits");
    let mark = |kind: &str, point: &str, label: Option<&str>| json!({"type": "mark", "path": [0], "kind": kind, "point": point, "label": label});
    let (st, r) = ann.post(&edits, mark("TR", "C7", None)).await;
    assert_eq!(st, StatusCode::OK, "{r}");
    ann.post(&edits, mark("LB", "G3", Some("A"))).await;
    let (_, seen) = bob.get(&format!("/api/reviews/{id}")).await;
    let props = &node(&seen, &[0])["props"];
    assert_eq!(props["TR"], json!(["cc"]), "{props}");
    assert_eq!(props["LB"], json!(["gg:A"]), "{props}");
    let (st, e) = bob.post(&edits, mark("SQ", "E5", None)).await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("not_owner"))
    );
    let (st, e) = ann.post(&edits, mark("XX", "E5", None)).await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_mark"))
    );
    let (_, sgf) = server.get(&format!("/api/reviews/{id}/sgf")).await;
    let sgf = sgf.as_str().unwrap().replace('\n', "");
    assert!(sgf.contains("TR[cc]LB[gg:A]"), "{sgf}");
}

#[tokio::test]
async fn a_review_chat_is_stored_told_to_followers_limited_and_refused_to_the_muted() {
    let url = common::sqlite_url("reviews-chat");
    let server = TestServer::start(&url).await;
    let ann = server.register("ann", "5k").await;
    let bob = server.register("bob", "5k").await;
    let carol = server.register("carol", "5k").await;
    let (_, r) = ann.post("/api/reviews", json!({"sgf": RECORD})).await;
    let id = r["id"].as_i64().unwrap();
    assert_eq!(r["chat"], json!([]));
    let chat = format!("/api/reviews/{id}/chat");
    // Bob follows; his long poll answers when Ann speaks.
    let v0 = r["version"].as_u64().unwrap();
    let follower = {
        let app = server.app.clone();
        tokio::spawn(async move {
            let path = format!("/api/reviews/{id}?after={v0}");
            common::http(&app, "GET", &path, None, None).await.2
        })
    };
    tokio::task::yield_now().await;
    let (st, line) = ann.post(&chat, json!({"text": "  look at move 3  "})).await;
    assert_eq!(st, StatusCode::OK, "{line}");
    assert_eq!(line["from"], "ann");
    assert_eq!(line["text"], "look at move 3");
    let seen = tokio::time::timeout(Duration::from_secs(20), follower)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(seen["chat"][0]["text"], "look at move 3", "{seen}");
    let (st, _) = bob.post(&chat, json!({"text": "E5 is big"})).await;
    assert_eq!(st, StatusCode::OK);

    let code = |(st, e): (StatusCode, serde_json::Value)| {
        (st, e["error"]["code"].as_str().map(String::from))
    };
    assert_eq!(
        code(bob.post(&chat, json!({"text": "   "})).await),
        (StatusCode::BAD_REQUEST, Some("bad_chat".into()))
    );
    assert_eq!(
        code(bob.post(&chat, json!({"text": "x".repeat(501)})).await),
        (StatusCode::BAD_REQUEST, Some("bad_chat".into()))
    );
    // Five lines in ten seconds a board, then rate_limited (Bob has said one).
    for i in 0..4 {
        let (st, e) = bob.post(&chat, json!({"text": format!("line {i}")})).await;
        assert_eq!(st, StatusCode::OK, "{e}");
    }
    assert_eq!(
        code(bob.post(&chat, json!({"text": "one too many"})).await),
        (StatusCode::TOO_MANY_REQUESTS, Some("rate_limited".into()))
    );
    // Muted: refused.
    let until = tengen_app::sanctions::now() + 3600;
    tengen_app::moderation::set_role(server.store(), "ann", "moderator")
        .await
        .unwrap();
    let (st, e) = ann
        .post(
            "/api/moderation/actions",
            json!({"user": "carol", "action": "mute", "until": until, "reason": "spam"}),
        )
        .await;
    assert_eq!(st, StatusCode::CREATED, "{e}");
    assert_eq!(
        code(carol.post(&chat, json!({"text": "hi"})).await),
        (StatusCode::FORBIDDEN, Some("muted".into()))
    );

    // Stored: a restart keeps the lines, in order.
    server.stop().await;
    let server = TestServer::start(&url).await;
    let (_, again) = server.get(&format!("/api/reviews/{id}")).await;
    let texts: Vec<&str> = again["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "look at move 3",
            "E5 is big",
            "line 0",
            "line 1",
            "line 2",
            "line 3"
        ]
    );
}

/// A main line of `moves` passes on 19x19, as SGF (any length replays).
fn long_record(moves: usize) -> String {
    let mut s = String::from("(;GM[1]FF[4]SZ[19]KM[6.5]");
    for i in 0..moves {
        s.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
    }
    s.push(')');
    s
}

/// Issue 38: a guest's review of a 6,000-move line aborted the process (the tree was walked by
/// recursion), and, stored first, again at every later open. Now it opens, is edited, exported
/// and read back after a restart; a line over the limit is refused, and one already stored
/// opens as an error with a code, the node up.
#[tokio::test]
async fn a_review_of_thousands_of_moves_is_no_danger() {
    let url = common::sqlite_url("reviews-long");
    let server = TestServer::start(&url).await;
    let guest = server.guest().await;
    let (st, r) = guest
        .post("/api/reviews", json!({"sgf": long_record(10_000)}))
        .await;
    assert_eq!(st, StatusCode::CREATED, "{r}");
    let id = r["id"].as_i64().unwrap();
    assert_eq!(r["main_line"], 10_001);
    assert_eq!(r["nodes"].as_array().unwrap().len(), 10_001);
    let edits = format!("/api/reviews/{id}/edits");
    let deep = vec![0; 9_000];
    let (st, e) = guest
        .post(
            &edits,
            json!({"type": "comment", "path": deep, "text": "far in"}),
        )
        .await;
    assert_eq!(st, StatusCode::OK, "{e}");
    let (st, e) = guest
        .post(&edits, json!({"type": "play", "path": deep, "point": "D4"}))
        .await;
    assert_eq!(st, StatusCode::OK, "{e}");
    assert_eq!(e["cursor"].as_array().unwrap().len(), 9_001);
    let (st, e) = guest
        .post(&format!("/api/reviews/{id}/analysis"), json!({}))
        .await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("line_too_long"))
    );
    let req = axum::http::Request::get(format!("/api/reviews/{id}/sgf"))
        .body(axum::body::Body::empty())
        .unwrap();
    let resp = server.oneshot(req).await;
    assert_eq!(resp.status(), StatusCode::OK);
    let sgf = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .unwrap();
    assert!(String::from_utf8_lossy(&sgf).contains("C[far in]"));

    // Over the limit (empty nodes are one byte each): refused, nothing stored.
    let many = format!("(;SZ[19]{})", ";".repeat(30_000));
    let (st, e) = guest.post("/api/reviews", json!({"sgf": many})).await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("review_too_large")),
        "{e}"
    );
    assert!(server.store().review(id + 1).await.unwrap().is_none());
    server.stop().await;
    let server = TestServer::start(&url).await;
    let (st, again) = server.get(&format!("/api/reviews/{id}")).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(again["nodes"].as_array().unwrap().len(), 10_002);

    // A record stored before the limits existed opens as an error with a code.
    let owner = guest.id();
    let huge = long_record(tengen_core::review_tree::MAX_NODES + 10);
    let old = server
        .store()
        .insert_review(owner, None, &huge, 0)
        .await
        .unwrap();
    for _ in 0..2 {
        let (st, e) = server.get(&format!("/api/reviews/{old}")).await;
        assert_eq!(
            (st, e["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("review_too_large"))
        );
    }
    let (st, _) = server.get(&format!("/api/reviews/{id}")).await;
    assert_eq!(st, StatusCode::OK, "the node is up");
}
