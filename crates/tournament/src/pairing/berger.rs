//! Round robin on the standard (FIDE) Berger tables: the last player stays put while the others
//! turn, so that every two players meet once in n-1 rounds (n even; with an odd count a dummy
//! makes n even and meeting it is the bye).
//!
//! In round r (from 0) of n players numbered from 0, with m = n-1 and x = r·n/2 mod m: the last
//! player meets x (the last has White in odd rounds), and for k = 1 .. n/2-1 the player
//! (x+k) mod m has White against (x-k) mod m. This is FIDE's table (Handbook C.05 annex 1):
//! for six players round 1 is 1-6, 2-5, 3-4, round 2 is 6-4, 5-3, 1-2.
//!
//! The players are the event's entrants in their order (the caller orders them by seeding or
//! by lot). A game against an absent player is not played: its present player is `idle`.

use super::{Pair, Pairing, PairingError};
use crate::standings::Event;

/// The Berger table's round `round` for `n` players (n even): (White, Black) by number.
pub fn table(n: usize, round: usize) -> Vec<(usize, usize)> {
    let m = n - 1;
    let x = round * (n / 2) % m;
    let last = if round % 2 == 1 { (m, x) } else { (x, m) };
    let mut games = vec![last];
    for k in 1..n / 2 {
        games.push(((x + k) % m, (x + m - k) % m));
    }
    games
}

/// The number of rounds of a round robin of `n` players.
pub fn rounds(n: usize) -> usize {
    n + n % 2 - 1
}

/// Pairs round `round` of a round robin over all the event's entrants.
pub fn pair(event: &Event, round: usize, present: &[bool]) -> Result<Pairing, PairingError> {
    let n = event.entrants.len();
    if round >= rounds(n) {
        return Err(PairingError::RoundOutOfRange {
            round,
            rounds: rounds(n),
        });
    }
    let mut pairing = Pairing::default();
    for (white, black) in table(n + n % 2, round) {
        let here = |p: usize| p < n && present[p];
        match (here(white), here(black)) {
            (true, true) => pairing.games.push(Pair {
                white,
                black,
                handicap: 0,
            }),
            // The dummy is numbered n: meeting it is the bye.
            (true, false) if black == n => pairing.bye = Some(white),
            (false, true) if white == n => pairing.bye = Some(black),
            (true, false) => pairing.idle.push(white),
            (false, true) => pairing.idle.push(black),
            (false, false) => {}
        }
    }
    Ok(pairing)
}
