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
//!   log, annulled games, reports.
//!
//! Queries are written once in SQL both databases accept (`$1` placeholders, which SQLite reads
//! as numbered parameters); only the schema differs, in [`migrations`]. Each migration runs once,
//! in order, recorded in `schema_version`.

pub mod accounts;
mod append;
pub mod blocks;
pub mod commit;
mod direct;
pub mod games;
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
