//! Pairing a round: McMahon and Swiss (score groups), round robin (Berger tables) and knockout
//! (a seeded bracket), and a challenge ladder. Pure and deterministic: the same event, round,
//! presence and seed give the same pairing.
//!
//! The reference is OpenGotha (github lucvannier/opengotha): its help pages "Pairing
//! algorithm", "Pairing settings" and "Pairing evaluation function", and
//! `Tournament.gameBetween` and `Tournament.chooseAByePlayer` for handicaps and byes. The code is
//! Tengen's own; where it departs from OpenGotha the module that does so says how.
//!
//! Layout:
//! - [`history`]: what the rounds before this one say: who met whom, colours, byes, scores.
//! - [`blossom`]: maximum-weight matching (Edmonds' blossoms with dual variables).
//! - [`matching`]: maximum-cardinality matching, which tells whether a bye leaves the others
//!   a pairing without a repeat.
//! - [`whole`]: Swiss and McMahon, each round paired as a whole with OpenGotha's weights.
//! - [`berger`]: round robin.
//! - [`knockout`]: single elimination.
//! - [`ladder`]: the challenge ladder.

pub mod berger;
pub mod blossom;
pub mod history;
pub mod knockout;
pub mod ladder;
pub mod matching;
pub mod whole;

#[cfg(test)]
mod tests;

use crate::standings::{Criterion, Event};
use crate::Rank;

pub use ladder::Ladder;

/// How handicaps are given in a McMahon event, as OpenGotha's handicap settings say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandicapPolicy {
    /// Stones taken off the McMahon score difference (OpenGotha's default: 1).
    pub reduction: i32,
    /// The most stones a game gives (OpenGotha's default: 9).
    pub ceiling: i32,
    /// Scores are counted as if no player stood above this rank (OpenGotha's default: 1d), so
    /// that two players at or above it play even.
    pub no_handicap_above: Rank,
}

impl Default for HandicapPolicy {
    fn default() -> HandicapPolicy {
        HandicapPolicy {
            reduction: 1,
            ceiling: 9,
            no_handicap_above: Rank::from_number(0),
        }
    }
}

/// A pairing system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum System {
    /// McMahon: score groups by McMahon score, which starts at each entrant's `start` (see
    /// [`mcmahon_start`] for the start the bar and floor give).
    McMahon {
        /// Players at or above the bar start at the bar's score.
        bar: Rank,
        /// Players at or below the floor start at the floor's score.
        floor: Rank,
        /// Handicap from the McMahon score difference, or even games.
        handicap: Option<HandicapPolicy>,
    },
    /// Swiss: score groups by number of wins, even games.
    Swiss,
    /// Round robin on the standard (FIDE) Berger tables.
    RoundRobin,
    /// Single elimination on a seeded bracket.
    Knockout {
        /// Whether the final round also pairs the semi-finals' losers.
        third_place: bool,
    },
}

/// One game of a pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair {
    /// White's index in the event.
    pub white: usize,
    /// Black's index in the event.
    pub black: usize,
    /// Handicap stones Black takes: 0 is an even game; 1 is Black first without komi, as
    /// OpenGotha counts it; the server chooses the komi for each.
    pub handicap: i32,
}

/// A round's pairing.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Pairing {
    /// The games, in table order (best first; in bracket order for a knockout).
    pub games: Vec<Pair>,
    /// The player given the bye (a point: the caller records a rest with
    /// [`crate::standings::BYE`]).
    pub bye: Option<usize>,
    /// Knockout only: the seeds who go through round 0 without a game (the caller records a
    /// rest for each, as for a bye).
    pub through: Vec<usize>,
    /// Round robin only: present players whose opponent in the table is absent.
    pub idle: Vec<usize>,
}

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// The round is past the event's last round (or past the round robin's table).
    #[error("round {round} is out of range: the event has {rounds} rounds")]
    RoundOutOfRange {
        /// The round asked for (from 0).
        round: usize,
        /// The number of rounds there are.
        rounds: usize,
    },
    /// `present` does not have one flag per entrant.
    #[error("presence has {got} flags for {entrants} entrants")]
    PresenceLength {
        /// Flags given.
        got: usize,
        /// Entrants in the event.
        entrants: usize,
    },
    /// Fewer than two players can play.
    #[error("only {present} players are present: a round needs two")]
    TooFewPlayers {
        /// Players present.
        present: usize,
    },
    /// The event already has games in this round.
    #[error("round {round} is already paired")]
    AlreadyPaired {
        /// The round.
        round: usize,
    },
    /// A knockout game of an earlier round has no winner yet (unknown, or a jigo).
    #[error("knockout round {round}: the game {white} v {black} has no winner")]
    NoWinner {
        /// The round of the game.
        round: usize,
        /// White's index.
        white: usize,
        /// Black's index.
        black: usize,
    },
    /// A knockout round before this one was not played: two players who should have met
    /// have no game.
    #[error("knockout round {round}: players {a} and {b} have no game")]
    MissingGame {
        /// The round of the missing game.
        round: usize,
        /// One player.
        a: usize,
        /// The other.
        b: usize,
    },
    /// A knockout round after round 0, while round 0 has no games.
    #[error("knockout round {round}: the rounds before it have not been played")]
    PreviousRoundMissing {
        /// The round asked for.
        round: usize,
    },
    /// A ladder move names a player who is not on the ladder.
    #[error("player {player} is not on the ladder")]
    NotOnLadder {
        /// The player.
        player: usize,
    },
    /// A ladder challenge against a player who is not above the challenger.
    #[error("player {challenger} cannot challenge player {defender}")]
    CannotChallenge {
        /// The challenger.
        challenger: usize,
        /// The defender.
        defender: usize,
    },
}

impl PairingError {
    /// A stable code for the API.
    pub fn code(&self) -> &'static str {
        match self {
            PairingError::RoundOutOfRange { .. } => "pairing_round_out_of_range",
            PairingError::PresenceLength { .. } => "pairing_presence_length",
            PairingError::TooFewPlayers { .. } => "pairing_too_few_players",
            PairingError::AlreadyPaired { .. } => "pairing_already_paired",
            PairingError::NoWinner { .. } => "pairing_no_winner",
            PairingError::MissingGame { .. } => "pairing_missing_game",
            PairingError::PreviousRoundMissing { .. } => "pairing_previous_round_missing",
            PairingError::NotOnLadder { .. } => "ladder_not_on_ladder",
            PairingError::CannotChallenge { .. } => "ladder_cannot_challenge",
        }
    }
}

/// The starting McMahon score the bar and floor give a rank, as OpenGotha counts it (and as
/// [`crate::h9`] reads it): the rank held between floor and bar, 30k scoring 0.
pub fn mcmahon_start(rank: Rank, bar: Rank, floor: Rank) -> i64 {
    i64::from(rank.max(floor).min(bar).number() + 30)
}

/// Pairs round `round` (from 0) of `event`, whose earlier rounds' results are in it, among the
/// players with `present[p]`, deterministically for `seed`.
pub fn pair(
    event: &Event,
    system: &System,
    round: usize,
    present: &[bool],
    seed: u64,
) -> Result<Pairing, PairingError> {
    check(event, round, present)?;
    match system {
        System::McMahon {
            bar,
            floor,
            handicap,
        } => Ok(whole::pair(&whole::Round {
            event,
            round,
            present,
            main: whole::Main::McMahon {
                bar: *bar,
                floor: *floor,
            },
            handicap: *handicap,
            criteria: &[Criterion::Mms, Criterion::Sosm, Criterion::Sososm],
            origins: &[],
            seeding: whole::Seeding::default(),
        })),
        System::Swiss => Ok(whole::pair(&whole::Round {
            event,
            round,
            present,
            main: whole::Main::Swiss,
            handicap: None,
            criteria: &[Criterion::Nbw, Criterion::Sosw, Criterion::Sososw],
            origins: &[],
            seeding: whole::Seeding::default(),
        })),
        System::RoundRobin => berger::pair(event, round, present),
        System::Knockout { third_place } => {
            knockout::pair(event, round, present, *third_place, seed)
        }
    }
}

/// The checks every system shares.
pub(crate) fn check(event: &Event, round: usize, present: &[bool]) -> Result<(), PairingError> {
    if present.len() != event.entrants.len() {
        return Err(PairingError::PresenceLength {
            got: present.len(),
            entrants: event.entrants.len(),
        });
    }
    if round >= event.rounds {
        return Err(PairingError::RoundOutOfRange {
            round,
            rounds: event.rounds,
        });
    }
    if event.games.iter().any(|g| g.round == round) {
        return Err(PairingError::AlreadyPaired { round });
    }
    let count = present.iter().filter(|&&p| p).count();
    if count < 2 {
        return Err(PairingError::TooFewPlayers { present: count });
    }
    Ok(())
}

/// A 64-bit mix of a seed and a few numbers (splitmix64's finaliser): the only randomness the
/// pairing uses, so that a seed fixes everything.
pub(crate) fn mix(seed: u64, values: &[u64]) -> u64 {
    let mut z = seed;
    for &v in values {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15).wrapping_add(v);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
    }
    z
}

/// (White, Black) for an even game: White to the player with fewer extra Whites so far (as
/// OpenGotha's `gameBetween` does), a tie to the seed's toss.
pub(crate) fn even_colours(
    history: &history::History,
    a: usize,
    b: usize,
    round: usize,
    seed: u64,
) -> (usize, usize) {
    let (x, y) = (history.balance[a], history.balance[b]);
    let toss = mix(seed, &[round as u64, a.min(b) as u64, a.max(b) as u64]);
    if x < y || (x == y && toss & 1 == 0) {
        (a, b)
    } else {
        (b, a)
    }
}
