//! `tengen bench nn`: network evaluations a second on the CPU, the figure KataGo's
//! `benchmark` prints as nnEvals/s, so the two can be compared on one machine.
//!
//! The positions are those of one game played by the simple policy from the empty board under
//! Chinese rules (distinct positions, as a search evaluates), evaluated in batches of --batch
//! by each of --threads threads, without the cache, with the built-in net or --model.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Args;
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
    /// A KataGo model (`.bin.gz`) instead of the built-in g170 b6c96.
    #[arg(long, value_name = "PATH")]
    pub model: Option<std::path::PathBuf>,
}

/// The positions of one game of the simple policy (up to 200 plies).
fn positions(size: u8) -> anyhow::Result<Vec<History>> {
    let rules = Preset::Chinese.rules(size);
    let kata = KataRules::parse("chinese").map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut game = Game::new(size, rules, Handicap::None).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut rng = Rng::new(1);
    let mut out = vec![History::new(&game, kata)];
    for _ in 0..200 {
        let c = game.to_move();
        let mv = policy::choose(&game, c, &mut rng, policy::Mode::Normal);
        if mv == Move::Pass || game.play(c, mv).is_err() {
            break;
        }
        out.push(History::new(&game, kata));
    }
    Ok(out)
}

/// Runs the benchmark and prints its figures; the last line is the rate.
pub fn run(opt: NnOpt) -> anyhow::Result<()> {
    if !(2..=25).contains(&opt.size) {
        bail!("board size must be between 2 and 25, not {}", opt.size);
    }
    if !(opt.seconds.is_finite() && opt.seconds > 0.0) || opt.threads == 0 || opt.batch == 0 {
        bail!("--seconds, --threads and --batch must be positive");
    }
    let model = match &opt.model {
        Some(p) => Model::from_gz(&std::fs::read(p)?)?,
        None => Model::builtin()?,
    };
    let name = model.name.clone();
    let eval = Arc::new(Evaluator::without_cache(model));
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
