//! 3x3 shape patterns: the hane, cut and edge shapes of MoGo (Gelly, Wang, Munos & Teytaud,
//! "Modification of UCT with patterns in Monte-Carlo Go", 2006), as Pachi's playouts
//! (`playout/moggy.c`) spell them. A playout move next to the last move that matches one is
//! played before a random one; the search's priors favour them too.
//!
//! A pattern is three rows of three cells around the candidate (the centre, always empty):
//! `X` a stone of one colour, `O` the other, `.` empty, `#` off the board, `x` not `X` (empty or
//! `O`), `o` not `O`, `?` anything. Every pattern counts in its eight rotations and reflections
//! and with the colours swapped, so one table of the 4^8 neighbourhoods answers for both players.

use std::sync::OnceLock;

use tengen_rules::{Board, Color, Point};

/// The MoGo patterns, rows top to bottom.
const PATTERNS: [&str; 13] = [
    // Hane: enclosing hane.
    "XOX...???",
    // Hane: non-cutting hane.
    "XO....?.?",
    // Hane: magari.
    "XO?X..x.?",
    // Generic: katatsuke or diagonal attachment.
    ".O.X.....",
    // Cut: unprotected cut (kiri).
    "XO?O.o?o?",
    // Cut: peeped cut.
    "XO?O.X???",
    // Cut: de.
    "?X?O.Oooo",
    // Cut: keima cut.
    "OX?o.O???",
    // Edge: chase.
    "X.?O.?##?",
    // Edge: block a side cut.
    "OX?X.O###",
    // Edge: block a side connection.
    "?X?x.O###",
    // Edge: sagari.
    "?XOx.x###",
    // Edge: cut.
    "?OXX.O###",
];

/// What a neighbouring cell holds, as two bits of the key.
const EMPTY: u16 = 0;
const BLACK: u16 = 1;
const WHITE: u16 = 2;
const EDGE: u16 = 3;

/// Offsets of the eight neighbours, in key order (row by row, the centre left out).
const OFFSETS: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The eight neighbours of every point of a board of one size, in [`OFFSETS`] order (`None`
/// off the board), indexed by [`Point::index`]: computed once a size, then only read.
fn ring(size: u8) -> &'static [[Option<Point>; 8]] {
    static RINGS: [OnceLock<Vec<[Option<Point>; 8]>>; 26] = [const { OnceLock::new() }; 26];
    RINGS[size as usize].get_or_init(|| {
        let board = Board::new(size);
        let cells = board.points().map(|p| p.index()).max().unwrap_or(0) + 1;
        let mut ring = vec![[None; 8]; cells];
        for p in board.points() {
            let (col, row) = (p.col(size) as i16, p.row(size) as i16);
            for (i, (dx, dy)) in OFFSETS.iter().enumerate() {
                let (c, r) = (col + *dx as i16, row + *dy as i16);
                if c >= 0 && r >= 0 {
                    ring[p.index()][i] = Point::new(size, c as u8, r as u8);
                }
            }
        }
        ring
    })
}

/// The neighbourhood of `p` as a key: two bits a neighbour, in [`OFFSETS`] order.
#[inline]
pub fn key(board: &Board, p: Point) -> u16 {
    let mut k = 0u16;
    for (i, q) in ring(board.size())[p.index()].iter().enumerate() {
        let v = match q.map(|q| board.get(q)) {
            None => EDGE,
            Some(None) => EMPTY,
            Some(Some(Color::Black)) => BLACK,
            Some(Some(Color::White)) => WHITE,
        };
        k |= v << (2 * i);
    }
    k
}

/// The points around `p` (its eight neighbours), in no special order.
#[inline]
pub fn around(board: &Board, p: Point) -> impl Iterator<Item = Point> + '_ {
    ring(board.size())[p.index()].iter().flatten().copied()
}

/// True when the empty point `p` has one of the patterns around it.
pub fn matches(board: &Board, p: Point) -> bool {
    table()[key(board, p) as usize]
}

/// The table of every neighbourhood: true where a pattern matches.
fn table() -> &'static [bool] {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// The values a pattern character allows, with `x` the colour of `X`.
fn allowed(ch: u8, x: u16) -> Vec<u16> {
    let o = if x == BLACK { WHITE } else { BLACK };
    match ch {
        b'X' => vec![x],
        b'O' => vec![o],
        b'.' => vec![EMPTY],
        b'#' => vec![EDGE],
        b'x' => vec![EMPTY, o],
        b'o' => vec![EMPTY, x],
        _ => vec![EMPTY, BLACK, WHITE, EDGE],
    }
}

/// The eight symmetries of the square, as maps of an offset.
fn transform(t: usize, (dx, dy): (i8, i8)) -> (i8, i8) {
    let (x, y) = if t & 4 != 0 { (dy, dx) } else { (dx, dy) };
    let x = if t & 1 != 0 { -x } else { x };
    let y = if t & 2 != 0 { -y } else { y };
    (x, y)
}

fn build() -> Vec<bool> {
    let mut table = vec![false; 1 << 16];
    for pat in PATTERNS {
        let cells: Vec<u8> = pat.bytes().collect();
        for t in 0..8 {
            for x in [BLACK, WHITE] {
                // For each key position, the values the transformed pattern allows there.
                let mut sets: Vec<Vec<u16>> = vec![Vec::new(); 8];
                for (i, &(dx, dy)) in OFFSETS.iter().enumerate() {
                    let (sx, sy) = transform(t, (dx, dy));
                    let ch = cells[((sy + 1) * 3 + (sx + 1)) as usize];
                    sets[i] = allowed(ch, x);
                }
                fill(&mut table, &sets, 0, 0);
            }
        }
    }
    table
}

fn fill(table: &mut [bool], sets: &[Vec<u16>], i: usize, key: u16) {
    if i == sets.len() {
        table[key as usize] = true;
        return;
    }
    for &v in &sets[i] {
        fill(table, sets, i + 1, key | (v << (2 * i)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(b: &Board, v: &str) -> Point {
        tengen_rules::coord::gtp::parse_point(b.size(), v).unwrap()
    }

    #[test]
    fn hane_and_cut_match_in_every_orientation_and_colour() {
        let b: Board = ". . . . .
                        . X O X .
                        . . . . .
                        . . . . .
                        . . . . ."
            .parse()
            .unwrap();
        assert!(matches(&b, at(&b, "C3")), "enclosing hane below O");
        let swapped: Board = ". . . . .
                              . O X O .
                              . . . . .
                              . . . . .
                              . . . . ."
            .parse()
            .unwrap();
        assert!(matches(&swapped, at(&swapped, "C3")));
        let turned: Board = ". . . . .
                             . . X . .
                             . . O . .
                             . . X . .
                             . . . . ."
            .parse()
            .unwrap();
        assert!(matches(&turned, at(&turned, "D3")));
        // The unprotected cut.
        let cut: Board = ". . . . .
                          . X O . .
                          . O . . .
                          . . . . .
                          . . . . ."
            .parse()
            .unwrap();
        assert!(matches(&cut, at(&cut, "C3")));
        // An empty neighbourhood matches nothing; nor does a lone stone's diagonal.
        let empty = Board::new(5);
        assert!(!matches(&empty, at(&empty, "C3")));
        let lone: Board = ". . . . .
                           . X . . .
                           . . . . .
                           . . . . .
                           . . . . ."
            .parse()
            .unwrap();
        assert!(!matches(&lone, at(&lone, "C3")));
    }
}
