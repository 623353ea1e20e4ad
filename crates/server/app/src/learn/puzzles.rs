//! The puzzles of `tengen-learn` for the client: one puzzle's position, the next puzzle at a
//! learner's level, the day's puzzle, and the verdict on a try with the learner's Glicko-2
//! puzzle rating after it.
//!
//! Each puzzle is rated from its level (the middle of its rank's band, the deviation of a
//! settled rating). A learner's rating travels with the requests: an anonymous learner keeps
//! it in the browser and sends it with the first try of each puzzle; the server rates the
//! attempt (solved or failed, as one game against the puzzle) and answers with the new rating.

use serde::{Deserialize, Serialize};
use tengen_core::domain::glicko::{self, rating_of_level, Rating};
use tengen_learn::{puzzles, Kind, Level, Miss, Outcome, Puzzle, Puzzles, Text, Verdict};
use tengen_rules::coord::gtp;
use tengen_rules::Move;

use super::lessons::{step_view, StepView};
use crate::error::ApiError;

/// A puzzle's deviation: its level is an estimate, firmer than a new player's.
const PUZZLE_DEVIATION: f64 = 150.0;
/// Where a learner without a rating starts: 20 kyu, the level the lessons end at.
const START_LEVEL: f64 = 10.5;
/// How many of the puzzles nearest the learner's rating `next` chooses among.
const NEAREST: usize = 5;
/// Ids a `next` request may name as seen, at most.
const MOST_SEEN: usize = 200;

/// A learner's puzzle rating as the client keeps it (fields in alphabetical order, as the
/// answers always wrote them).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq)]
pub struct PlayerRating {
    /// Its deviation.
    pub deviation: f64,
    /// The rating, 1500-centred.
    pub rating: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl PlayerRating {
    /// A new learner's rating.
    pub fn start() -> PlayerRating {
        PlayerRating {
            rating: rating_of_level(START_LEVEL),
            deviation: glicko::START_DEVIATION,
            volatility: glicko::START_VOLATILITY,
        }
    }

    /// The rating, when its numbers are ones Glicko-2 can have.
    pub fn checked(self) -> Result<Rating, ApiError> {
        let ok = (1.0..=5000.0).contains(&self.rating)
            && (1.0..=glicko::START_DEVIATION).contains(&self.deviation)
            && (0.0..=1.0).contains(&self.volatility);
        if !ok {
            return Err(ApiError::Rejected(
                "bad_rating",
                "a rating is { rating: 1..5000, deviation: 1..350, volatility: 0..1 }".into(),
            ));
        }
        Ok(self.rating())
    }

    /// As Glicko-2 counts.
    pub fn rating(self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// A Glicko-2 rating as the client keeps it.
    pub fn of(r: Rating) -> PlayerRating {
        PlayerRating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// What `next` is asked for: the learner's rating, the puzzles already seen, a kind.
#[derive(Debug, Default, Deserialize)]
pub struct NextQuery {
    /// The learner's rating (a new learner's when absent).
    pub rating: Option<f64>,
    /// Ids seen lately, comma-separated: left out while others are near.
    #[serde(default)]
    pub seen: String,
    /// Only this kind (`life`, `race`, `tesuji`).
    pub kind: Option<String>,
    /// Which of the nearest puzzles (any number: the client counts its attempts).
    #[serde(default)]
    pub turn: u64,
}

/// A try at a puzzle: the moves made so far (the last one judged), and, with the first try
/// of an attempt, the learner's rating to rate the attempt by.
#[derive(Debug, Default, Deserialize)]
pub struct PuzzleTry {
    /// GTP vertices (`C2`).
    #[serde(default)]
    pub moves: Vec<String>,
    /// The learner's rating before this attempt; absent on later tries of the same attempt.
    pub rating: Option<PlayerRating>,
}

fn all() -> Result<&'static Puzzles, ApiError> {
    puzzles().map_err(|e| ApiError::Internal(format!("the puzzles do not read: {e}")))
}

/// A puzzle's own rating: the middle of its level's band.
pub fn puzzle_rating(p: &Puzzle) -> Rating {
    Rating {
        rating: rating_of_level(p.level.number() as f64 + 0.5),
        deviation: PUZZLE_DEVIATION,
        volatility: glicko::START_VOLATILITY,
    }
}

// The answers' fields are in alphabetical order, as the `json!` objects they replace wrote
// them: the wire stays byte for byte the same (see `crate::wire`).

/// A puzzle as the client shows it.
#[derive(Debug, Serialize)]
pub struct PuzzleView {
    /// Its address.
    pub id: &'static str,
    /// What it asks.
    pub kind: Kind,
    /// Its level (`15k`).
    pub level: Level,
    /// Its rating, from its level, rounded.
    pub rating: f64,
    /// Its position and question, without the solution.
    pub step: StepView,
}

/// The day's puzzle: a puzzle and the day it is for.
#[derive(Debug, Serialize)]
pub struct Daily {
    /// Days since 1970-01-01 (UTC).
    pub day: i64,
    /// The puzzle.
    #[serde(flatten)]
    pub puzzle: PuzzleView,
}

/// How many puzzles there are, and a new learner's rating.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// Puzzles in all.
    pub count: usize,
    /// How many of each kind, in the order the client lists them.
    pub kinds: Vec<KindCount>,
    /// A new learner's rating.
    pub start: PlayerRating,
}

/// How many puzzles of one kind.
#[derive(Debug, Serialize)]
pub struct KindCount {
    /// How many.
    pub count: usize,
    /// The kind.
    pub kind: Kind,
}

/// The verdict on a try at a puzzle, with the learner's rating after the attempt.
#[derive(Debug, Serialize)]
pub struct PuzzleVerdict {
    /// The board after the try and its answer.
    pub board: Vec<String>,
    /// Why a legal move is wrong.
    pub miss: Option<Miss>,
    /// The next question, after a right try that goes on.
    pub next: Option<Text>,
    /// Right, wrong or refused.
    pub outcome: Outcome,
    /// The learner's rating after the attempt, once it ended and was rated.
    pub rating: Option<PlayerRating>,
    /// Why the rules refuse the move.
    pub refused: Option<&'static str>,
    /// The defence's answer (GTP).
    pub reply: Option<String>,
    /// What the puzzle says to this try.
    pub says: Option<Text>,
}

impl PuzzleVerdict {
    /// `v` with the rating after it.
    pub fn new(v: Verdict, rating: Option<PlayerRating>) -> PuzzleVerdict {
        PuzzleVerdict {
            board: v.board,
            miss: v.miss,
            next: v.next,
            outcome: v.outcome,
            rating,
            refused: v.refused,
            reply: v.reply,
            says: v.says,
        }
    }
}

fn view(p: &'static Puzzle) -> PuzzleView {
    PuzzleView {
        id: &p.id,
        kind: p.kind,
        level: p.level,
        rating: puzzle_rating(p).rating.round(),
        step: step_view(&p.step),
    }
}

/// How many puzzles there are of each kind, and a new learner's rating.
pub fn summary() -> Result<Summary, ApiError> {
    let all = all()?;
    let count = |k: Kind| all.puzzles.iter().filter(|p| p.kind == k).count();
    Ok(Summary {
        count: all.puzzles.len(),
        kinds: Kind::ALL
            .iter()
            .map(|&kind| KindCount {
                count: count(kind),
                kind,
            })
            .collect(),
        start: PlayerRating::start(),
    })
}

/// One puzzle: its position, question, level and kind (not its solution: the server judges).
pub fn puzzle(id: &str) -> Result<PuzzleView, ApiError> {
    let p = all()?.puzzle(id).ok_or(ApiError::NotFound)?;
    Ok(view(p))
}

/// A puzzle near the rating the request carries (an anonymous learner's, kept in the
/// browser), not one seen lately unless every one near was.
pub fn next(q: &NextQuery) -> Result<PuzzleView, ApiError> {
    next_at(q.rating.unwrap_or(PlayerRating::start().rating), q)
}

/// A puzzle near `rating`, of the kind `q` asks for, not one `q` names as seen unless every
/// one near was.
pub(crate) fn next_at(rating: f64, q: &NextQuery) -> Result<PuzzleView, ApiError> {
    if !rating.is_finite() {
        return Err(ApiError::Rejected(
            "bad_rating",
            "rating is a number".into(),
        ));
    }
    let kind =
        match q.kind.as_deref() {
            None | Some("") => None,
            Some(k) => Some(k.parse::<Kind>().map_err(|()| {
                ApiError::Rejected("bad_kind", "kind is life, race or tesuji".into())
            })?),
        };
    let seen: Vec<&str> = q.seen.split(',').take(MOST_SEEN).collect();
    let mut near: Vec<&Puzzle> = all()?
        .puzzles
        .iter()
        .filter(|p| kind.is_none_or(|k| p.kind == k))
        .collect();
    near.sort_by(|a, b| {
        let d = |p: &Puzzle| (puzzle_rating(p).rating - rating).abs();
        d(a).total_cmp(&d(b)).then_with(|| a.id.cmp(&b.id))
    });
    let unseen: Vec<&Puzzle> = near
        .iter()
        .copied()
        .filter(|p| !seen.contains(&p.id.as_str()))
        .take(NEAREST)
        .collect();
    let pool = if unseen.is_empty() { &near } else { &unseen };
    let pool = &pool[..pool.len().min(NEAREST)];
    let p = pool
        .get((q.turn % pool.len().max(1) as u64) as usize)
        .ok_or(ApiError::NotFound)?;
    Ok(view(p))
}

/// The day's puzzle: the same for everyone on UTC day `day` (days since 1970-01-01), drawn
/// from the date so that consecutive days differ.
pub fn daily(day: i64) -> Result<Daily, ApiError> {
    let all = all()?;
    let n = all.puzzles.len().max(1) as u64;
    let p = all
        .puzzles
        .get((mix(day as u64) % n) as usize)
        .ok_or(ApiError::NotFound)?;
    Ok(Daily {
        day,
        puzzle: view(p),
    })
}

/// SplitMix64's finaliser: a day number spread over the puzzles.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The verdict on a try at puzzle `id`; when the attempt ends (solved, or a wrong try) and
/// the request carries the learner's rating, the rating after the attempt.
pub fn check(id: &str, t: &PuzzleTry) -> Result<PuzzleVerdict, ApiError> {
    let p = find(id)?;
    let before = t.rating.map(PlayerRating::checked).transpose()?;
    let (v, score) = judge(p, &t.moves)?;
    let after = before
        .zip(score)
        .map(|(r, s)| PlayerRating::of(r.after(&[(puzzle_rating(p), s)])));
    Ok(PuzzleVerdict::new(v, after))
}

/// Puzzle `id`.
pub(crate) fn find(id: &str) -> Result<&'static Puzzle, ApiError> {
    all()?.puzzle(id).ok_or(ApiError::NotFound)
}

/// The verdict on the last of `moves`, and the attempt's score when it ended: 1 solved, 0
/// failed.
pub(crate) fn judge(p: &Puzzle, moves: &[String]) -> Result<(Verdict, Option<f64>), ApiError> {
    let size = p.step.start.size();
    let moves = moves
        .iter()
        .map(|v| gtp::parse_move(size, v).map_err(|e| bad(format!("{v}: {e}"))))
        .collect::<Result<Vec<Move>, _>>()?;
    let verdict = p.step.check(&moves).map_err(|e| bad(e.to_string()))?;
    let score = match verdict.outcome {
        Outcome::Solved => Some(1.0),
        Outcome::Wrong => Some(0.0),
        Outcome::Continue | Outcome::Illegal => None,
    };
    Ok((verdict, score))
}

fn bad(why: String) -> ApiError {
    ApiError::Rejected("bad_try", why)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{to_value, Value};

    fn first() -> &'static Puzzle {
        &all().expect("puzzles").puzzles[0]
    }

    fn right_move(p: &Puzzle) -> String {
        let a = p
            .step
            .answers
            .iter()
            .find(|a| a.right)
            .expect("a right try");
        gtp::format_move(p.step.start.size(), a.mv)
    }

    #[test]
    fn solving_raises_the_rating_and_a_wrong_try_lowers_it() {
        let p = first();
        let start = PlayerRating::start();
        let solved = to_value(
            check(
                &p.id,
                &PuzzleTry {
                    moves: vec![right_move(p)],
                    rating: Some(start),
                },
            )
            .expect("a verdict"),
        )
        .expect("json");
        let wrong = p
            .step
            .answers
            .iter()
            .find(|a| !a.right)
            .expect("a wrong try");
        let failed = to_value(
            check(
                &p.id,
                &PuzzleTry {
                    moves: vec![gtp::format_move(p.step.start.size(), wrong.mv)],
                    rating: Some(start),
                },
            )
            .expect("a verdict"),
        )
        .expect("json");
        assert_eq!(failed["outcome"], "wrong");
        assert!(failed["reply"].is_string(), "the refutation is shown");
        let r = |v: &Value| v["rating"]["rating"].as_f64().expect("a rating");
        assert!(r(&failed) < start.rating);
        assert!(solved["outcome"] == "solved" || solved["outcome"] == "continue");
        if solved["outcome"] == "solved" {
            assert!(r(&solved) > start.rating);
        }
    }

    #[test]
    fn a_rating_out_of_range_or_a_stray_path_is_refused() {
        let p = first();
        let bad_rating = PlayerRating {
            deviation: 1e9,
            ..PlayerRating::start()
        };
        let t = PuzzleTry {
            moves: vec![right_move(p)],
            rating: Some(bad_rating),
        };
        assert!(matches!(
            check(&p.id, &t),
            Err(ApiError::Rejected("bad_rating", _))
        ));
        let t = PuzzleTry {
            moves: vec!["Z99".into()],
            rating: None,
        };
        assert!(matches!(
            check(&p.id, &t),
            Err(ApiError::Rejected("bad_try", _))
        ));
        assert!(matches!(
            check("nope", &PuzzleTry::default()),
            Err(ApiError::NotFound)
        ));
    }

    #[test]
    fn next_gives_a_puzzle_near_the_rating_and_not_one_just_seen() {
        let weak = to_value(
            next(&NextQuery {
                rating: Some(300.0),
                ..NextQuery::default()
            })
            .expect("a puzzle"),
        )
        .expect("json");
        let strong = to_value(
            next(&NextQuery {
                rating: Some(2300.0),
                ..NextQuery::default()
            })
            .expect("a puzzle"),
        )
        .expect("json");
        let r = |v: &Value| v["rating"].as_f64().expect("a rating");
        assert!(r(&weak) < r(&strong));
        let id = weak["id"].as_str().expect("an id").to_string();
        for turn in 0..10 {
            let again = next(&NextQuery {
                rating: Some(300.0),
                seen: id.clone(),
                turn,
                ..NextQuery::default()
            })
            .expect("a puzzle");
            assert_ne!(again.id, id);
        }
        let life = next(&NextQuery {
            kind: Some("race".into()),
            ..NextQuery::default()
        })
        .expect("a puzzle");
        assert_eq!(life.kind, Kind::Race);
        assert!(next(&NextQuery {
            kind: Some("ladder".into()),
            ..NextQuery::default()
        })
        .is_err());
    }

    #[test]
    fn the_daily_puzzle_is_the_same_all_day_and_changes_with_the_date() {
        let today = daily(20_000).expect("a puzzle");
        assert_eq!(today.puzzle.id, daily(20_000).expect("a puzzle").puzzle.id);
        let days: std::collections::HashSet<&str> = (20_000..20_010)
            .map(|d| daily(d).expect("a puzzle").puzzle.id)
            .collect();
        assert!(days.len() > 5, "ten days, {} puzzles", days.len());
    }
}
