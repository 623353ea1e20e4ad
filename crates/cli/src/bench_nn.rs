//! `tengen bench nn`: network evaluations a second on the CPU, the figure KataGo's
//! `benchmark` prints as nnEvals/s, so the two can be compared on one machine.
//!
//! The positions are those of one game played by the simple policy from the empty board under
//! Chinese rules (distinct positions, as a search evaluates), evaluated in batches of --batch
//! by each of --threads threads, without the cache, with the built-in net or --model.
//!
//! `--search` measures the network's search instead, as KataGo's `benchmark` does: a search of
//! --visits visits (200) on each of ten positions of that game in turn, a fresh tree each,
//! --threads threads sharing it, --batch leaves a forward pass, the cache on but emptied before
//! each search; it prints visits and network evaluations (cache misses: KataGo's nnEvals) a
//! second.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Args;
use tengen_ai::nn::search::Puct;
use tengen_ai::nn::{Evaluator, History, KataRules, Model};
use tengen_ai::policy;
use tengen_rules::playout::Rng;
use tengen_rules::{Game, Handicap, Move, Preset};

/// Options of `tengen bench nn`.
#[derive(Args, Debug)]
pub struct NnOpt {
    /// Board size (the net takes 2 to 25; KataGo's benchmark is 19 by default).
    #[arg(long, default_value_t = 19)]
    pub size: u8,
    /// Threads evaluating at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Positions in one forward pass.
    #[arg(long, default_value_t = 1)]
    pub batch: usize,
    /// How long to measure, in seconds (every batch finished in that time counts).
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Measure the network's search (visits and evaluations a second) instead of the bare
    /// evaluations.
    #[arg(long)]
    pub search: bool,
    /// Visits a search with --search.
    #[arg(long, default_value_t = 200)]
    pub visits: u32,
    /// A KataGo model (`.bin.gz`, `.txt.gz` or either unzipped) instead of the built-in g170 b6c96.
    #[arg(long, value_name = "PATH")]
    pub model: Option<std::path::PathBuf>,
}

fn chinese() -> anyhow::Result<KataRules> {
    KataRules::parse("chinese").map_err(|e| anyhow::anyhow!("{e}"))
}

/// The positions of one game of the simple policy (up to 200 plies).
fn games(size: u8) -> anyhow::Result<Vec<Game>> {
    let rules = Preset::Chinese.rules(size);
    let mut game = Game::new(size, rules, Handicap::None).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut rng = Rng::new(1);
    let mut out = vec![game.clone()];
    for _ in 0..200 {
        let c = game.to_move();
        let mv = policy::choose(&game, c, &mut rng, policy::Mode::Normal);
        if mv == Move::Pass || game.play(c, mv).is_err() {
            break;
        }
        out.push(game.clone());
    }
    Ok(out)
}

/// The positions of [`games`] as the net sees them.
fn positions(size: u8) -> anyhow::Result<Vec<History>> {
    let kata = chinese()?;
    Ok(games(size)?.iter().map(|g| History::new(g, kata)).collect())
}

/// Runs the benchmark and prints its figures; the last line is the rate.
pub fn run(opt: NnOpt) -> anyhow::Result<()> {
    if !(2..=25).contains(&opt.size) {
        bail!("board size must be between 2 and 25, not {}", opt.size);
    }
    if !crate::seconds_ok(opt.seconds) || opt.threads == 0 || opt.batch == 0 {
        bail!("--seconds (at most 86400), --threads and --batch must be positive");
    }
    let model = match &opt.model {
        Some(p) => Model::read(&std::fs::read(p)?)?,
        None => Model::builtin()?,
    };
    let name = model.name.clone();
    if opt.search {
        return search(&opt, model);
    }
    let eval = Arc::new(Evaluator::without_cache(model));
    // A human-style net's speed is the same for any profile: a 1d's.
    eval.set_human_profile(tengen_ai::nn::human::HumanProfile::parse("rank_1d").ok());
    let positions = Arc::new(positions(opt.size)?);
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut threads = Vec::new();
    let start = Instant::now();
    for t in 0..opt.threads {
        let (eval, positions, done, stop) =
            (eval.clone(), positions.clone(), done.clone(), stop.clone());
        let batch = opt.batch;
        threads.push(std::thread::spawn(move || -> anyhow::Result<()> {
            let mut next = t * 17;
            while !stop.load(Ordering::Relaxed) {
                let items: Vec<(&History, u8)> = (0..batch)
                    .map(|i| {
                        (
                            &positions[(next + i) % positions.len()],
                            ((next + i) % 8) as u8,
                        )
                    })
                    .collect();
                next += batch;
                eval.evaluate_batch(&items)?;
                done.fetch_add(batch as u64, Ordering::Relaxed);
            }
            Ok(())
        }));
    }
    std::thread::sleep(Duration::from_secs_f64(opt.seconds));
    let counted = done.load(Ordering::Relaxed);
    let secs = start.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join()
            .map_err(|_| anyhow::anyhow!("an evaluating thread panicked"))??;
    }
    println!(
        "{name}: board {0}x{0}, {1} threads, batch {2}, {counted} evaluations in {secs:.2} s ({3} positions)",
        opt.size,
        opt.threads,
        opt.batch,
        positions.len()
    );
    println!("{:.1} evaluations/s", counted as f64 / secs);
    Ok(())
}

/// `--search`: searches of ten positions in turn until the time is up (the search under way
/// finishes), and the rates.
fn search(opt: &NnOpt, model: Model) -> anyhow::Result<()> {
    let name = model.name.clone();
    let eval = Evaluator::new(model);
    eval.set_human_profile(tengen_ai::nn::human::HumanProfile::parse("rank_1d").ok());
    let all = games(opt.size)?;
    let step = (all.len() / 10).max(1);
    let picked: Vec<&Game> = all.iter().step_by(step).take(10).collect();
    let rules = chinese()?;
    let start = Instant::now();
    let (mut visits, mut searches) = (0u64, 0usize);
    while start.elapsed().as_secs_f64() < opt.seconds {
        let game = picked[searches % picked.len()];
        // Each search starts cold, as the first pass over the positions does.
        eval.clear_cache();
        let mut p = Puct::new(game, game.to_move(), rules, searches as u64);
        p.set_threads(opt.threads, opt.batch);
        p.run(&eval, game, Some(opt.visits.max(1)), None)?;
        visits += p.analysis().playouts as u64;
        searches += 1;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{name}: board {0}x{0}, {1} threads, batch {2}, {searches} searches of {3} visits in \
         {secs:.2} s, {4} network evaluations",
        opt.size,
        opt.threads,
        opt.batch,
        opt.visits,
        eval.evaluated()
    );
    println!(
        "{:.1} visits/s, {:.1} evaluations/s",
        visits as f64 / secs,
        eval.evaluated() as f64 / secs
    );
    Ok(())
}
