//! Single elimination on a seeded bracket. The field is seeded by rank (strongest first), then
//! name, then entrant order, and placed so that seed 1 meets seed N, 2 meets N-1 ... and seeds
//! 1 and 2 can meet only in the final (the standard bracket: for 8 places, top to bottom,
//! 1-8, 4-5, 2-7, 3-6). When the field is not a power of two the bracket's
//! empty places face the top seeds: they go `through` round 0 without a game.
//!
//! The field is the players present at round 0; later rounds find it again as the players
//! with a game or a rest in round 0 (the caller records a rest for each player `through`, as
//! for a bye), and pair the winners of each two neighbouring games in bracket order. A game
//! without a winner (unknown, jigo, both lose or both win) stops the bracket: the caller must
//! settle it first. Presence is not consulted after round 0: an absent finalist loses by
//! default, which the caller records.

use std::cmp::Reverse;

use super::history::History;
use super::{even_colours, Pair, Pairing, PairingError};
use crate::standings::{Event, Outcome};

/// A bracket's places in order: a player, or `None` for an empty place.
type Places = Vec<Option<usize>>;

/// The seeds (from 1) in bracket order for a bracket of `size` places (a power of two).
pub fn bracket(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let next = 2 * order.len() + 1;
        order = order.iter().flat_map(|&s| [s, next - s]).collect();
    }
    order
}

/// Pairs a knockout round (the shared checks are done).
pub fn pair(
    event: &Event,
    round: usize,
    present: &[bool],
    third_place: bool,
    seed: u64,
) -> Result<Pairing, PairingError> {
    let slots = slots(event, round, present);
    if round > 0 && slots.iter().flatten().count() < 2 {
        return Err(PairingError::PreviousRoundMissing { round });
    }
    // A bracket has two places at least: one round at least.
    let levels = slots.len().trailing_zeros() as usize;
    if round >= levels {
        return Err(PairingError::RoundOutOfRange {
            round,
            rounds: levels,
        });
    }
    let mut nodes = slots;
    let mut losers = Vec::new();
    for r in 0..round {
        (nodes, losers) = advance(event, r, &nodes)?;
    }
    let history = History::before(event, round);
    let mut pairing = Pairing::default();
    for two in nodes.chunks(2) {
        match (two[0], two.get(1).copied().flatten()) {
            (Some(a), Some(b)) => pairing.games.push(colours(&history, a, b, round, seed)),
            (Some(a), None) | (None, Some(a)) => pairing.through.push(a),
            (None, None) => {}
        }
    }
    if third_place && round + 1 == levels && round >= 1 {
        // The semi-finals' losers, when both semi-finals were played.
        if let [Some(a), Some(b)] = losers[..] {
            pairing.games.push(colours(&history, a, b, round, seed));
        }
    }
    Ok(pairing)
}

/// The bracket's places at round 0: players by seed, `None` for an empty place.
fn slots(event: &Event, round: usize, present: &[bool]) -> Places {
    let in_field = |p: usize| {
        if round == 0 {
            present[p]
        } else {
            let played = event
                .games
                .iter()
                .any(|g| g.round == 0 && (g.white == p || g.black == p));
            played || event.rests.iter().any(|&(q, r, _)| q == p && r == 0)
        }
    };
    let mut field: Vec<usize> = (0..event.entrants.len()).filter(|&p| in_field(p)).collect();
    let key = |p: &usize| {
        let e = &event.entrants[*p];
        (Reverse(e.rank), e.name.clone(), *p)
    };
    field.sort_by_key(key);
    let size = field.len().next_power_of_two().max(2);
    bracket(size)
        .into_iter()
        .map(|s| field.get(s - 1).copied())
        .collect()
}

/// The places after round `r`'s games, and each game's loser (by the new place).
fn advance(
    event: &Event,
    r: usize,
    nodes: &[Option<usize>],
) -> Result<(Places, Places), PairingError> {
    let mut winners = Vec::with_capacity(nodes.len() / 2);
    let mut losers = Vec::with_capacity(nodes.len() / 2);
    for two in nodes.chunks(2) {
        let (winner, loser) = match (two[0], two.get(1).copied().flatten()) {
            (Some(a), Some(b)) => decided(event, r, a, b)?,
            (Some(a), None) | (None, Some(a)) => (Some(a), None),
            (None, None) => (None, None),
        };
        winners.push(winner);
        losers.push(loser);
    }
    Ok((winners, losers))
}

/// The winner and loser of the round `r` game between `a` and `b`.
fn decided(
    event: &Event,
    r: usize,
    a: usize,
    b: usize,
) -> Result<(Option<usize>, Option<usize>), PairingError> {
    let game = event.games.iter().find(|g| {
        g.round == r && ((g.white == a && g.black == b) || (g.white == b && g.black == a))
    });
    let Some(g) = game else {
        return Err(PairingError::MissingGame { round: r, a, b });
    };
    match g.outcome {
        Outcome::WhiteWins => Ok((Some(g.white), Some(g.black))),
        Outcome::BlackWins => Ok((Some(g.black), Some(g.white))),
        _ => Err(PairingError::NoWinner {
            round: r,
            white: g.white,
            black: g.black,
        }),
    }
}

/// Colours as in Swiss: White to the player with fewer extra Whites, a tie to the seed.
fn colours(history: &History, a: usize, b: usize, round: usize, seed: u64) -> Pair {
    let (white, black) = even_colours(history, a, b, round, seed);
    Pair {
        white,
        black,
        handicap: 0,
    }
}
