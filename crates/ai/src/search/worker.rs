//! One thread's share of the search: its own board, seed, AMAF scratch and ownership sums; the
//! descent through the shared tree (with virtual loss), the playout and the backup (own and
//! AMAF statistics). [`Root`] is the position searched, read by every thread.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::time::Instant;

use tengen_rules::playout::Rng;
use tengen_rules::{Board, Color, Game, GameEnd, Move, Point, Scoring as Counting};

use super::{dynamic_komi, handicap_bonus, tree_move, Knowledge, EXPAND_AT};
use crate::playout::{self, Scoring};
use crate::priors::{prior, Context};
use crate::tree::{NewNode, Tree, TreeMove};

/// The position a search starts from, and what it stands for (to know when a tree can be
/// kept for the next move).
pub(super) struct Root {
    pub(super) board: Board,
    /// Who is to move.
    pub(super) color: Color,
    pub(super) last: [Option<Point>; 2],
    /// The legal moves under the game's rules (superko included).
    pub(super) moves: Vec<Point>,
    pub(super) scoring: Scoring,
    /// The moves played to it, the start position's hash and the rules.
    pub(super) history: Vec<(Color, Move)>,
    pub(super) start_hash: u64,
    pub(super) rules: tengen_rules::Rules,
}

impl Root {
    pub(super) fn new(game: &Game, color: Color, knowledge: Knowledge) -> Root {
        let board = game.board().clone();
        let mut g = game.clone();
        g.set_to_move(color);
        let moves: Vec<Point> = board
            .points()
            .filter(|&p| g.check_point(color, p).is_ok())
            .collect();
        let mut last = game.moves().rev().map(|(_, m)| m.point());
        let last = [last.next().flatten(), last.next().flatten()];
        let rules = game.rules();
        let scoring = Scoring {
            ladders: knowledge.ladders,
            nakade: knowledge.nakade,
            komi: rules.komi.as_f64() as f32 + handicap_bonus(game) + dynamic_komi(game),
            prisoners: rules.scoring == Counting::AreaPlusPrisoners,
            first_capture: rules.end == GameEnd::FirstCapture,
        };
        Root {
            board,
            color,
            last,
            moves,
            scoring,
            history: game.moves().collect(),
            start_hash: game.start().0.hash(),
            rules: *game.rules(),
        }
    }

    /// Length of the per-point tables.
    pub(super) fn cells(&self) -> usize {
        self.board.points().map(|p| p.index()).max().unwrap_or(0) + 1
    }

    /// Gives the tree's root its children: the legal moves, with their priors. Done once,
    /// before any thread descends.
    pub(super) fn expand_root(&self, tree: &Tree) {
        if !tree.claim_expansion(0) {
            return;
        }
        let ctx = Context::new(&self.board, self.color, self.last, self.scoring.ladders);
        let kids: Vec<NewNode> = self
            .moves
            .iter()
            .map(|&p| NewNode {
                mv: TreeMove::Play(p),
                color: self.color,
                prior: prior(&self.board, &ctx, self.color, p),
            })
            .collect();
        tree.expand(0, &kids);
    }
}

/// One thread's state.
pub(super) struct Walker {
    rng: Rng,
    board: Board,
    seq: Vec<(Point, Color)>,
    path: Vec<usize>,
    /// AMAF: who first played each point below the node being updated (0 nobody, 1 Black,
    /// 2 White), by point index.
    first: Vec<u8>,
    /// Ownership sums by point index.
    pub(super) own: Vec<i32>,
    /// Playouts this thread finished.
    pub(super) playouts: u32,
    kids: Vec<NewNode>,
}

impl Walker {
    pub(super) fn new(root: &Root, seed: u64) -> Walker {
        let cells = root.cells();
        Walker {
            rng: Rng::new(seed),
            board: root.board.clone(),
            seq: Vec::with_capacity(1024),
            path: Vec::with_capacity(64),
            first: vec![0; cells],
            own: vec![0; cells],
            playouts: 0,
            kids: Vec::with_capacity(400),
        }
    }

    /// Plays out until `started` (shared by the threads) reaches `playouts`, or until
    /// `deadline`.
    pub(super) fn run(
        &mut self,
        tree: &Tree,
        root: &Root,
        playouts: Option<u32>,
        started: &AtomicU32,
        deadline: Option<Instant>,
    ) {
        let mut own_count = 0u32;
        loop {
            if let Some(n) = playouts {
                if started.fetch_add(1, Relaxed) >= n {
                    return;
                }
            }
            if let Some(d) = deadline {
                if own_count % 16 == 0 && Instant::now() >= d {
                    return;
                }
            }
            own_count += 1;
            self.playout(tree, root);
        }
    }

    fn expand(&mut self, tree: &Tree, root: &Root, node: usize, color: Color) {
        let last = self.last_moves(root);
        let board = &self.board;
        let ctx = Context::new(board, color, last, root.scoring.ladders);
        self.kids.clear();
        self.kids.extend(
            board
                .points()
                .filter(|&p| board.is_legal_simple(p, color))
                .map(|p| NewNode {
                    mv: TreeMove::Play(p),
                    color,
                    prior: prior(board, &ctx, color, p),
                }),
        );
        tree.expand(node, &self.kids);
    }

    /// The last two moves before the current node of the descent.
    fn last_moves(&self, root: &Root) -> [Option<Point>; 2] {
        let n = self.seq.len();
        match n {
            0 => root.last,
            1 => [Some(self.seq[0].0), root.last[0]],
            _ => [Some(self.seq[n - 1].0), Some(self.seq[n - 2].0)],
        }
    }

    fn playout(&mut self, tree: &Tree, root: &Root) {
        self.board.copy_from(&root.board);
        self.seq.clear();
        self.path.clear();
        self.path.push(0);
        let mut node = 0;
        let mut color = root.color;
        loop {
            if !tree.node(node).is_expanded() {
                let n = tree.node(node);
                let ripe = node == 0 || (n.visits() >= EXPAND_AT && !tree.is_full());
                if ripe && tree.claim_expansion(node) {
                    self.expand(tree, root, node, color);
                }
                // Another thread may be expanding it: play out from here meanwhile.
                if !tree.node(node).is_expanded() {
                    break;
                }
            }
            let Some(child) = tree.select(node) else {
                break;
            };
            let TreeMove::Play(p) = tree.node(child).mv() else {
                break;
            };
            tree.node(child).add_virtual_loss();
            let played = self.board.play(p, color);
            self.seq.push((p, color));
            self.path.push(child);
            node = child;
            if root.scoring.first_capture && (played.captured() > 0 || played.is_suicide()) {
                // First Capture Go: the game ends here; a self-capture hands it over.
                let winner = if played.is_suicide() {
                    color.opponent()
                } else {
                    color
                };
                self.finish(tree, if winner == Color::Black { 2 } else { 0 });
                return;
            }
            color = color.opponent();
        }
        let last = self.seq.last().map(|&(p, _)| p).or(root.last[0]);
        let outcome = playout::run(
            &mut self.board,
            color,
            last,
            0,
            &root.scoring,
            &mut self.rng,
            &mut self.seq,
        );
        self.finish(tree, (outcome.black_value() * 2.0).round() as u32);
    }

    /// Records a finished playout: `black` is its value for Black in half points (2 a win).
    fn finish(&mut self, tree: &Tree, black: u32) {
        self.backup(tree, black);
        for p in self.board.points() {
            self.own[p.index()] += playout::owner(&self.board, p);
        }
        self.playouts += 1;
    }

    fn backup(&mut self, tree: &Tree, black: u32) {
        let value = |c: Color| if c == Color::Black { black } else { 2 - black };
        for (depth, &i) in self.path.iter().enumerate() {
            let n = tree.node(i);
            // The root takes no virtual loss: every playout passes it.
            n.record(value(n.color()), depth > 0);
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
            for k in tree.children(self.path[depth]) {
                let child = tree.node(k);
                if let TreeMove::Play(p) = child.mv() {
                    let c = child.color();
                    if self.first[p.index()] == 1 + c.index() as u8 {
                        child.record_rave(value(c));
                    }
                }
            }
        }
    }
}

/// The most visited path below node `i`.
pub(super) fn pv(tree: &Tree, mut i: usize) -> Vec<Move> {
    let mut out = Vec::new();
    loop {
        let Some(best) = tree.children(i).max_by_key(|&k| tree.node(k).visits()) else {
            return out;
        };
        let n = tree.node(best);
        if n.visits() < 4 || out.len() >= 12 {
            return out;
        }
        out.push(tree_move(n.mv()));
        i = best;
    }
}

/// The node of `old` (searched from `old_root`) that stands for `game` with `color` to move,
/// when `old` leads there through the moves played since.
pub(super) fn follow(old: &Tree, old_root: &Root, game: &Game, color: Color) -> Option<usize> {
    let moves: Vec<(Color, Move)> = game.moves().collect();
    let n = old_root.history.len();
    if moves.len() < n
        || moves[..n] != old_root.history[..]
        || game.start().0.hash() != old_root.start_hash
        || *game.rules() != old_root.rules
    {
        return None;
    }
    let mut node = 0;
    for &(c, m) in &moves[n..] {
        let Move::Play(p) = m else { return None };
        node = old
            .children(node)
            .find(|&k| old.node(k).mv() == TreeMove::Play(p) && old.node(k).color() == c)?;
    }
    let to_move = if node == 0 {
        old_root.color
    } else {
        old.node(node).color().opponent()
    };
    (to_move == color).then_some(node)
}
