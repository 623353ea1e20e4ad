//! GTP vertices: a column letter `A`..`Z` without `I`, then the row counted from the bottom
//! (`A1` is the bottom-left corner), case-insensitive; `pass` for a pass.

use super::CoordError;
use crate::point::{Move, Point};

const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// The column letter for column `col` (0 = left).
pub fn column_letter(col: u8) -> char {
    LETTERS[col as usize] as char
}

/// Writes `p` as a vertex such as `D4`.
pub fn format_point(size: u8, p: Point) -> String {
    format!("{}{}", column_letter(p.col(size)), size - p.row(size))
}

/// Writes a move: a vertex or `pass`.
pub fn format_move(size: u8, m: Move) -> String {
    match m {
        Move::Play(p) => format_point(size, p),
        Move::Pass => "pass".to_string(),
    }
}

/// Reads a vertex such as `d4` or `Q16`.
pub fn parse_point(size: u8, s: &str) -> Result<Point, CoordError> {
    let bad = || CoordError::Malformed(s.to_string());
    let mut chars = s.chars();
    let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
    let col = LETTERS
        .iter()
        .position(|&l| l as char == letter)
        .ok_or_else(bad)?;
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let number: u8 = digits.parse().map_err(|_| bad())?;
    if number == 0 || number > size || col >= size as usize {
        return Err(CoordError::OffBoard(s.to_string()));
    }
    Point::new(size, col as u8, size - number).ok_or_else(|| CoordError::OffBoard(s.to_string()))
}

/// Reads a vertex or `pass` (any case).
pub fn parse_move(size: u8, s: &str) -> Result<Move, CoordError> {
    if s.eq_ignore_ascii_case("pass") {
        Ok(Move::Pass)
    } else {
        parse_point(size, s).map(Move::Play)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_the_missing_i() {
        let a1 = parse_point(19, "A1").unwrap();
        assert_eq!((a1.col(19), a1.row(19)), (0, 18));
        let t19 = parse_point(19, "t19").unwrap();
        assert_eq!((t19.col(19), t19.row(19)), (18, 0));
        let j10 = parse_point(19, "J10").unwrap();
        assert_eq!(j10.col(19), 8, "J is the ninth column because I is skipped");
        assert!(matches!(
            parse_point(19, "I5"),
            Err(CoordError::Malformed(_))
        ));
        assert_eq!(format_point(19, j10), "J10");
        assert_eq!(format_point(25, Point::new(25, 24, 0).unwrap()), "Z25");
    }

    #[test]
    fn off_board_and_malformed() {
        assert!(matches!(parse_point(9, "K5"), Err(CoordError::OffBoard(_))));
        assert!(matches!(
            parse_point(9, "A10"),
            Err(CoordError::OffBoard(_))
        ));
        assert!(matches!(parse_point(9, "A0"), Err(CoordError::OffBoard(_))));
        for s in ["", "A", "5", "A-1", "AA1", "A1x", "é1", "A+1"] {
            assert!(
                matches!(parse_point(9, s), Err(CoordError::Malformed(_))),
                "{s}"
            );
        }
        assert_eq!(parse_move(9, "PASS"), Ok(Move::Pass));
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
