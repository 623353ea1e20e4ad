//! `cargo bench -p tengen-rules`: light random playouts per second on one core, 9x9 and 19x19.
//!
//! A plain harness (no criterion) keeps the build lean; it times batches of playouts until the
//! time budget is spent and prints one line per size. `TENGEN_BENCH_SECONDS` sets the budget.

use std::time::{Duration, Instant};
use tengen_rules::playout::{run_playouts, Rng};

fn main() {
    let seconds: f64 = std::env::var("TENGEN_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5.0);
    // `cargo bench` passes --bench; `cargo test --benches` passes nothing we need.
    let quick = std::env::args().all(|a| a != "--bench");
    let budget = Duration::from_secs_f64(if quick { 0.2 } else { seconds });
    for size in [9u8, 19] {
        let mut rng = Rng::new(0x5EED + size as u64);
        run_playouts(size, 200, &mut rng); // warm up caches and branch predictors
        let start = Instant::now();
        let (mut playouts, mut plies) = (0u64, 0u64);
        while start.elapsed() < budget {
            plies += run_playouts(size, 500, &mut rng);
            playouts += 500;
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "playouts {size}x{size}: {:.0} playouts/s ({:.1} plies/playout, {playouts} playouts in {secs:.2} s)",
            playouts as f64 / secs,
            plies as f64 / playouts as f64
        );
    }
}
