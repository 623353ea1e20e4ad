//! Boards drawn as text, for the engine's unit tests.

use tengen_rules::{Board, Color, Point};

/// A board from rows of `X` (Black), `O` (White) and `.`, the first row on top; spaces between
/// points are ignored. Stones are set up, not played: nothing is captured.
pub fn board(rows: &[&str]) -> Board {
    let size = rows.len() as u8;
    let mut b = Board::new(size);
    let mut stones = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let p = b.point(c as u8, r as u8).expect("a point of the board");
            match ch {
                'X' => stones.push((p, Some(Color::Black))),
                'O' => stones.push((p, Some(Color::White))),
                _ => {}
            }
        }
    }
    b.setup(&stones).expect("a position without captures");
    b
}

/// The point a GTP vertex names on `b`.
pub fn at(b: &Board, s: &str) -> Point {
    tengen_rules::coord::gtp::parse_point(b.size(), s).expect("a vertex")
}
