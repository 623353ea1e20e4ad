//! Tests of the pairing systems: shared helpers, then one module per subject.

mod others;
mod property;
mod worked;

use crate::standings::{Entrant, Event, Game, Outcome};
use crate::Rank;

/// splitmix64: a small seeded generator, so the random events are the same on every run.
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub(super) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// True `percent` times in a hundred.
    pub(super) fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// An entrant with this name, rank and starting score.
pub(super) fn entrant(name: &str, rank: &str, start: i64) -> Entrant {
    Entrant {
        name: name.to_string(),
        rank: rank.parse::<Rank>().expect("a rank"),
        start,
        category: 0,
        rating: 0,
    }
}

/// A finished game with known colours.
pub(super) fn game(
    round: usize,
    white: usize,
    black: usize,
    handicap: i32,
    white_wins: bool,
) -> Game {
    Game {
        round,
        white,
        black,
        handicap,
        outcome: if white_wins {
            Outcome::WhiteWins
        } else {
            Outcome::BlackWins
        },
        by_default: false,
        colours_known: true,
    }
}

/// An event of these entrants and rounds, without results.
pub(super) fn event(entrants: Vec<Entrant>, rounds: usize) -> Event {
    Event {
        entrants,
        rounds,
        round_down: true,
        ..Event::default()
    }
}
