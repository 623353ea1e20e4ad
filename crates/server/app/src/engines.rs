//! The engine pool: every engine search the server makes (the built-in bots' moves, their
//! judgements of a game, score estimates) runs on a fixed number of worker threads at low OS
//! priority, behind a bounded queue, so that the games never wait for an engine: the async
//! threads that relay moves stay free, the kernel prefers them over a search, and a flood of
//! requests is refused (`engine_busy`) rather than queued without end.
//!
//! A GTP engine runs in its own process; the bridge's blocking reads stay on tokio's blocking
//! pool, where they cost no CPU.
//!
//! One pool a process ([`configure`] before the first use; `tengen serve --engine-threads N`),
//! default: the machine's cores less one, at least one. The use cases do not reach for it: they
//! take an [`Engines`], the pool and the engine (its net) the server was started with.

use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// The OS priority of the workers (Linux `nice`: 0 is the default, 19 the lowest).
const NICE: i32 = 10;

/// Jobs that may wait, a worker: enough for bursts of bot moves, few enough that a waiting
/// job still starts within a few searches.
const QUEUE_PER_THREAD: usize = 16;

type Job = Box<dyn FnOnce() + Send>;

/// Worker threads and their bounded queue.
#[derive(Debug)]
pub struct EnginePool {
    jobs: Mutex<mpsc::Sender<Job>>,
    /// One permit a job running or waiting: the bound of the queue.
    slots: Arc<Semaphore>,
    threads: usize,
}

static POOL: OnceLock<Arc<EnginePool>> = OnceLock::new();

/// What the server's searches run on and with: the pool of workers, and the engine whose net
/// they evaluate with. Held by the services, handed to each use case that searches.
#[derive(Clone, Debug)]
pub struct Engines {
    /// The workers.
    pub pool: Arc<EnginePool>,
    /// The net the searches evaluate with (and the judgements made with it): the server's
    /// model, reviews, estimates and the bots that search on it.
    pub engine: tengen_ai::Engine,
    /// The built-in net, which the built-in bots' levels play on whatever the model: their
    /// ranks were measured on it ([`tengen_ai::Engine::ladder`]).
    pub ladder: tengen_ai::Engine,
}

impl Engines {
    /// The process's: its pool ([`configure`]d, or the default), its shared net
    /// ([`tengen_ai::Engine::shared`]: the built-in one, or `serve --model`'s) and the built-in
    /// net for the levels.
    pub fn process() -> Engines {
        Engines::on(pool())
    }

    /// The process's nets on `pool`.
    pub fn on(pool: Arc<EnginePool>) -> Engines {
        Engines {
            pool,
            engine: tengen_ai::Engine::shared(),
            ladder: tengen_ai::Engine::ladder(),
        }
    }
}

/// Sets the process's pool: `threads` workers (0: the default) and room for `queue` waiting
/// jobs beyond them (0: [`QUEUE_PER_THREAD`] a worker). Returns false when the pool already
/// exists (it is made once).
pub fn configure(threads: usize, queue: usize) -> bool {
    let threads = match threads {
        0 => default_threads(),
        n => n,
    };
    let queue = match queue {
        0 => threads.saturating_mul(QUEUE_PER_THREAD),
        n => n,
    };
    POOL.set(Arc::new(EnginePool::new(threads, queue))).is_ok()
}

/// The process's pool.
fn pool() -> Arc<EnginePool> {
    POOL.get_or_init(|| {
        let threads = default_threads();
        Arc::new(EnginePool::new(threads, threads * QUEUE_PER_THREAD))
    })
    .clone()
}

/// The machine's cores less one (for the async threads), at least one.
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_sub(1)
        .max(1)
}

impl EnginePool {
    /// A pool of `threads` workers (at least one) and `queue` places for waiting jobs.
    pub fn new(threads: usize, queue: usize) -> EnginePool {
        let threads = threads.max(1);
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads {
            let rx = rx.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("engine-{i}"))
                .spawn(move || worker(&rx));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "engine worker not started");
            }
        }
        EnginePool {
            jobs: Mutex::new(tx),
            slots: Arc::new(Semaphore::new(threads + queue)),
            threads,
        }
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `f` on a worker, or refuses at once with `engine_busy` when the queue is full
    /// (requests a person waits for: an estimate, an analysis).
    pub async fn try_run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let slot = self.slots.clone().try_acquire_owned().map_err(|_| busy())?;
        self.submit(slot, f)?.await.map_err(|_| lost())
    }

    /// Runs `f` on a worker, waiting for a place in the queue (a bot's move: the bot waits
    /// its turn rather than giving up its game).
    pub async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let slot = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| lost())?;
        self.submit(slot, f)?.await.map_err(|_| lost())
    }

    /// Runs `f` on a worker and waits for it on this thread up to `wait`, or `None`: at once
    /// when the queue is full, after `wait` when the job has not run by then (it still runs,
    /// its result dropped), or when it panicked. For a caller that cannot await: the live
    /// actor's dead-stone proposal, inside `block_in_place`.
    pub fn try_run_blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
        wait: std::time::Duration,
    ) -> Option<T> {
        let slot = self.slots.clone().try_acquire_owned().ok()?;
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.enqueue(slot, f, move |r| {
            let _ = tx.send(r);
        })
        .ok()?;
        rx.recv_timeout(wait).ok()
    }

    /// Queues `f` holding `slot` until it has run; its result comes on the receiver.
    fn submit<T: Send + 'static>(
        &self,
        slot: OwnedSemaphorePermit,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<oneshot::Receiver<T>, ApiError> {
        let (tx, rx) = oneshot::channel();
        self.enqueue(slot, f, move |r| {
            let _ = tx.send(r);
        })?;
        Ok(rx)
    }

    /// Queues `f` holding `slot` until it has run; `deliver` gets its result.
    fn enqueue<T: Send + 'static>(
        &self,
        slot: OwnedSemaphorePermit,
        f: impl FnOnce() -> T + Send + 'static,
        deliver: impl FnOnce(T) + Send + 'static,
    ) -> Result<(), ApiError> {
        let job: Job = Box::new(move || {
            // The place is free before the result is out, so that the caller finds it free;
            // a job that panics loses its result (its caller gets an internal error).
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
            drop(slot);
            if let Ok(r) = result {
                deliver(r);
            }
        });
        let jobs = self.jobs.lock().map_err(|_| lost())?;
        jobs.send(job).map_err(|_| lost())
    }
}

fn busy() -> ApiError {
    ApiError::Unavailable(
        "engine_busy",
        "the engines are busy; try again in a moment".into(),
    )
}

fn lost() -> ApiError {
    ApiError::Internal("engine worker stopped".into())
}

/// A worker: lowers its own priority, then runs jobs (which catch their own panics) until the
/// pool is gone.
fn worker(rx: &Mutex<mpsc::Receiver<Job>>) {
    lower_priority();
    loop {
        let job = match rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        match job {
            Ok(job) => job(),
            Err(_) => return,
        }
    }
}

/// Puts this thread (on Linux a thread has its own policy and nice value) in the `SCHED_IDLE`
/// class, which runs only on a core nothing else wants: a game's thread waking up takes the
/// core from a search at once. Under plain nice 10 the engines still took a share of the
/// cores, and four bots thinking raised 1,000 games' p99 move latency by a third
/// (`BENCHMARKS.md`, "Engines beside the games"). Nice [`NICE`] too, where `SCHED_IDLE` is
/// refused. The workspace forbids unsafe code and no crate in the lock file wraps
/// `sched_setscheduler`, so util-linux's `chrt` and `renice` do it for the thread's id.
#[cfg(target_os = "linux")]
fn lower_priority() {
    let Some(tid) = std::fs::read_link("/proc/thread-self")
        .ok()
        .and_then(|p| p.file_name().map(|t| t.to_string_lossy().into_owned()))
    else {
        tracing::warn!("engine worker keeps its priority (no thread id)");
        return;
    };
    let run = |cmd: &str, args: &[&str]| {
        std::process::Command::new(cmd)
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let niced = run("renice", &["-n", &NICE.to_string(), "-p", &tid]);
    let idle = run("chrt", &["--idle", "-p", "0", &tid]);
    if !niced && !idle {
        tracing::warn!("engine worker keeps its priority (renice and chrt failed)");
    }
}

/// This thread's scheduling policy, from `/proc/thread-self/stat` (its 41st field; 5 is
/// `SCHED_IDLE`).
#[cfg(target_os = "linux")]
pub fn thread_policy() -> Option<u32> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(38)?.parse().ok()
}

/// This thread's nice value, from `/proc/thread-self/stat` (its 19th field).
#[cfg(target_os = "linux")]
pub fn thread_nice() -> Option<i32> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The name (field 2) is in parentheses and may hold spaces: count from after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(16)?.parse().ok()
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_queue_refuses_with_engine_busy_and_frees_its_places() {
        // One worker and one waiting place: two jobs fill the pool.
        let pool = Arc::new(EnginePool::new(1, 1));
        let (release, hold) = mpsc::channel::<()>();
        let hold = Arc::new(Mutex::new(hold));
        let blocked = |pool: &Arc<EnginePool>| {
            let (pool, hold) = (pool.clone(), hold.clone());
            tokio::spawn(async move { pool.run(move || hold.lock().unwrap().recv().is_ok()).await })
        };
        let first = blocked(&pool);
        let second = blocked(&pool);
        // Both have their places once no permit is left.
        while pool.slots.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        let refused = pool.try_run(|| 1).await.unwrap_err();
        assert_eq!(refused.code(), "engine_busy");
        release.send(()).unwrap();
        release.send(()).unwrap();
        assert!(first.await.unwrap().unwrap());
        assert!(second.await.unwrap().unwrap());
        assert_eq!(pool.try_run(|| 2).await.unwrap(), 2);
        assert_eq!(pool.slots.available_permits(), 2);
    }

    #[tokio::test]
    async fn a_panicking_job_costs_its_result_not_the_worker() {
        let pool = EnginePool::new(1, 0);
        let lost = pool.try_run(|| -> u8 { panic!("search bug") }).await;
        assert_eq!(lost.unwrap_err().code(), "internal");
        assert_eq!(pool.try_run(|| 3).await.unwrap(), 3);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn workers_run_at_low_priority() {
        let pool = EnginePool::new(1, 0);
        let nice = pool.try_run(thread_nice).await.unwrap();
        assert!(nice.is_some_and(|n| n >= NICE), "nice {nice:?}");
        // SCHED_IDLE where util-linux's chrt is there (it is wherever renice is).
        if std::process::Command::new("chrt")
            .arg("--help")
            .output()
            .is_ok()
        {
            let policy = pool.try_run(thread_policy).await.unwrap();
            assert_eq!(policy, Some(5), "the workers' scheduling policy");
        }
    }
}
