//! A player as a game knows them.

use serde::{Deserialize, Serialize};

use crate::domain::rank::Rank;

/// A player as a game knows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Account id.
    pub id: i64,
    /// Name.
    pub username: String,
    /// Rank when the game started.
    pub rank: String,
    /// Guests' games do not move promotion points.
    #[serde(skip)]
    pub guest: bool,
    /// Played by an engine: a bot never leaves, and its partner may leave an untimed game and
    /// come back to it. Shown (`"bot": true`) only for a bot: its chat lines are the engine's
    /// manners, which clients put in the player's words and do not offer to report.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

impl Player {
    /// The player of an account: a bot's games, like a guest's, move no promotion points.
    pub fn of_account(id: i64, username: &str, rank: Rank, guest: bool, bot: bool) -> Player {
        Player {
            id,
            username: username.to_string(),
            rank: rank.to_string(),
            guest: guest || bot,
            bot,
        }
    }
}
