//! A challenge ladder: players stand in order, best first; a player may challenge one up to
//! `reach` places above, and a challenger who wins takes the defender's place, the defender and
//! those between moving down one. A loss changes nothing. Not round-based: the server pairs a
//! challenge when it is made.

use super::PairingError;

/// The ladder's order, best first, by players' indexes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ladder {
    order: Vec<usize>,
}

impl Ladder {
    /// A ladder in this order (a player listed twice keeps the higher place).
    pub fn new(order: Vec<usize>) -> Ladder {
        let mut seen = std::collections::HashSet::new();
        Ladder {
            order: order.into_iter().filter(|p| seen.insert(*p)).collect(),
        }
    }

    /// The order, best first, to store.
    pub fn to_vec(&self) -> Vec<usize> {
        self.order.clone()
    }

    /// The order, best first.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The place of a player (0 is the top), if on the ladder.
    pub fn place(&self, player: usize) -> Option<usize> {
        self.order.iter().position(|&p| p == player)
    }

    /// Puts a new player at the bottom (a player already on it stays where they are).
    pub fn join(&mut self, player: usize) {
        if self.place(player).is_none() {
            self.order.push(player);
        }
    }

    /// Whether `challenger` may challenge `defender`: both on the ladder, the defender above,
    /// at most `reach` places.
    pub fn can_challenge(&self, challenger: usize, defender: usize, reach: usize) -> bool {
        match (self.place(challenger), self.place(defender)) {
            (Some(c), Some(d)) => d < c && c - d <= reach,
            _ => false,
        }
    }

    /// Records a challenge's result: a winning challenger takes the defender's place.
    pub fn record(
        &mut self,
        challenger: usize,
        defender: usize,
        challenger_won: bool,
    ) -> Result<(), PairingError> {
        let c = self
            .place(challenger)
            .ok_or(PairingError::NotOnLadder { player: challenger })?;
        let d = self
            .place(defender)
            .ok_or(PairingError::NotOnLadder { player: defender })?;
        if d >= c {
            return Err(PairingError::CannotChallenge {
                challenger,
                defender,
            });
        }
        if challenger_won {
            let p = self.order.remove(c);
            self.order.insert(d, p);
        }
        Ok(())
    }
}

impl From<Vec<usize>> for Ladder {
    fn from(order: Vec<usize>) -> Ladder {
        Ladder::new(order)
    }
}

impl From<Ladder> for Vec<usize> {
    fn from(ladder: Ladder) -> Vec<usize> {
        ladder.order
    }
}
