//! Argument types: colours, vertices, moves, numbers.

use tengen_rules::coord::gtp as coord;
use tengen_rules::{Color, Move, Point};

/// An argument that does not parse: the engine answers `? syntax error`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    /// Too few or too many arguments.
    #[error("wrong number of arguments")]
    Count,
    /// An argument of the wrong form.
    #[error("invalid argument {0:?}")]
    Invalid(String),
    /// A vertex outside the board.
    #[error("vertex {0:?} is off the board")]
    OffBoard(String),
}

/// Checks the argument count.
pub fn count(args: &[String], n: usize) -> Result<(), ArgError> {
    if args.len() == n {
        Ok(())
    } else {
        Err(ArgError::Count)
    }
}

/// `b`, `w`, `black`, `white` in any case.
pub fn color(s: &str) -> Result<Color, ArgError> {
    Color::parse(s).ok_or_else(|| ArgError::Invalid(s.to_string()))
}

/// A vertex or `pass`.
pub fn vertex(size: u8, s: &str) -> Result<Move, ArgError> {
    coord::parse_move(size, s).map_err(|e| match e {
        tengen_rules::coord::CoordError::OffBoard(v) => ArgError::OffBoard(v),
        tengen_rules::coord::CoordError::Malformed(v) => ArgError::Invalid(v),
    })
}

/// A vertex that is not `pass`.
pub fn point(size: u8, s: &str) -> Result<Point, ArgError> {
    match vertex(size, s)? {
        Move::Play(p) => Ok(p),
        Move::Pass => Err(ArgError::Invalid(s.to_string())),
    }
}

/// The two arguments of `play`: a colour and a vertex.
pub fn color_and_move(size: u8, args: &[String]) -> Result<(Color, Move), ArgError> {
    count(args, 2)?;
    Ok((color(&args[0])?, vertex(size, &args[1])?))
}

/// A non-negative integer.
pub fn int(s: &str) -> Result<u32, ArgError> {
    s.parse().map_err(|_| ArgError::Invalid(s.to_string()))
}

/// A finite float.
pub fn float(s: &str) -> Result<f64, ArgError> {
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(f),
        _ => Err(ArgError::Invalid(s.to_string())),
    }
}

/// A list of vertices, as `fixed_handicap` answers and `set_free_handicap` takes.
pub fn format_points(size: u8, points: &[Point]) -> String {
    points
        .iter()
        .map(|&p| coord::format_point(size, p))
        .collect::<Vec<_>>()
        .join(" ")
}
