//! The board: stones, chains and liberties, fit for playouts.
//!
//! Layout (after libego and KataGo): a padded one-dimensional array whose wall cells stop every
//! neighbour walk without a bounds test. Each chain is a circular linked list through `next`, and
//! its data lives at its head. Liberties are *pseudo-liberties*: one per stone-empty adjacency, so
//! a point next to three stones of a chain counts three times. They are cheap to keep (one add or
//! subtract per adjacency) and still exact where legality needs them: a chain has no liberty but
//! the empty point `p` exactly when its pseudo-liberty count equals the number of `p`'s neighbours
//! in the chain. Exact liberty sets come from [`Board::liberties`].
//!
//! The board knows stones, captures, the simple-ko point and the Zobrist hash; who is to move,
//! superko history and the end of the game belong to [`crate::Game`].

mod ascii;
mod check;
mod undo;

use crate::color::Color;
use crate::point::{Point, MAX_CELLS, MAX_SIZE, MIN_SIZE, STRIDE};
use crate::zobrist;

pub use ascii::ParseBoardError;
pub use undo::Played;

/// What occupies a cell of the padded array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Wall = 3,
}

impl Cell {
    #[inline]
    pub(crate) fn of(c: Color) -> Cell {
        // Black = 1, White = 2, computed rather than matched (see `nbr_count`).
        if c.index() == 0 {
            Cell::Black
        } else {
            Cell::White
        }
    }

    #[inline]
    pub(crate) fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// Neighbour counts packed in one `u16`: four bits each for black, white and empty neighbours.
/// A wall counts as both black and white, so "all four neighbours are mine" is one comparison.
const NBR_BLACK: u16 = 1;
const NBR_WHITE: u16 = 1 << 4;
const NBR_EMPTY: u16 = 1 << 8;

#[inline]
const fn nbr_unit(c: Color) -> u16 {
    match c {
        Color::Black => NBR_BLACK,
        Color::White => NBR_WHITE,
    }
}

#[inline]
const fn nbr_count(packed: u16, c: Color) -> u16 {
    // A shift rather than a match: the colour is random in playouts and a branch on it
    // mispredicts.
    (packed >> (4 * c.index())) & 0xF
}

/// A per-cell array. Indexing masks the index into range instead of checking it: every index
/// the board computes is below 703, and the mask lets the compiler drop the bounds checks that
/// otherwise cost the playout loop about a third of its instructions.
#[derive(Clone, Copy)]
pub(crate) struct Grid<T>([T; MAX_CELLS]);

impl<T: Copy> Grid<T> {
    const fn filled(v: T) -> Grid<T> {
        Grid([v; MAX_CELLS])
    }

    #[inline]
    fn prefix(&self, n: usize) -> &[T] {
        &self.0[..n]
    }

    #[inline]
    fn copy_prefix(&mut self, other: &Grid<T>, n: usize) {
        self.0[..n].copy_from_slice(&other.0[..n]);
    }

    #[inline]
    fn swap(&mut self, i: u16, j: u16) {
        self.0.swap(
            (i as usize) & (MAX_CELLS - 1),
            (j as usize) & (MAX_CELLS - 1),
        );
    }
}

impl<T> std::ops::Index<u16> for Grid<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, p: u16) -> &T {
        debug_assert!((p as usize) < MAX_CELLS);
        &self.0[(p as usize) & (MAX_CELLS - 1)]
    }
}

impl<T> std::ops::IndexMut<u16> for Grid<T> {
    #[inline(always)]
    fn index_mut(&mut self, p: u16) -> &mut T {
        debug_assert!((p as usize) < MAX_CELLS);
        &mut self.0[(p as usize) & (MAX_CELLS - 1)]
    }
}

/// Per-chain data, kept at the chain's head.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ChainData {
    /// Pseudo-liberties: stone-empty adjacencies, counted with multiplicity.
    libs: u16,
    /// Stones in the chain.
    size: u16,
}

/// A Go board of side 2 to 25.
#[derive(Clone)]
pub struct Board {
    size: u8,
    /// How many cells of the arrays this size uses.
    cells: u16,
    cell: Grid<Cell>,
    nbr: Grid<u16>,
    /// Head of the chain each stone belongs to.
    head: Grid<u16>,
    /// Next stone of the same chain (circular).
    next: Grid<u16>,
    chain: Grid<ChainData>,
    /// Empty points, in no particular order: playouts draw from here.
    empty: Grid<u16>,
    /// Where each empty point sits in `empty`.
    empty_pos: Grid<u16>,
    n_empty: u16,
    hash: u64,
    /// The point the next player may not play because it would retake a ko at once; 0 if none.
    ko: u16,
    /// Stones captured by Black and by White.
    captures: [u32; 2],
}

impl Board {
    /// An empty board of side `size`.
    ///
    /// # Panics
    /// If `size` is outside 2..=25; use [`Board::try_new`] for sizes that come from outside.
    pub fn new(size: u8) -> Board {
        Board::try_new(size).expect("board size out of range")
    }

    /// An empty board of side `size`, or `None` when the size is outside 2..=25.
    pub fn try_new(size: u8) -> Option<Board> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return None;
        }
        let cells = STRIDE * (size as u16 + 2) + 1;
        let mut b = Board {
            size,
            cells,
            cell: Grid::filled(Cell::Wall),
            nbr: Grid::filled(0),
            head: Grid::filled(0),
            next: Grid::filled(0),
            chain: Grid::filled(ChainData { libs: 0, size: 0 }),
            empty: Grid::filled(0),
            empty_pos: Grid::filled(0),
            n_empty: 0,
            hash: 0,
            ko: 0,
            captures: [0; 2],
        };
        for row in 0..size {
            for col in 0..size {
                let p = Point::at(size, col, row).0;
                b.cell[p] = Cell::Empty;
                b.empty[b.n_empty] = p;
                b.empty_pos[p] = b.n_empty;
                b.n_empty += 1;
            }
        }
        for i in 0..b.n_empty {
            let p = b.empty[i];
            let mut n = 0;
            for q in b.adjacent(p) {
                n += if b.cell[q] == Cell::Wall {
                    NBR_BLACK + NBR_WHITE
                } else {
                    NBR_EMPTY
                };
            }
            b.nbr[p] = n;
        }
        Some(b)
    }

    /// Makes `self` equal to `other` while copying only the cells `other`'s size uses: the cheap
    /// way to start a playout from a position.
    pub fn copy_from(&mut self, other: &Board) {
        let n = other.cells as usize;
        self.size = other.size;
        self.cells = other.cells;
        self.cell.copy_prefix(&other.cell, n);
        self.nbr.copy_prefix(&other.nbr, n);
        self.head.copy_prefix(&other.head, n);
        self.next.copy_prefix(&other.next, n);
        self.chain.copy_prefix(&other.chain, n);
        let e = other.n_empty as usize;
        self.empty.copy_prefix(&other.empty, e);
        self.empty_pos.copy_prefix(&other.empty_pos, n);
        self.n_empty = other.n_empty;
        self.hash = other.hash;
        self.ko = other.ko;
        self.captures = other.captures;
    }

    // ----- geometry -----

    /// Side length.
    #[inline]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The point at `col` (0 = left), `row` (0 = top), if on this board.
    #[inline]
    pub fn point(&self, col: u8, row: u8) -> Option<Point> {
        Point::new(self.size, col, row)
    }

    /// True when `p` is an intersection of this board.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        (p.0 as usize) < self.cells as usize && self.cell[p.0] != Cell::Wall
    }

    /// Every intersection, row by row from the top left.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let size = self.size;
        (0..size).flat_map(move |row| (0..size).map(move |col| Point::at(size, col, row)))
    }

    #[inline]
    pub(crate) fn adjacent(&self, p: u16) -> [u16; 4] {
        [p - STRIDE, p - 1, p + 1, p + STRIDE]
    }

    #[inline]
    fn diagonal(&self, p: u16) -> [u16; 4] {
        [
            p - STRIDE - 1,
            p - STRIDE + 1,
            p + STRIDE - 1,
            p + STRIDE + 1,
        ]
    }

    /// The on-board neighbours of `p`.
    pub fn neighbors(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        self.adjacent(p.0)
            .into_iter()
            .filter(move |&q| self.cell[q] != Cell::Wall)
            .map(Point)
    }

    // ----- queries -----

    /// The stone on `p`, if any.
    #[inline]
    pub fn get(&self, p: Point) -> Option<Color> {
        self.cell[p.0].color()
    }

    /// True when `p` is on the board and empty.
    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cell[p.0] == Cell::Empty
    }

    /// Zobrist hash of the stones (not of the player to move or the ko point).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The point where the next player may not retake a ko at once, if any.
    #[inline]
    pub fn ko_point(&self) -> Option<Point> {
        (self.ko != 0).then_some(Point(self.ko))
    }

    /// Stones captured so far by `c` (including stones `c`'s opponent lost to self-capture).
    #[inline]
    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c.index()]
    }

    /// Sets the capture counts, for positions set up from records or diagrams.
    pub fn set_captures(&mut self, black: u32, white: u32) {
        self.captures = [black, white];
    }

    /// Number of empty points.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.n_empty as usize
    }

    /// Number of stones of colour `c` on the board.
    pub fn stone_count(&self, c: Color) -> usize {
        self.points().filter(|&p| self.get(p) == Some(c)).count()
    }

    /// The stones of the chain through `p` (empty if `p` holds no stone).
    pub fn chain_stones(&self, p: Point) -> Vec<Point> {
        self.chain(p).collect()
    }

    /// The stones of the chain through `p` (none if `p` is empty), walked without allocating:
    /// the search's tactical readers ask this inside playouts.
    pub fn chain(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let h = if self.get(p).is_some() {
            self.head[p.0]
        } else {
            0
        };
        let mut s = h;
        let mut done = h == 0;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let here = s;
            s = self.next[s];
            done = s == h;
            Some(Point(here))
        })
    }

    /// The distinct liberties of the chain through `p`, in ascending index order.
    pub fn liberties(&self, p: Point) -> Vec<Point> {
        let mut libs: Vec<Point> = Vec::new();
        for s in self.chain_stones(p) {
            for q in self.adjacent(s.0) {
                if self.cell[q] == Cell::Empty {
                    libs.push(Point(q));
                }
            }
        }
        libs.sort_unstable();
        libs.dedup();
        libs
    }

    /// Up to `out.len()` distinct liberties of the chain through `p`, written to `out` in no
    /// particular order; returns how many. Walks the chain only until `out` is full, and
    /// allocates nothing: the search's tactical tests ask "one, two, or more?" many times a
    /// playout.
    pub fn some_liberties(&self, p: Point, out: &mut [Point]) -> usize {
        if out.is_empty() || self.get(p).is_none() {
            return 0;
        }
        let mut n = 0;
        let h = self.head[p.0];
        let mut s = h;
        loop {
            for q in self.adjacent(s) {
                if self.cell[q] == Cell::Empty && !out[..n].contains(&Point(q)) {
                    out[n] = Point(q);
                    n += 1;
                    if n == out.len() {
                        return n;
                    }
                }
            }
            s = self.next[s];
            if s == h {
                return n;
            }
        }
    }

    /// The size of the chain through `p` (0 if `p` is empty), counted up to `max`.
    pub fn chain_size_up_to(&self, p: Point, max: usize) -> usize {
        if self.get(p).is_none() {
            return 0;
        }
        let h = self.head[p.0];
        let mut s = h;
        let mut n = 0;
        loop {
            n += 1;
            s = self.next[s];
            if s == h || n >= max {
                return n;
            }
        }
    }

    /// Number of distinct liberties of the chain through `p` (0 if `p` is empty).
    pub fn liberty_count(&self, p: Point) -> usize {
        self.liberties(p).len()
    }

    /// True when the chain through `p` has exactly one liberty.
    pub fn in_atari(&self, p: Point) -> bool {
        self.atari_liberty(p).is_some()
    }

    /// A stable identifier of the chain through `p`: the same for every stone of the chain
    /// until the chain changes.
    #[inline]
    pub fn chain_id(&self, p: Point) -> Point {
        Point(self.head[p.0])
    }

    /// The last liberty of the chain through `p`, when that chain is in atari. Walks the chain,
    /// stopping at the second distinct liberty.
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        self.get(p)?;
        let h = self.head[p.0];
        let mut found = 0u16;
        let mut s = h;
        loop {
            for q in self.adjacent(s) {
                if self.cell[q] == Cell::Empty {
                    if found != 0 && found != q {
                        return None;
                    }
                    found = q;
                }
            }
            s = self.next[s];
            if s == h {
                break;
            }
        }
        (found != 0).then_some(Point(found))
    }

    /// How many of the points in `adj` are stones of the chain headed by `h`, whose colour is
    /// `cell`. Heads of empty points are stale, hence the colour test.
    #[inline]
    fn touching(&self, adj: &[u16; 4], cell: Cell, h: u16) -> u16 {
        // Non-short-circuit `&` and a sum: no data-dependent branches.
        adj.iter()
            .map(|&q| ((self.cell[q] == cell) & (self.head[q] == h)) as u16)
            .sum()
    }

    /// True when the chain of stone `q`, a neighbour of the empty point whose neighbours are
    /// `adj`, has no liberty but that point: its pseudo-liberties are all adjacencies to it.
    #[inline]
    fn only_liberty_here(&self, adj: &[u16; 4], q: u16) -> bool {
        let h = self.head[q];
        self.chain[h].libs == self.touching(adj, self.cell[q], h)
    }

    /// True when a stone of colour `c` on empty `p` would capture something.
    pub fn would_capture(&self, p: Point, c: Color) -> bool {
        let opp = Cell::of(c.opponent());
        let adj = self.adjacent(p.0);
        adj.iter()
            .any(|&q| self.cell[q] == opp && self.only_liberty_here(&adj, q))
    }

    /// True when a stone of colour `c` on empty `p` would leave its own chain without liberties
    /// (and capture nothing), whether or not the rules allow it.
    #[inline]
    pub fn is_suicide(&self, p: Point, c: Color) -> bool {
        self.nbr[p.0] < NBR_EMPTY && !self.saved_when_surrounded(p.0, c)
    }

    /// For an empty `p` with no empty neighbour: true when a stone of `c` there would have a
    /// liberty after the move, because a friendly neighbour chain has another liberty or an enemy
    /// neighbour chain has none but `p` (and is captured). The neighbours' cells and heads are
    /// loaded once and compared in registers, without data-dependent branches.
    #[inline]
    fn saved_when_surrounded(&self, p: u16, c: Color) -> bool {
        let me = Cell::of(c);
        let adj = self.adjacent(p);
        let cells = adj.map(|q| self.cell[q]);
        let h = adj.map(|q| self.head[q]);
        // Every neighbour is a stone or a wall. Equal heads mean the same chain: a stone's head
        // is a stone of its chain, never 0, and walls all keep head 0. So a chain touches `p` as
        // often as its head appears among the four.
        let e = |i: usize, j: usize| (h[i] == h[j]) as u16;
        let (e01, e02, e03, e12, e13, e23) = (e(0, 1), e(0, 2), e(0, 3), e(1, 2), e(1, 3), e(2, 3));
        let touching = [
            1 + e01 + e02 + e03,
            1 + e01 + e12 + e13,
            1 + e02 + e12 + e23,
            1 + e03 + e13 + e23,
        ];
        let mut saved = false;
        for i in 0..4 {
            // A wall's lane reads `chain[0]`, whose count stays 0 (walls only ever receive
            // "+ 0" and "- 0"), so for a wall `last` is false and the lane adds nothing.
            let last = self.chain[h[i]].libs == touching[i];
            // A friendly chain with another liberty, or an enemy chain with none other.
            saved |= (cells[i] == me) != last;
        }
        saved
    }

    /// The playout test for an empty `p` with no empty neighbour: not `c`'s own one-point eye,
    /// not the ko point, not suicide.
    #[inline]
    pub(crate) fn playable_when_surrounded(&self, p: Point, c: Color) -> bool {
        !self.is_eye(p, c) && p.0 != self.ko && self.saved_when_surrounded(p.0, c)
    }

    /// True when `p` has an empty neighbour.
    #[inline]
    pub fn has_empty_neighbor(&self, p: Point) -> bool {
        self.nbr[p.0] >= NBR_EMPTY
    }

    /// True when `p` has a neighbour of colour `c`: a suicide there takes more than one stone.
    pub fn has_neighbor_of(&self, p: Point, c: Color) -> bool {
        nbr_count(self.nbr[p.0], c) > self.wall_neighbors(p.0)
    }

    fn wall_neighbors(&self, p: u16) -> u16 {
        self.adjacent(p)
            .into_iter()
            .filter(|&q| self.cell[q] == Cell::Wall)
            .count() as u16
    }

    /// True when `p` is a one-point eye of `c`: all four neighbours are `c`'s stones or the edge,
    /// and enough diagonals are `c`'s that the eye is not false (at most one enemy diagonal in
    /// the middle of the board, none on the edge).
    #[inline]
    pub fn is_eye(&self, p: Point, c: Color) -> bool {
        if nbr_count(self.nbr[p.0], c) != 4 {
            return false;
        }
        self.diagonals_hold_eye(p.0, c)
    }

    /// The diagonal half of [`Board::is_eye`]. Weighing an enemy diagonal 2 and a wall 1, the eye
    /// is true exactly when the weights sum to at most 3: no enemy with the edge's two or three
    /// walls, at most one enemy in the middle. A table in a constant gives the weight of each
    /// cell value, so the test has no branches.
    #[inline]
    fn diagonals_hold_eye(&self, p: u16, c: Color) -> bool {
        let weights: u32 =
            (2 << (2 * Cell::of(c.opponent()) as u32)) | (1 << (2 * Cell::Wall as u32));
        let weight = |q: u16| (weights >> (2 * self.cell[q] as u32)) & 3;
        self.diagonal(p).into_iter().map(weight).sum::<u32>() <= 3
    }

    /// The Zobrist hash after `c` plays on empty `p`, with its captures and, if it is a
    /// self-capture, its own chain removed. The board is not changed.
    pub fn hash_after(&self, p: Point, c: Color) -> u64 {
        let mut h = self.hash ^ zobrist::stone(c, p.0);
        let opp = Cell::of(c.opponent());
        let me = Cell::of(c);
        let adj = self.adjacent(p.0);
        let mut seen = [0u16; 4];
        let mut captured_any = false;
        for (i, q) in adj.into_iter().enumerate() {
            if self.cell[q] != opp {
                continue;
            }
            let head = self.head[q];
            if seen[..i].contains(&head) || !self.only_liberty_here(&adj, q) {
                continue;
            }
            seen[i] = head;
            captured_any = true;
            let mut s = head;
            loop {
                h ^= zobrist::stone(c.opponent(), s);
                s = self.next[s];
                if s == head {
                    break;
                }
            }
        }
        if !captured_any && self.is_suicide(p, c) {
            // The new stone and every friendly chain it joins come off the board.
            h ^= zobrist::stone(c, p.0);
            let mut seen = [0u16; 4];
            for (i, q) in self.adjacent(p.0).into_iter().enumerate() {
                if self.cell[q] != me {
                    continue;
                }
                let head = self.head[q];
                if seen[..i].contains(&head) {
                    continue;
                }
                seen[i] = head;
                let mut s = head;
                loop {
                    h ^= zobrist::stone(c, s);
                    s = self.next[s];
                    if s == head {
                        break;
                    }
                }
            }
        }
        h
    }

    // ----- playing -----

    /// Fast legality test for playouts and search: `p` is empty, not the simple-ko point, and
    /// not a suicide. Superko is not considered.
    #[inline]
    pub fn is_legal_simple(&self, p: Point, c: Color) -> bool {
        self.cell[p.0] == Cell::Empty && p.0 != self.ko && !self.is_suicide(p, c)
    }

    /// Puts a stone of colour `c` on `p`, removes the opponent chains left without liberties,
    /// and, if the stone's own chain then has none, removes that chain too (self-capture; the
    /// caller's rules decide whether that was allowed). Returns what [`Board::undo`] needs.
    ///
    /// # Panics
    /// In debug builds, if `p` is not an empty point of this board. Check legality first
    /// ([`crate::Game::play`] does); release builds would corrupt the board instead.
    #[inline]
    pub fn play(&mut self, p: Point, c: Color) -> Played {
        self.play_inlined(p, c)
    }

    /// [`Board::play`], always inlined: the playout loop's copy, where the unused parts of
    /// [`Played`] then compile away.
    #[inline(always)]
    pub(crate) fn play_inlined(&mut self, p: Point, c: Color) -> Played {
        debug_assert!(
            self.contains(p) && self.is_empty(p),
            "play on a non-empty point"
        );
        let p = p.0;
        let adj = self.adjacent(p);
        let prev_ko = self.ko;
        self.ko = 0;
        let me = Cell::of(c);
        let opp = Cell::of(c.opponent());
        // The new stone's liberties: its empty neighbours, already counted in `nbr`.
        let libs = self.nbr[p] / NBR_EMPTY;
        self.set_raw(p, c, &adj);
        // The new stone as a chain of its own; it takes liberty `p` from every neighbour chain.
        // Written without branches on the neighbours' colours, which are random in playouts:
        // heads of empty and wall cells are stale, but they only ever receive "- 0".
        self.head[p] = p;
        self.next[p] = p;
        let (mut same, mut enemy) = (0u8, 0u8);
        for (i, &q) in adj.iter().enumerate() {
            let cell = self.cell[q];
            let h = self.head[q];
            let left = self.chain[h].libs - ((cell == me) | (cell == opp)) as u16;
            self.chain[h].libs = left;
            same |= ((cell == me) as u8) << i;
            // An enemy chain touched from two directions reaches zero only on the last one, so
            // each captured chain gets exactly one bit. Captures are rare: the loop below is
            // almost never entered and its branch predicts well.
            enemy |= (((cell == opp) & (left == 0)) as u8) << i;
        }
        if same == 0 {
            self.chain[p] = ChainData { libs, size: 1 };
        } else {
            // The stone joins its first friendly neighbour's chain directly: a chain of one
            // stone is never the larger side of a merge, so this is `merge` without its walk.
            let h = self.head[adj[same.trailing_zeros() as usize]];
            same &= same - 1;
            self.head[p] = h;
            self.next[p] = self.next[h];
            self.next[h] = p;
            let ch = &mut self.chain[h];
            ch.libs += libs;
            ch.size += 1;
            while same != 0 {
                let q = adj[same.trailing_zeros() as usize];
                same &= same - 1;
                let (a, b) = (self.head[p], self.head[q]);
                if a != b {
                    self.merge(a, b);
                }
            }
        }
        let mut captured: u16 = 0;
        let mut cap_dirs: u8 = 0;
        let mut last_captured = 0u16;
        while enemy != 0 {
            let i = enemy.trailing_zeros();
            enemy &= enemy - 1;
            let q = adj[i as usize];
            let h = self.head[q];
            captured += self.remove_chain(h, me);
            cap_dirs |= 1 << i;
            last_captured = q;
        }
        let h = self.head[p];
        let mut suicide = false;
        if captured == 0 && self.chain[h].libs == 0 {
            let lost = self.remove_chain(h, opp);
            self.captures[c.opponent().index()] += lost as u32;
            suicide = true;
        } else {
            self.captures[c.index()] += captured as u32;
            // A lone stone that took a lone stone and whose one liberty is that point: ko.
            let ch = self.chain[h];
            if captured == 1 && ch.size == 1 && ch.libs == 1 {
                self.ko = last_captured;
            }
        }
        Played {
            point: Point(p),
            color: c,
            prev_ko,
            cap_dirs,
            captured,
            suicide,
        }
    }

    /// Records a pass on the board: only the ko ban is lifted. Returns the ko point to restore
    /// on undo.
    pub fn pass(&mut self) -> Option<Point> {
        let prev = self.ko_point();
        self.ko = 0;
        prev
    }

    /// Restores the ko point a pass lifted (the undo of [`Board::pass`]).
    pub fn undo_pass(&mut self, prev_ko: Option<Point>) {
        self.ko = prev_ko.map_or(0, |p| p.0);
    }

    // ----- internal bookkeeping -----

    /// Joins chain `b` into chain `a` (the larger one keeps its head).
    #[inline]
    fn merge(&mut self, mut a: u16, mut b: u16) {
        if self.chain[a].size < self.chain[b].size {
            std::mem::swap(&mut a, &mut b);
        }
        let mut s = b;
        loop {
            self.head[s] = a;
            s = self.next[s];
            if s == b {
                break;
            }
        }
        self.next.swap(a, b);
        let bd = self.chain[b];
        let ad = &mut self.chain[a];
        ad.libs += bd.libs;
        ad.size += bd.size;
    }

    /// Takes the chain headed by `h` off the board, giving liberties back to the neighbouring
    /// stones of `capturer` (the only other colour a chain without liberties can touch).
    /// Returns the number of stones removed.
    // Out of line: captures come a few times a playout, and inlined into the playout loop this
    // walk takes registers the common path needs (measured 1% slower on 9x9).
    #[inline(never)]
    fn remove_chain(&mut self, h: u16, capturer: Cell) -> u16 {
        let mut n = 0;
        let mut s = h;
        loop {
            let nx = self.next[s];
            let adj = self.adjacent(s);
            self.clear_raw(s, &adj);
            for q in adj {
                // Branch-free: non-capturer cells (stale heads included) receive "+ 0".
                let hq = self.head[q];
                self.chain[hq].libs += (self.cell[q] == capturer) as u16;
            }
            n += 1;
            s = nx;
            if s == h {
                break;
            }
        }
        n
    }

    /// Sets the cell, hash, neighbour counts and empty list, but no chain data.
    #[inline]
    fn set_raw(&mut self, p: u16, c: Color, adj: &[u16; 4]) {
        self.cell[p] = Cell::of(c);
        self.hash ^= zobrist::stone(c, p);
        // Wall cells get updated too (cheaper than testing); their counts are never read, so
        // the arithmetic wraps instead of overflowing.
        let delta = nbr_unit(c).wrapping_sub(NBR_EMPTY);
        for &q in adj {
            self.nbr[q] = self.nbr[q].wrapping_add(delta);
        }
        let i = self.empty_pos[p];
        self.n_empty -= 1;
        let last = self.empty[self.n_empty];
        self.empty[i] = last;
        self.empty_pos[last] = i;
    }

    /// Empties a stone's cell: hash, neighbour counts and empty list, but no chain data.
    #[inline]
    fn clear_raw(&mut self, p: u16, adj: &[u16; 4]) {
        let c = match self.cell[p].color() {
            Some(c) => c,
            None => return,
        };
        self.cell[p] = Cell::Empty;
        self.hash ^= zobrist::stone(c, p);
        let delta = NBR_EMPTY.wrapping_sub(nbr_unit(c));
        for &q in adj {
            self.nbr[q] = self.nbr[q].wrapping_add(delta);
        }
        self.empty[self.n_empty] = p;
        self.empty_pos[p] = self.n_empty;
        self.n_empty += 1;
    }

    /// Recomputes the chain through stone `start` from scratch: head, links, liberties.
    /// `done` marks stones already rebuilt in this pass.
    fn rebuild_chain(&mut self, start: u16, done: &mut [bool; MAX_CELLS]) {
        let cell = self.cell[start];
        debug_assert!(matches!(cell, Cell::Black | Cell::White));
        let mut stack = [0u16; MAX_CELLS];
        let mut top = 0;
        stack[top] = start;
        top += 1;
        done[start as usize] = true;
        let mut data = ChainData::default();
        let mut prev = start;
        while top > 0 {
            top -= 1;
            let s = stack[top];
            self.head[s] = start;
            if s != start {
                self.next[prev] = s;
                prev = s;
            }
            data.size += 1;
            for q in self.adjacent(s) {
                let qc = self.cell[q];
                if qc == Cell::Empty {
                    data.libs += 1;
                } else if qc == cell && !done[q as usize] {
                    done[q as usize] = true;
                    stack[top] = q;
                    top += 1;
                }
            }
        }
        self.next[prev] = start;
        self.chain[start] = data;
    }

    /// Rebuilds every chain on the board, after raw edits.
    fn rebuild_all(&mut self) {
        let mut done = [false; MAX_CELLS];
        for p in 0..self.cells {
            if matches!(self.cell[p], Cell::Black | Cell::White) && !done[p as usize] {
                self.rebuild_chain(p, &mut done);
            }
        }
    }

    /// Puts or removes setup stones (SGF `AB`/`AW`/`AE`, handicap, diagrams) without captures.
    /// Fails, changing nothing, if a point is off the board or the result has a chain without
    /// liberties. Clears the ko point.
    pub fn setup(&mut self, stones: &[(Point, Option<Color>)]) -> Result<(), SetupError> {
        if let Some(&(p, _)) = stones.iter().find(|(p, _)| !self.contains(*p)) {
            return Err(SetupError::OffBoard(p));
        }
        let before = self.clone();
        for &(p, c) in stones {
            let adj = self.adjacent(p.0);
            self.clear_raw(p.0, &adj);
            if let Some(c) = c {
                self.set_raw(p.0, c, &adj);
            }
        }
        self.rebuild_all();
        self.ko = 0;
        let dead = self
            .points()
            .find(|&p| self.get(p).is_some() && self.chain[self.head[p.0]].libs == 0);
        if let Some(p) = dead {
            *self = before;
            return Err(SetupError::NoLiberties(p));
        }
        Ok(())
    }

    /// The `i`-th empty point in the board's internal order (for playouts).
    #[inline]
    pub(crate) fn empty_at(&self, i: usize) -> u16 {
        self.empty[i as u16]
    }

    /// Swaps two entries of the empty list (playouts shrink their candidate range this way).
    #[inline]
    pub(crate) fn swap_empty(&mut self, i: usize, j: usize) {
        let (i, j) = (i as u16, j as u16);
        self.empty.swap(i, j);
        self.empty_pos[self.empty[i]] = i;
        self.empty_pos[self.empty[j]] = j;
    }
}

/// Why a setup was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The point is not on this board.
    #[error("setup point is off the board")]
    OffBoard(Point),
    /// The setup leaves the chain through this point without liberties.
    #[error("setup leaves a chain without liberties")]
    NoLiberties(Point),
}

/// Boards are equal when they show the same position: stones, captures and ko point. The
/// internal order of the empty list is not part of the position.
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.hash == other.hash
            && self.ko == other.ko
            && self.captures == other.captures
            && self.cell.prefix(self.cells as usize) == other.cell.prefix(other.cells as usize)
    }
}

impl Eq for Board {}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board {}x{}\n{}", self.size, self.size, self)
    }
}
