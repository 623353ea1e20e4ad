//! Points on the board and moves.
//!
//! A [`Point`] is an index into the board's padded one-dimensional array. Every board size uses
//! the same layout (rows of [`STRIDE`] cells: a wall cell, then up to 25 intersections), so a
//! point means the same intersection on any board it fits on and neighbour offsets are constants.
//! Row 0 is the top row and column 0 the left column; the GTP and SGF spellings live in
//! [`crate::coord`].

/// The largest board side Tengen supports (SGF and GTP letters run out beyond 25).
pub const MAX_SIZE: u8 = 25;
/// The smallest board side.
pub const MIN_SIZE: u8 = 2;
/// Cells per row of the padded array: one wall cell shared between neighbouring rows, then the
/// intersections. The same for every size, so that neighbour offsets are compile-time constants.
pub(crate) const STRIDE: u16 = MAX_SIZE as u16 + 1;
/// Array length that holds the padded board of the largest size (26 x 27 + 1 = 703 cells: a wall
/// row above and below, a wall column shared between rows, one more cell for the bottom-right
/// diagonal), rounded up to a power of two so that `index & (MAX_CELLS - 1)` is provably in
/// bounds and the board's hot loops carry no bounds checks.
pub(crate) const MAX_CELLS: usize = 1024;

/// An intersection, as an index into the padded board array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub(crate) u16);

impl Point {
    /// The point at `col` (0 = left) and `row` (0 = top) on a board of side `size`, or `None`
    /// if it lies off the board.
    #[inline]
    pub fn new(size: u8, col: u8, row: u8) -> Option<Point> {
        if col < size && row < size && (MIN_SIZE..=MAX_SIZE).contains(&size) {
            Some(Point::at(size, col, row))
        } else {
            None
        }
    }

    /// Like [`Point::new`] for coordinates known to be on the board.
    #[inline]
    pub(crate) fn at(_size: u8, col: u8, row: u8) -> Point {
        Point((row as u16 + 1) * STRIDE + col as u16 + 1)
    }

    /// Column, 0 = left.
    #[inline]
    pub fn col(self, _size: u8) -> u8 {
        (self.0 % STRIDE) as u8 - 1
    }

    /// Row, 0 = top.
    #[inline]
    pub fn row(self, _size: u8) -> u8 {
        (self.0 / STRIDE) as u8 - 1
    }

    /// The raw array index, for callers that keep per-point tables.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The point whose [`Point::index`] is `index`, the inverse of `index` for compact
    /// encodings (the search tree packs a move in one integer); `None` past any board's
    /// cells. Whether it is on a given board is [`Point::is_on_board`]'s question.
    pub fn from_index(index: usize) -> Option<Point> {
        (index < MAX_CELLS).then_some(Point(index as u16))
    }

    /// True when this index is an intersection of a board of side `size` (not a wall cell).
    pub fn is_on_board(self, size: u8) -> bool {
        let (r, c) = (self.0 / STRIDE, self.0 % STRIDE);
        (1..=size as u16).contains(&r) && (1..=size as u16).contains(&c)
    }
}

/// What a player does on a turn: put a stone down or pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone on this point.
    Play(Point),
    /// No stone this turn.
    Pass,
}

impl Move {
    /// The point played, if any.
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        }
    }
}

/// A set of points: a bitset over the padded array, cheap to copy and compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PointSet([u64; MAX_CELLS.div_ceil(64)]);

impl PointSet {
    /// The empty set.
    pub const fn new() -> PointSet {
        PointSet([0; MAX_CELLS.div_ceil(64)])
    }

    /// Adds `p`; true if it was not there.
    pub fn insert(&mut self, p: Point) -> bool {
        let (w, b) = (p.0 as usize / 64, p.0 % 64);
        let had = self.0[w] >> b & 1 == 1;
        self.0[w] |= 1 << b;
        !had
    }

    /// Removes `p`; true if it was there.
    pub fn remove(&mut self, p: Point) -> bool {
        let (w, b) = (p.0 as usize / 64, p.0 % 64);
        let had = self.0[w] >> b & 1 == 1;
        self.0[w] &= !(1 << b);
        had
    }

    /// True when `p` is in the set.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        (p.0 as usize) < MAX_CELLS && self.0[p.0 as usize / 64] >> (p.0 % 64) & 1 == 1
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Removes everything.
    pub fn clear(&mut self) {
        self.0 = [0; MAX_CELLS.div_ceil(64)];
    }

    /// The points in ascending index order (top row first, left to right).
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64u16)
                .filter(move |b| bits >> b & 1 == 1)
                .map(move |b| Point(w as u16 * 64 + b))
        })
    }
}

impl FromIterator<Point> for PointSet {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> PointSet {
        let mut s = PointSet::new();
        for p in iter {
            s.insert(p);
        }
        s
    }
}

impl std::fmt::Debug for PointSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter().map(|p| p.0)).finish()
    }
}
