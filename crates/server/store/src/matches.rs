//! Quick match's queue in a cluster: the `match_requests` table every node shares (PostgreSQL
//! only), read as typed rows. Which requests agree is decided above; pairing here is one
//! transaction under a transaction-scoped advisory lock, so no request is ever paired twice.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Store, StoreError};

/// The advisory lock key of matchmaking (the migrations' key is 741954001).
const PAIRING_LOCK: i64 = 741_954_002;

const COLUMNS: &str = "user_id, user_json, ticket, level, request, since_ms";

/// A waiting request's row. The player and the request are JSON written by the node that
/// queued it (a newer version's may not read here: the caller leaves those alone).
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRow {
    /// Whose.
    pub user_id: i64,
    /// The request's ticket.
    pub ticket: i64,
    /// The player's level (rank) when asking.
    pub level: i64,
    /// The player, as JSON.
    pub user_json: String,
    /// The request, as JSON.
    pub request: String,
    /// Since when it waits, ms since the epoch.
    pub since_ms: i64,
}

/// A request to queue.
#[derive(Clone, Debug)]
pub struct NewMatch {
    /// Its row.
    pub row: MatchRow,
    /// When its bot fallback is due, ms since the epoch.
    pub bot_at_ms: Option<i64>,
}

/// A player's row: a waiting request, or the outcome of their last one.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchStatus {
    /// `waiting`, `matched` or `failed`.
    pub state: String,
    /// A waiting request's ticket.
    pub ticket: Option<i64>,
    /// Since when it waits.
    pub since_ms: Option<i64>,
    /// A waiting request, as JSON.
    pub request: Option<String>,
    /// The last outcome, as JSON.
    pub outcome: Option<String>,
}

fn match_row(row: &AnyRow) -> Result<MatchRow, sqlx::Error> {
    Ok(MatchRow {
        user_id: row.try_get("user_id")?,
        ticket: row.try_get("ticket")?,
        level: row.try_get("level")?,
        user_json: row.try_get("user_json")?,
        request: row.try_get("request")?,
        since_ms: row.try_get("since_ms")?,
    })
}

impl Store {
    /// Withdraws `me`'s earlier request (and forgets their last outcome); then, of the waiting
    /// requests, longest waiting first, takes the first that `agrees` out of the queue and
    /// returns it, or queues `me` and returns `None`. One transaction under the pairing lock.
    pub async fn pair_or_queue(
        &self,
        me: &NewMatch,
        agrees: impl Fn(&MatchRow) -> bool,
    ) -> Result<Option<MatchRow>, StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(PAIRING_LOCK)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM match_requests WHERE user_id = $1")
            .bind(me.row.user_id)
            .execute(&mut *tx)
            .await?;
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM match_requests WHERE state = 'waiting' ORDER BY since_ms, ticket"
        ))
        .fetch_all(&mut *tx)
        .await?;
        // A row this version cannot read is left to the nodes that can.
        let partner = rows
            .iter()
            .filter_map(|r| match_row(r).ok())
            .find(|r| agrees(r));
        match &partner {
            Some(p) => {
                sqlx::query("DELETE FROM match_requests WHERE user_id = $1")
                    .bind(p.user_id)
                    .execute(&mut *tx)
                    .await?;
            }
            None => {
                sqlx::query(
                    "INSERT INTO match_requests \
                     (user_id, state, ticket, level, user_json, request, since_ms, bot_at_ms) \
                     VALUES ($1, 'waiting', $2, $3, $4, $5, $6, $7)",
                )
                .bind(me.row.user_id)
                .bind(me.row.ticket)
                .bind(me.row.level)
                .bind(&me.row.user_json)
                .bind(&me.row.request)
                .bind(me.row.since_ms)
                .bind(me.bot_at_ms)
                .execute(&mut *tx)
                .await?;
            }
        }
        tx.commit().await?;
        Ok(partner)
    }

    /// The player's row, if any.
    pub async fn match_status(&self, user_id: i64) -> Result<Option<MatchStatus>, StoreError> {
        let row = sqlx::query(
            "SELECT state, ticket, since_ms, request, outcome FROM match_requests WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(MatchStatus {
            state: row.try_get("state")?,
            ticket: row.try_get("ticket")?,
            since_ms: row.try_get("since_ms")?,
            request: row.try_get("request")?,
            outcome: row.try_get("outcome")?,
        }))
    }

    /// Withdraws the player's waiting request; false when none waited.
    pub async fn cancel_match(&self, user_id: i64) -> Result<bool, StoreError> {
        let done =
            sqlx::query("DELETE FROM match_requests WHERE user_id = $1 AND state = 'waiting'")
                .bind(user_id)
                .execute(self.pool())
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes the request with `ticket` out of the queue if it still waits: true for the one
    /// caller that gets it.
    pub async fn take_match(&self, ticket: i64) -> Result<bool, StoreError> {
        let done =
            sqlx::query("DELETE FROM match_requests WHERE ticket = $1 AND state = 'waiting'")
                .bind(ticket)
                .execute(self.pool())
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Waiting requests whose bot fallback was due before `before_ms`, the most overdue first
    /// (rows this version cannot read are left out).
    pub async fn overdue_matches(&self, before_ms: i64) -> Result<Vec<MatchRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM match_requests \
             WHERE state = 'waiting' AND bot_at_ms IS NOT NULL AND bot_at_ms < $1 \
             ORDER BY bot_at_ms"
        ))
        .bind(before_ms)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().filter_map(|r| match_row(r).ok()).collect())
    }

    /// Keeps `outcome` (JSON, in `state`) as the player's last, unless they asked again
    /// meanwhile.
    pub async fn keep_match_outcome(
        &self,
        user_id: i64,
        state: &str,
        outcome: &str,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO match_requests (user_id, state, outcome) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id) DO UPDATE SET state = $2, outcome = $3 \
             WHERE match_requests.state <> 'waiting'",
        )
        .bind(user_id)
        .bind(state)
        .bind(outcome)
        .execute(self.pool())
        .await?;
        Ok(())
    }
}
