//! SGF (Smart Game Format, FF[4]) for Tengen: reading and writing game records, and converting
//! them to and from [`tengen_rules::Game`]s.
//!
//! ```
//! use tengen_sgf::{parse_str, game};
//!
//! let c = parse_str("(;FF[4]GM[1]SZ[9]KM[7]RU[Chinese]PB[Ann]PW[Bo];B[ee];W[cc];B[];W[])").unwrap();
//! let replay = game::replay(&c.games[0], None).unwrap();
//! assert_eq!(replay.info.black.as_deref(), Some("Ann"));
//! assert_eq!(replay.game.ply_count(), 4);
//! assert!(replay.problems.is_empty());
//! // And back to text: the moves survive a round trip.
//! let again = tengen_sgf::write_game(&game::record(&replay.game, Some(replay.preset), &replay.info));
//! assert!(again.contains(";B[ee];W[cc]"));
//! ```
//!
//! Layout:
//! - [`parse`](mod@parse): bytes to a [`Collection`], with charsets and line/column errors.
//! - [`tree`]: [`Collection`], [`GameTree`], [`Node`], [`Property`].
//! - [`value`]: Text, SimpleText, compose values and compressed point lists.
//! - [`write`](mod@write): a [`Collection`] back to text.
//! - [`game`]: game information, replay (tolerant, every variation) and records from games.

mod error;
pub mod game;
pub mod parse;
pub mod tree;
pub mod value;
pub mod write;

pub use error::{ErrorKind, ParseError, ParseWarning, WarningKind};
pub use parse::{parse, parse_str};
pub use tree::{Collection, GameTree, Node, Place, Property};
pub use write::write;

/// Deepest nesting of variations the reader accepts; deeper input is an error rather than a
/// risk to the stack.
pub const MAX_DEPTH: usize = 1000;

/// Writes one game tree as a complete SGF file.
pub fn write_game(tree: &GameTree) -> String {
    let mut s = String::new();
    write::write_tree(&mut s, tree);
    s.push('\n');
    s
}
