//! What the group committer writes: a game's events, its clocks and, at the end, its result.
//! Shared by the committer ([`super::commit`]) and its SQLite writer ([`super::direct`]).

use super::games::PromotionOutcome;
use super::lease::Lease;
use super::ratings::RatedGame;

/// A finished game's result and the promotion outcomes it settles.
#[derive(Clone, Debug)]
pub struct Finish {
    /// The SGF result.
    pub result: String,
    /// Whose promotion points move.
    pub outcomes: Vec<PromotionOutcome>,
    /// When, seconds since the epoch.
    pub at: i64,
    /// Both players' ratings move, when the game is rated.
    pub rated: Option<RatedGame>,
    /// Why the game counts for nobody, when it does not (then `outcomes` is empty and `rated`
    /// is `None`).
    pub annulled: Option<String>,
}

/// Events of one game to store, from `first_seq` on.
#[derive(Clone, Debug)]
pub struct Append {
    /// The game.
    pub game_id: i64,
    /// The sequence number of the first event.
    pub first_seq: i64,
    /// The events as JSON.
    pub events: Vec<String>,
    /// Both clocks after them, as JSON.
    pub clocks: Option<String>,
    /// When they were accepted, ms since the epoch.
    pub at_ms: i64,
    /// The result, when these events end the game.
    pub finish: Option<Finish>,
    /// In a cluster, the writer's lease: the write is refused ([`super::StoreError::Fenced`]) unless
    /// its epoch is still the game's current one.
    pub fence: Option<Lease>,
}
