//! Rooms, games and their event logs.

use sqlx::any::AnyRow;
use sqlx::Row;
use tengen_core::game::Terms;
use tengen_core::room::RoomTerms;

use super::{from_json, parsed, read_list, Store, StoreError};

/// Seconds since the epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Milliseconds since the epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A room row.
#[derive(Clone, Debug)]
pub struct RoomRow {
    /// Id.
    pub id: i64,
    /// Who opened it.
    pub owner_id: i64,
    /// The terms the owner asked for (kept as JSON).
    pub terms: RoomTerms,
    /// Open, started or cancelled.
    pub status: RoomStatus,
    /// The game, once started.
    pub game_id: Option<i64>,
}

status_enum! {
    /// Where a game is, as the `games.status` column holds it (the SQL here writes and compares
    /// the same words: `'live'` when a game starts, `'finished'` when it ends).
    GameStatus, UnknownGameStatus, "game status" {
        /// Being played.
        Live = "live",
        /// Over, with its result.
        Finished = "finished",
    }
}

status_enum! {
    /// Where a room is, as the `rooms.status` column holds it.
    RoomStatus, UnknownRoomStatus, "room status" {
        /// Waiting for a partner.
        Open = "open",
        /// Its game started.
        Started = "started",
        /// Closed by its owner (or the server) before a game.
        Cancelled = "cancelled",
    }
}

/// A game row.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// Id.
    pub id: i64,
    /// Black's account.
    pub black_id: i64,
    /// White's account.
    pub white_id: i64,
    /// The terms, read from the row's JSON.
    pub terms: Terms,
    /// Live or finished.
    pub status: GameStatus,
    /// SGF result once finished.
    pub result: Option<String>,
    /// Seconds since the epoch.
    pub created_at: i64,
    /// Why the finished game counts for nobody (`no_show`, `too_few_moves`, `abandoned`).
    pub annulled: Option<String>,
    /// The ranks Black and White played the game at, as written when it started (a bot's is
    /// its rank on that board; a tournament game's, the ranks as its round was paired); `None`
    /// for games started before they were stored.
    pub ranks: Option<[String; 2]>,
}

/// A stored event.
#[derive(Clone, Debug)]
pub struct EventRow {
    /// 1-based position in the game's log.
    pub seq: i64,
    /// The event as JSON.
    pub event: String,
    /// When it was accepted, ms since the epoch.
    pub at_ms: i64,
    /// Both clocks after it, as JSON, for timed games.
    pub clocks: Option<String>,
}

/// A player whose promotion points a finished game moves.
#[derive(Clone, Copy, Debug)]
pub struct PromotionOutcome {
    /// The account.
    pub user_id: i64,
    /// Whether they won.
    pub won: bool,
}

fn room_from(r: &AnyRow) -> Result<RoomRow, StoreError> {
    let id: i64 = r.try_get("id")?;
    Ok(RoomRow {
        id,
        owner_id: r.try_get("owner_id")?,
        terms: from_json(r, "rooms", id, "terms")?,
        status: parsed(r, "rooms", id, "status")?,
        game_id: r.try_get("game_id")?,
    })
}

/// A game as lists show it: the row and both players' names (none for an account gone).
#[derive(Clone, Debug)]
pub struct ListedGame {
    /// The game.
    pub row: GameRow,
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
}

/// The games with their players' names: one query for a whole list.
const LISTED: &str = "SELECT g.id, g.black_id, g.white_id, g.terms, g.status, g.result, \
     g.created_at, g.annulled, g.annul_reason, g.black_rank, g.white_rank, b.username AS black_name, w.username AS white_name \
     FROM games g LEFT JOIN users b ON b.id = g.black_id LEFT JOIN users w ON w.id = g.white_id";

fn listed_from(r: &AnyRow) -> Result<ListedGame, StoreError> {
    Ok(ListedGame {
        row: game_from(r)?,
        black: r.try_get("black_name")?,
        white: r.try_get("white_name")?,
    })
}

/// A game row, its text read once into types: terms or a status that do not read are
/// [`StoreError::Malformed`] (a typed error for one game, a skipped row in a list), never a
/// panic and never a string handed up for the app to parse again.
fn game_from(r: &AnyRow) -> Result<GameRow, StoreError> {
    let id: i64 = r.try_get("id")?;
    let terms = from_json(r, "games", id, "terms")?;
    let status = parsed(r, "games", id, "status")?;
    Ok(GameRow {
        id,
        black_id: r.try_get("black_id")?,
        white_id: r.try_get("white_id")?,
        terms,
        status,
        result: r.try_get("result")?,
        created_at: r.try_get("created_at")?,
        // Moderation's flag, with fair play's reason (a moderator's annulment has its own).
        annulled: match r.try_get::<i64, _>("annulled")? {
            0 => None,
            _ => Some(
                r.try_get::<Option<String>, _>("annul_reason")?
                    .unwrap_or_else(|| "moderator".into()),
            ),
        },
        ranks: match (r.try_get("black_rank")?, r.try_get("white_rank")?) {
            (Some(b), Some(w)) => Some([b, w]),
            _ => None,
        },
    })
}

impl Store {
    /// Rooms `owner_id` has open.
    pub async fn open_rooms_of(&self, owner_id: i64) -> Result<i64, StoreError> {
        let r = sqlx::query("SELECT COUNT(*) FROM rooms WHERE owner_id = $1 AND status = 'open'")
            .bind(owner_id)
            .fetch_one(self.pool())
            .await?;
        Ok(r.try_get(0)?)
    }

    /// Opens a room.
    pub async fn create_room(&self, owner_id: i64, terms: &RoomTerms) -> Result<i64, StoreError> {
        let terms = serde_json::to_string(terms).map_err(|e| StoreError::Malformed {
            table: "rooms",
            id: 0,
            column: "terms",
            why: e.to_string(),
        })?;
        let row = sqlx::query(
            "INSERT INTO rooms (owner_id, terms, status, game_id, created_at) VALUES ($1, $2, 'open', NULL, $3) RETURNING id",
        )
        .bind(owner_id)
        .bind(terms)
        .bind(now())
        .fetch_all(self.pool())
        .await?
        .into_iter()
        .next()
        .ok_or(sqlx::Error::RowNotFound)?;
        Ok(row.try_get(0)?)
    }

    /// One room.
    pub async fn room(&self, id: i64) -> Result<Option<RoomRow>, StoreError> {
        let r = sqlx::query("SELECT id, owner_id, terms, status, game_id FROM rooms WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        r.as_ref().map(room_from).transpose()
    }

    /// Open rooms, newest first.
    pub async fn open_rooms(&self) -> Result<Vec<RoomRow>, StoreError> {
        let rows = sqlx::query("SELECT id, owner_id, terms, status, game_id FROM rooms WHERE status = 'open' ORDER BY id DESC LIMIT 200")
            .fetch_all(self.pool())
            .await?;
        read_list(&rows, room_from)
    }

    /// Every open room as (room id, owner id), for the check that owners are still here.
    pub async fn open_room_owners(&self) -> Result<Vec<(i64, i64)>, StoreError> {
        let rows = sqlx::query("SELECT id, owner_id FROM rooms WHERE status = 'open'")
            .fetch_all(self.pool())
            .await?;
        let pairs = rows
            .iter()
            .map(|r| Ok::<_, sqlx::Error>((r.try_get("id")?, r.try_get("owner_id")?)))
            .collect::<Result<_, _>>()?;
        Ok(pairs)
    }

    /// Closes a room without a game. False if it was not open.
    pub async fn cancel_room(&self, id: i64) -> Result<bool, StoreError> {
        let r =
            sqlx::query("UPDATE rooms SET status = 'cancelled' WHERE id = $1 AND status = 'open'")
                .bind(id)
                .execute(self.pool())
                .await?;
        Ok(r.rows_affected() == 1)
    }

    /// Starts a game in an open room (or without a room, `room_id` 0), in one transaction.
    /// Returns `None` when the room is no longer open (someone else joined first).
    pub async fn start_game(
        &self,
        room_id: i64,
        black_id: i64,
        white_id: i64,
        terms: &str,
    ) -> Result<Option<i64>, StoreError> {
        self.start_ranked_game(room_id, [black_id, white_id], terms, None)
            .await
    }

    /// [`Store::start_game`], with the ranks Black and White play it at (see
    /// [`GameRow::ranks`]).
    pub async fn start_ranked_game(
        &self,
        room_id: i64,
        [black_id, white_id]: [i64; 2],
        terms: &str,
        ranks: Option<[&str; 2]>,
    ) -> Result<Option<i64>, StoreError> {
        let mut tx = self.pool().begin().await?;
        if room_id != 0 {
            let claimed = sqlx::query(
                "UPDATE rooms SET status = 'started' WHERE id = $1 AND status = 'open'",
            )
            .bind(room_id)
            .execute(&mut *tx)
            .await?;
            if claimed.rows_affected() != 1 {
                return Ok(None);
            }
        }
        let row = sqlx::query(
            "INSERT INTO games (room_id, black_id, white_id, terms, status, result, created_at, finished_at, black_rank, white_rank) VALUES ($1, $2, $3, $4, 'live', NULL, $5, NULL, $6, $7) RETURNING id",
        )
        .bind(room_id)
        .bind(black_id)
        .bind(white_id)
        .bind(terms)
        .bind(now())
        .bind(ranks.map(|r| r[0].to_string()))
        .bind(ranks.map(|r| r[1].to_string()))
        .fetch_one(&mut *tx)
        .await?;
        let game_id: i64 = row.try_get(0)?;
        if room_id != 0 {
            sqlx::query("UPDATE rooms SET game_id = $1 WHERE id = $2")
                .bind(game_id)
                .bind(room_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(Some(game_id))
    }

    /// One game.
    pub async fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        let r = sqlx::query("SELECT id, black_id, white_id, terms, status, result, created_at, annulled, annul_reason, black_rank, white_rank FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        r.as_ref().map(game_from).transpose()
    }

    /// Games by status, newest first.
    pub async fn games_by_status(
        &self,
        status: GameStatus,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query("SELECT id, black_id, white_id, terms, status, result, created_at, annulled, annul_reason, black_rank, white_rank FROM games WHERE status = $1 ORDER BY id DESC LIMIT $2")
            .bind(status.as_str())
            .bind(limit)
            .fetch_all(self.pool())
            .await?;
        read_list(&rows, game_from)
    }

    /// The newest `limit` games in `status` with their players' names, in one query (the
    /// games list).
    pub async fn listed_games(
        &self,
        status: GameStatus,
        limit: i64,
    ) -> Result<Vec<ListedGame>, StoreError> {
        let sql = format!("{LISTED} WHERE g.status = $1 ORDER BY g.id DESC LIMIT $2");
        let rows = sqlx::query(&sql)
            .bind(status.as_str())
            .bind(limit)
            .fetch_all(self.pool())
            .await?;
        read_list(&rows, listed_from)
    }

    /// A player's newest `limit` games with both players' names, in one query.
    pub async fn listed_games_of(
        &self,
        user_id: i64,
        limit: i64,
    ) -> Result<Vec<ListedGame>, StoreError> {
        let sql = format!(
            "{LISTED} WHERE g.black_id = $1 OR g.white_id = $1 ORDER BY g.id DESC LIMIT $2"
        );
        let rows = sqlx::query(&sql)
            .bind(user_id)
            .bind(limit)
            .fetch_all(self.pool())
            .await?;
        read_list(&rows, listed_from)
    }

    /// A player's games, newest first.
    pub async fn games_of(&self, user_id: i64, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query("SELECT id, black_id, white_id, terms, status, result, created_at, annulled, annul_reason, black_rank, white_rank FROM games WHERE black_id = $1 OR white_id = $1 ORDER BY id DESC LIMIT $2")
            .bind(user_id)
            .bind(limit)
            .fetch_all(self.pool())
            .await?;
        read_list(&rows, game_from)
    }

    /// A player's finished games that count, all of them (for their record): annulled ones
    /// do not.
    pub async fn finished_games_of(&self, user_id: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query("SELECT id, black_id, white_id, terms, status, result, created_at, annulled, annul_reason, black_rank, white_rank FROM games WHERE (black_id = $1 OR white_id = $1) AND status = 'finished' AND annulled = 0")
            .bind(user_id)
            .fetch_all(self.pool())
            .await?;
        read_list(&rows, game_from)
    }

    /// A game's whole log, in order.
    pub async fn events(&self, game_id: i64) -> Result<Vec<EventRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, event, at_ms, clocks FROM game_events WHERE game_id = $1 ORDER BY seq",
        )
        .bind(game_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(EventRow {
                    seq: r.try_get("seq")?,
                    event: r.try_get("event")?,
                    at_ms: r.try_get("at_ms")?,
                    clocks: r.try_get("clocks")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_statuses_read_back_and_others_are_refused() {
        for s in [GameStatus::Live, GameStatus::Finished] {
            assert_eq!(s.as_str().parse::<GameStatus>(), Ok(s));
            assert_eq!(s.to_string(), s.as_str());
        }
        assert_eq!(GameStatus::Live.as_str(), "live");
        assert_eq!(GameStatus::Finished.as_str(), "finished");
        let e = "Live".parse::<GameStatus>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown game status \"Live\"; known: live, finished"
        );
    }

    /// A player (id 1) for the rows that need one.
    async fn with_a_player(store: &Store) {
        store
            .execute(
                "INSERT INTO users (username, password_hash, rank, points, guest, bot, created_at) \
                 VALUES ('a', NULL, '18k', 0, 0, NULL, 0)",
            )
            .await
            .unwrap();
    }

    const TERMS: &str = r#"{"size":9,"rules":"japanese","komi":"6.5","handicap":0,"take_back":false,"game_type":"ho_sun"}"#;

    /// What a malformed stored game does: its own read is a typed error, a list leaves it out
    /// (with a warning) and shows the rest.
    #[tokio::test]
    async fn a_malformed_game_row_fails_alone_and_lists_skip_it() {
        let (store, path) = crate::test_store("malformed").await;
        with_a_player(&store).await;
        let good = TERMS;
        for (terms, status) in [(good, "live"), ("{\"size\":", "live"), (good, "paused")] {
            sqlx::query(
                "INSERT INTO games (room_id, black_id, white_id, terms, status, created_at) \
                 VALUES (0, 1, 1, $1, $2, 0)",
            )
            .bind(terms)
            .bind(status)
            .execute(store.pool())
            .await
            .unwrap();
        }
        let read = store.game(1).await.unwrap().unwrap();
        assert_eq!(read.terms.size, 9);
        assert_eq!(read.status, GameStatus::Live);
        for (id, column) in [(2, "terms"), (3, "status")] {
            match store.game(id).await {
                Err(StoreError::Malformed {
                    table: "games",
                    id: i,
                    column: c,
                    ..
                }) => assert_eq!((i, c), (id, column)),
                other => panic!("game {id}: {other:?}"),
            }
        }
        let ids = |games: Vec<GameRow>| games.iter().map(|g| g.id).collect::<Vec<_>>();
        assert_eq!(ids(store.games_of(1, 10).await.unwrap()), [1]);
        let listed = store.listed_games(GameStatus::Live, 10).await.unwrap();
        assert_eq!(listed.iter().map(|g| g.row.id).collect::<Vec<_>>(), [1]);
        drop(store);
        let _ = std::fs::remove_file(&path);
    }

    /// A room's terms are read back typed; a row whose terms do not read fails alone, and the
    /// list of open rooms leaves it out.
    #[tokio::test]
    async fn a_room_s_terms_read_back_typed_and_a_malformed_one_fails_alone() {
        let (store, path) = crate::test_store("rooms").await;
        with_a_player(&store).await;
        let terms: RoomTerms =
            serde_json::from_str(r#"{"size":13,"rules":"korean","take_back":true}"#).unwrap();
        let id = store.create_room(1, &terms).await.unwrap();
        let read = store.room(id).await.unwrap().unwrap();
        assert_eq!((read.terms.size, read.terms.rules.as_str()), (13, "korean"));
        assert!(read.terms.take_back && !read.terms.estimate);
        sqlx::query(
            "INSERT INTO rooms (owner_id, terms, status, game_id, created_at) \
             VALUES (1, '{\"size\": 9', 'open', NULL, 0)",
        )
        .execute(store.pool())
        .await
        .unwrap();
        match store.room(id + 1).await {
            Err(StoreError::Malformed {
                table: "rooms",
                column: "terms",
                ..
            }) => {}
            other => panic!("{other:?}"),
        }
        let open = store.open_rooms().await.unwrap();
        assert_eq!(open.iter().map(|r| r.id).collect::<Vec<_>>(), [id]);
        drop(store);
        let _ = std::fs::remove_file(&path);
    }
}
