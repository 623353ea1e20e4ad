//! `tengen bench`: measurements that can be run on any machine without cargo.

use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Subcommand;
use tengen_rules::playout::{run_playouts, Rng};

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
}

/// Runs a benchmark and prints its figures.
pub fn run(b: Bench) -> anyhow::Result<()> {
    match b {
        Bench::Playouts {
            size,
            seconds,
            seed,
        } => {
            if !(tengen_rules::MIN_SIZE..=tengen_rules::MAX_SIZE).contains(&size) {
                bail!("board size must be between 2 and 25, not {size}");
            }
            if !(seconds.is_finite() && seconds > 0.0) {
                bail!("--seconds must be a positive number");
            }
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
