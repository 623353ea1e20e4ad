//! `tengen loadtest --bot-games N`: N games against one of the server's bots, kept going while
//! the players' games are measured, so that the players' move latency with the bots thinking
//! can be set beside the latency without them (issue 28, item 6: the games never wait for the
//! engine).
//!
//! Each bot game's guest takes White and passes after every bot move, so the bot is always
//! thinking; when the bot passes too (the game would go to counting) or has played
//! [`BOT_MOVES`] moves, the guest resigns and asks for a new game.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;

use crate::client::{connect, http};

/// Bot moves a game before its guest resigns and starts another (the opening and middle
/// game, where the bot searches the most).
const BOT_MOVES: u32 = 60;

/// Plays games against bot `name` on a `size` board at `addr` until `stop` turns true; returns
/// how many moves the bot made.
pub async fn keep_bot_thinking(
    addr: SocketAddr,
    name: String,
    size: u8,
    mut stop: watch::Receiver<bool>,
) -> anyhow::Result<u32> {
    let guest = http(addr, "POST", "/api/accounts/guest", None, None).await?;
    let token = guest["token"].as_str().context("token")?.to_string();
    let mut bot_moves = 0;
    while !*stop.borrow() {
        let started = http(
            addr,
            "POST",
            &format!("/api/bots/{name}/play"),
            Some(&json!({"size": size, "rules": "chinese", "color": "white"})),
            Some(&token),
        )
        .await?;
        let game = started["game_id"].as_i64().context("game id")?;
        let mut ws = connect(addr, &token, game).await?;
        let mut moves = 0;
        loop {
            let msg = tokio::select! {
                m = ws.next() => m,
                _ = stop.changed() => break,
            };
            let text = match msg {
                Some(Ok(Message::Text(text))) => text,
                // Pings and the like: tungstenite answers them.
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => {
                    anyhow::bail!("bot game {game}: the connection closed")
                }
                Some(Ok(_)) => continue,
            };
            let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            let event = &v["event"];
            if v["type"] != "event" || event["color"] != "black" {
                continue;
            }
            match event["type"].as_str() {
                Some("move") => {
                    moves += 1;
                    bot_moves += 1;
                    if moves >= BOT_MOVES {
                        break;
                    }
                    send(&mut ws, json!({"type": "pass", "game": game})).await?;
                }
                Some("pass") | Some("resign") => break,
                _ => {}
            }
        }
        // A game already over refuses the resignation: nothing to do then.
        let _ = send(&mut ws, json!({"type": "resign", "game": game})).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Ok(bot_moves)
}

async fn send(ws: &mut crate::client::Ws, v: Value) -> anyhow::Result<()> {
    ws.send(Message::Text(v.to_string().into())).await?;
    Ok(())
}
