//! `tengen sgf`: checking and scoring game records.

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use tengen_ai::estimate;
use tengen_rules::coord::gtp as coord;
use tengen_rules::{Color, DeadStones, GameResult, PointSet, Preset};
use tengen_sgf::game::{check, replay, Severity};
use tengen_sgf::value;

/// Record tools.
#[derive(Subcommand, Debug)]
pub enum SgfCmd {
    /// Replay every game and every variation of each file under the record's own rules (or
    /// --rules) and print, with file, line, column and move number, each error (a value that
    /// cannot be read, an illegal or unplayable move, a file that does not parse) and each
    /// warning (what was read leniently: a second move of one colour in a row, HA[1], a file
    /// cut off at the end). Exits non-zero if there was any error.
    Check {
        /// Replay under this preset instead of the record's RU.
        #[arg(long)]
        rules: Option<Preset>,
        /// SGF files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Count the final position of each record's main line and compare with its result (RE).
    /// Dead stones come from the record's territory markup (TB/TW on the last node) when it has
    /// some, otherwise from Tengen's estimator, which says which stones it is unsure of and
    /// whether the winner could change with them. A record with a value that cannot be read or
    /// a move that cannot be played or is illegal is reported as not scorable and skipped. Ends
    /// with a summary; exits non-zero when a record was not scorable or its count contradicts
    /// RE.
    ///
    /// With --compare DIR instead: estimate every finished record under DIR (markup ignored)
    /// and print winner agreement, exact agreement, unsure count and time a game, for Tengen
    /// and for the --reference engine side by side.
    Score {
        /// The records.
        #[arg(required_unless_present = "compare", conflicts_with = "compare")]
        files: Vec<PathBuf>,
        /// Count under this preset instead of the record's RU.
        #[arg(long, conflicts_with = "compare")]
        rules: Option<Preset>,
        /// Measure the estimator on every record under this folder whose RE is a count.
        #[arg(long, value_name = "DIR")]
        compare: Option<PathBuf>,
        /// With --compare: a GTP engine that judges the same records' dead stones (`loadsgf`,
        /// `final_status_list dead`), such as "gnugo --mode gtp".
        #[arg(long, value_name = "COMMAND", requires = "compare")]
        reference: Option<String>,
    },
}

/// Runs an `sgf` subcommand.
pub fn run(cmd: SgfCmd) -> anyhow::Result<()> {
    match cmd {
        SgfCmd::Check { rules, files } => check_files(rules, &files),
        SgfCmd::Score {
            compare: Some(dir),
            reference,
            ..
        } => crate::sgf_compare::compare(&dir, reference.as_deref()),
        SgfCmd::Score { files, rules, .. } => score_files(&files, rules),
    }
}

fn check_files(rules: Option<Preset>, files: &[PathBuf]) -> anyhow::Result<()> {
    let (mut errors, mut warnings, mut games) = (0usize, 0usize, 0usize);
    for f in files {
        let name = f.display();
        let bytes = match std::fs::read(f) {
            Ok(b) => b,
            Err(e) => {
                println!("{name}: error: cannot read: {e}");
                errors += 1;
                continue;
            }
        };
        let c = match tengen_sgf::parse(&bytes) {
            Ok(c) => c,
            Err(e) => {
                println!("{name}: error: {e}");
                errors += 1;
                continue;
            }
        };
        for w in &c.warnings {
            println!("{name}: warning: {w}");
            warnings += 1;
        }
        for (i, g) in c.games.iter().enumerate() {
            games += 1;
            let label = if c.games.len() > 1 {
                format!("{name}: game {}", i + 1)
            } else {
                name.to_string()
            };
            match check(g, rules) {
                Err(e) => {
                    println!("{label}: error: {e}");
                    errors += 1;
                }
                Ok(problems) => {
                    for p in &problems {
                        println!("{label}: {}: {p}", p.severity());
                        match p.severity() {
                            Severity::Error => errors += 1,
                            Severity::Warning => warnings += 1,
                        }
                    }
                }
            }
        }
    }
    println!(
        "{} files, {games} games, {} problems ({errors} errors, {warnings} warnings)",
        files.len(),
        errors + warnings
    );
    if errors > 0 {
        anyhow::bail!("{errors} errors");
    }
    Ok(())
}

/// How one record's count came out.
enum Scored {
    /// Counted, and the count agrees with RE or there is nothing to compare.
    Agrees,
    /// Counted, and the count contradicts RE.
    Differs,
}

fn score_files(files: &[PathBuf], rules: Option<Preset>) -> anyhow::Result<()> {
    let (mut scored, mut not_scorable, mut mismatched) = (0usize, 0usize, 0usize);
    for (i, f) in files.iter().enumerate() {
        if files.len() > 1 {
            if i > 0 {
                println!();
            }
            println!("== {}", f.display());
        }
        match score_file(f, rules) {
            Ok(Scored::Agrees) => scored += 1,
            Ok(Scored::Differs) => {
                scored += 1;
                mismatched += 1;
            }
            Err(why) => {
                println!("{}: not scorable: {why:#}", f.display());
                not_scorable += 1;
            }
        }
    }
    println!(
        "{} files: {scored} scored, {not_scorable} not scorable, {mismatched} mismatched",
        files.len()
    );
    if not_scorable + mismatched > 0 {
        anyhow::bail!("{not_scorable} not scorable, {mismatched} mismatched");
    }
    Ok(())
}

/// Counts one record, or says why it cannot be counted.
fn score_file(file: &PathBuf, rules: Option<Preset>) -> anyhow::Result<Scored> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let c = tengen_sgf::parse(&bytes)?;
    for w in &c.warnings {
        println!("warning: {w}");
    }
    let tree = c.games.first().context("no game in the file")?;
    let r = replay(tree, rules)?;
    // A count of a position the record does not reach would be a count of another game.
    if let Some(p) = r.first_error() {
        anyhow::bail!("{p}");
    }
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
    let mut unsure = None;
    let (dead, source) = if game.rules().dead_stones == DeadStones::NoneRemoved {
        (
            PointSet::new(),
            "the rules (every stone on the board is alive)",
        )
    } else if tb.is_empty() && tw.is_empty() {
        let e = estimate::count_estimate(game);
        let dead = e.dead;
        unsure = Some(e);
        (dead, "Tengen's estimator")
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
    if let Some(e) = &unsure {
        if e.unsure.is_empty() {
            println!("estimator: sure of every stone");
        } else {
            let stones: Vec<String> = e
                .unsure
                .iter()
                .map(|p| coord::format_point(board.size(), p))
                .collect();
            println!("estimator: unsure of [{}]", stones.join(" "));
        }
        let sure = if e.winner_sure() {
            "winner sure"
        } else {
            "winner unsure"
        };
        println!(
            "estimator: {sure} (Black's lead {:+.1} to {:+.1} over the unsure stones)",
            e.lead_range.0, e.lead_range.1
        );
    }
    println!("count: {}", score.result);
    match (&r.info.result_text, r.info.result) {
        (None, _) => println!("the record has no result"),
        (Some(t), Some(GameResult::Score { .. } | GameResult::Draw)) => {
            if Some(score.result) == r.info.result {
                println!("agrees with RE[{t}]");
            } else {
                println!("differs from RE[{t}]: the count is {}", score.result);
                return Ok(Scored::Differs);
            }
        }
        (Some(t), _) => println!("RE[{t}] is not a count; nothing to compare"),
    }
    Ok(Scored::Agrees)
}
