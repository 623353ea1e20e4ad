//! What a live game hands out, whoever runs it (its actor here, or another node of the cluster
//! through [`super::remote`]): its players, its log's records, the watch a spectator gets, and
//! why an action got no events.

use std::sync::Arc;

use bytes::Bytes;
use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::broadcast;

use tengen_core::domain::clock::Clock;
use tengen_core::game::{Action, ActionError, Event};

/// An event with its place in the log.
#[derive(Clone, Debug, Serialize)]
pub struct Record {
    /// 1-based sequence number in the game's log.
    pub seq: u64,
    /// When it was accepted, ms since the epoch.
    pub at_ms: i64,
    /// What happened.
    pub event: Event,
    /// Both clocks (Black, White) right after it, for timed games.
    pub clocks: Option<[Clock; 2]>,
    /// The `event` message as sent to every watcher: serialised once, shared by all.
    #[serde(skip)]
    pub wire: Frame,
}

/// A WebSocket text message, serialised once and shared by every watcher (and published to the
/// other nodes as it is): UTF-8 by construction, as a socket's text frame must be. The socket
/// turns it into its library's text type without copying.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame(Bytes);

impl Frame {
    /// The message's bytes (UTF-8).
    pub fn bytes(&self) -> &Bytes {
        &self.0
    }

    /// The message as text.
    pub fn as_str(&self) -> &str {
        // Made from a `String` only, so never invalid.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl From<String> for Frame {
    fn from(s: String) -> Frame {
        Frame(Bytes::from(s))
    }
}

impl std::fmt::Display for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Record {
    /// A record of `game`'s event, with its message for watchers built from the event's and
    /// the clocks' JSON (those stored in the log).
    pub fn new(
        game: i64,
        seq: u64,
        at_ms: i64,
        event: Event,
        clocks: Option<[Clock; 2]>,
        event_json: &str,
        clocks_json: Option<&str>,
    ) -> Record {
        let wire = EventMsg::frame(game, seq, at_ms, event_json, clocks_json);
        Record {
            seq,
            at_ms,
            event,
            clocks,
            wire,
        }
    }

    /// The record of a stored event of `game`.
    pub fn from_row(
        game: i64,
        e: &tengen_store::games::EventRow,
    ) -> Result<Record, serde_json::Error> {
        let event: Event = serde_json::from_str(&e.event)?;
        let clocks = e
            .clocks
            .as_deref()
            .and_then(|c| serde_json::from_str(c).ok());
        Ok(Record::new(
            game,
            e.seq as u64,
            e.at_ms,
            event,
            clocks,
            &e.event,
            e.clocks.as_deref(),
        ))
    }
}

/// The WebSocket protocol's `event` message (docs/protocol.md): the event and, in timed games,
/// both clocks right after it (`null` in untimed ones), each as the JSON text it was stored as.
#[derive(Serialize)]
struct EventMsg<'a> {
    /// Always `event`.
    r#type: &'static str,
    game: i64,
    seq: u64,
    at: i64,
    event: Option<&'a RawValue>,
    clocks: Option<&'a RawValue>,
}

impl EventMsg<'_> {
    /// The message's frame. The texts were written by serde (or read back from the log, where
    /// serde wrote them): were one not JSON, the frame says `null` for it rather than send
    /// broken JSON.
    fn frame(game: i64, seq: u64, at: i64, event_json: &str, clocks_json: Option<&str>) -> Frame {
        let msg = EventMsg {
            r#type: "event",
            game,
            seq,
            at,
            event: raw(event_json),
            clocks: clocks_json.and_then(raw),
        };
        serde_json::to_string(&msg).unwrap_or_default().into()
    }
}

/// `text` as raw JSON, if it is JSON.
fn raw(text: &str) -> Option<&RawValue> {
    serde_json::from_str(text).ok()
}

/// Why an action got no events.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActError {
    /// The game refused it.
    #[error("{0}")]
    Refused(ActionError),
    /// The database did not take it; nothing changed.
    #[error("the move could not be stored; try again")]
    Storage,
    /// The game's actor is gone (server shutting down, or the game moved to another node).
    #[error("the game is not available")]
    Gone,
    /// Another node of the cluster owns the game now; nothing was stored here.
    #[error("the game moved to another server; try again")]
    Moved,
    /// The owning node's answer, forwarded (cluster).
    #[error("{message}")]
    Remote {
        /// Its stable code.
        code: String,
        /// Its message.
        message: String,
    },
}

impl ActError {
    /// Stable snake_case id.
    pub fn code(&self) -> &str {
        match self {
            ActError::Refused(e) => e.code(),
            ActError::Storage => "storage_unavailable",
            ActError::Gone => "game_unavailable",
            ActError::Moved => "game_moved",
            ActError::Remote { code, .. } => code,
        }
    }
}

/// What a watcher gets: either the whole state or the events it missed, and the live stream.
pub struct Watch {
    /// The state now, when the watcher did not say what it has seen.
    pub snapshot: Option<tengen_core::view::Snapshot>,
    /// Events after the watcher's `since`.
    pub missed: Vec<Arc<Record>>,
    /// Everything from now on (records up to `seq` may come again through a cluster's relay:
    /// skip them).
    pub live: broadcast::Receiver<Arc<Record>>,
    /// The seq of the last event the snapshot or `missed` holds.
    pub seq: u64,
}

/// An `act` command's parts, for forwarding to the owning node.
pub struct ActParts {
    /// Who acts.
    pub user: i64,
    /// Their name.
    pub username: String,
    /// What they do.
    pub action: Action,
    /// Their connection's round trip, ms.
    pub rtt_ms: u64,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A row written before points were typed reads back, and its watchers' message carries the
    /// stored text unchanged.
    #[test]
    fn an_old_stored_move_row_reads_back() {
        let row = tengen_store::games::EventRow {
            seq: 1,
            event: r#"{"type":"move","color":"black","point":"Q16"}"#.into(),
            at_ms: 5,
            clocks: None,
        };
        let r = Record::from_row(3, &row).unwrap();
        match &r.event {
            Event::Move { point, .. } => assert_eq!(point.to_string(), "Q16"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            r.wire.to_string(),
            r#"{"type":"event","game":3,"seq":1,"at":5,"event":{"type":"move","color":"black","point":"Q16"},"clocks":null}"#
        );
    }

    /// The frame carries the stored clocks as they were written, and never broken JSON.
    #[test]
    fn the_event_frame_carries_the_stored_texts() {
        let event = r#"{"type":"pass","color":"white"}"#;
        let clocks = r#"[{"main_ms":1},{"main_ms":2}]"#;
        let f = EventMsg::frame(9, 2, 7, event, Some(clocks));
        assert_eq!(
            f.as_str(),
            r#"{"type":"event","game":9,"seq":2,"at":7,"event":{"type":"pass","color":"white"},"clocks":[{"main_ms":1},{"main_ms":2}]}"#
        );
        let f = EventMsg::frame(9, 2, 7, "{broken", Some("[1,"));
        assert_eq!(
            f.as_str(),
            r#"{"type":"event","game":9,"seq":2,"at":7,"event":null,"clocks":null}"#
        );
    }
}
