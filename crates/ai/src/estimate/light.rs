//! A quick ownership: the average over light playouts from the position.
//!
//! At the end of a light playout every empty point is an eye or dame, so each point belongs to
//! the colour of its stone or of all its neighbours. Averaged over playouts this gives an
//! ownership in -1 (White) to +1 (Black). The simple policy uses it to leave settled areas
//! alone; the count's estimate is [`super::estimate`].

use tengen_rules::playout::{playout, playout_owner, Rng};
use tengen_rules::{Board, Color, Point};

/// Ownership of every point, +1 Black to -1 White.
#[derive(Clone, Debug)]
pub struct Ownership {
    values: Vec<f32>,
}

impl Ownership {
    /// The ownership of `p`.
    pub fn get(&self, p: Point) -> f32 {
        self.values.get(p.index()).copied().unwrap_or(0.0)
    }
}

/// Estimates ownership with `playouts` light playouts from `board`, `to_move` first.
pub fn ownership(board: &Board, to_move: Color, playouts: u32, rng: &mut Rng) -> Ownership {
    let cells = board.points().map(|p| p.index()).max().unwrap_or(0) + 1;
    let mut sum = vec![0i32; cells];
    let mut scratch = board.clone();
    let playouts = playouts.max(1);
    for _ in 0..playouts {
        scratch.copy_from(board);
        playout(&mut scratch, to_move, rng);
        for p in scratch.points() {
            sum[p.index()] += playout_owner(&scratch, p);
        }
    }
    Ownership {
        values: sum
            .into_iter()
            .map(|s| s as f32 / playouts as f32)
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chains::dead_chains;

    #[test]
    fn light_playouts_give_a_walled_off_side_to_its_wall() {
        let b: Board = "
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . . . ."
            .parse()
            .unwrap();
        let own = ownership(&b, Color::Black, 200, &mut Rng::new(3));
        let name = |s| tengen_rules::coord::gtp::parse_point(9, s).unwrap();
        // Light playouts are noisy in areas this open (the walls die now and then), but
        // each side leans to its wall.
        assert!(own.get(name("A5")) > 0.25);
        assert!(own.get(name("J5")) < -0.25);
        let dead = dead_chains(&b, |p| own.get(p), -0.3, |_, _| false);
        assert!(dead.is_empty());
    }
}
