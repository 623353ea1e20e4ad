//! The simple policy: a legal move that a beginner would not be ashamed of.
//!
//! In order: capture (the largest capture first), save a chain in atari when the escape gains
//! liberties, otherwise a random move that fills no own eye, puts nothing of its own in atari and
//! is not inside territory that light playouts already give to one side. Pass when nothing is
//! left. In clean-up mode (KGS's `kgs-genmove_cleanup`) it first plays on the liberties of
//! opponent stones the estimator finds dead, so that they are captured before the game ends.

use tengen_rules::playout::Rng;
use tengen_rules::{Board, Color, Game, Move, Point};

use crate::estimate::{estimate, ownership};

/// How the policy treats the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Pass when only settled points are left.
    Normal,
    /// Capture the opponent's dead stones before passing.
    Cleanup,
}

/// Playouts per ownership estimate.
const PLAYOUTS: u32 = 200;
/// Points owned this surely by one side are left alone.
const SETTLED: f32 = 0.7;

/// Chooses a move for `color` (who need not be the player to move in `game`).
pub fn choose(game: &Game, color: Color, rng: &mut Rng, mode: Mode) -> Move {
    let board = game.board();
    let mut g = game.clone();
    g.set_to_move(color);
    let legal: Vec<Point> = board
        .points()
        .filter(|&p| !board.is_eye(p, color) && g.check_point(color, p).is_ok())
        .collect();
    if legal.is_empty() {
        return Move::Pass;
    }
    // 1. Captures, largest first.
    if let Some(p) = legal
        .iter()
        .copied()
        .filter(|&p| board.would_capture(p, color))
        .max_by_key(|&p| captured_by(board, p, color))
    {
        return Move::Play(p);
    }
    // 2. Escapes from atari that gain liberties.
    for p in board.points() {
        if board.get(p) == Some(color) {
            if let Some(lib) = board.atari_liberty(p) {
                if legal.contains(&lib) && liberties_after(board, lib, color) >= 2 {
                    return Move::Play(lib);
                }
            }
        }
    }
    let safe: Vec<Point> = legal
        .iter()
        .copied()
        .filter(|&p| liberties_after(board, p, color) >= 2)
        .collect();
    // 3. Clean-up: the liberties of the opponent's dead stones.
    if mode == Mode::Cleanup {
        let dead = estimate(game).dead;
        let targets: Vec<Point> = safe
            .iter()
            .copied()
            .filter(|&p| {
                board
                    .neighbors(p)
                    .any(|n| dead.contains(n) && board.get(n) == Some(color.opponent()))
            })
            .collect();
        if !targets.is_empty() {
            return Move::Play(targets[rng.below(targets.len() as u32) as usize]);
        }
    }
    // 4. A random move outside settled territory.
    let own = ownership(board, color, PLAYOUTS, rng);
    let open: Vec<Point> = safe
        .into_iter()
        .filter(|&p| own.get(p).abs() < SETTLED)
        .collect();
    if open.is_empty() {
        Move::Pass
    } else {
        Move::Play(open[rng.below(open.len() as u32) as usize])
    }
}

fn captured_by(board: &Board, p: Point, c: Color) -> usize {
    let mut b = board.clone();
    b.play(p, c).captured() as usize
}

fn liberties_after(board: &Board, p: Point, c: Color) -> usize {
    let mut b = board.clone();
    let played = b.play(p, c);
    if played.is_suicide() {
        0
    } else {
        b.liberty_count(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::Preset;

    fn game(diagram: &str, to_move: Color) -> Game {
        let b: Board = diagram.parse().unwrap();
        let size = b.size();
        Game::from_board(b, to_move, Preset::Chinese.rules(size)).unwrap()
    }

    #[test]
    fn captures_first_then_escapes() {
        let g = game(
            ". . . . .
             . X O X .
             . . X . .
             . . . . .
             . . . . .",
            Color::Black,
        );
        let mv = choose(&g, Color::Black, &mut Rng::new(1), Mode::Normal);
        assert_eq!(
            mv,
            Move::Play(Point::new(5, 2, 0).unwrap()),
            "take the white stone"
        );
        let mv = choose(&g, Color::White, &mut Rng::new(1), Mode::Normal);
        assert_eq!(
            mv,
            Move::Play(Point::new(5, 2, 0).unwrap()),
            "escape from atari"
        );
    }

    #[test]
    fn never_fills_its_own_eyes_and_passes_at_the_end() {
        let g = game(
            ". X . X O . O
             X X X X O O .
             . X . X O . O
             X X X X O O O
             . X . X O . O
             X X X X O O O
             . X . X O . O",
            Color::Black,
        );
        for seed in 0..5 {
            assert_eq!(
                choose(&g, Color::Black, &mut Rng::new(seed), Mode::Normal),
                Move::Pass
            );
        }
    }
}
