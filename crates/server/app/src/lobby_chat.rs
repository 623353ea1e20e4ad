//! The lobby's chat: one room everyone connected to this node talks in, over the WebSocket.
//! The last [`KEEP`] lines are kept in memory for those who come in (`lobby_join`). A line is
//! refused to guests (`guest`) and the muted (`muted`), past [`BURST`] lines in [`WINDOW`] from
//! one player (`rate_limited`), and when empty or over [`MAX_CHARS`] (`bad_chat`); a line is not
//! shown to a player who blocks its writer or whom its writer blocks (the connection filters).
//!
//! In a cluster a line is published on [`LOBBY`] and every node (the writer's too) keeps it
//! and sends it to its connections ([`LobbyChat::heard`]): one lobby, whichever node a player
//! is connected to. The rate limit counts on the writer's node.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;
use tokio::time::Instant;

use crate::accounts::User;
use crate::error::ApiError;
use tengen_live::registry::Games;
use tengen_store::Store;

use tengen_live::subjects::LOBBY;

/// Lines kept for newcomers.
pub const KEEP: usize = 50;
/// The longest line, in characters.
pub const MAX_CHARS: usize = 500;
/// Lines one player may write in [`WINDOW`].
pub const BURST: usize = 5;
/// The window of the rate limit.
pub const WINDOW: Duration = Duration::from_secs(10);

/// One line as it goes out: its writer's id (for blocks) and the message.
pub struct Line {
    /// The writer's account.
    pub from_id: i64,
    /// The line as players see it.
    pub msg: LobbyLine,
}

/// A line of the lobby's chat as it goes to players, and between the nodes of a cluster:
/// `{"at", "from", "id", "text", "type": "lobby_chat"}` (fields in alphabetical order, as the
/// `json!` object it replaces wrote them).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LobbyLine {
    /// When it was said, seconds since 1970.
    pub at: i64,
    /// Its writer's name.
    pub from: String,
    /// Its number on the node that took it.
    pub id: u64,
    /// What it says.
    pub text: String,
    /// Always `lobby_chat`.
    #[serde(rename = "type")]
    pub kind: String,
}

#[derive(Default)]
struct Inner {
    next: u64,
    last: VecDeque<Arc<Line>>,
    sent: HashMap<i64, VecDeque<Instant>>,
}

/// The lobby chat of this node.
#[derive(Clone)]
pub struct LobbyChat {
    inner: Arc<Mutex<Inner>>,
    /// Every line as it is said, to every connection.
    pub lines: broadcast::Sender<Arc<Line>>,
}

impl Default for LobbyChat {
    fn default() -> LobbyChat {
        LobbyChat {
            inner: Arc::default(),
            lines: broadcast::channel(256).0,
        }
    }
}

impl LobbyChat {
    /// Keeps a line said on any node of the cluster and sends it to this node's connections.
    pub fn heard(&self, from_id: i64, msg: LobbyLine) {
        let line = Arc::new(Line { from_id, msg });
        self.keep(&line);
        let _ = self.lines.send(line);
    }

    fn keep(&self, line: &Arc<Line>) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.last.push_back(Arc::clone(line));
        while inner.last.len() > KEEP {
            inner.last.pop_front();
        }
    }

    /// The lines kept, oldest first.
    pub fn recent(&self) -> Vec<Arc<Line>> {
        let inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        inner.last.iter().cloned().collect()
    }
}

/// `user` says `text` in the lobby: kept, and sent to every connection. Returns the line.
pub async fn say(
    store: &Store,
    games: &Games,
    chat: &LobbyChat,
    user: &User,
    text: &str,
) -> Result<LobbyLine, ApiError> {
    let text = crate::sanctions::check_chat_line(
        store,
        (user.id, user.guest),
        text,
        MAX_CHARS,
        "in the lobby",
    )
    .await?;
    let line = {
        let mut inner = chat.inner.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let sent = inner.sent.entry(user.id).or_default();
        while sent
            .front()
            .is_some_and(|t| now.duration_since(*t) >= WINDOW)
        {
            sent.pop_front();
        }
        if sent.len() >= BURST {
            return Err(ApiError::Limited(
                "rate_limited",
                format!("at most {BURST} lobby lines in {} s", WINDOW.as_secs()),
            ));
        }
        sent.push_back(now);
        // Players who went quiet are forgotten, so that the table stays small.
        if inner.sent.len() > 10_000 {
            inner
                .sent
                .retain(|_, s| s.back().is_some_and(|t| now.duration_since(*t) < WINDOW));
        }
        inner.next += 1;
        Line {
            from_id: user.id,
            msg: LobbyLine {
                at: crate::sanctions::now(),
                from: user.username.clone(),
                id: inner.next,
                text: text.to_string(),
                kind: "lobby_chat".into(),
            },
        }
    };
    match games.peers() {
        // Every node keeps and sends it, this one too, when the bus brings it back.
        Some(peers) => publish(&peers.bus, &line).await,
        None => chat.heard(line.from_id, line.msg.clone()),
    }
    Ok(line.msg.clone())
}

/// Publishes a lobby line to every node of the cluster.
async fn publish(bus: &async_nats::Client, line: &Line) {
    let Ok(bytes) = serde_json::to_vec(&(line.from_id, &line.msg)) else {
        return;
    };
    let headers = tengen_live::remote::protocol_headers(tengen_live::remote::V1);
    if let Err(e) = bus.publish_with_headers(LOBBY, headers, bytes.into()).await {
        tracing::warn!(error = %e, "could not publish a lobby line");
    }
}
