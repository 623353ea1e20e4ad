//! The teacher: a learner's tries in a step, judged by the rules engine. Tries the lesson
//! foresaw get its words (and, after a right one, the opponent's answer and the next
//! question); any other legal move is judged by the step's goal on the board after it.

use serde::Serialize;
use tengen_rules::scoring::score;
use tengen_rules::{Color, Game, GameResult, Move};

use crate::goal::{Goal, Miss};
use crate::lesson::{Answer, Step};
use crate::text::Text;

/// What the teacher makes of a try.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Right, and the step is done.
    Solved,
    /// Right; the opponent answered and the step goes on.
    Continue,
    /// Legal but wrong.
    Wrong,
    /// The rules refuse the move (occupied, suicide, ko).
    Illegal,
}

/// The verdict on a try, with what the learner sees next. Its fields, and those of the types
/// inside it, are in alphabetical order: the client has always read them so, as JSON objects
/// with sorted keys.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// The board after the try and its answer, rows from the top (`X`, `O`, `.`).
    pub board: Vec<String>,
    /// Why a legal move is wrong (the goal's judgement), when the lesson says nothing itself.
    pub miss: Option<Miss>,
    /// The next question, after a right try that goes on.
    pub next: Option<Text>,
    /// Right, wrong or refused.
    pub outcome: Outcome,
    /// Why the rules refuse the move: the engine's code (`occupied`, `suicide`, `ko`, ...).
    pub refused: Option<&'static str>,
    /// The opponent's answer (GTP spelling), played on the board shown.
    pub reply: Option<String>,
    /// What the lesson says to this try.
    pub says: Option<Text>,
}

/// A learner's path that the step cannot follow.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// No move was given, or moves to a step that is not answered by moves.
    #[error("this step takes no moves")]
    NotAMoveStep,
    /// An earlier move is not a right try the lesson continues from.
    #[error("move {0} is not a right try this step goes on from")]
    Stray(usize),
}

/// The board as rows from the top: `X` Black, `O` White, `.` empty.
pub fn rows(game: &Game) -> Vec<String> {
    let b = game.board();
    let n = b.size();
    (0..n)
        .map(|row| {
            (0..n)
                .map(|col| match b.point(col, row).and_then(|p| b.get(p)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect()
}

impl Step {
    /// Judges the last of `moves`, the learner's tries in this step so far (each earlier one
    /// a right try the lesson went on from).
    pub fn check(&self, moves: &[Move]) -> Result<Verdict, PathError> {
        let (last, earlier) = moves.split_last().ok_or(PathError::NotAMoveStep)?;
        if !self.goal.is_move() {
            return Err(PathError::NotAMoveStep);
        }
        let mut game = self.start.clone();
        let mut tries = &self.answers;
        for (i, &m) in earlier.iter().enumerate() {
            let reply = tries
                .iter()
                .find(|a| a.mv == m && a.right)
                .and_then(|a| a.reply.as_ref())
                .ok_or(PathError::Stray(i))?;
            game.play(self.learner, m)
                .map_err(|_| PathError::Stray(i))?;
            game.play(self.learner.opponent(), reply.mv)
                .map_err(|_| PathError::Stray(i))?;
            tries = &reply.next;
        }
        Ok(self.judge(&game, tries, *last))
    }

    fn judge(&self, before: &Game, tries: &[Answer], mv: Move) -> Verdict {
        let mut after = before.clone();
        if let Err(e) = after.play(self.learner, mv) {
            return verdict(Outcome::Illegal, before, |v| v.refused = Some(e.code()));
        }
        let Some(known) = tries.iter().find(|a| a.mv == mv) else {
            return match self
                .goal
                .judge(before, &after, self.learner, mv, &self.targets)
            {
                Ok(()) => verdict(Outcome::Solved, &after, |_| {}),
                Err(miss) => verdict(Outcome::Wrong, &after, |v| v.miss = Some(miss)),
            };
        };
        let outcome = match (known.right, &known.reply) {
            (false, _) => Outcome::Wrong,
            (true, Some(_)) => Outcome::Continue,
            (true, None) => Outcome::Solved,
        };
        // A wrong try's refutation is shown on the board too, so the learner sees why.
        let reply = known
            .reply
            .as_ref()
            .filter(|r| after.play(self.learner.opponent(), r.mv).is_ok());
        verdict(outcome, &after, |v| {
            v.says = known.says.clone();
            v.reply = reply.map(|r| tengen_rules::coord::gtp::format_move(before.size(), r.mv));
            v.next = reply.filter(|_| known.right).and_then(|r| r.says.clone());
            if !known.right && known.says.is_none() {
                v.miss = self
                    .goal
                    .judge(before, &after, self.learner, mv, &self.targets)
                    .err();
            }
        })
    }

    /// The engine's count of a counting step's position (its `MA` stones dead).
    pub fn count(&self) -> tengen_rules::Score {
        score(self.start.board(), &self.dead, self.start.rules(), 0)
    }

    /// Whether `answer` (an SGF result such as `B+3`, `W+0.5`, `0`) is the engine's count.
    pub fn check_count(&self, answer: &str) -> Option<bool> {
        if self.goal != Goal::Count {
            return None;
        }
        let given: GameResult = answer.trim().parse().ok()?;
        Some(given == self.count().result)
    }
}

fn verdict(outcome: Outcome, game: &Game, fill: impl FnOnce(&mut Verdict)) -> Verdict {
    let mut v = Verdict {
        outcome,
        miss: None,
        refused: None,
        says: None,
        reply: None,
        next: None,
        board: rows(game),
    };
    fill(&mut v);
    v
}
