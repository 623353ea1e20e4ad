//! Monte Carlo tree search: selection by the blended own/AMAF value of [`crate::tree`], priors
//! from [`crate::priors`], heavy playouts from [`crate::playout`], and the decisions around it
//! (which move, when to pass, when to resign).
//!
//! Each thread searches a tree of its own from its own seed (root parallelism: no locks, no
//! shared statistics); their root statistics are summed at the end. With one thread, a fixed
//! playout count and a fixed seed, the same position gives the same move.
//!
//! The root's children are the moves the game's rules allow (superko included), so the search
//! never chooses a forbidden move; below the root only the simple ko is checked, as playouts do.

use std::time::{Duration, Instant};

use tengen_rules::playout::Rng;
use tengen_rules::{
    Board, Color, DeadStones, Game, GameEnd, Move, Point, PointSet, Scoring as Counting,
};

use crate::playout::{self, Scoring};
use crate::priors::{prior, Context};
use crate::tree::{Node, Tree, TreeMove};

/// A node is expanded once this many playouts have passed through it (the root at once).
const EXPAND_AT: u32 = 8;

/// Nodes all trees together may hold (about 40 bytes each): past it the trees stop growing and
/// the search goes on from their leaves, so a long analysis cannot exhaust memory.
const MAX_NODES: usize = 8_000_000;

/// How long and how wide to search.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Stop after this many playouts (all threads together).
    pub playouts: Option<u32>,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// Threads (root parallelism); 1 for reproducible searches.
    pub threads: usize,
    /// Seed of the first thread; thread `i` uses `seed + i`.
    pub seed: u64,
}

impl Budget {
    /// A fixed number of playouts on one thread: reproducible.
    pub fn playouts(n: u32, seed: u64) -> Budget {
        Budget {
            playouts: Some(n),
            time: None,
            threads: 1,
            seed,
        }
    }
}

/// What the search found for one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub mv: Move,
    /// Playouts through it.
    pub visits: u32,
    /// Its win rate for the player to move, 0 to 1.
    pub winrate: f32,
    /// Its prior, as a value 0 to 1.
    pub prior: f32,
    /// The principal variation that starts with it (the most visited path).
    pub pv: Vec<Move>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Who was to move.
    pub color: Color,
    /// Playouts made.
    pub playouts: u32,
    /// Time spent.
    pub elapsed: Duration,
    /// The root moves, most visited first.
    pub moves: Vec<MoveStats>,
    /// Ownership of each point at the end of the playouts, +1 Black to -1 White, indexed by
    /// [`Point::index`].
    pub ownership: Vec<f32>,
}

impl Analysis {
    /// The most visited move, if any was searched.
    pub fn best(&self) -> Option<&MoveStats> {
        self.moves.first()
    }

    /// The ownership of `p`.
    pub fn owner(&self, p: Point) -> f32 {
        self.ownership.get(p.index()).copied().unwrap_or(0.0)
    }
}

/// What the engine does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (a point or a pass).
    Move(Move),
    /// Resign.
    Resign,
}

/// How the engine decides, beside the search.
#[derive(Clone, Debug)]
pub struct Style {
    /// Resign when the best move wins less often than this (after enough playouts); `None`
    /// never resigns.
    pub resign_below: Option<f32>,
}

impl Default for Style {
    fn default() -> Style {
        Style {
            resign_below: Some(0.1),
        }
    }
}

/// Searches the position of `game` for `color` within `budget`.
pub fn analyze(game: &Game, color: Color, budget: &Budget) -> Analysis {
    let mut search = Search::new(game, color, budget.threads, budget.seed);
    search.run(budget.playouts, budget.time);
    search.analysis()
}

/// A search that can be continued: GUIs' analysis (`lz-analyze`) runs it a slice at a time and
/// reports after each.
pub struct Search {
    workers: Vec<Worker>,
    color: Color,
    elapsed: Duration,
}

impl Search {
    /// A search of `game` for `color` on `threads` trees, seeded from `seed`.
    pub fn new(game: &Game, color: Color, threads: usize, seed: u64) -> Search {
        let threads = threads.max(1);
        let workers = (0..threads)
            .map(|i| {
                let mut w = Worker::new(game, color, seed.wrapping_add(i as u64));
                w.max_nodes = MAX_NODES / threads;
                w
            })
            .collect();
        Search {
            workers,
            color,
            elapsed: Duration::ZERO,
        }
    }

    /// Searches `playouts` more playouts (all threads together) or for `time`, whichever ends
    /// first (1,000 playouts when neither is given).
    pub fn run(&mut self, playouts: Option<u32>, time: Option<Duration>) {
        let start = Instant::now();
        let deadline = time.map(|t| start + t);
        let threads = self.workers.len() as u32;
        let per_thread = match (playouts, time) {
            (Some(n), _) => Some(n.div_ceil(threads).max(1)),
            (None, None) => Some(1000u32.div_ceil(threads)),
            (None, Some(_)) => None,
        };
        if self.workers.len() == 1 {
            let w = &mut self.workers[0];
            let target = per_thread.map(|n| w.playouts + n);
            w.run(target, deadline);
        } else {
            std::thread::scope(|s| {
                for w in self.workers.iter_mut() {
                    s.spawn(move || {
                        let target = per_thread.map(|n| w.playouts + n);
                        w.run(target, deadline);
                    });
                }
            });
        }
        self.elapsed += start.elapsed();
    }

    /// A search of `game` for `color` that keeps what `previous` learned below the moves
    /// played since its root (tree reuse), or a new one when there is nothing to keep: no
    /// previous search, another thread count, other rules or start, a position it did not
    /// search, or set-up changes in the game.
    pub fn reuse(
        previous: Option<Search>,
        game: &Game,
        color: Color,
        threads: usize,
        seed: u64,
    ) -> Search {
        let threads = threads.max(1);
        if let Some(prev) = previous {
            if prev.workers.len() == threads && game.history().len() == game.ply_count() {
                let workers: Option<Vec<Worker>> = prev
                    .workers
                    .into_iter()
                    .enumerate()
                    .map(|(i, w)| w.reuse(game, color, seed.wrapping_add(i as u64)))
                    .collect();
                if let Some(workers) = workers {
                    return Search {
                        workers,
                        color,
                        elapsed: Duration::ZERO,
                    };
                }
            }
        }
        Search::new(game, color, threads, seed)
    }

    /// Playouts kept from earlier searches at the root (0 for a new search).
    pub fn reused(&self) -> u32 {
        self.workers
            .iter()
            .map(|w| w.tree.nodes[0].visits)
            .sum::<u32>()
            - self.workers.iter().map(|w| w.playouts).sum::<u32>()
    }

    /// What the search knows now.
    pub fn analysis(&self) -> Analysis {
        merge(&self.workers, self.color, self.elapsed)
    }
}

/// Searches and decides: the move to play, a pass, or a resignation.
pub fn genmove(game: &Game, color: Color, budget: &Budget, style: &Style) -> (Decision, Analysis) {
    let mut search = Search::new(game, color, budget.threads, budget.seed);
    decide(game, color, &mut search, budget, style)
}

/// Runs `search` (of `game`, for `color`) within `budget` and decides: the move to play, a
/// pass, or a resignation. With [`Search::reuse`] the tree of the previous move goes on.
pub fn decide(
    game: &Game,
    color: Color,
    search: &mut Search,
    budget: &Budget,
    style: &Style,
) -> (Decision, Analysis) {
    search.run(budget.playouts, budget.time);
    let a = search.analysis();
    let Some(best) = a.best().cloned() else {
        return (Decision::Move(Move::Pass), a);
    };
    let first_capture = game.rules().end == GameEnd::FirstCapture;
    if let Some(limit) = style.resign_below {
        let enough = a.playouts >= 1000 && best.visits >= 200;
        // Not in the opening, where a few hundred playouts judge noisily.
        let area = game.size() as usize * game.size() as usize;
        let late =
            game.ply_count() >= game.size() as usize || game.board().empty_count() * 4 < area * 3;
        if enough && late && best.winrate < limit && !first_capture {
            return (Decision::Resign, a);
        }
    }
    if first_capture {
        return (Decision::Move(best.mv), a);
    }
    let opponent_passed = matches!(game.moves().last(), Some((c, Move::Pass)) if c != color);
    // Pass when it does not lose: after the opponent's pass if the count now wins, or when
    // nothing is left to play (every empty point settled, no own chain in atari) and the
    // count wins. Never pass after the opponent's pass while behind.
    if (opponent_passed || is_settled(game, color, &a)) && margin_if_passed(game, color, &a) > 0.0 {
        return (Decision::Move(Move::Pass), a);
    }
    (Decision::Move(best.mv), a)
}

/// True when nothing is left to play for `color`: every empty point belongs to one side in
/// nearly every playout (dame, owned by nobody, still need filling under area rules), and no
/// chain of `color` is in atari.
pub fn is_settled(game: &Game, color: Color, a: &Analysis) -> bool {
    let board = game.board();
    board.points().all(|p| match board.get(p) {
        None => a.owner(p).abs() >= 0.8,
        Some(c) => c != color || !board.in_atari(p),
    })
}

/// The count if both players passed now, for `color` (positive: `color` wins), with the dead
/// stones the playouts find: chains whose points the opponent owns on average.
pub fn margin_if_passed(game: &Game, color: Color, a: &Analysis) -> f32 {
    let board = game.board();
    let mut dead = PointSet::new();
    if game.rules().dead_stones == DeadStones::Agreed {
        let mut seen = PointSet::new();
        for p in board.points() {
            let Some(c) = board.get(p) else { continue };
            if !seen.insert(p) {
                continue;
            }
            let stones = board.chain_stones(p);
            stones.iter().for_each(|&s| {
                seen.insert(s);
            });
            let sign = if c == Color::Black { 1.0 } else { -1.0 };
            let mine: f32 =
                stones.iter().map(|&s| a.owner(s) * sign).sum::<f32>() / stones.len() as f32;
            if mine < -0.3 {
                stones.iter().for_each(|&s| {
                    dead.insert(s);
                });
            }
        }
    }
    let s = tengen_rules::scoring::score(
        board,
        &dead,
        game.rules(),
        game.handicap_stones().len() as u32,
    );
    let black = (s.black.total_halves() - s.white.total_halves()) as f32 / 2.0;
    match color {
        Color::Black => black,
        Color::White => -black,
    }
}

/// One thread's search.
struct Worker {
    root_board: Board,
    root_color: Color,
    root_last: [Option<Point>; 2],
    /// The root's legal moves under the game's rules.
    root_moves: Vec<Point>,
    scoring: Scoring,
    tree: Tree,
    rng: Rng,
    board: Board,
    seq: Vec<(Point, Color)>,
    path: Vec<usize>,
    /// AMAF: who first played each point below the node being updated (0 nobody, 1 Black,
    /// 2 White), by point index.
    first: Vec<u8>,
    /// Ownership sums by point index.
    own: Vec<i32>,
    playouts: u32,
    /// This tree's share of [`MAX_NODES`].
    max_nodes: usize,
    /// What the root stands for, to know when the tree can be kept: the moves played to it,
    /// the start position's hash and the rules.
    history: Vec<(Color, Move)>,
    start_hash: u64,
    rules: tengen_rules::Rules,
}

impl Worker {
    fn new(game: &Game, color: Color, seed: u64) -> Worker {
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
    fn reuse(self, game: &Game, color: Color, seed: u64) -> Option<Worker> {
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

    fn run(&mut self, playouts: Option<u32>, deadline: Option<Instant>) {
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
    fn pv(&self, mut i: usize) -> Vec<Move> {
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

fn tree_move(m: TreeMove) -> Move {
    match m {
        TreeMove::Play(p) => Move::Play(p),
        TreeMove::Pass => Move::Pass,
    }
}

/// Points White gets for handicap stones under the area rules, which the playout's area count
/// does not know.
fn handicap_bonus(game: &Game) -> f32 {
    game.rules()
        .handicap_bonus
        .points(game.handicap_stones().len() as u32) as f32
}

/// Linear dynamic komi for handicap games (Pachi's `dynkomi=linear`): the playouts count as if
/// White received seven points a handicap stone more (on 19x19; a stone is worth less on a
/// smaller board, in proportion to its side), fading to nothing by the middle game.
/// White, far behind, then sees close games and plays solid moves instead of wild ones; Black,
/// far ahead, must keep winning by the handicap's worth and does not slacken. Even games: 0.
pub fn dynamic_komi(game: &Game) -> f32 {
    let stones = game.handicap_stones().len() as f32;
    if stones < 2.0 {
        return 0.0;
    }
    let size = game.size() as f32;
    // 200 moves on 19x19, about 45 on 9x9.
    let fade = (size * size * 0.55).max(1.0);
    let left = (1.0 - game.ply_count() as f32 / fade).max(0.0);
    7.0 * (size / 19.0).min(1.0) * stones * left
}

/// Sums the root statistics of the workers.
fn merge(workers: &[Worker], color: Color, elapsed: Duration) -> Analysis {
    let mut moves: Vec<MoveStats> = Vec::new();
    let mut playouts = 0;
    let cells = workers.first().map_or(0, |w| w.own.len());
    let mut own = vec![0i64; cells];
    for w in workers {
        playouts += w.playouts;
        for (o, x) in own.iter_mut().zip(&w.own) {
            *o += *x as i64;
        }
        for k in w.tree.children(0) {
            let n = &w.tree.nodes[k];
            let mv = tree_move(n.mv);
            let prior_value = if n.prior.n > 0.0 {
                n.prior.w / n.prior.n
            } else {
                0.5
            };
            match moves.iter_mut().find(|m| m.mv == mv) {
                Some(m) => {
                    let total = m.visits + n.visits;
                    if total > 0 {
                        m.winrate = (m.winrate * m.visits as f32 + n.wins) / total as f32;
                    }
                    if n.visits > m.visits {
                        m.pv = std::iter::once(mv).chain(w.pv(k)).collect();
                    }
                    m.visits = total;
                }
                None => moves.push(MoveStats {
                    mv,
                    visits: n.visits,
                    winrate: n.winrate().unwrap_or(n.value()),
                    prior: prior_value,
                    pv: std::iter::once(mv).chain(w.pv(k)).collect(),
                }),
            }
        }
    }
    // Most visited first; ties by win rate, then by the prior, so the order is fixed.
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
            .then(b.prior.total_cmp(&a.prior))
    });
    let ownership = own
        .iter()
        .map(|&o| {
            if playouts > 0 {
                o as f32 / playouts as f32
            } else {
                0.0
            }
        })
        .collect();
    Analysis {
        color,
        playouts,
        elapsed,
        moves,
        ownership,
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
