//! Errors with a place in the text.

use std::fmt;

/// What went wrong while reading SGF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// No game tree in the input.
    NoGameTree,
    /// A character where the grammar does not allow it.
    Unexpected(char),
    /// The input ended before the first node of a game tree (a file cut off later is read
    /// with a [`ParseWarning`] instead).
    UnexpectedEnd,
    /// A property identifier without upper-case letters.
    BadPropertyIdent,
    /// A property without a value.
    MissingValue,
    /// `(` with no node before its first variation or `)`.
    EmptySequence,
    /// Variations nested more deeply than [`crate::MAX_DEPTH`].
    TooDeep,
    /// A `CA` value other than UTF-8, Latin-1 or ASCII.
    UnsupportedCharset(String),
    /// Text that is not valid in the declared charset.
    BadEncoding,
}

impl ErrorKind {
    /// Stable snake_case id.
    pub fn code(&self) -> &'static str {
        match self {
            ErrorKind::NoGameTree => "no_game_tree",
            ErrorKind::Unexpected(_) => "unexpected_character",
            ErrorKind::UnexpectedEnd => "unexpected_end",
            ErrorKind::BadPropertyIdent => "bad_property_ident",
            ErrorKind::MissingValue => "missing_value",
            ErrorKind::EmptySequence => "empty_sequence",
            ErrorKind::TooDeep => "too_deep",
            ErrorKind::UnsupportedCharset(_) => "unsupported_charset",
            ErrorKind::BadEncoding => "bad_encoding",
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::NoGameTree => write!(f, "no game tree (an SGF file starts with \"(;\")"),
            ErrorKind::Unexpected(c) => write!(f, "unexpected {c:?}"),
            ErrorKind::UnexpectedEnd => write!(f, "the file ends before the game's first node"),
            ErrorKind::BadPropertyIdent => {
                write!(f, "property identifier without upper-case letters")
            }
            ErrorKind::MissingValue => write!(f, "property without a value"),
            ErrorKind::EmptySequence => write!(f, "game tree without a node"),
            ErrorKind::TooDeep => {
                write!(f, "variations nested more than {} deep", crate::MAX_DEPTH)
            }
            ErrorKind::UnsupportedCharset(c) => {
                write!(
                    f,
                    "charset {c:?} is not supported (use UTF-8 or ISO-8859-1)"
                )
            }
            ErrorKind::BadEncoding => write!(f, "text is not valid in the declared charset"),
        }
    }
}

/// A reading error at a place in the input (1-based line and column, columns in bytes).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in bytes.
    pub column: usize,
    /// What went wrong.
    pub kind: ErrorKind,
}

impl ParseError {
    pub(crate) fn at(input: &[u8], offset: usize, kind: ErrorKind) -> ParseError {
        let offset = offset.min(input.len());
        let before = &input[..offset];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        ParseError {
            line,
            column: offset - line_start + 1,
            kind,
        }
    }
}

/// What the reader forgave, at a place in the input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct ParseWarning {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in bytes.
    pub column: usize,
    /// What was forgiven.
    pub kind: WarningKind,
}

impl ParseWarning {
    pub(crate) fn at(input: &[u8], offset: usize, kind: WarningKind) -> ParseWarning {
        let e = ParseError::at(input, offset, ErrorKind::UnexpectedEnd);
        ParseWarning {
            line: e.line,
            column: e.column,
            kind,
        }
    }
}

/// The kinds of [`ParseWarning`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WarningKind {
    /// The input ends inside a game tree: `missing_parens` closing parentheses were never
    /// written, and the property being read, if any, was dropped (its identifier, and whether
    /// its value had begun, so that `]` is missing too).
    Truncated {
        /// The property cut off, left out of the tree.
        dropped: Option<(String, bool)>,
        /// How many `)` are missing.
        missing_parens: usize,
    },
}

impl WarningKind {
    /// Stable snake_case id.
    pub fn code(&self) -> &'static str {
        match self {
            WarningKind::Truncated { .. } => "truncated",
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::Truncated {
                dropped,
                missing_parens,
            } => {
                write!(f, "the record is cut off: ")?;
                if let Some((id, in_value)) = dropped {
                    if *in_value {
                        write!(f, "the value of {id} has no closing ']' and is dropped; ")?;
                    } else {
                        write!(f, "{id} has no value and is dropped; ")?;
                    }
                }
                let word = if *missing_parens == 1 {
                    "parenthesis"
                } else {
                    "parentheses"
                };
                write!(f, "{missing_parens} closing {word} ')' missing")
            }
        }
    }
}
