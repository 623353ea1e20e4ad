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

use std::sync::OnceLock;

use tengen_rules::{Color, Game, Point};

use crate::nn::{Evaluator, History, KataRules, Model};

/// Smallest and largest board sides the net is used on. On the OGS 19x19 records the net
/// judged worse than the playouts (BENCHMARKS.md, 2026-11-27: 336 exact and one wrong winner
/// unflagged, against 339 and none), so larger boards keep the playouts until it is tuned.
const SIZES: std::ops::RangeInclusive<u8> = 5..=13;

/// The built-in net's evaluator, loaded on first use and shared (it is `Sync`). `None` when
/// the built-in net cannot be read, which a test of the nn module would catch first.
fn evaluator() -> Option<&'static Evaluator> {
    static EVALUATOR: OnceLock<Option<Evaluator>> = OnceLock::new();
    EVALUATOR
        .get_or_init(|| Model::builtin().ok().map(Evaluator::new))
        .as_ref()
}

/// Black's ownership of every point (+1 Black's to -1 White's, indexed by [`Point::index`],
/// `cells` long), with Black to move and with White to move, each the mean of the 8
/// symmetries. `None` where the net does not apply.
pub(super) fn ownership(game: &Game, cells: usize) -> Option<[Vec<f32>; 2]> {
    if !SIZES.contains(&game.size()) {
        return None;
    }
    let rules = KataRules::nearest(game.rules())?;
    let eval = evaluator()?;
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
