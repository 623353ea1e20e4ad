//! Metrics an operator scrapes, and their Prometheus text exposition (format 0.0.4). Pure:
//! counters, gauges and histograms are atomics that any floor can hold in a `static` (a scrape is
//! of the whole process, as Prometheus's own client libraries count), and [`Exposition`] writes
//! them as text; no clock is read here (callers observe durations they measured).
//!
//! Hand-written rather than a crate: the server needs three metric types and one output format,
//! and keeping its builds lean matters more than a registry's generality.
//!
//! ```
//! use tengen_core::metrics::{Counter, Exposition, Histogram};
//! static MOVES: Counter = Counter::new();
//! static LATENCY: Histogram = Histogram::new(&[0.001, 0.01, 0.1]);
//! MOVES.inc();
//! LATENCY.observe(0.004);
//! let mut out = Exposition::default();
//! out.counter("tengen_moves_total", "Moves played.", MOVES.get());
//! out.histogram("tengen_move_seconds", "Move to broadcast.", &LATENCY);
//! assert!(out.text().contains("tengen_move_seconds_bucket{le=\"0.01\"} 1\n"));
//! ```

use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

/// A count that only grows.
#[derive(Debug, Default)]
pub struct Counter(AtomicU64);

impl Counter {
    /// Zero.
    pub const fn new() -> Counter {
        Counter(AtomicU64::new(0))
    }

    /// Adds one.
    pub fn inc(&self) {
        self.add(1);
    }

    /// Adds `n`.
    pub fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    /// The count.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// A value that goes up and down (open connections).
#[derive(Debug, Default)]
pub struct Gauge(AtomicI64);

impl Gauge {
    /// Zero.
    pub const fn new() -> Gauge {
        Gauge(AtomicI64::new(0))
    }

    /// Adds one.
    pub fn inc(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    /// Takes one away.
    pub fn dec(&self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }

    /// Sets the value (a count taken afresh, as the tournaments' tick takes it).
    pub fn set(&self, v: i64) {
        self.0.store(v, Ordering::Relaxed);
    }

    /// The value.
    pub fn get(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// The most buckets a histogram has (the `+Inf` one not counted).
pub const MAX_BUCKETS: usize = 16;

/// Observations counted in buckets by upper bound, with their count and sum.
#[derive(Debug)]
pub struct Histogram {
    /// Upper bounds, ascending; at most [`MAX_BUCKETS`] are used.
    bounds: &'static [f64],
    /// Observations at most each bound (not cumulative; the exposition adds them up).
    buckets: [AtomicU64; MAX_BUCKETS],
    /// Every observation, `+Inf` included.
    count: AtomicU64,
    /// The sum of the observations, as `f64` bits (added by compare-and-swap).
    sum: AtomicU64,
}

impl Histogram {
    /// An empty histogram with these upper bounds (ascending; those past [`MAX_BUCKETS`] are
    /// ignored).
    pub const fn new(bounds: &'static [f64]) -> Histogram {
        Histogram {
            bounds,
            buckets: [const { AtomicU64::new(0) }; MAX_BUCKETS],
            count: AtomicU64::new(0),
            sum: AtomicU64::new(0),
        }
    }

    /// Counts one observation (a NaN is counted in `+Inf` and not summed).
    pub fn observe(&self, v: f64) {
        if let Some(i) = self.bounds().iter().position(|&b| v <= b) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        if v.is_nan() {
            return;
        }
        let _ = self
            .sum
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
                Some((f64::from_bits(bits) + v).to_bits())
            });
    }

    /// Counts a duration in seconds.
    pub fn observe_duration(&self, d: std::time::Duration) {
        self.observe(d.as_secs_f64());
    }

    /// The bounds in use.
    fn bounds(&self) -> &'static [f64] {
        &self.bounds[..self.bounds.len().min(MAX_BUCKETS)]
    }

    /// How many observations there were.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }
}

/// Upper bounds for latencies in seconds, from 100 µs to 10 s.
pub const SECONDS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];

/// Upper bounds for an engine's thinking in seconds, from 10 ms to 5 minutes.
pub const THINKING_SECONDS: &[f64] = &[
    0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0,
];

/// Upper bounds for counts of things in a batch.
pub const BATCH_SIZES: &[f64] = &[
    1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0,
];

/// Metrics written as Prometheus text: each family with its `# HELP` and `# TYPE` lines once.
/// Names and label values are the caller's constants (label values are escaped all the same).
#[derive(Debug, Default)]
pub struct Exposition {
    out: String,
}

impl Exposition {
    /// A counter without labels; `name` ends in `_total`.
    pub fn counter(&mut self, name: &str, help: &str, value: u64) {
        self.counter_family(name, help, &[(&[], value)]);
    }

    /// A counter with one sample per label set.
    pub fn counter_family(&mut self, name: &str, help: &str, samples: &[(&[(&str, &str)], u64)]) {
        self.header(name, help, "counter");
        for (labels, value) in samples {
            self.sample(name, labels, &value.to_string());
        }
    }

    /// A gauge without labels.
    pub fn gauge(&mut self, name: &str, help: &str, value: f64) {
        self.gauge_family(name, help, &[(&[], value)]);
    }

    /// A gauge with one sample per label set.
    pub fn gauge_family(&mut self, name: &str, help: &str, samples: &[(&[(&str, &str)], f64)]) {
        self.header(name, help, "gauge");
        for (labels, value) in samples {
            self.sample(name, labels, &number(*value));
        }
    }

    /// A histogram: cumulative buckets, `+Inf`, sum and count.
    pub fn histogram(&mut self, name: &str, help: &str, h: &Histogram) {
        self.header(name, help, "histogram");
        // The count is read first, so that no bucket can exceed `+Inf` while observations land
        // during the scrape (a bucket may lag the count by those, which Prometheus accepts).
        let count = h.count();
        let mut cumulative = 0;
        let bucket = format!("{name}_bucket");
        for (i, bound) in h.bounds().iter().enumerate() {
            cumulative += h.buckets[i].load(Ordering::Relaxed);
            let le = number(*bound);
            self.sample(&bucket, &[("le", &le)], &cumulative.min(count).to_string());
        }
        self.sample(&bucket, &[("le", "+Inf")], &count.to_string());
        let sum = f64::from_bits(h.sum.load(Ordering::Relaxed));
        self.sample(&format!("{name}_sum"), &[], &number(sum));
        self.sample(&format!("{name}_count"), &[], &count.to_string());
    }

    /// The text, ready to serve as `text/plain; version=0.0.4`.
    pub fn text(&self) -> &str {
        &self.out
    }

    /// Takes the text.
    pub fn into_text(self) -> String {
        self.out
    }

    fn header(&mut self, name: &str, help: &str, kind: &str) {
        let help = help.replace('\\', "\\\\").replace('\n', "\\n");
        let _ = writeln!(self.out, "# HELP {name} {help}");
        let _ = writeln!(self.out, "# TYPE {name} {kind}");
    }

    fn sample(&mut self, name: &str, labels: &[(&str, &str)], value: &str) {
        self.out.push_str(name);
        if !labels.is_empty() {
            self.out.push('{');
            for (i, (k, v)) in labels.iter().enumerate() {
                if i > 0 {
                    self.out.push(',');
                }
                let v = v
                    .replace('\\', "\\\\")
                    .replace('"', "\\\"")
                    .replace('\n', "\\n");
                let _ = write!(self.out, "{k}=\"{v}\"");
            }
            self.out.push('}');
        }
        let _ = writeln!(self.out, " {value}");
    }
}

/// A sample value as Prometheus reads it (`+Inf`, `-Inf`, `NaN`, or a float).
fn number(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "+Inf" } else { "-Inf" }.into()
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative_and_end_in_inf() {
        static H: Histogram = Histogram::new(&[1.0, 2.0]);
        for v in [0.5, 1.5, 1.5, 7.0] {
            H.observe(v);
        }
        let mut e = Exposition::default();
        e.histogram("x_seconds", "X.", &H);
        assert_eq!(
            e.text(),
            "# HELP x_seconds X.\n# TYPE x_seconds histogram\n\
             x_seconds_bucket{le=\"1\"} 1\nx_seconds_bucket{le=\"2\"} 3\n\
             x_seconds_bucket{le=\"+Inf\"} 4\nx_seconds_sum 10.5\nx_seconds_count 4\n"
        );
    }

    #[test]
    fn label_values_are_escaped() {
        let mut e = Exposition::default();
        e.counter_family("y_total", "Y.", &[(&[("k", "a\"b\\c\nd")], 2)]);
        assert!(e.text().ends_with("y_total{k=\"a\\\"b\\\\c\\nd\"} 2\n"));
    }

    #[test]
    fn gauges_write_special_values_as_prometheus_does() {
        assert_eq!(number(f64::INFINITY), "+Inf");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(3.0), "3");
        assert_eq!(number(0.25), "0.25");
    }
}
