//! GTP: the engine side (`tengen gtp`, [`engine`]; the analysis commands' arguments and
//! reports in KataGo's format, [`analyze`]). The controller side, which drives other engines for
//! `tengen match` and the server's bots, is `tengen_app::bots::gtp`.

pub mod analyze;
pub mod engine;
mod nn;

use std::io::{BufRead, Write};
use std::sync::mpsc;

use clap::Args;
use tengen_gtp::{Command, Response};
use tengen_rules::Preset;

/// Options of `tengen gtp`.
#[derive(Args, Debug)]
pub struct GtpOpt {
    /// Rule preset: wga, chinese, japanese, korean, igz, arena, aga, tromp-taylor, nz,
    /// first-capture. `tengen-rules NAME` switches it during a session.
    #[arg(long, default_value = "chinese")]
    pub rules: Preset,
    /// Board size until the controller sends `boardsize` (default: the preset's own, 9 for
    /// wga and 19 for the others).
    #[arg(long)]
    pub size: Option<u8>,
    /// Seed for the engine's random choices (the same seed plays the same moves).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Playouts a move: a fixed count, for reproducible tests and matches (with the
    /// controller's clock, whichever ends first).
    #[arg(long)]
    pub playouts: Option<u32>,
    /// Seconds a move when the controller announces no time settings (default 1).
    #[arg(long)]
    pub time: Option<f64>,
    /// Search threads, sharing one tree (default: the machine's cores). With one thread and a
    /// fixed playout count the moves are the same on every run.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Strength 1 (a beginner: 100 playouts a move) to 10 (51,200), doubling each level;
    /// sets the playout count unless --playouts does.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: Option<u8>,
    /// Which engine plays: `nn`, the network's PUCT search (where the net plays: every rule
    /// set but first-capture, boards 7x7 to 19x19; the Monte Carlo engine elsewhere), or
    /// `mcts`, the Monte Carlo engine. Default: `nn`, but `mcts` when --playouts or --level is
    /// given (those are the Monte Carlo engine's).
    #[arg(long, value_enum)]
    pub engine: Option<engine::EngineKind>,
    /// Visits a move for the network's search: a fixed count, for reproducible tests and
    /// matches (with the controller's clock, whichever ends first). Counted as KataGo's
    /// `maxVisits`: the root's visits, those kept from the last move's tree included.
    #[arg(long)]
    pub visits: Option<u32>,
    /// Leaves each of the network search's threads gathers and evaluates in one forward pass
    /// (default 1). More than one gives up reproducibility, as more threads do.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub batch: u16,
    /// Never resign.
    #[arg(long)]
    pub no_resign: bool,
    /// A KataGo network (`.bin.gz`, `.txt.gz` or either unzipped, model version 8 to 17) to evaluate with instead of the
    /// built-in g170 b6c96 (`kata-raw-nn`).
    #[arg(long, value_name = "PATH")]
    pub model: Option<std::path::PathBuf>,
    /// Who a human-style net (KataGo's human SL nets) imagines playing, by KataGo's names:
    /// `rank_20k` to `rank_9d`, `preaz_5k` (before AlphaZero), `proyear_1800` to `proyear_2023`
    /// (as `kata-set-param humanSLProfile`).
    #[arg(long, value_name = "NAME")]
    pub human_profile: Option<String>,
}

/// Runs the engine on stdin and stdout until `quit` or the end of input.
pub fn run(opt: GtpOpt) -> anyhow::Result<()> {
    if let Some(t) = opt.time {
        if !crate::seconds_ok(t) {
            anyhow::bail!("--time must be a positive number of seconds, at most 86400");
        }
    }
    let mut engine = engine::Engine::new(opt.rules, opt.size, opt.seed)?;
    if let Some(path) = &opt.model {
        engine.set_model(path)?;
    }
    if let Some(name) = &opt.human_profile {
        engine.set_human_profile(name)?;
    }
    let threads = opt
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    engine.set_strength(engine::Strength {
        playouts: opt
            .playouts
            .or(opt.level.map(engine::level_playouts))
            .map(|n| n.max(1)),
        move_time: opt.time,
        threads: threads.max(1),
        resign: !opt.no_resign,
        engine: opt
            .engine
            .unwrap_or(if opt.playouts.is_some() || opt.level.is_some() {
                engine::EngineKind::Mcts
            } else {
                engine::EngineKind::Nn
            }),
        visits: opt.visits.map(|n| n.max(1)),
        batch: opt.batch as usize,
        level: None,
    });
    serve(engine)
}

/// Answers GTP on stdin and stdout with `engine` until `quit` or the end of input.
pub fn serve(mut engine: engine::Engine) -> anyhow::Result<()> {
    // Lines are read on their own thread, so that a running analysis notices the next command.
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().split(b'\n') {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut out = std::io::stdout().lock();
    let mut pending: Option<Vec<u8>> = None;
    loop {
        let bytes = match pending.take() {
            Some(b) => b,
            None => match rx.recv() {
                Ok(b) => b,
                Err(_) => break,
            },
        };
        // Bytes that are not UTF-8 cannot form a valid command; keep what can be read.
        let line = String::from_utf8_lossy(&bytes).into_owned();
        let (id, response) = match Command::parse(&line) {
            Ok(None) => continue,
            Ok(Some(cmd)) if cmd.name == "lz-analyze" || cmd.name == "kata-analyze" => {
                match engine.start_analysis(&cmd) {
                    Ok(mut analysis) => {
                        pending = analyze(&mut analysis, cmd.id, &rx, &mut out)?;
                        engine.finish_analysis(analysis);
                        continue;
                    }
                    Err(r) => (cmd.id, r),
                }
            }
            Ok(Some(cmd))
                if cmd.name == "lz-genmove_analyze" || cmd.name == "kata-genmove_analyze" =>
            {
                engine.genmove_analyze(&cmd, &mut out)?;
                continue;
            }
            Ok(Some(cmd)) => (cmd.id, engine.handle(&cmd)),
            Err(_) => (Command::id_of(&line), Response::failure("syntax error")),
        };
        out.write_all(response.format(id).as_bytes())?;
        out.flush()?;
        if engine.quit() {
            break;
        }
    }
    Ok(())
}

/// Streams an analysis until the next line of input, which it returns (GTP extension of Leela
/// Zero and KataGo: `=` at once, one line of `info` entries per interval, an empty line at the
/// end).
fn analyze(
    a: &mut analyze::Analysis,
    id: Option<u32>,
    rx: &mpsc::Receiver<Vec<u8>>,
    out: &mut impl Write,
) -> anyhow::Result<Option<Vec<u8>>> {
    let head = id.map_or("=".to_string(), |i| format!("={i}"));
    writeln!(out, "{head}")?;
    out.flush()?;
    let mut first = true;
    let mut reported = false;
    let next = loop {
        let searched = match a.step() {
            Ok(s) => s,
            Err(e) => {
                // The network failed: say why once, then wait for the next command.
                writeln!(out, "info error {e}")?;
                break rx.recv().ok();
            }
        };
        // Nothing before the first visited move: an empty line would end the response.
        if searched || first {
            if let Some(line) = a.report() {
                writeln!(out, "{line}")?;
                out.flush()?;
                reported = true;
            }
        }
        first = false;
        if !searched {
            // At the cap: the last report stands until the next command.
            break rx.recv().ok();
        }
        // A controller that sends its next command at once still gets one report: on a busy
        // machine the first interval may end before any move was visited.
        if !reported {
            continue;
        }
        match rx.try_recv() {
            Ok(line) => break Some(line),
            Err(mpsc::TryRecvError::Empty) => continue,
            Err(mpsc::TryRecvError::Disconnected) => break None,
        }
    };
    writeln!(out)?;
    out.flush()?;
    Ok(next)
}
