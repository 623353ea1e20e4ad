//! The store's metrics: the group committer's batches (size and time to commit), its failures,
//! and its waits for a pooled connection; the pool's size is read at scrape time
//! ([`Store::write_metrics`]). Process-wide statics, as every scrape is of the whole process.

use tengen_core::metrics::{Counter, Exposition, Histogram, BATCH_SIZES, SECONDS};

use super::Store;

/// Appends (one game's events each) per committed transaction.
pub(crate) static BATCH_APPENDS: Histogram = Histogram::new(BATCH_SIZES);
/// Time from a batch's write to its commit.
pub(crate) static BATCH_SECONDS: Histogram = Histogram::new(SECONDS);
/// Writes that failed (a batch retried append by append counts once, then each retry).
pub(crate) static WRITE_FAILURES: Counter = Counter::new();
/// Time the committer waited for a connection from the pool.
pub(crate) static POOL_WAIT_SECONDS: Histogram = Histogram::new(SECONDS);

impl Store {
    /// Writes the store's metrics.
    pub fn write_metrics(&self, out: &mut Exposition) {
        out.gauge(
            "tengen_storage_failing",
            "1 while writes fail (since the last failure, no write succeeded), else 0.",
            if self.health().failing().is_some() {
                1.0
            } else {
                0.0
            },
        );
        out.counter(
            "tengen_storage_failed_writes_total",
            "Writes that failed for want of storage (game events, requests, probes).",
            self.health().failures(),
        );
        out.histogram(
            "tengen_commit_batch_appends",
            "Appends (one game's events each) committed in one transaction by the group committer.",
            &BATCH_APPENDS,
        );
        out.histogram(
            "tengen_commit_duration_seconds",
            "Time the group committer took to write and commit one batch.",
            &BATCH_SECONDS,
        );
        out.counter(
            "tengen_commit_failures_total",
            "Batch writes the database refused.",
            WRITE_FAILURES.get(),
        );
        out.histogram(
            "tengen_db_pool_wait_seconds",
            "Time the group committer waited for a pooled database connection.",
            &POOL_WAIT_SECONDS,
        );
        let size = f64::from(self.pool().size());
        let idle = self.pool().num_idle() as f64;
        out.gauge_family(
            "tengen_db_pool_connections",
            "Database connections in the pool, by state.",
            &[
                (&[("state", "idle")], idle),
                (&[("state", "busy")], size - idle),
            ],
        );
    }
}
