//! Group commit: the moves of many games stored in one transaction.
//!
//! Every accepted move must be in the database before anyone hears of it, and a transaction per
//! move costs most of the server's CPU per move (on SQLite each statement is a round trip to the
//! connection's own thread; on PostgreSQL each commit is a flush of the write-ahead log). One task,
//! the committer, takes the appends waiting for it, writes them all in one transaction and only
//! then answers each: nothing is acknowledged before its commit, and under load the batches grow
//! by themselves (the appends that arrive during one commit make the next). At low load a batch
//! is one append and costs what it did before.
//!
//! A batch that fails (a constraint, a lost connection) is retried one append a transaction, so
//! that one game's bad write never refuses another game's move.
//!
//! On SQLite, moves go through the committer's own connection ([`super::direct`]), written on
//! the committer's thread; a batch with a game's end (its result, points and ratings) or one
//! that finds the file busy goes through the pool.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use sqlx::{Any, Row, Transaction};
use tokio::sync::{mpsc, oneshot};

pub use super::append::{Append, Finish};
use super::direct::{DirectWriter, Refused};
use super::lease::Lease;
use super::metrics;
use super::{Backend, Store, StoreError};
use tengen_core::domain::promotion::Standing;
use tengen_core::domain::rank::Rank;

/// An append waiting for its commit.
pub(super) struct Pending {
    append: Append,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// Appends per transaction at most (SQLite allows 32,766 parameters a statement, five a row).
const MAX_BATCH: usize = 256;
/// Event rows per `INSERT` statement at most.
const ROWS_PER_INSERT: usize = 500;

/// What the committer has done: transactions committed and appends in them (for tests and
/// load figures: appends over transactions is the mean batch).
#[derive(Debug, Default)]
pub struct Counts {
    transactions: AtomicU64,
    appends: AtomicU64,
    direct: AtomicU64,
}

impl Counts {
    /// Transactions committed.
    pub fn transactions(&self) -> u64 {
        self.transactions.load(Ordering::Relaxed)
    }

    /// Appends committed.
    pub fn appends(&self) -> u64 {
        self.appends.load(Ordering::Relaxed)
    }

    /// Transactions written through the committer's own SQLite connection ([`super::direct`]).
    pub fn direct(&self) -> u64 {
        self.direct.load(Ordering::Relaxed)
    }
}

/// Starts the committer of `store`'s pool; it ends when every sender is gone.
pub(super) fn spawn(
    pool: sqlx::AnyPool,
    backend: Backend,
    mut direct: Option<DirectWriter>,
    counts: Arc<Counts>,
) -> mpsc::UnboundedSender<Pending> {
    let (tx, mut rx) = mpsc::unbounded_channel::<Pending>();
    tokio::spawn(async move {
        let mut batch = Vec::new();
        let mut rate = Rate::default();
        while let Some(first) = rx.recv().await {
            let now = tokio::time::Instant::now();
            rate.arrived(now, 1);
            batch.push(first);
            // The games whose moves came in with this one (in the same wake of the runtime)
            // queue theirs first: one commit for all of them, at no cost in latency.
            tokio::task::yield_now().await;
            take_queued(&mut rx, &mut batch);
            rate.arrived(now, batch.len() - 1);
            // When moves come often enough that another is due within the window, the batch
            // waits for it (as PostgreSQL's commit_delay with commit_siblings): a commit per
            // two or three moves instead of one, for a millisecond or two of latency, and only
            // under load.
            if rate.expected_within(WINDOW) >= 1.0 {
                let deadline = now + WINDOW;
                while batch.len() < MAX_BATCH {
                    tokio::select! {
                        p = rx.recv() => match p {
                            Some(p) => {
                                rate.arrived(tokio::time::Instant::now(), 1);
                                batch.push(p);
                                take_queued(&mut rx, &mut batch);
                            }
                            None => break,
                        },
                        _ = tokio::time::sleep_until(deadline) => break,
                    }
                }
            }
            let mut w = Writer {
                pool: &pool,
                backend,
                direct: direct.as_mut(),
                counts: &counts,
            };
            w.commit(std::mem::take(&mut batch)).await;
        }
    });
    tx
}

/// How long a batch may wait for more moves once it has one, when more are expected.
const WINDOW: std::time::Duration = std::time::Duration::from_micros(1500);

/// Moves the queue holds now, into `batch` (up to [`MAX_BATCH`]).
fn take_queued(rx: &mut mpsc::UnboundedReceiver<Pending>, batch: &mut Vec<Pending>) {
    while batch.len() < MAX_BATCH {
        match rx.try_recv() {
            Ok(p) => batch.push(p),
            Err(_) => break,
        }
    }
}

/// The rate of appends: those of the last full tenth of a second (none after a silence of two).
#[derive(Debug)]
struct Rate {
    since: tokio::time::Instant,
    this: usize,
    last: usize,
}

/// The span over which arrivals are counted.
const RATE_SPAN: std::time::Duration = std::time::Duration::from_millis(100);

impl Default for Rate {
    fn default() -> Rate {
        Rate {
            since: tokio::time::Instant::now(),
            this: 0,
            last: 0,
        }
    }
}

impl Rate {
    fn arrived(&mut self, now: tokio::time::Instant, n: usize) {
        let gone = now.saturating_duration_since(self.since);
        if gone >= RATE_SPAN {
            // A whole span with nothing counts as nothing.
            self.last = if gone >= 2 * RATE_SPAN { 0 } else { self.this };
            self.this = 0;
            self.since = now;
        }
        self.this += n;
    }

    /// Appends expected within `window`, at the rate of the last full span.
    fn expected_within(&self, window: std::time::Duration) -> f64 {
        self.last as f64 * window.as_secs_f64() / RATE_SPAN.as_secs_f64()
    }
}

impl Store {
    /// Stores one game's events from `first_seq` on; with a finish, also records the result
    /// and moves the players' promotion points (read and written inside the transaction, so two
    /// games ending at once cannot lose an update). All of it is stored, or none; returns once
    /// it is committed (with other games' appends, by the committer).
    pub async fn append(&self, append: Append) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        self.committer
            .send(Pending { append, done })
            .map_err(|_| StoreError::Closed)?;
        answer.await.map_err(|_| StoreError::Closed)?
    }

    /// What the committer has done so far.
    pub fn commit_counts(&self) -> &Counts {
        &self.counts
    }
}

/// Where the committer writes.
struct Writer<'a> {
    pool: &'a sqlx::AnyPool,
    backend: Backend,
    direct: Option<&'a mut DirectWriter>,
    counts: &'a Counts,
}

impl Writer<'_> {
    async fn commit(&mut self, batch: Vec<Pending>) {
        let appends: Vec<&Append> = batch.iter().map(|p| &p.append).collect();
        let started = std::time::Instant::now();
        match self.write(&appends).await {
            Ok(()) => {
                metrics::BATCH_SECONDS.observe_duration(started.elapsed());
                metrics::BATCH_APPENDS.observe(batch.len() as f64);
                self.counts.transactions.fetch_add(1, Ordering::Relaxed);
                self.counts
                    .appends
                    .fetch_add(batch.len() as u64, Ordering::Relaxed);
                for p in batch {
                    let _ = p.done.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                metrics::WRITE_FAILURES.inc();
                let _ = batch.into_iter().next().map(|p| p.done.send(Err(e)));
            }
            Err(_) => {
                metrics::WRITE_FAILURES.inc();
                // Find the append that failed: each alone.
                for p in batch {
                    let r = self.write(&[&p.append]).await;
                    if r.is_ok() {
                        metrics::BATCH_APPENDS.observe(1.0);
                        self.counts.transactions.fetch_add(1, Ordering::Relaxed);
                        self.counts.appends.fetch_add(1, Ordering::Relaxed);
                    }
                    let _ = p.done.send(r);
                }
            }
        }
    }

    async fn write(&mut self, appends: &[&Append]) -> Result<(), StoreError> {
        let rows: Vec<(&Append, usize)> = appends
            .iter()
            .flat_map(|a| (0..a.events.len()).map(move |i| (*a, i)))
            .collect();
        if self.backend == Backend::Sqlite
            && rows.len() <= ROWS_PER_INSERT
            && appends
                .iter()
                .all(|a| a.finish.is_none() && a.fence.is_none())
        {
            if let Some(direct) = self.direct.as_deref_mut() {
                match direct.write(&rows) {
                    Ok(()) => {
                        self.counts.direct.fetch_add(1, Ordering::Relaxed);
                        return Ok(());
                    }
                    Err(Refused::Failed(e)) => return Err(e.into()),
                    // Another writer holds the file: sqlx's connection waits its turn.
                    Err(Refused::Busy) => {}
                }
            }
            return write_sqlite(self.pool, &rows).await;
        }
        write_transaction(self.pool, self.backend, appends, &rows).await
    }
}

/// `INSERT` of `rows` event rows, parameters numbered from 1.
fn insert_sql(rows: usize) -> String {
    let mut sql =
        String::from("INSERT INTO game_events (game_id, seq, event, at_ms, clocks) VALUES ");
    for i in 0..rows {
        let b = i * 5;
        if i > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!(
            "(${}, ${}, ${}, ${}, ${})",
            b + 1,
            b + 2,
            b + 3,
            b + 4,
            b + 5
        ));
    }
    sql
}

/// Binds the event rows of `chunk` to `sql`.
fn bind_rows<'q>(
    sql: &'q str,
    chunk: &'q [(&'q Append, usize)],
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    let mut q = sqlx::query(sql);
    for (a, i) in chunk {
        q = q
            .bind(a.game_id)
            .bind(a.first_seq + *i as i64)
            .bind(a.events[*i].as_str())
            .bind(a.at_ms)
            .bind(a.clocks.as_deref());
    }
    q
}

/// PostgreSQL: locks the lease rows of `n` (game, node, epoch) triples, parameters numbered
/// from 1, in game order, and returns the (game, epoch) of those still held as given.
fn fence_sql(n: usize) -> String {
    let triples: Vec<String> = (0..n)
        .map(|i| format!("(${}, ${}, ${})", 3 * i + 1, 3 * i + 2, 3 * i + 3))
        .collect();
    format!(
        "SELECT o.game_id, o.epoch FROM game_owners o JOIN (VALUES {}) AS f(game_id, node, epoch) \
         ON o.game_id = f.game_id AND o.node = f.node AND o.epoch = f.epoch \
         ORDER BY o.game_id FOR UPDATE OF o",
        triples.join(", ")
    )
}

/// Events with finishes or leases: one transaction through the pool.
async fn write_transaction(
    pool: &sqlx::AnyPool,
    backend: Backend,
    appends: &[&Append],
    rows: &[(&Append, usize)],
) -> Result<(), StoreError> {
    let waited = std::time::Instant::now();
    let mut tx = pool.begin().await?;
    metrics::POOL_WAIT_SECONDS.observe_duration(waited.elapsed());
    // Lease rows locked in game order, so that no two batches (two nodes' committers)
    // wait for each other.
    let mut fenced: Vec<(i64, &Lease)> = appends
        .iter()
        .filter_map(|a| a.fence.as_ref().map(|l| (a.game_id, l)))
        .collect();
    fenced.sort_by_key(|(game, _)| *game);
    if let Some((game, _)) = fenced.iter().find(|(game, l)| l.game_id != *game) {
        return Err(StoreError::Fenced(*game));
    }
    // Locks the lease rows until the commit: a takeover (which raises the epoch) waits for
    // this write, and a write after a takeover finds the epoch gone. (A row lock, not an
    // update: no new row version a move. SQLite has one writer at a time.)
    let held: Vec<(i64, i64)> = match backend {
        // All of the batch's leases in one statement (one round trip, not one a game).
        Backend::Postgres if !fenced.is_empty() => {
            let sql = fence_sql(fenced.len());
            let mut q = sqlx::query(&sql);
            for (_, l) in &fenced {
                q = q.bind(l.game_id).bind(l.node.as_str()).bind(l.epoch);
            }
            let rows = q.fetch_all(&mut *tx).await?;
            rows.iter()
                .map(|r| Ok((r.try_get::<i64, _>(0)?, r.try_get::<i64, _>(1)?)))
                .collect::<Result<_, sqlx::Error>>()?
        }
        _ => {
            let mut held = Vec::new();
            for (game, l) in &fenced {
                let found = sqlx::query(
                    "SELECT 1 FROM game_owners WHERE game_id = $1 AND node = $2 AND epoch = $3",
                )
                .bind(l.game_id)
                .bind(l.node.as_str())
                .bind(l.epoch)
                .fetch_optional(&mut *tx)
                .await?;
                if found.is_some() {
                    held.push((*game, l.epoch));
                }
            }
            held
        }
    };
    if let Some((game, _)) = fenced
        .iter()
        .find(|(game, l)| !held.contains(&(*game, l.epoch)))
    {
        return Err(StoreError::Fenced(*game));
    }
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let sql = insert_sql(chunk.len());
        bind_rows(&sql, chunk).execute(&mut *tx).await?;
    }
    let finishes: Vec<(i64, &Finish)> = appends
        .iter()
        .filter_map(|a| a.finish.as_ref().map(|f| (a.game_id, f)))
        .collect();
    if !finishes.is_empty() {
        record_results(&mut tx, &finishes).await?;
    }
    for (game, f) in &finishes {
        settle(&mut tx, *game, f).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Moves on SQLite: the transaction and its rows in one statement list, which the driver runs
/// in one request to the connection's thread (a transaction through the pool takes three).
async fn write_sqlite(pool: &sqlx::AnyPool, rows: &[(&Append, usize)]) -> Result<(), StoreError> {
    let waited = std::time::Instant::now();
    let mut conn = pool.acquire().await?;
    metrics::POOL_WAIT_SECONDS.observe_duration(waited.elapsed());
    let sql = format!("BEGIN; {}; COMMIT;", insert_sql(rows.len()));
    let written = bind_rows(&sql, rows).execute(&mut *conn).await;
    if let Err(e) = written {
        // A failed row leaves the transaction open on this connection: close it, or the next
        // BEGIN fails. (When nothing is open, ROLLBACK says so; that is fine.)
        let _ = sqlx::query("ROLLBACK").execute(&mut *conn).await;
        return Err(e.into());
    }
    Ok(())
}

/// The results of the games of `finishes`, in one statement (when thousands of games end in the
/// same second, a statement each kept the committer from the moves).
async fn record_results(
    tx: &mut Transaction<'static, Any>,
    finishes: &[(i64, &Finish)],
) -> Result<(), StoreError> {
    let rows: Vec<String> = (0..finishes.len())
        .map(|i| format!("(${}, ${}, ${})", 3 * i + 1, 3 * i + 2, 3 * i + 3))
        .collect();
    // `column1`.. are the names both databases give a VALUES list's columns.
    let sql = format!(
        "UPDATE games SET status = 'finished', result = v.column2, finished_at = v.column3 \
         FROM (VALUES {}) AS v WHERE games.id = v.column1",
        rows.join(", ")
    );
    let mut q = sqlx::query(&sql);
    for (game, f) in finishes {
        q = q.bind(*game).bind(f.result.as_str()).bind(f.at);
    }
    q.execute(&mut **tx).await?;
    // Few games are annulled: a statement each.
    for (game, f) in finishes {
        if let Some(why) = &f.annulled {
            sqlx::query("UPDATE games SET annulled = 1, annul_reason = $1 WHERE id = $2")
                .bind(why.as_str())
                .bind(*game)
                .execute(&mut **tx)
                .await?;
        }
    }
    Ok(())
}

/// A finished game's promotion points and rating update.
async fn settle(
    tx: &mut Transaction<'static, Any>,
    game_id: i64,
    f: &Finish,
) -> Result<(), StoreError> {
    for o in &f.outcomes {
        let row = sqlx::query("SELECT rank, points FROM users WHERE id = $1")
            .bind(o.user_id)
            .fetch_one(&mut **tx)
            .await?;
        let rank: String = row.try_get("rank")?;
        let points: i64 = row.try_get("points")?;
        let Ok(rank) = rank.parse::<Rank>() else {
            continue;
        };
        let next = Standing {
            rank,
            points: points as i32,
        }
        .after(o.won);
        // What the game changed, so that annulling it can undo it (store/moderation.rs).
        sqlx::query(
            "INSERT INTO promotion_history (user_id, game_id, at, won, rank_before, points_before) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(o.user_id)
        .bind(game_id)
        .bind(f.at)
        .bind(i64::from(o.won))
        .bind(rank.to_string())
        .bind(points)
        .execute(&mut **tx)
        .await?;
        sqlx::query("UPDATE users SET rank = $1, points = $2 WHERE id = $3")
            .bind(next.rank.to_string())
            .bind(next.points as i64)
            .bind(o.user_id)
            .execute(&mut **tx)
            .await?;
    }
    if let Some(game) = &f.rated {
        super::ratings::rate(tx, game_id, game, f.at).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn batches_wait_only_when_another_move_is_due_within_the_window() {
        let mut rate = Rate::default();
        let start = tokio::time::Instant::now();
        // 300 moves a second: fewer than one expected in 1.5 ms.
        for i in 0..60u64 {
            rate.arrived(start + std::time::Duration::from_micros(i * 3_333), 1);
        }
        assert!(rate.expected_within(WINDOW) < 1.0, "{rate:?}");
        // 1,000 a second: one and a half expected.
        let later = start + std::time::Duration::from_millis(200);
        for i in 0..200u64 {
            rate.arrived(later + std::time::Duration::from_micros(i * 1_000), 1);
        }
        let expected = rate.expected_within(WINDOW);
        assert!((1.3..=1.7).contains(&expected), "{expected}");
        // Then a pause of a second: nothing is expected any more.
        rate.arrived(later + std::time::Duration::from_secs(2), 1);
        assert_eq!(rate.expected_within(WINDOW), 0.0);
    }
}
