//! One thread's search: a tree of its own, a seed of its own, the descent, the playout and the
//! backup (own and AMAF statistics), and tree reuse from one move to the next.

use std::time::Instant;

use tengen_rules::playout::Rng;
use tengen_rules::{Board, Color, Game, GameEnd, Move, Point, Scoring as Counting};

use super::{dynamic_komi, handicap_bonus, tree_move, EXPAND_AT, MAX_NODES};
use crate::playout::{self, Scoring};
use crate::priors::{prior, Context};
use crate::tree::{Node, Tree, TreeMove};

/// One thread's search.
pub(super) struct Worker {
    pub(super) root_board: Board,
    pub(super) root_color: Color,
    pub(super) root_last: [Option<Point>; 2],
    /// The root's legal moves under the game's rules.
    pub(super) root_moves: Vec<Point>,
    pub(super) scoring: Scoring,
    pub(super) tree: Tree,
    pub(super) rng: Rng,
    pub(super) board: Board,
    pub(super) seq: Vec<(Point, Color)>,
    pub(super) path: Vec<usize>,
    /// AMAF: who first played each point below the node being updated (0 nobody, 1 Black,
    /// 2 White), by point index.
    pub(super) first: Vec<u8>,
    /// Ownership sums by point index.
    pub(super) own: Vec<i32>,
    pub(super) playouts: u32,
    /// This tree's share of [`MAX_NODES`].
    pub(super) max_nodes: usize,
    /// What the root stands for, to know when the tree can be kept: the moves played to it,
    /// the start position's hash and the rules.
    pub(super) history: Vec<(Color, Move)>,
    pub(super) start_hash: u64,
    pub(super) rules: tengen_rules::Rules,
}

impl Worker {
    pub(super) fn new(game: &Game, color: Color, seed: u64) -> Worker {
        let board = game.board().clone();
        let cells = board.points().map(|p| p.index()).max().unwrap_or(0) + 1;
        let mut g = game.clone();
        g.set_to_move(color);
        let root_moves: Vec<Point> = board
            .points()
            .filter(|&p| g.check_point(color, p).is_ok())
            .collect();
        let mut last = game.moves().rev().map(|(_, m)| m.point());
        let root_last = [last.next().flatten(), last.next().flatten()];
        let rules = game.rules();
        let scoring = Scoring {
            komi: rules.komi.as_f64() as f32 + handicap_bonus(game) + dynamic_komi(game),
            prisoners: rules.scoring == Counting::AreaPlusPrisoners,
            first_capture: rules.end == GameEnd::FirstCapture,
        };
        Worker {
            root_board: board.clone(),
            root_color: color,
            root_last,
            root_moves,
            scoring,
            tree: Tree::new(color.opponent()),
            rng: Rng::new(seed),
            board,
            seq: Vec::with_capacity(1024),
            path: Vec::with_capacity(64),
            first: vec![0; cells],
            own: vec![0; cells],
            playouts: 0,
            max_nodes: MAX_NODES,
            history: game.moves().collect(),
            start_hash: game.start().0.hash(),
            rules: *game.rules(),
        }
    }

    /// This worker's tree below the moves played since its root, as a new worker for `game`
    /// and `color`, or `None` when the tree does not lead there.
    pub(super) fn reuse(self, game: &Game, color: Color, seed: u64) -> Option<Worker> {
        let moves: Vec<(Color, Move)> = game.moves().collect();
        let old = &self.tree;
        if moves.len() < self.history.len()
            || moves[..self.history.len()] != self.history[..]
            || game.start().0.hash() != self.start_hash
            || *game.rules() != self.rules
        {
            return None;
        }
        let mut node = 0;
        for &(c, m) in &moves[self.history.len()..] {
            let Move::Play(p) = m else { return None };
            let n = &old.nodes[node];
            if !n.expanded {
                return None;
            }
            node = old
                .children(node)
                .find(|&k| old.nodes[k].mv == TreeMove::Play(p) && old.nodes[k].color == c)?;
        }
        let root_color = if node == 0 {
            self.root_color
        } else {
            old.nodes[node].color.opponent()
        };
        if root_color != color {
            return None;
        }
        let mut w = Worker::new(game, color, seed);
        w.max_nodes = self.max_nodes;
        w.graft(old, node);
        Some(w)
    }

    /// Expands the root afresh (its moves are the game's legal moves now) and copies below it
    /// what `old` knows under `old_root`'s matching children.
    fn graft(&mut self, old: &Tree, old_root: usize) {
        self.expand(0, self.root_color);
        let (visits, wins) = (old.nodes[old_root].visits, old.nodes[old_root].wins);
        self.tree.nodes[0].visits = visits;
        self.tree.nodes[0].wins = wins;
        if !old.nodes[old_root].expanded {
            return;
        }
        let mut queue = std::collections::VecDeque::new();
        for k in self.tree.children(0) {
            let mv = self.tree.nodes[k].mv;
            if let Some(o) = old.children(old_root).find(|&o| old.nodes[o].mv == mv) {
                let n = &old.nodes[o];
                let (v, w, rv, rw) = (n.visits, n.wins, n.rave_visits, n.rave_wins);
                let new = &mut self.tree.nodes[k];
                new.visits = v;
                new.wins = w;
                new.rave_visits = rv;
                new.rave_wins = rw;
                queue.push_back((o, k));
            }
        }
        while let Some((o, n)) = queue.pop_front() {
            if !old.nodes[o].expanded || self.tree.nodes.len() >= self.max_nodes {
                continue;
            }
            let first = self.tree.nodes.len();
            for k in old.children(o) {
                let mut child = old.nodes[k].clone();
                // Its own children are linked when it is taken from the queue.
                child.expanded = false;
                child.children = 0;
                child.first_child = 0;
                self.tree.nodes.push(child);
                queue.push_back((k, first + (k - old.nodes[o].first_child as usize)));
            }
            let node = &mut self.tree.nodes[n];
            node.first_child = first as u32;
            node.children = old.nodes[o].children;
            node.expanded = true;
        }
    }

    pub(super) fn run(&mut self, playouts: Option<u32>, deadline: Option<Instant>) {
        loop {
            if let Some(n) = playouts {
                if self.playouts >= n {
                    return;
                }
            }
            if let Some(d) = deadline {
                if self.playouts % 16 == 0 && Instant::now() >= d {
                    return;
                }
            }
            self.playout();
        }
    }

    fn expand(&mut self, node: usize, color: Color) {
        let board = &self.board;
        let last = self.last_moves();
        let ctx = Context::new(board, color, last);
        let kids: Vec<Node> = if node == 0 {
            self.root_moves
                .iter()
                .map(|&p| Node::new(TreeMove::Play(p), color, prior(board, &ctx, color, p)))
                .collect()
        } else {
            board
                .points()
                .filter(|&p| board.is_legal_simple(p, color))
                .map(|p| Node::new(TreeMove::Play(p), color, prior(board, &ctx, color, p)))
                .collect()
        };
        self.tree.expand(node, kids.into_iter());
    }

    /// The last two moves before the current node of the descent.
    fn last_moves(&self) -> [Option<Point>; 2] {
        let n = self.seq.len();
        match n {
            0 => self.root_last,
            1 => [Some(self.seq[0].0), self.root_last[0]],
            _ => [Some(self.seq[n - 1].0), Some(self.seq[n - 2].0)],
        }
    }

    fn playout(&mut self) {
        self.board.copy_from(&self.root_board);
        self.seq.clear();
        self.path.clear();
        self.path.push(0);
        let mut node = 0;
        let mut color = self.root_color;
        loop {
            let n = &self.tree.nodes[node];
            if !n.expanded {
                if node == 0 || (n.visits >= EXPAND_AT && self.tree.nodes.len() < self.max_nodes) {
                    self.expand(node, color);
                } else {
                    break;
                }
            }
            let Some(child) = self.tree.select(node) else {
                break;
            };
            let TreeMove::Play(p) = self.tree.nodes[child].mv else {
                break;
            };
            let played = self.board.play(p, color);
            self.seq.push((p, color));
            self.path.push(child);
            node = child;
            if self.scoring.first_capture && (played.captured() > 0 || played.is_suicide()) {
                // First Capture Go: the game ends here; a self-capture hands it over.
                let winner = if played.is_suicide() {
                    color.opponent()
                } else {
                    color
                };
                let black = if winner == Color::Black { 1.0 } else { 0.0 };
                self.finish(black);
                return;
            }
            color = color.opponent();
        }
        let last = self.seq.last().map(|&(p, _)| p).or(self.root_last[0]);
        let outcome = playout::run(
            &mut self.board,
            color,
            last,
            0,
            &self.scoring,
            &mut self.rng,
            &mut self.seq,
        );
        self.finish(outcome.black_value());
    }

    /// Records a finished playout: `black` is its value for Black.
    fn finish(&mut self, black: f32) {
        self.backup(black);
        for p in self.board.points() {
            self.own[p.index()] += playout::owner(&self.board, p);
        }
        self.playouts += 1;
    }

    fn backup(&mut self, black: f32) {
        let value = |c: Color| {
            if c == Color::Black {
                black
            } else {
                1.0 - black
            }
        };
        for &i in &self.path {
            let n = &mut self.tree.nodes[i];
            n.visits += 1;
            n.wins += value(n.color);
        }
        // AMAF: from the deepest node up, `first` holds who first played each point in the
        // moves after that node.
        self.first.iter_mut().for_each(|f| *f = 0);
        let mut j = self.seq.len();
        for depth in (0..self.path.len()).rev() {
            while j > depth {
                j -= 1;
                let (p, c) = self.seq[j];
                self.first[p.index()] = 1 + c.index() as u8;
            }
            let i = self.path[depth];
            if !self.tree.nodes[i].expanded {
                continue;
            }
            for k in self.tree.children(i) {
                let child = &mut self.tree.nodes[k];
                if let TreeMove::Play(p) = child.mv {
                    if self.first[p.index()] == 1 + child.color.index() as u8 {
                        child.rave_visits += 1.0;
                        child.rave_wins += value(child.color);
                    }
                }
            }
        }
    }

    /// The most visited path below node `i`.
    pub(super) fn pv(&self, mut i: usize) -> Vec<Move> {
        let mut out = Vec::new();
        loop {
            let Some(best) = self
                .tree
                .children(i)
                .max_by_key(|&k| self.tree.nodes[k].visits)
            else {
                return out;
            };
            let n = &self.tree.nodes[best];
            if n.visits < 4 || out.len() >= 12 {
                return out;
            }
            out.push(tree_move(n.mv));
            i = best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::{Handicap, Preset};

    #[test]
    fn a_tree_stops_growing_at_its_share_of_nodes_and_the_search_goes_on() {
        let g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let mut w = Worker::new(&g, Color::Black, 3);
        w.max_nodes = 300;
        w.run(Some(3000), None);
        assert_eq!(w.playouts, 3000);
        // One expansion may pass the limit by at most one set of children.
        assert!(w.tree.nodes.len() <= 300 + 82, "{}", w.tree.nodes.len());
        assert!(w.tree.nodes.len() > 82, "the tree grew below the root");
    }
}
