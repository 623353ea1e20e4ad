//! Nakade: the vital point of a small eye space. An empty region of three to five points shut
//! in by one colour's stones lives or dies by one point: the middle of a straight or bent
//! three, the centre of a pyramid four or a cross five, the point of a bulky five that touches
//! three others. Whoever plays it first decides the group (the owner makes two eyes; the
//! opponent leaves one). Random playouts find it by chance only, so a group with such an eye
//! space lives in some playouts and dies in others, and the search misjudges it; Pachi's moggy
//! playouts answer with the vital point for the same reason.
//!
//! Shapes with two vital points (straight and bent four, the square four, which is dead
//! anyway) have none here: either point answers the other.

use tengen_rules::{Board, Color, Point};

/// The largest eye space read.
const MAX: usize = 5;

/// The vital point of the eye space next to the stone on `last` (any empty region of three to
/// five points touching it whose bordering stones are all of that stone's colour), if its
/// shape has one.
pub fn vital_point_near(board: &Board, last: Point) -> Option<Point> {
    let owner = board.get(last)?;
    let mut seen: [Option<Point>; 4] = [None; 4];
    for (i, q) in board.neighbors(last).enumerate() {
        if !board.is_empty(q) || seen.contains(&Some(q)) {
            continue;
        }
        let mut region = [q; MAX];
        let Some(n) = eye_space(board, q, owner, &mut region) else {
            continue;
        };
        seen[i] = Some(q);
        if let Some(v) = vital_point(board, &region[..n]) {
            return Some(v);
        }
        // The other neighbours in this region need no second read.
        for (j, r) in board.neighbors(last).enumerate() {
            if region[..n].contains(&r) {
                seen[j] = Some(r);
            }
        }
    }
    None
}

/// The empty region through `start` when it has at most [`MAX`] points and is bordered by
/// stones of `owner` only (the board's edge aside); its points in `out`, their count back.
/// Most regions fail at once: a stone of the other colour, or a sixth point.
fn eye_space(board: &Board, start: Point, owner: Color, out: &mut [Point; MAX]) -> Option<usize> {
    let mut n = 1;
    out[0] = start;
    let mut i = 0;
    while i < n {
        let p = out[i];
        i += 1;
        for q in board.neighbors(p) {
            match board.get(q) {
                None => {
                    if !out[..n].contains(&q) {
                        if n == MAX {
                            return None;
                        }
                        out[n] = q;
                        n += 1;
                    }
                }
                Some(c) if c != owner => return None,
                Some(_) => {}
            }
        }
    }
    (n >= 3).then_some(n)
}

/// The vital point of the eye space `region` (three to five empty points, connected), if its
/// shape has exactly one.
fn vital_point(board: &Board, region: &[Point]) -> Option<Point> {
    // Each point's neighbours inside the region.
    let inside = |p: Point| board.neighbors(p).filter(|q| region.contains(q)).count();
    let mut counts = [0usize; MAX];
    for (k, &p) in region.iter().enumerate() {
        counts[k] = inside(p);
    }
    let counts = &counts[..region.len()];
    let most = *counts.iter().max()?;
    let at_most: Vec<usize> = (0..region.len()).filter(|&k| counts[k] == most).collect();
    let mut sorted = counts.to_vec();
    sorted.sort_unstable();
    let killable = match region.len() {
        // Straight and bent three: the middle.
        3 => sorted == [1, 1, 2],
        // Pyramid four: the centre.
        4 => sorted == [1, 1, 1, 3],
        // Cross five: the centre; bulky five: the point touching three.
        5 => sorted == [1, 1, 1, 1, 4] || sorted == [1, 2, 2, 2, 3],
        _ => false,
    };
    (killable && at_most.len() == 1).then(|| region[at_most[0]])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::{at, board};

    #[test]
    fn the_vital_points_of_the_killable_shapes() {
        // A straight three on the top edge (A7-C7 inside White's wall), a bent three in the
        // lower left corner, a pyramid four and a bulky five in the middle and right.
        let b = board(&[
            ". . . O . . . . .",
            "O O O O . . . . .",
            ". . . . . . . . .",
            ". . O O O . . . .",
            ". O . . . O . . .",
            ". . O . O . . . .",
            "O O . O . . . . .",
            ". O . . . . . . .",
            ". . O . . . . . .",
        ]);
        // Straight three A9 B9 C9: the middle, B9.
        assert_eq!(vital_point_near(&b, at(&b, "D9")), Some(at(&b, "B9")));
        // Pyramid four C5 D5 E5 D4: the centre D5.
        assert_eq!(vital_point_near(&b, at(&b, "C6")), Some(at(&b, "D5")));
        // Bent three A2 A1 B1: the corner point A1.
        assert_eq!(vital_point_near(&b, at(&b, "B2")), Some(at(&b, "A1")));
    }

    #[test]
    fn shapes_that_live_or_regions_with_two_owners_have_none() {
        let b = board(&[
            ". . . . O . . . .",
            "O O O O O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            "X O O . . . . . .",
            ". . . O . . . . .",
        ]);
        // Straight four A9-D9: two vital points, so none.
        assert_eq!(vital_point_near(&b, at(&b, "E9")), None);
        // A1 B1 C1 touches Black's A2 and White's stones: nobody's eye space.
        assert_eq!(vital_point_near(&b, at(&b, "B2")), None);
        // Open board around E8.
        assert_eq!(vital_point_near(&b, at(&b, "E8")), None);
    }
}
