//! Learning to play (issue 43): the lessons as the client shows them, the teacher's verdict on
//! a try, and First Capture games against a bot at the learner's level. No account is needed:
//! each request carries what it needs (the learner's moves in the step or the game), so
//! nothing is stored and any node answers.
//!
//! - [`lessons`]: the list, one lesson's steps, a try's verdict and a count's.
//! - [`puzzles`]: a puzzle, the next at a learner's rating, the day's, a try's verdict and the
//!   learner's Glicko-2 puzzle rating after it.
//! - [`first_capture`]: the bot's move in a First Capture game.
//! - [`rules`]: the rule presets in words for the rules page.

pub mod first_capture;
pub mod lessons;
pub mod puzzles;
pub mod rules;
