//! Quick match: two requests that agree are paired at once and both players hear of it on
//! their sockets; a player in a live game is not paired into another; a lone request gets its
//! bot after the wait it chose.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use axum::http::StatusCode;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tengen_server::AppState;
use tengen_store::Store;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

mod common;

async fn state(tag: &str) -> AppState {
    let store = Store::open(&common::sqlite_url(&format!("qm-{tag}")))
        .await
        .unwrap();
    AppState::new(store, Duration::from_secs(30)).await.unwrap()
}

async fn call(
    s: &AppState,
    method: &str,
    path: &str,
    body: Option<Value>,
    token: &str,
) -> (StatusCode, Value) {
    let (st, _, v) = common::http(
        &tengen_server::app(s.clone()),
        method,
        path,
        body,
        Some(token),
    )
    .await;
    (st, v)
}

async fn register(s: &AppState, name: &str, rank: &str) -> String {
    let (st, _, v) = common::http(
        &tengen_server::app(s.clone()),
        "POST",
        "/api/accounts/register",
        Some(json!({"username": name, "password": "secret1", "rank": rank})),
        None,
    )
    .await;
    assert_eq!(st, StatusCode::CREATED, "{v}");
    v["token"].as_str().unwrap().to_string()
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn socket(addr: std::net::SocketAddr, token: &str) -> Socket {
    let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// The next text message of `kind`.
async fn next(ws: &mut Socket, kind: &str) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("no message within 20 s")
            .unwrap()
            .unwrap();
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    }
}

async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

#[tokio::test]
async fn two_agreeing_requests_are_paired_at_once_over_websockets() {
    let s = state("pair").await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let served = s.clone();
    tokio::spawn(async move {
        tengen_server::run(listener, served, std::future::pending())
            .await
            .unwrap();
    });
    let ann = register(&s, "ann", "5k").await;
    let bob = register(&s, "bob", "1k").await;
    let cid = register(&s, "cid", "5k").await;
    let mut a = socket(addr, &ann).await;
    let mut b = socket(addr, &bob).await;
    // Ann wants 19x19 or 13x13 against 3k or stronger; Cid only takes kyu players weaker than
    // 3k: Ann and Cid do not agree (Cid is weaker than Ann's range).
    send(
        &mut a,
        json!({"type": "match", "id": 1, "sizes": [19, 13], "speed": "live", "min_rank": "3k"}),
    )
    .await;
    let r = next(&mut a, "match").await;
    assert_eq!(
        (r["ref"].as_i64(), r["match"]["state"].as_str()),
        (Some(1), Some("waiting")),
        "{r}"
    );
    let (st, v) = call(
        &s,
        "POST",
        "/api/match",
        Some(json!({"sizes": [19], "speed": "live"})),
        &cid,
    )
    .await;
    assert_eq!(
        (st, v["state"].as_str()),
        (StatusCode::ACCEPTED, Some("waiting")),
        "{v}"
    );
    // Bob (1k) asks for 13x13: paired with Ann at once; four ranks apart, a HANDICAP game.
    send(
        &mut b,
        json!({"type": "match", "id": 7, "sizes": [13], "speed": "live"}),
    )
    .await;
    let r = next(&mut b, "match").await;
    assert_eq!(r["match"]["state"], "matched", "{r}");
    let game = r["match"]["game"].as_i64().unwrap();
    assert_eq!(r["match"]["opponent"]["username"], "ann");
    assert_eq!(r["match"]["game_type"], "handicap");
    assert_eq!(r["match"]["size"], 13);
    let pushed = next(&mut a, "matched").await;
    assert_eq!(pushed["match"]["game"], game, "{pushed}");
    assert_eq!(pushed["match"]["opponent"]["username"], "bob");
    let (_, g) = call(&s, "GET", &format!("/api/games/{game}"), None, &ann).await;
    assert_eq!(
        (
            g["black"]["username"].as_str(),
            g["white"]["username"].as_str(),
            g["terms"]["size"].as_u64()
        ),
        (Some("ann"), Some("bob"), Some(13))
    );
    let (_, status) = call(&s, "GET", "/api/match", None, &ann).await;
    assert_eq!(status["game"], game);
    // Ann plays a live game now: another live request is refused; a correspondence one waits.
    let (st, v) = call(
        &s,
        "POST",
        "/api/match",
        Some(json!({"sizes": [19], "speed": "live"})),
        &ann,
    )
    .await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("already_playing"))
    );
    send(
        &mut a,
        json!({"type": "match", "sizes": [9], "speed": "correspondence"}),
    )
    .await;
    assert_eq!(next(&mut a, "match").await["match"]["state"], "waiting");
    // Cid's request still waits, and can be withdrawn, once.
    let (st, _) = call(&s, "DELETE", "/api/match", None, &cid).await;
    assert_eq!(st, StatusCode::NO_CONTENT);
    let (st, v) = call(&s, "DELETE", "/api/match", None, &cid).await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("no_match_request"))
    );
    // Bad requests.
    let (st, v) = call(
        &s,
        "POST",
        "/api/match",
        Some(json!({"sizes": [], "speed": "live"})),
        &cid,
    )
    .await;
    assert_eq!(
        (st, v["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_match"))
    );
    let (st, _) = call(
        &s,
        "POST",
        "/api/match",
        Some(json!({"sizes": [19], "speed": "slow"})),
        &cid,
    )
    .await;
    assert_eq!(st, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_lone_request_gets_its_bot_after_the_chosen_wait() {
    let s = state("bot").await;
    let ann = register(&s, "ann", "20k").await;
    let (st, v) = call(
        &s,
        "POST",
        "/api/match",
        Some(json!({"sizes": [9], "speed": "live", "rules": "chinese", "bot_after_s": 30})),
        &ann,
    )
    .await;
    assert_eq!(
        (st, v["state"].as_str()),
        (StatusCode::ACCEPTED, Some("waiting")),
        "{v}"
    );
    // 29 s: still waiting.
    common::think(Duration::from_secs(29)).await;
    assert_eq!(
        call(&s, "GET", "/api/match", None, &ann).await.1["state"],
        "waiting"
    );
    // Past 30 s: a game against the built-in bot nearest Ann's rank, tengen-bot (10k): more
    // than two ranks stronger than Ann, so she takes stones (seed 002's HANDICAP game).
    let mut told = s.quick_match.notify.0.subscribe();
    common::think(Duration::from_secs(2)).await;
    let (user, msg) = tokio::time::timeout(Duration::from_secs(20), told.recv())
        .await
        .unwrap()
        .unwrap();
    let msg: Value = serde_json::from_str(&msg).unwrap();
    assert_eq!(msg["type"], "matched");
    let status = call(&s, "GET", "/api/match", None, &ann).await.1;
    assert_eq!(status, msg["match"]);
    let me = call(&s, "GET", "/api/me", None, &ann).await.1;
    assert_eq!(Some(user), me["id"].as_i64(), "told to Ann");
    assert_eq!(status["state"], "matched", "{status}");
    assert_eq!(status["opponent"]["username"], "tengen-bot");
    let game = status["game"].as_i64().unwrap();
    let (_, g) = call(&s, "GET", &format!("/api/games/{game}"), None, &ann).await;
    assert_eq!(g["terms"]["size"], 9);
    assert_eq!(g["terms"]["rules"], "chinese");
    assert_eq!(g["terms"]["take_back"], false);
    // Told as a game with a player is: with its type.
    assert!(status["game_type"].is_string(), "{status}");
    assert_eq!(status["game_type"], g["terms"]["game_type"]);
    assert_eq!(g["terms"]["time"]["system"], "byoyomi");
    assert!(g["terms"]["handicap"].as_u64().unwrap_or(0) >= 2, "{g}");
}
