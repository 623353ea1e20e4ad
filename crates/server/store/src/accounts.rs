//! Accounts and sessions: the `users` and `sessions` tables, read as typed rows. What an account
//! may be (names, ranks, passwords) is decided above; this file only reads and writes.

use sqlx::any::AnyRow;
use sqlx::Row;
use tengen_core::domain::glicko::Rating;
use tengen_core::domain::rank::Rank;
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
    /// Rank, read once here from its text (`18k`, `3d`, `5d [P]`) so that no layer above
    /// parses it again; a row whose text does not read is `Malformed`.
    pub rank: Rank,
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

/// What a session may do: everything a player does, or only what a bot's engine needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionKind {
    /// A player's (or guest's) session.
    Player,
    /// A bot account's session (`tengen bot --server`): its games only.
    Bot,
}

impl SessionKind {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionKind::Player => "player",
            SessionKind::Bot => "bot",
        }
    }
}

/// A session's row (the token itself is never stored, only its digest).
#[derive(Clone, Debug, PartialEq)]
pub struct SessionRow {
    /// The token's SHA-256 digest, in hex.
    pub digest: String,
    /// Its account.
    pub user_id: i64,
    /// What it may do.
    pub kind: SessionKind,
    /// When it was opened, seconds since the epoch.
    pub created_at: i64,
    /// When it was last used (written at most every few minutes).
    pub last_seen: i64,
    /// The User-Agent it was opened with, cut short.
    pub user_agent: Option<String>,
    /// The client address it was opened from.
    pub address: Option<String>,
}

/// A session to open.
#[derive(Clone, Copy, Debug)]
pub struct NewSession<'a> {
    /// The token's digest.
    pub digest: &'a str,
    /// Its account.
    pub user_id: i64,
    /// What it may do.
    pub kind: SessionKind,
    /// Now, seconds since the epoch.
    pub at: i64,
    /// The User-Agent, already cut short.
    pub user_agent: Option<&'a str>,
    /// The client address.
    pub address: Option<&'a str>,
}

const SESSION_COLUMNS: &str = "token, user_id, kind, created_at, last_seen, user_agent, address";

fn session_row(row: &AnyRow) -> Result<SessionRow, sqlx::Error> {
    let kind = match row.try_get::<String, _>("kind")?.as_str() {
        "player" => SessionKind::Player,
        "bot" => SessionKind::Bot,
        other => {
            return Err(sqlx::Error::ColumnDecode {
                index: "kind".into(),
                source: format!("unknown session kind {other:?}").into(),
            })
        }
    };
    Ok(SessionRow {
        digest: row.try_get("token")?,
        user_id: row.try_get("user_id")?,
        kind,
        created_at: row.try_get("created_at")?,
        last_seen: row.try_get("last_seen")?,
        user_agent: row.try_get("user_agent")?,
        address: row.try_get("address")?,
    })
}

async fn insert_session<'e, E>(db: E, new: &NewSession<'_>) -> Result<(), StoreError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    sqlx::query(
        "INSERT INTO sessions (token, user_id, kind, created_at, last_seen, user_agent, address) VALUES ($1, $2, $3, $4, $4, $5, $6)",
    )
    .bind(new.digest)
    .bind(new.user_id)
    .bind(new.kind.as_str())
    .bind(new.at)
    .bind(new.user_agent)
    .bind(new.address)
    .execute(db)
    .await?;
    Ok(())
}

const USER_COLUMNS: &str =
    "id, username, rank, points, guest, bot, rating, deviation, volatility, \
                            role, muted_until, suspended_until, banned_until";

fn user_row(row: &AnyRow) -> Result<UserRow, StoreError> {
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
    let id: i64 = row.try_get("id")?;
    Ok(UserRow {
        id,
        username: row.try_get("username")?,
        rank: super::parsed(row, "users", id, "rank")?,
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
    pub async fn insert_session(&self, new: &NewSession<'_>) -> Result<(), StoreError> {
        insert_session(self.pool(), new).await
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

    /// The session with this token digest.
    pub async fn session(&self, digest: &str) -> Result<Option<SessionRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {SESSION_COLUMNS} FROM sessions WHERE token = $1"
        ))
        .bind(digest)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(session_row).transpose()?)
    }

    /// Marks the session with this token digest used at `now`.
    pub async fn touch_session(&self, digest: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE sessions SET last_seen = $2 WHERE token = $1")
            .bind(digest)
            .bind(now)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Ends every session last used before `idle_before` or opened before `opened_before`;
    /// their token digests, whose sockets the caller closes.
    pub async fn delete_expired_sessions(
        &self,
        idle_before: i64,
        opened_before: i64,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "DELETE FROM sessions WHERE last_seen < $1 OR created_at < $2 RETURNING token",
        )
        .bind(idle_before)
        .bind(opened_before)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("token"))
            .collect::<Result<_, _>>()?)
    }

    /// `user_id`'s open sessions, the most recently used first.
    pub async fn session_rows_of(&self, user_id: i64) -> Result<Vec<SessionRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {SESSION_COLUMNS} FROM sessions WHERE user_id = $1 ORDER BY last_seen DESC, created_at DESC"
        ))
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(session_row).collect::<Result<_, _>>()?)
    }

    /// Ends every session of `user_id`; their token digests.
    pub async fn delete_sessions_of(&self, user_id: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("DELETE FROM sessions WHERE user_id = $1 RETURNING token")
            .bind(user_id)
            .fetch_all(self.pool())
            .await?;
        Ok(tokens(&rows)?)
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
        row.as_ref().map(user_row).transpose()
    }

    /// The accounts with these ids, in one query (ids with no account are left out; a row
    /// that does not read is left out with a warning).
    pub async fn users_by_ids(&self, ids: &[i64]) -> Result<Vec<UserRow>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT {USER_COLUMNS} FROM users WHERE id IN ({})",
            marks.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for &id in ids {
            query = query.bind(id);
        }
        let rows = query.fetch_all(self.pool()).await?;
        super::read_list(&rows, user_row)
    }

    async fn user_where(&self, filter: &str, value: &str) -> Result<Option<UserRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE {filter}"))
            .bind(value)
            .fetch_optional(self.pool())
            .await?;
        row.as_ref().map(user_row).transpose()
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
        Ok(tokens(&rows)?)
    }

    /// Sets `user_id`'s password hash, ends every session of theirs and opens `then` (the
    /// caller's new one) if given, in one transaction. Returns the digests of the sessions
    /// ended.
    pub async fn set_password(
        &self,
        user_id: i64,
        hash: &str,
        then: Option<&NewSession<'_>>,
    ) -> Result<Vec<String>, StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(hash)
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        let rows = sqlx::query("DELETE FROM sessions WHERE user_id = $1 RETURNING token")
            .bind(user_id)
            .fetch_all(&mut *tx)
            .await?;
        if let Some(new) = then {
            insert_session(&mut *tx, new).await?;
        }
        tx.commit().await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("token"))
            .collect::<Result<_, _>>()?)
    }

    /// Deletes `user_id`'s account as far as its games allow: renamed `name`, no password, no
    /// sessions, no open rooms, no learning kept, in one transaction (games, ratings and reports
    /// keep the row).
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
        // Their learning is theirs alone (the puzzles' ratings keep what it taught them).
        for table in ["learners", "puzzle_attempts"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE user_id = $1"))
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        }
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
    pub async fn set_bot_rank(&self, id: i64, rank: Rank) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET rank = $1 WHERE id = $2")
            .bind(rank.to_string())
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

/// The `token` column of session rows (token digests).
fn tokens(rows: &[sqlx::any::AnyRow]) -> Result<Vec<String>, sqlx::Error> {
    rows.iter().map(|r| r.try_get("token")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rank is read once, here: a well-formed row carries a `Rank`, and text no version
    /// wrote is a typed `Malformed` for that row (never a panic, never a guess above).
    #[tokio::test]
    async fn a_users_rank_is_read_once_and_bad_text_is_malformed() {
        let (store, path) = crate::test_store("rank").await;
        store
            .execute(
                "INSERT INTO users (username, password_hash, rank, points, guest, bot, created_at) \
                 VALUES ('a', NULL, '3k', 0, 0, NULL, 0), ('b', NULL, 'strong', 0, 0, NULL, 0)",
            )
            .await
            .unwrap();
        let a = store.user_by_id(1).await.unwrap().unwrap();
        assert_eq!(a.rank, Rank::Kyu(3));
        match store.user_by_id(2).await {
            Err(StoreError::Malformed {
                table: "users",
                id: 2,
                column: "rank",
                ..
            }) => {}
            other => panic!("{other:?}"),
        }
        drop(store);
        let _ = std::fs::remove_file(&path);
    }

    /// Several accounts in one query: those that exist and read, whatever the order asked.
    #[tokio::test]
    async fn accounts_by_ids_come_in_one_query_without_the_missing_or_malformed() {
        let (store, path) = crate::test_store("by-ids").await;
        store
            .execute(
                "INSERT INTO users (username, password_hash, rank, points, guest, bot, created_at) \
                 VALUES ('a', NULL, '3k', 0, 0, NULL, 0), ('b', NULL, 'strong', 0, 0, NULL, 0), \
                 ('c', NULL, '2d', 0, 0, NULL, 0)",
            )
            .await
            .unwrap();
        let mut got: Vec<(i64, String)> = store
            .users_by_ids(&[3, 99, 1, 2])
            .await
            .unwrap()
            .into_iter()
            .map(|u| (u.id, u.username))
            .collect();
        got.sort();
        assert_eq!(got, [(1, "a".to_string()), (3, "c".to_string())]);
        assert!(store.users_by_ids(&[]).await.unwrap().is_empty());
        drop(store);
        let _ = std::fs::remove_file(&path);
    }
}
