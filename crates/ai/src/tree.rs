//! The search tree: nodes in one arena (a `Vec`, children contiguous, addressed by index), each
//! with its playout statistics, its AMAF (RAVE) statistics and its prior.
//!
//! Selection blends the node's own mean with its AMAF mean (Gelly & Silver 2007): the weight of
//! AMAF is `rn / (rn + n + rn * n / EQUIV)`, large while the node has few playouts of its own and
//! fading as they come. Priors count as playouts in both means.

use tengen_rules::{Color, Point};

use crate::priors::Prior;

/// How many playouts make AMAF and the node's own mean weigh the same (Pachi uses 3000).
pub const EQUIV: f32 = 3000.0;

/// A move of the tree: a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeMove {
    /// A stone on this point.
    Play(Point),
    /// A pass.
    Pass,
}

/// One node: the move that leads to it and what the search knows of it.
#[derive(Clone, Debug)]
pub struct Node {
    /// The move into this node.
    pub mv: TreeMove,
    /// Who made it.
    pub color: Color,
    /// Index of the first child in the arena; the children follow it.
    pub first_child: u32,
    /// Number of children (0 until expanded).
    pub children: u32,
    /// True once the children are made.
    pub expanded: bool,
    /// Playouts through this node.
    pub visits: u32,
    /// Their summed value for `color` (1 a win, 0.5 a draw).
    pub wins: f32,
    /// Playouts in which `color` played `mv` first below the parent (AMAF).
    pub rave_visits: f32,
    /// Their summed value for `color`.
    pub rave_wins: f32,
    /// The prior, as virtual playouts.
    pub prior: Prior,
}

impl Node {
    /// A fresh node for `mv` by `color` with `prior`.
    pub fn new(mv: TreeMove, color: Color, prior: Prior) -> Node {
        Node {
            mv,
            color,
            first_child: 0,
            children: 0,
            expanded: false,
            visits: 0,
            wins: 0.0,
            rave_visits: 0.0,
            rave_wins: 0.0,
            prior,
        }
    }

    /// The mean value of the real playouts, if any.
    pub fn winrate(&self) -> Option<f32> {
        (self.visits > 0).then(|| self.wins / self.visits as f32)
    }

    /// The selection value: own and AMAF means, priors included, blended.
    #[inline]
    pub fn value(&self) -> f32 {
        let n = self.visits as f32 + self.prior.n;
        let w = self.wins + self.prior.w;
        let rn = self.rave_visits + self.prior.n;
        let rw = self.rave_wins + self.prior.w;
        let own = if n > 0.0 { w / n } else { 0.5 };
        if rn <= 0.0 {
            return own;
        }
        let beta = rn / (rn + n + rn * n / EQUIV);
        (1.0 - beta) * own + beta * (rw / rn)
    }
}

/// The arena.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// Every node; index 0 is the root.
    pub nodes: Vec<Node>,
}

impl Tree {
    /// A tree of one root node: the move that led to the position, by `color`.
    pub fn new(root_color: Color) -> Tree {
        Tree {
            nodes: vec![Node::new(TreeMove::Pass, root_color, Prior::default())],
        }
    }

    /// The children of node `i`, as an index range.
    #[inline]
    pub fn children(&self, i: usize) -> std::ops::Range<usize> {
        let n = &self.nodes[i];
        n.first_child as usize..(n.first_child + n.children) as usize
    }

    /// Gives node `i` the children `kids` (appended to the arena).
    pub fn expand(&mut self, i: usize, kids: impl Iterator<Item = Node>) {
        let first = self.nodes.len();
        self.nodes.extend(kids);
        let count = self.nodes.len() - first;
        let node = &mut self.nodes[i];
        node.first_child = first as u32;
        node.children = count as u32;
        node.expanded = true;
    }

    /// The child of `i` with the best selection value (the first on ties, so that a fixed
    /// seed gives a fixed search).
    #[inline]
    pub fn select(&self, i: usize) -> Option<usize> {
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        for c in self.children(i) {
            let v = self.nodes[c].value();
            if v > best_value {
                best_value = v;
                best = Some(c);
            }
        }
        best
    }
}
