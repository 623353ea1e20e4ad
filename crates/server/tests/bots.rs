//! Playing bots: one request starts the game; the bot moves, passes, and accepts the count.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tengen_server::bots::{parse_spec, Engine};
use tengen_server::store::Store;
use tengen_server::{app, AppState};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

async fn http(
    state: &AppState,
    method: &str,
    path: &str,
    body: Option<Value>,
    token: Option<&str>,
) -> Value {
    let mut req = axum::http::Request::builder().method(method).uri(path);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = match body {
        Some(b) => req
            .header("content-type", "application/json")
            .body(axum::body::Body::from(b.to_string())),
        None => req.body(axum::body::Body::empty()),
    }
    .unwrap();
    let resp = app(state.clone()).oneshot(req).await.unwrap();
    let bytes = http_body_util::BodyExt::collect(resp.into_body())
        .await
        .unwrap()
        .to_bytes();
    serde_json::from_slice(&bytes).unwrap()
}

/// A guest plays `bot` on 9x9 as Black, passing whenever it is to move, and accepts the count.
/// Returns the result.
async fn play_against(bot: &str, extra: Vec<tengen_server::bots::BotSpec>) -> String {
    let dir = std::env::temp_dir().join(format!("tengen-bots-{}-{bot}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&format!("sqlite:{}", dir.join("t.db").display()))
        .await
        .unwrap();
    let state = AppState::with_bots(store, Duration::from_secs(30), extra)
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let s = state.clone();
    tokio::spawn(async move { tengen_server::run(listener, s, std::future::pending()).await });

    let bots = http(&state, "GET", "/api/bots", None, None).await;
    assert!(
        bots["bots"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["name"] == bot),
        "{bots}"
    );
    let guest = http(&state, "POST", "/api/accounts/guest", None, None).await;
    let token = guest["token"].as_str().unwrap().to_string();
    let started = http(
        &state,
        "POST",
        &format!("/api/bots/{bot}/play"),
        Some(json!({"size": 9, "color": "black"})),
        Some(&token),
    )
    .await;
    let game = started["game_id"].as_i64().unwrap();
    assert_eq!(started["game"]["white"]["username"], bot);

    let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let send = |v: Value| Message::Text(v.to_string().into());
    ws.send(send(json!({"type": "watch", "game": game})))
        .await
        .unwrap();
    let mut passes_sent = 0;
    let mut accepted = false;
    loop {
        let m = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .expect("the bot answers")
            .unwrap()
            .unwrap();
        let Message::Text(t) = m else { continue };
        let v: Value = serde_json::from_str(t.as_str()).unwrap();
        let state_now = match v["type"].as_str() {
            Some("snapshot") => v["state"].clone(),
            Some("event") => {
                if v["event"]["type"] == "finished" {
                    return v["event"]["result"].as_str().unwrap().to_string();
                }
                http(&state, "GET", &format!("/api/games/{game}"), None, None).await
            }
            Some("error") => panic!("{v}"),
            _ => continue,
        };
        match (state_now["phase"].as_str(), state_now["to_move"].as_str()) {
            (Some("play"), Some("black")) => {
                ws.send(send(json!({"type": "pass", "game": game})))
                    .await
                    .unwrap();
                passes_sent += 1;
                assert!(passes_sent < 200, "the bot never stops");
            }
            (Some("scoring"), _) if !accepted => {
                accepted = true;
                ws.send(send(json!({"type": "accept_score", "game": game})))
                    .await
                    .unwrap();
            }
            _ => {}
        }
    }
}

#[tokio::test]
async fn a_guest_plays_the_built_in_bot_to_the_end() {
    let result = play_against("tengen-bot", Vec::new()).await;
    // Black only passed: White wins on the count.
    assert!(result.starts_with("W+"), "{result}");
}

#[tokio::test]
#[ignore = "needs GNU Go (/usr/games/gnugo); run by .ci/run"]
async fn a_guest_plays_gnu_go_as_a_gtp_bot() {
    if !std::path::Path::new("/usr/games/gnugo").exists() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "GNU Go is required in CI"
        );
        eprintln!("skipping: no GNU Go");
        return;
    }
    let spec = parse_spec("gnugo@10k=/usr/games/gnugo --mode gtp --level 1").unwrap();
    assert_eq!(
        spec.engine,
        Engine::Gtp("/usr/games/gnugo --mode gtp --level 1".into())
    );
    let result = play_against("gnugo", vec![spec]).await;
    assert!(result.starts_with("W+"), "{result}");
}

#[test]
fn bot_specs() {
    assert_eq!(parse_spec("g@3d=gnugo --mode gtp").unwrap().rank, "3d");
    assert!(parse_spec("nothing").is_err());
    assert!(parse_spec("g@99k=x").is_err());
    assert!(parse_spec("g=").is_err());
}
