//! Local reading: can a chain shut in a small region be captured if its opponent moves first?
//!
//! At the end of a game the searches' playouts misjudge a few small fights the same way every
//! time, however many playouts they make: two chains sharing their last liberties where one side
//! could approach and the playouts never do (a false seki), or a chain whose eye space has an
//! opponent stone on its vital point. Where a chain is shut in by opponent chains the estimate
//! is already sure are alive, and the region it can reach holds only a few empty points, the
//! question is read out exactly: every sequence of moves inside the region, passes included.
//!
//! The question is the one Japanese rules ask of stones at the end of a game (J89, Article 7:
//! stones that can be captured by the opponent are dead), and the one area rules answer by
//! playing on: the opponent moves first and the chain's owner answers every move. Kos are won
//! by whoever takes first, since threats elsewhere are not read: after a capture the other side
//! may not retake before a move or a pass between, and no position may repeat (positional
//! superko within the region). Two passes in a row leave the chain standing (alive, or in seki).
//!
//! Sources: the shape of the question follows GNU Go's owl reading (its "attack" of a dragon with
//! the defender answering) and the solvers of Kishimoto and Müller for enclosed regions; the code
//! is a plain AND/OR search with a transposition table.

use std::collections::HashMap;

use tengen_rules::{Board, Color, Point};

/// Most positions the reading may visit before it gives up (then the searches' call stands).
const BUDGET: u32 = 50_000;

/// When the defender's captures leave more empty points than this inside the region, it has
/// room enough not to be captured by force: the reading stops there in its favour.
const ROOM: usize = 14;

/// Whether the chain on `target` is captured when its opponent moves first and both sides play
/// only on `points` (the region: its empty points, and the stones that may be captured in it,
/// which become playable once taken off). `None` when the reading is too long to finish.
pub(crate) fn captured_moving_first(
    board: &Board,
    target: Point,
    points: &[Point],
) -> Option<bool> {
    let defender = board.get(target)?;
    captured(board, target, points, defender.opponent())
}

/// Whether the chain on `target` is captured when its owner moves first: a chain captured either
/// way has no life in it, one captured only when its opponent moves first needed one more move.
pub(crate) fn captured_defending_first(
    board: &Board,
    target: Point,
    points: &[Point],
) -> Option<bool> {
    let defender = board.get(target)?;
    captured(board, target, points, defender)
}

fn captured(board: &Board, target: Point, points: &[Point], first: Color) -> Option<bool> {
    let defender = board.get(target)?;
    let mut reader = Reader {
        board: board.clone(),
        target,
        defender,
        points: points.to_vec(),
        path: vec![board.hash()],
        seen: HashMap::new(),
        nodes: 0,
    };
    // Liberties of the target first: the attacker's most forcing moves, and the defender's
    // most urgent.
    let libs = board.liberties(target);
    reader.points.sort_by_key(|p| !libs.contains(p));
    reader.attacker_wins(first, false)
}

struct Reader {
    board: Board,
    target: Point,
    defender: Color,
    points: Vec<Point>,
    /// Positions on the current line, for superko.
    path: Vec<u64>,
    /// Positions read: (stones, ko point, attacker to move, last move a pass) -> attacker wins.
    seen: HashMap<(u64, u16, bool, bool), bool>,
    nodes: u32,
}

impl Reader {
    /// True when the attacker captures the target from here with `to_move` to play.
    fn attacker_wins(&mut self, to_move: Color, passed: bool) -> Option<bool> {
        if self.board.get(self.target) != Some(self.defender) {
            return Some(true);
        }
        let room = self
            .points
            .iter()
            .filter(|&&p| self.board.is_empty(p))
            .count();
        if room > ROOM {
            return Some(false);
        }
        self.nodes += 1;
        if self.nodes > BUDGET {
            return None;
        }
        let attacking = to_move != self.defender;
        let ko = self.board.ko_point().map_or(0, |p| p.index() as u16);
        let key = (self.board.hash(), ko, attacking, passed);
        if let Some(&v) = self.seen.get(&key) {
            return Some(v);
        }
        // The mover looks for one move that reaches its goal; without one, the other side's
        // goal holds.
        let mut result = !attacking;
        for i in 0..self.points.len() {
            let p = self.points[i];
            if !self.board.is_legal_simple(p, to_move) {
                continue;
            }
            let played = self.board.play(p, to_move);
            let h = self.board.hash();
            if self.path.contains(&h) {
                self.board.undo(&played);
                continue;
            }
            self.path.push(h);
            let r = self.attacker_wins(to_move.opponent(), false);
            self.path.pop();
            self.board.undo(&played);
            if r? == attacking {
                result = attacking;
                break;
            }
        }
        if result != attacking {
            let r = if passed {
                // Two passes: the target stands.
                false
            } else {
                let ko = self.board.pass();
                let r = self.attacker_wins(to_move.opponent(), true);
                self.board.undo_pass(ko);
                r?
            };
            if r == attacking {
                result = attacking;
            }
        }
        self.seen.insert(key, result);
        Some(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::{at, board};

    fn pts(b: &Board, s: &str) -> Vec<Point> {
        s.split_whitespace().map(|w| at(b, w)).collect()
    }

    #[test]
    fn two_eyes_cannot_be_captured() {
        let b = board(&[
            ".X.XO", //
            "XXXXO", //
            "OOOOO", //
            ".....", //
            ".....",
        ]);
        assert_eq!(
            captured_moving_first(&b, at(&b, "B5"), &pts(&b, "A5 C5")),
            Some(false)
        );
    }

    #[test]
    fn straight_three_dies_to_the_vital_point() {
        // Black's eye space is A5 B5 C5: White in the middle kills.
        let b = board(&[
            "...XO", //
            "XXXXO", //
            "OOOOO", //
            ".....", //
            ".....",
        ]);
        assert_eq!(
            captured_moving_first(&b, at(&b, "D5"), &pts(&b, "A5 B5 C5")),
            Some(true)
        );
    }

    #[test]
    fn shared_liberties_with_room_to_approach_is_no_seki() {
        // White's B5 C5 and Black's row share A5 and D5, and Black has E5 besides: Black fills
        // D5 without danger and captures at A5 next. The playouts, which never fill a shared
        // liberty, see a seki here.
        let b = board(&[
            ".OO..", //
            "XXXXX", //
            "OOOOO", //
            ".....", //
            ".....",
        ]);
        assert_eq!(
            captured_moving_first(&b, at(&b, "B5"), &pts(&b, "A5 D5 E5 B5 C5")),
            Some(true)
        );
    }

    #[test]
    fn a_throw_in_that_leaves_a_dead_shape_is_read() {
        // Black's C5 B4 C4 B3 B2 A2 and White's A5 A4 share their only liberties, B5 and A3,
        // which looks like a seki; but White can fill A3 and let Black capture three stones,
        // then play A4, the vital point of the straight three left in the corner. Black moving
        // first has nothing: filling either liberty is self-atari.
        let b = board(&[
            "O.XO.", //
            "OXXOO", //
            ".XOO.", //
            "XXOOO", //
            "OOO.O",
        ]);
        let region = pts(&b, "B5 A3 A5 A4");
        let black = captured_moving_first(&b, at(&b, "B4"), &region);
        let white = captured_moving_first(&b, at(&b, "A4"), &region);
        assert_eq!((black, white), (Some(true), Some(false)));
    }
}
