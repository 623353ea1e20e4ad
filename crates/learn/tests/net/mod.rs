//! The network's check of a puzzle, shared by the test that checks every puzzle
//! (`tests/puzzles.rs`) and the miner that makes them (`examples/mine.rs`), so that a puzzle
//! is written only when the test will pass it.
//!
//! A puzzle passes when, at each position of its solution tree where the learner is to move,
//! a search of the built-in net (one thread, [`CHECK_VISITS`] visits, seed [`CHECK_SEED`]: the
//! same numbers on every run) plays the right try, and the net's ownership of the marked
//! stones is the learner's after the right try (and the defence's answer) and the opponent's
//! after every wrong try and its refutation: the outcome flips on a wrong move.

#![allow(dead_code)] // Each of the two users calls a part.

use tengen_ai::nn::search::Puct;
use tengen_ai::nn::{Evaluator, History, KataRules};
use tengen_learn::{Answer, Puzzle};
use tengen_rules::{Color, Game, Move, Point};

/// Visits of the search that must find each right move.
pub const CHECK_VISITS: u32 = 48;
/// The search's seed (its symmetries).
pub const CHECK_SEED: u64 = 43;
/// The marked stones' mean ownership, from the learner's side, that a right line must reach
/// and a wrong one must fall below the negative of.
pub const CHECK_MARGIN: f64 = 0.2;

/// The rules the net is told for `game`.
pub fn kata_rules(game: &Game) -> KataRules {
    KataRules::nearest(game.rules()).unwrap_or_else(|| KataRules::parse("chinese").expect("a name"))
}

/// The most visited move of the check's search for `color` in `game`, and its share of the
/// root's visits.
pub fn best_move(eval: &Evaluator, game: &Game, color: Color) -> Result<(Move, f64), String> {
    let mut search = Puct::new(game, color, kata_rules(game), CHECK_SEED);
    // The reference search the puzzles were checked with: plain PUCT, the most visited move.
    search.plain();
    search
        .run(eval, game, Some(CHECK_VISITS), None)
        .map_err(|e| e.to_string())?;
    let a = search.analysis();
    let best = a.best().ok_or("no move searched")?;
    let total: u32 = a.moves.iter().map(|m| m.visits).sum();
    Ok((best.mv, best.visits as f64 / total.max(1) as f64))
}

/// The net's mean ownership of `targets` in `game`, +1 when they are all `learner`'s (alive
/// if they are the learner's stones, dead if they are the opponent's).
pub fn target_score(
    eval: &Evaluator,
    game: &Game,
    learner: Color,
    targets: &[Point],
) -> Result<f64, String> {
    let e = eval
        .evaluate(&History::new(game, kata_rules(game)), 0)
        .map_err(|e| e.to_string())?;
    let n = game.size();
    let sign = match learner {
        Color::Black => -1.0,
        Color::White => 1.0,
    };
    let sum: f64 = targets
        .iter()
        .map(|p| {
            let i = p.row(n) as usize * n as usize + p.col(n) as usize;
            sign * e.white_ownership.get(i).copied().unwrap_or(0.0) as f64
        })
        .sum();
    Ok(sum / targets.len().max(1) as f64)
}

/// `game` after `moves` (each by the colour given), or why not.
pub fn after(game: &Game, moves: &[(Color, Move)]) -> Result<Game, String> {
    let mut g = game.clone();
    for &(c, m) in moves {
        g.play(c, m).map_err(|e| format!("{m:?}: {e}"))?;
    }
    Ok(g)
}

/// The line a try leads to: the try and, when there is one, the defence's answer.
fn line(learner: Color, a: &Answer) -> Vec<(Color, Move)> {
    let mut moves = vec![(learner, a.mv)];
    if let Some(r) = &a.reply {
        moves.push((learner.opponent(), r.mv));
    }
    moves
}

/// Checks `puzzle` with the net; the error says where it fails.
pub fn verify(eval: &Evaluator, puzzle: &Puzzle) -> Result<(), String> {
    verify_with(eval, puzzle, CHECK_MARGIN)
}

/// [`verify`] with the ownership `margin` a line must clear.
pub fn verify_with(eval: &Evaluator, puzzle: &Puzzle, margin: f64) -> Result<(), String> {
    let step = &puzzle.step;
    let learner = step.learner;
    let mut todo: Vec<(Game, &[Answer])> = vec![(step.start.clone(), &step.answers)];
    while let Some((game, answers)) = todo.pop() {
        let at = game.ply_count();
        let rights: Vec<&Answer> = answers.iter().filter(|a| a.right).collect();
        let [right] = rights.as_slice() else {
            return Err(format!("ply {at}: {} right tries, not one", rights.len()));
        };
        let (best, _) = best_move(eval, &game, learner)?;
        if best != right.mv {
            return Err(format!(
                "ply {at}: the net plays {best:?}, not {:?}",
                right.mv
            ));
        }
        let kept = after(&game, &line(learner, right))?;
        let score = target_score(eval, &kept, learner, &step.targets)?;
        if score < margin {
            return Err(format!(
                "ply {at}: after the right line the score is {score:.2}"
            ));
        }
        for wrong in answers.iter().filter(|a| !a.right) {
            if wrong.reply.is_none() {
                return Err(format!("ply {at}: {:?} has no refutation", wrong.mv));
            }
            let lost = after(&game, &line(learner, wrong))?;
            let score = target_score(eval, &lost, learner, &step.targets)?;
            if score > -margin {
                return Err(format!(
                    "ply {at}: after the wrong try {:?} the score is {score:.2}",
                    wrong.mv
                ));
            }
        }
        if let Some(r) = right.reply.as_ref().filter(|r| !r.next.is_empty()) {
            todo.push((kept, &r.next));
        }
    }
    Ok(())
}
