//! The WebSocket protocol (`GET /api/ws`, documented in `docs/protocol.md`).
//!
//! One socket per client, authenticated by the session cookie or bearer token at the upgrade.
//! The client watches games (receiving a snapshot or the events it missed, then every event) and
//! acts in them; each accepted action is acknowledged after it is stored. Bad input (malformed
//! JSON, unknown types, oversize messages, floods, actions in someone else's game) gets an
//! `error` message with a stable code and changes nothing.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::sync::Arc;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tengen_rules::coord::gtp;
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::error::{ApiError, HttpError};
use crate::session::SignedIn;
use crate::state::AppState;
use crate::throttle::ClientAddr;
use crate::ws_msg::{ClientMsg, ServerMsg, TYPES};
use tengen_app::accounts::User;
use tengen_core::game::Action;
use tengen_live::actor::{GameHandle, Record};

/// Largest message a client may send, in bytes.
pub const MAX_MESSAGE: usize = 4096;
/// Messages a client may send in a burst, and per second after it.
const BURST: f64 = 40.0;
const PER_SECOND: f64 = 20.0;
/// Messages refused within [`FLOOD_WINDOW`] (a flood that goes on after its errors) that close
/// the connection.
const FLOOD_CLOSE: u32 = 100;
const FLOOD_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);
/// WebSockets one account may hold open at once.
pub const MAX_SOCKETS_PER_USER: u32 = 32;

/// Upgrades an authenticated request to the protocol.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    addr: ClientAddr,
    session: Result<SignedIn, HttpError>,
) -> Response {
    // A page of another site must not act as its visitor (cross-site WebSocket hijacking).
    if let Err(e) = state.edges.check_origin(&headers) {
        return HttpError(e).into_response();
    }
    let (user, bot_only) = match session {
        // A bot's session plays its games here and does nothing else (sessions.rs).
        Ok(SignedIn(s)) => {
            let bot_only =
                tengen_app::sessions::require_player(&s, state.services.bots_as_players).is_err();
            (s.user, bot_only)
        }
        Err(e) => return e.into_response(),
    };
    // Every tab and bot needs one or two; hundreds are an attack on the server's memory. The
    // seat is taken here, before the upgrade, and given back if the upgrade fails.
    let Some(seat) = state.services.online.seat(&user, MAX_SOCKETS_PER_USER) else {
        return HttpError(ApiError::Limited(
            "too_many_connections",
            format!("at most {MAX_SOCKETS_PER_USER} open connections an account"),
        ))
        .into_response();
    };
    // One address opening sockets under many accounts is capped too.
    let addr_seat = match state.edges.seat(addr.0) {
        Ok(s) => s,
        Err(e) => return HttpError(e).into_response(),
    };
    let session = crate::session::session_token(&headers)
        .map(|t| tengen_app::accounts::token_digest(&t))
        .unwrap_or_default();
    ws
        // Larger frames reach us so that oversize messages get a typed error, not a
        // reset.
        .max_message_size(64 * 1024)
        // The library's default, 128 KiB, is allocated for each connection and zeroed
        // before every read: most of the cost of receiving a move, and 2.5 GiB for
        // 10,000 games. Messages are small; a larger one still arrives, in more reads.
        .read_buffer_size(4096)
        .on_upgrade(move |socket| async move {
            connection(socket, state, user, bot_only, session, seat).await;
            drop(addr_seat);
        })
}

/// An `ack` of a message about `game`.
fn ack_game(reference: &Value, game: i64) -> String {
    ServerMsg::Ack {
        reference,
        game: Some(game),
        seq: None,
        lobby_chat: None,
        tournament: None,
    }
    .text()
}

/// An `error` message: `code` and `message`, in answer to `reference`.
fn error(reference: &Value, code: &str, message: &str) -> String {
    ServerMsg::Error {
        reference,
        game: None,
        code,
        message,
    }
    .text()
}

struct Conn {
    state: AppState,
    user: User,
    out: mpsc::Sender<Message>,
    watching: HashMap<i64, (GameHandle, JoinHandle<()>)>,
    /// The tournaments this connection follows.
    tournaments: HashSet<i64>,
    tokens: f64,
    /// Messages the bucket refused since `refused_since`.
    refused: u32,
    refused_since: Instant,
    last: Instant,
    /// When this connection opened: pings carry the ms since then.
    epoch: Instant,
    /// Smoothed round trip of this connection, ms, measured by WebSocket pings.
    rtt_ms: u64,
    /// Per game this player moved in: the opponent to tell it is their move (a live
    /// correspondence game), or `None`; read from the store once per game.
    turn_of: HashMap<i64, Option<i64>>,
    /// The players this one has a block with (either way), read when the first lobby line
    /// arrives and again at each `lobby_join`: their lobby lines are not passed on.
    blocks: Option<HashSet<i64>>,
    /// A bot's session: it plays (and chats in) its own games, and nothing else.
    bot_only: bool,
}

/// How often the server pings each connection to measure its round trip.
const PING_EVERY: std::time::Duration = std::time::Duration::from_secs(5);
/// How long a connection with nothing to write waits before a ping of its own.
const PING_IDLE: std::time::Duration = std::time::Duration::from_secs(6);

/// One client's socket: its messages in turn until it closes, floods or logs out, and meanwhile
/// the player's quick matches; then the games it watched hear that it is gone.
async fn connection(
    socket: WebSocket,
    state: AppState,
    user: User,
    bot_only: bool,
    session: String,
    seat: tengen_app::online::Seat,
) {
    crate::metrics::CONNECTIONS.inc();
    crate::metrics::CONNECTIONS_OPENED.inc();
    let mut logouts = state.logouts.subscribe();
    let mut matches = state.services.notices.subscribe(user.id);
    let mut events = state.services.tournaments.notify.subscribe();
    let mut lobby = state.services.lobby_chat.lines.subscribe();
    let (sink, mut stream) = socket.split();
    let (out, out_rx) = mpsc::channel::<Message>(1024);
    let epoch = Instant::now();
    let writer = tokio::spawn(write_loop(sink, out_rx, epoch));
    let mut conn = Conn::new(state, user, out, epoch);
    // A bot's session: its own games and nothing else (see `dispatch` and app's `game_chat`).
    conn.bot_only = bot_only;
    conn.send(ServerMsg::Welcome { user: &conn.user }.text())
        .await;
    loop {
        let msg = tokio::select! {
            m = stream.next() => m,
            told = matches.recv() => {
                match conn.on_told(told).await {
                    ControlFlow::Break(()) => break,
                    ControlFlow::Continue(()) => continue,
                }
            }
            changed = events.recv() => {
                conn.on_tournament(changed, &mut events).await;
                continue;
            }
            line = lobby.recv() => {
                conn.on_lobby_line(line, &mut lobby).await;
                continue;
            }
            ended = logouts.recv() => {
                match conn.on_logout(ended, &mut logouts, &session).await {
                    ControlFlow::Break(()) => break,
                    ControlFlow::Continue(()) => continue,
                }
            }
        };
        let Some(Ok(msg)) = msg else { break };
        if conn.on_message(msg).await.is_break() {
            break;
        }
    }
    drop(seat);
    if conn.state.services.online.connections(conn.user.id) == 0 {
        // The player's last connection: a quick-match request of theirs may follow them out.
        let s = &conn.state.services;
        tengen_app::quick_match::player_left(&s.online, &s.quick_match, &conn.user);
    }
    conn.leave_all().await;
    drop(conn);
    let _ = writer.await;
    crate::metrics::CONNECTIONS.dec();
}

/// Writes what is queued for one connection, and pings it.
///
/// What is queued goes out in one write: before writing, the writer lets the tasks that are
/// ready run first (an acknowledgement and the event it acknowledges are queued by two tasks a
/// moment apart), so a move costs its mover one system call, not two. Pings measure the
/// connection's round trip, for lag compensation (browsers answer them with pongs on their own);
/// one rides along with the first write after [`PING_EVERY`], and only an idle connection gets
/// one of its own, so on an active connection a ping costs no system call.
async fn write_loop(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut out_rx: mpsc::Receiver<Message>,
    epoch: Instant,
) {
    let ping = |now: Instant| {
        let ms = now.duration_since(epoch).as_millis() as u64;
        Message::Ping(ms.to_be_bytes().to_vec().into())
    };
    // The first ping at once: lag compensation needs a round trip before the first move.
    let mut last_ping = epoch;
    if sink.feed(ping(epoch)).await.is_err() || sink.flush().await.is_err() {
        return;
    }
    'write: loop {
        let first = tokio::select! {
            m = out_rx.recv() => match m {
                Some(m) => Some(m),
                None => break,
            },
            _ = tokio::time::sleep_until(last_ping + PING_IDLE) => None,
        };
        if let Some(m) = first {
            tokio::task::yield_now().await;
            if sink.feed(m).await.is_err() {
                break;
            }
            while let Ok(m) = out_rx.try_recv() {
                if sink.feed(m).await.is_err() {
                    break 'write;
                }
            }
        }
        let now = Instant::now();
        if now.duration_since(last_ping) >= PING_EVERY {
            last_ping = now;
            if sink.feed(ping(now)).await.is_err() {
                break;
            }
        }
        if sink.flush().await.is_err() {
            break;
        }
    }
    let _ = sink.close().await;
}

impl Conn {
    /// A new connection of `user`'s, writing to `out`; `epoch` is when it opened.
    fn new(state: AppState, user: User, out: mpsc::Sender<Message>, epoch: Instant) -> Conn {
        Conn {
            state,
            user,
            out,
            watching: HashMap::new(),
            tournaments: HashSet::new(),
            tokens: BURST,
            refused: 0,
            refused_since: Instant::now(),
            last: Instant::now(),
            epoch,
            rtt_ms: 0,
            turn_of: HashMap::new(),
            blocks: None,
            bot_only: false,
        }
    }

    /// A message to this player (a pairing, a private message, a your-turn notice, a
    /// moderator's notice): sent on; a ban closes the connection after it. A mailbox that ended
    /// (the connection lagged its player's messages) is told to the client, and the connection
    /// closes so that the client comes back and reads its state afresh: nothing is skipped
    /// silently.
    async fn on_told(&self, told: Option<tengen_app::notices::Told>) -> ControlFlow<()> {
        let Some(told) = told else {
            let lagged = "this connection fell behind its messages; reconnect";
            self.send(error(&Value::Null, "lagging", lagged)).await;
            self.close(4008, "lagging").await;
            return ControlFlow::Break(());
        };
        self.send(told.text.to_string()).await;
        if told.closes {
            self.close(4003, "banned").await;
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// A tournament changed (`changed`: its id and its state): sent on if this connection
    /// follows it. Changes missed (this connection fell behind the channel) are not skipped
    /// silently: every tournament it follows is sent afresh, as `watch_tournament` sends it.
    async fn on_tournament(
        &self,
        changed: Result<(i64, Arc<str>), broadcast::error::RecvError>,
        events: &mut broadcast::Receiver<(i64, Arc<str>)>,
    ) {
        match changed {
            Ok((id, state)) if self.tournaments.contains(&id) => {
                // Always JSON (app writes it with serde); checked, not trusted, all the same.
                match serde_json::from_str(&state) {
                    Ok(tournament) => {
                        self.send(ServerMsg::TournamentChanged { tournament }.text())
                            .await
                    }
                    Err(e) => tracing::warn!(tournament = id, error = %e, "a state not JSON"),
                }
            }
            Err(broadcast::error::RecvError::Closed) => {
                *events = self.state.services.tournaments.notify.subscribe();
            }
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                tracing::debug!(user = self.user.id, missed, "tournament changes lagged");
                let mut ids: Vec<i64> = self.tournaments.iter().copied().collect();
                ids.sort_unstable();
                for id in ids {
                    self.send_tournament(id, &Value::Null).await;
                }
            }
            Ok(_) => {}
        }
    }

    /// A line of the lobby's chat: passed on unless this player has a block with its writer.
    /// Lines missed (this connection fell behind the channel) are not skipped silently: the
    /// lobby's last lines are sent afresh, as `lobby_join` sends them.
    async fn on_lobby_line(
        &mut self,
        line: Result<Arc<tengen_app::lobby_chat::Line>, broadcast::error::RecvError>,
        lobby: &mut broadcast::Receiver<Arc<tengen_app::lobby_chat::Line>>,
    ) {
        match line {
            Ok(line) => {
                if line.from_id != self.user.id && self.has_block_with(line.from_id).await {
                    return;
                }
                self.send(serde_json::to_string(&line.msg).unwrap_or_default())
                    .await
            }
            Err(broadcast::error::RecvError::Closed) => {
                *lobby = self.state.services.lobby_chat.lines.subscribe();
            }
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                tracing::debug!(user = self.user.id, missed, "lobby lines lagged");
                self.lobby_join(Value::Null).await
            }
        }
    }

    /// Whether this player blocks `other` or is blocked by them (read once, see `blocks`).
    async fn has_block_with(&mut self, other: i64) -> bool {
        if self.blocks.is_none() {
            let ids = self
                .state
                .services
                .store
                .blocks_either_way(self.user.id)
                .await
                .unwrap_or_default();
            self.blocks = Some(ids.into_iter().collect());
        }
        self.blocks.as_ref().is_some_and(|b| b.contains(&other))
    }

    /// A line from this player in the lobby's chat, acknowledged (everyone gets the line).
    async fn lobby_chat(&self, text: &str, reference: Value) {
        let s = &self.state.services;
        match tengen_app::lobby_chat::say(&s.store, &s.games, &s.lobby_chat, &self.user, text).await
        {
            Ok(line) => {
                let ack = ServerMsg::Ack {
                    reference: &reference,
                    game: None,
                    seq: None,
                    lobby_chat: Some(line.id),
                    tournament: None,
                };
                self.send(ack.text()).await
            }
            Err(e) => self.send(error(&reference, e.code(), &e.to_string())).await,
        }
    }

    /// The lobby's last lines (those of players one has a block with left out); the blocks
    /// are read afresh.
    async fn lobby_join(&mut self, reference: Value) {
        self.blocks = None;
        let mut lines = Vec::new();
        for line in self.state.services.lobby_chat.recent() {
            if line.from_id == self.user.id || !self.has_block_with(line.from_id).await {
                lines.push(line.msg.clone());
            }
        }
        let msg = ServerMsg::Lobby {
            reference: &reference,
            lines: &lines,
        };
        self.send(msg.text()).await
    }

    /// Follows tournament `id`: its state now, then at each change.
    async fn watch_tournament(&mut self, id: i64, reference: Value) {
        if self.send_tournament(id, &reference).await {
            self.tournaments.insert(id);
        }
    }

    /// Sends tournament `id`'s state now, in answer to `reference`; false (and an error sent)
    /// when it cannot be read.
    async fn send_tournament(&self, id: i64, reference: &Value) -> bool {
        match tengen_app::tournaments::get(&self.state.services.store, id).await {
            Ok(state) => {
                let msg = ServerMsg::Tournament {
                    reference,
                    tournament: &state,
                };
                self.send(msg.text()).await;
                true
            }
            Err(e) => {
                self.send(error(reference, e.code(), &e.to_string())).await;
                false
            }
        }
    }

    /// A session logged out (`ended`, its digest). `Break` when it is this socket's `session`:
    /// the socket is closed with it.
    async fn on_logout(
        &self,
        ended: Result<String, broadcast::error::RecvError>,
        logouts: &mut broadcast::Receiver<String>,
        session: &str,
    ) -> ControlFlow<()> {
        match ended {
            // This session logged out: the socket goes with it.
            Ok(digest) if digest == session => {
                self.close(4001, "logged out").await;
                ControlFlow::Break(())
            }
            Err(tokio::sync::broadcast::error::RecvError::Closed) => {
                *logouts = self.state.logouts.subscribe();
                ControlFlow::Continue(())
            }
            // Logouts were missed (a burst of them outran this connection): ask the
            // store whether this session is one of them.
            Err(tokio::sync::broadcast::error::RecvError::Lagged(_))
                if !session.is_empty()
                    && matches!(
                        tengen_app::accounts::session_open(&self.state.services.store, session)
                            .await,
                        Ok(false)
                    ) =>
            {
                self.close(4001, "logged out").await;
                ControlFlow::Break(())
            }
            // Another session, or missed messages of other sessions: go on.
            _ => ControlFlow::Continue(()),
        }
    }

    /// One message from the client. `Break` ends the connection: the client closed it, or
    /// its flood went on after its errors.
    async fn on_message(&mut self, msg: Message) -> ControlFlow<()> {
        match msg {
            Message::Text(t) => {
                self.handle(t.as_str()).await;
                if self.refused >= FLOOD_CLOSE {
                    // The flood went on after its errors: the connection goes, before it slows
                    // anyone else's game.
                    self.close(1008, "flood").await;
                    return ControlFlow::Break(());
                }
            }
            Message::Binary(_) => {
                self.send(error(
                    &Value::Null,
                    "bad_message",
                    "send JSON text messages",
                ))
                .await
            }
            Message::Pong(p) => self.pong(&p),
            Message::Close(_) => return ControlFlow::Break(()),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    /// Queues a close frame: the writer sends it and the socket closes.
    async fn close(&self, code: u16, reason: &'static str) {
        let _ = self
            .out
            .send(Message::Close(Some(axum::extract::ws::CloseFrame {
                code,
                reason: reason.into(),
            })))
            .await;
    }

    /// The connection closed: every game it watched hears that one of the player's
    /// connections is gone.
    async fn leave_all(&mut self) {
        for (_, (handle, forwarder)) in self.watching.drain() {
            forwarder.abort();
            handle.gone(self.user.id).await;
        }
    }

    async fn send(&self, text: String) {
        let _ = self.out.send(Message::Text(text.into())).await;
    }

    /// A pong to one of our pings: a round-trip sample, smoothed.
    fn pong(&mut self, payload: &[u8]) {
        let Ok(bytes) = <[u8; 8]>::try_from(payload) else {
            return;
        };
        let sent = u64::from_be_bytes(bytes);
        let now = self.epoch.elapsed().as_millis() as u64;
        if sent > now {
            return;
        }
        let sample = now - sent;
        self.rtt_ms = if self.rtt_ms == 0 {
            sample
        } else {
            (self.rtt_ms + sample) / 2
        };
    }

    /// A token bucket: floods are refused message by message.
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * PER_SECOND).min(BURST);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    async fn handle(&mut self, text: &str) {
        if text.len() > MAX_MESSAGE {
            return self
                .send(error(
                    &Value::Null,
                    "message_too_large",
                    "messages are at most 4096 bytes",
                ))
                .await;
        }
        if !self.allow() {
            let now = Instant::now();
            if now.duration_since(self.refused_since) > FLOOD_WINDOW {
                self.refused = 0;
                self.refused_since = now;
            }
            self.refused += 1;
            return self
                .send(error(
                    &Value::Null,
                    "rate_limited",
                    "too many messages; slow down",
                ))
                .await;
        }
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(_) => {
                return self
                    .send(error(&Value::Null, "bad_message", "not JSON"))
                    .await
            }
        };
        let reference = value.get("id").cloned().unwrap_or(Value::Null);
        let Some(kind) = value.get("type").and_then(Value::as_str) else {
            return self
                .send(error(
                    &reference,
                    "bad_message",
                    "a message needs a \"type\"",
                ))
                .await;
        };
        if !TYPES.contains(&kind) {
            return self
                .send(error(
                    &reference,
                    "unknown_type",
                    &format!("unknown message type {kind:?}"),
                ))
                .await;
        }
        let msg: ClientMsg = match serde_json::from_value(value) {
            Ok(m) => m,
            Err(e) => {
                return self
                    .send(error(&reference, "bad_message", &e.to_string()))
                    .await
            }
        };
        self.dispatch(msg, reference).await;
    }

    /// Answers one message: quick match, ping, watching, or an action in a game.
    async fn dispatch(&mut self, msg: ClientMsg, reference: Value) {
        let players_only = matches!(
            msg,
            ClientMsg::Match(_)
                | ClientMsg::MatchCancel
                | ClientMsg::LobbyChat { .. }
                | ClientMsg::LobbyJoin
        );
        if self.bot_only && players_only {
            let e = tengen_app::sessions::bot_refusal();
            return self.send(error(&reference, e.code(), &e.to_string())).await;
        }
        let (game, action) = match msg {
            ClientMsg::Match(req) => return self.request_match(req, reference).await,
            ClientMsg::MatchCancel => return self.cancel_match(reference).await,
            ClientMsg::Ping => {
                return self
                    .send(
                        ServerMsg::Pong {
                            reference: &reference,
                        }
                        .text(),
                    )
                    .await
            }
            ClientMsg::Watch { game, since } => return self.watch(game, since, reference).await,
            ClientMsg::Unwatch { game } => return self.unwatch(game, reference).await,
            ClientMsg::WatchTournament { tournament } => {
                return self.watch_tournament(tournament, reference).await
            }
            ClientMsg::LobbyChat { text } => return self.lobby_chat(&text, reference).await,
            ClientMsg::LobbyJoin => return self.lobby_join(reference).await,
            ClientMsg::UnwatchTournament { tournament } => {
                self.tournaments.remove(&tournament);
                let msg = ServerMsg::Ack {
                    reference: &reference,
                    game: None,
                    seq: None,
                    lobby_chat: None,
                    tournament: Some(tournament),
                };
                return self.send(msg.text()).await;
            }
            ClientMsg::Move { game, point } => (game, ActionArg::Point(point, Action::Move)),
            ClientMsg::ToggleDead { game, point } => {
                (game, ActionArg::Point(point, Action::ToggleDead))
            }
            ClientMsg::Dispute { game, point } => (game, ActionArg::Point(point, Action::Dispute)),
            ClientMsg::Pass { game } => (game, ActionArg::Ready(Action::Pass)),
            ClientMsg::Resign { game } => (game, ActionArg::Ready(Action::Resign)),
            ClientMsg::Leave { game } => (game, ActionArg::Ready(Action::Leave)),
            ClientMsg::Takeback { game } => (game, ActionArg::Ready(Action::RequestTakeback)),
            ClientMsg::TakebackAnswer { game, accept } => {
                (game, ActionArg::Ready(Action::AnswerTakeback(accept)))
            }
            ClientMsg::ScoreRequest { game } => (game, ActionArg::Ready(Action::RequestScoring)),
            ClientMsg::AcceptScore { game } => (game, ActionArg::Ready(Action::AcceptScore)),
            ClientMsg::Resume { game } => (game, ActionArg::Ready(Action::Resume)),
            ClientMsg::Chat { game, text } => (game, ActionArg::Ready(Action::Chat(text))),
            ClientMsg::TimeSync { game } => return self.time_sync(game, reference).await,
        };
        self.act(game, action, reference).await
    }

    /// Quick match: the player asks for a game; the reply is the request's status.
    async fn request_match(&self, req: tengen_app::quick_match::MatchRequest, reference: Value) {
        let s = &self.state.services;
        let reply =
            match tengen_app::quick_match::request(&s.bot_games(), &s.quick_match, &self.user, req)
                .await
            {
                Ok(status) => ServerMsg::Match {
                    reference: &reference,
                    cancelled: None,
                    status: &status,
                }
                .text(),
                Err(e) => return self.send(error(&reference, e.code(), &e.to_string())).await,
            };
        self.send(reply).await
    }

    /// Quick match: the player withdraws; the reply says whether a request was withdrawn, and
    /// the status after.
    async fn cancel_match(&self, reference: Value) {
        let answer = async {
            let cancelled = self.state.services.quick_match.cancel(self.user.id).await?;
            let status = self.state.services.quick_match.status(self.user.id).await?;
            Ok::<_, ApiError>((cancelled, status))
        };
        let (cancelled, status) = match answer.await {
            Ok(a) => a,
            Err(e) => return self.send(error(&reference, e.code(), &e.to_string())).await,
        };
        let msg = ServerMsg::Match {
            reference: &reference,
            cancelled: Some(cancelled),
            status: &status,
        };
        self.send(msg.text()).await
    }

    /// Stops watching `game` (if watched), then acknowledges.
    async fn unwatch(&mut self, game: i64, reference: Value) {
        self.stop_watching(game).await;
        self.send(ack_game(&reference, game)).await
    }

    /// Both clocks of `game` now, for a client to set its display right.
    async fn time_sync(&self, game: i64, reference: Value) {
        let Some(h) = self.handle_of(game).await else {
            return self
                .send(error(&reference, "no_such_game", "no such game"))
                .await;
        };
        let clocks = h.snapshot().await.and_then(|s| s.clocks);
        let msg = ServerMsg::TimeSync {
            reference: &reference,
            game,
            clocks: clocks.as_ref(),
        };
        self.send(msg.text()).await
    }

    /// The player's `action` in `game`, acknowledged with its seq once the game has stored it.
    async fn act(&mut self, game: i64, action: ActionArg, reference: Value) {
        let handle = match self.handle_of(game).await {
            Some(h) => h,
            None => {
                return self
                    .send(error(&reference, "no_such_game", "no such game"))
                    .await
            }
        };
        let action = match action.on_board(handle.size) {
            Ok(a) => a,
            Err(e) => return self.send(error(&reference, e.code(), &e.to_string())).await,
        };
        // A mute is read afresh for each line: one set since the socket opened holds at once.
        if matches!(action, Action::Chat(_)) {
            let store = &self.state.services.store;
            let (user, bot_only) = (self.user.id, self.bot_only);
            if let Err(e) = tengen_app::game_chat::check_may_chat(store, user, bot_only, game).await
            {
                return self.send(error(&reference, e.code(), &e.to_string())).await;
            }
        }
        let turn = matches!(action, Action::Move(_) | Action::Pass);
        match handle
            .act(self.user.id, &self.user.username, action, self.rtt_ms)
            .await
        {
            Ok(seq) => {
                // Told before the ack: once the mover has its ack, the opponent's notice is on
                // its way.
                if turn {
                    self.tell_turn(game).await;
                }
                self.send(
                    ServerMsg::Ack {
                        reference: &reference,
                        game: Some(game),
                        seq: Some(seq),
                        lobby_chat: None,
                        tournament: None,
                    }
                    .text(),
                )
                .await
            }
            Err(e) => self.send(error(&reference, e.code(), &e.to_string())).await,
        }
    }

    /// After this player's move or pass in `game`: in a live correspondence game, the
    /// opponent hears on every connection that it is their move (`your_turn`).
    async fn tell_turn(&mut self, game: i64) {
        let opponent = match self.turn_of.get(&game) {
            Some(o) => *o,
            None => {
                let store = &self.state.services.store;
                let Ok(o) =
                    tengen_app::correspondence::opponent_to_tell(store, game, self.user.id).await
                else {
                    return;
                };
                self.turn_of.insert(game, o);
                o
            }
        };
        if let Some(opponent) = opponent {
            tengen_app::correspondence::tell_turn(
                &self.state.services.notices,
                game,
                opponent,
                &self.user.username,
            )
            .await;
        }
    }

    /// Stops watching `game`, if this connection watches it: the game hears that one of the
    /// player's connections is gone.
    async fn stop_watching(&mut self, game: i64) {
        if let Some((h, f)) = self.watching.remove(&game) {
            f.abort();
            h.gone(self.user.id).await;
        }
    }

    async fn handle_of(&self, game: i64) -> Option<GameHandle> {
        if let Some((h, _)) = self.watching.get(&game) {
            // A game that moved to another node is looked up again.
            if !h.is_closed() {
                return Some(h.clone());
            }
        }
        self.state.services.games.get(game).await.ok().flatten()
    }

    async fn watch(&mut self, game: i64, since: Option<u64>, reference: Value) {
        let Some(handle) = self.handle_of(game).await else {
            return self
                .send(error(&reference, "no_such_game", "no such game"))
                .await;
        };
        // Watching again (to resynchronise) replaces the old subscription.
        self.stop_watching(game).await;
        let Some((handle, w)) = self
            .state
            .services
            .games
            .watch(game, handle, Some(self.user.id), since)
            .await
        else {
            // The game names the watch that failed, so that a client that sent it without an
            // id knows which board is behind and watches it again.
            let e = ServerMsg::Error {
                reference: &reference,
                game: Some(game),
                code: "game_unavailable",
                message: "the game is not available",
            };
            return self.send(e.text()).await;
        };
        if let Some(s) = w.snapshot {
            self.send(
                ServerMsg::Snapshot {
                    reference: &reference,
                    game,
                    state: &s,
                }
                .text(),
            )
            .await;
        } else {
            self.send(ack_game(&reference, game)).await;
        }
        for r in &w.missed {
            let _ = self.out.send(Message::Text(text_of(&r.wire))).await;
        }
        let out = self.out.clone();
        let forwarder = tokio::spawn(forward(game, w.live, w.seq, out));
        self.watching.insert(game, (handle, forwarder));
    }
}

enum ActionArg {
    Ready(Action),
    /// A vertex, and the action on its point.
    Point(String, fn(tengen_rules::Point) -> Action),
}

impl ActionArg {
    /// The action, its point (a move's, a stone's to mark dead or to dispute) read on a board
    /// of `size`.
    fn on_board(self, size: u8) -> Result<Action, tengen_rules::coord::CoordError> {
        match self {
            ActionArg::Ready(a) => Ok(a),
            ActionArg::Point(v, action) => gtp::parse_point(size, &v).map(action),
        }
    }
}

async fn forward(
    game: i64,
    mut live: broadcast::Receiver<Arc<Record>>,
    mut last: u64,
    out: mpsc::Sender<Message>,
) {
    // Too slow to keep up, a gap, or the game moved to another node (its stream closed): tell
    // the client to watch again from its last seq.
    let resync = || Message::Text(ServerMsg::Resync { game }.text().into());
    loop {
        match live.recv().await {
            Ok(r) => {
                // A cluster's relay may repeat what the snapshot held.
                if r.seq <= last {
                    continue;
                }
                if r.seq > last + 1 {
                    let _ = out.send(resync()).await;
                    return;
                }
                last = r.seq;
                if out.send(Message::Text(text_of(&r.wire))).await.is_err() {
                    return;
                }
            }
            Err(broadcast::error::RecvError::Lagged(_) | broadcast::error::RecvError::Closed) => {
                let _ = out.send(resync()).await;
                return;
            }
        }
    }
}

/// A shared event frame as the socket's text: no copy (the bytes are shared), and the UTF-8 check
/// cannot fail, since a frame is made from text.
fn text_of(frame: &tengen_live::types::Frame) -> Utf8Bytes {
    Utf8Bytes::try_from(frame.bytes().clone()).unwrap_or_default()
}
