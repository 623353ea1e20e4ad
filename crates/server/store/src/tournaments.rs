//! Tournaments: the `tournaments`, `tournament_players` and `tournament_pairings` tables.
//!
//! A round is paired in one transaction: the tournament's round number moves from the round
//! before only if no one moved it first (so two nodes, or a node restarted, never pair a round
//! twice), and the round's pairings and its games are written with it. The games are then
//! ordinary live games: a node that dies before handing them to its registry leaves them
//! `live` in `games`, where every restart and takeover finds them.

use sqlx::Row;

use super::games::now;
use super::{parsed, read_list, Store, StoreError};

status_enum! {
    /// Where a tournament is, as the `tournaments.status` column holds it.
    TournamentStatus, UnknownTournamentStatus, "tournament status" {
        /// Registering.
        Open = "open",
        /// Its rounds are played.
        Running = "running",
        /// Over.
        Finished = "finished",
    }
}

/// A tournament's row.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Its id.
    pub id: i64,
    /// Who organises it.
    pub owner_id: i64,
    /// Its name.
    pub name: String,
    /// Its terms, as JSON (the app's `EventTerms`).
    pub terms: String,
    /// Open (registering), running or finished.
    pub status: TournamentStatus,
    /// The rounds paired so far (0 before the first).
    pub round: i64,
    /// When the first round starts (seconds since the epoch), if set.
    pub starts_at: Option<i64>,
}

/// A registered player.
#[derive(Clone, Debug, PartialEq)]
pub struct EntrantRow {
    /// The player.
    pub user_id: i64,
    /// Their name.
    pub username: String,
    /// Their rank when they registered.
    pub rank: String,
    /// The round after which they withdrew (absent from then on), if they did.
    pub withdrawn_after: Option<i64>,
}

/// One board of a round: a game, or a bye (`black_id` none, no game).
#[derive(Clone, Debug, PartialEq)]
pub struct PairingRow {
    /// The round, from 1.
    pub round: i64,
    /// The board, from 1.
    pub board: i64,
    /// White (or the player with the bye).
    pub white_id: i64,
    /// Black; none for a bye.
    pub black_id: Option<i64>,
    /// Handicap stones.
    pub handicap: i64,
    /// The game, for a board with two players.
    pub game_id: Option<i64>,
    /// The game's result (`B+R`, `W+3.5`, `0`, `Void`) once finished; the organiser's
    /// correction when there is one.
    pub result: Option<String>,
    /// The game's own result, as the board decided it (none while it is played).
    pub board_result: Option<String>,
    /// Whether the board's game is still being played.
    pub playing: bool,
    /// The organiser's correction, if any: their result, the board's when they made it, and
    /// who they are.
    pub correction: Option<Correction>,
}

/// An organiser's correction of a board's result, kept beside the board's own.
#[derive(Clone, Debug, PartialEq)]
pub struct Correction {
    /// The result the organiser set.
    pub result: String,
    /// The board's result when they set it (none for a game never played).
    pub over: Option<String>,
    /// The organiser (none for corrections from before it was kept).
    pub by: Option<i64>,
}

/// A board to write when pairing a round: the game's terms as JSON for a game.
#[derive(Clone, Debug)]
pub struct NewBoard {
    /// White (or the player with the bye).
    pub white_id: i64,
    /// Black; none for a bye.
    pub black_id: Option<i64>,
    /// Handicap stones.
    pub handicap: i64,
    /// The game's terms (JSON), for a board with two players.
    pub terms: String,
}

/// A board of a round brought in from a results file: no game, the file's result.
#[derive(Clone, Debug)]
pub struct ImportedBoard {
    /// White (or the player with the bye).
    pub white_id: i64,
    /// Black; none for a bye.
    pub black_id: Option<i64>,
    /// Handicap stones.
    pub handicap: i64,
    /// `B+`, `W+`, `B+F`/`W+F` (by default), `0` (jigo), `Void`; none when unknown.
    pub result: Option<String>,
}

/// Moves a running (or open) tournament's round number from `round - 1` to `round` inside
/// `tx`: false when another node, or an earlier run, moved it first.
async fn move_round(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    tournament_id: i64,
    round: i64,
) -> Result<bool, StoreError> {
    let moved = sqlx::query(
        "UPDATE tournaments SET round = $2, status = 'running' WHERE id = $1 AND round = $3 AND status <> 'finished'",
    )
    .bind(tournament_id)
    .bind(round)
    .bind(round - 1)
    .execute(&mut **tx)
    .await?;
    Ok(moved.rows_affected() == 1)
}

const PAIRING_COLUMNS: &str = "p.round, p.board, p.white_id, p.black_id, p.handicap, p.game_id, \
     COALESCE(p.corrected, g.result) AS result, g.result AS game_result, g.status AS game_status, \
     p.corrected, p.board_result, p.corrected_by";

impl Store {
    /// A new tournament, open for registration; its id.
    pub async fn insert_tournament(
        &self,
        owner_id: i64,
        name: &str,
        terms: &str,
        starts_at: Option<i64>,
    ) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "INSERT INTO tournaments (owner_id, name, terms, status, round, starts_at, created_at) VALUES ($1, $2, $3, 'open', 0, $4, $5) RETURNING id",
        )
        .bind(owner_id)
        .bind(name)
        .bind(terms)
        .bind(starts_at)
        .bind(now())
        .fetch_all(self.pool())
        .await?
        .into_iter()
        .next()
        .ok_or(sqlx::Error::RowNotFound)?;
        Ok(row.try_get(0)?)
    }

    /// Tournament `id`.
    pub async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, owner_id, name, terms, status, round, starts_at FROM tournaments WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(tournament_from).transpose()
    }

    /// Tournaments, newest first: `status` only when given.
    pub async fn tournaments(
        &self,
        status: Option<TournamentStatus>,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, owner_id, name, terms, status, round, starts_at FROM tournaments WHERE ($1 IS NULL OR status = $1) ORDER BY id DESC LIMIT $2",
        )
        .bind(status.map(TournamentStatus::as_str))
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        read_list(&rows, tournament_from)
    }

    /// Registers `user_id` (with the rank they have now); false if already registered.
    pub async fn register_entrant(
        &self,
        tournament_id: i64,
        user_id: i64,
        rank: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO tournament_players (tournament_id, user_id, rank, registered_at, withdrawn_after) VALUES ($1, $2, $3, $4, NULL) ON CONFLICT DO NOTHING",
        )
        .bind(tournament_id)
        .bind(user_id)
        .bind(rank)
        .bind(now())
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Removes a registration before the start; false if there was none.
    pub async fn unregister_entrant(
        &self,
        tournament_id: i64,
        user_id: i64,
    ) -> Result<bool, StoreError> {
        let done =
            sqlx::query("DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2")
                .bind(tournament_id)
                .bind(user_id)
                .execute(self.pool())
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Marks a player withdrawn after round `round`; false if not registered or already out.
    pub async fn withdraw_entrant(
        &self,
        tournament_id: i64,
        user_id: i64,
        round: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournament_players SET withdrawn_after = $3 WHERE tournament_id = $1 AND user_id = $2 AND withdrawn_after IS NULL",
        )
        .bind(tournament_id)
        .bind(user_id)
        .bind(round)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The registered players, in the order they registered.
    pub async fn entrants(&self, tournament_id: i64) -> Result<Vec<EntrantRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT t.user_id, u.username, t.rank, t.withdrawn_after FROM tournament_players t JOIN users u ON u.id = t.user_id WHERE t.tournament_id = $1 ORDER BY t.registered_at, t.user_id",
        )
        .bind(tournament_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(EntrantRow {
                    user_id: r.try_get("user_id")?,
                    username: r.try_get("username")?,
                    rank: r.try_get("rank")?,
                    withdrawn_after: r.try_get("withdrawn_after")?,
                })
            })
            .collect()
    }

    /// Every board of every round so far, by round and board, with the games' results.
    pub async fn pairings(&self, tournament_id: i64) -> Result<Vec<PairingRow>, StoreError> {
        let sql = format!(
            "SELECT {PAIRING_COLUMNS} FROM tournament_pairings p LEFT JOIN games g ON g.id = p.game_id WHERE p.tournament_id = $1 ORDER BY p.round, p.board"
        );
        let rows = sqlx::query(&sql)
            .bind(tournament_id)
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|r| {
                Ok(PairingRow {
                    round: r.try_get("round")?,
                    board: r.try_get("board")?,
                    white_id: r.try_get("white_id")?,
                    black_id: r.try_get("black_id")?,
                    handicap: r.try_get("handicap")?,
                    game_id: r.try_get("game_id")?,
                    result: r.try_get("result")?,
                    board_result: r.try_get("game_result")?,
                    playing: r.try_get::<Option<String>, _>("game_status")?.as_deref()
                        == Some("live"),
                    correction: r
                        .try_get::<Option<String>, _>("corrected")?
                        .map(|result| -> Result<Correction, sqlx::Error> {
                            Ok(Correction {
                                result,
                                over: r.try_get("board_result")?,
                                by: r.try_get("corrected_by")?,
                            })
                        })
                        .transpose()?,
                })
            })
            .collect()
    }

    /// Pairs round `round` (from 1) of a running tournament whose rounds so far are
    /// `round - 1`, in one transaction: the round number, the boards and their games. `None`
    /// when the round was already paired (by another node, or before a restart): then nothing
    /// is written. Otherwise the ids of the new games, board by board (none for a bye).
    pub async fn pair_round(
        &self,
        tournament_id: i64,
        round: i64,
        boards: &[NewBoard],
    ) -> Result<Option<Vec<Option<i64>>>, StoreError> {
        let mut tx = self.pool().begin().await?;
        if !move_round(&mut tx, tournament_id, round).await? {
            return Ok(None);
        }
        let mut ids = Vec::with_capacity(boards.len());
        for (i, b) in boards.iter().enumerate() {
            let game_id = match b.black_id {
                Some(black) => Some(insert_game(&mut tx, black, b.white_id, &b.terms).await?),
                None => None,
            };
            sqlx::query(
                "INSERT INTO tournament_pairings (tournament_id, round, board, white_id, black_id, handicap, game_id, corrected) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)",
            )
            .bind(tournament_id)
            .bind(round)
            .bind(i as i64 + 1)
            .bind(b.white_id)
            .bind(b.black_id)
            .bind(b.handicap)
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
            ids.push(game_id);
        }
        tx.commit().await?;
        Ok(Some(ids))
    }

    /// Writes round `round` (from 1) of an event brought in from a results file, in one
    /// transaction as [`Store::pair_round`] does, its boards without games: each result (none
    /// when the file does not know it) kept as the organiser's, as a correction of a board
    /// never played. `false` when the round was already there.
    pub async fn import_round(
        &self,
        tournament_id: i64,
        round: i64,
        boards: &[ImportedBoard],
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        if !move_round(&mut tx, tournament_id, round).await? {
            return Ok(false);
        }
        for (i, b) in boards.iter().enumerate() {
            sqlx::query(
                "INSERT INTO tournament_pairings (tournament_id, round, board, white_id, black_id, handicap, game_id, corrected) VALUES ($1, $2, $3, $4, $5, $6, NULL, $7)",
            )
            .bind(tournament_id)
            .bind(round)
            .bind(i as i64 + 1)
            .bind(b.white_id)
            .bind(b.black_id)
            .bind(b.handicap)
            .bind(b.result.as_deref())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Opens a ladder for challenges; false if it was not open.
    pub async fn open_ladder(&self, tournament_id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournaments SET status = 'running' WHERE id = $1 AND status = 'open'",
        )
        .bind(tournament_id)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Ends a running tournament after its last round; false if it was not running.
    pub async fn finish_tournament(&self, tournament_id: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE tournaments SET status = 'finished' WHERE id = $1 AND status = 'running'",
        )
        .bind(tournament_id)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The organiser's correction of a board's result (the board's own kept beside it), with
    /// the reason logged; false if there is no such board with two players whose game is over
    /// (or was never made).
    pub async fn correct_result(
        &self,
        tournament_id: i64,
        round: i64,
        board: i64,
        result: &str,
        by: i64,
        reason: &str,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        // Never over a game still being played: its own end decides it (a game ends once).
        let done = sqlx::query(
            "UPDATE tournament_pairings SET corrected = $4, corrected_by = $5, board_result = (SELECT g.result FROM games g WHERE g.id = tournament_pairings.game_id) WHERE tournament_id = $1 AND round = $2 AND board = $3 AND black_id IS NOT NULL AND (game_id IS NULL OR game_id IN (SELECT id FROM games WHERE status <> 'live'))",
        )
        .bind(tournament_id)
        .bind(round)
        .bind(board)
        .bind(result)
        .bind(by)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO tournament_log (tournament_id, at, by_id, action, detail) VALUES ($1, $2, $3, 'correct_result', $4)",
        )
        .bind(tournament_id)
        .bind(now())
        .bind(by)
        .bind(format!("round {round} board {board}: {result} ({reason})"))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// The organiser's log: (when, who, action, detail), oldest first.
    pub async fn tournament_log(
        &self,
        tournament_id: i64,
    ) -> Result<Vec<(i64, i64, String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT at, by_id, action, detail FROM tournament_log WHERE tournament_id = $1 ORDER BY id",
        )
        .bind(tournament_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
            .collect()
    }
}

/// Inserts a live game without a room, inside the round's transaction, with the ranks its
/// players hold as the round is paired ([`crate::games::GameRow::ranks`]).
async fn insert_game(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    black_id: i64,
    white_id: i64,
    terms: &str,
) -> Result<i64, StoreError> {
    let row = sqlx::query(
        "INSERT INTO games (room_id, black_id, white_id, terms, status, result, created_at, finished_at, black_rank, white_rank) VALUES (0, $1, $2, $3, 'live', NULL, $4, NULL, (SELECT rank FROM users WHERE id = $1), (SELECT rank FROM users WHERE id = $2)) RETURNING id",
    )
    .bind(black_id)
    .bind(white_id)
    .bind(terms)
    .bind(now())
    .fetch_one(&mut **tx)
    .await?;
    Ok(row.try_get(0)?)
}

fn tournament_from(r: &sqlx::any::AnyRow) -> Result<TournamentRow, StoreError> {
    let id: i64 = r.try_get("id")?;
    let status = parsed(r, "tournaments", id, "status")?;
    Ok(TournamentRow {
        id,
        owner_id: r.try_get("owner_id")?,
        name: r.try_get("name")?,
        terms: r.try_get("terms")?,
        status,
        round: r.try_get("round")?,
        starts_at: r.try_get("starts_at")?,
    })
}
