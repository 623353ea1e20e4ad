//! The rules of Go for Tengen: board, rule sets, game history and scoring.
//!
//! Everything in Tengen stands on this crate: the server referees with it, the engine searches
//! with it, and the SGF and GTP tools replay with it. It is pure: no I/O, no clock, no global
//! state, and no randomness it was not given.
//!
//! ```
//! use tengen_rules::{coord::gtp, Color, Game, GameResult, Handicap, Move, Preset};
//!
//! let mut game = Game::new(9, Preset::Japanese.rules(9), Handicap::None).unwrap();
//! let e5 = gtp::parse_point(9, "E5").unwrap();
//! game.play(Color::Black, Move::Play(e5)).unwrap();
//! // Playing on an occupied point is refused with a stable code and changes nothing.
//! let err = game.play(Color::White, Move::Play(e5)).unwrap_err();
//! assert_eq!(err.code(), "occupied");
//! game.pass(Color::White).unwrap();
//! game.pass(Color::Black).unwrap();
//! let result = game.finish_scoring().unwrap();
//! // Black's stone owns the whole board: 80 points against White's komi of 6.5.
//! assert_eq!(result.to_string(), "B+73.5");
//! ```
//!
//! Layout:
//! - [`board`]: the padded-array board with chains, pseudo-liberties, Zobrist hash, play and undo.
//! - [`coord`]: GTP and SGF spellings of points, each in its own module.
//! - [`rules`]: [`Rules`] as data and the named [`Preset`]s.
//! - [`handicap`]: fixed handicap placements.
//! - [`game`]: [`Game`], its phases, actions and errors.
//! - [`scoring`]: territory, area, seki and the count.
//! - [`benson`]: unconditional life.
//! - [`playout`]: light random playouts and the seeded [`playout::Rng`].

pub mod benson;
pub mod board;
mod color;
pub mod coord;
pub mod game;
pub mod handicap;
pub mod playout;
mod point;
mod result;
pub mod rules;
pub mod scoring;
mod zobrist;

pub use board::{Board, Played};
pub use color::Color;
pub use game::{Game, GameError, Handicap, Phase, RulesChangeError, SetupError, Step};
pub use point::{Move, Point, PointSet, MAX_SIZE, MIN_SIZE};
pub use result::{GameResult, ResultError};
pub use rules::{
    DeadStones, GameEnd, HandicapBonus, HandicapPlacement, KoRule, Komi, Preset, Repetition, Rules,
    Scoring, SuicideRule,
};
pub use scoring::{Count, Score};
