//! Quick match: two requests that agree are paired at once and both players hear of it on
//! their sockets; a player in a live game is not paired into another; a lone request gets its
//! bot after the wait it chose.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Value};

mod common;
use common::TestServer;

#[tokio::test]
async fn two_agreeing_requests_are_paired_at_once_over_websockets() {
    let server = TestServer::sqlite("qm-pair").await;
    let ann = server.register("ann", "5k").await;
    let bob = server.register("bob", "1k").await;
    let cid = server.register("cid", "5k").await;
    let mut a = ann.socket().await;
    let mut b = bob.socket().await;
    // Ann wants 19x19 or 13x13 against 3k or stronger; Cid only takes kyu players weaker than
    // 3k: Ann and Cid do not agree (Cid is weaker than Ann's range).
    a.send(json!({"type": "match", "id": 1, "sizes": [19, 13], "speed": "live", "min_rank": "3k"}))
        .await;
    let r = a.next_of_type("match").await;
    assert_eq!(
        (r["ref"].as_i64(), r["match"]["state"].as_str()),
        (Some(1), Some("waiting")),
        "{r}"
    );
    let (st, v) = cid
        .post("/api/match", json!({"sizes": [19], "speed": "live"}))
        .await;
    assert_eq!(
        (st, v["state"].as_str()),
        (StatusCode::ACCEPTED, Some("waiting")),
        "{v}"
    );
    // Bob (1k) asks for 13x13: paired with Ann at once; four ranks apart, a HANDICAP game.
    b.send(json!({"type": "match", "id": 7, "sizes": [13], "speed": "live"}))
        .await;
    let r = b.next_of_type("match").await;
    assert_eq!(r["match"]["state"], "matched", "{r}");
    let game = r["match"]["game"].as_i64().unwrap();
    assert_eq!(r["match"]["opponent"]["username"], "ann");
    assert_eq!(r["match"]["game_type"], "handicap");
    assert_eq!(r["match"]["size"], 13);
    let pushed = a.next_of_type("matched").await;
    assert_eq!(pushed["match"]["game"], game, "{pushed}");
    assert_eq!(pushed["match"]["opponent"]["username"], "bob");
    let (_, g) = ann.get(&format!("/api/games/{game}")).await;
    assert_eq!(
        (
            g["black"]["username"].as_str(),
            g["white"]["username"].as_str(),
            g["terms"]["size"].as_u64()
        ),
        (Some("ann"), Some("bob"), Some(13))
    );
    let (_, status) = ann.get("/api/match").await;
    assert_eq!(status["game"], game);
    // Ann plays a live game now: another live request is refused; a correspondence one waits.
    let (st, v) = ann
        .post("/api/match", json!({"sizes": [19], "speed": "live"}))
        .await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("already_playing"))
    );
    a.send(json!({"type": "match", "sizes": [9], "speed": "correspondence"}))
        .await;
    assert_eq!(a.next_of_type("match").await["match"]["state"], "waiting");
    // Cid's request still waits, and can be withdrawn, once.
    let (st, _) = cid.delete("/api/match").await;
    assert_eq!(st, StatusCode::NO_CONTENT);
    let (st, v) = cid.delete("/api/match").await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("no_match_request"))
    );
    // Bad requests.
    let (st, v) = cid
        .post("/api/match", json!({"sizes": [], "speed": "live"}))
        .await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_match"))
    );
    let (st, _) = cid
        .post("/api/match", json!({"sizes": [19], "speed": "slow"}))
        .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_lone_request_gets_its_bot_after_the_chosen_wait() {
    let server = TestServer::sqlite("qm-bot").await;
    let ann = server.register("ann", "30k").await;
    let (st, v) = ann
        .post(
            "/api/match",
            json!({"sizes": [9], "speed": "live", "rules": "chinese", "bot_after_s": 30}),
        )
        .await;
    assert_eq!(
        (st, v["state"].as_str()),
        (StatusCode::ACCEPTED, Some("waiting")),
        "{v}"
    );
    // 29 s: still waiting.
    common::think(Duration::from_secs(29)).await;
    assert_eq!(ann.get("/api/match").await.1["state"], "waiting");
    // Past 30 s: a game against the built-in bot nearest Ann's rank, the weakest,
    // tengen-newcomer: more than two ranks stronger than Ann, so she takes stones (seed 002's
    // HANDICAP game).
    let mut told = server.state.services.notices.subscribe(ann.id());
    common::think(Duration::from_secs(2)).await;
    let msg = tokio::time::timeout(Duration::from_secs(20), told.recv())
        .await
        .unwrap()
        .unwrap();
    let msg: Value = serde_json::from_str(&msg.text).unwrap();
    assert_eq!(msg["type"], "matched");
    let (_, status) = ann.get("/api/match").await;
    assert_eq!(status, msg["match"]);
    assert_eq!(status["state"], "matched", "{status}");
    assert_eq!(status["opponent"]["username"], "tengen-newcomer");
    let game = status["game"].as_i64().unwrap();
    let (_, g) = ann.get(&format!("/api/games/{game}")).await;
    assert_eq!(g["terms"]["size"], 9);
    assert_eq!(g["terms"]["rules"], "chinese");
    assert_eq!(g["terms"]["take_back"], false);
    // Told as a game with a player is: with its type.
    assert!(status["game_type"].is_string(), "{status}");
    assert_eq!(status["game_type"], g["terms"]["game_type"]);
    assert_eq!(g["terms"]["time"]["system"], "byoyomi");
    assert!(g["terms"]["handicap"].as_u64().unwrap_or(0) >= 2, "{g}");
}

/// Waits (in real time, a bounded number of short polls) until the server has seen the last
/// connection of `user` close.
async fn until_offline(server: &TestServer, user: i64) {
    for _ in 0..500 {
        if server.state.services.online.connections(user) == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the server never saw the connection close");
}

/// Polls the player's quick-match state until it is not `waiting` (bounded).
async fn state_after_wait(client: &common::Client) -> Value {
    for _ in 0..500 {
        let (_, v) = client.get("/api/match").await;
        if v["state"] != "waiting" {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    client.get("/api/match").await.1
}

// Regression: a player closed the tab while searching, was paired two minutes later and lost
// the game by forfeit with no move played (issue 29, item 1).
#[tokio::test]
async fn a_live_request_is_withdrawn_when_its_player_has_been_gone_ten_seconds() {
    let server = TestServer::sqlite("qm-unattended").await;
    let ann = server.register("ann", "5k").await;
    let bob = server.register("bob", "5k").await;
    let cid = server.register("cid", "5k").await;
    let dan = server.register("dan", "5k").await;
    // Ann asks on her socket and closes it; Bob asks for the same, persisting; Cid asks for
    // a correspondence game (those always persist).
    let mut a = ann.socket().await;
    a.send(json!({"type": "match", "sizes": [19], "speed": "live"}))
        .await;
    assert_eq!(a.next_of_type("match").await["match"]["state"], "waiting");
    let mut b = bob.socket().await;
    b.send(json!({"type": "match", "sizes": [13], "speed": "blitz", "persist": true}))
        .await;
    assert_eq!(b.next_of_type("match").await["match"]["state"], "waiting");
    let mut c = cid.socket().await;
    c.send(json!({"type": "match", "sizes": [9], "speed": "correspondence"}))
        .await;
    assert_eq!(c.next_of_type("match").await["match"]["state"], "waiting");
    drop((a, b, c));
    for u in [&ann, &bob, &cid] {
        until_offline(&server, u.id()).await;
    }
    // A reload within the ten seconds keeps the place: Ann comes back after 9 s.
    common::think(Duration::from_secs(9)).await;
    let a = ann.socket().await;
    common::think(Duration::from_secs(2)).await;
    assert_eq!(ann.get("/api/match").await.1["state"], "waiting");
    drop(a);
    until_offline(&server, ann.id()).await;
    common::think(Duration::from_secs(11)).await;
    let v = state_after_wait(&ann).await;
    assert_eq!(v["state"], "withdrawn", "{v}");
    for u in [&bob, &cid] {
        assert_eq!(u.get("/api/match").await.1["state"], "waiting");
    }
    // Nobody is paired with the player who left: Dan's request waits.
    let (_, v) = dan
        .post("/api/match", json!({"sizes": [19], "speed": "live"}))
        .await;
    assert_eq!(v["state"], "waiting", "{v}");
}

// Regression (issue 29, item 5): an abandoned untimed bot game stayed among the live games for
// ever and refused its player every quick match with `already_playing`.
#[tokio::test]
async fn an_untimed_bot_game_never_blocks_quick_match_and_ends_when_abandoned() {
    let server = TestServer::sqlite("qm-abandoned").await;
    let ann = server.register("ann", "10k").await;
    let (_, started) = ann
        .post("/api/bots/tengen-bot/play", json!({"size": 9}))
        .await;
    let game = started["game_id"].as_i64().unwrap();
    let live = |v: &Value| {
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["id"] == game)
    };
    assert!(live(&server.get("/api/games").await.1));
    // Quick match is open to Ann beside it.
    let (st, v) = ann
        .post("/api/match", json!({"sizes": [19], "speed": "live"}))
        .await;
    assert_eq!(
        (st, v["state"].as_str()),
        (StatusCode::ACCEPTED, Some("waiting")),
        "{v}"
    );
    // Ann never comes to the game: after 15 minutes it ends, annulled, and leaves the list.
    common::think(Duration::from_secs(15 * 60 + 1)).await;
    let mut snap = server.game(game).await;
    for _ in 0..500 {
        if snap["phase"] == "finished" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        snap = server.game(game).await;
    }
    assert_eq!(
        (snap["result"].as_str(), snap["annulled"].as_str()),
        (Some("Void"), Some("abandoned")),
        "{snap}"
    );
    assert!(!live(&server.get("/api/games").await.1));
}

/// On 19x19 a bot is chosen by the rank its level plays at there (BENCHMARKS.md, "The ladder on
/// 19x19"): an 8k player meets `tengen-2` (declared 8k, measured on 9x9) on 9x9, but on 19x19,
/// where level 2 plays about 3k, `tengen-improver` (about 10k there), even.
#[tokio::test]
async fn a_19x19_request_gets_the_bot_that_plays_its_rank_on_19x19() {
    let server = TestServer::sqlite("qm-bot-19").await;
    for (name, size, bot) in [("ben", 9, "tengen-2"), ("cho", 19, "tengen-improver")] {
        let player = server.register(name, "8k").await;
        let (st, v) = player
            .post(
                "/api/match",
                json!({"sizes": [size], "speed": "live", "rules": "japanese", "bot_after_s": 30}),
            )
            .await;
        assert_eq!(st, StatusCode::ACCEPTED, "{v}");
        let mut told = server.state.services.notices.subscribe(player.id());
        common::think(Duration::from_secs(31)).await;
        tokio::time::timeout(Duration::from_secs(20), told.recv())
            .await
            .unwrap()
            .unwrap();
        let (_, status) = player.get("/api/match").await;
        assert_eq!(status["state"], "matched", "{status}");
        assert_eq!(
            status["opponent"]["username"], bot,
            "{size}x{size}: {status}"
        );
        let game = status["game"].as_i64().unwrap();
        let (_, g) = player.get(&format!("/api/games/{game}")).await;
        assert_eq!(g["terms"]["size"], size);
        assert_eq!(g["terms"]["handicap"].as_u64().unwrap_or(0), 0, "{g}");
    }
}
