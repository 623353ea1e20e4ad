//! What a player of games over days needs beside the board: the list of games waiting for
//! their move, across all of them, and a vacation that stops their correspondence clocks.

use serde::Serialize;

use crate::accounts::User;
use crate::error::ApiError;
use crate::notices::Notices;
use tengen_core::domain::clock::DAY;
use tengen_core::game::Action;
use tengen_core::view::{PhaseName, Side, Sides, Snapshot};
use tengen_live::registry::Games;
use tengen_store::games::{now_ms, GameStatus};
use tengen_store::Store;

/// Longest vacation one request may take, days.
pub const MAX_VACATION_DAYS: u64 = 30;

/// How many live games the lists look at, at most.
const MAX_LIVE: i64 = 500;

/// Live correspondence games one player may have at once: each is an actor in the server's
/// memory for weeks, and a player with hundreds cannot give each its attention.
pub const MAX_CORRESPONDENCE_GAMES: usize = 100;

/// Refuses a new correspondence game for a player who has [`MAX_CORRESPONDENCE_GAMES`] live.
pub async fn check_cap(store: &Store, user: &User) -> Result<(), ApiError> {
    if user.bot {
        return Ok(());
    }
    let mut live = 0;
    for row in store.games_of(user.id, MAX_LIVE).await? {
        let correspondence = row.terms.time.is_correspondence();
        if row.status == GameStatus::Live && correspondence {
            live += 1;
        }
    }
    if live >= MAX_CORRESPONDENCE_GAMES {
        return Err(ApiError::Limited(
            "too_many_games",
            format!(
                "{} plays {MAX_CORRESPONDENCE_GAMES} correspondence games already: finish one first",
                user.username
            ),
        ));
    }
    Ok(())
}

/// `GET /api/me/turns`: the player's live games where it is their move (or the dead stones
/// wait for their answer), the most urgent first: each with the opponent, the board size, the
/// phase and the time left on the player's clock (`null` untimed).
pub async fn turns(store: &Store, games: &Games, user: &User) -> Result<Turns, ApiError> {
    let mut out = Vec::new();
    for row in store.games_of(user.id, MAX_LIVE).await? {
        if row.status != GameStatus::Live {
            continue;
        }
        let Some(handle) = games.get(row.id).await? else {
            continue;
        };
        let Some(snap) = handle.snapshot().await else {
            continue;
        };
        let me = if row.black_id == user.id {
            Side::Black
        } else {
            Side::White
        };
        let pick = |s: &Sides<bool>| if me == Side::Black { s.black } else { s.white };
        let waiting = match snap.phase {
            PhaseName::Play => snap.to_move == me,
            PhaseName::Scoring => !pick(&snap.accepted),
            PhaseName::Finished => false,
        };
        if !waiting {
            continue;
        }
        let opponent = if me == Side::Black {
            &snap.white
        } else {
            &snap.black
        };
        out.push(Turn {
            color: me.as_str(),
            correspondence: snap.clocks.as_ref().map(|c| c.correspondence),
            game: row.id,
            move_number: snap.moves.len(),
            opponent: Some(opponent.username.clone()),
            phase: Some(snap.phase.as_str().to_string()),
            size: Some(u64::from(snap.terms.size)),
            time_left_ms: time_left(&snap, me),
        });
    }
    // Least time left first; untimed games last.
    out.sort_by_key(|g| g.time_left_ms.unwrap_or(u64::MAX));
    Ok(Turns { games: out })
}

// The answers' fields are in alphabetical order, as the `json!` objects they replace wrote
// them: the wire stays byte for byte the same.

/// The games where it is a player's move, the most urgent first.
#[derive(Debug, Serialize)]
pub struct Turns {
    /// The games.
    pub games: Vec<Turn>,
}

/// A game where it is the player's move (or the dead stones wait for their answer).
#[derive(Debug, Serialize)]
pub struct Turn {
    /// The player's colour: `black` or `white`.
    pub color: &'static str,
    /// Whether the game has a correspondence clock.
    pub correspondence: Option<bool>,
    /// The game's id.
    pub game: i64,
    /// How many moves were played.
    pub move_number: usize,
    /// The opponent's name.
    pub opponent: Option<String>,
    /// `play` or `scoring`.
    pub phase: Option<String>,
    /// The board's size.
    pub size: Option<u64>,
    /// Time left on the player's clock until the flag, ms (`null` untimed).
    pub time_left_ms: Option<u64>,
}

/// A vacation as set: until when (`null` once ended) and the games whose clock it stopped.
#[derive(Debug, Serialize)]
pub struct Vacation {
    /// The games whose clock stops.
    pub games: Vec<i64>,
    /// When the vacation ends, ms since 1970; `null` when it was ended.
    pub until: Option<i64>,
}

/// Time left on `side`'s clock in a snapshot, ms: until the flag, from the clock's fields.
fn time_left(snap: &Snapshot, side: Side) -> Option<u64> {
    let clocks = snap.clocks.as_ref()?;
    let clock = if side == Side::Black {
        &clocks.black
    } else {
        &clocks.white
    };
    snap.terms.time.until_flag(clock)
}

/// `POST /api/me/vacation` `{"days": N}`: stops the player's clock in each of their live
/// correspondence games for N days (1 to 30); `DELETE` ends it early. Live games are not
/// touched (their clocks never stop).
pub async fn start_vacation(
    store: &Store,
    games: &Games,
    user: &User,
    days: u64,
) -> Result<Vacation, ApiError> {
    if !(1..=MAX_VACATION_DAYS).contains(&days) {
        return Err(ApiError::Rejected(
            "bad_vacation",
            format!("a vacation lasts 1 to {MAX_VACATION_DAYS} days"),
        ));
    }
    let until = now_ms() + (days * DAY) as i64;
    set_vacation(store, games, user, until).await
}

/// `DELETE /api/me/vacation`.
pub async fn end_vacation(store: &Store, games: &Games, user: &User) -> Result<Vacation, ApiError> {
    set_vacation(store, games, user, 0).await
}

async fn set_vacation(
    store: &Store,
    games: &Games,
    user: &User,
    until: i64,
) -> Result<Vacation, ApiError> {
    let mut stopped = Vec::new();
    for row in store.games_of(user.id, MAX_LIVE).await? {
        let correspondence = row.terms.time.is_correspondence();
        if row.status != GameStatus::Live || !correspondence {
            continue;
        }
        let Some(handle) = games.get(row.id).await? else {
            continue;
        };
        let done = handle
            .act(
                user.id,
                &user.username,
                Action::Vacation { until_ms: until },
                0,
            )
            .await;
        match done {
            Ok(_) => stopped.push(row.id),
            // A game that ended meanwhile has no clock to stop.
            Err(e) if e.code() == "game_over" => {}
            Err(e) => {
                return Err(ApiError::Unavailable(
                    "game_unavailable",
                    format!(
                        "game {} did not take the vacation ({}); try again",
                        row.id,
                        e.code()
                    ),
                ))
            }
        }
    }
    Ok(Vacation {
        games: stopped,
        until: (until > 0).then_some(until),
    })
}

/// The opponent of `mover` in `game` when it is a live correspondence game (the one to tell
/// that it is their move after `mover` plays), else `None`.
pub async fn opponent_to_tell(
    store: &Store,
    game: i64,
    mover: i64,
) -> Result<Option<i64>, ApiError> {
    let Some(row) = store.game(game).await? else {
        return Ok(None);
    };
    let correspondence = row.terms.time.is_correspondence();
    if !correspondence || row.status != GameStatus::Live {
        return Ok(None);
    }
    Ok(if row.black_id == mover {
        Some(row.white_id)
    } else if row.white_id == mover {
        Some(row.black_id)
    } else {
        None
    })
}

/// Tells every connection of `opponent`'s (on every node) that it is their move in `game`,
/// which `mover` just played: `{"type": "your_turn", "game", "opponent"}`.
pub async fn tell_turn(notices: &Notices, game: i64, opponent: i64, mover: &str) {
    notices.say(opponent, &YourTurn::new(game, mover)).await;
}

/// A correspondence player's notice that it is their move: `{"type": "your_turn", "game",
/// "opponent"}`.
#[derive(Serialize)]
pub struct YourTurn {
    /// The game's id.
    pub game: i64,
    /// Who just played.
    pub opponent: String,
}

impl YourTurn {
    fn new(game: i64, mover: &str) -> YourTurn {
        YourTurn {
            game,
            opponent: mover.to_string(),
        }
    }
}

impl crate::notices::Notice for YourTurn {
    const KIND: &'static str = "your_turn";
}

/// What tells a correspondence player that it is their move when the mover is not on a socket
/// of this server (a built-in bot's driver): the store, to find the opponent, and the way to
/// the opponent's connections.
#[derive(Clone)]
pub struct TurnNotices {
    store: Store,
    notices: Notices,
}

impl TurnNotices {
    /// Notices that look games up in `store` and go through `notices`.
    pub fn new(store: Store, notices: Notices) -> TurnNotices {
        TurnNotices { store, notices }
    }

    /// Whom `mover`'s moves in `game` are told to: the opponent in a live correspondence game.
    pub async fn opponent(&self, game: i64, mover: i64) -> Option<i64> {
        opponent_to_tell(&self.store, game, mover)
            .await
            .ok()
            .flatten()
    }

    /// Tells `opponent` on every connection that `mover` played in `game` and it is their move.
    pub fn tell(&self, game: i64, opponent: i64, mover: &str) {
        let turn = YourTurn::new(game, mover);
        let notices = self.notices.clone();
        // The driver goes on playing while the notice is published.
        tokio::spawn(async move { notices.say(opponent, &turn).await });
    }
}
