//! `tengen sgf`: checking and scoring game records.

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use tengen_ai::estimate;
use tengen_rules::coord::gtp as coord;
use tengen_rules::playout::Rng;
use tengen_rules::{Color, GameResult, PointSet, Preset};
use tengen_sgf::game::{check, replay};
use tengen_sgf::value;

/// Record tools.
#[derive(Subcommand, Debug)]
pub enum SgfCmd {
    /// Replay every game and every variation of each file under the record's own rules (or
    /// --rules), print each illegal move or setup with file, move number and reason, and each
    /// file that does not parse with line and column. Exits non-zero if there was any.
    Check {
        /// Replay under this preset instead of the record's RU.
        #[arg(long)]
        rules: Option<Preset>,
        /// SGF files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Count the final position of a record's main line and compare with its result (RE).
    /// Dead stones come from the record's territory markup (TB/TW on the last node) when it has
    /// some, otherwise from Tengen's estimate. Exits non-zero when the count contradicts RE.
    Score {
        /// The record.
        file: PathBuf,
        /// Count under this preset instead of the record's RU.
        #[arg(long)]
        rules: Option<Preset>,
        /// Seed for the estimate's playouts.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Runs an `sgf` subcommand.
pub fn run(cmd: SgfCmd) -> anyhow::Result<()> {
    match cmd {
        SgfCmd::Check { rules, files } => check_files(rules, &files),
        SgfCmd::Score { file, rules, seed } => score_file(&file, rules, seed),
    }
}

fn check_files(rules: Option<Preset>, files: &[PathBuf]) -> anyhow::Result<()> {
    let (mut bad, mut games) = (0usize, 0usize);
    for f in files {
        let name = f.display();
        let bytes = match std::fs::read(f) {
            Ok(b) => b,
            Err(e) => {
                println!("{name}: cannot read: {e}");
                bad += 1;
                continue;
            }
        };
        let c = match tengen_sgf::parse(&bytes) {
            Ok(c) => c,
            Err(e) => {
                println!("{name}: {e}");
                bad += 1;
                continue;
            }
        };
        for (i, g) in c.games.iter().enumerate() {
            games += 1;
            let label = if c.games.len() > 1 {
                format!("{name}: game {}", i + 1)
            } else {
                name.to_string()
            };
            match check(g, rules) {
                Err(e) => {
                    println!("{label}: {e}");
                    bad += 1;
                }
                Ok(problems) => {
                    for p in &problems {
                        println!("{label}: {p}");
                    }
                    bad += problems.len();
                }
            }
        }
    }
    println!("{} files, {games} games, {bad} problems", files.len());
    if bad > 0 {
        anyhow::bail!("{bad} problems");
    }
    Ok(())
}

fn score_file(file: &PathBuf, rules: Option<Preset>, seed: u64) -> anyhow::Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let c = tengen_sgf::parse(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let tree = c.games.first().context("no game in the file")?;
    let r = replay(tree, rules)?;
    for p in &r.problems {
        println!("warning: {p}");
    }
    let game = &r.game;
    let board = game.board();
    // Territory markup on the last node: a stone inside the other colour's territory is dead.
    let last = tree.main_line().last().copied();
    let marked = |id: &str| -> PointSet {
        last.and_then(|n| n.get(id))
            .and_then(|v| value::points(board.size(), v).ok())
            .map(|v| v.into_iter().collect())
            .unwrap_or_default()
    };
    let (tb, tw) = (marked("TB"), marked("TW"));
    let (dead, source) = if tb.is_empty() && tw.is_empty() {
        let (_, dead) = estimate::score(game, 1000, &mut Rng::new(seed));
        (dead, "Tengen's estimate")
    } else {
        let dead: PointSet = board
            .points()
            .filter(|&p| {
                (tb.contains(p) && board.get(p) == Some(Color::White))
                    || (tw.contains(p) && board.get(p) == Some(Color::Black))
            })
            .collect();
        (dead, "the record's territory markup")
    };
    let score = tengen_rules::scoring::score(
        board,
        &dead,
        game.rules(),
        game.handicap_stones().len() as u32,
    );
    let list = |c: Color| {
        dead.iter()
            .filter(|&p| board.get(p) == Some(c))
            .map(|p| coord::format_point(board.size(), p))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!("rules: {} (komi {})", r.preset, game.rules().komi);
    println!(
        "dead stones from {source}: black [{}] white [{}]",
        list(Color::Black),
        list(Color::White)
    );
    for (c, n) in [(Color::Black, &score.black), (Color::White, &score.white)] {
        println!(
            "{c}: territory {} + stones {} + prisoners {} + komi {} + handicap bonus {} = {}",
            n.territory,
            n.stones,
            n.prisoners,
            n.komi,
            n.handicap_bonus,
            n.total_halves() as f64 / 2.0
        );
    }
    println!("count: {}", score.result);
    match (&r.info.result_text, r.info.result) {
        (None, _) => println!("the record has no result"),
        (Some(t), Some(GameResult::Score { .. } | GameResult::Draw)) => {
            if Some(score.result) == r.info.result {
                println!("agrees with RE[{t}]");
            } else {
                println!("differs from RE[{t}]");
                anyhow::bail!("the count {} differs from the record's {t}", score.result);
            }
        }
        (Some(t), _) => println!("RE[{t}] is not a count; nothing to compare"),
    }
    Ok(())
}
