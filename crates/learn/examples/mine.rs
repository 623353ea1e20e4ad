//! The puzzle miner: self-play by the built-in net on 7x7 and 9x9 boards, from fixed seeds,
//! and every position where one move decides the fate of a group turned into a puzzle with
//! its solution tree, checked as `tests/puzzles.rs` checks it. Writes `beginner.sgf`,
//! `intermediate.sgf` and `advanced.sgf` (by level) into the directory given.
//!
//! ```text
//! cargo run --release -p tengen-learn --example mine -- DIR COUNT FIRST_SEED
//! cargo run --release -p tengen-learn --example mine -- relevel OUT_DIR IN_DIR...
//! ```
//!
//! (`docs/lessons.md` gives the runs that made `learn/puzzles`.)
//!
//! A game: each move drawn from the raw policy (moves under 2% left out), so that both sides
//! err as players do and groups come into danger. At each position the net's six likeliest
//! moves are tried; a position is a puzzle when exactly one of them keeps the marked group
//! (ownership of a chain swings from one side to the other) and the check's search plays it.
//! The defence's answers come from a search of [`REPLY_VISITS`]; the solution goes on while
//! the learner's next move is again the only one (up to three moves). The level comes from
//! the policy's prior of the first right move (a move the net sees at once is easy) and the
//! line's length; `relevel` merges several runs and spreads the levels from 25k to 2d by
//! difficulty.

#[path = "../tests/net/mod.rs"]
mod net;

use std::collections::HashSet;
use std::fmt::Write as _;

use tengen_ai::nn::search::Puct;
use tengen_ai::nn::{Evaluation, Evaluator, History, Model};
use tengen_learn::{Kind, Level};
use tengen_rules::coord::sgf;
use tengen_rules::playout::Rng;
use tengen_rules::{Color, Game, Handicap, Move, Point, Preset};

/// Visits of the search that finds the defence's answer to a try.
const REPLY_VISITS: u32 = 24;
/// Candidate moves tried at each position (the policy's likeliest).
const CANDIDATES: usize = 6;
/// A candidate's least prior.
const LEAST_PRIOR: f32 = 0.02;
/// The margin the miner asks of the target's ownership (the check asks less, so that a
/// machine whose floats differ in the last bits still passes every puzzle).
const MARGIN: f64 = 0.5;
/// Right moves in a line, at most.
const DEPTH: usize = 3;

/// A try of the solution tree: the move, the defence's answer, and the learner's next tries.
struct Try {
    mv: Move,
    right: bool,
    reply: Option<Move>,
    next: Vec<Try>,
}

/// A mined puzzle.
struct Mined {
    id: String,
    level: Level,
    kind: Kind,
    game: Game,
    learner: Color,
    targets: Vec<Point>,
    tries: Vec<Try>,
}

fn main() {
    let mut args = std::env::args().skip(1);
    if std::env::args().nth(1).as_deref() == Some("relevel") {
        let all: Vec<String> = args.skip(1).collect();
        let Some((out, inputs)) = all.split_first() else {
            eprintln!("mine relevel OUT_DIR IN_DIR...");
            return;
        };
        relevel(out, inputs);
        return;
    }
    let dir = args.next().unwrap_or_else(|| "learn/puzzles".into());
    let wanted: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(330);
    let first: u64 = args.next().and_then(|n| n.parse().ok()).unwrap_or(0);
    let eval = Evaluator::new(Model::builtin().expect("the built-in net"));
    let mut found: Vec<Mined> = Vec::new();
    let mut seen = HashSet::new();
    for seed in first.. {
        if found.len() >= wanted {
            break;
        }
        let size = if seed % 3 == 0 { 7 } else { 9 };
        let before = found.len();
        self_play(&eval, size, seed, &mut seen, &mut found);
        eprintln!(
            "game {seed} ({size}x{size}): {} puzzles, {} in all",
            found.len() - before,
            found.len()
        );
        if found.len() / 25 != before / 25 {
            write_files(&dir, &found);
        }
    }
    write_files(&dir, &found);
}

/// One game of self-play from `seed`; each puzzle position found goes into `found`.
fn self_play(
    eval: &Evaluator,
    size: u8,
    seed: u64,
    seen: &mut HashSet<(u64, Color)>,
    found: &mut Vec<Mined>,
) {
    let rules = Preset::Chinese.rules(size);
    let Ok(mut game) = Game::new(size, rules, Handicap::None) else {
        return;
    };
    let mut rng = Rng::new(seed);
    let max_plies = size as usize * size as usize;
    let mut last_found = 0;
    while game.ply_count() < max_plies && game.consecutive_passes() < 2 {
        let c = game.to_move();
        let Ok(e) = eval.evaluate(&History::new(&game, net::kata_rules(&game)), 0) else {
            return;
        };
        let ply = game.ply_count();
        if ply >= 6 && ply >= last_found + 3 && seen.insert((game.board().hash(), c)) {
            let id = format!("{size}-{seed:04}-{ply:03}");
            if let Some(m) = examine(eval, &game, c, &e, id) {
                last_found = ply;
                found.push(m);
            }
        }
        let mv = sample(&e, &game, &mut rng);
        if game.play(c, mv).is_err() {
            return;
        }
    }
}

/// A move drawn from the policy (moves under [`LEAST_PRIOR`] left out); a pass when none.
fn sample(e: &Evaluation, game: &Game, rng: &mut Rng) -> Move {
    let moves = candidates(e, game, usize::MAX);
    let total: f32 = moves.iter().map(|m| m.1).sum();
    let mut x = (rng.below(1 << 20) as f32 / (1 << 20) as f32) * total;
    for (p, prior) in &moves {
        if x < *prior {
            return Move::Play(*p);
        }
        x -= prior;
    }
    Move::Pass
}

/// The legal points with a prior of [`LEAST_PRIOR`] or more, likeliest first, at most `n`.
fn candidates(e: &Evaluation, game: &Game, n: usize) -> Vec<(Point, f32)> {
    let size = game.size();
    let mut out: Vec<(Point, f32)> = game
        .legal_points()
        .into_iter()
        .filter_map(|p| {
            let i = p.row(size) as usize * size as usize + p.col(size) as usize;
            let prior = *e.policy.get(i)?;
            (prior >= LEAST_PRIOR).then_some((p, prior))
        })
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out.truncate(n);
    out
}

/// The puzzle at `game` (taken as a set-up position, `c` to move), if it is one.
fn examine(eval: &Evaluator, played: &Game, c: Color, e: &Evaluation, id: String) -> Option<Mined> {
    let game = Game::from_board(played.board().clone(), c, *played.rules()).ok()?;
    let moves = candidates(e, &game, CANDIDATES);
    if moves.len() < 2 {
        return None;
    }
    // The screen, on raw evaluations: a chain whose ownership one move turns.
    let owned: Vec<Vec<f32>> = moves
        .iter()
        .map(|&(p, _)| ownership(eval, &net::after(&game, &[(c, Move::Play(p))]).ok()?))
        .collect::<Option<_>>()?;
    let turning = turning_chains(&game, c, &owned);
    let targets = turning.first()?.clone();
    let (tries, depth) = solve(eval, &game, c, &targets, DEPTH)?;
    if tries.iter().all(|t| t.right) {
        return None; // nothing tempting to refute: not a puzzle
    }
    let prior = moves
        .iter()
        .find(|m| Some(Move::Play(m.0)) == tries.iter().find(|t| t.right).map(|t| t.mv))?
        .1;
    let stones = game.board().stone_count(Color::Black) + game.board().stone_count(Color::White);
    let level = level(prior, depth, stones);
    let kind = kind(&game, c, &targets, &turning);
    let mined = Mined {
        id,
        level,
        kind,
        game,
        learner: c,
        targets,
        tries,
    };
    // The check the test makes, with the miner's wider margin, on the puzzle as written.
    let written = tengen_learn::puzzle::read("mined", &puzzle_sgf(&mined)).ok()?;
    net::verify_with(eval, written.first()?, MARGIN).ok()?;
    Some(mined)
}

/// White's ownership (+1 White) by point index after a raw evaluation of `game`.
fn ownership(eval: &Evaluator, game: &Game) -> Option<Vec<f32>> {
    let e = eval
        .evaluate(&History::new(game, net::kata_rules(game)), 0)
        .ok()?;
    Some(e.white_ownership.clone())
}

/// The largest target a puzzle marks: a bigger group is the whole board's fate, not a
/// local problem.
const MOST_STONES: usize = 12;

/// The chains (of at most [`MOST_STONES`]) whose ownership, from `c`'s side, is `c`'s after
/// one candidate and the opponent's after every other: the stones at stake.
fn turning_chains(game: &Game, c: Color, owned: &[Vec<f32>]) -> Vec<Vec<Point>> {
    let b = game.board();
    let n = game.size() as usize;
    let sign = if c == Color::Black { -1.0 } else { 1.0 };
    let mean = |o: &[f32], chain: &[Point]| {
        chain
            .iter()
            .map(|p| sign * o[p.row(n as u8) as usize * n + p.col(n as u8) as usize] as f64)
            .sum::<f64>()
            / chain.len() as f64
    };
    let mut out = Vec::new();
    let mut done = HashSet::new();
    for p in b.points() {
        if b.get(p).is_none() || !done.insert(b.chain_id(p)) {
            continue;
        }
        let chain = b.chain_stones(p);
        let scores: Vec<f64> = owned.iter().map(|o| mean(o, &chain)).collect();
        let top = scores.iter().copied().fold(f64::MIN, f64::max);
        let keeps = scores.iter().filter(|&&s| s > -MARGIN).count();
        if top >= MARGIN && keeps == 1 && chain.len() <= MOST_STONES {
            out.push(chain);
        }
    }
    out.sort_by_key(|c| std::cmp::Reverse(c.len()));
    out
}

/// The solution tree at `game` for `c`: the only right move, the defence's answers, and the
/// wrong tries with their refutations, `depth` right moves deep at most; with the number of
/// right moves in the main line. None when the position is not a puzzle.
fn solve(
    eval: &Evaluator,
    game: &Game,
    c: Color,
    targets: &[Point],
    depth: usize,
) -> Option<(Vec<Try>, usize)> {
    let e = eval
        .evaluate(&History::new(game, net::kata_rules(game)), 0)
        .ok()?;
    let moves = candidates(&e, game, CANDIDATES);
    let (best, share) = net::best_move(eval, game, c).ok()?;
    if share < 0.4 || !moves.iter().any(|m| Move::Play(m.0) == best) {
        return None;
    }
    let mut tries = Vec::new();
    let mut main_line = None;
    for (p, _) in moves {
        let mv = Move::Play(p);
        let g = net::after(game, &[(c, mv)]).ok()?;
        let reply = defence(eval, &g, c.opponent())?;
        let line = net::after(&g, &[(c.opponent(), reply)]).ok()?;
        let score = net::target_score(eval, &line, c, targets).ok()?;
        let right = mv == best;
        if (right && score < MARGIN) || (!right && score > -MARGIN) {
            return None;
        }
        if right {
            main_line = Some((tries.len(), reply, line));
        }
        tries.push(Try {
            mv,
            right,
            reply: (!right).then_some(reply),
            next: Vec::new(),
        });
    }
    let (i, reply, line) = main_line?;
    // The line goes on when the learner's next move is again the only one.
    if depth > 1 {
        if let Some((next, d)) = solve(eval, &line, c, targets, depth - 1) {
            tries[i].reply = Some(reply);
            tries[i].next = next;
            return Some((tries, d + 1));
        }
    }
    Some((tries, 1))
}

/// The defence's answer: the most visited move of a search for `c` (a pass when none).
fn defence(eval: &Evaluator, game: &Game, c: Color) -> Option<Move> {
    let mut search = Puct::new(game, c, net::kata_rules(game), net::CHECK_SEED);
    search.run(eval, game, Some(REPLY_VISITS), None).ok()?;
    let a = search.analysis();
    let mv = a.best().map_or(Move::Pass, |b| b.mv);
    game.clone().play(c, mv).ok()?;
    Some(mv)
}

/// A level from the prior of the first right move, the line's length and the stones on the
/// board: a move the net's policy plays at once (prior 0.9) in a bare corner is about 24 kyu,
/// one it gives 20% about 10 kyu; each further right move three levels more, each ten stones
/// one more.
fn level(prior: f32, depth: usize, stones: usize) -> Level {
    let n = 5.0
        + -(prior.max(1e-4) as f64).ln() * 9.0
        + 3.0 * (depth as f64 - 1.0)
        + stones as f64 / 10.0;
    Level::new(n.round().clamp(5.0, 32.0) as u8).unwrap_or(Level::new(20).expect("a level"))
}

/// What the puzzle asks: a race when a chain of the other colour next to the target is at
/// stake too, a capture (tesuji) when the target is the opponent's and short of liberties,
/// else life and death.
fn kind(game: &Game, c: Color, targets: &[Point], turning: &[Vec<Point>]) -> Kind {
    let b = game.board();
    let Some(&t) = targets.first() else {
        return Kind::Life;
    };
    let touches = |chain: &Vec<Point>| {
        b.get(chain[0]) != b.get(t)
            && chain
                .iter()
                .any(|&p| b.neighbors(p).any(|q| targets.contains(&q)))
    };
    if turning.iter().any(touches) {
        Kind::Race
    } else if b.get(t) != Some(c) && b.liberty_count(t) <= 2 {
        Kind::Tesuji
    } else {
        Kind::Life
    }
}

/// The question in four languages: what to do to the marked stones.
fn prompt(kind: Kind, learner: Color, theirs: bool) -> [String; 4] {
    let (en, ko, ja, zh) = match learner {
        Color::Black => ("Black", "흑", "黒", "黑"),
        Color::White => ("White", "백", "白", "白"),
    };
    let [a, b, c, d] = match (kind, theirs) {
        (Kind::Race, false) => [
            "win the capturing race: save the marked stones.",
            "수상전에서 이겨 표시된 돌을 살리세요.",
            "攻め合いに勝って印の石を助けてください。",
            "赢得对杀，救出标记的棋子。",
        ],
        (Kind::Race, true) => [
            "win the capturing race against the marked stones.",
            "표시된 돌과의 수상전에서 이기세요.",
            "印の石との攻め合いに勝ってください。",
            "在对杀中吃掉标记的棋子。",
        ],
        (Kind::Tesuji, _) => [
            "capture the marked stones.",
            "표시된 돌을 잡으세요.",
            "印の石を取ってください。",
            "吃掉标记的棋子。",
        ],
        (Kind::Life, true) => [
            "kill the marked stones.",
            "표시된 돌을 잡으세요 (죽이세요).",
            "印の石を殺してください。",
            "杀死标记的棋子。",
        ],
        (Kind::Life, false) => [
            "save the marked stones.",
            "표시된 돌을 살리세요.",
            "印の石を生きてください。",
            "救活标记的棋子。",
        ],
    };
    [
        format!("{en} to play: {a}"),
        format!("{ko} 차례: {b}"),
        format!("{ja}番：{c}"),
        format!("{zh}先：{d}"),
    ]
}

/// The files, by level band.
const BANDS: [(&str, std::ops::RangeInclusive<u8>); 3] = [
    ("beginner", 0..=14),
    ("intermediate", 15..=24),
    ("advanced", 25..=Level::TOP),
];

/// The levels every puzzle gets, weakest first: 25 kyu to 2 dan.
const LEVELS: std::ops::RangeInclusive<u8> = 5..=31;

/// Merges the puzzles of several runs (`inputs`, each a directory of band files) into `out`,
/// leaving out those without a wrong try, and levels them by rank: each puzzle's difficulty is scored ([`difficulty`]) and the
/// puzzles, easiest first, are spread evenly over [`LEVELS`]. The net's policy sees most
/// tactics at once, so a level from the prior alone crowds them into a few kyu ranks; their
/// order is what it knows. The Glicko-2 ratings then move with the learners' attempts.
fn relevel(out: &str, inputs: &[String]) {
    let eval = Evaluator::new(Model::builtin().expect("the built-in net"));
    let mut scored: Vec<(f64, String, String)> = Vec::new();
    for dir in inputs {
        for (name, _) in BANDS {
            let text = std::fs::read_to_string(format!("{dir}/{name}.sgf")).unwrap_or_default();
            for block in text.split("\n(;GM").filter(|b| !b.trim().is_empty()) {
                let block = match block.strip_prefix("(;GM") {
                    Some(_) => block.to_string(),
                    None => format!("(;GM{block}"),
                };
                let block = if block.ends_with('\n') {
                    block
                } else {
                    format!("{block}\n")
                };
                let Some(p) = tengen_learn::puzzle::read("in", &block)
                    .ok()
                    .and_then(|v| v.into_iter().next())
                else {
                    eprintln!("{dir}/{name}: a block does not read");
                    continue;
                };
                // A puzzle is a choice: one without a refuted wrong try teaches nothing of why.
                if p.step.answers.iter().all(|a| a.right) {
                    continue;
                }
                let block = reworded(&block, &p);
                scored.push((difficulty(&eval, &p), p.id.clone(), block));
            }
        }
    }
    scored.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    let n = scored.len().max(1);
    let span = (LEVELS.end() - LEVELS.start() + 1) as usize;
    let mut leveled: Vec<(u8, String, String)> = scored
        .into_iter()
        .enumerate()
        .map(|(i, (_, id, block))| {
            let level = LEVELS.start() + (i * span / n) as u8;
            let at = block.find("LV[").unwrap_or(0);
            let end = block[at..].find(']').map_or(at, |e| at + e + 1);
            let name = Level::new(level).map_or("20k".to_string(), |l| l.to_string());
            let block = format!("{}LV[{name}]{}", &block[..at], &block[end..]);
            (level, id, block)
        })
        .collect();
    leveled.sort();
    for (name, band) in BANDS {
        let text: String = leveled
            .iter()
            .filter(|(l, _, _)| band.contains(l))
            .map(|(_, _, b)| b.as_str())
            .collect();
        if let Err(e) = std::fs::write(format!("{out}/{name}.sgf"), text) {
            eprintln!("{out}/{name}.sgf: {e}");
        }
    }
}

/// The puzzle's text with its question written again from its kind and marked stones (a
/// run's words may predate a wording).
fn reworded(block: &str, p: &tengen_learn::Puzzle) -> String {
    let b = p.step.start.board();
    let theirs = p
        .step
        .targets
        .first()
        .is_some_and(|&t| b.get(t) != Some(p.step.learner));
    let [en, ko, ja, zh] = prompt(p.kind, p.step.learner, theirs);
    match (block.find("\nC["), block.find("]TR[")) {
        (Some(a), Some(z)) if a < z => format!(
            "{}\nC[{en}]CKO[{ko}]CJA[{ja}]CZH[{zh}]TR[{}",
            &block[..a],
            &block[z + 4..]
        ),
        _ => block.to_string(),
    }
}

/// How hard a puzzle is: how little the net's policy expects the first right move, how many
/// right moves the line asks, how many tempting wrong tries it lists, how full the board is.
fn difficulty(eval: &Evaluator, p: &tengen_learn::Puzzle) -> f64 {
    let game = &p.step.start;
    let size = game.size() as usize;
    let prior = p
        .step
        .answers
        .iter()
        .find(|a| a.right)
        .and_then(|a| match a.mv {
            Move::Play(pt) => Some(pt),
            _ => None,
        })
        .and_then(|pt| {
            let e = eval
                .evaluate(&History::new(game, net::kata_rules(game)), 0)
                .ok()?;
            e.policy
                .get(pt.row(size as u8) as usize * size + pt.col(size as u8) as usize)
                .copied()
        })
        .unwrap_or(0.5);
    let mut depth = 0;
    let mut tries = &p.step.answers;
    while let Some(r) = tries
        .iter()
        .find(|a| a.right)
        .and_then(|a| a.reply.as_ref())
    {
        depth += 1;
        tries = &r.next;
    }
    let wrong = p.step.answers.iter().filter(|a| !a.right).count();
    let stones = game.board().stone_count(Color::Black) + game.board().stone_count(Color::White);
    -(prior.max(1e-4) as f64).ln() + 0.7 * depth as f64 + 0.1 * wrong as f64 + stones as f64 / 40.0
}

/// The puzzles as SGF files by level band.
fn write_files(dir: &str, found: &[Mined]) {
    for (name, band) in BANDS {
        let mut text = String::new();
        let mut band_puzzles: Vec<&Mined> = found
            .iter()
            .filter(|m| band.contains(&m.level.number()))
            .collect();
        band_puzzles.sort_by_key(|m| (m.level, m.id.clone()));
        for m in band_puzzles {
            text.push_str(&puzzle_sgf(m));
        }
        let path = format!("{dir}/{name}.sgf");
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("{path}: {e}");
        }
    }
}

fn puzzle_sgf(m: &Mined) -> String {
    let size = m.game.size();
    let b = m.game.board();
    let point = |p: Point| sgf::format_point(size, p);
    let stones = |c: Color| -> String {
        b.points()
            .filter(|&p| b.get(p) == Some(c))
            .map(|p| format!("[{}]", point(p)))
            .collect()
    };
    let theirs = m
        .targets
        .first()
        .is_some_and(|&t| b.get(t) != Some(m.learner));
    let [en, ko, ja, zh] = prompt(m.kind, m.learner, theirs);
    let mut s = format!(
        "(;GM[1]FF[4]CA[UTF-8]SZ[{size}]KM[{}]RU[chinese]ID[{}]LV[{}]KIND[{}]PL[{}]AB{}AW{}\nC[{en}]CKO[{ko}]CJA[{ja}]CZH[{zh}]TR",
        m.game.rules().komi,
        m.id,
        m.level,
        m.kind.name(),
        if m.learner == Color::Black { "B" } else { "W" },
        stones(Color::Black),
        stones(Color::White),
    );
    for &p in &m.targets {
        let _ = write!(s, "[{}]", point(p));
    }
    s.push('\n');
    write_tries(&mut s, size, m.learner, &m.tries);
    s.push_str(")\n");
    s
}

fn write_tries(s: &mut String, size: u8, learner: Color, tries: &[Try]) {
    let name = |c: Color| if c == Color::Black { "B" } else { "W" };
    for t in tries {
        let mark = if t.right { "TE" } else { "BM" };
        let _ = write!(
            s,
            "(;{}[{}]{mark}[1]",
            name(learner),
            sgf::format_move(size, t.mv)
        );
        if let Some(r) = t.reply {
            let _ = write!(
                s,
                ";{}[{}]",
                name(learner.opponent()),
                sgf::format_move(size, r)
            );
        }
        write_tries(s, size, learner, &t.next);
        s.push(')');
    }
}
