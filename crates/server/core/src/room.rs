//! A room's terms as its owner asked for them (seed 002's rooms): kept with the room's row, so
//! that the store reads them back typed, and checked by the app's rooms before a room opens.

use serde::{Deserialize, Serialize};

use crate::domain::clock::TimeControl;
use crate::game::DisputeRule;

/// What the owner asks for when opening a room.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoomTerms {
    /// 9, 13 or 19 (5 to 19 for First Capture; 9 for WGA).
    pub size: u8,
    /// A rule preset name.
    pub rules: String,
    /// Komi; the game type's default when absent.
    #[serde(default)]
    pub komi: Option<String>,
    /// Whether take-backs may be requested (default: no).
    #[serde(default)]
    pub take_back: bool,
    /// Whether the players may ask for a score estimate during the game (default: no;
    /// spectators always may).
    #[serde(default)]
    pub estimate: bool,
    /// Handicap stones for a HANDICAP game; from the rank difference when absent.
    #[serde(default)]
    pub handicap: Option<u8>,
    /// The owner's secret choice for HO-SUN, `odd` or `even`; the server picks when absent.
    #[serde(default)]
    pub parity: Option<String>,
    /// The clock; seed 002's default (30 minutes, no extra timers) when absent.
    #[serde(default)]
    pub time: Option<TimeControl>,
    /// How a group disputed at the count is settled: `play` (default) or `engine`.
    #[serde(default)]
    pub disputes: DisputeRule,
}
