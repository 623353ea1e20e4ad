//! Review boards: the `reviews` table, read as typed rows. Each write raises the row's version,
//! so that a node holding an older copy sees the change (and a save over an older version is
//! refused).

use sqlx::Row;

use super::{Store, StoreError};

/// A review's row.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewRow {
    /// Its id.
    pub id: i64,
    /// Who leads it.
    pub owner_id: i64,
    /// The game it reviews, when made from one.
    pub game_id: Option<i64>,
    /// The tree as SGF.
    pub sgf: String,
    /// The path of the shown node, as JSON.
    pub cursor: String,
    /// The last analysis, as JSON.
    pub analysis: Option<String>,
    /// The chat's last lines, as a JSON array.
    pub chat: String,
    /// Raised by every write.
    pub version: i64,
}

impl Store {
    /// A new review of `sgf` (from game `game_id`, if any), its cursor at the root; its id.
    pub async fn insert_review(
        &self,
        owner_id: i64,
        game_id: Option<i64>,
        sgf: &str,
        created_at: i64,
    ) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "INSERT INTO reviews (owner_id, game_id, sgf, cursor, analysis, created_at) VALUES ($1, $2, $3, '[]', NULL, $4) RETURNING id",
        )
        .bind(owner_id)
        .bind(game_id)
        .bind(sgf)
        .bind(created_at)
        .fetch_all(self.pool())
        .await?
        .into_iter()
        .next()
        .ok_or(sqlx::Error::RowNotFound)?;
        Ok(row.try_get(0)?)
    }

    /// Review `id`.
    pub async fn review(&self, id: i64) -> Result<Option<ReviewRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, owner_id, game_id, sgf, cursor, analysis, chat, version FROM reviews WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(ReviewRow {
            id: row.try_get("id")?,
            owner_id: row.try_get("owner_id")?,
            game_id: row.try_get("game_id")?,
            sgf: row.try_get("sgf")?,
            cursor: row.try_get("cursor")?,
            analysis: row.try_get("analysis")?,
            chat: row.try_get("chat")?,
            version: row.try_get("version")?,
        }))
    }

    /// The stored version of review `id`.
    pub async fn review_version(&self, id: i64) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT version FROM reviews WHERE id = $1")
            .bind(id)
            .fetch_one(self.pool())
            .await?;
        Ok(row.try_get(0)?)
    }

    /// Stores review `id`'s tree and cursor over `version`; false when the stored version is
    /// another (someone wrote meanwhile): then nothing is written.
    pub async fn save_review(
        &self,
        id: i64,
        version: i64,
        sgf: &str,
        cursor: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE reviews SET sgf = $1, cursor = $2, version = version + 1 WHERE id = $3 AND version = $4",
        )
        .bind(sgf)
        .bind(cursor)
        .bind(id)
        .bind(version)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Stores review `id`'s analysis (JSON), whatever its version.
    pub async fn save_review_analysis(&self, id: i64, analysis: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE reviews SET analysis = $1, version = version + 1 WHERE id = $2")
            .bind(analysis)
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Stores review `id`'s chat (its last lines, JSON) over `version`, raising it; false when
    /// the stored version is another: then nothing is written.
    pub async fn save_review_chat(
        &self,
        id: i64,
        version: i64,
        chat: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE reviews SET chat = $1, version = version + 1 WHERE id = $2 AND version = $3",
        )
        .bind(chat)
        .bind(id)
        .bind(version)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
