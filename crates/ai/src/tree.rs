//! The search tree, shared by every search thread: nodes in one arena (children contiguous,
//! addressed by index), each with its playout statistics, its AMAF (RAVE) statistics, its
//! prior and its virtual loss. Lock-free: every field is an atomic, so threads descend, expand
//! and back up at once (Enzenberger and Müller's lock-free tree for Fuego).
//!
//! Selection blends the node's own mean with its AMAF mean (Gelly & Silver 2007): the weight of
//! AMAF is `rn / (rn + n + rn * n / EQUIV)`, large while the node has few playouts of its own and
//! fading as they come. Priors count as playouts in both means. A thread on its way down adds
//! a virtual loss to each node it passes (a playout counted as lost until its result comes
//! back), so that the other threads spread over other lines instead of all following it.
//!
//! The arena is a fixed list of chunks, each made the first time a node in it is handed out:
//! an expansion claims a run of indices with one atomic addition (a run never straddles two
//! chunks), writes the children, then publishes their count with release ordering; a reader
//! that sees the count (acquire) sees the children. One thread claims the right to expand a
//! node (a compare-and-swap on its flag); the others play out from the node meanwhile.
//!
//! Values are kept in half points (a win 2, a draw 1), so that they add up exactly in integers.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering::*};
use std::sync::OnceLock;

use tengen_rules::{Color, Point};

use crate::priors::Prior;

/// How many playouts make AMAF and the node's own mean weigh the same (Pachi uses 3000).
pub const EQUIV: f32 = 3000.0;

/// Nodes in a chunk of the arena (a power of two).
const CHUNK: usize = 1 << 14;

/// A move of the tree: a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeMove {
    /// A stone on this point.
    Play(Point),
    /// A pass.
    Pass,
}

/// One node: the move that leads to it and what the search knows of it.
#[derive(Debug, Default)]
pub struct Node {
    /// The move and its colour: the point's index times two plus the colour's index, or
    /// `u32::MAX - 1 + colour` for a pass. Written before the node is published.
    mv: AtomicU32,
    /// The prior (virtual playouts, their wins) as `f32` bits. Written before publication.
    prior_n: AtomicU32,
    prior_w: AtomicU32,
    /// Index of the first child; the children follow it.
    first_child: AtomicU32,
    /// Number of children: 0 until expanded, stored last (release) when expanded.
    children: AtomicU32,
    /// Set by the one thread that expands the node.
    expanding: AtomicBool,
    /// Playouts through this node.
    visits: AtomicU32,
    /// Their summed value for the node's colour, in half points (a win 2, a draw 1).
    wins: AtomicU32,
    /// Playouts under way through this node, counted as losses until they come back.
    virtual_loss: AtomicU32,
    /// Playouts in which the colour played this move first below the parent (AMAF).
    rave_visits: AtomicU32,
    /// Their summed value, in half points.
    rave_wins: AtomicU32,
}

/// What a node holds, read at once: for analysis, tree reuse and tests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// The move into the node.
    pub mv: TreeMove,
    /// Who made it.
    pub color: Color,
    /// Its prior.
    pub prior: Prior,
    /// Playouts through it.
    pub visits: u32,
    /// Their summed value for `color` (1 a win, 0.5 a draw).
    pub wins: f32,
    /// AMAF playouts.
    pub rave_visits: u32,
    /// Their summed value for `color`.
    pub rave_wins: f32,
}

impl Stats {
    /// The mean value of the real playouts, if any.
    pub fn winrate(&self) -> Option<f32> {
        (self.visits > 0).then(|| self.wins / self.visits as f32)
    }
}

fn encode(mv: TreeMove, color: Color) -> u32 {
    match mv {
        TreeMove::Play(p) => p.index() as u32 * 2 + color.index() as u32,
        TreeMove::Pass => u32::MAX - 1 + color.index() as u32,
    }
}

fn decode(x: u32) -> (TreeMove, Color) {
    let color = if (x & 1) as usize == Color::Black.index() {
        Color::Black
    } else {
        Color::White
    };
    if x >= u32::MAX - 1 {
        return (TreeMove::Pass, color);
    }
    let mv = Point::from_index((x / 2) as usize).map_or(TreeMove::Pass, TreeMove::Play);
    (mv, color)
}

impl Node {
    /// The move into this node.
    #[inline]
    pub fn mv(&self) -> TreeMove {
        decode(self.mv.load(Relaxed)).0
    }

    /// Who made it.
    #[inline]
    pub fn color(&self) -> Color {
        decode(self.mv.load(Relaxed)).1
    }

    /// Its prior.
    pub fn prior(&self) -> Prior {
        Prior {
            n: f32::from_bits(self.prior_n.load(Relaxed)),
            w: f32::from_bits(self.prior_w.load(Relaxed)),
        }
    }

    /// Playouts through it (finished ones).
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// True once its children are published.
    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.children.load(Acquire) > 0
    }

    /// Everything the node knows, read at once.
    pub fn stats(&self) -> Stats {
        let (mv, color) = decode(self.mv.load(Relaxed));
        Stats {
            mv,
            color,
            prior: self.prior(),
            visits: self.visits(),
            wins: self.wins.load(Relaxed) as f32 / 2.0,
            rave_visits: self.rave_visits.load(Relaxed),
            rave_wins: self.rave_wins.load(Relaxed) as f32 / 2.0,
        }
    }

    /// The selection value: own and AMAF means, priors included, blended; playouts under way
    /// count as losses.
    #[inline]
    pub fn value(&self) -> f32 {
        let prior = self.prior();
        let visits = self.visits.load(Relaxed) + self.virtual_loss.load(Relaxed);
        let n = visits as f32 + prior.n;
        let w = self.wins.load(Relaxed) as f32 / 2.0 + prior.w;
        let rn = self.rave_visits.load(Relaxed) as f32 + prior.n;
        let rw = self.rave_wins.load(Relaxed) as f32 / 2.0 + prior.w;
        let own = if n > 0.0 { w / n } else { 0.5 };
        if rn <= 0.0 {
            return own;
        }
        let beta = rn / (rn + n + rn * n / EQUIV);
        (1.0 - beta) * own + beta * (rw / rn)
    }

    /// A playout on its way down passes this node.
    #[inline]
    pub fn add_virtual_loss(&self) {
        self.virtual_loss.fetch_add(1, Relaxed);
    }

    /// A playout through this node came back with `half_points` (2 a win for the node's
    /// colour, 1 a draw, 0 a loss); `virtual` when it had added a virtual loss on its way down.
    #[inline]
    pub fn record(&self, half_points: u32, virtual_loss: bool) {
        self.visits.fetch_add(1, Relaxed);
        self.wins.fetch_add(half_points, Relaxed);
        if virtual_loss {
            self.virtual_loss.fetch_sub(1, Relaxed);
        }
    }

    /// An AMAF playout for this node's move came back with `half_points`.
    #[inline]
    pub fn record_rave(&self, half_points: u32) {
        self.rave_visits.fetch_add(1, Relaxed);
        self.rave_wins.fetch_add(half_points, Relaxed);
    }

    /// Playouts under way through this node.
    pub fn virtual_loss(&self) -> u32 {
        self.virtual_loss.load(Relaxed)
    }

    /// Sets the move, prior and statistics (tree reuse copies them into a fresh tree before
    /// any search).
    fn set(&self, s: &Stats) {
        self.mv.store(encode(s.mv, s.color), Relaxed);
        self.prior_n.store(s.prior.n.to_bits(), Relaxed);
        self.prior_w.store(s.prior.w.to_bits(), Relaxed);
        self.keep_counts(s);
    }

    /// Sets the playouts and AMAF playouts a node keeps from an earlier tree (tree reuse,
    /// before any search).
    pub fn keep_counts(&self, s: &Stats) {
        self.visits.store(s.visits, Relaxed);
        self.wins.store((s.wins * 2.0).round() as u32, Relaxed);
        self.rave_visits.store(s.rave_visits, Relaxed);
        self.rave_wins
            .store((s.rave_wins * 2.0).round() as u32, Relaxed);
    }
}

/// The arena, shared by the search threads.
#[derive(Debug)]
pub struct Tree {
    chunks: Box<[OnceLock<Box<[Node]>>]>,
    /// The next free index.
    next: AtomicUsize,
    /// Nodes the tree may hold.
    capacity: usize,
}

/// A new node's contents, before it is written into the arena.
#[derive(Clone, Copy, Debug)]
pub struct NewNode {
    /// Its move.
    pub mv: TreeMove,
    /// Who makes it.
    pub color: Color,
    /// Its prior.
    pub prior: Prior,
}

impl Tree {
    /// A tree of one root node (the move that led to the position, by `root_color`) that can
    /// grow to about `capacity` nodes.
    pub fn new(root_color: Color, capacity: usize) -> Tree {
        let capacity = capacity.max(CHUNK);
        let chunks = (0..capacity.div_ceil(CHUNK))
            .map(|_| OnceLock::new())
            .collect();
        let tree = Tree {
            chunks,
            next: AtomicUsize::new(1),
            capacity,
        };
        tree.node(0).set(&Stats {
            mv: TreeMove::Pass,
            color: root_color,
            prior: Prior::default(),
            visits: 0,
            wins: 0.0,
            rave_visits: 0,
            rave_wins: 0.0,
        });
        tree
    }

    /// Node `i`.
    ///
    /// # Panics
    /// If `i` is past the arena's capacity (indices come from the tree itself).
    #[inline]
    pub fn node(&self, i: usize) -> &Node {
        let chunk = self.chunks[i / CHUNK]
            .get_or_init(|| std::iter::repeat_with(Node::default).take(CHUNK).collect());
        &chunk[i % CHUNK]
    }

    /// Nodes handed out so far (a few unused ones at chunk ends included).
    pub fn len(&self) -> usize {
        self.next.load(Relaxed).min(self.capacity)
    }

    /// True when the tree holds its root only.
    pub fn is_empty(&self) -> bool {
        self.len() <= 1
    }

    /// True when no more children can be made.
    pub fn is_full(&self) -> bool {
        self.len() + 1024 > self.capacity
    }

    /// The children of node `i`, as an index range (empty until it is expanded).
    #[inline]
    pub fn children(&self, i: usize) -> std::ops::Range<usize> {
        let n = self.node(i);
        let count = n.children.load(Acquire) as usize;
        let first = n.first_child.load(Relaxed) as usize;
        first..first + count
    }

    /// Claims the right to expand node `i`: true for exactly one caller, and only while `i`
    /// has no children.
    pub fn claim_expansion(&self, i: usize) -> bool {
        let n = self.node(i);
        !n.is_expanded()
            && n.expanding
                .compare_exchange(false, true, Acquire, Relaxed)
                .is_ok()
    }

    /// Gives node `i` (claimed with [`Tree::claim_expansion`]) the children `kids`; false,
    /// leaving `i` a leaf for good, when the arena has no room for them (or there are none).
    pub fn expand(&self, i: usize, kids: &[NewNode]) -> bool {
        let count = kids.len();
        if count == 0 || count > CHUNK {
            return false;
        }
        let Some(first) = self.allocate(count) else {
            return false;
        };
        for (k, kid) in kids.iter().enumerate() {
            let n = self.node(first + k);
            n.mv.store(encode(kid.mv, kid.color), Relaxed);
            n.prior_n.store(kid.prior.n.to_bits(), Relaxed);
            n.prior_w.store(kid.prior.w.to_bits(), Relaxed);
        }
        let node = self.node(i);
        node.first_child.store(first as u32, Relaxed);
        node.children.store(count as u32, Release);
        true
    }

    /// A run of `count` free indices within one chunk.
    fn allocate(&self, count: usize) -> Option<usize> {
        let mut cur = self.next.load(Relaxed);
        loop {
            let mut start = cur;
            if start % CHUNK + count > CHUNK {
                start = (start / CHUNK + 1) * CHUNK;
            }
            let end = start + count;
            if end > self.capacity {
                return None;
            }
            match self.next.compare_exchange_weak(cur, end, Relaxed, Relaxed) {
                Ok(_) => return Some(start),
                Err(now) => cur = now,
            }
        }
    }

    /// The child of `i` with the best selection value (the first on ties, so that one thread
    /// with a fixed seed searches the same way every time).
    #[inline]
    pub fn select(&self, i: usize) -> Option<usize> {
        let mut best = None;
        let mut best_value = f32::NEG_INFINITY;
        for c in self.children(i) {
            let v = self.node(c).value();
            if v > best_value {
                best_value = v;
                best = Some(c);
            }
        }
        best
    }

    /// Copies into node `to` of this tree (just expanded, with the same children in the same
    /// order as `from` has where they match) what `old` knows below its node `from`:
    /// statistics and whole subtrees, breadth first while there is room. Single-threaded:
    /// done before the search starts.
    pub fn graft(&self, to: usize, old: &Tree, from: usize) {
        let mut queue = std::collections::VecDeque::new();
        for k in self.children(to) {
            let mv = self.node(k).mv();
            if let Some(o) = old.children(from).find(|&o| old.node(o).mv() == mv) {
                self.node(k).keep_counts(&old.node(o).stats());
                queue.push_back((o, k));
            }
        }
        let mut kids = Vec::new();
        while let Some((o, n)) = queue.pop_front() {
            if !old.node(o).is_expanded() || self.is_full() {
                continue;
            }
            kids.clear();
            kids.extend(old.children(o).map(|k| {
                let s = old.node(k).stats();
                NewNode {
                    mv: s.mv,
                    color: s.color,
                    prior: s.prior,
                }
            }));
            if !self.claim_expansion(n) || !self.expand(n, &kids) {
                continue;
            }
            for (k, o) in self.children(n).zip(old.children(o)) {
                self.node(k).set(&old.node(o).stats());
                queue.push_back((o, k));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_and_colours_survive_the_encoding() {
        for c in [Color::Black, Color::White] {
            assert_eq!(decode(encode(TreeMove::Pass, c)), (TreeMove::Pass, c));
            for i in [0usize, 1, 22, 400, 700] {
                let p = Point::from_index(i).unwrap();
                assert_eq!(decode(encode(TreeMove::Play(p), c)), (TreeMove::Play(p), c));
            }
        }
    }

    #[test]
    fn children_never_straddle_two_chunks_and_the_arena_stops_when_full() {
        let tree = Tree::new(Color::White, 2 * CHUNK);
        let kid = NewNode {
            mv: TreeMove::Pass,
            color: Color::Black,
            prior: Prior::default(),
        };
        let kids = vec![kid; 300];
        let mut i = 0;
        let mut expanded = 0;
        while tree.claim_expansion(i) && tree.expand(i, &kids) {
            let r = tree.children(i);
            assert_eq!(r.start / CHUNK, (r.end - 1) / CHUNK, "{r:?}");
            expanded += 1;
            i = r.start;
        }
        // 54 runs of 300 fit in a chunk of 16,384, and the root takes index 0.
        assert_eq!(expanded, 2 * 54);
        assert!(!tree.node(i).is_expanded());
    }

    #[test]
    fn only_one_thread_expands_a_node() {
        let tree = Tree::new(Color::White, CHUNK);
        let won = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| s.spawn(|| tree.claim_expansion(0)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or(false))
                .filter(|&w| w)
                .count()
        });
        assert_eq!(won, 1);
    }

    #[test]
    fn a_virtual_loss_lowers_the_value_until_the_playout_comes_back() {
        let tree = Tree::new(Color::White, CHUNK);
        let n = tree.node(0);
        n.record(2, false);
        let before = n.value();
        n.add_virtual_loss();
        assert!(n.value() < before);
        n.record(2, true);
        assert_eq!(n.stats().visits, 2);
        assert_eq!(n.value(), 1.0);
    }
}
