//! The engine's analysis of a review's main line, in the background: at each position Black's
//! win rate and score lead, the best moves with their variations, and who owns each point,
//! with progress as it goes.
//!
//! The engine is the network's PUCT search (`tengen_ai::nn`, the built-in KataGo g170 net) at
//! a fixed number of visits per position, as KataGo's analysis engine and the review tools
//! built on it (KaTrain, Sabaki, OGS's AI review) show a game: win rate, score lead, candidate
//! moves with their principal variations, and the ownership map. Where the net does not play
//! the rules or the board size (First Capture, boards under 7 or over 19 lines), the Monte
//! Carlo engine analyses instead, as `tengen gtp --engine` falls back.
//!
//! The search is the whole-game analyser's ([`tengen_ai::analysis`], as `tengen analyze` runs
//! it): each position's leaves evaluated in batches, every position through the process's one
//! evaluator and its cache. Each position's search is a job on the server's engine pool
//! (`crate::engines`: a bounded queue, worker threads at low scheduling priority), as many
//! positions of a review at once as the pool has workers, so that live games, on the async
//! runtime's threads, keep the processor first, and many reviews share the pool's few workers
//! rather than each taking a thread. Outside a runtime
//! (a tool, a test) the positions are searched on a thread of their own at the lowest
//! priority. Searches are single-threaded with a fixed seed: the same review gives the same
//! figures.
//!
//! A position where the game is over (two passes) is not searched: it is `null` and the graph
//! skips it. The position after the first of the final passes is searched like any other: the
//! net knows that a pass in answer ends the game and values it by the count to come, so the
//! graph does not fall to 50% at the end of a game.

use std::sync::{Arc, Mutex};

use serde::Serialize;
use tengen_ai::analysis::{Engine, Position, Settings};

use crate::engines::Engines;
use tengen_rules::coord::gtp;
use tengen_rules::{Color, Game, Point};

/// Visits (the net) or playouts (the Monte Carlo engine) per position by default.
pub const DEFAULT_VISITS: u32 = 100;
/// The most visits per position a request may ask for.
pub const MAX_VISITS: u32 = 5_000;
/// The longest main line analysed, in positions (the root's included): each is a search, and
/// a real game has a few hundred.
pub const MAX_POSITIONS: usize = 1_000;
/// Candidate moves kept per position.
pub const CANDIDATES: usize = 6;
/// Moves kept of each candidate's principal variation.
pub const PV_MOVES: usize = 12;
/// The searches' seed.
const SEED: u64 = 0x7e5e_1e57;
/// Ownership levels each side of zero in the compact grid ([`ownership_text`]).
const LEVELS: f32 = 10.0;

/// What an analysis has found so far.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Positions to analyse.
    pub total: usize,
    /// Positions done.
    pub done: usize,
    /// Per position of the main line (root first): `None` (`null`) where the game was over.
    pub positions: Vec<Option<PositionAnalysis>>,
    /// Visits per position.
    pub visits: u32,
    /// `net` or `mcts`: the engine that analyses.
    pub engine: &'static str,
    /// Finished (or stopped by an error).
    pub finished: bool,
}

impl Progress {
    /// As the API shows it, and as the finished analysis is stored.
    pub fn view(&self) -> ProgressView {
        ProgressView {
            done: self.done,
            engine: self.engine,
            playouts: self.visits,
            positions: self.positions.clone(),
            state: if self.finished { "done" } else { "running" },
            total: self.total,
            visits: self.visits,
        }
    }
}

// The views' fields are in alphabetical order, as the `json!` objects they replace wrote them:
// the wire and the stored analyses stay byte for byte the same.

/// An analysis as it runs, or as it was stored once finished.
#[derive(Clone, Debug, Serialize)]
pub struct ProgressView {
    /// Positions done.
    pub done: usize,
    /// `net` or `mcts`.
    pub engine: &'static str,
    /// The same as `visits` (the Monte Carlo engine's word).
    pub playouts: u32,
    /// Per position of the main line, `null` where the game was over.
    pub positions: Vec<Option<PositionAnalysis>>,
    /// `running` or `done`.
    pub state: &'static str,
    /// Positions to analyse.
    pub total: usize,
    /// Visits per position.
    pub visits: u32,
}

/// One position's analysis: Black's win rate (0 to 1) and lead in points, the best moves with
/// their variations, and who owns each point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionAnalysis {
    /// The best moves, most visited first.
    pub best: Vec<Candidate>,
    /// Black's lead in points.
    pub black_lead: f64,
    /// Black's chance to win.
    pub black_winrate: f64,
    /// `net` or `mcts`.
    pub engine: &'static str,
    /// Who owns each point, as [`ownership_text`] writes it.
    pub ownership: String,
    /// The same as `visits`.
    pub playouts: u32,
    /// `black` or `white`.
    pub to_move: &'static str,
    /// The search's visits (or playouts).
    pub visits: u32,
}

/// A candidate move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// Black's lead after it, in points (`null` from the Monte Carlo engine).
    pub black_lead: Option<f64>,
    /// Black's chance to win after it.
    pub black_winrate: f64,
    /// The move, as a GTP vertex.
    #[serde(rename = "move")]
    pub at: String,
    /// Its principal variation, as GTP vertices.
    pub pv: Vec<String>,
    /// The search's visits to it.
    pub visits: u32,
    /// The mover's chance to win after it.
    pub winrate: f64,
}

/// `net` where `engine`'s net analyses `game`, else `mcts`.
pub fn engine_for(engine: &tengen_ai::Engine, game: &Game) -> &'static str {
    if engine.plays(game).is_some() {
        "net"
    } else {
        "mcts"
    }
}

fn round(x: f64, places: i32) -> f64 {
    let k = 10f64.powi(places);
    (x * k).round() / k
}

/// Ownership (+1 Black, by [`Point::index`]) as one letter a point, rows from the top: `a` is
/// White's for sure, `k` nobody's, `u` Black's for sure (21 levels; a 19x19 grid is 361
/// bytes, so that a long game's analysis stays small on every follower's poll).
pub fn ownership_text(size: u8, ownership: &[f32]) -> String {
    letters((0..size).flat_map(|row| {
        (0..size).map(move |col| {
            Point::new(size, col, row)
                .and_then(|p| ownership.get(p.index()))
                .copied()
                .unwrap_or(0.0)
        })
    }))
}

/// Ownership values (+1 Black), in the order written, as [`ownership_text`]'s letters.
fn letters(values: impl Iterator<Item = f32>) -> String {
    values
        .map(|o| {
            let level = (o.clamp(-1.0, 1.0) * LEVELS).round() + LEVELS;
            (b'a' + level as u8) as char
        })
        .collect()
}

/// The engine's settings for `visits` a position: the whole game's analyser's
/// ([`tengen_ai::analysis`]), leaves evaluated four to a forward pass.
fn settings(visits: u32) -> Settings {
    Settings {
        visits,
        threads: 1,
        candidates: CANDIDATES,
        seed: SEED,
        ..Settings::default()
    }
}

/// The analysis of one position, `null` once the game is over: `{ "to_move", "engine",
/// "black_winrate", "black_lead", "visits", "best": [{ "move", "visits", "winrate",
/// "black_winrate", "black_lead", "pv" }], "ownership" }`, win rates 0 to 1, leads in points
/// (`null` from the Monte Carlo engine), moves and variations as GTP vertices (`D4`).
///
/// The search is [`tengen_ai::analysis::position`]'s, the one `tengen analyze` runs: the net's
/// PUCT search with its leaves batched (the Monte Carlo engine where the net does not play),
/// its figures KataGo's kata-analyze's (each move's lead, the ownership averaged over the
/// tree), through the server's one evaluator and its cache.
pub fn position(engine: &tengen_ai::Engine, game: &Game, visits: u32) -> Option<PositionAnalysis> {
    let eval = engine.net().map(|e| &**e);
    let found = tengen_ai::analysis::position(eval, game, &settings(visits), SEED)?;
    Some(view(game.size(), &found))
}

/// The engine's findings as the API shows them.
fn view(size: u8, p: &Position) -> PositionAnalysis {
    let mover = |black: f64| match p.to_move {
        Color::Black => black,
        Color::White => 1.0 - black,
    };
    let best = p
        .best
        .iter()
        .map(|c| Candidate {
            black_lead: c.black_lead.map(|l| round(l, 1)),
            black_winrate: round(c.black_winrate, 3),
            at: gtp::format_move(size, c.mv),
            pv: c
                .pv
                .iter()
                .take(PV_MOVES)
                .map(|&mv| gtp::format_move(size, mv))
                .collect(),
            visits: c.visits,
            winrate: round(mover(c.black_winrate), 3),
        })
        .collect();
    PositionAnalysis {
        best,
        black_lead: round(p.black_lead, 1),
        black_winrate: round(p.black_winrate, 3),
        engine: match p.engine {
            Engine::Net => "net",
            Engine::MonteCarlo => "mcts",
        },
        ownership: letters(p.black_ownership.iter().copied()),
        playouts: p.visits,
        to_move: match p.to_move {
            Color::Black => "black",
            Color::White => "white",
        },
        visits: p.visits,
    }
}

/// Lowers the calling thread's scheduling priority as far as it goes (Linux: `renice` on the
/// thread's id, read from `/proc/thread-self`); does nothing where that is not possible.
fn lowest_priority() {
    let Ok(link) = std::fs::read_link("/proc/thread-self") else {
        return;
    };
    let Some(tid) = link.file_name().and_then(|t| t.to_str()).map(String::from) else {
        return;
    };
    let _ = std::process::Command::new("renice")
        .args(["-n", "19", "-p", &tid])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
}

/// Analyses `positions` with `engines` (on their pool; on a background thread outside a
/// runtime), writing into `progress` as it goes and calling `step` after each position (to tell
/// followers), then `done`.
pub fn spawn(
    engines: &Engines,
    positions: Vec<Game>,
    visits: u32,
    progress: Arc<Mutex<Progress>>,
    step: impl Fn() + Send + 'static,
    done: impl FnOnce(ProgressView) + Send + 'static,
) {
    let failed = progress.clone();
    {
        let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
        *p = Progress {
            total: positions.len(),
            visits,
            engine: positions
                .first()
                .map_or("net", |g| engine_for(&engines.engine, g)),
            ..Progress::default()
        };
    }
    let engines = engines.clone();
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(async move {
            if in_order_on_the_pool(&engines, positions, visits, &progress, step).await {
                done(finish(&progress));
            } else {
                failed.lock().unwrap_or_else(|e| e.into_inner()).finished = true;
            }
        });
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("review-analysis".into())
        .spawn(move || {
            lowest_priority();
            for g in &positions {
                record(&progress, position(&engines.engine, g, visits), &step);
            }
            done(finish(&progress));
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "could not start a review analysis");
        // Not left "running" for ever: another request may try again.
        failed.lock().unwrap_or_else(|e| e.into_inner()).finished = true;
    }
}

/// Searches `positions` on the engine pool, as many at once as it has workers (each search is
/// single-threaded: the game's positions are searched side by side, as `tengen analyze
/// --threads` does), and records them in order as they finish. A review holds at most a job a
/// worker, so that a bot's move queued behind it waits for one search, not the whole game.
/// `false` if the pool went away.
async fn in_order_on_the_pool(
    engines: &Engines,
    positions: Vec<Game>,
    visits: u32,
    progress: &Mutex<Progress>,
    step: impl Fn() + Send,
) -> bool {
    let ahead = engines.pool.threads().max(1);
    let mut positions = positions.into_iter();
    let mut running = std::collections::VecDeque::with_capacity(ahead);
    loop {
        while running.len() < ahead {
            let Some(g) = positions.next() else { break };
            // `run` waits for a place in the queue: an analysis is never refused, it waits
            // behind the games' engine work.
            let (pool, engine) = (engines.pool.clone(), engines.engine.clone());
            let search = async move { pool.run(move || position(&engine, &g, visits)).await };
            running.push_back(tokio::spawn(search));
        }
        let Some(next) = running.pop_front() else {
            return true;
        };
        let Ok(Ok(v)) = next.await else {
            running.iter().for_each(|r| r.abort());
            return false;
        };
        record(progress, v, &step);
    }
}

/// One more position analysed: into the progress, then followers told.
fn record(progress: &Mutex<Progress>, v: Option<PositionAnalysis>, step: &impl Fn()) {
    let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
    p.positions.push(v);
    p.done += 1;
    drop(p);
    step();
}

/// The analysis finished: its final JSON.
fn finish(progress: &Mutex<Progress>) -> ProgressView {
    let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
    p.finished = true;
    p.view()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::{Handicap, Move, Phase, Preset};

    fn point(size: u8, v: &str) -> Move {
        if v == "pass" {
            Move::Pass
        } else {
            Move::Play(gtp::parse_point(size, v).unwrap())
        }
    }

    /// Plays `v`'s moves from `game`, each by the player to move, failing on an illegal one.
    fn replay(game: &Game, vs: &[serde_json::Value]) {
        let mut g = game.clone();
        for v in vs {
            let mv = point(g.size(), v.as_str().unwrap());
            let c = g.to_move();
            g.play(c, mv)
                .unwrap_or_else(|e| panic!("{v} is illegal: {e}"));
            if g.phase() != Phase::Play {
                break;
            }
        }
    }

    /// 9x9, Black's walls on the B and E lines and White's on the G line, and a White stone
    /// at J9: Black has 45 points in strips too narrow to live in, White 27 (the F line is
    /// neutral) and a komi of 7.
    /// Black to move.
    fn black_far_ahead() -> Game {
        let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let at = |x, y| Move::Play(Point::new(9, x, y).unwrap());
        for y in 0..9 {
            g.play(Color::Black, at(1, y)).unwrap();
            g.play(Color::White, at(6, y)).unwrap();
        }
        for y in 0..9 {
            g.play(Color::Black, at(4, y)).unwrap();
            g.play(Color::White, if y == 8 { at(8, 0) } else { Move::Pass })
                .unwrap();
        }
        g
    }

    #[test]
    fn the_net_gives_win_rate_lead_candidates_variations_and_ownership() {
        let g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let v = serde_json::to_value(position(&tengen_ai::Engine::shared(), &g, 40)).unwrap();
        assert_eq!(v["to_move"], "black");
        assert_eq!(v["engine"], "net");
        assert_eq!(v["visits"], 40);
        let w = v["black_winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w));
        assert!(v["black_lead"].as_f64().unwrap().abs() < 15.0, "{v}");
        let best = v["best"].as_array().unwrap();
        assert!((1..=CANDIDATES).contains(&best.len()));
        for b in best {
            let pv = b["pv"].as_array().unwrap();
            assert_eq!(pv[0], b["move"]);
            assert!(pv.len() <= PV_MOVES);
            replay(&g, pv);
            assert!(b["black_lead"].is_number(), "{b}");
            assert!(b["visits"].as_u64().unwrap() > 0);
        }
        // Most visited first, coordinates as players write them.
        let visits: Vec<u64> = best.iter().map(|b| b["visits"].as_u64().unwrap()).collect();
        assert!(visits.windows(2).all(|w| w[0] >= w[1]), "{visits:?}");
        assert!(best[0]["move"]
            .as_str()
            .unwrap()
            .chars()
            .next()
            .unwrap()
            .is_ascii_uppercase());
        let own = v["ownership"].as_str().unwrap();
        assert_eq!(own.len(), 81);
        assert!(own.bytes().all(|b| (b'a'..=b'u').contains(&b)));
        // The same position and visits give the same figures.
        assert_eq!(
            serde_json::to_value(position(&tengen_ai::Engine::shared(), &g, 40)).unwrap(),
            v
        );
    }

    #[test]
    fn a_won_position_is_won_and_the_final_passes_keep_it_won() {
        let mut g = black_far_ahead();
        let v = serde_json::to_value(position(&tengen_ai::Engine::shared(), &g, 40)).unwrap();
        assert!(v["black_winrate"].as_f64().unwrap() > 0.9, "{v}");
        assert!(v["black_lead"].as_f64().unwrap() > 5.0, "{v}");
        // Black's side of the wall is Black's, White's is White's.
        let own = v["ownership"].as_str().unwrap().as_bytes();
        assert!(own[0] > b'p', "A9 is Black's: {}", own[0] as char);
        assert!(own[8] < b'f', "J9 is White's: {}", own[8] as char);
        // Black passes; White to move, whose pass would end the game: still Black's game.
        g.play(Color::Black, Move::Pass).unwrap();
        let v = serde_json::to_value(position(&tengen_ai::Engine::shared(), &g, 40)).unwrap();
        assert_eq!(v["to_move"], "white");
        assert!(v["black_winrate"].as_f64().unwrap() > 0.9, "{v}");
        assert!(v["black_lead"].as_f64().unwrap() > 5.0, "{v}");
        // White passes too: over, nothing to analyse (the graph skips it).
        g.play(Color::White, Move::Pass).unwrap();
        assert!(
            serde_json::to_value(position(&tengen_ai::Engine::shared(), &g, 40))
                .unwrap()
                .is_null()
        );
    }

    /// 5x5 (too small for the net), settled: Black's wall on the B and C lines with eyes on
    /// the A line, White's on the D line with eyes on the E line; White has just passed.
    fn settled_after_a_pass() -> Game {
        let mut g = Game::new(5, Preset::Chinese.rules(5), Handicap::None).unwrap();
        let at = |x, y| Move::Play(Point::new(5, x, y).unwrap());
        let mut black = vec![at(0, 1), at(0, 3)];
        black.extend((0..5).flat_map(|y| [at(1, y), at(2, y)]));
        let mut white = vec![at(4, 1), at(4, 3)];
        white.extend((0..5).map(|y| at(3, y)));
        for (i, &b) in black.iter().enumerate() {
            g.play(Color::Black, b).unwrap();
            g.play(Color::White, white.get(i).copied().unwrap_or(Move::Pass))
                .unwrap();
        }
        g
    }

    #[test]
    fn a_settled_position_after_a_pass_is_valued_by_the_count_not_as_even() {
        let g = settled_after_a_pass();
        let engine = tengen_ai::Engine::shared();
        assert_eq!(engine_for(&engine, &g), "mcts");
        let v = serde_json::to_value(position(&engine, &g, 200)).unwrap();
        let w = v["black_winrate"].as_f64().unwrap();
        let lead = v["black_lead"].as_f64().unwrap();
        // Black 15 points, White 10 and the komi: White's game, whichever way it is valued.
        assert!(lead < 0.0, "{v}");
        assert!(w < 0.1, "{v}");
    }

    #[test]
    fn rules_the_net_does_not_play_fall_back_to_the_monte_carlo_engine() {
        let g = Game::new(9, Preset::FirstCapture.rules(9), Handicap::None).unwrap();
        let engine = tengen_ai::Engine::shared();
        assert_eq!(engine_for(&engine, &g), "mcts");
        let v = serde_json::to_value(position(&engine, &g, 100)).unwrap();
        assert_eq!(v["engine"], "mcts");
        assert!(v["black_lead"].is_number());
        assert!(v["best"][0]["black_lead"].is_null());
        let best = v["best"].as_array().unwrap();
        assert!(!best.is_empty());
        for b in best {
            replay(&g, b["pv"].as_array().unwrap());
        }
    }

    /// Three workers search a game's positions side by side; they are recorded in the line's
    /// order, each with the figures a search of its own gives it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn positions_searched_side_by_side_are_told_in_order() {
        let engines = Engines::on(Arc::new(crate::engines::EnginePool::new(3, 12)));
        let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let mut line = vec![g.clone()];
        for v in ["E5", "C3", "G7", "C6", "D3", "pass", "pass"] {
            let c = g.to_move();
            g.play(c, point(9, v)).unwrap();
            line.push(g.clone());
        }
        let progress = Mutex::new(Progress::default());
        let told = std::sync::atomic::AtomicUsize::new(0);
        let step = || {
            told.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        assert!(in_order_on_the_pool(&engines, line.clone(), 12, &progress, step).await);
        let p = progress.into_inner().unwrap();
        assert_eq!((p.done, told.into_inner()), (8, 8));
        // The same figures as each searched alone (to the last digit but for a forward pass
        // batched with other leaves, which the cache may hold).
        for (i, g) in line.iter().enumerate() {
            let alone = position(&engines.engine, g, 12);
            let (Some(side), Some(alone)) = (&p.positions[i], alone) else {
                assert!(p.positions[i].is_none() && i == 7, "position {i}");
                continue;
            };
            let moves =
                |a: &PositionAnalysis| a.best.iter().map(|c| c.at.clone()).collect::<Vec<_>>();
            assert_eq!(moves(side), moves(&alone), "position {i}");
            assert!(
                (side.black_winrate - alone.black_winrate).abs() < 2e-3,
                "position {i}"
            );
            assert_eq!(side.to_move, alone.to_move);
        }
        assert!(
            p.positions[7].is_none(),
            "the game is over after two passes"
        );
        assert_eq!(p.positions[1].as_ref().unwrap().to_move, "white");
    }

    #[test]
    fn ownership_is_a_letter_a_point_from_the_top_row() {
        let mut own = vec![0.0; 1024];
        own[Point::new(3, 0, 0).unwrap().index()] = 1.0;
        own[Point::new(3, 2, 2).unwrap().index()] = -1.0;
        own[Point::new(3, 1, 1).unwrap().index()] = 0.24;
        assert_eq!(ownership_text(3, &own), "ukkkmkkka");
    }
}
