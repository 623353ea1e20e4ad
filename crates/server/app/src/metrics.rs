//! The use cases' metrics, and the whole process's exposition: bots playing and their engines'
//! thinking time here; [`write_all`] adds the store's and the live games' and what is read at
//! scrape time (players online). Process-wide statics, as every scrape is of the whole process.

use tengen_core::metrics::{Counter, Exposition, Gauge, Histogram, THINKING_SECONDS};

use tengen_store::Store;

/// Bot moves being computed now (an engine thinking, or waiting for a blocking thread).
pub(crate) static ENGINES_BUSY: Gauge = Gauge::new();
/// Bot drivers playing a game in this process.
pub(crate) static BOT_GAMES: Gauge = Gauge::new();
/// Time the built-in engine took for a move.
pub(crate) static BUILTIN_THINKING: Histogram = Histogram::new(THINKING_SECONDS);
/// Time a GTP engine took for a move (`genmove`, and `time_left` before it).
pub(crate) static GTP_THINKING: Histogram = Histogram::new(THINKING_SECONDS);

/// Tournaments open for registration, as the last tick counted them.
pub(crate) static TOURNAMENTS_OPEN: Gauge = Gauge::new();
/// Tournaments running, as the last tick counted them.
pub(crate) static TOURNAMENTS_RUNNING: Gauge = Gauge::new();
/// Rounds (and ladder challenges) this process paired.
pub(crate) static ROUNDS_PAIRED: Counter = Counter::new();

/// Every metric below the web floor, as Prometheus text families: the use cases', the live
/// games' and the store's (the web floor adds its own), with the number of `bots` offered and
/// of players `online` (counts, so that this module, which every domain counts into, imports
/// none of them).
pub fn write_all(store: &Store, bots: usize, online: usize, out: &mut Exposition) {
    tengen_live::metrics::write(out);
    store.write_metrics(out);
    out.gauge(
        "tengen_bot_games",
        "Games a bot plays in this process (its driver running).",
        BOT_GAMES.get() as f64,
    );
    out.gauge(
        "tengen_bots",
        "Bots this server offers (built-in and GTP).",
        bots as f64,
    );
    out.gauge(
        "tengen_engines_busy",
        "Bot moves being computed now (an engine thinking, or queued for a thread).",
        ENGINES_BUSY.get() as f64,
    );
    out.histogram(
        "tengen_engine_thinking_seconds_builtin",
        "Time the built-in engine took for one move of a bot.",
        &BUILTIN_THINKING,
    );
    out.histogram(
        "tengen_engine_thinking_seconds_gtp",
        "Time a GTP engine took for one move of a bot.",
        &GTP_THINKING,
    );
    out.gauge_family(
        "tengen_tournaments",
        "Tournaments by status, as this node's last tick counted them.",
        &[
            (&[("status", "open")], TOURNAMENTS_OPEN.get() as f64),
            (&[("status", "running")], TOURNAMENTS_RUNNING.get() as f64),
        ],
    );
    out.counter(
        "tengen_tournament_rounds_paired_total",
        "Tournament rounds (and ladder challenges) this node paired.",
        ROUNDS_PAIRED.get(),
    );
    out.gauge(
        "tengen_players_online",
        "Players with a connection open (in a cluster, on any node).",
        online as f64,
    );
}
