//! Schema migrations, one list per backend, applied in order and recorded in `schema_version`.
//! A step is SQL, or code that must run once at that point (rating the games finished before
//! ratings existed), in the same transaction as its version row.

use sqlx::Row;

use super::{Backend, Store, StoreError};
use Step::{Code, Each, Sql};

/// One migration step.
enum Step {
    /// A statement.
    Sql(&'static str),
    /// A data migration written in Rust.
    Code(DataMigration),
    /// A statement written for each database.
    Each {
        sqlite: &'static str,
        postgres: &'static str,
    },
}

/// The data migrations.
#[derive(Clone, Copy)]
enum DataMigration {
    /// Rate every finished game in the order they ended ([`super::ratings`]).
    RateFinishedGames,
    /// Add `users.name_key`, fill it, and make it unique ([`super::accounts::add_name_keys`]).
    NameKeys,
}

/// Steps both databases share, after the steps of each (the same SQL in both).
const SHARED: &[Step] = &[
    // Game ownership in a cluster (store/lease.rs).
    Sql(GAME_OWNERS),
    // Glicko-2 ratings (store/ratings.rs).
    Sql("ALTER TABLE users ADD COLUMN rating DOUBLE PRECISION"),
    Sql("ALTER TABLE users ADD COLUMN deviation DOUBLE PRECISION"),
    Sql("ALTER TABLE users ADD COLUMN volatility DOUBLE PRECISION"),
    Sql("CREATE TABLE rating_history (
        user_id BIGINT NOT NULL REFERENCES users(id),
        game_id BIGINT NOT NULL REFERENCES games(id),
        at BIGINT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (user_id, game_id)
    )"),
    Code(DataMigration::RateFinishedGames),
    // Review boards (review/mod.rs).
    Each {
        sqlite: reviews_table::SQLITE,
        postgres: reviews_table::POSTGRES,
    },
    // A review's stored version, raised by each change (review/mod.rs).
    Sql("ALTER TABLE reviews ADD COLUMN version BIGINT NOT NULL DEFAULT 1"),
    // Quick match's queue in a cluster, shared by the nodes (quick_match/shared.rs): a player's
    // waiting request, or the outcome of their last one.
    Sql("CREATE TABLE match_requests (
        user_id BIGINT PRIMARY KEY,
        state TEXT NOT NULL,
        ticket BIGINT,
        level BIGINT,
        user_json TEXT,
        request TEXT,
        since_ms BIGINT,
        bot_at_ms BIGINT,
        outcome TEXT
    )"),
    // Cluster leases kept alive by one heartbeat row per node (store/lease.rs).
    Sql("CREATE TABLE cluster_nodes (
        node TEXT PRIMARY KEY,
        expires_ms BIGINT NOT NULL
    )"),
    Sql("CREATE INDEX game_owners_node ON game_owners (node)"),
    // Tournaments (store/tournaments.rs).
    Each {
        sqlite: tournament_tables::SQLITE,
        postgres: tournament_tables::POSTGRES,
    },
    Sql("CREATE TABLE tournament_players (
        tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
        user_id BIGINT NOT NULL REFERENCES users(id),
        rank TEXT NOT NULL,
        registered_at BIGINT NOT NULL,
        withdrawn_after BIGINT,
        PRIMARY KEY (tournament_id, user_id)
    )"),
    Sql("CREATE TABLE tournament_pairings (
        tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
        round BIGINT NOT NULL,
        board BIGINT NOT NULL,
        white_id BIGINT NOT NULL REFERENCES users(id),
        black_id BIGINT REFERENCES users(id),
        handicap BIGINT NOT NULL,
        game_id BIGINT REFERENCES games(id),
        corrected TEXT,
        PRIMARY KEY (tournament_id, round, board)
    )"),
    Each {
        sqlite: tournament_tables::LOG_SQLITE,
        postgres: tournament_tables::LOG_POSTGRES,
    },
    // Moderation (store/moderation.rs): roles, standing sanctions (seconds since the epoch),
    // the audit log, reports, annulled games, and each promotion-point change, so that an
    // annulled game's can be undone.
    Sql("ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'player'"),
    Sql("ALTER TABLE users ADD COLUMN muted_until BIGINT"),
    Sql("ALTER TABLE users ADD COLUMN suspended_until BIGINT"),
    Sql("ALTER TABLE users ADD COLUMN banned_until BIGINT"),
    Each {
        sqlite: moderation_tables::LOG_SQLITE,
        postgres: moderation_tables::LOG_POSTGRES,
    },
    Each {
        sqlite: moderation_tables::REPORTS_SQLITE,
        postgres: moderation_tables::REPORTS_POSTGRES,
    },
    Sql("CREATE INDEX reports_open ON reports (resolved_at, id)"),
    Sql("ALTER TABLE games ADD COLUMN annulled BIGINT NOT NULL DEFAULT 0"),
    Sql("CREATE TABLE promotion_history (
        user_id BIGINT NOT NULL REFERENCES users(id),
        game_id BIGINT NOT NULL REFERENCES games(id),
        at BIGINT NOT NULL,
        won BIGINT NOT NULL,
        rank_before TEXT NOT NULL,
        points_before BIGINT NOT NULL,
        PRIMARY KEY (user_id, game_id)
    )"),
    // Players' blocks (store/blocks.rs): `user_id` wants nothing more to do with `blocked_id`.
    Sql("CREATE TABLE blocks (
        user_id BIGINT NOT NULL REFERENCES users(id),
        blocked_id BIGINT NOT NULL REFERENCES users(id),
        at BIGINT NOT NULL,
        PRIMARY KEY (user_id, blocked_id)
    )"),
    Sql("CREATE INDEX blocks_blocked ON blocks (blocked_id)"),
    // Why a finished game counts for nobody's points or rating, beside moderation's `annulled`
    // flag (fair play: a no-show, too few moves, abandoned; core's `LiveGame::annulment`; a
    // moderator's annulment says `moderator`).
    Sql("ALTER TABLE games ADD COLUMN annul_reason TEXT"),
    // Private messages (store/social.rs); `read_at` is when the recipient opened the thread.
    Each {
        sqlite: social_tables::MESSAGES_SQLITE,
        postgres: social_tables::MESSAGES_POSTGRES,
    },
    Sql("CREATE INDEX messages_pair ON messages (sender_id, recipient_id, id)"),
    // Friends (store/social.rs): `user_id` follows `friend_id` (one way, like a bookmark).
    Sql("CREATE TABLE friends (
        user_id BIGINT NOT NULL REFERENCES users(id),
        friend_id BIGINT NOT NULL REFERENCES users(id),
        at BIGINT NOT NULL,
        PRIMARY KEY (user_id, friend_id)
    )"),
    // A report may be about a private message (store/moderation.rs).
    Sql("ALTER TABLE reports ADD COLUMN message_id BIGINT"),
    // A review board's chat, its last lines as JSON (store/reviews.rs).
    Sql("ALTER TABLE reviews ADD COLUMN chat TEXT NOT NULL DEFAULT '[]'"),
    // `/readyz`'s write probe while writes fail (Store::probe_write): one row, replaced.
    Sql("CREATE TABLE health_probe (
        id BIGINT PRIMARY KEY,
        at BIGINT NOT NULL,
        pad TEXT NOT NULL
    )"),
    // Sessions that end (store/accounts.rs): what a session may do (`player`, or `bot` for a
    // bot's engine, which may only play its games), when it was last used (idle expiry, written
    // at most every few minutes), and the device and address it was opened from, for the
    // player's list of their sessions. Sessions opened before count from their creation.
    Sql("ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'player'"),
    Sql("UPDATE sessions SET kind = 'bot' WHERE user_id IN (SELECT id FROM users WHERE bot IS NOT NULL)"),
    Sql("ALTER TABLE sessions ADD COLUMN last_seen BIGINT NOT NULL DEFAULT 0"),
    Sql("UPDATE sessions SET last_seen = created_at"),
    Sql("ALTER TABLE sessions ADD COLUMN user_agent TEXT"),
    Sql("ALTER TABLE sessions ADD COLUMN address TEXT"),
    Sql("CREATE INDEX sessions_user ON sessions (user_id)"),
    // A tournament result's correction keeps the board's result beside the organiser's
    // (store/tournaments.rs), and who made it.
    Sql("ALTER TABLE tournament_pairings ADD COLUMN board_result TEXT"),
    Sql("ALTER TABLE tournament_pairings ADD COLUMN corrected_by BIGINT REFERENCES users(id)"),
    // Names that look alike are one name (core/names.rs): each account's key, unique.
    Code(DataMigration::NameKeys),
    // Learning on the account (store/learning.rs): a learner's lesson progress (JSON, as the
    // browser keeps it) and puzzle rating, each puzzle attempt, and the puzzles' own ratings
    // as attempts move them (absent: the rating of the puzzle's level).
    Sql("CREATE TABLE learners (
        user_id BIGINT PRIMARY KEY REFERENCES users(id),
        lessons TEXT NOT NULL,
        puzzle_rating DOUBLE PRECISION,
        puzzle_deviation DOUBLE PRECISION,
        puzzle_volatility DOUBLE PRECISION,
        updated_at BIGINT NOT NULL
    )"),
    Sql("CREATE TABLE puzzle_attempts (
        user_id BIGINT NOT NULL REFERENCES users(id),
        puzzle_id TEXT NOT NULL,
        at BIGINT NOT NULL,
        solved BIGINT NOT NULL,
        rating DOUBLE PRECISION NOT NULL
    )"),
    Sql("CREATE INDEX puzzle_attempts_user ON puzzle_attempts (user_id)"),
    Sql("CREATE TABLE puzzle_ratings (
        puzzle_id TEXT PRIMARY KEY,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL
    )"),
    // The ranks a game's players play it at, written when it starts (store/games.rs): a
    // record keeps the rank of its day, and a bot's is its rank on that board.
    Sql("ALTER TABLE games ADD COLUMN black_rank TEXT"),
    Sql("ALTER TABLE games ADD COLUMN white_rank TEXT"),
];

/// The private messages' table, whose ids each database generates its own way.
mod social_tables {
    pub const MESSAGES_SQLITE: &str = "CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        sender_id BIGINT NOT NULL REFERENCES users(id),
        recipient_id BIGINT NOT NULL REFERENCES users(id),
        text TEXT NOT NULL,
        at BIGINT NOT NULL,
        read_at BIGINT
    )";
    pub const MESSAGES_POSTGRES: &str = "CREATE TABLE messages (
        id BIGSERIAL PRIMARY KEY,
        sender_id BIGINT NOT NULL REFERENCES users(id),
        recipient_id BIGINT NOT NULL REFERENCES users(id),
        text TEXT NOT NULL,
        at BIGINT NOT NULL,
        read_at BIGINT
    )";
}

/// The tournaments' tables whose ids each database generates its own way.
mod tournament_tables {
    pub const SQLITE: &str = "CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        owner_id INTEGER NOT NULL REFERENCES users(id),
        name TEXT NOT NULL,
        terms TEXT NOT NULL,
        status TEXT NOT NULL,
        round INTEGER NOT NULL,
        starts_at INTEGER,
        created_at INTEGER NOT NULL
    )";
    pub const POSTGRES: &str = "CREATE TABLE tournaments (
        id BIGSERIAL PRIMARY KEY,
        owner_id BIGINT NOT NULL REFERENCES users(id),
        name TEXT NOT NULL,
        terms TEXT NOT NULL,
        status TEXT NOT NULL,
        round BIGINT NOT NULL,
        starts_at BIGINT,
        created_at BIGINT NOT NULL
    )";
    pub const LOG_SQLITE: &str = "CREATE TABLE tournament_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        at INTEGER NOT NULL,
        by_id INTEGER NOT NULL,
        action TEXT NOT NULL,
        detail TEXT NOT NULL
    )";
    pub const LOG_POSTGRES: &str = "CREATE TABLE tournament_log (
        id BIGSERIAL PRIMARY KEY,
        tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
        at BIGINT NOT NULL,
        by_id BIGINT NOT NULL,
        action TEXT NOT NULL,
        detail TEXT NOT NULL
    )";
}

/// The moderation log's and the reports' tables, whose ids each database generates its own way.
mod moderation_tables {
    pub const LOG_SQLITE: &str = "CREATE TABLE moderation_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at BIGINT NOT NULL,
        moderator_id BIGINT NOT NULL REFERENCES users(id),
        action TEXT NOT NULL,
        user_id BIGINT REFERENCES users(id),
        game_id BIGINT,
        until BIGINT,
        reason TEXT NOT NULL
    )";
    pub const LOG_POSTGRES: &str = "CREATE TABLE moderation_log (
        id BIGSERIAL PRIMARY KEY,
        at BIGINT NOT NULL,
        moderator_id BIGINT NOT NULL REFERENCES users(id),
        action TEXT NOT NULL,
        user_id BIGINT REFERENCES users(id),
        game_id BIGINT,
        until BIGINT,
        reason TEXT NOT NULL
    )";
    pub const REPORTS_SQLITE: &str = "CREATE TABLE reports (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at BIGINT NOT NULL,
        reporter_id BIGINT NOT NULL REFERENCES users(id),
        user_id BIGINT NOT NULL REFERENCES users(id),
        game_id BIGINT,
        chat_seq BIGINT,
        reason TEXT NOT NULL,
        resolved_at BIGINT,
        resolved_by BIGINT REFERENCES users(id),
        note TEXT
    )";
    pub const REPORTS_POSTGRES: &str = "CREATE TABLE reports (
        id BIGSERIAL PRIMARY KEY,
        at BIGINT NOT NULL,
        reporter_id BIGINT NOT NULL REFERENCES users(id),
        user_id BIGINT NOT NULL REFERENCES users(id),
        game_id BIGINT,
        chat_seq BIGINT,
        reason TEXT NOT NULL,
        resolved_at BIGINT,
        resolved_by BIGINT REFERENCES users(id),
        note TEXT
    )";
}

/// The review boards' table, whose ids each database generates its own way.
mod reviews_table {
    pub const SQLITE: &str = "CREATE TABLE reviews (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        owner_id INTEGER NOT NULL REFERENCES users(id),
        game_id INTEGER,
        sgf TEXT NOT NULL,
        cursor TEXT NOT NULL,
        analysis TEXT,
        created_at INTEGER NOT NULL
    )";
    pub const POSTGRES: &str = "CREATE TABLE reviews (
        id BIGSERIAL PRIMARY KEY,
        owner_id BIGINT NOT NULL REFERENCES users(id),
        game_id BIGINT,
        sgf TEXT NOT NULL,
        cursor TEXT NOT NULL,
        analysis TEXT,
        created_at BIGINT NOT NULL
    )";
}

/// SQLite schema steps.
const SQLITE: &[Step] = &[
    Sql("CREATE TABLE users (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        username TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        rank TEXT NOT NULL,
        points INTEGER NOT NULL,
        guest INTEGER NOT NULL,
        bot TEXT,
        created_at INTEGER NOT NULL
    )"),
    Sql("CREATE TABLE sessions (
        token TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id),
        created_at INTEGER NOT NULL
    )"),
    Sql("CREATE TABLE rooms (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        owner_id INTEGER NOT NULL REFERENCES users(id),
        terms TEXT NOT NULL,
        status TEXT NOT NULL,
        game_id INTEGER,
        created_at INTEGER NOT NULL
    )"),
    Sql("CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        room_id INTEGER,
        black_id INTEGER NOT NULL REFERENCES users(id),
        white_id INTEGER NOT NULL REFERENCES users(id),
        terms TEXT NOT NULL,
        status TEXT NOT NULL,
        result TEXT,
        created_at INTEGER NOT NULL,
        finished_at INTEGER
    )"),
    Sql("CREATE TABLE game_events (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (game_id, seq)
    )"),
    Sql("CREATE INDEX games_status ON games(status)"),
    Sql("ALTER TABLE game_events ADD COLUMN clocks TEXT"),
    // Names unique without regard to case.
    Sql("CREATE UNIQUE INDEX users_username_folded ON users (lower(username))"),
    // Sessions are kept as token digests from now on: the plain tokens stored before open
    // nothing, and are dropped (everyone logs in once more).
    Sql("DELETE FROM sessions"),
];

/// The cluster's lease table, the same SQL in both databases.
const GAME_OWNERS: &str = "CREATE TABLE game_owners (
        game_id BIGINT PRIMARY KEY,
        node TEXT NOT NULL,
        epoch BIGINT NOT NULL,
        expires_ms BIGINT NOT NULL
    )";

/// PostgreSQL schema steps, the same tables in PostgreSQL types.
const POSTGRES: &[Step] = &[
    Sql("CREATE TABLE users (
        id BIGSERIAL PRIMARY KEY,
        username TEXT NOT NULL UNIQUE,
        password_hash TEXT,
        rank TEXT NOT NULL,
        points BIGINT NOT NULL,
        guest BIGINT NOT NULL,
        bot TEXT,
        created_at BIGINT NOT NULL
    )"),
    Sql("CREATE TABLE sessions (
        token TEXT PRIMARY KEY,
        user_id BIGINT NOT NULL REFERENCES users(id),
        created_at BIGINT NOT NULL
    )"),
    Sql("CREATE TABLE rooms (
        id BIGSERIAL PRIMARY KEY,
        owner_id BIGINT NOT NULL REFERENCES users(id),
        terms TEXT NOT NULL,
        status TEXT NOT NULL,
        game_id BIGINT,
        created_at BIGINT NOT NULL
    )"),
    Sql("CREATE TABLE games (
        id BIGSERIAL PRIMARY KEY,
        room_id BIGINT,
        black_id BIGINT NOT NULL REFERENCES users(id),
        white_id BIGINT NOT NULL REFERENCES users(id),
        terms TEXT NOT NULL,
        status TEXT NOT NULL,
        result TEXT,
        created_at BIGINT NOT NULL,
        finished_at BIGINT
    )"),
    Sql("CREATE TABLE game_events (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seq BIGINT NOT NULL,
        event TEXT NOT NULL,
        at_ms BIGINT NOT NULL,
        PRIMARY KEY (game_id, seq)
    )"),
    Sql("CREATE INDEX games_status ON games(status)"),
    Sql("ALTER TABLE game_events ADD COLUMN clocks TEXT"),
    // Names unique without regard to case.
    Sql("CREATE UNIQUE INDEX users_username_folded ON users (lower(username))"),
    // Sessions are kept as token digests from now on: the plain tokens stored before open
    // nothing, and are dropped (everyone logs in once more).
    Sql("DELETE FROM sessions"),
];

/// Applies the steps the database has not seen yet.
pub async fn run(store: &Store) -> Result<(), StoreError> {
    let own = match store.backend {
        Backend::Sqlite => SQLITE,
        Backend::Postgres => POSTGRES,
    };
    let steps: Vec<&Step> = own.iter().chain(SHARED).collect();
    // One connection for all of it: on PostgreSQL it holds an advisory lock, so that nodes of a
    // cluster starting together migrate one after the other, not twice at once.
    let mut conn = store.pool().acquire().await?;
    if store.backend == Backend::Postgres {
        sqlx::query("SELECT pg_advisory_lock(741954001)")
            .execute(&mut *conn)
            .await?;
    }
    let migrated = migrate(&mut conn, store.backend, &steps).await;
    if store.backend == Backend::Postgres {
        sqlx::query("SELECT pg_advisory_unlock(741954001)")
            .execute(&mut *conn)
            .await?;
    }
    migrated
}

async fn migrate(
    conn: &mut sqlx::AnyConnection,
    backend: Backend,
    steps: &[&Step],
) -> Result<(), StoreError> {
    use sqlx::Connection;
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .execute(&mut *conn)
        .await?;
    let row = sqlx::query("SELECT COUNT(*) FROM schema_version")
        .fetch_one(&mut *conn)
        .await?;
    let done: i64 = row.try_get(0)?;
    for (i, step) in steps.iter().enumerate().skip(done as usize) {
        let mut tx = conn.begin().await?;
        match step {
            Sql(sql) => {
                sqlx::query(sql).execute(&mut *tx).await?;
            }
            Code(DataMigration::RateFinishedGames) => {
                super::ratings::rate_finished_games(&mut tx).await?;
            }
            Code(DataMigration::NameKeys) => {
                super::accounts::add_name_keys(&mut tx).await?;
            }
            Each { sqlite, postgres } => {
                let sql = if backend == Backend::Sqlite {
                    sqlite
                } else {
                    postgres
                };
                sqlx::query(sql).execute(&mut *tx).await?;
            }
        }
        sqlx::query("INSERT INTO schema_version (version) VALUES ($1)")
            .bind(i as i64 + 1)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
    }
    Ok(())
}
