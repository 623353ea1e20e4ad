//! The live games' metrics: actors running in this process, moves played, the time from a
//! move's arrival at its actor to its broadcast (its commit included), and the requests this
//! node forwarded to other nodes by outcome. Process-wide statics, as every scrape is of the
//! whole process.

use tengen_core::metrics::{Counter, Exposition, Gauge, Histogram, SECONDS};

/// Game actors running in this process (a finished game's actor until it retires).
pub(crate) static ACTORS: Gauge = Gauge::new();
/// Game actors that panicked (each taken up again from its log).
pub(crate) static ACTOR_PANICS: Counter = Counter::new();
/// Moves and passes played in games run here.
pub(crate) static MOVES: Counter = Counter::new();
/// From a move's arrival at its actor to its broadcast to the watchers.
pub(crate) static MOVE_TO_BROADCAST: Histogram = Histogram::new(SECONDS);
/// Requests forwarded to the owning node, by outcome.
pub(crate) static FORWARDED_ANSWERED: Counter = Counter::new();
pub(crate) static FORWARDED_MOVED: Counter = Counter::new();
pub(crate) static FORWARDED_UNANSWERED: Counter = Counter::new();
pub(crate) static FORWARDED_UNREADABLE: Counter = Counter::new();

/// Writes the live games' metrics.
pub fn write(out: &mut Exposition) {
    out.gauge(
        "tengen_game_actors",
        "Game actors running in this process (live games, and finished ones until they retire).",
        ACTORS.get() as f64,
    );
    out.counter(
        "tengen_game_actor_panics_total",
        "Game actors that panicked, each taken up again from its log (a bug to report).",
        ACTOR_PANICS.get(),
    );
    out.counter(
        "tengen_moves_total",
        "Moves and passes played in the games this process runs.",
        MOVES.get(),
    );
    out.histogram(
        "tengen_move_to_broadcast_seconds",
        "Time from a move's arrival at its game to its broadcast, the commit included.",
        &MOVE_TO_BROADCAST,
    );
    out.counter_family(
        "tengen_cluster_forwarded_requests_total",
        "Requests about games owned by another node, forwarded to it, by outcome.",
        &[
            (&[("outcome", "answered")], FORWARDED_ANSWERED.get()),
            (&[("outcome", "moved")], FORWARDED_MOVED.get()),
            (&[("outcome", "unanswered")], FORWARDED_UNANSWERED.get()),
            (&[("outcome", "unreadable")], FORWARDED_UNREADABLE.get()),
        ],
    );
}
