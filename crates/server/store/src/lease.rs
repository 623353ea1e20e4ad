//! Game ownership in a cluster: one lease row per live game, with an epoch that fences writers.
//!
//! A node runs a game's actor only while it holds the game's lease. A lease is a row per game
//! (its node and epoch; `expires_ms` is 0 once given up) that counts while its node's heartbeat,
//! one row per node in `cluster_nodes`, has not lapsed: a node keeps all its games with one
//! write a second, however many it runs (a row per game renewed each second cost PostgreSQL
//! more than the moves did). A lease is taken when it is free, given up, or its node's
//! heartbeat lapsed (the epoch goes up by one each time, even when the same node takes it
//! back), and given up on shutdown (the heartbeat lapses at once; the rows are kept so that the
//! epoch only grows). PostgreSQL is the source of
//! truth: every write of a game's events checks, in its own transaction, that the writer's epoch
//! is still the current one (see [`super::commit`]); the check locks the lease row, so a takeover
//! waits for a write in flight and a write after a takeover fails. A paused or partitioned old
//! owner can therefore never write after a new owner took over, whatever the clocks say.
//!
//! Times are the database's own milliseconds, so the nodes' clocks need not agree.

use sqlx::Row;

use super::{Backend, Store, StoreError};

/// How long a node's leases last unless its heartbeat is renewed, ms (every second).
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
    /// Takes the lease of `game_id` for `node`, if it is free, given up, its node's heartbeat
    /// lapsed, or already `node`'s (then with the same epoch). `None` when another live node
    /// holds it. The lease counts while `node`'s heartbeat does: renew it first
    /// ([`Store::renew`]).
    pub async fn claim(&self, game_id: i64, node: &str) -> Result<Option<Lease>, StoreError> {
        let now = now_sql(self.backend);
        // Insert a first lease, or take over one given up or of a dead node (a new epoch), or
        // keep our own.
        let sql = format!(
            "INSERT INTO game_owners (game_id, node, epoch, expires_ms) VALUES ($1, $2, 1, 1) \
             ON CONFLICT (game_id) DO UPDATE SET \
               epoch = CASE WHEN game_owners.node = excluded.node \
                             AND game_owners.expires_ms <> 0 THEN game_owners.epoch \
                            ELSE game_owners.epoch + 1 END, \
               node = excluded.node, expires_ms = 1 \
             WHERE game_owners.node = excluded.node OR game_owners.expires_ms = 0 \
               OR NOT EXISTS (SELECT 1 FROM cluster_nodes n \
                              WHERE n.node = game_owners.node AND n.expires_ms >= {now}) \
             RETURNING epoch"
        );
        let row = sqlx::query(&sql)
            .bind(game_id)
            .bind(node)
            .fetch_all(self.pool())
            .await?
            .into_iter()
            .next();
        Ok(match row {
            Some(r) => Some(Lease {
                game_id,
                node: node.to_string(),
                epoch: r.try_get(0)?,
            }),
            None => None,
        })
    }

    /// Renews `node`'s heartbeat for `ttl_ms` from now, and with it every lease it holds (a
    /// negative `ttl_ms` lets them all lapse at once).
    pub async fn renew(&self, node: &str, ttl_ms: i64) -> Result<(), StoreError> {
        let now = now_sql(self.backend);
        sqlx::query(&format!(
            "INSERT INTO cluster_nodes (node, expires_ms) VALUES ($1, {now} + $2) \
             ON CONFLICT (node) DO UPDATE SET expires_ms = excluded.expires_ms"
        ))
        .bind(node)
        .bind(ttl_ms)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The games whose lease `node` holds now (its heartbeat alive).
    pub async fn owned(&self, node: &str) -> Result<Vec<i64>, StoreError> {
        let now = now_sql(self.backend);
        let rows = sqlx::query(&format!(
            "SELECT o.game_id FROM game_owners o JOIN cluster_nodes n ON n.node = o.node \
             WHERE o.node = $1 AND o.expires_ms <> 0 AND n.expires_ms >= {now}"
        ))
        .bind(node)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| r.try_get(0).map_err(StoreError::from))
            .collect()
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
            "SELECT o.node, o.epoch FROM game_owners o JOIN cluster_nodes n ON n.node = o.node \
             WHERE o.game_id = $1 AND o.expires_ms <> 0 AND n.expires_ms >= {now}"
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

    /// Live games whose lease is missing, given up, or of a node whose heartbeat lapsed: the
    /// games a node may take over. A game with no lease yet is left to the node starting it for
    /// its first seconds.
    pub async fn orphaned_games(&self) -> Result<Vec<i64>, StoreError> {
        let now = now_sql(self.backend);
        let rows = sqlx::query(&format!(
            "SELECT g.id FROM games g LEFT JOIN game_owners o ON o.game_id = g.id \
             LEFT JOIN cluster_nodes n ON n.node = o.node \
             WHERE g.status = 'live' AND ((o.game_id IS NULL AND g.created_at * 1000 < {now} - $1) \
             OR (o.game_id IS NOT NULL AND (o.expires_ms = 0 OR n.node IS NULL \
                                             OR n.expires_ms < {now}))) ORDER BY g.id"
        ))
        .bind(LEASE_TTL_MS)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| r.try_get(0).map_err(StoreError::from))
            .collect()
    }
}
