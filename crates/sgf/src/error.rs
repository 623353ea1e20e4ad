//! Errors with a place in the text.

use std::fmt;

/// What went wrong while reading SGF.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// No game tree in the input.
    NoGameTree,
    /// A character where the grammar does not allow it.
    Unexpected(char),
    /// The input ended inside a game tree.
    UnexpectedEnd,
    /// A `[` without its `]`.
    UnterminatedValue,
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
            ErrorKind::UnterminatedValue => "unterminated_value",
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
            ErrorKind::UnexpectedEnd => write!(f, "the file ends inside a game tree"),
            ErrorKind::UnterminatedValue => write!(f, "property value without closing ']'"),
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
