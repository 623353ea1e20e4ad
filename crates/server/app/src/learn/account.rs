//! Learning kept on the account once a learner logs in: the lesson progress and the puzzle
//! rating the browser kept are merged into the account's (steps solved anywhere stay solved,
//! the First Capture wins are the larger count, the account's rating wins over the browser's),
//! and a logged-in learner's puzzle attempts are rated from the account and recorded, moving
//! the puzzle's own rating too; their next puzzle is chosen by the account's rating.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use tengen_core::domain::glicko::Rating;
use tengen_store::learning::{Attempt, Learner, StoredRating};
use tengen_store::Store;

use super::puzzles::{
    find, judge, next_at, puzzle_rating, NextQuery, PlayerRating, PuzzleTry, PuzzleVerdict,
    PuzzleView,
};
use crate::accounts::User;
use crate::error::ApiError;

/// Lessons and steps a progress may name, at most (the lessons have far fewer).
const MOST_LESSONS: usize = 100;
const MOST_STEPS: usize = 200;

/// The lesson progress as the browser keeps it (`tengen.learn`).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct Lessons {
    /// Each lesson's solved steps.
    #[serde(default)]
    pub done: BTreeMap<String, BTreeSet<u32>>,
    /// First Capture games won on each board size.
    #[serde(default)]
    pub wins: BTreeMap<String, u32>,
}

/// What the browser kept, sent when the learner logs in.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct BrowserLearning {
    /// The lesson progress.
    #[serde(default)]
    pub lessons: Lessons,
    /// The puzzle rating.
    pub rating: Option<PlayerRating>,
}

impl Lessons {
    fn checked(self) -> Result<Lessons, ApiError> {
        let too_many = self.done.len() > MOST_LESSONS
            || self.wins.len() > MOST_LESSONS
            || self
                .done
                .iter()
                .any(|(id, s)| id.len() > 64 || s.len() > MOST_STEPS)
            || self.wins.keys().any(|k| k.len() > 8);
        if too_many {
            return Err(ApiError::Rejected(
                "bad_progress",
                format!("at most {MOST_LESSONS} lessons of {MOST_STEPS} steps"),
            ));
        }
        Ok(self)
    }

    /// Both progresses: every step solved in either, the larger count of wins.
    fn merged(mut self, other: Lessons) -> Lessons {
        for (id, steps) in other.done {
            self.done.entry(id).or_default().extend(steps);
        }
        for (size, n) in other.wins {
            let w = self.wins.entry(size).or_default();
            *w = (*w).max(n);
        }
        self
    }
}

fn stored(r: Rating) -> StoredRating {
    (r.rating, r.deviation, r.volatility)
}

fn rating_of(s: StoredRating) -> Rating {
    Rating {
        rating: s.0,
        deviation: s.1,
        volatility: s.2,
    }
}

async fn load(store: &Store, user: &User) -> Result<(Lessons, Option<Rating>), ApiError> {
    let Some(l) = store.learner(user.id).await? else {
        return Ok((Lessons::default(), None));
    };
    // A row this server wrote reads back; anything else starts afresh rather than failing.
    let lessons = serde_json::from_str(&l.lessons).unwrap_or_default();
    Ok((lessons, l.rating.map(rating_of)))
}

/// A learner's learning on the account (fields in alphabetical order, as the `json!` object
/// it replaces wrote them).
#[derive(Debug, Serialize)]
pub struct Learning {
    /// Puzzle attempts rated.
    pub attempts: i64,
    /// The lesson progress.
    pub lessons: Lessons,
    /// The puzzle rating, once one was rated or brought from the browser.
    pub rating: Option<PlayerRating>,
    /// Attempts solved.
    pub solved: i64,
}

fn view(lessons: Lessons, rating: Option<Rating>, attempts: (i64, i64)) -> Learning {
    Learning {
        attempts: attempts.0,
        lessons,
        rating: rating.map(PlayerRating::of),
        solved: attempts.1,
    }
}

/// `user`'s learning on the account.
pub async fn learning(store: &Store, user: &User) -> Result<Learning, ApiError> {
    let (lessons, rating) = load(store, user).await?;
    Ok(view(lessons, rating, store.attempts_of(user.id).await?))
}

/// Merges what the browser kept into the account, and answers with the result.
pub async fn merge(
    store: &Store,
    user: &User,
    browser: BrowserLearning,
    now: i64,
) -> Result<Learning, ApiError> {
    let theirs = browser.lessons.checked()?;
    let browser_rating = browser.rating.map(PlayerRating::checked).transpose()?;
    let (mine, rating) = load(store, user).await?;
    let lessons = mine.merged(theirs);
    let rating = rating.or(browser_rating);
    let text = serde_json::to_string(&lessons).map_err(|e| ApiError::Internal(e.to_string()))?;
    let learner = Learner {
        lessons: text,
        rating: rating.map(stored),
    };
    store.save_learner(user.id, &learner, now).await?;
    Ok(view(lessons, rating, store.attempts_of(user.id).await?))
}

/// A learner's learning in their data export: the progress, the puzzle rating and every
/// attempt (fields in alphabetical order, as the export's other parts).
#[derive(Debug, Serialize)]
pub struct ExportedLearning {
    /// Every rated puzzle attempt, oldest first.
    pub attempts: Vec<ExportedAttempt>,
    /// The lesson progress.
    pub lessons: Lessons,
    /// The puzzle rating.
    pub rating: Option<PlayerRating>,
}

/// A puzzle attempt in the export.
#[derive(Debug, Serialize)]
pub struct ExportedAttempt {
    /// When (Unix seconds).
    pub at: i64,
    /// The puzzle's id.
    pub puzzle: String,
    /// The learner's puzzle rating after it.
    pub rating: f64,
    /// Solved, or failed.
    pub solved: bool,
}

/// Attempts an export lists, at most (as many as the games it lists).
const MOST_EXPORTED: i64 = 100_000;

/// `user`'s learning as their data export gives it back.
pub async fn export(store: &Store, user: &User) -> Result<ExportedLearning, ApiError> {
    let (lessons, rating) = load(store, user).await?;
    let attempts = store
        .attempts_list(user.id, MOST_EXPORTED)
        .await?
        .into_iter()
        .map(|a| ExportedAttempt {
            at: a.at,
            puzzle: a.puzzle_id,
            rating: a.rating,
            solved: a.solved,
        })
        .collect();
    Ok(ExportedLearning {
        attempts,
        lessons,
        rating: rating.map(PlayerRating::of),
    })
}

/// The next puzzle for a logged-in learner: near the rating kept on the account (a new
/// learner's until one is), whatever rating the request carries, so that the puzzles a
/// learner is given follow the attempts the server rated.
pub async fn next_puzzle(
    store: &Store,
    user: &User,
    q: &NextQuery,
) -> Result<PuzzleView, ApiError> {
    let (_, rating) = load(store, user).await?;
    let rating = rating.unwrap_or(PlayerRating::start().rating());
    next_at(rating.rating, q)
}

/// A logged-in learner's try: judged as an anonymous one is, but rated from the account's
/// rating (the request's `rating` only says the attempt is still to be rated) and recorded,
/// the puzzle's rating moved by the result.
pub async fn try_puzzle(
    store: &Store,
    user: &User,
    id: &str,
    t: &PuzzleTry,
    now: i64,
) -> Result<PuzzleVerdict, ApiError> {
    let p = find(id)?;
    let (v, score) = judge(p, &t.moves)?;
    let (Some(score), Some(_)) = (score, t.rating) else {
        return Ok(PuzzleVerdict::new(v, None));
    };
    let (_, mine) = load(store, user).await?;
    let learner = mine.unwrap_or(PlayerRating::start().rating());
    let puzzle = match store.puzzle_rating(&p.id).await? {
        Some(r) => rating_of(r),
        None => puzzle_rating(p),
    };
    let learner_after = learner.after(&[(puzzle, score)]);
    let puzzle_after = puzzle.after(&[(learner, 1.0 - score)]);
    store
        .record_attempt(&Attempt {
            user_id: user.id,
            puzzle_id: &p.id,
            at: now,
            solved: score > 0.5,
            learner: stored(learner_after),
            puzzle: stored(puzzle_after),
        })
        .await?;
    Ok(PuzzleVerdict::new(v, Some(PlayerRating::of(learner_after))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merged_progress_keeps_every_solved_step_and_the_most_wins() {
        let a: Lessons =
            serde_json::from_value(json!({ "done": { "01": [0, 1] }, "wins": { "5": 2 } }))
                .expect("progress");
        let b: Lessons = serde_json::from_value(
            json!({ "done": { "01": [1, 2], "02": [0] }, "wins": { "5": 1, "7": 1 } }),
        )
        .expect("progress");
        let m = a.merged(b);
        assert_eq!(
            serde_json::to_value(&m).expect("json"),
            json!({ "done": { "01": [0, 1, 2], "02": [0] }, "wins": { "5": 2, "7": 1 } })
        );
    }

    #[test]
    fn a_progress_too_large_is_refused() {
        let mut l = Lessons::default();
        l.done.insert("x".repeat(65), BTreeSet::from([0]));
        assert!(matches!(
            l.checked(),
            Err(ApiError::Rejected("bad_progress", _))
        ));
    }
}
