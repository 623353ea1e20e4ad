//! Monte Carlo tree search: selection by the blended own/AMAF value of [`crate::tree`], priors
//! from [`crate::priors`], heavy playouts from [`crate::playout`], and the decisions around it
//! (which move, when to pass, when to resign).
//!
//! Every thread searches the same tree ([`crate::tree`]: lock-free, with virtual loss), each
//! with its own board and seed. With one thread, a fixed playout count and a fixed seed, the
//! same position gives the same move; with more, the threads' timing shapes the tree.
//!
//! The root's children are the moves the game's rules allow (superko included), so the search
//! never chooses a forbidden move; below the root only the simple ko is checked, as playouts do.

use std::sync::atomic::AtomicU32;
use std::time::{Duration, Instant};

use tengen_rules::{Color, Game, GameEnd, Move, Point};

use crate::tree::{Stats, Tree, TreeMove};

mod worker;
use worker::{Root, Walker};

/// A node is expanded once this many playouts have passed through it (the root at once).
const EXPAND_AT: u32 = 8;

/// Nodes the tree may hold (48 bytes each): past it the tree stops growing and the search goes
/// on from its leaves, so a long analysis cannot exhaust memory.
const MAX_NODES: usize = 8_000_000;

/// How long and how wide to search.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Stop after this many playouts (all threads together).
    pub playouts: Option<u32>,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// Threads sharing the tree; 1 for reproducible searches.
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

/// What the search knows beside its statistics: the tactical reading its priors and playouts
/// do. The default is the engine's; the estimator keeps the knowledge it was measured with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knowledge {
    /// Read ladders before atari escapes and for ataris ([`crate::ladder`]).
    pub ladders: bool,
    /// Answer in playouts with the vital point of a small eye space ([`crate::nakade`]).
    pub nakade: bool,
}

impl Default for Knowledge {
    fn default() -> Knowledge {
        Knowledge {
            ladders: true,
            nakade: true,
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
/// level: `tengen gtp --level` and the server's `builtin:LEVEL` bots. The net's beginners'
/// levels 11 to 16 (below level 1) and 17 (between 1 and 2) play level 1's 100 where the net
/// does not play.
pub fn level_playouts(level: u8) -> u32 {
    if level > 10 {
        return 100;
    }
    100u32 << (level.clamp(1, 10) - 1)
}

/// A search that can be continued: GUIs' analysis (`lz-analyze`) runs it a slice at a time and
/// reports after each.
pub struct Search {
    root: Root,
    tree: Tree,
    walkers: Vec<Walker>,
    elapsed: Duration,
}

impl Search {
    /// A search of `game` for `color` on `threads` threads, seeded from `seed`.
    pub fn new(game: &Game, color: Color, threads: usize, seed: u64) -> Search {
        Search::with_knowledge(game, color, threads, seed, Knowledge::default())
    }

    /// [`Search::new`] with other tactical knowledge.
    pub fn with_knowledge(
        game: &Game,
        color: Color,
        threads: usize,
        seed: u64,
        knowledge: Knowledge,
    ) -> Search {
        Search::with_capacity(game, color, threads, seed, knowledge, MAX_NODES)
    }

    /// [`Search::with_knowledge`] with a tree of at most about `nodes` nodes.
    fn with_capacity(
        game: &Game,
        color: Color,
        threads: usize,
        seed: u64,
        knowledge: Knowledge,
        nodes: usize,
    ) -> Search {
        let root = Root::new(game, color, knowledge);
        let tree = Tree::new(color.opponent(), nodes);
        root.expand_root(&tree);
        Search::start(root, tree, threads, seed)
    }

    fn start(root: Root, tree: Tree, threads: usize, seed: u64) -> Search {
        let walkers = (0..threads.max(1))
            .map(|i| Walker::new(&root, seed.wrapping_add(i as u64)))
            .collect();
        Search {
            root,
            tree,
            walkers,
            elapsed: Duration::ZERO,
        }
    }

    /// Searches `playouts` more playouts (all threads together) or for `time`, whichever ends
    /// first (1,000 playouts when neither is given).
    pub fn run(&mut self, playouts: Option<u32>, time: Option<Duration>) {
        let start = Instant::now();
        let deadline = time.map(|t| start + t);
        let playouts = match (playouts, time) {
            (None, None) => Some(1000),
            (p, _) => p.map(|n| n.max(1)),
        };
        let started = AtomicU32::new(0);
        let (tree, root) = (&self.tree, &self.root);
        if let [w] = &mut self.walkers[..] {
            w.run(tree, root, playouts, &started, deadline);
        } else {
            std::thread::scope(|s| {
                for w in self.walkers.iter_mut() {
                    let started = &started;
                    s.spawn(move || w.run(tree, root, playouts, started, deadline));
                }
            });
        }
        self.elapsed += start.elapsed();
    }

    /// A search of `game` for `color` that keeps what `previous` learned below the moves
    /// played since its root (tree reuse), or a new one when there is nothing to keep: no
    /// previous search, other rules or start, a position it did not search, or set-up changes
    /// in the game.
    pub fn reuse(
        previous: Option<Search>,
        game: &Game,
        color: Color,
        threads: usize,
        seed: u64,
    ) -> Search {
        let Some(prev) = previous else {
            return Search::new(game, color, threads, seed);
        };
        if game.history().len() != game.ply_count() {
            return Search::new(game, color, threads, seed);
        }
        let Some(node) = worker::follow(&prev.tree, &prev.root, game, color) else {
            return Search::new(game, color, threads, seed);
        };
        let knowledge = Knowledge {
            ladders: prev.root.scoring.ladders,
            nakade: prev.root.scoring.nakade,
        };
        let root = Root::new(game, color, knowledge);
        let tree = Tree::new(color.opponent(), MAX_NODES);
        root.expand_root(&tree);
        // The root keeps its own playouts; AMAF counts mean nothing at a root.
        let old = prev.tree.node(node).stats();
        tree.node(0).keep_counts(&Stats {
            rave_visits: 0,
            rave_wins: 0.0,
            ..old
        });
        tree.graft(0, &prev.tree, node);
        drop(prev);
        Search::start(root, tree, threads, seed)
    }

    /// Playouts kept from earlier searches at the root (0 for a new search).
    pub fn reused(&self) -> u32 {
        self.tree.node(0).visits() - self.walkers.iter().map(|w| w.playouts).sum::<u32>()
    }

    /// What the search knows now.
    pub fn analysis(&self) -> Analysis {
        analysis(&self.tree, &self.walkers, self.root.color, self.elapsed)
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
    (judge(game, color, &a, style, (1000, 200)), a)
}

/// The decision after a search's analysis `a`: its best move, a pass, or a resignation, which
/// needs `enough.0` playouts in all and `enough.1` through the best move (the network's search
/// judges from fewer than the playouts do).
pub fn judge(
    game: &Game,
    color: Color,
    a: &Analysis,
    style: &Style,
    enough: (u32, u32),
) -> Decision {
    judged(game, color, a, style, enough, true)
}

/// [`judge`] for the network's full search: it never passes because the board looks settled
/// while its best move is a point. The net's ownership is what it expects after good play
/// (the move it wants to play included: a cut both sides must answer reads as owned), so a
/// board it reads as settled may still need that move; the search weighs the pass like any
/// other move and plays it when it is best. After the opponent's pass it still passes where
/// the count wins.
pub fn judge_search(
    game: &Game,
    color: Color,
    a: &Analysis,
    style: &Style,
    enough: (u32, u32),
) -> Decision {
    judged(game, color, a, style, enough, false)
}

/// [`judge`], with the pass on a settled board (`settled_pass`) or without it.
fn judged(
    game: &Game,
    color: Color,
    a: &Analysis,
    style: &Style,
    enough: (u32, u32),
    settled_pass: bool,
) -> Decision {
    let Some(best) = a.best().cloned() else {
        return Decision::Move(Move::Pass);
    };
    let first_capture = game.rules().end == GameEnd::FirstCapture;
    if let Some(limit) = style.resign_below {
        let enough = a.playouts >= enough.0 && best.visits >= enough.1;
        // Not in the opening, where a few hundred playouts judge noisily.
        let area = game.size() as usize * game.size() as usize;
        let late =
            game.ply_count() >= game.size() as usize || game.board().empty_count() * 4 < area * 3;
        if enough && late && best.winrate < limit && !first_capture {
            return Decision::Resign;
        }
    }
    if first_capture {
        return Decision::Move(best.mv);
    }
    let opponent_passed = matches!(game.moves().last(), Some((c, Move::Pass)) if c != color);
    // Pass when it does not lose: after the opponent's pass if the count now wins, or when
    // nothing is left to play (every empty point settled, no own chain in atari) and the
    // count wins. Never pass after the opponent's pass while behind.
    let settled = settled_pass && is_settled(game, color, a);
    if (opponent_passed || settled) && margin_if_passed(game, color, a) > 0.0 {
        return Decision::Move(Move::Pass);
    }
    Decision::Move(best.mv)
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
    let dead = crate::chains::dead_chains(board, |p| a.owner(p), -0.3, |_, _| false);
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

/// The root's moves from the tree, and the ownership the threads saw.
fn analysis(tree: &Tree, walkers: &[Walker], color: Color, elapsed: Duration) -> Analysis {
    let mut moves: Vec<MoveStats> = tree
        .children(0)
        .map(|k| {
            let n = tree.node(k);
            let s = n.stats();
            let mv = tree_move(s.mv);
            MoveStats {
                mv,
                visits: s.visits,
                winrate: s.winrate().unwrap_or(n.value()),
                prior: if s.prior.n > 0.0 {
                    s.prior.w / s.prior.n
                } else {
                    0.5
                },
                pv: std::iter::once(mv).chain(worker::pv(tree, k)).collect(),
            }
        })
        .collect();
    // Most visited first; ties by win rate, then by the prior, so the order is fixed.
    moves.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
            .then(b.prior.total_cmp(&a.prior))
    });
    let playouts: u32 = walkers.iter().map(|w| w.playouts).sum();
    let cells = walkers.first().map_or(0, |w| w.own.len());
    let mut own = vec![0i64; cells];
    for w in walkers {
        for (o, x) in own.iter_mut().zip(&w.own) {
            *o += *x as i64;
        }
    }
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

    /// A board the net reads as settled (every empty point owned) where Black leads: the
    /// Monte Carlo engine's judgement passes; the net's search plays its best move, which its
    /// ownership may already count on (a b18c384nbt game against KataGo passed in the middle
    /// of a fight this way, and lost).
    #[test]
    fn the_nets_search_plays_its_move_on_a_board_that_reads_settled() {
        let rows = [". . . . X O . . ."; 9];
        let b = crate::diagram::board(&rows);
        let g = Game::from_board(b, Color::Black, Preset::Chinese.rules(9)).unwrap();
        let mut ownership = vec![0.0; 1024];
        for p in g.board().points() {
            ownership[p.index()] = if p.col(9) <= 4 { 1.0 } else { -1.0 };
        }
        let a1 = tengen_rules::coord::gtp::parse_point(9, "A1").unwrap();
        let a = Analysis {
            color: Color::Black,
            playouts: 10,
            elapsed: Duration::ZERO,
            moves: vec![MoveStats {
                mv: Move::Play(a1),
                visits: 10,
                winrate: 0.9,
                prior: 0.5,
                pv: Vec::new(),
            }],
            ownership,
        };
        let style = Style { resign_below: None };
        assert!(is_settled(&g, Color::Black, &a));
        assert!(margin_if_passed(&g, Color::Black, &a) > 0.0);
        assert_eq!(
            judge(&g, Color::Black, &a, &style, (1, 1)),
            Decision::Move(Move::Pass)
        );
        assert_eq!(
            judge_search(&g, Color::Black, &a, &style, (1, 1)),
            Decision::Move(Move::Play(a1))
        );
    }

    #[test]
    fn a_tree_stops_growing_at_its_capacity_and_the_search_goes_on() {
        let g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let mut s = Search::with_capacity(&g, Color::Black, 1, 3, Knowledge::default(), 1);
        s.run(Some(8000), None);
        assert_eq!(s.analysis().playouts, 8000);
        // The smallest tree is one chunk of the arena: 16,384 nodes.
        assert!(s.tree.len() <= 16_384, "{}", s.tree.len());
        assert!(s.tree.len() > 15_000, "the tree grew to its capacity");
    }

    #[test]
    fn threads_share_one_tree_and_make_the_playouts_asked_for() {
        let g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let mut s = Search::new(&g, Color::Black, 2, 5);
        s.run(Some(3000), None);
        let a = s.analysis();
        assert_eq!(a.playouts, 3000);
        // Every playout went through the root and one of its moves; no virtual loss is left.
        let root = s.tree.node(0).stats();
        assert_eq!(root.visits, 3000);
        let below: u32 = a.moves.iter().map(|m| m.visits).sum();
        assert_eq!(below, 3000);
        for i in 0..s.tree.len() {
            assert_eq!(s.tree.node(i).virtual_loss(), 0, "node {i}");
        }
    }
}
