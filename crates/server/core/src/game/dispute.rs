//! Disputes in the dead-stone phase. Each player marks their own dead stones (seed 002), so a
//! player who gains from leaving a dead group on the board could keep it there; the other player
//! disputes it instead of accepting. How a dispute ends is a term of the game
//! ([`DisputeRule`]): by resuming play with the group's owner to move, as the Japanese rules'
//! confirmation does (1989 rules, article 9: the opponent of the one who asks to resume moves
//! first), or by the engine's verdict: dead (marked, and its owner cannot unmark it), alive
//! (it stays), or unsure (play resumes: the engine cannot settle it, play does). Never by the
//! side that gains from it alone.

use serde::{Deserialize, Serialize};
use tengen_rules::{Color, GameError, Phase, Point};

use super::{vertex, ActionError, Event, LiveGame, Proposal, Side};

/// How a disputed group is settled, chosen with the room's terms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DisputeRule {
    /// Play resumes, the group's owner to move.
    #[default]
    Play,
    /// The engine judges the group (its count's searches).
    Engine,
}

impl DisputeRule {
    /// True for the default, which terms do not write.
    pub fn is_play(&self) -> bool {
        *self == DisputeRule::Play
    }
}

/// What a dispute came to: `dead`, `alive` or `play`.
pub(super) const DEAD: &str = "dead";
pub(super) const ALIVE: &str = "alive";
pub(super) const PLAY: &str = "play";

impl LiveGame {
    /// `me` disputes the partner's stones around `p`, which the partner left alive.
    pub(super) fn decide_dispute(
        &self,
        me: Color,
        p: Point,
        judge: &mut dyn FnMut(&tengen_rules::Game) -> Proposal,
    ) -> Result<Vec<Event>, ActionError> {
        if self.game.phase() != Phase::Scoring {
            return Err(GameError::NotScoring.into());
        }
        match self.game.board().get(p) {
            None if self.game.board().contains(p) => return Err(GameError::NoStone.into()),
            None => return Err(GameError::OffBoard.into()),
            Some(c) if c == me => return Err(ActionError::OwnStones),
            Some(_) => {}
        }
        if self.game.dead_stones().contains(p) {
            return Err(ActionError::AlreadyDead);
        }
        if self.judged.contains(&p) {
            return Err(ActionError::AlreadyJudged);
        }
        // The group as its owner would mark it: their stones in the region around `p`.
        let mut marked = self.game.clone();
        let group = marked.toggle_dead(p)?;
        let verdict = match self.terms.disputes {
            DisputeRule::Play => PLAY,
            DisputeRule::Engine => {
                let engine = judge(&self.game);
                if group.iter().all(|s| engine.dead.contains(s)) {
                    DEAD
                } else if group.iter().any(|s| engine.unsure.contains(s)) {
                    PLAY
                } else {
                    ALIVE
                }
            }
        };
        let size = self.game.size();
        Ok(vec![Event::Disputed {
            color: Side::from(me),
            points: group.iter().map(|&s| vertex(size, s)).collect(),
            verdict: verdict.into(),
        }])
    }

    /// Applies a dispute's verdict on `points`, disputed by `by`.
    pub(super) fn apply_dispute(
        &mut self,
        by: Color,
        points: &[Point],
        verdict: &str,
    ) -> Result<(), GameError> {
        match verdict {
            DEAD => {
                self.accepted = [false; 2];
                self.judged.extend_from_slice(points);
                let mut dead = *self.game.dead_stones();
                for &p in points {
                    dead.insert(p);
                }
                let dead: Vec<Point> = dead.iter().collect();
                self.game.set_dead(&dead)
            }
            ALIVE => {
                self.judged.extend_from_slice(points);
                Ok(())
            }
            _ => {
                self.resume_play();
                self.game.resume()?;
                // The owner of the disputed group moves first.
                self.game.set_to_move(by.opponent());
                Ok(())
            }
        }
    }
}
