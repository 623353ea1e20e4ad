//! The estimator: who owns each point, which chains are alive, dead or in seki, which of those
//! calls it is unsure of, and the count that follows.
//!
//! What is certain comes first. Chains that are pass-alive (Benson's algorithm, in the rules
//! crate) are alive, and the opponent's stones inside their eye regions are dead, whatever
//! anyone plays. The rest is judged, where the network applies (every rule set but First
//! Capture, boards 5x5 to 13x13; `net.rs`), by KataGo's ownership head: the mean of the 8
//! symmetries, once with Black to move and once with White, in one batch. A chain's
//! ownership is then the mean of its stones' from its own side; it is dead below zero, and
//! sure when both evaluations put it at least [`NET`]'s margin from zero. (KataGo's own
//! analysis averages symmetries the same way; OGS's and Sabaki's estimators mark dead stones
//! from such ownership.) Elsewhere, or with [`Settings::network`] off, the engine's search
//! judges them, run twice with a fixed seed and
//! playout count on one thread: once with Black to move and once with White, so a chain that
//! lives or dies depending on who plays first shows up as such instead of being settled by
//! whoever the record says is to move. A chain's *ownership* is the mean, over its stones and
//! over the playouts of both searches, of who owns them at the end (+1 its own colour, -1 the
//! opponent's). It is dead when that mean is below a small margin above zero, and the call is
//! *sure* only when both searches agree by a clear margin. Both searches play for a komi that
//! makes the game even (found by a short probe search), so that the tree fights over what
//! decides the game instead of trying moves at random in a game already decided.
//!
//! Two corrections follow (on the network's calls too), for what playouts misjudge the same way
//! however many they make.
//! A chain shut in by surely living opponent chains, in a region of a few points, has its
//! fight read out move by move (`local.rs`): dead when it is captured whoever moves first,
//! alive when its opponent moving first cannot capture it (a false seki, where one side can
//! approach or sacrifice into a dead shape, and a nakade, come out right this way). And a
//! single stone that can be taken only as a ko next to its owner's living chains is alive, as
//! players count it. Chains left standing that share liberties neither side can fill are in
//! seki (the rules crate's test, on the board with the dead stones taken off).
//!
//! The count is the rules' own count with the dead stones removed. Its uncertainty is the
//! range of counts over the unsure chains taken as dead or alive, to Black's worst and to
//! Black's best: when both ends name the same winner, the winner is sure.
//!
//! Deterministic: the same position and rules give the same estimate on every run, whatever
//! thread count the caller's engine uses. Under rules where every stone on the board is alive
//! (Tromp-Taylor) nothing is searched.
//!
//! Sources: Benson (1976) for unconditional life; Pachi's ownermap (Baudis 2011) for judging
//! groups by the playouts' final owners; KataGo's score estimates for reporting ownership and
//! doubt rather than a bare verdict.

mod light;
mod local;
mod net;

pub use crate::chains::dead_chains;
pub use light::{ownership, Ownership};

use tengen_rules::benson::unconditional_life;
use tengen_rules::scoring::{score as count, seki_chains};
use tengen_rules::{
    Board, Color, DeadStones, Game, GameResult, Komi, Point, PointSet, Score, SuicideRule,
};

use crate::nn::Evaluator;
use crate::search::{Knowledge, Search};

/// Where a chain's mean ownership (from its own side, -1 to 1) puts it.
#[derive(Clone, Copy)]
struct Margins {
    /// A chain is sure only when, with either side to move, its mean ownership is at least
    /// this far from zero.
    sure: f32,
    /// A chain counts as alive only when its mean ownership is at least this.
    alive_bias: f32,
}

/// The playouts' margins. A chain captured in nearly half the playouts is in more trouble
/// than one that survives nearly all of them: measured on the OGS records of `BENCHMARKS.md`
/// (biases 0, 0.05, 0.1, 0.15, 0.2 tried; 0.1 gave the fewest wrong winners).
const PLAYOUTS: Margins = Margins {
    sure: 0.5,
    alive_bias: 0.1,
};

/// The network's margins: its ownership is a prediction, not a tally of random games, and
/// needs no bias.
const NET: Margins = Margins {
    sure: 0.5,
    alive_bias: 0.0,
};

/// How much the estimator searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Playouts of each of the two searches (Black first, White first); the probe that finds
    /// the even komi makes a quarter as many.
    pub playouts: u32,
    /// Seed of the probe; the two searches use the next two.
    pub seed: u64,
    /// Judge by the network's ownership where it applies ([`net`]), the playouts elsewhere.
    pub network: bool,
    /// Visits of the network's search with each colour to move; 0 judges by the net's
    /// evaluations of the position alone.
    pub visits: u32,
}

impl Settings {
    /// The default for a board of side `size`: enough playouts that a finished game's dead
    /// stones are found, few enough that scoring a game takes a fraction of a second.
    pub fn for_size(size: u8) -> Settings {
        let playouts = match size {
            0..=9 => 400,
            10..=13 => 600,
            _ => 800,
        };
        Settings {
            playouts,
            seed: 1,
            network: true,
            visits: 0,
        }
    }

    /// The settings of a count: as [`Settings::for_size`], with the network's ownership from
    /// a search of [`COUNT_VISITS`] with each colour to move instead of one evaluation.
    pub fn for_count(size: u8) -> Settings {
        Settings {
            visits: COUNT_VISITS,
            ..Settings::for_size(size)
        }
    }
}

/// Visits of each of a count's two searches. On GNU Go's 13x13 regression records (190 with a
/// counted result, BENCHMARKS.md) 64 visits read 180 exact and 2 unsure where one evaluation
/// read 178 and 4: a 25-stone White group dead in Black's lower area (`kgs/GNU-tadf.sgf`) was
/// unsure, and counted W's way by its owner, by the evaluation alone.
pub const COUNT_VISITS: u32 = 64;

/// What a chain is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// It stays on the board and counts.
    Alive,
    /// It is taken off before the count.
    Dead,
    /// Alive, sharing liberties with an opposing chain that neither side can fill.
    Seki,
}

impl Status {
    /// The word GTP's `final_status_list` uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Alive => "alive",
            Status::Dead => "dead",
            Status::Seki => "seki",
        }
    }
}

/// The estimate of one chain.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Its colour.
    pub color: Color,
    /// Its stones.
    pub stones: Vec<Point>,
    /// Alive, dead or seki.
    pub status: Status,
    /// How sure the call is, 0.5 (a coin toss) to 1 (certain).
    pub confidence: f32,
    /// False when the call could well be wrong: the searches disagree, or are not clear.
    pub sure: bool,
}

/// The estimate of a position.
#[derive(Clone, Debug)]
pub struct Estimate {
    ownership: Vec<f32>,
    /// Every chain on the board, in board order of its first stone.
    pub groups: Vec<Group>,
    /// Stones of dead chains.
    pub dead: PointSet,
    /// Stones of chains whose status is unsure.
    pub unsure: PointSet,
    /// The count with [`Estimate::dead`] taken off.
    pub score: Score,
    /// Black's count minus White's, in points.
    pub lead: f32,
    /// The lead with every unsure chain taken to Black's worst and to Black's best.
    pub lead_range: (f32, f32),
    /// Black's chance of winning by the network's search with the side to move, when one ran
    /// ([`Settings::visits`]).
    pub black_winrate: Option<f32>,
}

impl Estimate {
    /// Ownership of `p`, +1 Black to -1 White.
    pub fn owner(&self, p: Point) -> f32 {
        self.ownership.get(p.index()).copied().unwrap_or(0.0)
    }

    /// The result of the count.
    pub fn result(&self) -> GameResult {
        self.score.result
    }

    /// True when the winner is the same whichever way the unsure chains go.
    pub fn winner_sure(&self) -> bool {
        let sign = |x: f32| (x > 0.0) as i8 - (x < 0.0) as i8;
        sign(self.lead_range.0) == sign(self.lead) && sign(self.lead_range.1) == sign(self.lead)
    }

    /// The chain of the stone on `p`, if any.
    pub fn group_at(&self, p: Point) -> Option<&Group> {
        self.groups.iter().find(|g| g.stones.contains(&p))
    }

    /// Stones of the chains with `status`.
    pub fn stones(&self, status: Status) -> PointSet {
        stones_where(&self.groups, |g| g.status == status)
    }

    /// Stones of the chains surely dead: what a server may mark dead before the players look.
    pub fn sure_dead(&self) -> PointSet {
        stones_where(&self.groups, |g| g.status == Status::Dead && g.sure)
    }
}

/// Estimates `game`'s current position under its rules with the default settings for its size,
/// with the process's shared net ([`crate::Engine::shared`]; a server holds its own
/// [`crate::Engine`]).
pub fn estimate(game: &Game) -> Estimate {
    estimate_with(game, &Settings::for_size(game.size()))
}

/// Judges `game`'s position for a count ([`Settings::for_count`]): the dead stones a server
/// proposes and GTP's `final_status_list` and `final_score` report, and the engine's verdict on
/// a disputed group. With the process's shared net, as [`estimate`].
pub fn count_estimate(game: &Game) -> Estimate {
    estimate_with(game, &Settings::for_count(game.size()))
}

/// Estimates `game`'s current position under its rules, with the process's shared net.
pub fn estimate_with(game: &Game, settings: &Settings) -> Estimate {
    estimate_by(crate::nn::builtin().as_deref(), game, settings)
}

/// Estimates `game`'s current position under its rules, judging by `net`'s ownership where it
/// applies and `settings.network` asks for it (the playouts elsewhere, and with no net).
pub fn estimate_by(net: Option<&Evaluator>, game: &Game, settings: &Settings) -> Estimate {
    let board = game.board();
    let rules = game.rules();
    let chains = crate::chains::chains_of(board);
    let cells = cells_of(board);
    let mut ownership = vec![0.0f32; cells];
    let mut groups: Vec<Group> = Vec::with_capacity(chains.len());

    if rules.dead_stones == DeadStones::NoneRemoved {
        // Every stone stands; each empty region is its surrounding colour's, or nobody's.
        let s = count(board, &PointSet::new(), rules, handicap(game));
        for p in board.points() {
            ownership[p.index()] = match board.get(p) {
                Some(c) => sign(c),
                None if s.black_territory.contains(p) => 1.0,
                None if s.white_territory.contains(p) => -1.0,
                None => 0.0,
            };
        }
        for (c, stones) in chains {
            groups.push(Group {
                color: c,
                stones,
                status: Status::Alive,
                confidence: 1.0,
                sure: true,
            });
        }
        return finish(game, ownership, groups);
    }

    // What is certain: pass-alive chains, and the opponent's stones in their eye regions.
    let suicide = rules.suicide != SuicideRule::Illegal;
    let life = [
        unconditional_life(board, Color::Black, suicide),
        unconditional_life(board, Color::White, suicide),
    ];
    let certain = |c: Color, p: Point| -> Option<Status> {
        if life[c.index()].alive.contains(p) {
            Some(Status::Alive)
        } else if life[c.opponent().index()].territory.contains(p) {
            Some(Status::Dead)
        } else {
            None
        }
    };

    // The rest: two searches, Black first and White first.
    let open = chains.iter().any(|(c, s)| certain(*c, s[0]).is_none())
        || board.points().any(|p| {
            board.get(p).is_none()
                && !life[0].territory.contains(p)
                && !life[1].territory.contains(p)
        });
    let mut first = [vec![0.0f32; cells], vec![0.0f32; cells]];
    let mut black_winrate = None;
    let eval = net.filter(|_| open && settings.network);
    let by_net = match eval {
        Some(eval) if settings.visits > 0 => {
            net::searched(eval, game, cells, settings.visits, settings.seed).map(|s| {
                black_winrate = Some(s.black_winrate);
                s.ownership
            })
        }
        Some(eval) => net::ownership(eval, game, cells),
        None => None,
    };
    let margins = if by_net.is_some() { NET } else { PLAYOUTS };
    if let Some(own) = by_net {
        first = own;
    } else if open {
        // The searches play for a komi that makes the game even: with the game's komi a
        // decided game gives every move the same value, and the tree then tries moves at
        // random; at an even komi the side whose chain is at stake fights for it.
        let probe = search_ownership(
            game,
            Color::Black,
            settings.playouts / 4,
            None,
            settings.seed,
        );
        // Half a point off the expected area difference, so that no playout is a draw.
        let komi = Komi::from_halves(probe.iter().sum::<f32>().round() as i32 * 2 + 1);
        for (i, c) in [Color::Black, Color::White].into_iter().enumerate() {
            first[i] = search_ownership(
                game,
                c,
                settings.playouts,
                Some(komi),
                settings.seed + 1 + i as u64,
            );
        }
    }
    for p in board.points() {
        let i = p.index();
        ownership[i] = if life[0].alive.contains(p) || life[0].territory.contains(p) {
            1.0
        } else if life[1].alive.contains(p) || life[1].territory.contains(p) {
            -1.0
        } else {
            (first[0][i] + first[1][i]) / 2.0
        };
    }

    // Chains that die in both searches, but by less than a clear margin.
    let mut doubtful_dead = Vec::new();
    for (c, stones) in chains {
        if let Some(status) = certain(c, stones[0]) {
            groups.push(Group {
                color: c,
                stones,
                status,
                confidence: 1.0,
                sure: true,
            });
            continue;
        }
        let mean = |own: &[f32]| {
            stones.iter().map(|s| own[s.index()]).sum::<f32>() * sign(c) / stones.len() as f32
        };
        let (b, w) = (mean(&first[0]), mean(&first[1]));
        let m = (b + w) / 2.0 - margins.alive_bias;
        let sure = b.signum() == w.signum() && b.abs().min(w.abs()) >= margins.sure;
        if !sure && b.max(w) < -margins.sure / 2.0 {
            doubtful_dead.push(groups.len());
        }
        groups.push(Group {
            color: c,
            stones,
            status: if m < 0.0 { Status::Dead } else { Status::Alive },
            confidence: ((1.0 + m.abs()) / 2.0).min(1.0),
            sure,
        });
    }
    // Small fights shut in by surely living stones are read out rather than left to the
    // playouts.
    let settled: Vec<bool> = groups
        .iter()
        .map(|g| certain(g.color, g.stones[0]).is_some())
        .collect();
    for (i, dead) in read_enclosed(board, &groups, &settled) {
        let g = &mut groups[i];
        g.status = if dead { Status::Dead } else { Status::Alive };
        g.sure = true;
        g.confidence = 1.0;
    }
    // A stone that can be captured only by taking a ko next to its own living chains is not
    // dead at the end of a game: its owner retakes or connects. The playouts, which know no
    // ko threats, lose it.
    for i in ko_protected(board, &groups) {
        let g = &mut groups[i];
        g.status = Status::Alive;
        g.sure = true;
    }
    // A chain that dies in both searches (by half the margin) is surely dead when everything
    // around it is surely alive: it is shut in, and its owner moving first did not save it. (In open areas the
    // playouts let a lone stone live now and then, which blurs its ownership but not this.)
    for i in doubtful_dead {
        if enclosed_by_sure_life(board, &groups, &groups[i]) {
            groups[i].sure = true;
        }
    }
    let mut e = finish(game, ownership, groups);
    e.black_winrate = black_winrate;
    e
}

/// Most empty points a region may hold for its fight to be read out.
const READ_EMPTY: usize = 10;

/// Most points, stones included, a region may hold for its fight to be read out. Without this
/// bound a fight whose walls are short of liberties grows until it takes in the whole board,
/// where reading a seki out to the end is no longer the players' view of the position.
/// (On the OGS records of `BENCHMARKS.md`, 20 and 40 gave the same counts.)
const READ_POINTS: usize = 30;

/// The chains whose fight [`local`] reads out, each with the answer (true: dead). A chain
/// qualifies when it is not `certain` already and the region it reaches without crossing a
/// surely living opponent chain (a *wall*) holds a few empty points at most. It is dead when it
/// is captured whoever moves first, alive when its opponent moving first cannot capture it;
/// a chain that lives only if its owner moves first keeps the searches' call.
fn read_enclosed(board: &Board, groups: &[Group], certain: &[bool]) -> Vec<(usize, bool)> {
    let mut chain_of = vec![usize::MAX; cells_of(board)];
    for (i, g) in groups.iter().enumerate() {
        for s in &g.stones {
            chain_of[s.index()] = i;
        }
    }
    let mut out = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        if certain[i] {
            continue; // pass-alive, or in a pass-alive chain's eye
        }
        let Some(points) = fight_region(board, groups, &chain_of, g) else {
            continue;
        };
        let target = g.stones[0];
        let captured = local::captured_moving_first(board, target, &points);
        if captured == Some(false) {
            out.push((i, false));
        } else if captured == Some(true)
            && local::captured_defending_first(board, target, &points) == Some(true)
        {
            out.push((i, true));
        }
    }
    out
}

/// The points of `g`'s fight: what it reaches without crossing a wall, and the walls' stones
/// (which may be captured and then played on). `None` when the region is too large to read,
/// or not shut in. Moves are read inside the region only, so a wall must not be put in atari
/// from inside: a surely living opponent chain with fewer than two liberties outside the
/// region is part of the fight, not a wall.
fn fight_region(
    board: &Board,
    groups: &[Group],
    chain_of: &[usize],
    g: &Group,
) -> Option<Vec<Point>> {
    let mut fighting: Vec<usize> = Vec::new();
    loop {
        let is_wall = |p: Point| {
            board.get(p) == Some(g.color.opponent()) && {
                let i = chain_of[p.index()];
                let h = &groups[i];
                h.sure && h.status == Status::Alive && !fighting.contains(&i)
            }
        };
        let mut inside = PointSet::new();
        let mut region = Vec::new();
        let mut walls: Vec<usize> = Vec::new();
        let mut stack = vec![g.stones[0]];
        inside.insert(g.stones[0]);
        let mut empty = 0;
        while let Some(p) = stack.pop() {
            region.push(p);
            empty += board.is_empty(p) as usize;
            if empty > READ_EMPTY || region.len() > READ_POINTS {
                return None;
            }
            for n in board.neighbors(p) {
                if inside.contains(n) {
                    continue;
                }
                if is_wall(n) {
                    let w = chain_of[n.index()];
                    if !walls.contains(&w) {
                        walls.push(w);
                    }
                } else {
                    inside.insert(n);
                    stack.push(n);
                }
            }
        }
        if walls.is_empty() {
            return None;
        }
        let weak: Vec<usize> = walls
            .iter()
            .copied()
            .filter(|&w| {
                let libs = board.liberties(groups[w].stones[0]);
                libs.iter().filter(|&&l| !inside.contains(l)).count() < 2
            })
            .collect();
        if weak.is_empty() {
            for &w in &walls {
                region.extend(groups[w].stones.iter().copied());
            }
            return Some(region);
        }
        fighting.extend(weak);
    }
}

/// The single stones called dead whose only liberty is a point where the capture would be a
/// ko: every other neighbour of that point is a stone of the same colour in a surely living
/// chain, so the capturing stone would stand in atari, to be taken back.
fn ko_protected(board: &Board, groups: &[Group]) -> Vec<usize> {
    let alive_at = |p: Point, c: Color| {
        groups
            .iter()
            .any(|h| h.color == c && h.sure && h.status == Status::Alive && h.stones.contains(&p))
    };
    let mut out = Vec::new();
    for (i, g) in groups.iter().enumerate() {
        // Confidence 1: certain, or read out by [`read_enclosed`], which knows kos.
        if g.status != Status::Dead || g.stones.len() != 1 || g.confidence >= 1.0 {
            continue;
        }
        let stone = g.stones[0];
        let libs = board.liberties(stone);
        let [l] = libs[..] else { continue };
        let guarded = board
            .neighbors(l)
            .filter(|&n| n != stone)
            .all(|n| board.get(n) == Some(g.color) && alive_at(n, g.color));
        if guarded {
            out.push(i);
        }
    }
    out
}

/// True when every opponent chain that borders the area `g` can reach (through empty points
/// and stones of its own colour) is surely alive.
fn enclosed_by_sure_life(board: &Board, groups: &[Group], g: &Group) -> bool {
    let mut seen = PointSet::new();
    let mut stack: Vec<Point> = g.stones.clone();
    g.stones.iter().for_each(|&s| {
        seen.insert(s);
    });
    let mut borders = PointSet::new();
    while let Some(p) = stack.pop() {
        for n in board.neighbors(p) {
            if seen.contains(n) {
                continue;
            }
            seen.insert(n);
            if board.get(n) == Some(g.color.opponent()) {
                borders.insert(n);
            } else {
                stack.push(n);
            }
        }
    }
    !borders.is_empty()
        && borders.iter().all(|p| {
            groups
                .iter()
                .find(|h| h.stones.contains(&p))
                .is_some_and(|h| h.sure && h.status == Status::Alive)
        })
}

/// Marks seki, counts, and bounds the count over the unsure chains.
fn finish(game: &Game, ownership: Vec<f32>, mut groups: Vec<Group>) -> Estimate {
    let board = game.board();
    let rules = game.rules();
    let dead = stones_where(&groups, |g| g.status == Status::Dead);
    if rules.dead_stones != DeadStones::NoneRemoved {
        let mut cleared = board.clone();
        let removals: Vec<(Point, Option<Color>)> = dead.iter().map(|p| (p, None)).collect();
        // Taking stones off never leaves a chain without liberties.
        let _ = cleared.setup(&removals);
        let seki = seki_chains(&cleared);
        for g in groups.iter_mut() {
            if g.status == Status::Alive && seki.contains(g.stones[0]) {
                g.status = Status::Seki;
            }
        }
    }
    let unsure = stones_where(&groups, |g| !g.sure);
    let h = handicap(game);
    let score = count(board, &dead, rules, h);
    let lead = lead_of(&score);
    let lead_range = if unsure.is_empty() {
        (lead, lead)
    } else {
        // Black's worst: every unsure Black chain dead, every unsure White chain alive.
        let dead_if = |unsure_color: Color| {
            stones_where(&groups, move |g| {
                if g.sure {
                    g.status == Status::Dead
                } else {
                    g.color == unsure_color
                }
            })
        };
        let (worst, best) = (dead_if(Color::Black), dead_if(Color::White));
        let a = lead_of(&count(board, &worst, rules, h));
        let b = lead_of(&count(board, &best, rules, h));
        (a.min(b).min(lead), a.max(b).max(lead))
    };
    Estimate {
        ownership,
        groups,
        dead,
        unsure,
        score,
        lead,
        lead_range,
        black_winrate: None,
    }
}

/// The stones of the groups that `pred` picks.
fn stones_where(groups: &[Group], pred: impl Fn(&Group) -> bool) -> PointSet {
    let mut out = PointSet::new();
    for g in groups.iter().filter(|g| pred(g)) {
        g.stones.iter().for_each(|&s| {
            out.insert(s);
        });
    }
    out
}

/// Ownership at the end of the playouts of a search with `color` to move, playing for `komi`
/// (`None`: the game's, with any handicap compensation).
fn search_ownership(
    game: &Game,
    color: Color,
    playouts: u32,
    komi: Option<Komi>,
    seed: u64,
) -> Vec<f32> {
    // A fresh game from the position: the record may have ended (two passes), and the
    // search's playouts count handicap compensation only through komi.
    let mut rules = *game.rules();
    let bonus = rules.handicap_bonus.points(handicap(game)) as i32;
    rules.komi = komi.unwrap_or(Komi::from_halves(rules.komi.halves() + 2 * bonus));
    let Ok(g) = Game::from_board(game.board().clone(), color, rules) else {
        return vec![0.0; cells_of(game.board())];
    };
    // The knowledge the estimator was measured with: reading ladders in its playouts moved
    // the OGS 9x9 set from 383 right winners to 382 and the exact counts from 378 to 376
    // (BENCHMARKS.md, ninth session), so the estimator's searches do without the reading
    // added since.
    let knowledge = Knowledge {
        ladders: false,
        nakade: false,
    };
    let mut search = Search::with_knowledge(&g, color, 1, seed, knowledge);
    search.run(Some(playouts.max(1)), None);
    let mut own = search.analysis().ownership;
    own.resize(cells_of(game.board()), 0.0);
    own
}

/// Length of a vector indexed by [`Point::index`] on `board`.
fn cells_of(board: &Board) -> usize {
    board.points().map(|p| p.index()).max().unwrap_or(0) + 1
}

fn handicap(game: &Game) -> u32 {
    game.handicap_stones().len() as u32
}

fn sign(c: Color) -> f32 {
    match c {
        Color::Black => 1.0,
        Color::White => -1.0,
    }
}

fn lead_of(s: &Score) -> f32 {
    (s.black.total_halves() - s.white.total_halves()) as f32 / 2.0
}
