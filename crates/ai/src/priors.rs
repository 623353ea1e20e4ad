//! Node priors: what the search believes of a move before it has tried it, as "equivalent
//! experience" (a number of virtual playouts and their mean), the way Fuego and Pachi seed their
//! nodes. Good shape is tried first and bad shape almost never, while every move keeps a chance.
//!
//! The terms (each adds playouts at a value; Pachi's `uct/prior.c` has the same family):
//! - every move: 10 at 0.5 (even);
//! - a capture: 20 at 1.0, more for a larger capture or the capture of the last stone played;
//! - an escape from atari that gains liberties: 20 at 0.9; one into a working ladder (two
//!   liberties, caught: [`crate::ladder`]): 20 at 0.1;
//! - an atari that catches the chain in a ladder: 20 at 0.9;
//! - a big self-atari (three or more stones): 30 at 0.0;
//! - filling an own one-point eye: 50 at 0.0;
//! - one of MoGo's 3x3 shapes ([`crate::patterns`]): 10 at 0.75;
//! - near the last two moves (within two lines): 10 at 0.8;
//! - the first line while the board is still open: 20 at 0.15; the second line: 10 at 0.35;
//!   the third and fourth lines: 10 at 0.65.

use tengen_rules::{Board, Color, Point};

use crate::playout::{big_self_atari, liberties_after};
use crate::{ladder, patterns};

/// Virtual playouts and their total value, for one move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Prior {
    /// Virtual playouts.
    pub n: f32,
    /// Their summed value (wins) for the player making the move.
    pub w: f32,
}

impl Prior {
    fn add(&mut self, n: f32, value: f32) {
        self.n += n;
        self.w += n * value;
    }
}

/// What the position around the moves has in common, computed once per node.
pub struct Context {
    /// The last two moves, most recent first.
    pub last: [Option<Point>; 2],
    /// Own chains in atari: a stone of each and its last liberty.
    ataris: Vec<(Point, Point)>,
    /// True while most of the board is empty (the opening).
    open: bool,
    /// Read ladders for escapes and ataris.
    ladders: bool,
}

impl Context {
    /// The context for `me` to move on `board` after `last`; `ladders` reads ladders for the
    /// escape and atari terms.
    pub fn new(board: &Board, me: Color, last: [Option<Point>; 2], ladders: bool) -> Context {
        let mut ataris = Vec::new();
        let mut seen = tengen_rules::PointSet::new();
        for p in board.points() {
            if board.get(p) == Some(me) && seen.insert(board.chain_id(p)) {
                if let Some(lib) = board.atari_liberty(p) {
                    ataris.push((p, lib));
                }
            }
        }
        let area = board.size() as usize * board.size() as usize;
        Context {
            last,
            ataris,
            open: board.empty_count() * 4 > area * 3,
            ladders,
        }
    }
}

/// The prior of `me` playing on empty `p`.
pub fn prior(board: &Board, ctx: &Context, me: Color, p: Point) -> Prior {
    let mut pr = Prior::default();
    pr.add(10.0, 0.5);
    if board.is_eye(p, me) {
        pr.add(50.0, 0.0);
        return pr;
    }
    if board.would_capture(p, me) {
        let mut big = 20.0;
        if let Some(l) = ctx.last[0] {
            if board.get(l) == Some(me.opponent()) && board.atari_liberty(l) == Some(p) {
                big += 20.0;
            }
        }
        pr.add(big, 1.0);
    } else if big_self_atari(board, p, me) {
        pr.add(30.0, 0.0);
    }
    if let Some(&(stone, _)) = ctx.ataris.iter().find(|&&(_, lib)| lib == p) {
        match liberties_after(board, p, me) {
            0 | 1 => {}
            2 if ctx.ladders && ladder::is_caught_on(board, stone, p) => pr.add(20.0, 0.1),
            _ => pr.add(20.0, 0.9),
        }
    }
    if ctx.ladders && ladder::atari_catches(board, p, me) {
        pr.add(20.0, 0.9);
    }
    if patterns::matches(board, p) {
        pr.add(10.0, 0.75);
    }
    let size = board.size();
    let (col, row) = (p.col(size), p.row(size));
    for l in ctx.last.iter().flatten() {
        let (lc, lr) = (l.col(size), l.row(size));
        if col.abs_diff(lc) <= 2 && row.abs_diff(lr) <= 2 {
            pr.add(10.0, 0.8);
            break;
        }
    }
    if ctx.open && size >= 9 {
        let line = col.min(row).min(size - 1 - col).min(size - 1 - row);
        match line {
            0 => pr.add(20.0, 0.15),
            1 => pr.add(10.0, 0.35),
            2 | 3 => pr.add(10.0, 0.65),
            _ => {}
        }
    }
    pr
}
