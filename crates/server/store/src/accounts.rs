//! Accounts and sessions: the `users` and `sessions` tables, read as typed rows. What an account
//! may be (names, ranks, passwords) is decided above; this file only reads and writes.

use sqlx::any::AnyRow;
use sqlx::Row;
use tengen_core::domain::glicko::Rating;
use tengen_core::moderation::{Role, Sanctions, UnknownRole};
use tengen_core::names::name_key;

use super::{Store, StoreError};

/// An account's row.
#[derive(Clone, Debug, PartialEq)]
pub struct UserRow {
    /// Database id.
    pub id: i64,
    /// Unique name.
    pub username: String,
    /// Rank as written (`18k`, `3d`, `5d [P]`).
    pub rank: String,
    /// Promotion points.
    pub points: i64,
    /// A guest account.
    pub guest: bool,
    /// A bot account (its kind is stored; the row says only whether there is one).
    pub bot: bool,
    /// Its Glicko-2 rating, once it has one stored.
    pub rating: Option<Rating>,
    /// What it may do beyond playing.
    pub role: Role,
    /// Its sanctions as stored (some may have lapsed).
    pub sanctions: Sanctions,
}

/// A new account.
#[derive(Clone, Copy, Debug)]
pub struct NewUser<'a> {
    /// Its name.
    pub username: &'a str,
    /// The password's argon2 hash; `None` for guests and bots.
    pub password_hash: Option<&'a str>,
    /// Rank as written.
    pub rank: &'a str,
    /// Starting promotion points.
    pub points: i64,
    /// A guest account.
    pub guest: bool,
    /// A bot account's kind (`builtin`, `gtp`).
    pub bot: Option<&'a str>,
    /// When, seconds since the epoch.
    pub created_at: i64,
}

const USER_COLUMNS: &str =
    "id, username, rank, points, guest, bot, rating, deviation, volatility, \
                            role, muted_until, suspended_until, banned_until";

fn user_row(row: &AnyRow) -> Result<UserRow, sqlx::Error> {
    let rating = match (
        row.try_get::<Option<f64>, _>("rating")?,
        row.try_get::<Option<f64>, _>("deviation")?,
        row.try_get::<Option<f64>, _>("volatility")?,
    ) {
        (Some(rating), Some(deviation), Some(volatility)) => Some(Rating {
            rating,
            deviation,
            volatility,
        }),
        _ => None,
    };
    Ok(UserRow {
        id: row.try_get("id")?,
        username: row.try_get("username")?,
        rank: row.try_get("rank")?,
        points: row.try_get("points")?,
        guest: row.try_get::<i64, _>("guest")? != 0,
        bot: row.try_get::<Option<String>, _>("bot")?.is_some(),
        rating,
        role: row
            .try_get::<String, _>("role")?
            .parse()
            .map_err(|e: UnknownRole| sqlx::Error::ColumnDecode {
                index: "role".into(),
                source: Box::new(e),
            })?,
        sanctions: Sanctions {
            muted_until: row.try_get("muted_until")?,
            suspended_until: row.try_get("suspended_until")?,
            banned_until: row.try_get("banned_until")?,
        },
    })
}

impl Store {
    /// Whether some account has this name, in any case.
    pub async fn username_taken(&self, username: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT id FROM users WHERE lower(username) = lower($1)")
            .bind(username)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.is_some())
    }

    /// Whether some account's name looks like `username` (the same [`name_key`]).
    pub async fn name_key_taken(&self, username: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT id FROM users WHERE name_key = $1")
            .bind(name_key(username))
            .fetch_optional(self.pool())
            .await?;
        Ok(row.is_some())
    }

    /// Inserts an account; `false` when the name is taken (the unique indexes decide between
    /// two registrations racing for one name, in any case).
    pub async fn insert_user(&self, new: NewUser<'_>) -> Result<bool, StoreError> {
        let inserted = sqlx::query(
            "INSERT INTO users (username, password_hash, rank, points, guest, bot, created_at, name_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(new.username)
        .bind(new.password_hash)
        .bind(new.rank)
        .bind(new.points)
        .bind(i64::from(new.guest))
        .bind(new.bot)
        .bind(new.created_at)
        .bind(name_key(new.username))
        .execute(self.pool())
        .await;
        match inserted {
            Ok(_) => Ok(true),
            Err(e)
                if e.as_database_error()
                    .is_some_and(|d| d.is_unique_violation()) =>
            {
                Ok(false)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The id and password hash of the player (not guest, not a bot but a remote one) called
    /// `username`.
    pub async fn password_of(
        &self,
        username: &str,
    ) -> Result<Option<(i64, Option<String>)>, StoreError> {
        // A remote bot signs in for its engine's process (`tengen bot --server`); the other
        // bots are played by the server itself and never sign in.
        let row = sqlx::query(
            "SELECT id, password_hash FROM users WHERE username = $1 AND guest = 0 AND (bot IS NULL OR bot = 'remote')",
        )
        .bind(username)
        .fetch_optional(self.pool())
        .await?;
        Ok(match row {
            Some(r) => Some((r.try_get("id")?, r.try_get("password_hash")?)),
            None => None,
        })
    }

    /// Opens a session under its token's digest.
    pub async fn insert_session(
        &self,
        digest: &str,
        user_id: i64,
        created_at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO sessions (token, user_id, created_at) VALUES ($1, $2, $3)")
            .bind(digest)
            .bind(user_id)
            .bind(created_at)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Ends the session with this token digest.
    pub async fn delete_session(&self, digest: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token = $1")
            .bind(digest)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Whether the session with this token digest is open.
    pub async fn session_exists(&self, digest: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 FROM sessions WHERE token = $1")
            .bind(digest)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.is_some())
    }

    /// The account of the session with this token digest.
    pub async fn user_by_session(&self, digest: &str) -> Result<Option<UserRow>, StoreError> {
        self.user_where(
            "id = (SELECT user_id FROM sessions WHERE token = $1)",
            digest,
        )
        .await
    }

    /// The account called `name`.
    pub async fn user_by_name(&self, name: &str) -> Result<Option<UserRow>, StoreError> {
        self.user_where("username = $1", name).await
    }

    /// The account with this id.
    pub async fn user_by_id(&self, id: i64) -> Result<Option<UserRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(user_row).transpose()?)
    }

    async fn user_where(&self, filter: &str, value: &str) -> Result<Option<UserRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE {filter}"))
            .bind(value)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(user_row).transpose()?)
    }

    /// Sets the rank and points of the account called `name`; `false` when there is none.
    pub async fn set_rank(&self, name: &str, rank: &str, points: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE users SET rank = $1, points = $2 WHERE username = $3")
            .bind(rank)
            .bind(points)
            .bind(name)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// The token digests of `user_id`'s open sessions.
    pub async fn sessions_of(&self, user_id: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT token FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .fetch_all(self.pool())
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("token"))
            .collect::<Result<_, _>>()?)
    }

    /// Sets `user_id`'s password hash and ends every session of theirs but `keep` (a digest),
    /// in one transaction.
    pub async fn set_password(
        &self,
        user_id: i64,
        hash: &str,
        keep: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(hash)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token <> $2")
            .bind(user_id)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Deletes `user_id`'s account as far as its games allow: renamed `name`, no password, no
    /// sessions, no open rooms, in one transaction (games, ratings and reports keep the row).
    /// `false` when the name is taken.
    pub async fn anonymise_user(&self, user_id: i64, name: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let renamed = sqlx::query(
            "UPDATE users SET username = $1, name_key = $2, password_hash = NULL WHERE id = $3",
        )
        .bind(name)
        .bind(name_key(name))
        .bind(user_id)
        .execute(&mut *tx)
        .await;
        match renamed {
            Err(e)
                if e.as_database_error()
                    .is_some_and(|d| d.is_unique_violation()) =>
            {
                return Ok(false)
            }
            r => r?,
        };
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE rooms SET status = 'cancelled' WHERE owner_id = $1 AND status = 'open'",
        )
        .bind(user_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Sets a bot's rank (its points stay).
    pub async fn set_bot_rank(&self, id: i64, rank: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET rank = $1 WHERE id = $2")
            .bind(rank)
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}

/// The migration to [`name_key`]s: the column, each account's key (the first account of a
/// lookalike pair registered before this keeps it; a later one keeps none, and is logged), and
/// the unique index.
pub(super) async fn add_name_keys(conn: &mut sqlx::AnyConnection) -> Result<(), StoreError> {
    sqlx::query("ALTER TABLE users ADD COLUMN name_key TEXT")
        .execute(&mut *conn)
        .await?;
    let rows = sqlx::query("SELECT id, username FROM users ORDER BY id")
        .fetch_all(&mut *conn)
        .await?;
    let mut seen = std::collections::HashSet::new();
    for row in rows {
        let (id, name): (i64, String) = (row.try_get("id")?, row.try_get("username")?);
        let key = name_key(&name);
        if !seen.insert(key.clone()) {
            tracing::warn!(user = %name, "a name that looks like an older account's keeps no key");
            continue;
        }
        sqlx::query("UPDATE users SET name_key = $1 WHERE id = $2")
            .bind(key)
            .bind(id)
            .execute(&mut *conn)
            .await?;
    }
    sqlx::query("CREATE UNIQUE INDEX users_name_key ON users (name_key)")
        .execute(&mut *conn)
        .await?;
    Ok(())
}
