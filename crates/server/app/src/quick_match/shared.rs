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

use super::{check, MatchRequest, Waiting};
use crate::error::ApiError;
use tengen_store::matches::{MatchRow, NewMatch};
use tengen_store::Store;

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

/// A waiting request from its row; `None` for a row this node cannot read (written by a newer
/// version), which is left alone.
fn waiting_of(row: &MatchRow) -> Option<Waiting> {
    let req: MatchRequest = serde_json::from_str(&row.request).ok()?;
    Some(Waiting {
        ticket: row.ticket as u64,
        user: serde_json::from_str(&row.user_json).ok()?,
        level: row.level as i32,
        ask: check(req).ok()?,
        since_ms: row.since_ms,
        avoid: Vec::new(),
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
        let new = NewMatch {
            row: MatchRow {
                user_id: me.user.id,
                ticket: me.ticket as i64,
                level: i64::from(me.level),
                user_json: serde_json::to_string(&me.user).unwrap_or_default(),
                request: serde_json::to_string(&me.ask.req).unwrap_or_default(),
                since_ms: me.since_ms,
            },
            bot_at_ms,
        };
        let agrees =
            |row: &MatchRow| waiting_of(row).is_some_and(|w| super::agree(&w, me).is_some());
        let partner = self.store.pair_or_queue(&new, agrees).await?;
        Ok(partner.as_ref().and_then(waiting_of))
    }

    /// The player's request now: `waiting`, their last outcome, or `idle`.
    pub async fn status(&self, user_id: i64) -> Result<Value, ApiError> {
        let Some(row) = self.store.match_status(user_id).await? else {
            return Ok(json!({ "state": "idle" }));
        };
        if row.state == "waiting" {
            let request: Value = row
                .request
                .and_then(|r| serde_json::from_str(&r).ok())
                .unwrap_or(Value::Null);
            return Ok(json!({
                "state": "waiting",
                "ticket": row.ticket,
                "since": row.since_ms,
                "request": request,
            }));
        }
        Ok(row
            .outcome
            .and_then(|o| serde_json::from_str(&o).ok())
            .unwrap_or_else(|| json!({ "state": "idle" })))
    }

    /// Withdraws the player's waiting request; false when none waited.
    pub async fn cancel(&self, user_id: i64) -> Result<bool, ApiError> {
        Ok(self.store.cancel_match(user_id).await?)
    }

    /// Withdraws the player's waiting request unless it persists; true when one was withdrawn.
    /// By its ticket: a request made again meanwhile is a new one, and stays.
    pub async fn withdraw_unattended(&self, user_id: i64) -> Result<bool, ApiError> {
        let Some(row) = self.store.match_status(user_id).await? else {
            return Ok(false);
        };
        let request = row
            .request
            .as_deref()
            .and_then(|r| serde_json::from_str::<MatchRequest>(r).ok());
        match (row.state.as_str(), request, row.ticket) {
            ("waiting", Some(req), Some(ticket)) if !req.persists() => {
                Ok(self.store.take_match(ticket).await?)
            }
            _ => Ok(false),
        }
    }

    /// Takes the request with `ticket` out of the queue if it still waits: true for the one
    /// node that gets it.
    pub async fn take(&self, ticket: u64) -> Result<bool, ApiError> {
        Ok(self.store.take_match(ticket as i64).await?)
    }

    /// Waiting requests whose bot fallback was due before `before_ms` (their node did not
    /// start it: it died).
    pub async fn overdue(&self, before_ms: i64) -> Result<Vec<Waiting>, ApiError> {
        let rows = self.store.overdue_matches(before_ms).await?;
        Ok(rows.iter().filter_map(waiting_of).collect())
    }

    /// Keeps `outcome` as the player's last (unless they asked again meanwhile) and tells
    /// their connections on every node.
    pub async fn tell(&self, user_id: i64, outcome: Value) {
        let state = outcome["state"].as_str().unwrap_or("failed").to_string();
        let kept = self
            .store
            .keep_match_outcome(user_id, &state, &outcome.to_string())
            .await;
        if let Err(e) = kept {
            tracing::warn!(error = %e, user_id, "could not keep a quick-match outcome");
        }
        let msg = json!({ "type": "matched", "match": outcome }).to_string();
        self.say(user_id, msg).await;
    }

    /// Tells every connection of `user_id`'s, on every node, the message `msg` (each node
    /// relays [`SUBJECT`] to its connections, this one included).
    pub async fn say(&self, user_id: i64, msg: String) {
        let Ok(bytes) = serde_json::to_vec(&(user_id, msg)) else {
            return;
        };
        let published = self
            .bus
            .publish_with_headers(
                SUBJECT,
                tengen_live::remote::protocol_headers(tengen_live::remote::V1),
                bytes.into(),
            )
            .await;
        if let Err(e) = published {
            tracing::warn!(error = %e, user_id, "could not publish a message to a player");
        }
    }
}
