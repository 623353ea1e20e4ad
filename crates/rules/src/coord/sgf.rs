//! SGF points: two letters, column then row, `a` = first, counted from the top-left (`aa`).
//! Letters `a`..`z` then `A`..`Z` (FF[4] allows 52 lines). A pass is the empty value, and on
//! boards up to 19x19 also `tt`.

use super::CoordError;
use crate::point::{Move, Point};

fn letter(i: u8) -> char {
    if i < 26 {
        (b'a' + i) as char
    } else {
        (b'A' + i - 26) as char
    }
}

fn index(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    }
}

/// Writes `p` as two letters.
pub fn format_point(size: u8, p: Point) -> String {
    let mut s = String::with_capacity(2);
    s.push(letter(p.col(size)));
    s.push(letter(p.row(size)));
    s
}

/// Writes a move; a pass is the empty value (FF[4]).
pub fn format_move(size: u8, m: Move) -> String {
    match m {
        Move::Play(p) => format_point(size, p),
        Move::Pass => String::new(),
    }
}

/// Reads a point (not a pass).
pub fn parse_point(size: u8, s: &str) -> Result<Point, CoordError> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return Err(CoordError::Malformed(s.to_string()));
    }
    let (col, row) = match (index(b[0]), index(b[1])) {
        (Some(c), Some(r)) => (c, r),
        _ => return Err(CoordError::Malformed(s.to_string())),
    };
    Point::new(size, col, row).ok_or_else(|| CoordError::OffBoard(s.to_string()))
}

/// Reads a move value: empty or (up to 19x19) `tt` is a pass.
pub fn parse_move(size: u8, s: &str) -> Result<Move, CoordError> {
    if s.is_empty() || (s == "tt" && size <= 19) {
        Ok(Move::Pass)
    } else {
        parse_point(size, s).map(Move::Play)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_left_is_aa_and_tt_is_a_pass_only_up_to_19() {
        let aa = parse_point(19, "aa").unwrap();
        assert_eq!((aa.col(19), aa.row(19)), (0, 0));
        let pd = parse_point(19, "pd").unwrap();
        assert_eq!((pd.col(19), pd.row(19)), (15, 3));
        assert_eq!(parse_move(19, "tt"), Ok(Move::Pass));
        assert_eq!(parse_move(19, ""), Ok(Move::Pass));
        let tt = parse_move(21, "tt").unwrap();
        assert_eq!(tt, Move::Play(Point::new(21, 19, 19).unwrap()));
        assert!(matches!(parse_point(9, "jj"), Err(CoordError::OffBoard(_))));
        assert!(matches!(parse_point(9, "a"), Err(CoordError::Malformed(_))));
        assert!(matches!(
            parse_point(9, "a1"),
            Err(CoordError::Malformed(_))
        ));
    }

    #[test]
    fn every_point_round_trips() {
        for size in 2..=25 {
            for row in 0..size {
                for col in 0..size {
                    let p = Point::new(size, col, row).unwrap();
                    assert_eq!(parse_point(size, &format_point(size, p)), Ok(p));
                }
            }
        }
    }
}
