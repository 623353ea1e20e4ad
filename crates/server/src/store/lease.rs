//! Game ownership in a cluster: one lease row per live game, with an epoch that fences writers.
//!
//! A node runs a game's actor only while it holds the game's lease. A lease is taken when it is
//! free or expired (the epoch goes up by one each time, even when the same node takes it back),
//! kept alive by its node renewing all its leases at once, and given up on shutdown (expired at
//! once, the row kept so that the epoch only grows). PostgreSQL is the source of
//! truth: every write of a game's events checks, in its own transaction, that the writer's epoch
//! is still the current one (see [`super::commit`]); the check locks the lease row, so a takeover
//! waits for a write in flight and a write after a takeover fails. A paused or partitioned old
//! owner can therefore never write after a new owner took over, whatever the clocks say.
//!
//! Times are the database's own milliseconds, so the nodes' clocks need not agree.

use sqlx::Row;

use super::{Backend, Store, StoreError};

/// How long a lease lasts unless renewed, ms (nodes renew theirs every second).
pub const LEASE_TTL_MS: i64 = 5_000;

/// A held lease: the right to write one game's events while `epoch` is current.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The game.
    pub game_id: i64,
    /// The node holding it.
    pub node: String,
    /// Its epoch: one more each time the game changed hands.
    pub epoch: i64,
}

/// The database's clock, ms since the epoch, as SQL.
fn now_sql(backend: Backend) -> &'static str {
    match backend {
        Backend::Postgres => "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT",
        Backend::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
    }
}

impl Store {
    /// Takes the lease of `game_id` for `node` for `ttl_ms`, if it is free, expired or already
    /// `node`'s (then it is renewed, with the same epoch). `None` when another node holds it.
    pub async fn claim(
        &self,
        game_id: i64,
        node: &str,
        ttl_ms: i64,
    ) -> Result<Option<Lease>, StoreError> {
        let now = now_sql(self.backend);
        // Insert a first lease, or take over an expired one (a new epoch), or renew our own.
        let sql = format!(
            "INSERT INTO game_owners (game_id, node, epoch, expires_ms) VALUES ($1, $2, 1, {now} + $3) \
             ON CONFLICT (game_id) DO UPDATE SET \
               epoch = CASE WHEN game_owners.node = excluded.node \
                             AND game_owners.expires_ms >= {now} THEN game_owners.epoch \
                            ELSE game_owners.epoch + 1 END, \
               node = excluded.node, expires_ms = excluded.expires_ms \
             WHERE game_owners.node = excluded.node OR game_owners.expires_ms < {now} \
             RETURNING epoch"
        );
        let row = sqlx::query(&sql)
            .bind(game_id)
            .bind(node)
            .bind(ttl_ms)
            .fetch_optional(self.pool())
            .await?;
        Ok(match row {
            Some(r) => Some(Lease {
                game_id,
                node: node.to_string(),
                epoch: r.try_get(0)?,
            }),
            None => None,
        })
    }

    /// Extends every lease `node` holds by `ttl_ms` from now; returns how many it holds.
    pub async fn renew(&self, node: &str, ttl_ms: i64) -> Result<u64, StoreError> {
        let now = now_sql(self.backend);
        // Rows locked in game order, as the group commit's fences lock them: two transactions
        // taking the same rows in the same order cannot deadlock.
        // (SQLite has one writer at a time and no row locks.)
        let sql = match self.backend {
            Backend::Postgres => format!(
                "UPDATE game_owners SET expires_ms = {now} + $1 WHERE game_id IN \
                 (SELECT game_id FROM game_owners WHERE node = $2 ORDER BY game_id FOR UPDATE)"
            ),
            Backend::Sqlite => {
                format!("UPDATE game_owners SET expires_ms = {now} + $1 WHERE node = $2")
            }
        };
        let r = sqlx::query(&sql)
            .bind(ttl_ms)
            .bind(node)
            .execute(self.pool())
            .await?;
        Ok(r.rows_affected())
    }

    /// Gives a lease up (a drained node, a finished game): another node may take it at once.
    /// Nothing happens if the lease has moved on. The row stays, expired, so that the epoch
    /// only ever grows: a lease once given up never becomes valid again.
    pub async fn release(&self, lease: &Lease) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE game_owners SET expires_ms = 0 WHERE game_id = $1 AND node = $2 AND epoch = $3",
        )
        .bind(lease.game_id)
        .bind(&lease.node)
        .bind(lease.epoch)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Who holds `game_id`'s lease now, if it is held and not expired.
    pub async fn owner(&self, game_id: i64) -> Result<Option<Lease>, StoreError> {
        let now = now_sql(self.backend);
        let row = sqlx::query(&format!(
            "SELECT node, epoch FROM game_owners WHERE game_id = $1 AND expires_ms >= {now}"
        ))
        .bind(game_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(match row {
            Some(r) => Some(Lease {
                game_id,
                node: r.try_get(0)?,
                epoch: r.try_get(1)?,
            }),
            None => None,
        })
    }

    /// Live games whose lease is missing or expired: the games a node may take over. A game
    /// with no lease yet is left to the node starting it for its first seconds.
    pub async fn orphaned_games(&self) -> Result<Vec<i64>, StoreError> {
        let now = now_sql(self.backend);
        let rows = sqlx::query(&format!(
            "SELECT g.id FROM games g LEFT JOIN game_owners o ON o.game_id = g.id \
             WHERE g.status = 'live' AND ((o.game_id IS NULL AND g.created_at * 1000 < {now} - $1) \
             OR o.expires_ms < {now}) ORDER BY g.id"
        ))
        .bind(LEASE_TTL_MS)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| r.try_get(0).map_err(StoreError::from))
            .collect()
    }
}
