//! Glicko-2 ratings in the database: the current rating on each account, one history row per
//! rated game and player, written in the transaction that stores the game's result.
//!
//! A player with no rating yet (`rating` NULL) is seeded from their rank when their first rated
//! game ends ([`Rating::seeded`]).

use serde::Serialize;
use sqlx::{AnyConnection, Row};

use super::{Store, StoreError};
use tengen_core::domain::glicko::{self, Rating};
use tengen_core::domain::rank::Rank;
use tengen_core::rating::{head_start, is_rated};

/// A finished game that moves both players' ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedGame {
    /// Black's account.
    pub black_id: i64,
    /// White's account.
    pub white_id: i64,
    /// Black's score: 1 a win, 0.5 a draw, 0 a loss.
    pub black_score: f64,
    /// Black's head start in rank levels (handicap and komi, [`glicko::HeadStart`]).
    pub head_start: f64,
}

/// One point of a player's rating history.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RatingPoint {
    // In alphabetical order, the order the API has always written them in.
    /// When the game ended, seconds since the epoch.
    pub at: i64,
    /// Its deviation.
    pub deviation: f64,
    /// The game that moved it.
    pub game_id: i64,
    /// The rating after the game.
    pub rating: f64,
}

/// The account's rating as stored, or the one its rank seeds.
async fn current(conn: &mut AnyConnection, user_id: i64) -> Result<Rating, StoreError> {
    let row = sqlx::query("SELECT rank, rating, deviation, volatility FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(&mut *conn)
        .await?;
    let rating: Option<f64> = row.try_get("rating")?;
    let deviation: Option<f64> = row.try_get("deviation")?;
    let volatility: Option<f64> = row.try_get("volatility")?;
    Ok(match (rating, deviation, volatility) {
        (Some(rating), Some(deviation), Some(volatility)) => Rating {
            rating,
            deviation,
            volatility,
        },
        _ => {
            let rank: String = row.try_get("rank")?;
            Rating::seeded(
                rank.parse()
                    .unwrap_or(tengen_core::domain::rank::GUEST_RANK),
            )
        }
    })
}

/// Rates `game` (id `game_id`, ended at `at`): both accounts' ratings and a history row each.
/// Runs inside the caller's transaction.
pub async fn rate(
    conn: &mut AnyConnection,
    game_id: i64,
    game: &RatedGame,
    at: i64,
) -> Result<(), StoreError> {
    let black = current(conn, game.black_id).await?;
    let white = current(conn, game.white_id).await?;
    let after = glicko::rate_game(black, white, game.black_score, game.head_start);
    for (user_id, r) in [(game.black_id, after[0]), (game.white_id, after[1])] {
        sqlx::query("UPDATE users SET rating = $1, deviation = $2, volatility = $3 WHERE id = $4")
            .bind(r.rating)
            .bind(r.deviation)
            .bind(r.volatility)
            .bind(user_id)
            .execute(&mut *conn)
            .await?;
        sqlx::query(
            "INSERT INTO rating_history (user_id, game_id, at, rating, deviation, volatility) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(user_id)
        .bind(game_id)
        .bind(at)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The migration that rates the games finished before ratings existed, in the order they
/// ended, by the same rules as a game ending now ([`is_rated`] and [`head_start`] of the
/// game's terms). Each player is seeded from the rank they hold when the migration runs (the
/// log does not keep the rank a player had when a game began).
pub(super) async fn rate_finished_games(conn: &mut AnyConnection) -> Result<(), StoreError> {
    rate_games(conn, None).await
}

/// Rates the finished games, in the order they ended, that are not annulled and ended after
/// `after` (a game's end time and id), or all of them. Runs inside the caller's transaction.
/// With `after` it needs the moderation steps' `annulled` column; without, it runs before it
/// exists (the migration).
pub(super) async fn rate_games(
    conn: &mut AnyConnection,
    after: Option<(i64, i64)>,
) -> Result<(), StoreError> {
    let filter = if after.is_some() {
        "AND g.annulled = 0 AND (g.finished_at > $1 OR (g.finished_at = $1 AND g.id > $2))"
    } else {
        ""
    };
    let sql = format!(
        "SELECT g.id, g.terms, g.result, g.finished_at, g.black_id, g.white_id, \
                b.guest AS b_guest, b.bot AS b_bot, w.guest AS w_guest, w.bot AS w_bot \
         FROM games g JOIN users b ON b.id = g.black_id JOIN users w ON w.id = g.white_id \
         WHERE g.status = 'finished' {filter} ORDER BY g.finished_at, g.id"
    );
    let mut q = sqlx::query(&sql);
    if let Some((at, id)) = after {
        q = q.bind(at).bind(id);
    }
    let rows = q.fetch_all(&mut *conn).await?;
    for row in rows {
        let terms: String = row.try_get("terms")?;
        let Ok(terms) = serde_json::from_str::<tengen_core::game::Terms>(&terms) else {
            continue;
        };
        let guest = |g: &str, b: &str| -> Result<(bool, bool), sqlx::Error> {
            Ok((
                row.try_get::<i64, _>(g)? != 0,
                row.try_get::<Option<String>, _>(b)?.is_some(),
            ))
        };
        let (b_guest, b_bot) = guest("b_guest", "b_bot")?;
        let (w_guest, w_bot) = guest("w_guest", "w_bot")?;
        if !is_rated(&terms, [b_guest, w_guest], [b_bot, w_bot]) {
            continue;
        }
        let result: Option<String> = row.try_get("result")?;
        let Some(black_score) = result.as_deref().and_then(black_score) else {
            continue;
        };
        let game = RatedGame {
            black_id: row.try_get("black_id")?,
            white_id: row.try_get("white_id")?,
            black_score,
            head_start: head_start(&terms),
        };
        let at: Option<i64> = row.try_get("finished_at")?;
        rate(conn, row.try_get("id")?, &game, at.unwrap_or(0)).await?;
    }
    Ok(())
}

/// Black's score from an SGF result (`B+R`, `W+3.5`, `0` or `Draw`); `None` when the game has
/// no winner to rate (`Void`, `?`).
pub fn black_score(result: &str) -> Option<f64> {
    match result.chars().next()? {
        'B' | 'b' => Some(1.0),
        'W' | 'w' => Some(0.0),
        '0' | 'D' | 'd' => Some(0.5),
        _ => None,
    }
}

impl Store {
    /// The account's rating, or the one its rank would seed (`rank`: the seeds' rank).
    pub async fn rating(&self, user_id: i64) -> Result<Option<Rating>, StoreError> {
        let mut conn = self.pool().acquire().await?;
        let exists = sqlx::query("SELECT id FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(&mut *conn)
            .await?;
        if exists.is_none() {
            return Ok(None);
        }
        Ok(Some(current(&mut conn, user_id).await?))
    }

    /// The account's rating after each of its rated games, oldest first (at most `limit`, the
    /// latest ones).
    pub async fn rating_history(
        &self,
        user_id: i64,
        limit: i64,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, at, rating, deviation, volatility FROM rating_history \
             WHERE user_id = $1 ORDER BY at DESC, game_id DESC LIMIT $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        let mut out = rows
            .iter()
            .map(|r| {
                let rating = Rating {
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    volatility: r.try_get("volatility")?,
                };
                Ok(RatingPoint {
                    game_id: r.try_get("game_id")?,
                    at: r.try_get("at")?,
                    rating: round2(rating.rating),
                    deviation: round2(rating.deviation),
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        out.reverse();
        Ok(out)
    }
}

/// Rounded to two decimals, as the API shows ratings.
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The rating a seeds' rank (`5k`) seeds, for an account not rated yet.
pub fn seeded_from(rank: &str) -> Rating {
    Rating::seeded(
        rank.parse::<Rank>()
            .unwrap_or(tengen_core::domain::rank::GUEST_RANK),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_score_black() {
        assert_eq!(black_score("B+R"), Some(1.0));
        assert_eq!(black_score("W+3.5"), Some(0.0));
        assert_eq!(black_score("0"), Some(0.5));
        assert_eq!(black_score("Draw"), Some(0.5));
        assert_eq!(black_score("Void"), None);
        assert_eq!(black_score("?"), None);
        assert_eq!(black_score(""), None);
    }
}
