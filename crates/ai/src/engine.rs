//! The engine as a server holds it: the net it evaluates with, passed in rather than read from
//! a process-wide static, and the judgements made with it (the count's estimate, the manners'
//! resign and pass). One value a server, cloned into what needs it; the process's shared net
//! ([`crate::nn::builtin`], or the operator's `--model`) is what `tengen serve` puts in it.
//!
//! The free functions of [`crate::estimate`] and [`crate::manners`] (`count_estimate`,
//! `judge`, `before_search`) are these with the process's shared net, for the command-line
//! tools; the server asks its `Engine`.

use std::sync::Arc;

use tengen_rules::{Color, Game};

use crate::estimate::{self, Estimate, Settings};
use crate::manners::{self, Judgement};
use crate::nn::{Evaluator, KataRules};
use crate::search::Decision;

/// The net an engine evaluates with (none: the Monte Carlo engine and the playouts everywhere).
#[derive(Clone, Default)]
pub struct Engine {
    net: Option<Arc<Evaluator>>,
}

impl Engine {
    /// An engine evaluating with `net`.
    pub fn new(net: Option<Arc<Evaluator>>) -> Engine {
        Engine { net }
    }

    /// An engine with the process's shared net ([`crate::nn::builtin`], or the model
    /// [`crate::nn::share`]d in its place).
    pub fn shared() -> Engine {
        Engine::new(crate::nn::builtin())
    }

    /// An engine with the built-in net whatever model was shared ([`crate::nn::ladder`]): the
    /// one the levels' ranks were measured on.
    pub fn ladder() -> Engine {
        Engine::new(crate::nn::ladder())
    }

    /// Its net, if it has one.
    pub fn net(&self) -> Option<&Arc<Evaluator>> {
        self.net.as_ref()
    }

    /// Its net and the rules the net is told for `game`, where the net plays `game`
    /// ([`crate::nn::plays`]).
    pub fn plays(&self, game: &Game) -> Option<(&Arc<Evaluator>, KataRules)> {
        Some((self.net.as_ref()?, crate::nn::plays(game)?))
    }

    /// `game`'s position judged for a count ([`Settings::for_count`]): the dead stones a server
    /// proposes, the verdict on a disputed group, a score estimate.
    pub fn count_estimate(&self, game: &Game) -> Estimate {
        let settings = Settings::for_count(game.size());
        estimate::estimate_by(self.net.as_deref(), game, &settings)
    }

    /// `game` judged for the bot playing `color` ([`manners::judge`]).
    pub fn judge(&self, game: &Game, color: Color) -> Judgement {
        manners::judge_by(self.net.as_deref(), game, color)
    }

    /// What the manners decide before a search ([`manners::before_search`]).
    pub fn before_search(&self, game: &Game, color: Color) -> Option<Decision> {
        manners::before_search_by(self.net.as_deref(), game, color)
    }
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("net", &self.net.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::{Handicap, Preset};

    /// An engine without a net judges by the playouts alone: the count of a finished 9x9 game
    /// comes out, with no win rate (only the net's search gives one).
    #[test]
    fn an_engine_without_a_net_counts_by_playouts() {
        let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        for (c, v) in [(Color::Black, "E5"), (Color::White, "C3")] {
            let p = tengen_rules::coord::gtp::parse_point(9, v).unwrap();
            g.play(c, tengen_rules::Move::Play(p)).unwrap();
        }
        let bare = Engine::default().count_estimate(&g);
        assert_eq!(bare.black_winrate, None);
        let netted = Engine::shared().count_estimate(&g);
        assert!(Engine::shared().net().is_some());
        assert!(netted.black_winrate.is_some());
        assert!(Engine::default().plays(&g).is_none());
        assert!(Engine::shared().plays(&g).is_some());
    }
}
