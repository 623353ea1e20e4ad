//! The WebSocket protocol's messages (`docs/protocol.md`): what clients send ([`ClientMsg`]) and
//! what the server sends ([`ServerMsg`]), each written in one place.
//!
//! A [`ServerMsg`] is written with its keys in alphabetical order (`type` among them), as the
//! `json!` objects it replaced wrote them: the wire is byte for byte the same. A tournament's
//! change ([`ServerMsg::TournamentChanged`]) carries its state as the text written once for
//! every follower, and keeps serde's own order (`type` first), as the frame always had. A game's
//! `event` frame is written once in `live` (its `Record`, also what nodes relay to each other)
//! and a player's notices in `app` (they cross the cluster as text): neither is here yet.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use tengen_app::accounts::User;
use tengen_app::lobby_chat::LobbyLine;
use tengen_app::quick_match::MatchState;
use tengen_app::tournaments::Tournament;
use tengen_core::view::{ClocksView, Snapshot};

/// What clients send. Every message may carry an `id`, echoed as `ref` in the reply.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum ClientMsg {
    Ping,
    Watch {
        game: i64,
        #[serde(default)]
        since: Option<u64>,
    },
    Unwatch {
        game: i64,
    },
    Move {
        game: i64,
        point: String,
    },
    Pass {
        game: i64,
    },
    Resign {
        game: i64,
    },
    Leave {
        game: i64,
    },
    Takeback {
        game: i64,
    },
    TakebackAnswer {
        game: i64,
        accept: bool,
    },
    ScoreRequest {
        game: i64,
    },
    ToggleDead {
        game: i64,
        point: String,
    },
    Dispute {
        game: i64,
        point: String,
    },
    AcceptScore {
        game: i64,
    },
    Resume {
        game: i64,
    },
    Chat {
        game: i64,
        text: String,
    },
    TimeSync {
        game: i64,
    },
    /// Quick match: a request (the fields of `POST /api/match`).
    Match(tengen_app::quick_match::MatchRequest),
    MatchCancel,
    /// A tournament's pairings and standings, now and at each change.
    WatchTournament {
        tournament: i64,
    },
    UnwatchTournament {
        tournament: i64,
    },
    /// A line in the lobby's chat.
    LobbyChat {
        text: String,
    },
    /// The lobby's last lines, to one who comes into the lobby.
    LobbyJoin,
}

/// The types of [`ClientMsg`], to tell an unknown type from a malformed message.
pub(crate) const TYPES: &[&str] = &[
    "ping",
    "watch",
    "unwatch",
    "move",
    "pass",
    "resign",
    "leave",
    "takeback",
    "takeback_answer",
    "score_request",
    "toggle_dead",
    "dispute",
    "accept_score",
    "resume",
    "chat",
    "time_sync",
    "match",
    "match_cancel",
    "watch_tournament",
    "unwatch_tournament",
    "lobby_chat",
    "lobby_join",
];

/// What the server sends on a socket, besides game events, lobby lines and a player's notices
/// (each written once for every socket that gets it, below this floor). `ref` echoes the `id`
/// of the client's message it answers (`null` if it had none).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum ServerMsg<'a> {
    /// The first message on a socket: who it is signed in as.
    Welcome {
        /// The account.
        user: &'a User,
    },
    /// A refusal, with a stable code.
    Error {
        /// The message refused.
        #[serde(rename = "ref")]
        reference: &'a Value,
        /// The game a watch failed for (so the client knows which board is behind).
        #[serde(skip_serializing_if = "Option::is_none")]
        game: Option<i64>,
        /// The stable code.
        code: &'a str,
        /// For people.
        message: &'a str,
    },
    /// A message done: what it was about.
    Ack {
        /// The message done.
        #[serde(rename = "ref")]
        reference: &'a Value,
        /// The game acted in, watched or unwatched.
        #[serde(skip_serializing_if = "Option::is_none")]
        game: Option<i64>,
        /// The seq of the action's last event (an action).
        #[serde(skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
        /// The id of the lobby line said.
        #[serde(skip_serializing_if = "Option::is_none")]
        lobby_chat: Option<u64>,
        /// The tournament no longer followed.
        #[serde(skip_serializing_if = "Option::is_none")]
        tournament: Option<i64>,
    },
    /// The answer to a `ping`.
    Pong {
        /// The ping.
        #[serde(rename = "ref")]
        reference: &'a Value,
    },
    /// A tournament followed: its state now.
    Tournament {
        /// The `watch_tournament`.
        #[serde(rename = "ref")]
        reference: &'a Value,
        /// Its state.
        tournament: &'a Tournament,
    },
    /// The lobby's last lines.
    Lobby {
        /// The `lobby_join`.
        #[serde(rename = "ref")]
        reference: &'a Value,
        /// The lines, oldest first.
        lines: &'a [LobbyLine],
    },
    /// Quick match: the player's request as it stands (and whether one was withdrawn).
    Match {
        /// The `match` or `match_cancel`.
        #[serde(rename = "ref")]
        reference: &'a Value,
        /// Whether a request was withdrawn (`match_cancel` only).
        #[serde(skip_serializing_if = "Option::is_none")]
        cancelled: Option<bool>,
        /// The status.
        #[serde(rename = "match")]
        status: &'a MatchState,
    },
    /// A game's clocks now (`null` untimed).
    TimeSync {
        /// The `time_sync`.
        #[serde(rename = "ref")]
        reference: &'a Value,
        /// The game.
        game: i64,
        /// Its clocks.
        clocks: Option<&'a ClocksView>,
    },
    /// A game watched: its whole state.
    Snapshot {
        /// The `watch`.
        #[serde(rename = "ref")]
        reference: &'a Value,
        /// The game.
        game: i64,
        /// Its state.
        state: &'a Snapshot,
    },
    /// This socket fell behind a game's events: watch it again.
    Resync {
        /// The game.
        game: i64,
    },
    /// A tournament followed changed: its state now, unasked.
    #[serde(rename = "tournament")]
    TournamentChanged {
        /// Its state, as written once for every socket that follows it.
        tournament: &'a RawValue,
    },
}

impl ServerMsg<'_> {
    /// The message as it goes on the wire, keys in alphabetical order.
    pub(crate) fn text(&self) -> String {
        match self {
            // Its state is text already: in declared order (the tag first), as the `format!`
            // it replaced wrote it, and not parsed again for every socket.
            ServerMsg::TournamentChanged { .. } => serde_json::to_string(self).unwrap_or_default(),
            // Through a `Value`, whose map is sorted: the bytes the `json!` objects wrote.
            _ => serde_json::to_value(self)
                .map(|v| v.to_string())
                .unwrap_or_default(),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use serde_json::json;

    /// Each message as its `json!` object wrote it, and as the client reads it.
    #[test]
    fn every_server_message_reads_as_before() {
        let r = json!(7);
        let user = User {
            id: 1,
            username: "ann".into(),
            rank: "3k".parse().unwrap(),
            points: 0,
            guest: false,
            bot: false,
            rating: 1500.0,
            deviation: 350.0,
            role: Default::default(),
        };
        let welcome = ServerMsg::Welcome { user: &user }.text();
        assert_eq!(
            welcome,
            json!({ "type": "welcome", "user": user }).to_string()
        );
        assert!(welcome.starts_with(r#"{"type":"welcome","user":{"bot":false,"#));
        let cases = [
            (
                ServerMsg::Error {
                    reference: &r,
                    game: None,
                    code: "no_such_game",
                    message: "no such game",
                },
                r#"{"code":"no_such_game","message":"no such game","ref":7,"type":"error"}"#,
            ),
            (
                ServerMsg::Error {
                    reference: &Value::Null,
                    game: Some(3),
                    code: "game_unavailable",
                    message: "the game is not available",
                },
                r#"{"code":"game_unavailable","game":3,"message":"the game is not available","ref":null,"type":"error"}"#,
            ),
            (
                ServerMsg::Ack {
                    reference: &r,
                    game: Some(3),
                    seq: Some(12),
                    lobby_chat: None,
                    tournament: None,
                },
                r#"{"game":3,"ref":7,"seq":12,"type":"ack"}"#,
            ),
            (
                ServerMsg::Ack {
                    reference: &r,
                    game: Some(3),
                    seq: None,
                    lobby_chat: None,
                    tournament: None,
                },
                r#"{"game":3,"ref":7,"type":"ack"}"#,
            ),
            (
                ServerMsg::Ack {
                    reference: &r,
                    game: None,
                    seq: None,
                    lobby_chat: Some(4),
                    tournament: None,
                },
                r#"{"lobby_chat":4,"ref":7,"type":"ack"}"#,
            ),
            (
                ServerMsg::Ack {
                    reference: &r,
                    game: None,
                    seq: None,
                    lobby_chat: None,
                    tournament: Some(2),
                },
                r#"{"ref":7,"tournament":2,"type":"ack"}"#,
            ),
            (
                ServerMsg::Pong { reference: &r },
                r#"{"ref":7,"type":"pong"}"#,
            ),
            (
                ServerMsg::Lobby {
                    reference: &r,
                    lines: &[LobbyLine {
                        at: 5,
                        from: "ann".into(),
                        id: 1,
                        text: "hi".into(),
                        kind: "lobby_chat".into(),
                    }],
                },
                r#"{"lines":[{"at":5,"from":"ann","id":1,"text":"hi","type":"lobby_chat"}],"ref":7,"type":"lobby"}"#,
            ),
            (
                ServerMsg::Match {
                    reference: &r,
                    cancelled: None,
                    status: &MatchState::Idle,
                },
                r#"{"match":{"state":"idle"},"ref":7,"type":"match"}"#,
            ),
            (
                ServerMsg::Match {
                    reference: &r,
                    cancelled: Some(false),
                    status: &MatchState::Idle,
                },
                r#"{"cancelled":false,"match":{"state":"idle"},"ref":7,"type":"match"}"#,
            ),
            (
                ServerMsg::TimeSync {
                    reference: &r,
                    game: 3,
                    clocks: None,
                },
                r#"{"clocks":null,"game":3,"ref":7,"type":"time_sync"}"#,
            ),
            (
                ServerMsg::Resync { game: 3 },
                r#"{"game":3,"type":"resync"}"#,
            ),
        ];
        for (msg, text) in cases {
            assert_eq!(msg.text(), text);
        }
        // The bytes `tournament_changed`'s `format!` wrote, and the state as it was written,
        // its own order kept.
        for (state, frame) in [
            (
                r#"{"id":2}"#,
                r#"{"type":"tournament","tournament":{"id":2}}"#,
            ),
            (
                r#"{"id":2,"b":[1],"a":null}"#,
                r#"{"type":"tournament","tournament":{"id":2,"b":[1],"a":null}}"#,
            ),
        ] {
            let tournament: &RawValue = serde_json::from_str(state).unwrap();
            assert_eq!(ServerMsg::TournamentChanged { tournament }.text(), frame);
        }
    }

    /// The snapshot, inside its message, keeps its own bytes (`state` sorted as before).
    #[test]
    fn a_snapshot_message_holds_the_snapshot_as_it_reads_alone() {
        use tengen_core::game::{LiveGame, Terms};
        use tengen_core::player::Player;
        let terms: Terms = serde_json::from_str(
            r#"{"size":9,"rules":"japanese","komi":"6.5","handicap":0,"take_back":false,"game_type":"ho_sun"}"#,
        )
        .unwrap();
        let g = LiveGame::new(terms).unwrap();
        let players = [
            Player::of_account(1, "ann", "3k".parse().unwrap(), false, false),
            Player::of_account(2, "bob", "2k".parse().unwrap(), false, false),
        ];
        let s = tengen_core::view::snapshot(3, &g, &players, 0);
        let msg = ServerMsg::Snapshot {
            reference: &Value::Null,
            game: 3,
            state: &s,
        }
        .text();
        let alone = serde_json::to_string(&s).unwrap();
        assert_eq!(
            msg,
            format!(r#"{{"game":3,"ref":null,"state":{alone},"type":"snapshot"}}"#)
        );
    }
}
