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
//! Level 17 ([`IMPROVER`]) sits between levels 1 and 2: level 1's sample, without the odd move
//! the net all but rules out.
//!
//! Below level 1 the beginners' levels ([`BEGINNERS`], levels 11 to 16) are weak the way
//! people new to the game are weak, not by playing more random moves: the sample's weights are
//! shaped by a [`Human`] eye, as KaTrain's "local" strategy weights moves near the last one
//! (KaTrain, `katrain/core/ai.py`, by Sander Land). A beginner answers near the last moves
//! and rarely plays elsewhere, and does not see ataris: a move that captures, or that saves its
//! own stones in atari, keeps only a share of its weight. It still never fills its own eye nor
//! plays a first-line move that touches no stone. The flattest of them (levels 14 to 16) sample
//! above a higher floor on boards of 12 lines and more ([`Level::on_board`]), where their 9x9
//! floor let through so many of the net's worst moves that they fell ten ranks.
//!
//! With a fixed seed a level plays the same move in the same position: the search's
//! symmetries and the sample are both drawn from the seed.

use std::time::Duration;

use tengen_rules::playout::Rng;
use tengen_rules::{Board, Color, Game, Move, Point};

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
    /// A beginner's eye on the sample (the levels below level 1); `None`: the policy alone.
    pub human: Option<Human>,
    /// The sample on bigger boards, where it is not the 9x9 one ([`Level::on_board`]).
    pub wider: &'static [Wider],
}

/// A level's sample from `from` lines up. A sample that makes a 9x9 beginner lets through
/// many more of the net's worst moves on a board with more points and more moves to a game,
/// so that its rank there falls far below its 9x9 one (BENCHMARKS.md, "The beginners on
/// bigger boards").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wider {
    /// The smallest board it applies to.
    pub from: u8,
    /// The temperature of the sample there.
    pub temperature: f64,
    /// Its floor there (a share of the best move's prior).
    pub floor: f32,
}

impl Level {
    /// The level as it plays on a `size` board: the sample of the last of [`Level::wider`]
    /// that `size` reaches, else its own.
    pub fn on_board(self, size: u8) -> Level {
        match self.wider.iter().rev().find(|w| size >= w.from) {
            Some(w) => Level {
                temperature: w.temperature,
                floor: w.floor,
                ..self
            },
            None => self,
        }
    }

    /// The level with its own sample on every board (a temperature or floor set by hand).
    pub fn on_every_board(self) -> Level {
        Level { wider: &[], ..self }
    }
}

/// How a beginner's attention bends the policy sample: the factors a move's weight is
/// multiplied by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Human {
    /// For a move within `near` lines of one of the last `recent` moves: a beginner plays
    /// where the action is, answering contact, and seldom tenukis.
    pub local: f64,
    /// For a move that captures, or that gives its own stones in atari a liberty (0 to 1): the
    /// ataris a beginner does not see.
    pub atari_sight: f64,
    /// Lines (in either direction) within which a move is near a last move: [`NEAR`] for
    /// levels 11 to 15, 1 (the eight points around it) for the weakest, level 16.
    pub near: u8,
    /// How many of the last moves the beginner looks at: 2 (the opponent's and its own) for
    /// levels 11 to 15, 1 (only the opponent's) for level 16.
    pub recent: usize,
}

/// Lines (in either direction) within which a move is "near" a last move for levels 11 to 15.
pub const NEAR: u8 = 2;

/// Levels 1 (index 0) to 10. Levels 1-4 sample the policy at falling temperatures (level 1,
/// the beginner, from nearly every move: temperature 4 above [`BEGINNER_FLOOR`]); level 5
/// plays the policy's own best move; 6-10 search with 4x more visits a level.
pub const LADDER: [Level; 10] = [
    // A beginner: nearly any move the net does not find absurd at a glance, about evenly.
    Level {
        visits: 1,
        temperature: 4.0,
        floor: BEGINNER_FLOOR,
        human: None,
        wider: &[],
    },
    Level {
        visits: 1,
        temperature: 1.0,
        floor: ABSURD_SHARE,
        human: None,
        wider: &[],
    },
    Level {
        visits: 1,
        temperature: 0.45,
        floor: ABSURD_SHARE,
        human: None,
        wider: &[],
    },
    Level {
        visits: 4,
        temperature: 0.25,
        floor: ABSURD_SHARE,
        human: None,
        wider: &[],
    },
    Level {
        visits: 1,
        temperature: 0.0,
        floor: ABSURD_SHARE,
        human: None,
        wider: &[],
    },
    Level {
        visits: 8,
        temperature: 0.0,
        floor: ABSURD_SHARE,
        human: None,
        wider: &[],
    },
    Level {
        visits: 32,
        temperature: 0.0,
        floor: ABSURD_SHARE,
        human: None,
        wider: &[],
    },
    Level {
        visits: 100,
        temperature: 0.0,
        floor: ABSURD_SHARE,
        human: None,
        wider: &[],
    },
    Level {
        visits: 400,
        temperature: 0.0,
        floor: ABSURD_SHARE,
        human: None,
        wider: &[],
    },
    Level {
        visits: 1600,
        temperature: 0.0,
        floor: ABSURD_SHARE,
        human: None,
        wider: &[],
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

/// The beginners' levels 11 to 16, each weaker than the one before and all below level 1:
/// level `10 + k` is `k` steps below level 1. New numbers after the ten, not a renumbering, so
/// that `tengen bot --level N` and the server's stored `builtin:N` keep their meaning. Each
/// samples the policy through a [`Human`] eye that looks more locally and sees fewer ataris a
/// step down: levels 11 to 13 at level 1's temperature 4 above [`BEGINNER_FLOOR`], 14 and 15 with
/// the weakest eye and a flatter sample (temperature 8 above 0.02% of the best prior, then 16
/// above 0.005%), so that nearly any local move is as likely as another, the way a player in
/// their first games chooses (BENCHMARKS.md, "Beginners below level 1": 13 is 1.25 ranks below
/// level 1, the flatter ones further). Level 16, the weakest, narrows the eye: it looks only
/// at the opponent's last move, weights the eight points around it 50 times, and sees a
/// capture or a save at 0.005 of its weight; and it flattens the sample again (temperature 64
/// above 0.0001% of the best prior), so that among those points nearly any is as likely: a
/// player who follows the opponent around in contact and does not notice stones in atari.
pub const BEGINNERS: [Level; 6] = [
    beginner(4.0, 0.3, 4.0, BEGINNER_FLOOR, &[]),
    beginner(10.0, 0.1, 4.0, BEGINNER_FLOOR, &[]),
    beginner(25.0, 0.02, 4.0, BEGINNER_FLOOR, &[]),
    beginner(25.0, 0.02, 8.0, 0.0002, &WIDER_14),
    beginner(25.0, 0.02, 16.0, 0.00005, &WIDER_15),
    Level {
        visits: 1,
        temperature: 64.0,
        floor: 0.000001,
        human: Some(Human {
            local: 50.0,
            atari_sight: 0.005,
            near: 1,
            recent: 1,
        }),
        wider: &WIDER_16,
    },
];

/// Levels 14 to 16 from 12x12 up. On 13x13 their 9x9 samples' floors (0.02% of the best
/// prior and below) let through the moves the net all but rules out, and level 14 fell ten
/// ranks below its 9x9 rank there (lost all 72 games against levels 13 and 1, even with seven
/// stones against level 13).
/// The floor, not the temperature, is what costs so much on a bigger board: at 0.1% level 14's
/// sample still won 5 of 16 against level 13 at temperature 8, and 3 of 32 at 16; at 0.05% it
/// won 1 of 16. So from 12 lines each is raised a step (level 14 to the beginner's 0.1%, 15 to
/// 0.02%, 16 to 0.01%), and level 14 samples flatter (temperature 16), which puts the three
/// about three ranks apart on 13x13 (BENCHMARKS.md, "The beginners on bigger boards").
const WIDER_14: [Wider; 1] = [Wider {
    from: 12,
    temperature: 16.0,
    floor: BEGINNER_FLOOR,
}];
/// On 19x19 (from 17 lines, the boards that take 19x19's ranks) level 15's 13x13 sample fell
/// to about 30k, losing 16 of 16 to level 14's; above 0.08% of the best prior it won 5 of 16
/// against level 14 there, about a rank below it (BENCHMARKS.md, "The beginners on 19x19").
/// At 0.05% it had won 1 of 16 against level 14 there.
const WIDER_15: [Wider; 2] = [
    Wider {
        from: 12,
        temperature: 16.0,
        floor: 0.0002,
    },
    Wider {
        from: 17,
        temperature: 16.0,
        floor: 0.0008,
    },
];
const WIDER_16: [Wider; 1] = [Wider {
    from: 12,
    temperature: 64.0,
    floor: 0.0001,
}];

const fn beginner(
    local: f64,
    atari_sight: f64,
    temperature: f64,
    floor: f32,
    wider: &'static [Wider],
) -> Level {
    Level {
        visits: 1,
        temperature,
        floor,
        human: Some(Human {
            local,
            atari_sight,
            near: NEAR,
            recent: 2,
        }),
        wider,
    }
}

/// Level 17, between levels 1 and 2 (a new number, as the beginners' are): level 1's sample,
/// temperature 4, above the stronger levels' floor ([`ABSURD_SHARE`], 2% of the best prior)
/// rather than the beginner's 0.1%. It plays level 1's choices among the moves a player of a
/// few years would consider, and no longer the odd move the net all but rules out: measured
/// in one Bradley-Terry fit of the whole ladder (BENCHMARKS.md, "The whole ladder in one
/// fit"), between level 1 and level 2, where the ladder had no bot.
pub const IMPROVER: Level = Level {
    visits: 1,
    temperature: 4.0,
    floor: ABSURD_SHARE,
    human: None,
    wider: &[],
};

/// The number of [`IMPROVER`]'s level.
pub const IMPROVER_LEVEL: u8 = 17;

/// Level `n` (1 to 10, the beginners' 11 to 16, and 17 between 1 and 2), if there is one.
pub fn level(n: u8) -> Option<Level> {
    if n == IMPROVER_LEVEL {
        return Some(IMPROVER);
    }
    let i = usize::from(n).checked_sub(1)?;
    LADDER
        .get(i)
        .or_else(|| BEGINNERS.get(i.checked_sub(LADDER.len())?))
        .copied()
}

/// Level `n`'s place in the order of strength (higher is stronger), in half steps: `2n` for
/// levels 1 to 10, `2 - 2k` for the beginners' level `10 + k`, and 3 for level 17 (between
/// levels 1 and 2); `None` for no level.
pub fn strength_order(n: u8) -> Option<i16> {
    level(n)?;
    let n = i16::from(n);
    Some(match n {
        1..=10 => 2 * n,
        17 => 3,
        _ => 2 * (11 - n),
    })
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
    let level = level.on_board(game.board().size());
    let mut rng = Rng::new(seed);
    let mut puct = Puct::new(game, color, rules, rng.next_u64());
    puct.run(eval, game, Some(level.visits.max(1)), time)?;
    let mut a = puct.analysis();
    if level.temperature > 0.0 {
        let drawn = match level.human {
            Some(h) => sample_human(&a, game, color, level, h, &mut rng),
            None => sample(&a, level.temperature, level.floor, &mut rng),
        };
        if let Some(i) = drawn {
            // The chosen move first: `judge` then plays it unless passing or resigning wins.
            let chosen = a.moves.remove(i);
            a.moves.insert(0, chosen);
        }
    }
    let style = Style {
        resign_below: Some(0.1),
    };
    // The searching levels (a temperature of 0) play the search's move, or its pass; the
    // sampling ones pass once the board is settled, as people do.
    let judge = match level.temperature > 0.0 {
        true => search::judge,
        false => search::judge_search,
    };
    Ok((
        judge(game, color, &a, &style, crate::manners::RESIGN_VISITS),
        a,
    ))
}

/// Index into `a.moves` of a move drawn with weight `prior^(1/temperature)` among those whose
/// prior is at least `floor` of the best one's; `None` when there is nothing to draw from.
pub fn sample(a: &Analysis, temperature: f64, floor: f32, rng: &mut Rng) -> Option<usize> {
    draw(&policy_weights(a, temperature, floor)?, rng)
}

/// The weights of [`sample`]: `prior^(1/temperature)` relative to the best move's, 0 under the
/// floor and for a pass the net does not like best; `None` when no move has a prior.
fn policy_weights(a: &Analysis, temperature: f64, floor: f32) -> Option<Vec<f64>> {
    let best = a.moves.iter().map(|m| m.prior).fold(0.0f32, f32::max);
    if best <= 0.0 {
        return None;
    }
    let weights = a.moves.iter().map(|m| {
        // A pass only where the net likes it best: a beginner does not pass mid-game.
        let pass_ok = m.mv != Move::Pass || m.prior >= best;
        if pass_ok && m.prior >= best * floor {
            (m.prior as f64 / best as f64).powf(1.0 / temperature)
        } else {
            0.0
        }
    });
    Some(weights.collect())
}

/// Index into `a.moves` of a beginner's move for `color` in `game`: [`sample`]'s weights bent
/// by the [`Human`] eye `h` (see [`human_factor`]).
pub fn sample_human(
    a: &Analysis,
    game: &Game,
    color: Color,
    level: Level,
    h: Human,
    rng: &mut Rng,
) -> Option<usize> {
    let mut weights = policy_weights(a, level.temperature, level.floor)?;
    let last: Vec<Point> = game
        .moves()
        .rev()
        .take(h.recent)
        .filter_map(|(_, m)| match m {
            Move::Play(p) => Some(p),
            _ => None,
        })
        .collect();
    for (w, m) in weights.iter_mut().zip(&a.moves) {
        if let Move::Play(p) = m.mv {
            *w *= human_factor(game.board(), color, p, &last, h);
        }
    }
    draw(&weights, rng)
}

/// The factor a beginner's eye puts on `color`'s move at `p`, the last moves being `last`: 0
/// for filling its own eye or a first-line move touching no stone (absurd at any level); else
/// `h.local` if within `h.near` lines of a last move, times `h.atari_sight` if it captures or
/// saves stones in atari.
pub fn human_factor(board: &Board, color: Color, p: Point, last: &[Point], h: Human) -> f64 {
    let size = board.size();
    let edge = |v: u8| v == 0 || v + 1 == size;
    let first_line = edge(p.col(size)) || edge(p.row(size));
    let touches = board.neighbors(p).any(|q| board.get(q).is_some());
    if board.is_eye(p, color) || (first_line && !touches) {
        return 0.0;
    }
    let near = last.iter().any(|&q| {
        p.col(size).abs_diff(q.col(size)) <= h.near && p.row(size).abs_diff(q.row(size)) <= h.near
    });
    let saves = board
        .neighbors(p)
        .any(|q| board.get(q) == Some(color) && board.atari_liberty(q) == Some(p));
    let sees_atari = saves || board.would_capture(p, color);
    (if near { h.local } else { 1.0 }) * (if sees_atari { h.atari_sight } else { 1.0 })
}

/// An index drawn with the given weights; `None` when they are all 0.
fn draw(weights: &[f64], rng: &mut Rng) -> Option<usize> {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return None;
    }
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
    fn levels_are_one_to_ten_and_the_beginners_after() {
        assert_eq!(level(0), None);
        assert!(level(10).unwrap().human.is_none() && level(11).unwrap().human.is_some());
        assert_eq!(level(1).unwrap().temperature, 4.0);
        assert!(level(1).unwrap().floor < level(2).unwrap().floor);
        assert_eq!(level(10).unwrap().visits, 1600);
    }

    #[test]
    fn the_flat_beginners_sample_above_a_higher_floor_from_twelve_lines() {
        for n in 14..=16 {
            let l = level(n).unwrap();
            assert!(l.floor < BEGINNER_FLOOR, "level {n}");
            for size in [9, 11] {
                assert_eq!(l.on_board(size), l, "level {n} on {size}x{size}");
            }
            for size in [12, 13, 19, 25] {
                let wide = l.on_board(size);
                assert!(
                    wide.floor >= l.floor && wide.floor <= BEGINNER_FLOOR,
                    "level {n}"
                );
                assert!(
                    wide.temperature >= level(13).unwrap().temperature,
                    "level {n}"
                );
                assert_eq!((wide.visits, wide.human), (l.visits, l.human));
            }
            // A temperature or floor set by hand holds on every board.
            assert_eq!(l.on_every_board().on_board(19).floor, l.floor);
        }
        // The other levels play their own sample everywhere.
        for n in (1..=13).chain([IMPROVER_LEVEL]) {
            assert_eq!(
                level(n).unwrap().on_board(19),
                level(n).unwrap(),
                "level {n}"
            );
        }
        // The beginners stay in order on bigger boards: each flatter or lower than the one
        // above it.
        for size in [13, 19] {
            let wide = |n| level(n).unwrap().on_board(size);
            for n in [15, 16] {
                assert!(
                    wide(n).floor <= wide(n - 1).floor
                        && wide(n).temperature >= wide(n - 1).temperature,
                    "level {n} on {size}x{size}"
                );
            }
        }
        // On 19x19 level 15 samples above a higher floor than on 13x13.
        assert_eq!(level(15).unwrap().on_board(13).floor, 0.0002);
        assert_eq!(level(15).unwrap().on_board(19).floor, 0.0008);
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

    /// A 9x9 game with the stones set up (rows top to bottom, `X` Black, `O` White) and
    /// `last` played by White just before Black moves.
    fn position(rows: [&str; 9], last: (u8, u8)) -> Game {
        let mut game = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let mut stones = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let p = Point::new(9, x as u8, y as u8).unwrap();
                match ch {
                    'X' => stones.push((p, Some(Color::Black))),
                    'O' => stones.push((p, Some(Color::White))),
                    _ => {}
                }
            }
        }
        game.edit(&stones, Color::White).unwrap();
        let Move::Play(p) = at(last.0, last.1) else {
            unreachable!()
        };
        game.play(Color::White, Move::Play(p)).unwrap();
        game
    }

    /// Black's stone at (2, 4) left in atari by White's last move (3, 4), its one liberty
    /// (2, 5); Black's eye at (0, 0).
    const ATARI: [&str; 9] = [
        ".X.......",
        "XX.......",
        ".........",
        "..O......",
        ".OX......",
        ".........",
        ".........",
        ".........",
        ".........",
    ];

    fn count_picks(lvl: Level, game: &Game, a: &Analysis, pick: usize, n: u64) -> usize {
        (0..n)
            .filter(|&seed| {
                let mut rng = Rng::new(seed);
                let drawn = match lvl.human {
                    Some(h) => sample_human(a, game, Color::Black, lvl, h, &mut rng),
                    None => sample(a, lvl.temperature, lvl.floor, &mut rng),
                };
                drawn == Some(pick)
            })
            .count()
    }

    #[test]
    fn level_seventeen_is_level_one_above_the_stronger_levels_floor_between_one_and_two() {
        let (one, two, l17) = (level(1).unwrap(), level(2).unwrap(), level(17).unwrap());
        assert_eq!(l17.temperature, one.temperature);
        assert_eq!(l17.floor, two.floor);
        assert!(l17.floor > one.floor && l17.human.is_none() && l17.visits == 1);
        let order = |n| strength_order(n).unwrap();
        assert!(order(1) < order(17) && order(17) < order(2));
    }

    #[test]
    fn the_beginners_are_levels_eleven_to_sixteen_below_level_one() {
        assert_eq!(level(18), None);
        assert_eq!(strength_order(1), Some(2));
        assert_eq!(strength_order(11), Some(0));
        assert_eq!(strength_order(13), Some(-4));
        assert_eq!(strength_order(15), Some(-8));
        assert_eq!(strength_order(16), Some(-10));
        assert_eq!(strength_order(18), None);
        // The flatter beginners sample more evenly, from more moves.
        let (l13, l14, l15) = (level(13).unwrap(), level(14).unwrap(), level(15).unwrap());
        assert!(l13.temperature < l14.temperature && l14.temperature < l15.temperature);
        assert!(l13.floor > l14.floor && l14.floor > l15.floor);
        assert_eq!(strength_order(0), None);
        let sight = |n| level(n).unwrap().human.unwrap().atari_sight;
        assert!(sight(11) > sight(12) && sight(12) > sight(13));
        // The weakest sees fewer ataris still, looks closer, and at the opponent's move alone.
        assert!(sight(16) < sight(15));
        let eye = |n| level(n).unwrap().human.unwrap();
        assert!(eye(16).near < eye(15).near && eye(16).recent < eye(15).recent);
        assert!(eye(16).local > eye(15).local);
        // Levels 11 to 15 look as they did before level 16: two lines around the last two
        // moves (stored `builtin:N` keep their meaning).
        for n in 11..=15 {
            assert_eq!((eye(n).near, eye(n).recent), (NEAR, 2), "level {n}");
        }
        assert!(level(1).unwrap().human.is_none());
    }

    #[test]
    fn level_sixteen_misses_an_atari_in_contact_more_than_level_thirteen() {
        let game = position(ATARI, (3, 4));
        // The saving move (2, 5) and a quiet move (4, 5), both touching White's last move
        // (3, 4), equally liked.
        let a = analysis(&[(at(2, 5), 0.3), (at(4, 5), 0.3)]);
        let saved = |n| count_picks(level(n).unwrap(), &game, &a, 0, 400);
        assert!(saved(1) > 150, "{}", saved(1));
        // 2% of the quiet move's weight for level 13, 0.5% for level 16.
        assert!(
            saved(13) < 20 && saved(16) < 8,
            "{} {}",
            saved(13),
            saved(16)
        );
        assert!(saved(16) <= saved(13), "{} {}", saved(16), saved(13));
    }

    #[test]
    fn level_sixteen_answers_only_around_the_opponents_last_move() {
        let game = position(ATARI, (3, 4));
        // (4, 5) touches White's last move (3, 4); (5, 5) is two lines away: near for level
        // 13, not for level 16.
        let a = analysis(&[(at(4, 5), 0.3), (at(5, 5), 0.3)]);
        let touching = |n| count_picks(level(n).unwrap(), &game, &a, 0, 400);
        assert!(touching(16) > 370, "{}", touching(16));
        assert!(touching(13) > 120 && touching(13) < 280, "{}", touching(13));

        // Black's own last move (6, 6), then White's (3, 4): level 15 also looks near its own
        // move, level 16 only at White's.
        let mut game = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        for (color, (x, y)) in [(Color::Black, (6, 6)), (Color::White, (3, 4))] {
            game.play(color, at(x, y)).unwrap();
        }
        // (7, 7) next to Black's move, (1, 7) far from both.
        let a = analysis(&[(at(7, 7), 0.3), (at(1, 7), 0.3)]);
        let by_own = |n| count_picks(level(n).unwrap(), &game, &a, 0, 400);
        assert!(by_own(15) > 350, "{}", by_own(15));
        assert!(by_own(16) > 120 && by_own(16) < 280, "{}", by_own(16));
    }

    #[test]
    fn the_weakest_beginner_often_leaves_its_stone_in_atari_and_level_one_saves_it() {
        let game = position(ATARI, (3, 4));
        // The saving move (2, 5) and a quiet move, both near White's last move, equally liked.
        let a = analysis(&[(at(2, 5), 0.3), (at(4, 6), 0.3)]);
        let saved = |n| count_picks(level(n).unwrap(), &game, &a, 0, 400);
        // Level 1 picks the two alike; the beginner mostly misses the atari (2% of the weight).
        assert!(saved(1) > 150, "{}", saved(1));
        assert!(saved(13) < 40 && saved(13) > 0, "{}", saved(13));
    }

    #[test]
    fn a_beginner_misses_captures_more_than_level_one() {
        let mut rows = ATARI;
        // White's stone at (3, 4) in atari: (4, 4) captures it. Neither move is near White's
        // last move (1, 4).
        rows[3] = "..OX.....";
        rows[4] = "..XO.....";
        rows[5] = "...X.....";
        let game = position(rows, (1, 4));
        let capture = at(4, 4);
        let a = analysis(&[(capture, 0.3), (at(5, 6), 0.3)]);
        let took = |n| count_picks(level(n).unwrap(), &game, &a, 0, 400);
        assert!(took(12) * 2 < took(1), "{} {}", took(12), took(1));
    }

    #[test]
    fn a_beginner_answers_near_the_last_move_far_more_than_level_one() {
        let game = position(ATARI, (3, 4));
        // (5, 5) near White's last move (3, 4) against (7, 7) far away, equally liked.
        let a = analysis(&[(at(5, 5), 0.3), (at(7, 7), 0.3)]);
        let near = |n| count_picks(level(n).unwrap(), &game, &a, 0, 400);
        assert!(near(13) > 350 && near(1) < 250, "{} {}", near(13), near(1));
    }

    #[test]
    fn a_beginner_never_fills_its_own_eye_nor_plays_a_lonely_first_line_move() {
        let game = position(ATARI, (3, 4));
        // (0, 0) is Black's eye; (8, 8) a first-line move touching nothing; both liked best.
        let a = analysis(&[(at(0, 0), 0.5), (at(8, 8), 0.5), (at(6, 6), 0.01)]);
        for n in 11..=16 {
            let lvl = level(n).unwrap();
            assert_eq!(count_picks(lvl, &game, &a, 0, 300), 0, "level {n}: eye");
            assert_eq!(count_picks(lvl, &game, &a, 1, 300), 0, "level {n}: edge");
        }
    }

    #[test]
    fn a_beginner_plays_the_same_move_from_the_same_seed() {
        let eval = Evaluator::new(super::super::Model::builtin().unwrap());
        let game = position(ATARI, (3, 4));
        let rules = KataRules::parse("chinese").unwrap();
        for n in [13, 16] {
            let play = |seed| match genmove(
                &eval,
                &game,
                Color::Black,
                rules,
                level(n).unwrap(),
                seed,
                None,
            ) {
                Ok((Decision::Move(m), _)) => m,
                other => panic!("level {n}: {other:?}"),
            };
            assert_eq!(play(5), play(5), "level {n}");
            let moves: std::collections::HashSet<Move> = (0..12).map(play).collect();
            assert!(moves.len() > 1, "level {n}: {moves:?}");
        }
    }
}
