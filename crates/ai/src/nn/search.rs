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
//!   play urgency reduction of `0.2 * sqrt(policy mass already visited)` (0.1 at the root),
//!   the parent's value the net's own while little of the policy is visited, its average after.
//! - Threads ([`Puct::set_threads`]) share one tree behind a mutex, held only to walk down and
//!   to back up, never while the net runs. A walk marks its path with a virtual loss (a
//!   descent under way counts as a lost visit, as in KataGo and Leela Zero), so the next walk
//!   goes elsewhere; a walk that reaches a position another is evaluating gives up its turn.
//!   Each thread gathers up to `batch` leaves a walk at a time and evaluates them in one
//!   forward pass ([`Evaluator::evaluate_batch`]).
//! - Time: with a time budget the search stops early once the most visited move cannot be
//!   overtaken in the time left at the rate so far (Leela Zero's and KataGo's early stop);
//!   the clock is a [`Clock`], so tests run on a fake one.
//! - Tree reuse: [`Puct::reuse`] keeps the subtree of the moves played since the last search.
//! - Histories are extended a move at a time ([`History::extend`]), never replayed.
//!
//! With one thread, a batch of one and a fixed visit count and seed, a position gives the same
//! move every time (no virtual loss is ever seen then). The root's moves are those the game's
//! own rules allow; below it, KataGo's rules as the net is told them ([`History::is_legal`]). A
//! position where two passes ended the game is a leaf valued by the net, not by a count, except
//! at the root, where the game goes on (a controller resumed it).

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tengen_rules::playout::Rng;
use tengen_rules::{game::Step, Color, Game, Move, Point};

use super::{Evaluation, Evaluator, History, KataRules, NnError, CELLS};
use crate::search::{Analysis, MoveStats};

mod report;
pub use report::{MoveReport, Report, RootReport};

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
/// KataGo's `cpuctUtilityStdevPrior`, `cpuctUtilityStdevPriorWeight` and
/// `cpuctUtilityStdevScale` (its GTP defaults): exploration grows where a node's utilities
/// spread wide (a fight) and shrinks where they agree.
const STDEV_PRIOR: f64 = 0.40;
const STDEV_PRIOR_WEIGHT: f64 = 2.0;
const STDEV_SCALE: f64 = 0.85;
/// KataGo's `lcbStdevs` and `minVisitPropForLCB` for the move played (its GTP defaults): the
/// move whose utility's lower confidence bound is best, among those with at least this share
/// of the most visited move's visits.
const PLAY_LCB_STDEVS: f64 = 5.0;
const PLAY_LCB_MIN_SHARE: f64 = 0.15;
/// Visits when neither a count nor a time is given.
const DEFAULT_VISITS: u32 = 200;
/// What a descent under way counts as until it is backed up: the worst utility there is.
const VIRTUAL_LOSS: f64 = 1.0 + SCORE_UTILITY;

/// A move from a node: its prior and, once visited, the node it leads to.
#[derive(Clone, Debug)]
struct Edge {
    mv: Option<Point>,
    prior: f32,
    /// An index into the tree (32 bits: edges are most of the tree's memory).
    child: Option<u32>,
}

/// What one evaluation says of a position, from White's point of view.
#[derive(Clone, Copy, Debug, Default)]
struct Values {
    utility: f64,
    winloss: f64,
    lead: f64,
    /// The score self-play would end with, and its second moment (for its spread).
    score: f64,
    score_sq: f64,
}

impl Values {
    fn of(e: &Evaluation) -> Values {
        let wl = e.white_win - e.white_loss;
        let scale = SCORE_SCALE * e.size as f64;
        Values {
            utility: wl + SCORE_UTILITY * (e.white_lead / scale).tanh(),
            winloss: wl,
            lead: e.white_lead,
            score: e.white_score,
            score_sq: e.white_score_sq,
        }
    }
}

/// A position in the tree; its sums are from White's point of view.
#[derive(Clone, Debug)]
struct Node {
    to_move: Color,
    visits: u32,
    /// Descents through this node not yet backed up: the virtual losses other walks see.
    in_flight: u32,
    /// Sums of the values backed up through this node.
    sum: Values,
    /// Sum of the squared utilities (the spread behind the confidence bounds).
    utility_sq: f64,
    /// The net's values of this position; `None` until first evaluated.
    value: Option<Values>,
    /// Moves, best prior first; empty until evaluated, and always at the game's end.
    edges: Vec<Edge>,
}

impl Node {
    fn new(to_move: Color) -> Node {
        Node {
            to_move,
            visits: 0,
            in_flight: 0,
            sum: Values::default(),
            utility_sq: 0.0,
            value: None,
            edges: Vec::new(),
        }
    }

    /// The mean utility for `c`, once visited.
    fn mean_utility(&self, c: Color) -> Option<f64> {
        (self.visits > 0).then(|| sign(c) * self.sum.utility / self.visits as f64)
    }

    fn add(&mut self, v: &Values) {
        self.visits += 1;
        self.sum.utility += v.utility;
        self.sum.winloss += v.winloss;
        self.sum.lead += v.lead;
        self.sum.score += v.score;
        self.sum.score_sq += v.score_sq;
        self.utility_sq += v.utility * v.utility;
    }
}

fn sign(c: Color) -> f64 {
    match c {
        Color::White => 1.0,
        Color::Black => -1.0,
    }
}

/// Time as a search sees it, from the start of a [`Puct::run_with`]: the wall clock in play,
/// a fake one in tests (so that no test sleeps or depends on the machine's speed).
pub trait Clock: Sync {
    /// Time since the search started.
    fn elapsed(&self) -> Duration;
}

/// The wall clock.
pub struct WallClock(Instant);

impl WallClock {
    /// A clock that starts now.
    pub fn start() -> WallClock {
        WallClock(Instant::now())
    }
}

impl Clock for WallClock {
    fn elapsed(&self) -> Duration {
        self.0.elapsed()
    }
}

/// How long one [`Puct::run_with`] searches.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Visits to add (all threads together).
    pub visits: Option<u32>,
    /// Time to search.
    pub time: Option<Duration>,
    /// Stop once the most visited root move cannot be overtaken within `time` at the rate so
    /// far (a move to play: yes; an analysis: no, it wants every move's figures).
    pub stop_early: bool,
}

/// The tree and what its evaluations add up to.
struct Tree {
    nodes: Vec<Node>,
    /// The net's evaluation of the root (its ownership is the analysis's).
    root_eval: Option<Arc<Evaluation>>,
    /// Sums of White's ownership over this search's evaluations, and of its squares, one a
    /// point in the net's order (KataGo reports the tree's average, not the root's alone).
    ownership: Vec<f64>,
    ownership_sq: Vec<f64>,
    owned: u32,
    /// How much the spread of a node's utilities scales its exploration ([`stdev_factor`]).
    stdev_scale: f64,
    /// Whether the move played is [`lcb_pick`]'s (else the most visited).
    lcb: bool,
    /// KataGo's first play urgency from the net's view of the parent while little of its
    /// policy is visited (`fpuParentWeightByVisitedPolicy`); off for [`Puct::plain`].
    fpu_net_parent: bool,
}

impl Tree {
    fn new(color: Color) -> Tree {
        Tree {
            stdev_scale: STDEV_SCALE,
            lcb: true,
            fpu_net_parent: true,
            nodes: vec![Node::new(color)],
            root_eval: None,
            ownership: Vec::new(),
            ownership_sq: Vec::new(),
            owned: 0,
        }
    }

    /// The root's priors from `e`'s policy (the root's own evaluation), best first.
    fn root_priors(&mut self, e: &Evaluation) {
        let n = e.size;
        let root = &mut self.nodes[0];
        for edge in &mut root.edges {
            edge.prior = match edge.mv {
                Some(p) => {
                    let (x, y) = (p.col(n as u8) as usize, p.row(n as u8) as usize);
                    e.policy.get(y * n + x).copied().unwrap_or(0.0).max(0.0)
                }
                None => e.pass,
            };
        }
        root.edges.sort_by(|a, b| b.prior.total_cmp(&a.prior));
    }

    fn own(&mut self, e: &Evaluation) {
        if self.ownership.len() != e.white_ownership.len() {
            self.ownership = vec![0.0; e.white_ownership.len()];
            self.ownership_sq = vec![0.0; e.white_ownership.len()];
            self.owned = 0;
        }
        for (i, &o) in e.white_ownership.iter().enumerate() {
            self.ownership[i] += o as f64;
            self.ownership_sq[i] += (o * o) as f64;
        }
        self.owned += 1;
    }
}

/// The search of one position: its tree, its root history and its random symmetries.
pub struct Puct {
    tree: Tree,
    root: History,
    /// The root's game: start, moves and rules, to know what a later search can reuse.
    moves: Vec<(Color, Move)>,
    start_hash: u64,
    rules: tengen_rules::Rules,
    color: Color,
    rng: Rng,
    /// Search threads, and leaves each evaluates in one forward pass.
    threads: usize,
    batch: usize,
    visits: u32,
    reused: u32,
    elapsed: Duration,
}

/// What one walk down the tree found.
enum Leaf {
    /// A position to evaluate, reached along `path` (marked with virtual losses).
    New {
        path: Vec<usize>,
        history: Box<History>,
    },
    /// A finished game, valued already: backed up at once.
    Ended(Vec<usize>),
    /// A position another walk is evaluating.
    Busy,
}

/// What the threads share: the tree and the run's counts, behind one mutex.
struct Shared<'t> {
    tree: &'t mut Tree,
    /// Visits claimed (leaves taken), and backed up.
    claimed: u32,
    done: u32,
    /// Forward passes finished (for the time one takes).
    batches: u32,
    stop: bool,
}

/// What every thread of one run reads.
struct Run<'a> {
    eval: &'a Evaluator,
    game: &'a Game,
    root: &'a History,
    color: Color,
    visits: Option<u32>,
    limits: Limits,
    clock: &'a dyn Clock,
    batch: usize,
    threads: usize,
}

fn lock<'m, 't>(m: &'m Mutex<Shared<'t>>) -> MutexGuard<'m, Shared<'t>> {
    // A thread that panicked left counts, not a broken tree: carry on with them.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Puct {
    /// A new search of `game` for `color`, the net told `rules`, its symmetries drawn from
    /// `seed`; one thread, one leaf a forward pass.
    pub fn new(game: &Game, color: Color, rules: KataRules, seed: u64) -> Puct {
        let mut g = game.clone();
        g.set_to_move(color);
        let root = History::new(&g, rules);
        Puct {
            tree: Tree::new(color),
            root,
            moves: game.moves().collect(),
            start_hash: game.start().0.hash(),
            rules: *game.rules(),
            color,
            rng: Rng::new(seed),
            threads: 1,
            batch: 1,
            visits: 0,
            reused: 0,
            elapsed: Duration::ZERO,
        }
    }

    /// Searches on `threads` threads sharing the tree, each evaluating up to `batch` leaves in
    /// one forward pass (both at least 1). More than one of either gives up reproducibility.
    pub fn set_threads(&mut self, threads: usize, batch: usize) {
        self.threads = threads.max(1);
        self.batch = batch.max(1);
    }

    /// A search of `game` for `color` that keeps what `previous` learned below the moves played
    /// since its root, or a new one when nothing can be kept (other rules or start, set-up
    /// stones, a line it never visited). Threads and batch are `previous`'s.
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
        fresh.set_threads(prev.threads, prev.batch);
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
        let nodes = &prev.tree.nodes;
        let mut node = 0;
        for &(_, m) in &moves[prev.moves.len()..] {
            let p = match m {
                Move::Play(p) => Some(p),
                _ => None,
            };
            match nodes[node].edges.iter().find(|e| e.mv == p) {
                Some(Edge { child: Some(c), .. }) => node = *c as usize,
                _ => return fresh,
            }
        }
        // A game two passes ended has no moves in the tree: a root needs them, so search anew.
        let n = &nodes[node];
        if n.to_move != color || n.value.is_none() || n.edges.is_empty() {
            return fresh;
        }
        fresh.tree.nodes = copy_subtree(nodes, node);
        // The game's own rules decide the root's moves (superko of the game, not the net's).
        fresh.tree.nodes[0]
            .edges
            .retain(|e| root_legal(game, color, e.mv));
        fresh.reused = fresh.tree.nodes[0].visits;
        fresh
    }

    /// Searches as plain PUCT: no scaling of the exploration by the spread of the utilities
    /// (KataGo's `cpuctUtilityStdevScale` 0, its default outside play), the most visited
    /// move first, not the best lower bound, and the parent's average as its first play
    /// urgency. For the searches that read the tree rather than play from it, with figures
    /// measured on this search: the count's (its dead stones come from the averaged
    /// ownership) and the puzzles' check.
    pub fn plain(&mut self) {
        self.tree.stdev_scale = 0.0;
        self.tree.lcb = false;
        self.tree.fpu_net_parent = false;
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
        let limits = Limits {
            visits,
            time,
            stop_early: false,
        };
        self.run_with(eval, game, &limits, &WallClock::start())
    }

    /// Searches within `limits` by `clock` (200 visits when neither a count nor a time is
    /// given); the root is evaluated at least once.
    pub fn run_with(
        &mut self,
        eval: &Evaluator,
        game: &Game,
        limits: &Limits,
        clock: &dyn Clock,
    ) -> Result<(), NnError> {
        if self.tree.nodes[0].value.is_some() && self.tree.root_eval.is_none() {
            // A reused root: its evaluation (ownership) again, most likely from the cache.
            let symmetry = self.rng.below(8) as u8;
            let e = eval.evaluate(&self.root, symmetry)?;
            self.tree.own(&e);
            // Expanded below the old root, its moves had the optimistic priors: a root's are
            // the policy's (KataGo's `rootPolicyOptimism`).
            if !e.optimistic_policy.is_empty() {
                self.tree.root_priors(&e);
            }
            self.tree.root_eval = Some(e);
        }
        let run = Run {
            eval,
            game,
            root: &self.root,
            color: self.color,
            visits: match (limits.visits, limits.time) {
                (None, None) => Some(DEFAULT_VISITS),
                (v, _) => v.map(|n| n.max(1)),
            },
            limits: *limits,
            clock,
            batch: self.batch,
            threads: self.threads,
        };
        // Thread 0 draws from the search's own generator: one thread draws as it always did.
        let mut rngs: Vec<Rng> = (1..self.threads)
            .map(|_| Rng::new(self.rng.next_u64()))
            .collect();
        let shared = Mutex::new(Shared {
            tree: &mut self.tree,
            claimed: 0,
            done: 0,
            batches: 0,
            stop: false,
        });
        let backed_up = Condvar::new();
        let rng = &mut self.rng;
        let result = if rngs.is_empty() {
            work(&run, &shared, &backed_up, rng)
        } else {
            std::thread::scope(|s| {
                let (run, shared, backed_up) = (&run, &shared, &backed_up);
                let others: Vec<_> = rngs
                    .iter_mut()
                    .map(|r| s.spawn(move || work(run, shared, backed_up, r)))
                    .collect();
                let mine = work(run, shared, backed_up, rng);
                others
                    .into_iter()
                    .map(|h| {
                        h.join()
                            .unwrap_or(Err(NnError::Corrupt("a thread panicked".into())))
                    })
                    .fold(mine, |a, b| a.and(b))
            })
        };
        let done = lock(&shared).done;
        self.visits += done;
        self.elapsed += clock.elapsed();
        result
    }

    /// What the search found, in the Monte Carlo engine's terms (win rates for the player to
    /// move, ownership +1 Black), so that its decisions (pass, resign) apply unchanged.
    pub fn analysis(&self) -> Analysis {
        let nodes = &self.tree.nodes;
        let root = &nodes[0];
        let mut moves: Vec<MoveStats> = root
            .edges
            .iter()
            .map(|e| {
                let child = e.child.map(|k| &nodes[k as usize]);
                let visits = child.map_or(0, |k| k.visits);
                let winrate = match child {
                    Some(k) if k.visits > 0 => {
                        (sign(self.color) * k.sum.winloss / k.visits as f64 + 1.0) / 2.0
                    }
                    _ => 0.0,
                };
                let mv = to_move(e.mv);
                let mut pv = vec![mv];
                if let Some(k) = e.child {
                    pv.extend(self.pv(k as usize).into_iter().map(|(m, _)| m));
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
        // The move to play first: the best lower confidence bound, which is most often the
        // most visited move.
        if let Some(play) = self.lcb_move() {
            if let Some(i) = moves.iter().position(|m| m.mv == play) {
                let chosen = moves.remove(i);
                moves.insert(0, chosen);
            }
        }
        Analysis {
            color: self.color,
            playouts: self.visits + self.reused,
            elapsed: self.elapsed,
            moves,
            ownership: self.ownership(),
        }
    }

    /// The root move [`lcb_pick`] plays (`None` for a [`Puct::plain`] search).
    fn lcb_move(&self) -> Option<Move> {
        if !self.tree.lcb {
            return None;
        }
        let nodes = &self.tree.nodes;
        let s = sign(self.color);
        let stats: Vec<(u32, f64, f64)> = nodes[0]
            .edges
            .iter()
            .map(|e| match e.child.map(|k| &nodes[k as usize]) {
                Some(k) if k.visits > 0 => (
                    k.visits,
                    s * k.sum.utility / k.visits as f64,
                    report::radius_at(k, PLAY_LCB_STDEVS),
                ),
                _ => (0, 0.0, 0.0),
            })
            .collect();
        lcb_pick(&stats).map(|i| to_move(nodes[0].edges[i].mv))
    }

    /// The most visited line below `node`, with each move's visits.
    fn pv(&self, mut node: usize) -> Vec<(Move, u32)> {
        let nodes = &self.tree.nodes;
        let mut out = Vec::new();
        while out.len() < 30 {
            let best = nodes[node]
                .edges
                .iter()
                .filter_map(|e| {
                    e.child
                        .map(|k| (e.mv, k as usize, nodes[k as usize].visits))
                })
                .filter(|&(_, _, v)| v > 0)
                .max_by_key(|&(_, _, v)| v);
            let Some((mv, k, v)) = best else { break };
            out.push((to_move(mv), v));
            node = k;
        }
        out
    }

    /// The root evaluation's ownership, +1 Black, by [`Point::index`].
    fn ownership(&self) -> Vec<f32> {
        let mut out = vec![0.0; CELLS];
        if let Some(e) = &self.tree.root_eval {
            let n = e.size;
            for (i, &o) in e.white_ownership.iter().enumerate() {
                if let Some(p) = Point::new(n as u8, (i % n) as u8, (i / n) as u8) {
                    out[p.index()] = -o;
                }
            }
        }
        out
    }

    /// Visits of the root, kept ones included.
    pub fn root_visits(&self) -> u32 {
        self.tree.nodes[0].visits
    }

    /// True when the most visited root move stays the most visited through `more` visits,
    /// however they fall (the early stop of a search run in slices).
    pub fn decided(&self, more: f64) -> bool {
        self.tree.decided(more)
    }

    /// The root's average utility for the player to move (tests, logs).
    pub fn root_utility(&self) -> f64 {
        self.tree.nodes[0].mean_utility(self.color).unwrap_or(0.0)
    }

    /// The root's average lead for the player to move.
    pub fn root_lead(&self) -> f64 {
        let n = &self.tree.nodes[0];
        sign(self.color) * n.sum.lead / n.visits.max(1) as f64
    }
}

/// One thread's share of a run: gather leaves under the lock, evaluate them without it, back
/// them up under it, until the limits or another thread stop the run. A thread whose walks all
/// meet positions another is evaluating sleeps on `backed_up` until a backup changes the tree.
fn work(
    run: &Run,
    shared: &Mutex<Shared>,
    backed_up: &Condvar,
    rng: &mut Rng,
) -> Result<(), NnError> {
    loop {
        let leaves = {
            let mut s = lock(shared);
            loop {
                let leaves = s.gather(run);
                if !leaves.is_empty() {
                    break leaves;
                }
                if !s.may_claim(run) {
                    return Ok(());
                }
                // A walk met a leaf in evaluation, so the root has a walk under way: its
                // backup wakes this thread (the wait releases the lock, so none is missed).
                if s.tree.nodes[0].in_flight > 0 {
                    s = backed_up.wait(s).unwrap_or_else(|e| e.into_inner());
                }
            }
        };
        let items: Vec<(&History, u8)> = leaves
            .iter()
            .map(|(_, h)| (h, rng.below(8) as u8))
            .collect();
        let evals = run.eval.evaluate_batch(&items);
        let mut s = lock(shared);
        match evals {
            Ok(evals) => {
                for ((path, h), e) in leaves.iter().zip(evals) {
                    s.tree.finish(run, path, h, e);
                    s.done += 1;
                }
                s.batches += 1;
                if run.limits.stop_early && s.decided(run) {
                    s.stop = true;
                }
            }
            Err(e) => {
                s.abandon(&leaves);
                drop(s);
                backed_up.notify_all();
                return Err(e);
            }
        }
        drop(s);
        backed_up.notify_all();
    }
}

impl Shared<'_> {
    /// Whether another visit may start: the root not yet evaluated, or time and visits left.
    fn may_claim(&self, run: &Run) -> bool {
        let root = &self.tree.nodes[0];
        if self.stop {
            return false;
        }
        if root.value.is_none() && root.in_flight == 0 {
            return true;
        }
        let out_of_time = run.limits.time.is_some_and(|t| {
            let elapsed = run.clock.elapsed();
            elapsed + self.batch_time(run, elapsed) >= t
        });
        let enough = run.visits.is_some_and(|v| self.claimed >= v);
        !(self.stop || out_of_time || enough)
    }

    /// About how long a forward pass takes each thread, from the run so far: a batch that
    /// cannot finish before the time is up is not started, so a slow net (a large one on
    /// 19x19 takes more than half a second a pass) does not run past the clock.
    fn batch_time(&self, run: &Run, elapsed: Duration) -> Duration {
        match self.batches {
            0 => Duration::ZERO,
            n => elapsed * run.threads as u32 / n,
        }
    }

    /// Up to a batch of leaves to evaluate, their paths marked; finished games met on the way
    /// are backed up at once. Stops at the first walk that meets a leaf in evaluation.
    fn gather(&mut self, run: &Run) -> Vec<(Vec<usize>, History)> {
        let mut leaves = Vec::new();
        while leaves.len() < run.batch && self.may_claim(run) {
            match self.tree.descend(run.root) {
                Leaf::New { path, history } => {
                    self.claimed += 1;
                    leaves.push((path, *history));
                }
                Leaf::Ended(path) => {
                    self.claimed += 1;
                    self.done += 1;
                    let v = self.tree.nodes[*path.last().unwrap_or(&0)].value;
                    self.tree.backup(&path, &v.unwrap_or_default(), false);
                }
                Leaf::Busy => break,
            }
        }
        leaves
    }

    /// Takes the virtual losses of leaves that will not be evaluated back off.
    fn abandon(&mut self, leaves: &[(Vec<usize>, History)]) {
        for (path, _) in leaves {
            for &n in path {
                self.tree.nodes[n].in_flight -= 1;
            }
        }
        self.claimed -= leaves.len() as u32;
        self.stop = true;
    }

    /// True when the most visited root move cannot be overtaken in the time left, at the rate
    /// of visits so far (nor by the visits left, if a count is set too).
    fn decided(&self, run: &Run) -> bool {
        let Some(time) = run.limits.time else {
            return false;
        };
        let elapsed = run.clock.elapsed().as_secs_f64().max(1e-6);
        let rate = self.done as f64 / elapsed;
        let mut left = rate * (time.as_secs_f64() - elapsed).max(0.0);
        if let Some(v) = run.visits {
            left = left.min(v.saturating_sub(self.claimed) as f64);
        }
        self.tree.decided(left)
    }
}

impl Tree {
    /// True when the most visited root move stays the most visited through `more` visits,
    /// however they fall.
    fn decided(&self, more: f64) -> bool {
        let nodes = &self.nodes;
        let mut top = [0u32; 2];
        for e in &nodes[0].edges {
            let v = e.child.map_or(0, |k| nodes[k as usize].visits);
            if v > top[0] {
                top = [v, top[0]];
            } else if v > top[1] {
                top[1] = v;
            }
        }
        top[1] as f64 + more < top[0] as f64
    }

    /// One walk from the root by PUCT to a position not yet evaluated (or a finished game),
    /// extending the root's history move by move.
    fn descend(&mut self, root: &History) -> Leaf {
        let mut h = root.clone();
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
        let leaf = &self.nodes[node];
        match leaf.value {
            Some(_) => Leaf::Ended(path),
            None if leaf.in_flight > 0 => Leaf::Busy,
            None => {
                for &n in &path {
                    self.nodes[n].in_flight += 1;
                }
                Leaf::New {
                    path,
                    history: Box::new(h),
                }
            }
        }
    }

    /// A leaf's evaluation: its moves, its value, and the value backed up its path.
    fn finish(&mut self, run: &Run, path: &[usize], h: &History, e: Arc<Evaluation>) {
        let node = *path.last().unwrap_or(&0);
        self.expand(node, h, &e, run);
        let v = Values::of(&e);
        self.nodes[node].value = Some(v);
        self.own(&e);
        if node == 0 {
            self.root_eval = Some(e);
        }
        self.backup(path, &v, true);
    }

    /// Adds `v` to every node of `path`, taking its virtual losses off when it was marked.
    fn backup(&mut self, path: &[usize], v: &Values, marked: bool) {
        for &n in path {
            let n = &mut self.nodes[n];
            n.add(v);
            if marked {
                n.in_flight -= 1;
            }
        }
    }

    /// The node's moves from the policy, best first (none once two passes ended the game
    /// below the root; at the root the game goes on, as after GTP's clean-up `play`).
    fn expand(&mut self, node: usize, h: &History, e: &Evaluation, run: &Run) {
        if h.finished && node != 0 {
            return;
        }
        let n = e.size;
        let size = n as u8;
        // Below the root the optimistic policy, as KataGo's search (its `policyOptimism`).
        let (policy, pass) = match node != 0 && !e.optimistic_policy.is_empty() {
            true => (&e.optimistic_policy, e.optimistic_pass),
            false => (&e.policy, e.pass),
        };
        let mut edges: Vec<Edge> = policy
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
            prior: pass,
            child: None,
        });
        if node == 0 {
            edges.retain(|e| root_legal(run.game, run.color, e.mv));
        }
        edges.sort_by(|a, b| b.prior.total_cmp(&a.prior));
        self.nodes[node].edges = edges;
    }

    /// The edge PUCT picks at `node`, counting the walks under way as lost visits.
    fn select(&self, node: usize) -> usize {
        let n = &self.nodes[node];
        let c = n.to_move;
        let fpu = self.first_play_urgency(node);
        let total = (n.visits + n.in_flight) as f64;
        let cpuct = CPUCT + CPUCT_LOG * ((total + CPUCT_BASE) / CPUCT_BASE).ln();
        let explore = cpuct * (total - 1.0).max(0.01).sqrt() * stdev_factor(n, self.stdev_scale);
        let mut best = (0, f64::NEG_INFINITY);
        for (i, e) in n.edges.iter().enumerate() {
            let (q, visits) = match e.child.map(|k| &self.nodes[k as usize]) {
                Some(k) if k.visits + k.in_flight > 0 => {
                    let seen = k.visits + k.in_flight;
                    let u = sign(c) * k.sum.utility - k.in_flight as f64 * VIRTUAL_LOSS;
                    (u / seen as f64, seen)
                }
                _ => (fpu, 0),
            };
            let score = q + explore * e.prior as f64 / (1.0 + visits as f64);
            if score > best.1 {
                best = (i, score);
            }
        }
        best.0
    }
}

impl Tree {
    /// The value, for the player to move at `node`, of a move from it not yet visited: the
    /// parent's minus KataGo's reduction by the policy mass already visited. The parent's
    /// value is KataGo's `fpuParentWeightByVisitedPolicy` (on in play, power 2): the net's
    /// own view of the parent while the moves visited hold little of the policy, then its
    /// average (weight: that mass squared), so that one early line does not set the bar for
    /// all the others.
    fn first_play_urgency(&self, node: usize) -> f64 {
        let n = &self.nodes[node];
        let c = n.to_move;
        let average = n.mean_utility(c).unwrap_or(0.0);
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
        let own = match (self.fpu_net_parent, n.value) {
            (true, Some(v)) => sign(c) * v.utility,
            _ => average,
        };
        let weight = (explored * explored).min(1.0);
        weight * average + (1.0 - weight) * own - reduction * explored.sqrt()
    }
}

/// How much wider than usual a node explores, by the spread of the utilities backed up
/// through it (KataGo's `parentUtilityStdevFactor`): the sample's standard deviation, with a
/// prior of [`STDEV_PRIOR`] weighing [`STDEV_PRIOR_WEIGHT`] visits, against the prior.
fn stdev_factor(n: &Node, scale: f64) -> f64 {
    let w = n.visits as f64;
    let stdev = if w <= 1.0 {
        STDEV_PRIOR
    } else {
        let mean = n.sum.utility / w;
        let sq = (n.utility_sq / w).max(mean * mean);
        let prior = (mean * mean + STDEV_PRIOR * STDEV_PRIOR) * STDEV_PRIOR_WEIGHT;
        ((prior + sq * w) / (STDEV_PRIOR_WEIGHT + w - 1.0) - mean * mean)
            .max(0.0)
            .sqrt()
    };
    1.0 + scale * (stdev / STDEV_PRIOR - 1.0)
}

/// Of `(visits, mean utility for the mover, confidence radius)` a root move each, the one to
/// play (KataGo's `useLcbForSelection`): the best lower confidence bound among the moves with
/// at least [`PLAY_LCB_MIN_SHARE`] of the most visits; `None` when nothing was visited. A
/// move visited less than the most visited one is played only where the search is surer it
/// is better, not where a few lucky visits say so.
fn lcb_pick(moves: &[(u32, f64, f64)]) -> Option<usize> {
    let most = moves.iter().map(|m| m.0).max().filter(|&v| v > 0)?;
    moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.0 > 0 && m.0 as f64 >= PLAY_LCB_MIN_SHARE * most as f64)
        .max_by(|(_, a), (_, b)| (a.1 - a.2).total_cmp(&(b.1 - b.2)))
        .map(|(i, _)| i)
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
    fn the_move_played_has_the_best_lower_bound_among_the_well_visited() {
        // (visits, mean utility for the mover, radius)
        // The most visited, when no other is surer.
        assert_eq!(
            lcb_pick(&[(100, 0.2, 0.1), (40, 0.25, 0.2), (0, 0.0, 0.0)]),
            Some(0)
        );
        // A move with fewer visits but a better bound is played.
        assert_eq!(lcb_pick(&[(100, 0.1, 0.1), (40, 0.35, 0.15)]), Some(1));
        // Under 15% of the most visits, however good it looks.
        assert_eq!(lcb_pick(&[(100, 0.1, 0.1), (14, 0.9, 0.01)]), Some(0));
        assert_eq!(lcb_pick(&[(0, 0.0, 0.0), (0, 0.0, 0.0)]), None);
    }

    #[test]
    fn first_play_urgency_leans_on_the_nets_view_until_the_policy_is_explored() {
        let mut tree = Tree::new(Color::White);
        let value = Values {
            utility: 0.5,
            ..Values::default()
        };
        let mut child = Node::new(Color::Black);
        for _ in 0..9 {
            child.add(&Values {
                utility: -0.2,
                ..Values::default()
            });
        }
        tree.nodes.push(child);
        let root = &mut tree.nodes[0];
        root.value = Some(value);
        root.add(&value);
        for _ in 0..9 {
            root.add(&Values {
                utility: -0.2,
                ..Values::default()
            });
        }
        let edge = |prior: f32, child: Option<u32>| Edge {
            mv: None,
            prior,
            child,
        };
        // 30% of the policy visited: weight 0.09 on the average (-0.13), 0.91 on the net's 0.5.
        root.edges = vec![edge(0.3, Some(1)), edge(0.7, None)];
        let mean = (0.5 - 0.2 * 9.0) / 10.0;
        let want = 0.09 * mean + 0.91 * 0.5 - ROOT_FPU_REDUCTION * 0.3f64.sqrt();
        assert!((tree.first_play_urgency(0) - want).abs() < 1e-6);
        // All of it visited: the average alone; and a plain search's always.
        tree.nodes[0].edges = vec![edge(1.0, Some(1)), edge(0.0, None)];
        let want = mean - ROOT_FPU_REDUCTION;
        assert!((tree.first_play_urgency(0) - want).abs() < 1e-6);
        tree.nodes[0].edges = vec![edge(0.3, Some(1)), edge(0.7, None)];
        tree.fpu_net_parent = false;
        let want = mean - ROOT_FPU_REDUCTION * 0.3f64.sqrt();
        assert!((tree.first_play_urgency(0) - want).abs() < 1e-6);
    }

    #[test]
    fn exploration_widens_where_the_utilities_spread() {
        let mut quiet = Node::new(Color::Black);
        let mut fight = Node::new(Color::Black);
        // A fresh node explores as usual.
        assert_eq!(stdev_factor(&quiet, STDEV_SCALE), 1.0);
        for i in 0..50 {
            let v = |u: f64| Values {
                utility: u,
                ..Values::default()
            };
            quiet.add(&v(0.3));
            fight.add(&v(if i % 2 == 0 { 0.9 } else { -0.9 }));
        }
        assert!(stdev_factor(&quiet, STDEV_SCALE) < 0.5);
        assert!(stdev_factor(&fight, STDEV_SCALE) > 1.5);
        // Without the scaling (the count's searches), the usual exploration.
        assert_eq!(stdev_factor(&fight, 0.0), 1.0);
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

    /// Every evaluated position's visits are its own evaluation plus its children's (a
    /// finished game: all its own), and no virtual loss is left behind.
    fn assert_consistent(p: &Puct) {
        for (i, n) in p.tree.nodes.iter().enumerate() {
            assert_eq!(n.in_flight, 0, "node {i}");
            let below: u32 = n
                .edges
                .iter()
                .filter_map(|e| e.child)
                .map(|k| p.tree.nodes[k as usize].visits)
                .sum();
            match (n.value, n.edges.is_empty()) {
                (None, _) => assert_eq!(n.visits, 0, "node {i}"),
                (Some(_), true) => assert!(n.visits >= 1, "node {i}"),
                (Some(_), false) => assert_eq!(n.visits, 1 + below, "node {i}"),
            }
        }
    }

    /// A clock that moves on `step` each time it is read: the search's pace without a real
    /// clock.
    struct Ticks {
        step: Duration,
        reads: std::sync::atomic::AtomicU32,
    }

    impl Ticks {
        fn new(step_ms: u64) -> Ticks {
            Ticks {
                step: Duration::from_millis(step_ms),
                reads: std::sync::atomic::AtomicU32::new(0),
            }
        }
    }

    impl Clock for Ticks {
        fn elapsed(&self) -> Duration {
            let n = self
                .reads
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.step * n
        }
    }

    #[test]
    fn two_threads_share_one_tree_and_make_the_visits_asked() {
        let eval = evaluator();
        let g = Game::new(9, Preset::Japanese.rules(9), Handicap::None).unwrap();
        for (threads, batch) in [(2, 1), (2, 4), (1, 4)] {
            let mut p = Puct::new(&g, Color::Black, kata(&g), 7);
            p.set_threads(threads, batch);
            p.run(&eval, &g, Some(96), None).unwrap();
            assert_consistent(&p);
            assert_eq!(
                p.tree.nodes[0].visits, 96,
                "{threads} threads, batch {batch}"
            );
            let a = p.analysis();
            assert_eq!(a.playouts, 96);
            assert!(g.check(Color::Black, a.best().unwrap().mv).is_ok());
            // Virtual losses spread the walks: more than one root move was tried.
            assert!(a.moves.iter().filter(|m| m.visits > 0).count() > 1);
            // A second run on the same tree adds exactly its visits.
            p.run(&eval, &g, Some(20), None).unwrap();
            assert_consistent(&p);
            assert_eq!(p.tree.nodes[0].visits, 116);
        }
    }

    #[test]
    fn threads_play_legal_games_with_tree_reuse() {
        let eval = evaluator();
        let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let rules = kata(&g);
        let mut tree: Option<Puct> = None;
        for i in 0..12 {
            let c = g.to_move();
            let mut p = match tree.take() {
                Some(t) => Puct::reuse(Some(t), &g, c, rules, i),
                None => {
                    let mut p = Puct::new(&g, c, rules, i);
                    p.set_threads(2, 2);
                    p
                }
            };
            assert_eq!((p.threads, p.batch), (2, 2));
            let kept = p.reused();
            p.run(&eval, &g, Some(24), None).unwrap();
            assert_eq!(p.analysis().playouts, kept + 24);
            let mv = p.analysis().best().unwrap().mv;
            g.play(c, mv).unwrap();
            tree = Some(p);
            if g.phase() != tengen_rules::Phase::Play {
                break;
            }
        }
    }

    #[test]
    fn a_batch_on_one_thread_is_reproducible() {
        let eval = evaluator();
        let g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let run = || {
            let mut p = Puct::new(&g, Color::Black, kata(&g), 5);
            p.set_threads(1, 8);
            p.run(&eval, &g, Some(64), None).unwrap();
            assert_consistent(&p);
            p.analysis().moves
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn the_clock_ends_a_search_and_a_decided_one_ends_sooner() {
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
        let eval = evaluator();
        let search = |stop_early: bool| {
            let mut p = Puct::new(&g, Color::Black, kata(&g), 1);
            let limits = Limits {
                visits: None,
                time: Some(Duration::from_secs(1)),
                stop_early,
            };
            // 10 ms a reading of the clock, read about once a visit: about a hundred visits.
            p.run_with(&eval, &g, &limits, &Ticks::new(10)).unwrap();
            assert_consistent(&p);
            p.analysis()
        };
        let full = search(false);
        assert!(
            full.playouts > 20 && full.playouts < 300,
            "{}",
            full.playouts
        );
        let early = search(true);
        assert!(
            early.playouts < full.playouts,
            "{} {}",
            early.playouts,
            full.playouts
        );
        let e3 = Move::Play(at(g.board(), "E3"));
        assert_eq!(
            (full.best().unwrap().mv, early.best().unwrap().mv),
            (e3, e3)
        );
        // Stopped with the best move far ahead of the next.
        let (b, s) = (early.moves[0].visits, early.moves[1].visits);
        assert!(b > 4 * s, "{b} {s}");
    }

    /// A clock that moves on `step` for each forward pass the evaluator has run: a net
    /// slower than the time a move has.
    struct Passes<'e> {
        eval: &'e Evaluator,
        step: Duration,
    }

    impl Clock for Passes<'_> {
        fn elapsed(&self) -> Duration {
            self.step * self.eval.evaluated() as u32
        }
    }

    /// Issue 40: a pass of a large net on 19x19 takes most of a second. A search with a second
    /// to think and 400 ms a pass runs two passes (done at 800 ms), not a third that would end
    /// at 1.2 s, past the clock.
    #[test]
    fn a_pass_that_cannot_finish_in_time_is_not_started() {
        let g = chinese(&[". . . . . . . . ."; 9], Color::Black);
        let eval = Evaluator::without_cache(Model::builtin().unwrap());
        let clock = Passes {
            eval: &eval,
            step: Duration::from_millis(400),
        };
        let mut p = Puct::new(&g, Color::Black, kata(&g), 1);
        let limits = Limits {
            visits: None,
            time: Some(Duration::from_secs(1)),
            stop_early: false,
        };
        p.run_with(&eval, &g, &limits, &clock).unwrap();
        assert_eq!(eval.evaluated(), 2);
        assert!(clock.elapsed() <= Duration::from_secs(1));
    }

    #[test]
    fn a_report_is_for_the_player_to_move_best_first() {
        let eval = evaluator();
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
        for color in [Color::Black, Color::White] {
            let g = chinese(&rows, color);
            let mut p = Puct::new(&g, color, kata(&g), 2);
            p.run(&eval, &g, Some(80), None).unwrap();
            let r = p.report();
            assert_eq!(
                (r.size, r.ownership.len(), r.ownership_stdev.len()),
                (9, 81, 81)
            );
            assert_eq!(r.root.visits, 80);
            assert!(r.moves.windows(2).all(|w| w[0].visits >= w[1].visits));
            let best = &r.moves[0];
            assert_eq!(best.mv, Move::Play(at(g.board(), "E3")));
            assert!(best.lcb <= best.winrate && best.utility_lcb <= best.utility);
            assert_eq!(best.pv.len(), best.pv_visits.len());
            assert_eq!(best.pv_visits[0], best.visits);
            assert!(best.pv_visits.windows(2).all(|w| w[0] > w[1]));
            // Win rates and leads are the player to move's, as the analysis's.
            let a = p.analysis();
            assert!((best.winrate - a.moves[0].winrate as f64).abs() < 1e-6);
            assert_eq!(r.root.lead > 0.0, p.root_lead() > 0.0);
            // So is ownership: D5, a black stone (row 4 from the top, column 3), is Black's.
            let d5 = r.ownership[4 * 9 + 3];
            let black = if color == Color::Black { d5 } else { -d5 };
            assert!(black > 0.5, "{color:?}: {d5}");
            assert!(r.ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
        }
    }

    /// Regression: after two passes (the game resumed, as GTP controllers do for clean-up) the
    /// root had no moves, so the engine could only pass, and an analysis showed nothing.
    #[test]
    fn a_game_resumed_after_two_passes_has_moves() {
        let eval = evaluator();
        let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let rules = kata(&g);
        let mut p = Puct::new(&g, Color::Black, rules, 1);
        p.run(&eval, &g, Some(30), None).unwrap();
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
        let _ = g.resume();
        for mut q in [
            Puct::new(&g, Color::Black, rules, 2),
            Puct::reuse(Some(p), &g, Color::Black, rules, 2),
        ] {
            q.run(&eval, &g, Some(30), None).unwrap();
            let a = q.analysis();
            assert!(a.moves.iter().filter(|m| m.visits > 0).count() > 1, "{a:?}");
            assert!(g.check(Color::Black, a.best().unwrap().mv).is_ok());
        }
    }
}
