//! GTP, the Go Text Protocol (version 2), as text: commands, responses and the argument types
//! engines and controllers exchange. No I/O: the engine loop lives in the `tengen` binary
//! (`tengen gtp`) and the controller where engines are driven (the match runner, bots).
//!
//! ```
//! use tengen_gtp::{Command, Response};
//!
//! let cmd = Command::parse("12 play b D4 # a comment").unwrap().unwrap();
//! assert_eq!((cmd.id, cmd.name.as_str(), cmd.args.len()), (Some(12), "play", 2));
//! let m = tengen_gtp::args::color_and_move(9, &cmd.args).unwrap();
//! assert_eq!(tengen_rules::coord::gtp::format_move(9, m.1), "D4");
//! assert_eq!(Response::success("").format(cmd.id), "=12\n\n");
//! assert_eq!(Response::failure("illegal move").format(None), "? illegal move\n\n");
//! ```
//!
//! Layout:
//! - [`command`]: preprocessing and parsing of command lines ([`Command`]).
//! - [`response`]: [`Response`] formatting and parsing (for controllers).
//! - [`args`]: colours, vertices, moves and numbers as GTP writes them.

pub mod args;
pub mod command;
pub mod response;

pub use command::{Command, CommandError};
pub use response::{Response, ResponseError};
