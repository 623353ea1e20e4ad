//! Which games move ratings, and the head start a game's terms give Black (its handicap and komi
//! against an even game), in rank levels for Glicko-2's handicap adjustment.

use crate::domain::glicko;
use crate::game::Terms;

/// Whether a game moves ratings: its terms do not say it is unrated, no guest plays in it, and
/// a game with a bot is rated only when take-backs are off (with them on it is a casual game:
/// the bot accepts every request).
pub fn is_rated(terms: &Terms, guest: [bool; 2], bot: [bool; 2]) -> bool {
    let guests = guest.iter().zip(&bot).any(|(&g, &b)| g && !b);
    let casual_bot_game = bot.iter().any(|&b| b) && terms.take_back;
    !(terms.unrated || guests || casual_bot_game)
}

/// Black's head start in a game with these terms, in rank levels.
pub fn head_start(terms: &Terms) -> f64 {
    let komi = terms.komi.as_f64();
    let rules = terms.rules.rules(terms.size);
    let bonus = rules.handicap_bonus.points(terms.handicap as u32) as f64;
    glicko::HeadStart {
        size: terms.size,
        handicap: terms.handicap,
        komi: komi + bonus,
        area: rules.scoring.counts_stones(),
    }
    .ranks()
}
