//! The group committer's own SQLite connection.
//!
//! sqlx runs each SQLite connection on a thread of its own, so every statement is a message to
//! that thread and an answer back: two thread switches a commit, which at a thousand moves a
//! second were a large part of the server's CPU per move. The committer writes moves through
//! this second connection to the same file instead, on its own thread, in a few tens of
//! microseconds. It never waits for the file: when another connection is writing (sqlx's, for a
//! room or an account), `BEGIN IMMEDIATE` fails at once and the committer hands the batch to
//! sqlx, which waits its turn on its own thread. Its WAL checkpoints run on a blocking thread,
//! not inline in a commit.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rusqlite::{params, Connection, ErrorCode, OpenFlags};

use super::append::Append;

/// Commits between two WAL checkpoints (about two pages each: the WAL stays under ~10 MB).
const CHECKPOINT_EVERY: u32 = 1000;

const INSERT: &str =
    "INSERT INTO game_events (game_id, seq, event, at_ms, clocks) VALUES (?1, ?2, ?3, ?4, ?5)";

/// Why a direct write did not happen.
#[derive(Debug)]
pub(super) enum Refused {
    /// Another connection holds the write lock: nothing was written; write through sqlx.
    Busy,
    /// The database refused the batch (a constraint, a full disk); nothing was written.
    Failed(rusqlite::Error),
}

/// A connection for the committer's moves.
pub(super) struct DirectWriter {
    conn: Connection,
    path: PathBuf,
    commits: u32,
    checkpointing: Arc<AtomicBool>,
}

impl DirectWriter {
    /// Opens the database file behind a `sqlite:` URL (which sqlx opened first, so it exists
    /// and is in WAL mode). `None` for an in-memory database, which a second connection cannot
    /// share, or a file this connection cannot open as sqlx's does.
    pub(super) fn open(url: &str) -> Option<DirectWriter> {
        let path = file_of(url)?;
        let conn = Connection::open_with_flags(
            &path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .ok()?;
        let wal: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .ok()?;
        if !wal.eq_ignore_ascii_case("wal") {
            return None;
        }
        // As sqlx's connection: durable against a crash of the process, foreign keys checked.
        // Checkpoints are the committer's to start, off this thread.
        conn.execute_batch(
            "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 0;",
        )
        .ok()?;
        conn.busy_timeout(std::time::Duration::ZERO).ok()?;
        Some(DirectWriter {
            conn,
            path,
            commits: 0,
            checkpointing: Arc::default(),
        })
    }

    /// Writes the event rows `rows` in one transaction: all or nothing.
    pub(super) fn write(&mut self, rows: &[(&Append, usize)]) -> Result<(), Refused> {
        match self.run("BEGIN IMMEDIATE") {
            Ok(()) => {}
            Err(rusqlite::Error::SqliteFailure(e, _)) if e.code == ErrorCode::DatabaseBusy => {
                return Err(Refused::Busy)
            }
            Err(e) => return Err(Refused::Failed(e)),
        }
        let written = self
            .insert(rows)
            .and_then(|()| self.conn.execute_batch("COMMIT"));
        if let Err(e) = written {
            // Nothing of the batch stays; when the failure already ended the transaction,
            // ROLLBACK says so, which is fine.
            let _ = self.conn.execute_batch("ROLLBACK");
            return Err(Refused::Failed(e));
        }
        self.commits += 1;
        if self.commits >= CHECKPOINT_EVERY {
            self.commits = 0;
            self.checkpoint();
        }
        Ok(())
    }

    /// A statement without rows, prepared once.
    fn run(&self, sql: &str) -> rusqlite::Result<()> {
        self.conn.prepare_cached(sql)?.execute([]).map(drop)
    }

    fn insert(&self, rows: &[(&Append, usize)]) -> rusqlite::Result<()> {
        let mut insert = self.conn.prepare_cached(INSERT)?;
        for (a, i) in rows {
            insert.execute(params![
                a.game_id,
                a.first_seq + *i as i64,
                a.events[*i],
                a.at_ms,
                a.clocks,
            ])?;
        }
        Ok(())
    }

    /// Copies the WAL back into the database on a blocking thread (a passive checkpoint: it
    /// waits for no one and no one waits for it), unless one is still running.
    fn checkpoint(&self) {
        if self.checkpointing.swap(true, Ordering::AcqRel) {
            return;
        }
        let path = self.path.clone();
        let running = Arc::clone(&self.checkpointing);
        tokio::task::spawn_blocking(move || {
            let done = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_WRITE)
                .and_then(|c| c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())));
            if let Err(e) = done {
                tracing::warn!(error = %e, "WAL checkpoint failed");
            }
            running.store(false, Ordering::Release);
        });
    }
}

/// The file of a `sqlite:` URL (`sqlite:PATH`, `sqlite://PATH`, with or without `?options`);
/// `None` for an in-memory database.
fn file_of(url: &str) -> Option<PathBuf> {
    let rest = url.strip_prefix("sqlite:")?;
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let (path, options) = rest.split_once('?').unwrap_or((rest, ""));
    if path.is_empty() || path == ":memory:" || options.contains("mode=memory") {
        return None;
    }
    Some(Path::new(path).to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_of_urls() {
        assert_eq!(
            file_of("sqlite:/tmp/a.db"),
            Some(PathBuf::from("/tmp/a.db"))
        );
        assert_eq!(file_of("sqlite:a.db?mode=rwc"), Some(PathBuf::from("a.db")));
        assert_eq!(file_of("sqlite://a.db"), Some(PathBuf::from("a.db")));
        assert_eq!(file_of("sqlite::memory:"), None);
        assert_eq!(file_of("sqlite:x?mode=memory&cache=shared"), None);
        assert_eq!(file_of("postgres://h/db"), None);
    }
}
