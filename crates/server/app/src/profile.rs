//! What a player page shows beside the account: the rating's history and the player's record
//! by board size and by how games ended.

use std::collections::BTreeMap;

use serde::Serialize;
use tengen_core::domain::rank::Rank;
use tengen_store::ratings::RatingPoint;

use crate::accounts;
use crate::error::ApiError;
use tengen_store::Store;

/// Most history points one request returns.
const MAX_HISTORY: i64 = 1_000;

/// `GET /api/users/{name}/ratings`: the rating now and after each rated game, oldest first.
pub async fn ratings(store: &Store, name: &str, limit: Option<i64>) -> Result<Ratings, ApiError> {
    let u = accounts::named(store, name).await?;
    let limit = limit.unwrap_or(MAX_HISTORY).clamp(1, MAX_HISTORY);
    let history = store.rating_history(u.id, limit).await?;
    Ok(Ratings {
        deviation: u.deviation,
        history,
        points: u.points,
        rank: u.rank,
        rating: u.rating,
        user: u.username,
    })
}

// The answers' fields (and those of the types inside them) are in alphabetical order, as the
// `json!` objects they replace wrote them: the wire stays byte for byte the same.

/// A player's rating now and after each rated game.
#[derive(Debug, Serialize)]
pub struct Ratings {
    /// The rating's deviation now.
    pub deviation: f64,
    /// After each rated game, oldest first.
    pub history: Vec<RatingPoint>,
    /// Promotion points.
    pub points: i64,
    /// The rank now.
    pub rank: Rank,
    /// The rating now.
    pub rating: f64,
    /// The player's name.
    pub user: String,
}

/// A player's record, by board size and by how games ended.
#[derive(Debug, Serialize)]
pub struct PlayerRecord {
    /// The record.
    pub record: Record,
    /// The player's name.
    pub user: String,
}

/// Wins, losses and draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Draws and games without result.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Games won.
    pub wins: u32,
}

/// A player's record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Record {
    /// By how the game ended: `count`, `resignation`, `time`, `forfeit`, `first_capture`,
    /// `draw`.
    pub by_result: BTreeMap<String, Tally>,
    /// By board size (`"9"`, `"19"`).
    pub by_size: BTreeMap<String, Tally>,
    /// All finished games.
    pub total: Tally,
}

/// How an SGF result says the game ended.
fn ending(result: &str) -> &'static str {
    match result.split_once('+').map(|(_, how)| how) {
        Some("R") => "resignation",
        Some("T") => "time",
        Some("F") => "forfeit",
        Some("") => "first_capture",
        Some(_) => "count",
        None => "draw",
    }
}

impl Record {
    /// Adds a finished game on `size` in which the player had `black`, ending with `result`.
    pub fn add(&mut self, size: u8, black: bool, result: &str) {
        let score = tengen_store::ratings::black_score(result);
        let mine = score.map(|s| if black { s } else { 1.0 - s });
        for tally in [
            &mut self.total,
            self.by_size.entry(size.to_string()).or_default(),
            self.by_result.entry(ending(result).into()).or_default(),
        ] {
            match mine {
                Some(s) if s > 0.75 => tally.wins += 1,
                Some(s) if s < 0.25 => tally.losses += 1,
                _ => tally.draws += 1,
            }
        }
    }
}

/// `GET /api/users/{name}/record`.
pub async fn record(store: &Store, name: &str) -> Result<PlayerRecord, ApiError> {
    let u = accounts::named(store, name).await?;
    let mut rec = Record::default();
    for g in store.finished_games_of(u.id).await? {
        // An annulled game counts for nobody.
        if g.annulled.is_some() {
            continue;
        }
        rec.add(
            g.terms.size,
            g.black_id == u.id,
            g.result.as_deref().unwrap_or("Void"),
        );
    }
    Ok(PlayerRecord {
        record: rec,
        user: u.username,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_count_by_size_and_ending() {
        let mut r = Record::default();
        r.add(9, true, "B+R");
        r.add(9, false, "B+3.5");
        r.add(19, false, "W+T");
        r.add(19, true, "0");
        r.add(13, true, "B+");
        let t = |w, l, d| Tally {
            wins: w,
            losses: l,
            draws: d,
        };
        assert_eq!(r.total, t(3, 1, 1));
        assert_eq!(r.by_size["9"], t(1, 1, 0));
        assert_eq!(r.by_size["19"], t(1, 0, 1));
        assert_eq!(r.by_result["resignation"], t(1, 0, 0));
        assert_eq!(r.by_result["count"], t(0, 1, 0));
        assert_eq!(r.by_result["time"], t(1, 0, 0));
        assert_eq!(r.by_result["draw"], t(0, 0, 1));
        assert_eq!(r.by_result["first_capture"], t(1, 0, 0));
    }
}
