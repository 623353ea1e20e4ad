//! Moderation in the database: roles, sanctions with their audit log row in one transaction
//! (a ban ends the player's sessions and closes their open rooms in it too), annulled games with
//! the ratings and promotion points recomputed, hidden chat lines, and players' reports. What a moderator may do is
//! decided above; this file only reads and writes.

use serde::Serialize;
use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};
use tengen_core::domain::promotion::Standing;
use tengen_core::domain::rank::Rank;
use tengen_core::moderation::{ActionKind, Role};

use super::{Backend, Store, StoreError};

/// An entry of the audit log to write.
#[derive(Clone, Copy, Debug)]
pub struct NewEntry<'a> {
    /// Who did it.
    pub moderator_id: i64,
    /// What (`warn`, `mute`, `suspend`, `ban`, `unban`, `annul`, `hide_chat`, `resolve_report`).
    pub action: &'a str,
    /// To whom, when it was done to a player.
    pub user_id: Option<i64>,
    /// In which game, when it was done to a game.
    pub game_id: Option<i64>,
    /// Until when, for a sanction that ends.
    pub until: Option<i64>,
    /// Why.
    pub reason: &'a str,
    /// When, seconds since the epoch.
    pub at: i64,
}

/// An entry of the audit log: who did what to whom, when and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogEntry {
    // In alphabetical order, the order the API has always written them in.
    /// What was done.
    pub action: String,
    /// When, seconds since the epoch.
    pub at: i64,
    /// The game, when it was done to one.
    pub game: Option<i64>,
    /// Its number, growing.
    pub id: i64,
    /// The moderator's name.
    pub moderator: String,
    /// Why.
    pub reason: String,
    /// Until when.
    pub until: Option<i64>,
    /// The player's name, when it was done to one.
    pub user: Option<String>,
}

/// A player's report to write.
#[derive(Clone, Copy, Debug)]
pub struct NewReport<'a> {
    /// Who reports.
    pub reporter_id: i64,
    /// Whom.
    pub user_id: i64,
    /// The game it is about, if any.
    pub game_id: Option<i64>,
    /// The chat line it is about (its seq in the game's log), if any.
    pub chat_seq: Option<i64>,
    /// The private message it is about, if any.
    pub message_id: Option<i64>,
    /// Why.
    pub reason: &'a str,
    /// When, seconds since the epoch.
    pub at: i64,
}

/// A report as moderators see it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Its number.
    pub id: i64,
    /// When it was made.
    pub at: i64,
    /// Who reported.
    pub reporter: String,
    /// Whom.
    pub user: String,
    /// The reported player's id (for the context).
    #[serde(skip)]
    pub user_id: i64,
    /// The game it is about.
    pub game: Option<i64>,
    /// The chat line it is about.
    pub chat: Option<i64>,
    /// The private message it is about.
    pub message: Option<i64>,
    /// Why.
    pub reason: String,
    /// When a moderator resolved it.
    pub resolved_at: Option<i64>,
    /// Who resolved it.
    pub resolved_by: Option<String>,
    /// The moderator's note.
    pub note: Option<String>,
}

/// Why a game could not be annulled.
#[derive(Debug, thiserror::Error)]
pub enum AnnulError {
    /// No such game.
    #[error("no such game")]
    NotFound,
    /// It is still being played.
    #[error("the game is still being played")]
    NotFinished,
    /// It was annulled before.
    #[error("the game is annulled already")]
    Already,
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for AnnulError {
    fn from(e: sqlx::Error) -> AnnulError {
        AnnulError::Store(e.into())
    }
}

/// What an annulment changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Annulled {
    /// The log entry.
    pub log_id: i64,
    /// Whether the players' promotion points were recomputed (games settled before promotion
    /// points were recorded game by game cannot be undone).
    pub points_recomputed: bool,
}

impl Store {
    /// Sets the role of the account called `name`; `false` when there is none.
    pub async fn set_role(&self, name: &str, role: Role) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE users SET role = $1 WHERE username = $2")
            .bind(role.as_str())
            .bind(name)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Applies a sanction of `kind` (ending at `until`) to `entry.user_id`, with its log entry,
    /// in one transaction. A ban also ends every session of the player; a ban or a suspension
    /// closes their open rooms; an unban lifts every sanction. Returns the log entry's id.
    pub async fn sanction(&self, kind: ActionKind, entry: NewEntry<'_>) -> Result<i64, StoreError> {
        let user = entry.user_id.unwrap_or_default();
        let mut tx = self.pool().begin().await?;
        let set = match kind {
            ActionKind::Warn => None,
            ActionKind::Mute => Some("muted_until = $1"),
            ActionKind::Suspend => Some("suspended_until = $1"),
            ActionKind::Ban => Some("banned_until = $1"),
            ActionKind::Unban => {
                Some("muted_until = NULL, suspended_until = NULL, banned_until = NULL")
            }
        };
        if let Some(set) = set {
            let sql = if kind == ActionKind::Unban {
                format!("UPDATE users SET {set} WHERE id = $1")
            } else {
                format!("UPDATE users SET {set} WHERE id = $2")
            };
            let mut q = sqlx::query(&sql);
            if kind != ActionKind::Unban {
                q = q.bind(entry.until);
            }
            q.bind(user).execute(&mut *tx).await?;
        }
        if kind == ActionKind::Ban {
            sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                .bind(user)
                .execute(&mut *tx)
                .await?;
        }
        if matches!(kind, ActionKind::Ban | ActionKind::Suspend) {
            sqlx::query(
                "UPDATE rooms SET status = 'cancelled' WHERE owner_id = $1 AND status = 'open'",
            )
            .bind(user)
            .execute(&mut *tx)
            .await?;
        }
        let id = insert_entry(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Writes an entry of the audit log on its own (an action whose change is elsewhere).
    pub async fn log_action(&self, entry: NewEntry<'_>) -> Result<i64, StoreError> {
        let mut conn = self.pool().acquire().await?;
        insert_entry(&mut conn, &entry).await
    }

    /// The audit log, newest first: at most `limit` entries, about `user_id` only if given.
    pub async fn moderation_log(
        &self,
        user_id: Option<i64>,
        limit: i64,
    ) -> Result<Vec<LogEntry>, StoreError> {
        let filter = if user_id.is_some() {
            "WHERE l.user_id = $2"
        } else {
            ""
        };
        let sql = format!(
            "SELECT l.id, l.at, m.username AS moderator, l.action, u.username AS target, \
                    l.game_id, l.until, l.reason \
             FROM moderation_log l JOIN users m ON m.id = l.moderator_id \
             LEFT JOIN users u ON u.id = l.user_id {filter} ORDER BY l.id DESC LIMIT $1"
        );
        let mut q = sqlx::query(&sql).bind(limit);
        if let Some(u) = user_id {
            q = q.bind(u);
        }
        let rows = q.fetch_all(self.pool()).await?;
        Ok(rows.iter().map(log_entry).collect::<Result<_, _>>()?)
    }

    /// The ids of the live games `user_id` plays.
    pub async fn live_games_of(&self, user_id: i64) -> Result<Vec<i64>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'live' AND (black_id = $1 OR white_id = $1)",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, _>>()?)
    }

    /// Annuls the finished game `game_id`, as if it had not been played: it no longer counts
    /// for ratings (every rating from its end on is recomputed, for everyone whose games came
    /// after it) nor for its players' promotion points (replayed from the standing each had
    /// before it); with its log entry, in one transaction.
    pub async fn annul_game(
        &self,
        game_id: i64,
        entry: NewEntry<'_>,
    ) -> Result<Annulled, AnnulError> {
        let mut tx = self.pool().begin().await?;
        if self.backend() == Backend::Postgres {
            // Games ending meanwhile wait to be rated on top of the recomputed ratings.
            sqlx::query("LOCK TABLE rating_history IN SHARE ROW EXCLUSIVE MODE")
                .execute(&mut *tx)
                .await?;
        }
        let row = sqlx::query(
            "SELECT status, annulled, finished_at, black_id, white_id FROM games WHERE id = $1",
        )
        .bind(game_id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or(AnnulError::NotFound)?;
        if row.try_get::<String, _>("status")? != "finished" {
            return Err(AnnulError::NotFinished);
        }
        if row.try_get::<i64, _>("annulled")? != 0 {
            return Err(AnnulError::Already);
        }
        let finished_at: i64 = row.try_get::<Option<i64>, _>("finished_at")?.unwrap_or(0);
        sqlx::query("UPDATE games SET annulled = 1, annul_reason = 'moderator' WHERE id = $1")
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        rerate_from(&mut tx, finished_at, game_id).await?;
        let mut points_recomputed = true;
        for player in ["black_id", "white_id"] {
            let user: i64 = row.try_get(player)?;
            points_recomputed &= unsettle(&mut tx, user, game_id).await?;
        }
        let log_id = insert_entry(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(Annulled {
            log_id,
            points_recomputed,
        })
    }

    /// Files a report; its id.
    pub async fn insert_report(&self, r: NewReport<'_>) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "INSERT INTO reports (at, reporter_id, user_id, game_id, chat_seq, message_id, reason) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(r.at)
        .bind(r.reporter_id)
        .bind(r.user_id)
        .bind(r.game_id)
        .bind(r.chat_seq)
        .bind(r.message_id)
        .bind(r.reason)
        .fetch_all(self.pool())
        .await?
        .into_iter()
        .next()
        .ok_or(sqlx::Error::RowNotFound)?;
        Ok(row.try_get("id")?)
    }

    /// How many of `reporter_id`'s reports are open.
    pub async fn open_reports_by(&self, reporter_id: i64) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM reports WHERE reporter_id = $1 AND resolved_at IS NULL",
        )
        .bind(reporter_id)
        .fetch_one(self.pool())
        .await?;
        Ok(row.try_get("n")?)
    }

    /// Reports, oldest first: the open ones only, or the resolved ones too (newest first then).
    pub async fn reports(&self, open_only: bool, limit: i64) -> Result<Vec<Report>, StoreError> {
        let (filter, order) = if open_only {
            ("WHERE r.resolved_at IS NULL", "r.id")
        } else {
            ("", "r.id DESC")
        };
        let sql = format!(
            "SELECT r.id, r.at, p.username AS reporter, u.username AS target, r.user_id, \
                    r.game_id, r.chat_seq, r.message_id, r.reason, r.resolved_at, m.username AS resolver, r.note \
             FROM reports r JOIN users p ON p.id = r.reporter_id JOIN users u ON u.id = r.user_id \
             LEFT JOIN users m ON m.id = r.resolved_by {filter} ORDER BY {order} LIMIT $1"
        );
        let rows = sqlx::query(&sql).bind(limit).fetch_all(self.pool()).await?;
        Ok(rows.iter().map(report).collect::<Result<_, _>>()?)
    }

    /// The report `id`, if there is one.
    pub async fn report(&self, id: i64) -> Result<Option<Report>, StoreError> {
        let row = sqlx::query(
            "SELECT r.id, r.at, p.username AS reporter, u.username AS target, r.user_id, \
                    r.game_id, r.chat_seq, r.message_id, r.reason, r.resolved_at, m.username AS resolver, r.note \
             FROM reports r JOIN users p ON p.id = r.reporter_id JOIN users u ON u.id = r.user_id \
             LEFT JOIN users m ON m.id = r.resolved_by WHERE r.id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(report).transpose()?)
    }

    /// Resolves the open report `id` with a note, and logs it, in one transaction; `false`
    /// when it is not open (resolved already, or none).
    pub async fn resolve_report(
        &self,
        id: i64,
        note: &str,
        entry: NewEntry<'_>,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let done = sqlx::query(
            "UPDATE reports SET resolved_at = $1, resolved_by = $2, note = $3 \
             WHERE id = $4 AND resolved_at IS NULL",
        )
        .bind(entry.at)
        .bind(entry.moderator_id)
        .bind(note)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Ok(false);
        }
        insert_entry(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Replaces the stored event `seq` of `game_id` (a chat line a moderator hid, written
    /// without its text) and logs it, in one transaction; `false` when there is no such event.
    pub async fn rewrite_event(
        &self,
        game_id: i64,
        seq: i64,
        event: &str,
        entry: NewEntry<'_>,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let done = sqlx::query("UPDATE game_events SET event = $1 WHERE game_id = $2 AND seq = $3")
            .bind(event)
            .bind(game_id)
            .bind(seq)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() == 0 {
            return Ok(false);
        }
        insert_entry(&mut tx, &entry).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Whether the game `game_id` is annulled (`None`: no such game).
    pub async fn annulled(&self, game_id: i64) -> Result<Option<bool>, StoreError> {
        let row = sqlx::query("SELECT annulled FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(self.pool())
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get::<i64, _>("annulled")? != 0),
            None => None,
        })
    }
}

async fn insert_entry(conn: &mut AnyConnection, e: &NewEntry<'_>) -> Result<i64, StoreError> {
    let row = sqlx::query(
        "INSERT INTO moderation_log (at, moderator_id, action, user_id, game_id, until, reason) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
    )
    .bind(e.at)
    .bind(e.moderator_id)
    .bind(e.action)
    .bind(e.user_id)
    .bind(e.game_id)
    .bind(e.until)
    .bind(e.reason)
    .fetch_all(&mut *conn)
    .await?
    .into_iter()
    .next()
    .ok_or(sqlx::Error::RowNotFound)?;
    Ok(row.try_get("id")?)
}

fn log_entry(r: &AnyRow) -> Result<LogEntry, sqlx::Error> {
    Ok(LogEntry {
        id: r.try_get("id")?,
        at: r.try_get("at")?,
        moderator: r.try_get("moderator")?,
        action: r.try_get("action")?,
        user: r.try_get("target")?,
        game: r.try_get("game_id")?,
        until: r.try_get("until")?,
        reason: r.try_get("reason")?,
    })
}

fn report(r: &AnyRow) -> Result<Report, sqlx::Error> {
    Ok(Report {
        id: r.try_get("id")?,
        at: r.try_get("at")?,
        reporter: r.try_get("reporter")?,
        user: r.try_get("target")?,
        user_id: r.try_get("user_id")?,
        game: r.try_get("game_id")?,
        chat: r.try_get("chat_seq")?,
        message: r.try_get("message_id")?,
        reason: r.try_get("reason")?,
        resolved_at: r.try_get("resolved_at")?,
        resolved_by: r.try_get("resolver")?,
        note: r.try_get("note")?,
    })
}

/// Ratings as if nothing from the game `game_id` (ended at `at`) on had been rated: every
/// player rated since gets back the rating they had before it (or none), the history from it on
/// is dropped, and the games after it that count are rated again in order.
async fn rerate_from(conn: &mut AnyConnection, at: i64, game_id: i64) -> Result<(), StoreError> {
    const FROM: &str = "(at > $1 OR (at = $1 AND game_id >= $2))";
    let users = sqlx::query(&format!(
        "SELECT DISTINCT user_id FROM rating_history WHERE {FROM}"
    ))
    .bind(at)
    .bind(game_id)
    .fetch_all(&mut *conn)
    .await?;
    for u in users {
        let user: i64 = u.try_get("user_id")?;
        let before = sqlx::query(
            "SELECT rating, deviation, volatility FROM rating_history \
             WHERE user_id = $3 AND NOT (at > $1 OR (at = $1 AND game_id >= $2)) \
             ORDER BY at DESC, game_id DESC LIMIT 1",
        )
        .bind(at)
        .bind(game_id)
        .bind(user)
        .fetch_optional(&mut *conn)
        .await?;
        // NULLs written as SQL, not bound: a NULL bound where a cached statement was prepared for
        // floats is refused by PostgreSQL ("incorrect binary data format").
        let Some(r) = before else {
            sqlx::query(
                "UPDATE users SET rating = NULL, deviation = NULL, volatility = NULL WHERE id = $1",
            )
            .bind(user)
            .execute(&mut *conn)
            .await?;
            continue;
        };
        sqlx::query("UPDATE users SET rating = $1, deviation = $2, volatility = $3 WHERE id = $4")
            .bind(r.try_get::<f64, _>("rating")?)
            .bind(r.try_get::<f64, _>("deviation")?)
            .bind(r.try_get::<f64, _>("volatility")?)
            .bind(user)
            .execute(&mut *conn)
            .await?;
    }
    sqlx::query(&format!("DELETE FROM rating_history WHERE {FROM}"))
        .bind(at)
        .bind(game_id)
        .execute(&mut *conn)
        .await?;
    super::ratings::rate_games(conn, Some((at, game_id))).await
}

/// Undoes what the game `game_id` did to `user`'s promotion points: their standing before it,
/// then each later game's win or loss again, in order. `false` when the game left no record
/// (settled before promotion points were recorded game by game, or it moved no points).
async fn unsettle(conn: &mut AnyConnection, user: i64, game_id: i64) -> Result<bool, StoreError> {
    let Some(row) = sqlx::query(
        "SELECT at, rank_before, points_before FROM promotion_history \
         WHERE user_id = $1 AND game_id = $2",
    )
    .bind(user)
    .bind(game_id)
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(false);
    };
    let at: i64 = row.try_get("at")?;
    let rank: String = row.try_get("rank_before")?;
    let Ok(rank) = rank.parse::<Rank>() else {
        return Ok(false);
    };
    let mut standing = Standing {
        rank,
        points: row.try_get::<i64, _>("points_before")? as i32,
    };
    let later = sqlx::query(
        "SELECT game_id, won FROM promotion_history \
         WHERE user_id = $1 AND (at > $2 OR (at = $2 AND game_id > $3)) ORDER BY at, game_id",
    )
    .bind(user)
    .bind(at)
    .bind(game_id)
    .fetch_all(&mut *conn)
    .await?;
    for l in later {
        let later_game: i64 = l.try_get("game_id")?;
        sqlx::query(
            "UPDATE promotion_history SET rank_before = $1, points_before = $2 \
             WHERE user_id = $3 AND game_id = $4",
        )
        .bind(standing.rank.to_string())
        .bind(i64::from(standing.points))
        .bind(user)
        .bind(later_game)
        .execute(&mut *conn)
        .await?;
        standing = standing.after(l.try_get::<i64, _>("won")? != 0);
    }
    sqlx::query("DELETE FROM promotion_history WHERE user_id = $1 AND game_id = $2")
        .bind(user)
        .bind(game_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query("UPDATE users SET rank = $1, points = $2 WHERE id = $3")
        .bind(standing.rank.to_string())
        .bind(i64::from(standing.points))
        .bind(user)
        .execute(&mut *conn)
        .await?;
    Ok(true)
}
