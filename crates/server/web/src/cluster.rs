//! Cluster mode (`tengen serve --nats URL --node NAME` on PostgreSQL): several nodes share the
//! database and a NATS bus.
//!
//! - Ownership: each live game runs on exactly one node, the holder of its lease
//!   ([`tengen_store::lease`]); every write is fenced by the lease's epoch.
//! - Forwarding: a node asked about a game it does not own forwards the request to the owner
//!   ([`tengen_live::remote`]); this module answers such requests for the games run here.
//! - Events: owners publish each event after its commit; nodes relay them to their watchers.
//! - Failover: every node renews its leases each second and takes over the live games whose
//!   owner's lease lapsed (a node killed: within the lease's 5 s and a second); a game taken over
//!   is rebuilt from its log, its clock restarting where the last event left it. SIGTERM hands
//!   a node's games over at once.

use std::sync::Arc;

use futures_util::StreamExt;

use tengen_live::registry::RENEW_EVERY;
use tengen_live::remote::{protocol_headers, readable, Peers, Reply, Request, PROTOCOL, V1};
use tengen_live::subjects::{node_subject, LOBBY, NOTICES, ONLINE};

/// How often a node reports its players' connections to the owners of their games (the owners
/// forget a report after `PRESENCE_TTL`, 15 s).
const PRESENCE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);
use crate::state::AppState;

/// Connects to NATS as node `name`; the node's identity adds its start time, so that a node
/// restarted under the same name is a new owner (its old incarnation's leases are not its own).
pub async fn connect(
    url: &str,
    name: &str,
    store: tengen_store::Store,
) -> Result<Arc<Peers>, String> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(format!(
            "node name {name:?}: letters, digits, '-' and '_' only"
        ));
    }
    let bus = async_nats::connect(url)
        .await
        .map_err(|e| format!("cannot reach NATS at {url}: {e}"))?;
    let incarnation = tengen_store::games::now_ms();
    Ok(Arc::new(Peers::new(
        format!("{name}-{incarnation}"),
        bus,
        store,
    )))
}

/// Starts this node's part of the cluster: answering forwarded requests and the upkeep loop.
pub async fn start(state: &AppState) -> Result<(), String> {
    let Some(peers) = state.services.games.peers().cloned() else {
        return Ok(());
    };
    let mut requests = peers
        .bus
        .subscribe(node_subject(&peers.node))
        .await
        .map_err(|e| format!("cannot subscribe: {e}"))?;
    let served = state.clone();
    tokio::spawn(async move {
        while let Some(msg) = requests.next().await {
            let state = served.clone();
            tokio::spawn(async move {
                let Some(reply_to) = msg.reply.clone() else {
                    return;
                };
                let reply = match readable(msg.headers.as_ref()) {
                    Err(v) => Reply::Refused {
                        code: "protocol_version".into(),
                        message: format!(
                            "this node reads the cluster protocol up to version {PROTOCOL}, \
                             the request is version {v}"
                        ),
                    },
                    Ok(_) => match serde_json::from_slice::<Request>(&msg.payload) {
                        Ok(req) => answer(&state, req).await,
                        Err(e) => Reply::Refused {
                            code: "bad_message".into(),
                            message: e.to_string(),
                        },
                    },
                };
                crate::metrics::CLUSTER_ANSWERED.inc();
                if let (Some(peers), Ok(bytes)) =
                    (state.services.games.peers(), serde_json::to_vec(&reply))
                {
                    let headers = protocol_headers(reply.version());
                    let _ = peers
                        .bus
                        .publish_with_headers(reply_to, headers, bytes.into())
                        .await;
                }
            });
        }
    });
    // Periodic jobs on tasks of their own, so that none waits for another: the leases (which
    // must never lapse while this node lives), taking over the games of dead nodes, who is
    // online, and this node's players' presence in games owned elsewhere (a request to a node
    // that just died can take seconds).
    let games = state.services.games.clone();
    every(RENEW_EVERY, move || {
        let games = games.clone();
        async move {
            if let Err(e) = games.renew().await {
                tracing::warn!(error = %e, "could not renew the leases");
            }
        }
    });
    let games = state.services.games.clone();
    every(RENEW_EVERY, move || {
        let games = games.clone();
        async move {
            if let Err(e) = games.upkeep().await {
                tracing::warn!(error = %e, "cluster upkeep failed");
            }
        }
    });
    // Who is online: this node's list out every 2 s, the others' in (the lobby is the same from
    // every node; a silent node's players drop out after `online::NODE_SILENCE`).
    let mut lists = peers
        .bus
        .subscribe(ONLINE)
        .await
        .map_err(|e| format!("cannot subscribe: {e}"))?;
    let online = state.services.online.clone();
    let me = peers.node.clone();
    tokio::spawn(async move {
        while let Some(msg) = lists.next().await {
            if let Err(v) = readable(msg.headers.as_ref()) {
                tracing::warn!(version = v, "an online list in a newer protocol");
                continue;
            }
            if let Ok((node, users)) = serde_json::from_slice::<(
                String,
                Vec<(tengen_app::accounts::User, u32)>,
            )>(&msg.payload)
            {
                if node != me {
                    online.heard(&node, users);
                }
            }
        }
    });
    let (online, bus, me) = (
        state.services.online.clone(),
        peers.bus.clone(),
        peers.node.clone(),
    );
    every(std::time::Duration::from_secs(2), move || {
        let (online, bus, me) = (online.clone(), bus.clone(), me.clone());
        async move {
            if let Ok(bytes) = serde_json::to_vec(&(&me, online.local())) {
                let _ = bus
                    .publish_with_headers(ONLINE, protocol_headers(V1), bytes.into())
                    .await;
            }
        }
    });
    // Quick match: outcomes told on any node reach this node's connections of the players,
    // and requests whose node died get their bot game.
    let mut outcomes = peers
        .bus
        .subscribe(NOTICES)
        .await
        .map_err(|e| format!("cannot subscribe: {e}"))?;
    let notices = state.services.notices.clone();
    tokio::spawn(async move {
        while let Some(msg) = outcomes.next().await {
            if let Err(v) = readable(msg.headers.as_ref()) {
                tracing::warn!(version = v, "a quick-match outcome in a newer protocol");
                continue;
            }
            notices.relay_heard(&msg.payload);
        }
    });
    // The lobby chat: every node's lines, this node's too, kept here and sent to its
    // connections.
    let mut lobby = peers
        .bus
        .subscribe(LOBBY)
        .await
        .map_err(|e| format!("cannot subscribe: {e}"))?;
    let chat = state.services.lobby_chat.clone();
    tokio::spawn(async move {
        while let Some(msg) = lobby.next().await {
            if let Err(v) = readable(msg.headers.as_ref()) {
                tracing::warn!(version = v, "a lobby line in a newer protocol");
                continue;
            }
            if let Ok((from, line)) =
                serde_json::from_slice::<(i64, tengen_app::lobby_chat::LobbyLine)>(&msg.payload)
            {
                chat.heard(from, line);
            }
        }
    });
    let matching = state.clone();
    every(RENEW_EVERY, move || {
        let state = matching.clone();
        async move {
            tengen_app::quick_match::upkeep(
                &state.services.bot_games(),
                &state.services.quick_match,
            )
            .await
        }
    });
    let present = Arc::clone(&peers);
    every(PRESENCE_EVERY, move || {
        let present = Arc::clone(&present);
        async move { present.refresh_presence().await }
    });
    tracing::info!(node = %peers.node, "cluster node started");
    Ok(())
}

/// Runs `job` every `period` on a task of its own, one run at a time.
fn every<F, Fut>(period: std::time::Duration, job: F)
where
    F: Fn() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        loop {
            tick.tick().await;
            job().await;
        }
    });
}

/// Answers a request about a game run here; `Moved` for any other.
async fn answer(state: &AppState, req: Request) -> Reply {
    let game = match &req {
        Request::Act { game, .. }
        | Request::Watch { game, .. }
        | Request::Snapshot { game }
        | Request::Presence { game, .. } => *game,
        Request::Presences { .. } => {
            let Request::Presences { node, counts } = req else {
                return Reply::Done;
            };
            return presences(state, &node, counts).await;
        }
    };
    let Some(h) = state.services.games.local(game).await else {
        tracing::debug!(game, "asked about a game not run here");
        return Reply::Moved;
    };
    match req {
        Request::Act {
            user,
            username,
            action,
            rtt_ms,
            ..
        } => {
            let Some(action) = action.to_action(h.size) else {
                return Reply::Refused {
                    code: "bad_point".into(),
                    message: "no such point on this board".into(),
                };
            };
            match h.act(user, &username, action, rtt_ms).await {
                Ok(seq) => Reply::Acted { seq },
                Err(tengen_live::actor::ActError::Moved | tengen_live::actor::ActError::Gone) => {
                    Reply::Moved
                }
                Err(e) => Reply::Refused {
                    code: e.code().to_string(),
                    message: e.to_string(),
                },
            }
        }
        Request::Watch { since, .. } => match h.watch(None, since).await {
            Some(w) => Reply::Watched {
                snapshot: w.snapshot.map(Box::new),
                missed: w.missed.iter().map(|r| r.wire.to_string()).collect(),
                seq: w.seq,
            },
            None => Reply::Moved,
        },
        Request::Snapshot { .. } => match h.snapshot().await {
            Some(state) => Reply::State {
                state: Box::new(state),
            },
            None => Reply::Moved,
        },
        Request::Presence {
            node, user, count, ..
        } => {
            h.presence(&node, user, count).await;
            Reply::Done
        }
        // Answered above.
        Request::Presences { .. } => Reply::Done,
    }
}

/// Takes another node's presence counts for the games run here; names the others.
async fn presences(state: &AppState, node: &str, counts: Vec<(i64, i64, u32)>) -> Reply {
    let mut unowned = Vec::new();
    for (game, user, count) in counts {
        match state.services.games.local(game).await {
            Some(h) if h.is_local() => h.presence(node, user, count).await,
            _ => unowned.push(game),
        }
    }
    Reply::Presented { unowned }
}
