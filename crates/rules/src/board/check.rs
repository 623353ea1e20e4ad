//! Recomputing the board's bookkeeping from scratch, for tests and debugging.

use super::{nbr_unit, Board, Cell, ChainData, NBR_BLACK, NBR_EMPTY, NBR_WHITE};
use crate::point::{Point, MAX_CELLS};
use crate::zobrist;

impl Board {
    /// Checks every cached structure (neighbour counts, empty list, hash, chain heads, links
    /// and liberties) against values recomputed by flood fill. Returns a description of the
    /// first disagreement. Costs O(board); meant for tests.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut hash = 0u64;
        let mut empties = 0usize;
        for p in 0..self.cells {
            let cell = self.cell[p];
            let on_board = Point(p).is_on_board(self.size);
            if on_board == (cell == Cell::Wall) {
                return Err(format!("cell {p}: wall flag wrong"));
            }
            if !on_board {
                // The suicide test reads walls' chain data through head 0 and needs it empty.
                if self.head[p] != 0 {
                    return Err(format!("wall cell {p}: head {} is not 0", self.head[p]));
                }
                continue;
            }
            let mut n = 0;
            for q in self.adjacent(p) {
                n += match self.cell[q] {
                    Cell::Wall => NBR_BLACK + NBR_WHITE,
                    Cell::Empty => NBR_EMPTY,
                    Cell::Black => nbr_unit(crate::Color::Black),
                    Cell::White => nbr_unit(crate::Color::White),
                };
            }
            if n != self.nbr[p] {
                return Err(format!(
                    "cell {p}: neighbour count {:#x} != {n:#x}",
                    self.nbr[p]
                ));
            }
            match cell.color() {
                Some(c) => hash ^= zobrist::stone(c, p),
                None => {
                    empties += 1;
                    let i = self.empty_pos[p];
                    if i >= self.n_empty || self.empty[i] != p {
                        return Err(format!("empty point {p} missing from the empty list"));
                    }
                }
            }
        }
        if self.chain[0] != ChainData::default() {
            return Err(format!("chain data of wall cell 0 is {:?}", self.chain[0]));
        }
        if empties != self.n_empty as usize {
            return Err(format!(
                "empty list has {} entries, board has {empties}",
                self.n_empty
            ));
        }
        if hash != self.hash {
            return Err("hash differs from the hash recomputed from scratch".into());
        }
        let mut seen = [false; MAX_CELLS];
        for p in 0..self.cells {
            let cell = self.cell[p];
            if !matches!(cell, Cell::Black | Cell::White) || seen[p as usize] {
                continue;
            }
            // Flood fill the chain.
            let mut members = vec![p];
            seen[p as usize] = true;
            let mut i = 0;
            let mut data = ChainData::default();
            while i < members.len() {
                let s = members[i];
                data.size += 1;
                for q in self.adjacent(s) {
                    if self.cell[q] == Cell::Empty {
                        data.libs += 1;
                    } else if self.cell[q] == cell && !seen[q as usize] {
                        seen[q as usize] = true;
                        members.push(q);
                    }
                }
                i += 1;
            }
            let mut member = [false; MAX_CELLS];
            for &s in &members {
                member[s as usize] = true;
            }
            let h = self.head[p];
            if !member[h as usize] {
                return Err(format!("chain at {p}: head {h} is not a member"));
            }
            if let Some(&s) = members.iter().find(|&&s| self.head[s] != h) {
                return Err(format!("chain at {p}: stone {s} has another head"));
            }
            let mut walked = 0;
            let mut s = h;
            loop {
                if !member[s as usize] || walked > members.len() {
                    return Err(format!("chain at {p}: links leave the chain"));
                }
                walked += 1;
                s = self.next[s];
                if s == h {
                    break;
                }
            }
            if walked != members.len() {
                return Err(format!(
                    "chain at {p}: links visit {walked} of {} stones",
                    members.len()
                ));
            }
            if self.chain[h] != data {
                return Err(format!(
                    "chain at {p}: cached {:?} != recomputed {data:?}",
                    self.chain[h]
                ));
            }
            if data.libs == 0 {
                return Err(format!("chain at {p} has no liberties"));
            }
        }
        if self.ko != 0 && self.cell[self.ko] != Cell::Empty {
            return Err("ko point is occupied".into());
        }
        Ok(())
    }
}
