//! Ladders (shicho): can a chain in atari run away, or is every extension met by another atari
//! until the chain is captured?
//!
//! Playouts and priors alone do not read ladders: a random playout lets the running chain
//! escape half the time, so the search would believe in escapes that fail against any player.
//! Pachi's moggy playouts and its priors ask the same question before an atari escape; this
//! reader follows the same plan, on the board itself (play, then undo):
//! - the defender first captures an attacker chain in atari next to it when one is (an escape,
//!   whatever follows: the reader is cautious and does not call such a chain caught);
//! - else it extends on its last liberty: three or more liberties escape, one is caught;
//! - with two, the attacker tries an atari from each liberty, and the chain is caught when one
//!   of them leads to a caught chain again.
//!
//! A read is bounded (a node budget): an unfinished read says "not caught", so a breaker the
//! reader cannot see costs the attacker a move rather than the defender a group.

use tengen_rules::{Board, Color, Point};

/// Board positions a read may visit before it gives up ("not caught").
const BUDGET: u32 = 400;

/// True when the chain through `stone`, in atari on `lib`, is captured in a ladder if its owner
/// extends on `lib` (or cannot): its owner to move. `board` is left as it was.
pub fn is_caught(board: &mut Board, stone: Point, lib: Point) -> bool {
    let Some(defender) = board.get(stone) else {
        return false;
    };
    let mut budget = BUDGET;
    caught(board, stone, lib, defender, &mut budget)
}

/// [`is_caught`] on a copy of `board`, for callers that hold it shared.
pub fn is_caught_on(board: &Board, stone: Point, lib: Point) -> bool {
    is_caught(&mut board.clone(), stone, lib)
}

/// True when `attacker` playing on empty `p` puts an opponent chain with two liberties in
/// atari, and that chain is then caught in a ladder. Cheap when `p` touches no opponent chain
/// with two liberties.
pub fn atari_catches(board: &Board, p: Point, attacker: Color) -> bool {
    let defender = attacker.opponent();
    let mut targets: [Option<Point>; 4] = [None; 4];
    let mut n = 0;
    for q in board.neighbors(p) {
        if board.get(q) == Some(defender) && liberties_up_to_3(board, q) == 2 {
            targets[n] = Some(q);
            n += 1;
        }
    }
    if n == 0 || !board.is_legal_simple(p, attacker) {
        return false;
    }
    let mut b = board.clone();
    let played = b.play(p, attacker);
    // An atari from a stone that is itself in atari is answered by its capture.
    let mut result = false;
    if played.captured() == 0 && b.get(p).is_some() && b.atari_liberty(p).is_none() {
        for q in targets.iter().flatten() {
            if let Some(l) = b.atari_liberty(*q) {
                let mut budget = BUDGET;
                if caught(&mut b, *q, l, defender, &mut budget) {
                    result = true;
                    break;
                }
            }
        }
    }
    result
}

/// The defender (owner of `stone`, in atari on `lib`) to move.
fn caught(board: &mut Board, stone: Point, lib: Point, defender: Color, budget: &mut u32) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if can_capture_neighbor(board, stone, defender) {
        return false;
    }
    if !board.is_legal_simple(lib, defender) {
        return true;
    }
    let ext = board.play(lib, defender);
    let result = match liberties_up_to_3(board, lib) {
        0 | 1 => true,
        2 => {
            let mut libs = [lib; 2];
            board.some_liberties(lib, &mut libs);
            libs.iter()
                .any(|&a| chased(board, lib, a, defender, budget))
        }
        _ => false,
    };
    board.undo(&ext);
    result
}

/// The attacker ataris the chain through `stone` (two liberties) from `a`: true when that
/// catches it.
fn chased(board: &mut Board, stone: Point, a: Point, defender: Color, budget: &mut u32) -> bool {
    let attacker = defender.opponent();
    if !board.is_legal_simple(a, attacker) {
        return false;
    }
    let m = board.play(a, attacker);
    let result = match board.atari_liberty(stone) {
        // The attacking stone in atari is captured at once: no ladder.
        Some(_) if board.atari_liberty(a).is_some() && m.captured() == 0 => false,
        Some(l) => caught(board, stone, l, defender, budget),
        None => false,
    };
    board.undo(&m);
    result
}

/// The chain's distinct liberties through `p`, counted up to three.
fn liberties_up_to_3(board: &Board, p: Point) -> usize {
    board.some_liberties(p, &mut [p; 3])
}

/// True when an attacker chain touching the defender's chain through `stone` is in atari.
fn can_capture_neighbor(board: &Board, stone: Point, defender: Color) -> bool {
    let attacker = defender.opponent();
    board.chain(stone).any(|s| {
        board.neighbors(s).any(|q| {
            board.get(q) == Some(attacker)
                && board
                    .atari_liberty(q)
                    .is_some_and(|l| board.is_legal_simple(l, defender))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::{at, board};

    /// White's D4 in atari on E4, Black's stones on C4, D5, D3 and E3: extending runs up and
    /// to the right, each extension met by an atari from the other side.
    const LADDER: [&str; 9] = [
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . X . . . . .",
        ". . X O . . . . .",
        ". . . X X . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];

    fn caught_at(b: &mut Board, stone: &str, lib: &str) -> bool {
        let (s, l) = (at(b, stone), at(b, lib));
        is_caught(b, s, l)
    }

    fn with(rows: &[&str], extra: &[(&str, Color)]) -> Board {
        let mut b = board(rows);
        for &(s, c) in extra {
            let p = at(&b, s);
            b.play(p, c);
        }
        b
    }

    #[test]
    fn a_stone_chased_to_the_edge_is_caught() {
        let mut b = board(&LADDER);
        let before = b.clone();
        assert!(caught_at(&mut b, "D4", "E4"));
        assert_eq!(b, before, "the board is left as it was");
    }

    #[test]
    fn a_breaker_on_the_path_lets_the_stone_escape() {
        let mut b = with(&LADDER, &[("G7", Color::White)]);
        assert!(!caught_at(&mut b, "D4", "E4"));
        // A black stone there instead helps the ladder.
        let mut b = with(&LADDER, &[("G7", Color::Black)]);
        assert!(caught_at(&mut b, "D4", "E4"));
    }

    #[test]
    fn an_attacker_in_atari_next_to_the_chain_is_an_escape() {
        // White on B4 and C5 leave Black's C4 one liberty, C3: White takes it and is out.
        let mut b = with(&LADDER, &[("B4", Color::White), ("C5", Color::White)]);
        assert_eq!(b.atari_liberty(at(&b, "C4")), Some(at(&b, "C3")));
        assert!(!caught_at(&mut b, "D4", "E4"));
    }

    #[test]
    fn an_atari_that_starts_a_working_ladder_is_seen() {
        // Without Black's D3, White's D4 has two liberties; Black's atari on D3 starts the
        // ladder above.
        let b = board(&LADDER);
        let mut b2 = Board::new(9);
        for p in b.points() {
            if let Some(c) = b.get(p) {
                if p != at(&b, "D3") {
                    b2.play(p, c);
                }
            }
        }
        assert!(atari_catches(&b2, at(&b2, "D3"), Color::Black));
        // With White's breaker on G7 it does not work.
        let mut b3 = b2.clone();
        b3.play(at(&b3, "G7"), Color::White);
        assert!(!atari_catches(&b3, at(&b3, "D3"), Color::Black));
        // A move that is no atari catches nothing.
        assert!(!atari_catches(&b2, at(&b2, "G5"), Color::Black));
    }
}
