//! Quick match's queue in a cluster: a table in PostgreSQL that every node reads and writes, so
//! that two players asking on different nodes are paired as if on one.
//!
//! Pairing is one transaction under a transaction-scoped advisory lock: one pairing at a time in
//! the whole cluster, so no request is ever paired twice, and a request taken by one node is
//! gone for the others. A request's bot fallback is started by the node that queued it, when
//! its wait is over; if that node died meanwhile, any node's upkeep starts it a few seconds
//! later. Either way the request is first deleted, with a condition on its ticket, so exactly
//! one node starts the game. Outcomes (`matched`, `failed`) are kept in the same table, for
//! `GET /api/match` on any node, and published on NATS, for the players' connections on every
//! node.

use serde_json::{json, Value};
use sqlx::any::AnyRow;
use sqlx::Row;

use super::{check, MatchRequest, Waiting};
use crate::error::ApiError;
use crate::store::Store;

/// The advisory lock key of matchmaking (the migrations' key is 741954001).
const PAIRING_LOCK: i64 = 741_954_002;
/// Where outcomes go to every node: `(user id, message)` as JSON.
pub const SUBJECT: &str = "tengen.match";
/// How late an orphaned request's bot fallback may be before any node starts it (its own node
/// starts it on time when alive).
pub const ORPHAN_AFTER_MS: i64 = 3_000;

/// The cluster's queue.
pub struct Shared {
    store: Store,
    bus: async_nats::Client,
}

const COLUMNS: &str = "user_json, ticket, level, request, since_ms";

/// A waiting request from its row; `None` for a row this node cannot read (written by a newer
/// version), which is left alone.
fn waiting_of(row: &AnyRow) -> Option<Waiting> {
    let user: String = row.try_get("user_json").ok()?;
    let request: String = row.try_get("request").ok()?;
    let req: MatchRequest = serde_json::from_str(&request).ok()?;
    Some(Waiting {
        ticket: row.try_get::<i64, _>("ticket").ok()? as u64,
        user: serde_json::from_str(&user).ok()?,
        level: row.try_get::<i64, _>("level").ok()? as i32,
        ask: check(req).ok()?,
        since_ms: row.try_get("since_ms").ok()?,
    })
}

impl Shared {
    /// The queue in `store`, with outcomes published on `bus`.
    pub fn new(store: Store, bus: async_nats::Client) -> Shared {
        Shared { store, bus }
    }

    /// Withdraws `me`'s earlier request (and forgets their last outcome), then takes the
    /// longest-waiting request that agrees with `me` out of the queue and returns it, or
    /// queues `me` (with the time its bot fallback is due) and returns `None`.
    pub async fn enqueue(
        &self,
        me: &Waiting,
        bot_at_ms: Option<i64>,
    ) -> Result<Option<Waiting>, ApiError> {
        let mut tx = self.store.pool().begin().await.map_err(db)?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(PAIRING_LOCK)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        sqlx::query("DELETE FROM match_requests WHERE user_id = $1")
            .bind(me.user.id)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM match_requests WHERE state = 'waiting' ORDER BY since_ms, ticket"
        ))
        .fetch_all(&mut *tx)
        .await
        .map_err(db)?;
        let partner = rows
            .iter()
            .filter_map(waiting_of)
            .find(|w| super::agree(w, me).is_some());
        match &partner {
            Some(p) => {
                sqlx::query("DELETE FROM match_requests WHERE user_id = $1")
                    .bind(p.user.id)
                    .execute(&mut *tx)
                    .await
                    .map_err(db)?;
            }
            None => {
                sqlx::query(
                    "INSERT INTO match_requests \
                     (user_id, state, ticket, level, user_json, request, since_ms, bot_at_ms) \
                     VALUES ($1, 'waiting', $2, $3, $4, $5, $6, $7)",
                )
                .bind(me.user.id)
                .bind(me.ticket as i64)
                .bind(i64::from(me.level))
                .bind(serde_json::to_string(&me.user).unwrap_or_default())
                .bind(serde_json::to_string(&me.ask.req).unwrap_or_default())
                .bind(me.since_ms)
                .bind(bot_at_ms)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
            }
        }
        tx.commit().await.map_err(db)?;
        Ok(partner)
    }

    /// The player's request now: `waiting`, their last outcome, or `idle`.
    pub async fn status(&self, user_id: i64) -> Result<Value, ApiError> {
        let row = sqlx::query(
            "SELECT state, ticket, since_ms, request, outcome FROM match_requests WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(self.store.pool())
        .await
        .map_err(db)?;
        let Some(row) = row else {
            return Ok(json!({ "state": "idle" }));
        };
        let state: String = row.try_get("state").map_err(db)?;
        if state == "waiting" {
            let request: Option<String> = row.try_get("request").map_err(db)?;
            let request: Value = request
                .and_then(|r| serde_json::from_str(&r).ok())
                .unwrap_or(Value::Null);
            return Ok(json!({
                "state": "waiting",
                "ticket": row.try_get::<Option<i64>, _>("ticket").map_err(db)?,
                "since": row.try_get::<Option<i64>, _>("since_ms").map_err(db)?,
                "request": request,
            }));
        }
        let outcome: Option<String> = row.try_get("outcome").map_err(db)?;
        Ok(outcome
            .and_then(|o| serde_json::from_str(&o).ok())
            .unwrap_or_else(|| json!({ "state": "idle" })))
    }

    /// Withdraws the player's waiting request; false when none waited.
    pub async fn cancel(&self, user_id: i64) -> Result<bool, ApiError> {
        let done =
            sqlx::query("DELETE FROM match_requests WHERE user_id = $1 AND state = 'waiting'")
                .bind(user_id)
                .execute(self.store.pool())
                .await
                .map_err(db)?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes the request with `ticket` out of the queue if it still waits: true for the one
    /// node that gets it.
    pub async fn take(&self, ticket: u64) -> Result<bool, ApiError> {
        let done =
            sqlx::query("DELETE FROM match_requests WHERE ticket = $1 AND state = 'waiting'")
                .bind(ticket as i64)
                .execute(self.store.pool())
                .await
                .map_err(db)?;
        Ok(done.rows_affected() == 1)
    }

    /// Waiting requests whose bot fallback was due before `before_ms` (their node did not
    /// start it: it died).
    pub async fn overdue(&self, before_ms: i64) -> Result<Vec<Waiting>, ApiError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM match_requests \
             WHERE state = 'waiting' AND bot_at_ms IS NOT NULL AND bot_at_ms < $1 \
             ORDER BY bot_at_ms"
        ))
        .bind(before_ms)
        .fetch_all(self.store.pool())
        .await
        .map_err(db)?;
        Ok(rows.iter().filter_map(waiting_of).collect())
    }

    /// Keeps `outcome` as the player's last (unless they asked again meanwhile) and tells
    /// their connections on every node.
    pub async fn tell(&self, user_id: i64, outcome: Value) {
        let state = outcome["state"].as_str().unwrap_or("failed").to_string();
        let kept = sqlx::query(
            "INSERT INTO match_requests (user_id, state, outcome) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id) DO UPDATE SET state = $2, outcome = $3 \
             WHERE match_requests.state <> 'waiting'",
        )
        .bind(user_id)
        .bind(state)
        .bind(outcome.to_string())
        .execute(self.store.pool())
        .await;
        if let Err(e) = kept {
            tracing::warn!(error = %e, user_id, "could not keep a quick-match outcome");
        }
        let msg = json!({ "type": "matched", "match": outcome }).to_string();
        let Ok(bytes) = serde_json::to_vec(&(user_id, msg)) else {
            return;
        };
        let published = self
            .bus
            .publish_with_headers(
                SUBJECT,
                crate::game::remote::protocol_headers(crate::game::remote::V1),
                bytes.into(),
            )
            .await;
        if let Err(e) = published {
            tracing::warn!(error = %e, user_id, "could not publish a quick-match outcome");
        }
    }
}

fn db(e: sqlx::Error) -> ApiError {
    ApiError::from(crate::store::StoreError::from(e))
}
