//! PLACEHOLDER while the pairing systems are written on their branch: pairs present players in
//! order of score. Replaced on merge.

use crate::standings::{Criterion, Event};
use crate::Rank;

/// A pairing system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum System {
    /// McMahon.
    McMahon {
        /// Bar.
        bar: Rank,
        /// Floor.
        floor: Rank,
        /// Handicap.
        handicap: Option<HandicapPolicy>,
    },
    /// Swiss.
    Swiss,
    /// Round robin.
    RoundRobin,
    /// Knockout.
    Knockout {
        /// Third place game.
        third_place: bool,
    },
}

/// Handicap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandicapPolicy {
    /// Reduction.
    pub reduction: i32,
    /// Max.
    pub max: i32,
}

/// A round's pairing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// Games.
    pub games: Vec<Pair>,
    /// Bye.
    pub bye: Option<usize>,
}

/// A game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    /// White.
    pub white: usize,
    /// Black.
    pub black: usize,
    /// Handicap.
    pub handicap: i32,
}

/// Why a round cannot be paired.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PairingError(pub String);

impl PairingError {
    /// Code.
    pub fn code(&self) -> &'static str {
        "pairing"
    }
}

/// Pairs a round.
pub fn pair(
    event: &Event,
    _system: &System,
    round: usize,
    present: &[bool],
    _seed: u64,
) -> Result<Pairing, PairingError> {
    let scores = event.scores(round.saturating_sub(1));
    let mut order: Vec<usize> = (0..event.entrants.len()).filter(|&p| present[p]).collect();
    order.sort_by_key(|&p| -scores.value(event, Criterion::Mms, p));
    let bye = (order.len() % 2 == 1).then(|| order.pop()).flatten();
    let games = order
        .chunks(2)
        .map(|c| Pair {
            white: c[0],
            black: c[1],
            handicap: 0,
        })
        .collect();
    Ok(Pairing { games, bye })
}
