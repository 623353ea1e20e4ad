//! `tengen bot --server`: a bot's engine in its own process plays a server's bot account over
//! the WebSocket, and takes its games up again after the server restarts (issue 28, item 6).
//! End to end: two `tengen` processes, a player speaking HTTP and the WebSocket.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// A child process killed when dropped, so that a failing test leaves none behind.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `tengen serve` on `addr` over the database `db`, with the remote bot `rb`; its address.
fn serve(addr: &str, db: &Path) -> (Proc, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["serve", "--addr", addr, "--db"])
        .arg(db)
        .args(["--bot", "rb@3k=remote", "--accounts-per-address", "100"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    while !line.contains("serving on") {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "the server stopped");
    }
    let url = line
        .split("http://")
        .nth(1)
        .unwrap()
        .trim()
        .trim_end_matches('/');
    (Proc(child), url.parse().unwrap())
}

/// `tengen bot --server URL --name rb ENGINE...`, trusting the tests' authority.
fn bot(url: &str, password: &str, engine: &[&str]) -> Proc {
    let ca = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tls/ca.crt");
    let child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["bot", "--server", url, "--name", "rb", "--ca"])
        .arg(ca)
        .args(engine)
        .env("TENGEN_BOT_PASSWORD", password)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    Proc(child)
}

/// HTTP/1.1 to the server: the status and the JSON body.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<Value>,
    token: Option<&str>,
) -> (u16, Value) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{auth}Connection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).await.unwrap();
    let mut resp = Vec::new();
    stream.read_to_end(&mut resp).await.unwrap();
    let text = String::from_utf8_lossy(&resp);
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// Waits (up to a minute) until `check` holds: the other processes work meanwhile.
async fn until<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + Duration::from_secs(60);
    while !check().await {
        assert!(Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn moves(addr: SocketAddr, game: i64) -> Vec<Value> {
    let (_, snap) = http(addr, "GET", &format!("/api/games/{game}"), None, None).await;
    snap["moves"].as_array().cloned().unwrap_or_default()
}

async fn rb_available(addr: SocketAddr) -> bool {
    let (_, bots) = http(addr, "GET", "/api/bots", None, None).await;
    bots["bots"]
        .as_array()
        .unwrap()
        .iter()
        .any(|b| b["name"] == "rb" && b["available"] == true)
}

/// The player's message `msg` in the game, over a WebSocket of their own; the server's
/// answer (its `ack` or `error`).
async fn say(addr: SocketAddr, token: &str, msg: Value) -> Value {
    let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let mut msg = msg;
    msg["id"] = json!("mine");
    ws.send(Message::Text(msg.to_string().into()))
        .await
        .unwrap();
    loop {
        let t = match futures_util::StreamExt::next(&mut ws).await {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(_)) => continue,
            other => panic!("the socket closed: {other:?}"),
        };
        let v: Value = serde_json::from_str(&t).unwrap();
        if v["ref"] == "mine" {
            return v;
        }
    }
}

/// A point on the 9x9 board that no move took.
async fn free_point(addr: SocketAddr, game: i64) -> String {
    let taken: Vec<String> = moves(addr, game)
        .await
        .iter()
        .map(|m| m["point"].as_str().unwrap().to_string())
        .collect();
    ["C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5", "D4", "F6"]
        .into_iter()
        .find(|p| !taken.iter().any(|t| t == p))
        .unwrap()
        .to_string()
}

/// The player starts a game against `rb` as White (`ask`); the bot's opening move arrives.
async fn start_and_see_the_bot_open(addr: SocketAddr, token: &str, ask: Value) -> i64 {
    let (status, started) = http(addr, "POST", "/api/bots/rb/play", Some(ask), Some(token)).await;
    assert_eq!(status, 200, "{started}");
    let game = started["game_id"].as_i64().unwrap();
    until("the bot's first move", || async {
        moves(addr, game).await.len() == 1
    })
    .await;
    game
}

/// The player moves in `game`; the bot's answer makes `after` moves in all.
async fn play_and_see_the_answer(addr: SocketAddr, token: &str, game: i64, after: usize) {
    let point = free_point(addr, game).await;
    let msg = json!({ "type": "move", "game": game, "point": point });
    let ack = say(addr, token, msg).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    until("the bot's answer", || async {
        moves(addr, game).await.len() == after
    })
    .await;
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-remote-bot-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_bot_plays_its_games_and_takes_them_up_after_a_restart() {
    let dir = scratch("plain");
    let db = dir.join("tengen.db");
    let (server, addr) = serve("127.0.0.1:0", &db);

    // Declared, but its engine is not connected: no game starts.
    assert!(!rb_available(addr).await);
    let who = json!({ "username": "alice", "password": "alice-heron-violet-42", "rank": "10k" });
    let (status, signed) = http(addr, "POST", "/api/accounts/register", Some(who), None).await;
    assert_eq!(status, 201, "{signed}");
    let token = signed["token"].as_str().unwrap().to_string();
    let ask = json!({ "size": 9, "color": "white" });
    let (status, refused) = http(
        addr,
        "POST",
        "/api/bots/rb/play",
        Some(ask.clone()),
        Some(&token),
    )
    .await;
    assert_eq!(
        (status, refused["error"]["code"].as_str()),
        (503, Some("bot_offline")),
        "{refused}"
    );

    // The operator gives the bot a password; its engine signs in from "another machine".
    let password = bot_password(&db);
    assert_eq!(password.len(), 48);
    let wrong = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["bot", "--server", &format!("http://{addr}"), "--name", "rb"])
        .env("TENGEN_BOT_PASSWORD", "not-the-password")
        .output()
        .unwrap();
    assert!(!wrong.status.success(), "a wrong password ends the process");
    let _bot = bot(&format!("http://{addr}"), &password, &["--level", "1"]);
    until("the bot is connected", || rb_available(addr)).await;

    // Alice plays White: the bot opens, and answers her move.
    let game = start_and_see_the_bot_open(addr, &token, ask).await;
    play_and_see_the_answer(addr, &token, game, 3).await;
    let seen = moves(addr, game).await;
    assert_eq!(seen[0]["color"], "black");
    assert_eq!(seen[2]["color"], "black");

    // The server restarts on the same database and address: the bot connects again, takes the
    // game up from its events, and answers the next move.
    drop(server);
    let (_server, again) = serve(&addr.to_string(), &db);
    assert_eq!(again, addr);
    until("the bot is back", || rb_available(addr)).await;
    play_and_see_the_answer(addr, &token, game, 5).await;

    let ack = say(addr, &token, json!({ "type": "resign", "game": game })).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let (_, snap) = http(addr, "GET", &format!("/api/games/{game}"), None, None).await;
    assert_eq!(snap["result"], "B+R");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A TLS terminator as a deployment's reverse proxy: TLS on a port of its own with the test
/// certificate for `localhost` (tests/tls/), each connection passed on to `backend` in plain.
async fn tls_proxy(backend: SocketAddr) -> SocketAddr {
    use tokio_rustls::rustls::pki_types::pem::PemObject;
    use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tls");
    let certs: Vec<CertificateDer> = CertificateDer::pem_file_iter(dir.join("localhost.crt"))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let key = PrivateKeyDer::from_pem_file(dir.join("localhost.key")).unwrap();
    let provider = std::sync::Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = tokio_rustls::rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let Ok(mut plain) = tokio::net::TcpStream::connect(backend).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
            });
        }
    });
    addr
}

/// The operator's `tengen admin bot-password rb`: the password it prints.
fn bot_password(db: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["admin", "bot-password", "rb", "--db"])
        .arg(db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_bot_connects_over_tls_checking_the_certificate_with_a_gtp_engine() {
    let dir = scratch("tls");
    let db = dir.join("tengen.db");
    let (_server, addr) = serve("127.0.0.1:0", &db);
    let password = bot_password(&db);
    let url = format!("https://localhost:{}", tls_proxy(addr).await.port());

    // Without the private authority the certificate is refused: the bot never connects.
    let mut refused = Proc(
        Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["bot", "--server", &url, "--name", "rb"])
            .env("TENGEN_BOT_PASSWORD", &password)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    BufReader::new(refused.0.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("TLS"), "{line}");
    assert!(!rb_available(addr).await);
    drop(refused);

    // The engine a GTP program (this one's network search), started for the game.
    let gtp = format!(
        "{} gtp --engine nn --visits 1 --threads 1",
        env!("CARGO_BIN_EXE_tengen")
    );
    let _bot = bot(&url, &password, &["--gtp", &gtp]);
    until("the bot is connected over TLS", || rb_available(addr)).await;
    let who = json!({ "username": "carol", "password": "carol-heron-violet-42", "rank": "10k" });
    let (_, signed) = http(addr, "POST", "/api/accounts/register", Some(who), None).await;
    let token = signed["token"].as_str().unwrap().to_string();
    let ask = json!({ "size": 9, "color": "white" });
    let game = start_and_see_the_bot_open(addr, &token, ask).await;
    play_and_see_the_answer(addr, &token, game, 3).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_bot_whose_engine_fails_resigns_rather_than_leave_the_game_hanging() {
    let dir = scratch("failing");
    let db = dir.join("tengen.db");
    let (_server, addr) = serve("127.0.0.1:0", &db);
    let password = bot_password(&db);
    // A GTP engine that exits at once: the game cannot be played.
    let _bot = bot(&format!("http://{addr}"), &password, &["--gtp", "false"]);
    until("the bot is connected", || rb_available(addr)).await;
    let who = json!({ "username": "dave", "password": "dave-heron-violet-42", "rank": "10k" });
    let (_, signed) = http(addr, "POST", "/api/accounts/register", Some(who), None).await;
    let token = signed["token"].as_str().unwrap().to_string();
    let ask = json!({ "size": 9, "color": "white" });
    let (status, started) = http(addr, "POST", "/api/bots/rb/play", Some(ask), Some(&token)).await;
    assert_eq!(status, 200, "{started}");
    let game = started["game_id"].as_i64().unwrap();
    until("the bot's resignation", || async {
        let (_, snap) = http(addr, "GET", &format!("/api/games/{game}"), None, None).await;
        snap["result"] == "W+R"
    })
    .await;
    let _ = std::fs::remove_dir_all(&dir);
}
