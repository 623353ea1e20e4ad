//! Tengen's lessons: Go taught on the board, as the AGA's First Capture Go teaches it (seed
//! 004), then regular Go. Each lesson is an SGF file under `learn/lessons/` that a contributor
//! edits (`docs/lessons.md`); this crate embeds them, reads them into steps and judges a
//! learner's tries with the rules engine: a try the lesson foresaw gets its words, any other
//! legal move is judged on the board by the step's goal, an illegal one by the rules.
//!
//! ```
//! use tengen_learn::{library, Outcome};
//! use tengen_rules::{coord::gtp, Move};
//!
//! let lessons = library().unwrap();
//! let capture = lessons.lesson("02-capture").unwrap();
//! let step = &capture.steps[0];
//! // The first step asks for the capture of a lone white stone at C3 with one liberty, C2.
//! let c2 = Move::Play(gtp::parse_point(5, "C2").unwrap());
//! assert_eq!(step.check(&[c2]).unwrap().outcome, Outcome::Solved);
//! ```
//!
//! Layout:
//! - [`lesson`]: a lesson file read into steps, tries and replies.
//! - [`goal`]: what a step asks, judged on the board after a move.
//! - [`check`]: the verdict on a learner's tries; a counting step's count.
//! - [`text`]: a lesson's words in the four languages.
//! - [`puzzle`]: puzzles (life and death, capturing races, tesuji), each a step with its
//!   solution tree, an id, a level and a kind.

pub mod check;
pub mod goal;
pub mod lesson;
pub mod puzzle;
pub mod text;

#[cfg(test)]
mod tests;

use std::sync::OnceLock;

pub use check::{Outcome, PathError, Verdict};
pub use goal::{Goal, Miss};
pub use lesson::{Answer, Lesson, Mark, Reply, Step};
pub use puzzle::{Kind, Level, Puzzle};
pub use text::Text;

/// Why a lesson file cannot be used; the tests refuse every one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LessonError {
    /// The file is not SGF.
    #[error("not SGF: {0}")]
    Sgf(String),
    /// The SGF does not follow the lessons' conventions.
    #[error("{0}")]
    Shape(String),
    /// A set-up or a move the rules refuse.
    #[error("illegal: {0}")]
    Illegal(String),
    /// A text without one of its translations.
    #[error("untranslated: {0}")]
    Untranslated(String),
}

/// The lesson files, in the order a learner takes them: name and text.
pub const FILES: &[(&str, &str)] = &[
    (
        "01-stones",
        include_str!("../../../learn/lessons/01-stones.sgf"),
    ),
    (
        "02-capture",
        include_str!("../../../learn/lessons/02-capture.sgf"),
    ),
    (
        "03-atari",
        include_str!("../../../learn/lessons/03-atari.sgf"),
    ),
    (
        "04-first-capture",
        include_str!("../../../learn/lessons/04-first-capture.sgf"),
    ),
    (
        "05-connect-cut",
        include_str!("../../../learn/lessons/05-connect-cut.sgf"),
    ),
    (
        "06-ladder",
        include_str!("../../../learn/lessons/06-ladder.sgf"),
    ),
    (
        "07-life",
        include_str!("../../../learn/lessons/07-life.sgf"),
    ),
    ("08-ko", include_str!("../../../learn/lessons/08-ko.sgf")),
    (
        "09-territory",
        include_str!("../../../learn/lessons/09-territory.sgf"),
    ),
    (
        "10-counting",
        include_str!("../../../learn/lessons/10-counting.sgf"),
    ),
    (
        "11-first-game",
        include_str!("../../../learn/lessons/11-first-game.sgf"),
    ),
];

/// Every lesson, read once.
#[derive(Debug)]
pub struct Library {
    /// The lessons, in order.
    pub lessons: Vec<Lesson>,
}

impl Library {
    /// Reads every embedded lesson.
    pub fn read() -> Result<Library, LessonError> {
        let lessons = FILES
            .iter()
            .map(|(id, text)| lesson::read(id, text))
            .collect::<Result<_, _>>()?;
        Ok(Library { lessons })
    }

    /// The lesson called `id`.
    pub fn lesson(&self, id: &str) -> Option<&Lesson> {
        self.lessons.iter().find(|l| l.id == id)
    }
}

/// The embedded lessons, read on first use. The tests read every one, so an error here means a
/// lesson was changed without running them.
pub fn library() -> Result<&'static Library, &'static LessonError> {
    static LIBRARY: OnceLock<Result<Library, LessonError>> = OnceLock::new();
    LIBRARY.get_or_init(Library::read).as_ref()
}

/// The puzzle files, by level band: name and text (`learn/puzzles/`).
pub const PUZZLE_FILES: &[(&str, &str)] = &[
    (
        "beginner",
        include_str!("../../../learn/puzzles/beginner.sgf"),
    ),
    (
        "intermediate",
        include_str!("../../../learn/puzzles/intermediate.sgf"),
    ),
    (
        "advanced",
        include_str!("../../../learn/puzzles/advanced.sgf"),
    ),
];

/// Every puzzle, read once.
#[derive(Debug)]
pub struct Puzzles {
    /// The puzzles, file by file, in each file's order.
    pub puzzles: Vec<Puzzle>,
}

impl Puzzles {
    /// Reads every embedded puzzle; two puzzles with one id are refused.
    pub fn read() -> Result<Puzzles, LessonError> {
        let mut puzzles = Vec::new();
        for (name, text) in PUZZLE_FILES {
            puzzles.extend(puzzle::read(name, text)?);
        }
        let mut ids: Vec<&str> = puzzles.iter().map(|p| p.id.as_str()).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(LessonError::Shape(format!(
                "two puzzles are called {}",
                w[0]
            )));
        }
        Ok(Puzzles { puzzles })
    }

    /// The puzzle called `id`.
    pub fn puzzle(&self, id: &str) -> Option<&Puzzle> {
        self.puzzles.iter().find(|p| p.id == id)
    }
}

/// The embedded puzzles, read on first use (the tests read every one).
pub fn puzzles() -> Result<&'static Puzzles, &'static LessonError> {
    static PUZZLES: OnceLock<Result<Puzzles, LessonError>> = OnceLock::new();
    PUZZLES.get_or_init(Puzzles::read).as_ref()
}
