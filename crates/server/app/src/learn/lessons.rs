//! The lessons of `tengen-learn` as JSON for the client, and the teacher's verdicts.
//!
//! The answers' fields are in alphabetical order, as the `json!` objects they replace wrote
//! them: the wire stays byte for byte the same (see `crate::wire`).

use serde::{Deserialize, Serialize};
use tengen_learn::{check::rows, library, Goal, Lesson, Library, Mark, Step, Text, Verdict};
use tengen_rules::coord::gtp;
use tengen_rules::{Color, Move};

use crate::error::ApiError;

/// A learner's try: the moves made in the step so far (the last one is judged), or a count.
#[derive(Debug, Default, Deserialize)]
pub struct Try {
    /// GTP vertices (`C2`), or `pass`.
    #[serde(default)]
    pub moves: Vec<String>,
    /// A counting step's answer as an SGF result: `B+3`, `W+0.5`, `0`.
    #[serde(default)]
    pub count: Option<String>,
}

fn lessons_read() -> Result<&'static Library, ApiError> {
    library().map_err(|e| ApiError::Internal(format!("the lessons do not read: {e}")))
}

fn find(id: &str) -> Result<&'static Lesson, ApiError> {
    lessons_read()?.lesson(id).ok_or(ApiError::NotFound)
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The lessons, in order.
#[derive(Debug, Serialize)]
pub struct LessonList {
    /// Each lesson's id, title and number of steps.
    pub lessons: Vec<LessonEntry>,
}

/// A lesson in the list.
#[derive(Debug, Serialize)]
pub struct LessonEntry {
    /// Its address (`03-atari`).
    pub id: &'static str,
    /// How many steps it has.
    pub steps: usize,
    /// Its title in every language.
    pub title: &'static Text,
}

/// One lesson as the client shows it.
#[derive(Debug, Serialize)]
pub struct LessonView {
    /// Its address.
    pub id: &'static str,
    /// Its steps, without their answers.
    pub steps: Vec<StepView>,
    /// Its title.
    pub title: &'static Text,
}

/// A step's position and question, without its answers (the server judges).
#[derive(Clone, Debug, Serialize)]
pub struct StepView {
    /// Rows from the top (`X`, `O`, `.`).
    pub board: Vec<String>,
    /// What a move must do.
    pub goal: Goal,
    /// The komi, as the rules write it (`6.5`).
    pub komi: String,
    /// The last move of the position's history (GTP), marked on the board.
    pub last: Option<String>,
    /// `black` or `white`.
    pub learner: &'static str,
    /// Marks drawn on the board.
    pub marks: Vec<Mark>,
    /// Stones each side captured before the step.
    pub prisoners: Prisoners,
    /// The question.
    pub prompt: Text,
    /// The preset the engine judges by.
    pub rules: &'static str,
    /// The board size.
    pub size: u8,
}

/// Stones captured by each side.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Prisoners {
    /// By Black.
    pub black: u32,
    /// By White.
    pub white: u32,
}

/// The teacher's answer to a try: a move's verdict, or a count's.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Judged {
    /// A move's.
    Move(Verdict),
    /// A counting step's.
    Count(CountVerdict),
}

/// A counting step's verdict.
#[derive(Debug, Serialize)]
pub struct CountVerdict {
    /// Black's count.
    pub black: CountSide,
    /// The engine's result (`B+3`).
    pub result: String,
    /// Whether the learner's result is the engine's.
    pub right: bool,
    /// White's count.
    pub white: CountSide,
}

/// One side's count, to show why.
#[derive(Debug, Serialize)]
pub struct CountSide {
    /// Komi (White's), as the rules write it.
    pub komi: String,
    /// Prisoners counted.
    pub prisoners: u32,
    /// Stones counted.
    pub stones: u32,
    /// Territory counted.
    pub territory: u32,
    /// The total, in points.
    pub total: f64,
}

/// Every lesson's id, title and number of steps, in order.
pub fn list() -> Result<LessonList, ApiError> {
    let lessons = lessons_read()?
        .lessons
        .iter()
        .map(|l| LessonEntry {
            id: &l.id,
            steps: l.steps.len(),
            title: &l.title,
        })
        .collect();
    Ok(LessonList { lessons })
}

/// One lesson: each step's position, question and marks (not its answers: the server judges).
pub fn lesson(id: &str) -> Result<LessonView, ApiError> {
    let l = find(id)?;
    Ok(LessonView {
        id: &l.id,
        steps: l.steps.iter().map(step_view).collect(),
        title: &l.title,
    })
}

/// What the client is shown of `s`.
pub(crate) fn step_view(s: &Step) -> StepView {
    let size = s.start.size();
    let last = s
        .start
        .moves()
        .last()
        .map(|(_, m)| gtp::format_move(size, m));
    let board = s.start.board();
    StepView {
        board: rows(&s.start),
        goal: s.goal,
        komi: s.start.rules().komi.to_string(),
        last,
        learner: colour(s.learner),
        marks: s.marks.clone(),
        prisoners: Prisoners {
            black: board.captures(Color::Black),
            white: board.captures(Color::White),
        },
        prompt: s.prompt.clone(),
        rules: s.preset.name(),
        size,
    }
}

/// The teacher's verdict on a try in step `index` (from 0) of lesson `id`.
pub fn check(id: &str, index: usize, t: &Try) -> Result<Judged, ApiError> {
    let step = find(id)?.steps.get(index).ok_or(ApiError::NotFound)?;
    if step.goal == Goal::Count {
        return count(step, t.count.as_deref().unwrap_or("")).map(Judged::Count);
    }
    let size = step.start.size();
    let moves = t
        .moves
        .iter()
        .map(|v| gtp::parse_move(size, v).map_err(|e| bad(format!("{v}: {e}"))))
        .collect::<Result<Vec<Move>, _>>()?;
    let verdict = step.check(&moves).map_err(|e| bad(e.to_string()))?;
    Ok(Judged::Move(verdict))
}

/// A counting step: whether the learner's result is the engine's, with the count that shows why.
fn count(step: &Step, answer: &str) -> Result<CountVerdict, ApiError> {
    let right = step
        .check_count(answer)
        .ok_or_else(|| bad(format!("{answer:?} is not a result such as B+3")))?;
    let score = step.count();
    let side = |c: &tengen_rules::Count| CountSide {
        komi: c.komi.to_string(),
        prisoners: c.prisoners,
        stones: c.stones,
        territory: c.territory,
        total: c.total_halves() as f64 / 2.0,
    };
    Ok(CountVerdict {
        black: side(&score.black),
        result: score.result.to_string(),
        right,
        white: side(&score.white),
    })
}

fn bad(why: String) -> ApiError {
    ApiError::Rejected("bad_try", why)
}
