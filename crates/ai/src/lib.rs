//! Tengen's engine: it depends on the rules crate only, and takes its randomness from the
//! caller (a seeded [`tengen_rules::playout::Rng`]).
//!
//! ```
//! use tengen_ai::{estimate, policy};
//! use tengen_rules::{playout::Rng, Color, Game, Handicap, Preset};
//!
//! let game = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
//! let mut rng = Rng::new(1);
//! let mv = policy::choose(&game, Color::Black, &mut rng, policy::Mode::Normal);
//! assert!(game.check(Color::Black, mv).is_ok());
//! let own = estimate::ownership(game.board(), Color::Black, 64, &mut rng);
//! assert!(own.get(tengen_rules::Point::new(9, 4, 4).unwrap()).abs() <= 1.0);
//! ```
//!
//! Layout (the floor plan of the engine):
//! - [`search`]: Monte Carlo tree search and the decisions around it (move, pass, resign),
//!   on several threads sharing one tree; [`tree`]: the lock-free arena of nodes and their
//!   statistics (UCT with RAVE, virtual loss); [`priors`]: what a move is worth before it is
//!   tried; [`patterns`]: MoGo's 3x3 shapes; [`ladder`]: ladder reading; [`nakade`]: the
//!   vital points of small eye spaces;
//!   [`playout`]: heavy playouts;
//!   [`time`]: how long to think; [`manners`]: when to resign and to pass back, one policy
//!   for GTP, the levels and the server's bots.
//! - [`estimate`]: ownership by light playouts, dead stones, a scored estimate; [`chains`]: the
//!   chains an ownership map calls dead (shared by the estimate and the search).
//! - [`Engine`]: the net a server evaluates with, passed in as a value, and the count's and the
//!   manners' judgements made with it.
//! - [`analysis`]: a whole game's positions analysed together (win rate, lead, best moves),
//!   on several threads through one evaluator, for `tengen analyze` and reviews.
//! - [`policy`]: the simple move policy (captures, escapes, no eye filling, no self-atari), kept
//!   for clean-up play.
//! - [`nn`]: KataGo's neural networks on the CPU: the model format, input features, forward
//!   pass, post-processing, symmetries and cache (docs/engine.md).

pub mod analysis;
pub mod chains;
#[cfg(test)]
mod diagram;
pub mod engine;
pub mod estimate;
pub mod ladder;
pub mod manners;
pub mod nakade;
pub mod nn;
pub mod patterns;
pub mod playout;
pub mod policy;
pub mod priors;
pub mod search;
pub mod time;
pub mod tree;

pub use engine::Engine;
