//! Learning kept on the account: a learner's lesson progress (as the browser keeps it, JSON
//! the app layer reads) and puzzle rating, each puzzle attempt, and the puzzles' own ratings
//! as learners' attempts move them. What is merged or rated is decided above.

use sqlx::Row;

use super::{Store, StoreError};

/// A Glicko-2 rating as stored: rating, deviation, volatility.
pub type StoredRating = (f64, f64, f64);

/// A learner's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Learner {
    /// The lesson progress, JSON (`{"done": {...}, "wins": {...}}`).
    pub lessons: String,
    /// The puzzle rating, once an attempt was rated.
    pub rating: Option<StoredRating>,
}

/// One attempt at a puzzle, as it is recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt<'a> {
    /// The learner.
    pub user_id: i64,
    /// The puzzle's id.
    pub puzzle_id: &'a str,
    /// When (Unix seconds).
    pub at: i64,
    /// Solved, or failed.
    pub solved: bool,
    /// The learner's rating after it.
    pub learner: StoredRating,
    /// The puzzle's rating after it.
    pub puzzle: StoredRating,
}

/// An attempt as the learner's data export lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptRow {
    /// The puzzle's id.
    pub puzzle_id: String,
    /// When (Unix seconds).
    pub at: i64,
    /// Solved, or failed.
    pub solved: bool,
    /// The learner's rating after it.
    pub rating: f64,
}

fn rating_of(r: &sqlx::any::AnyRow, prefix: &str) -> Result<Option<StoredRating>, StoreError> {
    let get = |c: &str| r.try_get::<Option<f64>, _>(format!("{prefix}{c}").as_str());
    Ok(
        match (get("rating")?, get("deviation")?, get("volatility")?) {
            (Some(a), Some(b), Some(c)) => Some((a, b, c)),
            _ => None,
        },
    )
}

impl Store {
    /// `user_id`'s learning, if they have any on the account.
    pub async fn learner(&self, user_id: i64) -> Result<Option<Learner>, StoreError> {
        let row = sqlx::query(
            "SELECT lessons, puzzle_rating AS rating, puzzle_deviation AS deviation, \
             puzzle_volatility AS volatility FROM learners WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(self.pool())
        .await?;
        row.map(|r| {
            Ok(Learner {
                lessons: r.try_get("lessons")?,
                rating: rating_of(&r, "")?,
            })
        })
        .transpose()
    }

    /// Writes `user_id`'s learning (replacing what was there).
    pub async fn save_learner(
        &self,
        user_id: i64,
        learner: &Learner,
        at: i64,
    ) -> Result<(), StoreError> {
        let (r, d, v) = match learner.rating {
            Some((r, d, v)) => (Some(r), Some(d), Some(v)),
            None => (None, None, None),
        };
        sqlx::query(
            "INSERT INTO learners (user_id, lessons, puzzle_rating, puzzle_deviation, \
             puzzle_volatility, updated_at) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (user_id) DO UPDATE SET lessons = excluded.lessons, \
             puzzle_rating = excluded.puzzle_rating, puzzle_deviation = excluded.puzzle_deviation, \
             puzzle_volatility = excluded.puzzle_volatility, updated_at = excluded.updated_at",
        )
        .bind(user_id)
        .bind(&learner.lessons)
        .bind(r)
        .bind(d)
        .bind(v)
        .bind(at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The puzzle's rating as attempts moved it; `None` before its first rated attempt.
    pub async fn puzzle_rating(&self, puzzle_id: &str) -> Result<Option<StoredRating>, StoreError> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle_id = $1",
        )
        .bind(puzzle_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| rating_of(&r, "")).transpose()?.flatten())
    }

    /// Records an attempt: the attempt's row, the learner's new rating (their lesson progress
    /// kept) and the puzzle's, in one transaction.
    pub async fn record_attempt(&self, a: &Attempt<'_>) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "INSERT INTO puzzle_attempts (user_id, puzzle_id, at, solved, rating) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(a.user_id)
        .bind(a.puzzle_id)
        .bind(a.at)
        .bind(i64::from(a.solved))
        .bind(a.learner.0)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO learners (user_id, lessons, puzzle_rating, puzzle_deviation, \
             puzzle_volatility, updated_at) VALUES ($1, '{}', $2, $3, $4, $5) \
             ON CONFLICT (user_id) DO UPDATE SET puzzle_rating = excluded.puzzle_rating, \
             puzzle_deviation = excluded.puzzle_deviation, \
             puzzle_volatility = excluded.puzzle_volatility, updated_at = excluded.updated_at",
        )
        .bind(a.user_id)
        .bind(a.learner.0)
        .bind(a.learner.1)
        .bind(a.learner.2)
        .bind(a.at)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO puzzle_ratings (puzzle_id, rating, deviation, volatility) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (puzzle_id) DO UPDATE SET \
             rating = excluded.rating, deviation = excluded.deviation, \
             volatility = excluded.volatility",
        )
        .bind(a.puzzle_id)
        .bind(a.puzzle.0)
        .bind(a.puzzle.1)
        .bind(a.puzzle.2)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// `user_id`'s attempts, oldest first, at most `limit`.
    pub async fn attempts_list(
        &self,
        user_id: i64,
        limit: i64,
    ) -> Result<Vec<AttemptRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT puzzle_id, at, solved, rating FROM puzzle_attempts WHERE user_id = $1 \
             ORDER BY at, puzzle_id LIMIT $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(AttemptRow {
                    puzzle_id: r.try_get("puzzle_id")?,
                    at: r.try_get("at")?,
                    solved: r.try_get::<i64, _>("solved")? != 0,
                    rating: r.try_get("rating")?,
                })
            })
            .collect()
    }

    /// How many attempts `user_id` made and solved.
    pub async fn attempts_of(&self, user_id: i64) -> Result<(i64, i64), StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, CAST(COALESCE(SUM(solved), 0) AS BIGINT) AS solved FROM puzzle_attempts \
             WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_one(self.pool())
        .await?;
        Ok((row.try_get("n")?, row.try_get("solved")?))
    }
}
