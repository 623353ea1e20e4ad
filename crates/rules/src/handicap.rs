//! Fixed handicap placements.
//!
//! Up to nine stones follow GNU Go (and so the GTP `fixed_handicap` command) point for point and
//! in the same order, top row first: star points on the third line below 12x12 and on the fourth
//! from 12x12 up; no fixed handicap below 7x7; at most four stones on 7x7 and on even sizes, which
//! have no centre point. With two or three stones the corner at the lower right as printed stays
//! empty, the "far left corner" of seed 001 as seen from White's side of the board.
//!
//! Seed 002 also allows 13, 21 and 25 stones on 19x19. Those use the 5x5 grid of lines 4, 7, 10,
//! 13 and 16: 13 stones are the nine star points plus the four points (7,7), (7,13), (13,7),
//! (13,13); 21 add the eight points of lines 4 and 16 crossed with lines 7 and 13; 25 fill the
//! grid. Every pattern is symmetric under the board's rotations and reflections.

use crate::point::Point;

/// The fixed points for `stones` handicap stones on a board of side `size`, in GNU Go's order,
/// or `None` when that handicap has no fixed placement on that board.
pub fn fixed(size: u8, stones: u8) -> Option<Vec<Point>> {
    if size < 7 || stones < 2 || size > crate::point::MAX_SIZE {
        return None;
    }
    if matches!(stones, 13 | 21 | 25) {
        return (size == 19).then(|| grid19(stones));
    }
    if stones > 9 || (stones > 4 && (size == 7 || size % 2 == 0)) {
        return None;
    }
    let edge = if size >= 12 { 3 } else { 2 };
    let (lo, mid, hi) = (edge, size / 2, size - 1 - edge);
    // (col, row) with row 0 at the top.
    let mut pts: Vec<(u8, u8)> = vec![(hi, lo), (lo, hi)];
    if stones >= 3 {
        pts.push((lo, lo));
    }
    if stones >= 4 {
        pts.push((hi, hi));
    }
    if stones >= 6 {
        pts.push((lo, mid));
        pts.push((hi, mid));
    }
    if stones >= 8 {
        pts.push((mid, lo));
        pts.push((mid, hi));
    }
    if stones % 2 == 1 && stones >= 5 {
        pts.push((mid, mid));
    }
    Some(in_board_order(size, pts))
}

fn grid19(stones: u8) -> Vec<Point> {
    const LINES: [u8; 5] = [3, 6, 9, 12, 15];
    let star = |v: u8| matches!(v, 3 | 9 | 15);
    let inner = |v: u8| matches!(v, 6 | 12);
    let mut pts = Vec::new();
    for &r in &LINES {
        for &c in &LINES {
            let take = (star(r) && star(c))
                || (inner(r) && inner(c))
                || (stones >= 21
                    && ((matches!(r, 3 | 15) && inner(c)) || (inner(r) && matches!(c, 3 | 15))))
                || stones == 25;
            if take {
                pts.push((c, r));
            }
        }
    }
    in_board_order(19, pts)
}

fn in_board_order(size: u8, mut pts: Vec<(u8, u8)>) -> Vec<Point> {
    pts.sort_by_key(|&(c, r)| (r, c));
    pts.into_iter()
        .map(|(c, r)| Point::at(size, c, r))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coord::gtp;

    fn names(size: u8, n: u8) -> String {
        fixed(size, n)
            .map(|v| {
                v.iter()
                    .map(|&p| gtp::format_point(size, p))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_else(|| "invalid".into())
    }

    /// The expected strings are GNU Go 3.8's answers to `fixed_handicap N`.
    #[test]
    fn matches_gnu_go() {
        assert_eq!(names(19, 2), "Q16 D4");
        assert_eq!(names(19, 3), "D16 Q16 D4");
        assert_eq!(names(19, 5), "D16 Q16 K10 D4 Q4");
        assert_eq!(names(19, 6), "D16 Q16 D10 Q10 D4 Q4");
        assert_eq!(names(19, 7), "D16 Q16 D10 K10 Q10 D4 Q4");
        assert_eq!(names(19, 8), "D16 K16 Q16 D10 Q10 D4 K4 Q4");
        assert_eq!(names(19, 9), "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4");
        assert_eq!(names(13, 5), "D10 K10 G7 D4 K4");
        assert_eq!(names(9, 2), "G7 C3");
        assert_eq!(names(9, 3), "C7 G7 C3");
        assert_eq!(names(9, 9), "C7 E7 G7 C5 E5 G5 C3 E3 G3");
        assert_eq!(names(7, 4), "C5 E5 C3 E3");
        assert_eq!(names(7, 5), "invalid");
        assert_eq!(names(8, 4), "C6 F6 C3 F3");
        assert_eq!(names(8, 5), "invalid");
        assert_eq!(names(11, 9), "C9 F9 J9 C6 F6 J6 C3 F3 J3");
        assert_eq!(names(12, 2), "J9 D4");
        assert_eq!(names(6, 2), "invalid");
        assert_eq!(names(19, 10), "invalid");
    }

    #[test]
    fn large_handicaps_are_symmetric_grids() {
        for n in [13u8, 21, 25] {
            let pts = fixed(19, n).unwrap();
            assert_eq!(pts.len(), n as usize);
            let set: std::collections::HashSet<(u8, u8)> =
                pts.iter().map(|p| (p.col(19), p.row(19))).collect();
            for &(c, r) in &set {
                assert!(
                    set.contains(&(18 - c, r))
                        && set.contains(&(c, 18 - r))
                        && set.contains(&(r, c))
                );
            }
        }
        assert!(fixed(13, 13).is_none());
    }
}
