//! `tengen analyze FILE.sgf`: every position of a record's main line analysed by the network
//! ([`tengen_ai::analysis`]: the positions searched together on several threads through one
//! evaluator), printed move by move (Black's win rate and lead, the best moves) and, with
//! `--out`, written into the record as KataGo-based tools do: each node's comment gets its
//! figures, and Sabaki's `SBKV` its Black win rate in percent, which Sabaki draws as the
//! game's win-rate graph.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use tengen_ai::analysis::{self, Position, Settings};
use tengen_ai::nn::{Evaluator, Model};
use tengen_rules::coord::gtp as coord;
use tengen_rules::{Color, Move, Preset};
use tengen_sgf::game::replay_line;
use tengen_sgf::tree::{GameTree, Node};

/// The longest main line analysed, in nodes (as the review board's analysis).
const MAX_NODES: usize = 1_000;

/// Candidates printed a position.
const SHOWN: usize = 3;

/// `tengen analyze`'s options.
#[derive(Args, Debug)]
pub struct AnalyzeOpt {
    /// The record (its first game).
    pub file: PathBuf,
    /// Visits a position.
    #[arg(long, default_value_t = 100)]
    pub visits: u32,
    /// Positions searched at once (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Leaves a search evaluates in one forward pass.
    #[arg(long, default_value_t = 4)]
    pub batch: usize,
    /// A KataGo model (`.bin.gz`, `.txt.gz` or either unzipped) instead of the built-in network.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Replay under this preset instead of the record's RU.
    #[arg(long)]
    pub rules: Option<Preset>,
    /// Write the record with the analysis in it to this file.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

/// Runs `tengen analyze`.
pub fn run(opt: AnalyzeOpt) -> anyhow::Result<()> {
    let bytes =
        std::fs::read(&opt.file).with_context(|| format!("cannot read {}", opt.file.display()))?;
    let mut collection =
        tengen_sgf::parse(&bytes).with_context(|| format!("{}", opt.file.display()))?;
    let tree = collection
        .games
        .first_mut()
        .context("the file holds no game")?;
    let (replay, positions) = replay_line(tree, opt.rules, MAX_NODES)?;
    if let Some(p) = replay.first_error() {
        anyhow::bail!("the record cannot be replayed: {p}");
    }
    let eval = match &opt.model {
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let model = Model::read(&bytes)?;
            if model.meta_encoder.is_some() {
                anyhow::bail!(
                    "{} is a human-style net, which evaluates only for a profile; analysis \
                     takes none",
                    path.display()
                );
            }
            std::sync::Arc::new(Evaluator::new(model))
        }
        None => tengen_ai::nn::builtin().context("the built-in network cannot be read")?,
    };
    let settings = Settings {
        visits: opt.visits.clamp(1, 100_000),
        threads: opt.threads.unwrap_or_else(cores).max(1),
        batch: opt.batch.clamp(1, 64),
        ..Settings::default()
    };
    let started = std::time::Instant::now();
    let found = analysis::game(Some(&eval), &positions, &settings);
    let size = replay.game.size();
    let moves = main_line_moves(tree, size);
    for (i, (p, mv)) in found.iter().zip(&moves).enumerate() {
        if let Some(p) = p {
            println!("{}", line(i, *mv, p, size));
        }
    }
    eprintln!(
        "{} positions, {} visits each, {} threads: {:.1} s",
        positions.len(),
        settings.visits,
        settings.threads,
        started.elapsed().as_secs_f64()
    );
    if let Some(out) = &opt.out {
        write_into(tree, &found, size);
        std::fs::write(out, tengen_sgf::write(&collection))
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    Ok(())
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Each main-line node's move (colour and move), `None` for a node without one.
fn main_line_moves(tree: &GameTree, size: u8) -> Vec<Option<(Color, Move)>> {
    tree.main_line()
        .into_iter()
        .map(|n| {
            let (color, v) = match (n.first("B"), n.first("W")) {
                (Some(v), _) => (Color::Black, v),
                (None, Some(v)) => (Color::White, v),
                (None, None) => return None,
            };
            let mv = tengen_rules::coord::sgf::parse_move(size, v).ok()?;
            Some((color, mv))
        })
        .collect()
}

/// `B+3.5` or `W+0.5`: a lead as a result is written.
fn lead(black_lead: f64) -> String {
    match black_lead >= 0.0 {
        true => format!("B+{black_lead:.1}"),
        false => format!("W+{:.1}", -black_lead),
    }
}

/// One printed line: the move number and the move, Black's win rate and lead after it, and
/// the best moves for the player to move then.
fn line(i: usize, mv: Option<(Color, Move)>, p: &Position, size: u8) -> String {
    let played = match mv {
        Some((c, m)) => format!("{} {}", c.letter(), coord::format_move(size, m)),
        None => "-".into(),
    };
    let mut s = format!(
        "{i:>4} {played:<6} B {:>5.1}% {:>7}  best",
        100.0 * p.black_winrate,
        lead(p.black_lead)
    );
    for c in p.best.iter().take(SHOWN) {
        let _ = write!(
            s,
            "  {} {:.1}% {} ({})",
            coord::format_move(size, c.mv),
            100.0 * c.black_winrate,
            c.black_lead.map_or("?".into(), lead),
            c.visits
        );
    }
    s
}

/// The comment written on a node: the figures after its move, and the best moves then.
fn comment(p: &Position, size: u8) -> String {
    let best: Vec<String> = p
        .best
        .iter()
        .take(SHOWN)
        .map(|c| {
            format!(
                "{} ({:.1}%, {})",
                coord::format_move(size, c.mv),
                100.0 * c.black_winrate,
                c.black_lead.map_or("?".into(), lead)
            )
        })
        .collect();
    format!(
        "Tengen: Black {:.1}%, {} ({} visits). Best next: {}.",
        100.0 * p.black_winrate,
        lead(p.black_lead),
        p.visits,
        best.join(", ")
    )
}

/// Writes each analysed position into its node: the comment (after any the node had) and
/// `SBKV`.
fn write_into(tree: &mut GameTree, found: &[Option<Position>], size: u8) {
    let mut nodes = main_line_mut(tree);
    for (node, p) in nodes.iter_mut().zip(found) {
        let Some(p) = p else { continue };
        let text = match node.text("C") {
            Some(old) if !old.is_empty() => format!("{old}\n\n{}", comment(p, size)),
            _ => comment(p, size),
        };
        node.set_text("C", &text);
        node.set_raw("SBKV", vec![format!("{:.2}", 100.0 * p.black_winrate)]);
    }
}

/// The main line's nodes, mutable, without recursion.
fn main_line_mut(tree: &mut GameTree) -> Vec<&mut Node> {
    let mut out = Vec::new();
    let mut t = Some(tree);
    while let Some(tree) = t {
        out.extend(tree.nodes.iter_mut());
        t = tree.variations.first_mut();
    }
    out
}
