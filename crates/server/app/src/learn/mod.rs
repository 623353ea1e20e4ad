//! Learning to play (issue 43): the lessons as the client shows them, the teacher's verdict on
//! a try, puzzles rated by Glicko-2, and First Capture games against a bot at the learner's
//! level. No account is needed: each request carries what it needs (the learner's moves in the
//! step or the game, their puzzle rating), so any node answers; once logged in, the progress
//! and the puzzle rating are kept on the account.
//!
//! - [`lessons`]: the list, one lesson's steps, a try's verdict and a count's.
//! - [`puzzles`]: a puzzle, the next at a learner's rating, the day's, a try's verdict and the
//!   learner's Glicko-2 puzzle rating after it.
//! - [`account`]: learning kept on the account: the browser's progress merged in, a logged-in
//!   learner's attempts rated from the account and recorded.
//! - [`first_capture`]: the bot's move in a First Capture game.
//! - [`hint`]: the engine's move as a hint in the learner's first game against the weakest bot.
//! - [`rules`]: the rule presets in words for the rules page.
//! - [`diagrams`]: the rules page's diagrams, played by each preset's rules in the engine,
//!   each citing its seed passage.

pub mod account;
pub mod diagrams;
pub mod first_capture;
pub mod hint;
pub mod lessons;
pub mod puzzles;
pub mod rules;
