//! Who owns each point: the average over light playouts from the position.
//!
//! At the end of a light playout every empty point is an eye or dame, so each point belongs to
//! the colour of its stone or of all its neighbours. Averaged over playouts this gives an
//! ownership in -1 (White) to +1 (Black). A chain whose points belong to the opponent is dead;
//! a chain that is alive whatever the opponent does (Benson) never is.

use tengen_rules::benson::unconditional_life;
use tengen_rules::playout::{playout, playout_owner, Rng};
use tengen_rules::{Board, Color, DeadStones, Game, Point, PointSet, Score, SuicideRule};

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

/// Stones the estimate finds dead: chains whose points the opponent owns on average, never a
/// pass-alive chain, and none under rules where every stone on the board is alive
/// (Tromp-Taylor).
pub fn dead_stones(game: &Game, playouts: u32, rng: &mut Rng) -> PointSet {
    if game.rules().dead_stones == DeadStones::NoneRemoved {
        return PointSet::new();
    }
    let board = game.board();
    let own = ownership(board, game.to_move(), playouts, rng);
    let suicide = game.rules().suicide != SuicideRule::Illegal;
    let safe = [
        unconditional_life(board, Color::Black, suicide).alive,
        unconditional_life(board, Color::White, suicide).alive,
    ];
    dead_chains(
        board,
        |p| own.get(p),
        0.0,
        |c, p| safe[c.index()].contains(p),
    )
}

/// The stones of every chain whose mean ownership, seen from its own colour (+1 its own, -1
/// the opponent's), is below `below`, except chains that `keep` (called with the chain's colour
/// and a stone) says stand.
pub fn dead_chains(
    board: &Board,
    owner: impl Fn(Point) -> f32,
    below: f32,
    keep: impl Fn(Color, Point) -> bool,
) -> PointSet {
    let mut dead = PointSet::new();
    let mut seen = PointSet::new();
    for p in board.points() {
        let Some(c) = board.get(p) else { continue };
        if seen.contains(p) {
            continue;
        }
        let stones = board.chain_stones(p);
        stones.iter().for_each(|&s| {
            seen.insert(s);
        });
        if keep(c, p) {
            continue;
        }
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let mine: f32 = stones.iter().map(|&s| owner(s) * sign).sum::<f32>() / stones.len() as f32;
        if mine < below {
            stones.iter().for_each(|&s| {
                dead.insert(s);
            });
        }
    }
    dead
}

/// The count of `game` with the estimated dead stones removed, and those stones.
pub fn score(game: &Game, playouts: u32, rng: &mut Rng) -> (Score, PointSet) {
    let dead = dead_stones(game, playouts, rng);
    let s = tengen_rules::scoring::score(
        game.board(),
        &dead,
        game.rules(),
        game.handicap_stones().len() as u32,
    );
    (s, dead)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::{Handicap, Preset};

    #[test]
    fn a_lone_stone_inside_a_wall_is_dead() {
        let b: Board = "
            . . . X O . . . .
            . O . X O . . . .
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . . . .
            . . . X O . X . .
            . . . X O . . . .
            . . . X O . . . ."
            .parse()
            .unwrap();
        let g = Game::from_board(b, Color::Black, Preset::Japanese.rules(9)).unwrap();
        let dead = dead_stones(&g, 300, &mut Rng::new(3));
        let name = |s| tengen_rules::coord::gtp::parse_point(9, s).unwrap();
        assert!(dead.contains(name("B8")));
        assert!(dead.contains(name("G3")));
        assert!(!dead.contains(name("D5")) && !dead.contains(name("E5")));
        assert_eq!(dead.len(), 2);
        let _ = Game::new(9, Preset::Chinese.rules(9), Handicap::None);
        // Under Tromp-Taylor the same stones stand and count.
        let tt = Game::from_board(
            g.board().clone(),
            Color::Black,
            Preset::TrompTaylor.rules(9),
        )
        .unwrap();
        assert!(dead_stones(&tt, 300, &mut Rng::new(3)).is_empty());
        let (s, _) = score(&tt, 300, &mut Rng::new(3));
        assert_eq!(s.black.stones, 10);
        assert_eq!(s.white.stones, 10);
    }
}
