//! Taking a move back.
//!
//! A captured chain left an empty region bounded only by the capturing colour (it had no
//! liberties), so flood-filling the empty points from the capture direction restores exactly the
//! chain. The same holds for a chain lost to self-capture. After that, only the chains touching
//! the changed points need their links and liberties rebuilt.

use super::{Board, Cell};
use crate::color::Color;
use crate::point::{Point, MAX_CELLS};

/// A stone played on a [`Board`], with what [`Board::undo`] needs to take it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub(crate) point: Point,
    pub(crate) color: Color,
    /// Ko point before the move.
    pub(crate) prev_ko: u16,
    /// Bit `i` set: the opponent chain in direction `i` (up, left, right, down) was captured.
    pub(crate) cap_dirs: u8,
    pub(crate) captured: u16,
    pub(crate) suicide: bool,
}

impl Played {
    /// Where the stone went.
    pub fn point(&self) -> Point {
        self.point
    }

    /// Who played it.
    pub fn color(&self) -> Color {
        self.color
    }

    /// Opponent stones it captured.
    pub fn captured(&self) -> u16 {
        self.captured
    }

    /// True when the move removed its own chain (self-capture).
    pub fn is_suicide(&self) -> bool {
        self.suicide
    }
}

impl Board {
    /// Takes back `m`, which must be the last move played on this board: afterwards the board
    /// equals (`==`) the board before the move.
    pub fn undo(&mut self, m: &Played) {
        let p = m.point.0;
        let c = m.color;
        let mut restored = Vec::with_capacity(8);
        if m.suicide {
            let n = self.refill(p, c, &mut restored);
            self.captures[c.opponent().index()] -= n;
        } else {
            for (i, q) in self.adjacent(p).into_iter().enumerate() {
                if m.cap_dirs & (1 << i) != 0 && self.cell[q] == Cell::Empty {
                    self.refill(q, c.opponent(), &mut restored);
                }
            }
            self.captures[c.index()] -= m.captured as u32;
        }
        let adj = self.adjacent(p);
        self.clear_raw(p, &adj);
        let mut done = [false; MAX_CELLS];
        for q in self.adjacent(p) {
            self.rebuild_if_stone(q, &mut done);
        }
        for &s in &restored {
            self.rebuild_if_stone(s, &mut done);
            for q in self.adjacent(s) {
                self.rebuild_if_stone(q, &mut done);
            }
        }
        self.ko = m.prev_ko;
    }

    fn rebuild_if_stone(&mut self, q: u16, done: &mut [bool; MAX_CELLS]) {
        if matches!(self.cell[q], Cell::Black | Cell::White) && !done[q as usize] {
            self.rebuild_chain(q, done);
        }
    }

    /// Fills the empty region through `start` with stones of `c` (raw, no chain data) and
    /// returns how many were placed.
    fn refill(&mut self, start: u16, c: Color, placed: &mut Vec<u16>) -> u32 {
        let first = placed.len();
        let adj = self.adjacent(start);
        self.set_raw(start, c, &adj);
        placed.push(start);
        let mut i = first;
        while i < placed.len() {
            let s = placed[i];
            for q in self.adjacent(s) {
                if self.cell[q] == Cell::Empty {
                    let adj = self.adjacent(q);
                    self.set_raw(q, c, &adj);
                    placed.push(q);
                }
            }
            i += 1;
        }
        (placed.len() - first) as u32
    }
}
