//! The ladder features of KataGo's inputs (features 14 to 17), read as KataGo reads them
//! (`Board::searchIsLadderCaptured` and `searchIsLadderCapturedAttackerFirst2Libs` in
//! `cpp/game/board.cpp`; `iterLadders` in `cpp/neuralnet/nninputs.cpp`).
//!
//! Not [`crate::ladder`]: the net was trained on KataGo's exact answers, so this reader keeps
//! KataGo's rules where they differ from a Go player's: the defender wins when the attacker
//! leaves a simple ko point, any ko is cleared for the defender at the root, the attacker wins
//! a double-ko death, and a search that exhausts 25,000 nodes says "not caught". The move
//! order heuristics of KataGo only change which branch is read first, not the answer.

use tengen_rules::{Board, Color, Point};

/// KataGo's node budget for one read.
const BUDGET: u32 = 25_000;

struct Read {
    stone: Point,
    defender: Color,
    nodes: u32,
    exhausted: bool,
    max_depth: usize,
}

/// KataGo's `isLegal` without multi-stone suicide: empty, not the ko point, not suicide.
fn legal(board: &Board, p: Point, c: Color) -> bool {
    board.is_empty(p) && board.ko_point() != Some(p) && !board.is_suicide(p, c)
}

fn empty_neighbors(board: &Board, p: Point) -> usize {
    board.neighbors(p).filter(|&q| board.is_empty(q)).count()
}

/// Whether `c` playing `p` would capture one stone as a ko.
fn would_be_ko_capture(board: &mut Board, p: Point, c: Color) -> bool {
    if !board.is_empty(p) {
        return false;
    }
    let played = board.play(p, c);
    let ko = board.ko_point().is_some();
    board.undo(&played);
    ko
}

/// Liberties of `c`'s chain after playing `p`, up to `max`.
fn liberties_after(board: &mut Board, p: Point, c: Color, max: usize) -> usize {
    let played = board.play(p, c);
    let libs = if played.is_suicide() {
        0
    } else {
        board.liberty_count(p).min(max)
    };
    board.undo(&played);
    libs
}

/// Liberties of the attacker chains in atari next to the chain through `stone`.
fn capturing_moves(board: &Board, stone: Point, out: &mut Vec<Point>) {
    let Some(me) = board.get(stone) else { return };
    for s in board.chain(stone) {
        for q in board.neighbors(s) {
            if board.get(q) == Some(me.opponent()) && board.liberty_count(q) == 1 {
                for lib in board.liberties(q) {
                    if !out.contains(&lib) {
                        out.push(lib);
                    }
                }
            }
        }
    }
}

impl Read {
    /// Whether the chain is caught with `defender_turn` to move at `depth`.
    fn search(&mut self, board: &mut Board, defender_turn: bool, depth: usize) -> bool {
        if self.exhausted {
            return false;
        }
        if depth >= self.max_depth {
            return true;
        }
        if self.nodes >= BUDGET {
            self.exhausted = true;
            return false;
        }
        let libs = board.liberty_count(self.stone);
        let moves = if defender_turn {
            if libs >= 2 || board.ko_point().is_some() {
                return false;
            }
            let mut moves = Vec::new();
            capturing_moves(board, self.stone, &mut moves);
            for lib in board.liberties(self.stone) {
                if !moves.contains(&lib) {
                    moves.push(lib);
                }
            }
            moves
        } else {
            if libs <= 1 {
                return true;
            }
            if libs >= 3 {
                return false;
            }
            match self.attacker_moves(board) {
                Ok(moves) => moves,
                Err(caught) => return caught,
            }
        };
        let mover = if defender_turn {
            self.defender
        } else {
            self.defender.opponent()
        };
        for m in moves {
            if !legal(board, m, mover) {
                continue;
            }
            let played = board.play(m, mover);
            self.nodes += 1;
            let caught = self.search(board, !defender_turn, depth + 1);
            board.undo(&played);
            if self.exhausted {
                return false;
            }
            if defender_turn && !caught {
                return false;
            }
            if !defender_turn && caught {
                return true;
            }
        }
        defender_turn
    }

    /// The attacker's two ataris, or the answer when KataGo decides without reading.
    fn attacker_moves(&mut self, board: &mut Board) -> Result<Vec<Point>, bool> {
        let libs = board.liberties(self.stone);
        let (l0, l1) = (libs[0], libs[1]);
        let (n0, n1) = (empty_neighbors(board, l0), empty_neighbors(board, l1));
        let att = self.defender.opponent();
        if n0 == 0
            && n1 == 0
            && would_be_ko_capture(board, l0, att)
            && would_be_ko_capture(board, l1, att)
            && liberties_after(board, l0, self.defender, 3) <= 2
            && liberties_after(board, l1, self.defender, 3) <= 2
        {
            let mut caps = Vec::new();
            capturing_moves(board, self.stone, &mut caps);
            if caps.is_empty() {
                return Err(true);
            }
        }
        if !board.neighbors(l0).any(|q| q == l1) {
            if n0 >= 3 && n1 >= 3 {
                return Err(false);
            } else if n0 >= 3 {
                return Ok(vec![l0]);
            } else if n1 >= 3 {
                return Ok(vec![l1]);
            }
        }
        Ok(vec![l0, l1])
    }
}

/// KataGo's `searchIsLadderCaptured`: is the chain through `stone` (at most two liberties;
/// one if the defender moves first) caught in a ladder?
pub fn is_captured(board: &mut Board, stone: Point, defender_first: bool) -> bool {
    let Some(defender) = board.get(stone) else {
        return false;
    };
    let libs = board.liberty_count(stone);
    if libs > 2 || (defender_first && libs > 1) {
        return false;
    }
    let size = board.size() as usize;
    let mut read = Read {
        stone,
        defender,
        nodes: 0,
        exhausted: false,
        max_depth: size * size * 3 / 2,
    };
    // Any ko is assumed to work for the defender at the root.
    let ko = if defender_first { board.pass() } else { None };
    let caught = read.search(board, defender_first, 0);
    if defender_first {
        board.undo_pass(ko);
    }
    caught
}

/// KataGo's `searchIsLadderCapturedAttackerFirst2Libs`: the ataris on a two-liberty chain
/// that catch it in a ladder (empty when none does).
pub fn working_ataris(board: &mut Board, stone: Point) -> Vec<Point> {
    let Some(defender) = board.get(stone) else {
        return Vec::new();
    };
    if board.liberty_count(stone) != 2 {
        return Vec::new();
    }
    let mut working = Vec::new();
    for lib in board.liberties(stone) {
        if legal(board, lib, defender.opponent()) {
            let played = board.play(lib, defender.opponent());
            if is_captured(board, stone, true) {
                working.push(lib);
            }
            board.undo(&played);
        }
    }
    working
}

/// Calls `f(stone, working ataris)` for every stone of a chain caught in a ladder: in atari
/// and caught, or with two liberties and an atari that catches it (`iterLadders`).
pub fn for_each_laddered(board: &Board, mut f: impl FnMut(Point, &[Point])) {
    let mut copy = board.clone();
    let mut solved: Vec<(Point, bool, Vec<Point>)> = Vec::new();
    for p in board.points() {
        if board.get(p).is_none() {
            continue;
        }
        let libs = board.liberty_count(p);
        if libs != 1 && libs != 2 {
            continue;
        }
        let head = board.chain_id(p);
        if let Some((_, caught, _)) = solved.iter().find(|(h, _, _)| *h == head) {
            if *caught {
                f(p, &[]);
            }
            continue;
        }
        let (caught, working) = if libs == 1 {
            (is_captured(&mut copy, p, true), Vec::new())
        } else {
            let w = working_ataris(&mut copy, p);
            (!w.is_empty(), w)
        };
        if caught {
            f(p, &working);
        }
        solved.push((head, caught, working));
    }
}
