//! The board's chains, and which of them an ownership map calls dead: shared by the estimator
//! (the count) and the search (its final ownership), so that neither imports the other.

use tengen_rules::{Board, Color, Point, PointSet};

/// Every chain with its colour, in board order of its first stone.
pub(crate) fn chains_of(board: &Board) -> Vec<(Color, Vec<Point>)> {
    let mut seen = PointSet::new();
    let mut out = Vec::new();
    for p in board.points() {
        let Some(c) = board.get(p) else { continue };
        if seen.contains(p) {
            continue;
        }
        let stones = board.chain_stones(p);
        stones.iter().for_each(|&s| {
            seen.insert(s);
        });
        out.push((c, stones));
    }
    out
}

/// The stones of every chain whose mean ownership, seen from its own colour (+1 its own, -1
/// the opponent's), is below `below`, except chains that `keep` (called with the chain's colour
/// and a stone) says stand.
pub fn dead_chains(
    board: &Board,
    owner: impl Fn(Point) -> f32,
    below: f32,
    keep: impl Fn(Color, Point) -> bool,
) -> PointSet {
    let mut dead = PointSet::new();
    for (c, stones) in chains_of(board) {
        if keep(c, stones[0]) {
            continue;
        }
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let mine: f32 = stones.iter().map(|&s| owner(s) * sign).sum::<f32>() / stones.len() as f32;
        if mine < below {
            stones.iter().for_each(|&s| {
                dead.insert(s);
            });
        }
    }
    dead
}
