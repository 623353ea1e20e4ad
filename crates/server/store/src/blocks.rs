//! Players' blocks: who wants nothing more to do with whom. What a block refuses (games, chat)
//! is decided above; this file only reads and writes.

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// `user_id` blocks `blocked_id` (again is fine).
    pub async fn block(&self, user_id: i64, blocked_id: i64, at: i64) -> Result<(), StoreError> {
        let done = sqlx::query("INSERT INTO blocks (user_id, blocked_id, at) VALUES ($1, $2, $3)")
            .bind(user_id)
            .bind(blocked_id)
            .bind(at)
            .execute(self.pool())
            .await;
        match done {
            Err(e)
                if e.as_database_error()
                    .is_some_and(|d| d.is_unique_violation()) =>
            {
                Ok(())
            }
            r => r.map(|_| ()).map_err(Into::into),
        }
    }

    /// `user_id` lifts their block of `blocked_id`; `false` when there was none.
    pub async fn unblock(&self, user_id: i64, blocked_id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM blocks WHERE user_id = $1 AND blocked_id = $2")
            .bind(user_id)
            .bind(blocked_id)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// The names of the players `user_id` blocks, in the order blocked.
    pub async fn blocked_by(&self, user_id: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT u.username FROM blocks b JOIN users u ON u.id = b.blocked_id \
             WHERE b.user_id = $1 ORDER BY b.at, u.username",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("username"))
            .collect::<Result<_, _>>()?)
    }

    /// The ids of the players `user_id` has a block with, either way (they block them, or are
    /// blocked by them).
    pub async fn blocks_either_way(&self, user_id: i64) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query(
            "SELECT blocked_id AS other FROM blocks WHERE user_id = $1 \
             UNION SELECT user_id AS other FROM blocks WHERE blocked_id = $1",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("other"))
            .collect::<Result<_, _>>()?)
    }

    /// Whether any of `others` has blocked `user_id`.
    pub async fn blocked_by_any(&self, user_id: i64, others: &[i64]) -> Result<bool, StoreError> {
        for &o in others {
            let row = sqlx::query("SELECT 1 FROM blocks WHERE user_id = $1 AND blocked_id = $2")
                .bind(o)
                .bind(user_id)
                .fetch_optional(self.pool())
                .await?;
            if row.is_some() {
                return Ok(true);
            }
        }
        Ok(false)
    }
}
