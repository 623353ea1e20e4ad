//! The Tengen server's store: every SQL statement of the server, with typed rows, on SQLite by
//! default or PostgreSQL by URL, through one pool. Above it the live games and the use cases
//! read and write through these functions only; below it is the pure core.
//!
//! - [`accounts`]: users and sessions; [`blocks`]: players' blocks; [`games`]: games and their
//!   event logs; [`commit`]: the
//!   group committer that writes every game's events (and, on SQLite, [`direct`]'s own
//!   connection); [`lease`]: cluster ownership of live games; [`ratings`]: Glicko-2 updates;
//!   [`reviews`]: review boards; [`matches`]: the cluster's quick-match queue; [`metrics`]: the
//!   committer's batches and the pool's waits; [`moderation`]: roles, sanctions and their audit
//!   log, annulled games, reports; [`health`]: whether writes succeed (a full disk is counted and
//!   logged a line an interval, `/readyz` reads it).
//!
//! An `INSERT ... RETURNING` outside a transaction is read with `fetch_all`, never `fetch_one`:
//! SQLite commits such a statement when it runs to its end, and `fetch_one` stops at the first
//! row, so a commit that then failed (a full disk) went unseen: the id came back, the row did not
//! exist.
//!
//! Queries are written once in SQL both databases accept (`$1` placeholders, which SQLite reads
//! as numbered parameters); only the schema differs, in [`migrations`]. Each migration runs once,
//! in order, recorded in `schema_version`.

#[macro_use]
mod words;
pub mod accounts;
mod append;
pub mod blocks;
pub mod commit;
mod direct;
pub mod games;
pub mod health;
pub mod learning;
pub mod lease;
pub mod matches;
pub mod metrics;
mod migrations;
pub mod moderation;
pub mod ratings;
pub mod reviews;
pub mod social;
pub mod tournaments;

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};

/// Which database a store talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// SQLite, one file.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// The database.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The group committer of game events ([`commit`]).
    committer: tokio::sync::mpsc::UnboundedSender<commit::Pending>,
    counts: std::sync::Arc<commit::Counts>,
    /// Whether writes succeed ([`health`]).
    health: std::sync::Arc<health::Health>,
}

/// A storage failure. Details go to the log; clients see `internal`.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database said no.
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// The database said no to the committer's own SQLite connection.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A URL that is neither `sqlite:` nor `postgres:`.
    #[error("unsupported database URL {0:?} (use sqlite:PATH or postgres://...)")]
    Url(String),
    /// This node's lease of the game is gone: another node owns the game now.
    #[error("game {0} is owned by another node")]
    Fenced(i64),
    /// The committer is gone (the runtime is shutting down).
    #[error("the store is closed")]
    Closed,
    /// Something this database or this call does not do.
    #[error("{0}")]
    Unsupported(&'static str),
    /// A stored row whose text does not read as its type (terms that are not `Terms`, a
    /// status or rank no version wrote). A read of that one row fails with this; a list skips
    /// the row with a warning instead (`read_list`), so one bad row cannot hide the rest.
    #[error("{table} row {id}: malformed {column}: {why}")]
    Malformed {
        /// The table.
        table: &'static str,
        /// The row's id.
        id: i64,
        /// The column that does not read.
        column: &'static str,
        /// What the parser said.
        why: String,
    },
}

/// Column `column` of `table`'s row `id`, its text read as a `T` ([`std::str::FromStr`]): a
/// status, a rank. Text that does not read is [`StoreError::Malformed`].
pub(crate) fn parsed<T>(
    r: &AnyRow,
    table: &'static str,
    id: i64,
    column: &'static str,
) -> Result<T, StoreError>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    let text: String = r.try_get(column)?;
    text.parse().map_err(|e: T::Err| StoreError::Malformed {
        table,
        id,
        column,
        why: e.to_string(),
    })
}

/// Column `column` of `table`'s row `id`, its JSON text read as a `T` (a game's or a room's
/// terms). Text that does not read is [`StoreError::Malformed`].
pub(crate) fn from_json<T: serde::de::DeserializeOwned>(
    r: &AnyRow,
    table: &'static str,
    id: i64,
    column: &'static str,
) -> Result<T, StoreError> {
    let text: String = r.try_get(column)?;
    serde_json::from_str(&text).map_err(|e| StoreError::Malformed {
        table,
        id,
        column,
        why: e.to_string(),
    })
}

/// A list's rows read one by one: a [`StoreError::Malformed`] row is left out with a
/// `tracing::warn!` (the games list must not fail whole for one row a bug or a hand edit left
/// unreadable), any other error fails the list.
pub(crate) fn read_list<T>(
    rows: &[AnyRow],
    read: impl Fn(&AnyRow) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        match read(row) {
            Ok(item) => out.push(item),
            Err(e @ StoreError::Malformed { .. }) => tracing::warn!("skipped a stored row: {e}"),
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

impl StoreError {
    /// Whether the storage itself fails (a full disk, an I/O error, a database that is read
    /// only, unreachable or shutting down), rather than this one statement: such a write may
    /// succeed later unchanged, and callers answer 503 `storage_unavailable`, not 500.
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Db(e) => db_unavailable(e),
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => matches!(
                e.code,
                rusqlite::ErrorCode::DiskFull
                    | rusqlite::ErrorCode::SystemIoFailure
                    | rusqlite::ErrorCode::CannotOpen
                    | rusqlite::ErrorCode::ReadOnly
            ),
            StoreError::Closed => true,
            _ => false,
        }
    }
}

/// [`StoreError::is_unavailable`] for sqlx's errors: SQLite's primary result codes FULL (13),
/// IOERR (10), CANTOPEN (14) and READONLY (8); PostgreSQL's classes 53 (insufficient
/// resources: disk full), 58 (system error: I/O), 08 (connection), 57P (shutting down) and
/// read-only transactions; and a connection or pool that fails.
fn db_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(db) => {
            let code = db.code().unwrap_or_default();
            if db
                .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
                .is_some()
            {
                ["53", "58", "08", "57P"]
                    .iter()
                    .any(|c| code.starts_with(c))
                    || code == "25006"
            } else {
                code.parse::<i32>()
                    .is_ok_and(|sqlite| matches!(sqlite & 0xff, 8 | 10 | 13 | 14))
            }
        }
        sqlx::Error::Io(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        _ => false,
    }
}

impl Store {
    /// Opens (creating if needed) the database at `url` and brings its schema up to date.
    /// `sqlite:PATH` or `postgres://...`.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(StoreError::Url(url.to_string()));
        };
        let url = match backend {
            // Create the file if missing.
            Backend::Sqlite if !url.contains('?') => format!("{url}?mode=rwc"),
            _ => url.to_string(),
        };
        let pool = AnyPoolOptions::new()
            .max_connections(if backend == Backend::Sqlite { 1 } else { 16 })
            // A broken connection shows as a failed query, which the caller reports; a ping
            // before every use would cost a round trip on each move.
            .test_before_acquire(false)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        use sqlx::Executor;
                        // WAL lets readers go on while a move is written; NORMAL keeps every
                        // commit durable against a crash of the process (not of the machine).
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        let counts = std::sync::Arc::default();
        let direct = match backend {
            Backend::Sqlite => direct::DirectWriter::open(&url),
            Backend::Postgres => None,
        };
        let committer = commit::spawn(
            pool.clone(),
            backend,
            direct,
            std::sync::Arc::clone(&counts),
        );
        let store = Store {
            pool,
            backend,
            committer,
            counts,
            health: std::sync::Arc::default(),
        };
        migrations::run(&store).await?;
        Ok(store)
    }

    /// Connects without migrating, for administration (tests create schemas with it).
    pub async fn open_raw(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            Backend::Postgres
        };
        let pool = AnyPoolOptions::new()
            .max_connections(1)
            .connect(url)
            .await?;
        let counts = std::sync::Arc::default();
        let committer = commit::spawn(pool.clone(), backend, None, std::sync::Arc::clone(&counts));
        Ok(Store {
            pool,
            backend,
            committer,
            counts,
            health: std::sync::Arc::default(),
        })
    }

    /// Runs one statement.
    pub async fn execute(&self, sql: &str) -> Result<(), StoreError> {
        sqlx::query(sql).execute(&self.pool).await?;
        Ok(())
    }

    /// The connection pool.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Whether writes succeed, as the store's users last saw ([`health`]).
    pub fn health(&self) -> &health::Health {
        &self.health
    }

    /// A small write (a row of a few kilobytes, replaced each time), for `/readyz` while writes
    /// fail: it succeeds once the database takes writes again.
    pub async fn probe_write(&self) -> Result<(), StoreError> {
        let pad = "x".repeat(16 * 1024);
        sqlx::query(
            "INSERT INTO health_probe (id, at, pad) VALUES (1, $1, $2) \
             ON CONFLICT (id) DO UPDATE SET at = excluded.at, pad = excluded.pad",
        )
        .bind(games::now())
        .bind(pad)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Writes a consistent copy of the SQLite database to a new file at `out` with `VACUUM
    /// INTO`: one read transaction, so the copy holds exactly the commits made before it began
    /// while the server goes on writing (WAL lets it). Refused on PostgreSQL (`pg_dump` is its
    /// tool, docs/deploy.md) and when `out` exists (SQLite will not overwrite it).
    pub async fn backup_into(&self, out: &std::path::Path) -> Result<(), StoreError> {
        if self.backend != Backend::Sqlite {
            return Err(StoreError::Unsupported(
                "backup is for SQLite; back PostgreSQL up with pg_dump (docs/deploy.md)",
            ));
        }
        let out = out.to_str().ok_or(StoreError::Unsupported(
            "the backup's path must be valid UTF-8",
        ))?;
        sqlx::query("VACUUM INTO $1")
            .bind(out)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A trivial query, for `/healthz`.
    pub async fn ping(&self) -> Result<(), StoreError> {
        let row: AnyRow = sqlx::query("SELECT 1").fetch_one(&self.pool).await?;
        let _: i32 = row
            .try_get(0)
            .or_else(|_| row.try_get::<i64, _>(0).map(|v| v as i32))?;
        Ok(())
    }
}

/// A fresh store in a SQLite file of its own under the temporary folder, for this crate's
/// tests that write rows by hand (`name` tells the files apart), and the file's path, for the
/// test to remove.
#[cfg(test)]
pub(crate) async fn test_store(name: &str) -> (Store, std::path::PathBuf) {
    let path = std::env::temp_dir().join(format!("tengen-store-{name}-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let store = Store::open(&format!("sqlite:{}", path.display()))
        .await
        .expect("a test store");
    (store, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::{Connection, Executor};

    /// A full disk, as SQLite reports it: the database may not grow past its page limit.
    #[tokio::test]
    async fn a_full_database_is_unavailable_storage_and_a_bad_statement_is_not() {
        let mut c = sqlx::SqliteConnection::connect("sqlite::memory:")
            .await
            .unwrap();
        c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
            .await
            .unwrap();
        c.execute("PRAGMA max_page_count = 8").await.unwrap();
        let mut full = None;
        for i in 0..100 {
            let r = sqlx::query("INSERT INTO t (id, v) VALUES ($1, $2)")
                .bind(i)
                .bind("x".repeat(4096))
                .execute(&mut c)
                .await;
            if let Err(e) = r {
                full = Some(StoreError::from(e));
                break;
            }
        }
        let full = full.expect("the page limit is reached");
        assert!(full.is_unavailable(), "{full}");
        let dup = sqlx::query("INSERT INTO t (id, v) VALUES (0, 'again')")
            .execute(&mut c)
            .await
            .unwrap_err();
        assert!(!StoreError::from(dup).is_unavailable());
        let bad = c.execute("SELEC nothing").await.unwrap_err();
        assert!(!StoreError::from(bad).is_unavailable());
        assert!(StoreError::Closed.is_unavailable());
        assert!(!StoreError::Fenced(1).is_unavailable());
    }
}
