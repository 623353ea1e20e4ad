//! Light random playouts: the benchmark of the board and the raw material of Monte Carlo search.
//!
//! A light playout picks uniformly among the legal moves that do not fill one of the mover's own
//! one-point eyes, and passes when there are none; two passes in a row end it. Only the simple
//! ko point is respected (superko is too dear for playouts and rarely matters in them), and a
//! move cap of three times the board's area stops the rare cycle.

use crate::board::Board;
use crate::color::Color;
use crate::point::Point;

/// A small, fast, seeded generator (wyrand). The rules crate has no randomness of its own:
/// callers create this with a seed they chose.
///
/// The next output is computed one call ahead: a playout's candidate draw then starts from a
/// number already in hand rather than from a multiply that a mispredicted branch just discarded.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
    ahead: u64,
}

impl Rng {
    /// A generator started from `seed`; the same seed gives the same sequence.
    pub fn new(seed: u64) -> Rng {
        let state = seed.wrapping_add(0xA076_1D64_78BD_642F);
        Rng {
            state,
            ahead: Rng::mix(state),
        }
    }

    #[inline]
    fn mix(state: u64) -> u64 {
        let t = (state as u128).wrapping_mul((state ^ 0xE703_7ED1_A0B4_28DB) as u128);
        (t >> 64) as u64 ^ t as u64
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let out = self.ahead;
        self.state = self.state.wrapping_add(0xA076_1D64_78BD_642F);
        self.ahead = Rng::mix(self.state);
        out
    }

    /// A uniform number in `0..n` (`n > 0`).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }
}

/// Picks a light-policy move for `c` and plays it. Returns the point, or `None` for a pass.
#[inline]
pub fn play_random_move(board: &mut Board, c: Color, rng: &mut Rng) -> Option<Point> {
    random_move(board, c, rng)
}

/// [`play_random_move`] with one more test: a candidate that passes the light test is played
/// only if `accept` agrees (heavy playouts reject big self-ataris this way). A rejected point is
/// not drawn again for this move; when nothing is accepted, the move is a pass.
#[inline]
pub fn play_random_move_with(
    board: &mut Board,
    c: Color,
    rng: &mut Rng,
    mut accept: impl FnMut(&Board, Point) -> bool,
) -> Option<Point> {
    let mut n = board.empty_count();
    while n > 0 {
        let i = rng.below(n as u32) as usize;
        let p = Point(board.empty_at(i));
        if (board.has_empty_neighbor(p) || acceptable_when_surrounded(board, p, c))
            && accept(board, p)
        {
            board.play_inlined(p, c);
            return Some(p);
        }
        n -= 1;
        board.swap_empty(i, n);
    }
    board.pass();
    None
}

/// [`play_random_move`], always inlined: [`playout`] calls it with the colour a constant.
#[inline(always)]
fn random_move(board: &mut Board, c: Color, rng: &mut Rng) -> Option<Point> {
    let mut n = board.empty_count();
    while n > 0 {
        let i = rng.below(n as u32) as usize;
        let p = Point(board.empty_at(i));
        // A point with an empty neighbour is never an eye, never suicide and never the ko point
        // (which is surrounded by the capturing stones): one test accepts the common case.
        if board.has_empty_neighbor(p) || acceptable_when_surrounded(board, p, c) {
            board.play_inlined(p, c);
            return Some(p);
        }
        // Move the rejected candidate past the end of the range still to be tried.
        n -= 1;
        board.swap_empty(i, n);
    }
    board.pass();
    None
}

/// The slow path of candidate selection, kept out of line so that the common case (a point with
/// an empty neighbour) compiles to a tight loop without register spills. There is one copy per
/// colour, with the colour a constant in each (2% faster on 9x9).
#[inline(always)]
fn acceptable_when_surrounded(board: &Board, p: Point, c: Color) -> bool {
    match c {
        Color::Black => acceptable_for::<0>(board, p),
        Color::White => acceptable_for::<1>(board, p),
    }
}

/// [`acceptable_when_surrounded`] for the colour `Color::ALL[COLOR]`.
#[inline(never)]
fn acceptable_for<const COLOR: usize>(board: &Board, p: Point) -> bool {
    board.playable_when_surrounded(p, Color::ALL[COLOR])
}

/// Plays a light playout to two passes (or the move cap) with `to_move` first. Returns the
/// number of plies played, passes included.
pub fn playout(board: &mut Board, to_move: Color, rng: &mut Rng) -> u32 {
    let cap = 3 * board.size() as u32 * board.size() as u32;
    let mut passes = 0;
    let mut plies = 0;
    let going = |passes: u32, plies: u32| passes < 2 && plies < cap;
    if to_move == Color::White && going(passes, plies) {
        ply(board, Color::White, rng, &mut passes, &mut plies);
    }
    // Two plies per turn of the loop, Black's then White's: with the colour a constant in each,
    // the colour arithmetic of the move code (masks, shifts, table rows) folds away.
    while going(passes, plies) {
        ply(board, Color::Black, rng, &mut passes, &mut plies);
        if !going(passes, plies) {
            break;
        }
        ply(board, Color::White, rng, &mut passes, &mut plies);
    }
    plies
}

/// One ply of a playout: a light-policy move or a pass.
#[inline(always)]
fn ply(board: &mut Board, c: Color, rng: &mut Rng, passes: &mut u32, plies: &mut u32) {
    match random_move(board, c, rng) {
        Some(_) => *passes = 0,
        None => *passes += 1,
    }
    *plies += 1;
}

/// Who a point belongs to on a board where every empty point is an eye or dame, as at the end of
/// a playout: +1 for Black (a black stone, or an empty point with only black neighbours), -1 for
/// White, 0 for dame.
pub fn playout_owner(board: &Board, p: Point) -> i32 {
    match board.get(p) {
        Some(Color::Black) => 1,
        Some(Color::White) => -1,
        None => {
            let mut seen = [false; 2];
            for n in board.neighbors(p) {
                if let Some(c) = board.get(n) {
                    seen[c.index()] = true;
                }
            }
            match seen {
                [true, false] => 1,
                [false, true] => -1,
                _ => 0,
            }
        }
    }
}

/// Black's area minus White's on a board where every empty point is an eye or dame, as at the
/// end of a playout.
pub fn playout_area_difference(board: &Board) -> i32 {
    board.points().map(|p| playout_owner(board, p)).sum()
}

/// Runs `count` playouts from an empty board of side `size`, reusing one scratch board, and
/// returns the total plies played. The benchmark's unit of work.
pub fn run_playouts(size: u8, count: u32, rng: &mut Rng) -> u64 {
    let start = Board::new(size);
    let mut board = start.clone();
    let mut plies = 0u64;
    for _ in 0..count {
        board.copy_from(&start);
        plies += playout(&mut board, Color::Black, rng) as u64;
    }
    plies
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `c`'s one-point eye, spelled out: every on-board neighbour is `c`'s, and of the on-board
    /// diagonals at most one is the opponent's in the middle of the board, none on the edge.
    fn reference_eye(board: &Board, p: Point, c: Color) -> bool {
        if board.neighbors(p).any(|q| board.get(q) != Some(c)) {
            return false;
        }
        let size = board.size() as i32;
        let (col, row) = (p.col(board.size()) as i32, p.row(board.size()) as i32);
        let mut on_board = 0;
        let mut enemy = 0;
        for (dc, dr) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
            let (x, y) = (col + dc, row + dr);
            if (0..size).contains(&x) && (0..size).contains(&y) {
                on_board += 1;
                let q = board.point(x as u8, y as u8).expect("on board");
                enemy += (board.get(q) == Some(c.opponent())) as u32;
            }
        }
        if on_board == 4 {
            enemy <= 1
        } else {
            enemy == 0
        }
    }

    /// The light policy's test, spelled out: not an own eye, not the ko point, and the stone
    /// survives when played on a copy of the board.
    fn reference_acceptable(board: &Board, p: Point, c: Color) -> bool {
        if reference_eye(board, p, c) || board.ko_point() == Some(p) {
            return false;
        }
        let mut after = board.clone();
        after.play(p, c);
        after.get(p) == Some(c)
    }

    #[test]
    fn the_fast_candidate_test_agrees_with_the_rules_spelled_out() {
        let mut rng = Rng::new(0xE7E5);
        let mut surrounded_tested = 0;
        for game in 0..300u32 {
            let size = [5u8, 7, 9, 13, 19, 2, 3][game as usize % 7];
            let mut board = Board::new(size);
            let mut c = Color::Black;
            // Stop at a random ply, so that positions from every stage of a playout are seen.
            let stop = rng.below(3 * size as u32 * size as u32);
            for _ in 0..stop {
                play_random_move(&mut board, c, &mut rng);
                c = c.opponent();
            }
            for p in board.points().filter(|&p| board.is_empty(p)) {
                for c in Color::ALL {
                    assert_eq!(
                        board.is_eye(p, c),
                        reference_eye(&board, p, c),
                        "is_eye at {p:?} for {c}\n{board}"
                    );
                    let fast = board.has_empty_neighbor(p) || board.playable_when_surrounded(p, c);
                    assert_eq!(
                        fast,
                        reference_acceptable(&board, p, c),
                        "candidate test at {p:?} for {c}\n{board}"
                    );
                    surrounded_tested += !board.has_empty_neighbor(p) as u32;
                }
            }
        }
        // The slow path, the one with something to get wrong, was exercised many times.
        assert!(surrounded_tested > 5_000, "{surrounded_tested}");
    }

    /// The playout loop spelled out: one ply at a time, the colour alternating.
    fn reference_playout(board: &mut Board, mut to_move: Color, rng: &mut Rng) -> u32 {
        let cap = 3 * board.size() as u32 * board.size() as u32;
        let (mut passes, mut plies) = (0, 0);
        while passes < 2 && plies < cap {
            match play_random_move(board, to_move, rng) {
                Some(_) => passes = 0,
                None => passes += 1,
            }
            to_move = to_move.opponent();
            plies += 1;
        }
        plies
    }

    #[test]
    fn the_unrolled_playout_plays_the_same_game_as_one_ply_at_a_time() {
        for seed in 0..200u64 {
            let size = [2u8, 3, 5, 9, 13][seed as usize % 5];
            let to_move = Color::ALL[(seed / 5 % 2) as usize];
            // Start from a position part-way through a game, so that odd ply counts occur.
            let mut start = Board::new(size);
            let mut rng = Rng::new(seed);
            for i in 0..rng.below(size as u32 * size as u32) {
                play_random_move(&mut start, Color::ALL[i as usize % 2], &mut rng);
            }
            let (mut fast, mut slow) = (start.clone(), start.clone());
            let (mut fast_rng, mut slow_rng) = (Rng::new(seed), Rng::new(seed));
            let plies = playout(&mut fast, to_move, &mut fast_rng);
            assert_eq!(plies, reference_playout(&mut slow, to_move, &mut slow_rng));
            assert_eq!(fast, slow, "seed {seed}");
            assert_eq!(fast_rng.next_u64(), slow_rng.next_u64());
        }
    }
}
