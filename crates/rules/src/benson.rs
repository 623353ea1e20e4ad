//! Unconditional life: Benson's algorithm.
//!
//! A region is a maximal connected set of points that are not `c`'s stones. It is *vital* to a
//! chain of `c` when every empty point of the region is a liberty of that chain: the opponent
//! cannot fill the region's last liberty without suicide, unless the chain is already captured.
//! Benson's theorem: drop every chain with fewer than two vital regions, drop every region that
//! touches a dropped chain, and repeat; the chains left are alive whatever the opponent does,
//! even if `c` passes every turn ("pass-alive").
//!
//! Where multi-stone suicide is legal the opponent can also empty a region by self-capturing the
//! stones it has there, turning those points into empty points. So under such rules a region is
//! vital only when *every* point of it, occupied or not, is adjacent to the chain.

use crate::board::Board;
use crate::color::Color;
use crate::point::{Point, PointSet};

/// The pass-alive chains of one colour and the territory they make safe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnconditionalLife {
    /// Stones of pass-alive chains.
    pub alive: PointSet,
    /// Points of regions enclosed only by pass-alive chains in which every empty point touches
    /// them: the opponent can never make an eye there, so the region and any opponent stones in
    /// it belong to the owner whatever happens.
    pub territory: PointSet,
}

struct Region {
    points: Vec<Point>,
    borders: Vec<usize>,
    vital_to: Vec<usize>,
}

/// Benson's algorithm for colour `c`. `multi_stone_suicide` selects the variant for rule sets in
/// which the opponent may self-capture several stones.
pub fn unconditional_life(board: &Board, c: Color, multi_stone_suicide: bool) -> UnconditionalLife {
    let cells = crate::point::MAX_CELLS;
    let mut chain_of = vec![usize::MAX; cells];
    let mut chains: Vec<Vec<Point>> = Vec::new();
    for p in board.points() {
        if board.get(p) == Some(c) && chain_of[p.index()] == usize::MAX {
            let stones = board.chain_stones(p);
            for s in &stones {
                chain_of[s.index()] = chains.len();
            }
            chains.push(stones);
        }
    }

    let mut region_of = vec![usize::MAX; cells];
    let mut regions: Vec<Region> = Vec::new();
    for p in board.points() {
        if board.get(p) == Some(c) || region_of[p.index()] != usize::MAX {
            continue;
        }
        let id = regions.len();
        let mut points = vec![p];
        region_of[p.index()] = id;
        let mut i = 0;
        let mut borders = Vec::new();
        while i < points.len() {
            let q = points[i];
            for n in board.neighbors(q) {
                if board.get(n) == Some(c) {
                    borders.push(chain_of[n.index()]);
                } else if region_of[n.index()] == usize::MAX {
                    region_of[n.index()] = id;
                    points.push(n);
                }
            }
            i += 1;
        }
        borders.sort_unstable();
        borders.dedup();
        let vital_to = borders
            .iter()
            .copied()
            .filter(|&x| {
                points.iter().all(|&q| {
                    (!multi_stone_suicide && board.get(q).is_some())
                        || board
                            .neighbors(q)
                            .any(|n| chain_of[n.index()] == x && board.get(n) == Some(c))
                })
            })
            .collect();
        regions.push(Region {
            points,
            borders,
            vital_to,
        });
    }

    let mut alive = vec![true; chains.len()];
    let mut region_ok = vec![true; regions.len()];
    loop {
        let mut changed = false;
        let mut vital = vec![0u32; chains.len()];
        for (r, region) in regions.iter().enumerate() {
            if region_ok[r] {
                for &x in &region.vital_to {
                    vital[x] += 1;
                }
            }
        }
        for x in 0..chains.len() {
            if alive[x] && vital[x] < 2 {
                alive[x] = false;
                changed = true;
            }
        }
        for (r, region) in regions.iter().enumerate() {
            if region_ok[r] && region.borders.iter().any(|&x| !alive[x]) {
                region_ok[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    let mut out = UnconditionalLife {
        alive: PointSet::new(),
        territory: PointSet::new(),
    };
    for (x, stones) in chains.iter().enumerate() {
        if alive[x] {
            stones.iter().for_each(|&s| {
                out.alive.insert(s);
            });
        }
    }
    for (r, region) in regions.iter().enumerate() {
        let enclosed = region_ok[r] && !region.borders.is_empty();
        let no_eye_space = region.points.iter().all(|&q| {
            board.get(q).is_some() || board.neighbors(q).any(|n| board.get(n) == Some(c))
        });
        if enclosed && no_eye_space {
            region.points.iter().for_each(|&q| {
                out.territory.insert(q);
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(s: &str) -> Board {
        s.parse().unwrap()
    }

    #[test]
    fn two_eyes_live_one_eye_does_not() {
        let b = board(
            ". X . X O
             X X X X O
             O O O O O
             . . . . .
             . . . . .",
        );
        let life = unconditional_life(&b, Color::Black, false);
        assert_eq!(life.alive.len(), 6, "black has two one-point eyes");
        let b = board(
            ". . X O .
             X X X O .
             O O O O .
             . . . . .
             . . . . .",
        );
        assert!(unconditional_life(&b, Color::Black, false).alive.is_empty());
    }

    #[test]
    fn an_opponent_stone_in_an_eye_blocks_life_only_when_suicide_is_legal() {
        // The 2x2 eye in the corner holds a white stone that touches no black stone.
        let b = board(
            "O . X . X
             . . X X X
             X X X . .
             . . . . .
             . . . . .",
        );
        let corner_wall = b.point(2, 0).unwrap();
        // Classic Benson: only empty points must be liberties, so both eyes are vital.
        assert!(unconditional_life(&b, Color::Black, false)
            .alive
            .contains(corner_wall));
        // With multi-stone suicide White can self-capture out of the big eye and leave an empty
        // point that is no liberty of the chain, so that eye is no longer vital.
        assert!(!unconditional_life(&b, Color::Black, true)
            .alive
            .contains(corner_wall));
    }
}
