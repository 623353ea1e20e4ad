//! The built-in bots' strength levels on the network, from a beginner's opponent to the net's
//! full search.
//!
//! The weak levels play like people, not like a strong engine with random blunders: they
//! look at the position once (the policy alone, a visit or a few) and sample a move from the
//! policy sharpened or flattened by a temperature, as KataGo's `chosenMoveTemperature` does
//! with visit counts and as KaTrain's weakened bots do with the policy (its "weighted"
//! strategy: weights `policy^(1/T)` above a lower bound). Only absurd moves are ruled out: a
//! move whose prior is below [`ABSURD_SHARE`] of the best one's (filling an own eye, a move
//! on the edge in the opening; for the beginner only below [`BEGINNER_FLOOR`]), and a pass that
//! the net does not like best. The strong levels
//! search: more visits, the most visited move.
//!
//! With a fixed seed a level plays the same move in the same position: the search's
//! symmetries and the sample are both drawn from the seed.

use std::time::Duration;

use tengen_rules::playout::Rng;
use tengen_rules::{Color, Game, Move};

use super::search::Puct;
use super::{Evaluator, KataRules, NnError};
use crate::search::{self, Analysis, Decision, Style};

/// A level: how many visits the search makes, and how the move is chosen from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Visits of the search (1: the net's first look, its policy).
    pub visits: u32,
    /// Temperature of the policy sample; 0 plays the most visited move.
    pub temperature: f64,
    /// A move whose prior is below this share of the best move's is never sampled.
    pub floor: f32,
}

/// Levels 1 (index 0) to 10. Levels 1-4 sample the policy at falling temperatures (level 1,
/// the beginner, from nearly every move: temperature 4 above [`BEGINNER_FLOOR`]); level 5
/// plays the policy's own best move; 6-10 search with 4x more visits a level.
pub const LADDER: [Level; 10] = [
    // A beginner: nearly any move the net does not find absurd at a glance, about evenly.
    Level {
        visits: 1,
        temperature: 4.0,
        floor: BEGINNER_FLOOR,
    },
    Level {
        visits: 1,
        temperature: 1.0,
        floor: ABSURD_SHARE,
    },
    Level {
        visits: 1,
        temperature: 0.45,
        floor: ABSURD_SHARE,
    },
    Level {
        visits: 4,
        temperature: 0.25,
        floor: ABSURD_SHARE,
    },
    Level {
        visits: 1,
        temperature: 0.0,
        floor: ABSURD_SHARE,
    },
    Level {
        visits: 8,
        temperature: 0.0,
        floor: ABSURD_SHARE,
    },
    Level {
        visits: 32,
        temperature: 0.0,
        floor: ABSURD_SHARE,
    },
    Level {
        visits: 100,
        temperature: 0.0,
        floor: ABSURD_SHARE,
    },
    Level {
        visits: 400,
        temperature: 0.0,
        floor: ABSURD_SHARE,
    },
    Level {
        visits: 1600,
        temperature: 0.0,
        floor: ABSURD_SHARE,
    },
];

/// A move whose prior is below this share of the best move's is never sampled (KaTrain's
/// lower bound is an absolute 0.1%; relative to the best move it also holds in positions
/// where the policy is spread thin).
pub const ABSURD_SHARE: f32 = 0.02;

/// The beginner's floor: only moves the net all but rules out (under 0.1% of the best move's
/// prior: filling an own eye, a self-atari of a big group) are never played. Measured against
/// the alternatives in BENCHMARKS.md ("The built-in bots' ranks": temperature 4 above 0.5%
/// won 6 of 40 against the Monte Carlo engine's level 1, above 0.1% 4 of 40, temperature 8
/// above 0.02% none, a random player).
pub const BEGINNER_FLOOR: f32 = 0.001;

/// Level `n` (1 to 10), if there is one.
pub fn level(n: u8) -> Option<Level> {
    LADDER.get(usize::from(n).checked_sub(1)?).copied()
}

/// The level's move for `color` in `game`, the net told `rules`: a search of `level.visits`,
/// a move sampled by the level's temperature, and the Monte Carlo engine's rules for passing
/// and resigning ([`search::judge`]). `time` (the clock's budget) ends the search early.
pub fn genmove(
    eval: &Evaluator,
    game: &Game,
    color: Color,
    rules: KataRules,
    level: Level,
    seed: u64,
    time: Option<Duration>,
) -> Result<(Decision, Analysis), NnError> {
    let mut rng = Rng::new(seed);
    let mut puct = Puct::new(game, color, rules, rng.next_u64());
    puct.run(eval, game, Some(level.visits.max(1)), time)?;
    let mut a = puct.analysis();
    if level.temperature > 0.0 {
        if let Some(i) = sample(&a, level.temperature, level.floor, &mut rng) {
            // The chosen move first: `judge` then plays it unless passing or resigning wins.
            let chosen = a.moves.remove(i);
            a.moves.insert(0, chosen);
        }
    }
    let style = Style {
        resign_below: Some(0.1),
    };
    Ok((
        search::judge(game, color, &a, &style, crate::manners::RESIGN_VISITS),
        a,
    ))
}

/// Index into `a.moves` of a move drawn with weight `prior^(1/temperature)` among those whose
/// prior is at least `floor` of the best one's; `None` when there is nothing to draw from.
pub fn sample(a: &Analysis, temperature: f64, floor: f32, rng: &mut Rng) -> Option<usize> {
    let best = a.moves.iter().map(|m| m.prior).fold(0.0f32, f32::max);
    if best <= 0.0 {
        return None;
    }
    let weights: Vec<f64> = a
        .moves
        .iter()
        .map(|m| {
            // A pass only where the net likes it best: a beginner does not pass mid-game.
            let pass_ok = m.mv != Move::Pass || m.prior >= best;
            if pass_ok && m.prior >= best * floor {
                (m.prior as f64 / best as f64).powf(1.0 / temperature)
            } else {
                0.0
            }
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = unit(rng) * total;
    for (i, w) in weights.iter().enumerate() {
        if *w > 0.0 && x < *w {
            return Some(i);
        }
        x -= w;
    }
    weights.iter().rposition(|w| *w > 0.0)
}

/// A number in [0, 1) from `rng`.
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MoveStats;
    use tengen_rules::{Handicap, Point, Preset};

    fn analysis(priors: &[(Move, f32)]) -> Analysis {
        Analysis {
            color: Color::Black,
            playouts: 1,
            elapsed: Duration::ZERO,
            moves: priors
                .iter()
                .map(|&(mv, prior)| MoveStats {
                    mv,
                    visits: 0,
                    winrate: 0.0,
                    prior,
                    pv: vec![mv],
                })
                .collect(),
            ownership: Vec::new(),
        }
    }

    fn at(x: u8, y: u8) -> Move {
        Move::Play(Point::new(9, x, y).unwrap())
    }

    #[test]
    fn levels_are_one_to_ten() {
        assert_eq!(level(0), None);
        assert_eq!(level(11), None);
        assert_eq!(level(1).unwrap().temperature, 4.0);
        assert!(level(1).unwrap().floor < level(2).unwrap().floor);
        assert_eq!(level(10).unwrap().visits, 1600);
    }

    #[test]
    fn a_sample_never_takes_an_absurd_move_or_a_pass_the_net_dislikes() {
        let a = analysis(&[
            (at(4, 4), 0.5),
            (at(2, 2), 0.3),
            (Move::Pass, 0.19),
            (at(0, 0), 0.005),
        ]);
        let mut rng = Rng::new(7);
        let mut seen = [0; 4];
        for _ in 0..2000 {
            seen[sample(&a, 1.0, ABSURD_SHARE, &mut rng).unwrap()] += 1;
        }
        assert_eq!(seen[2], 0, "pass sampled");
        assert_eq!(seen[3], 0, "absurd move sampled");
        // Temperature 1: the weights are the priors, 5 to 3.
        assert!(seen[0] > seen[1] && seen[1] > 500, "{seen:?}");
    }

    #[test]
    fn a_low_temperature_sharpens_the_choice() {
        let a = analysis(&[(at(4, 4), 0.5), (at(2, 2), 0.4)]);
        let count = |t: f64| {
            let mut rng = Rng::new(3);
            (0..1000)
                .filter(|_| sample(&a, t, ABSURD_SHARE, &mut rng) == Some(1))
                .count()
        };
        // (0.8)^(1/0.1) = 0.107 of the best move's weight against 0.8 at temperature 1.
        assert!(count(0.1) * 3 < count(1.0), "{} {}", count(0.1), count(1.0));
    }

    #[test]
    fn the_same_seed_plays_the_same_move_and_seeds_vary() {
        let eval = Evaluator::new(super::super::Model::builtin().unwrap());
        let game = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let rules = KataRules::parse("chinese").unwrap();
        let weak = level(1).unwrap();
        let play = |seed| match genmove(&eval, &game, Color::Black, rules, weak, seed, None) {
            Ok((Decision::Move(m), _)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(play(11), play(11));
        let moves: std::collections::HashSet<Move> = (0..12).map(play).collect();
        // Level 1 samples: twelve seeds do not all open on one point, and never pass.
        assert!(moves.len() > 1, "{moves:?}");
        assert!(!moves.contains(&Move::Pass));
    }
}
