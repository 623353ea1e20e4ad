//! Messages to one player, on every connection they have (on every node of a cluster): quick
//! match's pairings, private messages, your-turn notices, moderators' notices and remote bots'
//! game offers. The use cases that tell a player something take a [`Notices`], not the whole
//! of [`crate::services::Services`].
//!
//! Alone, a message goes straight onto this node's channel; in a cluster it is published on
//! [`SUBJECT`], and every node (this one included) relays what it hears there onto its own
//! channel ([`Notices::relay`]), so that a player hears it wherever they are connected.

use std::sync::Arc;

use tokio::sync::broadcast;

/// Where messages to players go to every node: `(user id, message)` as JSON.
pub const SUBJECT: &str = "tengen.match";

/// How many messages a connection may fall behind before it misses some.
const BACKLOG: usize = 256;

/// A message for one player's connections: (user id, the message's JSON text).
pub type Notice = (i64, Arc<str>);

/// The way to every connection of a player.
#[derive(Clone)]
pub struct Notices {
    local: broadcast::Sender<Notice>,
    /// In a cluster, the bus every node hears [`SUBJECT`] on.
    bus: Option<async_nats::Client>,
}

impl Default for Notices {
    fn default() -> Notices {
        Notices {
            local: broadcast::channel(BACKLOG).0,
            bus: None,
        }
    }
}

impl Notices {
    /// A cluster node's notices: published on `bus`, for every node to relay.
    pub fn clustered(bus: async_nats::Client) -> Notices {
        Notices {
            bus: Some(bus),
            ..Notices::default()
        }
    }

    /// This node's messages, from now on (a connection's subscription).
    pub fn subscribe(&self) -> broadcast::Receiver<Notice> {
        self.local.subscribe()
    }

    /// Tells every connection of `user_id`'s (on every node of a cluster) the message `msg`.
    pub async fn say(&self, user_id: i64, msg: String) {
        let Some(bus) = &self.bus else {
            self.relay(user_id, msg);
            return;
        };
        let Ok(bytes) = serde_json::to_vec(&(user_id, msg)) else {
            return;
        };
        let published = bus
            .publish_with_headers(
                SUBJECT,
                tengen_live::remote::protocol_headers(tengen_live::remote::V1),
                bytes.into(),
            )
            .await;
        if let Err(e) = published {
            tracing::warn!(error = %e, user_id, "could not publish a message to a player");
        }
    }

    /// Hands `msg` to this node's connections of `user_id` (a message heard on [`SUBJECT`]).
    pub fn relay(&self, user_id: i64, msg: String) {
        // No connection listening is no error: the player is not connected here.
        let _ = self.local.send((user_id, msg.into()));
    }
}
