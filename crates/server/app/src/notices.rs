//! Messages to one player, on every connection they have (on every node of a cluster): quick
//! match's pairings, private messages, your-turn notices, moderators' notices and remote bots'
//! game offers. The use cases that tell a player something take a [`Notices`], not the whole
//! of [`crate::services::Services`].
//!
//! Each connection has its own mailbox, filled with its player's messages only: another
//! player's traffic never pushes a message out, and a connection that falls [`BACKLOG`]
//! messages behind is told (its mailbox ends) rather than skipped over. Alone, a message goes
//! straight into the mailboxes; in a cluster it is published on [`NOTICES`], and every node
//! (this one included) relays what it hears there into its own ([`Notices::relay`]), so that a
//! player hears it wherever they are connected.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use tengen_live::subjects::NOTICES;

/// How many messages to one connection may wait unread before it counts as lagging: its
/// mailbox is then closed, and the connection, seeing it closed, tells its client and closes
/// so that the client comes back and reads its state afresh. Only the player's own messages
/// fill it: other players' traffic never pushes a player's messages out.
const BACKLOG: usize = 256;

/// A message for one player's connections, as JSON text.
pub type Notice = Arc<str>;

/// The way to every connection of a player.
#[derive(Clone, Default)]
pub struct Notices {
    /// Each player's connections on this node: one mailbox each.
    boxes: Arc<Mutex<HashMap<i64, Vec<mpsc::Sender<Notice>>>>>,
    /// In a cluster, the bus every node hears [`NOTICES`] on.
    bus: Option<async_nats::Client>,
}

/// One connection's mailbox: the messages to its player, in order. `recv` gives `None` once the
/// connection lagged [`BACKLOG`] messages behind (nothing after that is lost silently: the
/// connection knows).
pub struct Mailbox(mpsc::Receiver<Notice>);

impl Mailbox {
    /// The next message, or `None` when the connection lagged and must resynchronise.
    pub async fn recv(&mut self) -> Option<Notice> {
        self.0.recv().await
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

    /// A mailbox for one connection of `user_id` on this node, from now on.
    pub fn subscribe(&self, user_id: i64) -> Mailbox {
        let (tx, rx) = mpsc::channel(BACKLOG);
        let mut boxes = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
        let list = boxes.entry(user_id).or_default();
        // Mailboxes of connections that closed go when the next one opens.
        list.retain(|tx| !tx.is_closed());
        list.push(tx);
        Mailbox(rx)
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
                NOTICES,
                tengen_live::remote::protocol_headers(tengen_live::remote::V1),
                bytes.into(),
            )
            .await;
        if let Err(e) = published {
            tracing::warn!(error = %e, user_id, "could not publish a message to a player");
        }
    }

    /// Hands `msg` to this node's connections of `user_id` (a message heard on [`NOTICES`]).
    /// A connection whose mailbox is full loses its mailbox, and learns so from it.
    pub fn relay(&self, user_id: i64, msg: String) {
        let msg: Notice = msg.into();
        let mut boxes = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
        let Some(list) = boxes.get_mut(&user_id) else {
            // No connection here: the player is not connected to this node.
            return;
        };
        list.retain(|tx| match tx.try_send(Arc::clone(&msg)) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::warn!(user_id, "a connection lagged behind its player's messages");
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        });
        if list.is_empty() {
            boxes.remove(&user_id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_player_s_messages_are_not_pushed_out_by_others() {
        let notices = Notices::default();
        let mut ann = notices.subscribe(1);
        notices.relay(1, "paired".into());
        for i in 0..10 * BACKLOG {
            notices.relay(2, format!("to bob {i}"));
        }
        notices.relay(1, "message".into());
        notices.relay(1, "ban".into());
        assert_eq!(ann.recv().await.as_deref(), Some("paired"));
        assert_eq!(ann.recv().await.as_deref(), Some("message"));
        assert_eq!(ann.recv().await.as_deref(), Some("ban"));
    }

    #[tokio::test]
    async fn a_connection_that_lags_is_told_not_skipped() {
        let notices = Notices::default();
        let mut slow = notices.subscribe(1);
        let mut other = notices.subscribe(1);
        for i in 0..=BACKLOG {
            notices.relay(1, format!("{i}"));
            // The other connection keeps up.
            assert_eq!(other.recv().await.as_deref(), Some(format!("{i}").as_str()));
        }
        for i in 0..BACKLOG {
            assert_eq!(slow.recv().await.as_deref(), Some(format!("{i}").as_str()));
        }
        // The message it had no room for is not skipped over: the mailbox ends.
        assert_eq!(slow.recv().await, None);
        notices.relay(1, "after".into());
        assert_eq!(other.recv().await.as_deref(), Some("after"));
    }
}
