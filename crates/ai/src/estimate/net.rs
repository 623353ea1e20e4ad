//! Ownership from the network: KataGo's ownership head, averaged over the 8 symmetries of the
//! board, once with each colour to move (16 evaluations in one batch). Averaging the
//! symmetries takes out the net's small orientation biases (KataGo does the same for its own
//! analysis when asked); evaluating with each side to move shows a chain whose fate depends on
//! who plays first as undecided, as the playout estimator's two searches do.
//!
//! `None` where the net does not apply: First Capture Go and other rules with no KataGo
//! counterpart ([`KataRules::nearest`]), and board sizes outside 5 to 13 ([`SIZES`]).
//!
//! Deterministic: the forward pass has no randomness and a fixed order of operations.

use tengen_rules::{Color, Game, Point};

use crate::nn::search::Puct;
use crate::nn::{Evaluator, History, KataRules};

/// Smallest and largest board sides the net is used on. On the OGS 19x19 records the net
/// judged worse than the playouts (BENCHMARKS.md, 2026-11-27: 336 exact and one wrong winner
/// unflagged, against 339 and none), so larger boards keep the playouts until it is tuned.
const SIZES: std::ops::RangeInclusive<u8> = 5..=13;

/// Black's ownership of every point (+1 Black's to -1 White's, indexed by [`Point::index`],
/// `cells` long), with Black to move and with White to move, each the mean of the 8
/// symmetries. `None` where the net does not apply.
pub(super) fn ownership(eval: &Evaluator, game: &Game, cells: usize) -> Option<[Vec<f32>; 2]> {
    if !SIZES.contains(&game.size()) {
        return None;
    }
    let rules = KataRules::nearest(game.rules())?;
    let base = History::new(game, rules);
    let sides = [Color::Black, Color::White].map(|c| {
        let mut h = base.clone();
        h.to_move = c;
        h
    });
    let items: Vec<(&History, u8)> = sides
        .iter()
        .flat_map(|h| (0..8).map(move |s| (h, s)))
        .collect();
    let evals = eval.evaluate_batch(&items).ok()?;
    let n = game.size() as usize;
    let board = game.board();
    let mut out = [vec![0.0f32; cells], vec![0.0f32; cells]];
    for (side, chunk) in evals.chunks(8).enumerate() {
        for p in board.points() {
            let i = row_major(p, game.size(), n);
            // The net speaks for White; the estimator for Black.
            let white: f32 = chunk.iter().map(|e| e.white_ownership[i]).sum::<f32>() / 8.0;
            out[side][p.index()] = -white;
        }
    }
    Some(out)
}

/// Where `p` is in the net's row-major arrays (row 0 at the top, as KataGo's `y`).
fn row_major(p: Point, size: u8, n: usize) -> usize {
    p.row(size) as usize * n + p.col(size) as usize
}

/// What the network's searches found: Black's ownership with each colour to move, and Black's
/// chance of winning by the search with the side to move.
pub(super) struct Searched {
    pub ownership: [Vec<f32>; 2],
    pub black_winrate: f32,
}

/// Black's ownership of every point, as [`ownership`] gives it, but from a search of `visits`
/// with each colour to move: the mean over every position the search evaluated, as KataGo's
/// analysis reports it. One evaluation sees shape; a search sees what the side in trouble can
/// do about it (a dead group's owner tries its moves and fails). One thread, a fixed seed:
/// the same position gives the same answer.
pub(super) fn searched(
    eval: &Evaluator,
    game: &Game,
    cells: usize,
    visits: u32,
    seed: u64,
) -> Option<Searched> {
    if !SIZES.contains(&game.size()) {
        return None;
    }
    let rules = KataRules::nearest(game.rules())?;
    let n = game.size() as usize;
    let board = game.board();
    let mut ownership = [vec![0.0f32; cells], vec![0.0f32; cells]];
    let mut black_winrate = 0.5;
    for (side, c) in [Color::Black, Color::White].into_iter().enumerate() {
        // The position alone: a game that ended with two passes is a position to play on.
        let g = Game::from_board(board.clone(), c, *game.rules()).ok()?;
        let mut search = Puct::new(&g, c, rules, seed + side as u64);
        search.plain();
        search.run(eval, &g, Some(visits), None).ok()?;
        let r = search.report();
        if r.ownership.len() != n * n {
            return None;
        }
        // The report speaks for the player to move; the estimator for Black.
        let s = if c == Color::Black { 1.0 } else { -1.0 };
        for p in board.points() {
            ownership[side][p.index()] = s * r.ownership[row_major(p, game.size(), n)] as f32;
        }
        if c == game.to_move() {
            let w = r.root.winrate as f32;
            black_winrate = if c == Color::Black { w } else { 1.0 - w };
        }
    }
    Some(Searched {
        ownership,
        black_winrate,
    })
}
