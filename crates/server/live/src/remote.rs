//! Games owned by another node of a cluster: the requests forwarded to the owner over NATS, the
//! relay of its events to this node's watchers, and this node's players' presence reported to it.
//!
//! The owner answers on its node subject ([`node_subject`]); it publishes every event after its
//! commit on the game's ([`events_subject`]); [`crate::subjects`] lists every subject. A node
//! relays a game's events to its own watchers from one subscription; a gap in the seqs (a
//! message lost, a new owner) is filled from the database, which holds every event before
//! anyone hears of it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tengen_rules::coord::gtp;
use tokio::sync::{broadcast, Mutex};

use super::types::{ActError, ActParts, Record, Watch};
use crate::subjects::{events_subject, node_subject};
use tengen_core::domain::clock::Clock;
use tengen_core::game::{Action, Event};
use tengen_core::view::Snapshot;
use tengen_store::Store;

/// The version of the formats nodes exchange (requests, replies, relayed events, the online
/// lists) that this node reads, sent in the [`PROTOCOL_HEADER`] header of every message. A node
/// reads its own version and every older one, so that a cluster can be upgraded node by node; a
/// message from a newer node is refused (`protocol_version`) or, where no one waits for an
/// answer, dropped with a warning. A message without the header is version 0, the formats from
/// before the header, which version 1 keeps as they were. Each message is sent in the oldest
/// version that has its format ([`Request::version`], [`Reply::version`]), so that nodes not
/// yet upgraded read all they can: version 2 only added the batched presence report
/// ([`Request::Presences`]), which a node falls back from to one report a game when the owner
/// refuses it.
pub const PROTOCOL: u32 = 2;

/// The NATS header that carries the version.
pub const PROTOCOL_HEADER: &str = "Tengen-Protocol";

/// The version of the formats that have not changed since version 1: relayed events, online
/// lists, quick-match outcomes.
pub const V1: u32 = 1;

/// The headers of a message in format version `version`.
pub fn protocol_headers(version: u32) -> async_nats::HeaderMap {
    let mut h = async_nats::HeaderMap::new();
    h.insert(PROTOCOL_HEADER, version.to_string().as_str());
    h
}

/// The version a message was written in, when this node can read it; `Err` with the version
/// (`u32::MAX` when it does not parse) when it cannot.
pub fn readable(headers: Option<&async_nats::HeaderMap>) -> Result<u32, u32> {
    let Some(v) = headers.and_then(|h| h.get(PROTOCOL_HEADER)) else {
        return Ok(0);
    };
    match v.as_str().trim().parse::<u32>() {
        Ok(v) if v <= PROTOCOL => Ok(v),
        Ok(v) => Err(v),
        Err(_) => Err(u32::MAX),
    }
}

/// How often a relay looks whether anyone still listens.
const RELAY_LOOK_EVERY: Duration = Duration::from_secs(30);

/// How long a forwarded request waits for the owner.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);

/// An action as sent between nodes: points as GTP vertices.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WireAction {
    /// [`Action::Move`].
    Move {
        /// The vertex.
        point: String,
    },
    /// [`Action::Pass`].
    Pass,
    /// [`Action::Resign`].
    Resign,
    /// [`Action::RequestTakeback`].
    RequestTakeback,
    /// [`Action::AnswerTakeback`].
    AnswerTakeback {
        /// Accepted.
        accept: bool,
    },
    /// [`Action::RequestScoring`].
    RequestScoring,
    /// [`Action::ToggleDead`].
    ToggleDead {
        /// The vertex.
        point: String,
    },
    /// [`Action::AcceptScore`].
    AcceptScore,
    /// [`Action::Resume`].
    Resume,
    /// [`Action::Chat`].
    Chat {
        /// The line.
        text: String,
    },
    /// [`Action::Dispute`].
    Dispute {
        /// A stone of the disputed group.
        point: String,
    },
    /// [`Action::Leave`].
    Leave,
    /// [`Action::HideChat`].
    HideChat {
        /// The hidden line's seq.
        seq: u64,
    },
    /// [`Action::Vacation`].
    Vacation {
        /// When it ends, ms since the epoch.
        until_ms: i64,
    },
}

impl WireAction {
    /// The wire form of `a` on a board of side `size`.
    pub fn from_action(a: &Action, size: u8) -> WireAction {
        match a {
            Action::Move(p) => WireAction::Move {
                point: gtp::format_point(size, *p),
            },
            Action::Pass => WireAction::Pass,
            Action::Resign => WireAction::Resign,
            Action::RequestTakeback => WireAction::RequestTakeback,
            Action::AnswerTakeback(b) => WireAction::AnswerTakeback { accept: *b },
            Action::RequestScoring => WireAction::RequestScoring,
            Action::ToggleDead(p) => WireAction::ToggleDead {
                point: gtp::format_point(size, *p),
            },
            Action::AcceptScore => WireAction::AcceptScore,
            Action::Resume => WireAction::Resume,
            Action::Dispute(p) => WireAction::Dispute {
                point: gtp::format_point(size, *p),
            },
            Action::Chat(t) => WireAction::Chat { text: t.clone() },
            Action::Leave => WireAction::Leave,
            Action::HideChat(seq) => WireAction::HideChat { seq: *seq },
            Action::Vacation { until_ms } => WireAction::Vacation {
                until_ms: *until_ms,
            },
        }
    }

    /// The action, `None` for a vertex off a board of side `size`.
    pub fn to_action(&self, size: u8) -> Option<Action> {
        Some(match self {
            WireAction::Move { point } => Action::Move(gtp::parse_point(size, point).ok()?),
            WireAction::Pass => Action::Pass,
            WireAction::Resign => Action::Resign,
            WireAction::RequestTakeback => Action::RequestTakeback,
            WireAction::AnswerTakeback { accept } => Action::AnswerTakeback(*accept),
            WireAction::RequestScoring => Action::RequestScoring,
            WireAction::ToggleDead { point } => {
                Action::ToggleDead(gtp::parse_point(size, point).ok()?)
            }
            WireAction::AcceptScore => Action::AcceptScore,
            WireAction::Resume => Action::Resume,
            WireAction::Dispute { point } => Action::Dispute(gtp::parse_point(size, point).ok()?),
            WireAction::Chat { text } => Action::Chat(text.clone()),
            WireAction::Leave => Action::Leave,
            WireAction::HideChat { seq } => Action::HideChat(*seq),
            WireAction::Vacation { until_ms } => Action::Vacation {
                until_ms: *until_ms,
            },
        })
    }
}

/// A request to a game's owner.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// A player's (or anyone's) action.
    Act {
        /// The game.
        game: i64,
        /// Who.
        user: i64,
        /// Their name.
        username: String,
        /// What.
        action: WireAction,
        /// Their connection's round trip, ms.
        rtt_ms: u64,
    },
    /// The state (no `since`) or the events after `since`.
    Watch {
        /// The game.
        game: i64,
        /// The last seq the watcher has.
        since: Option<u64>,
    },
    /// The state now.
    Snapshot {
        /// The game.
        game: i64,
    },
    /// `node` has `count` connections of `user` to the game now.
    Presence {
        /// The game.
        game: i64,
        /// The reporting node.
        node: String,
        /// The player.
        user: i64,
        /// Their connections there.
        count: u32,
    },
    /// Version 2: `node`'s connections to the games of the recipient, at once: (game, user,
    /// count) each. Answered with [`Reply::Presented`].
    Presences {
        /// The reporting node.
        node: String,
        /// (game, user, connections there).
        counts: Vec<(i64, i64, u32)>,
    },
}

impl Request {
    /// The format version this request is sent in.
    pub fn version(&self) -> u32 {
        match self {
            Request::Presences { .. } => 2,
            _ => V1,
        }
    }
}

/// The owner's answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Reply {
    /// The action's events are stored; the last one's seq.
    Acted {
        /// Its seq.
        seq: u64,
    },
    /// Refused, with the stable code.
    Refused {
        /// Code.
        code: String,
        /// Message.
        message: String,
    },
    /// A watch's answer: the state or the events missed (as sent to clients).
    Watched {
        /// The state, when no `since` was given.
        snapshot: Option<Box<Snapshot>>,
        /// The events after `since`, as their `event` messages.
        missed: Vec<String>,
        /// The last seq covered.
        seq: u64,
    },
    /// The state.
    State {
        /// It.
        state: Box<Snapshot>,
    },
    /// Done.
    Done,
    /// This node does not own the game (any more).
    Moved,
    /// Version 2: a [`Request::Presences`] taken; the games in it not run here.
    Presented {
        /// Games the recipient does not run (their counts were not taken).
        unowned: Vec<i64>,
    },
}

impl Reply {
    /// The format version this reply is sent in.
    pub fn version(&self) -> u32 {
        match self {
            Reply::Presented { .. } => 2,
            _ => V1,
        }
    }
}

impl Record {
    /// A record from its `event` message, as relayed between nodes.
    pub fn from_wire(wire: &str) -> Option<Record> {
        let v: Value = serde_json::from_str(wire).ok()?;
        let event: Event = serde_json::from_value(v.get("event")?.clone()).ok()?;
        let clocks: Option<[Clock; 2]> = serde_json::from_value(v.get("clocks")?.clone()).ok()?;
        Some(Record {
            seq: v.get("seq")?.as_u64()?,
            at_ms: v.get("at")?.as_i64()?,
            event,
            clocks,
            wire: wire.to_string().into(),
        })
    }
}

/// This node in a cluster, as the games see it: who it is, the bus, the database, the relays
/// of other nodes' games and the presence of this node's players in them.
pub struct Peers {
    /// This node's name (with its incarnation).
    pub node: String,
    /// NATS.
    pub bus: async_nats::Client,
    /// The database (leases: who owns what).
    pub store: Store,
    relays: Mutex<HashMap<i64, broadcast::Sender<Arc<Record>>>>,
    /// The owners of games owned elsewhere, as last looked up: a forwarded move asks the
    /// database only when the game is new to this node or has moved.
    owners: std::sync::Mutex<HashMap<i64, String>>,
    /// This node's connections per (game, user) to games owned elsewhere.
    presence: Mutex<HashMap<(i64, i64), u32>>,
}

impl Peers {
    /// This node.
    pub fn new(node: String, bus: async_nats::Client, store: Store) -> Peers {
        Peers {
            node,
            bus,
            store,
            relays: Mutex::new(HashMap::new()),
            owners: std::sync::Mutex::new(HashMap::new()),
            presence: Mutex::new(HashMap::new()),
        }
    }

    fn owners(&self) -> std::sync::MutexGuard<'_, HashMap<i64, String>> {
        // Only inserts and removes happen under the lock: a poisoned map is still consistent.
        self.owners.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends `req` about `game` to its owner; `Ok(None)` when no other node owns it (this node
    /// may take it).
    pub async fn request(&self, game: i64, req: &Request) -> Result<Option<Reply>, ActError> {
        let payload: bytes::Bytes = serde_json::to_vec(req).map_err(|_| ActError::Gone)?.into();
        let mut attempt = 0u64;
        while attempt < 3 {
            let cached = self.owners().get(&game).cloned();
            let owner = match &cached {
                Some(node) => node.clone(),
                None => match self.store.owner(game).await {
                    Ok(Some(l)) if l.node != self.node => {
                        let mut owners = self.owners();
                        // Games end and move: a node that forwarded for very many forgets them.
                        if owners.len() >= 100_000 {
                            owners.clear();
                        }
                        owners.insert(game, l.node.clone());
                        l.node
                    }
                    Ok(_) => {
                        tracing::debug!(game, "no other node owns the game");
                        return Ok(None);
                    }
                    Err(_) => return Err(ActError::Storage),
                },
            };
            // No responder (the owner died) or no answer: its lease will lapse; ask again.
            match self.send(&owner, req.version(), payload.clone()).await {
                Sent::Answered(Reply::Moved) => {
                    crate::metrics::FORWARDED_MOVED.inc();
                    tracing::debug!(game, owner, attempt, "the game moved");
                }
                Sent::Unanswered => {
                    crate::metrics::FORWARDED_UNANSWERED.inc();
                    tracing::warn!(game, owner, attempt, "the owner did not answer");
                }
                Sent::Answered(r) => {
                    crate::metrics::FORWARDED_ANSWERED.inc();
                    return Ok(Some(r));
                }
                Sent::Unreadable => {
                    crate::metrics::FORWARDED_UNREADABLE.inc();
                    return Err(ActError::Gone);
                }
            }
            // The owner moved or did not answer: look it up again, at once if it was only
            // remembered, else after a pause (a dead owner's lease takes seconds to lapse).
            self.owners().remove(&game);
            if cached.is_none() {
                tokio::time::sleep(Duration::from_millis(200 * (attempt + 1))).await;
                attempt += 1;
            }
        }
        Err(ActError::Gone)
    }

    /// Sends a request (`payload`, in format `version`) to node `owner` and waits for its
    /// answer.
    async fn send(&self, owner: &str, version: u32, payload: bytes::Bytes) -> Sent {
        let sent = tokio::time::timeout(
            REQUEST_TIMEOUT,
            self.bus
                .request_with_headers(node_subject(owner), protocol_headers(version), payload),
        )
        .await;
        let Ok(Ok(msg)) = sent else {
            return Sent::Unanswered;
        };
        if let Err(v) = readable(msg.headers.as_ref()) {
            tracing::warn!(owner, version = v, "a reply in a newer protocol");
            return Sent::Unreadable;
        }
        match serde_json::from_slice::<Reply>(&msg.payload) {
            Ok(r) => Sent::Answered(r),
            Err(_) => Sent::Unreadable,
        }
    }

    /// A receiver of `game`'s events as its owner publishes them, subscribed before this
    /// returns (so that nothing published afterwards is missed).
    pub async fn relay(self: &Arc<Self>, game: i64) -> Option<broadcast::Receiver<Arc<Record>>> {
        let mut relays = self.relays.lock().await;
        if let Some(tx) = relays.get(&game) {
            return Some(tx.subscribe());
        }
        let mut sub = self.bus.subscribe(events_subject(game)).await.ok()?;
        // The subscription is in force at the server once the flush is answered.
        self.bus.flush().await.ok()?;
        let (tx, rx) = broadcast::channel(1024);
        relays.insert(game, tx.clone());
        let peers = Arc::clone(self);
        tokio::spawn(async move {
            let mut last: Option<u64> = None;
            // A relay with no receivers left ends at its next event, or at the next look if
            // none comes (a finished game's).
            let mut look = tokio::time::interval(RELAY_LOOK_EVERY);
            look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                let msg = tokio::select! {
                    msg = sub.next() => msg,
                    _ = look.tick() => {
                        if tx.receiver_count() == 0 {
                            break;
                        }
                        continue;
                    }
                };
                let Some(msg) = msg else { break };
                if let Err(v) = readable(msg.headers.as_ref()) {
                    // The gap it leaves is filled from the database at the next event read.
                    tracing::warn!(game, version = v, "an event in a newer protocol");
                    continue;
                }
                let Ok(text) = std::str::from_utf8(&msg.payload) else {
                    continue;
                };
                let Some(r) = Record::from_wire(text) else {
                    continue;
                };
                match last {
                    Some(l) if r.seq <= l => continue,
                    Some(l) if r.seq > l + 1 => {
                        // Lost in between: the database has them.
                        for missed in peers.stored(game, l, r.seq).await {
                            let _ = tx.send(Arc::new(missed));
                        }
                    }
                    _ => {}
                }
                last = Some(r.seq);
                let _ = tx.send(Arc::new(r));
                if tx.receiver_count() == 0 {
                    break;
                }
            }
            peers.relays.lock().await.remove(&game);
        });
        Some(rx)
    }

    /// `game`'s stored events with seqs strictly between `after` and `before`.
    async fn stored(&self, game: i64, after: u64, before: u64) -> Vec<Record> {
        let Ok(rows) = self.store.events(game).await else {
            return Vec::new();
        };
        rows.into_iter()
            .filter(|e| (e.seq as u64) > after && (e.seq as u64) < before)
            .filter_map(|e| Record::from_row(game, &e).ok())
            .collect()
    }

    /// Changes this node's count of `user`'s connections to `game` by `delta` and reports it.
    async fn present(&self, game: i64, user: i64, delta: i32) {
        let count = {
            let mut p = self.presence.lock().await;
            let n = p.entry((game, user)).or_insert(0);
            *n = (*n as i32 + delta).max(0) as u32;
            let count = *n;
            if count == 0 {
                p.remove(&(game, user));
            }
            count
        };
        self.report(game, user, count).await;
    }

    async fn report(&self, game: i64, user: i64, count: u32) {
        let req = Request::Presence {
            game,
            node: self.node.clone(),
            user,
            count,
        };
        let _ = self.request(game, &req).await;
    }

    /// Reports again every count this node holds (its reports expire at the owner unless
    /// refreshed, and a new owner has none): one request to each owner for all its games, and
    /// one a game where the owner is not known here, has moved, or is a node of protocol
    /// version 1 (which refuses the batch).
    pub async fn refresh_presence(&self) {
        let all: Vec<((i64, i64), u32)> = self
            .presence
            .lock()
            .await
            .iter()
            .map(|(k, v)| (*k, *v))
            .collect();
        let mut by_owner: HashMap<String, Vec<(i64, i64, u32)>> = HashMap::new();
        let mut alone = Vec::new();
        {
            let owners = self.owners();
            for ((game, user), count) in all {
                match owners.get(&game) {
                    Some(node) => by_owner
                        .entry(node.clone())
                        .or_default()
                        .push((game, user, count)),
                    None => alone.push((game, user, count)),
                }
            }
        }
        for (owner, counts) in by_owner {
            let req = Request::Presences {
                node: self.node.clone(),
                counts,
            };
            let (version, Ok(payload)) = (req.version(), serde_json::to_vec(&req)) else {
                continue;
            };
            let Request::Presences { counts, .. } = req else {
                unreachable!("built above");
            };
            match self.send(&owner, version, payload.into()).await {
                Sent::Answered(Reply::Presented { unowned }) => {
                    let unowned: std::collections::HashSet<i64> = unowned.into_iter().collect();
                    alone.extend(counts.into_iter().filter(|(g, _, _)| unowned.contains(g)));
                }
                _ => alone.extend(counts),
            }
        }
        for (game, user, count) in alone {
            self.report(game, user, count).await;
        }
    }
}

/// What came of a request sent to a node.
enum Sent {
    /// Its reply.
    Answered(Reply),
    /// No answer in time, or no one listens (the node died).
    Unanswered,
    /// A reply this node cannot read.
    Unreadable,
}

/// A game owned by another node.
pub struct RemoteGame {
    id: i64,
    size: u8,
    peers: Arc<Peers>,
    closed: AtomicBool,
}

impl RemoteGame {
    /// Game `id` (board side `size`), reached through `peers`.
    pub fn new(id: i64, size: u8, peers: Arc<Peers>) -> RemoteGame {
        RemoteGame {
            id,
            size,
            peers,
            closed: AtomicBool::new(false),
        }
    }

    /// No other node owns the game any more: look it up again.
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }

    async fn ask(&self, req: &Request) -> Result<Reply, ActError> {
        match self.peers.request(self.id, req).await {
            Ok(Some(r)) => Ok(r),
            Ok(None) | Err(ActError::Gone) => {
                self.closed.store(true, Ordering::Relaxed);
                Err(ActError::Gone)
            }
            Err(e) => Err(e),
        }
    }

    pub(super) async fn act(&self, a: ActParts) -> Result<u64, ActError> {
        let req = Request::Act {
            game: self.id,
            user: a.user,
            username: a.username,
            action: WireAction::from_action(&a.action, self.size),
            rtt_ms: a.rtt_ms,
        };
        match self.ask(&req).await? {
            Reply::Acted { seq } => Ok(seq),
            Reply::Refused { code, message } => Err(ActError::Remote { code, message }),
            _ => Err(ActError::Gone),
        }
    }

    pub(super) async fn watch(&self, user: Option<i64>, since: Option<u64>) -> Option<Watch> {
        let live = self.peers.relay(self.id).await?;
        let req = Request::Watch {
            game: self.id,
            since,
        };
        let Ok(Reply::Watched {
            snapshot,
            missed,
            seq,
        }) = self.ask(&req).await
        else {
            return None;
        };
        if let Some(u) = user {
            self.peers.present(self.id, u, 1).await;
        }
        Some(Watch {
            snapshot: snapshot.map(|s| *s),
            missed: missed
                .iter()
                .filter_map(|w| Record::from_wire(w).map(Arc::new))
                .collect(),
            live,
            seq,
        })
    }

    pub(super) async fn gone(&self, user: i64) {
        self.peers.present(self.id, user, -1).await;
    }

    pub(super) async fn snapshot(&self) -> Option<Snapshot> {
        match self.ask(&Request::Snapshot { game: self.id }).await {
            Ok(Reply::State { state }) => Some(*state),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_reads_its_protocol_and_older_ones_only() {
        assert_eq!(readable(None), Ok(0), "before the header: version 0");
        assert_eq!(readable(Some(&protocol_headers(PROTOCOL))), Ok(PROTOCOL));
        assert_eq!(readable(Some(&protocol_headers(1))), Ok(1));
        let with = |v: &str| {
            let mut h = async_nats::HeaderMap::new();
            h.insert(PROTOCOL_HEADER, v);
            readable(Some(&h))
        };
        assert_eq!(with("0"), Ok(0));
        assert_eq!(with(&(PROTOCOL + 1).to_string()), Err(PROTOCOL + 1));
        assert_eq!(with("two"), Err(u32::MAX));
        assert_eq!(readable(Some(&async_nats::HeaderMap::new())), Ok(0));
    }
}
