//! `tengen bench nn`: the bare evaluations and the search on threads both run and print their
//! rates (the figures themselves are measured by hand: BENCHMARKS.md).

#![allow(clippy::unwrap_used)]

mod common;
use common::tengen;

#[test]
fn the_search_benchmark_runs_on_two_threads_in_batches() {
    let (ok, out) = tengen(&[
        "bench",
        "nn",
        "--size",
        "9",
        "--search",
        "--visits",
        "8",
        "--threads",
        "2",
        "--batch",
        "2",
        "--seconds",
        "0.01",
    ]);
    assert!(ok, "{out}");
    // At least the one search started before the time was up, all its visits made.
    assert!(out.contains("2 threads, batch 2, "), "{out}");
    let last = out.lines().last().unwrap();
    assert!(
        last.ends_with(" evaluations/s") && last.contains(" visits/s, "),
        "{out}"
    );
    let (ok, out) = tengen(&[
        "bench",
        "nn",
        "--size",
        "9",
        "--threads",
        "2",
        "--seconds",
        "0.01",
    ]);
    assert!(ok && out.trim_end().ends_with("evaluations/s"), "{out}");
    let (ok, out) = tengen(&["bench", "nn", "--search", "--threads", "0"]);
    assert!(!ok && out.contains("must be positive"), "{out}");
}
