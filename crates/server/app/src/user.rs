//! An account as the API shows it, and the session tokens' making and digest: below both
//! [`crate::accounts`] (which opens sessions) and [`crate::sessions`] (which reads them), so
//! that neither imports the other back.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use tengen_core::domain::promotion::Standing;
use tengen_core::domain::rank::Rank;
use tengen_core::player::Player;
use tengen_store::accounts::UserRow;

/// An account as the API shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct User {
    /// Database id.
    pub id: i64,
    /// Unique name.
    pub username: String,
    /// Rank, written `18k`, `3d` or `5d [P]`.
    pub rank: Rank,
    /// Promotion points (seed 002); guests keep 50.
    pub points: i64,
    /// Guest accounts have no password and do not move promotion points.
    pub guest: bool,
    /// Bot accounts are played by an engine; their games do not move promotion points.
    pub bot: bool,
    /// Glicko-2 rating (seeded from the rank until the first rated game).
    pub rating: f64,
    /// Its deviation. The rating is shown as a number with it, never as a second rank beside
    /// the seeds' one (issue 29 item 7: "10k" beside "9k?" confused players).
    pub deviation: f64,
    /// Player, moderator or admin (absent in the messages of nodes from before roles).
    #[serde(default)]
    pub role: tengen_core::moderation::Role,
}

impl User {
    /// The account as a game knows its player.
    pub fn player(&self) -> Player {
        Player::of_account(self.id, &self.username, self.rank, self.guest, self.bot)
    }

    /// The rank and promotion points.
    pub fn standing(&self) -> Standing {
        Standing {
            rank: self.rank,
            points: self.points as i32,
        }
    }
}

impl From<UserRow> for User {
    fn from(row: UserRow) -> User {
        let rating = row
            .rating
            .unwrap_or_else(|| tengen_core::domain::glicko::Rating::seeded(row.rank));
        User {
            id: row.id,
            username: row.username,
            rank: row.rank,
            points: row.points,
            guest: row.guest,
            bot: row.bot,
            rating: tengen_store::ratings::round2(rating.rating),
            deviation: tengen_store::ratings::round2(rating.deviation),
            role: row.role,
        }
    }
}

/// What the `sessions` table keeps of a token: its SHA-256 digest, so that a copy of the
/// database opens no session.
pub fn token_digest(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A new session token: 32 random bytes in hex.
pub(crate) fn new_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
