//! A minimal client of a running server, for the load generators (`tengen loadtest`, its bot
//! games, `tengen chaos`) and the remote bot (`tengen bot --server`): HTTP/1.1 for the set-up requests and the WebSocket as the browser
//! client opens it.

use std::net::SocketAddr;

use anyhow::Context;
use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// Minimal HTTP/1.1 for the set-up requests (the server is on this machine).
pub(crate) async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> anyhow::Result<Value> {
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{auth}Connection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).await?;
    let mut resp = Vec::new();
    stream.read_to_end(&mut resp).await?;
    let text = String::from_utf8_lossy(&resp);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .context("malformed HTTP response")?;
    let status = head.split_whitespace().nth(1).unwrap_or("0");
    if !status.starts_with('2') {
        return Err(HttpStatus {
            status: status.parse().unwrap_or(0),
            what: format!("{method} {path}: {status} {body}"),
        }
        .into());
    }
    Ok(serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A refusal from the server: its HTTP status, and the request and answer in words.
#[derive(Debug)]
pub(crate) struct HttpStatus {
    pub status: u16,
    pub what: String,
}

impl std::fmt::Display for HttpStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for HttpStatus {}

pub(crate) type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket to the server as the holder of `token`.
pub(crate) async fn open(addr: SocketAddr, token: &str) -> anyhow::Result<Ws> {
    let mut req = format!("ws://{addr}/api/ws").into_client_request()?;
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse()?);
    // A small read buffer, as the server has: tungstenite zeroes the free part of its buffer
    // (128 KiB by default) before each read, which was a quarter of the load generator's CPU.
    let config =
        tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(4096);
    let (ws, _) = tokio_tungstenite::connect_async_with_config(req, Some(config), false).await?;
    Ok(ws)
}

pub(crate) async fn connect(addr: SocketAddr, token: &str, game: i64) -> anyhow::Result<Ws> {
    let mut ws = open(addr, token).await?;
    ws.send(Message::Text(
        json!({"type": "watch", "game": game}).to_string().into(),
    ))
    .await?;
    Ok(ws)
}
