//! What the rounds before the one being paired say about each player: whom they met, their
//! colour balance, their byes and their main score.

use crate::standings::{Criterion, Event};

/// The rounds before `round`, read once.
#[derive(Debug, Clone)]
pub struct History {
    /// `met[a][b]`: a and b played each other.
    pub met: Vec<Vec<bool>>,
    /// Whites less blacks in even games with known colours (OpenGotha counts only those).
    pub balance: Vec<i32>,
    /// Byes had: rests that gave points towards wins ([`crate::standings::BYE`]); an absence
    /// ([`crate::standings::ABSENT`]) is not a bye.
    pub byes: Vec<u32>,
}

impl History {
    /// Reads the games and rests of the rounds before `round`.
    pub fn before(event: &Event, round: usize) -> History {
        let n = event.entrants.len();
        let mut h = History {
            met: vec![vec![false; n]; n],
            balance: vec![0; n],
            byes: vec![0; n],
        };
        for g in &event.games {
            if g.round >= round || g.white >= n || g.black >= n || g.white == g.black {
                continue;
            }
            h.met[g.white][g.black] = true;
            h.met[g.black][g.white] = true;
            if g.handicap == 0 && g.colours_known {
                h.balance[g.white] += 1;
                h.balance[g.black] -= 1;
            }
        }
        for &(p, r, rest) in &event.rests {
            if p < n && r < round && rest.nbw2 > 0 {
                h.byes[p] += 1;
            }
        }
        h
    }
}

/// Each player's main score before `round`, doubled: wins, or the McMahon score.
pub fn main_scores(event: &Event, round: usize, mcmahon: bool) -> Vec<i64> {
    let n = event.entrants.len();
    if round == 0 {
        return (0..n)
            .map(|p| {
                if mcmahon {
                    2 * event.entrants[p].start
                } else {
                    0
                }
            })
            .collect();
    }
    let scores = event.scores(round - 1);
    let criterion = if mcmahon {
        Criterion::Mms
    } else {
        Criterion::Nbw
    };
    (0..n).map(|p| scores.value(event, criterion, p)).collect()
}
