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

use tengen_rules::{Color, Game, GameEnd, Move, Point};

use crate::tree::TreeMove;

mod worker;
use worker::Worker;

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

/// Playouts a move at a strength level, 1 (a beginner: 100) to 10 (51,200), doubling each
/// level: `tengen gtp --level` and the server's `builtin:LEVEL` bots.
pub fn level_playouts(level: u8) -> u32 {
    100u32 << (level.clamp(1, 10) - 1)
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
    // Under Tromp-Taylor the count takes no dead set anyway.
    let dead = crate::estimate::dead_chains(board, |p| a.owner(p), -0.3, |_, _| false);
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

pub(super) fn tree_move(m: TreeMove) -> Move {
    match m {
        TreeMove::Play(p) => Move::Play(p),
        TreeMove::Pass => Move::Pass,
    }
}

/// Points White gets for handicap stones under the area rules, which the playout's area count
/// does not know.
pub(super) fn handicap_bonus(game: &Game) -> f32 {
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
