//! Players' private messages and friends. Who may write to whom (blocks, mutes, guests) and how
//! often is decided above; this file only reads and writes.

use sqlx::Row;

use super::{Store, StoreError};

/// One private message.
#[derive(Clone, Debug)]
pub struct MessageRow {
    /// Its id.
    pub id: i64,
    /// Who wrote it.
    pub sender: String,
    /// To whom.
    pub recipient: String,
    /// What it says.
    pub text: String,
    /// Seconds since 1970.
    pub at: i64,
    /// When the recipient opened the thread, if they have.
    pub read_at: Option<i64>,
}

/// One conversation of a player's: the other player, the last message and how many of the
/// other's messages are unread.
#[derive(Clone, Debug)]
pub struct Conversation {
    /// The other player.
    pub with: String,
    /// The newest message between the two.
    pub last: MessageRow,
    /// The other's messages not read yet.
    pub unread: i64,
}

const MESSAGE: &str = "SELECT m.id, s.username AS sender, r.username AS recipient, m.text, m.at, \
     m.read_at FROM messages m JOIN users s ON s.id = m.sender_id \
     JOIN users r ON r.id = m.recipient_id";

fn message(r: &sqlx::any::AnyRow) -> Result<MessageRow, sqlx::Error> {
    Ok(MessageRow {
        id: r.try_get("id")?,
        sender: r.try_get("sender")?,
        recipient: r.try_get("recipient")?,
        text: r.try_get("text")?,
        at: r.try_get("at")?,
        read_at: r.try_get("read_at")?,
    })
}

impl Store {
    /// Stores a message from `sender_id` to `recipient_id`; returns it.
    pub async fn send_message(
        &self,
        sender_id: i64,
        recipient_id: i64,
        text: &str,
        at: i64,
    ) -> Result<MessageRow, StoreError> {
        let row = sqlx::query(
            "INSERT INTO messages (sender_id, recipient_id, text, at, read_at) \
             VALUES ($1, $2, $3, $4, NULL) RETURNING id",
        )
        .bind(sender_id)
        .bind(recipient_id)
        .bind(text)
        .bind(at)
        .fetch_all(self.pool())
        .await?
        .into_iter()
        .next()
        .ok_or(sqlx::Error::RowNotFound)?;
        let id: i64 = row.try_get("id")?;
        self.message(id)
            .await?
            .ok_or(StoreError::Db(sqlx::Error::RowNotFound))
    }

    /// The message `id`.
    pub async fn message(&self, id: i64) -> Result<Option<MessageRow>, StoreError> {
        let row = sqlx::query(&format!("{MESSAGE} WHERE m.id = $1"))
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(message).transpose()?)
    }

    /// Messages `sender_id` sent since `since` (seconds since 1970): the rate limit's count.
    pub async fn messages_sent_since(&self, sender_id: i64, since: i64) -> Result<i64, StoreError> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM messages WHERE sender_id = $1 AND at > $2")
                .bind(sender_id)
                .bind(since)
                .fetch_one(self.pool())
                .await?;
        Ok(row.try_get("n")?)
    }

    /// The last `limit` messages between `a` and `b`, oldest first.
    pub async fn thread(&self, a: i64, b: i64, limit: i64) -> Result<Vec<MessageRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "{MESSAGE} WHERE (m.sender_id = $1 AND m.recipient_id = $2) \
             OR (m.sender_id = $2 AND m.recipient_id = $1) ORDER BY m.id DESC LIMIT $3"
        ))
        .bind(a)
        .bind(b)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        let mut v = rows.iter().map(message).collect::<Result<Vec<_>, _>>()?;
        v.reverse();
        Ok(v)
    }

    /// `reader_id` has read every message `sender_id` sent them.
    pub async fn mark_read(
        &self,
        reader_id: i64,
        sender_id: i64,
        at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE messages SET read_at = $1 \
             WHERE recipient_id = $2 AND sender_id = $3 AND read_at IS NULL",
        )
        .bind(at)
        .bind(reader_id)
        .bind(sender_id)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// `user_id`'s conversations, the one with the newest message first (at most `limit`).
    pub async fn conversations(
        &self,
        user_id: i64,
        limit: i64,
    ) -> Result<Vec<Conversation>, StoreError> {
        let rows = sqlx::query(
            "SELECT c.unread, m.id, s.username AS sender, r.username AS recipient, m.text, m.at, \
                    m.read_at, o.username AS other \
             FROM (SELECT CASE WHEN sender_id = $1 THEN recipient_id ELSE sender_id END AS other_id, \
                          MAX(id) AS last_id, \
                          COUNT(CASE WHEN recipient_id = $1 AND read_at IS NULL THEN 1 END) AS unread \
                   FROM messages WHERE sender_id = $1 OR recipient_id = $1 \
                   GROUP BY CASE WHEN sender_id = $1 THEN recipient_id ELSE sender_id END) c \
             JOIN messages m ON m.id = c.last_id \
             JOIN users s ON s.id = m.sender_id JOIN users r ON r.id = m.recipient_id \
             JOIN users o ON o.id = c.other_id \
             ORDER BY m.id DESC LIMIT $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Conversation {
                    with: r.try_get("other")?,
                    last: message(r)?,
                    unread: r.try_get("unread")?,
                })
            })
            .collect()
    }

    /// `user_id` adds `friend_id` to their friends (again is fine).
    pub async fn add_friend(
        &self,
        user_id: i64,
        friend_id: i64,
        at: i64,
    ) -> Result<(), StoreError> {
        let done = sqlx::query("INSERT INTO friends (user_id, friend_id, at) VALUES ($1, $2, $3)")
            .bind(user_id)
            .bind(friend_id)
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

    /// `user_id` drops `friend_id` from their friends; `false` when they were not one.
    pub async fn remove_friend(&self, user_id: i64, friend_id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM friends WHERE user_id = $1 AND friend_id = $2")
            .bind(user_id)
            .bind(friend_id)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// `user_id`'s friends: (id, name), by name.
    pub async fn friends(&self, user_id: i64) -> Result<Vec<(i64, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT u.id, u.username FROM friends f JOIN users u ON u.id = f.friend_id \
             WHERE f.user_id = $1 ORDER BY u.username",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("username")?)))
            .collect()
    }
}
