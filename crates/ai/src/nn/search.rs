//! A PUCT tree search on the network, after KataGo's `cpp/search/search.cpp` and
//! `searchparams.cpp` (ideas taken, the code is Tengen's own): the policy gives each move its
//! prior, the value and score heads its utility, and every visit walks down the most promising
//! moves to one new position, which the net evaluates (at a random one of its 8 symmetries).
//!
//! - Utility, for White: `win - loss + SCORE_UTILITY * tanh(lead / (SCORE_SCALE * side))`,
//!   KataGo's win/loss utility plus a small static score utility (its
//!   `staticScoreUtilityFactor` 0.1 on a smooth function of the lead), so that a won game is
//!   won by more, and a lost one lost by less, rather than played at random.
//! - Selection: `Q + c * P * sqrt(N) / (1 + n)` with KataGo's `cpuct` growing as
//!   `1.0 + 0.45 * ln((N + 500) / 500)`; an unvisited move's `Q` is its parent's minus a first
//!   play urgency reduction of `0.2 * sqrt(policy mass already visited)` (0.1 at the root).
//! - Tree reuse: [`Puct::reuse`] keeps the subtree of the moves played since the last search.
//! - Histories are extended a move at a time ([`History::extend`]), never replayed.
//!
//! One thread, no virtual loss: with a fixed visit count and seed, a position gives the same
//! move every time. The root's moves are those the game's own rules allow; below it, KataGo's
//! rules as the net is told them ([`History::is_legal`]). A position where two passes ended the
//! game is a leaf valued by the net, not by a count.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tengen_rules::playout::Rng;
use tengen_rules::{game::Step, Color, Game, Move, Point};

use super::{Evaluation, Evaluator, History, KataRules, NnError, CELLS};
use crate::search::{Analysis, MoveStats};

/// Weight of the score in the utility (KataGo's `staticScoreUtilityFactor`).
const SCORE_UTILITY: f64 = 0.1;
/// The lead, in board sides, at which the score utility is three quarters spent.
const SCORE_SCALE: f64 = 0.5;
/// KataGo's `cpuctExploration`, `cpuctExplorationLog` and `cpuctExplorationBase`.
const CPUCT: f64 = 1.0;
const CPUCT_LOG: f64 = 0.45;
const CPUCT_BASE: f64 = 500.0;
/// KataGo's `fpuReductionMax` and `rootFpuReductionMax`.
const FPU_REDUCTION: f64 = 0.2;
const ROOT_FPU_REDUCTION: f64 = 0.1;
/// Visits when neither a count nor a time is given.
const DEFAULT_VISITS: u32 = 200;

/// A move from a node: its prior and, once visited, the node it leads to.
#[derive(Clone, Debug)]
struct Edge {
    mv: Option<Point>,
    prior: f32,
    /// An index into the tree (32 bits: edges are most of the tree's memory).
    child: Option<u32>,
}

/// A position in the tree; its sums are from White's point of view.
#[derive(Clone, Debug)]
struct Node {
    to_move: Color,
    visits: u32,
    utility: f64,
    winloss: f64,
    lead: f64,
    /// White's utility, win/loss value and lead as the net saw this position; `None` until
    /// first visited.
    value: Option<(f64, f64, f64)>,
    /// Moves, best prior first; empty until evaluated, and always at the game's end.
    edges: Vec<Edge>,
}

impl Node {
    fn new(to_move: Color) -> Node {
        Node {
            to_move,
            visits: 0,
            utility: 0.0,
            winloss: 0.0,
            lead: 0.0,
            value: None,
            edges: Vec::new(),
        }
    }

    /// The mean utility for `c`, once visited.
    fn mean_utility(&self, c: Color) -> Option<f64> {
        (self.visits > 0).then(|| sign(c) * self.utility / self.visits as f64)
    }
}

fn sign(c: Color) -> f64 {
    match c {
        Color::White => 1.0,
        Color::Black => -1.0,
    }
}

/// White's utility, win/loss value and lead from one evaluation.
fn values(e: &Evaluation) -> (f64, f64, f64) {
    let wl = e.white_win - e.white_loss;
    let scale = SCORE_SCALE * e.size as f64;
    let u = wl + SCORE_UTILITY * (e.white_lead / scale).tanh();
    (u, wl, e.white_lead)
}

/// The search of one position: its tree, its root history and its random symmetries.
pub struct Puct {
    nodes: Vec<Node>,
    root: History,
    /// The net's evaluation of the root (its ownership is the analysis's).
    root_eval: Option<Arc<Evaluation>>,
    /// The root's game: start, moves and rules, to know what a later search can reuse.
    moves: Vec<(Color, Move)>,
    start_hash: u64,
    rules: tengen_rules::Rules,
    color: Color,
    rng: Rng,
    visits: u32,
    reused: u32,
    elapsed: Duration,
}

impl Puct {
    /// A new search of `game` for `color`, the net told `rules`, its symmetries drawn from
    /// `seed`.
    pub fn new(game: &Game, color: Color, rules: KataRules, seed: u64) -> Puct {
        let mut g = game.clone();
        g.set_to_move(color);
        let root = History::new(&g, rules);
        Puct {
            nodes: vec![Node::new(color)],
            root,
            root_eval: None,
            moves: game.moves().collect(),
            start_hash: game.start().0.hash(),
            rules: *game.rules(),
            color,
            rng: Rng::new(seed),
            visits: 0,
            reused: 0,
            elapsed: Duration::ZERO,
        }
    }

    /// A search of `game` for `color` that keeps what `previous` learned below the moves played
    /// since its root, or a new one when nothing can be kept (other rules or start, set-up
    /// stones, a line it never visited).
    pub fn reuse(
        previous: Option<Puct>,
        game: &Game,
        color: Color,
        rules: KataRules,
        seed: u64,
    ) -> Puct {
        let mut fresh = Puct::new(game, color, rules, seed);
        let Some(prev) = previous else {
            return fresh;
        };
        let moves = &fresh.moves;
        let same_game = prev.rules == fresh.rules
            && prev.root.rules == rules
            && prev.start_hash == fresh.start_hash
            && game.history().iter().all(|s| matches!(s, Step::Move(..)))
            && moves.len() >= prev.moves.len()
            && moves[..prev.moves.len()] == prev.moves[..];
        let next = moves.get(prev.moves.len()).map_or(color, |m| m.0);
        if !same_game || prev.color != next {
            return fresh;
        }
        let mut node = 0;
        for &(_, m) in &moves[prev.moves.len()..] {
            let p = match m {
                Move::Play(p) => Some(p),
                _ => None,
            };
            match prev.nodes[node].edges.iter().find(|e| e.mv == p) {
                Some(Edge { child: Some(c), .. }) => node = *c as usize,
                _ => return fresh,
            }
        }
        if prev.nodes[node].to_move != color || prev.nodes[node].value.is_none() {
            return fresh;
        }
        fresh.nodes = copy_subtree(&prev.nodes, node);
        // The game's own rules decide the root's moves (superko of the game, not the net's).
        fresh.nodes[0]
            .edges
            .retain(|e| root_legal(game, color, e.mv));
        fresh.reused = fresh.nodes[0].visits;
        fresh
    }

    /// Visits kept from the previous search.
    pub fn reused(&self) -> u32 {
        self.reused
    }

    /// Visits `visits` more times or for `time`, whichever ends first (200 visits when neither
    /// is given); the root is evaluated at least once.
    pub fn run(
        &mut self,
        eval: &Evaluator,
        game: &Game,
        visits: Option<u32>,
        time: Option<Duration>,
    ) -> Result<(), NnError> {
        let start = Instant::now();
        if self.nodes[0].value.is_some() && self.root_eval.is_none() {
            // A reused root: its evaluation (ownership) again, most likely from the cache.
            let symmetry = self.rng.below(8) as u8;
            self.root_eval = Some(eval.evaluate(&self.root, symmetry)?);
        }
        let visits = match (visits, time) {
            (None, None) => Some(DEFAULT_VISITS),
            (v, _) => v.map(|n| n.max(1)),
        };
        let mut done = 0;
        loop {
            let out_of_time = time.is_some_and(|t| start.elapsed() >= t);
            let enough = visits.is_some_and(|v| done >= v);
            if (out_of_time || enough) && self.nodes[0].value.is_some() {
                break;
            }
            self.visit(eval, game)?;
            done += 1;
        }
        self.visits += done;
        self.elapsed += start.elapsed();
        Ok(())
    }

    /// One visit: down the tree to a new position, its evaluation, and back up.
    fn visit(&mut self, eval: &Evaluator, game: &Game) -> Result<(), NnError> {
        let mut h = self.root.clone();
        let mut path = vec![0];
        let mut node = 0;
        while self.nodes[node].value.is_some() && !self.nodes[node].edges.is_empty() {
            let e = self.select(node);
            let mv = self.nodes[node].edges[e].mv;
            h.extend(h.to_move, mv);
            node = match self.nodes[node].edges[e].child {
                Some(c) => c as usize,
                None => {
                    self.nodes.push(Node::new(h.to_move));
                    let c = self.nodes.len() - 1;
                    self.nodes[node].edges[e].child = Some(c as u32);
                    c
                }
            };
            path.push(node);
        }
        let (u, wl, lead) = match self.nodes[node].value {
            Some(v) => v,
            None => {
                let symmetry = self.rng.below(8) as u8;
                let e = eval.evaluate(&h, symmetry)?;
                self.expand(node, &h, &e, game);
                let v = values(&e);
                self.nodes[node].value = Some(v);
                if node == 0 {
                    self.root_eval = Some(e);
                }
                v
            }
        };
        for &n in &path {
            let n = &mut self.nodes[n];
            n.visits += 1;
            n.utility += u;
            n.winloss += wl;
            n.lead += lead;
        }
        Ok(())
    }

    /// The node's moves from the policy, best first (none once two passes ended the game).
    fn expand(&mut self, node: usize, h: &History, e: &Evaluation, game: &Game) {
        if h.finished {
            return;
        }
        let n = e.size;
        let size = n as u8;
        let mut edges: Vec<Edge> = e
            .policy
            .iter()
            .enumerate()
            .filter(|(_, &p)| p >= 0.0)
            .filter_map(|(i, &p)| {
                let pt = Point::new(size, (i % n) as u8, (i / n) as u8)?;
                Some(Edge {
                    mv: Some(pt),
                    prior: p,
                    child: None,
                })
            })
            .collect();
        edges.push(Edge {
            mv: None,
            prior: e.pass,
            child: None,
        });
        if node == 0 {
            edges.retain(|e| root_legal(game, self.color, e.mv));
        }
        edges.sort_by(|a, b| b.prior.total_cmp(&a.prior));
        self.nodes[node].edges = edges;
    }

    /// The edge PUCT picks at `node`.
    fn select(&self, node: usize) -> usize {
        let n = &self.nodes[node];
        let c = n.to_move;
        let parent_q = n.mean_utility(c).unwrap_or(0.0);
        let explored: f64 = n
            .edges
            .iter()
            .filter(|e| e.child.is_some_and(|k| self.nodes[k as usize].visits > 0))
            .map(|e| e.prior as f64)
            .sum();
        let reduction = if node == 0 {
            ROOT_FPU_REDUCTION
        } else {
            FPU_REDUCTION
        };
        let fpu = parent_q - reduction * explored.sqrt();
        let total = n.visits as f64;
        let cpuct = CPUCT + CPUCT_LOG * ((total + CPUCT_BASE) / CPUCT_BASE).ln();
        let explore = cpuct * (total - 1.0).max(0.01).sqrt();
        let mut best = (0, f64::NEG_INFINITY);
        for (i, e) in n.edges.iter().enumerate() {
            let (q, visits) = match e.child.map(|k| &self.nodes[k as usize]) {
                Some(k) if k.visits > 0 => (k.mean_utility(c).unwrap_or(fpu), k.visits),
                _ => (fpu, 0),
            };
            let score = q + explore * e.prior as f64 / (1.0 + visits as f64);
            if score > best.1 {
                best = (i, score);
            }
        }
        best.0
    }

    /// What the search found, in the Monte Carlo engine's terms (win rates for the player to
    /// move, ownership +1 Black), so that its decisions (pass, resign) apply unchanged.
    pub fn analysis(&self) -> Analysis {
        let root = &self.nodes[0];
        let mut moves: Vec<MoveStats> = root
            .edges
            .iter()
            .map(|e| {
                let child = e.child.map(|k| &self.nodes[k as usize]);
                let visits = child.map_or(0, |k| k.visits);
                let winrate = match child {
                    Some(k) if k.visits > 0 => {
                        (sign(self.color) * k.winloss / k.visits as f64 + 1.0) / 2.0
                    }
                    _ => 0.0,
                };
                let mv = to_move(e.mv);
                let mut pv = vec![mv];
                if let Some(k) = e.child {
                    pv.extend(self.pv(k as usize));
                }
                MoveStats {
                    mv,
                    visits,
                    winrate: winrate as f32,
                    prior: e.prior,
                    pv,
                }
            })
            .collect();
        moves.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.winrate.total_cmp(&a.winrate))
                .then(b.prior.total_cmp(&a.prior))
        });
        Analysis {
            color: self.color,
            playouts: self.visits + self.reused,
            elapsed: self.elapsed,
            moves,
            ownership: self.ownership(),
        }
    }

    /// The most visited line below `node`.
    fn pv(&self, mut node: usize) -> Vec<Move> {
        let mut out = Vec::new();
        while out.len() < 30 {
            let best = self.nodes[node]
                .edges
                .iter()
                .filter_map(|e| {
                    e.child
                        .map(|k| (e.mv, k as usize, self.nodes[k as usize].visits))
                })
                .filter(|&(_, _, v)| v > 0)
                .max_by_key(|&(_, _, v)| v);
            let Some((mv, k, _)) = best else { break };
            out.push(to_move(mv));
            node = k;
        }
        out
    }

    /// The root evaluation's ownership, +1 Black, by [`Point::index`].
    fn ownership(&self) -> Vec<f32> {
        let mut out = vec![0.0; CELLS];
        if let Some(e) = &self.root_eval {
            let n = e.size;
            for (i, &o) in e.white_ownership.iter().enumerate() {
                if let Some(p) = Point::new(n as u8, (i % n) as u8, (i / n) as u8) {
                    out[p.index()] = -o;
                }
            }
        }
        out
    }

    /// The root's average utility for the player to move (tests, logs).
    pub fn root_utility(&self) -> f64 {
        self.nodes[0].mean_utility(self.color).unwrap_or(0.0)
    }

    /// The root's average lead for the player to move.
    pub fn root_lead(&self) -> f64 {
        let n = &self.nodes[0];
        sign(self.color) * n.lead / n.visits.max(1) as f64
    }

    /// The average lead for the player to move after the root's move `mv`, once visited (the
    /// review board shows it beside each candidate, as KataGo's `scoreLead`).
    pub fn move_lead(&self, mv: Move) -> Option<f64> {
        let edge = self.nodes[0].edges.iter().find(|e| to_move(e.mv) == mv)?;
        let child = &self.nodes[edge.child? as usize];
        (child.visits > 0).then(|| sign(self.color) * child.lead / child.visits as f64)
    }
}

fn to_move(p: Option<Point>) -> Move {
    match p {
        Some(p) => Move::Play(p),
        None => Move::Pass,
    }
}

fn root_legal(game: &Game, color: Color, p: Option<Point>) -> bool {
    game.check(color, to_move(p)).is_ok()
}

/// The subtree below `root` as a tree of its own (node 0 its root).
fn copy_subtree(from: &[Node], root: usize) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::new();
    let mut stack: Vec<(usize, Option<(usize, usize)>)> = vec![(root, None)];
    while let Some((old, link)) = stack.pop() {
        let new = out.len();
        out.push(from[old].clone());
        if let Some((parent, edge)) = link {
            out[parent].edges[edge].child = Some(new as u32);
        }
        for (i, e) in from[old].edges.iter().enumerate() {
            if let Some(c) = e.child {
                stack.push((c as usize, Some((new, i))));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagram::{at, board};
    use crate::nn::features::features;
    use crate::nn::Model;
    use crate::search::{judge, Decision, Style};
    use tengen_rules::{Handicap, Preset};

    fn evaluator() -> Evaluator {
        Evaluator::new(Model::builtin().unwrap())
    }

    fn chinese(rows: &[&str], to_move: Color) -> Game {
        let b = board(rows);
        Game::from_board(b, to_move, Preset::Chinese.rules(9)).unwrap()
    }

    fn kata(g: &Game) -> KataRules {
        KataRules::nearest(g.rules()).unwrap()
    }

    /// The best move after `visits` visits, seed 1.
    fn best(game: &Game, visits: u32) -> (Move, Analysis) {
        let color = game.to_move();
        let mut p = Puct::new(game, color, kata(game), 1);
        p.run(&evaluator(), game, Some(visits), None).unwrap();
        let a = p.analysis();
        (a.best().unwrap().mv, a)
    }

    #[test]
    fn an_extended_history_is_the_replayed_one() {
        let mut g = Game::new(9, Preset::Japanese.rules(9), Handicap::None).unwrap();
        let rules = kata(&g);
        let mut h = History::new(&g, rules);
        for m in ["E5", "C3", "G7", "pass", "D4", "pass", "pass"] {
            let c = g.to_move();
            let mv = match m {
                "pass" => Move::Pass,
                v => Move::Play(tengen_rules::coord::gtp::parse_point(9, v).unwrap()),
            };
            g.play(c, mv).unwrap();
            h.extend(c, mv.point());
            let (a, b) = (
                features(&h).unwrap(),
                features(&History::new(&g, rules)).unwrap(),
            );
            assert_eq!((a.spatial, a.global), (b.spatial, b.global), "after {m}");
        }
    }

    #[test]
    fn every_preset_the_net_plays_gets_legal_moves() {
        let eval = evaluator();
        for preset in Preset::ALL {
            let Some(rules) = KataRules::nearest(&preset.rules(9)) else {
                assert_eq!(preset, Preset::FirstCapture);
                continue;
            };
            let mut g = Game::new(9, preset.rules(9), Handicap::None).unwrap();
            let mut tree = None;
            for i in 0..16 {
                let c = g.to_move();
                let mut p = Puct::reuse(tree.take(), &g, c, rules, i);
                p.run(&eval, &g, Some(12), None).unwrap();
                let mv = p.analysis().best().unwrap().mv;
                g.play(c, mv)
                    .unwrap_or_else(|e| panic!("{preset}: {mv:?}: {e}"));
                tree = Some(p);
            }
        }
    }

    #[test]
    fn a_group_in_atari_is_captured_and_ones_own_is_saved() {
        let rows = [
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . X . . . .",
            ". . . X O X . . .",
            ". . . X O X . . .",
            ". . . X O X . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ];
        let g = chinese(&rows, Color::Black);
        assert_eq!(best(&g, 40).0, Move::Play(at(g.board(), "E3")));
        let g = chinese(&rows, Color::White);
        assert_eq!(best(&g, 40).0, Move::Play(at(g.board(), "E3")));
    }

    #[test]
    fn the_game_over_after_the_opponents_pass_is_passed_out() {
        let rows = [
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
        ];
        let mut g = chinese(&rows, Color::White);
        g.play(Color::White, Move::Pass).unwrap();
        let (_, a) = best(&g, 60);
        let d = judge(&g, Color::Black, &a, &Style::default(), (100, 10));
        assert_eq!(d, Decision::Move(Move::Pass));
    }

    #[test]
    fn a_hopeless_game_is_resigned() {
        let rows = [
            ". X O . . . O . .",
            ". X O . . . O . .",
            ". X O . . . O . .",
            ". X O . . . O . .",
            ". X O . . . O . .",
            ". X O . . . O . .",
            ". X O . . . O . .",
            ". X O . . . O . .",
            ". X O . . . O . .",
        ];
        let g = chinese(&rows, Color::Black);
        let (_, a) = best(&g, 150);
        let d = judge(&g, Color::Black, &a, &Style::default(), (100, 10));
        assert_eq!(d, Decision::Resign, "{:?}", a.best());
    }

    #[test]
    fn the_subtree_of_the_moves_played_is_kept() {
        let eval = evaluator();
        let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let rules = kata(&g);
        let mut p = Puct::new(&g, Color::Black, rules, 3);
        p.run(&eval, &g, Some(120), None).unwrap();
        let a = p.analysis();
        let pv = &a.best().unwrap().pv;
        g.play(Color::Black, pv[0]).unwrap();
        g.play(Color::White, pv[1]).unwrap();
        let q = Puct::reuse(Some(p), &g, Color::Black, rules, 4);
        assert!(q.reused() > 1, "{}", q.reused());
        let mut q = q;
        let kept = q.reused();
        q.run(&eval, &g, Some(20), None).unwrap();
        assert_eq!(q.analysis().playouts, kept + 20);
        // Another line keeps nothing.
        let g2 = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        assert_eq!(
            Puct::reuse(Some(q), &g2, Color::Black, rules, 5).reused(),
            0
        );
    }
}
