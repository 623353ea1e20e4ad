//! What a step asks, and the rules engine's judgement of a move against it: the position after
//! the move is looked at on the board (liberties, chains, captures, unconditional life), never
//! compared with a picture.

use std::str::FromStr;

use serde::Serialize;
use tengen_rules::benson::unconditional_life;
use tengen_rules::{Color, Game, Move, Point};

/// What a step asks of the learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Goal {
    /// Only the tries the lesson lists are right.
    Listed,
    /// Any legal move (placing stones).
    Legal,
    /// Take a liberty from the marked stones.
    Liberty,
    /// Capture the marked stones (or, unmarked, any stone).
    Capture,
    /// Put the marked stones in atari without being captured first.
    Atari,
    /// Save the marked stones: three liberties or more (two can be put in atari again).
    Escape,
    /// Join the marked stones into one chain.
    Connect,
    /// Separate the marked stones so that no one move joins them again.
    Cut,
    /// Make the marked stones alive whatever the opponent does (two eyes).
    Live,
    /// Count a finished position (the learner gives the result).
    Count,
    /// Win a First Capture game against the bot.
    Win,
    /// Play a real game against the weakest bot.
    Play,
}

impl FromStr for Goal {
    type Err = ();
    fn from_str(s: &str) -> Result<Goal, ()> {
        Ok(match s.trim() {
            "legal" => Goal::Legal,
            "liberty" => Goal::Liberty,
            "capture" => Goal::Capture,
            "atari" => Goal::Atari,
            "escape" => Goal::Escape,
            "connect" => Goal::Connect,
            "cut" => Goal::Cut,
            "live" => Goal::Live,
            "count" => Goal::Count,
            "win" => Goal::Win,
            "play" => Goal::Play,
            _ => return Err(()),
        })
    }
}

/// Why a move does not do what the step asks; the client words each code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Miss {
    /// Nothing (or not every marked stone) was captured; `liberties` the marked stones keep.
    NoCapture {
        /// Liberties the marked stones still have.
        liberties: usize,
    },
    /// The move took none of the marked stones' liberties.
    NotLiberty,
    /// The marked stones have more than one liberty.
    NotAtari {
        /// Their liberties.
        liberties: usize,
    },
    /// The stone played is itself in atari: the opponent captures it first.
    SelfAtari,
    /// The marked stones are still in atari.
    StillAtari,
    /// The marked stones have two liberties: the opponent can put them in atari again.
    TwoLiberties,
    /// The marked stones are not one chain.
    NotConnected,
    /// The opponent can still join the marked stones with one move.
    NotCut,
    /// The marked stones could still be captured.
    NotAlive,
    /// Not the move the step looks for (a step that accepts only its listed tries).
    NotIt,
}

impl Goal {
    /// Whether the step is answered by a move on the board.
    pub fn is_move(self) -> bool {
        !matches!(self, Goal::Count | Goal::Win | Goal::Play)
    }

    /// Whether `mv`, played by `c` in `before` to give `after`, does what the goal asks about
    /// `targets`. `mv` was legal (`after` is `before` with it played).
    pub fn judge(
        self,
        before: &Game,
        after: &Game,
        c: Color,
        mv: Move,
        targets: &[Point],
    ) -> Result<(), Miss> {
        let board = after.board();
        let libs = |p: Point| board.liberty_count(p);
        let own_in_atari = || {
            mv.point()
                .is_some_and(|p| board.get(p) == Some(c) && board.in_atari(p))
        };
        match self {
            Goal::Legal | Goal::Count | Goal::Win | Goal::Play => Ok(()),
            Goal::Listed => Err(Miss::NotIt),
            Goal::Liberty => {
                let before_libs = |p: Point| before.board().liberty_count(p);
                let fewer = targets
                    .iter()
                    .any(|&p| board.get(p).is_none() || libs(p) < before_libs(p));
                if fewer {
                    Ok(())
                } else {
                    Err(Miss::NotLiberty)
                }
            }
            Goal::Capture => {
                let took = after.board().captures(c) > before.board().captures(c);
                let left = targets
                    .iter()
                    .filter(|&&p| board.get(p) == Some(c.opponent()))
                    .copied();
                match left.map(libs).min() {
                    Some(liberties) => Err(Miss::NoCapture { liberties }),
                    None if took => Ok(()),
                    None => Err(Miss::NoCapture { liberties: 0 }),
                }
            }
            Goal::Atari => {
                let most = targets
                    .iter()
                    .filter(|&&p| board.get(p).is_some())
                    .map(|&p| libs(p))
                    .max();
                match most {
                    Some(liberties) if liberties > 1 => Err(Miss::NotAtari { liberties }),
                    _ if own_in_atari() => Err(Miss::SelfAtari),
                    Some(_) => Ok(()),
                    None => Err(Miss::NotAtari { liberties: 0 }),
                }
            }
            Goal::Escape => {
                let least = targets
                    .iter()
                    .map(|&p| if board.get(p) == Some(c) { libs(p) } else { 0 })
                    .min();
                let captured = after.board().captures(c) > before.board().captures(c);
                match least.unwrap_or(0) {
                    0 | 1 => Err(Miss::StillAtari),
                    2 if !captured => Err(Miss::TwoLiberties),
                    _ => Ok(()),
                }
            }
            Goal::Connect => {
                let chains = targets
                    .iter()
                    .map(|&p| board.get(p).map(|_| board.chain_id(p)));
                let mut ids: Vec<_> = chains.collect();
                ids.dedup();
                if ids.len() <= 1 && ids.first().is_some_and(Option::is_some) {
                    Ok(())
                } else {
                    Err(Miss::NotConnected)
                }
            }
            Goal::Cut => cut(after, c.opponent(), targets),
            Goal::Live => {
                let alive = unconditional_life(
                    board,
                    c,
                    after.rules().suicide != tengen_rules::SuicideRule::Illegal,
                )
                .alive;
                if targets.iter().all(|&p| alive.contains(p)) {
                    Ok(())
                } else {
                    Err(Miss::NotAlive)
                }
            }
        }
    }
}

/// Whether the `opponent`'s marked stones are apart and stay apart after any one move of theirs.
fn cut(after: &Game, opponent: Color, targets: &[Point]) -> Result<(), Miss> {
    let joined = |g: &Game| {
        let b = g.board();
        let mut ids = targets.iter().map(|&p| b.get(p).map(|_| b.chain_id(p)));
        let first = ids.next().flatten();
        first.is_some() && ids.all(|id| id == first)
    };
    if joined(after) {
        return Err(Miss::NotCut);
    }
    let mut g = after.clone();
    g.set_to_move(opponent);
    for p in g.legal_points() {
        let mut tried = g.clone();
        if tried.play(opponent, Move::Play(p)).is_ok() && joined(&tried) {
            return Err(Miss::NotCut);
        }
    }
    Ok(())
}
