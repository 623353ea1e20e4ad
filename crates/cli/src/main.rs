//! `tengen`: the command line of the Tengen Go server.
//!
//! Layout: `main.rs` parses options and dispatches; each subcommand lives in its own module
//! (`bench`, `gtp`, `loadtest`, `match_cmd`, `serve`, `sgf_cmd`).

mod admin;
mod analyze_cmd;
mod bench;
mod bench_nn;
mod bot;
mod bot_remote;
mod chaos;
mod client;
mod gtp;
mod loadtest;
mod loadtest_bots;
mod match_cmd;
mod rate;
mod serve;
mod sgf_cmd;
mod sgf_compare;
mod tournament_cmd;

use clap::{Parser, Subcommand};

/// Whether `t` is a number of seconds a command may wait or think: positive, and at most a
/// day (a `Duration` cannot hold every finite float, and no move needs longer).
fn seconds_ok(t: f64) -> bool {
    t.is_finite() && t > 0.0 && t <= 86_400.0
}

/// Tengen: a Go (baduk, weiqi) server, engine and tools.
#[derive(Parser)]
#[command(name = "tengen", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the Go server (SQLite in ./tengen.db by default). Prints the URL it serves on.
    Serve(serve::ServeOpt),
    /// Play many concurrent games over WebSockets against a running server and report moves per
    /// second and the time from sending a move to receiving its broadcast.
    Loadtest(loadtest::LoadOpt),
    /// Measure the speed of Tengen's parts.
    #[command(subcommand)]
    Bench(bench::Bench),
    /// Speak GTP version 2 on stdin and stdout, as an engine for GoGui, Sabaki, gomill, KGS or
    /// OGS bridges.
    Gtp(gtp::GtpOpt),
    /// One of the built-in bots' levels on the network, speaking GTP (for `tengen match`).
    Bot(bot::BotOpt),
    /// Kill a server with SIGKILL again and again under load, restart it on the same database,
    /// and check that no acknowledged move was lost, reordered or duplicated.
    Chaos(chaos::ChaosOpt),
    /// Analyse every position of a record with the network: Black's win rate and lead and the
    /// best moves, printed move by move and (with --out) written into the record.
    Analyze(analyze_cmd::AnalyzeOpt),
    /// Check and score SGF game records.
    #[command(subcommand)]
    Sgf(sgf_cmd::SgfCmd),
    /// Referee games between two GTP engines, write each as SGF and print the win rate with a
    /// 95% confidence interval.
    Match(match_cmd::MatchOpt),
    /// Fit Bradley-Terry strengths, with 95% intervals, to the games of `tengen match` folders:
    /// each player's log2 odds against an anchor, and the rank it gives.
    Rate(rate::RateOpt),
    /// List the rule presets and what each one means.
    Rules,
    /// Tournament files: recompute an h9 results file's standings.
    #[command(subcommand)]
    Tournament(tournament_cmd::TournamentCmd),
    /// Operator commands on the server's database (a professional rank, a moderator's role,
    /// a backup).
    #[command(subcommand)]
    Admin(admin::AdminCmd),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Serve(opt) => serve::run(opt),
        Command::Bench(b) => bench::run(b),
        Command::Loadtest(opt) => loadtest::run(opt),
        Command::Chaos(opt) => chaos::run(opt),
        Command::Gtp(opt) => gtp::run(opt),
        Command::Bot(opt) => bot::run(opt),
        Command::Sgf(cmd) => sgf_cmd::run(cmd),
        Command::Analyze(opt) => analyze_cmd::run(opt),
        Command::Match(opt) => match_cmd::run(opt),
        Command::Rate(opt) => rate::run(opt),
        Command::Admin(cmd) => admin::run(cmd),
        Command::Tournament(cmd) => tournament_cmd::run(cmd),
        Command::Rules => {
            print_rules();
            Ok(())
        }
    };
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // One readable line; the chain of causes, never a backtrace.
            eprintln!("tengen: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn print_rules() {
    use tengen_rules::Preset;
    for p in Preset::ALL {
        let r = p.rules(19);
        println!(
            "{:<14} ko {:?}, suicide {:?}, scoring {:?}, komi {}, handicap bonus {:?}, repetition {:?}, dead stones {:?}, end {:?}, handicap {:?} up to {}, boards {}-{} (default {})",
            p.name(),
            r.ko,
            r.suicide,
            r.scoring,
            r.komi,
            r.handicap_bonus,
            r.repetition,
            r.dead_stones,
            r.end,
            r.handicap_placement,
            r.max_handicap,
            r.min_size,
            r.max_size,
            p.default_size()
        );
    }
}
