//! Every NATS subject of a cluster, in one place: the names (and the functions that build the
//! ones with an id in them), what travels on each, and who sends and who handles it. Every
//! message carries the [`crate::remote::PROTOCOL_HEADER`] header with its format's version.
//!
//! | subject | message (JSON) | sent by | handled by |
//! | --- | --- | --- | --- |
//! | [`node_subject`] `tengen.node.NODE` | a [`crate::remote::Request`], answered with a [`crate::remote::Reply`] | `remote::Peers::request` (a game owned elsewhere) | `tengen_server::cluster::start`'s request loop (`answer`) |
//! | [`events_subject`] `tengen.game.ID.events` | a game's event frame (`types::Record::wire`), after its commit | `actor::GameActor::publish` | `remote::Peers::relay` (to this node's watchers) |
//! | [`ONLINE`] `tengen.online` | `(node, [(User, connections)])`, every 2 s | `tengen_server::cluster::start` | the same loop: `app::online::Online::heard` |
//! | [`NOTICES`] `tengen.match` | `(user id, notice text, closes)` | `app::notices::Notices::say` | `tengen_server::cluster::start`: `Notices::relay_heard` |
//! | [`LOBBY`] `tengen.lobby` | `(writer's id, lobby line)` | `app::lobby_chat::say` | `tengen_server::cluster::start`: `LobbyChat::heard` |
//!
//! The names are the wire: a node of another version must find the same ones, so they do not
//! change without a protocol version.

/// Where the nodes tell each other who is connected to them.
pub const ONLINE: &str = "tengen.online";

/// Where messages to one player go to every node (quick match's outcomes first, hence the
/// name; now every notice).
pub const NOTICES: &str = "tengen.match";

/// Where the lobby's chat lines go to every node.
pub const LOBBY: &str = "tengen.lobby";

/// The subject a game's events are published on by its owner.
pub fn events_subject(game: i64) -> String {
    format!("tengen.game.{game}.events")
}

/// The subject a node answers forwarded requests on.
pub fn node_subject(node: &str) -> String {
    format!("tengen.node.{node}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names other versions of the server use: they must not move.
    #[test]
    fn the_subjects_are_the_wire_s() {
        assert_eq!(events_subject(7), "tengen.game.7.events");
        assert_eq!(node_subject("a-1"), "tengen.node.a-1");
        assert_eq!(
            [ONLINE, NOTICES, LOBBY],
            ["tengen.online", "tengen.match", "tengen.lobby"]
        );
    }
}
