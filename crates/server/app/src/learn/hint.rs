//! Hints in the learner's first game of regular Go (lesson 11): a 9x9 game against the
//! weakest bot, where the learner may ask the engine for a good move a few times a game. The
//! move is the network's best after a short search (the Monte Carlo engine's where the net is
//! not loaded), from a seed drawn from the position, so the same position gets the same hint.
//!
//! The hints a game has used are counted by the node that answers (a hint is a learning aid in
//! a game no rating depends on: a count lost with a restart or on another node of a cluster
//! only gives a learner a few more).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde::Serialize;
use tengen_ai::search::{self, Budget, Style};
use tengen_rules::coord::gtp;
use tengen_rules::{Color, Game, Move, Phase};
use tengen_store::Store;

use crate::accounts::User;
use crate::engines::Engines;
use crate::error::ApiError;

/// Hints a learner may ask for in one game.
pub const MOST_HINTS: u8 = 3;
/// The bot whose games have hints: the weakest, the one the lessons send the learner to.
pub const HINT_BOT: &str = "tengen-bot";
/// The board the first game is played on.
const HINT_SIZE: u8 = 9;
/// The net's visits for a hint: enough to find the move that matters on 9x9.
const HINT_VISITS: u32 = 64;
/// Games whose counts are kept before the oldest are forgotten.
const MOST_GAMES: usize = 10_000;

/// A hint, and how many the learner has left in this game (fields in alphabetical order).
#[derive(Debug, Serialize, PartialEq)]
pub struct Hint {
    /// Hints left after this one.
    pub left: u8,
    /// The move (GTP: `E5`, or `pass`).
    #[serde(rename = "move")]
    pub mv: String,
}

/// Hints used, by game and learner.
fn used() -> &'static Mutex<HashMap<(i64, i64), u8>> {
    static USED: OnceLock<Mutex<HashMap<(i64, i64), u8>>> = OnceLock::new();
    USED.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A hint for `user` in game `id`: a player of a 9x9 game against [`HINT_BOT`], in play, with
/// the move theirs and a hint left.
pub async fn hint(
    store: &Store,
    engines: &Engines,
    id: i64,
    user: &User,
) -> Result<Hint, ApiError> {
    let row = store.game(id).await?.ok_or(ApiError::NotFound)?;
    let (live, players, _) = tengen_live::registry::replay(store, &row).await?;
    let me = [Color::Black, Color::White]
        .into_iter()
        .find(|c| players[c.index()].id == user.id)
        .ok_or_else(|| {
            ApiError::Forbidden("not_a_player", "only the game's players get hints".into())
        })?;
    let bot = &players[me.opponent().index()];
    if !bot.bot || bot.username != HINT_BOT || live.game.size() != HINT_SIZE {
        return Err(ApiError::Forbidden(
            "hint_not_allowed",
            format!("hints are for a {HINT_SIZE}x{HINT_SIZE} game against {HINT_BOT}"),
        ));
    }
    if live.game.phase() != Phase::Play || live.game.result().is_some() {
        return Err(ApiError::Conflict("game_over", "the game is over".into()));
    }
    if live.game.to_move() != me {
        return Err(ApiError::Conflict(
            "not_your_turn",
            "a hint is for your move".into(),
        ));
    }
    let key = (id, user.id);
    // Taken before the search and given back if it fails: two requests at once cannot both
    // have the last hint.
    let left = take(key)
        .ok_or_else(|| ApiError::Conflict("no_hints_left", format!("{MOST_HINTS} hints a game")))?;
    let game = live.game.clone();
    let engine = engines.engine.clone();
    let mv = match engines
        .pool
        .try_run(move || best_move(&engine, &game, me))
        .await
    {
        Ok(mv) => mv,
        Err(e) => {
            give_back(key);
            return Err(e);
        }
    };
    Ok(Hint {
        left,
        mv: gtp::format_move(HINT_SIZE, mv),
    })
}

/// Counts a hint for `key`: the hints left after it, or `None` when none was left.
fn take(key: (i64, i64)) -> Option<u8> {
    let mut counts = used().lock().unwrap_or_else(|e| e.into_inner());
    if counts.len() >= MOST_GAMES && !counts.contains_key(&key) {
        counts.clear();
    }
    let used = counts.entry(key).or_default();
    if *used >= MOST_HINTS {
        return None;
    }
    *used += 1;
    Some(MOST_HINTS - *used)
}

/// Uncounts a hint the engine could not give.
fn give_back(key: (i64, i64)) {
    let mut counts = used().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = counts.get_mut(&key) {
        *n = n.saturating_sub(1);
    }
}

/// The engine's best move for `color`: the net's most visited after a short search, else the
/// Monte Carlo engine's. Deterministic: the seed is the position's.
pub fn best_move(engine: &tengen_ai::Engine, game: &Game, color: Color) -> Move {
    let seed = game.board().hash() ^ game.ply_count() as u64;
    if let Some((eval, rules)) = engine.plays(game) {
        let mut puct = tengen_ai::nn::search::Puct::new(game, color, rules, seed);
        if puct.run(eval, game, Some(HINT_VISITS), None).is_ok() {
            if let Some(best) = puct.analysis().moves.first() {
                return best.mv;
            }
        }
    }
    let budget = Budget {
        playouts: Some(search::level_playouts(5)),
        time: None,
        threads: 1,
        seed,
    };
    let (_, a) = search::genmove(game, color, &budget, &Style::default());
    a.moves.first().map_or(Move::Pass, |m| m.mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::{Handicap, Preset};

    /// Three hints a game and learner, a failed one given back.
    #[test]
    fn three_hints_are_counted_and_a_failed_one_is_given_back() {
        let key = (-43, -1);
        assert_eq!(
            [take(key), take(key), take(key), take(key)],
            [Some(2), Some(1), Some(0), None]
        );
        give_back(key);
        assert_eq!(take(key), Some(0));
        assert_eq!(
            take((-43, -2)),
            Some(2),
            "another learner's count is their own"
        );
    }

    /// A hint is a legal move, the same each time the same position asks for one.
    #[test]
    fn a_hint_is_a_legal_move_and_the_same_for_the_same_position() {
        let mut game = Game::new(9, Preset::Japanese.rules(9), Handicap::None).expect("a 9x9 game");
        for (c, v) in [(Color::Black, "E5"), (Color::White, "E6")] {
            let m = gtp::parse_move(9, v).expect("a vertex");
            game.play(c, m).expect("legal");
        }
        let engine = tengen_ai::Engine::shared();
        let hint = best_move(&engine, &game, Color::Black);
        assert_eq!(hint, best_move(&engine, &game, Color::Black));
        let Move::Play(p) = hint else {
            panic!("a move, not a pass, this early")
        };
        assert!(game.clone().play(Color::Black, Move::Play(p)).is_ok());
    }
}
