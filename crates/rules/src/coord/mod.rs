//! Coordinates as the field writes them. Each notation's quirks stay in its own module:
//! [`gtp`] (letters skip `I`, `A1` is bottom-left) and [`sgf`] (`aa` is top-left, `tt` may be a
//! pass).

pub mod gtp;
pub mod sgf;

/// A coordinate that does not name a point of the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CoordError {
    /// Not a coordinate at all.
    #[error("malformed coordinate {0:?}")]
    Malformed(String),
    /// Well formed, but outside a board of this size.
    #[error("coordinate {0:?} is off the board")]
    OffBoard(String),
}

impl CoordError {
    /// Stable snake_case id.
    pub fn code(&self) -> &'static str {
        match self {
            CoordError::Malformed(_) => "malformed_coordinate",
            CoordError::OffBoard(_) => "off_board",
        }
    }
}
