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

use serde::Serialize;
use tokio::sync::mpsc;

use tengen_live::subjects::NOTICES;

/// How many messages to one connection may wait unread before it counts as lagging: its
/// mailbox is then closed, and the connection, seeing it closed, tells its client and closes
/// so that the client comes back and reads its state afresh. Only the player's own messages
/// fill it: other players' traffic never pushes a player's messages out.
const BACKLOG: usize = 256;

/// A message to one player: each kind is its own type, declared by the use case that tells
/// it (a pairing in `quick_match`, a private message in `social`, a your-turn notice in
/// `correspondence`, a moderator's notice in `moderation`, a remote bot's game offer in
/// `bots`), written `{"type": KIND, ...its fields}` with the keys in alphabetical order.
pub trait Notice: Serialize {
    /// Its `type` on the wire.
    const KIND: &'static str;

    /// Whether the player's connections close after it (a ban).
    fn ends_connections(&self) -> bool {
        false
    }
}

/// A notice as it travels: written once, and whether the connections close after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Told {
    /// The notice's JSON text.
    pub text: Arc<str>,
    /// Whether the connections close after sending it (a ban).
    pub closes: bool,
}

impl Told {
    /// `notice` written for the wire: `{"type": KIND, ...}`, keys sorted as `json!` wrote them.
    pub fn of<N: Notice>(notice: &N) -> Told {
        let mut v = serde_json::to_value(notice).unwrap_or_default();
        if let Some(fields) = v.as_object_mut() {
            fields.insert("type".into(), N::KIND.into());
        }
        Told {
            text: v.to_string().into(),
            closes: notice.ends_connections(),
        }
    }
}

/// What goes on [`NOTICES`]: the player, the notice's text, whether it closes their
/// connections. A node of the previous version sent `(player, text)` and closed on a ban it
/// read out of the text: both are heard.
#[derive(serde::Deserialize, Serialize)]
#[serde(untagged)]
enum OnTheBus {
    Now(i64, String, bool),
    Before(i64, String),
}

impl OnTheBus {
    fn heard(self) -> (i64, Told) {
        let (user, text, closes) = match self {
            OnTheBus::Now(user, text, closes) => (user, text, closes),
            OnTheBus::Before(user, text) => {
                let ban = serde_json::from_str::<serde_json::Value>(&text)
                    .is_ok_and(|v| v["type"] == "moderation" && v["action"] == "ban");
                (user, text, ban)
            }
        };
        let text = text.into();
        (user, Told { text, closes })
    }
}

/// The way to every connection of a player.
#[derive(Clone, Default)]
pub struct Notices {
    /// Each player's connections on this node: one mailbox each.
    boxes: Arc<Mutex<HashMap<i64, Vec<mpsc::Sender<Told>>>>>,
    /// In a cluster, the bus every node hears [`NOTICES`] on.
    bus: Option<async_nats::Client>,
}

/// One connection's mailbox: the messages to its player, in order. `recv` gives `None` once the
/// connection lagged [`BACKLOG`] messages behind (nothing after that is lost silently: the
/// connection knows).
pub struct Mailbox(mpsc::Receiver<Told>);

impl Mailbox {
    /// The next message, or `None` when the connection lagged and must resynchronise.
    pub async fn recv(&mut self) -> Option<Told> {
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

    /// Tells every connection of `user_id`'s (on every node of a cluster) `notice`.
    pub async fn say<N: Notice>(&self, user_id: i64, notice: &N) {
        let told = Told::of(notice);
        let Some(bus) = &self.bus else {
            self.relay(user_id, told);
            return;
        };
        let on_the_bus = OnTheBus::Now(user_id, told.text.to_string(), told.closes);
        let Ok(bytes) = serde_json::to_vec(&on_the_bus) else {
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

    /// Hands a notice heard on [`NOTICES`] (its payload, as [`Notices::say`] published it) to
    /// this node's connections of its player. Unreadable payloads are dropped with a warning.
    pub fn relay_heard(&self, payload: &[u8]) {
        match serde_json::from_slice::<OnTheBus>(payload) {
            Ok(heard) => {
                let (user_id, told) = heard.heard();
                self.relay(user_id, told);
            }
            Err(e) => tracing::warn!(error = %e, "an unreadable notice on the bus"),
        }
    }

    /// Hands `msg` to this node's connections of `user_id`. A connection whose mailbox is full
    /// loses its mailbox, and learns so from it.
    pub fn relay(&self, user_id: i64, msg: Told) {
        let mut boxes = self.boxes.lock().unwrap_or_else(|e| e.into_inner());
        let Some(list) = boxes.get_mut(&user_id) else {
            // No connection here: the player is not connected to this node.
            return;
        };
        list.retain(|tx| match tx.try_send(msg.clone()) {
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

    /// A notice for the tests: its text is its only field.
    #[derive(Serialize)]
    struct Said {
        said: String,
    }

    impl Notice for Said {
        const KIND: &'static str = "said";
    }

    fn told(text: &str) -> Told {
        Told::of(&Said { said: text.into() })
    }

    fn said(told: Option<Told>) -> Option<String> {
        let v: serde_json::Value = serde_json::from_str(&told?.text).ok()?;
        Some(v["said"].as_str()?.to_string())
    }

    #[tokio::test]
    async fn a_player_s_messages_are_not_pushed_out_by_others() {
        let notices = Notices::default();
        let mut ann = notices.subscribe(1);
        notices.relay(1, told("paired"));
        for i in 0..10 * BACKLOG {
            notices.relay(2, told(&format!("to bob {i}")));
        }
        notices.relay(1, told("message"));
        notices.relay(1, told("ban"));
        assert_eq!(said(ann.recv().await).as_deref(), Some("paired"));
        assert_eq!(said(ann.recv().await).as_deref(), Some("message"));
        assert_eq!(said(ann.recv().await).as_deref(), Some("ban"));
    }

    #[tokio::test]
    async fn a_connection_that_lags_is_told_not_skipped() {
        let notices = Notices::default();
        let mut slow = notices.subscribe(1);
        let mut other = notices.subscribe(1);
        for i in 0..=BACKLOG {
            notices.relay(1, told(&format!("{i}")));
            // The other connection keeps up.
            assert_eq!(said(other.recv().await), Some(format!("{i}")));
        }
        for i in 0..BACKLOG {
            assert_eq!(said(slow.recv().await), Some(format!("{i}")));
        }
        // The message it had no room for is not skipped over: the mailbox ends.
        assert_eq!(slow.recv().await, None);
        notices.relay(1, told("after"));
        assert_eq!(said(other.recv().await).as_deref(), Some("after"));
    }

    /// A notice that closes the connections, as a ban does.
    #[derive(Serialize)]
    struct Closing {
        action: &'static str,
    }

    impl Notice for Closing {
        const KIND: &'static str = "moderation";

        fn ends_connections(&self) -> bool {
            true
        }
    }

    #[test]
    fn a_notice_is_written_with_its_kind_and_sorted_keys() {
        let t = Told::of(&Closing { action: "ban" });
        assert_eq!(&*t.text, r#"{"action":"ban","type":"moderation"}"#);
        assert!(t.closes);
        assert!(!told("x").closes);
    }

    #[tokio::test]
    async fn notices_heard_on_the_bus_keep_whether_they_close() {
        let notices = Notices::default();
        let mut ann = notices.subscribe(7);
        let now = OnTheBus::Now(7, r#"{"type":"said"}"#.into(), true);
        notices.relay_heard(&serde_json::to_vec(&now).unwrap());
        assert!(ann.recv().await.unwrap().closes);
        // From a node of the previous version: `(player, text)`, a ban read from the text.
        let ban = r#"[7, "{\"action\":\"ban\",\"type\":\"moderation\"}"]"#;
        notices.relay_heard(ban.as_bytes());
        let heard = ann.recv().await.unwrap();
        assert!(heard.closes, "{heard:?}");
        let warn = r#"[7, "{\"action\":\"warn\",\"type\":\"moderation\"}"]"#;
        notices.relay_heard(warn.as_bytes());
        assert!(!ann.recv().await.unwrap().closes);
        // Garbage is dropped, and what follows still comes.
        notices.relay_heard(b"[7, 8, 9, 10]");
        notices.relay_heard(b"not json");
        notices.relay(7, told("next"));
        assert_eq!(said(ann.recv().await).as_deref(), Some("next"));
    }
}
