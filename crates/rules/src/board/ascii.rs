//! Boards as text: `.` empty, `X` black, `O` white, one row per line, top row first.

use super::Board;
use crate::color::Color;
use crate::point::{Point, MAX_SIZE, MIN_SIZE};
use std::fmt;
use std::str::FromStr;

/// Why a text diagram is not a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseBoardError {
    /// A character that is neither a stone nor an empty point.
    #[error("line {line}: unexpected character {ch:?}")]
    BadChar {
        /// 1-based line among the board's rows.
        line: usize,
        /// The character.
        ch: char,
    },
    /// Rows of different lengths, or not as many rows as columns.
    #[error("the diagram is not square ({rows} rows, row {row} has {len} points)")]
    NotSquare {
        /// Number of rows.
        rows: usize,
        /// The first offending row, 1-based.
        row: usize,
        /// Its length.
        len: usize,
    },
    /// Fewer than 2 or more than 25 rows.
    #[error("board size {0} is outside 2..=25")]
    BadSize(usize),
    /// A chain with no liberties.
    #[error("the chain at row {row}, column {col} has no liberties")]
    NoLiberties {
        /// 0-based row from the top.
        row: u8,
        /// 0-based column from the left.
        col: u8,
    },
}

impl FromStr for Board {
    type Err = ParseBoardError;

    /// Reads a diagram. Blank lines and spaces are ignored; `X`, `x`, `#` and `@` are black,
    /// `O` and `o` white, `.`, `+` and `,` empty.
    fn from_str(s: &str) -> Result<Board, ParseBoardError> {
        let mut rows: Vec<Vec<Option<Color>>> = Vec::new();
        for line in s.lines() {
            let mut row = Vec::new();
            for ch in line.chars().filter(|c| !c.is_whitespace()) {
                row.push(match ch {
                    'X' | 'x' | '#' | '@' => Some(Color::Black),
                    'O' | 'o' => Some(Color::White),
                    '.' | '+' | ',' => None,
                    _ => {
                        return Err(ParseBoardError::BadChar {
                            line: rows.len() + 1,
                            ch,
                        })
                    }
                });
            }
            if !row.is_empty() {
                rows.push(row);
            }
        }
        let n = rows.len();
        if !(MIN_SIZE as usize..=MAX_SIZE as usize).contains(&n) {
            return Err(ParseBoardError::BadSize(n));
        }
        if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != n) {
            return Err(ParseBoardError::NotSquare {
                rows: n,
                row: i + 1,
                len: r.len(),
            });
        }
        let size = n as u8;
        let mut board = Board::new(size);
        let mut stones = Vec::new();
        for (row, r) in rows.iter().enumerate() {
            for (col, c) in r.iter().enumerate() {
                if c.is_some() {
                    stones.push((Point::at(size, col as u8, row as u8), *c));
                }
            }
        }
        board.setup(&stones).map_err(|e| match e {
            super::SetupError::NoLiberties(p) | super::SetupError::OffBoard(p) => {
                ParseBoardError::NoLiberties {
                    row: p.row(size),
                    col: p.col(size),
                }
            }
        })?;
        Ok(board)
    }
}

impl fmt::Display for Board {
    /// The diagram [`Board::from_str`] reads, rows separated by newlines.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..self.size {
            for col in 0..self.size {
                if col > 0 {
                    f.write_str(" ")?;
                }
                let ch = match self.get(Point::at(self.size, col, row)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
