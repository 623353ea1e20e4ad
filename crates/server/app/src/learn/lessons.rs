//! The lessons of `tengen-learn` as JSON for the client, and the teacher's verdicts.

use serde::Deserialize;
use serde_json::{json, Value};
use tengen_learn::{check::rows, library, Goal, Lesson, Library, Step};
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

/// Every lesson's id, title and kinds of step, in order.
pub fn list() -> Result<Value, ApiError> {
    let lessons = lessons_read()?
        .lessons
        .iter()
        .map(|l| json!({ "id": l.id, "title": l.title, "steps": l.steps.len() }));
    Ok(json!({ "lessons": lessons.collect::<Vec<_>>() }))
}

/// One lesson: each step's position, question and marks (not its answers: the server judges).
pub fn lesson(id: &str) -> Result<Value, ApiError> {
    let l = find(id)?;
    let steps: Vec<Value> = l.steps.iter().map(step_view).collect();
    Ok(json!({ "id": l.id, "title": l.title, "steps": steps }))
}

pub(crate) fn step_view(s: &Step) -> Value {
    let size = s.start.size();
    let last = s
        .start
        .moves()
        .last()
        .map(|(_, m)| gtp::format_move(size, m));
    json!({
        "size": size,
        "rules": s.preset.name(),
        "goal": s.goal,
        "learner": colour(s.learner),
        "prompt": s.prompt,
        "board": rows(&s.start),
        "last": last,
        "marks": s.marks,
        "prisoners": { "black": s.start.board().captures(Color::Black), "white": s.start.board().captures(Color::White) },
        "komi": s.start.rules().komi.to_string(),
    })
}

/// The teacher's verdict on a try in step `index` (from 0) of lesson `id`.
pub fn check(id: &str, index: usize, t: &Try) -> Result<Value, ApiError> {
    let step = find(id)?.steps.get(index).ok_or(ApiError::NotFound)?;
    if step.goal == Goal::Count {
        return count(step, t.count.as_deref().unwrap_or(""));
    }
    let size = step.start.size();
    let moves = t
        .moves
        .iter()
        .map(|v| gtp::parse_move(size, v).map_err(|e| bad(format!("{v}: {e}"))))
        .collect::<Result<Vec<Move>, _>>()?;
    let verdict = step.check(&moves).map_err(|e| bad(e.to_string()))?;
    serde_json::to_value(verdict).map_err(|e| ApiError::Internal(e.to_string()))
}

/// A counting step: whether the learner's result is the engine's, with the count that shows why.
fn count(step: &Step, answer: &str) -> Result<Value, ApiError> {
    let right = step
        .check_count(answer)
        .ok_or_else(|| bad(format!("{answer:?} is not a result such as B+3")))?;
    let score = step.count();
    let side = |c: &tengen_rules::Count| {
        json!({ "territory": c.territory, "stones": c.stones, "prisoners": c.prisoners,
                "komi": c.komi.to_string(), "total": c.total_halves() as f64 / 2.0 })
    };
    Ok(json!({
        "right": right,
        "result": score.result.to_string(),
        "black": side(&score.black),
        "white": side(&score.white),
    }))
}

fn bad(why: String) -> ApiError {
    ApiError::Rejected("bad_try", why)
}
