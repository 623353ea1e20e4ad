//! The estimator's view (`GET /api/games/{id}/estimate`) of a game's current position, for the
//! game page's estimate button and for anyone reviewing: ownership of every point, the dead
//! and unsure stones, and the estimated result with its range.
//!
//! Spectators may always ask. The players of a game in progress may ask only when its terms
//! allow it (`estimate`, a room setting; bot games allow it); once the game is over, they may.

use serde::Serialize;
use tengen_rules::coord::gtp as coord;
use tengen_rules::{Phase, Point, PointSet};

use crate::accounts::User;
use crate::engines::Engines;
use crate::error::ApiError;
use tengen_store::Store;

/// The estimate of game `id`'s position, as `user` (logged in or not) may see it.
pub async fn estimate(
    store: &Store,
    engines: &Engines,
    id: i64,
    user: Option<User>,
) -> Result<Estimate, ApiError> {
    let row = store.game(id).await?.ok_or(ApiError::NotFound)?;
    let (live, _, _) = tengen_live::registry::replay(store, &row).await?;
    let player = user.is_some_and(|u| u.id == row.black_id || u.id == row.white_id);
    let over = live.game.phase() == Phase::Finished || live.game.result().is_some();
    if player && !over && !live.terms.estimate {
        return Err(ApiError::Forbidden(
            "estimate_not_allowed",
            "this game's terms do not allow its players a score estimate while it is played".into(),
        ));
    }
    let game = live.game.clone();
    // The network's searches, up to a second: on the engine pool (busy: `engine_busy`).
    let engine = engines.engine.clone();
    let e = engines
        .pool
        .try_run(move || engine.count_estimate(&game))
        .await?;
    let verdict = verdict(&live.game, &e);
    let size = live.game.size();
    let names = |set: &PointSet| -> Vec<String> {
        set.iter().map(|p| coord::format_point(size, p)).collect()
    };
    // Rows from the top down, columns from A, as the board is drawn.
    // Rounded as `f32`, written as `f64`: the digits the answer has always had.
    let ownership: Vec<Vec<f64>> = (0..size)
        .map(|row| {
            (0..size)
                .map(|col| {
                    Point::new(size, col, row)
                        .map(|p| (e.owner(p) * 100.0).round() / 100.0)
                        .unwrap_or(0.0)
                        .into()
                })
                .collect()
        })
        .collect();
    Ok(Estimate {
        black_winrate: e
            .black_winrate
            .map(|w| ((w * 1000.0).round() / 1000.0).into()),
        dead: names(&e.dead),
        game: id,
        lead: e.lead.into(),
        lead_range: [e.lead_range.0.into(), e.lead_range.1.into()],
        ownership,
        result: e.result().to_string(),
        seki: names(&e.stones(tengen_ai::estimate::Status::Seki)),
        size,
        unsure: names(&e.unsure),
        verdict,
        winner_sure: verdict == "clear",
    })
}

/// A score estimate, as `GET /api/games/{id}/estimate` answers it (fields in alphabetical
/// order, and numbers as `f64`, as the `json!` object it replaces wrote them).
#[derive(Debug, Serialize)]
pub struct Estimate {
    /// Black's chance to win, where the network searched.
    pub black_winrate: Option<f64>,
    /// The stones counted dead, as GTP points.
    pub dead: Vec<String>,
    /// The game's id.
    pub game: i64,
    /// Black's lead in points (negative: White's).
    pub lead: f64,
    /// How far the lead may be off, low and high.
    pub lead_range: [f64; 2],
    /// Each point's owner from -1 (White) to 1 (Black), rows from the top, columns from A.
    pub ownership: Vec<Vec<f64>>,
    /// The result the estimate points to (`B+3.5`).
    pub result: String,
    /// The stones in seki.
    pub seki: Vec<String>,
    /// The board's size.
    pub size: u8,
    /// The chains whose fate is unsure.
    pub unsure: Vec<String>,
    /// `open`, `clear` or `uncertain`.
    pub verdict: &'static str,
    /// Whether the winner is sure (`verdict` is `clear`).
    pub winner_sure: bool,
}

/// How far the estimate may be trusted: `open` before the middle game (a range, not a verdict:
/// two stones on the board do not make a winner), `clear` when no unsure chain can change the
/// winner and, where the network searched, it gives the leader at least [`CLEAR_WINRATE`],
/// `uncertain` otherwise.
fn verdict(game: &tengen_rules::Game, e: &tengen_ai::estimate::Estimate) -> &'static str {
    if !crate::bots::manners::past_opening(game) {
        return "open";
    }
    let leader_winrate = e
        .black_winrate
        .map(|w| if e.lead > 0.0 { w } else { 1.0 - w });
    if e.winner_sure() && leader_winrate.is_none_or(|w| w >= CLEAR_WINRATE) {
        "clear"
    } else {
        "uncertain"
    }
}

/// The leader's chance of winning, by the network's search, that makes the winner clear.
const CLEAR_WINRATE: f32 = 0.9;

/// How long a game's actor waits for the pool's dead-stone proposal before it searches itself:
/// the proposal's two searches take up to a second on 13x13.
const PROPOSAL_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// The counter of the live registry (`Games::with_counter`): proposes the dead stones when a
/// game's players ask to count, with [`propose_dead`] on `engines`.
pub fn counter(engines: Engines) -> tengen_live::actor::Counter {
    std::sync::Arc::new(move |g: &tengen_rules::Game| propose_dead(&engines, g))
}

/// The dead stones the count proposes when a game's players ask to count: only what the
/// estimator is sure of is marked; what it doubts is shown to the players, who decide it
/// together (the count needs both to accept).
///
/// Two searches of the network, up to a second on 13x13, on the engine pool like every other
/// search (at its low priority, within its bound); the game's actor waits for them, having told
/// a multi-threaded runtime, so that the other tasks on its worker move elsewhere meanwhile.
/// Where the pool's queue is full, or the search has not come back within [`PROPOSAL_WAIT`]
/// (the workers busy with bots' long moves), the actor searches itself rather than keep the
/// players, and its game, waiting.
pub fn propose_dead(engines: &Engines, g: &tengen_rules::Game) -> tengen_core::game::Proposal {
    let search = || {
        let (engine, game) = (engines.engine.clone(), g.clone());
        engines
            .pool
            .try_run_blocking(move || engine.count_estimate(&game), PROPOSAL_WAIT)
            .unwrap_or_else(|| engines.engine.count_estimate(g))
    };
    let e = match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(search),
        _ => search(),
    };
    tengen_core::game::Proposal {
        dead: e.sure_dead().iter().collect(),
        unsure: e.unsure.iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use tengen_rules::{Color, Game, Handicap, Move, Preset};

    /// A finished 9x9 game with a dead White stone in Black's area (the estimator's sure).
    fn counted_game() -> Game {
        let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let at = |v: &str| Move::Play(coord::parse_point(9, v).unwrap());
        // Black walls off the left five columns, White the right three; White's stone at B8
        // sits alone in Black's area.
        for row in 1..=9 {
            g.play(Color::Black, at(&format!("E{row}"))).unwrap();
            g.play(Color::White, at(&format!("F{row}"))).unwrap();
        }
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, at("B8")).unwrap();
        g
    }

    /// The proposal is the pool's search; with the pool's one place taken, the actor searches
    /// itself and proposes the same stones.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_dead_stones_are_proposed_through_the_pool_or_by_the_actor_when_it_is_full() {
        let engines = Engines::on(Arc::new(crate::engines::EnginePool::new(1, 0)));
        let g = counted_game();
        let b8 = coord::parse_point(9, "B8").unwrap();
        let by_pool = tokio::task::block_in_place(|| propose_dead(&engines, &g));
        assert!(by_pool.dead.contains(&b8), "{:?}", by_pool);
        // A job holds the pool's only place until it is let go.
        let (hold, held) = std::sync::mpsc::channel::<()>();
        let pool = engines.pool.clone();
        let busy = tokio::spawn(async move { pool.run(move || held.recv()).await });
        let wait = std::time::Duration::from_secs(1);
        while engines.pool.try_run_blocking(|| (), wait).is_some() {
            tokio::task::yield_now().await;
        }
        let by_actor = tokio::task::block_in_place(|| propose_dead(&engines, &g));
        assert_eq!(by_actor.dead, by_pool.dead);
        assert_eq!(by_actor.unsure, by_pool.unsure);
        hold.send(()).unwrap();
        busy.await.unwrap().unwrap().unwrap();
    }
}
