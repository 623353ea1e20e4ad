//! A whole game analysed at once, as KataGo's analysis engine and the review tools built on it
//! (KaTrain, Sabaki, analyze-sgf) show one: at each position Black's win rate and score lead,
//! and the best moves with their own figures and variations.
//!
//! The positions are independent searches: `threads` workers take them in turn from one queue,
//! each search evaluating its leaves in batches (one forward pass for several positions of
//! its tree), all through one evaluator, so that positions met again (a transposition, the
//! tree of the next move) come from its cache. Each position's search is single-threaded
//! with a seed of its own, so the figures do not depend on the number of workers.
//!
//! Where the net does not play the game ([`crate::nn::plays`]: First Capture Go, boards under
//! 7 or over 19 lines) the Monte Carlo engine searches the position instead, its lead counted
//! from its ownership. A finished position is not analysed.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use tengen_rules::{Color, Game, Move, Phase, Point};

use crate::nn::search::Puct;
use crate::nn::Evaluator;
use crate::search::{analyze, Budget};

/// Which engine analysed a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The network's search.
    Net,
    /// The Monte Carlo engine (no score head: moves' leads unknown).
    MonteCarlo,
}

/// One candidate move, its figures for Black.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Visits through it.
    pub visits: u32,
    /// Black's chance of winning after it, 0 to 1.
    pub black_winrate: f64,
    /// Black's lead after it, in points (`None` from the Monte Carlo engine).
    pub black_lead: Option<f64>,
    /// Its principal variation, the move first.
    pub pv: Vec<Move>,
}

/// What the search found at one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// The player to move.
    pub to_move: Color,
    /// The engine that searched.
    pub engine: Engine,
    /// Black's chance of winning, 0 to 1.
    pub black_winrate: f64,
    /// Black's lead in points.
    pub black_lead: f64,
    /// Visits (or playouts) searched.
    pub visits: u32,
    /// The moves searched, most visited first (at most [`Settings::candidates`]).
    pub best: Vec<Candidate>,
    /// Black's ownership of each point, +1 Black's to -1 White's, row by row from the top row
    /// (`size * size` values).
    pub black_ownership: Vec<f32>,
}

/// How much to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Visits a position (playouts for the Monte Carlo engine).
    pub visits: u32,
    /// Positions searched at once.
    pub threads: usize,
    /// Leaves a search evaluates in one forward pass.
    pub batch: usize,
    /// Candidates kept a position.
    pub candidates: usize,
    /// The searches' seed (each position's is drawn from it and its index).
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            visits: 100,
            threads: 1,
            // Four leaves a pass: one thread's bare evaluations ran about 6% faster in fours
            // than one by one on the 2-core sandbox, and slower in eights (BENCHMARKS.md).
            batch: 4,
            candidates: 6,
            seed: 0x7e5e_1e57,
        }
    }
}

/// Analyses every position of `positions` (each a game as it stood), in order; `None` for a
/// finished one. `eval` is the net (`None`: the Monte Carlo engine everywhere).
pub fn game(eval: Option<&Evaluator>, positions: &[Game], s: &Settings) -> Vec<Option<Position>> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<Position>>> = Mutex::new(vec![None; positions.len()]);
    let worker = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(g) = positions.get(i) else { break };
        let seed = s.seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let found = position(eval, g, s, seed);
        out.lock().unwrap_or_else(|e| e.into_inner())[i] = found;
    };
    std::thread::scope(|scope| {
        for _ in 1..s.threads.max(1) {
            scope.spawn(worker);
        }
        worker();
    });
    out.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Analyses one position with the seed `seed`; `None` when the game is over.
pub fn position(eval: Option<&Evaluator>, g: &Game, s: &Settings, seed: u64) -> Option<Position> {
    if g.phase() != Phase::Play {
        return None;
    }
    if let (Some(eval), Some(rules)) = (eval, crate::nn::plays(g)) {
        let mut puct = Puct::new(g, g.to_move(), rules, seed);
        puct.set_threads(1, s.batch.max(1));
        if puct.run(eval, g, Some(s.visits.max(1)), None).is_ok() {
            return Some(by_net(g, &puct, s));
        }
    }
    Some(by_playouts(g, s, seed))
}

/// `x` as Black sees it, from the figure `for_mover` of the player to move.
fn for_black(to_move: Color, for_mover: f64, win_rate: bool) -> f64 {
    match (to_move, win_rate) {
        (Color::Black, _) => for_mover,
        (Color::White, true) => 1.0 - for_mover,
        (Color::White, false) => -for_mover,
    }
}

fn by_net(g: &Game, puct: &Puct, s: &Settings) -> Position {
    let to_move = g.to_move();
    let report = puct.report();
    let best = report
        .moves
        .iter()
        .filter(|m| m.visits > 0)
        .take(s.candidates)
        .map(|m| Candidate {
            mv: m.mv,
            visits: m.visits,
            black_winrate: for_black(to_move, m.winrate, true),
            black_lead: Some(for_black(to_move, m.lead, false)),
            pv: m.pv.clone(),
        })
        .collect();
    let sign = if to_move == Color::Black { 1.0 } else { -1.0 };
    // The report's ownership is the tree's mean for the player to move; the root's alone
    // when the tree kept none.
    let black_ownership = match report.ownership.is_empty() {
        false => report
            .ownership
            .iter()
            .map(|&o| (o * sign) as f32)
            .collect(),
        true => rows_of(g.size(), &puct.analysis().ownership),
    };
    Position {
        to_move,
        engine: Engine::Net,
        black_winrate: for_black(to_move, report.root.winrate, true),
        black_lead: for_black(to_move, report.root.lead, false),
        visits: report.root.visits,
        best,
        black_ownership,
    }
}

fn by_playouts(g: &Game, s: &Settings, seed: u64) -> Position {
    let to_move = g.to_move();
    let a = analyze(g, to_move, &Budget::playouts(s.visits.max(1), seed));
    let size = g.size();
    let owned: f64 = points(size).map(|p| f64::from(a.owner(p))).sum();
    // Area counted from the playouts' ownership, komi off.
    let black_lead = owned - g.rules().komi.as_f64();
    let best = a
        .moves
        .iter()
        .filter(|m| m.visits > 0)
        .take(s.candidates)
        .map(|m| Candidate {
            mv: m.mv,
            visits: m.visits,
            black_winrate: for_black(to_move, f64::from(m.winrate), true),
            black_lead: None,
            pv: m.pv.clone(),
        })
        .collect::<Vec<_>>();
    // A search that visited no move is valued by its count.
    let black_winrate = best
        .first()
        .map_or(0.5 + 0.5 * black_lead.signum(), |c: &Candidate| {
            c.black_winrate
        });
    Position {
        to_move,
        engine: Engine::MonteCarlo,
        black_winrate,
        black_lead,
        visits: a.playouts,
        best,
        black_ownership: rows_of(size, &a.ownership),
    }
}

/// The board's points row by row from the top row.
fn points(size: u8) -> impl Iterator<Item = Point> {
    (0..size).flat_map(move |row| (0..size).filter_map(move |col| Point::new(size, col, row)))
}

/// Black's ownership (indexed by [`Point::index`]) row by row from the top row.
fn rows_of(size: u8, by_index: &[f32]) -> Vec<f32> {
    points(size)
        .map(|p| by_index.get(p.index()).copied().unwrap_or(0.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::Model;
    use tengen_rules::coord::gtp;
    use tengen_rules::{Handicap, Preset};

    fn opening(preset: Preset, size: u8, moves: &[&str]) -> Vec<Game> {
        let mut g = Game::new(size, preset.rules(size), Handicap::None).unwrap();
        let mut out = vec![g.clone()];
        for m in moves {
            let c = g.to_move();
            g.play(c, Move::Play(gtp::parse_point(size, m).unwrap()))
                .unwrap();
            out.push(g.clone());
        }
        out
    }

    /// Four workers give each position what one gives it: each search is its own, seeded by
    /// its index.
    #[test]
    fn a_game_analysed_on_several_threads_is_the_game_analysed_on_one() {
        let eval = Evaluator::new(Model::builtin().unwrap());
        let positions = opening(Preset::Chinese, 9, &["E5", "C3", "G7", "C6", "D3"]);
        let s = Settings {
            visits: 24,
            ..Settings::default()
        };
        let one = game(Some(&eval), &positions, &s);
        eval.clear_cache();
        let four = game(Some(&eval), &positions, &Settings { threads: 4, ..s });
        assert_eq!(one.len(), 6);
        for (a, b) in one.iter().zip(&four) {
            let (a, b) = (a.as_ref().unwrap(), b.as_ref().unwrap());
            assert_eq!(a.engine, Engine::Net);
            assert_eq!(
                a.best.iter().map(|c| c.mv).collect::<Vec<_>>(),
                b.best.iter().map(|c| c.mv).collect::<Vec<_>>()
            );
            assert!((a.black_winrate - b.black_winrate).abs() < 1e-3);
            assert!((0.0..=1.0).contains(&a.black_winrate));
            assert_eq!(a.black_ownership.len(), 81);
            assert!(a.visits >= 24);
            assert_eq!(a.best[0].pv[0], a.best[0].mv);
        }
        // Black to move first, then White: the figures are Black's either way (the opening
        // is close to even for both).
        assert_eq!(one[1].as_ref().unwrap().to_move, Color::White);
    }

    #[test]
    fn a_finished_game_is_not_analysed_and_first_capture_falls_back_to_playouts() {
        let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
        let eval = Evaluator::new(Model::builtin().unwrap());
        let s = Settings {
            visits: 50,
            ..Settings::default()
        };
        assert_eq!(position(Some(&eval), &g, &s, 1), None);
        let fc = opening(Preset::FirstCapture, 7, &["D4"]);
        let p = position(Some(&eval), &fc[1], &s, 1).unwrap();
        assert_eq!(p.engine, Engine::MonteCarlo);
        assert!(p.best.iter().all(|c| c.black_lead.is_none()));
    }

    /// A Black pair in atari: with White to move (after Black's pass) it is captured, and
    /// Black's figures fall though it is White who moves.
    #[test]
    fn figures_are_black_s_whoever_is_to_move() {
        let moves = ["E5", "D5", "E6", "D6", "C3", "F5", "G7", "F6", "C7", "E7"];
        let g = opening(Preset::Chinese, 9, &moves).pop().unwrap();
        assert_eq!(g.to_move(), Color::Black);
        let eval = Evaluator::new(Model::builtin().unwrap());
        let s = Settings {
            visits: 60,
            ..Settings::default()
        };
        let p = position(Some(&eval), &g, &s, 3).unwrap();
        let mut w = g.clone();
        w.play(Color::Black, Move::Pass).unwrap();
        let q = position(Some(&eval), &w, &s, 3).unwrap();
        assert_eq!(q.to_move, Color::White);
        assert!(
            q.black_winrate < p.black_winrate,
            "{} {}",
            q.black_winrate,
            p.black_winrate
        );
        assert!(
            q.black_lead < p.black_lead,
            "{} {}",
            q.black_lead,
            p.black_lead
        );
        // White's best move captures at E4.
        assert_eq!(q.best[0].mv, Move::Play(gtp::parse_point(9, "E4").unwrap()));
    }
}
