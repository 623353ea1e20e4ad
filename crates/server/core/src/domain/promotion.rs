//! Promotion points (seed 002 "PROMOTION").
//!
//! "50 promotion-point will be given to each player except guest players. Whenever the player
//! wins a game, 5 points will be added. When the promotion-point reached to 100, the player will
//! be promoted to one up rank. If the player loses a game, then 5 points will be deducted and the
//! player's rank will be down-graded after the promotion-point becomes 0. After the player's
//! ranking is upgraded or downgraded, the promotion-point starts with 50 points again."
//! Handicap games and guests do not move them (seed 002 "HANDICAP": "the result of this game will
//! not be reflected on each player's promotion-point").

use super::rank::Rank;

/// Points a new account starts with, and a promoted or demoted one restarts from.
pub const START: i32 = 50;
/// Points per win or loss.
pub const STEP: i32 = 5;
/// Reaching this promotes.
pub const PROMOTE_AT: i32 = 100;
/// Reaching this demotes.
pub const DEMOTE_AT: i32 = 0;

/// A rank with its promotion points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The rank.
    pub rank: Rank,
    /// Promotion points, 1 to 99 between games.
    pub points: i32,
}

impl Standing {
    /// A new account at `rank`.
    pub fn new(rank: Rank) -> Standing {
        Standing {
            rank,
            points: START,
        }
    }

    /// After a win (`won`) or a loss. At the top or bottom of the scale the rank stays and the
    /// points restart from 50 all the same.
    pub fn after(self, won: bool) -> Standing {
        let points = self.points + if won { STEP } else { -STEP };
        if points >= PROMOTE_AT {
            Standing::new(self.rank.promoted())
        } else if points <= DEMOTE_AT {
            Standing::new(self.rank.demoted())
        } else {
            Standing {
                rank: self.rank,
                points,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_wins_promote_and_ten_losses_demote() {
        let mut s = Standing::new(Rank::Kyu(5));
        for i in 1..10 {
            s = s.after(true);
            assert_eq!((s.rank, s.points), (Rank::Kyu(5), 50 + 5 * i));
        }
        s = s.after(true);
        assert_eq!(
            s,
            Standing::new(Rank::Kyu(4)),
            "100 points promote and restart at 50"
        );
        for _ in 0..10 {
            s = s.after(false);
        }
        assert_eq!(
            s,
            Standing::new(Rank::Kyu(5)),
            "0 points demote and restart at 50"
        );
        let s = Standing {
            rank: Rank::Kyu(1),
            points: 95,
        }
        .after(true);
        assert_eq!(s.rank, Rank::Dan(1));
    }
}
