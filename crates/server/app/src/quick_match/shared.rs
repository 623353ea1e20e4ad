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

use super::{check, MatchRequest, MatchState, Waiting};
use crate::error::ApiError;
use crate::notices::Notices;
use tengen_store::matches::{MatchRow, NewMatch};
use tengen_store::Store;

/// How late an orphaned request's bot fallback may be before any node starts it (its own node
/// starts it on time when alive).
pub const ORPHAN_AFTER_MS: i64 = 3_000;

/// The cluster's queue.
pub struct Shared {
    store: Store,
    notices: Notices,
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
    /// The queue in `store`, with outcomes told through `notices` (a cluster's).
    pub fn new(store: Store, notices: Notices) -> Shared {
        Shared { store, notices }
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
    pub async fn status(&self, user_id: i64) -> Result<MatchState, ApiError> {
        let Some(row) = self.store.match_status(user_id).await? else {
            return Ok(MatchState::Idle);
        };
        if row.state == "waiting" {
            return Ok(MatchState::Waiting {
                request: row.request.and_then(|r| serde_json::from_str(&r).ok()),
                since: row.since_ms,
                ticket: row.ticket.map(|t| t as u64),
            });
        }
        // An outcome this version cannot read is no outcome to tell.
        Ok(row
            .outcome
            .and_then(|o| serde_json::from_str(&o).ok())
            .unwrap_or(MatchState::Idle))
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
    pub async fn tell(&self, user_id: i64, outcome: MatchState) {
        let kept = self
            .store
            .keep_match_outcome(user_id, outcome.name(), &json_text(&outcome))
            .await;
        if let Err(e) = kept {
            tracing::warn!(error = %e, user_id, "could not keep a quick-match outcome");
        }
        let told = super::Told { outcome: &outcome };
        self.notices.say(user_id, &told).await;
    }
}

/// `outcome` as the shared table keeps it.
fn json_text(outcome: &MatchState) -> String {
    // A map of strings and numbers: writing it cannot fail.
    serde_json::to_string(outcome).unwrap_or_default()
}
