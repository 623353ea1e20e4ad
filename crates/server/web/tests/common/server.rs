//! A test server: the app over a database of its own, served on 127.0.0.1:0, with players who
//! call its HTTP routes and open WebSockets to it.

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tengen_app::bots::BotSpec;
use tengen_server::{app, AppState};
use tengen_store::Store;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The disconnection grace every test server has unless told otherwise.
pub const GRACE: Duration = Duration::from_secs(30);

/// The password every registered test account has.
pub const PASSWORD: &str = "heron-violet-42";

/// A raw WebSocket to the server.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// The state over a store opened at `url`, with `grace` and the built-in bots and `bots`.
pub async fn app_state(url: &str, grace: Duration, bots: Vec<BotSpec>) -> AppState {
    let store = Store::open(url).await.unwrap();
    AppState::with_bots(store, grace, bots).await.unwrap()
}

/// The app serving on 127.0.0.1:0 until dropped (or [`TestServer::stop`]ped).
pub struct TestServer {
    pub state: AppState,
    /// The router, for requests sent straight into it (no socket).
    pub app: Router,
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl TestServer {
    /// A server over a fresh SQLite database named after `tag` (unique per test).
    pub async fn sqlite(tag: &str) -> TestServer {
        TestServer::start(&super::sqlite_url(tag)).await
    }

    /// A server over the database at `url`, with a 30 s grace and the built-in bots.
    pub async fn start(url: &str) -> TestServer {
        TestServer::start_with(url, GRACE, Vec::new()).await
    }

    /// A server over the database at `url`, with `grace` and `bots` beside the built-in ones.
    pub async fn start_with(url: &str, grace: Duration, bots: Vec<BotSpec>) -> TestServer {
        TestServer::serve(app_state(url, grace, bots).await).await
    }

    /// A server over the database at `url` with no cap on WebSockets per address: every test
    /// socket comes from 127.0.0.1, and some tests open more than the cap to test another.
    pub async fn start_uncapped(url: &str) -> TestServer {
        let mut state = app_state(url, GRACE, Vec::new()).await;
        state.edges = std::sync::Arc::new(tengen_server::edges::Edges::new(
            Vec::new(),
            0,
            tengen_server::edges::BODY_DEADLINE,
        ));
        TestServer::serve(state).await
    }

    /// Serves `state`, made by the caller (a cluster node, say).
    pub async fn serve(state: AppState) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = state.clone();
        let task = tokio::spawn(async move {
            tengen_server::run(listener, served, async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        });
        TestServer {
            app: app(state.clone()),
            state,
            addr,
            stop: Some(stop),
            task,
        }
    }

    /// Stops serving at once, without any shutdown courtesy (as dropping it does).
    pub async fn stop(self) {
        drop(self);
    }

    /// The store under the server.
    pub fn store(&self) -> &Store {
        &self.state.services.store
    }

    /// One request with no session: the status and the body as JSON.
    pub async fn send(&self, method: &str, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        let (status, _, value) = http(&self.app, method, path, body, None).await;
        (status, value)
    }

    /// `GET path` with no session.
    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.send("GET", path, None).await
    }

    /// `POST path` with `body` and no session.
    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send("POST", path, Some(body)).await
    }

    /// The game `id` as `GET /api/games/{id}` answers it (status unchecked).
    pub async fn game(&self, id: i64) -> Value {
        self.get(&format!("/api/games/{id}")).await.1
    }

    /// A request made by hand, sent straight into the router.
    pub async fn oneshot(&self, req: Request<Body>) -> axum::response::Response {
        use tower::ServiceExt;
        self.app.clone().oneshot(req).await.unwrap()
    }

    /// Registers `name` at `rank` (password [`PASSWORD`]); the new player, signed in.
    pub async fn register(&self, name: &str, rank: &str) -> Client {
        let (status, body) = self
            .post(
                "/api/accounts/register",
                json!({"username": name, "password": PASSWORD, "rank": rank}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        self.signed_in(&body)
    }

    /// A new guest, signed in.
    pub async fn guest(&self) -> Client {
        let (status, body) = self.send("POST", "/api/accounts/guest", None).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        self.signed_in(&body)
    }

    /// The player of a register, login or guest answer `body`.
    pub fn signed_in(&self, body: &Value) -> Client {
        let mut c = self.client(body["token"].as_str().unwrap());
        c.user = body["user"].clone();
        c
    }

    /// A player by session token (`user` is left null).
    pub fn client(&self, token: &str) -> Client {
        Client {
            app: self.app.clone(),
            addr: self.addr,
            token: token.to_string(),
            user: Value::Null,
        }
    }

    /// Ann and Bob (5k) in a 9x9 Chinese game in which Ann is Black (Bob guesses the parity
    /// wrong); the players and the game's id.
    pub async fn ann_and_bob_game(&self) -> (Client, Client, i64) {
        let ann = self.register("ann", "5k").await;
        let bob = self.register("bob", "5k").await;
        let j = self
            .new_game(
                &ann,
                &bob,
                json!({"size": 9, "rules": "chinese", "parity": "odd"}),
                json!({"guess": "even"}),
            )
            .await;
        let id = j["game_id"].as_i64().unwrap();
        (ann, bob, id)
    }

    /// Opens a room as `owner` and joins it as `partner`; returns the join answer.
    pub async fn new_game(
        &self,
        owner: &Client,
        partner: &Client,
        room: Value,
        join: Value,
    ) -> Value {
        let (s, r) = owner.post("/api/rooms", room).await;
        assert_eq!(s, StatusCode::CREATED, "{r}");
        let (s, j) = partner
            .post(&format!("/api/rooms/{}/join", r["id"]), join)
            .await;
        assert_eq!(s, StatusCode::OK, "{j}");
        j
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.task.abort();
    }
}

/// A signed-in player of a [`TestServer`]: HTTP calls with its session, and its WebSockets.
#[derive(Clone)]
pub struct Client {
    app: Router,
    addr: SocketAddr,
    pub token: String,
    /// The account as the server answered it (null for [`TestServer::client`]).
    pub user: Value,
}

impl Client {
    /// The account's id.
    pub fn id(&self) -> i64 {
        self.user["id"].as_i64().unwrap()
    }

    /// One request with this player's session (a bearer token): the status and the body as JSON.
    pub async fn send(&self, method: &str, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        let (status, _, value) = http(&self.app, method, path, body, Some(&self.token)).await;
        (status, value)
    }

    /// `GET path`.
    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.send("GET", path, None).await
    }

    /// `POST path` with `body`.
    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send("POST", path, Some(body)).await
    }

    /// `POST path` with no body.
    pub async fn post_empty(&self, path: &str) -> (StatusCode, Value) {
        self.send("POST", path, None).await
    }

    /// `DELETE path`.
    pub async fn delete(&self, path: &str) -> (StatusCode, Value) {
        self.send("DELETE", path, None).await
    }

    /// A WebSocket as this player, once the server's welcome has arrived.
    pub async fn socket(&self) -> Socket {
        let mut s = Socket {
            ws: self.try_connect().await.unwrap(),
            next_id: 1,
        };
        let welcome = s.recv().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        s
    }

    /// The WebSocket handshake as this player, refusals included; nothing read.
    pub async fn try_connect(&self) -> Result<Ws, tokio_tungstenite::tungstenite::Error> {
        let mut req = format!("ws://{}/api/ws", self.addr)
            .into_client_request()
            .unwrap();
        req.headers_mut().insert(
            "authorization",
            format!("Bearer {}", self.token).parse().unwrap(),
        );
        tokio_tungstenite::connect_async(req)
            .await
            .map(|(ws, _)| ws)
    }
}

/// A player's WebSocket: JSON in, JSON out.
pub struct Socket {
    pub ws: Ws,
    next_id: u64,
}

impl Socket {
    /// Sends `msg` as it is.
    pub async fn send(&mut self, msg: Value) {
        self.send_text(&msg.to_string()).await;
    }

    /// Sends `text`, JSON or not.
    pub async fn send_text(&mut self, text: &str) {
        self.ws
            .send(Message::Text(text.to_string().into()))
            .await
            .unwrap();
    }

    /// The next message, within 20 s.
    pub async fn recv(&mut self) -> Value {
        self.recv_within(Duration::from_secs(20)).await
    }

    /// The next message, within `limit`.
    pub async fn recv_within(&mut self, limit: Duration) -> Value {
        loop {
            let m = tokio::time::timeout(limit, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("no message within {limit:?}"))
                .expect("socket closed")
                .unwrap();
            if let Message::Text(t) = m {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }

    /// Reads until a message of type `kind` arrives.
    pub async fn next_of_type(&mut self, kind: &str) -> Value {
        loop {
            let v = self.recv().await;
            if v["type"] == kind {
                return v;
            }
        }
    }

    /// Reads until an event of `kind` in `game` arrives.
    pub async fn event(&mut self, game: i64, kind: &str) -> Value {
        loop {
            let v = self.recv().await;
            if v["type"] == "event" && v["game"] == game && v["event"]["type"] == kind {
                return v;
            }
        }
    }

    /// Sends `msg` with a fresh id and returns the reply (`ack`, `snapshot` or `error`) to it,
    /// skipping broadcast events.
    pub async fn call(&mut self, mut msg: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        msg["id"] = json!(id);
        self.send(msg).await;
        loop {
            let v = self.recv().await;
            if v["ref"] == json!(id) {
                return v;
            }
        }
    }

    /// Watches `game`: the snapshot.
    pub async fn watch(&mut self, game: i64) -> Value {
        self.call(json!({"type": "watch", "game": game})).await
    }

    /// Plays a stone at `point` (`"D4"`) in `game`: the reply.
    pub async fn play(&mut self, game: i64, point: &str) -> Value {
        self.call(json!({"type": "move", "game": game, "point": point}))
            .await
    }

    /// Passes in `game`: the reply.
    pub async fn pass(&mut self, game: i64) -> Value {
        self.call(json!({"type": "pass", "game": game})).await
    }

    /// Resigns `game`: the reply.
    pub async fn resign(&mut self, game: i64) -> Value {
        self.call(json!({"type": "resign", "game": game})).await
    }

    /// Says `text` in `game`'s chat: the reply.
    pub async fn chat(&mut self, game: i64, text: &str) -> Value {
        self.call(json!({"type": "chat", "game": game, "text": text}))
            .await
    }

    /// The code of the close frame this socket receives next (within 20 s); `None` when the
    /// connection ends without one.
    pub async fn close_code(&mut self) -> Option<u16> {
        tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                match self.ws.next().await {
                    None | Some(Err(_)) => return None,
                    Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                    Some(Ok(_)) => continue,
                }
            }
        })
        .await
        .expect("the socket closes")
    }
}

/// Asserts that `v` is an `ack`.
pub fn ok(v: &Value) {
    assert_eq!(v["type"], "ack", "{v}");
}

/// Asserts that `v` is an `error` with `code`.
pub fn err(v: &Value, code: &str) {
    assert_eq!(
        (v["type"].as_str(), v["code"].as_str()),
        (Some("error"), Some(code)),
        "{v}"
    );
}

/// The body of `resp` as JSON (or as a JSON string when it is not JSON).
pub async fn body_json(resp: axum::response::Response) -> Value {
    use http_body_util::BodyExt;
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    serde_json::from_slice(&bytes).unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into()))
}

/// One HTTP request straight into the router (no socket): the status, the `Set-Cookie` header
/// if any, and the body as JSON (or as a JSON string when it is not JSON).
pub async fn http(
    app: &Router,
    method: &str,
    path: &str,
    body: Option<Value>,
    token: Option<&str>,
) -> (StatusCode, Option<String>, Value) {
    use tower::ServiceExt;
    let mut req = Request::builder().method(method).uri(path);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = match body {
        Some(b) => req
            .header("content-type", "application/json")
            .body(Body::from(b.to_string())),
        None => req.body(Body::empty()),
    }
    .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let cookie = resp
        .headers()
        .get("set-cookie")
        .map(|v| v.to_str().unwrap().to_string());
    (status, cookie, body_json(resp).await)
}
