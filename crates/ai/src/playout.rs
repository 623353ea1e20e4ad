//! Heavy playouts: the search's simulations from a leaf to the end of the game.
//!
//! Each move first answers the opponent's last move, the way MoGo's and Pachi's "moggy"
//! playouts do: capture the stone just played when it is in atari, save an own chain it put in
//! atari (by capturing an attacker in atari, else by extending when the liberty leads somewhere
//! and not into a working ladder: [`crate::ladder`]), play the vital point of a small eye space
//! next to it ([`crate::nakade`]),
//! and otherwise play a light random move (the rules crate's: legal, not filling an own eye)
//! that is not a self-atari of a large chain. Two passes, or a move cap, end the playout; under
//! First Capture Go the first capture does.
//!
//! The moves played are recorded for AMAF (all moves as first) updates of the tree.

use tengen_rules::playout::{play_random_move_with, playout_owner, Rng};
use tengen_rules::{Board, Color, Point};

use crate::{ladder, nakade, patterns};

/// How a playout is scored and when it stops, and how much its policy reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scoring {
    /// Read ladders before an atari escape ([`crate::ladder`]).
    pub ladders: bool,
    /// Answer next to a small eye space with its vital point ([`crate::nakade`]).
    pub nakade: bool,
    /// Komi for White, in points (the game's, plus any dynamic komi).
    pub komi: f32,
    /// Captures count (the WGA count: area plus prisoners).
    pub prisoners: bool,
    /// The first capture ends the game (First Capture Go).
    pub first_capture: bool,
}

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Black's score minus White's, komi included; for First Capture Go +1 or -1.
    pub score: f32,
}

impl Outcome {
    /// 1 for a Black win, 0 for a White win, 0.5 for a draw.
    pub fn black_value(self) -> f32 {
        if self.score > 0.0 {
            1.0
        } else if self.score < 0.0 {
            0.0
        } else {
            0.5
        }
    }
}

/// Plays `board` out with `to_move` first. `last` is the opponent's last move, if any.
/// Every move played is pushed on `moves`. The board is left at the end of the game.
pub fn run(
    board: &mut Board,
    mut to_move: Color,
    mut last: Option<Point>,
    mut passes: u32,
    scoring: &Scoring,
    rng: &mut Rng,
    moves: &mut Vec<(Point, Color)>,
) -> Outcome {
    let cap = 3 * board.size() as usize * board.size() as usize;
    let mut plies = 0;
    while passes < 2 && plies < cap {
        plies += 1;
        let before = board.captures(to_move);
        let played = match last.and_then(|l| answer(board, l, to_move, scoring, rng)) {
            Some(p) => {
                board.play(p, to_move);
                Some(p)
            }
            None => random_move(board, to_move, rng),
        };
        match played {
            Some(p) => {
                passes = 0;
                moves.push((p, to_move));
                if scoring.first_capture {
                    if board.captures(to_move) > before {
                        return first_capture(to_move);
                    }
                    if board.get(p).is_none() {
                        // A self-capture: the opponent is credited, and wins.
                        return first_capture(to_move.opponent());
                    }
                }
            }
            None => passes += 1,
        }
        last = played;
        to_move = to_move.opponent();
    }
    if scoring.first_capture {
        // Nobody captured: a draw.
        return Outcome { score: 0.0 };
    }
    let mut score = tengen_rules::playout::playout_area_difference(board) as f32 - scoring.komi;
    if scoring.prisoners {
        // The board counts every capture since the game began.
        score += board.captures(Color::Black) as f32 - board.captures(Color::White) as f32;
    }
    Outcome { score }
}

fn first_capture(winner: Color) -> Outcome {
    Outcome {
        score: match winner {
            Color::Black => 1.0,
            Color::White => -1.0,
        },
    }
}

/// The reply to the opponent's stone on `last`, if one is urgent: capture it when it is in
/// atari, save an own chain next to it that it put in atari, take the vital point of a small
/// eye space next to it, or answer with one of MoGo's shapes around it.
fn answer(
    board: &mut Board,
    last: Point,
    me: Color,
    scoring: &Scoring,
    rng: &mut Rng,
) -> Option<Point> {
    if board.get(last) != Some(me.opponent()) {
        return None;
    }
    if let Some(lib) = board.atari_liberty(last) {
        if board.is_legal_simple(lib, me) {
            return Some(lib);
        }
    }
    // Own chains next to the last stone, in atari: a random one first, so that two are
    // treated alike.
    let mut saves: [Option<Point>; 4] = [None; 4];
    let mut n = 0;
    let mut around = [None; 4];
    for (i, q) in board.neighbors(last).enumerate() {
        around[i] = Some(q);
    }
    for q in around.into_iter().flatten() {
        if board.get(q) != Some(me) {
            continue;
        }
        let Some(lib) = board.atari_liberty(q) else {
            continue;
        };
        if let Some(p) = save(board, q, lib, me, scoring.ladders) {
            saves[n] = Some(p);
            n += 1;
        }
    }
    if n > 0 {
        return saves[rng.below(n as u32) as usize];
    }
    // Eye spaces shut in by one colour form once the board fills: not read before half of it
    // is (the read costs about a sixth of the playout's time on an open board).
    let area = board.size() as usize * board.size() as usize;
    if scoring.nakade && board.empty_count() * 2 < area {
        if let Some(v) = nakade::vital_point_near(board, last) {
            if board.is_legal_simple(v, me) && !big_self_atari(board, v, me) {
                return Some(v);
            }
        }
    }
    // MoGo's shapes around the last move.
    let mut shapes: [Option<Point>; 8] = [None; 8];
    let mut m = 0;
    for q in patterns::around(board, last) {
        if board.is_empty(q)
            && patterns::matches(board, q)
            && board.is_legal_simple(q, me)
            && !big_self_atari(board, q, me)
        {
            shapes[m] = Some(q);
            m += 1;
        }
    }
    if m == 0 {
        return None;
    }
    shapes[rng.below(m as u32) as usize]
}

/// A move that saves `me`'s chain through `stone`, in atari on `lib`: capture a neighbouring
/// enemy chain in atari, or extend on `lib` when that gives the chain three liberties or more,
/// or two and no ladder catches it (when `ladders`; else any two).
fn save(board: &mut Board, stone: Point, lib: Point, me: Color, ladders: bool) -> Option<Point> {
    // Capturing an attacker gains liberties for certain.
    for s in board.chain(stone) {
        for q in board.neighbors(s) {
            if board.get(q) == Some(me.opponent()) {
                if let Some(l) = board.atari_liberty(q) {
                    if board.is_legal_simple(l, me) {
                        return Some(l);
                    }
                }
            }
        }
    }
    if !board.is_legal_simple(lib, me) {
        return None;
    }
    match liberties_after(board, lib, me) {
        0 | 1 => None,
        2 if ladders && ladder::is_caught(board, stone, lib) => None,
        _ => Some(lib),
    }
}

/// Liberties a stone of `c` on `p` would have (the chain it joins included), counted up to 3.
pub fn liberties_after(board: &Board, p: Point, c: Color) -> usize {
    let mut libs = [p; 3];
    let mut n = 0;
    let mut add = |q: Point, n: &mut usize| {
        if q != p && *n < 3 && !libs[..*n].contains(&q) {
            libs[*n] = q;
            *n += 1;
        }
    };
    for q in board.neighbors(p) {
        match board.get(q) {
            None => add(q, &mut n),
            Some(x) if x == c => {
                // Four liberties of a friendly chain hold three other than `p`.
                let mut some = [p; 4];
                let k = board.some_liberties(q, &mut some);
                for &l in &some[..k] {
                    add(l, &mut n);
                }
            }
            Some(_) => {
                // A capture frees the captured stones' points; one of them is next to p.
                if board.atari_liberty(q) == Some(p) {
                    add(q, &mut n);
                }
            }
        }
        if n >= 3 {
            break;
        }
    }
    n
}

/// A light random move that is not a self-atari of a chain of three or more stones.
fn random_move(board: &mut Board, c: Color, rng: &mut Rng) -> Option<Point> {
    play_random_move_with(board, c, rng, |b, p| !big_self_atari(b, p, c))
}

/// True when a stone of `c` on `p` would leave its chain of three or more stones in atari
/// without capturing (a throw-in or snapback of one or two stones is often good; a big
/// self-atari almost never is). Most points have two empty neighbours and answer at once.
pub fn big_self_atari(board: &Board, p: Point, c: Color) -> bool {
    let mut empty = 0;
    let mut friends = false;
    for q in board.neighbors(p) {
        match board.get(q) {
            None => empty += 1,
            Some(x) if x == c => friends = true,
            Some(_) => {}
        }
    }
    if empty >= 2 || !friends {
        return false;
    }
    if liberties_after(board, p, c) >= 2 || board.would_capture(p, c) {
        return false;
    }
    let mut size = 1;
    let mut seen: [Option<Point>; 4] = [None; 4];
    for (i, q) in board.neighbors(p).enumerate() {
        if board.get(q) == Some(c) {
            let id = board.chain_id(q);
            if !seen.contains(&Some(id)) {
                seen[i] = Some(id);
                size += board.chain_size_up_to(q, 3);
            }
        }
    }
    size >= 3
}

/// Who owns each point at the end of a playout: +1 Black, -1 White, 0 dame.
pub fn owner(board: &Board, p: Point) -> i32 {
    playout_owner(board, p)
}
