//! `tengen bench`: measurements that can be run on any machine without cargo.

use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Subcommand;
use tengen_ai::search;
use tengen_rules::playout::{run_playouts, Rng};
use tengen_rules::{Color, Game, Handicap, Preset};

/// What to measure.
#[derive(Subcommand)]
pub enum Bench {
    /// Light random playouts per second on one core (uniform over legal moves that do not fill
    /// one's own one-point eye, to two passes). The last line printed is the rate.
    Playouts {
        /// Board size, 2 to 25.
        #[arg(long, default_value_t = 9)]
        size: u8,
        /// How long to measure, in seconds.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Seed for the playouts' random generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The engine's search from an empty board: playouts per second with the tree, priors and
    /// heavy playouts, on --threads threads (default 1). The last line printed is the rate.
    Search {
        /// Board size, 2 to 25.
        #[arg(long, default_value_t = 9)]
        size: u8,
        /// How long to search, in seconds.
        #[arg(long, default_value_t = 5.0)]
        seconds: f64,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed of the search.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// KataGo network evaluations a second on the CPU (the built-in g170 b6c96 or --model),
    /// batches of --batch on --threads threads. The last line printed is the rate.
    Nn(crate::bench_nn::NnOpt),
}

/// Runs a benchmark and prints its figures.
pub fn run(b: Bench) -> anyhow::Result<()> {
    match b {
        Bench::Nn(opt) => crate::bench_nn::run(opt),
        Bench::Search {
            size,
            seconds,
            threads,
            seed,
        } => {
            check(size, seconds)?;
            let game = Game::new(size, Preset::Chinese.rules(size), Handicap::None)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            let budget = search::Budget {
                playouts: None,
                time: Some(Duration::from_secs_f64(seconds)),
                threads: threads.max(1),
                seed,
            };
            let a = search::analyze(&game, Color::Black, &budget);
            let secs = a.elapsed.as_secs_f64();
            let best = a.best().map(|m| {
                format!(
                    "{} ({} visits, {:.1}%)",
                    tengen_rules::coord::gtp::format_move(size, m.mv),
                    m.visits,
                    100.0 * m.winrate
                )
            });
            println!(
                "board {size}x{size}, {} threads, {} playouts in {secs:.2} s, best {}",
                threads.max(1),
                a.playouts,
                best.unwrap_or_default()
            );
            println!("{:.0} playouts/s", a.playouts as f64 / secs);
            Ok(())
        }
        Bench::Playouts {
            size,
            seconds,
            seed,
        } => {
            check(size, seconds)?;
            let mut rng = Rng::new(seed);
            run_playouts(size, 100, &mut rng); // warm-up
            let budget = Duration::from_secs_f64(seconds);
            let start = Instant::now();
            let (mut playouts, mut plies) = (0u64, 0u64);
            let batch = if size <= 9 { 1000 } else { 100 };
            while start.elapsed() < budget {
                plies += run_playouts(size, batch, &mut rng);
                playouts += batch as u64;
            }
            let secs = start.elapsed().as_secs_f64();
            println!(
                "board {size}x{size}, {playouts} playouts in {secs:.2} s, {:.1} plies per playout",
                plies as f64 / playouts as f64
            );
            println!("{:.0} playouts/s", playouts as f64 / secs);
            Ok(())
        }
    }
}

fn check(size: u8, seconds: f64) -> anyhow::Result<()> {
    if !(tengen_rules::MIN_SIZE..=tengen_rules::MAX_SIZE).contains(&size) {
        bail!("board size must be between 2 and 25, not {size}");
    }
    if !crate::seconds_ok(seconds) {
        bail!("--seconds must be a positive number, at most 86400");
    }
    Ok(())
}
