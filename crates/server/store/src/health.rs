//! Whether the database takes writes, as its users last saw: failing storage is told, not
//! shouted. A disk that fills makes every game, request and timer fail at once, thousands of
//! times a second; each failure is recorded here, and the log gets one line per kind of write
//! per [`LOG_EVERY`] with the number of repeats since the last line, then one line when writes
//! succeed again. `/readyz` reads [`Health::failing`] to answer 503 with the reason.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// The least time between two log lines about failed writes of one kind.
pub const LOG_EVERY: Duration = Duration::from_secs(10);

/// The store's record of failed and successful writes.
#[derive(Debug, Default)]
pub struct Health {
    /// Set by a failure, cleared by a success: the cheap check each successful write makes.
    failing: AtomicBool,
    /// Failed writes since the start.
    failures: AtomicU64,
    /// Log lines written about them.
    lines: AtomicU64,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The last failure's reason.
    reason: String,
    /// Per kind of write: when its last line was logged, and the failures since.
    logged: HashMap<&'static str, (Option<Instant>, u64)>,
    /// Failures since writes last succeeded.
    since_success: u64,
}

impl Health {
    /// A write of `kind` (`game events`, `request`, ...) failed with `error`.
    pub fn failed(&self, kind: &'static str, error: &dyn std::fmt::Display) {
        self.failures.fetch_add(1, Ordering::Relaxed);
        self.failing.store(true, Ordering::Relaxed);
        let now = Instant::now();
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.reason = error.to_string();
        s.since_success += 1;
        let entry = s.logged.entry(kind).or_insert((None, 0));
        if entry.0.is_some_and(|t| now.duration_since(t) < LOG_EVERY) {
            entry.1 += 1;
            return;
        }
        let repeats = std::mem::replace(entry, (Some(now), 0)).1;
        self.lines.fetch_add(1, Ordering::Relaxed);
        tracing::error!(kind, %error, repeats, "storage: writes fail");
    }

    /// A write succeeded: the storage is back, if it was failing.
    pub fn succeeded(&self) {
        if !self.failing.swap(false, Ordering::Relaxed) {
            return;
        }
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let failures = std::mem::take(&mut s.since_success);
        s.logged.clear();
        self.lines.fetch_add(1, Ordering::Relaxed);
        tracing::warn!(failures, "storage: writes succeed again");
    }

    /// The last failure's reason while writes fail (no success since).
    pub fn failing(&self) -> Option<String> {
        if !self.failing.load(Ordering::Relaxed) {
            return None;
        }
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        Some(s.reason.clone())
    }

    /// Failed writes since the start.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// Log lines written about failed writes and recoveries since the start.
    pub fn log_lines(&self) -> u64 {
        self.lines.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_storm_of_failures_logs_a_line_per_kind_per_interval() {
        let h = Health::default();
        assert_eq!(h.failing(), None);
        for _ in 0..10_000 {
            h.failed("game events", &"database or disk is full");
            h.failed("request", &"database or disk is full");
        }
        assert_eq!((h.failures(), h.log_lines()), (20_000, 2));
        assert_eq!(h.failing().as_deref(), Some("database or disk is full"));
        tokio::time::advance(LOG_EVERY).await;
        h.failed("game events", &"disk I/O error");
        assert_eq!(h.log_lines(), 3, "a line again after the interval");
        assert_eq!(h.failing().as_deref(), Some("disk I/O error"));
        h.succeeded();
        h.succeeded();
        assert_eq!(h.failing(), None);
        assert_eq!(h.log_lines(), 4, "one line for the recovery");
        h.failed("game events", &"database or disk is full");
        assert_eq!(h.log_lines(), 5, "a new failure is told at once");
    }
}
